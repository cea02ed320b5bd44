"""Things on a table that are not card faces: card backs, poker chips, coins, papers, a hand.

Each drawer paints into a table canvas (H, W, 3) uint8 in place. Objects that may lie on top
of cards return the polygons they cover, so that the scene knows what they hide.

>>> canvas = np.zeros((100, 100, 3), np.uint8)
>>> draw_chip(np.random.default_rng(1), canvas, (50.0, 50.0), 20.0)
>>> int(canvas[50, 50].max()) > 0, int(canvas[2, 2].max())
(True, 0)
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.card import card_mask


def render_back(
    rng: np.random.Generator, width: int, height: int, radius: float
) -> tuple[np.ndarray, np.ndarray]:
    """A patterned card back: (image (H, W, 3) uint8, outline mask (H, W) uint8)."""
    colour = np.asarray(
        [(40, 40, 170), (150, 70, 30), (40, 110, 40), (30, 30, 30), (120, 40, 110)][int(rng.integers(5))],
        np.float32,
    )
    image = np.empty((height, width, 3), np.float32)
    image[:] = (235, 240, 240)
    border = max(2, int(width * rng.uniform(0.04, 0.09)))
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    period = max(3.0, width * rng.uniform(0.05, 0.12))
    kind = int(rng.integers(3))
    if kind == 0:  # diamond lattice
        pattern = (np.abs(np.sin((xs + ys) * math.pi / period)) < 0.35) | (
            np.abs(np.sin((xs - ys) * math.pi / period)) < 0.35
        )
    elif kind == 1:  # dots
        pattern = (np.sin(xs * 2 * math.pi / period) * np.sin(ys * 2 * math.pi / period)) > 0.4
    else:  # solid with rings
        pattern = np.sin(np.hypot(xs - width / 2, ys - height / 2) * 2 * math.pi / period) > -0.6
    inner = np.zeros((height, width), bool)
    inner[border:-border, border:-border] = True
    fill = np.where(pattern[..., None], colour, colour * 0.55 + 110)
    image[inner] = fill[inner]
    return np.clip(image, 0, 255).astype(np.uint8), card_mask(width, height, radius)


def draw_chip(
    rng: np.random.Generator, canvas: np.ndarray, centre: tuple[float, float], radius: float
) -> None:
    """A poker chip: a coloured disc with white edge spots and an inner ring."""
    colour = [(40, 40, 200), (200, 80, 30), (40, 140, 40), (30, 30, 30), (200, 200, 200), (150, 40, 140)][
        int(rng.integers(6))
    ]
    cx, cy = int(centre[0]), int(centre[1])
    r = max(3, int(radius))
    cv2.circle(canvas, (cx, cy), r, colour, -1, cv2.LINE_AA)
    spots = int(rng.integers(4, 9))
    start = rng.uniform(0, 360)
    for k in range(spots):
        angle = start + 360 * k / spots
        cv2.ellipse(
            canvas,
            (cx, cy),
            (r, r),
            0,
            angle,
            angle + 180 / spots,
            (235, 235, 235),
            max(1, r // 5),
            cv2.LINE_AA,
        )
    cv2.circle(canvas, (cx, cy), max(2, int(r * 0.62)), (230, 230, 230), max(1, r // 14), cv2.LINE_AA)
    cv2.circle(canvas, (cx, cy), r, tuple(int(c * 0.6) for c in colour), max(1, r // 18), cv2.LINE_AA)


def draw_coin(
    rng: np.random.Generator, canvas: np.ndarray, centre: tuple[float, float], radius: float
) -> None:
    """A coin: a silver or gold disc with a darker rim and an embossed ring."""
    colour = [(170, 170, 170), (60, 160, 200), (80, 120, 170)][int(rng.integers(3))]
    cx, cy = int(centre[0]), int(centre[1])
    r = max(3, int(radius))
    cv2.circle(canvas, (cx, cy), r, tuple(int(c * 0.7) for c in colour), -1, cv2.LINE_AA)
    cv2.circle(canvas, (cx, cy), max(2, int(r * 0.88)), colour, -1, cv2.LINE_AA)
    cv2.circle(
        canvas,
        (cx, cy),
        max(1, int(r * 0.6)),
        tuple(int(c * 0.85) for c in colour),
        max(1, r // 10),
        cv2.LINE_AA,
    )


def draw_paper(
    rng: np.random.Generator, canvas: np.ndarray, centre: tuple[float, float], size: float
) -> None:
    """A sheet of paper (a score pad) with scribbled lines but no card indices."""
    w, h = size, size * rng.uniform(1.2, 1.5)
    angle = rng.uniform(0, math.pi)
    c, s = math.cos(angle), math.sin(angle)
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    rot = np.array([[c, -s], [s, c]])
    corners = local @ rot.T + centre
    tone = int(rng.integers(215, 250))
    cv2.fillPoly(
        canvas, [corners.astype(np.int32)], (tone, tone, tone + 3 if tone < 252 else tone), cv2.LINE_AA
    )
    for row in np.arange(-h / 2 + h * 0.12, h / 2 - h * 0.08, h * rng.uniform(0.07, 0.12)):
        xs = np.linspace(-w * 0.4, w * rng.uniform(-0.1, 0.4), 12)
        ys = row + rng.normal(0, h * 0.006, xs.shape)
        points = np.stack([xs, ys], axis=1) @ rot.T + centre
        cv2.polylines(
            canvas, [points.astype(np.int32)], False, (120, 110, 100), max(1, int(size / 90)), cv2.LINE_AA
        )


def hand_polygons(rng: np.random.Generator, centre: tuple[float, float], size: float) -> list[np.ndarray]:
    """Polygons (N, 2) float32 of a hand-like shape: a palm, four fingers and a thumb."""
    angle = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(angle), math.sin(angle)
    rot = np.array([[c, -s], [s, c]])
    cx, cy = centre
    palm = np.asarray(
        cv2.ellipse2Poly((0, 0), (int(size * 0.5), int(size * 0.42)), 0, 0, 360, 10), np.float32
    )
    shapes = [palm]
    for k, length in enumerate((0.75, 0.85, 0.8, 0.65)):
        x = size * (-0.33 + 0.22 * k)
        finger = np.array(
            [
                [x - size * 0.09, 0],
                [x + size * 0.09, 0],
                [x + size * 0.08, -size * (0.3 + length)],
                [x, -size * (0.36 + length)],
                [x - size * 0.08, -size * (0.3 + length)],
            ],
            np.float32,
        )
        shapes.append(finger)
    thumb = np.array(
        [
            [size * 0.35, size * 0.1],
            [size * 0.5, -size * 0.1],
            [size * 0.95, -size * 0.35],
            [size * 0.95, -size * 0.2],
            [size * 0.45, size * 0.3],
        ],
        np.float32,
    )
    shapes.append(thumb)
    return [(shape @ rot.T + [cx, cy]).astype(np.float32) for shape in shapes]


def draw_hand(rng: np.random.Generator, canvas: np.ndarray, polygons: list[np.ndarray]) -> None:
    """Paint the hand polygons in a skin tone with soft shading."""
    tone = [(150, 180, 225), (110, 150, 200), (80, 110, 160), (60, 80, 120), (170, 200, 235)][
        int(rng.integers(5))
    ]
    points = np.concatenate(polygons)
    x0, y0 = np.floor(points.min(axis=0)).astype(int) - 4
    x1, y1 = np.ceil(points.max(axis=0)).astype(int) + 4
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(canvas.shape[1], x1), min(canvas.shape[0], y1)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for polygon in polygons:
        cv2.fillPoly(mask, [(polygon - [x0, y0]).astype(np.int32)], 255, cv2.LINE_AA)
    light = cv2.GaussianBlur(mask, (0, 0), max(1.0, (x1 - x0) / 25)).astype(np.float32) / 255.0
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    colour = np.asarray(tone, np.float32) * (0.75 + 0.3 * light[..., None])
    alpha = mask.astype(np.float32)[..., None] / 255.0
    canvas[y0:y1, x0:x1] = np.clip(region * (1 - alpha) + colour * alpha, 0, 255).astype(np.uint8)
