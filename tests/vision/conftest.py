"""Synthetic pictures with exact answers: cards drawn as white rectangles with an index.

Each card is drawn upright on its own canvas (rank text with cv2.putText, a suit symbol
drawn as a polygon below it, the same index turned half round in the opposite corner, and
some pips), then pasted rotated onto a dark table.  The true corners are known exactly.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from companion.cards import Card
from vision.detect import Ink
from vision.synth.card import render_card_face
from vision.synth.style import DeckStyle

CARD_W, CARD_H = 100, 140


def suit_shape(suit: str, size: int) -> np.ndarray:
    """A (size, size) uint8 mask of a simple suit symbol: diamonds, hearts, spades, clubs, star."""
    mask = np.zeros((size, size), np.uint8)
    s = float(size)
    if suit == "diamonds":
        pts = np.array([[s / 2, 0], [s * 0.85, s / 2], [s / 2, s - 1], [s * 0.15, s / 2]])
        cv2.fillPoly(mask, [pts.astype(np.int32)], 255, cv2.LINE_AA)
    elif suit in ("hearts", "spades"):
        r = s * 0.25
        y = s * 0.33
        cv2.circle(mask, (round(s / 2 - r * 0.95), round(y)), round(r), 255, -1, cv2.LINE_AA)
        cv2.circle(mask, (round(s / 2 + r * 0.95), round(y)), round(r), 255, -1, cv2.LINE_AA)
        pts = np.array([[s / 2 - 1.9 * r, y + 0.3 * r], [s / 2 + 1.9 * r, y + 0.3 * r], [s / 2, s * 0.95]])
        cv2.fillPoly(mask, [pts.astype(np.int32)], 255, cv2.LINE_AA)
        if suit == "spades":
            mask = np.ascontiguousarray(mask[::-1])
            cv2.rectangle(mask, (round(s * 0.45), round(s * 0.6)), (round(s * 0.55), size - 1), 255, -1)
    elif suit == "clubs":
        r = s * 0.2
        for cx, cy in ((s / 2, s * 0.25), (s / 2 - 1.15 * r, s * 0.55), (s / 2 + 1.15 * r, s * 0.55)):
            cv2.circle(mask, (round(cx), round(cy)), round(r), 255, -1, cv2.LINE_AA)
        cv2.rectangle(mask, (round(s * 0.45), round(s * 0.4)), (round(s * 0.55), size - 1), 255, -1)
    elif suit == "star":
        a = np.arange(10) * math.pi / 5
        radius = np.where(np.arange(10) % 2 == 0, s * 0.48, s * 0.2)
        pts = np.stack([s / 2 + radius * np.sin(a), s / 2 - radius * np.cos(a)], axis=1)
        cv2.fillPoly(mask, [pts.astype(np.int32)], 255, cv2.LINE_AA)
    else:
        raise ValueError(suit)
    return mask


COLOURS = {
    "hearts": (30, 30, 200),
    "diamonds": (30, 30, 200),
    "star": (40, 40, 210),
    "spades": (20, 20, 20),
    "clubs": (20, 20, 20),
}


def draw_card(rank: str, suit: str, scale: float = 1.0) -> np.ndarray:
    """An upright card face (BGR), ``CARD_W x CARD_H`` times ``scale``."""
    w, h = round(CARD_W * scale), round(CARD_H * scale)
    card = np.full((h, w, 3), 242, np.uint8)
    colour = COLOURS[suit]
    glyph = round(16 * scale)
    font_scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, glyph, 2)
    (tw, _), _ = cv2.getTextSize(rank, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 2)
    x0 = round(12 * scale) - tw // 2 + round(2 * scale)
    corner = np.full((round(50 * scale), round(30 * scale), 3), 242, np.uint8)
    cv2.putText(
        corner,
        rank,
        (max(1, x0 - round(3 * scale)), round(20 * scale)),
        cv2.FONT_HERSHEY_SIMPLEX,
        font_scale,
        colour,
        max(1, round(2 * scale)),
        cv2.LINE_AA,
    )
    symbol = suit_shape(suit, round(13 * scale))
    sy, sx = round(26 * scale), round(6 * scale)
    region = corner[sy : sy + symbol.shape[0], sx : sx + symbol.shape[1]]
    alpha = symbol[:, :, None].astype(np.float32) / 255.0
    region[:] = (region * (1 - alpha) + np.array(colour) * alpha).astype(np.uint8)
    ch, cw = corner.shape[:2]
    card[round(4 * scale) : round(4 * scale) + ch, round(4 * scale) : round(4 * scale) + cw] = corner
    card[
        h - round(4 * scale) - ch : h - round(4 * scale), w - round(4 * scale) - cw : w - round(4 * scale)
    ] = corner[::-1, ::-1]
    pip = suit_shape(suit, round(22 * scale))
    for px, py in ((0.5, 0.3), (0.5, 0.7)):
        x, y = round(px * w - pip.shape[1] / 2), round(py * h - pip.shape[0] / 2)
        region = card[y : y + pip.shape[0], x : x + pip.shape[1]]
        alpha = pip[:, :, None].astype(np.float32) / 255.0
        region[:] = (region * (1 - alpha) + np.array(colour) * alpha).astype(np.uint8)
    return card


def draw_back(scale: float = 1.0) -> np.ndarray:
    """A card back: a blue patterned face with a white border."""
    w, h = round(CARD_W * scale), round(CARD_H * scale)
    back = np.full((h, w, 3), 240, np.uint8)
    inner = back[round(6 * scale) : h - round(6 * scale), round(6 * scale) : w - round(6 * scale)]
    inner[:] = (150, 60, 30)
    for k in range(0, inner.shape[0] + inner.shape[1], max(4, round(8 * scale))):
        cv2.line(inner, (k, 0), (0, k), (200, 120, 60), 2)
    return back


def paste(table: np.ndarray, face: np.ndarray, center: tuple[float, float], angle: float) -> np.ndarray:
    """Paste ``face`` onto ``table`` (in place) turned by ``angle`` degrees.

    Returns its TL, TR, BR, BL corners, (4, 2) float32."""
    h, w = face.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[:, 2] += np.array(center) - np.array([w / 2, h / 2])
    size = (table.shape[1], table.shape[0])
    warped = cv2.warpAffine(face, matrix, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), matrix, size, flags=cv2.INTER_LINEAR)
    alpha = mask[:, :, None].astype(np.float32) / 255.0
    table[:] = (table * (1 - alpha) + warped * alpha).astype(np.uint8)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    return (corners @ matrix[:, :2].T + matrix[:, 2]).astype(np.float32)


def paste_face(
    canvas: np.ndarray, style: DeckStyle, card: Card, width: int, center: tuple[float, float], angle: float
) -> None:
    """A card face of a generated deck ``style``, ``width`` pixels wide, pasted turned."""
    face = render_card_face(style, card, width)
    h, w = face.image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[:, 2] += np.array(center) - [w / 2, h / 2]
    size = (canvas.shape[1], canvas.shape[0])
    image = cv2.warpAffine(face.image, matrix, size)
    alpha = cv2.warpAffine(face.mask, matrix, size)[:, :, None] / 255.0
    canvas[:] = (canvas * (1 - alpha) + image * alpha).astype(np.uint8)


def drawn_ink(
    labels: np.ndarray, boxes: list[list[int]], centers: list[list[float]], sizes: list[float]
) -> Ink:
    """Ink of components drawn by hand in ``labels`` (component i is i + 1): their x, y, w, h
    ``boxes``, ``centers`` and ``sizes``, all on paper region 0."""
    count = len(boxes)
    return Ink(
        labels,
        np.array(boxes, np.int32),
        np.array(centers, np.float32),
        np.array(sizes, np.float32),
        np.zeros(count, np.int32),
    )


def lettered_card(
    height: int, width: int, letters: list[tuple[str, tuple[int, int], float, tuple[int, int, int]]]
) -> tuple[np.ndarray, Ink, list[int]]:
    """A pale card filling a green table but for a 20-pixel margin, with ``letters`` (text,
    baseline origin, Hershey scale, BGR colour) drawn on it: the scene, its ink, and each
    letter's component (the one nearest the letter's middle)."""
    from vision.detect import ink_components, paper_regions

    scene = np.full((height, width, 3), (60, 90, 40), np.uint8)
    scene[20 : height - 20, 20 : width - 20] = 240
    for text, origin, scale, colour in letters:
        thickness = max(2, round(2.5 * scale))
        cv2.putText(scene, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
    ink = ink_components(scene, paper_regions(scene))
    found = []
    for text, (x, y), scale, _ in letters:
        (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(2, round(2.5 * scale)))
        found.append(int(np.argmin(np.linalg.norm(ink.centers - [x + w / 2, y - h / 2], axis=1))))
    return scene, ink, found


def table(height: int = 600, width: int = 800, seed: int = 0) -> np.ndarray:
    """A dark green felt-like table with a little noise."""
    rng = np.random.default_rng(seed)
    base = np.empty((height, width, 3), np.float32)
    base[:] = (40, 90, 35)
    base += rng.normal(0, 6, base.shape)
    return np.clip(base, 0, 255).astype(np.uint8)


@pytest.fixture
def draw() -> object:
    """The drawing helpers, for tests that build their own scenes."""
    import types

    return types.SimpleNamespace(
        card=draw_card, back=draw_back, paste=paste, table=table, suit_shape=suit_shape
    )


def train_reader_module() -> ModuleType:
    """``scripts/train_reader.py`` (not a package module) loaded by its path, once."""
    if "train_reader" in sys.modules:
        return sys.modules["train_reader"]
    path = Path(__file__).resolve().parents[2] / "scripts" / "train_reader.py"
    spec = importlib.util.spec_from_file_location("train_reader", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_reader"] = module
    spec.loader.exec_module(module)
    return module
