"""vision.scan: index readings assembled into cards, on drawn scenes with exact answers."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest

from companion.cards import Card, Deck
from tests.vision.conftest import CARD_H, CARD_W, draw_card, drawn_ink, lettered_card, paste, table
from vision.detect import IndexPair, paper_regions
from vision.read import IndexReading, MarkReading
from vision.scan import _amid_a_read_card, _Candidate, _drop_repeats, find_cards, scan_image
from vision.synth.card import render_card_face
from vision.synth.style import DeckStyle


def test_a_fan_squared_off_into_a_card_shaped_region_gives_every_card() -> None:
    # Cards spread in a straight row at the same angle: their paper is one near-rectangle,
    # card-shaped enough to pass for one card, but its corners name several cards.
    scene = table(600, 900)
    cards = [("7", "spades"), ("2", "clubs"), ("A", "hearts"), ("8", "diamonds"), ("J", "clubs")]
    for k, (rank, suit) in enumerate(cards):
        paste(scene, draw_card(rank, suit, 1.6), (260 + 55 * k, 300), 0.0)
    regions = paper_regions(scene)
    assert len(regions.quads) == 1 and regions.quads[0] is not None  # the trap is set
    found = sorted(str(card.card) for card in scan_image(scene, "standard").cards)
    assert found == sorted(["7s", "2c", "Ah", "8d", "Jc"])


def test_an_index_no_reader_read_is_looked_for_where_its_fan_says_it_lies() -> None:
    # A fan read but for one card (as when its rank runs into the next card's rim past every
    # reader): its neighbours say where its index lies, and the index networks read it there.
    from vision.read import FAN_GAP_INKLESS_SURE, read_fan_gaps

    scene = table(500, 900)
    cards = [("7", "spades"), ("2", "clubs"), ("K", "hearts"), ("8", "diamonds")]
    cards += [("4", "clubs"), ("9", "spades")]
    for k, (rank, suit) in enumerate(cards):
        paste(scene, draw_card(rank, suit, 1.6), (260 + 55 * k, 250), 0.0)
    found, info = find_cards(scene, "standard")
    assert sorted(str(c.card) for c in found) == sorted(["7s", "2c", "Kh", "8d", "4c", "9s"])
    readings: list[IndexReading] = info["readings"]
    ink = info["ink"]
    king = next(r for r in readings if r.rank == "K")
    others = [r for r in readings if abs(r.center[0] - king.center[0]) > 5.0]
    gap = read_fan_gaps(ink, others, "standard")
    assert [(r.rank, r.suit) for r in gap] == [("K", "hearts")]
    assert abs(gap[0].center[0] - king.center[0]) < 4.0 and abs(gap[0].center[1] - king.center[1]) < 4.0
    # The fan's first card unread: one step beyond the fan's end.
    seven = min(readings, key=lambda r: r.center[0])
    first = read_fan_gaps(ink, [r for r in readings if r is not seven], "standard")
    assert [(r.rank, r.suit) for r in first] == [("7", "spades")]
    assert abs(first[0].center[0] - seven.center[0]) < 4.0
    # Every index read: nothing to look for (beyond the ends lie the table and a card's pips).
    assert read_fan_gaps(ink, readings, "standard") == []
    # Segmentation lost the King's index (its glyphs taken away from the ink, as when they run
    # into a thick rim), but its darkness still shows it: read surely enough, it counts.
    lost = ink.centers.copy()
    lost[[*king.pair.rank, king.pair.suit]] = (-1000.0, -1000.0)
    unsegmented = read_fan_gaps(replace(ink, centers=lost), others, "standard")
    assert [(r.rank, r.suit) for r in unsegmented] == [("K", "hearts")]
    assert unsegmented[0].score >= FAN_GAP_INKLESS_SURE
    # Where the fan's cards lie apart, with no card in the gap, the table reads as no index.
    bare = table(500, 900)
    for k, (rank, suit) in enumerate(cards):
        if k != 2:
            paste(bare, draw_card(rank, suit, 1.6), (260 + 55 * k, 250), 0.0)
    _, bare_info = find_cards(bare, "standard")
    left_alone = [r for r in bare_info["readings"] if r.center[0] < king.center[0]]
    assert len(left_alone) == 2
    assert read_fan_gaps(bare_info["ink"], bare_info["readings"], "standard") == []


def _fan_read_but_for_its_king(king_scale: float) -> tuple[dict[str, Any], IndexReading, list[IndexReading]]:
    """A fan of five cards (the King of hearts drawn at ``king_scale``, the others at 1.6):
    :func:`find_cards`' working data, the King's reading and every other reading."""
    scene = table(500, 900)
    cards = [("7", "spades"), ("2", "clubs"), ("K", "hearts"), ("8", "diamonds"), ("4", "clubs")]
    for k, (rank, suit) in enumerate(cards):
        paste(scene, draw_card(rank, suit, king_scale if rank == "K" else 1.6), (260 + 55 * k, 250), 0.0)
    _, info = find_cards(scene, "standard")
    readings: list[IndexReading] = info["readings"]
    king = next(r for r in readings if r.rank == "K")
    return info, king, [r for r in readings if r is not king]


def test_an_index_no_pair_proposed_is_read_from_its_suit_alone() -> None:
    # A fan read but for one card whose rank no pair holds (as when it ran into the next
    # card's rim): its suit glyph, which no reading took, says where the rank lies, facing
    # as the readings beside it face, and the index networks read the card there.
    from vision.read import read_above_free_suits

    info, king, others = _fan_read_but_for_its_king(1.6)
    readings: list[IndexReading] = info["readings"]
    ink, paper = info["ink"], info["regions"].labels
    found = read_above_free_suits(ink, others, paper, "standard")
    assert [(r.rank, r.suit) for r in found] == [("K", "hearts")]
    assert abs(found[0].center[0] - king.center[0]) < 4.0 and abs(found[0].center[1] - king.center[1]) < 4.0
    assert found[0].whole and found[0].pair.suit == king.pair.suit
    # Every index read: every glyph is taken, nothing is looked for.
    assert read_above_free_suits(ink, readings, paper, "standard") == []
    # Off the paper a glyph is no suit: the table's green is no card's.
    assert read_above_free_suits(ink, others, np.zeros_like(paper), "standard") == []
    # With no reading to face by, nothing is read.
    assert read_above_free_suits(ink, [], paper, "standard") == []
    # A deck whose hearts are printed red keeps it; one whose hearts calibration saw printed
    # black does not: this glyph's ink is plainly red.
    small = info["small"]
    kept = read_above_free_suits(ink, others, paper, "standard", small, {"hearts": "red"})
    assert [(r.rank, r.suit) for r in kept] == [("K", "hearts")]
    assert read_above_free_suits(ink, others, paper, "standard", small, {"hearts": "neutral"}) == []


def test_a_suit_sized_for_a_smaller_card_than_its_neighbours_is_read_at_its_own_size() -> None:
    # The King lies farther from the camera than the cards around it (drawn smaller): one
    # rank-to-suit distance of its neighbours above its suit misses its rank, the distance
    # its own suit's size says (as the neighbours' suits measure it) finds it.
    from vision import read
    from vision.read import read_above_free_suits

    info, king, others = _fan_read_but_for_its_king(1.0)
    ink, paper = info["ink"], info["regions"].labels
    found = read_above_free_suits(ink, others, paper, "standard")
    assert [(r.rank, r.suit) for r in found] == [("K", "hearts")]
    assert abs(found[0].center[0] - king.center[0]) < 4.0 and abs(found[0].center[1] - king.center[1]) < 4.0
    # At the neighbours' size alone it is not found.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(read, "FREE_SUIT_UNIT_DIFFERS", float("inf"))
        assert read_above_free_suits(ink, others, paper, "standard") == []


def joker_face(
    colour: tuple[int, int, int], scale: float = 1.5, spacing: float = 1.45, stroke: int = 2
) -> np.ndarray:
    """A joker: JOKER spelt down the top-left and (turned) bottom-right corners, a letter
    every ``spacing`` letter heights."""
    w, h = round(CARD_W * scale), round(CARD_H * scale)
    face = np.full((h, w, 3), 242, np.uint8)
    corner = np.full((h // 2, w // 4, 3), 242, np.uint8)
    glyph = round(11 * scale)
    font_scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, glyph, stroke)
    for k, letter in enumerate("JOKER"):
        (tw, _), _ = cv2.getTextSize(letter, cv2.FONT_HERSHEY_SIMPLEX, font_scale, stroke)
        y = round(glyph * (1.5 + spacing * k))
        cv2.putText(
            corner,
            letter,
            ((corner.shape[1] - tw) // 2, y),
            cv2.FONT_HERSHEY_SIMPLEX,
            font_scale,
            colour,
            stroke,
            cv2.LINE_AA,
        )
    ch, cw = corner.shape[:2]
    face[4 : 4 + ch, 4 : 4 + cw] = corner
    face[h - 4 - ch : h - 4, w - 4 - cw : w - 4] = corner[::-1, ::-1]
    cv2.ellipse(face, (w // 2, h // 2), (w // 6, h // 5), 0, 0, 360, colour, 3)
    return face


def test_jokers_are_read_from_their_letters_and_told_apart_by_colour() -> None:
    scene = table(600, 900)
    paste(scene, joker_face((40, 40, 200)), (250, 300), 12.0)
    paste(scene, joker_face((30, 30, 30)), (620, 300), -100.0)
    paste(scene, draw_card("K", "spades", 1.5), (450, 420), 3.0)
    found = sorted(str(card.card) for card in scan_image(scene, "standard").cards)
    assert found == ["BJ", "Ks", "RJ"]


def test_a_joker_whose_letters_run_together_is_read_from_the_whole_word() -> None:
    # Set tight (or blurred), J, O, K, E and R touch: the letters are two or three runs of
    # ink, not five components, and no chain of letters can be followed down the card.
    scene = table(600, 900)
    paste(scene, joker_face((30, 30, 30), spacing=0.85, stroke=3), (300, 300), 20.0)
    paste(scene, joker_face((40, 40, 200), spacing=0.85, stroke=3), (620, 300), -75.0)
    found = sorted(str(card.card) for card in scan_image(scene, "standard").cards)
    assert found == ["BJ", "RJ"]


def _candidate(
    name: str, deck: Deck, x: float, outlined: bool = False, confidence: float = 0.9
) -> _Candidate:
    corners = np.array([[x, 0], [x + 50, 0], [x + 50, 70], [x, 70]], np.float32)
    card = Card.parse(name, deck)
    return _Candidate(card, confidence, corners, corners.mean(axis=0), 70.0, outlined=outlined)


def test_a_tichu_card_read_twice_is_one_card_and_the_measured_outline_is_kept() -> None:
    # A Tichu deck holds each card once: two readings of Kj far apart are one card.
    far = [_candidate("Kj", Deck.TICHU, 0, confidence=0.99), _candidate("Kj", Deck.TICHU, 900, outlined=True)]
    kept = _drop_repeats([*far, _candidate("Qj", Deck.TICHU, 400)], "tichu")
    assert [str(c.card) for c in kept] == ["Kj", "Qj"]
    assert kept[0].outlined  # the lone card's own outline beats a surer reading elsewhere


def test_two_standard_copies_apart_are_two_cards_but_a_near_repeat_is_one() -> None:
    # Shengji plays with two decks: the same card twice, far apart, is two cards.
    apart = [_candidate("Kh", Deck.STANDARD, 0), _candidate("Kh", Deck.STANDARD, 900)]
    assert len(_drop_repeats(apart, "standard")) == 2
    near = [_candidate("Kh", Deck.STANDARD, 0, confidence=0.8), _candidate("Kh", Deck.STANDARD, 60)]
    kept = _drop_repeats(near, "standard")
    assert len(kept) == 1 and kept[0].confidence == 0.9


def test_a_mark_read_special_card_is_laid_the_way_its_mark_allows_that_lies_on_paper() -> None:
    from vision.detect import IndexPair
    from vision.read import MarkReading
    from vision.scan import _facing_paper, predicted_card

    # A card-sized patch of cream paper up and to the left of the mark at (200, 200) only,
    # on a dark table.
    image = np.full((400, 400, 3), (60, 50, 40), np.uint8)
    image[40:215, 60:215] = (200, 235, 245)
    paper = np.zeros((400, 400), np.uint8)
    paper[40:215, 60:215] = 255
    labels = np.zeros((400, 400), np.int32)
    labels[193:207, 193:207] = 1
    image[labels > 0] = (30, 30, 200)
    ink = drawn_ink(labels, [[193, 193, 14, 14]], [[200, 200]], [17.0])
    downs = ((0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0))
    mark = MarkReading(IndexPair((0,), 0, downs[0]), "Dog", "", 0.9, (200.0, 200.0), 20.0, downs)
    laid = _facing_paper(mark, paper, image, ink)
    assert laid.pair.down == (0.0, -1.0)
    corners = predicted_card(laid)
    assert corners[:, 0].max() <= 215 and corners[:, 1].max() <= 215
    # The directions the mark allows come first: one that lies on the stock is kept ...
    assert _facing_paper(replace(mark, downs=downs[1:]), paper, image, ink).pair.down == (0.0, -1.0)
    # ... but where each lies mostly off it, the mark was matched along the wrong axis, and
    # the quarter turns are tried too; on no paper at all, the first is kept.
    assert _facing_paper(replace(mark, downs=downs[:2]), paper, image, ink).pair.down == (0.0, -1.0)
    assert _facing_paper(laid, np.zeros_like(paper), image, ink).pair.down == (0.0, 1.0)
    # A pale lavender table passes for paper everywhere, and more of it lies below the
    # mark than card does above it; but it is not the stock the mark is printed on.
    image[paper == 0] = (235, 205, 215)
    everywhere = np.full_like(paper, 255)
    assert _facing_paper(mark, everywhere, image, ink).pair.down == (0.0, -1.0)


def test_a_special_card_whose_other_corner_mark_shows_lies_between_its_marks() -> None:
    # A Dragon lying in a pile at 30 degrees to its neighbours, its symmetric star mark read
    # along the neighbours' axis; its other corner's mark is in view too, so the card lies
    # along the diagonal between them, sized by it, whatever paper lies about.
    from vision.detect import IndexPair
    from vision.read import IndexReading, MarkReading
    from vision.scan import _facing_paper, predicted_card

    image = np.full((500, 500, 3), (200, 235, 245), np.uint8)  # cards' paper everywhere
    paper = np.full((500, 500), 255, np.uint8)
    labels = np.zeros((500, 500), np.int32)
    labels[143:157, 143:157] = 1
    ink = drawn_ink(labels, [[143, 143, 14, 14]], [[150, 150]], [17.0])
    angle = np.radians(30.0)
    truth_down = (-float(np.sin(angle)), float(np.cos(angle)))  # the card's down, turned 30 degrees
    truth = IndexReading(IndexPair((0,), 0, truth_down), "Dragon", "", 0.9, (150.0, 150.0), 18.0)
    corners = predicted_card(truth)
    opposite = corners[0] + corners[2] - np.array([150.0, 150.0])
    twin = (float(opposite[0]), float(opposite[1]))
    downs = ((0.0, 1.0), (0.0, -1.0))  # the neighbours' axis, either way round
    # Read smaller than it is (the size of its neighbour's rank).
    pair = IndexPair((0,), 0, downs[0])
    mark = MarkReading(pair, "Dragon", "", 0.9, (150.0, 150.0), 14.0, downs, twins=(twin,))
    laid = _facing_paper(mark, paper, image, ink)
    np.testing.assert_allclose(laid.pair.down, truth_down, atol=1e-6)
    np.testing.assert_allclose(predicted_card(laid), corners, atol=1e-3)
    # Without its twin in view, it lies along its neighbours.
    assert _facing_paper(replace(mark, twins=()), paper, image, ink).pair.down in downs
    # A "twin" far beyond any card of its size is another card's mark: no guide.
    beyond = (150.0 + 5 * (twin[0] - 150.0), 150.0 + 5 * (twin[1] - 150.0))
    assert _facing_paper(replace(mark, twins=(beyond,)), paper, image, ink).pair.down in downs


def _dog_alone_on_a_pale_cloth(second_mark: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """A Dog lying alone on a cloth of its stock's very colour (no outline parts them), 25 degrees
    turned, its "F" marks at two opposite corners; and its (4, 2) corners."""
    card = np.full((220, 150, 3), 236, np.uint8)
    cv2.ellipse(card, (75, 110), (40, 60), 0, 0, 360, (150, 160, 170), -1)  # its art
    cv2.putText(card, "F", (14, 34), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2, cv2.LINE_AA)
    if second_mark:
        turned = np.rot90(card, 2).copy()
        cv2.putText(turned, "F", (14, 34), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2, cv2.LINE_AA)
        card = np.rot90(turned, 2).copy()
    scene = np.full((480, 640, 3), 236, np.uint8)
    turn = cv2.getRotationMatrix2D((75.0, 110.0), 25.0, 1.0)
    turn[:, 2] += np.array([320.0 - 75.0, 240.0 - 110.0])
    inside = cv2.warpAffine(np.full((220, 150), 255, np.uint8), turn, (640, 480))
    scene[inside > 0] = cv2.warpAffine(card, turn, (640, 480), borderMode=cv2.BORDER_REPLICATE)[inside > 0]
    corners = cv2.transform(np.array([[[0, 0], [150, 0], [150, 220], [0, 220]]], np.float32), turn)[0]
    return scene, corners


def _upright_f_and_seven() -> np.ndarray:
    """(2, F) glyph vectors of an upright "F" (a Dog's mark, in the tests below) and "7"."""
    from vision.read import glyph_vectors

    _, ink, (seven, mark) = lettered_card(
        200, 320, [("7", (40, 110), 0.8, (20, 20, 20)), ("F", (200, 110), 0.8, (20, 20, 20))]
    )
    return glyph_vectors(ink, [((mark,), (0.0, 1.0)), ((seven,), (0.0, 1.0))]).astype(np.float32)


def test_a_special_alone_on_a_pale_cloth_is_found_by_its_two_corner_marks() -> None:
    # No index is read anywhere to size its marks by, and the cloth passes for its paper:
    # both its corner marks read as the Dog, a card's diagonal apart, are a Dog lying there.
    from vision.profile import DeckProfile

    profile = DeckProfile("tichu", exemplars=_upright_f_and_seven(), labels=("Dog", "7"), spread=0.5)
    scene, corners = _dog_alone_on_a_pale_cloth()
    cards, _ = find_cards(scene, "tichu", profile)
    assert [str(c.card) for c in cards] == ["Dog"]
    assert np.linalg.norm(cards[0].corners.mean(axis=0) - corners.mean(axis=0)) < 20
    # One mark alone, with nothing else read, is no card: a cloth's pattern may take its shape.
    alone, _ = _dog_alone_on_a_pale_cloth(second_mark=False)
    assert find_cards(alone, "tichu", profile)[0] == []
    # Without a calibrated profile, no marks are known.
    assert find_cards(scene, "tichu", None)[0] == []


def test_a_lone_specials_marks_may_be_parts_cut_from_fused_ink_but_not_parts_of_a_mark() -> None:
    # A mark printed against its card's frame is cut from the line it fused with (a "lined"
    # part): it still counts as one of the card's two marks.  But where a whole glyph reads
    # as a mark (the Dog's "Dg"), its parts are not read as marks of their own (a "D" that
    # passes for the Dragon's "Dr").
    from vision.detect import ink_components
    from vision.profile import DeckProfile
    from vision.read import glyph_vectors, local_axis, lone_marks, quarter_turn

    upright = _upright_f_and_seven()
    dog = DeckProfile("tichu", exemplars=upright, labels=("Dog", "7"), spread=0.5)
    scene, _ = _dog_alone_on_a_pale_cloth()
    ink = ink_components(scene, paper_regions(scene))
    assert len(ink.centers) == 2 and [m.rank for m in lone_marks(ink, dog, scene)] == ["Dog"]
    cut = replace(ink, lined=np.array([False, True]))  # the second mark cut from a frame line
    assert [m.rank for m in lone_marks(cut, dog, scene)] == ["Dog"]
    # Each mark's stem (the half of the F toward its card's near side) as a part of its own
    # (parts 2 and 3 of marks 0 and 1), and a Dragon whose mark looks like such a stem.
    parts = np.zeros_like(ink.labels)
    boxes, centers = [], []
    across = np.array([np.cos(np.radians(25.0)), -np.sin(np.radians(25.0))])  # the card's x axis
    for whole, side in ((0, -1.0), (1, 1.0)):  # the second F is printed upside down
        ys, xs = np.nonzero(ink.labels == whole + 1)
        along = (xs - xs.mean()) * across[0] + (ys - ys.mean()) * across[1]
        half = np.zeros_like(ink.labels, bool)
        half[ys[side * along > 0], xs[side * along > 0]] = True
        parts[half] = whole + 3
        ys, xs = np.nonzero(half)
        boxes.append([xs.min(), ys.min(), np.ptp(xs) + 1, np.ptp(ys) + 1])
        centers.append([xs.mean(), ys.mean()])
    part_boxes = np.array(boxes, np.int32)
    halved = replace(
        ink,
        boxes=np.concatenate([ink.boxes, part_boxes]),
        centers=np.concatenate([ink.centers, np.array(centers, np.float32)]),
        sizes=np.concatenate(
            [ink.sizes, np.hypot(part_boxes[:, 2], part_boxes[:, 3]).astype(np.float32) / 1.25]
        ),
        region=np.concatenate([ink.region, ink.region]),
        edge=None if ink.edge is None else np.concatenate([ink.edge, ink.edge]),
        parent=np.array([-1, -1, 0, 1]),
        part_labels=parts,
        lined=np.zeros(4, bool),
    )
    # (Seen as lone_marks sees it: in the turn of the edges around it that reads the F upright.)
    axis = local_axis(cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY), (233.0, 185.0), 50.0)
    assert axis is not None
    turns = [quarter_turn(axis, k) for k in range(4)]
    upright_turn = min(
        turns, key=lambda down: float(np.linalg.norm(glyph_vectors(ink, [((0,), down)])[0] - upright[0]))
    )
    half_mark = glyph_vectors(halved, [((2,), upright_turn)]).astype(np.float32)
    both = DeckProfile("tichu", np.concatenate([upright, half_mark]), ("Dog", "7", "Dragon"), spread=0.5)
    assert [m.rank for m in lone_marks(halved, both, scene)] == ["Dog"]
    # (Where the whole reads as no mark, its parts are looked at: then the halves pair up.)
    no_dog = DeckProfile("tichu", np.concatenate([upright, half_mark]), ("Queen", "7", "Dragon"), spread=0.5)
    assert "Dragon" in [m.rank for m in lone_marks(halved, no_dog, scene)]


def test_a_lone_special_is_sized_by_the_diagonal_the_scanner_lays_cards_by() -> None:
    # lone_marks sizes a special by its marks' distance; _placed_by_twin then takes the card
    # between them only when that size lays them a card's diagonal apart.
    from vision.read import INDEX_DIAGONAL
    from vision.scan import predicted_card

    unit = IndexReading(IndexPair((0,), 0, (0.0, 1.0)), "Dog", "", 0.9, (0.0, 0.0), 1.0)
    corners = predicted_card(unit)
    assert abs(float(np.linalg.norm(corners[0] + corners[2])) - INDEX_DIAGONAL) < 0.01


def test_two_overlapping_cards_squared_off_into_a_card_shaped_region_give_both() -> None:
    # One card over another at the same angle, shifted a little: their paper outlines one
    # card-shaped region, but its corners name two different cards, each read surely.
    scene = table(500, 600)
    paste(scene, draw_card("8", "diamonds", 1.6), (270, 250), 0.0)
    paste(scene, draw_card("3", "hearts", 1.6), (300, 250), 0.0)
    regions = paper_regions(scene)
    assert len(regions.quads) == 1 and regions.quads[0] is not None  # the trap is set
    found = sorted(str(card.card) for card in scan_image(scene, "standard").cards)
    assert found == ["3h", "8d"]


def test_specks_far_smaller_than_the_surely_read_indices_are_no_card() -> None:
    # A generated table photo whose five cards are read surely; a scrap of the 4 of Pagodas'
    # art beside its index pairs up into a small, unsure "4 of Stars".
    from vision.synth import SceneSpec, render_scene

    image, labels = render_scene(
        np.random.default_rng([4242, 40]), SceneSpec(width=1280, height=720, layout="apart", max_cards=10)
    )
    truth = sorted(str(label.card) for label in labels)
    assert sorted(str(card.card) for card in scan_image(image, "tichu").cards) == truth


def test_a_pair_of_one_card_fanned_together_is_two_cards() -> None:
    # Shengji is played with two decks, and a pair (two 7 of hearts) is played side by side.
    # Their indices face the same way a little apart: two cards, not one read twice.
    scene = table(600, 900)
    for k, (rank, suit) in enumerate([("7", "hearts"), ("7", "hearts"), ("Q", "spades"), ("3", "clubs")]):
        paste(scene, draw_card(rank, suit, 1.6), (300 + 40 * k, 300 + 6 * k), 5.0)
    assert sorted(str(card.card) for card in scan_image(scene, "standard").cards) == ["3c", "7h", "7h", "Qs"]


def test_two_copies_of_a_card_fanned_with_cards_between_them_are_two_cards() -> None:
    # Two decks: the same card twice in one fan, two other cards' indices between them. Near
    # enough to pass for one card read twice (a four-index deck's same-edge twin), but no
    # card shows another card's index between two of its own.
    scene = table(600, 900)
    hand = [("7", "hearts"), ("Q", "spades"), ("3", "clubs"), ("7", "hearts"), ("K", "diamonds")]
    for k, (rank, suit) in enumerate(hand):
        paste(scene, draw_card(rank, suit, 1.6), (300 + 40 * k, 300 + 6 * k), 5.0)
    found = sorted(str(card.card) for card in scan_image(scene, "standard").cards)
    assert found == ["3c", "7h", "7h", "Kd", "Qs"]


def test_a_pair_alone_squared_off_into_one_card_shape_is_two_cards() -> None:
    # The two 7 of hearts alone, a little apart: their paper outlines one card-shaped region,
    # but its two top indices face the same way side by side.
    scene = table(500, 600)
    for k in range(2):
        paste(scene, draw_card("7", "hearts", 1.6), (260 + 40 * k, 250 + 4 * k), 5.0)
    regions = paper_regions(scene)
    assert len(regions.quads) == 1 and regions.quads[0] is not None  # the trap is set
    assert [str(card.card) for card in scan_image(scene, "standard").cards] == ["7h", "7h"]


def test_a_card_lying_on_a_sheet_of_paper_is_read_though_the_outline_is_the_sheets() -> None:
    # The sheet and the card are one card-shaped paper region; its corners are the sheet's,
    # and the card's indices lie far from them.
    scene = table(500, 500)
    cv2.rectangle(scene, (130, 60), (369, 399), (238, 238, 238), -1)
    paste(scene, draw_card("A", "hearts", 1.0), (250, 230), 10.0)
    regions = paper_regions(scene)
    assert len(regions.quads) == 1 and regions.quads[0] is not None  # the trap is set
    assert [str(card.card) for card in scan_image(scene, "standard").cards] == ["Ah"]


def test_a_four_index_card_read_at_both_top_corners_is_placed_from_its_top_left_index() -> None:
    # Placed from the top-right index the card would lie a card's width too far right, so
    # the top-left one places it even when the top-right one was read more surely.
    def placed_from(index_x: float, confidence: float) -> _Candidate:
        left = index_x - 11.0  # the index sits 0.55 glyph sizes (20 px) in from the left edge
        corners = np.array([[left, 85], [left + 104, 85], [left + 104, 233], [left, 233]], np.float32)
        card = Card.parse("Kh", Deck.STANDARD)
        center = corners.mean(axis=0)
        return _Candidate(card, confidence, corners, center, 148.0, (0.0, 1.0), (index_x, 100.0))

    kept = _drop_repeats([placed_from(100.0, 0.8), placed_from(182.0, 0.99)], "standard")
    assert len(kept) == 1
    assert kept[0].index_center == (100.0, 100.0) and kept[0].confidence == 0.99


def test_a_card_placed_again_far_smaller_from_part_of_its_index_is_one_card() -> None:
    # A joker's word read whole places the card; read again without its first letters, it
    # places a card two thirds as tall, a little aside, facing the same way: as two copies
    # of one card fanned together would lie, but copies are printed alike.
    def placed(index_x: float, height: float, confidence: float) -> _Candidate:
        width = height * 0.7
        corners = np.array(
            [
                [index_x - 11, 85],
                [index_x - 11 + width, 85],
                [index_x - 11 + width, 85 + height],
                [index_x - 11, 85 + height],
            ],
            np.float32,
        )
        card = Card.parse("RJ", Deck.STANDARD)
        return _Candidate(
            card, confidence, corners, corners.mean(axis=0), height, (0.0, 1.0), (index_x, 100.0)
        )

    whole, part = placed(100.0, 148.0, 0.95), placed(125.0, 98.0, 0.99)
    assert len(_drop_repeats([whole, part], "standard")) == 1
    copy = placed(125.0, 140.0, 0.99)  # as tall: the second deck's copy beside it
    assert len(_drop_repeats([whole, copy], "standard")) == 2


def seven_with_more_indices(suit: str, bottom_left: bool = True) -> tuple[np.ndarray, int]:
    """A seven of a deck printing more indices: its top-left index copied to the top right,
    close to the edge as such decks print it, and (``bottom_left``) turned round at the
    bottom left.  Returns the face and the index's width."""
    seven = draw_card("7", suit, 1.5)
    h, w = seven.shape[:2]
    corner = seven[6:81, 6:51].copy()  # the top-left index (conftest draws it 4 units in)
    ink_columns = np.flatnonzero((corner.min(axis=2) < 200).any(axis=0))
    index = corner[:, int(ink_columns[0]) : int(ink_columns[-1]) + 1]
    seven[6:81, w - 4 - index.shape[1] : w - 4] = index
    if bottom_left:
        seven[h - 81 : h - 6, 4 : 4 + index.shape[1]] = index[::-1, ::-1]
    return seven, index.shape[1]


@pytest.mark.parametrize(
    ("game", "suits", "names"),
    [("standard", ("hearts", "clubs"), ["7h", "9c"]), ("tichu", ("star", "star"), ["7t", "9t"])],
)
def test_a_card_showing_only_its_top_right_index_is_placed_to_its_left(
    game: str, suits: tuple[str, str], names: list[str]
) -> None:
    # A deck printing four indices; a second card hides the first's left part, so only the
    # first's top-right (and bottom-right) index shows.  Placed as from a top-left index it
    # would lie a card's width too far right, on the table.
    seven, _ = seven_with_more_indices(suits[0])
    scene = table(500, 600)
    under = paste(scene, seven, (330.0, 250.0), 0.0)
    paste(scene, draw_card("9", suits[1], 1.5), (245.0, 262.0), 0.0)
    cards = {str(c.card): c for c in scan_image(scene, game).cards}
    assert sorted(cards) == names
    corners = cards[names[0]].corners.reshape(-1, 1, 2)
    middle = under.mean(axis=0)
    assert cv2.pointPolygonTest(corners, (float(middle[0]), float(middle[1])), False) >= 0
    assert cv2.pointPolygonTest(corners, (480.0, 250.0), False) < 0  # not out on the table


@pytest.mark.parametrize(("game", "suit", "name"), [("standard", "hearts", "7h"), ("tichu", "star", "7t")])
def test_a_deck_calibrated_as_printing_two_indices_has_no_top_right_one(
    game: str, suit: str, name: str
) -> None:
    # A seven on a pale cloth, a dark card over all of it but its index: that index has
    # paper (the cloth) to its left and none to its right, as a four-index deck's top-right
    # index has.  A deck calibration saw print two indices only prints no such index.
    from vision.profile import DeckProfile

    seven = draw_card("7", suit, 1.5)
    h, w = seven.shape[:2]
    scene = np.full((500, 600, 3), 225, np.uint8)
    truth = paste(scene, seven, (300.0, 250.0), 0.0)
    paste(scene, np.full((h + 40, w, 3), (60, 40, 30), np.uint8), (337.0, 270.0), 0.0)
    outline = truth.reshape(-1, 1, 2)
    for indices, on_the_card in ((0, False), (4, False), (2, True)):
        found = scan_image(scene, game, DeckProfile(game, indices=indices)).cards
        assert [str(c.card) for c in found] == [name]
        centre = found[0].corners.mean(axis=0)
        inside = cv2.pointPolygonTest(outline, (float(centre[0]), float(centre[1])), False) >= 0
        assert inside is on_the_card, (indices, centre)


def _assert_seven_placed_on_its_card_for_three_indices_only(scene: np.ndarray, under: np.ndarray) -> None:
    """The scene's 7 and 9 of Stars are found; the seven (outlined by ``under``) is laid on
    its card for a deck calibration saw print three indices, and off it for one of unknown
    indices, placed as from a top-left index."""
    from vision.profile import DeckProfile

    outline = under.reshape(-1, 1, 2)
    for indices, on_the_card in ((3, True), (0, False)):
        cards = scan_image(scene, "tichu", DeckProfile("tichu", indices=indices)).cards
        found = {str(c.card): c for c in cards}
        assert sorted(found) == ["7t", "9t"]
        centre = found["7t"].corners.mean(axis=0)
        inside = cv2.pointPolygonTest(outline, (float(centre[0]), float(centre[1])), False) >= 0
        assert inside is on_the_card, (indices, centre)


def test_a_top_right_index_beside_dark_art_is_told_by_the_table_beyond_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A deck printing three indices.  A second card hides the seven's left part; the seven's
    # art reaches close to its top-right index, so the paper to that index's left is dark art
    # and the paper test cannot say "top right".  The table right beside the index and the
    # card's outline to its left do, for a deck calibration saw print three indices.
    # (The seven's bottom-right index, which the art leaves no pair, is read from its suit
    # alone and would place the card by itself: here the top-right index is alone.)
    monkeypatch.setattr("vision.read.FREE_SUIT_SURE", 1.1)

    seven, index_width = seven_with_more_indices("star", bottom_left=False)
    h, w = seven.shape[:2]
    seven[10 : h - 10, 14 : w - 8 - index_width] = (70, 40, 110)  # art up to the index
    scene = table(500, 600)
    under = paste(scene, seven, (330.0, 250.0), 0.0)
    paste(scene, draw_card("9", "star", 1.5), (245.0, 262.0), 0.0)
    _assert_seven_placed_on_its_card_for_three_indices_only(scene, under)


def test_a_top_right_index_with_paper_on_both_sides_is_told_by_its_cards_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A deck printing three indices.  A second card hides the seven's left part, a third,
    # blank, lies against its right edge with a dark seam between them, and a card back
    # covers their lower halves: the top-right index has paper on both sides and no table
    # beside it, but its card's edge shows just right of it.
    # (As above: the top-right index alone places the card.)
    monkeypatch.setattr("vision.read.FREE_SUIT_SURE", 1.1)
    seven, _ = seven_with_more_indices("star", bottom_left=False)
    h, w = seven.shape[:2]
    scene = table(500, 700)
    paste(scene, np.full((h, w, 3), 232, np.uint8), (333.0 + w, 250.0), 0.0)  # the blank card
    under = paste(scene, seven, (330.0, 250.0), 0.0)
    top, bottom, right = int(under[:, 1].min()), int(under[:, 1].max()), int(under[:, 0].max())
    scene[top:bottom, right : right + 3] = 50  # the seam between them
    paste(scene, draw_card("9", "star", 1.5), (245.0, 262.0), 0.0)
    scene[290:, 150:] = (60, 40, 30)  # a card back over their lower halves
    _assert_seven_placed_on_its_card_for_three_indices_only(scene, under)


@pytest.mark.parametrize("angle", [0.0, 160.0])
def test_a_card_read_at_both_ends_of_its_right_side_lies_to_their_left(angle: float) -> None:
    # A four-index deck.  A second card hides the first's left part, a third lies beside
    # its top-right index: that index has paper on both sides, and with its turned
    # bottom-right one it spans the card's right side.  Merged as opposite corners the two
    # made a card no wider than a glyph; placed from the top-right one alone, the card lay a
    # card's width too far right.  The table beside the bottom-right index tells the side.
    seven, _ = seven_with_more_indices("hearts")
    w = seven.shape[1]
    scene = table(500, 600)
    under = paste(scene, seven, (300.0, 250.0), angle)
    paste(scene, draw_card("9", "clubs", 1.5), (215.0, 262.0), angle)
    paste(scene, draw_card("Q", "spades", 1.5), (452.0, 150.0), angle)
    cards = {str(c.card): c for c in scan_image(scene, "standard").cards}
    assert sorted(cards) == ["7h", "9c", "Qs"]
    corners = cards["7h"].corners.reshape(-1, 1, 2)
    middle = under.mean(axis=0)
    assert cv2.pointPolygonTest(corners, (float(middle[0]), float(middle[1])), False) >= 0
    sides = np.linalg.norm(np.diff(cards["7h"].corners, axis=0, append=cards["7h"].corners[:1]), axis=1)
    assert sides.min() > 0.5 * w  # a card's width, not a sliver


def test_a_one_above_a_suit_in_a_standard_deck_is_a_ten_whose_nought_is_hidden() -> None:
    # A standard deck has no "1": a "1" above a suit symbol is a "10" whose "0" the next
    # card in a fan (or a card's edge) hides.
    for suit, angle in (("hearts", 0.0), ("spades", 35.0), ("clubs", 200.0), ("diamonds", -60.0)):
        scene = table(600, 900)
        paste(scene, draw_card("1", suit, 1.6), (300, 300), angle)
        paste(scene, draw_card("7", "clubs", 1.6), (600, 300), -angle)
        found = sorted(str(card.card) for card in scan_image(scene, "standard").cards)
        assert found == sorted([f"10{suit[0]}", "7c"]), (suit, angle, found)


def test_a_card_near_the_corner_of_a_sheet_of_paper_is_placed_by_its_own_indices() -> None:
    # The sheet and the card make one card-shaped region, and the card's top-left index lies
    # within the loose reach of the sheet's corner, but five of its glyph sizes away: the
    # card is placed from its indices, not given the sheet's outline.
    scene = table(500, 500)
    cv2.rectangle(scene, (130, 60), (369, 399), (238, 238, 238), -1)
    truth = paste(scene, draw_card("A", "hearts", 1.0), (215, 165), 0.0)
    regions = paper_regions(scene)
    assert len(regions.quads) == 1 and regions.quads[0] is not None  # the trap is set
    (found,) = scan_image(scene, "standard").cards
    assert str(found.card) == "Ah"
    assert float(np.abs(found.corners - truth).max()) < 20  # the card's corners, not the sheet's


def _with_nought_hidden(
    face: np.ndarray, boxes: tuple[np.ndarray, ...], paper: tuple[int, int, int]
) -> np.ndarray:
    """A "10" face with the "0" of both indices painted over in the paper's colour (as the
    next card of a fan hides it), the "1" and the suit symbol left."""
    image = face.copy()
    top, bottom = boxes[0], boxes[1]
    x0, y0 = top.min(axis=0).astype(int)
    x1, y1 = top.max(axis=0).astype(int)
    rank_rows = (y1 - y0) // 2
    image[y0 : y0 + rank_rows, x0 + (x1 - x0) // 2 : x1 + 2] = paper
    x0, y0 = bottom.min(axis=0).astype(int)
    x1, y1 = bottom.max(axis=0).astype(int)
    image[y1 - rank_rows : y1, x0 - 2 : x0 + (x1 - x0) // 2] = paper
    return image


def test_a_tichu_one_above_a_suit_symbol_is_a_ten_not_the_mahjong() -> None:
    # The Mahjong's corner shows a "1" and no suit symbol: a "1" above a jade, sword or
    # pagoda symbol is a "10" whose "0" is hidden, and counts its 10 points.
    style = DeckStyle.from_seed(1, family="jade_temple")
    for card in ("10j", "10s", "10p"):
        face = render_card_face(style, card, 150)
        scene = table(500, 600)
        paste(scene, _with_nought_hidden(face.image, face.index_polygons, style.paper), (300, 250), 15.0)
        result = scan_image(scene, "tichu")
        assert [str(found.card) for found in result.cards] == [card]
        assert result.points() == 10
    mahjong = render_card_face(style, "Mahjong", 150)
    scene = table(500, 600)
    paste(scene, mahjong.image, (300, 250), 15.0)
    assert [str(found.card) for found in scan_image(scene, "tichu").cards] == ["Mahjong"]


def test_a_top_left_index_with_paper_to_its_left_and_art_to_its_right_is_placed_by_its_opposite() -> None:
    # The top card of a fan: the card under it is paper to the left of its top-left index,
    # and its art fills the face to the right, just as beside a four-index deck's top-right
    # index.  Its opposite index, read down and to the right, shows it is the top-left one.
    seven = draw_card("7", "hearts", 1.5)
    seven[9:90, 40:-12] = (40, 40, 150)  # art level with the top-left index
    scene = table(600, 700)
    paste(scene, draw_card("9", "clubs", 1.5), (250.0, 300.0), 0.0)
    truth = paste(scene, seven, (350.0, 300.0), 0.0)
    cards = {str(c.card): c for c in scan_image(scene, "standard").cards}
    assert sorted(cards) == ["7h", "9c"]
    corners = cards["7h"].corners.reshape(-1, 1, 2)
    middle = truth.mean(axis=0)
    assert cv2.pointPolygonTest(corners, (float(middle[0]), float(middle[1])), False) >= 0
    assert cv2.pointPolygonTest(corners, (230.0, 300.0), False) < 0  # not over the 9 of clubs


def test_a_rank_touching_a_scrap_of_frame_line_is_read_without_the_line() -> None:
    # A frame line cut short (by the next card, the table's margin) touches the top of the
    # rank: the two are one component, read as neither, unless the glyph is also offered
    # without the line.  Both of the card's indices are then read.
    for rank, suit in (("6", "hearts"), ("3", "clubs"), ("9", "spades"), ("K", "diamonds"), ("Q", "spades")):
        card = draw_card(rank, suit, 1.5)
        cv2.line(card, (2, 18), (50, 13), (60, 60, 60), 2)
        scene = table(400, 400)
        paste(scene, card, (200.0, 200.0), 12.0)
        _, data = find_cards(scene, "standard")
        read = [str(reading.card("standard")) for reading in data["readings"]]
        assert read == [f"{rank}{suit[0]}"] * 2, (rank, suit, read)


def test_an_underexposed_photo_is_read_as_if_exposed_well() -> None:
    # A dim room, or a phone that metered on a lamp: white cards come out dark grey, darker
    # than any paper; brightened first, as the phone's own exposure would, they read.
    scene = table(500, 700)
    paste(scene, draw_card("K", "hearts", 1.3), (220, 250), 12)
    paste(scene, draw_card("5", "spades", 1.3), (480, 260), -25)
    dark = (scene.astype(np.float32) * 0.25).astype(np.uint8)  # paper at about 60 of 255
    assert paper_regions(dark).quads == []  # no paper at all as it is
    assert sorted(str(c.card) for c in scan_image(dark, "standard").cards) == ["5s", "Kh"]


def test_cards_under_a_tungsten_lamp_are_read_as_if_under_white_light() -> None:
    # A warm lamp the phone left uncorrected turns white cards orange, too coloured for
    # paper; with the cast taken out they read.
    scene = table(500, 700)
    paste(scene, draw_card("K", "hearts", 1.3), (220, 250), 12)
    paste(scene, draw_card("5", "spades", 1.3), (480, 260), -25)
    warm = np.clip(scene.astype(np.float32) * np.array([0.55, 0.8, 1.0], np.float32), 0, 255).astype(np.uint8)
    assert [q for q in paper_regions(warm).quads if q is not None] == []  # no card paper as it is
    assert sorted(str(c.card) for c in scan_image(warm, "standard").cards) == ["5s", "Kh"]


def test_a_photo_whose_cards_show_keeps_its_colours() -> None:
    # A pink cloth brighter than the cards would be "white" by the brightest pixels, turning
    # the cards blue: a photo that shows its cards' paper is never balanced.
    from vision.detect import white_balanced

    scene = np.full((500, 700, 3), (205, 215, 250), np.uint8)  # a bright pink cloth
    paste(scene, draw_card("K", "hearts", 1.3), (220, 250), 12)
    assert white_balanced(scene) is scene


def _index(rank: str, suit: str, center: tuple[float, float], down: tuple[float, float]) -> IndexReading:
    """A sure reading of a rank and suit, of glyph size 10."""
    return IndexReading(IndexPair((0,), 1, down), rank, suit, 0.99, center, 10.0)


def _mark(
    center: tuple[float, float], down: tuple[float, float], twins: tuple[tuple[float, float], ...] = ()
) -> MarkReading:
    """A Dragon read by its corner mark, of glyph size 10, its card lying along ``down``."""
    return MarkReading(IndexPair((2,), 2, down), "Dragon", "", 0.9, center, 10.0, (down,), twins)


def test_a_mark_in_a_wholly_shown_card_is_that_cards_art_unless_a_special_could_lie_there() -> None:
    # The Ace of Stars, both its indices read (its card 60 by 84 pixels, corner to corner).
    ace = [_index("A", "star", (106.0, 108.0), (0.0, 1.0)), _index("A", "star", (154.0, 176.0), (0.0, -1.0))]
    # Its big central star looks like this deck's star-shaped Dragon mark.
    assert _amid_a_read_card(_mark((130.0, 142.0), (0.0, 1.0)), ace, "tichu")
    # A blob of its art beside its index, where a Dragon lying on it would hide its other index.
    assert _amid_a_read_card(_mark((128.0, 112.0), (0.0, 1.0)), ace, "tichu")
    # A Dragon lying across it, its mark off the middle: its card hides neither index.
    assert not _amid_a_read_card(_mark((128.0, 112.0), (1.0, 0.0)), ace, "tichu")
    # Its mark in the Ace's middle, but its other corner's mark in view too: a Dragon.
    assert not _amid_a_read_card(_mark((130.0, 142.0), (1.0, 0.0), twins=((40.0, 200.0),)), ace, "tichu")
    # Beside the card (a fan's next card), or with only one of its indices read: unknown.
    assert not _amid_a_read_card(_mark((175.0, 112.0), (0.0, 1.0)), ace, "tichu")
    assert not _amid_a_read_card(_mark((130.0, 142.0), (0.0, 1.0)), ace[:1], "tichu")
    # A deck printing cards larger than its indices suggest: the two indices lie 1.5 predicted
    # diagonals apart, still one card in Tichu (every card is unique) ...
    large = [
        _index("2", "star", (100.0, 100.0), (0.0, 1.0)),
        _index("2", "star", (185.0, 222.0), (0.0, -1.0)),
    ]
    assert _amid_a_read_card(_mark((142.0, 161.0), (0.0, 1.0)), large, "tichu")
    # ... but two cards in a game of several decks (two 2s of hearts, far apart).
    twos = [_index("2", "hearts", c.center, c.pair.down) for c in large]
    assert not _amid_a_read_card(_mark((142.0, 161.0), (0.0, 1.0)), twos, "standard")


def test_a_mahjong_the_index_networks_read_as_a_j_of_stars_is_the_mahjong_after_calibration() -> None:
    # The index networks never learnt the Mahjong's "1": they read it whole as a J (or a 2)
    # of Stars.  Where the rank glyph lies nearer the deck's own "1" than its J, it is the
    # Mahjong; a reading of the glyph readers, or of another suit, stands.
    from vision.profile import DeckProfile
    from vision.read import glyph_vector
    from vision.scan import _mahjongs_read_whole

    black = (20, 20, 20)
    _, ink, (one, jack) = lettered_card(160, 200, [("1", (50, 90), 1.2, black), ("J", (120, 90), 1.2, black)])
    assert one != jack
    upright = (0.0, 1.0)
    exemplars = np.stack([glyph_vector(ink, (one,), upright), glyph_vector(ink, (jack,), upright)])
    profile = DeckProfile("tichu", exemplars=exemplars.astype(np.float32), labels=("1", "J"), spread=0.5)

    def read_whole(component: int, suit: str = "star", whole: bool = True) -> IndexReading:
        at = (float(ink.centers[component][0]), float(ink.centers[component][1]))
        return IndexReading(
            IndexPair((component,), component, upright), "J", suit, 0.9, at, 30.0, whole=whole
        )

    readings = [read_whole(one), read_whole(jack), read_whole(one, "jade"), read_whole(one, whole=False)]
    read = _mahjongs_read_whole(ink, readings, profile)
    assert [str(r.card("tichu")) for r in read] == ["Mahjong", "Jt", "Jj", "Jt"]
    no_one = DeckProfile("tichu", exemplars=exemplars[1:].astype(np.float32), labels=("J",), spread=0.5)
    assert _mahjongs_read_whole(ink, readings, no_one) == readings
