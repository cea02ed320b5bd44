"""Suit symbols as vector shapes, drawn into anti-aliased masks.

Every symbol is drawn into a square ``uint8`` mask of shape ``(size, size)`` (0 outside,
255 inside). Each suit has several shape variants (``variant`` is taken modulo the number
of variants), so that decks differ in their symbols as real editions do.

>>> mask = suit_mask("h", 0, 40)
>>> mask.shape, mask.dtype.name, int(mask[20, 20]), int(mask[1, 1])
((40, 40), 'uint8', 255, 0)
>>> [symbol_variant_count(s) for s in "cdhsjSpt"]
[3, 3, 3, 3, 4, 3, 3, 4]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import cv2
import numpy as np

# Shapes are drawn at this many times the requested size, then shrunk (smooth edges).
_OVERSAMPLE = 4
_SHIFT = 4  # fixed-point bits for cv2 drawing coordinates
_ONE = 1 << _SHIFT

Drawer = Callable[[np.ndarray, float, int], None]


def _pts(points: list[tuple[float, float]] | np.ndarray, size: float) -> np.ndarray:
    """Unit-square points (x, y in 0..1) -> fixed-point int32 pixel coordinates, (N, 1, 2)."""
    arr = np.asarray(points, dtype=np.float64) * size * _ONE
    return np.round(arr).astype(np.int32).reshape(-1, 1, 2)


def _poly(mask: np.ndarray, points: list[tuple[float, float]] | np.ndarray, size: float) -> None:
    cv2.fillPoly(mask, [_pts(points, size)], 255, cv2.LINE_AA, _SHIFT)


def _circle(mask: np.ndarray, cx: float, cy: float, r: float, size: float, value: int = 255) -> None:
    centre = (round(cx * size * _ONE), round(cy * size * _ONE))
    cv2.circle(mask, centre, max(1, round(r * size * _ONE)), value, -1, cv2.LINE_AA, _SHIFT)


def _ellipse(
    mask: np.ndarray, cx: float, cy: float, rx: float, ry: float, angle: float, size: float, value: int = 255
) -> None:
    centre = (round(cx * size * _ONE), round(cy * size * _ONE))
    axes = (max(1, round(rx * size * _ONE)), max(1, round(ry * size * _ONE)))
    cv2.ellipse(mask, centre, axes, angle, 0, 360, value, -1, cv2.LINE_AA, _SHIFT)


def _star_points(n: int, inner: float, cx: float, cy: float, r: float, phase: float) -> np.ndarray:
    angles = phase + np.arange(2 * n) * math.pi / n
    radii = np.where(np.arange(2 * n) % 2 == 0, r, r * inner)
    return np.stack([cx + radii * np.sin(angles), cy - radii * np.cos(angles)], axis=1)


# --- standard suits -------------------------------------------------------------------------


def _heart(mask: np.ndarray, size: float, variant: int) -> None:
    lobe, tip = [(0.25, 0.72), (0.23, 0.78), (0.27, 0.9)][variant % 3], [0.92, 0.95, 0.88][variant % 3]
    _circle(mask, 0.5 - lobe[0] + 0.02, 0.33, lobe[0], size)
    _circle(mask, 0.5 + lobe[0] - 0.02, 0.33, lobe[0], size)
    _poly(mask, [(0.04 if variant % 3 != 2 else 0.02, 0.4), (0.96, 0.4), (0.5, tip)], size)


def _diamond(mask: np.ndarray, size: float, variant: int) -> None:
    half_width = [0.36, 0.42, 0.33][variant % 3]
    if variant % 3 == 2:  # curved (concave) sides
        t = np.linspace(0, 1, 12)
        sides = []
        for (x0, y0), (x1, y1) in [
            ((0.5, 0.02), (0.5 + half_width, 0.5)),
            ((0.5 + half_width, 0.5), (0.5, 0.98)),
            ((0.5, 0.98), (0.5 - half_width, 0.5)),
            ((0.5 - half_width, 0.5), (0.5, 0.02)),
        ]:
            xs, ys = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            bow = 0.06 * np.sin(math.pi * t)
            sides.append(np.stack([xs + bow * np.sign(0.5 - xs), ys + bow * np.sign(0.5 - ys)], axis=1))
        _poly(mask, np.concatenate(sides), size)
    else:
        _poly(mask, [(0.5, 0.02), (0.5 + half_width, 0.5), (0.5, 0.98), (0.5 - half_width, 0.5)], size)


def _stem(mask: np.ndarray, size: float, variant: int) -> None:
    if variant % 3 == 1:
        _poly(mask, [(0.46, 0.55), (0.54, 0.55), (0.6, 0.97), (0.4, 0.97)], size)
    else:
        _poly(mask, [(0.47, 0.5), (0.53, 0.5), (0.7, 0.97), (0.3, 0.97)], size)


def _club(mask: np.ndarray, size: float, variant: int) -> None:
    r = [0.2, 0.22, 0.18][variant % 3]
    _circle(mask, 0.5, 0.25, r, size)
    _circle(mask, 0.5 - r * 1.15, 0.55, r, size)
    _circle(mask, 0.5 + r * 1.15, 0.55, r, size)
    _circle(mask, 0.5, 0.48, r * 0.7, size)
    _stem(mask, size, variant)


def _spade(mask: np.ndarray, size: float, variant: int) -> None:
    r = [0.22, 0.24, 0.2][variant % 3]
    _circle(mask, 0.5 - r + 0.02, 0.58, r, size)
    _circle(mask, 0.5 + r - 0.02, 0.58, r, size)
    _poly(mask, [(0.5, 0.02 if variant % 3 != 2 else 0.06), (0.94, 0.55), (0.06, 0.55)], size)
    _stem(mask, size, variant)


# --- Tichu suits ----------------------------------------------------------------------------


def _jade(mask: np.ndarray, size: float, variant: int) -> None:
    v = variant % 4
    if v in (0, 1):  # disc, round or square hole
        _circle(mask, 0.5, 0.5, 0.46, size)
        if v == 0:
            _circle(mask, 0.5, 0.5, 0.15, size, 0)
        else:
            _poly(mask, [(0.38, 0.38), (0.62, 0.38), (0.62, 0.62), (0.38, 0.62)], size)
            cv2.fillPoly(
                mask,
                [_pts([(0.39, 0.39), (0.61, 0.39), (0.61, 0.61), (0.39, 0.61)], size)],
                0,
                cv2.LINE_AA,
                _SHIFT,
            )
    else:  # rounded square (or octagon) with a hole
        k = 0.14 if v == 2 else 0.22
        outline = [
            (0.06 + k, 0.06),
            (0.94 - k, 0.06),
            (0.94, 0.06 + k),
            (0.94, 0.94 - k),
            (0.94 - k, 0.94),
            (0.06 + k, 0.94),
            (0.06, 0.94 - k),
            (0.06, 0.06 + k),
        ]
        _poly(mask, outline, size)
        _circle(mask, 0.5, 0.5, 0.17, size, 0)


def _sword(mask: np.ndarray, size: float, variant: int) -> None:
    v = variant % 3
    blade = 0.07 if v != 1 else 0.1
    _poly(
        mask,
        [(0.5, 0.02), (0.5 + blade, 0.14), (0.5 + blade, 0.66), (0.5 - blade, 0.66), (0.5 - blade, 0.14)],
        size,
    )
    guard = [0.3, 0.22, 0.36][v]
    _poly(mask, [(0.5 - guard, 0.66), (0.5 + guard, 0.66), (0.5 + guard, 0.73), (0.5 - guard, 0.73)], size)
    if v == 2:  # curled guard ends
        _circle(mask, 0.5 - guard, 0.7, 0.06, size)
        _circle(mask, 0.5 + guard, 0.7, 0.06, size)
    _poly(mask, [(0.45, 0.73), (0.55, 0.73), (0.55, 0.9), (0.45, 0.9)], size)
    _circle(mask, 0.5, 0.93, 0.06, size)


def _pagoda(mask: np.ndarray, size: float, variant: int) -> None:
    v = variant % 3
    tiers = [3, 2, 4][v]
    top, bottom = 0.1, 0.9
    step = (bottom - top) / tiers
    for i in range(tiers):
        y0 = top + i * step
        half = 0.18 + 0.3 * (i + 1) / tiers
        lift = 0.05 if v != 1 else 0.09  # upturned eaves
        _poly(
            mask,
            [
                (0.5 - half * 0.45, y0),
                (0.5 + half * 0.45, y0),
                (0.5 + half, y0 + step * 0.55 - lift),
                (0.5 + half * 0.8, y0 + step * 0.55),
                (0.5 - half * 0.8, y0 + step * 0.55),
                (0.5 - half, y0 + step * 0.55 - lift),
            ],
            size,
        )
        wall = half * 0.55
        _poly(
            mask,
            [
                (0.5 - wall, y0 + step * 0.55),
                (0.5 + wall, y0 + step * 0.55),
                (0.5 + wall, y0 + step),
                (0.5 - wall, y0 + step),
            ],
            size,
        )
    _poly(mask, [(0.48, 0.02), (0.52, 0.02), (0.53, top + 0.01), (0.47, top + 0.01)], size)


def _star(mask: np.ndarray, size: float, variant: int) -> None:
    points, inner = [(5, 0.42), (6, 0.5), (8, 0.45), (5, 0.3)][variant % 4]
    _poly(mask, _star_points(points, inner, 0.5, 0.52 if points == 5 else 0.5, 0.48, 0.0), size)


_DRAWERS: dict[str, tuple[Drawer, int]] = {
    "c": (_club, 3),
    "d": (_diamond, 3),
    "h": (_heart, 3),
    "S": (_spade, 3),  # standard spades (Suit.SPADES.value)
    "j": (_jade, 4),
    "s": (_sword, 3),
    "p": (_pagoda, 3),
    "t": (_star, 4),
}


def symbol_variant_count(suit_value: str) -> int:
    """How many shape variants the suit (a ``Suit`` value) has."""
    return _DRAWERS[suit_value][1]


@lru_cache(maxsize=512)
def _cached_mask(suit_value: str, variant: int, size: int) -> np.ndarray:
    drawer, count = _DRAWERS[suit_value]
    big = size * _OVERSAMPLE
    canvas = np.zeros((big, big), np.uint8)
    drawer(canvas, float(big), variant % count)
    small = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    small.setflags(write=False)
    return small


def suit_mask(suit_value: str, variant: int, size: int) -> np.ndarray:
    """A ``(size, size)`` uint8 mask of a suit symbol (``suit_value`` is a ``Suit`` value)."""
    return _cached_mask(suit_value, variant, max(4, int(size)))


def star_mask(points: int, inner: float, size: int) -> np.ndarray:
    """A ``(size, size)`` uint8 mask of a ``points``-pointed star (for art and special marks)."""
    big = max(4, size) * _OVERSAMPLE
    canvas = np.zeros((big, big), np.uint8)
    _poly(canvas, _star_points(points, inner, 0.5, 0.5, 0.48, 0.0), float(big))
    return cv2.resize(canvas, (max(4, size), max(4, size)), interpolation=cv2.INTER_AREA)
