"""The scan and calibration pages in real headless Chromium at a phone's size: a photo fed
through the file input becomes outlined cards, a corrected card changes the points, and the
points reach a table's round form; the calibration walk-through learns a deck.

Screenshots go to a temporary folder, or to ``TRICKMATE_SCREENSHOTS`` (``docs/screenshots``
refreshes the committed ones: scan*.png and calibrate*.png).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, PLAYERS, Server
from tests.web.test_browser import expect_text, new_page, shoot

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
#: Four lone cards: 2p, 8t, 3s and 2s (no card points).
SCENE = SAMPLES / "calibration_scenes" / "calibration_scenes_003.jpg"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("scan-pages") / "data").start()
    try:
        yield server
    finally:
        server.kill()


def local(url: str, server: Server) -> str:
    return url.replace(server.base, "")


def test_scan_correct_a_card_and_count_the_pile(browser: object, served: Server, shots: Path) -> None:
    status, table = served.request("POST", "/api/tables", {"players": PLAYERS})
    assert status == 201
    page = new_page(browser, served.base)
    page.goto(local(table["scorer_url"], served))  # this phone keeps the score
    expect_text(page, "#live", "live")
    page.goto(f"/scan?table={table['id']}")
    expect_text(page, "#count0", "Ann & Cy")
    # The trick on the table, picked card by card: a pair of nines.
    page.get_by_role("button", name="Pick the trick's cards").click()
    page.locator('#picker-grid [data-card="9j"]').click()
    page.locator('#picker-grid [data-card="9s"]').click()
    page.get_by_role("button", name="Done").click()
    assert page.locator("#trick").input_value() == "9j 9s"
    shoot(page, shots, "scan", full=False)

    page.set_input_files("#photo", str(SCENE))
    expect_text(page, "#scan-status", "4 cards found")
    found = page.locator("#found-list .found-card")
    assert sorted(b.get_attribute("data-card") for b in found.all()) == ["2p", "2s", "3s", "8t"]
    expect_text(page, "#pile-points", "^0$")
    expect_text(page, "#combination", "No Tichu combination")
    expect_text(page, "#scan-verdict", "Does not beat 9j 9s")
    # The outlines are drawn over the photo: the canvas shows the photo's pixels, not black,
    # and the first card's outline colour is on the canvas.
    drawn = page.evaluate(
        """() => {
             const c = document.getElementById('overlay');
             const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
             const near = (i, r, g, b) =>
               Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 6;
             let outline = 0, lit = 0;
             for (let i = 0; i < d.length; i += 4) {
               if (near(i, 255, 210, 74)) outline++;  // the outline colour, #ffd24a
               if (d[i] + d[i + 1] + d[i + 2] > 60) lit++;
             }
             return {width: c.width, height: c.height, outline, lit};
           }"""
    )
    assert drawn["width"] == 1280 and drawn["height"] == 720
    assert drawn["outline"] > 2000 and drawn["lit"] > drawn["width"] * drawn["height"] // 2
    page.evaluate("document.getElementById('result').scrollIntoView()")
    shoot(page, shots, "scan_result", full=False)

    # 2s was really a King of Swords: 10 points.
    page.locator('#found-list [data-card="2s"]').click()
    expect_text(page, "#picker-title", "read as 2s")
    shoot(page, shots, "scan_correct", full=False)
    page.locator('#picker-grid [data-card="Ks"]').click()
    expect_text(page, "#pile-points", "^10$")
    corrected = page.locator('#found-list [data-card="Ks"]')
    expect_text(page, '#found-list [data-card="Ks"] .found-confidence', "corrected")
    assert corrected.count() == 1
    # Take out the other three: Ks alone is a single, which cannot beat a pair.
    for card in ("2p", "3s", "8t"):
        page.locator(f'#found-list [data-card="{card}"]').click()
        page.locator("#picker-remove").click()
    expect_text(page, "#combination", "Single of rank 13, 1 card")
    expect_text(page, "#scan-verdict", "Does not beat 9j 9s")
    # With the King of Stars it missed, a pair of Kings beats the nines.
    page.locator("#add-card").click()
    page.locator('#picker-grid [data-card="Kt"]').click()
    expect_text(page, "#pile-points", "^20$")
    expect_text(page, "#combination", "Pair of rank 13")
    expect_text(page, "#scan-verdict", "✓ Beats 9j 9s")

    # Count the pile for Bob & Di: the round form opens with 20 card points for them,
    # and nothing is saved until the scorer saves the round.
    page.locator("#count1").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+\?points=20&team=1$"))
    expect_text(page, "#points-shown", r"Ann & Cy 80 · Bob & Di 20")
    status, stored = served.request("GET", f"/api/tables/{table['id']}")
    assert status == 200 and stored["rounds"] == []
    assert not page.errors


def test_a_phone_that_does_not_keep_score_is_told_why(browser: object, served: Server) -> None:
    status, table = served.request("POST", "/api/tables", {"players": PLAYERS})
    assert status == 201
    page = new_page(browser, served.base)  # a fresh phone: it has the viewer link only
    page.goto(f"/scan?table={table['id']}")
    page.set_input_files("#photo", str(SCENE))
    expect_text(page, "#scan-status", "4 cards found")
    expect_text(page, "#count-hint", "does not keep this table's score: open the scorer link")
    assert page.locator("#count-actions").is_hidden()
    assert not page.errors


def test_a_file_that_is_no_photo_is_explained(browser: object, served: Server, tmp_path: Path) -> None:
    page = new_page(browser, served.base)
    page.goto("/scan")
    text = tmp_path / "notes.jpg"
    text.write_text("shopping list: milk, eggs")
    page.set_input_files("#photo", str(text))
    expect_text(page, "#scan-error", "Cannot scan this photo: cannot read the photo: not an image")
    assert page.locator("#result").is_hidden()
    assert page.locator("#count-actions").is_hidden()
    assert not page.errors


def test_without_a_camera_the_page_explains(browser: object, served: Server, shots: Path) -> None:
    # A phone opening http://<LAN address> is not a secure context: no camera API at all.
    page = new_page(browser, served.base)
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    page.goto("/scan")
    expect_text(page, "#camera-note", "The live camera needs a secure page: start trickmate serve --https")
    expect_text(page, "#camera-note", "Take or upload a photo below instead")
    assert page.locator("#camera-start").is_hidden() and page.locator("#photo").is_visible()
    assert page.locator("#photo").get_attribute("capture") == "environment"
    shoot(page, shots, "scan_no_camera", full=False)
    # On a secure page without a camera (headless Chromium has none) the button says why.
    page = new_page(browser, served.base)
    page.goto("/scan")
    page.get_by_role("button", name="Use the live camera").click()
    reason = r"(No camera was found|camera permission was refused).*Take or upload a photo"
    expect_text(page, "#camera-note", reason)
    assert page.locator("#camera").is_hidden()
    assert not page.errors


def test_live_camera_snapshot(playwright_session: Any, served: Server, tmp_path: Path) -> None:
    """Chromium's fake camera plays the scene photo (an MJPEG file is JPEG frames one after
    another): the preview runs, and a snapshot is scanned like an uploaded photo."""
    video = tmp_path / "table.mjpeg"
    video.write_bytes(SCENE.read_bytes())
    camera = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
              f"--use-file-for-fake-video-capture={video}"]
    browser = playwright_session.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *camera], headless=True
    )
    try:
        page = new_page(browser, served.base)
        page.context.grant_permissions(["camera"])
        page.goto("/scan")
        # The permission was given before: the preview starts by itself.
        page.wait_for_function("() => document.getElementById('camera-video').videoWidth > 0")
        assert page.locator("#camera-note").is_hidden() and page.locator("#camera-start").is_hidden()
        page.get_by_role("button", name="Snapshot").click()
        expect_text(page, "#scan-status", "4 cards found")
        cards = page.locator("#found-list .found-card").all()
        assert sorted(b.get_attribute("data-card") for b in cards) == ["2p", "2s", "3s", "8t"]
        page.get_by_role("button", name="Stop the camera").click()
        assert page.locator("#camera").is_hidden() and page.locator("#camera-start").is_visible()
        assert not page.errors
    finally:
        browser.close()


def test_calibration_walk_through_learns_a_deck(browser: object, served: Server, shots: Path) -> None:
    from playwright.sync_api import expect

    manifest = json.loads((SAMPLES / "calibration" / "manifest.json").read_text())
    page = new_page(browser, served.base)
    page.goto("/calibrate")
    page.get_by_label("Name of this deck").fill("Home Deck")
    page.get_by_role("button", name="Next: photo 1").click()
    for number, photo in enumerate(manifest["photos"], start=1):
        expect_text(page, f"#photo-title-{number}", f"Photo {number} of 4")
        # The suggested layout is exactly the sample photos' manifest.
        assert page.locator(f"#cards-{number}").input_value() == photo["cards"]
        page.set_input_files(f"#photo-{number}", str(SAMPLES / "calibration" / photo["file"]))
        expect_text(page, f"#step-photo-{number} .photo-status", "Photo chosen")
        if number == 1:
            page.evaluate("document.getElementById('photo-title-1').scrollIntoView()")
            shoot(page, shots, "calibrate", full=False)
        page.locator("#next").click()
    expect_text(page, "#review", "Deck name: home-deck")
    expect_text(page, "#review", "Photo 4: 14 cards")
    page.get_by_role("button", name="Learn this deck").click()
    # Learning takes about two seconds a photo on a shared CPU.
    expect(page.locator("#learnt-text")).to_have_text(
        re.compile(
            "Learnt 56 cards of the Tichu deck “home-deck”, with its suit colours"
            r" \(jade green, sword black, pagoda blue, star red\),"
            " and the names printed on its Dog, Mahjong, Phoenix"
        ),
        timeout=40_000,
    )
    page.evaluate("document.getElementById('learn').scrollIntoView()")
    shoot(page, shots, "calibrate_learnt", full=False)

    # The deck is now a choice on the scanner, and it reads the held-out scene.
    page.get_by_role("link", name="Scan with this deck").click()
    page.wait_for_url(re.compile(r"/scan\?deck=home-deck$"))
    page.wait_for_function("() => document.getElementById('deck').value === 'home-deck'")
    page.set_input_files("#photo", str(SCENE))
    expect_text(page, "#scan-status", "4 cards found")
    assert not page.errors
