"""Train the glyph reader shipped in vision/models/glyphs.npz (and, with ``--context``, the
context model in vision/models/context.npz).

Usage: nice .venv/bin/python scripts/train_reader.py [--samples N] [--scenes N] [--seed S] [-o PATH]
       nice .venv/bin/python scripts/train_reader.py --context --scenes 3000 --seed 31
       nice .venv/bin/python scripts/train_reader.py --glyphnet
       nice .venv/bin/python scripts/train_reader.py --indexnet --scenes 3000 --seed 31
       nice .venv/bin/python scripts/train_reader.py --indexnet --scenes 6000 --seed 31 \
           -o vision/models/indexnet_6000.npz   (the second index network, read beside it)
       nice .venv/bin/python scripts/train_reader.py --indexnet --scenes 6000 --seed 31 \
           --net-seed 47 -o vision/models/indexnet_6000_n47.npz   (the third, from other starting weights)
       nice .venv/bin/python scripts/train_reader.py --indexnet --scenes 6000 --seed 31 \
           --extra-scenes 47:3000 --net-seed 59 -o vision/models/indexnet_9000.npz   (the fourth)
       nice .venv/bin/python scripts/train_reader.py --jokernet --scenes 1200 --seed 41

Everything is generated here, reproducibly from the seed: rank glyphs ("1".."10", J Q K
A) in every Hershey face and every TrueType font found under /usr/share/fonts (through
Pillow, when installed) except the fonts reserved for held-out deck families (GNU FreeFont,
see vision.synth.text.is_held_out_font), suit symbols drawn as vector shapes with
randomised proportions (hearts, diamonds, clubs, spades; jade, sword, pagoda, star) plus
the Unicode suit glyphs of the training fonts that have them, card faces of the
development (never held-out) deck families drawn by vision.synth, index glyphs of whole
table scenes of those families as the scanner cuts them (fans, frames, shadows, blur, JPEG;
``--scenes``), and "other" ink (blobs,
lines, letters, fragments, glyphs on their side or upside down).  Each sample goes through
what the scanner sees: a random slant, stretch and size (7-48 px), blur, a binarising
threshold and the largest connected component(s), then
:func:`vision.features.upright_glyph` with a jittered "down".  A numpy perceptron (one
hidden layer) is trained with Adam and saved in float16.  Takes about seven minutes on two
cores (the scenes are drawn in parallel, ``--workers``).  The defaults are the shipped recipe.

The context model (:func:`vision.read.context_vectors`) reads a glyph from its own features
and those of a window of ink around it, so it learns from the scanner's crops of whole
table scenes only (:func:`scene_glyphs` with ``context``): every proposed pair that lies in
a labelled index corner, scene ink that surely is no index as "other", each seen twice (the
second time turned and zoomed a little).  The second command above is the shipped recipe
(about twelve minutes on two cores).

The index patch network (:mod:`vision.indexnet`, ``--indexnet``) reads a proposed pair's
whole index corner from the ink darkness: it learns from the patches of the scanner's
proposals in ``--scenes`` development-family scenes (:func:`scene_patches`) and from
indices drawn from the training fonts and suit drawings (:func:`drawn_index`); the fourth
command is the shipped recipe (about nineteen minutes).

The joker word network (:mod:`vision.jokernet`, ``--jokernet``) learns from the long thin
runs of ink the scanner finds in development-family standard scenes with both jokers
(:func:`joker_scene_words`), each read from both ends: JOKER when it lies in a joker's index
corner and is read from its J's end, else "other"; the last command is the shipped recipe
(about seven minutes).

The glyph network (:mod:`vision.glyphnet`, ``vision/models/glyphnet.npz``) learns from the
same kinds of glyphs as the perceptron (more of them: 2,500 a class, 6,000 cards, 2,000
scenes by default), each described by its square's pixels and its aspect ratio
(:func:`pixels_of`), trained with Adam in numpy (:func:`train_glyphnet`).  The third command
above is the shipped recipe (about eleven minutes on two cores).

Three options are measured but not in the shipped model (see docs/scanner.md): with
``--scene-negatives`` the scenes also teach, as "other", the ink the scanner pairs like an
index that surely is none (frame-line scraps, card edges, the table:
:func:`scrap_components`); ``--frame-scraps SHARE`` draws that share of ranks with a scrap
of frame line touching them (:func:`with_frame_scrap`); ``--occlusions SHARE`` that share
of ranks and suits with a strip hidden, as the next card in a fan hides it
(:func:`with_occlusion`).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.detect import Ink
from vision.features import GLYPH_SIZE, glyph_aspects, glyph_features_batch, upright_glyph
from vision.glyphnet import GlyphNet, backward, forward, initial_params, softmax
from vision.indexnet import PATCH_HEIGHT, PATCH_WIDTH, IndexNet, split_softmax
from vision.jokernet import WORD_ACROSS, WORD_ALONG, WORD_CLASSES, JokerNet
from vision.read import (
    CLASS_INDEX,
    CLASSES,
    CONTEXT_LENGTH,
    JOKER_WORD_SURE,
    RANK_CLASSES,
    SUIT_CLASSES,
    GlyphModel,
)
from vision.synth.scene import CardLabel
from vision.synth.text import is_held_out_font
from vision.synth.text import truetype_fonts as synth_truetype_fonts

#: How a training glyph is described: (N, GLYPH_SIZE, GLYPH_SIZE) upright squares with their
#: (N,) heights and widths -> (N, D) rows; the perceptron's are
#: :func:`vision.features.glyph_features_batch`, the glyph network's :func:`pixels_of`.
Describe = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def pixels_of(squares: np.ndarray, heights: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """The glyph network's rows: the square's pixels, then its log aspect ratio."""
    aspects = glyph_aspects(heights, widths)
    return np.concatenate([squares.reshape(len(squares), -1), aspects[:, None]], axis=1).astype(np.float32)


def row_length(describe: Describe) -> int:
    """D of ``describe``'s rows."""
    one = np.zeros((1, GLYPH_SIZE, GLYPH_SIZE), np.float32)
    return int(describe(one, np.ones(1, np.float32), np.ones(1, np.float32)).shape[1])


REFERENCE = 64
HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)
UNICODE_SUITS = {
    "spades": "♠♤",
    "hearts": "♥♡",
    "diamonds": "♦♢",
    "clubs": "♣♧",
    "star": "★☆✦✪",
}
OTHER_TEXT = "BCDEFGHILMNOPRSTUVWXYZbcdefghkmnoprstuvwxyz0%@&#?!*+=<>()[]{}/\\~"


def truetype_fonts() -> list[str]:
    """The TrueType fonts to learn from: the generator's fonts (vision.synth.text) except the
    ones it reserves for held-out deck families (GNU FreeFont), so that the held-out
    evaluation really meets lettering the model never saw."""
    return [path for path in synth_truetype_fonts() if not is_held_out_font(path)]


def hershey_text(rng: np.random.Generator, text: str) -> np.ndarray:
    face = int(rng.choice(HERSHEY)) | (cv2.FONT_ITALIC if rng.random() < 0.2 else 0)
    thickness = int(rng.integers(2, 9))
    (width, height), baseline = cv2.getTextSize(text, face, 2.0, thickness)
    pad = 12
    canvas = np.zeros((height + baseline + 2 * pad, width + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + height), face, 2.0, 255, thickness, cv2.LINE_AA)
    return canvas


_FONT_CACHE: dict[str, object] = {}


def truetype_text(path: str, text: str) -> np.ndarray | None:
    from PIL import Image, ImageDraw, ImageFont

    font = _FONT_CACHE.get(path)
    if font is None:
        font = ImageFont.truetype(path, size=REFERENCE)
        _FONT_CACHE[path] = font
    assert isinstance(font, ImageFont.FreeTypeFont)
    left, top, right, bottom = font.getbbox(text)
    if right - left < 2 or bottom - top < 2:
        return None
    image = Image.new("L", (int(right - left) + 24, int(bottom - top) + 24), 0)
    ImageDraw.Draw(image).text((12 - left, 12 - top), text, fill=255, font=font)
    return np.asarray(image, dtype=np.uint8)


def fonts_with_suits(fonts: list[str]) -> dict[str, list[str]]:
    """Per suit, the ``fonts`` that draw its Unicode symbol."""
    return {suit: [f for f in fonts if font_has(f, chars[0])] for suit, chars in UNICODE_SUITS.items()}


def font_has(path: str, char: str) -> bool:
    """True when the font draws ``char`` differently from its missing-glyph box."""
    a = truetype_text(path, char)
    b = truetype_text(path, "\uffff")
    if a is None:
        return False
    if b is None:
        return True
    return a.shape != b.shape or bool(np.any(a != b))


# --- suit shapes (our own drawings, proportions randomised) ------------------------------


def _poly(canvas: np.ndarray, points: np.ndarray) -> None:
    cv2.fillPoly(canvas, [np.round(points * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)


def _disc(canvas: np.ndarray, x: float, y: float, r: float, value: int = 255) -> None:
    cv2.circle(canvas, (round(x * 16), round(y * 16)), max(1, round(r * 16)), value, -1, cv2.LINE_AA, 4)


def draw_heart(rng: np.random.Generator, s: float) -> np.ndarray:
    c = np.zeros((int(s), int(s)), np.uint8)
    r = s * rng.uniform(0.22, 0.28)
    y = s * rng.uniform(0.3, 0.38)
    _disc(c, s / 2 - r * 0.95, y, r)
    _disc(c, s / 2 + r * 0.95, y, r)
    tip = s * rng.uniform(0.85, 0.97)
    _poly(c, np.array([[s / 2 - 1.9 * r, y + r * 0.3], [s / 2 + 1.9 * r, y + r * 0.3], [s / 2, tip]]))
    return c


def draw_diamond(rng: np.random.Generator, s: float) -> np.ndarray:
    c = np.zeros((int(s), int(s)), np.uint8)
    w = s * rng.uniform(0.28, 0.44)
    bow = rng.uniform(0.0, 0.07) * s
    t = np.linspace(0, 1, 10)
    corners = [
        (s / 2, 0.04 * s),
        (s / 2 + w, s / 2),
        (s / 2, 0.96 * s),
        (s / 2 - w, s / 2),
        (s / 2, 0.04 * s),
    ]
    pts = []
    for (x0, y0), (x1, y1) in itertools.pairwise(corners):
        xs, ys = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        b = bow * np.sin(np.pi * t)
        pts.append(np.stack([xs + b * np.sign(s / 2 - xs), ys + b * np.sign(s / 2 - ys)], axis=1))
    _poly(c, np.concatenate(pts))
    return c


def _stem(c: np.ndarray, rng: np.random.Generator, s: float, top: float) -> None:
    half = s * rng.uniform(0.04, 0.08)
    foot = s * rng.uniform(0.15, 0.3)
    _poly(
        c,
        np.array(
            [[s / 2 - half, top], [s / 2 + half, top], [s / 2 + foot, 0.97 * s], [s / 2 - foot, 0.97 * s]]
        ),
    )


def draw_club(rng: np.random.Generator, s: float) -> np.ndarray:
    c = np.zeros((int(s), int(s)), np.uint8)
    r = s * rng.uniform(0.17, 0.22)
    _disc(c, s / 2, s * 0.05 + r, r)
    low = s * rng.uniform(0.5, 0.58)
    _disc(c, s / 2 - r * 1.15, low, r)
    _disc(c, s / 2 + r * 1.15, low, r)
    _disc(c, s / 2, low - r * 0.3, r * 0.6)
    _stem(c, rng, s, low - r * 0.2)
    return c


def draw_spade(rng: np.random.Generator, s: float) -> np.ndarray:
    c = np.zeros((int(s), int(s)), np.uint8)
    r = s * rng.uniform(0.2, 0.25)
    y = s * rng.uniform(0.52, 0.6)
    _disc(c, s / 2 - r * 0.95, y, r)
    _disc(c, s / 2 + r * 0.95, y, r)
    _poly(c, np.array([[s / 2 - 1.9 * r, y - r * 0.3], [s / 2 + 1.9 * r, y - r * 0.3], [s / 2, 0.03 * s]]))
    _stem(c, rng, s, y)
    return c


def draw_jade(rng: np.random.Generator, s: float) -> np.ndarray:
    c = np.zeros((int(s), int(s)), np.uint8)
    kind = rng.integers(0, 4)
    r = s * 0.46
    if kind == 0:  # coin with a square hole
        _disc(c, s / 2, s / 2, r)
        h = r * rng.uniform(0.25, 0.45)
        cv2.rectangle(c, (round(s / 2 - h), round(s / 2 - h)), (round(s / 2 + h), round(s / 2 + h)), 0, -1)
    elif kind == 1:  # ring
        _disc(c, s / 2, s / 2, r)
        _disc(c, s / 2, s / 2, r * rng.uniform(0.35, 0.6), 0)
    elif kind == 2:  # octagon with a hole
        a = np.arange(8) * np.pi / 4 + np.pi / 8
        _poly(c, np.stack([s / 2 + r * np.cos(a), s / 2 + r * np.sin(a)], axis=1))
        _disc(c, s / 2, s / 2, r * rng.uniform(0.25, 0.45), 0)
    else:  # a disc with a notch pattern (a carved jade)
        _disc(c, s / 2, s / 2, r)
        for k in range(4):
            angle = k * np.pi / 2 + np.pi / 4
            _disc(c, s / 2 + 0.55 * r * np.cos(angle), s / 2 + 0.55 * r * np.sin(angle), r * 0.15, 0)
    return c


def draw_sword(rng: np.random.Generator, s: float) -> np.ndarray:
    c = np.zeros((int(s), int(s)), np.uint8)
    blade = s * rng.uniform(0.05, 0.1)
    guard_y = s * rng.uniform(0.62, 0.72)
    _poly(
        c,
        np.array(
            [
                [s / 2, 0.02 * s],
                [s / 2 + blade, 0.1 * s],
                [s / 2 + blade, guard_y],
                [s / 2 - blade, guard_y],
                [s / 2 - blade, 0.1 * s],
            ]
        ),
    )
    gw = s * rng.uniform(0.2, 0.35)
    gh = s * rng.uniform(0.04, 0.08)
    cv2.rectangle(
        c, (round(s / 2 - gw), round(guard_y - gh)), (round(s / 2 + gw), round(guard_y + gh)), 255, -1
    )
    hw = blade * rng.uniform(0.7, 1.2)
    cv2.rectangle(c, (round(s / 2 - hw), round(guard_y)), (round(s / 2 + hw), round(0.92 * s)), 255, -1)
    _disc(c, s / 2, 0.93 * s, hw * 1.4)
    if rng.random() < 0.4:  # crossed swords
        m = cv2.getRotationMatrix2D((s / 2, s / 2), float(rng.choice([-30.0, 30.0])), 1.0)
        c = np.maximum(c, cv2.warpAffine(c, m, (c.shape[1], c.shape[0])))
    return c


def draw_pagoda(rng: np.random.Generator, s: float) -> np.ndarray:
    c = np.zeros((int(s), int(s)), np.uint8)
    tiers = int(rng.integers(2, 5))
    top = 0.06 * s
    _poly(
        c,
        np.array(
            [[s / 2 - 0.03 * s, top + 0.12 * s], [s / 2, top - 0.04 * s], [s / 2 + 0.03 * s, top + 0.12 * s]]
        ),
    )
    height = (0.94 * s - top) / tiers
    for t in range(tiers):
        y0 = top + t * height
        w_top = s * (0.1 + 0.1 * t / tiers)
        w_roof = s * (0.25 + 0.2 * (t + 1) / tiers) * rng.uniform(0.9, 1.1)
        roof = y0 + height * 0.45
        _poly(
            c,
            np.array(
                [[s / 2 - w_top, y0], [s / 2 + w_top, y0], [s / 2 + w_roof, roof], [s / 2 - w_roof, roof]]
            ),
        )
        wall = w_top * rng.uniform(0.8, 1.1)
        cv2.rectangle(
            c, (round(s / 2 - wall), round(roof)), (round(s / 2 + wall), round(y0 + height)), 255, -1
        )
    return c


def draw_star(rng: np.random.Generator, s: float) -> np.ndarray:
    c = np.zeros((int(s), int(s)), np.uint8)
    n = int(rng.choice([5, 5, 5, 6, 8]))
    inner = rng.uniform(0.35, 0.55)
    a = np.arange(2 * n) * np.pi / n
    radius = np.where(np.arange(2 * n) % 2 == 0, 0.48 * s, 0.48 * s * inner)
    _poly(c, np.stack([s / 2 + radius * np.sin(a), s / 2 + 0.02 * s - radius * np.cos(a)], axis=1))
    return c


SUIT_DRAWERS: dict[str, Callable[[np.random.Generator, float], np.ndarray]] = {
    "hearts": draw_heart,
    "diamonds": draw_diamond,
    "clubs": draw_club,
    "spades": draw_spade,
    "jade": draw_jade,
    "sword": draw_sword,
    "pagoda": draw_pagoda,
    "star": draw_star,
}


def draw_other(rng: np.random.Generator, fonts: list[str]) -> np.ndarray:
    s = 64
    c = np.zeros((s, s), np.uint8)
    kind = rng.integers(0, 6)
    if kind == 0:
        cv2.ellipse(
            c,
            (32, 32),
            (int(rng.integers(5, 30)), int(rng.integers(5, 30))),
            float(rng.uniform(0, 180)),
            0,
            360,
            255,
            -1,
        )
    elif kind == 1:
        cv2.line(
            c,
            (int(rng.integers(0, 64)), int(rng.integers(0, 64))),
            (int(rng.integers(0, 64)), int(rng.integers(0, 64))),
            255,
            int(rng.integers(2, 10)),
        )
    elif kind == 2:
        pts = rng.uniform(4, 60, size=(int(rng.integers(3, 8)), 2))
        _poly(c, pts)
    elif kind == 3:
        cv2.rectangle(
            c,
            (int(rng.integers(2, 20)), int(rng.integers(2, 20))),
            (int(rng.integers(30, 62)), int(rng.integers(30, 62))),
            255,
            int(rng.choice([-1, 3, 6])),
        )
    else:
        char = OTHER_TEXT[int(rng.integers(0, len(OTHER_TEXT)))]
        mask = None
        if fonts and rng.random() < 0.6:
            mask = truetype_text(fonts[int(rng.integers(0, len(fonts)))], char)
        return mask if mask is not None else hershey_text(rng, char)
    return c


# --- the scanner's view of a glyph ------------------------------------------------------


def with_frame_scrap(rng: np.random.Generator, canvas: np.ndarray) -> np.ndarray:
    """``canvas`` (a white glyph on black) with a short straight bar touching the glyph's top
    or side, as a card's frame line leaves it when the line is too short (a tight corner, a
    fan's neighbour) to be erased as a straight run: the rank is still that rank."""
    ys, xs = np.nonzero(canvas > 60)
    if xs.size == 0:
        return canvas
    height = int(ys.max() - ys.min() + 1)
    width = int(xs.max() - xs.min() + 1)
    pad = height
    canvas = cv2.copyMakeBorder(canvas, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    x0, x1 = int(xs.min()) + pad, int(xs.max()) + pad
    y0, y1 = int(ys.min()) + pad, int(ys.max()) + pad
    thickness = int(rng.integers(2, max(3, height // 7) + 1))
    tilt = rng.uniform(-0.08, 0.08)
    if rng.random() < 0.65:  # along the top, overhanging to one side or both
        y = y0 + rng.uniform(-0.05, 0.12) * height
        a = x0 - rng.uniform(0.0, 0.8) * width
        b = x1 + rng.uniform(0.0, 0.8) * width
        start, end = (a, y), (b, y + tilt * (b - a))
    else:  # down one side
        x = (x0 if rng.random() < 0.5 else x1) + rng.uniform(-0.1, 0.1) * width
        a = y0 - rng.uniform(0.0, 0.5) * height
        b = y1 + rng.uniform(-0.3, 0.3) * height
        start, end = (x, a), (x + tilt * (b - a), b)
    cv2.line(
        canvas,
        (round(start[0] * 16), round(start[1] * 16)),
        (round(end[0] * 16), round(end[1] * 16)),
        255,
        thickness,
        cv2.LINE_AA,
        4,
    )
    return canvas


def with_occlusion(rng: np.random.Generator, canvas: np.ndarray) -> np.ndarray:
    """``canvas`` (a white glyph on black) with a strip of it (5 to 30% of its extent, from
    a side in any direction) hidden, as the next card's edge or rim hides a fanned card's
    index, or as the scanner cuts a glyph away from a rim it touches: still the same glyph.

    >>> bar = np.zeros((40, 20), np.uint8); bar[5:35, 5:15] = 255
    >>> hidden = with_occlusion(np.random.default_rng(0), bar)
    >>> bool(0.69 <= (hidden > 0).sum() / (bar > 0).sum() < 0.96)
    True
    """
    ys, xs = np.nonzero(canvas > 60)
    if xs.size == 0:
        return canvas
    angle = rng.uniform(0.0, 2.0 * math.pi)
    cx, cy = float(xs.mean()), float(ys.mean())
    along = (xs - cx) * math.cos(angle) + (ys - cy) * math.sin(angle)
    lo, hi = float(along.min()), float(along.max())
    limit = hi - rng.uniform(0.05, 0.3) * (hi - lo)
    yy, xx = np.mgrid[0 : canvas.shape[0], 0 : canvas.shape[1]]
    hidden = canvas.copy()
    hidden[(xx - cx) * math.cos(angle) + (yy - cy) * math.sin(angle) > limit] = 0
    return hidden


def scanner_view(
    rng: np.random.Generator, canvas: np.ndarray, two_parts: bool
) -> tuple[np.ndarray, float, float] | None:
    """Slant, stretch, shrink, blur and binarise like a photo, keep the main component(s)."""
    ys, xs = np.nonzero(canvas > 60)
    if xs.size == 0:
        return None
    canvas = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    canvas = cv2.copyMakeBorder(canvas, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=0)
    h, w = canvas.shape
    shear = rng.uniform(-0.15, 0.15)
    stretch = math.exp(rng.uniform(-0.25, 0.25))
    m = np.array([[stretch, shear, 0.0], [0.0, 1.0, 0.0]], np.float32)
    m[0, 2] = -m[0, 0] * w / 2 - m[0, 1] * h / 2 + w * max(stretch, 1.0) / 2 + 8
    out_w = int(w * max(stretch, 1.0) + 16)
    canvas = cv2.warpAffine(canvas, m, (out_w, h))
    target = float(np.exp(rng.uniform(np.log(6), np.log(46))))
    scale = target / max(1, canvas.shape[0] - 32)
    small = cv2.resize(canvas, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.0))
    small = small.astype(np.float32) + np.asarray(rng.normal(0, rng.uniform(0, 20), small.shape), np.float32)
    binary: np.ndarray = (small > rng.uniform(90, 170)).astype(np.uint8)
    if target > 20 and rng.random() < 0.3:
        op = cv2.MORPH_ERODE if rng.random() < 0.5 else cv2.MORPH_DILATE
        binary = cv2.morphologyEx(binary, op, np.ones((2, 2), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    if count < 2:
        return None
    order = np.argsort(-stats[1:, 4]) + 1
    keep = order[:2] if two_parts and count > 2 else order[:1]
    mask = np.isin(labels, keep).astype(np.uint8)
    # Darkness as the scanner measures it: ink coverage times twice the ink's contrast with
    # the paper, on the component and the ring of pixels around it.
    ring = cv2.dilate(mask, np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)) & (labels == 0)
    contrast = rng.uniform(0.35, 1.0)
    darkness = np.clip(small / 255.0 * 2.0 * contrast, 0.0, 1.0).astype(np.float32)
    weights = np.maximum(darkness * (mask | ring).astype(np.float32), mask * 0.5)
    angle = rng.normal(0, 0.12)
    down = (math.sin(angle), math.cos(angle))
    # The glyph model sees the glyph turned by the jittered "down".
    return upright_glyph(weights, (0.0, 0.0), down)


def sample(
    rng: np.random.Generator,
    label: str,
    fonts: list[str],
    suit_fonts: dict[str, list[str]],
    frame_scraps: float = 0.0,
    occlusions: float = 0.0,
    describe: Describe = glyph_features_batch,
) -> np.ndarray | None:
    """One drawn glyph of class ``label`` as the scanner sees it, described by ``describe``
    (None when the draw failed); a share ``frame_scraps`` of ranks gets a scrap of frame
    line (:func:`with_frame_scrap`), a share ``occlusions`` of ranks and suits a strip
    hidden (:func:`with_occlusion`)."""
    if label in RANK_CLASSES:
        text = label
        if fonts and rng.random() < 0.65:
            canvas = truetype_text(fonts[int(rng.integers(0, len(fonts)))], text)
        else:
            canvas = hershey_text(rng, text)
        if canvas is None:
            return None
        if frame_scraps > 0 and rng.random() < frame_scraps:
            canvas = with_frame_scrap(rng, canvas)
        if occlusions > 0 and rng.random() < occlusions:
            canvas = with_occlusion(rng, canvas)
        view = scanner_view(rng, canvas, two_parts=label == "10")
    elif label == "other":
        kind = rng.random()
        if kind < 0.35:
            # A rank on its side or upside down is no rank (wrong pairing).
            text = str(rng.choice([r for r in RANK_CLASSES if r not in ("1", "8")]))
            canvas = (
                hershey_text(rng, text)
                if not fonts or rng.random() < 0.4
                else truetype_text(fonts[int(rng.integers(0, len(fonts)))], text)
            )
            if canvas is None:
                return None
            turns = (1, 3) if text in ("6", "9") else (1, 2, 3)
            canvas = np.rot90(canvas, int(rng.choice(turns))).copy()
            view = scanner_view(rng, canvas, two_parts=text == "10")
        else:
            view = scanner_view(rng, draw_other(rng, fonts), two_parts=False)
    else:
        candidates = suit_fonts.get(label, [])
        canvas = None
        if candidates and rng.random() < 0.3:
            path = candidates[int(rng.integers(0, len(candidates)))]
            chars = UNICODE_SUITS[label]
            canvas = truetype_text(path, chars[int(rng.integers(0, len(chars)))])
        if canvas is None:
            canvas = SUIT_DRAWERS[label](rng, 96.0)
        if occlusions > 0 and rng.random() < occlusions:
            canvas = with_occlusion(rng, canvas)
        view = scanner_view(rng, canvas, two_parts=False)
    if view is None:
        return None
    square, height, width = view
    row: np.ndarray = describe(square[None], np.array([height], np.float32), np.array([width], np.float32))[0]
    return row


def synth_dataset(
    rng: np.random.Generator, cards: int, describe: Describe = glyph_features_batch
) -> tuple[np.ndarray, np.ndarray]:
    """Index glyphs cut by the scanner's own steps out of card faces drawn by vision.synth in
    the deck families used for development (never the held-out ones), turned, blurred and
    shrunk like photos."""
    from companion.cards import standard_deck, tichu_deck
    from vision.detect import ink_components, paper_regions
    from vision.read import glyph_squares
    from vision.synth.card import render_card_face
    from vision.synth.style import families, random_style

    decks = {
        "tichu": [c for c in tichu_deck() if c.rank is not None],
        "standard": list(standard_deck(jokers=False)),
    }
    styles = {
        game: [random_style(rng, game, families(game, held_out=False)) for _ in range(60)] for game in decks
    }
    features: list[np.ndarray] = []
    labels: list[int] = []
    for _ in range(cards):
        game = "tichu" if rng.random() < 0.5 else "standard"
        style = styles[game][int(rng.integers(len(styles[game])))]
        card = decks[game][int(rng.integers(len(decks[game])))]
        face = render_card_face(style, card, int(rng.integers(90, 260)))
        h, w = face.image.shape[:2]
        pad = 20
        size = (w + 2 * pad, h + 2 * pad)
        angle = float(rng.uniform(0, 360))
        scale = float(np.exp(rng.uniform(np.log(0.45), 0.0)))
        matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
        big = max(size)
        matrix[:, 2] += np.array([big / 2, big / 2]) - np.array([w / 2, h / 2])
        table = np.full((big, big, 3), rng.integers(20, 90, 3), np.uint8)
        image = cv2.warpAffine(face.image, matrix, (big, big))
        alpha = cv2.warpAffine(face.mask, matrix, (big, big))[:, :, None] / 255.0
        scene = (table * (1 - alpha) + image * alpha).astype(np.float32)
        if rng.random() < 0.5:
            scene = cv2.GaussianBlur(scene, (0, 0), float(rng.uniform(0.3, 1.0)))
        scene += rng.normal(0, rng.uniform(0, 8), scene.shape).astype(np.float32)
        scene = np.clip(scene, 0, 255).astype(np.uint8)
        regions = paper_regions(scene)
        ink = ink_components(scene, regions)
        polygon = face.index_polygons[0] @ matrix[:, :2].T + matrix[:, 2]
        down = matrix[:, :2] @ np.array([0.0, 1.0])
        down /= np.linalg.norm(down)
        inside = [
            k
            for k, c in enumerate(ink.centers)
            if ink.root(k) == k  # whole components only (see scene_glyphs)
            and cv2.pointPolygonTest(
                polygon.astype(np.float32).reshape(-1, 1, 2), (float(c[0]), float(c[1])), False
            )
            >= 0
        ]
        expected = 3 if card.rank == 10 else 2
        if len(inside) != expected:
            continue
        along = ink.centers[inside] @ down
        order = [inside[i] for i in np.argsort(along)]
        rank_parts = tuple(sorted(order[: expected - 1]))
        suit = order[-1]
        rank_center = ink.centers[list(rank_parts)].mean(axis=0)
        pair_down = ink.centers[suit] - rank_center
        pair_down /= max(float(np.linalg.norm(pair_down)), 1e-6)
        if float(pair_down @ down) < 0.7:
            continue
        d = (float(pair_down[0]), float(pair_down[1]))
        vectors = describe(*glyph_squares(ink, [(rank_parts, d), ((suit,), d)]))
        assert card.rank is not None and card.suit is not None
        features.extend(vectors)
        labels.append(CLASS_INDEX[RANK_CLASSES[card.rank - 1]])
        labels.append(CLASS_INDEX[card.suit.name.lower()])
    return np.stack(features), np.asarray(labels, np.int64)


def training_scene(seed: int) -> tuple[np.random.Generator, str, Ink, list[CardLabel], float]:
    """One synthetic table scene of the development families (Tichu or standard, any layout,
    a JPEG round trip) as the scanner sees it: the seed's generator (drawn on for more), the
    game, the ink of the working image, the labels and the working scale."""
    from vision.detect import ink_components, paper_regions, working_image
    from vision.synth import SceneSpec, render_scene
    from vision.synth.style import families

    rng = np.random.default_rng([seed, 77])
    game = "tichu" if rng.random() < 0.5 else "standard"
    width, height = ((1280, 720), (1600, 900), (1440, 1080), (720, 1280), (1920, 1080))[int(rng.integers(5))]
    spec = SceneSpec(
        width=width,
        height=height,
        game=game,
        families=families(game, held_out=False),
        layout=str(rng.choice(["apart", "fan", "fan", "pile", "mixed"])),
        max_cards=16,
        decks=2 if game == "standard" and rng.random() < 0.25 else 1,
        distractors=0.6,
        effects=float(rng.uniform(0.3, 1.0)),
    )
    image, labels = render_scene(rng, spec)
    quality = int(rng.integers(60, 92))
    encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    image = image if decoded is None else decoded
    small, scale = working_image(image)
    ink = ink_components(small, paper_regions(small))
    return rng, game, ink, labels, scale


def scene_glyphs(
    seed: int, negatives: bool = False, context: bool = False, describe: Describe = glyph_features_batch
) -> tuple[list[np.ndarray], list[int]]:
    """Index glyphs of one whole synthetic table scene (development families only), cut by
    the scanner's own steps at its working size: fans with neighbours' edges, perspective,
    shadows, blur and JPEG, as the reader meets them.  A proposed pair counts when all its
    components lie in one labelled index corner and it points down that card.

    With ``context``, the features are the context model's (:func:`vision.read.context_vectors`):
    every proposed pair counts (fused parts and ranks joined to a line too, as the context
    model reads them all), scene ink that is surely no index is "other" (``negatives``), and
    each glyph is seen a second time with its "down" turned by up to 8 degrees."""
    from companion.cards import Card, Deck
    from vision.detect import index_pairs
    from vision.read import context_vectors, glyph_squares, glyph_vectors, turned

    negatives = negatives or context
    rng, game, ink, labels, scale = training_scene(seed)
    # For the glyph model, whole components only: the parts of fused indices
    # (vision.detect.fused_parts) are read by the same model, but training on them measured
    # no better on the development sets, and this keeps the shipped model the one this
    # script makes.  The context model learns from every pair it will read.
    pairs = index_pairs(ink) if context else [p for p in index_pairs(ink) if ink.is_whole(p)]
    classes: list[int] = []
    glyphs: list[tuple[tuple[int, ...], tuple[float, float]]] = []
    for label in labels:
        card = Card.parse(label.card, Deck.TICHU if game == "tichu" else Deck.STANDARD)
        if card.rank is None or card.suit is None:
            continue
        corners = np.asarray(label.corners, np.float32) / scale
        card_down = corners[3] - corners[0]
        card_down /= max(float(np.linalg.norm(card_down)), 1e-6)
        for polygon in label.index_corners:
            outline = (np.asarray(polygon, np.float32) / scale).reshape(-1, 1, 2)
            centre = outline.reshape(-1, 2).mean(axis=0)
            # Indices near the card's top corners stand upright; near the bottom, turned round.
            top = min(float(np.linalg.norm(centre - corners[i])) for i in (0, 1))
            bottom = min(float(np.linalg.norm(centre - corners[i])) for i in (2, 3))
            down = card_down if top < bottom else -card_down
            height_px = float(np.linalg.norm(outline[3, 0] - outline[0, 0]))
            inside = {
                k
                for k, c in enumerate(ink.centers)
                if cv2.pointPolygonTest(outline, (float(c[0]), float(c[1])), False) >= 0
            }
            for pair in pairs:
                members = {*pair.rank, pair.suit}
                if not members <= inside or float(np.dot(pair.down, down)) < 0.8:
                    continue
                if (card.rank == 10) != (len(pair.rank) == 2):
                    continue
                # A rank fused with a long line is no picture of the rank (for the glyph model).
                if not context and float(ink.sizes[list(pair.rank)].max()) > 0.75 * height_px:
                    continue
                glyphs.append((pair.rank, pair.down))
                classes.append(CLASS_INDEX[RANK_CLASSES[card.rank - 1]])
                glyphs.append(((pair.suit,), pair.down))
                classes.append(CLASS_INDEX[card.suit.name.lower()])
    # With ``negatives``, ink paired like an index that is surely none is "other", up to about
    # one glyph per index pair.
    scraps = scrap_components(ink, labels, scale) if negatives else set()
    wanted = len(glyphs) // 2 + 4
    for pair in pairs:
        if wanted <= 0:
            break
        for components in (pair.rank, (pair.suit,)):
            if all(k in scraps for k in components):
                glyphs.append((components, pair.down))
                classes.append(CLASS_INDEX["other"])
                wanted -= 1
    if not glyphs:
        return [], []
    if not context:
        return list(describe(*glyph_squares(ink, glyphs))), classes
    # Each glyph once as proposed, once turned and its window zoomed a little.
    seen = [
        (components, turned(down, angle))
        for components, down in glyphs
        for angle in (0.0, float(rng.uniform(-8, 8)))
    ]
    zooms = np.ones(len(seen), np.float32)
    zooms[1::2] = rng.uniform(0.8, 1.25, len(glyphs))
    features = context_vectors(ink, seen, glyph_vectors(ink, seen), zooms)
    return list(features), [k for k in classes for _ in range(2)]


#: Card-relative share of the width (across) and height (down) next to a card's edges where
#: only its indices, frame lines and borders lie: the pictures and pips are further in.
BORDER_BAND = (0.16, 0.1)
#: A card's index corners lie within this share of its width and height from a corner.
CORNER_ZONE = (0.24, 0.32)


def scrap_components(ink: Ink, labels: Sequence[CardLabel], scale: float) -> set[int]:
    """Whole components of a synthetic scene that are surely no index glyph, for the reader
    to learn as "other" the way the scanner meets them (frame-line scraps beside an index,
    card edges, the table, objects): outside every card, or in the border band of every card
    they lie on, away from its index corners unless that corner's index is labelled (fully
    shown, so what lies beside it is not part of it) and they lie outside it.  Pips and
    pictures (further in) and half-hidden indices are left out: they are not "other"."""
    centres = ink.centers
    outside_index = np.ones(len(centres), bool)
    inside_any = np.zeros(len(centres), bool)
    in_border = np.ones(len(centres), bool)
    for label in labels:
        corners = np.asarray(label.corners, np.float32) / scale
        polygons = [(np.asarray(p, np.float32) / scale).reshape(-1, 1, 2) for p in label.index_corners]
        for polygon in polygons:
            outside_index &= np.array(
                [cv2.pointPolygonTest(polygon, (float(x), float(y)), False) < 0 for x, y in centres], bool
            )
        # Card coordinates (u across from the top-left corner, v down), by the affine map of
        # three corners: close enough for telling the border from the middle.
        origin, across, down = corners[0], corners[1] - corners[0], corners[3] - corners[0]
        axes = np.stack([across, down], axis=1).astype(np.float64)
        if abs(float(np.linalg.det(axes))) < 1.0:
            continue  # a card seen edge-on has no middle to tell apart
        basis = np.linalg.inv(axes)
        uv = (centres - origin) @ basis.T
        u, v = uv[:, 0], uv[:, 1]
        on_card = (u >= 0) & (u <= 1) & (v >= 0) & (v <= 1)
        inside_any |= on_card
        near_u = np.minimum(u, 1 - u)
        near_v = np.minimum(v, 1 - v)
        border = (near_u < BORDER_BAND[0]) | (near_v < BORDER_BAND[1])
        corner = (near_u < CORNER_ZONE[0]) & (near_v < CORNER_ZONE[1])
        shown = np.zeros(len(centres), bool)
        for polygon in polygons:
            cu, cv = (polygon.reshape(-1, 2).mean(axis=0) - origin) @ basis.T
            shown |= (np.sign(u - 0.5) == np.sign(cu - 0.5)) & (np.sign(v - 0.5) == np.sign(cv - 0.5))
        in_border &= ~on_card | (border & (~corner | shown))
    whole = np.array([ink.root(k) == k for k in range(len(centres))], bool)
    return set(np.flatnonzero(whole & outside_index & (in_border | ~inside_any)).tolist())


def scene_dataset(
    scenes: int,
    seed: int,
    workers: int,
    negatives: bool = False,
    context: bool = False,
    describe: Describe = glyph_features_batch,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`scene_glyphs` of ``scenes`` scenes, drawn in parallel (each from its own seed)."""
    from concurrent.futures import ProcessPoolExecutor

    features: list[np.ndarray] = []
    labels: list[int] = []
    seeds = [seed * 100_000 + i for i in range(scenes)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part_features, part_labels in pool.map(
            functools.partial(scene_glyphs, negatives=negatives, context=context, describe=describe),
            seeds,
            chunksize=8,
        ):
            features.extend(part_features)
            labels.extend(part_labels)
    if not features:
        length = CONTEXT_LENGTH if context else row_length(describe)
        return np.zeros((0, length), np.float32), np.zeros(0, np.int64)
    return np.stack(features), np.asarray(labels, np.int64)


def build_dataset(
    rng: np.random.Generator,
    per_class: int,
    fonts: list[str],
    frame_scraps: float = 0.0,
    occlusions: float = 0.0,
    describe: Describe = glyph_features_batch,
) -> tuple[np.ndarray, np.ndarray]:
    suit_fonts = fonts_with_suits(fonts)
    features: list[np.ndarray] = []
    labels: list[int] = []
    for label in CLASSES:
        wanted = per_class * (3 if label == "other" else 1)
        made = 0
        while made < wanted:
            vector = sample(rng, label, fonts, suit_fonts, frame_scraps, occlusions, describe)
            if vector is None:
                continue
            features.append(vector)
            labels.append(CLASS_INDEX[label])
            made += 1
    return np.stack(features), np.asarray(labels, np.int64)


def train(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, hidden: int, epochs: int) -> GlyphModel:
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    xs = ((x - mean) / scale).astype(np.float32)
    n, f = xs.shape
    c = len(CLASSES)
    w1 = (rng.normal(0, math.sqrt(2 / f), (f, hidden))).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.normal(0, math.sqrt(1 / hidden), (hidden, c))).astype(np.float32)
    b2 = np.zeros(c, np.float32)
    params = [w1, b1, w2, b2]
    moments = [np.zeros_like(p) for p in params]
    velocities = [np.zeros_like(p) for p in params]
    step = 0
    batch = 128
    decay = 1e-4
    for epoch in range(epochs):
        lr = 2e-3 * (0.5 ** (epoch / max(1, epochs // 3)))
        order = rng.permutation(n)
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            xb = xs[idx] + rng.normal(0, 0.05, (len(idx), f)).astype(np.float32)
            yb = y[idx]
            h_pre = xb @ w1 + b1
            h = np.maximum(h_pre, 0)
            logits = h @ w2 + b2
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            g = p
            g[np.arange(len(idx)), yb] -= 1
            g /= len(idx)
            gw2 = h.T @ g + decay * w2
            gb2 = g.sum(axis=0)
            gh = (g @ w2.T) * (h_pre > 0)
            gw1 = xb.T @ gh + decay * w1
            gb1 = gh.sum(axis=0)
            step += 1
            for param, grad, m, v in zip(params, [gw1, gb1, gw2, gb2], moments, velocities, strict=True):
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                m_hat = m / (1 - 0.9**step)
                v_hat = v / (1 - 0.999**step)
                param -= lr * m_hat / (np.sqrt(v_hat) + 1e-8)
        print(f"epoch {epoch + 1}/{epochs} lr {lr:.5f}", file=sys.stderr)
    return GlyphModel(
        mean=mean.astype(np.float32), scale=scale.astype(np.float32), w1=w1, b1=b1, w2=w2, b2=b2
    )


#: The glyph network's training: passes, examples a step, and the Adam step size (halved
#: every third of the passes) and weight decay.
NET_EPOCHS = 12
NET_BATCH = 128
NET_RATE = 2e-3
NET_DECAY = 1e-4
#: Passes over the joker word patches (a few minutes: the patches are small and few).
JOKER_EPOCHS = 15


def held_back(rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
    """A random twentieth of ``count`` examples held back to measure a network, and the rest."""
    order = rng.permutation(count)
    return order[: count // 20], order[count // 20 :]


def passes(
    rng: np.random.Generator, kept: np.ndarray, epochs: int
) -> Iterator[tuple[int, float, Iterator[np.ndarray]]]:
    """Each training pass: its number, its Adam step size (halved every third of the passes)
    and its batches of ``kept`` example rows in a fresh random order."""

    def batches(shuffled: np.ndarray) -> Iterator[np.ndarray]:
        for start in range(0, len(shuffled), NET_BATCH):
            yield shuffled[start : start + NET_BATCH]

    for epoch in range(epochs):
        rate = NET_RATE * 0.5 ** (epoch / max(1, epochs // 3))
        yield epoch, rate, batches(rng.permutation(kept))


class Adam:
    """Adam steps on a network's ``params`` (in place), with weight decay on the weights."""

    def __init__(self, params: dict[str, np.ndarray]) -> None:
        self.params = params
        self.moments = {name: np.zeros_like(value) for name, value in params.items()}
        self.velocities = {name: np.zeros_like(value) for name, value in params.items()}
        self.steps = 0

    def step(self, grads: dict[str, np.ndarray], rate: float) -> None:
        self.steps += 1
        for name, value in self.params.items():
            grad = grads[name] + NET_DECAY * value if name[0] in "wf" else grads[name]
            self.moments[name] = 0.9 * self.moments[name] + 0.1 * grad
            self.velocities[name] = 0.999 * self.velocities[name] + 0.001 * grad * grad
            m_hat = self.moments[name] / (1 - 0.9**self.steps)
            v_hat = self.velocities[name] / (1 - 0.999**self.steps)
            value -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


def train_glyphnet(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, epochs: int) -> GlyphNet:
    """Train :mod:`vision.glyphnet` on :func:`pixels_of` rows ``x`` with labels ``y``; a
    twentieth of them, held back, is measured after each pass.  Each step sees its squares
    shifted by a pixel half the time and a little noise on every pixel."""
    # Squares are kept as bytes (a quarter of the memory; the network never sees the difference).
    pixels = np.round(np.clip(x[:, :-1], 0.0, 1.0) * 255).astype(np.uint8).reshape(-1, GLYPH_SIZE, GLYPH_SIZE)
    aspects = x[:, -1].astype(np.float32)
    held, kept = held_back(rng, len(y))
    params = initial_params(rng, len(CLASSES))
    adam = Adam(params)
    for epoch, rate, batches in passes(rng, kept, epochs):
        for rows in batches:
            squares = pixels[rows].astype(np.float32) / 255.0
            if rng.random() < 0.5:
                dy, dx = (int(v) for v in rng.integers(-1, 2, 2))
                squares = np.roll(squares, (dy, dx), axis=(1, 2))
                squares[:, 0 if dy > 0 else GLYPH_SIZE - 1, :] *= dy == 0
                squares[:, :, 0 if dx > 0 else GLYPH_SIZE - 1] *= dx == 0
            squares += rng.normal(0, 0.03, squares.shape).astype(np.float32)
            logits, cache = forward(params, squares, aspects[rows])
            d_logits = softmax(logits)
            d_logits[np.arange(len(rows)), y[rows]] -= 1
            grads = backward(params, cache, d_logits / len(rows))
            adam.step(grads, rate)
        read = GlyphNet(params, CLASSES).probabilities(pixels[held].astype(np.float32) / 255.0, aspects[held])
        right = read.argmax(axis=1) == y[held]
        print(f"epoch {epoch + 1}/{epochs} rate {rate:.5f} held back {right.mean():.4f}", file=sys.stderr)
    return GlyphNet(params, CLASSES)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, help="samples per class (default 1500; 2500 with --glyphnet)")
    parser.add_argument("--epochs", type=int, help=f"default 25 ({NET_EPOCHS} with --glyphnet)")
    parser.add_argument(
        "--synth-cards", type=int, help="card faces drawn by vision.synth (default 3000; 6000 --glyphnet)"
    )
    parser.add_argument(
        "--scenes", type=int, help="table scenes drawn by vision.synth (default 1500; 2000 with --glyphnet)"
    )
    parser.add_argument(
        "--scene-negatives", action="store_true", help='learn scene ink that is surely no index as "other"'
    )
    parser.add_argument(
        "--frame-scraps", type=float, default=0.0, help="share of ranks drawn with a scrap of frame line"
    )
    parser.add_argument(
        "--occlusions", type=float, default=0.0, help="share of ranks and suits drawn with a strip hidden"
    )
    parser.add_argument(
        "--context",
        action="store_true",
        help="train the context model (vision/models/context.npz) on --scenes scenes instead",
    )
    parser.add_argument(
        "--glyphnet",
        action="store_true",
        help="train the glyph network (vision/models/glyphnet.npz) on the same kinds of glyphs instead",
    )
    parser.add_argument(
        "--indexnet",
        action="store_true",
        help="train the index patch network (vision/models/indexnet.npz) on --scenes scenes instead",
    )
    parser.add_argument(
        "--jokernet",
        action="store_true",
        help="train the joker word network (vision/models/jokernet.npz) on --scenes joker scenes instead",
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--hidden", type=int, default=160)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--net-seed",
        type=int,
        help="with --indexnet: seed of the drawn indices, the initial weights and the batches"
        " (default --seed; another makes another member for the ensemble from the same scenes)",
    )
    parser.add_argument(
        "--extra-scenes",
        action="append",
        default=[],
        metavar="SEED:COUNT",
        help="with --indexnet: also the patches of COUNT scenes of SEED (repeatable)",
    )
    parser.add_argument(
        "-o",
        "--output",
        help="default: vision/models/glyphs.npz (context.npz with --context, glyphnet.npz with --glyphnet)",
    )
    args = parser.parse_args()
    net = args.glyphnet
    samples = args.samples or (2500 if net else 1500)
    epochs = args.epochs or (NET_EPOCHS if net else 25)
    synth_cards = args.synth_cards if args.synth_cards is not None else (6000 if net else 3000)
    scenes = args.scenes if args.scenes is not None else (2000 if net else 1500)
    describe = pixels_of if net else glyph_features_batch
    models = Path(__file__).resolve().parents[1] / "vision/models"
    name = (
        "jokernet.npz"
        if args.jokernet
        else "indexnet.npz"
        if args.indexnet
        else "context.npz"
        if args.context
        else "glyphnet.npz"
        if net
        else "glyphs.npz"
    )
    output = args.output or str(models / name)
    rng = np.random.default_rng(args.seed)
    if args.indexnet:
        extra = [(int(s), int(n)) for s, n in (item.split(":") for item in args.extra_scenes)]
        return indexnet_main(
            args.scenes or 3000,
            args.seed,
            args.workers,
            args.epochs or NET_EPOCHS,
            output,
            net_seed=args.net_seed,
            extra=extra,
        )
    if args.jokernet:
        return jokernet_main(
            args.scenes or 1200, args.seed, args.workers, args.epochs or JOKER_EPOCHS, output
        )
    if args.context:
        return train_context(rng, scenes, args.seed, args.workers, args.hidden, epochs, output)
    fonts = truetype_fonts()
    # Hold out one font family to report accuracy on lettering the model never saw.
    held_out = [f for f in fonts if "LiberationSerif" in f]
    training_fonts = [f for f in fonts if f not in held_out]
    started = time.time()
    x, y = build_dataset(rng, samples, training_fonts, args.frame_scraps, args.occlusions, describe)
    if synth_cards:
        xs, ys = synth_dataset(rng, synth_cards, describe)
        print(f"{len(xs)} glyphs from {synth_cards} synthetic cards", file=sys.stderr)
        x, y = np.concatenate([x, xs]), np.concatenate([y, ys])
    if scenes:
        xs, ys = scene_dataset(scenes, args.seed, args.workers, args.scene_negatives, describe=describe)
        print(f"{len(xs)} glyphs from {scenes} synthetic table scenes", file=sys.stderr)
        x, y = np.concatenate([x, xs]), np.concatenate([y, ys])
    print(
        f"{len(x)} training glyphs from {len(training_fonts)} fonts + Hershey"
        f" in {time.time() - started:.0f}s",
        file=sys.stderr,
    )
    if net:
        network = train_glyphnet(x, y, rng, epochs)
        if held_out:
            xv, yv = build_dataset(np.random.default_rng(args.seed + 1), 150, held_out, describe=describe)
            read = network.probabilities(xv[:, :-1].reshape(-1, GLYPH_SIZE, GLYPH_SIZE), xv[:, -1])
            print(f"accuracy: held-out font {float((read.argmax(axis=1) == yv).mean()):.3f}", file=sys.stderr)
        return saved(network, output, started)
    model = train(x, y, rng, args.hidden, epochs)
    train_accuracy = float((model.probabilities(x).argmax(axis=1) == y).mean())
    if held_out:
        xv, yv = build_dataset(np.random.default_rng(args.seed + 1), 150, held_out)
        valid = float((model.probabilities(xv).argmax(axis=1) == yv).mean())
        print(f"accuracy: training {train_accuracy:.3f}, held-out font {valid:.3f}", file=sys.stderr)
    return saved(model, output, started)


def saved(model: GlyphModel | GlyphNet | IndexNet | JokerNet, output: str, started: float) -> int:
    """Save ``model`` to ``output`` and say so (size, time since ``started``); exit status 0."""
    model.save(output)
    size = os.path.getsize(output) // 1024
    print(f"saved {output} ({size} KB) in {time.time() - started:.0f}s", file=sys.stderr)
    return 0


def train_context(
    rng: np.random.Generator, scenes: int, seed: int, workers: int, hidden: int, epochs: int, output: str
) -> int:
    """Train and save the context model on the glyphs of ``scenes`` table scenes
    (:func:`scene_glyphs` with ``context``); a tenth of them, drawn from other seeds, measures it."""
    started = time.time()
    x, y = scene_dataset(scenes, seed, workers, context=True)
    print(f"{len(x)} glyphs in context from {scenes} scenes in {time.time() - started:.0f}s", file=sys.stderr)
    model = train(x, y, rng, hidden, epochs)
    xv, yv = scene_dataset(max(1, scenes // 10), seed + 1, workers, context=True)
    valid = float((model.probabilities(xv).argmax(axis=1) == yv).mean()) if len(yv) else float("nan")
    train_accuracy = float((model.probabilities(x).argmax(axis=1) == y).mean())
    print(f"accuracy: training {train_accuracy:.3f}, other scenes {valid:.3f}", file=sys.stderr)
    return saved(model, output, started)


# --- the index patch network (vision/indexnet.py) ------------------------------------------

#: A proposed pair reads as its card's index when its rank and suit centres lie in a
#: labelled index corner grown this much about its centre, and it points down that card.
INDEX_GROWTH = 1.3
#: Negatives kept a scene: at most this many times its positives, and this many more.
INDEX_NEGATIVES = (2, 8)
PATCH_SHAPE = (PATCH_HEIGHT, PATCH_WIDTH)
RANK_OUT: tuple[str, ...] = (*RANK_CLASSES, "other")
SUIT_OUT: tuple[str, ...] = (*SUIT_CLASSES, "other")
RANK_OTHER = len(RANK_OUT) - 1
#: The index patch network's channels out of each convolution and its hidden units: twice
#: the glyph network's (held-back indices read right, rank and suit: 74% at its widths, 82%
#: at these; profiled, 2.5 to 2.7 ms a 1920x1080 photo of about 50 patches).
INDEX_CHANNELS: tuple[int, ...] = (16, 32, 64)
INDEX_HIDDEN = 128
SUIT_OTHER = len(SUIT_OUT) - 1


def scene_patches(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Index patches (:func:`vision.indexnet.index_patches`, as uint8) of the pairs the
    scanner proposes in one development-family table scene (:func:`training_scene`), their
    log unit-to-size ratios, and their rank and suit labels (indices into ``RANK_OUT`` and
    ``SUIT_OUT``):

    - a pair whose rank and suit lie in a labelled (fully shown) index corner, pointing down
      that card, is that card's index; it is also seen once more turned, zoomed and shifted
      a little, as a neighbour's scrap of ink moves a proposal;
    - a pair off every card, in the middle of the card on top there (pips, pictures), or
      turned across a shown index (a rank paired with its neighbour), is "other" for both;
    - the rest (half-hidden indices, jokers' and specials' corners) is left out."""
    from companion.cards import Card, Deck
    from vision.detect import index_pairs
    from vision.indexnet import index_patches, pair_frames
    from vision.read import turned

    rng, game, ink, labels, scale = training_scene(seed)
    pairs = index_pairs(ink)
    empty = (np.zeros((0, PATCH_SHAPE[0], PATCH_SHAPE[1]), np.uint8), np.zeros(0, np.float32))
    if not pairs or ink.darkness is None:
        return (*empty, np.zeros(0, np.int64), np.zeros(0, np.int64))
    origins, downs, units, ratios = pair_frames(ink, pairs)
    suits_at = ink.centers[[p.suit for p in pairs]]
    rank_of = np.full(len(pairs), -1, np.int64)  # -1: left out; RANK_OTHER with SUIT_OTHER: other
    suit_of = np.full(len(pairs), -1, np.int64)
    settled = np.zeros(len(pairs), bool)
    deck = Deck.TICHU if game == "tichu" else Deck.STANDARD
    for label in reversed(labels):  # the card on top first
        corners = np.asarray(label.corners, np.float32) / scale
        outline = corners.reshape(-1, 1, 2)
        on_card = np.array(
            [
                not settled[i] and cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0
                for i, (x, y) in enumerate(origins)
            ],
            bool,
        )
        if not on_card.any():
            continue
        card = Card.parse(label.card, deck)
        card_down = corners[3] - corners[0]
        card_down /= max(float(np.linalg.norm(card_down)), 1e-6)
        for polygon in label.index_corners:
            box = np.asarray(polygon, np.float32) / scale
            centre = box.mean(axis=0)
            grown = (centre + INDEX_GROWTH * (box - centre)).reshape(-1, 1, 2)
            top = min(float(np.linalg.norm(centre - corners[i])) for i in (0, 1))
            bottom = min(float(np.linalg.norm(centre - corners[i])) for i in (2, 3))
            index_down = card_down if top < bottom else -card_down
            for i in np.flatnonzero(on_card & ~settled):
                if cv2.pointPolygonTest(grown, (float(origins[i, 0]), float(origins[i, 1])), False) < 0:
                    continue
                facing = float(np.dot(downs[i], index_down))
                suit_in = (
                    cv2.pointPolygonTest(grown, (float(suits_at[i, 0]), float(suits_at[i, 1])), False) >= 0
                )
                if facing >= 0.8 and suit_in and card.rank is not None and card.suit is not None:
                    rank_of[i] = RANK_CLASSES.index(RANK_CLASSES[card.rank - 1])
                    suit_of[i] = SUIT_OUT.index(card.suit.name.lower())
                elif facing < 0.5 and card.rank is not None:
                    rank_of[i], suit_of[i] = RANK_OTHER, SUIT_OTHER
                settled[i] = True
        # Card coordinates by the affine map of three corners (as scrap_components).
        origin, across, down = corners[0], corners[1] - corners[0], corners[3] - corners[0]
        axes = np.stack([across, down], axis=1).astype(np.float64)
        if abs(float(np.linalg.det(axes))) < 1.0:
            settled |= on_card
            continue
        uv = (origins - origin) @ np.linalg.inv(axes).T
        near_u = np.minimum(uv[:, 0], 1 - uv[:, 0])
        near_v = np.minimum(uv[:, 1], 1 - uv[:, 1])
        middle = (near_u >= CORNER_ZONE[0]) | (near_v >= CORNER_ZONE[1])
        fresh = on_card & ~settled
        rank_of[fresh & middle], suit_of[fresh & middle] = RANK_OTHER, SUIT_OTHER
        settled |= on_card
    rank_of[~settled], suit_of[~settled] = RANK_OTHER, SUIT_OTHER  # off every card
    positive = np.flatnonzero((suit_of >= 0) & (suit_of != SUIT_OTHER))
    negative = np.flatnonzero(suit_of == SUIT_OTHER)
    keep = INDEX_NEGATIVES[0] * len(positive) + INDEX_NEGATIVES[1]
    negative = rng.permutation(negative)[:keep]
    # Positives once more, turned up to 8 degrees, zoomed 0.85-1.2 and shifted a little.
    jitter_downs = np.array(
        [turned((float(d[0]), float(d[1])), float(rng.uniform(-8, 8))) for d in downs[positive]], np.float32
    ).reshape(-1, 2)
    zoom = rng.uniform(0.85, 1.2, len(positive)).astype(np.float32)
    shift = (rng.normal(0, 0.1, (len(positive), 2)) * units[positive, None]).astype(np.float32)
    rows = np.concatenate([positive, negative])
    all_origins = np.concatenate([origins[rows], origins[positive] + shift])
    all_downs = np.concatenate([downs[rows], jitter_downs])
    all_units = np.concatenate([units[rows], units[positive] * zoom])
    all_ratios = np.concatenate([ratios[rows], ratios[positive] + np.log(zoom)])
    patches = index_patches(ink.darkness, all_origins, all_downs, all_units)
    ranks = np.concatenate([rank_of[rows], rank_of[positive]])
    suits = np.concatenate([suit_of[rows], suit_of[positive]])
    return (
        np.round(np.clip(patches, 0, 1) * 255).astype(np.uint8),
        all_ratios.astype(np.float32),
        ranks,
        suits,
    )


#: Drawn indices (:func:`drawn_index`) are this share "other": a rank on its side above a
#: suit, or a pip above a pip.
DRAWN_OTHER = 0.25
#: Drawn indices added to the scenes' patches.
DRAWN_INDICES = 60_000


def _inked(canvas: np.ndarray) -> np.ndarray:
    """``canvas`` (uint8, ink bright) cut to its ink."""
    ys, xs = np.nonzero(canvas > 60)
    return canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] if xs.size else canvas


def _placed(board: np.ndarray, glyph: np.ndarray, height: float, centre: tuple[float, float]) -> None:
    """Draw ``glyph`` (uint8, ink bright) ``height`` pixels high centred at ``centre`` on
    ``board`` (float32, in place, ink kept where brightest)."""
    scale = height / max(1, glyph.shape[0])
    width = max(1, round(glyph.shape[1] * scale * math.exp(0.0)))
    small = cv2.resize(glyph, (width, max(1, round(height))), interpolation=cv2.INTER_AREA).astype(np.float32)
    x0, y0 = round(centre[0] - small.shape[1] / 2), round(centre[1] - small.shape[0] / 2)
    x1, y1 = x0 + small.shape[1], y0 + small.shape[0]
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(board.shape[1], x1), min(board.shape[0], y1)
    if cx1 > cx0 and cy1 > cy0:
        part = small[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] / 255.0
        board[cy0:cy1, cx0:cx1] = np.maximum(board[cy0:cy1, cx0:cx1], part)


def drawn_index(
    rng: np.random.Generator, fonts: list[str], suit_fonts: dict[str, list[str]]
) -> tuple[np.ndarray, float, int, int] | None:
    """One index corner drawn from fonts and suit drawings rather than from a deck family
    (lettering and symbols of every kind, 8 to 40 pixels, spaced and aligned differently,
    sometimes beside a neighbour's dark rim or crossed by a frame line, blurred and noisy),
    cut as :func:`vision.indexnet.index_patches` cuts the scanner's proposals: its patch, log
    unit-to-size ratio, rank and suit labels (into ``RANK_OUT``, ``SUIT_OUT``); None when a
    draw failed."""
    from vision.indexnet import index_patches
    from vision.read import turned

    other = rng.random() < DRAWN_OTHER
    rank = str(rng.choice(RANK_CLASSES[1:]))
    suit = str(rng.choice(SUIT_CLASSES))
    if fonts and rng.random() < 0.65:
        text = truetype_text(fonts[int(rng.integers(0, len(fonts)))], rank)
    else:
        text = hershey_text(rng, rank)
    symbol: np.ndarray | None = None
    candidates = suit_fonts.get(suit, [])
    if candidates and rng.random() < 0.3:
        chars = UNICODE_SUITS[suit]
        symbol = truetype_text(
            candidates[int(rng.integers(0, len(candidates)))], chars[int(rng.integers(len(chars)))]
        )
    if symbol is None:
        symbol = SUIT_DRAWERS[suit](rng, 96.0)
    if text is None:
        return None
    top, bottom = _inked(text), _inked(symbol)
    if other:
        if rng.random() < 0.5:
            top = _inked(SUIT_DRAWERS[str(rng.choice(SUIT_CLASSES))](rng, 96.0))  # pips
        else:
            top = np.rot90(top, int(rng.choice((1, 3)))).copy()  # a rank on its side
    rank_height = float(np.exp(rng.uniform(np.log(8), np.log(40))))
    suit_height = rank_height * rng.uniform(0.45, 0.9)
    side = int(rank_height * 6)
    board = np.zeros((side, side), np.float32)
    rank_centre = (side / 2 + rng.uniform(-0.1, 0.1) * rank_height, side / 2 - 0.5 * rank_height)
    gap = rank_height * rng.uniform(0.02, 0.4)
    suit_centre = (
        rank_centre[0] + rng.uniform(-0.2, 0.2) * rank_height,
        rank_centre[1] + rank_height / 2 + gap + suit_height / 2,
    )
    _placed(board, top, rank_height, rank_centre)
    _placed(board, bottom, suit_height, suit_centre)
    if rng.random() < 0.35:  # the next card's dark rim, to the right, maybe over the rank
        x = int(rank_centre[0] + rank_height * rng.uniform(0.25, 1.2))
        board[:, x : x + max(1, int(rank_height * rng.uniform(0.1, 0.6)))] = 1.0
        board[:, x + max(1, int(rank_height * 0.6)) :] *= rng.uniform(0.0, 1.0)
    if rng.random() < 0.25:  # a thin frame line
        offset = rank_height * rng.uniform(-0.8, 0.8)
        if rng.random() < 0.5:
            x = int(rank_centre[0] - rank_height * 0.8 + offset)
            board[:, max(0, x) : max(0, x) + int(rng.integers(1, 3))] = 1.0
        else:
            y = int(rank_centre[1] - rank_height * 0.8 + offset)
            board[max(0, y) : max(0, y) + int(rng.integers(1, 3)), :] = 1.0
    if rng.random() < 0.6:
        board = np.asarray(cv2.GaussianBlur(board, (0, 0), rng.uniform(0.3, 1.2)), np.float32)
    contrast = rng.uniform(0.4, 1.0)  # (drawn before the noise: the shipped network's order)
    board = board * contrast + rng.normal(0, rng.uniform(0, 0.08), board.shape).astype(np.float32)
    darkness = np.clip(board, 0.0, 1.0).astype(np.float32)
    # The frame as the scanner would propose it: from the rank's and the suit's ink centres.
    placed_rank = np.zeros_like(board)
    _placed(placed_rank, top, rank_height, rank_centre)
    ys, xs = np.nonzero(placed_rank > 0.4)
    if xs.size < 3:
        return None
    origin = np.array([xs.mean(), ys.mean()], np.float32)
    size = float(np.hypot(np.ptp(xs) + 1, np.ptp(ys) + 1)) / 1.25
    unit = float(np.hypot(suit_centre[0] - origin[0], suit_centre[1] - origin[1])) * rng.uniform(0.9, 1.1)
    unit = float(np.clip(unit, 0.6 * size, 2.0 * size))
    down = np.array(turned((0.0, 1.0), float(rng.normal(0, 4))), np.float32)
    origin += rng.normal(0, 0.06 * unit, 2).astype(np.float32)
    patch = index_patches(darkness, origin[None], down[None], np.array([unit], np.float32))[0]
    labels = (RANK_OTHER, SUIT_OTHER) if other else (RANK_OUT.index(rank), SUIT_OUT.index(suit))
    return patch, float(np.log(unit / max(size, 1.0))), labels[0], labels[1]


def drawn_patches(count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``count`` :func:`drawn_index` patches (uint8), ratios and labels."""
    rng = np.random.default_rng([seed, 91])
    fonts = truetype_fonts()
    suit_fonts = fonts_with_suits(fonts)
    patches: list[np.ndarray] = []
    ratios: list[float] = []
    ranks: list[int] = []
    suits: list[int] = []
    while len(ranks) < count:
        drawn = drawn_index(rng, fonts, suit_fonts)
        if drawn is None:
            continue
        patches.append(np.round(np.clip(drawn[0], 0, 1) * 255).astype(np.uint8))
        ratios.append(drawn[1])
        ranks.append(drawn[2])
        suits.append(drawn[3])
    return (
        np.stack(patches),
        np.asarray(ratios, np.float32),
        np.asarray(ranks, np.int64),
        np.asarray(suits, np.int64),
    )


def patch_dataset(
    scenes: int, seed: int, workers: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`scene_patches` of ``scenes`` scenes, drawn in parallel (each from its own seed)."""
    from concurrent.futures import ProcessPoolExecutor

    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(scene_patches, [seed * 100_000 + i for i in range(scenes)], chunksize=8))
    return tuple(np.concatenate([part[k] for part in parts]) for k in range(4))  # type: ignore[return-value]


def train_indexnet(
    patches: np.ndarray,
    ratios: np.ndarray,
    ranks: np.ndarray,
    suits: np.ndarray,
    rng: np.random.Generator,
    epochs: int,
) -> IndexNet:
    """Train :mod:`vision.indexnet` (both heads, their cross-entropies added) with Adam; a
    twentieth of the patches, held back, is measured after each pass."""
    held, kept = held_back(rng, len(ranks))
    params = initial_params(rng, len(RANK_OUT) + len(SUIT_OUT), PATCH_SHAPE, INDEX_CHANNELS, INDEX_HIDDEN)
    adam = Adam(params)
    for epoch, rate, batches in passes(rng, kept, epochs):
        for rows in batches:
            x = patches[rows].astype(np.float32) / 255.0
            x *= rng.uniform(0.7, 1.3, (len(rows), 1, 1)).astype(np.float32)  # fainter or bolder ink
            x += rng.normal(0, 0.03, x.shape).astype(np.float32)
            logits, cache = forward(params, x, ratios[rows])
            rank_p, suit_p = split_softmax(logits, len(RANK_OUT))
            rank_p[np.arange(len(rows)), ranks[rows]] -= 1
            suit_p[np.arange(len(rows)), suits[rows]] -= 1
            grads = backward(params, cache, np.concatenate([rank_p, suit_p], axis=1) / len(rows))
            adam.step(grads, rate)
        net = IndexNet(params, RANK_OUT, SUIT_OUT)
        rank_p, suit_p = net.probabilities(patches[held].astype(np.float32) / 255.0, ratios[held])
        both = (rank_p.argmax(axis=1) == ranks[held]) & (suit_p.argmax(axis=1) == suits[held])
        cards = suits[held] != SUIT_OTHER
        print(
            f"epoch {epoch + 1}/{epochs} rate {rate:.5f} held back: both right {both.mean():.4f},"
            f" indices {both[cards].mean():.4f}, other {both[~cards].mean():.4f}",
            file=sys.stderr,
        )
    return IndexNet(params, RANK_OUT, SUIT_OUT)


def indexnet_main(
    scenes: int,
    seed: int,
    workers: int,
    epochs: int,
    output: str,
    net_seed: int | None = None,
    extra: tuple[tuple[int, int], ...] | list[tuple[int, int]] = (),
) -> int:
    """Train and save the index patch network on the pairs of ``scenes`` table scenes of
    ``seed`` and of every ``(seed, count)`` of ``extra``; ``net_seed`` (default ``seed``)
    draws the font indices, the initial weights and the batches."""
    net_seed = seed if net_seed is None else net_seed
    started = time.time()
    cache = os.environ.get("TRICKMATE_PATCH_CACHE")  # reuse one drawing across training runs
    if cache and os.path.exists(cache):
        with np.load(cache) as arrays:
            patches, ratios, ranks, suits = (arrays[k] for k in ("patches", "ratios", "ranks", "suits"))
    else:
        parts = [patch_dataset(count, part_seed, workers) for part_seed, count in [(seed, scenes), *extra]]
        patches, ratios, ranks, suits = (np.concatenate([part[k] for part in parts]) for k in range(4))
        if cache:
            np.savez(cache, patches=patches, ratios=ratios, ranks=ranks, suits=suits)
    # Indices drawn from fonts too, so that lettering unlike the development families' reads.
    drawn = drawn_patches(DRAWN_INDICES, net_seed)
    patches, ratios, ranks, suits = (
        np.concatenate([a, b]) for a, b in zip((patches, ratios, ranks, suits), drawn, strict=True)
    )
    cards = int((suits != SUIT_OTHER).sum())
    print(
        f"{len(ranks)} patches ({cards} of indices) from {scenes + sum(n for _, n in extra)} scenes"
        f" in {time.time() - started:.0f}s",
        file=sys.stderr,
    )
    net = train_indexnet(patches, ratios, ranks, suits, np.random.default_rng(net_seed), epochs)
    return saved(net, output, started)


# --- the joker word network (vision/jokernet.py) ---------------------------------------------

#: The standard deck without its jokers, from which each joker scene draws its other cards.
PLAIN_STANDARD = tuple(
    f"{rank}{suit}"
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    for suit in "shdc"
)


def joker_scene_words(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Word patches (:func:`vision.jokernet.word_patches`, as uint8) of the long thin runs of
    ink the scanner finds (:func:`vision.read._long_words`) in one development-family
    standard scene with both jokers among 8 to 15 cards, each run read from both ends, and
    their labels: 1 for a run in a joker's index corner read from its J's end (the whole
    word, or most of it with a letter or two apart), 0 for anything else (the other end,
    every other run)."""
    from vision.detect import erase_width, ink_components, paper_regions, working_image
    from vision.jokernet import word_patches
    from vision.read import _long_words, word_frames
    from vision.synth import SceneSpec, render_scene
    from vision.synth.style import families

    rng = np.random.default_rng([seed, 91])
    width, height = ((1280, 720), (1600, 900), (1440, 1080), (720, 1280), (1920, 1080))[int(rng.integers(5))]
    cards = [
        "RJ",
        "BJ",
        *(str(c) for c in rng.choice(PLAIN_STANDARD, int(rng.integers(6, 14)), replace=False)),
    ]
    rng.shuffle(cards)
    spec = SceneSpec(
        width=width,
        height=height,
        game="standard",
        families=families("standard", held_out=False),
        layout=str(rng.choice(["apart", "fan", "fan", "pile", "mixed"])),
        cards=tuple(cards),
        max_cards=16,
        distractors=0.6,
        effects=float(rng.uniform(0.3, 1.0)),
    )
    image, labels = render_scene(rng, spec)
    quality = int(rng.integers(60, 92))
    decoded = cv2.imdecode(
        cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR
    )
    small, scale = working_image(image if decoded is None else decoded)
    ink = ink_components(small, paper_regions(small), line_width=erase_width("standard"))
    assert ink.darkness is not None
    # Each joker index corner: its outline and its own down (J to R).
    indices = []
    for label in labels:
        if label.card not in ("RJ", "BJ"):
            continue
        corners = np.asarray(label.corners, np.float32) / scale
        card_down = corners[3] - corners[0]
        card_down /= np.linalg.norm(card_down) + 1e-9
        for polygon in label.index_corners:
            outline = np.asarray(polygon, np.float32) / scale
            # The index nearer the card's top reads down the card; the other is turned.
            nearest = int(np.argmin(np.linalg.norm(corners - outline.mean(axis=0), axis=1)))
            down = card_down if nearest in (0, 1) else -card_down
            indices.append((outline.reshape(-1, 1, 2), down))
    tries, marks = [], []
    for word in _long_words(ink, set()):
        centre = (float(word.xs.mean()), float(word.ys.mean()))
        inside = [d for o, d in indices if cv2.pointPolygonTest(o, centre, True) >= -2]
        for end in (1, -1):
            down = (end * word.axis[0], end * word.axis[1])
            tries.append((word, end))
            marks.append(int(bool(inside) and down[0] * inside[0][0] + down[1] * inside[0][1] > 0.7))
    patches = word_patches(ink.darkness, *word_frames(tries))
    return np.round(patches * 255).astype(np.uint8), np.array(marks, np.int64)


def train_jokernet(patches: np.ndarray, marks: np.ndarray, rng: np.random.Generator, epochs: int) -> JokerNet:
    """Train :mod:`vision.jokernet` with Adam; a twentieth of the patches, held back, is
    measured after each pass (the JOKERs read at 0.95, and the false ones among the rest).
    Each step sees its patches shifted by a pixel half the time and a little
    noise on every pixel."""
    held, kept = held_back(rng, len(marks))
    params = initial_params(rng, len(WORD_CLASSES), (WORD_ALONG, WORD_ACROSS))
    adam = Adam(params)
    no_aspect = np.zeros(len(marks), np.float32)
    for epoch, rate, batches in passes(rng, kept, epochs):
        for rows in batches:
            x = patches[rows].astype(np.float32) / 255.0
            if rng.random() < 0.5:
                x = np.roll(x, tuple(int(v) for v in rng.integers(-1, 2, 2)), axis=(1, 2))
            x += rng.normal(0, 0.03, x.shape).astype(np.float32)
            logits, cache = forward(params, x, no_aspect[rows])
            d_logits = softmax(logits)
            d_logits[np.arange(len(rows)), marks[rows]] -= 1
            adam.step(backward(params, cache, d_logits / len(rows)), rate)
        read = JokerNet(GlyphNet(params, WORD_CLASSES)).probabilities(
            patches[held].astype(np.float32) / 255.0
        )
        sure, truth = read >= JOKER_WORD_SURE, marks[held] == 1
        print(
            f"epoch {epoch + 1}/{epochs} rate {rate:.5f} held back:"
            f" JOKER {(sure & truth).sum()}/{truth.sum()}, false {(sure & ~truth).sum()}/{(~truth).sum()}",
            file=sys.stderr,
        )
    return JokerNet(GlyphNet(params, WORD_CLASSES))


def jokernet_main(scenes: int, seed: int, workers: int, epochs: int, output: str) -> int:
    """Train and save the joker word network on the runs of ink of ``scenes`` joker scenes
    of ``seed`` (:func:`joker_scene_words`), drawn in parallel."""
    from concurrent.futures import ProcessPoolExecutor

    started = time.time()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(joker_scene_words, [seed * 100_000 + i for i in range(scenes)], chunksize=8))
    patches = np.concatenate([part[0] for part in parts])
    marks = np.concatenate([part[1] for part in parts])
    print(
        f"{len(marks)} word patches ({int(marks.sum())} JOKERs) from {scenes} scenes"
        f" in {time.time() - started:.0f}s",
        file=sys.stderr,
    )
    net = train_jokernet(patches, marks, np.random.default_rng(seed), epochs)
    return saved(net, output, started)


if __name__ == "__main__":
    raise SystemExit(main())
