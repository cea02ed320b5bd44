"""Scanning a photo: find every card face, read it, and judge the cards together.

``scan_image(image, game, profile)`` runs the steps of :mod:`vision.detect` and
:mod:`vision.read` on a working-resolution copy and assembles index readings into cards:

- indices inside a lone card's outline are one card (a card shows its index twice);
  its corners are the outline's;
- indices in a fan or pile are one card each, except two indices naming the same card
  whose predicted card centres coincide; corners are predicted from the index geometry;
- a calibrated deck's special cards are also found by their corner marks (Dog, Phoenix,
  Dragon in a fan), placed like their nearest neighbour's index;
- a lone card outline without a readable index is matched against the profile's
  whole-card templates (special cards, jokers); without a match it is not a card face
  (a card back, a chip, a note).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, TypeVar

import cv2
import numpy as np

from companion.cards import Card, Special, card_points, parse_cards
from vision.detect import (
    Ink,
    Regions,
    erase_width,
    index_pairs,
    ink_components,
    outline_aspect,
    paper_regions,
    side_lengths,
    well_exposed,
    white_balanced,
    working_image,
)
from vision.laid_out import laid_out_cards
from vision.profile import (
    DeckProfile,
    card_template,
    card_templates,
    deck_of,
    euclidean_distances,
    sort_reading_order,
)
from vision.read import (
    JOKER,
    IndexReading,
    MarkReading,
    fan_gap_frames,
    glyph_vector,
    quarter_turn,
    read_above_free_suits,
    read_fan_gaps,
    read_joker_words,
    read_jokers,
    read_marks,
    read_pairs,
)
from vision.words import NAME_WORD_SCORE, NameWord, find_words, ink_runs, learn_word

# Card geometry relative to the rank glyph's size L (upright frame: x right, y down, origin at
# the rank glyph's centre): a typical index sits near the top-left corner.
CARD_WIDTH_PER_GLYPH = 5.2
CARD_HEIGHT_PER_GLYPH = 7.4
INDEX_OFFSET = (0.55, 0.75)  # rank centre from the card's top-left corner, in glyph sizes
#: Two opposite indices naming one card lie at most this many card diagonals apart.
TWIN_REACH = 1.2
#: A card-shaped paper region with indices of this many different cards is a fan ...
FAN_CARDS = 3
#: ... and so is one where two different cards are each read at least this surely (one card
#: over another at the same angle, shifted a little, squares off into one card's shape).
#: (0.97 before built-in readings were blended with the context model, which takes the
#: over-sure edge off them: a clean drawn 8 of diamonds now reads 0.93; on validation
#: photos 0.9, 0.93, 0.95 and 0.97 found the same cards, but for one more Tichu card at 0.9.)
SURE_SCORE = 0.9
#: Minimum correlation for a whole-card template match.
TEMPLATE_THRESHOLD = 0.55
#: ... ahead of the best other card's by at least this much.
TEMPLATE_LEAD = 0.03
#: A card that prints an index (rank and suit), whose index, in plain view on a lone
#: card, would have been read, needs a match this sure, or one leading every other card's
#: picture by ``INDEXED_TEMPLATE_LEAD`` (a white square of a gingham cloth passed for the 9
#: of Stars at 0.64, 0.05 ahead of the next card).  (Twelve fresh calibrated decks: 9 false
#: cards fewer for 2 true ones, exact points 360 to 362 of 432; 0.8 alone, 11 fewer for 3;
#: no template for such cards, 11 fewer for 6.  The ten studied decks: 3 false fewer, none
#: lost.)
INDEXED_TEMPLATE_THRESHOLD = 0.8
INDEXED_TEMPLATE_LEAD = 0.1
#: A lone outline squeezed past a card's shape by a steep view
#: (:data:`vision.detect.FORESHORTENED_ASPECTS`) holding no reading is a card only when its
#: whole picture matches this surely and leads every other card's by this much: a cloth's
#: pale squares share its shape, and match a deck's pictures at up to 0.57.
FORESHORTENED_TEMPLATE = 0.8
FORESHORTENED_TEMPLATE_LEAD = 0.1
#: A lone outline less than this many times longer than wide (a card's least) is squeezed by
#: the view; where no picture names it the usual way, it may be a card lying lengthwise
#: along a steep view, squeezed shorter than it is wide: its picture is also taken the other
#: way round (:func:`steep_card`).
SQUEEZED_ASPECT = 1.4
#: Two readings of one standard card closer than this many card heights are one card.
REPEAT_REACH = 1.3


@dataclass(frozen=True)
class FoundCard:
    """A card face found in a photo: what it is, how sure, and its (4, 2) float32 corners
    (TL, TR, BR, BL as the card reads upright) in the photo's pixels."""

    card: Card
    confidence: float
    corners: np.ndarray

    def to_json(self) -> dict[str, Any]:
        return {
            "card": str(self.card),
            "confidence": round(float(self.confidence), 3),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
        }


@dataclass
class ScanResult:
    """The cards found in one photo, for ``game``, and the time it took (milliseconds)."""

    cards: list[FoundCard]
    game: str = "tichu"
    ms: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def combination(self) -> dict[str, Any] | None:
        """The Tichu reading of all the cards together (None when none, or for other games)."""
        if self.game != "tichu" or not self.cards:
            return None
        from companion.tichu.combinations import classify

        found = classify(card.card for card in self.cards)
        return None if found is None else dict(found.to_json())

    def points(self) -> int:
        return card_points(card.card for card in self.cards)

    def scaled(self, factor: float) -> ScanResult:
        """The same result with every corner times ``factor`` (from a photo decoded at a
        reduced size back to the file's own pixels: :class:`vision.io.Photo`).

        >>> found = FoundCard(Card.parse("Kj"), 0.9, np.array([[1, 2], [3, 2], [3, 6], [1, 6]], np.float32))
        >>> ScanResult([found]).scaled(2.0).cards[0].corners[2].tolist()
        [6.0, 12.0]
        """
        factor32 = np.float32(factor)
        return replace(self, cards=[replace(card, corners=card.corners * factor32) for card in self.cards])

    def to_json(self, image_name: str) -> dict[str, Any]:
        """The line of ``trickmate scan`` for this image (CONTRACTS section 4)."""
        return {
            "image": image_name,
            "cards": [card.to_json() for card in self.cards],
            "combination": self.combination(),
            "points": self.points(),
            "ms": round(self.ms, 1),
        }


def _frame(down: tuple[float, float]) -> np.ndarray:
    """(2, 2) matrix whose rows are the upright frame's x ("right") and y ("down") axes."""
    dx, dy = down
    return np.array([[dy, -dx], [dx, dy]], np.float64)


def _box_in_frame(left: float, top: float, right: float, bottom: float, frame: np.ndarray) -> np.ndarray:
    """(4, 2) float32 TL, TR, BR, BL of the box ``left`` to ``right``, ``top`` to ``bottom`` in
    the upright ``frame`` (:func:`_frame`), in image coordinates.

    >>> _box_in_frame(0.0, 0.0, 2.0, 3.0, _frame((1.0, 0.0))).tolist()  # "down" to the right
    [[0.0, 0.0], [0.0, -2.0], [3.0, -2.0], [3.0, 0.0]]
    """
    local = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float64)
    return np.asarray(local @ frame, dtype=np.float32)


def order_corners(quad: np.ndarray, down: tuple[float, float]) -> np.ndarray:
    """Order a (4, 2) outline as TL, TR, BR, BL of the card seen with ``down`` as down.

    >>> quad = np.array([[10, 10], [10, 50], [40, 50], [40, 10]], np.float32)
    >>> order_corners(quad, (0.0, 1.0)).tolist()
    [[10.0, 10.0], [40.0, 10.0], [40.0, 50.0], [10.0, 50.0]]
    >>> order_corners(quad, (0.0, -1.0))[0].tolist()
    [40.0, 50.0]
    """
    points = np.asarray(quad, np.float64)
    local = (points - points.mean(axis=0)) @ _frame(down).T
    angles = np.arctan2(local[:, 1], local[:, 0])
    ordered = points[np.argsort(angles)]  # clockwise on screen, starting near "left"
    local_ordered = (ordered - points.mean(axis=0)) @ _frame(down).T
    start = int(np.argmin(local_ordered[:, 0] + local_ordered[:, 1]))
    return np.asarray(np.roll(ordered, -start, axis=0), dtype=np.float32)


def template_card(profile: DeckProfile, template: np.ndarray, game: str) -> tuple[Card, float] | None:
    """The card a lone outline's :func:`vision.profile.card_template` shows, by the profile's
    whole-card templates, and the match's correlation; None when no card matches surely
    (:data:`TEMPLATE_THRESHOLD`, :data:`TEMPLATE_LEAD`, and for a card that prints an index
    :data:`INDEXED_TEMPLATE_THRESHOLD` or :data:`INDEXED_TEMPLATE_LEAD`)."""
    name, score, lead = profile.match_template(template)
    if name is None or score < TEMPLATE_THRESHOLD or lead < TEMPLATE_LEAD:
        return None
    card = parse_cards(name, deck_of(game))[0]
    if card.rank is not None and score < INDEXED_TEMPLATE_THRESHOLD and lead < INDEXED_TEMPLATE_LEAD:
        return None
    return card, score


def steep_card(profile: DeckProfile, pictures: list[np.ndarray], game: str) -> tuple[Card, float] | None:
    """The card a lone outline seen steeply shows, by the profile's whole-card templates
    matched with its ``pictures`` (:func:`vision.profile.card_templates`, taken either way
    round), and the match's correlation: only a sure match (:data:`FORESHORTENED_TEMPLATE`,
    :data:`FORESHORTENED_TEMPLATE_LEAD`) counts, since a cloth's pale squares share the
    outline's shape; None when there is none."""
    best: tuple[Card, float] | None = None
    for picture in pictures:
        name, score, lead = profile.match_template(picture)
        if name is None or score < FORESHORTENED_TEMPLATE or lead < FORESHORTENED_TEMPLATE_LEAD:
            continue
        if best is None or score > best[1]:
            best = (parse_cards(name, deck_of(game))[0], score)
    return best


#: A lone outline less than this share of which is anything but paper shows nothing that
#: could name a card (a cloth's pale square: at most 0.014 on the 33 calibrated decks; cards
#: 0.05 and more).
BLANK_OUTLINE = 0.02


def _blank(paper: np.ndarray, quad: np.ndarray) -> bool:
    """True when less than :data:`BLANK_OUTLINE` of the (4, 2) outline ``quad`` is off the
    (H, W) uint8 ``paper`` mask (255).

    >>> paper = np.full((50, 50), 255, np.uint8)
    >>> quad = np.array([[10, 10], [40, 10], [40, 40], [10, 40]], np.float32)
    >>> _blank(paper, quad)
    True
    >>> paper[20:30, 20:30] = 0  # a picture
    >>> _blank(paper, quad)
    False
    """
    height, width = paper.shape
    x0, y0 = max(int(np.floor(quad[:, 0].min())), 0), max(int(np.floor(quad[:, 1].min())), 0)
    x1 = min(int(np.ceil(quad[:, 0].max())) + 1, width)
    y1 = min(int(np.ceil(quad[:, 1].max())) + 1, height)
    if x1 <= x0 or y1 <= y0:
        return True
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [np.round(quad - [x0, y0]).astype(np.int32)], 1)
    return float((paper[y0:y1, x0:x1][inside > 0] == 0).mean()) < BLANK_OUTLINE


#: A lone card whose whole-card picture names another card than its indices read, this
#: surely and this far ahead of every other card's picture, is the picture's card: its index
#: was misread.  (Twenty-sixth session, the 33 calibrated decks: of 415 lone outlines read
#: from their indices that matched a picture so surely, 414 matched their own card's; the
#: other was an 8 of Swords read as the 8 of Pagodas at 0.83 and 0.70, which its picture put
#: right.)  Only a card none of whose indices read surely is compared.
PICTURE_OVERRULES = 0.9
PICTURE_OVERRULES_LEAD = 0.3


def picture_overruling(profile: DeckProfile, template: np.ndarray, card: Card, game: str) -> Card:
    """``card``, read from a lone outline's indices, or the card its whole-card picture
    (:func:`vision.profile.card_template`) matches by :data:`PICTURE_OVERRULES` and
    :data:`PICTURE_OVERRULES_LEAD`.

    >>> from vision.profile import TEMPLATE_SIZE
    >>> rng = np.random.default_rng(1)
    >>> def picture() -> np.ndarray:
    ...     values = rng.normal(size=(TEMPLATE_SIZE[1], TEMPLATE_SIZE[0], 3)).astype(np.float32)
    ...     return values / np.linalg.norm(values)
    >>> swords, pagodas = picture(), picture()
    >>> profile = DeckProfile("tichu", templates={"8s": swords, "8p": pagodas})
    >>> eight_of_pagodas = parse_cards("8p", deck_of("tichu"))[0]
    >>> str(picture_overruling(profile, swords, eight_of_pagodas, "tichu"))
    '8s'
    >>> blurred = swords + 0.9 * pagodas  # near both: the index decides
    >>> str(picture_overruling(profile, blurred / np.linalg.norm(blurred), eight_of_pagodas, "tichu"))
    '8p'
    """
    name, score, lead = profile.match_template(template)
    if name is None or score < PICTURE_OVERRULES or lead < PICTURE_OVERRULES_LEAD:
        return card
    return parse_cards(name, deck_of(game))[0]


def predicted_card(reading: IndexReading, top_right: bool = False) -> np.ndarray:
    """(4, 2) TL, TR, BR, BL of the whole card an index corner belongs to (working pixels):
    its top-left index, or with ``top_right`` its top-right one (decks printing three or
    four indices), whose card lies to its left."""
    size = reading.size
    left = -INDEX_OFFSET[0] * size
    if top_right:
        left = INDEX_OFFSET[0] * size - CARD_WIDTH_PER_GLYPH * size
    top = -INDEX_OFFSET[1] * size
    right = left + CARD_WIDTH_PER_GLYPH * size
    bottom = top + CARD_HEIGHT_PER_GLYPH * size
    world = _box_in_frame(left, top, right, bottom, _frame(reading.pair.down)) + np.asarray(reading.center)
    return np.asarray(world, dtype=np.float32)


#: A standard index is taken for a top-right one (its card lying to its left) when, level
#: with its rank and suit, paper runs along at least the first share of the 2.5 glyph sizes
#: to its left and at most the second share of those to its right: a top-left index has its
#: card's edge just left of it and its card to the right.  On held-out-family validation
#: photos, 76 of 172 top-right indices read and 3 of 1,348 top-left ones pass.
TOP_RIGHT_PAPER = (0.9, 0.3)
#: ... paper being within this share of the brightness of the paper around the index.
PAPER_TOLERANCE = 0.15


def _beside_index(
    image: np.ndarray,
    center: tuple[float, float],
    down: tuple[float, float],
    size: float,
    interpolation: int = cv2.INTER_LINEAR,
) -> tuple[np.ndarray, np.ndarray]:
    """(K,) offsets across (glyph sizes to the right, -3 to 3) and the (L, K) samples of the
    (H, W) ``image`` there, level with the rank and suit (L offsets along ``down``) of the
    index at ``center`` (rank centre) with glyph ``size``."""
    right, downward = _frame(down)
    across = np.arange(-3.0, 3.01, 0.1)  # glyph sizes to the right
    along = np.arange(-0.6, 2.21, 0.2)  # from the rank's top to below its suit
    xs = center[0] + (across[None, :] * right[0] + along[:, None] * downward[0]) * size
    ys = center[1] + (across[None, :] * right[1] + along[:, None] * downward[1]) * size
    values = cv2.remap(
        image, xs.astype(np.float32), ys.astype(np.float32), interpolation, borderMode=cv2.BORDER_CONSTANT
    )
    return across, values


def paper_sides(
    gray: np.ndarray, center: tuple[float, float], down: tuple[float, float], size: float
) -> tuple[float, float]:
    """The shares of the 2.5 glyph sizes to the left and to the right of the index at
    ``center`` (rank centre), facing ``down``, with glyph ``size``, in the (H, W) float32 grey
    working image ``gray``, along which paper runs level with its rank and suit (paper: within
    :data:`PAPER_TOLERANCE` of the brightness around the index).

    >>> gray = np.full((100, 200), 60, np.float32)
    >>> gray[20:90, 30:110] = 230  # a card, its index at the top right
    >>> [round(share, 2) for share in paper_sides(gray, (100.0, 30.0), (0.0, 1.0), 10.0)]
    [1.0, 0.19]
    """
    across, values = _beside_index(gray, center, down, size)
    level = np.median(values, axis=0)
    paper = float(np.percentile(values[:, np.abs(across) < 0.5], 90))
    on_paper = np.abs(level - paper) < PAPER_TOLERANCE * paper
    return float(on_paper[across <= -0.5].mean()), float(on_paper[across >= 0.5].mean())


def card_sides(
    cards: np.ndarray, center: tuple[float, float], down: tuple[float, float], size: float
) -> tuple[float, float]:
    """The shares of the (H, W) uint8 mask ``cards`` (non-zero: within a paper region's
    outline, a card's art included) beside the index at ``center``, from
    :data:`EDGE_MARGIN` to 3 glyph sizes out, to its left and to its right: little on one
    side is the table beyond its card's edge.

    >>> cards = np.zeros((100, 200), np.uint8)
    >>> cards[20:90, 30:110] = 1  # a card, its index at the top left
    >>> card_sides(cards, (40.0, 30.0), (0.0, 1.0), 10.0)
    (0.0, 1.0)
    """
    across, values = _beside_index(cards, center, down, size, cv2.INTER_NEAREST)
    inside = (values > 0).mean(axis=0)
    return float(inside[across <= -EDGE_MARGIN].mean()), float(inside[across >= EDGE_MARGIN].mean())


#: In a deck printing three or four indices, an index whose card's edge shows plainly just
#: to its right and nothing does just to its left is a top-right one, where other cards'
#: paper lies on both sides of it (a pile): across :data:`EDGE_REACH` glyph sizes each way,
#: level with its rank and suit, the steepest step in brightness (grey levels a tenth of a
#: glyph size) is at least :data:`EDGE_STEP` to its right and at most :data:`EDGE_QUIET` to
#: its left.  Measured at the readings of four decks printing three indices: of 1,036 top-left
#: indices 1 passed; of the 221 top-right ones the paper beside them did not tell, 53 did.
EDGE_REACH = (0.35, 1.2)
EDGE_STEP = 80.0
EDGE_QUIET = 20.0
#: A court card's framed portrait stands just right of its index: its frame is no card edge
#: (`ink_wash:61` photo 13's two Queens, laid a card's width off).
COURT_RANKS = ("J", "Q", "K")


def edge_right(gray: np.ndarray, center: tuple[float, float], down: tuple[float, float], size: float) -> bool:
    """True when an edge shows plainly just right of the index at ``center`` (rank centre),
    facing ``down``, with glyph ``size``, in the (H, W) float32 grey working image ``gray``,
    and nothing does just left of it (:data:`EDGE_REACH`, :data:`EDGE_STEP`, :data:`EDGE_QUIET`).

    >>> gray = np.full((100, 200), 225, np.float32)  # other cards all round
    >>> gray[20:90, 30:110] = 235  # the card, its index at the top right ...
    >>> gray[20:90, 110:112] = 60  # ... its right edge a dark seam
    >>> edge_right(gray, (100.0, 30.0), (0.0, 1.0), 10.0)
    True
    >>> edge_right(gray, (40.0, 30.0), (0.0, 1.0), 10.0)  # the top-left index
    False
    >>> gray[20:90, 88:90] = 60  # a seam left of the top-right index too
    >>> edge_right(gray, (100.0, 30.0), (0.0, 1.0), 10.0)
    False
    """
    across, values = _beside_index(gray, center, down, size)
    steps = np.abs(np.diff(values.mean(axis=0)))
    between = (across[1:] + across[:-1]) / 2
    low, high = EDGE_REACH
    left = float(steps[(between >= -high) & (between <= -low)].max())
    right = float(steps[(between >= low) & (between <= high)].max())
    return right >= EDGE_STEP and left <= EDGE_QUIET


def is_top_right(paper: tuple[float, float]) -> bool:
    """True when an index has paper to its left and not to its right (``paper``: its
    :func:`paper_sides`; see :data:`TOP_RIGHT_PAPER`): a card's top-right index.

    >>> gray = np.full((100, 200), 60, np.float32)
    >>> gray[20:90, 30:110] = 230  # a card, its index at the top right
    >>> is_top_right(paper_sides(gray, (100.0, 30.0), (0.0, 1.0), 10.0))
    True
    >>> is_top_right(paper_sides(gray, (40.0, 30.0), (0.0, 1.0), 10.0))  # the top-left index
    False
    >>> is_top_right(paper_sides(gray, (40.0, 80.0), (0.0, -1.0), 10.0))  # bottom left, turned round
    True
    """
    left, right = paper
    return left >= TOP_RIGHT_PAPER[0] and right <= TOP_RIGHT_PAPER[1]


def _corner_distance(reading: IndexReading, quad: np.ndarray) -> float:
    """How far (pixels) the index lies from the nearest corner of ``quad``."""
    return float(np.min(np.linalg.norm(quad - np.asarray(reading.center), axis=1)))


def _near_a_corner(reading: IndexReading, quad: np.ndarray) -> bool:
    """True when the index lies in a corner of the lone card ``quad`` (not among its pips)."""
    reach = 0.38 * float(side_lengths(quad).min())
    return _corner_distance(reading, quad) <= reach + reading.size


#: A card's index lies within this many of its glyph sizes of the card's corner (the widest
#: margins drawn put it about two away).
CORNER_GLYPHS = 4.0


def _at_a_corner(reading: IndexReading, quad: np.ndarray) -> bool:
    """:func:`_near_a_corner`, and near enough for the index's own size: an outline far
    larger than the card (a pale cloth or a sheet of paper joined to it) is not its card's
    even where it happens to have a corner a few glyphs away."""
    return _near_a_corner(reading, quad) and _corner_distance(reading, quad) <= CORNER_GLYPHS * reading.size


@dataclass
class _Candidate:
    card: Card
    confidence: float
    corners: np.ndarray  # working pixels
    center: np.ndarray
    height: float
    down: tuple[float, float] = (0.0, 1.0)
    index_center: tuple[float, float] = (0.0, 0.0)
    merged: bool = False  # both opposite indices found: the corners span the card
    outlined: bool = False  # a lone card's own outline: the corners are measured
    top_right: bool = False  # placed from its top-right index
    # Card outlines left and right of its index, beyond its card's margin (:func:`card_sides`);
    # unmeasured, half.
    sides: tuple[float, float] = (0.5, 0.5)

    @property
    def from_one_index(self) -> bool:
        """Placed from a single index reading (neither measured nor spanned by two)."""
        return not (self.outlined or self.merged)


def _has_sides(reading: IndexReading) -> bool:
    """True for an index of rank and suit (not a joker's word, not a special's mark), whose
    card's side :func:`paper_sides` and :func:`card_sides` tell."""
    return type(reading) is IndexReading and reading.rank != JOKER


def _is_sure(reading: IndexReading) -> bool:
    """A reading sure enough to tell a card's outline from a fan's: the index patch
    network's alone never is (a blurred K it reads as a Q would split one card in two)."""
    return reading.score >= SURE_SCORE and not reading.whole


def assemble(
    readings: list[IndexReading], regions: Regions, game: str, image: np.ndarray, profile: DeckProfile | None
) -> list[_Candidate]:
    """Group index readings into cards (see the module docstring)."""
    by_region: dict[int, list[IndexReading]] = {}
    loose: list[IndexReading] = []
    height, width = regions.labels.shape
    region_of: list[int] = []
    for reading in readings:
        x = min(max(round(reading.center[0]), 0), width - 1)
        y = min(max(round(reading.center[1]), 0), height - 1)
        region_of.append(int(regions.labels[y, x]) - 1)
    # A card-shaped region showing three different cards (or two, surely read, or two copies
    # of one side by side) is a fan squared off, not one card.
    named: dict[int, set[Card]] = {}
    sure: dict[int, set[Card]] = {}
    in_region: dict[int, list[IndexReading]] = {}
    for reading, region in zip(readings, region_of, strict=True):
        card = reading.card(game)
        named.setdefault(region, set()).add(card)
        if _is_sure(reading):
            sure.setdefault(region, set()).add(card)
        in_region.setdefault(region, []).append(reading)
    fans = {
        region for region, cards in named.items() if len(cards) >= FAN_CARDS or len(sure.get(region, ())) >= 2
    }
    if game == "standard":
        # Two copies of one card fanned together (a Shengji pair) may square off too.
        fans |= {region for region, found in in_region.items() if _has_copies(found)}
    # An outline whose sure readings all lie away from its corners is not their card's (a
    # card on a sheet of paper, or joined to one): read it like a pile, not as a lone card.
    for region, found in in_region.items():
        quad = regions.quads[region] if region >= 0 else None
        if quad is None or region in fans or any(_at_a_corner(r, quad) for r in found):
            continue
        if any(_is_sure(r) for r in found):
            fans.add(region)
    for reading, region in zip(readings, region_of, strict=True):
        quad = regions.quads[region] if region >= 0 and region not in fans else None
        if quad is not None:
            if _at_a_corner(reading, quad):
                by_region.setdefault(region, []).append(reading)
        else:
            loose.append(reading)
    candidates: list[_Candidate] = []
    for region, members in by_region.items():
        quad = regions.quads[region]
        assert quad is not None
        votes: dict[Card, list[IndexReading]] = {}
        for reading in members:
            votes.setdefault(reading.card(game), []).append(reading)
        card, agreeing = max(votes.items(), key=lambda item: sum(r.score for r in item[1]))
        confidence = 1.0 - float(np.prod([1.0 - r.score for r in agreeing]))
        confidence *= sum(r.score for r in agreeing) / sum(r.score for r in members)
        best = max(agreeing, key=lambda r: r.score)
        corners = order_corners(quad, best.pair.down)
        height = float(side_lengths(corners).max())
        # (An index read surely is not second-guessed: a picture costs a millisecond.)
        if profile is not None and profile.templates and not any(_is_sure(r) for r in agreeing):
            card = picture_overruling(profile, card_template(image, quad), card, game)
        candidates.append(_Candidate(card, confidence, corners, corners.mean(axis=0), height, outlined=True))
    # Lone cards without a readable index: whole-card templates (specials, jokers).
    if profile is not None and profile.templates:
        pictured: list[tuple[np.ndarray, tuple[Card, float] | None]] = []
        for region, quad in enumerate(regions.quads):
            if quad is None or region in by_region or region in fans:
                continue
            squeezed = outline_aspect(quad) < SQUEEZED_ASPECT
            picture, *across = card_templates(image, quad, (False, True) if squeezed else (False,))
            matched = template_card(profile, picture, game)
            pictured.append((quad, steep_card(profile, across, game) if matched is None else matched))
        # A card seen steeply, its outline squeezed past a card's shape, only by a sure picture.
        for region, quad in regions.foreshortened.items():
            if region not in in_region and not _blank(regions.paper, quad):
                pictured.append((quad, steep_card(profile, card_templates(image, quad, (False, True)), game)))
        for quad, shown in pictured:
            if shown is None:
                continue
            card, score = shown
            corners = order_corners(quad, (0.0, 1.0))
            height = float(side_lengths(corners).max())
            candidates.append(_Candidate(card, score, corners, corners.mean(axis=0), height, outlined=True))
    # Fans and piles: one card per index, merging the two indices of one card.
    # Surest first; readings as sure as each other (to 0.01: beyond that the difference is
    # noise) from the top of the photo down, so the order never hangs on rounding.
    loose.sort(key=lambda r: (-round(r.score, 2), r.center[1], r.center[0]))
    # A deck may print three or four indices: one may be its card's top-right (Tichu decks
    # too: tichu_unseen_type found one card more, no other set changed).
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32) if loose else None
    printing_more = profile is not None and profile.indices >= 3
    in_cards = (regions.labels > 0).astype(np.uint8) if loose else None
    kept: list[_Candidate] = []
    for reading in loose:
        near, sides = (0.0, 0.0), (0.5, 0.5)
        if gray is not None and in_cards is not None and _has_sides(reading):
            near = paper_sides(gray, reading.center, reading.pair.down, reading.size)
            sides = card_sides(in_cards, reading.center, reading.pair.down, reading.size)
        top_right = (
            # A deck calibration saw print two indices only has none at a card's top right.
            (profile is None or profile.indices != 2)
            # In a pile the paper left of a top-right index may be other cards' art; in a
            # deck calibration saw print three or four, the table right beside it and card
            # outlines to its left tell too, and so does its card's edge just right of it.
            and (
                is_top_right(near)
                or (
                    printing_more
                    and (
                        _table_side(sides) == -1
                        or (
                            gray is not None
                            and reading.rank not in COURT_RANKS
                            and edge_right(gray, reading.center, reading.pair.down, reading.size)
                        )
                    )
                )
            )
            # Its card's opposite index read down and to its right: a top-left index (in a
            # fan, the card beside it may pass for paper to its left).
            and not any(_spans_a_card(reading, other, game) for other in loose)
        )
        corners = predicted_card(reading, top_right)
        center = corners.mean(axis=0)
        card_height = CARD_HEIGHT_PER_GLYPH * reading.size
        card = reading.card(game)
        twin = next(
            (
                k
                for k in kept
                if k.card == card
                and _same_card(k, center, reading, card_height)
                and not (game == "standard" and _copies_side_by_side(k, reading.pair.down, reading.center))
            ),
            None,
        )
        if twin is None and not top_right and _suit_misread(kept, reading, card):
            continue
        candidate = _Candidate(
            card,
            reading.score,
            corners,
            center,
            card_height,
            reading.pair.down,
            reading.center,
            top_right=top_right,
            sides=sides,
        )
        if twin is None:
            kept.append(candidate)
        elif not (twin.merged or twin.top_right or top_right) and (edge := _one_edge(twin, candidate)):
            # Both ends of one of its long sides (a deck printing three or four indices).
            kept[kept.index(twin)] = edge
        elif not (twin.merged or twin.top_right or top_right) and _opposite(twin, reading):
            # Both indices of one card: they span the card, so they give its corners.
            twin.corners = _card_between(twin, reading)
            twin.center = twin.corners.mean(axis=0)
            twin.confidence = 1.0 - (1.0 - twin.confidence) * (1.0 - reading.score)
            twin.merged = True
    return _drop_repeats(candidates + kept, game)


#: An index read whole by the index networks (``whole``) less surely than this, lying where
#: a surer card of its rank and another suit has its opposite index, is that card's, its suit
#: misread (a Pagoda taken for a Sword), not a card of its own.  (Twenty-first session: sample
#: sets 963 found / 15 false to 963 / 13, the ten calibrated decks 1,891 / 12 to 1,891 / 11,
#: validation 2,471 / 40 to 2,471 / 39; read glyph by glyph too, or spanning the card's
#: corners with it, it cost true cards.)
MISREAD_SUIT_SURE = 0.97


def _suit_misread(kept: list[_Candidate], reading: IndexReading, card: Card) -> bool:
    """True when ``reading`` (naming ``card``) is an index the networks read whole, not
    surely, at the opposite index of a ``kept`` card of the same rank and another suit.

    >>> from vision.detect import IndexPair
    >>> five = Card.parse("5p")
    >>> kept = _Candidate(five, 0.99, np.zeros((4, 2)), np.zeros(2), 74.0, (0.0, 1.0), (100.0, 100.0))
    >>> def other(suit: str, score: float, whole: bool, at: tuple[float, float]) -> IndexReading:
    ...     return IndexReading(IndexPair((0,), 1, (0.0, -1.0)), "5", suit, score, at, 10.0, whole=whole)
    >>> _suit_misread([kept], other("sword", 0.95, True, (141.0, 159.0)), Card.parse("5s"))
    True
    >>> _suit_misread([kept], other("sword", 0.95, False, (141.0, 159.0)), Card.parse("5s"))  # glyph by glyph
    False
    >>> _suit_misread([kept], other("sword", 0.95, True, (300.0, 100.0)), Card.parse("5s"))  # another card's
    False
    """
    if not reading.whole or reading.score >= MISREAD_SUIT_SURE or card.rank is None:
        return False
    return any(
        k.card.rank == card.rank
        and k.card != card
        and not (k.merged or k.top_right)
        and _opposite(k, reading)
        for k in kept
    )


def _drop_repeats(candidates: list[_Candidate], game: str) -> list[_Candidate]:
    """One candidate per card: a Tichu deck holds each card once, so two candidates naming
    one card are one card (seen at two indices the twin test could not pair, under steep
    perspective or in a tight fan).  Standard decks may be doubled (Shengji), so there only
    repeats within ``REPEAT_REACH`` card heights are one card, and two copies side by side
    (:func:`_copies_side_by_side`) or with other cards between them
    (:func:`_copies_with_cards_between`) are two.  The best-placed is kept: a
    measured outline, then two merged indices, then the surer reading."""
    ranked = sorted(
        range(len(candidates)),
        key=lambda i: (not candidates[i].outlined, not candidates[i].merged, -candidates[i].confidence),
    )
    kept: list[int] = []
    for i in ranked:
        candidate = candidates[i]
        twin = next((k for k in kept if _one_card(candidates[k], candidate, game, candidates)), None)
        if twin is None:
            kept.append(i)
        elif (edge := _one_edge(candidates[twin], candidate)) is not None:
            candidates[twin] = edge
        elif _left_of(candidate, candidates[twin]):
            # A four-index card read at both top corners: it is placed from its top-left
            # index (placed from the top-right one, it lands a card's width to the right).
            surest = max(candidate.confidence, candidates[twin].confidence)
            candidates[twin] = replace(candidate, confidence=surest)
    return [candidates[i] for i in sorted(kept)]


#: Two indices of one card facing opposite ways, each straight along the other's "down",
#: this many glyph sizes apart (at most ``EDGE_ACROSS`` across), are the two ends of one of
#: its long sides (decks printing three or four indices: top right and bottom right, or top
#: left and bottom left).  Drawn, they lie 5.9 apart (glyph-size-sized cards).
EDGE_ALONG = (3.5, 14.0)
EDGE_ACROSS = 1.0
#: An index with at most the first share of card outlines on one side (the table: its
#: card's edge) and at least the second on the other has its card on the other side ...
EDGE_TABLE = (0.15, 0.7)
#: ... measured from this many glyph sizes out (the card's margin beside its index is its own).
EDGE_MARGIN = 1.2


def _table_side(sides: tuple[float, float]) -> int:
    """1 when the table lies just left of an index and card outlines to its right (its
    :func:`card_sides`: its card lies to the right, a top-left index), -1 when the other way
    round, else 0.

    >>> _table_side((0.05, 0.9)), _table_side((0.9, 0.05)), _table_side((0.4, 0.9))
    (1, -1, 0)
    """
    left, right = sides
    if left <= EDGE_TABLE[0] and right >= EDGE_TABLE[1]:
        return 1
    if right <= EDGE_TABLE[0] and left >= EDGE_TABLE[1]:
        return -1
    return 0


def _one_edge(kept: _Candidate, candidate: _Candidate) -> _Candidate | None:
    """The card ``kept`` and ``candidate`` (one card, each placed from one index) span when
    their indices are the two ends of one long side (:data:`EDGE_ALONG`) and the table
    beside one of them tells on which side of it the card lies (:func:`_table_side`); else
    None.

    Each is placed as if its index were a top-left one, so one of them lies a card's width
    to the wrong side (merged as opposite corners, the two made a card no wider than a
    glyph).

    >>> from companion.cards import Deck
    >>> def placed(x: float, y: float, down: tuple[float, float], sides: tuple[float, float]) -> _Candidate:
    ...     return _Candidate(Card.parse("2d", Deck.STANDARD), 0.9, np.zeros((4, 2), np.float32),
    ...                       np.zeros(2), 74.0, down, (x, y), sides=sides)
    >>> top_right = placed(100.0, 100.0, (0.0, 1.0), (1.0, 0.6))  # another card to its right
    >>> bottom_right = placed(100.0, 160.0, (0.0, -1.0), (0.0, 1.0))  # the table to its left
    >>> card = _one_edge(top_right, bottom_right)
    >>> card.merged, [round(float(v)) for v in card.center]  # left of the right-hand side
    (True, [80, 130])
    >>> _one_edge(top_right, placed(130.0, 160.0, (0.0, -1.0), (0.0, 1.0))) is None  # 3 across
    True
    >>> _one_edge(top_right, placed(100.0, 160.0, (0.0, -1.0), (0.3, 1.0))) is None  # no table
    True
    """
    if not (kept.from_one_index and candidate.from_one_index):
        return None
    offset = _index_offset(kept.down, kept.index_center, candidate.down, candidate.index_center, turned=True)
    if offset is None:
        return None
    across, along = offset
    size = max(kept.height, candidate.height) / CARD_HEIGHT_PER_GLYPH
    if not (EDGE_ALONG[0] * size <= along <= EDGE_ALONG[1] * size and abs(across) <= EDGE_ACROSS * size):
        return None
    # The table right beside one of them tells the side; paper alone does not (in a pile
    # another card's paper lies beyond the card's edge, and its own art within it).
    vote = _table_side(kept.sides) - _table_side(candidate.sides)
    if vote == 0:
        return None
    first = kept if vote > 0 else candidate
    other = candidate if first is kept else kept
    frame = _frame(first.down)
    start = frame @ np.asarray(first.index_center)
    end = frame @ np.asarray(other.index_center)
    left, top = start - np.asarray(INDEX_OFFSET) * size
    bottom = end[1] + INDEX_OFFSET[1] * size
    right = left + CARD_WIDTH_PER_GLYPH * size
    corners = _box_in_frame(left, top, right, bottom, frame)
    confidence = 1.0 - (1.0 - kept.confidence) * (1.0 - candidate.confidence)
    return replace(first, corners=corners, center=corners.mean(axis=0), confidence=confidence, merged=True)


#: A card's two top indices lie at most this many glyph sizes apart: one and a half times
#: the card width assumed in placing (decks with small indices print wider cards, 7 glyph
#: sizes and more on validation photos).
TOP_CORNERS_APART = 1.5 * CARD_WIDTH_PER_GLYPH


def _left_of(candidate: _Candidate, kept: _Candidate) -> bool:
    """True when ``candidate`` and ``kept``, both placed from one index facing the same way,
    were read at one card's two top corners and ``candidate``'s is the top-left one.

    >>> from companion.cards import Deck
    >>> def placed_at(x: float) -> _Candidate:
    ...     return _Candidate(Card.parse("7h", Deck.STANDARD), 0.9, np.zeros((4, 2), np.float32),
    ...                       np.zeros(2), 148.0, (0.0, 1.0), (x, 100.0))
    >>> _left_of(placed_at(100.0), placed_at(182.0)), _left_of(placed_at(182.0), placed_at(100.0))
    (True, False)
    >>> _left_of(placed_at(100.0), replace(placed_at(182.0), down=(0.0, -1.0)))  # facing away
    False
    >>> _left_of(placed_at(100.0), placed_at(240.0))  # small indices: 7 glyph sizes apart
    True
    >>> _left_of(placed_at(100.0), placed_at(280.0))  # 9 apart: another card's
    False
    """
    if not (candidate.from_one_index and kept.from_one_index):
        return False
    offset = _index_offset(kept.down, kept.index_center, candidate.down, candidate.index_center)
    if offset is None:
        return False
    across, along = offset
    size = kept.height / CARD_HEIGHT_PER_GLYPH
    return across < 0 and abs(along) < 0.5 * abs(across) and abs(across) <= TOP_CORNERS_APART * size


#: Another card's index lies between two indices when it is this many glyph sizes or less
#: from the line joining them (and not beside either end).
BETWEEN_REACH = 0.8


def _copies_with_cards_between(first: _Candidate, second: _Candidate, candidates: list[_Candidate]) -> bool:
    """True when another card's index lies between the indices of two index-placed copies of
    one card: two copies fanned with other cards between them (Shengji's two decks), not one
    card read at two of its own indices (no card shows another card's index between them)."""
    if not (first.from_one_index and second.from_one_index):
        return False
    start, end = np.asarray(first.index_center), np.asarray(second.index_center)
    span = end - start
    length = float(np.linalg.norm(span))
    if length == 0.0:
        return False
    size = first.height / CARD_HEIGHT_PER_GLYPH
    for other in candidates:
        if other.card == first.card or other.outlined:
            continue
        offset = np.asarray(other.index_center) - start
        along = float(offset @ span) / length
        across = abs(float(offset[0] * span[1] - offset[1] * span[0])) / length
        if 0.5 * size < along < length - 0.5 * size and across < BETWEEN_REACH * size:
            return True
    return False


#: Two indices naming one card and facing the same way, at least the first and at most the
#: second number of glyph sizes apart across the card, are two copies of it fanned together
#: (a Shengji pair), not one card read twice: a card's own indices face opposite ways, and a
#: four-index deck's same-edge twin lies a card's width away (three glyph sizes or more, even
#: with large indices).
PAIR_SPACING = (0.8, 2.5)


#: Two candidates naming one standard card placed this much smaller than the other (a
#: share of its height) are one card, wherever they lie within ``REPEAT_REACH``.
COPY_HEIGHTS = 0.75


def _one_card(kept: _Candidate, candidate: _Candidate, game: str, candidates: list[_Candidate]) -> bool:
    """True when ``candidate`` repeats ``kept``'s card (see :func:`_drop_repeats`); the other
    ``candidates`` may show an index between two copies."""
    if kept.card != candidate.card:
        return False
    if game == "tichu":
        return True
    reach = REPEAT_REACH * max(kept.height, candidate.height)
    if float(np.linalg.norm(kept.center - candidate.center)) >= reach:
        return False
    if candidate.outlined:
        return True
    # Two copies of one deck's card are printed alike: placed from indices, they come out
    # about as tall.  One far smaller is the same card placed from a part of its index
    # (a joker's word read without its first letters), however it lies.
    if min(kept.height, candidate.height) < COPY_HEIGHTS * max(kept.height, candidate.height):
        return True
    return not (
        _copies_side_by_side(kept, candidate.down, candidate.index_center)
        or _copies_with_cards_between(kept, candidate, candidates)
    )


def _copies_side_by_side(
    kept: _Candidate, down: tuple[float, float], index_center: tuple[float, float]
) -> bool:
    """True when an index facing ``down`` at ``index_center`` and ``kept``'s index (a fan or pile
    card's, not a lone outline's) are two copies of one card fanned together.

    >>> from companion.cards import Deck
    >>> def kept_at(x: float) -> _Candidate:
    ...     return _Candidate(Card.parse("7h", Deck.STANDARD), 0.9, np.zeros((4, 2), np.float32),
    ...                       np.zeros(2), 148.0, (0.0, 1.0), (x, 100.0))
    >>> _copies_side_by_side(kept_at(100.0), (0.0, 1.0), (140.0, 104.0))  # the next card
    True
    >>> _copies_side_by_side(kept_at(100.0), (0.0, 1.0), (103.0, 100.0))  # the same index
    False
    >>> _copies_side_by_side(kept_at(100.0), (0.0, 1.0), (101.0, 125.0))  # the same, a letter down
    False
    >>> _copies_side_by_side(kept_at(100.0), (0.0, -1.0), (140.0, 104.0))  # facing away
    False
    """
    if kept.outlined:
        return False
    size = kept.height / CARD_HEIGHT_PER_GLYPH
    return _indices_side_by_side(kept.down, kept.index_center, size, down, index_center)


def _index_offset(
    down: tuple[float, float],
    center: tuple[float, float],
    other_down: tuple[float, float],
    other_center: tuple[float, float],
    turned: bool = False,
) -> tuple[float, float] | None:
    """Where another index lies from an index facing ``down`` at ``center``, as (across,
    along) in that index's upright frame, when both face the same way (or, ``turned``,
    opposite ways: the other half turned); else None.

    >>> _index_offset((0.0, 1.0), (100.0, 100.0), (0.0, 1.0), (140.0, 104.0))
    (40.0, 4.0)
    >>> _index_offset((0.0, 1.0), (100.0, 100.0), (0.0, -1.0), (140.0, 104.0)) is None
    True
    >>> _index_offset((0.0, 1.0), (100.0, 100.0), (0.0, -1.0), (140.0, 104.0), turned=True)
    (40.0, 4.0)
    """
    facing = down[0] * other_down[0] + down[1] * other_down[1]
    if (facing > -0.5) if turned else (facing < 0.8):
        return None
    across, along = (float(v) for v in _frame(down) @ (np.asarray(other_center) - np.asarray(center)))
    return across, along


def _indices_side_by_side(
    down: tuple[float, float],
    center: tuple[float, float],
    size: float,
    other_down: tuple[float, float],
    other_center: tuple[float, float],
) -> bool:
    """True when two indices (directions and centres; glyph ``size``) face the same way and lie
    ``PAIR_SPACING`` apart across the card: two copies of a card fanned together."""
    offset = _index_offset(down, center, other_down, other_center)
    if offset is None:
        return False
    across, along = offset
    # (Across, not merely apart: a JOKER read from its letters and again as a word is one
    # index, its two readings' centres a letter apart along its down.)
    return PAIR_SPACING[0] * size <= abs(across) <= PAIR_SPACING[1] * size and abs(along) <= 2 * size


def _has_copies(readings: list[IndexReading]) -> bool:
    """True when two of ``readings`` name one card from indices side by side (a Shengji pair)."""
    by_card: dict[Card, list[IndexReading]] = {}
    for reading in readings:
        by_card.setdefault(reading.card("standard"), []).append(reading)
    return any(
        _indices_side_by_side(a.pair.down, a.center, a.size, b.pair.down, b.center)
        for same in by_card.values()
        for k, a in enumerate(same)
        for b in same[k + 1 :]
    )


def _opposite(kept: _Candidate, reading: IndexReading) -> bool:
    """True when ``reading`` sits where ``kept``'s card has its opposite, half-turned index."""
    offset = _index_offset(kept.down, kept.index_center, reading.pair.down, reading.center, turned=True)
    if offset is None:
        return False
    x, y = offset
    size = max(reading.size, 1.0)
    if _down_right(x, y, 40 * size):
        return True
    # An index with its suit beside the rank has "down" across the card: the opposite index
    # is then anywhere within a card's diagonal, facing the other way.
    return bool(np.hypot(x, y) < TWIN_REACH * np.hypot(CARD_WIDTH_PER_GLYPH, CARD_HEIGHT_PER_GLYPH) * size)


def _spans_a_card(reading: IndexReading, other: IndexReading, game: str, reach: float = TWIN_REACH) -> bool:
    """True when ``other`` names ``reading``'s card and sits where that card's opposite,
    half-turned index lies if ``reading`` is its top-left one: down and to the right, about
    a card's diagonal away (less than ``reach`` times the diagonal its glyph size predicts).

    >>> from vision.detect import IndexPair
    >>> def seven(x: float, y: float, down: tuple[float, float]) -> IndexReading:
    ...     return IndexReading(IndexPair((0,), 1, down), "7", "hearts", 0.9, (x, y), 10.0)
    >>> top_left = seven(100.0, 100.0, (0.0, 1.0))
    >>> _spans_a_card(top_left, seven(141.0, 159.0, (0.0, -1.0)), "standard")
    True
    >>> _spans_a_card(top_left, seven(59.0, 159.0, (0.0, -1.0)), "standard")  # down and left
    False
    >>> _spans_a_card(top_left, seven(141.0, 159.0, (0.0, 1.0)), "standard")  # facing the same way
    False
    """
    if other is reading or other.card(game) != reading.card(game):
        return False
    offset = _index_offset(reading.pair.down, reading.center, other.pair.down, other.center, turned=True)
    if offset is None:
        return False
    diagonal = float(np.hypot(CARD_WIDTH_PER_GLYPH, CARD_HEIGHT_PER_GLYPH)) * max(reading.size, 1.0)
    return _down_right(*offset, reach * diagonal)


def _down_right(x: float, y: float, reach: float) -> bool:
    """True when the offset (x, y) of an upright frame points down and to the right, as from a
    card's top-left index to its bottom-right one, less than ``reach`` away."""
    return bool(x > 0 and y > 0 and 0.9 <= y / x <= 2.8 and np.hypot(x, y) < reach)


def _same_card(kept: _Candidate, center: np.ndarray, reading: IndexReading, card_height: float) -> bool:
    """True when ``reading`` is another index of the card ``kept``: the same place, or the
    opposite corner (turned half round, down and to the right of it)."""
    if float(np.linalg.norm(kept.center - center)) < 0.3 * card_height:
        return True
    return _opposite(kept, reading)


def _card_between(kept: _Candidate, reading: IndexReading) -> np.ndarray:
    """(4, 2) TL, TR, BR, BL of the card whose two opposite indices are ``kept`` and ``reading``."""
    frame = _frame(kept.down)
    start = frame @ np.asarray(kept.index_center)
    end = frame @ np.asarray(reading.center)
    size = (kept.height / CARD_HEIGHT_PER_GLYPH + reading.size) / 2.0
    left, top = start - np.asarray(INDEX_OFFSET) * size
    right, bottom = end + np.asarray(INDEX_OFFSET) * size
    return _box_in_frame(left, top, right, bottom, frame)


def prepared_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """A BGR photo as every scan and calibration step reads it: at the working size
    (:func:`working_image`, whose scale it returns too), brightened when underexposed and
    white-balanced under a strong lamp."""
    small, scale = working_image(image)
    return white_balanced(well_exposed(small)), scale


def find_cards(
    image: np.ndarray, game: str = "tichu", profile: DeckProfile | None = None
) -> tuple[list[FoundCard], dict[str, Any]]:
    """The card faces in a BGR (H, W, 3) uint8 photo and some working data for callers."""
    small, scale = prepared_image(image)
    regions = paper_regions(small)
    ink = ink_components(small, regions, line_width=erase_width(game))
    pairs = index_pairs(ink)
    whole = [p for p in pairs if ink.is_whole(p)]
    readings: list[IndexReading] = []
    letters: set[int] = set()
    if game == "standard":
        # Jokers spelt in separate letters, then in letters run together.
        readings, letters = read_jokers(ink, whole, small)
        words, joined = read_joker_words(ink, small, letters)
        readings += words
        letters |= joined
    # A joker's letters are no other card's rank or suit.
    pairs = [p for p in pairs if not (ink.pair_ink(p) & letters)]
    readings += read_pairs(ink, pairs, game, profile, small)
    readings = _without_specks(readings)
    if game == "tichu":
        # A mark where a fan's unread index must lie may read a little less surely.
        frames = fan_gap_frames(ink, readings) if profile is not None else None
        marks = [
            _facing_paper(mark, regions.paper, small, ink)
            for mark in read_marks(ink, readings, profile, small, frames)
        ]
        readings += [mark for mark in marks if not _amid_a_read_card(mark, readings, game)]
    readings += read_fan_gaps(ink, readings, game)
    if profile is not None:
        # (Without a profile it found 2 more of 60 Tichu validation photos' 363 cards, and
        # no standard card more, for 6% more time: see docs/scanner.md.)
        readings += read_above_free_suits(ink, readings, regions.labels, game, small, profile.colours)
    if game == "tichu" and profile is not None:
        readings = _mahjongs_read_whole(ink, readings, profile)
    candidates = assemble(readings, regions, game, small, profile)
    if profile is not None and profile.words:
        candidates += _named_cards(ink, profile, candidates, game)
    cards = [
        FoundCard(
            card=c.card,
            confidence=min(1.0, max(0.0, c.confidence)),
            corners=(c.corners * scale).astype(np.float32),
        )
        for c in candidates
    ]
    return cards, {"regions": regions, "ink": ink, "readings": readings, "scale": scale, "small": small}


#: A special placed from a single corner mark lying on the card a run of ink matching its
#: name this well belongs to is moved onto that card (two cues agree, so less than
#: :data:`vision.words.NAME_WORD_SCORE` will do: `mountain:92` photo 14's Phoenix, its name
#: at 0.65; nothing else changed on the decks printing names).
NAME_WORD_MOVES = 0.6


def _named_cards(ink: Ink, profile: DeckProfile, candidates: list[_Candidate], game: str) -> list[_Candidate]:
    """The special cards whose learnt name word shows in the photo (:func:`vision.words.find_words`)
    and that no other reading found (a deck prints one of each).  A special already placed
    from a single corner mark whose mark lies on the word's card is moved onto that card
    (:data:`NAME_WORD_MOVES`): the word tells which way the card lies, the mark alone may not."""
    named = []
    placed = {c.card: c for c in candidates}
    for word in find_words(ink, profile.words, NAME_WORD_MOVES):
        card = parse_cards(word.name, deck_of(game))[0]
        height = float(side_lengths(word.corners).max())
        other = placed.get(card)
        if other is not None:
            outline = word.corners.reshape(-1, 1, 2)
            mark = (float(other.index_center[0]), float(other.index_center[1]))
            if other.from_one_index and cv2.pointPolygonTest(outline, mark, False) >= 0:
                other.corners, other.center, other.height = word.corners, word.corners.mean(axis=0), height
            continue
        if word.score < NAME_WORD_SCORE:
            continue
        placed[card] = _Candidate(
            card, word.score, word.corners, word.corners.mean(axis=0), height, outlined=True
        )
        named.append(placed[card])
    return named


#: The readings the index networks, which never learnt the Mahjong's "1", give its index: a J
#: or a 2 of Stars (the Mahjong's own mark may pass for a star).
MAHJONG_READ_WHOLE_AS = (("J", "star"), ("2", "star"))


def _mahjongs_read_whole(ink: Ink, readings: list[IndexReading], profile: DeckProfile) -> list[IndexReading]:
    """``readings`` with each one the index networks read whole as a J or a 2 of Stars
    (:data:`MAHJONG_READ_WHOLE_AS`) read as the Mahjong instead where its rank glyph lies
    nearer the deck's own "1" (learnt by calibration) than that rank's exemplars.  (Twelve
    fresh calibrated decks: 4 cards more and 4 false ones fewer; dropping such readings
    instead lost one card; comparing every rank read whole with the "1" lost 30 cards.)"""
    labels = np.array(profile.labels)
    ones = labels == "1"
    if not ones.any():
        return readings
    read: list[IndexReading] = []
    for reading in readings:
        own = labels == reading.rank
        if not reading.whole or (reading.rank, reading.suit) not in MAHJONG_READ_WHOLE_AS or not own.any():
            read.append(reading)
            continue
        vector = glyph_vector(ink, reading.pair.rank, reading.pair.down)[None]
        distance = euclidean_distances(vector, profile.exemplars)[0]
        nearer_one = float(distance[ones].min()) < float(distance[own].min())
        read.append(replace(reading, rank="1") if nearer_one else reading)
    return read


#: A reading less sure than ``SURE_SCORE`` whose rank is smaller than this share of the
#: photo's surely read ranks is specks (a card back's pattern, a scrap of art), not an index.
SPECK_SIZE = 0.55
#: ... judged only when at least this many ranks are read surely.
SPECK_REFERENCES = 3


#: A special's mark lying this many glyph sizes inside the card between two opposite, surely
#: read indices of one card, where the special's own card, as it lies, would hide one of
#: those indices, or in that card's middle (this share of its width and height each way
#: from its centre), is that card's own art: a Star card's central star, a blob of art the
#: shape of a deck's Dragon mark.  (A special lying across a card whose two indices show may
#: have its mark on that card: its card then hides neither.)
AMID_MARGIN = 0.5
AMID_MIDDLE = 0.25


def _amid_a_read_card(mark: IndexReading, readings: list[IndexReading], game: str) -> bool:
    """True when ``mark`` lies within a card whose two opposite indices are both read surely
    (:func:`_spans_a_card`), :data:`AMID_MARGIN` glyph sizes inside its outline, in its middle
    or where the special's card (lying along ``mark``'s down) would hide one of those indices.

    >>> from vision.detect import IndexPair
    >>> def seven(x: float, y: float, down: tuple[float, float]) -> IndexReading:
    ...     return IndexReading(IndexPair((0,), 1, down), "7", "star", 0.99, (x, y), 10.0)
    >>> card = [seven(100.0, 100.0, (0.0, 1.0)), seven(141.0, 159.0, (0.0, -1.0))]
    >>> def dragon(x: float, y: float, down: tuple[float, float] = (0.0, 1.0)) -> MarkReading:
    ...     return MarkReading(IndexPair((2,), 2, down), "Dragon", "", 0.9, (x, y), 10.0)
    >>> _amid_a_read_card(dragon(120.0, 130.0), card, "tichu")  # its middle
    True
    >>> _amid_a_read_card(dragon(153.0, 130.0), card, "tichu")  # beyond its right edge
    False
    >>> _amid_a_read_card(dragon(120.0, 130.0), card[:1], "tichu")  # one index: not known whole
    False
    >>> _amid_a_read_card(dragon(106.0, 110.0), card, "tichu")  # off the middle, its card over 7's index
    True
    >>> _amid_a_read_card(dragon(106.0, 110.0, (1.0, 0.0)), card, "tichu")  # lying across: hides neither
    False
    """
    if isinstance(mark, MarkReading) and mark.twins:
        return False  # its other corner's mark shows too: a special card's two corners
    center = np.asarray(mark.center, np.float64)
    sure = [r for r in readings if _has_sides(r) and _is_sure(r)]
    for reading in sure:
        for other in sure:
            if not _opposite_corners(reading, other, game):
                continue
            frame = _frame(reading.pair.down)
            size = (reading.size + other.size) / 2.0
            left, top = frame @ np.asarray(reading.center) - np.asarray(INDEX_OFFSET) * size
            right, bottom = frame @ np.asarray(other.center) + np.asarray(INDEX_OFFSET) * size
            x, y = frame @ center
            if not _within((x, y), (left, top, right, bottom), AMID_MARGIN * size):
                continue
            middle = (abs(x - (left + right) / 2) <= AMID_MIDDLE * (right - left)) and (
                abs(y - (top + bottom) / 2) <= AMID_MIDDLE * (bottom - top)
            )
            # (The special is as large as that card: a mark's glyph size often is not.)
            as_large = replace(mark, size=(bottom - top) / CARD_HEIGHT_PER_GLYPH)
            if middle or _hides(as_large, (reading, other)):
                return True
    return False


#: In a game whose cards are all different (Tichu), two indices of one card facing opposite
#: ways are its two corners up to this many of its predicted diagonals apart (its glyph size
#: may be half a deck's card size in glyphs).
UNIQUE_TWIN_REACH = 2.0
UNIQUE_CARD_GAMES = ("tichu",)


def _opposite_corners(reading: IndexReading, other: IndexReading, game: str) -> bool:
    """:func:`_spans_a_card`, the two further apart in a game of unique cards.

    >>> from vision.detect import IndexPair
    >>> def seven(x: float, y: float, down: tuple[float, float]) -> IndexReading:
    ...     return IndexReading(IndexPair((0,), 1, down), "7", "star", 0.9, (x, y), 10.0)
    >>> far = seven(180.0, 250.0, (0.0, -1.0))  # 1.4 predicted diagonals away
    >>> _opposite_corners(seven(100.0, 100.0, (0.0, 1.0)), far, "tichu")
    True
    >>> _spans_a_card(seven(100.0, 100.0, (0.0, 1.0)), far, "tichu")
    False
    """
    return _spans_a_card(reading, other, game, UNIQUE_TWIN_REACH if game in UNIQUE_CARD_GAMES else TWIN_REACH)


def _hides(mark: IndexReading, indices: tuple[IndexReading, ...]) -> bool:
    """True when the card ``mark`` places (:func:`predicted_card`) covers one of ``indices``,
    :data:`AMID_MARGIN` of its glyph sizes inside its outline."""
    corners = predicted_card(mark).astype(np.float64)
    frame = _frame(mark.pair.down)
    left, top = (frame @ corners[0]).tolist()
    right, bottom = (frame @ corners[2]).tolist()
    box, margin = (left, top, right, bottom), AMID_MARGIN * mark.size
    return any(_within(frame @ np.asarray(index.center, np.float64), box, margin) for index in indices)


def _within(
    point: Sequence[float] | np.ndarray, box: tuple[float, float, float, float], margin: float
) -> bool:
    """True when (x, y) ``point`` lies ``margin`` or more inside the (left, top, right, bottom)
    ``box`` (both in one upright frame).

    >>> _within((5.0, 5.0), (0.0, 0.0, 10.0, 10.0), 2.0), _within((1.0, 5.0), (0.0, 0.0, 10.0, 10.0), 2.0)
    (True, False)
    """
    left, top, right, bottom = box
    return bool(left + margin <= point[0] <= right - margin and top + margin <= point[1] <= bottom - margin)


def _without_specks(readings: list[IndexReading]) -> list[IndexReading]:
    """``readings`` without those far smaller than the photo's sure ones, unless sure themselves.

    >>> from vision.detect import IndexPair
    >>> def reading(size: float, score: float) -> IndexReading:
    ...     return IndexReading(IndexPair((0,), 1, (0.0, 1.0)), "7", "spades", score, (0.0, 0.0), size)
    >>> kept = _without_specks([reading(20, 1.0), reading(19, 0.99), reading(21, 0.98), reading(8, 0.85)])
    >>> [r.size for r in kept]
    [20, 19, 21]
    >>> len(_without_specks([reading(20, 1.0), reading(19, 0.99), reading(8, 0.85)]))  # too few sure
    3
    """
    sure = [r.size for r in readings if r.score >= SURE_SCORE and r.suit]
    if len(sure) < SPECK_REFERENCES:
        return readings
    smallest = SPECK_SIZE * float(np.median(sure))
    return [r for r in readings if r.score >= SURE_SCORE or r.size >= smallest or not r.suit]


#: Paper within this colour distance (Lab, 0-255 scale) of the paper around a special's
#: mark is its card's stock; a pale table, or paper of a different tint, is not.
STOCK_DISTANCE = 14.0


def _facing_paper(reading: MarkReading, paper: np.ndarray, image: np.ndarray, ink: Ink) -> MarkReading:
    """A mark-read special card turned the way, of those its mark allows, in which its card
    lies most on paper of the stock the mark is printed on (the first of equals): on a pale
    table, which passes for paper, the table is not the card's stock.  ``paper``: (H, W)
    uint8 paper mask; ``image``: the BGR working image; ``ink``: its ink."""
    for twin in reading.twins:
        placed = _placed_by_twin(reading, twin)
        if placed is not None:
            return placed
    downs = reading.downs or (reading.pair.down,)
    choices = [replace(reading, pair=replace(reading.pair, down=down)) for down in downs]
    if len(choices) == 1:
        return choices[0]
    height, width = paper.shape
    stock = _stock_colour(reading, paper, image, ink)

    def paper_share(candidate: IndexReading) -> float:
        # Drawn in the card's box only, not on a mask of the whole photo per direction.
        corners = np.round(predicted_card(candidate)).astype(np.int32)
        x0, y0 = (max(int(v), 0) for v in corners.min(axis=0))
        x1, y1 = min(int(corners[:, 0].max()) + 1, width), min(int(corners[:, 1].max()) + 1, height)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [corners - np.array([x0, y0], np.int32)], 1)
        inside = int(mask.sum())
        if not inside:
            return 0.0
        on_paper = paper[y0:y1, x0:x1] > 0
        if stock is not None:
            lab = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
            on_paper &= np.linalg.norm(lab - stock, axis=2) <= STOCK_DISTANCE
        return float(np.count_nonzero(on_paper[mask > 0])) / inside

    shares = [paper_share(choice) for choice in choices]
    best = choices[int(np.argmax(shares))]
    if max(shares) >= OFF_STOCK:
        return best
    # Mostly off its stock whichever way its mark allows: the mark was matched along the
    # wrong axis (a lettered "DOG" read across its line), so every quarter turn is tried.
    turned = [replace(best, pair=replace(best.pair, down=quarter_turn(best.pair.down, k))) for k in (1, 2, 3)]
    turned_shares = [paper_share(choice) for choice in turned]
    return turned[int(np.argmax(turned_shares))] if max(turned_shares) > max(shares) else best


_Reading = TypeVar("_Reading", bound=IndexReading)

#: A special's other corner mark places its card when it lies this many (or more) times as
#: far from the first as the card's size from its marks predicts, and at most the second: a
#: deck printing small marks on large cards sets them up to 3.5 predicted diagonals apart,
#: as far as a lone special's (:data:`vision.read.LONE_MARK_SPAN`, 25 glyph sizes against
#: the generic card's 7.2).  (Twenty-sixth session, at 1.8 before: the 33 calibrated decks
#: read a Dog at a fan's end that had been laid a card's length off, nothing else changed.)
TWIN_DISTANCE = (0.6, 3.5)


def _placed_by_twin(reading: _Reading, twin: tuple[float, float]) -> _Reading | None:
    """The card of a mark-read special whose other corner mark (``twin``, its centre) is in
    view: the two marks lie at opposite corners, so the line between them is the diagonal
    between its indices, which turns and sizes the card exactly whatever its neighbours'
    axis.  None when the twin lies too near or too far to be that corner (:data:`TWIN_DISTANCE`).

    >>> from vision.detect import IndexPair
    >>> pair = IndexPair((0,), 0, (0.0, 1.0))
    >>> upright = IndexReading(pair, "Dragon", "", 0.9, (10.0, 10.0), 5.0)
    >>> corners = predicted_card(upright)
    >>> far = tuple(float(v) for v in corners[0] + corners[2] - np.asarray(upright.center))
    >>> turned = IndexReading(replace(pair, down=(1.0, 0.0)), "Dragon", "", 0.9, (10.0, 10.0), 4.0)
    >>> placed = _placed_by_twin(turned, far)
    >>> [round(v, 3) + 0.0 for v in placed.pair.down], round(placed.size, 3)  # as drawn upright
    ([0.0, 1.0], 5.0)
    >>> _placed_by_twin(turned, (12.0, 11.0)) is None
    True
    >>> def beyond(times: float) -> tuple[float, float]:  # the twin further along that diagonal
    ...     return tuple(float(v) for v in 10.0 + times * (np.asarray(far) - 10.0))
    >>> round(_placed_by_twin(turned, beyond(2.5)).size, 3)  # small marks on a large card
    12.5
    >>> _placed_by_twin(turned, beyond(3.0)) is None  # 3.75 predicted diagonals: too far
    True
    """
    center = np.asarray(reading.center, np.float64)
    corners = predicted_card(reading).astype(np.float64)
    # The opposite index is the first reflected through the card's centre.
    predicted = corners[0] + corners[2] - 2.0 * center
    actual = np.asarray(twin, np.float64) - center
    length, expected = float(np.linalg.norm(actual)), float(np.linalg.norm(predicted))
    if expected <= 0.0 or not TWIN_DISTANCE[0] <= length / expected <= TWIN_DISTANCE[1]:
        return None
    turn = math.atan2(actual[1], actual[0]) - math.atan2(predicted[1], predicted[0])
    dx, dy = reading.pair.down
    down = (dx * math.cos(turn) - dy * math.sin(turn), dx * math.sin(turn) + dy * math.cos(turn))
    return replace(reading, pair=replace(reading.pair, down=down), size=reading.size * length / expected)


#: A mark-read card placed so that less than this share of it lies on its stock is tried at
#: the quarter turns too.  (On five calibrated validation decks, 0.2 and 0.3: `mountain:42`
#: 0.990 / 0.955 to 0.995 / 0.960, the rest the same; 0.5: also a card fewer and a false card
#: more on two decks.)
OFF_STOCK = 0.3


def _stock_colour(reading: IndexReading, paper: np.ndarray, image: np.ndarray, ink: Ink) -> np.ndarray | None:
    """(3,) float32 Lab colour of the paper just around a reading's mark (its card's stock),
    or None when too little paper lies there."""
    x, y, w, h = (int(v) for v in ink.boxes[reading.pair.rank[0]])
    margin = max(w, h)
    height, width = paper.shape
    x0, y0 = max(0, x - margin), max(0, y - margin)
    x1, y1 = min(width, x + w + margin), min(height, y + h + margin)
    around = (paper[y0:y1, x0:x1] > 0) & (ink.labels[y0:y1, x0:x1] == 0)
    if int(around.sum()) < 10:
        return None
    lab = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)
    stock: np.ndarray = np.median(lab[around], axis=0).astype(np.float32)
    return stock


def scan_image(image: np.ndarray, game: str = "tichu", profile: DeckProfile | None = None) -> ScanResult:
    """Find and read every card face in a BGR (H, W, 3) uint8 photo.

    >>> result = scan_image(np.zeros((480, 640, 3), np.uint8))
    >>> result.cards, result.to_json("empty.jpg")["points"]
    ([], 0)
    """
    deck_of(game)
    if profile is not None and profile.game != game:
        profile = None  # a profile of another game's deck knows nothing about this one
    started = time.perf_counter()
    cards, _ = find_cards(image, game, profile)
    return ScanResult(cards=cards, game=game, ms=(time.perf_counter() - started) * 1000.0)


class LearntCard(NamedTuple):
    """What one calibration photo teaches about one of its cards."""

    vectors: list[np.ndarray]  # its index glyphs' (or corner marks') feature vectors ...
    labels: list[str]  # ... and their class names (a special card's name for its marks)
    card: Card
    template: np.ndarray  # :func:`vision.profile.card_template`
    colours: list[str]  # of its suit symbols or corner marks (:func:`vision.read.ink_colour`)
    #: How many of its corners showed an index read as its own (0 for a special card).
    indices: int = 0
    #: The name word printed on it (a special card of some decks), if calibration found one.
    word: NameWord | None = None


#: A calibration card's corner counts as printing an index when a pair there reads as the
#: card's own rank and suit at least this surely.
PRINTED_INDEX_SCORE = 0.5


def learn_photo(image: np.ndarray, cards: list[Card], game: str) -> int | list[LearntCard]:
    """Learn one calibration photo: a :class:`LearntCard` per card, in reading order.  Returns
    the number of cards found instead when it differs from ``len(cards)``."""
    from vision.read import CLASS_INDEX, RANK_CLASSES, classify_glyphs, glyph_vector, ink_colour

    small = prepared_image(image)[0]
    regions = laid_out_cards(small, len(cards))
    if regions is None:
        return sum(quad is not None for quad in paper_regions(small).quads)
    lone = [i for i, quad in enumerate(regions.quads) if quad is not None]
    quads = [regions.quads[i] for i in lone]
    centers = np.array([q.mean(axis=0) for q in quads if q is not None])
    heights = np.array([side_lengths(q).max() for q in quads if q is not None])
    order = sort_reading_order(centers, heights)
    ink = ink_components(small, regions, line_width=erase_width(game))
    pairs = index_pairs(ink)
    results: list[LearntCard] = []
    runs = ink_runs(ink) if game == "tichu" and any(card.special is not None for card in cards) else []
    vectors_cache: dict[tuple[tuple[int, ...], tuple[float, float]], np.ndarray] = {}

    def vector(components: tuple[int, ...], down: tuple[float, float]) -> np.ndarray:
        key = (components, down)
        if key not in vectors_cache:
            vectors_cache[key] = glyph_vector(ink, components, down)
        return vectors_cache[key]

    for position, card in zip(order, cards, strict=True):
        region = lone[position]
        quad = regions.quads[region]
        assert quad is not None
        template = card_template(small, quad)
        vectors: list[np.ndarray] = []
        labels: list[str] = []
        colours: list[str] = []
        indices = 0
        if card.rank is not None or str(card) == "Mahjong":
            rank_label = "1" if card.rank is None else RANK_CLASSES[card.rank - 1]
            suit_label = card.suit.name.lower() if card.suit is not None else None
            mine = [p for p in pairs if ink.region[p.suit] == region]
            if mine:
                rank_vectors = np.stack([vector(p.rank, p.down) for p in mine])
                suit_vectors = np.stack([vector((p.suit,), p.down) for p in mine])
                rank_p = classify_glyphs(rank_vectors, None)[:, CLASS_INDEX[rank_label]]
                suit_p = (
                    classify_glyphs(suit_vectors, None)[:, CLASS_INDEX[suit_label]]
                    if suit_label is not None
                    else np.ones(len(mine), np.float32)
                )
                scores = rank_p * suit_p
                # The best pair near each corner of the card: its two indices learnt, and
                # every corner showing one counted (a deck may print three or four).
                used: set[int] = set()
                found = 0
                for i in np.argsort(-scores)[:8]:
                    pair = mine[int(i)]
                    members = ink.pair_ink(pair)
                    if members & used:
                        continue
                    center = ink.centers[list(pair.rank)].mean(axis=0)
                    reading = IndexReading(
                        pair,
                        rank_label,
                        suit_label or "",
                        float(scores[i]),
                        (float(center[0]), float(center[1])),
                        float(ink.sizes[list(pair.rank)].max()),
                    )
                    if not _near_a_corner(reading, quad):
                        continue
                    used |= members
                    if scores[i] >= PRINTED_INDEX_SCORE:
                        indices += 1
                    if found == 2:
                        continue
                    found += 1
                    vectors.append(rank_vectors[int(i)])
                    labels.append(rank_label)
                    if suit_label is not None:
                        vectors.append(suit_vectors[int(i)])
                        labels.append(suit_label)
                        colours.append(ink_colour(small, ink, pair.suit))
        elif card.special in MARKED_SPECIALS:
            marks = _corner_marks(ink, region, quad)
            marked = [
                glyph_vector(ink, (component,), _mark_down(ink, component, quad)) for component in marks
            ]
            for component, mark, kept in zip(marks, marked, _alike_marks(marked), strict=True):
                if kept:
                    vectors.append(mark)
                    labels.append(str(card))
                    colours.append(ink_colour(small, ink, component))
        word = learn_word(ink, quad, runs) if runs and card.special is not None else None
        results.append(LearntCard(vectors, labels, card, template, colours, indices, word))
    return results


#: Special cards whose index corner may show a mark of their own (a letter, a symbol): a
#: calibrated deck's marks find these cards in fans and piles, where no outline shows.
MARKED_SPECIALS = (Special.DOG, Special.PHOENIX, Special.DRAGON)
#: A mark's size (long side of its box, over 1.25) lies in this share of the card's long side.
MARK_SIZE = (0.05, 0.2)
#: ... and its centre lies within this share of the long side from a corner.
MARK_REACH = 0.18
#: ... and its box is at most this many times longer than wide.
MARK_ELONGATION = 3.0


#: Of three or more corner marks of one special, one this many times further from its
#: nearest fellow than the others typically are from theirs (or than
#: :data:`MARK_TWIN_DISTANCE`) is no mark (a frame's corner broken off beside it): a card
#: prints one mark in its corners.
MARK_OUTLIER = 3.0
#: The feature distance between two prints of one glyph in a photo is about this or more
#: (the median between a card's two ranks on the calibrated decks' photos: 0.9 to 1.9).
MARK_TWIN_DISTANCE = 1.0


def _alike_marks(vectors: list[np.ndarray]) -> list[bool]:
    """Which of one special card's corner marks (their (F,) feature vectors) to learn: all,
    but where three or more agree, not the odd one out (:data:`MARK_OUTLIER`).

    >>> star, frame = np.zeros(4), np.array([10.0, 0.0, 0.0, 0.0])
    >>> _alike_marks([frame, star, star + 1.0])
    [False, True, True]
    >>> _alike_marks([frame, star])  # two: nothing tells which is the mark
    [True, True]
    """
    if len(vectors) < 3:
        return [True] * len(vectors)
    stacked = np.stack(vectors)
    distance = np.linalg.norm(stacked[:, None, :] - stacked[None, :, :], axis=2)
    np.fill_diagonal(distance, np.inf)
    nearest = distance.min(axis=1)
    typical = max(float(np.median(nearest)), MARK_TWIN_DISTANCE)
    return [bool(value <= MARK_OUTLIER * typical) for value in nearest]


def _corner_marks(ink: Ink, region: int, quad: np.ndarray) -> list[int]:
    """The whole ink components of lone card ``region`` (outline ``quad``) that lie in its
    corners and are the size of an index glyph: a special card's corner marks."""
    long_side = float(side_lengths(quad).max())
    marks = []
    # A mark printed close to the card's edge cuts the paper there, so its centre may lie on
    # no paper region (and the outline may cut that corner): overlapping the outline, at
    # most half its size outside, it is the card's own.
    outline = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    unplaced = [
        int(c)
        for c in np.flatnonzero(ink.region < 0)
        if cv2.pointPolygonTest(outline, (float(ink.centers[c][0]), float(ink.centers[c][1])), True)
        >= -0.5 * float(ink.sizes[c])
    ]
    for component in [*np.flatnonzero(ink.region == region).tolist(), *unplaced]:
        if ink.root(int(component)) != component:
            continue
        size = float(ink.sizes[component])
        if not MARK_SIZE[0] * long_side <= size <= MARK_SIZE[1] * long_side:
            continue
        # A thin straight piece (of a frame line, an edge) is no mark: it is on every card.
        width, height = (float(v) for v in ink.boxes[component, 2:4])
        if max(width, height) > MARK_ELONGATION * max(min(width, height), 1.0):
            continue
        corner_distance = float(np.min(np.linalg.norm(quad - ink.centers[component], axis=1)))
        if corner_distance <= MARK_REACH * long_side:
            marks.append(int(component))
    return marks


def _mark_down(ink: Ink, component: int, quad: np.ndarray) -> tuple[float, float]:
    """A corner mark's "down": along the card's long side, towards the card's middle."""
    longest = int(np.argmax(side_lengths(quad)))
    long_axis = quad[longest] - quad[longest - 1]
    long_axis = long_axis / max(float(np.linalg.norm(long_axis)), 1e-6)
    if float(np.dot(quad.mean(axis=0) - ink.centers[component], long_axis)) < 0:
        long_axis = -long_axis
    return float(long_axis[0]), float(long_axis[1])
