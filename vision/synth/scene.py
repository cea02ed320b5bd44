"""Whole table scenes with exact ground truth: cards of a DeckStyle lying on a table, seen by
a phone camera from above or at an angle, in imperfect light.

The scene is composed on a flat TABLE canvas (background, objects, cards placed by rotations
and shifts), then one homography ``P`` maps the table to the photo, then light, blur, noise
and JPEG are applied. Labels are exact: a card face corner at table point ``t`` is at
``P(t)`` in the photo.

>>> image, labels = render_scene(np.random.default_rng(5), SceneSpec(width=320, height=240, layout="apart"))
>>> image.shape, image.dtype.name, len(labels) > 0
((240, 320, 3), 'uint8', True)
>>> len(labels[0].corners), all(0 < label.visible_fraction <= 1 for label in labels)
(4, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.cards import Card, standard_deck, tichu_deck
from vision.synth.background import render_background
from vision.synth.card import as_card, render_card_face
from vision.synth.objects import draw_chip, draw_coin, draw_hand, draw_paper, hand_polygons, render_back
from vision.synth.style import DeckStyle, random_style

LAYOUTS: tuple[str, ...] = ("apart", "fan", "pile", "mixed", "rows", "empty")
# How often each layout is drawn for layout="random" (rows only on request).
_RANDOM_LAYOUTS: tuple[tuple[str, float], ...] = (
    ("apart", 0.27),
    ("fan", 0.3),
    ("pile", 0.18),
    ("mixed", 0.17),
    ("empty", 0.08),
)
# A card is only labelled (and kept in the scene) when one index corner is this visible.
INDEX_VISIBLE = 0.75
_LABEL_MAP_SIDE = 900  # the visibility map is computed at about this resolution


@dataclass(frozen=True)
class CardLabel:
    """The truth about one card in a scene. ``corners``: the card face outline in image
    pixels, TL, TR, BR, BL of the face as printed (TL is the corner with the upright index),
    after perspective. ``visible_fraction``: how much of the face is not covered by other
    cards or objects. ``index_corners``: the outlines (4x2, image pixels) of the index
    corners that are at least INDEX_VISIBLE visible."""

    card: str
    corners: list[list[float]]
    visible_fraction: float
    style: str
    index_corners: list[list[list[float]]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "corners": self.corners,
            "visible_fraction": self.visible_fraction,
            "index_corners": self.index_corners,
        }


@dataclass(frozen=True)
class SceneSpec:
    """What to draw. ``None`` fields are drawn at random.

    - ``game``: "tichu" or "standard"; ``families``: deck families to draw a style from
      (default all of the game's); ``style``: a fixed deck style instead. The cards come
      from the deck of the style's game.
    - ``layout``: one of LAYOUTS or "random"; ``cards``: the cards to show (in reading order
      for "rows"), default a random draw of up to ``max_cards`` from ``decks`` decks.
    - ``distractors``: 0..1, how likely card backs, chips, coins, papers and a hand appear.
    - ``tilt``: 0 (camera straight above) .. 1 (a strong angle); ``effects``: 0..1 strength
      of uneven light, shadows, glare, colour cast, blur and noise; ``jpeg_quality``: JPEG
      round trip at that quality (None: none).
    """

    width: int = 1280
    height: int = 720
    game: str = "tichu"
    families: tuple[str, ...] | None = None
    style: DeckStyle | None = None
    layout: str = "random"
    cards: tuple[str, ...] | None = None
    max_cards: int = 14
    decks: int = 1
    distractors: float = 0.5
    background: str = "random"
    tilt: float | None = None
    effects: float = 1.0
    jpeg_quality: int | None = None
    row_length: int = 7


@dataclass
class _Item:
    """A flat thing on the table: a card face (``card`` set) or a card back."""

    card: str | None
    centre: np.ndarray  # (2,) table px
    angle: float  # radians
    width: float  # table px
    height: float
    index_boxes: list[np.ndarray] = field(default_factory=list)  # face px, (4, 2) each

    def affine(self) -> np.ndarray:
        """(2, 3) map from face pixel coordinates to table coordinates."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        w, h = round(self.width), round(self.height)
        # Face pixel centres are at integer coordinates; the outline runs from -0.5 to w - 0.5.
        offset = self.centre - np.array([[c, -s], [s, c]]) @ np.array([(w - 1) / 2, (h - 1) / 2])
        return np.array([[c, -s, offset[0]], [s, c, offset[1]]])

    def outline(self) -> np.ndarray:
        """(4, 2) table coordinates of the face outline TL, TR, BR, BL."""
        w, h = round(self.width), round(self.height)
        return _apply_affine(
            self.affine(), np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
        )


def _apply_affine(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    return np.asarray(np.asarray(points, np.float64) @ matrix[:, :2].T + matrix[:, 2], np.float64)


def _project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, homography).reshape(-1, 2)


@dataclass(frozen=True)
class Camera:
    """The view: ``homography`` maps table canvas px to image px; ``table_size`` (w, h) of
    the canvas; ``view`` (4, 2) the table quadrilateral the image shows (TL, TR, BR, BL)."""

    homography: np.ndarray
    table_size: tuple[int, int]
    view: np.ndarray


def make_camera(rng: np.random.Generator, width: int, height: int, tilt: float, yaw: float) -> Camera:
    """A camera tilted by ``tilt`` (0..1) and turned by ``yaw`` radians over the table: the far
    (top) edge of the photo sees a wider strip of table than the near edge."""
    top_w = width * (1 + 0.9 * tilt)
    bottom_w = width * (1 - 0.05 * tilt)
    depth = height * (1 + 0.6 * tilt)
    skew = width * rng.uniform(-0.15, 0.15) * tilt  # camera not centred on the table
    quad = np.array(
        [
            [-top_w / 2 + skew, -depth / 2],
            [top_w / 2 + skew, -depth / 2],
            [bottom_w / 2, depth / 2],
            [-bottom_w / 2, depth / 2],
        ]
    )
    c, s = math.cos(yaw), math.sin(yaw)
    quad = quad @ np.array([[c, -s], [s, c]]).T
    margin = 8.0
    quad -= quad.min(axis=0) - margin
    table_w, table_h = (np.ceil(quad.max(axis=0)) + margin).astype(int)
    image_corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64) - 0.5
    homography = cv2.getPerspectiveTransform(quad.astype(np.float32), image_corners.astype(np.float32))
    return Camera(homography.astype(np.float64), (int(table_w), int(table_h)), quad)


def _inside(camera: Camera, points: np.ndarray, shrink: float) -> bool:
    """Whether all table ``points`` fall inside the photo, away from its edges by ``shrink``
    (a fraction of the view)."""
    centre = camera.view.mean(axis=0)
    zone = (centre + (camera.view - centre) * (1 - shrink)).astype(np.float32)
    return all(cv2.pointPolygonTest(zone, (float(x), float(y)), False) > 0 for x, y in points)


def _random_point(rng: np.random.Generator, camera: Camera) -> np.ndarray:
    a, b = rng.uniform(0.1, 0.9, 2)
    tl, tr, br, bl = camera.view
    top, bottom = tl + (tr - tl) * a, bl + (br - bl) * a
    return np.asarray(top + (bottom - top) * b)


def _draw_cards(rng: np.random.Generator, spec: SceneSpec, game: str, count: int) -> list[str]:
    if spec.cards is not None:
        return list(spec.cards)
    deck: tuple[Card, ...] = tichu_deck() if game == "tichu" else standard_deck(spec.decks)
    chosen = rng.choice(len(deck), size=min(count, len(deck)), replace=False)
    return [str(deck[int(i)]) for i in chosen]


def table_scale(camera: Camera, point: np.ndarray) -> float:
    """Table pixels per photo pixel around table ``point`` (more on the far side of a tilt)."""
    probe = _project(camera.homography, np.asarray(point, np.float64) + np.array([[0, 0], [1, 0], [0, 1.0]]))
    jacobian = np.stack([probe[1] - probe[0], probe[2] - probe[0]])
    return 1.0 / math.sqrt(max(abs(float(np.linalg.det(jacobian))), 1e-9))


def _make_item(style: DeckStyle, card: str | None, centre: np.ndarray, angle: float, width: float) -> _Item:
    w = max(8, round(width))
    h = round(w / style.aspect)
    boxes = list(render_card_face(style, card, w).index_polygons) if card is not None else []
    return _Item(card, np.asarray(centre, np.float64), angle, w, h, boxes)


def _place_apart(
    rng: np.random.Generator,
    style: DeckStyle,
    camera: Camera,
    cards: list[str | None],
    width: float,
    placed: list[_Item],
    tries: int = 60,
) -> list[_Item]:
    """Cards ``width`` photo pixels wide that do not overlap each other or anything placed."""
    out: list[_Item] = []
    for card in cards:
        for _ in range(tries):
            where = _random_point(rng, camera)
            scaled = width * table_scale(camera, where)
            item = _make_item(style, card, where, rng.uniform(0, 2 * math.pi), scaled)
            diagonal = math.hypot(item.width, item.height)
            if not _inside(camera, item.outline(), 0.04):
                continue
            if all(
                np.linalg.norm(item.centre - other.centre)
                > (diagonal + math.hypot(other.width, other.height)) / 2
                for other in placed + out
            ):
                out.append(item)
                break
    return out


def _place_fan(
    rng: np.random.Generator, style: DeckStyle, camera: Camera, cards: list[str], width: float
) -> list[_Item]:
    """A played combination: cards (``width`` photo pixels wide) overlapping in a row, each
    showing its top-left index."""
    for _ in range(30):
        anchor = _random_point(rng, camera)
        scaled = width * table_scale(camera, anchor)
        probe = _make_item(style, cards[0], np.zeros(2), 0.0, scaled)
        index_right = max(float(box[:, 0].max()) for box in probe.index_boxes[:1]) + 1
        step = index_right * rng.uniform(1.1, 1.6)
        bend = rng.uniform(-0.06, 0.06)
        turn = math.radians(rng.uniform(0, 5)) * (1 if rng.random() < 0.5 else -1)
        base_angle = rng.uniform(0, 2 * math.pi)
        n = len(cards)
        c, s = math.cos(base_angle), math.sin(base_angle)
        rot = np.array([[c, -s], [s, c]])
        items = []
        for i, card in enumerate(cards):
            k = i - (n - 1) / 2
            offset = np.array([k * step, bend * k * k * step])
            items.append(_make_item(style, card, anchor + rot @ offset, base_angle + k * turn, scaled))
        if all(_inside(camera, item.outline(), 0.03) for item in items):
            return items
        width *= 0.93
    return []


def _place_pile(
    rng: np.random.Generator, style: DeckStyle, camera: Camera, cards: list[str], width: float
) -> list[_Item]:
    """A loosely spread trick pile: cards (``width`` photo pixels wide) around one point at
    any angle."""
    for _ in range(30):
        anchor = _random_point(rng, camera)
        scaled = width * table_scale(camera, anchor)
        items = [
            _make_item(
                style, card, anchor + rng.normal(0, 0.7 * scaled, 2), rng.uniform(0, 2 * math.pi), scaled
            )
            for card in cards
        ]
        if all(_inside(camera, item.outline(), 0.03) for item in items):
            return items
        width *= 0.93
    return []


def _place_rows(
    rng: np.random.Generator,
    style: DeckStyle,
    camera: Camera,
    cards: list[str],
    row_length: int,
    image_size: tuple[int, int],
) -> list[_Item]:
    """Cards in rows, in reading order (calibration photos). Assumes a nearly upright view."""
    rows = max(1, math.ceil(len(cards) / row_length))
    cols = min(row_length, len(cards))
    tl, tr, br, bl = camera.view
    usable_w = min(np.linalg.norm(br - bl), np.linalg.norm(tr - tl)) * 0.86
    usable_h = min(np.linalg.norm(bl - tl), np.linalg.norm(br - tr)) * 0.86
    gap = 1.12
    width = float(min(usable_w / (cols * gap), usable_h / (rows * gap) * style.aspect))
    height = width / style.aspect
    centre = camera.view.mean(axis=0)
    right = (tr - tl) / np.linalg.norm(tr - tl)
    down = np.array([-right[1], right[0]])
    base_angle = math.atan2(right[1], right[0])
    items = []
    for i, card in enumerate(cards):
        row, col = divmod(i, row_length)
        in_row = min(row_length, len(cards) - row * row_length)
        x = (col - (in_row - 1) / 2) * width * gap + rng.normal(0, width * 0.02)
        y = (row - (rows - 1) / 2) * height * gap + rng.normal(0, height * 0.02)
        angle = base_angle + math.radians(rng.normal(0, 1.5))
        items.append(_make_item(style, card, centre + right * x + down * y, angle, width))
    return items


def _visibility(
    items: list[_Item], occluders: list[np.ndarray], table_size: tuple[int, int]
) -> tuple[list[float], list[list[float]]]:
    """For each item (bottom first): the visible fraction of its face, and of each index box."""
    scale = min(1.0, _LABEL_MAP_SIDE / max(table_size))
    size = (max(1, round(table_size[1] * scale)), max(1, round(table_size[0] * scale)))
    owner = np.zeros(size, np.int32)
    for k, item in enumerate(items):
        cv2.fillPoly(owner, [np.round(item.outline() * scale).astype(np.int32)], k + 1)
    for polygon in occluders:
        cv2.fillPoly(owner, [np.round(polygon * scale).astype(np.int32)], -1)
    fractions: list[float] = []
    index_fractions: list[list[float]] = []
    for k, item in enumerate(items):
        fractions.append(_share(owner, item.outline() * scale, k + 1))
        affine = item.affine()
        index_fractions.append(
            [_share(owner, _apply_affine(affine, box) * scale, k + 1) for box in item.index_boxes]
        )
    return fractions, index_fractions


def _share(owner: np.ndarray, polygon: np.ndarray, value: int) -> float:
    """Fraction of ``polygon``'s pixels in ``owner`` that equal ``value``."""
    x0, y0 = np.maximum(np.floor(polygon.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(polygon.max(axis=0)).astype(int) + 1
    x1, y1 = min(x1, owner.shape[1]), min(y1, owner.shape[0])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(polygon - [x0, y0]).astype(np.int32)], 1)
    total = int(mask.sum())
    if total == 0:
        return 0.0
    return float(np.count_nonzero((owner[y0:y1, x0:x1] == value) & (mask > 0)) / total)


def _composite(
    canvas: np.ndarray,
    image: np.ndarray,
    mask: np.ndarray,
    affine: np.ndarray,
    shadow: float,
    shadow_shift: np.ndarray,
) -> None:
    """Paste ``image`` through ``mask`` onto the table canvas by ``affine`` (face -> table),
    darkening a soft shadow offset by ``shadow_shift`` first."""
    h, w = mask.shape
    corners = _apply_affine(affine, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    reach = float(np.abs(shadow_shift).max()) * 3 + 3
    x0, y0 = np.maximum(np.floor(corners.min(axis=0) - reach).astype(int), 0)
    x1, y1 = np.ceil(corners.max(axis=0) + reach).astype(int)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    local = affine.copy()
    local[:, 2] -= [x0, y0]
    size = (x1 - x0, y1 - y0)
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        moved = local.copy()
        moved[:, 2] += shadow_shift
        moved_mask = cv2.warpAffine(mask, moved, size, flags=cv2.INTER_LINEAR).astype(np.float32)
        dark = cv2.GaussianBlur(moved_mask, (0, 0), max(0.8, float(np.abs(shadow_shift).max())))
        region *= 1.0 - (shadow / 255.0) * dark[..., None]
    face = cv2.warpAffine(image, local, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha = cv2.warpAffine(mask, local, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255.0
    canvas[y0:y1, x0:x1] = np.clip(region + (face - region) * alpha, 0, 255).astype(np.uint8)


def _table_edge(rng: np.random.Generator, canvas: np.ndarray, camera: Camera, items: list[_Item]) -> None:
    """The table's edge in view: beyond a straight line clear of every card, the floor (another
    surface, out of focus) behind a dark rim."""
    angle = rng.uniform(0, 2 * math.pi)
    normal = np.array([math.cos(angle), math.sin(angle)])
    points = np.concatenate([item.outline() for item in items]) if items else camera.view.mean(axis=0)[None]
    size = float(max(canvas.shape[:2]))
    offset = float((points @ normal).max()) + size * rng.uniform(0.03, 0.25)
    if offset >= float((camera.view @ normal).max()):
        return  # the edge would be out of the photo
    height, width = canvas.shape[:2]
    xs = np.arange(width, dtype=np.float32)[None, :] * np.float32(normal[0])
    ys = np.arange(height, dtype=np.float32)[:, None] * np.float32(normal[1])
    distance = xs + ys - np.float32(offset)  # (height, width), by broadcasting
    floor = render_background(rng, width, height, "random")
    floor = cv2.GaussianBlur(floor, (0, 0), max(1.0, size / 400)) * np.float32(rng.uniform(0.5, 0.9))
    rim = size * rng.uniform(0.004, 0.012)
    beyond = distance > rim
    canvas[beyond] = floor[beyond].astype(np.uint8)
    band = (distance > 0) & ~beyond
    canvas[band] = (canvas[band] * np.float32(rng.uniform(0.3, 0.6))).astype(np.uint8)


def _choose_layout(rng: np.random.Generator, layout: str) -> str:
    if layout != "random":
        if layout not in LAYOUTS:
            raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)} or random")
        return layout
    names, weights = zip(*_RANDOM_LAYOUTS, strict=True)
    return str(names[int(rng.choice(len(names), p=np.asarray(weights) / sum(weights)))])


def render_scene(rng: np.random.Generator, spec: SceneSpec) -> tuple[np.ndarray, list[CardLabel]]:
    """Draw one photo: (image (height, width, 3) uint8 BGR, labels of the card faces that can
    be seen, bottom card first). Deterministic for a given generator state."""
    style = spec.style or random_style(rng, spec.game, spec.families)
    if spec.cards is not None:  # a bad card name fails here, before any drawing
        for name in spec.cards:
            as_card(name, style.game)
    layout = _choose_layout(rng, spec.layout)
    short = min(spec.width, spec.height)
    if layout == "rows":
        tilt = float(rng.uniform(0, 0.25)) if spec.tilt is None else spec.tilt
        yaw = math.radians(rng.normal(0, 2))
    else:
        tilt = (0.0 if rng.random() < 0.3 else float(rng.uniform(0, 0.9))) if spec.tilt is None else spec.tilt
        yaw = float(rng.uniform(0, 2 * math.pi))
    camera = make_camera(rng, spec.width, spec.height, tilt, yaw)
    table_w, table_h = camera.table_size
    # Table px per image px, on average: cards are sized in image terms.
    zoom = float(
        np.linalg.norm(camera.view[1] - camera.view[0]) + np.linalg.norm(camera.view[2] - camera.view[3])
    ) / (2 * spec.width)

    items: list[_Item] = []
    if layout in ("apart", "mixed"):
        n_apart = int(rng.integers(1, min(spec.max_cards, 8 if layout == "apart" else 4) + 1))
    else:
        n_apart = 0
    n_group = (
        int(rng.integers(1, min(spec.max_cards - n_apart, 14) + 1))
        if layout in ("fan", "pile", "mixed")
        else 0
    )
    if layout == "pile":
        n_group = max(n_group, min(3, spec.max_cards))
    cards = _draw_cards(rng, spec, style.game, n_apart + n_group) if layout != "empty" else []
    if spec.cards is not None:  # the caller's cards, all of them
        n_apart = len(cards) if layout == "apart" else min(n_apart, len(cards) // 2)
        n_group = len(cards) - n_apart
    if layout == "rows":
        items = _place_rows(rng, style, camera, cards, spec.row_length, (spec.width, spec.height))
    if layout in ("fan", "mixed") and n_group:
        width = short * rng.uniform(0.18, 0.32)
        items = _place_fan(rng, style, camera, cards[:n_group], width)
    if layout == "pile":
        width = short * rng.uniform(0.18, 0.3)
        items = _place_pile(rng, style, camera, cards[:n_group], width)
    if layout in ("apart", "mixed"):
        width = short * rng.uniform(0.15, 0.3)
        items += _place_apart(rng, style, camera, list(cards[n_group:]), width, items)

    # Card backs among the cards; chips, coins and papers under them; perhaps a hand on top.
    backs: list[_Item] = []
    if layout != "rows" and rng.random() < spec.distractors:
        width = short * rng.uniform(0.15, 0.3)
        backs = _place_apart(rng, style, camera, [None] * int(rng.integers(1, 3)), width, items, tries=20)
    all_items = items + backs
    if backs and rng.random() < 0.5:
        all_items = backs + items
    hand: list[np.ndarray] = []
    if layout != "rows" and rng.random() < spec.distractors * 0.5:
        hand = hand_polygons(rng, tuple(_random_point(rng, camera)), short * rng.uniform(0.12, 0.22) * zoom)

    # Drop cards whose indices are all hidden: nobody could read them, so they are not truth.
    while True:
        fractions, index_fractions = _visibility(all_items, hand, (table_w, table_h))
        hidden = [
            k
            for k, item in enumerate(all_items)
            if item.card is not None
            and layout != "rows"
            and max(index_fractions[k], default=0) < INDEX_VISIBLE
        ]
        if not hidden:
            break
        all_items = [item for k, item in enumerate(all_items) if k not in hidden]

    canvas = render_background(rng, table_w, table_h, spec.background)
    if layout != "rows" and rng.random() < 0.2:
        _table_edge(rng, canvas, camera, all_items)
    if layout != "rows" and rng.random() < spec.distractors:
        for _ in range(int(rng.integers(1, 5))):
            kind = rng.random()
            where = tuple(_random_point(rng, camera))
            if kind < 0.45:
                draw_chip(rng, canvas, where, short * rng.uniform(0.025, 0.05) * zoom)
            elif kind < 0.8:
                draw_coin(rng, canvas, where, short * rng.uniform(0.02, 0.04) * zoom)
            else:
                draw_paper(rng, canvas, where, short * rng.uniform(0.2, 0.35) * zoom)
    shadow = float(rng.uniform(25, 90)) if rng.random() < 0.7 * spec.effects else 0.0
    shadow_shift = rng.normal(0, 1, 2)
    shadow_shift = shadow_shift / (np.linalg.norm(shadow_shift) + 1e-9)
    back_image: np.ndarray | None = None
    back_mask: np.ndarray | None = None
    for item in all_items:
        shift = shadow_shift * item.width * rng.uniform(0.01, 0.03)
        if item.card is not None:
            face = render_card_face(style, item.card, round(item.width))
            _composite(canvas, face.image, face.mask, item.affine(), shadow, shift)
        else:
            if back_image is None or back_image.shape[1] != round(item.width):
                back_image, back_mask = render_back(
                    rng, round(item.width), round(item.height), style.corner_radius * item.width
                )
            assert back_mask is not None
            _composite(canvas, back_image, back_mask, item.affine(), shadow, shift)
    if hand:
        draw_hand(rng, canvas, hand)

    if zoom > 1.4:  # the far side of the table is shrunk: soften it first so it does not alias
        canvas = cv2.GaussianBlur(canvas, (0, 0), 0.4 * (zoom - 1))
    image = cv2.warpPerspective(
        canvas,
        camera.homography,
        (spec.width, spec.height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )
    image = apply_effects(rng, image, spec.effects)
    if spec.jpeg_quality is not None:
        image = jpeg_round_trip(image, spec.jpeg_quality)

    labels = []
    for k, item in enumerate(all_items):
        if item.card is None:
            continue
        corners = _project(camera.homography, item.outline())
        affine = item.affine()
        index_corners = [
            _project(camera.homography, _apply_affine(affine, box)).round(1).tolist()
            for box, share in zip(item.index_boxes, index_fractions[k], strict=True)
            if share >= INDEX_VISIBLE
        ]
        labels.append(
            CardLabel(item.card, corners.round(1).tolist(), round(fractions[k], 3), style.id, index_corners)
        )
    return image, labels


def jpeg_round_trip(image: np.ndarray, quality: int) -> np.ndarray:
    """The image after saving as JPEG at ``quality`` and reading back (its artefacts)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("could not encode the scene as JPEG")
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert decoded is not None
    return np.asarray(decoded, np.uint8)


def apply_effects(rng: np.random.Generator, image: np.ndarray, strength: float) -> np.ndarray:
    """Uneven light, vignetting, a cast shadow, glare, a colour cast, blur and sensor noise,
    each at a random amount up to ``strength`` (0 = none). (H, W, 3) uint8 in and out."""
    if strength <= 0:
        return image
    h, w = image.shape[:2]
    # Light fields vary slowly: build them small and scale up.
    sh, sw = max(4, h // 16), max(4, w // 16)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs, ys = xs / (sw - 1) * 2 - 1, ys / (sh - 1) * 2 - 1
    gx, gy = rng.normal(0, 1, 2)
    gain = 1 + strength * rng.uniform(0, 0.22) * (gx * xs + gy * ys) / math.hypot(gx, gy)
    gain -= strength * rng.uniform(0, 0.3) * (xs * xs + ys * ys) / 2
    gain *= rng.uniform(1 - 0.3 * strength, 1 + 0.1 * strength)  # exposure: dim rooms, bright lamps
    if rng.random() < 0.4 * strength:  # a cast shadow (a head, a phone, a lamp arm)
        shade = np.zeros((sh, sw), np.float32)
        points = np.array(
            [[rng.uniform(-0.2, 1.2) * sw, rng.uniform(-0.2, 1.2) * sh] for _ in range(4)], np.int32
        )
        cv2.fillConvexPoly(shade, cv2.convexHull(points), 1.0)
        shade = cv2.GaussianBlur(shade, (0, 0), max(1.0, sw / 30))
        gain *= 1 - shade * rng.uniform(0.15, 0.45)
    glare = np.zeros((sh, sw), np.float32)
    if rng.random() < 0.4 * strength:
        for _ in range(int(rng.integers(1, 3))):
            cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
            radius = rng.uniform(0.03, 0.12) * max(sw, sh)
            glare += rng.uniform(0.3, 0.85) * np.exp(
                -((xs * (sw - 1) / 2 + (sw - 1) / 2 - cx) ** 2 + (ys * (sh - 1) / 2 + (sh - 1) / 2 - cy) ** 2)
                / radius**2
            )
    # Everything light does is out = image * scale + lift, with both fields smooth: combine
    # them small, scale them up once, and let OpenCV saturate to 0..255.
    cast = 1 + rng.normal(0, 0.05 * strength, 3).astype(np.float32)
    glare = np.clip(glare, 0, 1)[..., None]
    scale_small = (gain[..., None] * cast * (1 - glare)).astype(np.float32)
    scale_full = cv2.resize(scale_small, (w, h), interpolation=cv2.INTER_LINEAR)
    lit = cv2.multiply(image.astype(np.float32), scale_full)
    if glare.max() > 0.01:
        lift = cv2.resize(
            np.repeat(255 * glare, 3, axis=2).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR
        )
        lit = cv2.add(lit, lift)
    result = cv2.convertScaleAbs(lit)  # all values are >= 0 here
    resolution = math.sqrt(w * h / 2e6)  # blur and noise scale with the photo's resolution
    if rng.random() < 0.5 * strength:
        if rng.random() < 0.6:
            result = cv2.GaussianBlur(result, (0, 0), float(rng.uniform(0.4, 1.6)) * max(0.5, resolution))
        else:
            length = max(3, int(rng.uniform(3, 10) * max(0.5, resolution)))
            kernel = np.zeros((length, length), np.float32)
            angle = rng.uniform(0, math.pi)
            c, s = math.cos(angle) * (length - 1) / 2, math.sin(angle) * (length - 1) / 2
            mid = (length - 1) / 2
            cv2.line(kernel, (round(mid - c), round(mid - s)), (round(mid + c), round(mid + s)), 1.0, 1)
            result = cv2.filter2D(result, -1, kernel / kernel.sum())
    sigma = float(rng.uniform(0.5, 5.0) * strength)
    if sigma > 0.8:
        noise = rng.standard_normal((h, w, 1), dtype=np.float32) * sigma
        colour_noise = rng.standard_normal((h // 2 + 1, w // 2 + 1, 3), dtype=np.float32) * (sigma * 0.4)
        speckle = cv2.add(
            cv2.resize(colour_noise, (w, h), interpolation=cv2.INTER_NEAREST), np.repeat(noise, 3, 2)
        )
        result = cv2.add(result, speckle, dtype=cv2.CV_8U)  # saturating
    return np.asarray(result, np.uint8)
