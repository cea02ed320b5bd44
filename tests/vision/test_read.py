"""vision.read and vision.features: glyphs drawn with known answers are read back."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.cards import Card, Deck
from tests.vision.conftest import draw_back, draw_card, drawn_ink, lettered_card, paste, table
from vision import read as read_module
from vision.detect import IndexPair, Ink, Regions, index_pairs, ink_components, paper_regions
from vision.features import FEATURE_LENGTH, glyph_features, upright_glyph
from vision.read import (
    BUILTIN_EDGE_PAIR_SCORE,
    CLASS_INDEX,
    IndexReading,
    _joker_ink,
    _long_words,
    builtin_model,
    read_joker_words,
    read_jokers,
    read_pairs,
)
from vision.scan import assemble, scan_image

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def glyph_mask(text: str, height: int = 40) -> np.ndarray:
    canvas = np.zeros((height * 2, height * 3), np.uint8)
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, height, 3)
    cv2.putText(canvas, text, (height // 2, height * 3 // 2), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, 3)
    return canvas


def test_upright_glyph_undoes_a_quarter_turn() -> None:
    mask = glyph_mask("Q")
    upright, height, width = upright_glyph(mask, (0.0, 0.0), (0.0, 1.0))
    # Turned a quarter clockwise on screen, "down" now points to the left.
    turned = np.ascontiguousarray(np.rot90(mask, -1))
    again, height2, width2 = upright_glyph(turned, (0.0, 0.0), (-1.0, 0.0))
    assert (round(height), round(width)) == (round(height2), round(width2))
    assert float(np.abs(upright - again).mean()) < 0.03


def test_glyph_features_have_a_fixed_length() -> None:
    square, height, width = upright_glyph(glyph_mask("7"), (0.0, 0.0), (0.0, 1.0))
    assert glyph_features(square, height, width).shape == (FEATURE_LENGTH,)


@pytest.mark.parametrize("text", ["Q", "K", "A", "J", "7", "10"])
def test_the_model_reads_a_rendered_rank_glyph(text: str) -> None:
    mask = glyph_mask(text, 30)
    square, height, width = upright_glyph(mask, (0.0, 0.0), (0.0, 1.0))
    probabilities = builtin_model().probabilities(glyph_features(square, height, width)[None])[0]
    assert int(probabilities.argmax()) == CLASS_INDEX[text]


@pytest.mark.parametrize("rank", RANKS)
def test_a_lone_card_is_read_in_any_rotation(rank: str) -> None:
    for suit, angle in (("spades", 0.0), ("hearts", 90.0), ("diamonds", 180.0), ("clubs", 33.0)):
        if rank == "8" and suit == "hearts":
            suit = "diamonds"  # our drawn heart pips crowd an 8's index on its side
        scene = table(400, 400)
        truth = paste(scene, draw_card(rank, suit, 1.5), (200, 200), angle)
        result = scan_image(scene, "standard")
        assert [str(c.card) for c in result.cards] == [rank + suit[0]], (suit, angle)
        found = result.cards[0]
        assert 0.5 <= found.confidence <= 1.0
        assert max(np.linalg.norm(found.corners - c, axis=1).min() for c in truth) <= 3.0


def test_several_cards_and_a_back_and_an_empty_table() -> None:
    scene = table(600, 800)
    paste(scene, draw_card("Q", "hearts", 1.3), (150, 150), 0)
    paste(scene, draw_card("7", "spades", 1.3), (400, 160), 30)
    paste(scene, draw_card("10", "diamonds", 1.3), (620, 200), -70)
    paste(scene, draw_card("K", "clubs", 1.3), (300, 430), 200)
    paste(scene, draw_back(1.3), (600, 450), 15)
    found = sorted(str(c.card) for c in scan_image(scene, "standard").cards)
    assert found == sorted(["Qh", "7s", "10d", "Kc"])
    assert scan_image(table(600, 800), "standard").cards == []


def test_two_decks_give_the_same_card_twice() -> None:
    scene = table(400, 600)
    paste(scene, draw_card("K", "hearts", 1.3), (150, 200), 5)
    paste(scene, draw_card("K", "hearts", 1.3), (420, 200), -5)
    cards = [c.card for c in scan_image(scene, "standard").cards]
    assert cards == [Card.parse("Kh", Deck.STANDARD)] * 2


def test_cards_on_a_pale_table_are_each_read_once() -> None:
    # A cream cloth is as pale as card paper: the whole photo is one paper region, which
    # is no lone card; the cards' greyer stock outlines each of them within it, and each
    # card is found once.
    scene = np.full((600, 800, 3), (200, 222, 232), np.uint8)
    truths = {
        "Qh": paste(scene, draw_card("Q", "hearts", 1.3), (200, 300), 10),
        "7s": paste(scene, draw_card("7", "spades", 1.3), (560, 280), -20),
    }
    regions = paper_regions(scene)
    assert regions.quads[0] is None and len(regions.quads) == 3
    for truth, quad in zip(truths.values(), regions.quads[1:], strict=True):
        assert quad is not None and np.abs(quad.mean(axis=0) - truth.mean(axis=0)).max() <= 3.0
    found = scan_image(scene, "standard").cards
    assert sorted(str(c.card) for c in found) == ["7s", "Qh"]
    for card in found:
        outline = truths[str(card.card)].reshape(-1, 1, 2)
        centre = card.corners.mean(axis=0)
        assert cv2.pointPolygonTest(outline, (float(centre[0]), float(centre[1])), False) > 0


def _reading(center: tuple[float, float], down: tuple[float, float]) -> IndexReading:
    return IndexReading(IndexPair((0,), 1, down), "K", "hearts", 0.9, center, 10.0)


def test_opposite_indices_with_the_suit_beside_the_rank_are_one_card() -> None:
    # Suit to the right of the rank: "down" runs across the card, and the opposite index
    # (turned half round) lies down and to the left of it in that frame.
    nothing = Regions(np.zeros((400, 400), np.int32), [], [], np.zeros((400, 400), np.uint8))
    one = assemble(
        [_reading((100.0, 100.0), (1.0, 0.0)), _reading((140.0, 160.0), (-1.0, 0.0))],
        nothing,
        "standard",
        np.zeros((400, 400, 3), np.uint8),
        None,
    )
    assert len(one) == 1 and one[0].merged
    assert np.allclose(one[0].center, (120.0, 130.0), atol=12.0)
    two = assemble(
        [_reading((100.0, 100.0), (1.0, 0.0)), _reading((300.0, 360.0), (-1.0, 0.0))],
        nothing,
        "standard",
        np.zeros((400, 400, 3), np.uint8),
        None,
    )
    assert len(two) == 2


@pytest.mark.parametrize("whole", [False, True])
def test_an_opposite_index_read_whole_with_another_suit_is_its_cards_suit_misread(whole: bool) -> None:
    # A five of hearts read surely at its top-left index; its bottom-right index, read as the
    # five of diamonds by the index networks alone, is the same card with its suit misread
    # (read glyph by glyph, it is taken at its word: a card of its own).
    nothing = Regions(np.zeros((400, 400), np.int32), [], [], np.zeros((400, 400), np.uint8))
    hearts = IndexReading(IndexPair((0,), 1, (0.0, 1.0)), "5", "hearts", 0.99, (100.0, 100.0), 10.0)
    diamonds = IndexReading(
        IndexPair((2,), 3, (0.0, -1.0)), "5", "diamonds", 0.95, (141.0, 159.0), 10.0, whole=whole
    )
    found = assemble([hearts, diamonds], nothing, "standard", np.zeros((400, 400, 3), np.uint8), None)
    assert sorted(str(c.card) for c in found) == (["5h"] if whole else ["5d", "5h"])


@pytest.mark.parametrize("whole", [False, True])
def test_a_card_outline_is_split_into_a_fan_only_by_glyph_readings_surely_read(whole: bool) -> None:
    # A lone card's outline with a sure King at its top-left index and a sure Queen at its
    # bottom-right one: two cards surely read in one outline are a fan squared off.  Where
    # the Queen is the index patch network's reading alone (a blurred K it took for a Q),
    # the outline stays one card, the King.
    labels = np.zeros((400, 400), np.int32)
    labels[100:300, 120:260] = 1
    quad = np.array([[120, 100], [260, 100], [260, 300], [120, 300]], np.float32)
    regions = Regions(labels, [quad], [28000.0], (labels > 0).astype(np.uint8) * 255)
    king = IndexReading(IndexPair((0,), 1, (0.0, 1.0)), "K", "spades", 0.99, (132.0, 115.0), 10.0)
    queen = IndexReading(
        IndexPair((2,), 3, (0.0, -1.0)), "Q", "spades", 0.95, (248.0, 285.0), 10.0, whole=whole
    )
    found = assemble([king, queen], regions, "standard", np.full((400, 400, 3), 235, np.uint8), None)
    assert sorted(str(c.card) for c in found) == (["Ks"] if whole else ["Ks", "Qs"])


def test_without_a_profile_glyphs_are_read_as_the_average_over_turns_of_their_down() -> None:
    # A "7" tilted a little off its pair's "down": each turn reads it differently, and the
    # built-in reading is their average (with a profile, the single reading is kept).
    from vision.read import READ_TURNS, classify_glyphs, glyph_probabilities, glyph_vectors, turned

    scene = table(400, 400)
    paste(scene, draw_card("7", "clubs", 1.0), (200, 200), 12)
    ink = ink_components(scene, paper_regions(scene))
    pair = max(index_pairs(ink), key=lambda p: float(ink.sizes[p.rank[0]]))
    glyph = (pair.rank, pair.down)
    singles = [
        classify_glyphs(glyph_vectors(ink, [(pair.rank, turned(pair.down, angle))]), None)[0]
        for angle in READ_TURNS
    ]
    assert len(READ_TURNS) >= 3 and not np.allclose(singles[0], singles[-1])
    averaged = glyph_probabilities(ink, [glyph], None)[0]
    np.testing.assert_allclose(averaged, np.mean(singles, axis=0), atol=1e-6)


def _king_of_spades() -> tuple[Ink, list[IndexPair]]:
    """The ink and proposed pairs of a drawn king of spades, turned 15 degrees, both indices clear."""
    scene = table(400, 400)
    paste(scene, draw_card("K", "spades", 1.5), (200, 200), 15)
    ink = ink_components(scene, paper_regions(scene))
    return ink, index_pairs(ink)


def test_pairs_with_a_glyph_on_the_card_edge_must_read_surer(monkeypatch: pytest.MonkeyPatch) -> None:
    ink, pairs = _king_of_spades()
    assert ink.edge is not None and not ink.edge.any()
    squeezed = replace(ink, edge=np.ones(len(ink.centers), bool))
    plain = read_pairs(ink, pairs, "standard")
    assert [r.card("standard") for r in plain] == [Card.parse("Ks", Deck.STANDARD)] * 2
    # Both indices read at least as surely as an edge pair must: kept.
    assert all(r.score >= BUILTIN_EDGE_PAIR_SCORE for r in plain)
    assert read_pairs(squeezed, pairs, "standard") == plain
    # A bar no reading reaches drops the edge pairs only, unless the glyph network reads
    # them as the glyph model does, and surely.
    monkeypatch.setattr("vision.read.BUILTIN_EDGE_PAIR_SCORE", 1.01)
    assert read_pairs(squeezed, pairs, "standard") == plain
    monkeypatch.setattr("vision.read.EDGE_NETWORK_SURE", (1.01, 1.01))
    assert read_pairs(squeezed, pairs, "standard") == []
    assert read_pairs(ink, pairs, "standard") == plain


@pytest.mark.parametrize(
    ("rank", "suit"), [("Q", "spades"), ("A", "spades"), ("3", "diamonds"), ("7", "diamonds")]
)
def test_a_small_blurred_suit_is_also_judged_by_its_colour(rank: str, suit: str) -> None:
    # At this size and blur the symbol's shape alone leaves the suit in doubt (a spade looks
    # like a heart); black ink is no heart's, red ink no spade's.
    scale = 0.8 if suit == "spades" else 0.9
    scene = table(300, 300)
    paste(scene, draw_card(rank, suit, scale), (150, 150), 20)
    scene = cv2.GaussianBlur(scene, (0, 0), 1.5)
    assert [str(c.card) for c in scan_image(scene, "standard").cards] == [rank + suit[0]]


def test_a_corner_mark_is_told_from_a_suit_of_its_shape_by_colour() -> None:
    # A deck whose Phoenix is marked with a green star, shaped like its red Star suit symbol.
    from vision.profile import DeckProfile
    from vision.read import glyph_vectors, read_marks

    scene = np.full((200, 240, 3), (60, 90, 40), np.uint8)
    scene[20:180, 20:220] = 240
    angles = np.arange(10) * np.pi / 5
    radius = np.where(np.arange(10) % 2 == 0, 10.0, 4.0)
    star = np.stack([150 + radius * np.sin(angles), 100 - radius * np.cos(angles)], axis=1)
    cv2.fillPoly(scene, [star.astype(np.int32)], (40, 150, 30), cv2.LINE_AA)
    cv2.putText(scene, "7", (60, 110), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2, cv2.LINE_AA)
    ink = ink_components(scene, paper_regions(scene))
    mark = int(np.argmin(np.linalg.norm(ink.centers - [150, 100], axis=1)))
    seven = int(np.argmin(np.linalg.norm(ink.centers - [68, 100], axis=1)))
    reading = IndexReading(IndexPair((seven,), seven, (0.0, 1.0)), "7", "star", 0.99, (68.0, 100.0), 20.0)
    shape = glyph_vectors(ink, [((mark,), (0.0, 1.0))])[0]
    # The Star's exemplar is the mark's very shape; the Phoenix's lies a little further.
    exemplars = np.stack([shape, shape + 0.3]).astype(np.float32)
    profile = DeckProfile("tichu", exemplars=exemplars, labels=("star", "Phoenix"), spread=1.0)
    assert read_marks(ink, [reading], profile, scene) == []  # colours not learnt: a Star
    profile.colours = {"star": "red", "Phoenix": "green"}
    assert read_marks(ink, [reading], profile) == []  # no image, no colour
    marks = read_marks(ink, [reading], profile, scene)
    assert [m.rank for m in marks] == ["Phoenix"] and marks[0].pair.rank == (mark,)


def _seven_and_letters(
    height: int, letters: list[tuple[str, tuple[int, int]]]
) -> tuple[np.ndarray, Ink, IndexReading, list[int]]:
    """A pale card, 320 pixels wide, on a green table: a "7" read as an index (its card
    upright) and ``letters`` drawn from their (x, y) baselines.  Returns the scene, its ink,
    the seven's reading and the letters' components in the order given."""
    scene = np.full((height, 320, 3), (60, 90, 40), np.uint8)
    scene[20 : height - 20, 20:300] = 240
    for text, origin in [("7", (40, 110)), *letters]:
        cv2.putText(scene, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2, cv2.LINE_AA)
    ink = ink_components(scene, paper_regions(scene))

    def nearest(x: float, y: float) -> int:
        return int(np.argmin(np.linalg.norm(ink.centers - [x, y], axis=1)))

    seven = nearest(48, 100)
    reading = IndexReading(IndexPair((seven,), seven, (0.0, 1.0)), "7", "star", 0.99, (48.0, 100.0), 18.0)
    return scene, ink, reading, [nearest(x + 8, y - 8) for _, (x, y) in letters]


def test_a_two_letter_mark_learnt_as_one_glyph_is_read_where_its_letters_stand_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The calibration photo blurred the Dog's "Dg" into one glyph; in a sharper photo its
    # letters stand apart: they are tried joined, as the mark calibration learnt.
    from vision.profile import DeckProfile
    from vision.read import glyph_vectors, read_marks

    scene, ink, reading, (d, g) = _seven_and_letters(200, [("D", (200, 110)), ("g", (219, 110))])
    seven = reading.pair.rank[0]
    assert len({seven, d, g}) == 3
    # The exemplars: the letters run together ("Dg" in one glyph, as blur joins them) and the seven.
    joined = scene.copy()
    cv2.line(joined, (210, 100), (225, 100), (20, 20, 20), 3)
    merged_ink = ink_components(joined, paper_regions(joined))
    merged = int(np.argmin(np.linalg.norm(merged_ink.centers - [218, 100], axis=1)))
    assert merged_ink.boxes[merged, 2] >= ink.boxes[g, 0] + ink.boxes[g, 2] - ink.boxes[d, 0] - 2  # one glyph
    exemplars = np.concatenate(
        [glyph_vectors(merged_ink, [((merged,), (0.0, 1.0))]), glyph_vectors(ink, [((seven,), (0.0, 1.0))])]
    )
    profile = DeckProfile("tichu", exemplars=exemplars.astype(np.float32), labels=("Dog", "7"), spread=0.5)
    marks = read_marks(ink, [reading], profile)
    assert [m.rank for m in marks] == ["Dog"] and marks[0].pair.rank == (d, g)
    assert abs(marks[0].center[0] - float(ink.centers[[d, g], 0].mean())) < 0.5  # between its letters
    # Letters too far apart to be one mark are not joined: no Dog.
    monkeypatch.setattr("vision.read.LETTER_PAIR_REACH", 0.3)
    assert read_marks(ink, [reading], profile) == []


def test_a_mark_where_a_fans_unread_index_must_lie_may_read_less_surely() -> None:
    # The Dog's mark lies nearer its exemplar than any rank's, but not by MARK_MARGIN: alone
    # it is no Dog; at a fan's gap, where an unread card's index must lie, it is.
    from vision.profile import DeckProfile
    from vision.read import MARK_FRAME_MARGIN, MARK_MARGIN, glyph_vectors, read_marks

    _, ink, reading, (mark,) = _seven_and_letters(200, [("F", (200, 110))])
    shape = glyph_vectors(ink, [((mark,), (0.0, 1.0))])[0]
    to_dog, to_seven = np.zeros_like(shape), np.zeros_like(shape)
    to_dog[0], to_seven[1] = 1.0, 1.18
    assert MARK_FRAME_MARGIN < 1.18 < MARK_MARGIN
    exemplars = np.stack([shape + to_dog, shape + to_seven]).astype(np.float32)
    profile = DeckProfile("tichu", exemplars=exemplars, labels=("Dog", "7"), spread=0.5)
    assert read_marks(ink, [reading], profile) == []
    x, y = (float(v) for v in ink.centers[mark])
    at_mark = (
        np.array([[x, y]], np.float32),
        np.array([[0.0, 1.0]], np.float32),
        np.array([20.0], np.float32),
    )
    marks = read_marks(ink, [reading], profile, frames=at_mark)
    assert [m.rank for m in marks] == ["Dog"] and marks[0].pair.rank == (mark,)
    elsewhere = (at_mark[0] + 60.0, at_mark[1], at_mark[2])
    assert read_marks(ink, [reading], profile, frames=elsewhere) == []


def test_a_mark_as_near_its_exemplar_as_calibration_marks_are_needs_no_margin() -> None:
    # A Dragon's six-pointed star lies nearly as near the Star suit as its own exemplar: it
    # is the mark where it lies within MARK_CLOSE spreads of the mark's exemplar and no
    # nearer a rank by more than MARK_CLOSE_MARGIN; further off it needs MARK_MARGIN.
    from vision.profile import DeckProfile
    from vision.read import MARK_CLOSE, MARK_CLOSE_MARGIN, MARK_MARGIN, glyph_vectors, read_marks

    _, ink, reading, (mark,) = _seven_and_letters(200, [("F", (200, 110))])
    shape = glyph_vectors(ink, [((mark,), (0.0, 1.0))])[0]
    spread = 0.5

    def marks_with(to_dog: float, to_seven: float) -> list[str]:
        away_dog, away_seven = np.zeros_like(shape), np.zeros_like(shape)
        away_dog[0], away_seven[1] = to_dog, to_seven
        exemplars = np.stack([shape + away_dog, shape + away_seven]).astype(np.float32)
        profile = DeckProfile("tichu", exemplars=exemplars, labels=("Dog", "7"), spread=spread)
        return [m.rank for m in read_marks(ink, [reading], profile)]

    close = 0.9 * MARK_CLOSE * spread
    assert marks_with(close, close) == ["Dog"]  # as near a seven: still the Dog
    assert marks_with(close, 0.95 * MARK_CLOSE_MARGIN * close) == []  # clearly nearer the seven
    far = 1.2 * MARK_CLOSE * spread
    assert marks_with(far, far) == []  # not so close: the usual margin
    assert marks_with(far, 1.05 * MARK_MARGIN * far) == ["Dog"]


def test_pale_art_shaped_like_a_mark_is_no_mark() -> None:
    # A scrap of pastel art shaped like the Dog's "F" mark: a printed mark is dark ink.
    from vision.profile import DeckProfile
    from vision.read import glyph_vectors, read_marks

    def scene_with(colour: tuple[int, int, int]) -> tuple[Ink, IndexReading, int]:
        _, ink, (seven, mark) = lettered_card(
            200, 320, [("7", (40, 110), 0.8, (20, 20, 20)), ("F", (200, 110), 0.8, colour)]
        )
        reading = IndexReading(IndexPair((seven,), seven, (0.0, 1.0)), "7", "star", 0.99, (48.0, 100.0), 18.0)
        return ink, reading, mark

    ink, reading, mark = scene_with((20, 20, 20))
    exemplars = glyph_vectors(ink, [((mark,), (0.0, 1.0)), ((reading.pair.rank[0],), (0.0, 1.0))])
    profile = DeckProfile("tichu", exemplars=exemplars.astype(np.float32), labels=("Dog", "7"), spread=0.5)
    assert [m.rank for m in read_marks(ink, [reading], profile)] == ["Dog"]
    pale_ink, pale_reading, pale_mark = scene_with((150, 170, 200))  # a pastel pink "F"
    assert pale_mark != pale_reading.pair.rank[0]
    assert read_marks(pale_ink, [pale_reading], profile) == []


def test_a_mark_is_sized_against_its_nearest_index_too() -> None:
    # A photo taken at an angle: the near cards' indices read twice the size of the far
    # ones.  The Dog's "F" mark, as small as the "7" beside it, is still a mark, though it is
    # under 0.6 of the photo's median rank size.
    from vision.profile import DeckProfile
    from vision.read import glyph_vectors, read_marks

    _, ink, reading, (mark,) = _seven_and_letters(200, [("F", (200, 110))])
    seven = reading.pair.rank[0]
    exemplars = glyph_vectors(ink, [((mark,), (0.0, 1.0)), ((seven,), (0.0, 1.0))])
    profile = DeckProfile("tichu", exemplars=exemplars.astype(np.float32), labels=("Dog", "7"), spread=0.5)
    size = float(ink.sizes[mark])
    near = replace(reading, size=size)
    far = [replace(reading, center=(900.0 + 50 * k, 900.0), size=3 * size) for k in range(3)]
    assert [m.rank for m in read_marks(ink, [near, *far], profile)] == ["Dog"]
    # Beside an index three times its size, and in a photo of such indices, it is a speck.
    assert read_marks(ink, [replace(near, size=3 * size), *far], profile) == []


def test_a_special_cards_second_corner_mark_is_kept_as_its_twin() -> None:
    # Both of the Dog's corner marks in view: one Dog, the other mark telling where it lies.
    from vision.profile import DeckProfile
    from vision.read import glyph_vectors, read_marks

    _, ink, reading, (first, second) = _seven_and_letters(240, [("F", (150, 70)), ("F", (250, 200))])
    seven = reading.pair.rank[0]
    upright = glyph_vectors(ink, [((first,), (0.0, 1.0)), ((seven,), (0.0, 1.0))])
    profile = DeckProfile("tichu", exemplars=upright.astype(np.float32), labels=("Dog", "7"), spread=0.3)
    marks = read_marks(ink, [reading], profile)
    assert [m.rank for m in marks] == ["Dog"]
    (mark,) = marks
    other = second if mark.pair.rank == (first,) else first
    assert mark.twins == ((float(ink.centers[other][0]), float(ink.centers[other][1])),)


def test_a_corner_mark_turned_from_its_neighbour_is_read_in_its_own_turn() -> None:
    # A loose pile: the Dog lies a quarter turn from the nearest card read, whose "down" is
    # then no guide; the mark ("F", as a deck might print it) is compared in all four turns.
    from vision.profile import DeckProfile
    from vision.read import glyph_vectors, read_marks

    scene = np.full((200, 320, 3), (60, 90, 40), np.uint8)
    scene[20:180, 20:300] = 240
    cv2.putText(scene, "7", (40, 110), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2, cv2.LINE_AA)
    cv2.putText(scene, "F", (230, 110), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2, cv2.LINE_AA)
    ink = ink_components(scene, paper_regions(scene))
    seven = int(np.argmin(np.linalg.norm(ink.centers - [48, 100], axis=1)))
    mark = int(np.argmin(np.linalg.norm(ink.centers - [238, 100], axis=1)))
    # The seven's card lies on its side: its "down" points right.
    reading = IndexReading(IndexPair((seven,), seven, (1.0, 0.0)), "7", "star", 0.99, (48.0, 100.0), 18.0)
    upright = glyph_vectors(ink, [((mark,), (0.0, 1.0)), ((seven,), (1.0, 0.0))])
    profile = DeckProfile("tichu", exemplars=upright.astype(np.float32), labels=("Dog", "7"), spread=0.3)
    marks = read_marks(ink, [reading], profile)
    assert [m.rank for m in marks] == ["Dog"] and marks[0].pair.rank == (mark,)
    # Upright, or half round (marks are often printed both ways); never on its side.
    assert {tuple(round(v) for v in down) for down in marks[0].downs} == {(0, 1), (0, -1)}
    # Beside a card read (a fan), the special card lies along that card, whatever its mark.
    near = replace(reading, center=(200.0, 100.0))
    marks = read_marks(ink, [near], profile)
    assert [m.rank for m in marks] == ["Dog"]
    assert {tuple(round(v) for v in down) for down in marks[0].downs} == {(1, 0), (-1, 0)}


def test_a_corner_mark_beside_a_card_at_an_angle_of_its_own_lies_along_its_own_edges() -> None:
    # A loose pile: the Dog lies beside a card read (within a fan's reach of its index) but
    # turned 35 degrees from it, so it is no fan.  Its card's own edges around the mark,
    # not the neighbour's axis, give the directions it may lie in.
    from vision.profile import DeckProfile
    from vision.read import glyph_vectors, read_marks

    scene = np.full((300, 420, 3), (60, 90, 40), np.uint8)
    scene[60:200, 20:110] = 240  # the seven's card, upright
    cv2.putText(scene, "7", (80, 96), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (20, 20, 20), 2, cv2.LINE_AA)
    dog = np.zeros((300, 420, 3), np.uint8)
    dog[60:200, 160:260] = 240  # the Dog's card, drawn upright, then turned about its mark
    cv2.putText(dog, "F", (172, 96), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (20, 20, 20), 2, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((180.0, 85.0), 35.0, 1.0)
    turned = cv2.warpAffine(dog, turn, (420, 300))
    scene[turned.max(axis=2) > 0] = turned[turned.max(axis=2) > 0]
    ink = ink_components(scene, paper_regions(scene))
    seven = int(np.argmin(np.linalg.norm(ink.centers - [88, 85], axis=1)))
    mark = int(np.argmin(np.linalg.norm(ink.centers - [180, 85], axis=1)))
    size = float(ink.sizes[seven])
    center = (float(ink.centers[seven][0]), float(ink.centers[seven][1]))
    reading = IndexReading(IndexPair((seven,), seven, (0.0, 1.0)), "7", "star", 0.99, center, size)
    assert np.linalg.norm(ink.centers[mark] - center) <= 5.0 * size  # beside the seven
    # The Dog's "down": the card's long side, turned with it (35 degrees anticlockwise on screen).
    down = (float(np.sin(np.radians(35.0))), float(np.cos(np.radians(35.0))))
    upright = glyph_vectors(ink, [((mark,), down), ((seven,), (0.0, 1.0))])
    profile = DeckProfile("tichu", exemplars=upright.astype(np.float32), labels=("Dog", "7"), spread=0.3)
    marks = read_marks(ink, [reading], profile, scene)
    assert [m.rank for m in marks] == ["Dog"] and marks[0].pair.rank == (mark,)
    # Any quarter turn of its own card's axis (a pile), none along the seven's.
    angles = [float(np.degrees(np.arctan2(y, x))) for x, y in marks[0].downs]
    assert len(angles) == 4
    assert all(min((a - 55.0) % 90.0, 90.0 - (a - 55.0) % 90.0) <= 3.0 for a in angles)


def test_an_edge_reading_is_confirmed_only_where_the_glyph_network_reads_the_same_surely() -> None:
    # A built-in reading at a card's edge under the edge score counts where the glyph
    # network, a reader of another design, reads the same rank and suit surely.
    from vision.read import GAME_RANKS, GAME_SUITS, _network_agrees, glyph_squares

    scene = table(300, 300)
    paste(scene, draw_card("7", "hearts", 1.5), (150, 150), 0)
    ink = ink_components(scene, paper_regions(scene))
    pair = next(p for p in index_pairs(ink) if np.linalg.norm(ink.centers[p.rank[0]] - (90, 85)) < 20)
    squares, heights, widths = glyph_squares(ink, [(pair.rank, pair.down), ((pair.suit,), pair.down)])
    ranks, suits = GAME_RANKS["standard"], GAME_SUITS["standard"]
    columns = ([CLASS_INDEX[r] for r in ranks], [CLASS_INDEX[s] for s in suits])
    rows = (np.array([0, 0, 0]), np.array([1, 1, 1]))
    read = (
        np.array([ranks.index("7"), ranks.index("4"), ranks.index("7")]),
        np.array([suits.index("hearts"), suits.index("hearts"), suits.index("spades")]),
    )
    agreed = _network_agrees(squares, heights, widths, rows, read, columns, "standard")
    assert agreed.tolist() == [True, False, False]


def test_two_pips_side_by_side_above_a_third_are_no_ten() -> None:
    # A nine of clubs lying on another card (no lone outline, so its pips are not ruled out
    # by their place): two club pips side by side above a third look like a "10" and its
    # suit, but each of the two looks like a suit symbol, as no "1" or "0" does.
    from tests.vision.conftest import paste_face
    from vision.synth.style import random_style

    style = random_style(np.random.default_rng(2), "standard", ("casino",))
    scene = table(500, 700, seed=2)
    paste_face(scene, style, Card.parse("4h", Deck.STANDARD), 170, (300, 250), 8.0)
    paste_face(scene, style, Card.parse("9c", Deck.STANDARD), 170, (360, 260), -5.0)
    assert sorted(str(c.card) for c in scan_image(scene, "standard").cards) == ["4h", "9c"]


def joker_word_strip(width: int = 60, word: str = "JOKER") -> np.ndarray:
    """``word`` (JOKER) written tight down a 150-pixel strip of paper, squeezed to ``width`` pixels."""
    strip = np.full((150, 60, 3), 240, np.uint8)
    font_scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, 16, 3)
    for k, letter in enumerate(word):
        (letter_width, _), _ = cv2.getTextSize(letter, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 3)
        origin = ((60 - letter_width) // 2, 30 + 13 * k)
        cv2.putText(strip, letter, origin, cv2.FONT_HERSHEY_SIMPLEX, font_scale, (30, 30, 30), 3, cv2.LINE_AA)
    return cv2.resize(strip, (width, 150), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("turn", [35, 200])
def test_a_joker_word_run_together_is_read_along_its_length(turn: int) -> None:
    # JOKER written tight down a strip of paper: turned, its letters touch and make one or
    # two long runs of ink. The word reads from its J end, whichever way the strip lies.
    scene = table(800, 800)
    paste(scene, joker_word_strip(), (400, 400), float(turn))
    ink = ink_components(scene, paper_regions(scene))
    assert ink.parent is not None
    whole = np.flatnonzero(ink.parent < 0)  # (the parts a darker level cuts are offered beside)
    assert len(whole) < 3  # the letters ran together
    readings, used = read_joker_words(ink, scene, set())
    assert [(r.rank, r.suit) for r in readings] == [("JOKER", "black")]
    assert used == set(whole.tolist())
    # "down" runs from J to R: the strip's own down, turned with it.
    angle = np.radians(turn)
    assert np.dot(readings[0].pair.down, (np.sin(angle), np.cos(angle))) > 0.95


@pytest.mark.parametrize("turn", [35, 200])
def test_a_narrow_joker_word_eight_times_longer_than_wide_is_read(turn: int) -> None:
    # Thin letters (narrow type, or letters cut from the dark edge of the card lying over
    # them) make a word more than 7 times longer than it is wide.
    scene = table(800, 800)
    paste(scene, joker_word_strip(42), (400, 400), float(turn))  # 0.7 times as wide
    ink = ink_components(scene, paper_regions(scene))
    readings, _ = read_joker_words(ink, scene, set())
    assert [(r.rank, r.suit) for r in readings] == [("JOKER", "black")]
    word = np.column_stack(np.nonzero(ink.labels > 0)[::-1]).astype(np.float32)
    assert 7.5 < max(cv2.minAreaRect(word)[1]) / min(cv2.minAreaRect(word)[1]) < 9.0


@pytest.mark.parametrize("turn", [35, 200])
def test_a_joker_word_whose_j_is_not_read_passes_by_its_k_and_the_holes_of_its_o_and_r(
    turn: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A J the glyph model does not know (here a bare stroke, as a serif J whose hook is lost
    # in blur) passes when the K reads surely and the O and the R close around holes; the
    # same word ending in an X, which has no hole, is no JOKER.  (The letters' rule alone:
    # the joker network, which reads the word's shape whole, takes IOKEX for JOKER too.)
    monkeypatch.setattr(read_module, "JOKER_WORD_SURE", 1.1)
    scene = table(800, 800)
    paste(scene, joker_word_strip(word="IOKER"), (400, 400), float(turn))
    ink = ink_components(scene, paper_regions(scene))
    readings, _ = read_joker_words(ink, scene, set())
    assert [(r.rank, r.suit) for r in readings] == [("JOKER", "black")]
    angle = np.radians(turn)
    assert np.dot(readings[0].pair.down, (np.sin(angle), np.cos(angle))) > 0.95
    scene = table(800, 800)
    paste(scene, joker_word_strip(word="IOKEX"), (400, 400), float(turn))
    ink = ink_components(scene, paper_regions(scene))
    assert read_joker_words(ink, scene, set())[0] == []


@pytest.mark.parametrize("turn", [20, 200])
def test_a_joker_whose_e_and_r_run_together_is_read_from_a_sure_j_and_k(turn: int) -> None:
    # J, O and K stand apart, but a stroke joins the E to the R: the chain of letters stops
    # after three. A sure J and a sure K are enough; without that rule nothing is read.
    strip = np.full((170, 60, 3), 240, np.uint8)
    font_scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, 16, 2)
    for k, letter in enumerate("JOKER"):
        (letter_width, _), _ = cv2.getTextSize(letter, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 2)
        origin = ((60 - letter_width) // 2, 28 + 27 * k)
        cv2.putText(strip, letter, origin, cv2.FONT_HERSHEY_SIMPLEX, font_scale, (30, 30, 30), 2, cv2.LINE_AA)
    cv2.line(strip, (24, 110), (24, 126), (30, 30, 30), 3)
    scene = table(600, 600)
    paste(scene, strip, (300, 300), float(turn))
    ink = ink_components(scene, paper_regions(scene))
    assert len(ink.boxes) == 4  # J, O, K and the E run into the R
    pairs = [p for p in index_pairs(ink) if ink.is_whole(p)]
    readings, _ = read_jokers(ink, pairs, scene)
    assert [(r.rank, r.suit) for r in readings] == [("JOKER", "black")]


def _cut_top_of_rank(ink: Ink, pair: IndexPair, share: float) -> Ink:
    """``ink`` with the top ``share`` of the pair's rank (along its "down") taken from its
    component, as a frame line cut away with it would take it; darkness and centres kept."""
    labels = ink.labels.copy()
    ys, xs = np.nonzero(np.isin(labels, [k + 1 for k in pair.rank]))
    along = xs * pair.down[0] + ys * pair.down[1]
    top = along < along.min() + share * (along.max() - along.min())
    labels[ys[top], xs[top]] = 0
    return replace(ink, labels=labels)


def test_a_glyphs_context_window_sees_the_ink_darkness_not_its_component() -> None:
    from vision.read import CONTEXT_LENGTH, context_vectors, glyph_vectors

    scene = table(400, 400)
    paste(scene, draw_card("5", "hearts", 1.5), (200, 200), 0)
    ink = ink_components(scene, paper_regions(scene))
    pair = max(index_pairs(ink), key=lambda p: float(ink.sizes[p.rank[0]]))
    cut = _cut_top_of_rank(ink, pair, 0.3)
    glyphs = [(pair.rank, pair.down), ((pair.suit,), pair.down)]
    rows = [context_vectors(source, glyphs, glyph_vectors(source, glyphs)) for source in (ink, cut)]
    whole, shortened = rows
    assert whole.shape == (2, CONTEXT_LENGTH)
    # The rank's own features see the cut; its window (and the suit, untouched) does not.
    assert not np.allclose(whole[0, :FEATURE_LENGTH], shortened[0, :FEATURE_LENGTH])
    np.testing.assert_array_equal(whole[:, FEATURE_LENGTH:], shortened[:, FEATURE_LENGTH:])
    np.testing.assert_array_equal(whole[1], shortened[1])


class _SaysAlways:
    """A stand-in context model whose every reading is one class, surely."""

    def __init__(self, name: str) -> None:
        self.name = name

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        from vision.read import CLASSES

        result = np.zeros((len(features), len(CLASSES)), np.float32)
        result[:, CLASS_INDEX[self.name]] = 1.0
        return result


def _cut_seven() -> tuple[Ink, list[IndexPair]]:
    """A 7 of hearts whose top-left index lost the top quarter of its rank."""
    scene = table(400, 400)
    paste(scene, draw_card("7", "hearts", 1.5), (200, 200), 0)
    ink = ink_components(scene, paper_regions(scene))
    pairs = index_pairs(ink)
    [pair] = {r.pair for r in read_pairs(ink, pairs, "standard") if r.center[1] < 200}
    return _cut_top_of_rank(ink, pair, 0.25), [pair]


class _ReadsRankAndSuit:
    """A stand-in context model reading every rank crop as one class and every suit crop as
    another, surely (a pair's rank and suit crops are asked for in turn)."""

    def __init__(self, rank: str, suit: str) -> None:
        self.rank, self.suit = rank, suit

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        from vision.read import CLASSES

        result = np.zeros((len(features), len(CLASSES)), np.float32)
        result[0::2, CLASS_INDEX[self.rank]] = 1.0
        result[1::2, CLASS_INDEX[self.suit]] = 1.0
        return result


def _blend_of_the_king(
    monkeypatch: pytest.MonkeyPatch, rank_p: list[float], suit_p: list[float], confirm_only: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The context blend of one hand-set reading of a drawn king's index, the context model
    reading "7" and hearts: ``rank_p`` over ranks 7 and K, ``suit_p`` over hearts and spades."""
    from vision.read import CONTEXT_WEIGHT, _blended_with_context
    from vision.read import glyph_vectors as vectors_of

    ink, pairs = _king_of_spades()
    [pair] = [r.pair for r in read_pairs(ink, pairs, "standard")][:1]
    vectors = vectors_of(ink, [(pair.rank, pair.down), ((pair.suit,), pair.down)])
    monkeypatch.setattr("vision.read.context_model", lambda: _ReadsRankAndSuit("7", "hearts"))
    columns = ([CLASS_INDEX["7"], CLASS_INDEX["K"]], [CLASS_INDEX["hearts"], CLASS_INDEX["spades"]])
    readings = (np.array([rank_p], np.float32), np.array([suit_p], np.float32))
    weight = 1.0 if confirm_only else CONTEXT_WEIGHT
    return _blended_with_context(
        ink, [pair], vectors, ([0], [1]), readings, np.array([True]), columns, weight, confirm_only
    )


def test_built_in_readings_are_blended_with_the_context_model_down_to_a_floor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vision.read import CONTEXT_FLOOR, CONTEXT_WEIGHT

    assert (CONTEXT_WEIGHT, CONTEXT_FLOOR) == (0.5, 0.7)
    # It agrees on the rank (7) and raises it; it reads hearts for what the glyph readers
    # surely call spades, and lowers that, but not below the floor.
    rank, suit = _blend_of_the_king(monkeypatch, [0.6, 0.4], [0.0, 1.0], confirm_only=False)
    assert rank[0].tolist() == pytest.approx([0.8, 0.28])  # 0.5 * 0.6 + 0.5 * 1.0; 0.7 * 0.4
    assert suit[0].tolist() == pytest.approx([0.5, 0.7])  # 0.5 * 0.0 + 0.5 * 1.0; 0.7 * 1.0


def test_after_calibration_the_context_model_only_confirms(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its sure "7" agrees with the reading's best guess: taken whole where it is the surer.
    rank, suit = _blend_of_the_king(monkeypatch, [0.6, 0.4], [0.0, 1.0], confirm_only=True)
    assert rank[0].tolist() == pytest.approx([1.0, 0.4])
    # Its sure hearts would change the reading's spades: the reading stands.
    assert suit[0].tolist() == pytest.approx([0.0, 1.0])
    # A best guess of K it does not share: the reading stands.
    rank, _ = _blend_of_the_king(monkeypatch, [0.3, 0.7], [0.0, 1.0], confirm_only=True)
    assert rank[0].tolist() == pytest.approx([0.3, 0.7])


def test_with_a_profile_the_context_models_sure_reading_counts_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.profile import DeckProfile

    cut, pairs = _cut_seven()
    # A profile without exemplars reads as the glyph model does, but must reach the surer
    # calibrated MIN_PAIR_SCORE: the cut 7 alone falls short of it.
    profile = DeckProfile("standard")
    monkeypatch.setattr("vision.read.NET_FLOOR", 2.0)  # the context model's part alone
    monkeypatch.setattr("vision.read.CALIBRATED_CONTEXT_WEIGHT", 0.0)
    assert read_pairs(cut, pairs, "standard", profile) == []
    monkeypatch.setattr("vision.read.CALIBRATED_CONTEXT_WEIGHT", 1.0)
    monkeypatch.setattr("vision.read.context_model", lambda: _SaysAlways("7"))
    raised = read_pairs(cut, pairs, "standard", profile)
    assert [(r.rank, r.suit) for r in raised] == [("7", "hearts")]
    # Taken whole where it is the surer: the sure context reading sets the rank's share.
    assert raised[0].score > 0.9


class _NetSaysAlways(_SaysAlways):
    """A stand-in glyph network whose every reading is one class, surely."""

    def probabilities(self, features: np.ndarray, aspects: np.ndarray | None = None) -> np.ndarray:
        return super().probabilities(features)


def test_the_glyph_networks_second_opinion_is_averaged_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vision.profile import DeckProfile

    ink, pairs = _king_of_spades()
    profile = DeckProfile("standard")  # no exemplars: the models' readings as they are
    kings = [Card.parse("Ks", Deck.STANDARD)] * 2
    monkeypatch.setattr("vision.read.CALIBRATED_CONTEXT_WEIGHT", 0.0)
    # The shipped network agrees with the perceptron on a clean king.
    assert [r.card("standard") for r in read_pairs(ink, pairs, "standard", profile)] == kings
    monkeypatch.setattr("vision.read.CONTEXT_WEIGHT", 0.0)
    built_in = read_pairs(ink, pairs, "standard")
    assert [r.card("standard") for r in built_in] == kings
    monkeypatch.setattr("vision.read.glyph_net", lambda: _NetSaysAlways("other"))
    # The network calls every glyph "other": averaged in, no rank reaches the calibrated 0.75 ...
    assert read_pairs(ink, pairs, "standard", profile) == []
    # ... and built-in readings, averaged with it too, are the less sure for it (though
    # they still pass the lower built-in score).
    doubted = read_pairs(ink, pairs, "standard")
    assert [r.card("standard") for r in doubted] == kings
    assert all(d.score < 0.8 * b.score for d, b in zip(doubted, built_in, strict=True))


@pytest.mark.parametrize("name", ["other", "6", "hearts"])
def test_a_surely_wrong_context_model_lowers_but_never_silences_a_clean_reading(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    ink, pairs = _king_of_spades()
    monkeypatch.setattr("vision.read.CONTEXT_WEIGHT", 0.0)
    plain = read_pairs(ink, pairs, "standard")
    monkeypatch.setattr("vision.read.CONTEXT_WEIGHT", 0.5)
    monkeypatch.setattr("vision.read.context_model", lambda: _SaysAlways(name))
    doubted = read_pairs(ink, pairs, "standard")
    kings = [Card.parse("Ks", Deck.STANDARD)] * 2
    assert [r.card("standard") for r in plain] == [r.card("standard") for r in doubted] == kings
    assert all(d.score < p.score for d, p in zip(doubted, plain, strict=True))


@pytest.mark.parametrize("name", ["other", "6", "hearts"])
def test_after_calibration_the_context_model_never_lowers_or_changes_a_reading(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    from vision.profile import DeckProfile

    ink, pairs = _king_of_spades()
    cut, cut_pairs = _cut_seven()
    profile = DeckProfile("standard")  # no exemplars: the models' readings as they are
    monkeypatch.setattr("vision.read.CALIBRATED_CONTEXT_WEIGHT", 0.0)
    plain = read_pairs(ink, pairs, "standard", profile), read_pairs(cut, cut_pairs, "standard", profile)
    monkeypatch.setattr("vision.read.CALIBRATED_CONTEXT_WEIGHT", 1.0)
    monkeypatch.setattr("vision.read.context_model", lambda: _SaysAlways(name))
    confirmed = read_pairs(ink, pairs, "standard", profile), read_pairs(cut, cut_pairs, "standard", profile)
    assert confirmed == plain
    assert [r.card("standard") for r in plain[0]] == [Card.parse("Ks", Deck.STANDARD)] * 2


@pytest.mark.parametrize("seed", [119, 238])
def test_the_shipped_context_model_completes_a_fan_the_glyph_readers_read_short(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    from collections import Counter

    from vision.synth import SceneSpec, render_scene
    from vision.synth.style import families

    standard = families("standard", held_out=False)
    spec = SceneSpec(width=1280, height=720, game="standard", families=standard, layout="fan", max_cards=8)
    image, labels = render_scene(np.random.default_rng(seed), spec)
    truth = Counter(label.card for label in labels)
    found = Counter(str(c.card) for c in scan_image(image, "standard").cards)
    assert found == truth
    monkeypatch.setattr("vision.read.CONTEXT_WEIGHT", 0.0)
    # The glyph readers alone: the index patch network rescues nothing either.
    with monkeypatch.context() as alone_patch:
        alone_patch.setattr("vision.read.WHOLE_SURE", 1.1)
        alone = Counter(str(c.card) for c in scan_image(image, "standard").cards)
    assert alone < truth and sum((truth - alone).values()) == 1  # one card short, nothing false


@pytest.mark.parametrize(("beside", "a_ten"), [((30, 30, 35), True), ((200, 90, 30), False)])
def test_ink_beside_a_one_is_a_cut_zero_only_in_the_ones_colour(
    beside: tuple[int, int, int], a_ten: bool
) -> None:
    # A lone black "1" with ink where a "10"'s "0" stands: black ink may be that "0" (cut by
    # the card above), so the "1" is no Mahjong; blue ink is the next card's art in a fan.
    from vision.read import _ink_beside

    image = np.full((60, 60, 3), 235, np.uint8)
    labels = np.zeros((60, 60), np.int32)
    one, suit = (20, 10, (25, 25, 25)), (20, 32, (40, 40, 200))
    for number, (x, y, colour) in enumerate([one, suit, (31, 12, beside)]):
        image[y : y + 14, x : x + 5] = colour
        labels[y : y + 14, x : x + 5] = number + 1
    boxes = np.array([[20, 10, 5, 14], [20, 32, 5, 14], [31, 12, 5, 14]], np.int32)
    centers = boxes[:, :2] + boxes[:, 2:] / 2.0
    ink = Ink(
        labels,
        boxes,
        centers.astype(np.float32),
        np.full(3, 14.0, np.float32),
        np.zeros(3, np.int32),
        darkness=(labels > 0).astype(np.float32),
    )
    pair = IndexPair((0,), 1, (0.0, 1.0))
    assert _ink_beside(ink, pair)  # by its place alone
    assert _ink_beside(ink, pair, image) is a_ten


def test_a_word_of_letters_run_together_is_offered_alone_beside_a_glyph_that_joins_it() -> None:
    # JOKER set tight is one long thin component; the next card's glyph a few pixels beyond
    # its J joins it when nearby ink is gathered into words, and would shift every letter cut.
    labels = np.zeros((120, 60), np.int32)
    labels[20:100, 20:34] = 1  # the word: 80 x 14 pixels
    labels[10:17, 23:31] = 2  # a glyph 3 pixels above it
    boxes = np.array([[20, 20, 14, 80], [23, 10, 8, 7]], np.int32)
    centers = np.array([[26.5, 59.5], [26.5, 13.0]], np.float32)
    ink = Ink(labels, boxes, centers, np.array([65.0, 8.5], np.float32), np.zeros(2, np.int32))
    words = {word.members: word.length for word in _long_words(ink, set())}
    assert (0,) in words and 78 <= words[(0,)] <= 82
    assert (0, 1) in words  # the joined run is still offered too


def test_no_long_word_among_short_glyphs() -> None:
    labels = np.zeros((40, 40), np.int32)
    labels[10:18, 10:16] = 1  # one small glyph, shorter than any word
    ink = drawn_ink(labels, [[10, 10, 6, 8]], [[12.5, 13.5]], [8.0])
    assert _long_words(ink, set()) == []


def test_glyphs_are_described_once_per_photo_and_alike_from_the_cache() -> None:
    from vision.features import glyph_features_batch
    from vision.read import described_glyphs, glyph_squares

    scene = table(400, 400)
    paste(scene, draw_card("Q", "clubs", 1.5), (200, 200), 25)
    ink = ink_components(scene, paper_regions(scene))
    pair = max(index_pairs(ink), key=lambda p: float(ink.sizes[p.rank[0]]))
    rank, suit = (pair.rank, pair.down), ((pair.suit,), pair.down)
    first = described_glyphs(ink, [rank])
    assert set(ink.glyph_cache) == {rank}
    # Asked again among others, the cached glyph comes back as cut and described at first,
    # and as a fresh cut would describe it.
    squares, heights, widths, vectors = described_glyphs(ink, [suit, rank, suit])
    assert set(ink.glyph_cache) == {rank, suit}
    np.testing.assert_array_equal(vectors[1], first[3][0])
    np.testing.assert_array_equal(vectors[0], vectors[2])
    fresh = glyph_squares(ink, [rank, suit])
    np.testing.assert_array_equal(squares[:2], fresh[0][::-1])
    np.testing.assert_array_equal(heights[:2], fresh[1][::-1])
    np.testing.assert_array_equal(widths[:2], fresh[2][::-1])
    np.testing.assert_array_equal(vectors[:2], glyph_features_batch(*fresh)[::-1])
    # Other ink (a copy with new labels) starts with nothing cut.
    assert replace(ink, labels=ink.labels.copy()).glyph_cache == {}


def test_a_components_ink_is_made_ready_once_and_turns_as_a_fresh_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import vision.read as read
    from vision.detect import component_mask
    from vision.features import upright_glyphs
    from vision.read import glyph_squares

    scene = table(400, 400)
    paste(scene, draw_card("Q", "clubs", 1.5), (200, 200), 25)
    ink = ink_components(scene, paper_regions(scene))
    pair = max(index_pairs(ink), key=lambda p: float(ink.sizes[p.rank[0]]))
    cut: list[tuple[int, ...]] = []

    def counted(ink_: object, components: tuple[int, ...]) -> tuple[np.ndarray, tuple[int, int]]:
        cut.append(components)
        assert isinstance(ink_, Ink)
        return component_mask(ink_, components)

    monkeypatch.setattr(read, "component_mask", counted)
    upright = (pair.rank, pair.down)
    turned = (pair.rank, (pair.down[1], -pair.down[0]))
    glyph_squares(ink, [upright])
    squares, heights, widths = glyph_squares(ink, [turned])
    assert cut == [pair.rank]  # cut once, turned twice
    mask, _ = component_mask(ink, pair.rank)
    [(square, height, width)] = upright_glyphs(mask, [turned[1]])
    np.testing.assert_array_equal(squares[0], square)
    assert (heights[0], widths[0]) == (np.float32(height), np.float32(width))
    assert replace(ink, labels=ink.labels.copy()).ink_cache == {}


def test_a_red_joker_word_joined_to_a_scrap_of_black_line_is_the_coloured_joker() -> None:
    # The letters run together into one red component; a two-pixel scrap of the card's dark
    # frame joined the word.  Counted letter by letter, one red against one neutral made
    # the big joker black; counted by their ink, the word is red.
    image = np.full((40, 80, 3), 235, np.uint8)
    labels = np.zeros((40, 80), np.int32)
    image[10:20, 5:55] = (70, 70, 190)
    labels[10:20, 5:55] = 1
    image[10:20, 57:59] = (40, 40, 40)
    labels[10:20, 57:59] = 2
    boxes = np.array([[5, 10, 50, 10], [57, 10, 2, 10]], np.int32)
    ink = Ink(
        labels,
        boxes,
        np.array([[29.5, 14.5], [57.5, 14.5]], np.float32),
        np.array([40.0, 8.0], np.float32),
        np.zeros(2, np.int32),
        darkness=(labels > 0).astype(np.float32),
    )
    assert _joker_ink(image, ink, [0, 1], image[labels > 0]) == "coloured"
