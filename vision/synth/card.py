"""Card faces: one card of a DeckStyle drawn as a BGR image, with its outline mask and the
polygons of its index corners.

Face coordinates are pixels of the face image: x to the right, y down, the top-left index
at the top left. A face is ``width_px`` wide and ``round(width_px / style.aspect)`` tall.

>>> style = DeckStyle.from_seed(3, family="casino")
>>> face = render_card(style, "Kh", 200)
>>> face.shape == (round(200 / style.aspect), 200, 3), face.dtype.name
(True, 'uint8')
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.cards import Card, Deck, Special
from vision.synth.style import BGR, DeckStyle
from vision.synth.symbols import star_mask, suit_mask
from vision.synth.text import text_mask

# Standard pip positions inside the art box (x, y in 0..1); pips below the middle are
# printed upside down.
PIP_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.1), (0.5, 0.9)],
    3: [(0.5, 0.1), (0.5, 0.5), (0.5, 0.9)],
    4: [(0.22, 0.1), (0.78, 0.1), (0.22, 0.9), (0.78, 0.9)],
    5: [(0.22, 0.1), (0.78, 0.1), (0.5, 0.5), (0.22, 0.9), (0.78, 0.9)],
    6: [(0.22, 0.1), (0.78, 0.1), (0.22, 0.5), (0.78, 0.5), (0.22, 0.9), (0.78, 0.9)],
    7: [(0.22, 0.1), (0.78, 0.1), (0.5, 0.3), (0.22, 0.5), (0.78, 0.5), (0.22, 0.9), (0.78, 0.9)],
    8: [(0.22, 0.1), (0.78, 0.1), (0.5, 0.3), (0.22, 0.5), (0.78, 0.5), (0.5, 0.7), (0.22, 0.9), (0.78, 0.9)],
    9: [
        (0.22, 0.1),
        (0.78, 0.1),
        (0.22, 0.37),
        (0.78, 0.37),
        (0.5, 0.5),
        (0.22, 0.63),
        (0.78, 0.63),
        (0.22, 0.9),
        (0.78, 0.9),
    ],
    10: [
        (0.22, 0.1),
        (0.78, 0.1),
        (0.5, 0.23),
        (0.22, 0.37),
        (0.78, 0.37),
        (0.22, 0.63),
        (0.78, 0.63),
        (0.5, 0.77),
        (0.22, 0.9),
        (0.78, 0.9),
    ],
}
_SPECIAL_LETTERS: dict[Special, str] = {Special.DOG: "Dg", Special.PHOENIX: "Ph", Special.DRAGON: "Dr"}


@dataclass(frozen=True)
class CardFace:
    """A drawn card: ``image`` (H, W, 3) uint8 BGR, ``mask`` (H, W) uint8 (255 on the card,
    0 outside its rounded corners), ``index_polygons``: (4, 2) float32 arrays in face pixels,
    TL, TR, BR, BL of each index corner box (top-left first, then bottom-right, then top-right
    when the style prints one)."""

    image: np.ndarray
    mask: np.ndarray
    index_polygons: tuple[np.ndarray, ...]


def as_card(card: Card | str, game: str) -> Card:
    """A Card from a Card or its notation in ``game``'s deck."""
    if isinstance(card, Card):
        return card
    return Card.parse(card, Deck.TICHU if game == "tichu" else Deck.STANDARD)


def render_card(style: DeckStyle, card: Card | str, width_px: int) -> np.ndarray:
    """The face of ``card`` in ``style``, ``width_px`` wide: (H, W, 3) uint8 BGR. Pixels
    outside the rounded corners have the paper colour (see :func:`render_card_face` for
    the outline mask)."""
    return render_card_face(style, card, width_px).image.copy()


def render_card_face(style: DeckStyle, card: Card | str, width_px: int) -> CardFace:
    """The face with its outline mask and index polygons (cached: do not write to it)."""
    return _render_cached(style, str(as_card(card, style.game)), int(width_px))


def card_mask(width: int, height: int, radius: float) -> np.ndarray:
    """(height, width) uint8 mask of a rectangle with rounded corners of ``radius`` px."""
    return _card_mask(int(width), int(height), float(radius)).copy()


@lru_cache(maxsize=256)
def _card_mask(width: int, height: int, radius: float) -> np.ndarray:
    scale = 4
    big = np.zeros((height * scale, width * scale), np.uint8)
    r = int(max(0.0, radius) * scale)
    cv2.rectangle(big, (r, 0), (width * scale - 1 - r, height * scale - 1), 255, -1)
    cv2.rectangle(big, (0, r), (width * scale - 1, height * scale - 1 - r), 255, -1)
    if r > 0:
        for cx, cy in (
            (r, r),
            (width * scale - 1 - r, r),
            (r, height * scale - 1 - r),
            (width * scale - 1 - r, height * scale - 1 - r),
        ):
            cv2.circle(big, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)


def stamp(canvas: np.ndarray, mask: np.ndarray, x: int, y: int, colour: BGR, opacity: float = 1.0) -> None:
    """Paint ``colour`` through ``mask`` (uint8) onto ``canvas`` (H, W, 3 uint8) with its top
    left at (x, y), clipped to the canvas."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, canvas.shape[1]), min(y + h, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    alpha = mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)[..., None] * (opacity / 255.0)
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    canvas[y0:y1, x0:x1] = (region + (np.asarray(colour, np.float32) - region) * alpha).astype(np.uint8)


def _card_rng(style: DeckStyle, card_text: str) -> np.random.Generator:
    return np.random.default_rng([style.art_seed, zlib.crc32(card_text.encode())])


def _random_colour(rng: np.random.Generator, saturation: float = 1.0) -> BGR:
    hue = int(rng.integers(180))
    sat = int(np.clip(rng.uniform(80, 255) * saturation, 0, 255))
    val = int(rng.uniform(80, 240))
    bgr = cv2.cvtColor(np.array([[[hue, sat, val]]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return (int(bgr[0]), int(bgr[1]), int(bgr[2]))


def _blend(a: BGR, b: BGR, t: float) -> BGR:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _blobs(
    canvas: np.ndarray,
    rng: np.random.Generator,
    box: tuple[int, int, int, int],
    colours: list[BGR],
    count: int,
) -> None:
    """Random filled ellipses, polygons and stripes inside ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    w, h = max(2, x1 - x0), max(2, y1 - y0)
    region = canvas[y0:y1, x0:x1]
    for _ in range(count):
        colour = colours[int(rng.integers(len(colours)))]
        kind = rng.random()
        if kind < 0.45:
            centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            axes = (int(rng.uniform(0.05, 0.35) * w) + 1, int(rng.uniform(0.05, 0.3) * h) + 1)
            cv2.ellipse(region, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
        elif kind < 0.8:
            n = int(rng.integers(3, 7))
            middle = np.array([rng.uniform(0, w), rng.uniform(0, h)])
            points = middle + rng.normal(0, 0.18, (n, 2)) * [w, h]
            cv2.fillPoly(region, [points.astype(np.int32)], colour, cv2.LINE_AA)
        else:
            y = int(rng.uniform(0, h))
            cv2.rectangle(region, (0, y), (w, y + int(rng.uniform(0.02, 0.08) * h) + 1), colour, -1)


def _figure(
    canvas: np.ndarray, rng: np.random.Generator, box: tuple[int, int, int, int], colours: list[BGR]
) -> None:
    """A court figure: coloured blobs, a head and a robe, mirrored top/bottom like real courts."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    half = canvas[y0 : y0 + h // 2, x0:x1]
    _blobs(canvas, rng, (x0, y0, x1, y0 + h // 2), colours, 10)
    skin = (150, 190, 235)
    cv2.ellipse(
        half, (w // 2, int(h * 0.16)), (max(2, w // 7), max(2, h // 11)), 0, 0, 360, skin, -1, cv2.LINE_AA
    )
    robe = np.array(
        [[w * 0.2, h * 0.5], [w * 0.35, h * 0.26], [w * 0.65, h * 0.26], [w * 0.8, h * 0.5]], np.int32
    )
    cv2.fillPoly(half, [robe], colours[0], cv2.LINE_AA)
    cv2.line(half, (int(w * 0.3), int(h * 0.35)), (int(w * 0.7), int(h * 0.45)), colours[-1], max(1, w // 20))
    lower = canvas[y0 + h - h // 2 : y1, x0:x1]
    lower[:] = half[::-1, ::-1][: lower.shape[0]]


def _bird(
    canvas: np.ndarray,
    box: tuple[int, int, int, int],
    colours: list[BGR],
    flames: bool,
    rng: np.random.Generator,
) -> None:
    """A bird (Mahjong sparrow, or a Phoenix with flames)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    region = canvas[y0:y1, x0:x1]
    if flames:
        for _ in range(14):
            base = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(0.45, 0.9) * h])
            tip = base + np.array([rng.normal(0, 0.2) * w, -rng.uniform(0.2, 0.5) * h])
            side = np.array([rng.uniform(0.03, 0.08) * w, 0])
            cv2.fillPoly(
                region,
                [np.array([base - side, tip, base + side], np.int32)],
                colours[int(rng.integers(len(colours)))],
                cv2.LINE_AA,
            )
    cv2.ellipse(
        region,
        (w // 2, int(h * 0.55)),
        (max(2, int(w * 0.28)), max(2, int(h * 0.14))),
        -15,
        0,
        360,
        colours[0],
        -1,
        cv2.LINE_AA,
    )
    cv2.circle(
        region,
        (int(w * 0.72), int(h * 0.4)),
        max(2, int(w * 0.1)),
        colours[1 % len(colours)],
        -1,
        cv2.LINE_AA,
    )
    beak = np.array([[w * 0.8, h * 0.37], [w * 0.95, h * 0.41], [w * 0.8, h * 0.44]], np.int32)
    cv2.fillPoly(region, [beak], (40, 160, 230), cv2.LINE_AA)
    wing = np.array([[w * 0.35, h * 0.52], [w * 0.6, h * 0.45], [w * 0.5, h * 0.3]], np.int32)
    cv2.fillPoly(region, [wing], colours[2 % len(colours)], cv2.LINE_AA)
    tail = np.array([[w * 0.28, h * 0.55], [w * 0.05, h * 0.45], [w * 0.08, h * 0.62]], np.int32)
    cv2.fillPoly(region, [tail], colours[1 % len(colours)], cv2.LINE_AA)
    cv2.circle(region, (int(w * 0.75), int(h * 0.38)), max(1, w // 50), (20, 20, 20), -1, cv2.LINE_AA)


def _dragon(
    canvas: np.ndarray, box: tuple[int, int, int, int], colours: list[BGR], rng: np.random.Generator
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    region = canvas[y0:y1, x0:x1]
    t = np.linspace(0, 1, 40)
    waves = float(rng.uniform(1.5, 3.0))
    xs = w * (0.5 + 0.32 * np.sin(2 * math.pi * waves * t + rng.uniform(0, 6)))
    ys = h * (0.08 + 0.84 * t)
    points = np.stack([xs, ys], axis=1).astype(np.int32)
    cv2.polylines(region, [points], False, colours[0], max(2, w // 8), cv2.LINE_AA)
    cv2.polylines(region, [points], False, colours[1], max(1, w // 30), cv2.LINE_AA)
    cv2.circle(
        region, tuple(int(v) for v in points[0]), max(3, w // 7), colours[2 % len(colours)], -1, cv2.LINE_AA
    )
    for k in range(3, 40, 6):
        cv2.circle(region, tuple(int(v) for v in points[k]), max(1, w // 25), colours[1], -1, cv2.LINE_AA)


def _dog(canvas: np.ndarray, box: tuple[int, int, int, int], colours: list[BGR]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    region = canvas[y0:y1, x0:x1]
    body, dark = colours[0], colours[1 % len(colours)]
    cv2.ellipse(
        region,
        (int(w * 0.45), int(h * 0.6)),
        (max(2, int(w * 0.3)), max(2, int(h * 0.13))),
        0,
        0,
        360,
        body,
        -1,
        cv2.LINE_AA,
    )
    cv2.circle(region, (int(w * 0.75), int(h * 0.45)), max(2, int(w * 0.13)), body, -1, cv2.LINE_AA)
    ear = np.array([[w * 0.7, h * 0.38], [w * 0.62, h * 0.5], [w * 0.68, h * 0.52]], np.int32)
    cv2.fillPoly(region, [ear], dark, cv2.LINE_AA)
    for leg in (0.25, 0.35, 0.55, 0.65):
        cv2.rectangle(region, (int(w * leg), int(h * 0.65)), (int(w * (leg + 0.05)), int(h * 0.82)), body, -1)
    cv2.line(
        region,
        (int(w * 0.16), int(h * 0.56)),
        (int(w * 0.05), int(h * 0.42)),
        body,
        max(1, w // 25),
        cv2.LINE_AA,
    )


def _index_mask(style: DeckStyle, card: Card, width: int) -> tuple[np.ndarray, np.ndarray | None, BGR, BGR]:
    """The rank (or special) glyphs and the suit symbol under them, with their colours."""
    glyph_h = max(4, round(style.index_height * width))
    max_w = round(glyph_h * 1.25)
    black: BGR = style.rank_colour or (25, 25, 25)
    if card.special is not None:
        special = card.special
        if special in (Special.SMALL_JOKER, Special.BIG_JOKER):
            letters = [text_mask(style.font, ch, round(glyph_h * 0.6), style.index_stretch) for ch in "JOKER"]
            col_w = max(m.shape[1] for m in letters)
            gap = max(1, glyph_h // 12)
            stack = np.zeros((sum(m.shape[0] + gap for m in letters), col_w), np.uint8)
            y = 0
            for m in letters:
                x = (col_w - m.shape[1]) // 2
                stack[y : y + m.shape[0], x : x + m.shape[1]] = m
                y += m.shape[0] + gap
            colour = (25, 25, 25) if special is Special.SMALL_JOKER else style.suit_colours[2]
            return stack, None, colour, colour
        if special is Special.MAHJONG:
            mark = star_mask(8, 0.5, max(4, round(glyph_h * style.suit_scale * 0.8)))
            return (
                text_mask(style.font, "1", glyph_h, style.index_stretch),
                mark,
                black,
                style.suit_colours[3],
            )
        mark_colour = {
            Special.DOG: (30, 30, 30),
            Special.PHOENIX: style.suit_colours[0],
            Special.DRAGON: style.suit_colours[3],
        }[special]
        if style.special_mark == "letter":
            glyphs = text_mask(
                style.font, _SPECIAL_LETTERS[special], glyph_h, style.index_stretch * 0.8, max_w
            )
            return glyphs, None, mark_colour, mark_colour
        if style.special_mark == "symbol":
            points = {Special.DOG: 4, Special.PHOENIX: 5, Special.DRAGON: 7}[special]
            return star_mask(points, 0.45, glyph_h), None, mark_colour, mark_colour
        return np.zeros((glyph_h, max(4, glyph_h // 2)), np.uint8), None, black, black
    assert card.suit is not None and card.rank is not None
    suit_index = style.suit_values.index(card.suit.value)
    suit_colour = style.suit_colours[suit_index]
    rank_colour = style.rank_colour or suit_colour
    rank_text = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, str(card.rank))
    glyphs = text_mask(style.font, rank_text, glyph_h, style.index_stretch, max_w)
    symbol = suit_mask(card.suit.value, style.symbol_variants[suit_index], round(glyph_h * style.suit_scale))
    return glyphs, symbol, rank_colour, suit_colour


def _art_colours(style: DeckStyle, card: Card, rng: np.random.Generator) -> list[BGR]:
    base = list(style.suit_colours)
    if card.suit is not None:
        main = style.suit_colours[style.suit_values.index(card.suit.value)]
        base = [main, _blend(main, (255, 255, 255), 0.5), _blend(main, (0, 0, 0), 0.4)]
    gold: BGR = (40, 170, 220)
    return [*base, gold, _random_colour(rng, 0.7), _random_colour(rng, 0.7)]


@lru_cache(maxsize=64)
def _paper(style: DeckStyle, width: int, height: int) -> np.ndarray:
    """The blank card of a style: its paper colour with a faint grain, (height, width, 3) uint8."""
    paper = np.full((height, width, 3), style.paper, np.float32)
    if style.paper_texture > 0:
        grain = np.random.default_rng(style.art_seed).normal(0, style.paper_texture, (height, width, 1))
        paper += cv2.GaussianBlur(grain.astype(np.float32), (0, 0), 0.8)[..., None]
    return np.clip(paper, 0, 255).astype(np.uint8)


@lru_cache(maxsize=2048)
def _render_cached(style: DeckStyle, card_text: str, width: int) -> CardFace:
    card = as_card(card_text, style.game)
    rng = _card_rng(style, card_text)
    height = round(width / style.aspect)
    image = _paper(style, width, height).copy()
    radius = style.corner_radius * width
    frame = 0
    if style.border == "frame":
        frame = max(1, round(style.border_width * width))
        outer = card_mask(width, height, radius)
        inner = np.zeros_like(outer)
        inner[frame:-frame, frame:-frame] = card_mask(
            width - 2 * frame, height - 2 * frame, max(0.0, radius - frame)
        )
        stamp(image, cv2.subtract(outer, inner), 0, 0, style.border_colour)
    elif style.border == "line":
        inset = round(0.03 * width)
        cv2.rectangle(
            image,
            (inset, inset),
            (width - 1 - inset, height - 1 - inset),
            style.border_colour,
            max(1, round(style.border_width * width)),
            cv2.LINE_AA,
        )

    glyphs, symbol, glyph_colour, symbol_colour = _index_mask(style, card, width)
    gap = max(1, glyphs.shape[0] // 8)
    column_w = max(glyphs.shape[1], symbol.shape[1] if symbol is not None else 0)
    column_h = glyphs.shape[0] + (gap + symbol.shape[0] if symbol is not None else 0)
    margin_x = round(style.margin_x * width) + frame
    margin_y = round(style.margin_y * width) + frame

    # Centre art, between the index columns.
    art_x0 = min(margin_x + column_w + gap * 2, width // 3)
    art_y0 = max(margin_y, round(0.06 * width) + frame)
    art_box = (art_x0, art_y0, width - art_x0, height - art_y0)
    colours = _art_colours(style, card, rng)
    _draw_art(image, style, card, art_box, colours, rng)

    # The index: drawn at the top left, and turned half round at the bottom right.
    pad = gap
    iw, ih = column_w + 2 * pad, column_h + 2 * pad
    parts: list[tuple[np.ndarray, int, int, BGR]] = [
        (glyphs, pad + (column_w - glyphs.shape[1]) // 2, pad, glyph_colour)
    ]
    if symbol is not None:
        parts.append(
            (symbol, pad + (column_w - symbol.shape[1]) // 2, pad + glyphs.shape[0] + gap, symbol_colour)
        )
    boxes: list[np.ndarray] = []

    def put_index(x: int, y: int, turned: bool) -> None:
        x, y = max(0, min(x, width - iw)), max(0, min(y, height - ih))
        for part, dx, dy, colour in parts:
            if turned:
                stamp(
                    image, part[::-1, ::-1], x + iw - dx - part.shape[1], y + ih - dy - part.shape[0], colour
                )
            else:
                stamp(image, part, x + dx, y + dy, colour)
        boxes.append(np.array([[x, y], [x + iw, y], [x + iw, y + ih], [x, y + ih]], np.float32))

    x0, y0 = margin_x - pad, margin_y - pad
    put_index(x0, y0, False)
    put_index(width - x0 - iw, height - y0 - ih, True)
    if style.index_top_right:
        put_index(width - x0 - iw, y0, False)
    mask = card_mask(width, height, radius)
    image[mask == 0] = style.paper
    for array in (image, mask):
        array.setflags(write=False)
    return CardFace(image, mask, tuple(boxes))


def _draw_art(
    image: np.ndarray,
    style: DeckStyle,
    card: Card,
    box: tuple[int, int, int, int],
    colours: list[BGR],
    rng: np.random.Generator,
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w < 4 or h < 4:
        return
    if style.art == "framed" or (card.rank is not None and 11 <= card.rank <= 13) or card.special is not None:
        cv2.rectangle(image, (x0, y0), (x1, y1), colours[0], max(1, w // 40), cv2.LINE_AA)
    inner = (x0 + max(2, w // 20), y0 + max(2, h // 20), x1 - max(2, w // 20), y1 - max(2, h // 20))
    special = card.special
    if special is Special.MAHJONG:
        _blobs(image, rng, inner, [_blend(c, (255, 255, 255), 0.6) for c in colours], 6)
        _bird(image, inner, colours, False, rng)
    elif special is Special.PHOENIX:
        _bird(image, inner, [(40, 40, 220), (30, 150, 240), (50, 180, 90), (40, 200, 250)], True, rng)
    elif special is Special.DRAGON:
        _blobs(image, rng, inner, [_blend(c, (255, 255, 255), 0.5) for c in colours], 8)
        _dragon(image, inner, [(30, 30, 190), (40, 160, 60), (30, 170, 230)], rng)
    elif special is Special.DOG:
        _blobs(image, rng, inner, [_blend(c, (255, 255, 255), 0.7) for c in colours], 5)
        _dog(image, inner, [(90, 120, 150), (40, 50, 70)])
    elif special is Special.SMALL_JOKER:
        _figure(image, rng, inner, [(30, 30, 30), (120, 120, 120), (200, 200, 200)])
    elif special is Special.BIG_JOKER:
        _figure(image, rng, inner, [(30, 30, 200), (40, 170, 220), (150, 60, 20), (40, 130, 30)])
    elif card.rank is not None and 11 <= card.rank <= 13:
        _figure(image, rng, inner, colours)
    elif card.suit is not None and card.rank is not None:
        if style.art == "pips" or style.game == "standard":
            _pips(image, style, card, inner)
        else:
            _blobs(
                image,
                rng,
                inner,
                [_blend(c, (255, 255, 255), float(rng.uniform(0.2, 0.7))) for c in colours],
                int(rng.integers(6, 16)),
            )
            # The suit symbol large in the middle, as many editions print it.
            suit_index = style.suit_values.index(card.suit.value)
            size = int(min(w, h) * 0.45)
            symbol = suit_mask(card.suit.value, style.symbol_variants[suit_index], size)
            stamp(image, symbol, x0 + (w - size) // 2, y0 + (h - size) // 2, colours[0], 0.85)
    if special is not None and style.special_word:
        words = {
            Special.MAHJONG: "MAH JONG",
            Special.DOG: "DOG",
            Special.PHOENIX: "PHOENIX",
            Special.DRAGON: "DRAGON",
            Special.SMALL_JOKER: "JOKER",
            Special.BIG_JOKER: "JOKER",
        }
        text = text_mask(style.font, words[special], max(4, h // 16), 1.0, max(4, int(w * 0.8)))
        colour: BGR = (25, 25, 25) if special is not Special.BIG_JOKER else style.suit_colours[2]
        stamp(image, text, x0 + (w - text.shape[1]) // 2, y1 - text.shape[0] - max(2, h // 30), colour)


def _pips(image: np.ndarray, style: DeckStyle, card: Card, box: tuple[int, int, int, int]) -> None:
    assert card.suit is not None and card.rank is not None
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    suit_index = style.suit_values.index(card.suit.value)
    colour = style.suit_colours[suit_index]
    count = 1 if card.rank == 14 else card.rank
    size = max(4, int(min(w * 0.3, h * 0.17) if count > 1 else min(w, h) * 0.5))
    symbol = suit_mask(card.suit.value, style.symbol_variants[suit_index], size)
    for px, py in PIP_LAYOUTS[count]:
        mask = symbol if py <= 0.5 or count == 1 else symbol[::-1, ::-1]
        y_pos = y0 + size // 2 + py * (h - size)
        stamp(image, mask, int(x0 + size / 2 + px * (w - size) - size / 2), int(y_pos - size / 2), colour)
