"""Table surfaces: wood, felt, cloth, patterned cloths and plain tables, as (H, W, 3) uint8 BGR.

Textures are built at a reduced resolution and scaled up (they are smooth), with fine grain
added at full size, so a 12-megapixel table takes a few tens of milliseconds.

>>> rng = np.random.default_rng(0)
>>> table = render_background(rng, 120, 80, "wood")
>>> table.shape, table.dtype.name
((80, 120, 3), 'uint8')
>>> sorted(BACKGROUNDS)
['checks', 'cloth', 'felt', 'floral', 'plain', 'stripes', 'wood']
"""

from __future__ import annotations

import math

import cv2
import numpy as np

BACKGROUNDS: tuple[str, ...] = ("wood", "felt", "cloth", "checks", "stripes", "floral", "plain")
_WORK_PIXELS = 500_000  # textures are drawn at about this many pixels


def smooth_noise(rng: np.random.Generator, height: int, width: int, cell: float) -> np.ndarray:
    """(height, width) float32 noise in about -1..1 that varies over ``cell`` pixels."""
    gh, gw = max(2, int(height / cell) + 2), max(2, int(width / cell) + 2)
    coarse = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC)


def _rotated_coords(height: int, width: int, angle: float) -> tuple[np.ndarray, np.ndarray]:
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    c, s = math.cos(angle), math.sin(angle)
    return xs * c + ys * s, -xs * s + ys * c


def _colour(rng: np.random.Generator, options: list[tuple[int, int, int]], jitter: int = 20) -> np.ndarray:
    base = np.asarray(options[int(rng.integers(len(options)))], np.float32)
    return np.clip(base + rng.uniform(-jitter, jitter, 3), 0, 255)


def _wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    _, v = _rotated_coords(h, w, float(rng.choice([0.0, math.pi / 2]) + rng.normal(0, 0.05)))
    scale = max(h, w)
    warp = smooth_noise(rng, h, w, scale / 6) * scale * 0.03
    grain = np.sin((v + warp) * (2 * math.pi / (scale * rng.uniform(0.006, 0.02))))
    rings = np.sin((v + warp * 3) * (2 * math.pi / (scale * rng.uniform(0.04, 0.1))))
    plank = scale * rng.uniform(0.12, 0.3)
    seams = (np.abs(((v + plank / 2) % plank) - plank / 2) < scale * 0.0015).astype(np.float32)
    tone = 0.55 * grain + 0.35 * rings
    base = _colour(rng, [(60, 110, 170), (40, 80, 130), (90, 150, 200), (30, 55, 90), (70, 120, 160)])
    shade = 1.0 + 0.12 * tone[..., None] - 0.35 * seams[..., None]
    return base * shade


def _felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _colour(
        rng, [(40, 110, 30), (30, 90, 20), (110, 60, 20), (40, 40, 140), (60, 60, 60), (70, 40, 90)]
    )
    shade = 1.0 + 0.08 * smooth_noise(rng, h, w, max(h, w) / 5)[..., None]
    return base * shade


def _cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _colour(rng, [(170, 190, 200), (130, 150, 160), (90, 60, 40), (40, 60, 120), (150, 140, 140)], 30)
    u, v = _rotated_coords(h, w, float(rng.uniform(0, math.pi)))
    period = max(3.0, max(h, w) * rng.uniform(0.004, 0.01))
    weave = np.sin(u * 2 * math.pi / period) * np.sin(v * 2 * math.pi / period)
    folds = smooth_noise(rng, h, w, max(h, w) / 4)
    return base * (1.0 + 0.07 * weave[..., None] + 0.1 * folds[..., None])


def _checks(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    a = _colour(rng, [(230, 230, 230), (200, 220, 230), (240, 240, 250)], 15)
    b = _colour(rng, [(40, 40, 180), (150, 80, 30), (40, 120, 40), (40, 40, 40)], 25)
    u, v = _rotated_coords(h, w, float(rng.uniform(0, math.pi)))
    size = max(h, w) * rng.uniform(0.03, 0.1)
    if rng.random() < 0.5:  # gingham: stripes both ways, blended where they cross
        t = (((u // size) % 2) + ((v // size) % 2)) / 2.0
    else:
        t = ((u // size + v // size) % 2).astype(np.float32)
    return a * (1 - t[..., None]) + b * t[..., None]


def _stripes(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    u, _ = _rotated_coords(h, w, float(rng.uniform(0, math.pi)))
    widths = rng.uniform(0.01, 0.06, 12) * max(h, w)
    edges = np.cumsum(widths)
    band = np.searchsorted(edges, u % edges[-1])
    palette = np.stack(
        [_colour(rng, [(200, 200, 210), (60, 60, 150), (140, 90, 40), (50, 130, 150)], 40) for _ in range(4)]
    )
    return np.asarray(palette[band % 4], np.float32)


def _floral(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    image = np.empty((h, w, 3), np.float32)
    image[:] = _colour(rng, [(200, 210, 220), (60, 40, 30), (120, 150, 60), (210, 180, 150)], 25)
    scale = max(h, w)
    for _ in range(int(rng.integers(30, 90))):
        centre = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        radius = scale * rng.uniform(0.008, 0.03)
        colour = tuple(
            float(c)
            for c in _colour(
                rng, [(60, 60, 200), (200, 120, 200), (60, 200, 230), (230, 230, 240), (80, 160, 60)], 40
            )
        )
        petals = int(rng.integers(4, 7))
        for k in range(petals):
            angle = 2 * math.pi * k / petals
            petal = centre + radius * np.array([math.cos(angle), math.sin(angle)])
            cv2.circle(
                image, (int(petal[0]), int(petal[1])), max(1, int(radius * 0.7)), colour, -1, cv2.LINE_AA
            )
        cv2.circle(
            image,
            (int(centre[0]), int(centre[1])),
            max(1, int(radius * 0.5)),
            (40.0, 180.0, 220.0),
            -1,
            cv2.LINE_AA,
        )
    return image


def _plain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _colour(rng, [(235, 235, 235), (120, 120, 120), (40, 40, 40), (180, 200, 210), (150, 110, 90)], 25)
    ys = np.linspace(-1, 1, h, dtype=np.float32)[:, None, None]
    return np.asarray(base * (1.0 + 0.06 * ys) * np.ones((1, w, 1), np.float32), np.float32)


_MAKERS = {
    "wood": _wood,
    "felt": _felt,
    "cloth": _cloth,
    "checks": _checks,
    "stripes": _stripes,
    "floral": _floral,
    "plain": _plain,
}


def render_background(rng: np.random.Generator, width: int, height: int, kind: str = "random") -> np.ndarray:
    """A table surface of ``kind`` (one of BACKGROUNDS, or "random"): (height, width, 3) uint8."""
    if kind == "random":
        kind = BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))]
    if kind not in _MAKERS:
        raise ValueError(f"unknown background {kind!r}; known: {', '.join(BACKGROUNDS)}")
    factor = min(1.0, math.sqrt(_WORK_PIXELS / (width * height)))
    small_w, small_h = max(8, round(width * factor)), max(8, round(height * factor))
    texture = _MAKERS[kind](rng, small_h, small_w)
    texture = np.clip(texture, 0, 255).astype(np.uint8)
    if (small_w, small_h) != (width, height):
        texture = cv2.resize(texture, (width, height), interpolation=cv2.INTER_LINEAR)
    # Fine grain at full size (felt fibres, paint): cheap uint8 noise.
    amount = 10 if kind in ("felt", "cloth") else 4
    grain = rng.integers(0, amount + 1, (height, width, 1), dtype=np.uint8)
    return cv2.subtract(
        cv2.add(texture, np.broadcast_to(grain, texture.shape).copy()), np.full_like(texture, amount // 2)
    )
