"""Calibration: photos of a deck in rows -> a profile -> that deck read in a new photo."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import Card, tichu_deck
from tests.vision.conftest import paste_face, table
from vision import profile as profile_module
from vision.profile import (
    CalibrationError,
    DeckProfile,
    ProfileError,
    calibrate,
    card_template,
    sort_reading_order,
)
from vision.scan import scan_image
from vision.synth.style import DeckStyle, families, random_style

TRICKMATE = str(Path(sys.executable).with_name("trickmate"))


def run_calibrate(manifest: Path, output: Path) -> subprocess.CompletedProcess[str]:
    """`trickmate calibrate` of a Tichu deck, as a player runs it."""
    command = [TRICKMATE, "calibrate", "--game", "tichu", "--manifest", str(manifest), "-o", str(output)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def layout_photo(style: DeckStyle, cards: list[Card], per_row: int = 7, width: int = 110) -> np.ndarray:
    """The cards face up in rows, in reading order, on a dark table."""
    rows = (len(cards) + per_row - 1) // per_row
    canvas = table(60 + rows * int(width * 1.6), 60 + per_row * int(width * 1.25), seed=len(cards))
    for i, card in enumerate(cards):
        center = (
            40 + width * 0.6 + (i % per_row) * width * 1.25,
            40 + width * 0.75 + (i // per_row) * width * 1.6,
        )
        paste_face(canvas, style, card, width, center, 0.0)
    return canvas


@pytest.fixture(scope="module")
def style() -> DeckStyle:
    # A deck family never used while developing the reader.
    return random_style(np.random.default_rng(7), "tichu", families("tichu", held_out=True))


@pytest.fixture(scope="module")
def photos(style: DeckStyle) -> list[tuple[np.ndarray, list[Card]]]:
    deck = list(tichu_deck())
    return [(layout_photo(style, deck[i : i + 14]), deck[i : i + 14]) for i in range(0, len(deck), 14)]


def test_reading_order_sorts_rows_then_columns() -> None:
    centers = np.array([[300, 410], [100, 400], [110, 100], [200, 95.0]])
    assert sort_reading_order(centers, np.full(4, 150.0)) == [2, 3, 1, 0]


def test_a_calibrated_profile_reads_a_new_photo_of_its_deck(
    style: DeckStyle, photos: list[tuple[np.ndarray, list[Card]]], tmp_path: Path
) -> None:
    profile = calibrate(photos, "tichu")
    assert len(profile.templates) == 56 and len(profile.labels) > 100
    profile.save(tmp_path / "deck.npz")
    loaded = DeckProfile.load(tmp_path / "deck.npz")
    assert loaded.labels == profile.labels and np.array_equal(loaded.exemplars, profile.exemplars)
    cards = [Card.parse(c) for c in ("Kp", "5j", "10s", "At", "Dragon")]
    scene = table(600, 900, seed=3)
    for k, (card, angle) in enumerate(zip(cards, (10.0, 100.0, 185.0, -40.0, 0.0), strict=True)):
        paste_face(scene, style, card, 120, (110 + k * 170, 300), angle)
    found = sorted(str(c.card) for c in scan_image(scene, "tichu", loaded).cards)
    assert found == sorted(str(c) for c in cards)


def test_calibration_counts_the_corners_its_deck_prints_an_index_in(style: DeckStyle, tmp_path: Path) -> None:
    # Two indices (top left, bottom right) or more: the scanner looks for a top-right index
    # only on decks that print one.
    cards = list(tichu_deck())[:14]
    for top_right, indices in ((False, 2), (True, 3)):
        deck = dataclasses.replace(style, index_top_right=top_right)
        profile = calibrate([(layout_photo(deck, cards), cards)], "tichu")
        assert profile.indices == indices
        profile.save(tmp_path / "deck.npz")
        assert DeckProfile.load(tmp_path / "deck.npz").indices == indices


def test_a_photo_with_the_wrong_number_of_cards_is_named(photos: list[tuple[np.ndarray, list[Card]]]) -> None:
    image, cards = photos[1]
    with pytest.raises(CalibrationError, match=r"second\.jpg: found 14 cards but the list names 13"):
        calibrate([photos[0], (image, cards[:13])], "tichu", names=["first.jpg", "second.jpg"])


def test_the_calibrate_command_writes_a_profile_that_scan_uses(
    style: DeckStyle, photos: list[tuple[np.ndarray, list[Card]]], tmp_path: Path
) -> None:
    entries = []
    for number, (image, cards) in enumerate(photos[:2]):
        cv2.imwrite(str(tmp_path / f"row{number}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        entries.append({"file": f"row{number}.jpg", "cards": " ".join(str(c) for c in cards)})
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"photos": entries}))
    profile = tmp_path / "mine.npz"
    done = run_calibrate(manifest, profile)
    assert done.returncode == 0, done.stderr
    # The player is told what was learnt, the suits' colours included.
    assert "suit colours: jade green, sword black, pagoda blue" in done.stderr
    assert DeckProfile.load(profile).game == "tichu"
    scene = table(400, 400)
    paste_face(scene, style, Card.parse("9j"), 130, (200, 200), 30.0)
    cv2.imwrite(str(tmp_path / "scene.png"), scene)
    scanned = subprocess.run(
        [TRICKMATE, "scan", "--deck", str(profile), str(tmp_path / "scene.png")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert scanned.returncode == 0, scanned.stderr
    assert [c["card"] for c in json.loads(scanned.stdout)["cards"]] == ["9j"]


def test_calibrate_errors_exit_2_with_a_clear_message(
    tmp_path: Path, photos: list[tuple[np.ndarray, list[Card]]]
) -> None:
    cv2.imwrite(str(tmp_path / "jade.jpg"), photos[0][0])
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"photos": [{"file": "jade.jpg", "cards": "2j 3j 4j"}]}))
    done = run_calibrate(manifest, tmp_path / "p.npz")
    assert done.returncode == 2 and "jade.jpg" in done.stderr and "found 14 cards" in done.stderr
    manifest.write_text(json.dumps({"photos": [{"file": "jade.jpg", "cards": "2j Zz"}]}))
    done = run_calibrate(manifest, tmp_path / "p.npz")
    assert done.returncode == 2 and "Zz" in done.stderr


def test_a_file_that_is_no_profile_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a profile")
    with pytest.raises(ProfileError, match="not a deck profile"):
        DeckProfile.load(bad)


def test_special_cards_of_a_calibrated_deck_are_read_by_their_pictures(
    style: DeckStyle, photos: list[tuple[np.ndarray, list[Card]]]
) -> None:
    # Dog, Phoenix and Dragon have no index to read: the whole picture is what names them.
    profile = calibrate(photos, "tichu")
    cards = [Card.parse(c) for c in ("Dog", "Phoenix", "Dragon", "Mahjong")]
    scene = table(500, 900, seed=5)
    for k, (card, angle) in enumerate(zip(cards, (8.0, -12.0, 95.0, 180.0), strict=True)):
        paste_face(scene, style, card, 130, (130 + k * 210, 250), angle)
    found = sorted(str(c.card) for c in scan_image(scene, "tichu", profile).cards)
    assert found == sorted(str(c) for c in cards)


def test_a_special_card_in_a_fan_is_found_by_the_corner_mark_calibration_learnt(style: DeckStyle) -> None:
    # In a fan only the Dragon's corner shows: no outline for its picture, no rank to read,
    # but this deck marks its specials' corners, and calibration learnt the marks.
    marked = dataclasses.replace(style, special_mark="symbol")
    deck = list(tichu_deck())
    profile = calibrate(
        [(layout_photo(marked, deck[i : i + 14]), deck[i : i + 14]) for i in range(0, len(deck), 14)], "tichu"
    )
    assert sorted(set(profile.labels) & {"Dog", "Phoenix", "Dragon"}) == ["Dog", "Dragon", "Phoenix"]
    fan = [Card.parse(c) for c in ("7j", "8s", "Dragon", "9p", "10t")]
    scene = table(520, 900, seed=3)
    for k, card in enumerate(fan):
        paste_face(scene, marked, card, 150, (220 + k * 60, 260 + k * 4), 3.0)
    found = scan_image(scene, "tichu", profile).cards
    assert sorted(str(c.card) for c in found) == sorted(str(c) for c in fan)
    dragon = next(c for c in found if str(c.card) == "Dragon")
    assert cv2.pointPolygonTest(dragon.corners.reshape(-1, 1, 2), (340.0, 264.0), False) >= 0
    # Without calibration the mark means nothing: the other four are read, no Dragon.
    assert sorted(str(c.card) for c in scan_image(scene, "tichu").cards) == ["10t", "7j", "8s", "9p"]


@pytest.fixture(scope="module")
def lettered(style: DeckStyle) -> tuple[DeckStyle, DeckProfile]:
    """The held-out deck with its specials' names' letters in their corners ("Dg" the Dog),
    and the profile its photos teach."""
    marked = dataclasses.replace(style, special_mark="letter")
    deck = list(tichu_deck())
    calibrated = calibrate(
        [(layout_photo(marked, deck[i : i + 14]), deck[i : i + 14]) for i in range(0, len(deck), 14)], "tichu"
    )
    return marked, calibrated


@pytest.mark.parametrize("angle", [0.0, 35.0])
def test_a_loose_special_card_is_found_by_its_mark_at_its_own_angle(
    lettered: tuple[DeckStyle, DeckProfile], angle: float
) -> None:
    # A Phoenix lying on its own, turned away from the other cards: without its outline
    # (the template is left out here, as when a pale table swallows the card's edges) only
    # its lettered corner mark tells it, and the mark reads only upright on its own card's
    # axis, not on a neighbour's.
    marked, calibrated = lettered
    assert "Phoenix" in calibrated.labels
    profile = dataclasses.replace(calibrated, templates={})
    scene = table(560, 900, seed=4)
    for k, card in enumerate(Card.parse(c) for c in ("7j", "8s")):
        paste_face(scene, marked, card, 130, (130 + k * 180, 280), 0.0)
    paste_face(scene, marked, Card.parse("Phoenix"), 130, (680, 280), angle)
    found = scan_image(scene, "tichu", profile).cards
    assert sorted(str(c.card) for c in found) == ["7j", "8s", "Phoenix"]
    phoenix = next(c for c in found if str(c.card) == "Phoenix")
    assert cv2.pointPolygonTest(phoenix.corners.reshape(-1, 1, 2), (680.0, 280.0), False) >= 0


@pytest.mark.parametrize(("width", "blur"), [(150, 1.0), (130, 0.8)])
def test_a_special_cards_two_letter_mark_blurred_into_one_blot_is_still_read(
    lettered: tuple[DeckStyle, DeckProfile], width: int, blur: float
) -> None:
    # Blur joins the Dog's "D" and "g" into one component: the mark calibration learnt is
    # the "D" alone, which the scanner cuts back out of the blot.
    marked, profile = lettered
    fan = [Card.parse(c) for c in ("7j", "8s", "Dog", "9p", "10t")]
    scene = table(520, 900, seed=3)
    for k, card in enumerate(fan):
        paste_face(scene, marked, card, width, (220 + k * 60, 260 + k * 4), 3.0)
    scene = cv2.GaussianBlur(scene, (0, 0), blur)
    found = sorted(str(c.card) for c in scan_image(scene, "tichu", profile).cards)
    assert found == sorted(str(c) for c in fan)


def test_a_deck_framed_right_along_its_edges_is_still_outlined_for_calibration() -> None:
    # This deck's frame line runs a few pixels inside the card's edge: in a soft, compressed
    # photo the sliver of paper outside it is thinner than the speck filter, so some of the
    # 14 outlines came out ragged and calibration refused the photo.  Closing gaps before
    # opening specks keeps the sliver with its card.
    from vision.detect import paper_regions, working_image
    from vision.scan import learn_photo
    from vision.synth.dataset import calibration_photo

    deck = list(tichu_deck())[:14]
    style = DeckStyle.from_seed(41, family="scroll")
    photo, _ = calibration_photo(np.random.default_rng([505, 0]), style, [str(card) for card in deck], 0, 88)
    small, _ = working_image(photo)
    assert sum(quad is not None for quad in paper_regions(small).quads) < 14
    assert sum(quad is not None for quad in paper_regions(small, thin_margins=True).quads) == 14
    learnt = learn_photo(photo, deck, "tichu")
    assert not isinstance(learnt, int)
    assert [item.card for item in learnt] == deck
    assert all(item.labels for item in learnt)  # each card left an exemplar


@pytest.mark.parametrize(
    ("family", "seed", "row", "background", "trouble"),
    [
        ("scroll", 100, 3, "cloth", "a pale table that passes for paper: no card outlined"),
        ("lantern", 102, 2, "wood", "glare washes out two cards: 12 outlined"),
        ("lantern", 104, 0, "plain", "two cards touching: 13 outlined"),
    ],
)
def test_every_card_of_a_calibration_photo_is_outlined_in_reading_order(
    family: str, seed: int, row: int, background: str, trouble: str
) -> None:
    from vision.detect import paper_regions, working_image
    from vision.laid_out import laid_out_cards
    from vision.profile import sort_reading_order
    from vision.synth.dataset import calibration_photo

    cards = list(tichu_deck())[14 * row : 14 * row + 14]
    style = DeckStyle.from_seed(seed, family=family)
    rng = np.random.default_rng([505 + seed, row])
    photo, labels = calibration_photo(rng, style, [str(card) for card in cards], row, 88, background)
    small, scale = working_image(photo)
    assert sum(quad is not None for quad in paper_regions(small).quads) < 14, trouble
    regions = laid_out_cards(small, 14)
    assert regions is not None, trouble
    quads = [quad for quad in regions.quads if quad is not None]
    centers = np.array([quad.mean(axis=0) for quad in quads])
    order = sort_reading_order(centers, np.array([float(np.ptp(quad[:, 1])) for quad in quads]))
    truth = {label.card: np.array(label.corners, np.float32) / scale for label in labels}
    for position, card in zip(order, cards, strict=True):
        outline = truth[str(card)].reshape(-1, 1, 2)
        center = (float(centers[position][0]), float(centers[position][1]))
        assert cv2.pointPolygonTest(outline, center, False) >= 0, f"{card}: {trouble}"
    assert laid_out_cards(small, 15) is None  # a card the photo does not show is not made up


def test_whole_card_templates_tell_apart_pictures_that_differ_only_in_colour() -> None:
    # Two faces alike in lightness, one with a red picture and one with a green one (a red
    # Phoenix and a brown Dog looked alike in grey).
    def face(colour: tuple[int, int, int]) -> np.ndarray:
        image = table(300, 300, seed=1)
        cv2.rectangle(image, (90, 60), (209, 239), (235, 235, 235), -1)
        cv2.ellipse(image, (150, 150), (40, 60), 0, 0, 360, colour, -1)
        return image

    red, green = face((60, 60, 200)), face((60, 125, 60))
    assert (
        abs(
            float(cv2.cvtColor(red, cv2.COLOR_BGR2GRAY)[150, 150])
            - float(cv2.cvtColor(green, cv2.COLOR_BGR2GRAY)[150, 150])
        )
        < 8
    )
    quad = np.array([[90, 60], [209, 60], [209, 239], [90, 239]], np.float32)
    profile = DeckProfile(
        game="tichu", templates={"Phoenix": card_template(red, quad), "Dog": card_template(green, quad)}
    )
    turned = np.ascontiguousarray(red[::-1, ::-1])
    name, score, lead = profile.match_template(card_template(turned, quad))
    assert name == "Phoenix" and score > 0.99 and lead > 0.3


def test_a_card_template_blurs_only_around_its_card_but_as_the_whole_photo_blurred() -> None:
    # A large card's template is blurred before sampling, in a window around the card: over
    # the card's box the window is the photo blurred whole, to the value, also for a card
    # over the photo's edges.
    rng = np.random.default_rng(5)
    photo = np.ascontiguousarray(cv2.resize(rng.integers(0, 256, (60, 90, 3), dtype=np.uint8), (900, 600)))
    for quad in (
        np.array([[300, 100], [520, 140], [470, 430], [250, 390]], np.float32),  # inside
        np.array([[-40, 300], [160, 280], [190, 640], [-10, 660]], np.float32),  # over two edges
    ):
        for sigma in (0.9, 2.5, 6.0):
            window, origin = profile_module._blurred_around(photo, quad, sigma)
            whole = cv2.GaussianBlur(photo, (0, 0), sigma)
            x0, y0 = (max(0, int(np.floor(v))) for v in quad.min(axis=0))
            x1, y1 = (int(np.ceil(v)) + 1 for v in quad.max(axis=0))
            x1, y1 = min(x1, photo.shape[1]), min(y1, photo.shape[0])
            ox, oy = int(origin[0]), int(origin[1])
            assert window.shape[0] * window.shape[1] < photo.shape[0] * photo.shape[1] / 4
            assert np.array_equal(window[y0 - oy : y1 - oy, x0 - ox : x1 - ox], whole[y0:y1, x0:x1])


def test_a_profile_from_an_older_trickmate_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    old = tmp_path / "old.npz"
    meta = {"version": 1, "game": "tichu", "labels": [], "template_names": [], "spread": 1.0, "name": "old"}
    np.savez_compressed(
        old,
        meta=np.array(json.dumps(meta)),
        exemplars=np.zeros((0, 1), np.float32),
        templates=np.zeros((0, 36, 24), np.float32),
    )
    with pytest.raises(ProfileError, match="this version of 'trickmate calibrate'"):
        DeckProfile.load(old)


def test_a_profile_saved_before_marks_had_colours_keeps_its_suit_colours(tmp_path: Path) -> None:
    # Earlier profiles stored the same mapping under "suit_colours".
    saved = tmp_path / "deck.npz"
    DeckProfile("tichu", colours={"jade": "green", "star": "red"}).save(saved)
    with np.load(saved) as arrays:
        meta = json.loads(str(arrays["meta"]))
        exemplars, templates = arrays["exemplars"], arrays["templates"]
    meta["suit_colours"] = meta.pop("colours")
    np.savez_compressed(saved, meta=np.array(json.dumps(meta)), exemplars=exemplars, templates=templates)
    assert DeckProfile.load(saved).colours == {"jade": "green", "star": "red"}


def test_calibration_learns_the_colours_of_its_decks_suits(style: DeckStyle, tmp_path: Path) -> None:
    # An edition coloured unlike the typical Tichu deck (red Jade, blue Sword, black Pagoda,
    # green Star): calibration takes the deck's own colours, which then judge its suits.
    unusual = dataclasses.replace(
        style, suit_colours=((40, 40, 200), (170, 70, 10), (30, 30, 30), (40, 140, 20)), rank_colour=None
    )
    deck = list(tichu_deck())
    photos = [(layout_photo(unusual, deck[i : i + 14]), deck[i : i + 14]) for i in range(0, len(deck), 14)]
    profile = calibrate(photos, "tichu")
    suits = {suit: profile.colours[suit] for suit in ("jade", "sword", "pagoda", "star")}
    assert suits == {"jade": "red", "sword": "blue", "pagoda": "neutral", "star": "green"}
    profile.save(tmp_path / "deck.npz")
    loaded = DeckProfile.load(tmp_path / "deck.npz")
    assert loaded.colour_suits() == {
        "red": ("jade",),
        "blue": ("sword",),
        "neutral": ("pagoda",),
        "green": ("star",),
    }
    # Small and blurred, a Star's symbol alone looks like a Jade's: this deck's green
    # settles it, where the typical deck's green (the Jade's) would mislead.
    cards = [Card.parse(c) for c in ("9t", "10p", "10t", "Kt")]
    scene = table(500, 760, seed=4)
    for k, (card, angle) in enumerate(zip(cards, (353.2, 344.6, 53.6, 350.1), strict=True)):
        paste_face(scene, unusual, card, 70, (110 + k * 180, 250), angle)
    scene = cv2.GaussianBlur(scene, (0, 0), 1.2)
    found = sorted(str(c.card) for c in scan_image(scene, "tichu", loaded).cards)
    assert found == sorted(str(c) for c in cards)
    typical = dataclasses.replace(loaded, colours={})
    assert "9j" in {str(c.card) for c in scan_image(scene, "tichu", typical).cards}


def test_a_thin_line_near_a_special_cards_corner_is_not_taken_for_its_mark() -> None:
    # A piece of a frame line near one corner is on every card of the deck: learnt as the
    # Dog's mark, it would be read as the Dog everywhere.  A compact symbol is a mark.
    from vision.detect import ink_components, paper_regions
    from vision.scan import _corner_marks

    photo = table(300, 300, seed=1)
    cv2.rectangle(photo, (90, 50), (199, 249), (235, 235, 235), -1)  # a lone card
    cv2.line(photo, (186, 62), (186, 80), (40, 40, 40), 2)  # top right: a thin line
    cv2.circle(photo, (104, 236), 6, (40, 40, 40), -1)  # bottom left: a disc
    regions = paper_regions(photo)
    ink = ink_components(photo, regions)
    card = next(i for i, quad in enumerate(regions.quads) if quad is not None)
    quad = regions.quads[card]
    assert quad is not None and len(ink.centers) == 2
    marks = _corner_marks(ink, card, quad)
    assert [ink.centers[m].round().tolist() for m in marks] == [[104.0, 236.0]]


def test_a_mark_printed_at_a_special_cards_very_edge_is_learnt() -> None:
    # A mark touching the card's edge cuts its paper there, so it lies on no paper region;
    # inside the card's outline it is still the card's own mark.
    from vision.detect import ink_components, paper_regions
    from vision.scan import _corner_marks

    photo = table(300, 300, seed=1)
    cv2.rectangle(photo, (90, 50), (199, 249), (235, 235, 235), -1)  # a lone card
    cv2.circle(photo, (97, 57), 7, (40, 40, 40), -1)  # top left, at the card's very corner
    cv2.circle(photo, (180, 230), 6, (40, 40, 40), -1)  # bottom right, well inside
    regions = paper_regions(photo)
    ink = ink_components(photo, regions)
    card = next(i for i, quad in enumerate(regions.quads) if quad is not None)
    quad = regions.quads[card]
    assert quad is not None and len(ink.centers) == 2
    assert sorted(int(r) for r in ink.region) == [-1, card]  # the corner mark: on no region
    marks = _corner_marks(ink, card, quad)
    assert sorted(ink.centers[m].round().tolist() for m in marks) == [[97.0, 57.0], [180.0, 230.0]]


def test_a_frame_corner_broken_off_beside_a_special_cards_marks_is_not_learnt_as_one() -> None:
    # A Phoenix with its star mark in three corners; in the fourth the frame's corner broke
    # off as a piece of its own, mark-sized and no longer than wide.  Learnt as a mark, every
    # frame corner would read as the Phoenix: unlike the marks, which agree, it is left out.
    from vision.scan import learn_photo

    photo = table(300, 300, seed=1)
    cv2.rectangle(photo, (90, 50), (199, 249), (235, 235, 235), -1)  # a lone card
    angles = np.radians(np.arange(10) * 36.0)
    radii = np.where(np.arange(10) % 2 == 0, 8.0, 3.5)
    star = np.stack([np.sin(angles) * radii, -np.cos(angles) * radii], axis=1)
    for x, y, turn in ((104, 64, 1), (185, 235, -1), (104, 235, -1)):  # the bottom ones half turned
        cv2.fillPoly(photo, [np.round(turn * star + (x, y)).astype(np.int32)], (40, 40, 200))
    cv2.polylines(photo, [np.array([[174, 62], [188, 62], [188, 76]], np.int32)], False, (40, 40, 200), 2)
    learnt = learn_photo(photo, [Card.parse("Phoenix")], "tichu")
    assert not isinstance(learnt, int)
    (phoenix,) = learnt
    assert phoenix.labels == ["Phoenix"] * 3
    assert phoenix.colours == ["red"] * 3


@pytest.fixture(scope="module")
def development_deck() -> tuple[DeckStyle, DeckProfile]:
    """A deck of a development family and the profile its four calibration photos teach."""
    from vision.synth.dataset import calibration_photo

    style = DeckStyle.from_seed(11, family="jade_temple")
    deck = list(tichu_deck())
    rows = [deck[i : i + 14] for i in range(0, len(deck), 14)]
    photos = [
        (calibration_photo(np.random.default_rng([505, k]), style, [str(c) for c in row], k)[0], row)
        for k, row in enumerate(rows)
    ]
    return style, calibrate(photos, "tichu")


@pytest.mark.parametrize("seed", [19, 54])
def test_after_calibration_the_index_network_completes_a_fan_the_glyph_readers_read_short(
    development_deck: tuple[DeckStyle, DeckProfile], monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    from collections import Counter

    from vision.synth import SceneSpec, render_scene

    style, profile = development_deck
    spec = SceneSpec(width=960, height=540, game="tichu", style=style, layout="fan", max_cards=7)
    image, labels = render_scene(np.random.default_rng(seed), spec)
    truth = Counter(label.card for label in labels)
    found = Counter(str(c.card) for c in scan_image(image, "tichu", profile).cards)
    assert found == truth
    # The calibrated glyph readers alone, the index patch network rescuing nothing (neither
    # the pairs the readers left unread nor the places above unread suits).
    monkeypatch.setattr("vision.read.CALIBRATED_WHOLE_SURE", 1.1)
    monkeypatch.setattr("vision.read.FREE_SUIT_SURE", 1.1)
    alone = Counter(str(c.card) for c in scan_image(image, "tichu", profile).cards)
    assert alone < truth and sum((truth - alone).values()) == 1  # one card short, nothing false


@pytest.mark.parametrize(
    ("name", "alike", "other", "found"),
    [("Dog", 0.7, 0.65, "Dog"), ("7j", 0.7, 0.65, None), ("7j", 0.7, 0.3, "7j"), ("Dog", 0.5, 0.1, None)],
)
def test_a_lone_card_is_named_by_its_picture_more_surely_when_it_prints_an_index(
    name: str, alike: float, other: float, found: str | None
) -> None:
    # An outline whose index no reader read is named by the deck's whole-card templates; a
    # card with an index in plain view would have been read, so its picture must match far
    # more surely, or far better than any other card's (a white square of a gingham cloth
    # passed for a 9 at 0.64, hardly better than for other cards).
    from vision.profile import TEMPLATE_SIZE
    from vision.scan import template_card

    rng = np.random.default_rng(7)
    shape = (TEMPLATE_SIZE[1], TEMPLATE_SIZE[0], 3)
    # Orthonormal pictures: the photo's correlates with the named card's exactly ``alike``
    # and with the other card's ``other``.
    basis, _ = np.linalg.qr(rng.normal(size=(int(np.prod(shape)), 3)))
    pictures = {name: basis[:, 0], "Qs" if name == "Dog" else "Phoenix": basis[:, 1]}
    templates = {card: picture.reshape(shape).astype(np.float32) for card, picture in pictures.items()}
    profile = DeckProfile("tichu", templates=templates)
    seen = alike * basis[:, 0] + other * basis[:, 1] + np.sqrt(1.0 - alike**2 - other**2) * basis[:, 2]
    matched = template_card(profile, seen.reshape(shape).astype(np.float32), "tichu")
    assert (None if matched is None else str(matched[0])) == found
    if matched is not None:
        assert abs(matched[1] - alike) < 0.05  # (the turned picture correlates a little too)


@pytest.fixture(scope="module")
def unmarked() -> tuple[DeckStyle, DeckProfile]:
    """The held-out deck printing no corner marks and no names on its specials, and its profile."""
    plain = dataclasses.replace(
        random_style(np.random.default_rng(7), "tichu", families("tichu", held_out=True)),
        special_mark="none",
        special_word=False,
    )
    deck = list(tichu_deck())
    photos = [(layout_photo(plain, deck[i : i + 14]), deck[i : i + 14]) for i in range(0, len(deck), 14)]
    return plain, calibrate(photos, "tichu")


@pytest.mark.parametrize("squeeze", [0.78, 0.56])
def test_a_lone_card_seen_steeply_is_named_by_its_picture_but_a_cloths_square_is_not(
    unmarked: tuple[DeckStyle, DeckProfile], squeeze: float
) -> None:
    # Photographed from low down, a card lying lengthwise along the view is squeezed: to
    # nearly a square (0.78: 1.08 times longer than wide, as `mountain:82` photo 3's Dragon),
    # no card's shape, or further, shorter than it is wide (0.56).  Only its whole picture
    # names a special that prints no mark; a pale square of cloth of that shape names nothing.
    plain, profile = unmarked
    scene = table(400, 1000, seed=6)
    paste_face(scene, plain, Card.parse("Dragon"), 150, (300, 200), 90.0)  # its long side level
    cv2.rectangle(scene, (650, 120), (860, 280), (236, 238, 240), cv2.FILLED)  # the cloth's square
    squeezed = cv2.resize(scene, (round(1000 * squeeze), 400), interpolation=cv2.INTER_AREA)
    found = scan_image(squeezed, "tichu", profile).cards
    assert [str(c.card) for c in found] == ["Dragon"]
    assert cv2.pointPolygonTest(found[0].corners, (300.0 * squeeze, 200.0), False) > 0
    assert cv2.pointPolygonTest(found[0].corners, (755.0 * squeeze, 200.0), False) < 0
