"""Finding card faces and their index corners in a photo.

Steps, each a pure function on arrays:

1. :func:`working_image` scales the photo so its long side is at most ``WORK_SIDE``.
2. :func:`paper_regions` finds bright, low-saturation paper (card faces) and splits it
   into regions: one region is one lone card, or a fan / pile of overlapping cards.
3. :func:`ink_components` finds the ink on that paper (dark or coloured blobs: glyphs,
   suit symbols, pips, art) as connected components; a component that falls in two at a
   darker level (a rank blurred into its suit) is also offered as its two parts
   (:func:`fused_parts`).  Long straight lines tangled with glyphs (frames, card edges)
   are erased (:func:`straight_runs`), but not the glyphs a thick dark rim's lines run
   through (:func:`glyphs_on_rims`).
4. :func:`index_pairs` proposes index corners: a rank glyph (one component, or two side by
   side for "10") with a suit symbol just "below" it, in any rotation.

Reading the proposals is :mod:`vision.read`'s job.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

#: Long side of the working image, pixels.
WORK_SIDE = 1280
#: Paper may be this saturated (HSV, 0-255) at the brightness threshold, more when brighter.
PALE_BASE = 45
#: Tangled ink covering more of the photo than this is a *network* (the frames and edges of a
#: whole fan joined up, or a patterned cloth): only its lines that are plainly lines are erased.
MAX_TANGLE = 0.03
#: Tangled ink covering more of the photo than this is left alone.
MAX_NETWORK = 0.2
#: A network's line is plainly a line when it is ink along this share of its length ...
LINE_INK = 0.9
#: ... and the ink ends within ``LINE_REACH`` pixels on one of its sides along this share.
LINE_SIDE_CLEAR = 0.9
LINE_REACH = 5
#: A lone card covers at most this share of the photo.
MAX_CARD_AREA = 0.6
#: A lone card's four-cornered outline covers at least this share of its convex hull (its
#: round corners are cut off).
MIN_QUAD_FILL = 0.85
#: A lone card's paper fills at least this share of its convex hull (art and rims cut into it).
MIN_SOLIDITY = 0.8
#: A lone card's outline is this many times longer than wide (cards are 1.4 to 1.56 long;
#: perspective squeezes one way or the other) ...
CARD_ASPECTS = (1.1, 2.1)
#: ... or, seen steeply from its side or end, this many (`mountain:82` photo 3's Dragon lay at
#: 1.08, its Jade Jack at 2.15); such an outline stands for a card only by its whole picture,
#: since a cloth's pale squares share it (and match a deck's pictures at up to 0.57).
FORESHORTENED_ASPECTS = (1.0, 2.4)
#: A glyph needs at least this share of paper in the ring around it (corner glyphs border the
#: table, fanned ones the next card's rim) ...
MIN_PAPER_RING = 0.35
#: ... or this much, when its reading must be surer (an index squeezed against a card's edge,
#: or between the dark rims and frame lines of a tight fan, with a sliver of paper around it).
EDGE_PAPER_RING = 0.15


def working_image(image: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    """Downscale (H, W, 3) ``image`` so that its long side is at most ``side``.

    Returns ``(small, scale)`` where ``small`` pixel coordinates times ``scale`` give the
    original image's.

    >>> small, scale = working_image(np.zeros((2000, 4000, 3), np.uint8), 1000)
    >>> small.shape, scale
    ((500, 1000, 3), 4.0)
    """
    height, width = image.shape[:2]
    long_side = max(height, width)
    if long_side <= side:
        return image, 1.0
    factor = side / long_side
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    # Area averaging is slow for mild reductions, where linear interpolation is as good.
    method = cv2.INTER_AREA if factor < 0.5 else cv2.INTER_LINEAR
    small = cv2.resize(image, size, interpolation=method)
    return small, long_side / side


#: A photo whose brightest paper (the 99.5th percentile of its brightest channel) is darker
#: than this is underexposed (a dim room, or a phone that metered on a lamp) ...
EXPOSURE_FLOOR = 140
#: ... and is brightened so that it lies here, by at most :data:`EXPOSURE_MOST_GAIN`.
EXPOSURE_TARGET = 230
EXPOSURE_MOST_GAIN = 5.0


def well_exposed(image: np.ndarray) -> np.ndarray:
    """(H, W, 3) uint8 ``image`` brightened when underexposed (:data:`EXPOSURE_FLOOR`), as a
    phone's own exposure would; otherwise ``image`` itself.  Card paper is told by its
    brightness, so a photo whose white cards are grey would show no paper at all.

    >>> dark = np.full((40, 60, 3), 20, np.uint8); dark[10:30, 20:40] = 55  # a grey "card"
    >>> bright = well_exposed(dark)
    >>> int(bright[20, 30, 0]), int(bright[0, 0, 0])
    (230, 84)
    >>> normal = np.full((40, 60, 3), 200, np.uint8)
    >>> well_exposed(normal) is normal
    True
    """
    # The brightest channel is HSV's value, which OpenCV computes faster than numpy's max.
    brightest = cv2.cvtColor(np.ascontiguousarray(image[::8, ::8]), cv2.COLOR_BGR2HSV)[:, :, 2]
    level = float(np.percentile(brightest, 99.5))
    if level >= EXPOSURE_FLOOR:
        return image
    gain = min(EXPOSURE_TARGET / max(level, 1.0), EXPOSURE_MOST_GAIN)
    return cv2.convertScaleAbs(image, alpha=gain)


#: A photo that shows almost no card paper (under this share of it, every fourth pixel each
#: way) ...
PAPER_SCARCE = 0.03
#: ... while its brightest greyish pixels have a colour cast (their weakest channel under
#: this share of their strongest: a warm lamp the phone left uncorrected) ...
CAST_FLOOR = 0.85
#: ... is balanced so that they are grey, no channel gaining more than this, when that
#: shows at least twice the paper.
CAST_MOST_GAIN = 1.8
#: ... and at least this share of paper (what paper a photo shows from this share on tells
#: the cast).
PAPER_REVEALED = 0.005


def white_balanced(image: np.ndarray) -> np.ndarray:
    """(H, W, 3) uint8 BGR ``image`` with a colour cast taken out where the cast hides the
    cards: card paper is told by being grey, and under a tungsten lamp white cards are
    orange.  Only a photo that shows almost no paper (:data:`PAPER_SCARCE`) is looked at.
    The cast is the median colour of what paper it shows (from :data:`PAPER_REVEALED` of
    the photo), else of its brightest greyish pixels (the top 3% by their brightest channel,
    of which the weakest is at least half of it); where the cast is strong
    (:data:`CAST_FLOOR`), each channel is scaled so that it comes out grey, and the balanced
    photo is kept if it shows at least twice the paper.  Otherwise ``image`` itself: a
    photo whose cards show grey keeps its colours (a pink cloth brighter than its few small
    cards must not turn them blue).  Every fourth pixel each way is looked at (every eighth
    reads a tungsten-lit sample set 4 points worse).

    >>> warm = np.full((400, 400, 3), (40, 60, 90), np.uint8)  # a table ...
    >>> warm[150:250, 150:220] = (120, 190, 240)  # ... and a white card under a tungsten lamp
    >>> balanced = white_balanced(warm)
    >>> balanced[200, 200].tolist(), balanced[0, 0].tolist()  # (blue gains at most 1.8)
    ([216, 240, 240], [72, 76, 90])
    >>> white = warm.copy(); white[150:250, 150:220] = 235
    >>> white_balanced(white) is white
    True
    """
    sample = np.ascontiguousarray(image[::4, ::4])
    paper = _paper_pixels(sample)
    share = float(np.count_nonzero(paper)) / paper.size
    if share >= PAPER_SCARCE:
        return image
    if share >= PAPER_REVEALED:
        reference = sample[paper]
    else:
        pixels = sample.reshape(-1, 3)
        brightest = pixels.max(axis=1)
        top = brightest >= np.percentile(brightest, 97)
        reference = pixels[top & (2 * pixels.min(axis=1).astype(np.int32) >= brightest)]
        if len(reference) < 50:
            return image
    cast = np.median(reference, axis=0).astype(np.float64)
    if cast.min() >= CAST_FLOOR * cast.max():
        return image
    gains = np.minimum(cast.max() / np.maximum(cast, 1.0), CAST_MOST_GAIN)
    matrix = np.diag(gains).astype(np.float32)
    revealed = float(np.count_nonzero(_paper_pixels(cv2.transform(sample, matrix)))) / paper.size
    if revealed < max(2.0 * share, PAPER_REVEALED):
        return image
    return np.asarray(cv2.transform(image, matrix))


def _paper_pixels(image: np.ndarray) -> np.ndarray:
    """(H, W) bool: the paper of (H, W, 3) uint8 BGR ``image`` (:func:`_paper_excess`)."""
    return np.asarray(_paper_excess(cv2.cvtColor(image, cv2.COLOR_BGR2HSV)) < 0)


def label_components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """8-connected components of a (H, W) uint8 mask: (count, labels, stats, centroids) as
    ``cv2.connectedComponentsWithStats``.  The block-based algorithm finds the same
    components, about twice as fast as OpenCV's default on our photos (OpenCV 5).

    >>> mask = np.zeros((5, 9), np.uint8); mask[1:3, 1:3] = 1; mask[3, 6:8] = 1
    >>> count, labels, stats, _ = label_components(mask)
    >>> count, stats[1:, 4].tolist()
    (3, [4, 2])
    """
    count, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_BBDT
    )
    return int(count), labels, stats, centroids


@dataclass(frozen=True)
class Regions:
    """Paper regions of a working image.

    ``labels``: (H, W) int32, 0 = no paper, i + 1 = region i (holes filled);
    ``quads``: per region, a (4, 2) float32 outline when the region is one lone card
    (a filled, card-shaped quadrilateral), else None; ``areas``: pixel area per region;
    ``paper``: (H, W) uint8 paper mask (255): the lit paper the regions were made from and
    the paper in shade around it (:func:`shaded_paper`), where ink may lie; ``deep``: (H, W)
    uint8 mask (255) of the part of ``paper`` in deep shade, where a grey card back could pass
    for paper too (None: none), so ink on it must read surely.
    """

    labels: np.ndarray
    quads: list[np.ndarray | None]
    areas: list[float]
    paper: np.ndarray
    deep: np.ndarray | None = None
    #: Region index -> the (4, 2) float32 outline of a region that is one card seen steeply
    #: from its side or end (:data:`FORESHORTENED_ASPECTS`), where ``quads`` holds None: it
    #: only names a card by its whole picture, surely (see :func:`vision.scan.assemble`).
    foreshortened: dict[int, np.ndarray] = field(default_factory=dict)


def paper_mask(image: np.ndarray) -> np.ndarray:
    """(H, W) uint8 mask (255) of bright, low-saturation pixels: card paper.

    The brightness threshold adapts to the photo (Otsu on the value channel, clamped), so
    dim photos and bright ones both work; colourful card backs and tables are excluded.

    >>> image = np.zeros((40, 40, 3), np.uint8); image[10:30, 10:30] = 235
    >>> int(paper_mask(image)[20, 20]), int(paper_mask(image)[2, 2])
    (255, 0)
    """
    return _below(_paper_excess(cv2.cvtColor(image, cv2.COLOR_BGR2HSV)), 0)


def _paper_excess(hsv: np.ndarray) -> np.ndarray:
    """(H, W) int16: how much more saturated (HSV, 0-255) each pixel of an (H, W, 3) uint8
    HSV image is than paper of its brightness may be; dark pixels get 32767.  Paper is
    where it is below 0 (:func:`paper_mask`), cream card stock below ``CREAM_EXTRA``."""
    _, saturation, value = cv2.split(hsv)  # (contiguous planes: OpenCV copies strided views)
    otsu, _ = cv2.threshold(value, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = int(np.clip(otsu, 95, 190))
    # Paper may pick up a tint from the light: allow more saturation on brighter paper.
    # (PALE_BASE + (value - threshold) // 2, computed in place.)
    allowed = value.astype(np.int16)
    allowed -= threshold
    np.floor_divide(allowed, 2, out=allowed)
    allowed += PALE_BASE
    excess = saturation.astype(np.int16)
    excess -= allowed
    _, dark = cv2.threshold(value, threshold, 1, cv2.THRESH_BINARY_INV)  # value <= threshold
    excess[dark.view(bool)] = np.iinfo(np.int16).max
    return excess


def _below(excess: np.ndarray, level: int) -> np.ndarray:
    """(H, W) uint8 mask (255) where :func:`_paper_excess` is below ``level``."""
    return (excess < level).astype(np.uint8) * 255


#: Cream or tinted card stock may be this much more saturated (HSV, 0-255) than paper, but
#: only where it outlines a whole lone card (a table that saturated is never card-shaped) ...
CREAM_EXTRA = 25
#: ... covering at least this share of the photo (a tinted speck is no card).
CREAM_MIN_AREA = 0.004


def _cream_cards(
    excess: np.ndarray, labels: np.ndarray, quads: list[np.ndarray | None]
) -> list[tuple[np.ndarray, float, np.ndarray, np.ndarray]]:
    """Lone cards of cream or tinted stock that lit paper (:func:`paper_mask`) misses or
    takes only in fragments: card-shaped outlines of paper allowing ``CREAM_EXTRA`` more
    saturation, holding no card already outlined.  ``excess``: :func:`_paper_excess`;
    ``labels`` and ``quads``: the lit paper's regions so far.  Returns (contour, area,
    quad, paper mask (H, W) uint8) per card.

    >>> image = np.full((300, 300, 3), (110, 140, 170), np.uint8)  # a tan table
    >>> _ = cv2.rectangle(image, (100, 60), (179, 179), (160, 212, 235), -1)  # cream card
    >>> hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    >>> int(paper_mask(image)[120, 140])
    0
    >>> found = _cream_cards(_paper_excess(hsv), np.zeros((300, 300), np.int32), [])
    >>> len(found), int(found[0][3][120, 140]), int(found[0][3][5, 5])
    (1, 255, 0)
    """
    height, width = labels.shape
    cream, contours = _paper_outlines(_below(excess, CREAM_EXTRA))
    outlined = np.array([False] + [quad is not None for quad in quads])
    found = []
    for contour in contours:
        area = float(cv2.contourArea(contour))
        if not CREAM_MIN_AREA * height * width <= area <= MAX_CARD_AREA * height * width:
            continue
        quad = card_quad(contour, area)
        if quad is None:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        fill = np.zeros((h, w), np.uint8)
        cv2.drawContours(fill, [contour], -1, 255, cv2.FILLED, offset=(-x, -y))
        inside = labels[y : y + h, x : x + w][fill > 0]
        # Around outlined cards (a pale table) or already paper: nothing new.
        if outlined[inside].mean() > 0.02 or (inside > 0).mean() > 0.8:
            continue
        mask = np.zeros((height, width), np.uint8)
        mask[y : y + h, x : x + w] = cv2.bitwise_and(cream[y : y + h, x : x + w], fill)
        found.append((contour, area, quad, mask))
    return found


#: Paper in shade (a hand's, a phone's) is pale and nearly as bright as the brightest pixel
#: within a few glyph sizes ...
SHADE_RATIO = 0.85
#: ... at least this share of the lit paper's median brightness (a grey card back is darker) ...
SHADE_FLOOR = 0.65
#: ... or, in deep shade, this share; a grey card back may be as bright, so ink there must
#: read as surely as at a card's edge.
DEEP_SHADE_FLOOR = 0.5
#: ... and greyer than lit paper may be (HSV saturation, 0-255) ...
SHADE_SATURATION = 30
#: ... or than the lit paper's median saturation and this much: a shadow darkens cream or
#: tinted stock without greying it (held-out-family validation, seed 555: 0.867 to 0.884
#: recall, a fan of cream cards half in a shadow's band; 20 rather than 10 found one card
#: more on each of three standard sets and one less on a Tichu one, 30 cost Tichu precision).
SHADE_SATURATION_MARGIN = 20


def shaded_paper(hsv: np.ndarray, paper: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(H, W) uint8 masks (255) of paper that the lit ``paper`` mask (:func:`paper_mask`)
    misses because a shadow falls on it, and of the part of it in deep shade: pixels grey
    or no more saturated than the lit paper's median by :data:`SHADE_SATURATION_MARGIN`,
    nearly as bright as their brightest neighbours, at least ``DEEP_SHADE_FLOOR`` of the lit
    paper's brightness (deep shade: below ``SHADE_FLOOR``).  Ink in shade is then still ink
    on paper.  ``hsv``: the (H, W, 3) uint8 HSV working image.

    >>> image = np.full((60, 120, 3), (160, 60, 20), np.uint8)  # a blue table
    >>> image[10:50, 10:110] = 235; image[10:50, 40:110] = 170  # a card, mostly in shade ...
    >>> image[10:50, 80:110] = 130  # ... and deeper shade
    >>> lit = paper_mask(image)
    >>> shade, deep = shaded_paper(cv2.cvtColor(image, cv2.COLOR_BGR2HSV), lit)
    >>> int(lit[30, 20]), int(lit[30, 65]), int(shade[30, 65]), int(deep[30, 65])
    (255, 0, 255, 0)
    >>> int(shade[30, 100]), int(deep[30, 100]), int(shade[30, 20]), int(shade[5, 5])
    (255, 255, 0, 0)
    """
    _, saturation, value = cv2.split(hsv)
    if not paper.any():
        return np.zeros(paper.shape, np.uint8), np.zeros(paper.shape, np.uint8)
    # The lit paper's median brightness, from its histogram (much cheaper than sorting).
    # (Counted with numpy: a masked calcHist takes twice as long; the counts are the same.)
    lit_pixels = paper > 0
    counts = np.bincount(value[lit_pixels], minlength=256)
    lit = float(np.searchsorted(np.cumsum(counts), counts.sum() / 2))
    side = 2 * _background_side(hsv.shape) + 1
    brightest = cv2.dilate(value, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))
    # OpenCV's saturating uint8 arithmetic and compares: whole-image passes without float copies.
    near_brightest = cv2.compare(value, cv2.convertScaleAbs(brightest, alpha=SHADE_RATIO), cv2.CMP_GE)
    # Integer levels: value >= x is value > ceil(x) - 1, and saturation < n is <= n - 1.
    _, bright_enough = cv2.threshold(value, math.ceil(DEEP_SHADE_FLOOR * lit) - 1, 255, cv2.THRESH_BINARY)
    saturations = np.bincount(saturation[lit_pixels], minlength=256)
    lit_saturation = int(np.searchsorted(np.cumsum(saturations), saturations.sum() / 2))
    limit = max(SHADE_SATURATION, lit_saturation + SHADE_SATURATION_MARGIN)
    _, grey = cv2.threshold(saturation, limit - 1, 255, cv2.THRESH_BINARY_INV)
    shade = cv2.bitwise_and(cv2.bitwise_and(near_brightest, bright_enough), grey)
    shade = cv2.bitwise_and(shade, cv2.bitwise_not(paper))
    _, darker = cv2.threshold(value, math.ceil(SHADE_FLOOR * lit) - 1, 255, cv2.THRESH_BINARY_INV)
    return shade, cv2.bitwise_and(shade, darker)


def paper_regions(
    image: np.ndarray, min_area_fraction: float = 0.0008, thin_margins: bool = False
) -> Regions:
    """Paper regions of a BGR working image (see :class:`Regions`).

    With ``thin_margins``, a card whose frame line runs a pixel or two inside its edge keeps
    that sliver of paper in its outline (see :func:`_paper_outlines`): calibration falls
    back on it when it finds fewer card outlines than the cards laid out.

    >>> image = np.full((200, 300, 3), 40, np.uint8)
    >>> _ = cv2.rectangle(image, (50, 40), (129, 159), (240, 240, 240), -1)
    >>> regions = paper_regions(image)
    >>> len(regions.quads), regions.quads[0] is not None
    (1, True)
    """
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    excess = _paper_excess(hsv)
    paper = _below(excess, 0)
    height, width = paper.shape
    cleaned, contours = _paper_outlines(paper, thin_margins)
    min_area = min_area_fraction * height * width
    labels = np.zeros((height, width), np.int32)
    quads: list[np.ndarray | None] = []
    areas: list[float] = []
    tables: list[int] = []  # their labels
    foreshortened: dict[int, np.ndarray] = {}
    for contour in contours:
        area = float(cv2.contourArea(contour))
        if area < min_area:
            continue
        # Paper filling most of the photo is a pale table (or cloth) with the cards on it,
        # not one card: its indices are read one card each, like a pile's ...
        table = area > MAX_CARD_AREA * height * width
        outline = None if table else four_sided(contour, area)
        card_shaped = outline is not None and _shaped(outline, CARD_ASPECTS)
        quads.append(outline if card_shaped else None)
        if outline is not None and not card_shaped and _shaped(outline, FORESHORTENED_ASPECTS):
            foreshortened[len(quads) - 1] = outline
        areas.append(area)
        cv2.drawContours(labels, [contour], -1, len(quads), thickness=cv2.FILLED)
        if table:
            tables.append(len(quads))
    if tables:
        # ... but its cards may still stand apart from it, by dark rims around them or by
        # stock greyer than the cloth.
        islands = _cards_on_pale_tables(cleaned, min_area)
        tinted = _cards_on_tinted_tables(excess, labels, tables, min_area, [c for c, _, _ in islands])
        for contour, area, quad in islands + tinted:
            quads.append(quad)
            areas.append(area)
            cv2.drawContours(labels, [contour], -1, len(quads), thickness=cv2.FILLED)
    lit = paper
    for contour, area, quad, cream in _cream_cards(excess, labels, quads):
        quads.append(quad)
        areas.append(area)
        cv2.drawContours(labels, [contour], -1, len(quads), thickness=cv2.FILLED)
        paper = cv2.bitwise_or(paper, cream)
    # Shade joins the paper but makes no regions or outlines (a shadow's edge is no card's edge).
    shade, deep = shaded_paper(hsv, lit)
    paper = cv2.bitwise_or(paper, shade)
    return Regions(
        labels=labels,
        quads=quads,
        areas=areas,
        paper=paper,
        deep=deep if deep.any() else None,
        foreshortened=foreshortened,
    )


def _cards_on_pale_tables(cleaned: np.ndarray, min_area: float) -> list[tuple[np.ndarray, float, np.ndarray]]:
    """The card-shaped paper islands (contour, area, :func:`card_quad` outline) that lie in
    the holes of paper filling most of the photo: a pale table's cards whose dark rims (or
    shadows) part them from it.  ``cleaned``: the paper mask of :func:`_paper_outlines`.

    >>> cloth = np.full((300, 400), 255, np.uint8)
    >>> _ = cv2.rectangle(cloth, (150, 100), (229, 219), 0, 4)  # a card's dark rim
    >>> [cv2.boundingRect(contour) for contour, _, _ in _cards_on_pale_tables(cloth, 100.0)]
    [(153, 103, 74, 114)]
    """
    height, width = cleaned.shape
    contours, hierarchy = cv2.findContours(cleaned, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    parents = hierarchy[0][:, 3]
    tables = {
        k for k, contour in enumerate(contours)
        if parents[k] < 0 and cv2.contourArea(contour) > MAX_CARD_AREA * height * width
    }
    found = []
    for k, contour in enumerate(contours):
        hole = parents[k]
        if hole < 0 or parents[hole] not in tables:
            continue
        area = float(cv2.contourArea(contour))
        if area < min_area:
            continue
        quad = card_quad(contour, area)
        if quad is not None:
            found.append((contour, area, quad))
    return found


#: On a pale cloth that passes for paper, cards' stock is paper this much greyer (of
#: :func:`_paper_excess`) than the cloth's typical paper ...
TINT_MARGIN = 30
#: ... and at least this share of a card so found is ink (a checked cloth's pale squares,
#: card-shaped under perspective, hold none).
TINTED_INK_SHARE = 0.005


def _cards_on_tinted_tables(
    excess: np.ndarray, labels: np.ndarray, tables: list[int], min_area: float, known: list[np.ndarray]
) -> list[tuple[np.ndarray, float, np.ndarray]]:
    """Cards on a tinted pale cloth (contour, area, :func:`card_quad` outline): card-shaped
    paper within the cloth's region that is :data:`TINT_MARGIN` greyer than the cloth's
    median paper and holds ink, where no card of ``known`` (contours) lies.  ``excess``:
    :func:`_paper_excess`; ``labels``: the regions so far, ``tables`` the cloths' labels.

    >>> excess = np.full((300, 400), -10, np.int16)  # a pink cloth: paper, but barely
    >>> excess[100:220, 150:230] = -70  # a card's grey stock ...
    >>> excess[110:125, 160:170] = 32767  # ... with an index
    >>> found = _cards_on_tinted_tables(excess, np.ones((300, 400), np.int32), [1], 100.0, [])
    >>> [cv2.boundingRect(contour) for contour, _, _ in found]
    [(150, 100, 80, 120)]
    >>> excess[110:125, 160:170] = -70  # a pale square of a checked cloth: no ink
    >>> _cards_on_tinted_tables(excess, np.ones((300, 400), np.int32), [1], 100.0, [])
    []
    """
    height, width = labels.shape
    found = []
    taken = np.zeros((height, width), np.uint8)
    if known:
        cv2.drawContours(taken, known, -1, 255, cv2.FILLED)
    for table in tables:
        region = labels == table
        # The cloth's typical paper, from every fourth pixel each way (a median of a whole
        # photo's pixels costs 20 ms).
        sample = excess[::4, ::4][region[::4, ::4]]
        sample = sample[sample < 0]
        if not sample.size:
            continue
        level = int(np.median(sample)) - TINT_MARGIN
        cards = _below(excess, level)
        cards *= region
        _, contours = _paper_outlines(cards)
        for contour in contours:
            area = float(cv2.contourArea(contour))
            if area < min_area or area > MAX_CARD_AREA * height * width:
                continue
            quad = card_quad(contour, area)
            if quad is None:
                continue
            x, y = (int(v) for v in quad.mean(axis=0))
            if (0 <= y < height and 0 <= x < width and taken[y, x]) or not _holds_ink(excess, contour):
                continue
            if not _alone_on_cloth(excess, contour, level):
                continue
            found.append((contour, area, quad))
    return found


#: A card found on a tinted cloth has cloth around it: at most this share of the ring just
#: outside it (:data:`CLOTH_RING` of its size wide) is card stock (a piece of a fan is beside
#: its neighbours' stock).
CLOTH_RING = 0.06
CLOTH_RING_STOCK = 0.1


def _alone_on_cloth(excess: np.ndarray, contour: np.ndarray, level: int) -> bool:
    """True when little of the ring around ``contour`` is paper as grey as card stock
    (``excess`` below ``level``): a lone card on the cloth, not a piece of a fan.

    >>> excess = np.full((300, 400), -10, np.int16)  # cloth
    >>> excess[100:220, 150:230] = -70  # a card
    >>> card = np.array([[[150, 100]], [[229, 100]], [[229, 219]], [[150, 219]]], np.int32)
    >>> _alone_on_cloth(excess, card, -40)
    True
    >>> excess[100:220, 232:300] = -70  # the next card of a fan, past a thin dark edge
    >>> _alone_on_cloth(excess, card, -40)
    False
    """
    _, _, w, h = cv2.boundingRect(contour)
    reach = max(2, round(CLOTH_RING * max(w, h)))
    window, fill = _filled(contour, excess.shape, reach)
    grown = cv2.dilate(fill, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1)))
    ring = excess[window][(grown > 0) & (fill == 0)]
    return bool(ring.size) and float((ring < level).mean()) <= CLOTH_RING_STOCK


def _holds_ink(excess: np.ndarray, contour: np.ndarray) -> bool:
    """True when at least :data:`TINTED_INK_SHARE` of what ``contour`` outlines is not paper
    by :func:`_paper_excess` ``excess``: ink."""
    window, fill = _filled(contour, excess.shape, 0)
    inside = excess[window][fill > 0]
    return bool(inside.size) and float((inside >= 0).mean()) >= TINTED_INK_SHARE


def _filled(
    contour: np.ndarray, shape: tuple[int, ...], margin: int
) -> tuple[tuple[slice, slice], np.ndarray]:
    """The window of an (H, W) image around ``contour`` (its box, ``margin`` more each way,
    within the image) and the (h, w) uint8 mask (255) of the contour filled in it."""
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(0, x - margin), max(0, y - margin)
    x1, y1 = min(shape[1], x + w + margin), min(shape[0], y + h + margin)
    fill = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(fill, [contour], -1, 255, cv2.FILLED, offset=(-x0, -y0))
    return (slice(y0, y1), slice(x0, x1)), fill


def _paper_outlines(mask: np.ndarray, thin_margins: bool = False) -> tuple[np.ndarray, Sequence[np.ndarray]]:
    """A paper ``mask`` (H, W) uint8 cleaned of specks and small gaps, and the outer contours
    of its pieces.

    Specks are opened away first, then small gaps closed; with ``thin_margins`` the other way
    round, so that a sliver of paper between a card's edge and a frame line close to it is
    joined to the card before the opening can take it (and leave a ragged outline).

    >>> mask = np.zeros((60, 50), np.uint8)
    >>> mask[5:55, 5:45] = 255
    >>> mask[7, 7:43] = mask[52, 7:43] = mask[7:53, 7] = mask[7:53, 42] = 0  # a frame line
    >>> def shares(contours: Sequence[np.ndarray]) -> list[float]:  # of the card's outline
    ...     return [round(cv2.contourArea(c) / (39 * 49), 2) for c in contours]
    >>> shares(_paper_outlines(mask)[1])  # the paper outside the line is lost
    [0.75]
    >>> shares(_paper_outlines(mask, thin_margins=True)[1])
    [1.0]
    """
    specks = (cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    # Close small gaps (an index touching a frame line) without joining cards that lie apart.
    gaps = (cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    cleaned = mask
    for operation, disc in (gaps, specks) if thin_margins else (specks, gaps):
        cleaned = cv2.morphologyEx(cleaned, operation, disc)
    contours, _ = cv2.findContours(cleaned, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cleaned, contours


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """(4,) lengths of a (4, 2) outline's sides, the first from the last corner to the first.

    >>> side_lengths(np.array([[0, 0], [4, 0], [4, 3], [0, 3]], np.float32)).tolist()
    [3.0, 4.0, 3.0, 4.0]
    """
    return np.asarray(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1))


def card_quad(
    contour: np.ndarray, area: float, aspects: tuple[float, float] = CARD_ASPECTS
) -> np.ndarray | None:
    """The contour's quadrilateral outline when it is one card-shaped region (its long
    side over its short one within ``aspects``), else None.

    >>> square = np.array([[0, 0], [100, 0], [100, 96], [0, 96]], np.int32).reshape(-1, 1, 2)
    >>> card_quad(square, 9600.0) is None, card_quad(square, 9600.0, FORESHORTENED_ASPECTS) is None
    (True, False)
    """
    quad = four_sided(contour, area)
    return quad if quad is not None and _shaped(quad, aspects) else None


def _shaped(quad: np.ndarray, aspects: tuple[float, float]) -> bool:
    """True when the (4, 2) outline's :func:`outline_aspect` lies within ``aspects``."""
    return aspects[0] <= outline_aspect(quad) <= aspects[1]


def four_sided(contour: np.ndarray, area: float) -> np.ndarray | None:
    """The contour's filled, four-cornered outline ((4, 2) float32), whatever its shape, or
    None (:data:`MIN_SOLIDITY`, :data:`MIN_QUAD_FILL`): :func:`card_quad` before its aspect."""
    hull = cv2.convexHull(contour)
    hull_area = float(cv2.contourArea(hull))
    if hull_area <= 0 or area / hull_area < MIN_SOLIDITY:
        return None
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for epsilon in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, epsilon * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            break
    if quad is None:
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        if area / max(w * h, 1.0) < 0.9:
            return None
        quad = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
    if float(cv2.contourArea(quad)) < MIN_QUAD_FILL * hull_area:
        return None
    return quad


def outline_aspect(quad: np.ndarray) -> float:
    """How many times longer than wide a (4, 2) outline is (its opposite sides averaged).

    >>> outline_aspect(np.array([[0, 0], [30, 0], [30, 45], [0, 45]], np.float32))
    1.5
    """
    sides = side_lengths(quad)
    first, second = (sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0
    return float(max(first, second) / max(min(first, second), 1.0))


@dataclass(frozen=True)
class Ink:
    """Ink components on paper.

    ``labels``: (H, W) int32 component labels (0 = none); ``boxes``: (N, 4) int32
    x, y, w, h per component (index i is label i + 1); ``centers``: (N, 2) float32;
    ``sizes``: (N,) float32, the long side of each component's rotated bounding box;
    ``region``: (N,) int32, the paper region (0-based, -1 none) each component lies in;
    ``darkness``: (H, W) float32 in [0, 1], how much darker than the paper each pixel is
    (1 = at least half as bright), the glyphs' anti-aliased shapes; ``edge``: (N,) bool,
    components with little paper around them (squeezed against a card's edge), whose
    readings must be surer.

    Split parts: a rank and its suit symbol blurred into one component are also offered as
    two *parts*, components of their own (see :func:`fused_parts`).  ``parent``: (N,)
    int32, for a part the component it was cut from, else -1; a part's pixels are labelled
    in ``part_labels`` (H, W) int32 (part i is i + 1), not in ``labels``.  A glyph joined to
    a scrap of frame line is offered the same way, without the line (see
    :func:`lined_parts`); ``lined``: (N,) bool, those parts.
    """

    labels: np.ndarray
    boxes: np.ndarray
    centers: np.ndarray
    sizes: np.ndarray
    region: np.ndarray
    darkness: np.ndarray | None = None
    edge: np.ndarray | None = None
    parent: np.ndarray | None = None
    part_labels: np.ndarray | None = None
    lined: np.ndarray | None = None
    #: Glyphs already cut and described, by (components, down): the joker and index readers
    #: read many of the same (see :func:`vision.read.described_glyphs`); not carried over by
    #: ``dataclasses.replace``, whose new ink may differ.
    glyph_cache: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    #: Components' ink made ready to be turned, by components (a component is turned in
    #: several calls: its readings, then its turned readings); carried over no more than
    #: ``glyph_cache``.
    ink_cache: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def root(self, component: int) -> int:
        """The component a part was cut from, or the component itself."""
        if self.parent is None or self.parent[component] < 0:
            return component
        return int(self.parent[component])

    def pair_ink(self, pair: IndexPair) -> set[int]:
        """The components whose ink ``pair`` uses (a part counts as the component it was cut
        from): two readings sharing any are rival readings of the same ink."""
        return {self.root(c) for c in (*pair.rank, pair.suit)}

    def is_whole(self, pair: IndexPair) -> bool:
        """True when ``pair`` is made of whole components, no parts."""
        return all(self.root(c) == c for c in (*pair.rank, pair.suit))


def ink_mask(image: np.ndarray) -> np.ndarray:
    """(H, W) uint8 mask (255) of ink: pixels whose darkest colour channel is well below the
    paper's around them.

    The darkest channel makes black, red, green and blue ink all dark on white or cream paper
    (red ink is bright in brightness, but its blue and green are low).  A local maximum filter
    estimates the paper, so shading does not matter.
    """
    return ink_darkness(image)[0]


def _background_side(shape: tuple[int, ...]) -> int:
    """Odd side (pixels) of the window over which the paper around ink is estimated: a few
    glyph sizes."""
    return max(9, (min(shape[:2]) // 60) | 1)


def ink_darkness(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ink_mask` and the (H, W) float32 darkness in [0, 1] it thresholds (at 0.56)."""
    return _thresholded_darkness(*_ink_planes(image))


def _ink_planes(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (H, W) uint8 darkest channel of BGR ``image`` and the (H, W) float32 brightness of
    the paper around each pixel (the darkest channel's local maximum, smoothed)."""
    blue, green, red = cv2.split(image)  # (one pass; strided channel views cost a copy each)
    darkest = cv2.min(cv2.min(blue, green), red)
    side = _background_side(image.shape)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    background = cv2.blur(cv2.dilate(darkest, kernel), (side, side)).astype(np.float32)
    return darkest, background


def _thresholded_darkness(darkest: np.ndarray, background: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ink_darkness` of :func:`_ink_planes`."""
    # The plain formulas' operations in their order, into reused buffers: the same values.
    dark = darkest.astype(np.float32)
    scaled = np.multiply(background, 0.72)
    mask = np.less(dark, scaled).view(np.uint8) * np.uint8(255)
    contrast = np.subtract(background, dark, out=dark)
    np.multiply(background, 0.5, out=scaled)
    scaled += 1.0
    contrast /= scaled
    return mask, np.clip(contrast, 0.0, 1.0, out=contrast)


#: How wide (pixels) Hough lines are erased from glyphs tangled with frame lines, and per
#: game where it differs.  Three pixels take a line's blurred margins with it; two spare
#: more of a glyph that touches the line, but leave slivers of a wavy art line, which in a
#: Tichu deck pass for a sword (a calibrated held-out-family Tichu deck: precision 0.973 to
#: 0.953).  Standard decks have no such suit: recall +0.0 to +1.3 points on four standard
#: sets, precision no lower.
ERASE_WIDTH = 3
GAME_ERASE_WIDTH = {"standard": 2}


def erase_width(game: str) -> int:
    """:data:`ERASE_WIDTH` for ``game``.

    >>> erase_width("standard"), erase_width("tichu")
    (2, 3)
    """
    return GAME_ERASE_WIDTH.get(game, ERASE_WIDTH)


def ink_components(
    image: np.ndarray, regions: Regions, min_size: float = 4.0, line_width: int = ERASE_WIDTH
) -> Ink:
    """Connected ink components lying on paper, with their boxes, centres and sizes.

    ``line_width``: how wide (pixels) the straight lines found in glyphs tangled with frame
    lines are erased (:func:`erase_width` of the game).

    A component is on paper when most of the ring around its box is card paper, so ink on
    the table (flowers, wood grain) and on card backs is left out.
    """
    darkest, background = _ink_planes(image)
    mask, darkness = _thresholded_darkness(darkest, background)
    # Wide areas that are not paper (the table, big artwork) are no glyphs; cutting them and a
    # thin margin away frees the glyphs that touch a card's edge.
    wide = _wide_non_paper(regions.paper)
    mask = cv2.bitwise_and(mask, cv2.bitwise_not(wide))
    count, labels, stats, centroids = label_components(mask)
    max_size = 0.12 * max(image.shape[:2])
    compact, tangled = _glyph_shapes(stats[1:], min_size, max_size)
    # Masses of ink (a patterned table) are not worth untangling: frames are thin.
    tangled &= stats[1:, 4] < MAX_NETWORK * mask.size
    if tangled.any():
        # Glyphs touching a thin frame line or card edge merge with it into one big, hollow
        # component: erase the long straight lines in those and label again.
        lookup = np.zeros(count, np.uint8)
        lookup[np.flatnonzero(tangled) + 1] = 255
        knot = lookup.take(labels)  # (take: twice as fast as indexing on a whole photo)
        networks = np.zeros(count, bool)
        networks[1:] = tangled & (stats[1:, 4] >= MAX_TANGLE * mask.size)
        # Long straight lines (frames, card edges) are erased; glyph strokes are too short.
        length = max(30, round(0.035 * max(image.shape[:2])))
        lines = cv2.HoughLinesP(knot, 1, np.pi / 180, threshold=length, minLineLength=length, maxLineGap=2)
        # Straight runs of ink longer than any glyph stroke are frame lines or card edges,
        # whatever their width; the Hough segments (drawn ``line_width`` pixels wide) take
        # their blurred margins and the lines a few pixels of noise break up.
        run = max(30, round(STRAIGHT_RUN * max(image.shape[:2])))
        knot_boxes = stats[1:][tangled, :4]
        directions: set[int] = set()
        runs = straight_runs(knot, run, knot_boxes, found=directions)
        # A small rank in a tight fan touches the thick dark rim of the card beside it, and
        # its stroke along the rim lies on the rim's runs: in the deepest ink it stands apart.
        deep = _deep_ink(knot, darkest, background, knot_boxes)
        on_rims = glyphs_on_rims(deep, runs, run, knot_boxes, directions, min_size)
        runs = cv2.bitwise_and(runs, cv2.bitwise_not(on_rims))
        unlined = cv2.bitwise_and(knot, cv2.bitwise_not(runs))
        for x0, y0, x1, y1 in lines.reshape(-1, 4) if lines is not None else []:
            # In a network's dense ink, Hough also finds "lines" running across glyphs.
            if networks[labels[(y0 + y1) // 2, (x0 + x1) // 2]] and not _plain_line(knot, (x0, y0, x1, y1)):
                continue
            cv2.line(unlined, (int(x0), int(y0)), (int(x1), int(y1)), 0, line_width)
        # (Beside a thick rim Hough finds lines at every slant, across the glyphs too.)
        unlined = cv2.bitwise_or(unlined, on_rims)
        mask = cv2.bitwise_or(cv2.bitwise_and(mask, cv2.bitwise_not(knot)), unlined)
        count, labels, stats, centroids = label_components(mask)
        compact, _ = _glyph_shapes(stats[1:], min_size, max_size)
    del darkest, background  # (freed here: a photo's peak memory comes later, while reading)
    # Small glyphs touching a card's frame line or the shadowed edge of the card above it in
    # a fan make one compact component with the line: the line is cut away.
    run = max(30, round(STRAIGHT_RUN * max(image.shape[:2])))
    # (Only a box whose diagonal is as long can hold such a line.)
    lined = compact & (np.hypot(stats[1:, 2], stats[1:, 3]) >= LINED_MIN_LINE * run)
    if lined.any():
        cut = cut_lines(mask, labels, stats, np.flatnonzero(lined) + 1, run, min_size, max_size)
        if cut is not None:
            mask = cut
            count, labels, stats, centroids = label_components(mask)
            compact, _ = _glyph_shapes(stats[1:], min_size, max_size)
    boxes = stats[1:, :4].astype(np.int32)
    centers = centroids[1:].astype(np.float32)
    ring = _paper_ring(_small_gaps_closed(regions.paper), boxes)
    keep = compact & (ring >= EDGE_PAPER_RING)
    # Ink on paper in deep shade (or on a grey card back) must read as surely as at an edge.
    surer = ring
    if regions.deep is not None:
        surer = _paper_ring(cv2.bitwise_and(regions.paper, cv2.bitwise_not(regions.deep)), boxes)
    index = np.flatnonzero(keep)
    remap = np.zeros(count, np.int32)
    remap[index + 1] = np.arange(1, index.size + 1, dtype=np.int32)
    labels = remap.take(labels)
    boxes = boxes[index]
    centers = centers[index]
    # Rotation-invariant size: the diagonal of the box is a fair, cheap proxy.
    sizes = np.hypot(boxes[:, 2], boxes[:, 3]).astype(np.float32) / 1.25
    edge = surer[index] < MIN_PAPER_RING
    areas = stats[1:, 4][index]
    part_labels, part_boxes, part_centers, parent = fused_parts(labels, boxes, darkness, min_size, areas)
    fused = len(parent)
    part_labels, part_boxes, part_centers, parent = lined_parts(
        labels, boxes, min_size, part_labels, part_boxes, part_centers, parent
    )
    lined = np.zeros(index.size + len(parent), bool)
    lined[index.size + fused :] = True
    if parent.size:
        boxes = np.concatenate([boxes, part_boxes])
        centers = np.concatenate([centers, part_centers])
        part_sizes = np.hypot(part_boxes[:, 2], part_boxes[:, 3]).astype(np.float32) / 1.25
        sizes = np.concatenate([sizes, part_sizes])
        edge = np.concatenate([edge, edge[parent]])
        parent = np.concatenate([np.full(index.size, -1, np.int32), parent])
    else:
        parent = np.full(index.size, -1, np.int32)
    cx = np.clip(centers[:, 0].round().astype(np.int32), 0, image.shape[1] - 1)
    cy = np.clip(centers[:, 1].round().astype(np.int32), 0, image.shape[0] - 1)
    region = regions.labels[cy, cx] - 1
    return Ink(
        labels=labels,
        boxes=boxes,
        centers=centers,
        sizes=sizes,
        region=region.astype(np.int32),
        darkness=darkness,
        edge=edge | (region < 0),
        parent=parent,
        part_labels=part_labels,
        lined=lined,
    )


#: Ink running straight this far (a share of the working image's long side, 51 pixels at
#: 1280) is a line, not a glyph stroke.
STRAIGHT_RUN = 0.04
#: Directions tried for straight runs (every 11.25 degrees: level and upright among them,
#: or a thin upright line is missed).
STRAIGHT_ANGLES = 16


@functools.cache
def _line_kernels(length: int) -> tuple[np.ndarray, ...]:
    """One-pixel-wide line structuring elements of ``length``, one per direction."""
    kernels = []
    middle = (length - 1) / 2
    for angle in np.arange(STRAIGHT_ANGLES) * np.pi / STRAIGHT_ANGLES:
        kernel = np.zeros((length, length), np.uint8)
        dx, dy = middle * np.cos(angle), middle * np.sin(angle)
        start = (round(middle - dx), round(middle - dy))
        end = (round(middle + dx), round(middle + dy))
        cv2.line(kernel, start, end, 1, 1)
        kernels.append(kernel)
    return tuple(kernels)


@functools.cache
def _line_spans(length: int) -> tuple[tuple[int, int], ...]:
    """The (rows, columns) each of :func:`_line_kernels` spans: a mask smaller either way
    holds no run in that direction (its opening is empty, so it is not computed)."""
    spans = []
    for kernel in _line_kernels(length):
        rows, columns = np.nonzero(kernel)
        spans.append((int(rows.max() - rows.min()) + 1, int(columns.max() - columns.min()) + 1))
    return tuple(spans)


def _around(boxes: np.ndarray) -> tuple[int, int, int, int]:
    """The (x0, y0, x1, y1) box around (N, 4+) x, y, w, h ``boxes`` (N > 0), ends excluded.

    >>> _around(np.array([[2, 3, 4, 5], [10, 1, 2, 2]]))
    (2, 1, 12, 8)
    """
    x0, y0 = (int(v) for v in boxes[:, :2].min(axis=0))
    x1, y1 = (int(v) for v in (boxes[:, :2] + boxes[:, 2:4]).max(axis=0))
    return x0, y0, x1, y1


def straight_runs(
    mask: np.ndarray,
    length: int,
    boxes: np.ndarray | None = None,
    found: set[int] | None = None,
    only: set[int] | None = None,
) -> np.ndarray:
    """(H, W) uint8 mask (255) of the ink in ``mask`` lying on a straight run at least
    ``length`` pixels long (made odd) in some direction (an opening with a line at each
    angle), grown by a pixel to take the line's blurred margin.

    ``boxes``: optional (N, 4) x, y, w, h boxes of the connected components of ``mask``: a
    run lies within one component, so only their boxes are searched when they are smaller
    than the box around all the ink (the same answer, in less time).  ``found``: a set that
    collects the directions (indices) in which runs were found; ``only``: such a set, to
    look in those alone (in part of the same ink there are runs in no other direction).

    >>> mask = np.zeros((80, 80), np.uint8)
    >>> _ = cv2.line(mask, (5, 10), (75, 60), 255, 2)  # a frame line
    >>> mask[40:60, 10:14] = 255  # a glyph stroke, 20 pixels long
    >>> runs = straight_runs(mask, 40)
    >>> int(runs[35, 40]), int(runs[50, 12])
    (255, 0)
    >>> bool(straight_runs(mask[35:65, 5:20], 40).any())  # the stroke alone, filling its box
    False
    >>> upright = np.zeros((80, 20), np.uint8); upright[5:75, 9:11] = 255  # 2 pixels wide
    >>> int(straight_runs(upright, 41)[40, 10])
    255
    >>> far = np.zeros((300, 300), np.uint8)  # two frames in far corners: two small boxes
    >>> _ = cv2.line(far, (5, 10), (75, 60), 255, 2); far[40:60, 10:14] = 255
    >>> _ = cv2.line(far, (290, 240), (220, 290), 255, 2)
    >>> boxes = cv2.connectedComponentsWithStats(far)[2][1:, :4]
    >>> bool(np.array_equal(straight_runs(far, 40, boxes), straight_runs(far, 40)))
    True
    >>> bool(np.array_equal(straight_runs(far, 40, boxes[:0]), straight_runs(far, 40)))  # no boxes
    True
    """
    runs = np.zeros(mask.shape, np.uint8)
    if boxes is not None and len(boxes):
        x0, y0, x1, y1 = _around(boxes)
    else:
        ys, xs = np.nonzero(mask)
        if ys.size == 0:
            return runs
        y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    windows = [(x0, y0, x1 - x0, y1 - y0)]
    if boxes is not None and len(boxes) and int((boxes[:, 2] * boxes[:, 3]).sum()) < (x1 - x0) * (y1 - y0):
        windows = [(int(x), int(y), int(w), int(h)) for x, y, w, h in boxes]
    # An odd length: a kernel symmetric about its anchor opens to a subset of the ink (an
    # even one may shift a pixel, which would make the answer depend on the window).
    kernels = _line_kernels(length | 1)
    spans = _line_spans(length | 1)
    for x, y, w, h in windows:
        box = mask[y : y + h, x : x + w]
        window = runs[y : y + h, x : x + w]
        for d, (kernel, (rows, columns)) in enumerate(zip(kernels, spans, strict=True)):
            if h < rows or w < columns or (only is not None and d not in only):
                continue
            opened = _opened(box, kernel)
            if opened is not None:
                cv2.bitwise_or(window, opened, dst=window)
                if found is not None:
                    found.add(d)
    return cv2.dilate(runs, np.ones((3, 3), np.uint8))


#: Ink darker than this share of the paper around it is a rim's or a glyph's core: the
#: blurred pixel between a small rank and the dark rim it touches is paler.
RIM_INK = 0.4
#: A rim is this thick (pixels) at its darkest: thin frame lines are cut by other steps.
RIM_THICKNESS = 6
#: A glyph's core freed from a rim is at most this many times longer than wide (scraps of
#: a line broken up at the deepest level are longer) ...
RIM_GLYPH_ELONGATION = 2.0
#: ... and at least this share of it was taken as the rim's runs (else nothing was lost).
RIM_GLYPH_TAKEN = 0.1


def _deep_ink(knot: np.ndarray, darkest: np.ndarray, background: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(H, W) uint8 mask (255) of the ink of ``knot`` darker than :data:`RIM_INK` of the
    paper around it (:func:`_ink_planes`), looked for within the (N, 4) x, y, w, h ``boxes``.

    >>> knot = np.full((4, 4), 255, np.uint8)
    >>> darkest = np.array([[10, 100, 200, 10]] * 4, np.uint8)
    >>> deep = _deep_ink(knot, darkest, np.full((4, 4), 230.0, np.float32), np.array([[0, 0, 3, 4]]))
    >>> deep[0].tolist()  # the last column lies outside the boxes
    [255, 0, 0, 0]
    """
    deep = np.zeros_like(knot)
    x0, y0, x1, y1 = _around(boxes)
    window = np.less(darkest[y0:y1, x0:x1], background[y0:y1, x0:x1] * RIM_INK).view(np.uint8)
    cv2.bitwise_and(knot[y0:y1, x0:x1], window * np.uint8(255), dst=deep[y0:y1, x0:x1])
    return deep


def glyphs_on_rims(
    deep: np.ndarray,
    runs: np.ndarray,
    length: int,
    boxes: np.ndarray,
    directions: set[int],
    min_size: float,
) -> np.ndarray:
    """(H, W) uint8 mask (255) of the glyphs that :func:`straight_runs` ``runs`` (of length
    ``length`` in ``boxes``, found in ``directions``) took with a thick dark rim they touch.

    ``deep`` is the same ink at its darkest (:func:`_deep_ink`): there the pale pixel between
    glyph and rim is gone, and what stands apart from the rim's own runs, compact and partly
    taken by ``runs``, is a glyph (a rank in a tight fan of dark-rimmed cards).

    >>> mask = np.zeros((80, 60), np.uint8)
    >>> mask[5:75, 20:28] = 255  # a dark rim, 8 pixels thick
    >>> mask[30:42, 29:31] = 255; mask[[30, 31, 35, 36, 40, 41], 29:37] = 255  # an "E" beside it
    >>> knot = mask.copy(); knot[30:42, 28] = 255  # joined by the paler pixels between them
    >>> boxes = np.array([[20, 5, 17, 70]]); directions = set()
    >>> runs = straight_runs(knot, 41, boxes, found=directions)
    >>> bool(runs[35, 29])  # the glyph's stroke lies on the rim's slanting runs
    True
    >>> freed = glyphs_on_rims(mask, runs, 41, boxes, directions, 4.0)
    >>> bool(freed[35, 29]), bool(freed[31, 35]), bool(freed[50, 22])
    (True, True, False)
    """
    freed = np.zeros_like(deep)
    thick = np.ones((RIM_THICKNESS, RIM_THICKNESS), np.uint8)
    rimmed = cv2.erode(cv2.bitwise_and(runs, deep), thick)
    # Only the tangles holding a thick rim are looked at again.
    boxes = np.array([(x, y, w, h) for x, y, w, h in boxes[:, :4] if rimmed[y : y + h, x : x + w].any()])
    if not len(boxes):
        return freed
    rims = straight_runs(deep, length, boxes, only=directions)
    apart = cv2.bitwise_and(deep, cv2.bitwise_not(rims))
    # A line broken up at the deepest level leaves long scraps; glyph strokes are shorter.
    scraps = straight_runs(apart, max(9, length // 2), boxes, only=directions)
    apart = cv2.bitwise_and(apart, cv2.bitwise_not(scraps))
    x0, y0, x1, y1 = _around(boxes)
    freed[y0:y1, x0:x1] = _compact_parts(apart[y0:y1, x0:x1], runs[y0:y1, x0:x1], (min_size, length))
    return freed


def _compact_parts(mask: np.ndarray, taken: np.ndarray, sizes: tuple[float, float]) -> np.ndarray:
    """(H, W) uint8 mask (255) of the connected parts of ``mask`` at most
    :data:`RIM_GLYPH_ELONGATION` times longer than wide (by their second moments), as long as
    ``sizes`` (shortest, longest: a glyph's; a frame's closed outline is as compact) and at
    least :data:`RIM_GLYPH_TAKEN` in ``taken``.

    >>> mask = np.zeros((30, 40), np.uint8)
    >>> mask[5:15, 5:12] = 255; mask[20:22, 5:35] = 255  # a blob and a thin scrap of line
    >>> parts = _compact_parts(mask, mask, (4.0, 20.0))
    >>> bool(parts[10, 8]), bool(parts[21, 20])
    (True, False)
    >>> bool(_compact_parts(mask, np.zeros_like(mask), (4.0, 20.0)).any())  # nothing was taken
    False
    >>> bool(_compact_parts(mask, mask, (4.0, 8.0))[10, 8])  # longer than a glyph
    False
    """
    parts = np.zeros_like(mask)
    count, labels, stats, _ = label_components(mask)
    share_taken = np.bincount(labels[taken > 0], minlength=count) / np.maximum(stats[:, 4], 1)
    long_side = np.maximum(stats[:, 2], stats[:, 3])
    candidates = (long_side >= sizes[0]) & (long_side <= sizes[1]) & (stats[:, 4] >= 6)
    candidates &= share_taken >= RIM_GLYPH_TAKEN
    candidates[0] = False
    for part in np.flatnonzero(candidates):
        x, y, w, h = (int(v) for v in stats[part, :4])
        own = labels[y : y + h, x : x + w] == part
        moments = cv2.moments(own.view(np.uint8), binaryImage=True)
        # Central second moments (plus a pixel's own spread), then their eigenvalues' ratio.
        xx = moments["mu20"] / moments["m00"] + 1 / 12
        yy = moments["mu02"] / moments["m00"] + 1 / 12
        xy = moments["mu11"] / moments["m00"]
        mean, spread = (xx + yy) / 2, float(np.hypot((xx - yy) / 2, xy))
        if (mean + spread) <= RIM_GLYPH_ELONGATION**2 * (mean - spread):
            parts[y : y + h, x : x + w][own] = 255
    return parts


def _opened(mask: np.ndarray, kernel: np.ndarray) -> np.ndarray | None:
    """The morphological opening of (H, W) uint8 ``mask`` by ``kernel``, outside the mask
    counting as no ink (OpenCV's default border would count it as ink), or None when it is
    empty.  Eroded first and dilated only when something is left: in most directions
    nothing is (an opening costs two passes, an empty one now one).

    >>> mask = np.zeros((9, 9), np.uint8); mask[4, 1:8] = 255
    >>> level, upright = np.ones((1, 5), np.uint8), np.ones((5, 1), np.uint8)
    >>> int(_opened(mask, level).sum() // 255), _opened(mask, upright) is None
    (7, True)
    """
    eroded = cv2.erode(mask, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    if not eroded.any():
        return None
    opened: np.ndarray = cv2.dilate(eroded, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return opened


def longest_run(mask: np.ndarray, length: int) -> tuple[np.ndarray, float]:
    """:func:`straight_runs` of ``mask`` (H, W) uint8 (searched in one window) and the length
    (pixels) of its longest run that lies in one direction, 0 when none is ``length`` long:
    a bent stroke is as long as its longest straight part.

    >>> mask = np.zeros((80, 80), np.uint8)
    >>> _ = cv2.line(mask, (10, 10), (10, 40), 255, 3); _ = cv2.line(mask, (10, 40), (40, 70), 255, 3)
    >>> runs, longest = longest_run(mask, 25)
    >>> 40 <= longest < 60  # the slanted leg (42 pixels), not both legs (72)
    True
    >>> bool(np.array_equal(runs, straight_runs(mask, 25)))
    True
    """
    runs = np.zeros(mask.shape, np.uint8)
    longest = 0.0
    height, width = mask.shape
    for kernel, (rows, columns) in zip(_line_kernels(length | 1), _line_spans(length | 1), strict=True):
        if height < rows or width < columns:
            continue
        opened = _opened(mask, kernel)
        if opened is None:
            continue
        cv2.bitwise_or(runs, opened, dst=runs)
        _, _, stats, _ = label_components(opened)
        longest = max(longest, float(np.hypot(stats[1:, 2], stats[1:, 3]).max()))
    return cv2.dilate(runs, np.ones((3, 3), np.uint8)), longest


#: Gaps (pixels) bridged along a thin line: a one-pixel line's steps leave its pixels off
#: the ideal line by up to a pixel, and the transform's bins see gaps.
THIN_LINE_GAP = 2


def hough_runs(mask: np.ndarray, length: int) -> tuple[np.ndarray, float]:
    """The straight segments at least ``length`` pixels long that the probabilistic Hough
    transform finds in ``mask`` (H, W) uint8, drawn 3 pixels wide as a (H, W) uint8 mask
    (255), and the longest one's length (0 when none).

    :func:`longest_run` opens with lines every 11.25 degrees: a one-pixel line slanting
    between two of them steps off either within a run and is not found.  Hough finds it at
    any angle.

    >>> mask = np.zeros((60, 140), np.uint8)
    >>> _ = cv2.line(mask, (5, 40), (125, 9), 255, 1)  # a thin frame line at -14.5 degrees
    >>> longest_run(mask, 51)[1], hough_runs(mask, 51)[1] > 110
    (0.0, True)
    >>> segments, _ = hough_runs(mask, 51)
    >>> int(segments[25, 65]), int(segments[50, 65])
    (255, 0)
    """
    segments = np.zeros(mask.shape, np.uint8)
    longest = 0.0
    lines = cv2.HoughLinesP(
        mask, 1, np.pi / 360, threshold=length, minLineLength=length, maxLineGap=THIN_LINE_GAP
    )
    for x0, y0, x1, y1 in lines.reshape(-1, 4) if lines is not None else []:
        cv2.line(segments, (int(x0), int(y0)), (int(x1), int(y1)), 255, 3)
        longest = max(longest, float(np.hypot(x1 - x0, y1 - y0)))
    return segments, longest


def _plain_line(mask: np.ndarray, segment: tuple[int, int, int, int]) -> bool:
    """True when the segment (x0, y0, x1, y1) runs along ink in ``mask`` (H, W) and the ink
    ends within ``LINE_REACH`` pixels on one side of it nearly all the way: a frame line or a
    card's edge, not a chord through a cluster of glyphs.

    >>> mask = np.zeros((40, 60), np.uint8); mask[20:23, 5:55] = 255
    >>> _plain_line(mask, (5, 21, 54, 21))
    True
    >>> mask[8:21, 25:35] = 255  # a glyph touching the line from above
    >>> _plain_line(mask, (5, 21, 54, 21)), _plain_line(mask, (5, 12, 54, 30))
    (True, False)
    """
    x0, y0, x1, y1 = (float(v) for v in segment)
    length = max(float(np.hypot(x1 - x0, y1 - y0)), 1.0)
    steps = np.linspace(0.0, 1.0, int(length // 2) + 1)
    xs, ys = x0 + (x1 - x0) * steps, y0 + (y1 - y0) * steps
    normal = (-(y1 - y0) / length, (x1 - x0) / length)
    height, width = mask.shape
    # The ink along the segment and along its parallels 2 to LINE_REACH pixels off either
    # side, all sampled at once: rows 0, then one side's reaches, then the other's.
    reaches = np.arange(2, LINE_REACH + 1, dtype=np.float64)
    offsets = np.concatenate([[0.0], reaches, -reaches])[:, None]
    x = np.clip(np.round(xs + offsets * normal[0]).astype(np.int32), 0, width - 1)
    y = np.clip(np.round(ys + offsets * normal[1]).astype(np.int32), 0, height - 1)
    ink = mask[y, x] > 0
    if ink[0].mean() < LINE_INK:
        return False
    count = reaches.size
    for side in (ink[1 : 1 + count], ink[1 + count :]):
        ends = (~side).any(axis=0)
        if ends.mean() >= LINE_SIDE_CLEAR:
            return True
    return False


#: Components at least this long (pixels) may be a rank and its suit blurred together.
FUSED_MIN_SIDE = 12
#: Darkness levels at which a fused component is cut in two, tried in turn on the
#: components not yet cut: the blur that joins two glyphs is lighter than their strokes.
#: (0.7, 0.8 and 0.9 together found no more on the first scenes; later, with 0.88 after
#: 0.75, held-out-family validation photos gave 5 more standard cards and 3 Tichu, precision
#: within 0.2 points, where 0.82 or 0.93 gave 2 or 3 more and 0.65 one.)
FUSED_LEVELS = (0.75, 0.88)
#: Each part must hold at least this share of the component's pixels.
FUSED_PART_SHARE = 0.12
#: A fused component is cut into at most this many parts: a "10" and its suit make three.
#: (From two to three, twentieth session: validation seeds 777, 555, 778, 998 and 999 2,466
#: found / 40 false to 2,471 / 42, the ten calibrated decks 1,887 / 12 to 1,888 / 12, the
#: sample sets 963 / 14 to 963 / 15.)
FUSED_MOST_PARTS = 3


def fused_parts(
    labels: np.ndarray,
    boxes: np.ndarray,
    darkness: np.ndarray,
    min_size: float = 4.0,
    areas: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Components that fall into two or three sizeable parts at a darker level (the first of
    :data:`FUSED_LEVELS` at which they do): a rank and its suit joined by blur or a thin
    stroke, or the "1", the "0" and the suit of a "10" (:data:`FUSED_MOST_PARTS`).  Every
    reading stays possible: the component is kept and its parts are offered beside it.

    ``labels``: (H, W) int32 components (i + 1), ``boxes``: (N, 4) x, y, w, h, ``darkness``:
    (H, W) float32.  Returns ``(part_labels, part_boxes, part_centers, parent)``: an (H, W)
    int32 image of the parts (part k is N + k + 1, its component number plus one), their
    (M, 4) int32 boxes and (M, 2) float32 centres, and (M,) int32 the component each was cut
    from.  ``areas``: the components' (N,) pixel counts, when the caller has them (else
    they are counted here).

    >>> darkness = np.zeros((30, 40), np.float32)
    >>> darkness[3:12, 5:14] = 1.0; darkness[16:26, 5:14] = 1.0; darkness[12:16, 8:11] = 0.6
    >>> darkness[3:12, 25:34] = 1.0; darkness[16:26, 25:34] = 1.0; darkness[12:16, 28:31] = 0.8
    >>> labels = (darkness >= 0.56).astype(np.int32); labels[:, 20:] *= 2
    >>> boxes = np.array([[5, 3, 9, 23], [25, 3, 9, 23]], np.int32)
    >>> part_labels, part_boxes, _, parent = fused_parts(labels, boxes, darkness)
    >>> part_boxes.tolist(), parent.tolist(), int(part_labels[5, 8]), int(part_labels[20, 28])
    ([[5, 3, 9, 9], [5, 16, 9, 10], [25, 3, 9, 9], [25, 16, 9, 10]], [0, 0, 1, 1], 3, 6)
    >>> ten = np.zeros((30, 30), np.float32)  # a "1" and a "0" side by side over a suit, blurred into one
    >>> ten[3:12, 5:8] = 1.0; ten[3:12, 11:17] = 1.0; ten[16:25, 7:15] = 1.0
    >>> ten[6:8, 8:11] = 0.6; ten[12:16, 10:12] = 0.6
    >>> ten_labels, ten_box = (ten >= 0.56).astype(np.int32), np.array([[5, 3, 12, 22]], np.int32)
    >>> _, ten_boxes, _, ten_parent = fused_parts(ten_labels, ten_box, ten)
    >>> ten_boxes.tolist(), ten_parent.tolist()
    ([[5, 3, 3, 9], [11, 3, 6, 9], [7, 16, 8, 9]], [0, 0, 0])
    """
    count = len(boxes)
    part_labels = np.zeros(labels.shape, np.int32)
    found_boxes: list[np.ndarray] = [np.zeros((0, 4), np.int32)]
    found_centers: list[np.ndarray] = [np.zeros((0, 2), np.float32)]
    found_parents: list[np.ndarray] = [np.zeros(0, np.int32)]
    tried = np.maximum(boxes[:, 2], boxes[:, 3]) >= FUSED_MIN_SIDE
    if count and tried.any():
        if areas is None:
            areas = np.bincount(labels.ravel(), minlength=count + 1)[1:]
        for level in FUSED_LEVELS:
            if not tried.any():
                break
            # Only the tried components' joint box is labelled (about half the photo).
            x0, y0 = (int(v) for v in boxes[tried, :2].min(axis=0))
            x1, y1 = (int(v) for v in (boxes[tried, :2] + boxes[tried, 2:4]).max(axis=0))
            window = (slice(y0, y1), slice(x0, x1))
            cut, chosen, boxes_cut, centroids, owner = _cut_at(
                labels[window], darkness[window], level, tried, areas, min_size
            )
            if not chosen.size:
                continue
            boxes_cut[:, :2] += (x0, y0)
            centroids += (x0, y0)
            # Parts are numbered on from those already cut, and painted in their own boxes
            # only (a whole-image relabelling costs milliseconds); a cut component is not
            # tried again.
            first = count + 1 + sum(len(p) for p in found_parents)
            for k, (part, (x, y, w, h)) in enumerate(zip(chosen, boxes_cut, strict=True)):
                painted = part_labels[y : y + h, x : x + w]
                painted[cut[y - y0 : y - y0 + h, x - x0 : x - x0 + w] == part + 1] = first + k
            found_boxes.append(boxes_cut)
            found_centers.append(centroids.astype(np.float32))
            found_parents.append(owner[chosen].astype(np.int32))
            tried[owner[chosen]] = False
    return (
        part_labels,
        np.concatenate(found_boxes),
        np.concatenate(found_centers),
        np.concatenate(found_parents),
    )


#: A glyph joined to a scrap of frame line (a line running beyond it) is also offered
#: without the line: the line runs at least this share of the component's long side ...
LINED_PART_RUN = 0.8
#: ... the piece left holds at least this share of the ink and is at most this share of
#: the line long.
LINED_PART_SHARE = 0.3
LINED_PART_EXTENT = 0.85
#: Only a component whose outline runs straight along this share of its long side is tried.
LINED_PART_EDGE = 0.92
#: ... and whose box is at least this long (working pixels): a glyph and a line beyond it
#: (12, 16 and 20 found the same cards on validation photos, in more time; 32 fewer).
LINED_MIN_SIDE = 24


def _has_straight_edge(mask: np.ndarray, length: float) -> bool:
    """True when the outline of the ink in (H, W) uint8 ``mask`` has a straight stretch
    (within 1.5 pixels) at least ``length`` pixels long.

    >>> bar = np.zeros((20, 40), np.uint8); bar[8:11, 2:38] = 255
    >>> _has_straight_edge(bar, 30.0), _has_straight_edge(bar, 38.0)
    (True, False)
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        corners = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float32)
        if len(corners) < 2:
            continue
        sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
        if float(sides.max()) >= length:
            return True
    return False


def lined_parts(
    labels: np.ndarray,
    boxes: np.ndarray,
    min_size: float,
    part_labels: np.ndarray,
    part_boxes: np.ndarray,
    part_centers: np.ndarray,
    parent: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The parts of :func:`fused_parts` and, for components not cut there, one more: the
    glyph left when a straight line running beyond it is cut away (a rank touching a scrap
    of its card's frame).  Same arrays as :func:`fused_parts` returns, extended."""
    count = len(boxes)
    cut = np.zeros(count, bool)
    cut[parent] = True
    first = count + 1 + len(parent)
    new_boxes: list[np.ndarray] = []
    new_centers: list[np.ndarray] = []
    new_parents: list[int] = []
    for component in np.flatnonzero((np.maximum(boxes[:, 2], boxes[:, 3]) >= LINED_MIN_SIDE) & ~cut):
        x, y, w, h = (int(v) for v in boxes[component])
        own = (labels[y : y + h, x : x + w] == component + 1).astype(np.uint8) * 255
        # A quick look at the outline spares most glyphs the openings.
        if not _has_straight_edge(own, LINED_PART_EDGE * max(w, h)):
            continue
        length = max(3, round(LINED_PART_RUN * max(w, h)))
        runs = straight_runs(own, length)
        if not runs.any():
            # A thin line slanting between the openings' directions is found by Hough.
            runs = hough_runs(own, length)[0]
        ys, xs = np.nonzero(runs)
        if ys.size == 0:
            continue
        # The lines' reach (their box's diagonal, less the pixel they were grown by).
        longest = float(np.hypot(int(xs.max()) - int(xs.min()) - 1, int(ys.max()) - int(ys.min()) - 1))
        rest = cv2.bitwise_and(own, cv2.bitwise_not(runs))
        n, pieces, stats, centroids = label_components(rest)
        if n < 2:
            continue
        biggest = 1 + int(np.argmax(stats[1:, 4]))
        px, py, pw, ph, area = (int(v) for v in stats[biggest])
        if area < LINED_PART_SHARE * int(np.count_nonzero(own)) or max(pw, ph) < min_size:
            continue
        if max(pw, ph) > LINED_PART_EXTENT * longest:
            continue
        window = part_labels[y : y + h, x : x + w]
        window[pieces == biggest] = first + len(new_parents)
        new_boxes.append(np.array([x + px, y + py, pw, ph], np.int32))
        new_centers.append((centroids[biggest] + (x, y)).astype(np.float32))
        new_parents.append(int(component))
    if not new_parents:
        return part_labels, part_boxes, part_centers, parent
    return (
        part_labels,
        np.concatenate([part_boxes, np.array(new_boxes, np.int32)]),
        np.concatenate([part_centers, np.array(new_centers, np.float32)]),
        np.concatenate([parent, np.array(new_parents, np.int32)]),
    )


def _cut_at(
    labels: np.ndarray,
    darkness: np.ndarray,
    level: float,
    tried: np.ndarray,
    areas: np.ndarray,
    min_size: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pieces of :func:`fused_parts` at one darkness ``level``, for the ``tried`` (N,)
    components whose pixel counts are ``areas`` (N,): ``(cut, chosen, boxes, centers,
    owner)``, the (H, W) int32 labelling of all pieces at that level (piece i is i + 1), the
    pieces chosen as parts (sorted by component) with their (C, 4) int32 boxes x, y, w, h and
    (C, 2) float64 centroids, and every piece's (P,) component.  ``labels`` and ``darkness``
    may be a window of the photo's (coordinates are then the window's).

    >>> labels = np.zeros((12, 12), np.int32); labels[1:11, 2:6] = 1
    >>> darkness = np.zeros((12, 12), np.float32); darkness[1:5, 2:6] = 1; darkness[7:11, 2:6] = 1
    >>> _, chosen, boxes, centers, owner = _cut_at(labels, darkness, 0.8, np.ones(1, bool), np.array([40]), 3)
    >>> chosen.tolist(), boxes.tolist(), centers.tolist(), owner.tolist()
    ([0, 1], [[2, 1, 4, 4], [2, 7, 4, 4]], [[3.5, 2.5], [3.5, 8.5]], [0, 0])
    """
    count = len(tried)
    nothing = np.zeros(0, np.int64)
    # One labelling of the whole window (a part lies inside one component, so it names its
    # component by any of its pixels): cheaper than a window per component.  OpenCV's
    # statistics would cost four times the labelling; only the few pieces that may be
    # parts are measured, below.
    core = (labels > 0) & (darkness >= level)
    n, cut = cv2.connectedComponentsWithAlgorithm(core.view(np.uint8), 8, cv2.CV_32S, cv2.CCL_BBDT)
    if n < 3:
        return cut, nothing, np.zeros((0, 4), np.int32), np.zeros((0, 2)), nothing
    where = np.flatnonzero(core.ravel())  # (numpy finds a bool array's set pixels far faster)
    piece = cut.ravel()[where]
    owner = np.zeros(n, np.int64)
    owner[piece] = labels.ravel()[where] - 1
    owner = owner[1:]
    sizes = np.bincount(piece, minlength=n)[1:]
    big = (sizes >= FUSED_PART_SHARE * areas[owner]) & tried[owner]
    # The boxes of the pieces large enough to be parts.
    measured = np.zeros(n, bool)
    measured[1:] = big
    inside = measured[piece]
    pixels, of = where[inside], piece[inside]
    ys, xs = np.divmod(pixels, core.shape[1])
    low = np.full((2, n), np.iinfo(np.int64).max)
    high = np.full((2, n), -1)
    np.minimum.at(low[0], of, xs)
    np.minimum.at(low[1], of, ys)
    np.maximum.at(high[0], of, xs)
    np.maximum.at(high[1], of, ys)
    extents = (high - low + 1)[:, 1:]
    big &= np.maximum(extents[0], extents[1]) >= min_size
    pieces = np.bincount(owner[big], minlength=count)[owner]
    chosen = np.flatnonzero(big & (pieces >= 2) & (pieces <= FUSED_MOST_PARTS))
    chosen = chosen[np.argsort(owner[chosen], kind="stable")]
    boxes = np.stack([low[0, 1:], low[1, 1:], extents[0], extents[1]], axis=1)[chosen].astype(np.int32)
    sums = np.stack([np.bincount(of, weights=axis, minlength=n) for axis in (xs, ys)], axis=1)
    centers = sums[1:][chosen] / sizes[chosen, None]
    return cut, chosen, boxes, centers, owner


#: The glyph-sized pieces left when a component's lines are cut must hold this share of its ink
#: (a small index on the long dark edge of the card above holds less than a tenth of it).
LINED_GLYPH_SHARE = 0.03
#: ... and the cut line must be at least this many runs long ...
LINED_MIN_LINE = 2.0
#: ... and thin: half of it within this many pixels of its side, or this share of
#: its length.
LINE_HALF_WIDTH = 3.0
LINE_WIDTH_SHARE = 0.03
#: One glyph-sized piece left by the cut must be at most this many runs long.
LINED_PIECE_RUNS = 1.5


def cut_lines(
    mask: np.ndarray,
    labels: np.ndarray,
    stats: np.ndarray,
    components: np.ndarray,
    run: int,
    min_size: float,
    max_size: float,
) -> np.ndarray | None:
    """``mask`` with the straight runs (at least ``run`` pixels) cut out of those of the
    labelled ``components`` that are small glyphs standing on a line (a frame, a card's
    edge or its shadow): once the runs are gone, glyph-sized pieces remain, one of them no
    longer than :data:`LINED_PIECE_RUNS` runs.  None when no component was cut.

    The line must run well beyond a glyph (the stems of letters written tight, JOKER down a
    joker's side, make shorter runs) and be thin for its length: a big glyph's long, thick
    stroke (a close-up "1") is no line, and its glyph stays whole.

    ``mask``: (H, W) uint8 ink (255); ``labels``: its (H, W) int32 components; ``stats``:
    their (N + 1, 5) x, y, w, h, area rows (row 0 the background); ``components``: labels
    to try.

    >>> mask = np.zeros((60, 90), np.uint8)
    >>> mask[50:53, 5:85] = 255  # a card's edge, two runs long ...
    >>> mask[34:50, 40:50] = 255  # ... and a small glyph standing on it
    >>> _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    >>> cut = cut_lines(mask, labels, stats, np.array([1]), 40, 4.0, 200.0)
    >>> int(cut[40, 45]), int(cut[51, 20])
    (255, 0)
    >>> mask[10:50, 40:50] = 255  # a glyph as tall as a run: a stroke, not on a line
    >>> _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    >>> cut_lines(mask, labels, stats, np.array([1]), 40, 4.0, 200.0) is None
    True
    >>> def glyph_beside_a_bar(width: int) -> bool:  # cut?
    ...     bar = np.zeros((130, 60), np.uint8)
    ...     bar[10:110, 20 : 20 + width] = 255; bar[50:66, 20 + width : 32 + width] = 255
    ...     _, labels, stats, _ = cv2.connectedComponentsWithStats(bar)
    ...     return cut_lines(bar, labels, stats, np.array([1]), 40, 4.0, 200.0) is not None
    >>> glyph_beside_a_bar(3), glyph_beside_a_bar(9)  # a line; a thick stroke
    (True, False)
    """
    result: np.ndarray | None = None
    for component in components:
        x, y, w, h = (int(v) for v in stats[component, :4])
        own = (labels[y : y + h, x : x + w] == component).astype(np.uint8) * 255
        # A line runs well beyond one glyph (the letters of a word written tight, JOKER down
        # a joker's side, make shorter runs) ...
        runs, longest = longest_run(own, run)
        if longest < LINED_MIN_LINE * run:
            # A one-pixel line slanting between the openings' directions escapes them.
            runs, longest = hough_runs(own, run)
        if longest < LINED_MIN_LINE * run:
            continue
        cut = cv2.bitwise_and(own, runs)
        # ... and is thin for its length: a big glyph's long stroke is thick.
        depth = cv2.distanceTransform(own, cv2.DIST_L2, 3)
        if float(np.median(depth[cut > 0])) > max(LINE_HALF_WIDTH, LINE_WIDTH_SHARE * longest):
            continue
        rest = cv2.bitwise_and(own, cv2.bitwise_not(runs))
        _, _, pieces, _ = label_components(rest)
        compact, _ = _glyph_shapes(pieces[1:], min_size, max_size)
        kept = pieces[1:][compact]
        # Glyphs hold a fair share of the ink (slivers along a cut stroke do not), and at
        # least one is no longer than a run and a half (a JOKER's letters run together
        # along the edge are one such piece; longer ones may be a framed card's art).
        if int(kept[:, 4].sum()) < LINED_GLYPH_SHARE * int(stats[component, 4]):
            continue
        if int(np.maximum(kept[:, 2], kept[:, 3]).min(initial=mask.size)) > LINED_PIECE_RUNS * run:
            continue
        if result is None:
            result = mask.copy()
        window = result[y : y + h, x : x + w]
        window[(own > 0) & (rest == 0)] = 0
    return result


#: A wide non-paper area whose box is at most this share of the image's long side is a big
#: solid glyph (a suit symbol, a pip), not table: it stays ink.
GLYPH_BLOB_SIDE = 0.06


def _wide_non_paper(paper: np.ndarray) -> np.ndarray:
    """(H, W) uint8 mask (255) of wide areas that are not paper (table, card backs, art), grown
    by a pixel; solid glyph-sized blobs (a big suit symbol) are left out, or they would be
    cut to shreds.

    >>> paper = np.full((600, 600), 255, np.uint8); paper[:, :100] = 0; paper[300:325, 400:425] = 0
    >>> wide = _wide_non_paper(paper)
    >>> int(wide[50, 50]), int(wide[312, 412])
    (255, 0)
    """
    wide = cv2.morphologyEx(
        cv2.bitwise_not(paper), cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (11, 11))
    )
    # Labelled at half the size (the opening left nothing thinner than 11 pixels):
    # labelling the whole photo's table costs more than the rest of this step.
    height, width = paper.shape
    coarse = cv2.resize(wide, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_AREA)
    _, labels, stats, _ = label_components((coarse > 0).astype(np.uint8))
    small = np.maximum(stats[:, 2], stats[:, 3]) * 2 <= GLYPH_BLOB_SIDE * max(height, width)
    small[0] = False
    if small.any():
        blobs = cv2.resize(small[labels].astype(np.uint8), (width, height), interpolation=cv2.INTER_NEAREST)
        wide[blobs > 0] = 0
    return cv2.dilate(wide, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))


def _glyph_shapes(stats: np.ndarray, min_size: float, max_size: float) -> tuple[np.ndarray, np.ndarray]:
    """Per component (x, y, w, h, area rows): glyph-like (compact, glyph-sized) and tangled
    (big or hollow: likely glyphs joined to lines)."""
    boxes = stats[:, :4].astype(np.float32)
    areas = stats[:, 4].astype(np.float32)
    long_side = np.maximum(boxes[:, 2], boxes[:, 3])
    sized = (long_side >= min_size) & (areas >= 6) & (long_side <= max_size)
    # Index glyphs are compact: long thin lines (card edges, art outlines) are not.
    solid = areas >= 0.04 * boxes[:, 2] * boxes[:, 3]
    tangled = (long_side >= 3 * min_size) & ~(sized & solid)
    return sized & solid, tangled


#: Gaps in the paper narrower than this (pixels) are closed before the paper around a glyph
#: is measured: the paper mask is ragged right around ink, where a red glyph's colour bleeds
#: into the paper (JPEG) and, in shade, pixels a little too dark or tinted speckle it, so a
#: small suit had too little paper around it to be kept.  (On held-out-family validation
#: photos 5 and 7 both found 3 more cards, none lost; 9 one more, for less precision.)
PAPER_GAP = 7


def _small_gaps_closed(paper: np.ndarray) -> np.ndarray:
    """The (H, W) uint8 ``paper`` mask with gaps narrower than :data:`PAPER_GAP` closed.

    >>> paper = np.full((30, 30), 255, np.uint8)
    >>> paper[10:20, 10:20] = 0; paper[12:18, 12:18] = 255  # a two-pixel gap round a glyph
    >>> int(_small_gaps_closed(paper)[11, 15]), int(_small_gaps_closed(np.zeros_like(paper)).max())
    (255, 0)
    """
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (PAPER_GAP, PAPER_GAP))
    closed: np.ndarray = cv2.morphologyEx(paper, cv2.MORPH_CLOSE, disc)
    return closed


def _paper_ring(paper: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Fraction of paper pixels in the ring between each (x, y, w, h) box and the box grown by half."""
    height, width = paper.shape
    integral = cv2.integral((paper > 0).astype(np.uint8))

    def box_sum(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
        total = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
        return np.asarray(total, dtype=np.float64)

    x, y, w, h = (boxes[:, i].astype(np.int64) for i in range(4))
    margin_x = np.maximum(2, w // 2)
    margin_y = np.maximum(2, h // 2)
    ox0 = np.clip(x - margin_x, 0, width)
    oy0 = np.clip(y - margin_y, 0, height)
    ox1 = np.clip(x + w + margin_x, 0, width)
    oy1 = np.clip(y + h + margin_y, 0, height)
    outer = box_sum(ox0, oy0, ox1, oy1)
    inner = box_sum(x, y, np.clip(x + w, 0, width), np.clip(y + h, 0, height))
    ring_area = (ox1 - ox0) * (oy1 - oy0) - w * h
    return np.asarray((outer - inner) / np.maximum(ring_area, 1), dtype=np.float64)


@dataclass(frozen=True)
class IndexPair:
    """A proposed index corner: rank component(s) above a suit component.

    Component numbers are 0-based indices into :class:`Ink` arrays.  ``down`` is the unit
    vector from the rank's centre to the suit's centre.
    """

    rank: tuple[int, ...]
    suit: int
    down: tuple[float, float]


#: A neighbour at least this size (relative to the glyph) may be its suit symbol, not a speck.
SUIT_SIZE_RATIO = 0.5
#: ... and this many of the nearest such neighbours are always paired with it (in a fan the
#: next card's rank and a scrap of its frame may both lie nearer than a glyph's own suit:
#: three, not two, found 7 more cards on the held-out standard sets and 4 on calibrated
#: held-out-family decks, for a few more pairs to read).
SIZEABLE_NEIGHBOURS = 3
#: A "10": its second glyph lies beside the first, at most this many glyph sizes along the
#: first one's "down" (its suit may sit under the "1" on a card turned a little, so the two
#: glyphs are not level along that direction; 0.3 missed such 10s, 0.4 found 4 more standard
#: and 5 more Tichu cards on the held-out-family sets with no false reading more).
TEN_GLYPHS_LEVEL = 0.4


def index_pairs(ink: Ink, max_neighbours: int = 3) -> list[IndexPair]:
    """Every plausible (rank above suit) pair of nearby components of similar size.

    >>> labels = np.zeros((10, 10), np.int32)
    >>> boxes = np.array([[10, 10, 8, 12], [10, 25, 8, 8]], np.int32)
    >>> centers = np.array([[14, 16], [14, 29]], np.float32)
    >>> sizes = np.array([12, 9], np.float32)
    >>> ink = Ink(labels, boxes, centers, sizes, np.zeros(2, np.int32))
    >>> [(p.rank, p.suit) for p in index_pairs(ink)]
    [((0,), 1), ((1,), 0)]
    """
    count = len(ink.centers)
    if count < 2:
        return []
    centers = ink.centers.astype(np.float64)
    sizes = ink.sizes.astype(np.float64)
    # Components sorted by x: each one's neighbours lie in a window of that sorted list, so
    # time and memory stay near linear even on a photo full of specks.
    order = np.argsort(centers[:, 0], kind="stable")
    sorted_x = centers[order, 0]
    pairs: list[IndexPair] = []
    # Each component's neighbours in its window of the sorted list, for all components at
    # once (numpy's per-call cost outweighs a window's few values).
    reaches = 2.4 * sizes
    lows = np.searchsorted(sorted_x, centers[:, 0] - reaches, side="left")
    highs = np.searchsorted(sorted_x, centers[:, 0] + reaches, side="right")
    lengths = highs - lows
    owner = np.repeat(np.arange(count), lengths)
    position = np.arange(int(lengths.sum())) + np.repeat(lows - (np.cumsum(lengths) - lengths), lengths)
    other = order[position]
    delta = centers[other] - centers[owner]
    distance = np.hypot(delta[:, 0], delta[:, 1])
    ratio = sizes[other] / sizes[owner]
    near = (distance >= 0.45 * sizes[owner]) & (distance <= reaches[owner])
    # One card's glyphs lie in one paper region; a glyph whose centre is off the paper
    # map (at a card's edge) may pair with either.
    region = ink.region
    same_region = (region[other] == region[owner]) | (region[other] < 0) | (region[owner] < 0)
    near &= (ratio >= 0.22) & (ratio <= 1.6) & same_region & (other != owner)
    if ink.parent is not None:
        # A part pairs with its sibling, never with the component it was cut from.
        near &= (ink.parent[other] != owner) & (other != ink.parent[owner])
    if ink.lined is not None:
        # A glyph offered without its line is a rank only: as a neighbour it would take
        # a suit's place (and cost time for nothing measured).
        near &= ~ink.lined[other]
    kept = np.flatnonzero(near)
    if kept.size == 0:
        return pairs
    # Nearest first within each component's neighbours (ties in window order).
    kept = kept[np.lexsort((position[kept], distance[kept], owner[kept]))]
    owners = owner[kept]
    group_start = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
    group_of = np.cumsum(np.r_[True, owners[1:] != owners[:-1]]) - 1
    rank_in_group = np.arange(len(kept)) - group_start[group_of]
    # Specks (frame scraps, a neighbour's edge) may crowd the suit out of the nearest few:
    # the nearest suit-sized neighbours are always offered too.
    sizeable = ratio[kept] >= SUIT_SIZE_RATIO
    sizeable_before = np.cumsum(sizeable) - sizeable
    sizeable_rank = sizeable_before - sizeable_before[group_start][group_of]
    nearest = rank_in_group < max_neighbours
    extra = sizeable & (sizeable_rank < SIZEABLE_NEIGHBOURS) & ~nearest
    offered_owner = owners.tolist()
    offered_other = other[kept].tolist()
    nearest_list = nearest.tolist()
    extra_list = extra.tolist()
    bounds = [*group_start.tolist(), len(kept)]
    points = centers.tolist()
    size_list = sizes.tolist()
    for g in range(len(group_start)):
        first, last = bounds[g], bounds[g + 1]
        a = offered_owner[first]
        members = range(first, last)
        candidates = [offered_other[k] for k in members if nearest_list[k]]
        candidates += [offered_other[k] for k in members if extra_list[k]]
        ax, ay = points[a]
        size_a = size_list[a]
        for b in candidates:
            bx, by = points[b]
            ox, oy = bx - ax, by - ay
            length = float(np.hypot(ox, oy))
            dx, dy = ox / length, oy / length
            pairs.append(IndexPair((a,), b, (dx, dy)))
            # "10": a second glyph of the same height beside the first, across "down".
            for c in candidates:
                if c == b:
                    continue
                cx, cy = points[c]
                sx, sy = cx - ax, cy - ay
                across = abs(sx * dy - sy * dx)
                along = abs(sx * dx + sy * dy)
                if (
                    across <= 1.1 * size_a
                    and along <= TEN_GLYPHS_LEVEL * size_a
                    and 0.75 <= size_list[c] / size_a <= 1.33
                    and across >= 0.3 * size_a
                ):
                    ex, ey = bx - (ax + cx) / 2.0, by - (ay + cy) / 2.0
                    norm = max(float(np.hypot(ex, ey)), 1e-6)
                    pairs.append(IndexPair((min(a, c), max(a, c)), b, (ex / norm, ey / norm)))
    return pairs


def component_mask(ink: Ink, components: tuple[int, ...]) -> tuple[np.ndarray, tuple[int, int]]:
    """The ink of ``components`` cut to their joint box (grown by a pixel) and the box's origin.

    Without ``ink.darkness`` the mask is binary (uint8 0/1); with it, float32 darkness on the
    components' pixels and the pixel ring around them (their anti-aliased edges).
    """
    height, width = ink.labels.shape
    if len(components) == 1:
        # (Most glyphs are one component: plain ints, no numpy calls on a single box.)
        bx, by, bw, bh = ink.boxes[components[0]].tolist()
        x0, y0 = max(bx - 1, 0), max(by - 1, 0)
        x1, y1 = min(bx + bw + 1, width), min(by + bh + 1, height)
    else:
        boxes = ink.boxes[list(components)]
        x0 = max(int(boxes[:, 0].min()) - 1, 0)
        y0 = max(int(boxes[:, 1].min()) - 1, 0)
        x1 = min(int((boxes[:, 0] + boxes[:, 2]).max()) + 1, width)
        y1 = min(int((boxes[:, 1] + boxes[:, 3]).max()) + 1, height)
    window = ink.labels[y0:y1, x0:x1]
    parts = ink.part_labels[y0:y1, x0:x1] if ink.part_labels is not None else None
    found: np.ndarray | None = None
    roots = set()
    for component in components:
        root = ink.root(component)
        source = window if root == component or parts is None else parts
        hit = source == component + 1
        found = hit if found is None else found | hit
        roots.add(root)
    mask = found.view(np.uint8) if found is not None else np.zeros(window.shape, np.uint8)
    if ink.darkness is None:
        return mask, (x0, y0)
    # The ring may not take pixels of other components, nor of other parts; a part's ring may
    # take the rest of its own component (the blur that joined it to its sibling).
    free = window == 0
    if parts is not None and roots != set(components):
        for root in roots - set(components):
            free |= window == root + 1
        free &= (parts == 0) | (mask > 0)
    ring = cv2.bitwise_or(cv2.bitwise_and(cv2.dilate(mask, _CROSS), free.view(np.uint8)), mask)
    weights = ink.darkness[y0:y1, x0:x1] * ring.astype(np.float32)
    return np.maximum(weights, mask * np.float32(GLYPH_MIN_WEIGHT)), (x0, y0)


_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
#: Pixels of a component count at least this much (darkness is thresholded above 0.56).
GLYPH_MIN_WEIGHT = 0.5
