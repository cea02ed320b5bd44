"""Reading index corners: which rank glyph and which suit symbol a proposed pair shows.

A small multi-layer perceptron (numpy, weights in ``vision/models/glyphs.npz``, trained by
``scripts/train_reader.py`` on glyphs rendered from many fonts and drawn suit shapes)
gives each glyph a probability per class.  With a deck profile made by calibration, a
small convolutional network (:mod:`vision.glyphnet`) gives a second opinion on the glyphs
of pairs that may pass, averaged into the perceptron's, and the deck's own glyphs add
nearest-neighbour evidence.  A second perceptron
(``vision/models/context.npz``, trained by the same script on the scanner's own crops of
synthetic table scenes) reads each glyph again from its features and those of the ink
around it, and where it surely agrees with the first reading's best guess, raises that
reading.  Without a profile, the index patch network (:mod:`vision.indexnet`) then reads
the pairs whole, from the photo's ink rather than from cut components: it rescues pairs the
glyph readers could not read and drops unsure readings of ink that is no index.
"""

from __future__ import annotations

import functools
import importlib.resources
import io
import math
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np

from companion.cards import Card, Special, Suit
from vision.detect import IndexPair, Ink, component_mask
from vision.features import (
    FEATURE_LENGTH,
    GLYPH_SIZE,
    context_squares,
    glyph_aspects,
    glyph_features_batch,
    glyph_ink,
    upright_glyph,
    upright_glyphs_into,
)
from vision.glyphnet import glyph_net
from vision.indexnet import Reach, index_net, index_patches, pair_frames
from vision.jokernet import joker_net, word_patches
from vision.profile import DeckProfile, euclidean_distances

RANK_CLASSES: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_CLASSES: tuple[str, ...] = ("jade", "sword", "pagoda", "star", "clubs", "diamonds", "hearts", "spades")
#: Every class the glyph model knows; "other" is anything that is neither.
CLASSES: tuple[str, ...] = (*RANK_CLASSES, *SUIT_CLASSES, "other")
CLASS_INDEX: dict[str, int] = {name: i for i, name in enumerate(CLASSES)}

SUIT_BY_NAME: dict[str, Suit] = {
    "jade": Suit.JADE,
    "sword": Suit.SWORD,
    "pagoda": Suit.PAGODA,
    "star": Suit.STAR,
    "clubs": Suit.CLUBS,
    "diamonds": Suit.DIAMONDS,
    "hearts": Suit.HEARTS,
    "spades": Suit.SPADES,
}
GAME_SUITS: dict[str, tuple[str, ...]] = {
    "tichu": ("jade", "sword", "pagoda", "star"),
    "standard": ("clubs", "diamonds", "hearts", "spades"),
}
GAME_RANKS: dict[str, tuple[str, ...]] = {
    "tichu": RANK_CLASSES,
    "standard": RANK_CLASSES[1:],
}
#: How much a suit crop's "other" probability counts against its suits.
SUIT_OTHER_WEIGHT = 0.3
#: A Tichu "1" is the Mahjong's, whose corner shows no suit symbol: a "1" read above a jade,
#: sword or pagoda symbol is a "10" whose "0" is hidden (a Mahjong's own corner mark may pass
#: for a star, so a star proves nothing).  Standard decks, which have no "1" at all, count
#: every "1" as a "10" (:func:`ones_as_tens`).
SUITS_NO_MAHJONG_SHOWS = ("jade", "sword", "pagoda")
#: The "rank" of an index spelling JOKER down the card's side; its "suit" is "coloured" or "black".
JOKER = "JOKER"
#: A JOKER index needs this many letters stacked evenly (J, O, K, E and perhaps R) ...
JOKER_LETTERS = 4
#: ... or only its J, O and K, where the J and the K read at least this surely (the E and the
#: R run together, or into a frame line, and the chain stops).
JOKER_SURE_LETTERS = 0.9
#: ... its first letter must read as J and its third as K with at least this probability.
JOKER_LETTER_P = 0.4
#: The letters of a JOKER chain are this share of its first letter's size (a J is narrow: a
#: K or an R up to twice its size; held-out-family validation photos, 0.6 to 1.6: 0.945 /
#: 0.820, 0.5 to 2.0: 0.945 / 0.822, 0.4 to 2.5: the same).
JOKER_RATIO = (0.5, 2.0)
#: When its letters' ink colour cannot be told (:func:`_joker_ink`), ink whose mean colour has
#: at least this chroma (largest minus smallest BGR channel) is a coloured joker's; black
#: ink under tinted light stays well below it.
JOKER_COLOURED = 35
#: Suit ink whose absorption (1 - ink / paper, per BGR channel) varies across the channels
#: by less than this share of its strongest is neutral (black, grey, brown) ...
NEUTRAL_SATURATION = 0.2
#: ... and by at least this share, coloured; its hue is the channel it absorbs least.
COLOURED_SATURATION = 0.3
#: The suits each ink colour may be, per game, when no calibration has said otherwise.
#: Standard decks, in every ordinary deck: two-colour (black clubs and spades, red hearts
#: and diamonds) and four-colour (green clubs, blue or orange diamonds); orange, magenta and
#: red all absorb red least.  Tichu: a typical edition (green Jade, black Sword, blue
#: Pagoda, red Star), where blue may also be a Sword's (some editions print it dark blue);
#: a calibrated profile holds its own deck's colours.
SUIT_COLOURS: dict[str, dict[str, tuple[str, ...]]] = {
    "standard": {
        "neutral": ("clubs", "spades"),
        "red": ("hearts", "diamonds"),
        "green": ("clubs",),
        "blue": ("diamonds",),
    },
    "tichu": {"neutral": ("sword",), "green": ("jade",), "blue": ("pagoda", "sword"), "red": ("star",)},
}
#: A suit its symbol's colour rules out keeps this share of its probability (the colour is
#: measured on a few blurred pixels, so it never vetoes outright).
COLOUR_MISMATCH = 0.1
#: A pair reads as an index corner only above this score.
MIN_PAIR_SCORE = 0.75
#: ... and above this one when a glyph of the pair has little paper around it.
EDGE_PAIR_SCORE = 0.9
#: Without a deck profile, readings are averaged over turns (:data:`READ_TURNS`), which
#: takes the over-sure edge off a lone reading, and blended with two more readers (the glyph
#: network and the context model, see :data:`NET_FLOOR` and :data:`CONTEXT_WEIGHT`), so they
#: are kept above these lower scores instead.  (Against one reader at 0.5 and 0.75, on
#: held-out-family validation photos: the three readers at 0.5 and 0.75 (before the floor
#: below), 0.9 to 1.9 points more precision and -2.0 to +0.6 of recall; at 0.4 and 0.65,
#: 0.2 to 1.3 points more precision and 0.5 to 2.0 more recall; at 0.35 and 0.6, up to 0.6
#: points more recall than at 0.4 for 0.6 to 1.4 of precision.)  Once glyphs were also read
#: without a scrap of frame line, an edge pair passes from 0.55 (0.65 before: 4 cards more
#: on each standard validation set for one false one; 0.5 and 0.45 cost held-out precision).
BUILTIN_PAIR_SCORE = 0.4
BUILTIN_EDGE_PAIR_SCORE = 0.55
#: Without a profile, a pair at a card's edge scoring between those two still counts where the
#: glyph network (:mod:`vision.glyphnet`, a reader of another design) reads its rank at least
#: this surely and its suit at least as surely as the second figure, both the same as the
#: glyph model: at 0.95 and 0.7, four more cards on held-out-family validation photos, none
#: lost, Tichu unchanged; at 0.9 and 0.5 the same cards and a wrong Tichu card more.
EDGE_NETWORK_SURE = (0.95, 0.7)


@dataclass(frozen=True)
class GlyphModel:
    """A one-hidden-layer perceptron over :func:`vision.features.glyph_features`."""

    mean: np.ndarray  # (F,)
    scale: np.ndarray  # (F,)
    w1: np.ndarray  # (F, H)
    b1: np.ndarray  # (H,)
    w2: np.ndarray  # (H, C)
    b2: np.ndarray  # (C,)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(N, F) features -> (N, len(CLASSES)) class probabilities."""
        x = (features - self.mean) / self.scale
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        logits = hidden @ self.w2 + self.b2
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float32)

    def save(self, file: io.BytesIO | str) -> None:
        np.savez_compressed(
            file,
            mean=self.mean,
            scale=self.scale,
            w1=self.w1.astype(np.float16),
            b1=self.b1,
            w2=self.w2.astype(np.float16),
            b2=self.b2,
            classes=np.array(CLASSES),
        )

    @classmethod
    def from_npz(cls, data: bytes) -> GlyphModel:
        with np.load(io.BytesIO(data)) as arrays:
            classes = tuple(str(c) for c in arrays["classes"])
            if classes != CLASSES:
                raise ValueError("the glyph model was trained for other classes; run scripts/train_reader.py")
            return cls(
                mean=arrays["mean"].astype(np.float32),
                scale=arrays["scale"].astype(np.float32),
                w1=arrays["w1"].astype(np.float32),
                b1=arrays["b1"].astype(np.float32),
                w2=arrays["w2"].astype(np.float32),
                b2=arrays["b2"].astype(np.float32),
            )


@functools.cache
def builtin_model() -> GlyphModel:
    """The shipped glyph model, loaded once from the package."""
    data = importlib.resources.files("vision.models").joinpath("glyphs.npz").read_bytes()
    return GlyphModel.from_npz(data)


@functools.cache
def context_model() -> GlyphModel:
    """The shipped context model (see :func:`context_vectors`), loaded once from the package."""
    data = importlib.resources.files("vision.models").joinpath("context.npz").read_bytes()
    return GlyphModel.from_npz(data)


#: A glyph is seen in a window this many times its size wide around its centre: the whole
#: glyph with a margin, in which a stroke cut away from it still shows.
CONTEXT_WINDOW = 1.6
#: Length of :func:`context_vectors` rows: the glyph's own features, then its window's.
CONTEXT_LENGTH = 2 * FEATURE_LENGTH


def context_vectors(
    ink: Ink,
    glyphs: list[tuple[tuple[int, ...], tuple[float, float]]],
    own: np.ndarray,
    zooms: np.ndarray | None = None,
) -> np.ndarray:
    """(N, CONTEXT_LENGTH) features of N (components, down) glyphs in context: each glyph's
    own features (``own``, (N, FEATURE_LENGTH), same order), then those of the ink darkness
    in an upright window :data:`CONTEXT_WINDOW` times the glyph's size around its centre
    (``zooms``, (N,): times these factors, for training).

    The window ignores where the glyph's ink ends, so the context model sees a rank's stroke
    that the segmentation cut away with a frame line, and the line.
    """
    count = len(glyphs)
    if count == 0 or ink.darkness is None:
        return np.zeros((count, CONTEXT_LENGTH), np.float32)
    centres = np.array([ink.centers[list(components)].mean(axis=0) for components, _ in glyphs], np.float32)
    downs = np.array([down for _, down in glyphs], np.float32)
    sides = np.array([float(ink.sizes[list(components)].max()) for components, _ in glyphs], np.float32)
    sides *= CONTEXT_WINDOW * (zooms if zooms is not None else 1.0)
    squares = context_squares(ink.darkness, centres, downs, sides)
    # A window has no ink extents of its own: its aspect feature is level.
    ones = np.ones(count, np.float32)
    return np.concatenate([own, glyph_features_batch(squares, ones, ones)], axis=1)


def glyph_vector(ink: Ink, components: tuple[int, ...], down: tuple[float, float]) -> np.ndarray:
    """Feature vector of ``components`` seen with ``down`` as down."""
    vector: np.ndarray = glyph_vectors(ink, [(components, down)])[0]
    return vector


def glyph_squares(
    ink: Ink, glyphs: list[tuple[tuple[int, ...], tuple[float, float]]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N, GLYPH_SIZE, GLYPH_SIZE) upright squares of (components, down) glyphs, with their
    (N,) heights and widths (:func:`vision.features.upright_glyphs`)."""
    # A component is seen in several directions (as a rank, as a suit): its ink is cut
    # once and turned each way, into consecutive rows, put back in the glyphs' order at the end.
    slots: dict[tuple[int, ...], list[int]] = {}
    for i, (components, _) in enumerate(glyphs):
        slots.setdefault(components, []).append(i)
    grouped = np.empty((len(glyphs), GLYPH_SIZE, GLYPH_SIZE), np.float32)
    order: list[int] = []
    extents: list[tuple[float, float]] = []
    for components, rows in slots.items():
        if components not in ink.ink_cache:
            ink.ink_cache[components] = glyph_ink(component_mask(ink, components)[0])
        start = len(order)
        extents += upright_glyphs_into(
            ink.ink_cache[components], [glyphs[i][1] for i in rows], grouped[start : start + len(rows)]
        )
        order += rows
    np.clip(grouped, 0.0, 1.0, out=grouped)
    squares = np.empty_like(grouped)
    squares[order] = grouped
    heights = np.zeros(len(glyphs), np.float32)
    widths = np.zeros(len(glyphs), np.float32)
    if extents:
        heights[order], widths[order] = np.array(extents, np.float32).T
    return squares, heights, widths


def glyph_vectors(ink: Ink, glyphs: list[tuple[tuple[int, ...], tuple[float, float]]]) -> np.ndarray:
    """(N, F) feature vectors of (components, down) glyphs."""
    return described_glyphs(ink, glyphs)[3]


def described_glyphs(
    ink: Ink, glyphs: list[tuple[tuple[int, ...], tuple[float, float]]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`glyph_squares` of (components, down) glyphs and their features
    (:func:`vision.features.glyph_features_batch`), each glyph cut and described once per
    photo (kept in ``ink.glyph_cache``)."""
    cache = ink.glyph_cache
    missing = list(dict.fromkeys(glyph for glyph in glyphs if glyph not in cache))
    if missing:
        squares, heights, widths = glyph_squares(ink, missing)
        vectors = glyph_features_batch(squares, heights, widths)
        for i, glyph in enumerate(missing):
            cache[glyph] = (squares[i], heights[i], widths[i], vectors[i])
    if not glyphs:
        return (
            np.zeros((0, GLYPH_SIZE, GLYPH_SIZE), np.float32),
            np.zeros(0, np.float32),
            np.zeros(0, np.float32),
            np.zeros((0, FEATURE_LENGTH), np.float32),
        )
    found = [cache[glyph] for glyph in glyphs]
    return (
        np.stack([f[0] for f in found]),
        np.array([f[1] for f in found], np.float32),
        np.array([f[2] for f in found], np.float32),
        np.stack([f[3] for f in found]),
    )


#: Pairs whose rank reads at least this surely are read again with the glyph network's
#: second opinion (:mod:`vision.glyphnet`) averaged into the perceptron's (before a deck
#: profile sharpens it).  (On the calibrated development decks a floor of 0, 0.1, 0.3, 0.5
#: or 0.7 found the same cards; at 0.5 about 40 glyphs a photo are read again, 2 ms; at
#: 0.2, 130; without a profile 0.3 found three cards fewer to one more a validation set.)
#: On both development decks the second opinion raised calibrated precision or recall by a
#: point or two.  Without a profile it moved held-out-family validation and held-out
#: photos in opposite directions on its own (precision +0.6 to +1.2 and -0.5, recall up to
#: +0.6 and down to -1.0); with the context model's reading blended in as well
#: (:data:`CONTEXT_WEIGHT`), the three readers together are surer on every set.
NET_FLOOR = 0.5


@dataclass(frozen=True)
class IndexReading:
    """One index corner read: rank and suit class names with the pair's score in [0, 1]."""

    pair: IndexPair
    rank: str
    suit: str
    score: float
    center: tuple[float, float]  # the rank glyph's centre (working pixels)
    size: float  # the rank glyph's size (working pixels)
    #: Read by the index patch network alone, which the glyph readers left unread (:func:`_read_whole`).
    whole: bool = field(default=False, kw_only=True)

    def card(self, game: str) -> Card:
        """The card this index names (a "1" is the Mahjong; a "JOKER" index is a joker)."""
        if self.rank == "1":
            return Card(special=Special.MAHJONG)
        if self.rank in MARKS:
            return Card(special=MARKS[self.rank])
        if self.rank == JOKER:
            return Card(special=Special.BIG_JOKER if self.suit == "coloured" else Special.SMALL_JOKER)
        rank = {"J": 11, "Q": 12, "K": 13, "A": 14}.get(self.rank) or int(self.rank)
        return Card(rank=rank, suit=SUIT_BY_NAME[self.suit])


#: Without a deck profile, a pair's glyphs are read with "down" turned by each of these
#: angles (degrees) and the readings averaged: a small, blurred glyph's best guess then has
#: to hold under the jitter the model was trained with.  (A profile's exemplars already
#: sharpen the readings of its own deck; averaging there only lost recall.)
READ_TURNS = (-7.0, 0.0, 7.0)
#: Only pairs whose rank reads as one of the game's at least this surely unturned are
#: worth the other turns (most proposed pairs are no index: their reading stays as is).
TURN_FLOOR = 0.4


def turned(down: tuple[float, float], degrees: float) -> tuple[float, float]:
    """``down`` turned by ``degrees`` (clockwise on screen, y down).

    >>> [round(v, 6) for v in turned((0.0, 1.0), 90.0)]
    [-1.0, 0.0]
    """
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return (down[0] * c - down[1] * s, down[0] * s + down[1] * c)


def glyph_probabilities(
    ink: Ink, glyphs: list[tuple[tuple[int, ...], tuple[float, float]]], profile: DeckProfile | None
) -> np.ndarray:
    """(N, len(CLASSES)) probabilities of (components, down) glyphs: with a ``profile``, as
    read; without, averaged over :data:`READ_TURNS` of each "down"."""
    if not glyphs:
        return np.zeros((0, len(CLASSES)), np.float32)
    probabilities = classify_glyphs(glyph_vectors(ink, glyphs), profile)
    if profile is not None:
        return probabilities
    return averaged_over_turns(ink, glyphs, probabilities)


def averaged_over_turns(
    ink: Ink, glyphs: list[tuple[tuple[int, ...], tuple[float, float]]], unturned: np.ndarray
) -> np.ndarray:
    """(N, len(CLASSES)) built-in probabilities of ``glyphs`` averaged over
    :data:`READ_TURNS`, given their ``unturned`` (N, len(CLASSES)) reading."""
    turns = [angle for angle in READ_TURNS if angle != 0.0]
    if not glyphs or not turns:
        return unturned
    every = [(components, turned(down, angle)) for angle in turns for components, down in glyphs]
    more = classify_glyphs(glyph_vectors(ink, every), None).reshape(len(turns), len(glyphs), -1)
    return np.asarray((unturned + more.sum(axis=0)) / (len(turns) + 1), np.float32)


def classify_glyphs(features: np.ndarray, profile: DeckProfile | None) -> np.ndarray:
    """(N, F) -> (N, len(CLASSES)) probabilities: the model, sharpened by the profile's exemplars."""
    return sharpened(features, builtin_model().probabilities(features), profile)


def sharpened(features: np.ndarray, probabilities: np.ndarray, profile: DeckProfile | None) -> np.ndarray:
    """(N, len(CLASSES)) ``probabilities`` of (N, F) ``features`` sharpened by the profile's
    exemplars (unchanged without a profile or exemplars)."""
    if profile is not None and profile.exemplars.shape[0] > 0:
        return profile.blend(features, probabilities)
    return probabilities


def ones_as_tens(probabilities: np.ndarray, game: str) -> np.ndarray:
    """(N, len(CLASSES)) ``probabilities`` with the "1" class counted as "10" in a game whose
    deck has no "1" (standard): there, a "1" above a suit is a "10" whose "0" the next card
    in a fan, or a card's edge, has hidden.  Unchanged for Tichu (its Mahjong is a "1"; there
    only a "1" above a suit symbol is a "10", :data:`SUITS_NO_MAHJONG_SHOWS`).

    >>> p = np.zeros((1, len(CLASSES)), np.float32); p[0, CLASS_INDEX["1"]] = 0.75
    >>> p[0, CLASS_INDEX["10"]] = 0.25
    >>> float(ones_as_tens(p, "standard")[0, CLASS_INDEX["10"]]), float(ones_as_tens(p, "tichu")[0, 9])
    (1.0, 0.25)
    """
    if "1" in GAME_RANKS[game]:
        return probabilities
    folded = probabilities.copy()
    folded[:, CLASS_INDEX["10"]] += folded[:, CLASS_INDEX["1"]]
    folded[:, CLASS_INDEX["1"]] = 0.0
    return folded


def upper_quartile(values: np.ndarray) -> np.ndarray:
    """``np.percentile(values, 75, axis=0)`` of (N, C) float32 ``values`` (N >= 1), to the bit:
    the same two order statistics, interpolated as numpy does, without its general
    machinery (a tenth of a millisecond a call, a dozen calls a photo).

    >>> values = np.random.default_rng(0).integers(0, 256, (37, 3)).astype(np.float32)
    >>> bool(np.array_equal(upper_quartile(values), np.percentile(values, 75, axis=0)))
    True
    >>> bool(np.array_equal(upper_quartile(values[:6] + 0.3), np.percentile(values[:6] + 0.3, 75, axis=0)))
    True
    """
    index = 0.75 * (len(values) - 1)
    low = int(index)
    high = min(low + 1, len(values) - 1)
    t = index - low
    ordered = np.partition(values, [low, high] if high != low else [low], axis=0)
    below, above = ordered[low], ordered[high]
    difference = above - below
    if t >= 0.5:
        return np.asarray(above - difference * (1 - t))
    return np.asarray(below + difference * t)


def ink_colour(image: np.ndarray, ink: Ink, component: int) -> str:
    """The colour name of a component's ink against the paper around it: "neutral", "red",
    "green", "blue", or "" when unsure (too few pixels, too little paper, in between).

    ``image``: the (H, W, 3) uint8 BGR working image ``ink`` was found in.  Dividing by the
    paper's own colour cancels tinted light; measuring how the channels are absorbed, not
    the ink's brightness, keeps a blurred symbol's colour.

    >>> image = np.full((40, 40, 3), (200, 215, 230), np.uint8)  # warm light on white paper
    >>> image[10:20, 10:20] = (40, 45, 190)  # a red heart
    >>> image[25:35, 25:35] = (30, 35, 40)  # a black spade
    >>> labels = np.zeros((40, 40), np.int32); labels[10:20, 10:20] = 1; labels[25:35, 25:35] = 2
    >>> darkness = (labels > 0).astype(np.float32)
    >>> boxes = np.array([[10, 10, 10, 10], [25, 25, 10, 10]], np.int32)
    >>> ink = Ink(labels, boxes, np.zeros((2, 2), np.float32), np.full(2, 12, np.float32),
    ...           np.zeros(2, np.int32), darkness=darkness)
    >>> ink_colour(image, ink, 0), ink_colour(image, ink, 1)
    ('red', 'neutral')
    """
    if ink.darkness is None:
        return ""
    x, y, w, h = (int(v) for v in ink.boxes[component])
    margin = max(w, h)
    height, width = ink.labels.shape
    x0, y0 = max(0, x - margin), max(0, y - margin)
    x1, y1 = min(width, x + w + margin), min(height, y + h + margin)
    labels = ink.labels[y0:y1, x0:x1]
    own = labels == component + 1
    if ink.part_labels is not None:
        own |= ink.part_labels[y0:y1, x0:x1] == component + 1
    window = image[y0:y1, x0:x1].astype(np.float32)
    darkness = ink.darkness[y0:y1, x0:x1]
    core = own & (darkness >= 0.75)
    if int(core.sum()) < 3:
        core = own
    paper = (labels == 0) & (darkness < 0.2)
    if int(core.sum()) < 3 or int(paper.sum()) < 5:
        return ""
    paper_colour = upper_quartile(window[paper])
    absorbed = 1.0 - np.clip(window[core].mean(axis=0) / np.maximum(paper_colour, 1.0), 0.0, 1.0)
    strongest = float(absorbed.max())
    if strongest < 0.1:
        return ""
    saturation = (strongest - float(absorbed.min())) / strongest
    if saturation < NEUTRAL_SATURATION:
        return "neutral"
    if saturation < COLOURED_SATURATION:
        return ""
    return ("blue", "green", "red")[int(np.argmin(absorbed))]


def read_pairs(
    ink: Ink,
    pairs: list[IndexPair],
    game: str,
    profile: DeckProfile | None = None,
    image: np.ndarray | None = None,
) -> list[IndexReading]:
    """Read every proposed pair; keep the best non-overlapping readings above ``MIN_PAIR_SCORE``
    (``BUILTIN_PAIR_SCORE`` without a ``profile``).

    With the BGR working ``image``, suits are also judged by their colour: the deck's own,
    learnt by calibration (``profile.colours``), else :data:`SUIT_COLOURS`."""
    if not pairs:
        return []
    min_score, edge_score = MIN_PAIR_SCORE, EDGE_PAIR_SCORE
    if profile is None:
        min_score, edge_score = BUILTIN_PAIR_SCORE, BUILTIN_EDGE_PAIR_SCORE
    keys: dict[tuple[tuple[int, ...], tuple[float, float]], int] = {}
    glyphs: list[tuple[tuple[int, ...], tuple[float, float]]] = []

    def vector_index(components: tuple[int, ...], down: tuple[float, float]) -> int:
        # Directions within a few degrees share one crop.
        key = (components, (round(down[0] * 8) / 8, round(down[1] * 8) / 8))
        if key not in keys:
            keys[key] = len(glyphs)
            glyphs.append((components, down))
        return keys[key]

    rank_rows = [vector_index(p.rank, p.down) for p in pairs]
    suit_rows = [vector_index((p.suit,), p.down) for p in pairs]
    squares, heights, widths, vectors = described_glyphs(ink, glyphs)
    perceptron = builtin_model().probabilities(vectors)
    probabilities = ones_as_tens(sharpened(vectors, perceptron, profile), game)
    rank_columns = [CLASS_INDEX[r] for r in GAME_RANKS[game]]
    suit_columns = [CLASS_INDEX[s] for s in GAME_SUITS[game]]
    # The pairs whose rank may yet pass are read again with the glyph network's second
    # opinion.
    maybe = probabilities[rank_rows][:, rank_columns].max(axis=1) >= NET_FLOOR
    rows = sorted({*np.asarray(rank_rows)[maybe].tolist(), *np.asarray(suit_rows)[maybe].tolist()})
    # The network's readings, kept for the edge confirmation below (NaN: not read).
    network = np.full(probabilities.shape, np.nan, np.float32)
    if rows:
        second = glyph_net().probabilities(squares[rows], glyph_aspects(heights[rows], widths[rows]))
        network[rows] = second
        blended = sharpened(vectors[rows], (perceptron[rows] + second) / 2, profile)
        probabilities[rows] = ones_as_tens(blended, game)
    hopeful = probabilities[rank_rows][:, rank_columns].max(axis=1) >= TURN_FLOOR
    if profile is None:
        rows = sorted({*np.asarray(rank_rows)[hopeful].tolist(), *np.asarray(suit_rows)[hopeful].tolist()})
        turned_rows = averaged_over_turns(ink, [glyphs[row] for row in rows], probabilities[rows])
        probabilities[rows] = ones_as_tens(turned_rows, game)
    rank_p = probabilities[rank_rows][:, rank_columns]
    suit_p = probabilities[suit_rows][:, suit_columns]
    rows_read, columns, read_p = (rank_rows, suit_rows), (rank_columns, suit_columns), (rank_p, suit_p)
    # After calibration the context model only confirms (the profile's exemplars already
    # read the deck's own glyphs surely).
    calibrated = profile is not None
    weight = CALIBRATED_CONTEXT_WEIGHT if calibrated else CONTEXT_WEIGHT
    rank_p, suit_p = _blended_with_context(
        ink, pairs, vectors, rows_read, read_p, hopeful, columns, weight, confirm_only=calibrated
    )
    # Small suit symbols are often only a few pixels: their "other" share is discounted, so
    # a clearly read rank with its most likely suit still counts (the rank is the gate).
    other = probabilities[suit_rows][:, CLASS_INDEX["other"]]
    colours: dict[int, str] = {}  # suit glyphs' colours, measured once
    learnt = profile.colour_suits() if profile is not None else {}
    by_colour = learnt or SUIT_COLOURS[game]
    if image is not None:
        suit_p = suit_p * _colour_prior(
            image, ink, pairs, rank_p.max(axis=1) >= min_score, by_colour, GAME_SUITS[game], colours
        )
    suit_p = suit_p / (suit_p.sum(axis=1, keepdims=True) + SUIT_OTHER_WEIGHT * other[:, None] + 1e-6)
    best_rank = rank_p.argmax(axis=1)
    best_suit = suit_p.argmax(axis=1)
    scores = rank_p.max(axis=1) * suit_p.max(axis=1)
    # A rank crop that looks more like a suit symbol (a pip), or a suit crop that looks more
    # like a rank, is no index corner.
    all_ranks = [CLASS_INDEX[r] for r in RANK_CLASSES]
    all_suits = [CLASS_INDEX[s] for s in SUIT_CLASSES]
    rank_rows_p = probabilities[rank_rows]
    suit_rows_p = probabilities[suit_rows]
    scores[rank_rows_p[:, all_suits].max(axis=1) > rank_rows_p[:, rank_columns].max(axis=1)] = 0.0
    scores[suit_rows_p[:, all_ranks].max(axis=1) > suit_rows_p[:, suit_columns].max(axis=1)] = 0.0
    # A "10" whose two glyphs each look more like a suit symbol than like any rank or other
    # ink is two pips side by side (above a third), not a "1" and a "0".
    tens = [i for i, pair in enumerate(pairs) if len(pair.rank) == 2 and scores[i] >= min_score]
    if tens:
        halves: list[tuple[tuple[int, ...], tuple[float, float]]] = [
            ((component,), pairs[i].down) for i in tens for component in pairs[i].rank
        ]
        halves_p = glyph_probabilities(ink, halves, profile)
        not_suit = [*all_ranks, CLASS_INDEX["other"]]
        pips = halves_p[:, all_suits].max(axis=1) > halves_p[:, not_suit].max(axis=1)
        scores[[i for k, i in enumerate(tens) if pips[2 * k] and pips[2 * k + 1]]] = 0.0
    # A lone "1" (the Mahjong's index) with ink beside it, where a "0" would stand, is a
    # "10" whose "0" was cut by an edge or the card above: no Mahjong.
    ones = [
        i
        for i, pair in enumerate(pairs)
        if len(pair.rank) == 1
        and scores[i] >= min_score
        and GAME_RANKS[game][int(best_rank[i])] == "1"
        and _ink_beside(ink, pair, image)
    ]
    scores[ones] = 0.0
    if ink.edge is not None and ink.edge.any():
        # Glyphs with little paper around them are as likely to be frame or table scraps.
        on_edge = np.array([bool(ink.edge[[*p.rank, p.suit]].any()) for p in pairs])
        doubtful = on_edge & (scores < edge_score)
        if profile is None:
            confirm = np.flatnonzero(doubtful & (scores >= min_score))
            if confirm.size:
                glyph_rows = (np.asarray(rank_rows)[confirm], np.asarray(suit_rows)[confirm])
                read = (best_rank[confirm], best_suit[confirm])
                agreed = _network_agrees(squares, heights, widths, glyph_rows, read, columns, game, network)
                doubtful[confirm[agreed]] = False
        scores[doubtful] = 0.0
    sizes = np.array([float(ink.sizes[list(pair.rank)].max()) for pair in pairs])
    rescued = np.zeros(len(pairs), bool)
    if image is not None and ink.darkness is not None:
        suit_like = probabilities[suit_rows][:, suit_columns].max(axis=1)
        whole = _read_whole(
            ink,
            ink.darkness,
            pairs,
            game,
            scores,
            min_score,
            suit_like,
            image,
            by_colour,
            colours,
            WHOLE_SUIT_FLOOR if profile is None else CALIBRATED_WHOLE_SUIT_FLOOR,
            WHOLE_SURE if profile is None else CALIBRATED_WHOLE_SURE,
            # (After calibration the deck's own exemplars are the authority: on five calibrated
            # validation decks overruling found the same cards.)
            read=(best_rank, best_suit) if profile is None else None,
        )
        scores[whole.vetoed] = 0.0
        saved = whole.rescued
        best_rank[saved], best_suit[saved], scores[saved] = whole.ranks, whole.suits, whole.scores
        sizes[saved] = np.maximum(sizes[saved], whole.units / INDEX_UNIT_PER_SIZE)
        rescued[saved] = True
    used: set[int] = set()
    readings: list[IndexReading] = []
    # Readings of the glyph readers first: a rescued index never takes the ink of one of theirs.
    order = np.lexsort((-scores, rescued))
    # (A rescue passes at its own threshold, below the calibrated pass score.)
    for i in order[(scores[order] >= min_score) | rescued[order]]:
        pair = pairs[int(i)]
        members = ink.pair_ink(pair)
        if members & used:
            continue
        used |= members
        center = ink.centers[list(pair.rank)].mean(axis=0)
        size = float(sizes[i])
        rank, suit = GAME_RANKS[game][int(best_rank[i])], GAME_SUITS[game][int(best_suit[i])]
        if rank == "1" and suit in SUITS_NO_MAHJONG_SHOWS:
            rank = "10"  # its "0" hidden by the next card or an edge
        readings.append(
            IndexReading(
                pair=pair,
                rank=rank,
                suit=suit,
                score=float(scores[i]),
                center=(float(center[0]), float(center[1])),
                size=size,
                whole=bool(rescued[i]),
            )
        )
    return readings


#: The pairs the glyph readers leave unread are also read whole by the index patch network
#: (:mod:`vision.indexnet`), where their suit glyph reads as one of the game's suits at least
#: this surely (a rank's suit survives the segmentation that breaks the rank): about 50 pairs
#: a 1920x1080 photo with the passing ones, 7 ms in all (two networks read each).  After
#: calibration too, with the deck's learnt suit colours (five calibrated validation decks,
#: with the first, small network: recall +1.1 to +3.3 points, precision +0.1 to -0.9).
#: (0.35 and 0.5 found the same standard validation cards, 1 and 2 Tichu cards fewer of
#: 506, for a third and a half fewer pairs, which saved no time this machine could measure.
#: Until the fourteenth session the floor was 0.2; with three networks, 0.05 found 11 more of
#: the 1,784 validation cards (seeds 777, 555, 778: recall +0.2, +0.8, +1.0 points) for 2
#: false ones more (precision -0.4 points on one set), for 3 to 5% more time a photo; 0.1,
#: 5 more and 1 false; 0.0, 19 more and 9 false, precision -1.4 points on one set.)
WHOLE_SUIT_FLOOR = 0.05
#: ... after calibration, this surely: the profile's exemplars, taken from clean photos,
#: read a blurred or squeezed suit glyph lower (five calibrated validation decks: recall
#: +0.0 to +1.6 points from 0.2, precision 0.0 to -0.6; 0.0 cost one deck 0.6 more).
CALIBRATED_WHOLE_SUIT_FLOOR = 0.05
#: ... and count as the index it reads when it reads the card (rank times suit, the suit's
#: colour considered) at least this surely.  (With one wider network alone, 0.8 found 0.1
#: to 0.5 points more of the standard and Tichu validation cards than 0.9 for up to 0.4
#: points of precision, and cost four of five calibrated validation decks 0.4 to 1.2 points
#: of precision; the two networks averaged are less sure where they disagree, and at 0.8
#: read more precisely than one alone at 0.9 on every validation set.  From 0.6 they found
#: 0.3 to 0.9 points more validation cards than from 0.8 with no false one more, and the
#: same cards of five calibrated validation decks; from 0.5, 0.2 to 0.4 points of precision
#: less.  Three networks averaged are less sure still: from 0.5 they found a card more on
#: each standard validation set than two from 0.6, and one calibrated card more over five
#: decks, for 0.2 points of precision on two of three validation sets; from 0.6, three
#: validation cards fewer than from 0.5.)
WHOLE_SURE = 0.5
#: ... and after calibration, this surely.  (Until the thirteenth session a calibrated rescue
#: also had to reach the glyph readers' pass score, 0.75.  On five calibrated validation
#: decks 0.6 found 5 cards more than that and no false one; 0.5, 6 more and 2 false; 0.65, 3
#: more.  With the fourth network (fifteenth session) 0.45, 0.5 and 0.55 all found 3 cards
#: more than 0.6 and no false one; with three networks 0.55 found 1 more and 1 false.)
CALIBRATED_WHOLE_SURE = 0.55
#: A pair the glyph readers pass, but less surely than ``WHOLE_STANDS``, is no index when
#: the network reads "other" as both its rank and its suit at least this surely (a pip
#: above a pip, a rank paired with its neighbour's rank).  Sure readings stand, and so do
#: ranks the network reads as ink beside a suit: a standard "1" whose "0" the next card
#: hides is a "10" it never learnt (vetoing it as well cost a drawn "10" and gained
#: nothing on the validation photos).
WHOLE_OTHER = 0.8
WHOLE_STANDS = 0.9
#: ... and is read as the network's card instead where the network reads another card at
#: least this surely: on the standard validation photos (seeds 777 and 555) the glyph
#: readers' passing but unsure readings that the network read otherwise from 0.7 were
#: wrong 10 times and right never (clubs read as spades at 4 pixels, a 6 as a 5); from 0.6,
#: 11 and 4; from 0.5, 14 and 7.  A Tichu "1" stays (the Mahjong, read by the network as a
#: J or a 2).
WHOLE_OVERRULES = 0.7
#: A whole rank's size is about this many rank-to-suit distances (the median over the
#: network's training indices): a rescued index whose rank is a fragment is sized by it.
INDEX_UNIT_PER_SIZE = 0.95


class WholeReadings(NamedTuple):
    """What :func:`_read_whole` found: pairs (indices into the proposals) whose passing
    reading it ``vetoed``; pairs it reads as its own card (``rescued``: unread pairs it
    rescued, and those of ``overruled``, passing pairs whose reading it overruled) with their
    ``ranks`` and ``suits`` (column indices into the game's ranks and suits), ``scores`` and
    ``units`` (rank-to-suit distances, working pixels)."""

    vetoed: np.ndarray
    rescued: np.ndarray
    ranks: np.ndarray
    suits: np.ndarray
    scores: np.ndarray
    units: np.ndarray
    overruled: np.ndarray = np.zeros(0, np.int64)


def _read_whole(
    ink: Ink,
    darkness: np.ndarray,
    pairs: list[IndexPair],
    game: str,
    scores: np.ndarray,
    min_score: float,
    suit_like: np.ndarray,
    image: np.ndarray,
    by_colour: dict[str, tuple[str, ...]],
    colours: dict[int, str] | None = None,
    suit_floor: float = WHOLE_SUIT_FLOOR,
    sure: float = WHOLE_SURE,
    *,
    read: tuple[np.ndarray, np.ndarray] | None = None,
) -> WholeReadings:
    """The index patch network's verdicts on the proposed ``pairs``: the passing ones
    (``scores`` at least ``min_score``) and the unread ones whose suit glyph looks like a
    suit (``suit_like``, each pair's best game-suit probability, at least ``suit_floor``)
    are read whole from the (H, W) ink ``darkness``; ``image`` is
    the BGR working image (the suits' colours, ``colours`` those measured already).  An
    unread pair is rescued where the network reads its card at least ``sure`` surely.
    With ``read``, the glyph readers' rank and suit (column indices) of every pair, a
    passing reading is overruled where the network reads another card surely
    (:data:`WHOLE_OVERRULES`)."""
    passing = scores >= min_score
    ask = np.flatnonzero(passing | (suit_like >= suit_floor))
    net = index_net()
    chosen = [pairs[int(i)] for i in ask]
    origins, downs, units, ratios = pair_frames(ink, chosen)
    rank_columns = [net.ranks.index(r) for r in GAME_RANKS[game]]
    # Only a passing pair's verdict, or a rank that may reach ``sure``, is acted on.
    reach = Reach(rank_columns, sure, passing[ask])
    rank_p, suit_p = net.probabilities(index_patches(darkness, origins, downs, units), ratios, reach)
    other_rank, other_suit = rank_p[:, -1], suit_p[:, -1]
    rank_p = rank_p[:, rank_columns]
    suit_p = suit_p[:, [net.suits.index(s) for s in GAME_SUITS[game]]]
    # A card's score is at most its rank's probability: only those that may pass are measured.
    may_pass = rank_p.max(axis=1) >= sure
    suit_p = suit_p * _colour_prior(image, ink, chosen, may_pass, by_colour, GAME_SUITS[game], colours)
    suit_p = suit_p / (suit_p.sum(axis=1, keepdims=True) + other_suit[:, None] + 1e-6)
    whole_scores = rank_p.max(axis=1) * suit_p.max(axis=1)
    vetoed = (
        passing[ask]
        & (scores[ask] < WHOLE_STANDS)
        & (other_rank >= WHOLE_OTHER)
        & (other_suit >= WHOLE_OTHER)
    )
    rescue = ~passing[ask] & (whole_scores >= sure)
    overrule = np.zeros(len(ask), bool)
    if read is not None:
        # A "1" stays: the Mahjong's index, which the network does not know.
        ranks_read, suits_read = read[0][ask], read[1][ask]
        other_card = (rank_p.argmax(axis=1) != ranks_read) | (suit_p.argmax(axis=1) != suits_read)
        ranks = GAME_RANKS[game]
        not_one = ranks_read != ranks.index("1") if "1" in ranks else np.ones(len(ask), bool)
        unsure = passing[ask] & (scores[ask] < WHOLE_STANDS)
        overrule = unsure & (whole_scores >= WHOLE_OVERRULES) & other_card & not_one
    taken = rescue | overrule
    return WholeReadings(
        vetoed=ask[vetoed],
        rescued=ask[taken],
        ranks=rank_p[taken].argmax(axis=1),
        suits=suit_p[taken].argmax(axis=1),
        scores=whole_scores[taken],
        units=units[taken],
        overruled=ask[overrule],
    )


def _network_agrees(
    squares: np.ndarray,
    heights: np.ndarray,
    widths: np.ndarray,
    rows: tuple[np.ndarray, np.ndarray],
    read: tuple[np.ndarray, np.ndarray],
    columns: tuple[list[int], list[int]],
    game: str,
    known: np.ndarray | None = None,
) -> np.ndarray:
    """(N,) bool: where the glyph network reads N pairs' rank and suit as ``read`` (indices
    into the game's rank and suit ``columns``) at least :data:`EDGE_NETWORK_SURE` surely.
    ``squares`` (M, GLYPH_SIZE, GLYPH_SIZE), ``heights`` and ``widths`` (M,) are the glyphs of
    :func:`glyph_squares`; ``rows`` the (N,) rows of each pair's rank and suit among them;
    ``known`` (M, len(CLASSES)) the network's readings already made (NaN rows: not read)."""
    needed = sorted({*rows[0].tolist(), *rows[1].tolist()})
    at = {row: k for k, row in enumerate(needed)}
    raw = np.full((len(needed), len(CLASSES)), np.nan, np.float32) if known is None else known[needed]
    missing = np.flatnonzero(np.isnan(raw[:, 0]))
    if missing.size:
        unread = np.asarray(needed)[missing]
        aspects = glyph_aspects(heights[unread], widths[unread])
        raw[missing] = glyph_net().probabilities(squares[unread], aspects)
    net = ones_as_tens(raw, game)
    agreed = np.ones(len(rows[0]), bool)
    for part_rows, part_read, part_columns, sure in zip(rows, read, columns, EDGE_NETWORK_SURE, strict=True):
        p = net[[at[int(row)] for row in part_rows]][:, part_columns]
        agreed &= (p.argmax(axis=1) == part_read) & (p.max(axis=1) >= sure)
    return agreed


#: The pairs whose rank reads at least :data:`TURN_FLOOR` (those worth the other turns
#: without a profile) are also read in context (:func:`context_vectors`).  Without a
#: profile, the context model's reading weighs this much in a blend with the reading of the
#: other two readers (the perceptron and the glyph network, averaged, then over turns).
#: (Held-out-family validation photos at pass scores 0.4 and 0.65, before the floor below:
#: 0.4 found a card or two more or fewer a set; 0.6 three more on one standard set but 2.2
#: points less recall on one Tichu set.
#: Blended in alone, without the network, the context model could be surely wrong on decks
#: drawn otherwise: it called clean drawn court cards and diamonds "other", a blurred 3 an 8;
#: so it used to confirm only, as it still does after calibration, below.)
CONTEXT_WEIGHT = 0.5
#: ... but it never takes a reading below this share of what the other two read: where it
#: alone is surely wrong (a "1" whose "0" the next card hides, a clean drawn diamond), the
#: glyph readers' sure reading still passes.  (On validation photos 0.7 found up to two
#: cards more a set than no floor, for up to 0.4 points of precision, 0.6 about as many;
#: 0.85 up to two more than 0.7 for up to 0.3 points of precision, but on held-out photos
#: 0.5 to 1.7 points less precision than 0.7.)
CONTEXT_FLOOR = 0.7
#: With a profile the context model only confirms: where its best guess is the glyph model's
#: and it is at least this sure of it (on held-out-family validation photos, surer
#: confirmations found fewer cards, less sure ones let through more scraps) ...
CONTEXT_SURE = 0.9
#: ... its reading weighs this much in a blend that may raise the calibrated reading, never
#: lower it: that reading must reach the surer MIN_PAIR_SCORE, and the calibrated
#: development decks' recall rose most with the context model's reading taken whole where
#: it is the surer (0.7 found fewer cards, the same precision).
CALIBRATED_CONTEXT_WEIGHT = 1.0


#: Suits printed in one colour, between which the confirming context model may settle
#: (standard decks: held-out-family validation precision 0.945 to 0.947 and
#: standard_heldout 0.966 to 0.971, recall unchanged, when built-in readings were confirmed
#: this way too).
SAME_COLOUR_SUITS = ({"clubs", "spades"}, {"hearts", "diamonds"})


def _blended_with_context(
    ink: Ink,
    pairs: list[IndexPair],
    vectors: np.ndarray,
    rows: tuple[list[int], list[int]],
    readings: tuple[np.ndarray, np.ndarray],
    hopeful: np.ndarray,
    columns: tuple[list[int], list[int]],
    weight: float = CONTEXT_WEIGHT,
    confirm_only: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The (N, ranks) and (N, suits) ``readings`` of ``pairs`` blended with the context
    model's (:func:`context_model`; only the ``hopeful`` (N,) pairs are read; ``columns``:
    the model's classes of the readings' ranks and suits; ``weight``: of the context
    model's reading in the blend).

    The context model reads a glyph with the ink around it, so it sees a rank's stroke that
    the segmentation cut away (read unsurely by the glyph readers alone).  It learnt from
    the scanner's crops of synthetic scenes, and on decks drawn otherwise it can be surely
    wrong, so it lowers a reading at most to :data:`CONTEXT_FLOOR` of it.  With
    ``confirm_only`` (after calibration) it only raises a reading: where its best guess
    differs from the glyph model's, is not sure (:data:`CONTEXT_SURE`), or reads lower, the
    reading stands.
    """
    rank_p, suit_p = readings
    chosen = np.flatnonzero(hopeful)
    if chosen.size == 0:
        return rank_p, suit_p
    rank_rows, suit_rows = rows
    own = np.empty((2 * chosen.size, vectors.shape[1]), np.float32)
    own[0::2] = vectors[np.asarray(rank_rows)[chosen]]
    own[1::2] = vectors[np.asarray(suit_rows)[chosen]]
    chosen_pairs = [pairs[int(i)] for i in chosen]
    glyphs = [(part, pair.down) for pair in chosen_pairs for part in (pair.rank, (pair.suit,))]
    context = context_model().probabilities(context_vectors(ink, glyphs, own))
    raised = []
    parts = ((rank_p, context[0::2], columns[0], False), (suit_p, context[1::2], columns[1], True))
    for reading, seen, glyph_columns, suits in parts:
        own_p = reading[chosen]
        seen_p = seen[:, glyph_columns]
        reading = reading.copy()
        if not confirm_only:
            reading[chosen] = np.maximum((1 - weight) * own_p + weight * seen_p, CONTEXT_FLOOR * own_p)
            raised.append(reading)
            continue
        blend = np.maximum(own_p, (1 - weight) * own_p + weight * seen_p)
        own_best, seen_best = own_p.argmax(axis=1), seen_p.argmax(axis=1)
        agree = seen_best == own_best
        if suits:
            # Two suits printed in one colour differ in details blur takes away (a club's
            # lobes, a spade's point), which the ink around the symbol may still show.
            names = [CLASSES[column] for column in glyph_columns]
            read = [{names[a], names[b]} for a, b in zip(own_best, seen_best, strict=True)]
            agree |= np.array([suits_read in SAME_COLOUR_SUITS for suits_read in read], bool)
        agree &= seen_p.max(axis=1) >= CONTEXT_SURE
        reading[chosen[agree]] = blend[agree]
        raised.append(reading)
    return raised[0], raised[1]


#: Ink this large (a share of a "1"'s size) beside it across its "down" may be a "0".
BESIDE_SIZE = 0.3


def _ink_beside(ink: Ink, pair: IndexPair, image: np.ndarray | None = None) -> bool:
    """True when a component other than ``pair``'s suit lies beside its single rank glyph,
    across "down" on the right (upright), where the "0" of a "10" stands (the geometry
    :func:`index_pairs` pairs a "10" by, whatever that ink's size).  With the BGR working
    ``image``, ink of another colour than the rank's (:func:`ink_colour`) is no "0" of its
    "10": in a fan it is the next card's art or frame.

    >>> labels = np.zeros((10, 10), np.int32)
    >>> boxes = np.zeros((3, 4), np.int32)
    >>> centers = np.array([[10, 10], [10, 25], [21, 11]], np.float32)  # "1", suit, "0"
    >>> sizes = np.array([12, 8, 6], np.float32)
    >>> ink = Ink(labels, boxes, centers, sizes, np.zeros(3, np.int32))
    >>> _ink_beside(ink, IndexPair((0,), 1, (0.0, 1.0)))
    True
    >>> from dataclasses import replace
    >>> _ink_beside(replace(ink, centers=centers[:2], sizes=sizes[:2]), IndexPair((0,), 1, (0.0, 1.0)))
    False
    >>> _ink_beside(ink, IndexPair((0,), 1, (0.0, -1.0)))  # upside down: that ink is on its left
    False
    """
    rank = pair.rank[0]
    size = float(ink.sizes[rank])
    offset = ink.centers.astype(np.float64) - ink.centers[rank]
    dx, dy = pair.down
    along = np.abs(offset[:, 0] * dx + offset[:, 1] * dy)
    across = offset[:, 0] * dy - offset[:, 1] * dx  # to the right of the rank, upright
    beside = (across >= 0.3 * size) & (across <= 1.1 * size) & (along <= 0.3 * size)
    beside &= ink.sizes >= BESIDE_SIZE * size
    if ink.parent is not None:
        beside &= ink.parent < 0
    beside[[rank, pair.suit]] = False
    if image is not None and beside.any():
        colour = ink_colour(image, ink, rank)
        if colour:
            for other in np.flatnonzero(beside):
                beside[other] = ink_colour(image, ink, int(other)) in ("", colour)
    return bool(beside.any())


def _colour_prior(
    image: np.ndarray,
    ink: Ink,
    pairs: list[IndexPair],
    may_pass: np.ndarray,
    by_colour: dict[str, tuple[str, ...]],
    suits: tuple[str, ...],
    colours: dict[int, str] | None = None,
) -> np.ndarray:
    """(len(pairs), len(suits)) factors for the ``suits`` by each pair's suit colour (the
    suits ``by_colour`` allows it); only pairs whose rank may pass (``may_pass``, bool: a
    pair's score is at most its rank's probability) are measured, each component once
    (``colours``: the components measured so far, by component, filled in)."""
    factors = np.ones((len(pairs), len(suits)), np.float32)
    colours = {} if colours is None else colours
    for i in np.flatnonzero(may_pass):
        suit = pairs[int(i)].suit
        if suit not in colours:
            colours[suit] = ink_colour(image, ink, suit)
        allowed = by_colour.get(colours[suit])
        if allowed:
            factors[i] = [1.0 if name in allowed else COLOUR_MISMATCH for name in suits]
    return factors


#: Special cards a calibrated deck may mark in its index corners, by name.
MARKS: dict[str, Special] = {"Dog": Special.DOG, "Phoenix": Special.PHOENIX, "Dragon": Special.DRAGON}
#: A component reads as a special card's mark when its nearest exemplar is that mark, at most
#: this many exemplar spreads away (calibration photos are clean: their spread is tight) ...
MARK_SPREADS = 5.0
#: ... and the nearest exemplar of a rank or suit lies at least this much further.
MARK_MARGIN = 1.25
#: ... or only this much further where the mark lies at a fan's gap (:func:`fan_gap_frames`:
#: between two read neighbours, where an unread card's index must be).  (Twenty-first
#: session: the ten calibrated decks 1,888 found / 12 false to 1,891 / 12, exact points 335
#: to 337 of 360; at 1.05 the same, at 1.0 a false card more.)
MARK_FRAME_MARGIN = 1.1
#: ... or only this much further where the mark lies within ``MARK_CLOSE`` exemplar spreads
#: of its own exemplar, as alike as the calibration photos' marks are to each other: a
#: deck's six-pointed Dragon star is nearly as near its five-pointed Star suit, a "Dr" its
#: "J".  (Twenty-sixth session, eighteen fresh calibrated decks: of 7,075 candidates
#: nearest a mark and at most 1.7 times nearer a rank or suit, none false lay within 1.6
#: spreads; 2 cards more and 2 pile totals right, nothing false; the other fifteen decks
#: unchanged.)
MARK_CLOSE = 1.5
MARK_CLOSE_MARGIN = 0.8
#: A mark may face every quarter turn in which it lies at most this much further from its
#: nearest mark exemplar than in the best.
MARK_TURN_TOLERANCE = 1.1
#: A mark within this many glyph sizes of its nearest index lies in a fan or a neat pile
#: beside that card, and its card lies along that card's axis.
NEIGHBOUR_REACH = 5.0


@dataclass(frozen=True)
class MarkReading(IndexReading):
    """A special card read by its corner mark.  ``downs``: the directions its card may lie
    in (its pair's ``down`` first), quarter turns of each other, for the scanner to choose
    from by the photo: a symmetric mark (a star, a disc) does not tell."""

    downs: tuple[tuple[float, float], ...] = ()
    #: Centres of more marks read as the same special (its card's other corners, in view).
    twins: tuple[tuple[float, float], ...] = ()


def quarter_turn(down: tuple[float, float], turns: int) -> tuple[float, float]:
    """``down`` turned clockwise (on screen, y down) by ``turns`` quarter turns.

    >>> quarter_turn((0.0, 1.0), 1), quarter_turn((0.0, 1.0), 2)
    ((-1.0, 0.0), (-0.0, -1.0))
    """
    x, y = down
    for _ in range(turns % 4):
        x, y = -y, x
    return (x, y)


#: A loose mark's own card lies along the straight edges around it (its card's edges and
#: frame): they are looked for within this many glyph sizes of it ...
AXIS_REACH = 2.5
#: ... and trusted when this share of the edges' strength agrees on one axis (letters and
#: art alone point every way).
AXIS_AGREEMENT = 0.3
#: Turns a mark is compared in: its neighbour's four quarter turns, then the local edges' four.
MARK_TURNS = 8
#: A mark beside a reading, whose local edges run within this many degrees of that reading's
#: axis (modulo quarter turns), lies in a fan with it; further off, its card lies in a pile
#: at an angle of its own (a fan turns from card to card by a few degrees).
FAN_TILT = 15.0


def axes_agree(first: tuple[float, float], second: tuple[float, float], degrees: float) -> bool:
    """True when two directions lie within ``degrees`` of each other modulo quarter turns.

    >>> axes_agree((1.0, 0.0), (0.0, -1.0), 15.0), axes_agree((1.0, 0.0), (0.94, 0.34), 15.0)
    (True, False)
    >>> axes_agree((1.0, 0.0), (0.98, -0.17), 15.0)  # 10 degrees apart
    True
    """
    apart = math.degrees(math.atan2(first[1], first[0]) - math.atan2(second[1], second[0])) % 90.0
    return min(apart, 90.0 - apart) <= degrees


def local_axis(gray: np.ndarray, center: tuple[float, float], reach: float) -> tuple[float, float] | None:
    """The "down" (a unit vector) of the strongest straight-edge axis, modulo quarter turns,
    in the (H, W) uint8 ``gray`` image within ``reach`` pixels of ``center``, or None when the
    edges there agree on no axis.  Gradient angles are taken four times over, so that the
    four sides of a card (and its frame) all vote for the same axis.

    >>> gray = np.full((80, 80), 60, np.uint8)
    >>> card = cv2.boxPoints(((40.0, 40.0), (50.0, 70.0), 20.0)).astype(np.int32)
    >>> _ = cv2.fillPoly(gray, [card], 230)
    >>> x, y = local_axis(gray, (28.0, 22.0), 30.0)
    >>> 15 < math.degrees(math.atan2(y, x)) % 90 < 25  # drawn 20 degrees off the axes
    True
    >>> local_axis(np.full((40, 40), 200, np.uint8), (20.0, 20.0), 15.0) is None
    True
    """
    height, width = gray.shape
    x0, y0 = max(0, int(center[0] - reach)), max(0, int(center[1] - reach))
    x1, y1 = min(width, int(center[0] + reach) + 1), min(height, int(center[1] + reach) + 1)
    if x1 - x0 < 5 or y1 - y0 < 5:
        return None
    window = gray[y0:y1, x0:x1].astype(np.float32)
    gx = cv2.Sobel(window, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(window, cv2.CV_32F, 0, 1, ksize=3)
    strength = gx * gx + gy * gy
    total = float(strength.sum())
    if total <= 0.0:
        return None
    angle = np.arctan2(gy, gx)
    c = float((strength * np.cos(4.0 * angle)).sum())
    s = float((strength * np.sin(4.0 * angle)).sum())
    if math.hypot(c, s) < AXIS_AGREEMENT * total:
        return None
    axis = math.atan2(s, c) / 4.0  # an edge's normal; a card's "down" is one of its quarter turns
    return (math.cos(axis), math.sin(axis))


#: Two letters of a mark lie at most this many of the larger one's sizes apart (centre to
#: centre) ...
LETTER_PAIR_REACH = 1.2
#: ... and are each at least this share of a rank's size ...
LETTER_PAIR_SIZE = 0.4
#: ... and at most this many times longer than wide (scraps of frame lines are longer).
LETTER_PAIR_ELONGATION = 3.0


def _letter_pairs(ink: Ink, used: set[int], typical: float) -> list[tuple[int, int]]:
    """Pairs of neighbouring whole components, neither in ``used`` nor cut from a line, each
    letter-sized (:data:`LETTER_PAIR_SIZE` to 1.6 ``typical`` rank sizes) and together at most
    twice a rank's size: a two-letter mark's letters standing apart.

    >>> labels = np.zeros((40, 60), np.int32)
    >>> boxes = np.array([[10, 10, 8, 10], [20, 10, 8, 10], [45, 10, 8, 10]], np.int32)
    >>> centers = np.array([[14, 15], [24, 15], [49, 15]], np.float32)
    >>> ink = Ink(labels, boxes, centers, np.full(3, 10, np.float32), np.zeros(3, np.int32))
    >>> _letter_pairs(ink, set(), 12.0), _letter_pairs(ink, {1}, 12.0)
    ([(0, 1)], [])
    >>> ink.boxes[1] = [20, 10, 3, 10]  # a scrap of frame line beside the letter
    >>> _letter_pairs(ink, set(), 12.0)
    []
    """
    count = len(ink.centers)
    sizes = ink.sizes.astype(np.float64)
    free = (sizes >= LETTER_PAIR_SIZE * typical) & (sizes <= 1.6 * typical)
    sides = np.maximum(ink.boxes[:, 2:4].astype(np.float64), 1.0)
    free &= sides.max(axis=1) <= LETTER_PAIR_ELONGATION * sides.min(axis=1)
    for component in range(count):
        if not free[component]:
            continue
        lined = ink.lined is not None and bool(ink.lined[component])
        if component in used or ink.root(component) != component or lined:
            free[component] = False
    chosen = np.flatnonzero(free)
    if chosen.size < 2:
        return []
    points = ink.centers[chosen].astype(np.float64)
    apart = np.hypot(points[:, None, 0] - points[None, :, 0], points[:, None, 1] - points[None, :, 1])
    larger = np.maximum(sizes[chosen][:, None], sizes[chosen][None, :])
    near = np.triu(apart <= LETTER_PAIR_REACH * larger, 1)
    pairs = []
    for i, j in zip(*np.nonzero(near), strict=True):
        a, b = int(chosen[i]), int(chosen[j])
        boxes = ink.boxes[[a, b]].astype(np.float64)
        x0, y0 = boxes[:, :2].min(axis=0)
        x1, y1 = (boxes[:, :2] + boxes[:, 2:4]).max(axis=0)
        if np.hypot(x1 - x0, y1 - y0) / 1.25 <= 2.0 * typical:
            pairs.append((a, b))
    return pairs


def read_marks(
    ink: Ink,
    readings: list[IndexReading],
    profile: DeckProfile | None,
    image: np.ndarray | None = None,
    frames: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> list[MarkReading]:
    """Special cards (Dog, Phoenix, Dragon) found by the corner marks a calibrated ``profile``
    learnt from its deck: ink not read as an index, the size of the ``readings``' ranks (of
    their median or of its nearest one's: a photo taken at an angle shows near and far cards),
    looking like one of the marks in some quarter turn of its nearest reading's "down" or,
    with ``image``, of the straight edges around it (:func:`local_axis`: a special lying on
    its own, or in a pile, at its own angle).  Its size is that reading's.  Beside that
    reading, where the edges agree with its axis (a fan), its card lies along the reading's
    axis, either way round (a neighbour may show its other, turned index); where they do not
    (a pile), in any quarter turn of the edges; further off (a loose pile) in any turn its
    mark looks as alike in, or half round from one.  Without marks in the profile, none.

    With the BGR working ``image``, exemplars printed in another colour than the ink (as
    calibration learnt it, ``profile.colours``) are not compared: a green star mark is no
    red Star suit, nor another special's red star mark.

    ``frames``: :func:`fan_gap_frames` of the ``readings`` (origins, downs, units): a
    candidate at one of those origins, where a card's index must lie and none was read, needs
    only :data:`MARK_FRAME_MARGIN` over the ranks and suits; one within :data:`MARK_CLOSE`
    spreads of its mark's exemplar only :data:`MARK_CLOSE_MARGIN`."""
    if profile is None:
        return []
    is_mark = np.array([label in MARKS for label in profile.labels], bool)
    if not is_mark.any():
        return []
    if not readings:
        return lone_marks(ink, profile, image)
    used: set[int] = set()
    for reading in readings:
        used |= ink.pair_ink(reading.pair)
    typical = float(np.median([r.size for r in readings]))
    centers = np.array([r.center for r in readings], np.float32)
    glyphs: list[tuple[tuple[int, ...], tuple[float, float]]] = []
    sizes: list[float] = []
    beside: list[bool] = []
    for component in range(len(ink.centers)):
        # Parts split by blur too: a mark of two letters ("Dg") blurred into one component
        # is cut in two, and its first letter is the mark calibration learnt.  (Glyphs cut
        # from a frame line are not: an "A" so cut read as a Phoenix's mark.)
        lined = ink.lined is not None and bool(ink.lined[component])
        if component in used or ink.root(component) in used or lined:
            continue
        gaps = np.linalg.norm(centers - ink.centers[component], axis=1)
        nearest = readings[int(np.argmin(gaps))]
        size = float(ink.sizes[component])
        if not any(0.6 * scale <= size <= 1.6 * scale for scale in (typical, nearest.size)):
            continue
        glyphs.append(((component,), nearest.pair.down))
        sizes.append(nearest.size)
        beside.append(float(gaps.min()) <= NEIGHBOUR_REACH * nearest.size)
    # ... and the other way round: a mark calibration saw blurred into one glyph may stand
    # apart as two letters in a sharper photo, so neighbouring letters are tried joined.
    for pair in _letter_pairs(ink, used, typical):
        gaps = np.linalg.norm(centers - ink.centers[list(pair)].mean(axis=0), axis=1)
        nearest = readings[int(np.argmin(gaps))]
        glyphs.append((pair, nearest.pair.down))
        sizes.append(nearest.size)
        beside.append(float(gaps.min()) <= NEIGHBOUR_REACH * nearest.size)
    if not glyphs:
        return []
    # Exemplars printed in another colour than a candidate's ink are not compared; ink that
    # can be no mark at all is not turned and compared either.
    ruled_out = np.zeros((len(glyphs), len(profile.labels)), bool)
    if image is not None and profile.colours:
        printed = np.array([profile.colours.get(label, "") for label in profile.labels])
        for row, (components, _) in enumerate(glyphs):
            colour = ink_colour(image, ink, components[0])
            if colour:
                ruled_out[row] = (printed != "") & (printed != colour)
    may_be_mark: np.ndarray = np.any(is_mark & ~ruled_out, axis=1)
    # A special card in a pile may lie at any angle to its nearest neighbour: each candidate is
    # compared in the four quarter turns of the neighbour's "down" and of the straight edges
    # around it (a card lying on its own, or in a pile at an angle to its neighbour), as the
    # mark it looks most like in any turn, and as a rank or suit in any turn.
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image is not None else None
    downs_of = np.full((len(glyphs), MARK_TURNS, 2), np.nan)  # NaN: a turn not tried
    for row, (components, down) in enumerate(glyphs):
        if not may_be_mark[row]:
            continue
        downs_of[row, :4] = [quarter_turn(down, k) for k in range(4)]
        if gray is not None:
            center = ink.centers[components[0]]
            axis = local_axis(gray, (float(center[0]), float(center[1])), AXIS_REACH * sizes[row])
            if axis is not None and beside[row] and axes_agree(axis, down, FAN_TILT):
                axis = None  # in a fan: its card lies along its neighbour's axis
            if axis is not None:
                downs_of[row, 4:] = [quarter_turn(axis, k) for k in range(4)]
    tried = np.argwhere(~np.isnan(downs_of[:, :, 0]))  # (glyph, turn) rows
    if not len(tried):
        return []
    turned = [(glyphs[g][0], (float(downs_of[g, k, 0]), float(downs_of[g, k, 1]))) for g, k in tried]
    distance = np.full((len(glyphs), MARK_TURNS, len(profile.labels)), np.inf, np.float32)
    distance[tried[:, 0], tried[:, 1]] = euclidean_distances(glyph_vectors(ink, turned), profile.exemplars)
    distance[np.broadcast_to(ruled_out[:, None, :], distance.shape)] = np.inf
    per_turn = np.where(is_mark, distance, np.inf)
    turn_distance = per_turn.min(axis=2)
    turn = turn_distance.argmin(axis=1)
    to_mark = per_turn[np.arange(len(glyphs)), turn]
    # The rank or suit it might also be, in whichever turn suits it best.
    to_other = np.where(is_mark, np.inf, distance).min(axis=(1, 2))
    best = to_mark.argmin(axis=1)
    best_distance = to_mark[np.arange(len(glyphs)), best]
    reach = MARK_SPREADS * profile.spread
    found: dict[str, MarkReading] = {}
    taken: set[int] = set()
    # The other marks of a special already found (its card's other corner): where it lies.
    twins: dict[str, list[tuple[float, float]]] = {}
    at = np.array([ink.centers[list(components)].mean(axis=0) for components, _ in glyphs])
    margin = np.full(len(glyphs), MARK_MARGIN)
    if frames is not None and len(frames[0]):
        origins, _, units = frames
        gaps = np.hypot(at[:, None, 0] - origins[None, :, 0], at[:, None, 1] - origins[None, :, 1])
        margin[(gaps <= FAN_GAP_NEAR * units[None, :]).any(axis=1)] = MARK_FRAME_MARGIN
    margin[best_distance <= MARK_CLOSE * profile.spread] = MARK_CLOSE_MARGIN
    for i in np.argsort(best_distance):
        if best_distance[i] > reach or to_other[i] < margin[i] * best_distance[i]:
            continue
        name = profile.labels[int(best[i])]
        components, _ = glyphs[int(i)]
        if taken & set(components):
            continue
        if _faint(ink, components):
            continue
        if name in found:
            twin = at[i]
            twins.setdefault(name, []).append((float(twin[0]), float(twin[1])))
            continue
        taken |= set(components)
        if beside[int(i)] and np.isnan(downs_of[i, 4, 0]):
            turns = np.array([0, 2])  # in a fan
        elif beside[int(i)]:
            turns = np.arange(4, MARK_TURNS)  # in a pile, at its own edges' angle
        else:
            turns = np.flatnonzero(turn_distance[i] <= MARK_TURN_TOLERANCE * best_distance[i])
            turns = np.union1d(turns, turns - turns % 4 + (turns + 2) % 4)
        downs = tuple((float(downs_of[i, k, 0]), float(downs_of[i, k, 1])) for k in turns)
        center = at[i]
        found[name] = MarkReading(
            IndexPair(components, components[0], downs[0]),
            name,
            "",
            float(np.exp(-0.5 * (best_distance[i] / reach) ** 2)),
            (float(center[0]), float(center[1])),
            sizes[int(i)],
            downs=downs,
        )
    return [replace(mark, twins=tuple(twins.get(name, ()))) for name, mark in found.items()]


#: A special card lying alone, with no index read anywhere to size its marks by: its two
#: corner marks, read as the same special, lie this many of their glyph sizes apart (its
#: diagonal between them: 7 for a card 5.2 by 7.4 glyphs, the scanner's generic card, up to
#: 17 for decks printing small marks on large cards) ...
LONE_MARK_SPAN = (4.0, 25.0)
#: ... and differ in size by at most this factor; the glyphs looked at are this many working
#: pixels across (a mark 6 pixels high is a speck; one of 90 a card's art).
LONE_MARK_RATIO = 1.5
LONE_MARK_SIZES = (6.0, 90.0)
#: The scanner's generic card lays its two opposite indices this many glyph sizes apart
#: (:func:`vision.scan.predicted_card`): a lone special is sized by its marks' distance.
INDEX_DIAGONAL = 7.18


def lone_marks(ink: Ink, profile: DeckProfile, image: np.ndarray | None = None) -> list[MarkReading]:
    """Special cards lying where no index was read at all (a Dragon alone on a pale cloth,
    where no outline parts it from the cloth), each found by both its corner marks: two
    glyphs read as the same special's mark, each as surely as :func:`read_marks` asks, of
    about one size, :data:`LONE_MARK_SPAN` of their sizes apart.  Each glyph is compared in
    the quarter turns of the straight edges around it (:func:`local_axis`, with ``image``),
    or of upright.  A mark's twin is the other; its size puts the two on its card's
    diagonal."""
    is_mark = np.array([label in MARKS for label in profile.labels], bool)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image is not None else None
    sizes = ink.sizes.astype(np.float64)
    # Parts cut from fused ink too: a mark printed against its card's frame is one.  (Its
    # pair of marks, a card's diagonal apart, keeps a letter cut from a line from passing.)
    candidates = [
        component
        for component in range(len(ink.centers))
        if LONE_MARK_SIZES[0] <= sizes[component] <= LONE_MARK_SIZES[1]
    ]
    if not candidates:
        return []
    turned: list[tuple[tuple[int, ...], tuple[float, float]]] = []
    for component in candidates:
        axis = None
        if gray is not None:
            center = ink.centers[component]
            axis = local_axis(gray, (float(center[0]), float(center[1])), AXIS_REACH * sizes[component])
        turned += [((component,), quarter_turn(axis or (0.0, 1.0), k)) for k in range(4)]
    distance = euclidean_distances(glyph_vectors(ink, turned), profile.exemplars)
    distance = distance.reshape(len(candidates), 4, len(profile.labels)).min(axis=1)
    to_mark = np.where(is_mark, distance, np.inf)
    best = to_mark.argmin(axis=1)
    best_distance = to_mark[np.arange(len(candidates)), best]
    to_other = np.where(is_mark, np.inf, distance).min(axis=1)
    reach = MARK_SPREADS * profile.spread
    sure = (best_distance <= reach) & (to_other >= MARK_MARGIN * best_distance)
    # A part is not looked at where its whole reads as a mark: the "D" of a Dog's "Dg" is
    # no Dragon's "Dr".
    sure_roots = {
        candidates[row] for row in np.flatnonzero(sure) if ink.root(candidates[row]) == candidates[row]
    }
    by_name: dict[str, list[int]] = {}
    for row in np.flatnonzero(sure):
        component = candidates[row]
        if ink.root(component) != component and ink.root(component) in sure_roots:
            continue
        if not _faint(ink, (component,)):
            by_name.setdefault(profile.labels[int(best[row])], []).append(int(row))
    found: list[MarkReading] = []
    for name, rows in by_name.items():
        pairs = []
        for first in rows:
            for second in (row for row in rows if row > first):
                a, b = sizes[candidates[first]], sizes[candidates[second]]
                span = float(np.linalg.norm(ink.centers[candidates[first]] - ink.centers[candidates[second]]))
                alike = max(a, b) <= LONE_MARK_RATIO * min(a, b)
                if alike and LONE_MARK_SPAN[0] <= span / max(a, b) and span / min(a, b) <= LONE_MARK_SPAN[1]:
                    pairs.append((float(best_distance[first] + best_distance[second]), first, second, span))
        if not pairs:
            continue
        _, first, second, span = min(pairs)
        component, twin = candidates[first], candidates[second]
        center, other = ink.centers[component], ink.centers[twin]
        found.append(
            MarkReading(
                IndexPair((component,), component, (0.0, 1.0)),
                name,
                "",
                float(np.exp(-0.5 * (max(best_distance[first], best_distance[second]) / reach) ** 2)),
                (float(center[0]), float(center[1])),
                span / INDEX_DIAGONAL,
                downs=((0.0, 1.0),),
                twins=((float(other[0]), float(other[1])),),
            )
        )
    return found


#: A mark is printed in ink: its darkest tenth is at least this dark (:attr:`Ink.darkness`,
#: 1 = as dark as ink gets).  A card's pale art (a pastel triangle) can take a letter's
#: shape, but not its depth.
MARK_INK = 0.8


def _faint(ink: Ink, components: tuple[int, ...]) -> bool:
    """True when the ink of ``components`` is too pale for a printed mark (:data:`MARK_INK`).

    >>> labels = np.zeros((6, 6), np.int32); labels[1:5, 1:5] = 1
    >>> darkness = np.full((6, 6), 0.5, np.float32)
    >>> ink = Ink(labels, np.array([[1, 1, 4, 4]], np.int32), np.array([[2.5, 2.5]], np.float32),
    ...           np.array([4.0], np.float32), np.zeros(1, np.int32), darkness=darkness)
    >>> _faint(ink, (0,))
    True
    >>> darkness[2, 1:4] = 1.0  # its darkest tenth as dark as ink
    >>> _faint(ink, (0,))
    False
    """
    darkness = ink.darkness
    if darkness is None:
        return False
    values = []
    for component in components:
        x, y, w, h = (int(v) for v in ink.boxes[component])
        # (A part cut from a fused component has its pixels in ``part_labels``.)
        parts = ink.part_labels
        source = ink.labels if parts is None or ink.root(component) == component else parts
        own = source[y : y + h, x : x + w] == component + 1
        values.append(darkness[y : y + h, x : x + w][own])
    ink_values = np.concatenate(values)
    return bool(ink_values.size) and float(np.percentile(ink_values, 90)) < MARK_INK


#: Two readings are neighbours in a fan when their downs differ by at most this (degrees) ...
FAN_ANGLE = 20.0
#: ... their rank-to-suit distances by at most this factor ...
FAN_UNIT = 1.33
#: ... and the step between them runs across their cards more than along them (the step's
#: share along the down at most this).
FAN_ALONG = 0.5
#: A gap between neighbours of at least this many of the fan's steps holds unread cards; at
#: most this many are looked for in one gap.
FAN_GAP_STEPS = 1.5
FAN_GAP_MOST = 6
#: A fan's end readings lie a step apart when their gap is within this share of the step.
FAN_END_TOLERANCE = 0.3
#: An index looked for in a gap counts when the index networks read it at least this surely,
#: ink lies within this many rank-to-suit distances of its rank's place, and no reading does.
FAN_GAP_SURE = 0.65
FAN_GAP_NEAR = 0.6
#: ... or, with no ink so near, at least this surely: segmentation lost the index (a rank
#: and suit run into a thick rim, or dropped with the card's edge) but its darkness shows.
#: (The 33 calibrated decks: 7 cards more, none false, one pile total more; frames lying
#: on no card read at most 0.6.  The built-in sample sets: one card more.)
FAN_GAP_INKLESS_SURE = 0.9


def fan_gap_frames(ink: Ink, readings: list[IndexReading]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where a fan's unread indices must lie: between two readings that are neighbours along a
    fan (:data:`FAN_ANGLE`, :data:`FAN_UNIT`, :data:`FAN_ALONG`, no reading between them) and
    lie at least :data:`FAN_GAP_STEPS` of the fan's steps apart, as many indices as the step
    fits, in frames interpolated between theirs; and one step beyond each end of a fan whose
    end readings lie a step apart.  A fan's step is the median of the smaller half of its
    neighbour gaps (a fan of one gap takes the photo's; so at least three readings are
    needed).  Returns the index
    frames' (N, 2) origins, (N, 2) downs and (N,) units, float32 (:func:`pair_frames`).

    >>> ink = Ink(np.zeros((5, 5), np.int32), np.zeros((10, 4), np.int32),
    ...           np.array([[x, y] for x in (100, 130, 160, 250, 280) for y in (100, 120)], np.float32),
    ...           np.full(10, 10.0, np.float32), np.zeros(10, np.int32))
    >>> readings = [IndexReading(IndexPair((2 * k,), 2 * k + 1, (0.0, 1.0)), "7", "star", 0.9,
    ...             (float(ink.centers[2 * k][0]), 100.0), 10.0) for k in range(5)]
    >>> origins, downs, units = fan_gap_frames(ink, readings)
    >>> origins.round().tolist()  # two cards between 160 and 250, and one beyond each end
    [[190.0, 100.0], [220.0, 100.0], [70.0, 100.0], [310.0, 100.0]]
    >>> downs.tolist()[0], units.tolist()
    ([0.0, 1.0], [20.0, 20.0, 20.0, 20.0])

    A loosely spread fan (60 pixels a card) elsewhere in the photo has a step of its own: no
    card is looked for between its readings, only beyond its ends.

    >>> xs = [100, 130, 160, 190, 100, 160, 220]
    >>> ys = [100] * 4 + [400] * 3
    >>> ink = Ink(np.zeros((5, 5), np.int32), np.zeros((14, 4), np.int32),
    ...           np.array([[x, y + d] for x, y in zip(xs, ys) for d in (0, 20)], np.float32),
    ...           np.full(14, 10.0, np.float32), np.zeros(14, np.int32))
    >>> readings = [IndexReading(IndexPair((2 * k,), 2 * k + 1, (0.0, 1.0)), "7", "star", 0.9,
    ...             (float(xs[k]), float(ys[k])), 10.0) for k in range(7)]
    >>> fan_gap_frames(ink, readings)[0].round().tolist()
    [[70.0, 100.0], [220.0, 100.0], [40.0, 400.0], [280.0, 400.0]]
    """
    none = (np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32), np.zeros(0, np.float32))
    indexed = [r for r in readings if r.suit and r.rank not in MARKS and r.rank != JOKER]
    if len(indexed) < 3:
        return none
    origins, downs, units, _ = pair_frames(ink, [r.pair for r in indexed])
    angles = np.arctan2(downs[:, 1], downs[:, 0])
    gaps: list[tuple[int, int, float]] = []
    for i in range(len(indexed)):
        turned = np.abs(np.angle(np.exp(1j * (angles - angles[i])))) <= np.radians(FAN_ANGLE)
        alike = turned & (units <= FAN_UNIT * units[i]) & (units * FAN_UNIT >= units[i])
        offsets = origins - origins[i]
        lengths = np.hypot(offsets[:, 0], offsets[:, 1])
        across = offsets @ np.array([downs[i, 1], -downs[i, 0]], np.float32)
        along = np.abs(offsets @ downs[i])
        beside = alike & (across > 0) & (along <= FAN_ALONG * lengths)
        for j in np.flatnonzero(beside):
            # No reading of the fan lies between them (near the line joining them).
            step = offsets[j] / lengths[j]
            reach = offsets @ step
            off_line = np.abs(offsets @ np.array([step[1], -step[0]], np.float32))
            between = alike & (reach > 1e-3) & (reach < lengths[j] - 1e-3) & (off_line < 0.5 * units[i])
            if not between.any():
                gaps.append((i, int(j), float(lengths[j])))
    if len(gaps) < 2:
        return none
    # Each fan (readings joined by neighbour gaps) has its own step: a tight fan's is no
    # guide to a loose one's.  A fan of a single gap takes the photo's.
    fan = list(range(len(indexed)))

    def root(k: int) -> int:
        while fan[k] != k:
            fan[k] = fan[fan[k]]
            k = fan[k]
        return k

    for left, right, _ in gaps:
        fan[root(left)] = root(right)
    lengths_of: dict[int, list[float]] = {}
    for left, _, length in gaps:
        lengths_of.setdefault(root(left), []).append(length)

    def smaller_half_median(lengths: list[float]) -> float:
        ordered = sorted(lengths)
        return float(np.median(ordered[: max(1, len(ordered) // 2)]))

    photo_step = smaller_half_median([length for _, _, length in gaps])
    steps = {k: smaller_half_median(v) if len(v) >= 2 else photo_step for k, v in lengths_of.items()}
    found: list[tuple[np.ndarray, np.ndarray, float]] = []
    for left, right, length in gaps:
        step = steps[root(left)]
        missing = round(length / step) - 1
        if length < FAN_GAP_STEPS * step or not 1 <= missing <= FAN_GAP_MOST:
            continue
        for k in range(1, missing + 1):
            share = k / (missing + 1)
            down = downs[left] * (1 - share) + downs[right] * share
            found.append(
                (
                    origins[left] * (1 - share) + origins[right] * share,
                    down / max(float(np.hypot(down[0], down[1])), 1e-6),
                    float(units[left] * (1 - share) + units[right] * share),
                )
            )
    # One step beyond each end of a run of neighbours one step apart.
    has_left = {right for _, right, _ in gaps}
    has_right = {left for left, _, _ in gaps}
    for left, right, length in gaps:
        step = steps[root(left)]
        if abs(length - step) > FAN_END_TOLERANCE * step:
            continue
        if left not in has_left:
            found.append((2 * origins[left] - origins[right], downs[left], float(units[left])))
        if right not in has_right:
            found.append((2 * origins[right] - origins[left], downs[right], float(units[right])))
    if not found:
        return none
    return (
        np.array([f[0] for f in found], np.float32),
        np.array([f[1] for f in found], np.float32),
        np.array([f[2] for f in found], np.float32),
    )


def read_frames(
    darkness: np.ndarray,
    origins: np.ndarray,
    downs: np.ndarray,
    units: np.ndarray,
    game: str,
    sure: float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The index networks' reading of index frames (:func:`vision.indexnet.pair_frames`) that
    no pair proposed: (N, ranks) and (N, suits) probabilities over the ``game``'s ranks and
    suits (a suit's share of "other" kept back) and (N,) scores, the best rank's probability
    times the best suit's.  Such a frame's glyphs were never measured, so the network reads
    them at the typical ratio of unit to rank size (:data:`INDEX_UNIT_PER_SIZE`).  With
    ``sure``, only scores that may reach it are exact (:class:`vision.indexnet.Reach`: a
    frame hopeless after the first networks is not read by the rest)."""
    net = index_net()
    ratios = np.full(len(origins), np.log(1.0 / INDEX_UNIT_PER_SIZE), np.float32)
    rank_columns = [net.ranks.index(r) for r in GAME_RANKS[game]]
    reach = None if sure is None else Reach(rank_columns, sure, np.zeros(len(origins), bool))
    rank_p, suit_p = net.probabilities(index_patches(darkness, origins, downs, units), ratios, reach)
    other_suit = suit_p[:, -1]
    rank_p = rank_p[:, rank_columns]
    suit_p = suit_p[:, [net.suits.index(s) for s in GAME_SUITS[game]]]
    suit_p = suit_p / (suit_p.sum(axis=1, keepdims=True) + other_suit[:, None] + 1e-6)
    return rank_p, suit_p, rank_p.max(axis=1) * suit_p.max(axis=1)


def _unread_places(origins: np.ndarray, units: np.ndarray, readings: list[IndexReading]) -> np.ndarray:
    """(N,) bool: which of the (N, 2) frame ``origins`` no reading stands at, within
    :data:`FAN_GAP_NEAR` of its frame's unit ((N,) ``units``).

    >>> from vision.detect import IndexPair
    >>> seven = IndexReading(IndexPair((0,), 1, (0.0, 1.0)), "7", "star", 0.9, (10.0, 10.0), 8.0)
    >>> origins = np.array([[12.0, 10.0], [40.0, 10.0]], np.float32)
    >>> _unread_places(origins, np.array([10.0, 10.0], np.float32), [seven]).tolist()
    [False, True]
    >>> _unread_places(origins, np.array([10.0, 10.0], np.float32), []).tolist()
    [True, True]
    """
    if not readings:
        return np.ones(len(origins), bool)
    read_at = np.array([r.center for r in readings], np.float32)
    distance = np.hypot(*(origins[:, None, :] - read_at[None, :, :]).transpose(2, 0, 1)).min(axis=1)
    return np.asarray(distance >= FAN_GAP_NEAR * units)


def read_fan_gaps(ink: Ink, readings: list[IndexReading], game: str) -> list[IndexReading]:
    """The indices of :func:`fan_gap_frames` that the index networks read whole at least
    :data:`FAN_GAP_SURE` surely (rank times suit; no Mahjong, whose "1" they read poorly),
    where ink lies (or, read :data:`FAN_GAP_INKLESS_SURE` surely, where none does) and no
    reading stands already: an index that segmentation broke past every reader (a rank run
    into the next card's dark rim) is still read from where its neighbours say it is."""
    origins, downs, units = fan_gap_frames(ink, readings)
    if not len(origins) or ink.darkness is None or not len(ink.centers):
        return []
    fresh = _unread_places(origins, units, readings)
    origins, downs, units = origins[fresh], downs[fresh], units[fresh]
    if not len(origins):
        return []
    ranks, suits = GAME_RANKS[game], GAME_SUITS[game]
    rank_p, suit_p, scores = read_frames(ink.darkness, origins, downs, units, game)
    found = []
    for k in np.flatnonzero(scores >= FAN_GAP_SURE):
        rank = ranks[int(rank_p[k].argmax())]
        distance = np.hypot(*(ink.centers - origins[k]).T)
        nearest = int(np.argmin(distance))
        if rank == "1" or (distance[nearest] > FAN_GAP_NEAR * units[k] and scores[k] < FAN_GAP_INKLESS_SURE):
            continue
        down = (float(downs[k][0]), float(downs[k][1]))
        found.append(
            IndexReading(
                IndexPair((nearest,), nearest, down),
                rank,
                suits[int(suit_p[k].argmax())],
                float(scores[k]),
                (float(origins[k][0]), float(origins[k][1])),
                float(units[k]) / INDEX_UNIT_PER_SIZE,
                whole=True,
            )
        )
    return found


#: A glyph no reading took, sized like a suit (these shares of the photo's median rank size),
#: may be the suit of an index whose rank ran into something (the next card's rim, a frame
#: line, its own suit in a blur): the rank's place is looked at above it, one rank-to-suit
#: distance up each of the downs of the nearest :data:`FREE_SUIT_DOWNS` readings, and counts
#: where the index networks read a card there at least this surely (as in a fan's gap).
FREE_SUIT_SURE = FAN_GAP_SURE
#: (A blurred suit grows, and may take a scrap of its rank along: from 0.5 to 1.4, two
#: cards fewer on the eighteen fresh decks; from 0.3 to 2.2, one more and one false more.)
FREE_SUIT_SIZES = (0.4, 1.7)
FREE_SUIT_DOWNS = 3
#: A glyph whose own size puts its index this many times larger or smaller than its nearest
#: reading's (a card nearer the camera than its neighbours, or farther) is also read at the
#: place its size says (the photo's readings give the ratio of the rank-to-suit distance to
#: the suit's size).  (The 33 calibrated decks, with the colour check below: 6 cards more,
#: 2 false more.)
FREE_SUIT_UNIT_DIFFERS = 1.2
#: (Downs closer than this cosine are one.)
FREE_SUIT_SAME_DOWN = 0.97


def read_above_free_suits(
    ink: Ink,
    readings: list[IndexReading],
    paper: np.ndarray,
    game: str,
    image: np.ndarray | None = None,
    colours: dict[str, str] | None = None,
) -> list[IndexReading]:
    """Indices found from their suit alone: every glyph on ``paper`` ((H, W) region labels,
    0 off paper) that no reading took and that is sized like a suit (:data:`FREE_SUIT_SIZES`)
    is read as an index's suit with the rank above it, facing as its nearest readings face
    and as large (:data:`FREE_SUIT_DOWNS`), where no reading stands; the surest reading of a
    place counts from :data:`FREE_SUIT_SURE` (no Mahjong, whose "1" the networks read poorly).
    A glyph sized for a larger or smaller index than its neighbours' is read at its own
    size's place too (:data:`FREE_SUIT_UNIT_DIFFERS`).  With the BGR working ``image`` and
    a deck's learnt suit ``colours`` (:attr:`vision.profile.DeckProfile.colours`), a reading
    whose glyph is inked plainly in another colour than its suit is printed in is dropped
    (the 33 calibrated decks: 2 false cards fewer, none lost).

    Prototyped on the eighteen fresh calibrated decks (glyphs 0.5 to 1.4 ranks in size),
    the frames of such glyphs (41 a photo) read 19 missed cards right from 0.65 and one
    wrongly; frames turned every quarter turn, or with the rank itself taken as the glyph,
    found more for as many wrong (see ``docs/scanner.md``)."""
    indexed = [r for r in readings if r.suit and r.rank not in MARKS and r.rank != JOKER]
    if not indexed or ink.darkness is None or not len(ink.centers):
        return []
    origins, downs, units, _ = pair_frames(ink, [r.pair for r in indexed])
    taken = np.zeros(len(ink.centers), bool)
    taken[[c for r in readings for c in (*r.pair.rank, r.pair.suit)]] = True
    rank_size = float(np.median([r.size for r in indexed]))
    height, width = paper.shape
    columns, rows = ink.centers[:, 0].astype(np.int64), ink.centers[:, 1].astype(np.int64)
    inside = (columns >= 0) & (columns < width) & (rows >= 0) & (rows < height)
    low, high = FREE_SUIT_SIZES[0] * rank_size, FREE_SUIT_SIZES[1] * rank_size
    free = ~taken & inside & (ink.sizes >= low) & (ink.sizes <= high)
    free[free] = paper[rows[free], columns[free]] > 0
    glyphs = np.flatnonzero(free)
    if not glyphs.size:
        return []
    centers = ink.centers[glyphs].astype(np.float32)
    # Each glyph's nearest readings (G, K), nearest first, and their downs: a down within
    # FREE_SUIT_SAME_DOWN of a nearer one kept is the same.
    nearest = np.argsort(np.hypot(*(centers[:, None, :] - origins[None, :, :]).transpose(2, 0, 1)), axis=1)
    nearest = nearest[:, :FREE_SUIT_DOWNS]
    near_downs = downs[nearest]
    kept = np.ones(nearest.shape, bool)
    for k in range(1, nearest.shape[1]):
        for j in range(k):
            same = np.einsum("gi,gi->g", near_downs[:, k], near_downs[:, j]) > FREE_SUIT_SAME_DOWN
            kept[:, k] &= ~(same & kept[:, j])
    glyph_of, which = np.nonzero(kept)
    frame_downs = near_downs[glyph_of, which]
    frame_units = units[nearest[glyph_of, which]]
    per_size = _unit_per_suit_size(ink, indexed, units)
    if per_size is not None:
        own = (per_size * ink.sizes[glyphs[glyph_of]]).astype(np.float32)
        differs = np.abs(np.log(own / np.maximum(frame_units, 1e-3))) > np.log(FREE_SUIT_UNIT_DIFFERS)
        glyph_of = np.concatenate([glyph_of, glyph_of[differs]])
        frame_downs = np.concatenate([frame_downs, frame_downs[differs]])
        frame_units = np.concatenate([frame_units, own[differs]])
    at = centers[glyph_of] - frame_downs * frame_units[:, None]
    vacant = _unread_places(at, frame_units, readings)
    if not vacant.any():
        return []
    glyph_of, at = glyph_of[vacant], at[vacant]
    frame_downs, frame_units = frame_downs[vacant], frame_units[vacant]
    rank_p, suit_p, scores = read_frames(ink.darkness, at, frame_downs, frame_units, game, FREE_SUIT_SURE)
    ranks, suits = GAME_RANKS[game], GAME_SUITS[game]
    found: list[IndexReading] = []
    for k in np.argsort(-scores, kind="stable"):
        glyph, origin, down, unit = int(glyphs[glyph_of[k]]), at[k], frame_downs[k], float(frame_units[k])
        rank = ranks[int(rank_p[k].argmax())]
        if scores[k] < FREE_SUIT_SURE or rank == "1":
            continue
        # Two glyphs of one index (a suit and a scrap of it) propose its place twice.
        if any(np.hypot(*(np.asarray(r.center) - origin)) < FAN_GAP_NEAR * unit for r in found):
            continue
        found.append(
            IndexReading(
                IndexPair((glyph,), glyph, (float(down[0]), float(down[1]))),
                rank,
                suits[int(suit_p[k].argmax())],
                float(scores[k]),
                (float(origin[0]), float(origin[1])),
                unit / INDEX_UNIT_PER_SIZE,
                whole=True,
            )
        )
    if image is not None and colours:
        found = [r for r in found if not _inked_otherwise(image, ink, r, colours)]
    return found


def _unit_per_suit_size(ink: Ink, indexed: list[IndexReading], units: np.ndarray) -> float | None:
    """The median ratio of the rank-to-suit distance ((N,) ``units`` of the ``indexed``
    readings' :func:`pair_frames`) to the suit glyph's size, over the readings read from a
    rank and a suit apart; None when there are none.

    >>> from vision.detect import IndexPair
    >>> ink = Ink(np.zeros((5, 5), np.int32), np.zeros((4, 4), np.int32), np.zeros((4, 2), np.float32),
    ...           np.array([12.0, 8.0, 24.0, 16.0], np.float32), np.zeros(4, np.int32))
    >>> pairs = [IndexPair((rank,), suit, (0.0, 1.0)) for rank, suit in ((0, 1), (2, 3), (3, 3))]
    >>> readings = [IndexReading(pair, "7", "star", 0.9, (0.0, 0.0), 10.0) for pair in pairs]
    >>> _unit_per_suit_size(ink, readings, np.array([12.0, 32.0, 5.0], np.float32))  # the third is no pair
    1.75
    """
    paired = np.array([r.pair.suit not in r.pair.rank for r in indexed], bool)
    if not paired.any():
        return None
    suit_sizes = ink.sizes[[r.pair.suit for r in indexed]]
    return float(np.median(units[paired] / np.maximum(suit_sizes[paired], 1.0)))


def _inked_otherwise(image: np.ndarray, ink: Ink, reading: IndexReading, colours: dict[str, str]) -> bool:
    """True when ``reading``'s suit glyph is inked plainly (:func:`ink_colour`) in another
    colour than ``colours`` (suit -> colour name) says its suit is printed in."""
    printed = colours.get(reading.suit, "")
    colour = ink_colour(image, ink, reading.pair.suit)
    return bool(printed and colour and colour != printed)


def _joker_ink(image: np.ndarray, ink: Ink, letters: list[int], pixels: np.ndarray) -> str:
    """A JOKER index's "suit": "coloured" (the big joker) or "black", by its letters' ink
    against the paper around them (:func:`ink_colour`, which small blurred letters keep),
    most letters agreeing; else by the chroma of its ``pixels`` ((N, 3) BGR) mean colour.

    >>> image = np.full((30, 60, 3), 235, np.uint8)
    >>> labels = np.zeros((30, 60), np.int32)
    >>> for k in range(3):
    ...     image[10:20, 5 + 18 * k : 15 + 18 * k] = (70, 70, 180)  # pale red letters
    ...     labels[10:20, 5 + 18 * k : 15 + 18 * k] = k + 1
    >>> boxes = np.array([[5 + 18 * k, 10, 10, 10] for k in range(3)], np.int32)
    >>> ink = Ink(labels, boxes, np.zeros((3, 2), np.float32), np.full(3, 12, np.float32),
    ...           np.zeros(3, np.int32), darkness=(labels > 0).astype(np.float32))
    >>> _joker_ink(image, ink, [0, 1, 2], image[labels > 0])
    'coloured'
    >>> grey = np.full((30, 3), 150, np.uint8)  # thin letters' pixels, blurred into the paper
    >>> _joker_ink(image, ink, [0, 1, 2], grey)  # measured against the paper they are red
    'coloured'
    >>> _joker_ink(np.full_like(image, 235), ink, [0, 1, 2], grey)  # no ink to measure
    'black'
    """
    colours = [ink_colour(image, ink, letter) for letter in letters]
    # Each letter counts by its ink: a scrap of frame line joined into a word (two pixels
    # wide, neutral) must not outvote the word's red letters run together.
    weights = [int(np.count_nonzero(component_mask(ink, (letter,))[0])) for letter in letters]
    named = sum(weight for colour, weight in zip(colours, weights, strict=True) if colour)
    if named * 2 > sum(weights):
        coloured = sum(
            weight for colour, weight in zip(colours, weights, strict=True) if colour and colour != "neutral"
        )
        return "coloured" if coloured * 2 > named else "black"
    mean = pixels.mean(axis=0)
    return "coloured" if float(mean.max() - mean.min()) >= JOKER_COLOURED else "black"


def read_jokers(ink: Ink, pairs: list[IndexPair], image: np.ndarray) -> tuple[list[IndexReading], set[int]]:
    """Joker indices, the letters J, O, K, E(, R) stacked evenly down a card's side, and the
    ink components those letters are.

    ``pairs`` are :func:`vision.detect.index_pairs`' proposals (a "J" above an "O" is one);
    ``image`` is the BGR working image the ink was found in, for the joker's colour.  The
    glyph model knows J and K, which is enough: J, then any letter, then K, then another
    (or no other, where the J and the K read :data:`JOKER_SURE_LETTERS` surely).
    """
    singles = [pair for pair in pairs if len(pair.rank) == 1]
    if not singles:
        return [], set()
    centers = ink.centers.astype(np.float64)
    sizes = ink.sizes.astype(np.float64)
    # Every chain grows one letter at a time, all chains at once: most end at the first step.
    chains = np.array([[pair.rank[0], pair.suit] for pair in singles], np.int64)
    alive = np.arange(len(singles))
    steps = centers[chains[:, 1]] - centers[chains[:, 0]]
    reach = 0.4 * np.hypot(steps[:, 0], steps[:, 1])
    ratio = sizes[None, :] / sizes[chains[:, 0]][:, None]
    for _ in range(3):
        targets = centers[chains[alive, -1]] + steps[alive]
        distance = np.hypot(
            centers[None, :, 0] - targets[:, None, 0], centers[None, :, 1] - targets[:, None, 1]
        )
        distance[(ratio[alive] < JOKER_RATIO[0]) | (ratio[alive] > JOKER_RATIO[1])] = np.inf
        np.put_along_axis(distance, chains[alive], np.inf, axis=1)
        nearest = distance.argmin(axis=1)
        found = distance[np.arange(len(alive)), nearest] <= reach[alive]
        grown = np.full(len(singles), -1, np.int64)
        grown[alive[found]] = nearest[found]
        chains = np.concatenate([chains, grown[:, None]], axis=1)
        alive = alive[found]
        if alive.size == 0:
            break
    starts = [
        (singles[i], [int(c) for c in chains[i] if c >= 0])
        for i in range(len(singles))
        if int((chains[i] >= 0).sum()) >= JOKER_LETTERS - 1
    ]
    if not starts:
        return [], set()
    # The first letter is read first: only chains starting with a J need their third read.
    firsts: list[tuple[tuple[int, ...], tuple[float, float]]] = [
        ((chain[0],), pair.down) for pair, chain in starts
    ]
    j_p = classify_glyphs(glyph_vectors(ink, firsts), None)[:, CLASS_INDEX["J"]]
    k_p = np.zeros_like(j_p)
    likely = np.flatnonzero(j_p >= JOKER_LETTER_P)
    if likely.size:
        thirds: list[tuple[tuple[int, ...], tuple[float, float]]] = [
            ((starts[i][1][2],), starts[i][0].down) for i in likely
        ]
        k_p[likely] = classify_glyphs(glyph_vectors(ink, thirds), None)[:, CLASS_INDEX["K"]]
    readings: list[IndexReading] = []
    used: set[int] = set()
    for i in np.argsort(-(j_p * k_p)):
        pair, chain = starts[int(i)]
        if j_p[i] < JOKER_LETTER_P or k_p[i] < JOKER_LETTER_P or used & set(chain):
            continue
        if len(chain) < JOKER_LETTERS and min(j_p[i], k_p[i]) < JOKER_SURE_LETTERS:
            continue
        used |= set(chain)
        boxes = ink.boxes[chain]
        x0, y0 = boxes[:, :2].min(axis=0)
        x1, y1 = (boxes[:, :2] + boxes[:, 2:]).max(axis=0)
        pixels = np.isin(ink.labels[y0:y1, x0:x1], [c + 1 for c in chain])
        center = ink.centers[chain[0]]
        readings.append(
            IndexReading(
                pair=IndexPair((chain[0],), chain[1], pair.down),
                rank=JOKER,
                suit=_joker_ink(image, ink, chain, image[y0:y1, x0:x1][pixels]),
                score=float(np.sqrt(j_p[i] * k_p[i])),
                center=(float(center[0]), float(center[1])),
                size=float(ink.sizes[chain[0]]) / 0.6,  # the letters are smaller than a rank
            )
        )
    return readings, used


#: A JOKER written down a card's side, its letters joined by blur or set tight, is a word
#: this many times longer than wide (9: small thin letters cut from the dark edge of the
#: card above them) ...
JOKER_WORD_ASPECT = (3.0, 9.0)
#: ... that falls into this many letters of equal length.
JOKER_WORD_LETTERS = 5
#: Letters closer than this (pixels, twice the radius) are joined into one word first.
JOKER_WORD_GAP = 3
#: A word of more components than this is no JOKER (a rank and its suit among pips).
JOKER_WORD_MEMBERS = 8


class _Word(NamedTuple):
    """A long thin run of ink: its components, its pixels (absolute ``xs``, ``ys``), the
    letter each pixel falls in counting along ``axis`` (a unit vector), and its length."""

    members: tuple[int, ...]
    xs: np.ndarray
    ys: np.ndarray
    letter: np.ndarray
    axis: tuple[float, float]
    length: float


def _long_words(ink: Ink, skip: set[int]) -> list[_Word]:
    """Runs of ink as long and thin as a word of ``JOKER_WORD_LETTERS`` letters, leaving out
    the ``skip`` components: components a few pixels apart joined, and single components
    (the letters run together into one, where joining would take in a neighbouring card's
    glyph a few pixels away too)."""
    if len(ink.boxes) == 0:
        return []
    # Only the window around all the ink is searched, from even offsets (the labelling
    # scans pixels in 2 x 2 blocks: so its runs are numbered as in the whole photo).
    height, width = ink.labels.shape
    side = 2 * JOKER_WORD_GAP + 1
    x0 = max(int(ink.boxes[:, 0].min()) - side, 0) & ~1
    y0 = max(int(ink.boxes[:, 1].min()) - side, 0) & ~1
    x1 = min(int((ink.boxes[:, 0] + ink.boxes[:, 2]).max()) + side, width)
    y1 = min(int((ink.boxes[:, 1] + ink.boxes[:, 3]).max()) + side, height)
    window = ink.labels[y0:y1, x0:x1]
    own = window > 0
    if skip:
        kept = np.ones(len(ink.boxes) + 1, bool)
        kept[[c + 1 for c in skip]] = False
        own &= kept.take(window)  # (a lookup: np.isin sorts the whole photo's labels)
    own_u8 = own.astype(np.uint8)
    joined = cv2.dilate(own_u8, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    _, labels = cv2.connectedComponentsWithAlgorithm(joined, 8, cv2.CV_32S, cv2.CCL_BBDT)
    found = cv2.findNonZero(own_u8)  # much faster than np.nonzero on a whole photo
    if found is None:
        return []
    points = found.reshape(-1, 2)
    words_at = labels[points[:, 1], points[:, 0]]
    xs, ys = points[:, 0] + x0, points[:, 1] + y0
    words = _words_among(ink, xs, ys, words_at)
    seen = {word.members for word in words}
    # Only components at least a word long (their box's diagonal) are measured alone.
    component = ink.labels[ys, xs]
    long_enough = np.zeros(len(ink.boxes) + 1, bool)
    long_enough[1:] = np.hypot(ink.boxes[:, 2], ink.boxes[:, 3]) >= 4 * JOKER_WORD_LETTERS
    chosen = long_enough[component]
    alone = _words_among(ink, xs[chosen], ys[chosen], component[chosen])
    return words + [word for word in alone if word.members not in seen]


def _words_among(ink: Ink, xs: np.ndarray, ys: np.ndarray, word_at: np.ndarray) -> list[_Word]:
    """The :func:`_long_words` among runs of ink pixels (``xs``, ``ys``) numbered by
    ``word_at`` (0 for none)."""
    if word_at.size == 0:
        return []
    # Every run's elongation from its second moments at once: only long thin ones are
    # measured closely.  (A filled L x S rectangle has variances L^2/12 and S^2/12.)
    total = np.bincount(word_at).astype(np.float64)
    total[0] = np.inf
    total[total == 0] = np.inf  # numbers with no pixels here (left-out components)
    fx, fy = xs.astype(np.float64), ys.astype(np.float64)
    mean_x, mean_y = np.bincount(word_at, fx) / total, np.bincount(word_at, fy) / total
    var_x = np.bincount(word_at, fx * fx) / total - mean_x**2
    var_y = np.bincount(word_at, fy * fy) / total - mean_y**2
    cov = np.bincount(word_at, fx * fy) / total - mean_x * mean_y
    spread = np.sqrt((var_x - var_y) ** 2 + 4 * cov**2)
    major = (var_x + var_y + spread) / 2
    minor = np.maximum((var_x + var_y - spread) / 2, 1e-6)
    elongation = np.sqrt(major / minor)
    low, high = JOKER_WORD_ASPECT
    likely = (elongation >= 0.75 * low) & (elongation <= 1.5 * high)
    likely &= np.sqrt(12 * major) >= 4 * JOKER_WORD_LETTERS
    likely[0] = False
    words: list[_Word] = []
    # The likely runs' pixels grouped run by run, in their original order (one stable sort,
    # not a pass over every ink pixel per run).
    chosen = np.flatnonzero(likely[word_at])
    grouped = chosen[np.argsort(word_at[chosen], kind="stable")]
    run_of, wanted = word_at[grouped], np.flatnonzero(likely)
    starts = np.searchsorted(run_of, wanted, side="left")
    ends = np.searchsorted(run_of, wanted, side="right")
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        inside = grouped[start:end]
        wx, wy = xs[inside], ys[inside]
        members = tuple(int(c) - 1 for c in np.unique(ink.labels[wy, wx]))
        if len(members) > JOKER_WORD_MEMBERS:
            continue
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(np.column_stack([wx, wy]).astype(np.float32))
        length, width = max(rw, rh), max(min(rw, rh), 1.0)
        if not low <= length / width <= high:
            continue
        theta = np.radians(angle if rw >= rh else angle + 90.0)
        axis = (float(np.cos(theta)), float(np.sin(theta)))
        along = (wx - cx) * axis[0] + (wy - cy) * axis[1]
        share = (along - along.min()) / max(float(np.ptp(along)), 1.0)
        letter = np.minimum((share * JOKER_WORD_LETTERS).astype(np.int32), JOKER_WORD_LETTERS - 1)
        words.append(_Word(members, wx, wy, letter, axis, float(length)))
    return words


#: A word whose third letter reads as K this surely may pass without a J read
#: (:func:`_word_shaped_like_joker`) ...
JOKER_SURE_K = 0.9
#: ... when its last four letters' ink differs by at most this factor.
JOKER_EVEN_INK = 1.6
#: A word the joker network (:mod:`vision.jokernet`) reads as JOKER this surely is one,
#: whatever its letters read alone.
JOKER_WORD_SURE = 0.95


def _has_hole(mask: np.ndarray) -> bool:
    """True when the ink of ``mask`` ((h, w) uint8) closes around a hole of two pixels or more.

    >>> ring = np.zeros((9, 9), np.uint8); ring[1:8, 1:8] = 1; ring[3:6, 3:6] = 0
    >>> _has_hole(ring), _has_hole(np.ones((5, 5), np.uint8))
    (True, False)
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return False
    return any(
        hierarchy[0][i][3] >= 0 and cv2.contourArea(contour) >= 2 for i, contour in enumerate(contours)
    )


def word_frames(tries: list[tuple[_Word, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The frames in which (word, end) ``tries`` are cut as word patches
    (:func:`vision.jokernet.word_patches`): (N, 2) centres (the mean of each word's pixels),
    (N, 2) downs (its axis, turned half round for ``end`` -1) and (N,) lengths, float32."""
    return (
        np.array([(word.xs.mean(), word.ys.mean()) for word, _ in tries], np.float32).reshape(-1, 2),
        np.array([(end * word.axis[0], end * word.axis[1]) for word, end in tries], np.float32).reshape(
            -1, 2
        ),
        np.array([word.length for word, _ in tries], np.float32),
    )


def _word_letter(word: _Word, letter: int) -> tuple[np.ndarray, tuple[float, float]]:
    """The (h, w) uint8 mask of one ``letter`` of ``word``, in the word's box, and the box's
    top-left (x, y)."""
    x0, y0 = int(word.xs.min()), int(word.ys.min())
    mask = np.zeros((int(word.ys.max()) - y0 + 1, int(word.xs.max()) - x0 + 1), np.uint8)
    chosen = word.letter == letter
    mask[word.ys[chosen] - y0, word.xs[chosen] - x0] = 1
    return mask, (float(x0), float(y0))


def _word_shaped_like_joker(word: _Word, end: int) -> bool:
    """True when ``word`` read from ``end`` (1: as measured, -1: from the other end) has an O
    (second letter) and an R (fifth) with holes and its last four letters' ink even."""
    order = list(range(JOKER_WORD_LETTERS)) if end > 0 else list(range(JOKER_WORD_LETTERS))[::-1]
    counts = np.array([np.count_nonzero(word.letter == letter) for letter in order[1:]])
    if counts.min() == 0 or counts.max() > JOKER_EVEN_INK * counts.min():
        return False
    return all(_has_hole(_word_letter(word, letter)[0]) for letter in (order[1], order[-1]))


def read_joker_words(ink: Ink, image: np.ndarray, skip: set[int]) -> tuple[list[IndexReading], set[int]]:
    """Joker indices whose letters do not stand apart as components (blurred or set tight):
    a long thin run of ink, cut into five letters of equal length, whose first letter reads
    as J and middle one as K, from either end (or whose K reads surely and whose shape is
    JOKER's, :func:`_word_shaped_like_joker`, where the J does not read), or which the joker
    network (:mod:`vision.jokernet`) reads whole as JOKER at least ``JOKER_WORD_SURE``.
    Returns the readings and the components they use.

    ``image``: the BGR working image (for the joker's colour); ``skip``: components already
    read (a joker's separate letters).
    """
    words = _long_words(ink, skip)
    if not words:
        return [], set()
    # Each word from either end: its first and middle letters, turned upright.
    tries = [(word, end) for word in words for end in (1, -1)]
    squares = np.zeros((2 * len(tries), GLYPH_SIZE, GLYPH_SIZE), np.float32)
    heights = np.zeros(2 * len(tries), np.float32)
    widths = np.zeros(2 * len(tries), np.float32)
    for k, (word, end) in enumerate(tries):
        down = (end * word.axis[0], end * word.axis[1])
        first = 0 if end > 0 else JOKER_WORD_LETTERS - 1
        for j, letter in enumerate((first, JOKER_WORD_LETTERS // 2)):
            mask, origin = _word_letter(word, letter)
            squares[2 * k + j], heights[2 * k + j], widths[2 * k + j] = upright_glyph(mask, origin, down)
    probabilities = classify_glyphs(glyph_features_batch(squares, heights, widths), None)
    j_p = probabilities[0::2, CLASS_INDEX["J"]].copy()
    k_p = probabilities[1::2, CLASS_INDEX["K"]]
    # A J the glyph model does not know (a serif J with a hook, a J cut with a scrap of the O)
    # passes when the K is sure and the word is shaped like JOKER: its O and R closed around
    # a hole, and its last four letters of even weight.
    for unsure in np.flatnonzero((j_p < JOKER_LETTER_P) & (k_p >= JOKER_SURE_K)):
        word, end = tries[int(unsure)]
        if _word_shaped_like_joker(word, end):
            j_p[unsure] = JOKER_LETTER_P
    letters_read = (j_p >= JOKER_LETTER_P) & (k_p >= JOKER_LETTER_P)
    scores = np.where(letters_read, np.sqrt(j_p * k_p), 0.0)
    # The whole word read at once (:mod:`vision.jokernet`): letters too small or too blurred
    # to read alone still make the word's shape.
    centres, downs, lengths = word_frames(tries)
    if ink.darkness is not None:
        word_p = joker_net().probabilities(word_patches(ink.darkness, centres, downs, lengths))
        scores = np.maximum(scores, np.where(word_p >= JOKER_WORD_SURE, word_p, 0.0))
    readings: list[IndexReading] = []
    used: set[int] = set()
    # The longest word first: its parts (JO, KER) read as JOKER too, placed from a part.
    for k in np.lexsort((-scores, -lengths)):
        word, end = tries[int(k)]
        if scores[k] <= 0.0 or used & set(word.members):
            continue
        used |= set(word.members)
        down = (end * word.axis[0], end * word.axis[1])
        j_pixels = word.letter == (0 if end > 0 else JOKER_WORD_LETTERS - 1)
        # A square letter's size as a separate letter's would be measured (box diagonal / 1.25).
        letter_size = float(np.hypot(1.0, 1.0)) * word.length / JOKER_WORD_LETTERS / 1.25
        readings.append(
            IndexReading(
                pair=IndexPair((word.members[0],), word.members[-1], down),
                rank=JOKER,
                suit=_joker_ink(image, ink, list(word.members), image[word.ys, word.xs]),
                score=float(scores[k]),
                center=(float(word.xs[j_pixels].mean()), float(word.ys[j_pixels].mean())),
                size=letter_size / 0.6,  # as read_jokers: the letters are smaller than a rank
            )
        )
    return readings, used
