"""Name words: the word some decks print on their special cards ("PHOENIX", "DOG").

A special card of a deck that prints no index or mark in its corners can be told only by its
art, and in a pile or at a fan's end most of that is hidden; but where the deck prints the
card's name under its art, the name often shows.  Calibration learns each special's word as
a small picture of its ink (a *word patch*), cut along the word, with where the word lies on
its card; a scan finds runs of ink shaped like a word, compares each with the learnt
patches, and places the card a matching word belongs to.

The frame of a word: its ``centre`` (x, y), its ``axis`` (the unit vector the letters are
read along) and its ``down`` (the unit vector from the letters' tops to their feet, the axis
turned a quarter clockwise on screen), its ``length`` along the axis (pixels).  On its card
the word's down points away from the card's middle: a name under the art, on a card lying
either way up, reads upright in that frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect import Ink, side_lengths

#: Letters this many pixels apart or less (twice the radius) are joined into one word.
NAME_WORD_GAP = 2
#: A run of ink of fewer pixels is no word ...
NAME_WORD_PIXELS = 12
#: ... nor one whose ink's box has a shorter diagonal (pixels).
NAME_WORD_SPAN = 12
#: Word patches are this many pixels high (and as long as the word's aspect makes them).
PATCH_HEIGHT = 12
#: A card's word, at calibration: at most this many times longer than high (and at least
#: ``NAME_WORD_ASPECT[0]``: "DOG" is about 2.5) ...
NAME_WORD_ASPECT = (2.2, 12.0)
#: ... this share of the card's short side long ...
NAME_WORD_LENGTH = (0.2, 0.9)
#: ... its centre at most this share of the short side off the card's long middle line ...
NAME_WORD_CENTRED = 0.1
#: ... and at least this share of the long side away from the card's middle (under or over
#: the art, not in it).
NAME_WORD_OFF_MIDDLE = 0.25
#: A run of ink in a photo is compared with a learnt word when its aspect lies within these
#: factors of the word's (blur thickens letters; a word's ends may fade).
ASPECT_TOLERANCE = (0.75, 1.33)


@dataclass(frozen=True)
class NameWord:
    """A special card's learnt name word: its (PATCH_HEIGHT, W) float32 unit-norm zero-mean
    ``patch`` (:func:`word_patch`), its ``aspect`` (length over height), and its card's
    middle (``along`` and ``down`` the word) and size (``height``, ``width``), in word
    lengths."""

    patch: np.ndarray
    aspect: float
    along: float
    down: float
    height: float
    width: float

    def card_corners(
        self, centre: np.ndarray, axis: np.ndarray, down: np.ndarray, length: float
    ) -> np.ndarray:
        """(4, 2) float32 corners of the card this word, found in the frame (``centre``,
        ``axis``, ``down``, ``length``), belongs to: top-left, top-right, bottom-right,
        bottom-left as the card's face reads with the word at its foot.

        >>> word = NameWord(np.zeros((12, 60), np.float32), 5.0, 0.0, -1.5, 4.0, 3.0)
        >>> right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
        >>> word.card_corners(np.array([50.0, 100.0]), right, down, 10.0).tolist()
        [[35.0, 65.0], [65.0, 65.0], [65.0, 105.0], [35.0, 105.0]]
        """
        middle = centre + length * (self.along * axis + self.down * down)
        half_width, half_height = self.width * length / 2, self.height * length / 2
        return np.array(
            [
                middle - half_width * axis - half_height * down,
                middle + half_width * axis - half_height * down,
                middle + half_width * axis + half_height * down,
                middle - half_width * axis + half_height * down,
            ],
            np.float32,
        )


def ink_runs(ink: Ink, gap: int = NAME_WORD_GAP) -> list[tuple[np.ndarray, np.ndarray]]:
    """The runs of whole ink components joined across gaps of up to ``2 * gap`` pixels, as
    (xs, ys) pixel coordinates (int arrays) of their own ink, runs of fewer than
    :data:`NAME_WORD_PIXELS` left out.

    >>> labels = np.zeros((20, 40), np.int32)
    >>> labels[2:14, 2:8], labels[2:14, 10:16], labels[2:14, 30:40], labels[16:18, 20:22] = 1, 2, 3, 4
    >>> boxes = np.array([[2, 2, 6, 12], [10, 2, 6, 12], [30, 2, 10, 12], [20, 16, 2, 2]], np.int32)
    >>> ink = Ink(labels, boxes, np.zeros((4, 2), np.float32), np.zeros(4, np.float32), np.zeros(4, np.int32))
    >>> sorted(int(xs.min()) for xs, _ in ink_runs(ink))  # 2 and 10 joined; 30 alone; no speck
    [2, 30]
    """
    if ink.labels.size == 0 or len(ink.boxes) == 0:
        return []
    # Only the window around all the ink is searched.
    side = 2 * gap + 1
    height, width = ink.labels.shape
    x0 = max(int(ink.boxes[:, 0].min()) - side, 0)
    y0 = max(int(ink.boxes[:, 1].min()) - side, 0)
    x1 = min(int((ink.boxes[:, 0] + ink.boxes[:, 2]).max()) + side, width)
    y1 = min(int((ink.boxes[:, 1] + ink.boxes[:, 3]).max()) + side, height)
    mask = (ink.labels[y0:y1, x0:x1] > 0).astype(np.uint8)
    points = cv2.findNonZero(mask)  # much faster than np.nonzero on a whole photo
    if points is None:
        return []
    joined = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    # (Labelling without statistics: with them OpenCV took twenty times as long.)
    _, runs = cv2.connectedComponentsWithAlgorithm(joined, 8, cv2.CV_32S, cv2.CCL_BBDT)
    points = points.reshape(-1, 2)
    run_of = runs[points[:, 1], points[:, 0]]
    order = np.argsort(run_of, kind="stable")
    run_of, xs, ys = run_of[order], points[order, 0] + x0, points[order, 1] + y0
    starts = np.flatnonzero(np.diff(run_of, prepend=-1))
    ends = np.append(starts[1:], len(run_of))
    # Each run's box, to leave out at once those too small to hold a word.
    spans = np.hypot(
        np.maximum.reduceat(xs, starts) - np.minimum.reduceat(xs, starts),
        np.maximum.reduceat(ys, starts) - np.minimum.reduceat(ys, starts),
    )
    wanted = (ends - starts >= NAME_WORD_PIXELS) & (spans >= NAME_WORD_SPAN)
    return [(xs[a:b], ys[a:b]) for a, b in zip(starts[wanted].tolist(), ends[wanted].tolist(), strict=True)]


def run_frame(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
    """A run's centre (2,), long axis (2,) unit vector, length and height (pixels): its
    pixels' smallest rotated box.

    >>> ys, xs = np.mgrid[10:14, 20:40]
    >>> centre, axis, length, height = run_frame(xs.ravel(), ys.ravel())
    >>> centre.round(1).tolist(), [abs(round(float(v), 3)) for v in axis], length, height
    ([29.5, 11.5], [1.0, 0.0], 19.0, 3.0)
    """
    points = np.column_stack([xs, ys]).astype(np.float32)
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    length, height = max(rw, rh), max(min(rw, rh), 1.0)
    theta = np.radians(angle if rw >= rh else angle + 90.0)
    return np.array([cx, cy]), np.array([np.cos(theta), np.sin(theta)]), float(length), float(height)


def reading_axis(down: np.ndarray) -> np.ndarray:
    """The axis a word is read along when its letters' feet point ``down``: down turned a
    quarter anticlockwise on screen (x right, y down).

    >>> reading_axis(np.array([0.0, 1.0])).tolist()  # upright text reads to the right
    [1.0, -0.0]
    """
    return np.array([down[1], -down[0]])


def letters_down(axis: np.ndarray) -> np.ndarray:
    """The down of letters read along ``axis``: the axis turned a quarter clockwise on screen,
    the inverse of :func:`reading_axis`.

    >>> letters_down(np.array([1.0, 0.0])).tolist(), reading_axis(letters_down(np.array([0.6, 0.8]))).tolist()
    ([-0.0, 1.0], [0.6, 0.8])
    """
    return np.array([-axis[1], axis[0]])


def word_patch(
    darkness: np.ndarray, centre: np.ndarray, down: np.ndarray, length: float, aspect: float
) -> np.ndarray:
    """The (PATCH_HEIGHT, W) float32 zero-mean unit-norm patch of ``darkness`` ((H, W)
    float32) covering a word ``length`` long and ``length / aspect`` high around ``centre``,
    read upright with its feet towards ``down``; W is ``PATCH_HEIGHT * aspect`` rounded.

    >>> darkness = np.zeros((40, 80), np.float32); darkness[18:22, 20:40] = 1.0
    >>> patch = word_patch(darkness, np.array([39.5, 19.5]), np.array([0.0, 1.0]), 40.0, 4.0)
    >>> patch.shape, bool(patch[:, :24].mean() > patch[:, 24:].mean())  # the ink on the left
    ((12, 48), True)
    >>> turned = word_patch(darkness, np.array([39.5, 19.5]), np.array([0.0, -1.0]), 40.0, 4.0)
    >>> bool(turned[:, 24:].mean() > turned[:, :24].mean())  # read from the other side
    True
    >>> bool(np.allclose(turned, patch[::-1, ::-1], atol=1e-6))  # the same, turned half round
    True
    """
    axis = reading_axis(down)
    width = max(3, round(PATCH_HEIGHT * aspect))
    height = length / aspect
    # Patch pixel (column j, row i) samples centre + (offset along the axis, and down).
    matrix = np.zeros((2, 3), np.float32)
    matrix[:, 0] = axis * length / width
    matrix[:, 1] = down * height / PATCH_HEIGHT
    matrix[:, 2] = centre + axis * length * (0.5 / width - 0.5) + down * height * (0.5 / PATCH_HEIGHT - 0.5)
    source = darkness
    step = length / width
    if step > 1.0:
        # Sampled sparser than every pixel (a word photographed larger than at calibration):
        # the window around the word is blurred first, so that strokes between the samples
        # still count.  (The same word on a card 200 to 320 pixels wide, learnt at 110: found
        # in 24 of 48 photos without, 40 with: benchmarks/bench_name_words.py.)
        reach = 0.5 * length + height + 4 * step
        x0 = max(int(centre[0] - reach), 0)
        y0 = max(int(centre[1] - reach), 0)
        x1 = min(int(centre[0] + reach) + 1, darkness.shape[1])
        y1 = min(int(centre[1] + reach) + 1, darkness.shape[0])
        if x1 > x0 and y1 > y0:
            source = cv2.GaussianBlur(darkness[y0:y1, x0:x1], (0, 0), 0.5 * step)
            matrix[:, 2] -= np.array([x0, y0], np.float32)
    patch = cv2.warpAffine(
        source, matrix, (width, PATCH_HEIGHT), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR, borderValue=0
    )
    patch = patch - float(patch.mean())
    norm = float(np.linalg.norm(patch))
    return (patch / norm if norm > 1e-6 else patch).astype(np.float32)


def learn_word(ink: Ink, quad: np.ndarray, runs: list[tuple[np.ndarray, np.ndarray]]) -> NameWord | None:
    """The name word printed on the lone card outlined by ``quad`` ((4, 2), calibration), from
    the photo's :func:`ink_runs`: the longest run inside the card that is shaped and placed
    like a word under (or over) its art (:data:`NAME_WORD_ASPECT`, :data:`NAME_WORD_LENGTH`,
    :data:`NAME_WORD_CENTRED`, :data:`NAME_WORD_OFF_MIDDLE`); None when there is none."""
    if ink.darkness is None:
        return None
    quad = np.asarray(quad, np.float64)
    sides = side_lengths(quad)
    longest = int(np.argmax(sides))
    long_side, short_side = float(sides.max()), float(sides.min())
    long_axis = quad[longest] - quad[longest - 1]
    long_axis /= max(float(np.linalg.norm(long_axis)), 1e-6)
    middle = quad.mean(axis=0)
    outline = quad.reshape(-1, 1, 2).astype(np.float32)
    best: tuple[np.ndarray, np.ndarray, float, float] | None = None
    for xs, ys in runs:
        centre, axis, length, height = run_frame(xs, ys)
        if cv2.pointPolygonTest(outline, (float(centre[0]), float(centre[1])), False) < 0:
            continue
        if not NAME_WORD_ASPECT[0] <= length / height <= NAME_WORD_ASPECT[1]:
            continue
        if not NAME_WORD_LENGTH[0] * short_side <= length <= NAME_WORD_LENGTH[1] * short_side:
            continue
        offset = centre - middle
        if abs(float(np.dot(axis, long_axis))) > 0.2:  # read across the card, not down it
            continue
        if abs(float(np.dot(offset, axis))) > NAME_WORD_CENTRED * short_side:
            continue
        if abs(float(np.dot(offset, long_axis))) < NAME_WORD_OFF_MIDDLE * long_side:
            continue
        if best is None or length > best[2]:
            best = (centre, axis, length, height)
    if best is None:
        return None
    centre, axis, length, height = best
    down = letters_down(axis)
    if float(np.dot(centre - middle, down)) < 0:
        down = -down
    axis = reading_axis(down)
    aspect = length / height
    offset = middle - centre
    return NameWord(
        patch=word_patch(ink.darkness, centre, down, length, aspect),
        aspect=aspect,
        along=float(np.dot(offset, axis)) / length,
        down=float(np.dot(offset, down)) / length,
        height=long_side / length,
        width=short_side / length,
    )


#: A run of ink whose patch matches a learnt word this well (correlation) is that word.
#: (Twenty-seventh session, ten decks printing names: true words 0.65 to 0.93, other runs
#: at most 0.74, the three above 0.66 beside their card's own word.)
NAME_WORD_SCORE = 0.75


@dataclass(frozen=True)
class FoundWord:
    """A learnt word found in a photo: its card's name, the match's correlation and the card's
    (4, 2) float32 corners (working pixels)."""

    name: str
    score: float
    corners: np.ndarray


def find_words(ink: Ink, words: dict[str, NameWord], floor: float = NAME_WORD_SCORE) -> list[FoundWord]:
    """The best match at least ``floor`` of each learnt word among the photo's runs of ink
    (:func:`ink_runs`), surest first."""
    if not words or ink.darkness is None:
        return []
    best: dict[str, FoundWord] = {}
    for xs, ys in ink_runs(ink):
        centre, axis, length, height = run_frame(xs, ys)
        aspect = length / height
        for name, word in words.items():
            if not ASPECT_TOLERANCE[0] * word.aspect <= aspect <= ASPECT_TOLERANCE[1] * word.aspect:
                continue
            down = letters_down(axis)
            patch = word_patch(ink.darkness, centre, down, length, word.aspect)
            # Read from the other side, the patch is the same turned half round.
            for facing, turned in ((down, patch), (-down, patch[::-1, ::-1])):
                score = float((turned * word.patch).sum())
                if score >= floor and (name not in best or score > best[name].score):
                    corners = word.card_corners(centre, reading_axis(facing), facing, length)
                    best[name] = FoundWord(name, score, corners)
    return sorted(best.values(), key=lambda found: -found.score)
