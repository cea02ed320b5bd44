"""vision.detect on drawn scenes with exact answers."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.conftest import draw_back, draw_card, paste, table
from vision.detect import (
    EDGE_PAPER_RING,
    Ink,
    _paper_ring,
    cut_lines,
    index_pairs,
    ink_components,
    lined_parts,
    longest_run,
    paper_mask,
    paper_regions,
    working_image,
)
from vision.read import read_pairs
from vision.scan import order_corners, scan_image


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest distance from a true corner to the nearest found corner."""
    return float(max(np.linalg.norm(found - corner, axis=1).min() for corner in truth))


def test_working_image_keeps_small_photos_and_shrinks_big_ones() -> None:
    small = np.zeros((600, 800, 3), np.uint8)
    assert working_image(small)[0] is small and working_image(small)[1] == 1.0
    shrunk, scale = working_image(np.zeros((3000, 4000, 3), np.uint8), 1280)
    assert shrunk.shape == (960, 1280, 3) and scale == 4000 / 1280


def test_an_empty_table_has_no_paper() -> None:
    regions = paper_regions(table())
    assert regions.quads == [] and not regions.labels.any()


def test_a_lone_card_is_found_with_its_corners_within_3_pixels() -> None:
    for angle in (0.0, 17.0, 90.0, 135.0):
        scene = table()
        truth = paste(scene, draw_card("Q", "hearts", 1.4), (400, 300), angle)
        regions = paper_regions(scene)
        quads = [q for q in regions.quads if q is not None]
        assert len(quads) == 1, angle
        assert corner_error(quads[0], truth) <= 3.0, (angle, quads[0], truth)


def test_separate_cards_are_separate_regions() -> None:
    scene = table()
    truths = [
        paste(scene, draw_card("2", "spades"), (150, 150), 10),
        paste(scene, draw_card("K", "diamonds"), (400, 150), -25),
        paste(scene, draw_card("7", "clubs"), (620, 400), 80),
    ]
    quads = [q for q in paper_regions(scene).quads if q is not None]
    assert len(quads) == 3
    for truth in truths:
        assert min(corner_error(q, truth) for q in quads) <= 3.0


def test_overlapping_cards_form_one_region_that_is_no_lone_card() -> None:
    scene = table()
    paste(scene, draw_card("5", "hearts", 1.3), (360, 300), 0)
    paste(scene, draw_card("6", "hearts", 1.3), (400, 310), -8)
    regions = paper_regions(scene)
    assert len(regions.quads) == 1 and regions.quads[0] is None


def test_a_coloured_card_back_is_not_paper() -> None:
    scene = table()
    paste(scene, draw_back(1.4), (400, 300), 20)
    mask = paper_mask(scene)
    assert mask[300, 400] == 0  # the patterned middle of the back


def test_index_pairs_propose_the_rank_above_the_suit() -> None:
    scene = table(400, 400)
    paste(scene, draw_card("K", "spades", 1.5), (200, 200), 0)
    regions = paper_regions(scene)
    ink = ink_components(scene, regions)
    pairs = index_pairs(ink)
    # The top-left index: the K (centre near (147, 121)) with its spade below.
    downs = [
        pair.down
        for pair in pairs
        if len(pair.rank) == 1
        and np.linalg.norm(ink.centers[pair.rank[0]] - (147, 121)) < 6
        and ink.centers[pair.suit][1] > ink.centers[pair.rank[0]][1]
    ]
    assert downs, "no pair for the top-left index"
    assert max(d[1] for d in downs) > 0.95  # pointing straight down


def test_ink_on_the_table_is_not_a_glyph() -> None:
    scene = table(300, 300)
    cv2.putText(scene, "K", (100, 150), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (0, 0, 0), 4)
    assert len(ink_components(scene, paper_regions(scene)).centers) == 0


@pytest.mark.parametrize(("margins", "on_edge"), [((2, 2, 2, 2), True), ((3, 3, 4, 4), False)])
def test_a_glyph_with_only_a_sliver_of_paper_around_it_is_still_ink(
    margins: tuple[int, int, int, int], on_edge: bool
) -> None:
    # An index peeking out between the dark rims and thick frame lines of a tight fan has
    # little paper around it: it is still a glyph. With 2 pixels of paper round it, one whose
    # reading must be surer (on the edge); with 3 or 4, an ordinary one.
    left, top, right, bottom = margins
    scene = table(400, 400)
    cv2.rectangle(scene, (202 - left, 239 - top), (214 + right, 255 + bottom), (235, 235, 235), -1)
    # The K fills the box x 202..214, y 239..255.
    cv2.putText(scene, "K", (200, 256), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2)
    ink = ink_components(scene, paper_regions(scene))
    assert ink.edge is not None and len(ink.centers) == 1 and bool(ink.edge[0]) is on_edge


def test_a_small_suit_in_a_ragged_patch_of_the_paper_mask_is_still_ink() -> None:
    # Right around a small red suit the paper mask is ragged: the suit's colour bleeds into
    # the paper (JPEG), and in shade pixels a hair too dark or tinted for paper speckle it.
    # Most of the ring around the suit is then no paper, pixel by pixel, though it is all
    # card: the suit must stay a glyph.  Ink far out on the table stays no glyph.
    scene = table(300, 300)
    cv2.rectangle(scene, (100, 80), (200, 220), (235, 235, 235), -1)
    cv2.putText(scene, "9", (120, 120), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (30, 30, 200), 2)
    suit = np.array([[130, 128], [136, 134], [130, 140], [124, 134]], np.int32)  # a diamond
    cv2.fillPoly(scene, [suit], (30, 30, 200))
    cv2.fillPoly(scene, [suit + np.array([110, 0], np.int32)], (30, 30, 200))  # the same on the table
    regions = paper_regions(scene)
    paper = regions.paper.copy()
    speckle = np.random.default_rng(7).random((28, 28)) < 0.9
    speckle[8:21, 8:21] = False  # the suit's own box
    paper[120:148, 116:144][speckle] = 0
    ragged = replace(regions, paper=paper)
    assert _paper_ring(paper, np.array([[124, 128, 13, 13]]))[0] < EDGE_PAPER_RING
    ink = ink_components(scene, ragged)
    assert np.linalg.norm(ink.centers - (130, 134), axis=1).min() < 2  # the diamond is kept
    assert np.linalg.norm(ink.centers - (240, 134), axis=1).min() > 20  # the table's is not


def test_order_corners_starts_at_the_top_left_of_the_upright_card() -> None:
    quad = np.array([[0, 0], [0, 140], [100, 140], [100, 0]], np.float32)
    assert order_corners(quad, (0.0, 1.0)).tolist() == [[0, 0], [100, 0], [100, 140], [0, 140]]
    assert order_corners(quad, (1.0, 0.0)).tolist() == [[0, 140], [0, 0], [100, 0], [100, 140]]


def test_a_big_solid_suit_symbol_stays_one_whole_component() -> None:
    # A filled diamond 24 px across on a card: too wide to be mistaken for thin ink, but
    # glyph-sized, so it is ink and not "table" to be cut away (which shreds it in four).
    scene = table(400, 400)
    cv2.rectangle(scene, (100, 80), (300, 340), (235, 235, 235), -1)
    diamond = np.array([[150, 120], [162, 132], [150, 144], [138, 132]], np.int32)
    cv2.fillPoly(scene, [diamond], (30, 30, 200))
    ink = ink_components(scene, paper_regions(scene))
    inside = [k for k, (x, y) in enumerate(ink.centers) if 136 <= x <= 164 and 118 <= y <= 146]
    assert len(inside) == 1
    w, h = ink.boxes[inside[0]][2:]
    assert (w, h) == (25, 25) and np.allclose(ink.centers[inside[0]], (150, 132), atol=0.5)


def glyphs_in(
    ink: Ink, xs: tuple[float, float], ys: tuple[float, float], sizes: tuple[float, float]
) -> list[int]:
    """The components centred in the box ``xs`` x ``ys`` whose size lies in ``sizes``."""
    return [
        k
        for k, (x, y) in enumerate(ink.centers)
        if xs[0] <= x <= xs[1] and ys[0] <= y <= ys[1] and sizes[0] <= ink.sizes[k] <= sizes[1]
    ]


def test_a_glyph_touching_a_long_frame_is_freed_from_it() -> None:
    # A thin frame around a card face (over 1 % of the photo's pixels) with a rank touching
    # it: the frame's straight lines are erased and the rank is a glyph of its own.
    scene = table(400, 400)
    cv2.rectangle(scene, (30, 20), (370, 390), (235, 235, 235), -1)
    cv2.rectangle(scene, (45, 35), (355, 375), (40, 40, 40), 2)
    cv2.putText(scene, "K", (44, 70), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (20, 20, 20), 3)
    ink = ink_components(scene, paper_regions(scene))
    assert len(glyphs_in(ink, (52, 72), (42, 66), (16, 40))) == 1


def test_a_frame_line_erased_two_pixels_wide_spares_more_of_the_glyph_touching_it() -> None:
    # A K whose top touches a thin frame line: the line is erased either way; two pixels
    # wide (standard decks) keep the K's top row, which three pixels take with the line.
    scene = table(400, 400)
    cv2.rectangle(scene, (30, 20), (370, 390), (235, 235, 235), -1)
    cv2.rectangle(scene, (45, 40), (355, 375), (40, 40, 40), 1)
    cv2.putText(scene, "K", (60, 58), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (20, 20, 20), 2)
    kept = {}
    for width in (2, 3):
        ink = ink_components(scene, paper_regions(scene), line_width=width)
        assert len(ink.boxes) == 1  # the K alone: the frame is gone
        kept[width] = (ink.boxes[0].tolist(), int(np.count_nonzero(ink.labels == 1)))
    assert kept[2][0][1] < kept[3][0][1] and kept[2][1] > kept[3][1]


def test_a_small_index_on_the_long_dark_edge_of_the_card_above_is_freed_from_it() -> None:
    # In a tight fan of dark-edged cards each index touches the next card's edge, which
    # runs the card's whole length: the edge holds nearly all the ink (the 7 about 5% of it).
    mask = np.zeros((460, 120), np.uint8)
    mask[20:440, 50:55] = 255  # the edge, 420 x 5
    cv2.putText(mask, "7", (50, 250), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 255, 2)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    assert count == 2 and stats[1, 4] * 0.08 > stats[1, 4] - 420 * 5
    result = cut_lines(mask, labels, stats, np.array([1]), 50, 4.0, 200.0)
    assert result is not None
    _, _, pieces, _ = cv2.connectedComponentsWithStats(result)
    assert len(pieces) == 2 and 12 <= pieces[1, 3] <= 20  # the 7 alone


@pytest.mark.parametrize("degrees", [-14.5, 17.0, 30.0])
def test_a_glyph_on_a_thin_slanting_frame_line_is_freed_from_it(degrees: float) -> None:
    # A fan's index corners touch a thin frame line a pixel wide running slantwise across
    # the card: between the openings' directions it has no straight run, yet it is cut.
    mask = np.zeros((200, 260), np.uint8)
    slope = np.tan(np.radians(degrees))
    cv2.line(mask, (10, round(100 - 120 * slope)), (250, round(100 + 120 * slope)), 255, 1)
    cv2.putText(mask, "Q", (118, 99), cv2.FONT_HERSHEY_SIMPLEX, 0.55, 255, 2)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert count == 2  # the Q touches the line
    assert longest_run((labels == 1).astype(np.uint8) * 255, 51)[1] == 0.0  # no run found
    result = cut_lines(mask, labels, stats, np.array([1]), 51, 4.0, 200.0)
    assert result is not None
    _, _, pieces, _ = cv2.connectedComponentsWithStats(result, connectivity=8)
    glyphs = pieces[1:][pieces[1:, 4] >= 20]
    assert len(glyphs) == 1 and 9 <= glyphs[0, 3] <= 16 and glyphs[0, 2] <= 16  # the Q alone


def test_a_glyph_centred_off_the_paper_still_pairs_but_other_cards_do_not() -> None:
    labels = np.zeros((10, 10), np.int32)
    boxes = np.array([[10, 10, 8, 12], [10, 25, 8, 8]], np.int32)
    centers = np.array([[14, 16], [14, 29]], np.float32)
    sizes = np.array([12, 9], np.float32)

    def proposed(regions: list[int]) -> list[tuple[tuple[int, ...], int]]:
        ink = Ink(labels, boxes, centers, sizes, np.array(regions, np.int32))
        return [(p.rank, p.suit) for p in index_pairs(ink)]

    assert proposed([0, -1]) == [((0,), 1), ((1,), 0)]
    assert proposed([-1, 3]) == [((0,), 1), ((1,), 0)]
    assert proposed([0, 1]) == []


def test_specks_nearer_than_the_suit_do_not_crowd_it_out() -> None:
    # A rank (size 29) with three frame scraps (size 10) nearer than its suit (size 19).
    centers = np.array([[354, 1020], [350, 992], [340, 1030], [368, 1030], [354, 1043]], np.float32)
    sizes = np.array([29, 19, 10, 10, 10], np.float32)
    corners = (centers - sizes[:, None] / 2).astype(np.int32)
    boxes = np.column_stack([corners, sizes.astype(np.int32), sizes.astype(np.int32)]).astype(np.int32)
    ink = Ink(np.zeros((10, 10), np.int32), boxes, centers, sizes, np.zeros(5, np.int32))
    pairs = [(p.rank, p.suit) for p in index_pairs(ink)]
    assert ((0,), 1) in pairs  # the rank over its suit, turned half round
    assert ((0,), 2) in pairs and ((0,), 4) in pairs  # the nearest few are still offered


def test_a_suit_behind_the_next_cards_rank_and_frame_scraps_is_still_offered() -> None:
    # In a tight fan: a rank (size 25) with three specks nearest, then the next card's rank
    # (24) and a scrap of its frame line (17), both sizeable and both nearer than its own
    # suit (21).
    centers = np.array(
        [[100, 100], [112, 96], [94, 110], [104, 111], [124, 101], [100, 118], [101, 126]], np.float32
    )
    sizes = np.array([25, 8, 8, 8, 24, 17, 21], np.float32)
    corners = (centers - sizes[:, None] / 2).astype(np.int32)
    boxes = np.column_stack([corners, sizes.astype(np.int32), sizes.astype(np.int32)]).astype(np.int32)
    ink = Ink(np.zeros((10, 10), np.int32), boxes, centers, sizes, np.zeros(len(sizes), np.int32))
    pairs = [(p.rank, p.suit) for p in index_pairs(ink)]
    assert ((0,), 6) in pairs


def test_a_ten_whose_suit_sits_under_its_one_on_a_turned_card_is_offered_whole() -> None:
    # Measured on a held-out photo: a "1" (size 13.8), its "0" (14.2) beside it, and the suit
    # (11.4) under the "1" rather than under the pair; the card is turned a little, so the "0"
    # lies 0.31 glyph sizes further along the 1-to-suit direction than the "1".
    centers = np.array([[892.25, 108.5], [903.9, 112.42], [892.7, 124.0]], np.float32)
    sizes = np.array([13.76, 14.24, 11.37], np.float32)
    boxes = np.array([[887, 102, 10, 14], [899, 106, 11, 14], [888, 120, 11, 9]], np.int32)
    ink = Ink(np.zeros((10, 10), np.int32), boxes, centers, sizes, np.zeros(3, np.int32))
    assert ((0, 1), 2) in [(p.rank, p.suit) for p in index_pairs(ink)]


def test_a_card_whose_art_and_rim_cut_into_its_paper_is_still_a_lone_card() -> None:
    # Real decks print art up to a dark rim: the paper left is far from a filled rectangle.
    face = draw_card("9", "clubs", 1.4)
    h, w = face.shape[:2]
    cv2.rectangle(face, (2, 2), (w - 3, h - 3), (30, 30, 30), 3)
    cv2.rectangle(face, (w // 3, 0), (2 * w // 3, h // 5), (60, 40, 160), -1)  # art bleeding off the top
    cv2.circle(face, (0, h // 2), w // 5, (40, 140, 200), -1)  # ... and off the left side
    scene = table()
    truth = paste(scene, face, (400, 300), 21.0)
    quads = [q for q in paper_regions(scene).quads if q is not None]
    assert len(quads) == 1
    # The paper ends inside the rim, a few pixels in from the card's edge.
    assert corner_error(quads[0], truth) <= 12.0


def _smudged_index(
    rank: str, smudges: list[tuple[tuple[int, int], tuple[int, int]]], grey: int
) -> tuple[list[tuple[str, str]], int]:
    """A drawn card of hearts whose top-left index ``smudges`` (lines on the face, ``grey``,
    lighter than the print) join into one component: the readings of its top-left corner and
    the number of parts a darker level cut that component into."""
    face = draw_card(rank, "hearts", 2.0)
    for start, end in smudges:
        cv2.line(face, start, end, (grey, grey, grey), 3)
    scene = table(800, 800)
    paste(scene, face, (400, 400), 0.0)  # the card spans x 300-500, y 260-540
    ink = ink_components(scene, paper_regions(scene))
    assert ink.parent is not None

    def top_left(x: float, y: float) -> bool:
        return x < 360 and y < 380

    fused = [k for k, c in enumerate(ink.centers) if top_left(*c) and ink.parent[k] < 0]
    assert len(fused) == 1  # the trap is set: the index is one component
    readings = read_pairs(ink, index_pairs(ink), "standard")
    return [(r.rank, r.suit) for r in readings if top_left(*r.center)], int((ink.parent == fused[0]).sum())


@pytest.mark.parametrize("smudge", [160, 142])
def test_a_rank_blurred_into_its_suit_is_read_from_its_two_parts(smudge: int) -> None:
    # A grey smudge joins the top-left rank to its suit, as blur does on small indices: one
    # component, but it falls apart at a darker level (the darker smudge only at the second
    # level tried).
    readings, parts = _smudged_index("7", [((28, 46), (28, 65))], smudge)
    assert parts == 2
    assert readings == [("7", "hearts")]


@pytest.mark.parametrize("smudge", [160, 142])
def test_a_ten_blurred_into_one_blot_with_its_suit_is_read_from_its_three_parts(smudge: int) -> None:
    # Grey smudges join the "1" to the "0" and the "0" to the suit below: the whole index is
    # one component, which a darker level cuts into three parts, "1", "0" and the suit.
    readings, parts = _smudged_index("10", [((21, 36), (37, 36)), ((38, 47), (38, 64))], smudge)
    assert parts == 3
    assert readings == [("10", "hearts")]


def test_an_index_in_a_shadow_is_still_ink_on_paper() -> None:
    # A light blue cloth pulls the brightness threshold up between cloth and paper, so the
    # shaded half of the card falls below it; its index must still be found.
    scene = table(400, 400)
    scene[:] = (215, 175, 120)
    paste(scene, draw_card("K", "spades", 1.5), (200, 200), 0)
    scene[:, :200] = (scene[:, :200] * 0.72).astype(np.uint8)  # the shadow of a hand
    regions = paper_regions(scene)
    assert paper_mask(scene)[121, 147 + 15] == 0  # the lit paper mask misses the shaded paper
    ink = ink_components(scene, regions)
    ranks = [pair.rank for pair in index_pairs(ink) if len(pair.rank) == 1]
    assert any(np.linalg.norm(ink.centers[rank[0]] - (147, 121)) < 6 for rank in ranks)
    # The shaded cloth is no paper.
    assert regions.paper[20, 20] == 0 and regions.paper[20, 380] == 0


def test_an_index_on_cream_paper_in_a_shadow_is_still_ink_on_paper(monkeypatch: pytest.MonkeyPatch) -> None:
    # A shadow darkens cream stock without greying it: the shaded half of a cream card on a
    # light blue cloth is as saturated as its lit half, more than grey paper in shade may be.
    scene = table(400, 400)
    scene[:] = (215, 175, 120)
    paste(scene, draw_card("K", "spades", 1.5), (200, 200), 0)
    scene[:] = (scene.astype(np.float32) * (0.8, 0.92, 1.0)).astype(np.uint8)  # cream
    scene[:, :200] = (scene[:, :200] * 0.62).astype(np.uint8)
    index = (147, 121)

    def found() -> bool:
        ink = ink_components(scene, paper_regions(scene))
        ranks = [pair.rank for pair in index_pairs(ink) if len(pair.rank) == 1]
        return any(np.linalg.norm(ink.centers[rank[0]] - index) < 6 for rank in ranks)

    assert paper_mask(scene)[index[1], index[0] + 15] == 0  # the lit paper mask misses it
    assert found()
    monkeypatch.setattr("vision.detect.SHADE_SATURATION_MARGIN", -255)  # grey shade only
    assert not found()


def test_an_index_in_deep_shade_is_read_but_must_read_surely() -> None:
    # A dark shadow over one card of two: its paper is under 0.65 of the lit card's
    # brightness, as dark as a grey card back, so it is paper only in deep shade, where a
    # reading must be as sure as at a card's edge.
    scene = table(400, 700)
    paste(scene, draw_card("9", "hearts", 1.5), (150, 200), 0)
    paste(scene, draw_card("K", "spades", 1.5), (500, 200), 0)
    scene[:, 350:] = (scene[:, 350:] * 0.55).astype(np.uint8)
    regions = paper_regions(scene)
    assert regions.deep is not None
    assert regions.deep[200, 500] == 255 and regions.deep[200, 150] == 0
    ink = ink_components(scene, regions)
    readings = read_pairs(ink, index_pairs(ink), "standard")
    shaded = [r for r in readings if r.center[0] > 350]
    assert [(r.rank, r.suit) for r in shaded][:1] == [("K", "spades")]
    assert ink.edge is not None
    assert all(ink.edge[r.pair.rank[0]] for r in shaded)
    assert not any(ink.edge[r.pair.rank[0]] for r in readings if r.center[0] < 350)
    assert sorted(str(found.card) for found in scan_image(scene, "standard").cards) == ["9h", "Ks"]


def test_a_glyph_touching_the_frames_of_a_whole_fan_is_freed_from_them() -> None:
    # A fan's frame lines and card edges join into one network of ink over 3 % of the photo;
    # a rank touching one of them must still come out as a glyph of its own.
    scene = table(400, 400)
    cv2.rectangle(scene, (20, 20), (380, 390), (235, 235, 235), -1)
    for x in range(40, 380, 36):
        cv2.line(scene, (x, 30), (x, 380), (40, 40, 40), 3)
    cv2.line(scene, (40, 380), (364, 380), (40, 40, 40), 3)
    assert (scene[:, :, 0] < 60).mean() > 0.03
    cv2.putText(scene, "K", (184, 70), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2)  # on the line x=184
    ink = ink_components(scene, paper_regions(scene))
    assert len(glyphs_in(ink, (186, 204), (50, 72), (12, 30))) == 1


def test_a_small_glyph_on_the_shadowed_edge_of_the_card_above_is_freed_from_it() -> None:
    # In a tight fan each card's edge casts a dark strip over the next card; a small rank
    # standing on that strip makes one compact component with it (too solid to count as a
    # tangle of frame lines). The strip is cut away and the rank stands alone.
    scene = table(400, 1000)
    cv2.rectangle(scene, (100, 60), (900, 340), (235, 235, 235), -1)
    cv2.rectangle(scene, (300, 125), (303, 219), (45, 45, 45), -1)  # the strip, 95 x 4
    cv2.putText(scene, "7", (301, 214), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2)
    ink = ink_components(scene, paper_regions(scene))
    assert len(glyphs_in(ink, (303, 315), (200, 214), (8, 20))) == 1
    # The strip's pixels away from the glyph are no glyph of their own.
    assert not glyphs_in(ink, (295, 310), (125, 220), (40, 400))


def _dark_rimmed_fan_with_a_k() -> np.ndarray:
    """A tight fan of cards with thick dark rims, slightly slanted, and a small K whose
    stroke touches the rim beside it (blurred, nothing pale is left between them)."""
    scene = table(400, 500)
    cv2.rectangle(scene, (40, 30), (460, 370), (232, 232, 232), -1)
    for x in range(100, 420, 40):
        cv2.line(scene, (x, 40), (x + 8, 360), (15, 15, 15), 7)
    cv2.putText(scene, "K", (146, 84), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (15, 15, 15), 2)
    return cv2.GaussianBlur(scene, (3, 3), 0.8)


def test_a_small_rank_welded_to_the_thick_dark_rim_beside_it_comes_out_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The rim's straight runs pass through the K's upright stroke; at its darkest the ink
    # shows the K apart from the rim, so the K keeps that stroke.
    scene = _dark_rimmed_fan_with_a_k()
    ink = ink_components(scene, paper_regions(scene), line_width=3)
    assert ink.labels[78, 139] == 0  # (the rim is no glyph)
    whole = glyphs_in(ink, (140, 165), (60, 90), (5, 30))
    assert len(whole) == 1
    x, _, w, h = ink.boxes[whole[0]].tolist()
    assert x <= 148 and 11 <= h <= 14 and 7 <= w <= 11  # the whole K, stroke and arms
    # Nothing else along the rims passes for a glyph.
    assert len(glyphs_in(ink, (90, 430), (40, 360), (5, 30))) == 1
    # Without the deepest level the stroke goes with the rim and only the arms are left.
    monkeypatch.setattr("vision.detect.RIM_INK", 0.0)
    eaten = ink_components(scene, paper_regions(scene), line_width=3)
    assert all(eaten.boxes[k][3] < 11 for k in glyphs_in(eaten, (140, 165), (60, 90), (3, 30)))


@pytest.mark.parametrize(("word", "cut"), [("JOKER", True), ("JOKERJOK", False)])
def test_a_word_on_a_line_is_cut_free_unless_longer_than_a_run_and_a_half(word: str, cut: bool) -> None:
    # JOKER set tight along the dark edge of the card above: its letters run together into
    # one piece 52 pixels long, longer than half a line run (50 pixels here). It is cut free
    # from the edge; a piece longer than a run and a half (82 pixels: a framed card's art,
    # say) is not.
    mask = np.zeros((300, 200), np.uint8)
    mask[20:280, 60:64] = 255  # the edge, 260 x 4
    font_scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, 16, 3)
    for k, letter in enumerate(word):
        cv2.putText(mask, letter, (63, 70 + 10 * k), cv2.FONT_HERSHEY_SIMPLEX, font_scale, 255, 3)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    assert count == 2  # the word and the edge are one component
    result = cut_lines(mask, labels, stats, np.array([1]), 50, 4.0, 200.0)
    assert (result is not None) == cut
    if result is not None:
        _, _, pieces, _ = cv2.connectedComponentsWithStats(result)
        assert pieces[1:, 3].tolist() == [52]  # the word, whole, and no edge left


def test_a_lone_card_of_cream_stock_on_a_tan_table_is_read() -> None:
    # Cream card stock is more saturated than the paper threshold allows; only because it
    # outlines a whole card is it taken for paper (the table, as saturated, is not).
    scene = np.empty((400, 500, 3), np.uint8)
    scene[:] = (110, 140, 170)
    scene[:] = np.clip(scene + np.random.default_rng(1).normal(0, 4, scene.shape), 0, 255).astype(np.uint8)
    card = draw_card("K", "hearts", 1.4)
    card[(card == 242).all(axis=2)] = (160, 212, 235)
    paste(scene, card, (250, 200), 25)
    assert int(paper_mask(scene)[200, 250]) == 0
    assert [str(c.card) for c in scan_image(scene, "standard").cards] == ["Kh"]


def _lined_parts_of(mask: np.ndarray) -> list[list[int]]:
    """The boxes of the parts :func:`lined_parts` offers for the components of ``mask``."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    none = np.zeros(0, np.int32)
    _, boxes, _, parent = lined_parts(
        labels, stats[1:, :4].astype(np.int32), 4.0, np.zeros(labels.shape, np.int32),
        np.zeros((0, 4), np.int32), np.zeros((0, 2), np.float32), none,
    )
    assert parent.tolist() == [0] * len(boxes)
    return [[int(v) for v in box] for box in boxes]


def test_a_glyph_joined_to_a_line_running_beyond_it_is_offered_without_the_line() -> None:
    ring = np.zeros((60, 80), np.uint8)
    cv2.circle(ring, (40, 35), 10, 255, 3)  # a glyph (an "o"), 25 pixels across
    assert _lined_parts_of(ring) == []  # alone: nothing to cut
    lined = ring.copy()
    cv2.line(lined, (5, 22), (75, 22), 255, 2)  # a frame scrap touching its top
    [(x, y, w, h)] = _lined_parts_of(lined)
    assert 27 <= x <= 30 and 23 <= y <= 27 and 22 <= w <= 26 and 44 <= y + h <= 48  # the ring
    line = np.zeros((60, 80), np.uint8)
    cv2.line(line, (5, 22), (75, 22), 255, 2)
    assert _lined_parts_of(line) == []  # a line alone leaves no glyph
    short = ring.copy()
    cv2.line(short, (32, 22), (48, 22), 255, 2)  # a stroke shorter than the glyph: its own
    assert _lined_parts_of(short) == []


@pytest.mark.parametrize("degrees", [-16.0, 14.0, 25.0])
def test_a_glyph_under_a_thin_slanting_line_is_offered_without_it(degrees: float) -> None:
    ring = np.zeros((70, 90), np.uint8)
    cv2.circle(ring, (45, 42), 10, 255, 3)  # a glyph, 25 pixels across
    slope = np.tan(np.radians(degrees))
    cv2.line(ring, (3, round(30 - 42 * slope)), (87, round(30 + 42 * slope)), 255, 1)  # touching it
    [(x, y, w, h)] = _lined_parts_of(ring)
    assert 32 <= x <= 34 and 30 <= y <= 34 and 23 <= w <= 26 and 54 <= y + h <= 56  # the ring


def _pale_table(colour: tuple[int, int, int], height: int = 500, width: int = 700) -> np.ndarray:
    """A pale tablecloth (it passes for paper) with a little noise."""
    scene = np.empty((height, width, 3), np.float32)
    scene[:] = colour
    scene += np.random.default_rng(3).normal(0, 3, scene.shape)
    return np.clip(scene, 0, 255).astype(np.uint8)


def test_cards_on_a_pale_tinted_tablecloth_are_outlined_one_by_one() -> None:
    # A pale pink cloth passes for paper and fills most of the photo, cards and all; the
    # cards' stock is greyer than the cloth, so they stand apart from it after all.
    scene = _pale_table((200, 185, 225))
    truths = [
        paste(scene, draw_card("Q", "hearts", 1.3), (220, 250), 15),
        paste(scene, draw_card("5", "spades", 1.3), (480, 260), -30),
    ]
    assert paper_mask(scene)[30, 30] == 255  # the cloth is paper
    regions = paper_regions(scene)
    quads = [q for q in regions.quads if q is not None]
    assert len(quads) == 2
    for truth in truths:
        assert min(corner_error(q, truth) for q in quads) <= 3.0
    found = scan_image(scene, "standard").cards
    assert sorted(str(c.card) for c in found) == ["5s", "Qh"]
    for card in found:
        assert min(corner_error(card.corners, truth) for truth in truths) <= 3.0


def test_a_white_cloth_leaves_white_cards_unoutlined_but_dark_rims_part_them() -> None:
    scene = _pale_table((238, 238, 238))
    paste(scene, draw_card("Q", "hearts", 1.3), (220, 250), 15)
    assert [q for q in paper_regions(scene).quads if q is not None] == []  # nothing parts them
    rimmed = draw_card("5", "spades", 1.3)
    rim = 5
    rimmed[:rim], rimmed[-rim:], rimmed[:, :rim], rimmed[:, -rim:] = 30, 30, 30, 30
    truth = paste(scene, rimmed, (480, 260), -30)
    quads = [q for q in paper_regions(scene).quads if q is not None]
    # The paper within the rim, a rim's width inside the card's edge.
    assert len(quads) == 1 and corner_error(quads[0], truth) <= rim * 1.5 + 3.0
