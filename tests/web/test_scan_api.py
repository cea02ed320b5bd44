"""The scanner's API: real photos in, cards, combination, verdict and points out; bad uploads
refused with clear messages; calibration from the sample photos makes a usable deck."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import scanning

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
#: Four lone cards of a deck family held out from development: 2p, 8t, 3s and 2s.
SCENE = SAMPLES / "calibration_scenes" / "calibration_scenes_003.jpg"


def labelled(path: Path) -> list[str]:
    labels = json.loads((path.parent / "labels.json").read_text())
    entry = next(image for image in labels["images"] if image["file"] == path.name)
    return sorted(card["card"] for card in entry["cards"])


def post_photo(client: FlaskClient, data: bytes, name: str = "table.jpg", **fields: str) -> Any:
    form: dict[str, Any] = {"image": (io.BytesIO(data), name), **fields}
    return client.post("/api/scan", data=form, content_type="multipart/form-data")


def test_a_photo_gives_its_cards_combination_and_points(client: FlaskClient) -> None:
    response = post_photo(client, SCENE.read_bytes())
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert sorted(card["card"] for card in body["cards"]) == labelled(SCENE)
    assert body["image"] == "table.jpg"
    assert (body["width"], body["height"]) == (1600, 900)
    for card in body["cards"]:
        assert 0.0 <= card["confidence"] <= 1.0
        corners = np.array(card["corners"])
        assert corners.shape == (4, 2)
        assert (corners[:, 0] >= -50).all() and (corners[:, 0] <= 1650).all()
    # 2p 8t 3s 2s: no combination, no card points; nothing to judge without a trick.
    assert body["combination"] is None and body["points"] == 0 and body["verdict"] is None


def test_a_raw_body_and_a_big_photo_are_scanned_downscaled(client: FlaskClient) -> None:
    image = cv2.imread(str(SCENE))
    assert image is not None
    big = cv2.resize(image, (4000, 2250), interpolation=cv2.INTER_CUBIC)
    ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    response = client.post("/api/scan", data=encoded.tobytes(), content_type="image/jpeg")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert (body["width"], body["height"]) == (scanning.SCAN_SIDE, round(2250 * scanning.SCAN_SIDE / 4000))
    assert sorted(card["card"] for card in body["cards"]) == labelled(SCENE)


def test_an_iphone_heic_photo_is_scanned_like_its_jpeg(client: FlaskClient) -> None:
    from tests.vision.test_io import heic

    image = cv2.imread(str(SCENE))
    assert image is not None
    response = post_photo(client, heic(image), name="IMG_0042.HEIC")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert (body["width"], body["height"]) == (1600, 900)
    assert sorted(card["card"] for card in body["cards"]) == labelled(SCENE)


def test_a_scan_judges_the_cards_against_the_trick(client: FlaskClient) -> None:
    # Two of the scene's cards are 2s (2p and 2s): a lone pair of twos cannot be a
    # combination together with 8t and 3s, so on a single the verdict is "not legal".
    response = post_photo(client, SCENE.read_bytes(), trick="Kj")
    body = response.get_json()
    assert response.status_code == 200
    assert body["trick"] == "Kj"
    assert body["verdict"]["legal"] is False and body["verdict"]["reason"]


def test_a_scan_never_changes_a_saved_score(client: FlaskClient, table: dict[str, Any]) -> None:
    before = client.get(f"/api/tables/{table['id']}").get_json()
    assert post_photo(client, SCENE.read_bytes(), trick="3j").status_code == 200
    assert client.get(f"/api/tables/{table['id']}").get_json() == before


def test_judge_cards_after_a_correction(client: FlaskClient) -> None:
    response = client.post("/api/judge-cards", json={"game": "tichu", "cards": "Kj ks", "trick": "Qj Qs"})
    assert response.status_code == 200
    assert response.get_json() == {
        "cards": ["Kj", "Ks"],
        "combination": {"kind": "pair", "rank": 13, "length": 2},
        "points": 20,
        "verdict": {"legal": True, "combination": {"kind": "pair", "rank": 13, "length": 2},
                    "points": 20, "reason": None},
    }
    lower = client.post("/api/judge-cards", json={"cards": ["5j", "5s"], "trick": "9j 9s"}).get_json()
    assert lower["points"] == 10 and lower["verdict"]["legal"] is False
    # A card read twice is no real situation: the verdict says so instead of failing.
    twice = client.post("/api/judge-cards", json={"cards": "Kj Kj", "trick": "2s"}).get_json()
    assert twice["verdict"]["legal"] is False and "Kj" in twice["verdict"]["error"]
    standard = client.post("/api/judge-cards", json={"game": "standard", "cards": "Kh 5d RJ"}).get_json()
    assert standard == {"cards": ["Kh", "5d", "RJ"], "combination": None, "points": 15, "verdict": None}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"cards": "Kj Xq"}, "Xq"),
        ({"cards": "Kj", "trick": "Zz"}, "the trick"),
        ({"game": "skat", "cards": "Kj"}, "unknown game"),
        ({"cards": 7}, "cards in notation"),
    ],
)
def test_judge_cards_refuses_bad_input(client: FlaskClient, body: dict[str, Any], message: str) -> None:
    response = client.post("/api/judge-cards", json=body)
    assert response.status_code == 400
    assert message in response.get_json()["error"]


def truncated_jpeg() -> bytes:
    return SCENE.read_bytes()[:20_000]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"%PDF-1.4 this is a document, not a photo", "not an image"),
        (truncated_jpeg(), "truncated"),
    ],
    ids=["empty", "not-an-image", "truncated-jpeg"],
)
def test_bad_photos_are_refused_clearly(client: FlaskClient, data: bytes, message: str) -> None:
    raw = client.post("/api/scan", data=data, content_type="image/jpeg")
    for response in (post_photo(client, data), raw):
        assert response.status_code == 400
        error = response.get_json()["error"]
        assert error.startswith("cannot read the photo") and message in error
        assert "Traceback" not in response.get_data(as_text=True)


def test_missing_field_and_oversized_upload(client: FlaskClient) -> None:
    form = {"photo": (io.BytesIO(b"x"), "a.jpg")}
    response = client.post("/api/scan", data=form, content_type="multipart/form-data")
    assert response.status_code == 400 and "'image'" in response.get_json()["error"]
    huge = b"\xff\xd8\xff" + bytes(scanning.MAX_PHOTO_BYTES + 10)
    response = client.post("/api/scan", data=huge, content_type="image/jpeg")
    assert response.status_code == 413
    assert response.get_json() == {"error": "the photo is too large (limit 20 MB)"}
    # The other JSON endpoints keep their small limit.
    response = client.post("/api/judge-cards", data=b"{" + bytes(300 * 1024), content_type="application/json")
    assert response.status_code == 413 and "256 KiB" in response.get_json()["error"]


def test_bad_options_are_refused(client: FlaskClient) -> None:
    photo = SCENE.read_bytes()
    assert "unknown game" in post_photo(client, photo, game="poker").get_json()["error"]
    response = post_photo(client, photo, trick="Kj Qx")
    assert response.status_code == 400 and "Qx" in response.get_json()["error"]
    response = post_photo(client, photo, deck="nobody")
    assert response.status_code == 400 and "no saved deck called 'nobody'" in response.get_json()["error"]
    for name in ("../../etc/passwd", "..", "a/b", "Big Deck", ".hidden", "x" * 41):
        response = post_photo(client, photo, deck=name)
        assert response.status_code == 400 and "not allowed" in response.get_json()["error"], name


def test_a_busy_scanner_answers_503_instead_of_queueing_forever(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scanning, "SCAN_WAIT", 0.05)
    taken = [scanning._slots.acquire(timeout=1) for _ in range(scanning.SCAN_SLOTS)]
    try:
        assert all(taken)
        response = post_photo(client, SCENE.read_bytes())
        assert response.status_code == 503 and "busy" in response.get_json()["error"]
    finally:
        for _ in taken:
            scanning._slots.release()
    assert post_photo(client, SCENE.read_bytes()).status_code == 200


def calibration_form(name: str, game: str = "tichu", drop_last_card: bool = False) -> dict[str, Any]:
    manifest = json.loads((SAMPLES / "calibration" / "manifest.json").read_text())
    folder = SAMPLES / "calibration"
    photos = [(io.BytesIO((folder / p["file"]).read_bytes()), p["file"]) for p in manifest["photos"]]
    lists = [p["cards"] for p in manifest["photos"]]
    if drop_last_card:
        lists[1] = lists[1].rsplit(" ", 1)[0]
    return {"name": name, "game": game, "photo": photos, "cards": lists}


def test_calibration_makes_a_deck_the_scanner_uses(app: Flask, client: FlaskClient) -> None:
    assert client.get("/api/profiles").get_json() == {"profiles": []}
    form = calibration_form("home-deck")
    response = client.post("/api/profiles", data=form, content_type="multipart/form-data")
    assert response.status_code == 201, response.get_json()
    # The sample deck is coloured like a typical edition; calibration measured it so.
    colours = {"jade": "green", "sword": "black", "pagoda": "blue", "star": "red"}
    # It prints its specials' names under their art: the Mahjong's, Dog's and Phoenix's it learnt.
    names = ["Dog", "Mahjong", "Phoenix"]
    deck = {
        "name": "home-deck",
        "game": "tichu",
        "cards_learnt": 56,
        "suit_colours": colours,
        "names_learnt": names,
    }
    assert response.get_json() == deck
    assert (Path(app.config["DATA"]) / "profiles" / "home-deck.npz").is_file()
    assert client.get("/api/profiles").get_json() == {"profiles": [deck]}
    body = post_photo(client, SCENE.read_bytes(), deck="home-deck").get_json()
    assert body["deck"] == "home-deck" and body["game"] == "tichu"
    assert sorted(card["card"] for card in body["cards"]) == labelled(SCENE)
    wrong_game = post_photo(client, SCENE.read_bytes(), deck="home-deck", game="standard")
    assert wrong_game.status_code == 400 and "is a tichu deck" in wrong_game.get_json()["error"]


def test_calibration_names_the_photo_that_does_not_match(app: Flask, client: FlaskClient) -> None:
    form = calibration_form("short", drop_last_card=True)
    response = client.post("/api/profiles", data=form, content_type="multipart/form-data")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert "photo 2 (calibration_2.jpg)" in error and "found 14 cards but the list names 13" in error
    assert not (Path(app.config["DATA"]) / "profiles" / "short.npz").exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "../evil"}, "not allowed"),
        ({"name": ""}, "name the deck"),
        ({"name": "ok", "game": "skat"}, "unknown game"),
        ({"name": "ok", "cards": []}, "4 photos but 0 card lists"),
        ({"name": "ok", "cards": ["2j Zz", "", "", ""]}, "photo 1 (calibration_1.jpg): "),
        ({"name": "ok", "photo": []}, "no photos"),
    ],
)
def test_calibration_refuses_bad_forms(
    app: Flask, client: FlaskClient, fields: dict[str, Any], message: str
) -> None:
    form = {**calibration_form("x"), **fields}
    response = client.post("/api/profiles", data=form, content_type="multipart/form-data")
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert not (Path(app.config["DATA"]).parent / "evil.npz").exists()
    assert client.get("/api/profiles").get_json() == {"profiles": []}


def test_pages_render(client: FlaskClient, table: dict[str, Any]) -> None:
    page = client.get(f"/scan?table={table['id']}").get_data(as_text=True)
    assert 'capture="environment"' in page and "Ann &amp; Cy" in page and table["id"] in page
    assert client.get("/scan?table=nope").status_code == 200
    # The round form links to the scanner for its table.
    assert f'href="/scan?table={table["id"]}"' in client.get(f"/t/{table['id']}").get_data(as_text=True)
    calibrate = client.get("/calibrate").get_data(as_text=True)
    assert "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj Mahjong" in calibrate
    assert '<a href="/scan"' in client.get("/").get_data(as_text=True)
