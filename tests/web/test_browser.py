"""The pages in real headless Chromium at a phone's size (Debian's chromium, PyPI's playwright).

Screenshots of every page go to a temporary folder, or to the folder named by
``TRICKMATE_SCREENSHOTS`` (``docs/screenshots`` refreshes the committed ones).
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.conftest import Server

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("browser") / "data").start()
    try:
        yield server
    finally:
        server.kill()


def new_page(browser: object, base: str):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, base_url=base)  # type: ignore[attr-defined]
    context.set_default_timeout(5000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def shoot(page, folder: Path, name: str, full: bool = True) -> None:  # type: ignore[no-untyped-def]
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full)


def expect_text(page, selector: str, pattern: str) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    expect(page.locator(selector)).to_have_text(re.compile(pattern), timeout=5000)


def enter_round(page, calls: dict[str, str], out: list[str], points: int | None = None) -> None:  # type: ignore[no-untyped-def]
    for name, call in calls.items():
        label = "Grand Tichu" if call == "grand" else "Tichu"
        page.get_by_role("button", name=f"{name} called {label}", exact=True).click()
    for name in out:
        page.get_by_role("button", name=f"{name} went out next").click()
    if points is not None:
        page.locator(f'#keypad [data-points="{points}"]').click()


def test_score_a_game_with_a_live_viewer(browser: object, live_server: Server, shots: Path) -> None:
    scorer = new_page(browser, live_server.base)
    scorer.goto("/")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        scorer.get_by_label(f"Seat {seat + 1} name", exact=False).fill(name)
    scorer.get_by_role("radio", name="500").check()
    shoot(scorer, shots, "start")
    scorer.get_by_role("button", name="Start the table").click()
    scorer.wait_for_url(re.compile(r"/t/[\w-]+$"))
    assert "token" not in scorer.url  # taken out of the address bar, kept on the phone
    expect_text(scorer, "#live", "live")

    # Round 1: Ann called Tichu and went out first; Ann & Cy took 60 card points.
    enter_round(scorer, {"Ann": "tichu"}, ["Ann", "Bob"], 60)
    expect_text(scorer, "#points-shown", r"Ann & Cy 60 · Bob & Di 40")
    expect_text(scorer, "#preview", r"Ann & Cy \+160 · Bob & Di \+40")
    shoot(scorer, shots, "enter-round")
    scorer.get_by_role("button", name="Save round").click()
    expect_text(scorer, "#total0", "^160$")
    expect_text(scorer, "#total1", "^40$")

    viewer = new_page(browser, live_server.base)
    viewer.goto(scorer.locator("#viewer-link").get_attribute("href"))
    expect_text(viewer, "#total0", "^160$")
    expect_text(viewer, "#live", "live")
    assert viewer.locator("#entry").is_hidden() and viewer.locator("#scorer-invite").is_hidden()

    # Round 2: a double victory for Bob & Di, with Cy's failed Grand Tichu.
    enter_round(scorer, {"Cy": "grand"}, ["Bob", "Di"])
    expect_text(scorer, "#out-hint", "Double victory for Bob & Di")
    expect_text(scorer, "#preview", r"Ann & Cy −200 · Bob & Di \+200")
    scorer.get_by_role("button", name="Save round").click()
    expect_text(viewer, "#total1", "^240$")  # no reload: the live stream brought it
    expect_text(viewer, "#total0", "^-40$")
    expect_text(viewer, "#round-list", "Grand Cy ✗")

    # An impossible entry is explained, not saved.
    enter_round(scorer, {}, ["Ann", "Bob", "Cy"])
    scorer.get_by_role("tab", name="Count from cards").click()
    scorer.locator('button.pile[data-pile="hand"]').click()
    scorer.locator('[data-card="Dragon"]').click()
    expect_text(scorer, "#preview", "missing")
    scorer.evaluate("document.getElementById('points-section').scrollIntoView()")
    shoot(scorer, shots, "count-from-cards", full=False)
    scorer.get_by_role("button", name="Clear").click()

    # Correction: round 1 was really 70 card points.
    scorer.get_by_role("button", name="Edit round 1").click()
    expect_text(scorer, "#entry-title", "editing")
    scorer.locator('#keypad [data-points="70"]').click()
    scorer.get_by_role("button", name="Save changes to round 1").click()
    expect_text(viewer, "#total0", "^-30$")
    expect_text(viewer, "#total1", "^230$")

    # Undo the last round; then a third round entered the same way.
    scorer.get_by_role("button", name="Undo last round").click()
    expect_text(viewer, "#total1", "^30$")
    expect_text(viewer, "#total0", "^170$")
    shoot(viewer, shots, "viewer")

    # Reloading loses nothing.
    scorer.reload()
    expect_text(scorer, "#total0", "^170$")
    assert scorer.locator("#entry").is_visible()

    # Two double victories end the game at 570; both phones see the winner.
    for total in (370, 570):
        enter_round(scorer, {}, ["Ann", "Cy"])
        scorer.get_by_role("button", name="Save round").click()
        expect_text(scorer, "#total0", f"^{total}$")
    expect_text(viewer, "#winner-text", "Ann & Cy win")
    expect_text(scorer, "#winner-text", "Ann & Cy win")
    scorer.evaluate("window.scrollTo(0, 0)")
    shoot(scorer, shots, "scorer", full=True)
    shoot(viewer, shots, "winner-viewer", full=False)
    assert scorer.locator("#entry").is_hidden()

    # A rematch is a new table with the same players, kept by the same phone.
    old_url = scorer.url
    scorer.get_by_role("button", name=re.compile("Rematch")).click()
    scorer.wait_for_url(lambda url: url != old_url and "/t/" in url)
    expect_text(scorer, "#total0", "^0$")
    expect_text(scorer, ".team-score.team0 .team-names", "Ann & Cy")
    assert scorer.locator("#entry").is_visible()
    # Other pages (counting a pile of cards) hand card points to the form.
    scorer.evaluate("window.trickmate.setCardPoints('1', 45)")
    expect_text(scorer, "#points-shown", "Ann & Cy 55 · Bob & Di 45")
    assert not scorer.errors and not viewer.errors


def test_referee_page(browser: object, live_server: Server, shots: Path) -> None:
    page = new_page(browser, live_server.base)
    page.goto("/referee")
    page.locator('button.pile[data-pile="trick"]').click()
    for card in ("4j", "4s", "4p", "Kt", "Kj"):
        page.locator(f'[data-card="{card}"]').click()
    page.locator('button.pile[data-pile="play"]').click()
    for card in ("5j", "5s", "5p", "9t", "9j"):
        page.locator(f'[data-card="{card}"]').click()
    page.get_by_role("button", name="Is it legal?").click()
    expect_text(page, "#verdict", "Legal")
    expect_text(page, "#verdict", "full house")

    # A pair cannot beat a full house; the reason is shown.
    page.locator('[data-card="9t"]').click()
    page.locator('[data-card="9j"]').click()
    page.locator('[data-card="5p"]').click()
    page.get_by_role("button", name="Is it legal?").click()
    expect_text(page, "#verdict", "Not legal")
    reason = page.locator("#verdict .reason").inner_text()
    assert reason.strip()

    # The wish binds: holding a 7 with a 7 wish, a single 8 on a 6 is refused.
    page.get_by_role("button", name="Clear").click()
    page.locator('button.pile[data-pile="trick"]').click()
    page.locator('[data-card="6j"]').click()
    page.locator('button.pile[data-pile="play"]').click()
    page.locator('[data-card="8s"]').click()
    page.locator('button.pile[data-pile="rest"]').click()
    page.locator('[data-card="7p"]').click()
    page.get_by_role("button", name="Wish for 7").click()
    page.get_by_role("button", name="Is it legal?").click()
    expect_text(page, "#verdict", "Not legal")
    expect_text(page, "#verdict .reason", "7")
    shoot(page, shots, "referee")

    # A Phoenix on a 9 is worth 9.5: a 10 beats it, a 9 does not.
    page.get_by_role("button", name="Clear").click()
    page.get_by_role("button", name="No wish").click()
    page.locator('button.pile[data-pile="before"]').click()
    page.locator('[data-card="9j"]').click()
    page.locator('button.pile[data-pile="trick"]').click()
    page.locator('[data-card="Phoenix"]').click()
    page.locator('button.pile[data-pile="play"]').click()
    page.locator('[data-card="9s"]').click()
    page.get_by_role("button", name="Is it legal?").click()
    expect_text(page, "#verdict", "Not legal")
    page.locator('[data-card="9s"]').click()
    page.locator('[data-card="10s"]').click()
    page.get_by_role("button", name="Is it legal?").click()
    expect_text(page, "#verdict", "Legal")
    assert not page.errors


def test_unknown_table_page(browser: object, live_server: Server, shots: Path) -> None:
    page = new_page(browser, live_server.base)
    response = page.goto("/t/no-such-table")
    assert response is not None and response.status == 404
    expect_text(page, "h1", "404")
    shoot(page, shots, "not-found", full=False)


def test_viewer_comes_back_after_the_server_restarts(browser: object, live_server: Server) -> None:
    status, table = live_server.request("POST", "/api/tables", {"players": ["Ann", "Bob", "Cy", "Di"]})
    assert status == 201
    viewer = new_page(browser, live_server.base)
    viewer.goto(table["viewer_url"].replace(f"http://127.0.0.1:{live_server.port}", ""))
    expect_text(viewer, "#live", "live")
    live_server.kill(signal.SIGKILL)  # the connection drops
    expect_text(viewer, "#live", "reconnecting")
    live_server.start()
    status, _ = live_server.request(
        "POST", f"/api/tables/{table['id']}/rounds", {"out": [1, 3]}, table["scorer_token"]
    )
    assert status == 201
    expect_text(viewer, "#total1", "^200$")  # no reload: the stream reconnected by itself
    expect_text(viewer, "#live", "live")


def test_house_rules_and_a_second_scorer_that_missed_a_change(
    browser: object, live_server: Server, shots: Path
) -> None:
    import json

    scorer = new_page(browser, live_server.base)
    scorer.goto("/")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        scorer.get_by_label(f"Seat {seat + 1} name", exact=False).fill(name)
    scorer.get_by_role("radio", name="500").check()
    scorer.get_by_label("Double victory scores").fill("300")
    scorer.get_by_label("Count card points from the cards by default").check()
    scorer.get_by_role("button", name="Start the table").click()
    scorer.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect_text(scorer, "#house-rules", "double victory scores 300 · card points counted from the cards")
    assert scorer.get_by_role("tab", name="Count from cards").get_attribute("aria-selected") == "true"
    table_id = scorer.url.rsplit("/", 1)[1]
    token = scorer.evaluate(f"localStorage.getItem('trickmate.token.{table_id}')")
    path = f"/api/tables/{table_id}"

    # The house rule scores the double victory.
    enter_round(scorer, {}, ["Ann", "Cy"])
    expect_text(scorer, "#out-hint", r"\+300")
    expect_text(scorer, "#preview", r"Ann & Cy \+300")
    scorer.get_by_role("button", name="Save round").click()
    expect_text(scorer, "#total0", "^300$")
    for points in (40, 45):
        round_obj = {"out": [1, 0], "points": {"0": points}}
        assert live_server.request("POST", path + "/rounds", round_obj, token)[0] == 201
    expect_text(scorer, "#total0", "^385$")

    # A second scorer phone whose live stream is stuck on this moment (three rounds).
    _, snapshot = live_server.request("GET", path)
    stuck = f"retry: 600000\nevent: table\ndata: {json.dumps(snapshot)}\n\n"
    second = new_page(browser, live_server.base)
    second.route(
        "**/events", lambda route: route.fulfill(status=200, content_type="text/event-stream", body=stuck)
    )
    second.goto(f"{path.replace('/api/tables', '/t')}#token={token}")
    expect_text(second, "#total0", "^385$")

    # The first phone deletes round 2; the second, not knowing, edits "round 3".
    scorer.get_by_role("button", name="Delete round 2").click()
    expect_text(scorer, "#total0", "^345$")
    _, after_delete = live_server.request("GET", path)
    second.get_by_role("button", name="Edit round 3").click()
    second.get_by_role("tab", name="Card points").click()
    second.locator('#keypad [data-points="80"]').click()
    second.get_by_role("button", name="Save changes to round 3").click()
    expect_text(second, "#notice", "Round 3 was not changed: the table changed on another phone")
    expect_text(second, "#total0", "^345$")  # it shows the table as it is now
    assert second.locator("#round-list > li").count() == 2
    second.evaluate("window.scrollTo(0, 0)")
    shoot(second, shots, "stale-edit", full=False)
    assert live_server.request("GET", path)[1] == after_delete  # nothing changed

    # The same for a delete: the first phone adds a round the second does not see.
    enter_round(scorer, {}, ["Bob", "Ann"])
    scorer.get_by_role("tab", name="Card points").click()
    scorer.locator('#keypad [data-points="50"]').click()
    scorer.get_by_role("button", name="Save round").click()
    expect_text(scorer, "#total0", "^395$")
    second.get_by_role("button", name="Delete round 1").click()
    expect_text(second, "#notice", "Round 1 was not deleted")
    expect_text(second, "#total0", "^395$")
    assert len(live_server.request("GET", path)[1]["rounds"]) == 3

    # A phone that is live notices at once when the round it is editing moves.
    scorer.get_by_role("button", name="Edit round 2").click()
    expect_text(scorer, "#entry-title", "editing")
    status, _ = live_server.request("DELETE", path + "/rounds/0", token=token)
    assert status == 200
    expect_text(scorer, "#notice", "Round 2 was changed or moved on another phone")
    expect_text(scorer, "#entry-title", r"^Enter round 3$")

    # A rematch keeps the house rules.
    for _ in range(2):
        assert live_server.request("POST", path + "/rounds", {"out": [0, 2]}, token)[0] == 201
    expect_text(scorer, "#winner-text", "Ann & Cy win")
    old_url = scorer.url
    scorer.get_by_role("button", name=re.compile("Rematch")).click()
    scorer.wait_for_url(lambda url: url != old_url and "/t/" in url)
    expect_text(scorer, "#house-rules", "double victory scores 300 · card points counted from the cards")
    assert not scorer.errors and not second.errors
