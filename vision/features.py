"""Glyph normalisation and feature vectors, shared by the reader, the profiles and training.

A *glyph* is a set of ink pixels (one connected component, or two for "10") with an
"up" direction: the reader sees the index corner of a card as a rank glyph stacked above
a suit symbol, so the direction from the rank to the suit is "down".  A glyph is cut out
of its binary mask, turned upright, scaled to fit a ``GLYPH_SIZE`` square (aspect kept)
and described by gradient-orientation histograms plus a coarse bitmap.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import cv2
import numpy as np

#: Side of the normalised glyph square, in pixels.
GLYPH_SIZE = 32
#: The glyph's larger extent fills this many pixels of the square.
GLYPH_FILL = 26
_CELL = 8
_BINS = 9
_COARSE = 8
#: (GLYPH_SIZE, GLYPH_SIZE) index of the histogram cell each pixel of a square falls in.
_CELL_OF_PIXEL = (np.arange(GLYPH_SIZE)[:, None] // _CELL) * (GLYPH_SIZE // _CELL) + (
    np.arange(GLYPH_SIZE)[None, :] // _CELL
)


def upright_glyph(
    mask: np.ndarray, origin: tuple[float, float], down: tuple[float, float]
) -> tuple[np.ndarray, float, float]:
    """Cut the ink of ``mask`` out upright: ``down`` (a unit vector) becomes +y.

    ``mask``: (h, w) uint8 non-zero on the glyph's pixels, or float32 ink weights in [0, 1]
    (pixels weighing at least 0.5 are the glyph's own); ``origin``: (x, y) of the mask's
    top-left pixel in the caller's coordinates (only used for the returned centre).
    Returns ``(square, height, width)``: a (GLYPH_SIZE, GLYPH_SIZE) float32 image in [0, 1]
    and the glyph's extents (pixels) along ``down`` and across it.

    >>> bar = np.zeros((30, 10), np.uint8); bar[5:25, 3:7] = 1
    >>> square, height, width = upright_glyph(bar, (0.0, 0.0), (0.0, 1.0))
    >>> square.shape, round(height), round(width)
    ((32, 32), 20, 4)
    >>> _, height, width = upright_glyph(bar, (0.0, 0.0), (1.0, 0.0))
    >>> round(height), round(width)
    (4, 20)
    """
    [(square, height, width)] = upright_glyphs(mask, [down])
    return square, height, width


def upright_glyphs(
    mask: np.ndarray, downs: list[tuple[float, float]]
) -> list[tuple[np.ndarray, float, float]]:
    """:func:`upright_glyph` of one ``mask`` in each of ``downs``: the mask's pixels are
    found and converted once (a component is read as a rank and as a suit, both ways).

    >>> bar = np.zeros((30, 10), np.uint8); bar[5:25, 3:7] = 1
    >>> [(round(height), round(width)) for _, height, width in upright_glyphs(bar, [(0.0, 1.0), (1.0, 0.0)])]
    [(20, 4), (4, 20)]
    """
    squares = np.zeros((len(downs), GLYPH_SIZE, GLYPH_SIZE), np.float32)
    extents = upright_glyphs_into(glyph_ink(mask), downs, squares)
    np.clip(squares, 0.0, 1.0, out=squares)
    return [(square, height, width) for square, (height, width) in zip(squares, extents, strict=True)]


class GlyphInk(NamedTuple):
    """A glyph's ink made ready to be turned (:func:`glyph_ink`): its own pixels' (P,) x and
    y as float32, and its (h, w) float32 weights in [0, 1]."""

    xs: np.ndarray
    ys: np.ndarray
    weights: np.ndarray


def glyph_ink(mask: np.ndarray) -> GlyphInk | None:
    """The :class:`GlyphInk` of a mask as :func:`upright_glyph` takes it, or None when it
    holds no ink of its own."""
    ys, xs = np.nonzero(mask >= 0.5) if mask.dtype.kind == "f" else np.nonzero(mask)
    if xs.size == 0:
        return None
    weights = mask.astype(np.float32) if mask.dtype.kind == "f" else (mask > 0).astype(np.float32)
    return GlyphInk(xs.astype(np.float32), ys.astype(np.float32), weights)


def upright_glyphs_into(
    ink: GlyphInk | None, downs: list[tuple[float, float]], squares: np.ndarray
) -> list[tuple[float, float]]:
    """:func:`upright_glyphs` of a mask's :func:`glyph_ink`, drawn into the (len(downs),
    GLYPH_SIZE, GLYPH_SIZE) float32 ``squares`` (unclipped: linear resampling of ink in [0, 1]
    leaves it there but for rounding, so the caller clips once for many glyphs); returns
    their (height, width).  (A component read in several calls is made ready once.)"""
    if ink is None:
        squares[:] = 0.0
        return [(0.0, 0.0) for _ in downs]
    px, py, source = ink
    # The pixels' extents along and across every direction at once: a component is read in
    # four directions or more, and per-direction numpy calls cost more than their work.
    dx = np.array([d[0] for d in downs], np.float32)[:, None]
    dy = np.array([d[1] for d in downs], np.float32)[:, None]
    # "right" is down turned a quarter anticlockwise on screen (x right, y down).
    projected = np.concatenate([px * dx + py * dy, px * dy - py * dx])
    lows, highs = projected.min(axis=1).tolist(), projected.max(axis=1).tolist()
    count = len(downs)
    extents = []
    blurred: dict[float, np.ndarray] = {}
    half = GLYPH_SIZE / 2.0
    for i, down in enumerate(downs):
        dx_, dy_ = float(down[0]), float(down[1])
        rx, ry = dy_, -dx_
        a0, a1, c0, c1 = lows[i], highs[i], lows[count + i], highs[count + i]
        height = a1 - a0 + 1.0
        width = c1 - c0 + 1.0
        scale = GLYPH_FILL / max(height, width)
        mid_a = (a0 + a1) / 2.0
        mid_c = (c0 + c1) / 2.0
        # out_x = scale * (across - mid_c) + half ; out_y = scale * (along - mid_a) + half
        matrix = np.array(
            [
                [scale * rx, scale * ry, half - scale * mid_c],
                [scale * dx_, scale * dy_, half - scale * mid_a],
            ],
            dtype=np.float32,
        )
        image = source
        if scale < 0.7:
            # Shrinking a lot: blur first so thin strokes survive the resampling.
            if scale not in blurred:
                blurred[scale] = cv2.GaussianBlur(source, (0, 0), 0.5 / scale)
            image = blurred[scale]
        cv2.warpAffine(
            image, matrix, (GLYPH_SIZE, GLYPH_SIZE), dst=squares[i], flags=cv2.INTER_LINEAR, borderValue=0.0
        )
        extents.append((height, width))
    return extents


def glyph_features(square: np.ndarray, height: float, width: float) -> np.ndarray:
    """Feature vector (float32, ``FEATURE_LENGTH``) of an upright glyph square.

    >>> square = np.zeros((32, 32), np.float32); square[3:29, 12:20] = 1
    >>> glyph_features(square, 26.0, 8.0).shape == (FEATURE_LENGTH,)
    True
    """
    features: np.ndarray = glyph_features_batch(square[None], np.array([height]), np.array([width]))[0]
    return features


@functools.lru_cache(maxsize=4)
def _slot_bases(count: int) -> np.ndarray:
    """(count, GLYPH_SIZE, GLYPH_SIZE) index of the first histogram slot of each pixel's cell."""
    cells = (GLYPH_SIZE // _CELL) ** 2
    return np.asarray((np.arange(count)[:, None, None] * cells + _CELL_OF_PIXEL[None]) * _BINS, np.int64)


def _slot_base(n: int) -> np.ndarray:
    """:func:`_slot_bases` of ``n`` glyphs (cut from a cached batch of a power of two)."""
    count = 64
    while count < n:
        count *= 2
    return _slot_bases(count)[:n]


def glyph_aspects(heights: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """(N,) float32 log aspect ratios of glyphs (N,) ``heights`` tall and ``widths`` wide: a
    "1" is far above 0, a level bar as far below it.

    >>> [round(float(a), 3) for a in glyph_aspects(np.array([9.0, 4.0, 4.0]), np.array([4.0, 4.0, 9.0]))]
    [0.693, 0.0, -0.693]
    """
    return np.log((np.asarray(heights, np.float32) + 1.0) / (np.asarray(widths, np.float32) + 1.0))


#: Glyphs described at a time (memory stays bounded, and is reused: a few hundred glyphs at
#: once make scratch arrays of megabytes, which the allocator hands back to the system and
#: faults in again page by page on every call; 400 glyphs took 16 ms in one batch and 9 ms in
#: batches of 64 to 256, the same features).
FEATURE_BATCH = 128


#: (cos, sin) of each orientation bin boundary after the first, as float32.
_BOUNDARIES = tuple(
    (np.float32(np.cos(k * np.pi / _BINS)), np.float32(np.sin(k * np.pi / _BINS))) for k in range(1, _BINS)
)


def glyph_features_batch(squares: np.ndarray, heights: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """(N, FEATURE_LENGTH) float32 features of (N, GLYPH_SIZE, GLYPH_SIZE) upright squares
    with their (N,) heights and widths (each glyph's features are its own: the same in any
    batch).

    Gradient-orientation histograms over 8x8 cells (unsigned, ``_BINS`` bins, square-rooted
    and normalised), an 8x8 coarse bitmap, the log aspect ratio and the ink fill.
    """
    if squares.shape[0] == 0:
        return np.zeros((0, FEATURE_LENGTH), np.float32)
    if squares.shape[0] > FEATURE_BATCH:
        heights, widths = np.asarray(heights), np.asarray(widths)
        return np.concatenate(
            [
                _features(
                    squares[start : start + FEATURE_BATCH],
                    heights[start : start + FEATURE_BATCH],
                    widths[start : start + FEATURE_BATCH],
                )
                for start in range(0, squares.shape[0], FEATURE_BATCH)
            ]
        )
    return _features(squares, heights, widths)


def _features(squares: np.ndarray, heights: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """:func:`glyph_features_batch` of one batch."""
    n = squares.shape[0]
    x = squares.astype(np.float32)
    # Light smoothing ([1, 2, 1] / 4 both ways), then central differences.  Written into
    # preallocated, zero-bordered arrays (np.pad and fresh temporaries cost a third of the
    # time); the operations and their order are those of the plain formula, so every
    # feature is the same to the bit.
    p = np.zeros((n, GLYPH_SIZE + 2, GLYPH_SIZE + 2), np.float32)
    p[:, 1:-1, 1:-1] = x
    rows = np.multiply(p[:, :-2, :], 0.25)
    part = np.multiply(p[:, 1:-1, :], 0.5)
    rows += part
    np.multiply(p[:, 2:, :], 0.25, out=part)
    rows += part
    q = np.zeros_like(p)
    smooth = q[:, 1:-1, 1:-1]
    np.multiply(rows[:, :, :-2], 0.25, out=smooth)
    part = np.multiply(rows[:, :, 1:-1], 0.5)
    smooth += part
    np.multiply(rows[:, :, 2:], 0.25, out=part)
    smooth += part
    gx = q[:, 1:-1, 2:] - q[:, 1:-1, :-2]
    gy = q[:, 2:, 1:-1] - q[:, :-2, 1:-1]
    # (Not cv2.magnitude: its SIMD path rounds differently by where an array's memory starts,
    # and a glyph must read the same every time.)
    magnitude = gx * gx
    magnitude += np.multiply(gy, gy, out=part)
    np.sqrt(magnitude, out=magnitude)
    # Unsigned orientation: turn every gradient into the upper half plane, then count the bin
    # boundaries (multiples of 180/_BINS degrees) it lies beyond; no arctan needed.
    flip = gy < 0
    flip |= (gy == 0) & (gx < 0)
    sign = np.where(flip, np.float32(-1.0), np.float32(1.0))
    gx *= sign
    gy *= sign
    bins = np.zeros(gx.shape, np.int8)
    beyond = flip  # (buffers reused: each boundary's test allocates nothing)
    for cos, sin in _BOUNDARIES:
        # cos * gy - sin * gx > 0, compared without the subtraction (a float difference is
        # positive exactly when the first term is the larger).
        np.multiply(gy, cos, out=part)
        np.multiply(gx, sin, out=sign)
        np.greater(part, sign, out=beyond)
        bins += beyond
    # Each pixel's magnitude goes to its (glyph, cell, bin) slot: one weighted count over all.
    cells = GLYPH_SIZE // _CELL
    slot = _slot_base(n) + bins
    sums = np.bincount(slot.ravel(), weights=magnitude.ravel(), minlength=n * cells * cells * _BINS)
    hog = np.sqrt(sums.astype(np.float32).reshape(n, -1))
    hog /= np.linalg.norm(hog, axis=1, keepdims=True) + 1e-6
    # The mean of each block of the square: an area resize of the squares stacked in a column
    # (the same answer wherever the array lies in memory, unlike cv2.magnitude).
    coarse = cv2.resize(x.reshape(-1, GLYPH_SIZE), (_COARSE, n * _COARSE), interpolation=cv2.INTER_AREA)
    coarse = coarse.reshape(n, -1)
    aspect = glyph_aspects(heights, widths)
    fill = x.reshape(n, -1).mean(axis=1)
    features = np.concatenate([hog * 4.0, coarse, aspect[:, None], 2.0 * fill[:, None]], axis=1)
    return features.astype(np.float32)


def context_squares(
    darkness: np.ndarray, centres: np.ndarray, downs: np.ndarray, sides: np.ndarray
) -> np.ndarray:
    """(N, GLYPH_SIZE, GLYPH_SIZE) float32 upright windows of ``darkness`` around glyphs.

    Unlike :func:`upright_glyphs`, which sees only a glyph's own ink, a window sees all the
    ink around it: a stroke the segmentation cut away (a rank's bar along a frame line)
    and whatever touches it.  ``darkness``: (H, W) float32 ink darkness in [0, 1];
    ``centres``: (N, 2) window centres (x, y); ``downs``: (N, 2) unit vectors that become
    +y; ``sides``: (N,) window sides in pixels.

    >>> darkness = np.zeros((60, 60), np.float32); darkness[20:40, 28:32] = 1.0  # an upright bar
    >>> squares = context_squares(darkness, np.array([[30.0, 30.0]] * 2), np.array([[0.0, 1.0], [1.0, 0.0]]),
    ...                           np.array([32.0, 32.0]))
    >>> def at(k: int, row: int, column: int) -> int:
    ...     return int(round(float(squares[k, row, column])))
    >>> at(0, 16, 16), at(0, 6, 16), at(0, 16, 6)  # upright: the bar stands in the middle
    (1, 1, 0)
    >>> at(1, 16, 8), at(1, 8, 16)  # turned: the bar lies level
    (1, 0)
    """
    squares = np.zeros((len(centres), GLYPH_SIZE, GLYPH_SIZE), np.float32)
    half = GLYPH_SIZE / 2.0
    height, width = darkness.shape
    for i, ((cx, cy), (dx, dy), side) in enumerate(zip(centres, downs, sides, strict=True)):
        side = max(float(side), 4.0)
        scale = GLYPH_SIZE / side
        rx, ry = dy, -dx
        # Only the window's neighbourhood is cut (and blurred before shrinking a lot).
        reach = int(side) + 2
        x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
        x1, y1 = min(width, int(cx) + reach), min(height, int(cy) + reach)
        if x1 <= x0 or y1 <= y0:
            continue
        patch = darkness[y0:y1, x0:x1]
        if scale < 0.7:
            patch = cv2.GaussianBlur(patch, (0, 0), 0.5 / scale)
        lx, ly = float(cx) - x0, float(cy) - y0
        matrix = np.array(
            [
                [scale * rx, scale * ry, half - scale * (rx * lx + ry * ly)],
                [scale * dx, scale * dy, half - scale * (dx * lx + dy * ly)],
            ],
            dtype=np.float32,
        )
        squares[i] = cv2.warpAffine(
            patch, matrix, (GLYPH_SIZE, GLYPH_SIZE), flags=cv2.INTER_LINEAR, borderValue=0.0
        )
    return np.clip(squares, 0.0, 1.0)


#: Length of :func:`glyph_features` vectors.
FEATURE_LENGTH = (GLYPH_SIZE // _CELL) ** 2 * _BINS + _COARSE * _COARSE + 2
