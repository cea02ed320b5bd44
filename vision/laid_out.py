"""Card outlines in a calibration photo: a known number of cards laid apart in rows.

Scanning may leave a card without an outline (its indices still name it); calibration needs
every card's outline, to know which index and picture belong to which card of the list.
:func:`laid_out_cards` first takes the paper outlines the scanner takes
(:func:`vision.detect.paper_regions`); when they do not number the listed cards it pools
outlines found three more ways, which fail in different photos:

- paper outlined with small gaps closed before specks are opened (a frame line a pixel or
  two inside the card's edge leaves a sliver of paper there);
- paper cut along the photo's edges (two cards touching; a pale table that passes for paper,
  whose holes are the cards);
- whatever differs from the table's colour, measured along the photo's border (a pale
  table, glare on a card);

keeps the card-shaped ones of the typical size, one per place, and, when the photo still
lacks up to :data:`MAX_GAPS` cards, places them at their rows' pitch where something other
than table lies (a card washed out by glare, court cards whose dark rims run together).
All functions take the (H, W, 3) uint8 BGR working image.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.detect import MAX_CARD_AREA, Regions, card_quad, paper_regions, side_lengths
from vision.profile import reading_rows

#: Pixels at least this far (Lab distance) from the table's colour are not table ...
TABLE_DISTANCE = 18.0
#: ... nor those four times as far as the table's own typical spread of colour.
TABLE_SPREAD = 4.0
#: Outlines are kept from this share of the typical outline's area up to its reciprocal ...
SIZE_SHARE = 0.6
#: ... and a card placed in a row's gap must lie this much off the table ...
GAP_COVER = 0.85
#: ... and overlap a found card by at most this share of its area.
GAP_OVERLAP = 0.15
#: A card's ink is the ink within its outline grown by this factor (cards lie apart).
LABEL_GROWTH = 1.1
#: At most this many cards are placed in gaps (more would be guesses; on 336 generated
#: calibration photos, 2 and 4 both put no card out of its place; 4 refused fewer).
MAX_GAPS = 4


def laid_out_cards(image: np.ndarray, count: int, min_area_fraction: float = 0.0008) -> Regions | None:
    """Regions whose quads are the outlines of the ``count`` cards laid apart in ``image``
    (:class:`vision.detect.Regions`, with the paper of :func:`paper_regions`), or None when
    not exactly ``count`` cards are found.

    >>> image = np.full((300, 500, 3), (60, 90, 40), np.uint8)  # a green table
    >>> for x in (40, 170, 300):
    ...     _ = cv2.rectangle(image, (x, 80), (x + 99, 219), (235, 235, 235), -1)
    >>> len(laid_out_cards(image, 3).quads), laid_out_cards(image, 4) is None
    (3, True)
    """
    first = paper_regions(image, min_area_fraction)
    if sum(quad is not None for quad in first.quads) == count:
        return first
    height, width = image.shape[:2]
    outlines = [quad for quad in first.quads if quad is not None]
    outlines += [q for q in paper_regions(image, min_area_fraction, thin_margins=True).quads if q is not None]
    table = off_the_table(image)
    for contour in [*cut_along_edges(image, first.paper), *_outer_contours(table)]:
        area = float(cv2.contourArea(contour))
        if min_area_fraction * height * width <= area <= MAX_CARD_AREA * height * width:
            quad = card_quad(contour, area)
            if quad is not None:
                outlines.append(quad)
    cards = one_per_place(outlines)
    if 0 < count - len(cards) <= MAX_GAPS:
        cards += cards_in_gaps(cards, count - len(cards), table)
    if len(cards) != count:
        return None
    labels = np.zeros((height, width), np.int32)
    for number, quad in enumerate(cards):
        # An outline found inside a card's frame line leaves its indices just outside.
        grown = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * LABEL_GROWTH
        cv2.fillPoly(labels, [np.round(grown).astype(np.int32)], number + 1)
    areas = [float(cv2.contourArea(quad)) for quad in cards]
    quads: list[np.ndarray | None] = list(cards)
    return Regions(labels=labels, quads=quads, areas=areas, paper=first.paper, deep=first.deep)


def cut_along_edges(image: np.ndarray, paper: np.ndarray) -> Sequence[np.ndarray]:
    """Contours of the ``paper`` mask (H, W uint8) cut along the image's edges: the pieces'
    outer boundaries and their holes (a pale table that passes for paper is one piece around
    the cards; its holes are their outlines)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(
        cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 30, 90),
        cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)),
    )
    pieces = cv2.morphologyEx(
        cv2.bitwise_and(paper, cv2.bitwise_not(edges)),
        cv2.MORPH_OPEN,
        cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)),
    )
    contours, _ = cv2.findContours(pieces, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    return contours


def off_the_table(image: np.ndarray) -> np.ndarray:
    """(H, W) uint8 mask (255) of what is not table, filled: the table's colour is the median
    of a band along the photo's border (cards are laid out in its middle).

    >>> image = np.full((100, 100, 3), (200, 190, 210), np.uint8)  # a pale table
    >>> image[30:70, 40:70] = (240, 240, 240)  # a white card
    >>> mask = off_the_table(image)
    >>> bool(mask[50, 55]), bool(mask[10, 10])
    (True, False)
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    height, width = lab.shape[:2]
    band = max(4, round(0.03 * min(height, width)))
    border = np.concatenate(
        [
            lab[:band].reshape(-1, 3),
            lab[-band:].reshape(-1, 3),
            lab[:, :band].reshape(-1, 3),
            lab[:, -band:].reshape(-1, 3),
        ]
    )
    table = np.median(border, axis=0)
    spread = float(np.median(np.linalg.norm(border - table, axis=1)))
    far = np.linalg.norm(lab - table, axis=2) > max(TABLE_DISTANCE, TABLE_SPREAD * spread)
    opened = cv2.morphologyEx(
        far.astype(np.uint8) * 255, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    )
    filled = np.zeros_like(opened)
    cv2.drawContours(filled, _outer_contours(opened), -1, 255, thickness=cv2.FILLED)
    return filled


def _outer_contours(mask: np.ndarray) -> Sequence[np.ndarray]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return contours


def one_per_place(outlines: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The (4, 2) ``outlines`` of about the typical area (the median's :data:`SIZE_SHARE` to
    its reciprocal), largest first, leaving out any whose centre lies in a kept one or that
    holds a kept one's centre (a frame's inside, the same card found twice).

    >>> card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    >>> inner, speck = card * 0.8 + 10, card * 0.1
    >>> [float(q[1, 0]) for q in one_per_place([inner, card, card + 150, speck])]
    [100.0, 250.0]
    """
    if not outlines:
        return []
    areas = np.array([cv2.contourArea(np.asarray(quad, np.float32)) for quad in outlines])
    typical = float(np.median(areas))
    kept: list[np.ndarray] = []
    for i in np.argsort(-areas, kind="stable"):
        quad = np.asarray(outlines[int(i)], np.float32)
        if not SIZE_SHARE * typical <= areas[i] <= typical / SIZE_SHARE:
            continue
        if any(_inside(quad, other) or _inside(other, quad) for other in kept):
            continue
        kept.append(quad)
    return kept


def _inside(quad: np.ndarray, outline: np.ndarray) -> bool:
    """Whether ``quad``'s centre lies in (or on) ``outline``."""
    center = quad.mean(axis=0)
    return cv2.pointPolygonTest(outline.reshape(-1, 1, 2), (float(center[0]), float(center[1])), False) >= 0


def cards_in_gaps(cards: list[np.ndarray], missing: int, table: np.ndarray) -> list[np.ndarray]:
    """The ``missing`` cards of rows laid at a steady pitch: a found card moved along its row
    by the typical step between neighbours into a gap or past a row's end (as many steps as
    cards are missing), where at least
    :data:`GAP_COVER` of it is off the ``table`` (mask from :func:`off_the_table`) and it
    overlaps no found card; none unless exactly ``missing`` such places are found.

    >>> card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32) + [20, 20]
    >>> table = np.zeros((200, 600), np.uint8)
    >>> table[20:161, 20:121] = table[20:161, 140:241] = table[20:161, 380:481] = 255
    >>> table[20:161, 260:361] = 255  # a card washed out by glare: not outlined, not table
    >>> placed = cards_in_gaps([card, card + [120, 0], card + [360, 0]], 1, table)
    >>> [quad[0].tolist() for quad in placed]
    [[260.0, 20.0]]
    """
    if len(cards) < 2 or missing <= 0:
        return []
    centers = np.array([quad.mean(axis=0) for quad in cards])
    rows = reading_rows(centers, np.array([side_lengths(quad).max() for quad in cards]))
    steps = np.array([centers[row[k + 1]] - centers[row[k]] for row in rows for k in range(len(row) - 1)])
    if not len(steps):
        return []
    # The step between neighbours: steps across a gap are two or more of them.
    lengths = np.linalg.norm(steps, axis=1)
    pitch = np.median(steps[lengths <= 1.3 * float(lengths.min())], axis=0)
    pitch_length = float(np.linalg.norm(pitch))
    height, width = table.shape
    places: list[np.ndarray] = []

    def fits(quad: np.ndarray) -> bool:
        if quad.min() < 0 or quad[:, 0].max() >= width or quad[:, 1].max() >= height:
            return False
        inside = np.zeros_like(table)
        cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 255)
        cover = float(np.count_nonzero(table[inside > 0])) / max(1, int(np.count_nonzero(inside)))
        return cover >= GAP_COVER and max(_overlap(quad, card) for card in cards) <= GAP_OVERLAP

    for row in rows:
        # Past a row's end, step by step while each step finds a card; in a gap, every slot.
        runs = [[(row[0], -j) for j in range(1, missing + 1)], [(row[-1], j) for j in range(1, missing + 1)]]
        for k in range(len(row) - 1):
            gap = float(np.linalg.norm(centers[row[k + 1]] - centers[row[k]]))
            runs += [[(row[k], j)] for j in range(1, round(gap / pitch_length))]
        for run in runs:
            for anchor, times in run:
                quad = (cards[anchor] + times * pitch).astype(np.float32)
                if not fits(quad):
                    break
                # A gap's place is reached from both its sides.
                if not any(_inside(quad, place) for place in places):
                    places.append(quad)
    return places if len(places) == missing else []


def _overlap(quad: np.ndarray, other: np.ndarray) -> float:
    """Share of convex ``quad``'s area that convex ``other`` covers."""
    area, _ = cv2.intersectConvexConvex(quad.astype(np.float32), other.astype(np.float32))
    return float(area) / max(float(cv2.contourArea(quad.astype(np.float32))), 1.0)
