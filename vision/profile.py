"""Deck profiles: what the scanner knows about one physical deck, and how it learns it.

A profile holds *exemplars*: feature vectors of the deck's own index glyphs (ranks and
suit symbols, labelled), which sharpen the generic glyph model by nearest-neighbour
evidence (and the corner marks some decks print on Dog, Phoenix and Dragon, labelled with
the card's name, which find those cards in fans), and *templates*: small grey pictures of
whole card faces, which recognise lone cards whose index cannot be read (Dragon, Phoenix,
Dog, jokers).  ``builtin_profile(game)`` is the empty profile: the generic model alone.
``calibrate`` learns a profile from photos of the deck's cards laid out face up in rows,
in reading order.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import TICHU_SPECIALS, Card, Deck
from companion.errors import TrickmateError
from vision.features import FEATURE_LENGTH
from vision.words import PATCH_HEIGHT, NameWord

GAMES = ("tichu", "standard")
#: Size (width, height) of whole-card templates.
TEMPLATE_SIZE = (24, 36)
PROFILE_VERSION = 2
#: Photos vary more than calibration shots: exemplar distances are judged this leniently.
SPREAD_TOLERANCE = 2.5
#: The cards a name word may be learnt for: the Tichu specials (:mod:`vision.words`).
NAMED_CARDS = frozenset(special.value for special in TICHU_SPECIALS)
#: Colour names (:func:`vision.read.ink_colour`) in a player's words.
COLOUR_WORDS = {"neutral": "black", "red": "red", "green": "green", "blue": "blue"}


class CalibrationError(TrickmateError):
    """Calibration photos that do not match their card lists (the message names the photo)."""


class ProfileError(TrickmateError):
    """A deck profile file that cannot be read."""


def deck_of(game: str) -> Deck:
    if game not in GAMES:
        raise CalibrationError(f"unknown game {game!r}: use one of {', '.join(GAMES)}")
    return Deck.TICHU if game == "tichu" else Deck.STANDARD


def euclidean_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M) distances between the rows of (N, F) ``a`` and (M, F) ``b``.

    >>> euclidean_distances(np.array([[0.0, 0.0], [3.0, 4.0]]), np.array([[0.0, 0.0]])).ravel().tolist()
    [0.0, 5.0]
    """
    d2 = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2.0 * a @ b.T
    return np.asarray(np.sqrt(np.maximum(d2, 0.0)))


@dataclass
class DeckProfile:
    """A deck's exemplar glyphs (``exemplars`` (N, F) float32 with ``labels`` (N,) class
    names) and whole-card ``templates`` (card name -> :func:`card_template`'s (36, 24, 3) float32)."""

    game: str
    exemplars: np.ndarray = field(default_factory=lambda: np.zeros((0, FEATURE_LENGTH), np.float32))
    labels: tuple[str, ...] = ()
    templates: dict[str, np.ndarray] = field(default_factory=dict)
    spread: float = 1.0  # typical distance between exemplars of one class
    name: str = "builtin"
    #: suit class name, or a special card's name for its corner mark -> the colour name
    #: (:func:`vision.read.ink_colour`) it was printed in on the calibration photos; those
    #: whose colour was unclear are left out.
    colours: dict[str, str] = field(default_factory=dict)
    #: How many corners of an indexed card print an index, as calibration read them (the
    #: median over its cards: 2, or 3 and 4 for decks printing more); 0 where not known.
    indices: int = 0
    #: Special card name -> the name word the deck prints on it (:mod:`vision.words`), for
    #: the specials calibration found one on.
    words: dict[str, NameWord] = field(default_factory=dict)

    def colour_suits(self) -> dict[str, tuple[str, ...]]:
        """Colour name -> the suits printed in it (empty unless every suit's colour was learnt).

        >>> DeckProfile("tichu", colours={"jade": "green", "sword": "neutral",
        ...     "pagoda": "neutral", "star": "red"}).colour_suits()["neutral"]
        ('sword', 'pagoda')
        >>> DeckProfile("tichu", colours={"jade": "green"}).colour_suits()
        {}
        """
        from vision.read import GAME_SUITS

        suits = GAME_SUITS[self.game]
        if any(suit not in self.colours for suit in suits):
            return {}
        by_colour: dict[str, tuple[str, ...]] = {}
        for suit in suits:
            colour = self.colours[suit]
            by_colour[colour] = (*by_colour.get(colour, ()), suit)
        return by_colour

    def suit_colour_words(self) -> dict[str, str]:
        """The learnt colours of the deck's suits, in the deck's suit order, in a player's words.

        >>> DeckProfile("standard", colours={"spades": "neutral", "hearts": "red"}).suit_colour_words()
        {'hearts': 'red', 'spades': 'black'}
        """
        from vision.read import GAME_SUITS

        return {
            suit: COLOUR_WORDS[self.colours[suit]]
            for suit in GAME_SUITS[self.game]
            if self.colours.get(suit) in COLOUR_WORDS
        }

    def colour_summary(self) -> str:
        """The learnt suit colours in a player's words ("" when none were learnt).

        >>> DeckProfile("standard", colours={"hearts": "red", "spades": "neutral"}).colour_summary()
        'hearts red, spades black'
        """
        return ", ".join(f"{suit} {word}" for suit, word in self.suit_colour_words().items())

    def blend(self, features: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
        """Sharpen (N, C) model ``probabilities`` of (N, F) ``features`` with the exemplars."""
        from vision.read import CLASS_INDEX

        if self.exemplars.shape[0] == 0:
            return probabilities
        distance = euclidean_distances(features.astype(np.float32), self.exemplars)
        evidence = np.full(probabilities.shape, 0.03, np.float32)
        # Special cards' corner marks are read by :func:`vision.read.read_marks`, not here.
        label_index = np.array([CLASS_INDEX.get(label, -1) for label in self.labels])
        for column in np.unique(label_index[label_index >= 0]):
            nearest = distance[:, label_index == column].min(axis=1)
            evidence[:, column] = np.exp(-0.5 * (nearest / (SPREAD_TOLERANCE * self.spread)) ** 2)
        # "other": as likely as a class whose nearest exemplar lies 2.5 spreads away.
        evidence[:, CLASS_INDEX["other"]] = np.exp(-0.5 * 2.5**2)
        combined = np.power(probabilities + 1e-4, 0.6) * (evidence + 0.02)
        return np.asarray(combined / combined.sum(axis=1, keepdims=True), dtype=np.float32)

    def match_template(self, template: np.ndarray) -> tuple[str | None, float, float]:
        """The best-matching card name for a :func:`card_template`, its correlation, and how
        far ahead it is of the best other card's."""
        names = list(self.templates)
        if not names:
            return None, -1.0, 0.0
        stored = np.stack([self.templates[n] for n in names]).reshape(len(names), -1)
        turned = template[::-1, ::-1]
        scores = np.maximum(stored @ template.reshape(-1), stored @ turned.reshape(-1))
        order = np.argsort(-scores)
        lead = float(scores[order[0]] - scores[order[1]]) if len(names) > 1 else float(scores[order[0]])
        return names[int(order[0])], float(scores[order[0]]), lead

    def save(self, path: str | Path) -> None:
        """Write the profile as one small .npz file."""
        names = sorted(self.templates)
        meta = {
            "version": PROFILE_VERSION,
            "game": self.game,
            "labels": list(self.labels),
            "template_names": names,
            "spread": self.spread,
            "name": self.name,
            "colours": self.colours,
            "indices": self.indices,
            "words": {
                name: {
                    "aspect": w.aspect,
                    "along": w.along,
                    "down": w.down,
                    "height": w.height,
                    "width": w.width,
                }
                for name, w in sorted(self.words.items())
            },
        }
        empty = np.zeros((0, TEMPLATE_SIZE[1], TEMPLATE_SIZE[0], 3), np.float32)
        stack = np.stack([self.templates[n] for n in names]) if names else empty
        arrays: dict[str, Any] = {
            "meta": np.array(json.dumps(meta)),
            "exemplars": self.exemplars.astype(np.float32),
            "templates": stack,
        }
        arrays.update({f"word_{name}": word.patch for name, word in self.words.items()})
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        Path(path).write_bytes(buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> DeckProfile:
        """Read a profile written by :meth:`save`; raise :class:`ProfileError` if it is not one."""
        try:
            data = Path(path).read_bytes()
            with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                meta = json.loads(str(arrays["meta"]))
                exemplars = arrays["exemplars"].astype(np.float32)
                stack = arrays["templates"].astype(np.float32)
                # (Profiles written before name words were learnt have none.)
                words = {
                    str(name): NameWord(
                        arrays[f"word_{name}"].astype(np.float32),
                        *(float(shape[key]) for key in ("aspect", "along", "down", "height", "width")),
                    )
                    for name, shape in meta.get("words", {}).items()
                }
        except FileNotFoundError:
            raise ProfileError(f"{path}: no such deck profile") from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError, json.JSONDecodeError) as error:
            raise ProfileError(
                f"{path}: not a deck profile made by 'trickmate calibrate' ({error})"
            ) from None
        if (
            not isinstance(meta, dict)
            or meta.get("version") != PROFILE_VERSION
            or meta.get("game") not in GAMES
        ):
            raise ProfileError(f"{path}: not a deck profile made by this version of 'trickmate calibrate'")
        # Profiles written before marks had colours named the same mapping "suit_colours".
        colours = meta.get("colours", meta.get("suit_colours", {}))
        if (
            exemplars.ndim != 2
            or exemplars.shape[1] != FEATURE_LENGTH
            or len(meta["labels"]) != len(exemplars)
            or stack.shape[1:] != (TEMPLATE_SIZE[1], TEMPLATE_SIZE[0], 3)
            or len(meta["template_names"]) != len(stack)
            or not isinstance(colours, dict)
            or not isinstance(meta.get("indices", 0), int)
            or not set(words) <= NAMED_CARDS
            or any(w.patch.ndim != 2 or w.patch.shape[0] != PATCH_HEIGHT for w in words.values())
        ):
            raise ProfileError(f"{path}: the deck profile is damaged")
        return cls(
            game=str(meta["game"]),
            exemplars=exemplars,
            labels=tuple(str(label) for label in meta["labels"]),
            templates={str(n): stack[i] for i, n in enumerate(meta["template_names"])},
            spread=float(meta["spread"]),
            name=str(meta.get("name", Path(path).stem)),
            colours={str(k): str(v) for k, v in colours.items()},
            # (Profiles written before calibration counted indices: not known.)
            indices=int(meta.get("indices", 0)),
            words=words,
        )


def builtin_profile(game: str) -> DeckProfile:
    """The profile used without calibration: the generic glyph model alone.

    >>> builtin_profile("standard").game
    'standard'
    """
    deck_of(game)
    return DeckProfile(game=game)


def card_template(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """(36, 24, 3) float32 unit-norm colour picture of the card outlined by ``quad``.

    ``image``: BGR (H, W, 3) uint8; ``quad``: (4, 2) corners in order around the card
    (either direction, any start).  The long side is made vertical and the corners are
    taken clockwise, so a card matches itself or itself turned half round.  The channels
    are CIE Lab lightness and colour, each of zero mean; colour weighs more than in the
    photo because card art differs most in colour (a red Phoenix, a brown Dog).

    >>> image = np.full((100, 100, 3), 230, np.uint8); image[30:70, 40:60] = (40, 40, 200)
    >>> quad = np.array([[30, 20], [70, 20], [70, 80], [30, 80]], np.float32)
    >>> template = card_template(image, quad)
    >>> template.shape, round(float(np.linalg.norm(template)), 3)
    ((36, 24, 3), 1.0)
    >>> round(float((template * card_template(image, quad[::-1])).sum()), 3)
    1.0
    """
    return card_templates(image, quad, (False,))[0]


def card_templates(image: np.ndarray, quad: np.ndarray, ways: tuple[bool, ...]) -> list[np.ndarray]:
    """:func:`card_template` of the card outlined by ``quad`` taken each of ``ways``: False
    with the outline's long side made vertical, True with its short side (a card lying
    lengthwise along a steep view, squeezed shorter than it is wide); the blur is made once
    for all.

    >>> image = np.full((100, 100, 3), 230, np.uint8); image[30:70, 40:60] = (40, 40, 200)
    >>> quad = np.array([[30, 20], [70, 20], [70, 80], [30, 80]], np.float32)
    >>> upright, across = card_templates(image, quad, (False, True))
    >>> bool((upright == card_template(image, quad)).all()), upright.shape == across.shape
    (True, True)
    >>> round(float((upright * across).sum()), 3) < 0.9  # the bar stands upright in one only
    True
    """
    quad = np.asarray(quad, np.float32)
    # Clockwise on screen (x right, y down): a positive shoelace sum.
    x, y = quad[:, 0], quad[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) < 0:
        quad = quad[::-1].copy()
    side01 = float(np.linalg.norm(quad[1] - quad[0]))
    side12 = float(np.linalg.norm(quad[2] - quad[1]))
    width, height = TEMPLATE_SIZE
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    # Average over the card: blur before sampling so small misalignments matter less.  Only
    # the window the card and the blur's reach cover is blurred (a whole photo took 4 ms).
    scale = max(side01, side12) / height
    source, origin = image, np.zeros(2, np.float32)
    if scale > 1.5:
        source, origin = _blurred_around(image, quad, max(0.5, scale * 0.6))
    templates = []
    for across in ways:
        # The first side made a short one (portrait), or with ``across`` a long one.
        corners = np.roll(quad, -1, axis=0) if (side01 > side12) != across else quad
        matrix = cv2.getPerspectiveTransform(corners - origin, target)
        warped = cv2.warpPerspective(source, matrix, (width, height), flags=cv2.INTER_LINEAR)
        lab = cv2.cvtColor(warped, cv2.COLOR_BGR2LAB).astype(np.float32)
        lab -= lab.reshape(-1, 3).mean(axis=0)
        lab *= np.array([1.0, TEMPLATE_COLOUR_WEIGHT, TEMPLATE_COLOUR_WEIGHT], np.float32)
        norm = float(np.linalg.norm(lab))
        templates.append(lab / norm if norm > 1e-6 else lab)
    return templates


def _blurred_around(image: np.ndarray, quad: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The part of (H, W, 3) ``image`` around (4, 2) ``quad`` (with the blur's reach and a
    pixel for sampling), blurred by a Gaussian of ``sigma``: within the quad's box it is the
    whole image blurred, to the value.  Returns it and its top-left corner, (2,) float32 x, y.

    >>> image = np.zeros((50, 80, 3), np.uint8); image[20:30, 30:40] = 255
    >>> quad = np.array([[30, 20], [40, 20], [40, 30], [30, 30]], np.float32)
    >>> window, origin = _blurred_around(image, quad, 1.0)
    >>> window.shape, origin.tolist()
    ((23, 23, 3), [24.0, 14.0])
    >>> bool((window[6:17, 6:17] == cv2.GaussianBlur(image, (0, 0), 1.0)[20:31, 30:41]).all())
    True
    """
    # (OpenCV's kernel reaches 3 sigmas for 8-bit images, 4 for others.)
    margin = int(np.ceil(4 * sigma)) + 2
    height, width = image.shape[:2]
    x0 = max(0, int(np.floor(quad[:, 0].min())) - margin)
    y0 = max(0, int(np.floor(quad[:, 1].min())) - margin)
    x1 = min(width, int(np.ceil(quad[:, 0].max())) + margin + 1)
    y1 = min(height, int(np.ceil(quad[:, 1].max())) + margin + 1)
    if x0 >= x1 or y0 >= y1:  # a card wholly outside the photo: nothing of it to sample
        x0, y0, x1, y1 = 0, 0, 1, 1
    return cv2.GaussianBlur(image[y0:y1, x0:x1], (0, 0), sigma), np.array([x0, y0], np.float32)


#: How much Lab's colour channels count against lightness in whole-card templates.
TEMPLATE_COLOUR_WEIGHT = 2.0


def reading_rows(centers: np.ndarray, heights: np.ndarray) -> list[list[int]]:
    """Indices of ``centers`` ((N, 2) x, y) of cards ``heights`` (N,) tall, row by row, top
    to bottom, each row left to right.

    A new row starts where a card's centre lies more than half a card height below the row's.

    >>> reading_rows(np.array([[300, 105], [100, 100], [110, 400], [200, 95.0]]), np.full(4, 150.0))
    [[1, 3, 0], [2]]
    """
    order = sorted(range(len(centers)), key=lambda i: float(centers[i][1]))
    rows: list[list[int]] = []
    for i in order:
        if rows and centers[i][1] - np.mean([centers[j][1] for j in rows[-1]]) < 0.5 * float(
            np.median(heights)
        ):
            rows[-1].append(i)
        else:
            rows.append([i])
    return [sorted(row, key=lambda j: float(centers[j][0])) for row in rows]


def sort_reading_order(centers: np.ndarray, heights: np.ndarray) -> list[int]:
    """Indices of ``centers`` ((N, 2) x, y) in reading order (:func:`reading_rows`, joined).

    >>> sort_reading_order(np.array([[300, 105], [100, 100], [110, 400], [200, 95.0]]), np.full(4, 150.0))
    [1, 3, 0, 2]
    """
    return [i for row in reading_rows(centers, heights) for i in row]


def calibrate(
    photos: Sequence[tuple[np.ndarray, Sequence[Card]]], game: str, names: Sequence[str] | None = None
) -> DeckProfile:
    """Learn a deck from photos of its cards laid out face up in rows, in reading order.

    ``photos``: (BGR image, the cards it shows in reading order) pairs.  Raises
    :class:`CalibrationError` naming the photo (``names[i]``, else "photo i+1") when the
    number of cards found differs from its list.
    """
    from vision.scan import learn_photo

    deck_of(game)
    exemplars: list[np.ndarray] = []
    labels: list[str] = []
    sources: list[int] = []  # which card each exemplar came from
    templates: dict[str, list[np.ndarray]] = {}
    colours: dict[str, list[str]] = {}
    indices: list[int] = []  # per indexed card, its corners showing an index
    words: dict[str, NameWord] = {}
    for number, (image, cards) in enumerate(photos):
        name = names[number] if names is not None else f"photo {number + 1}"
        for card in cards:
            if card.deck is not deck_of(game):
                raise CalibrationError(f"{name}: {card} is not a card of the {game} deck")
        learnt = learn_photo(image, list(cards), game)
        if isinstance(learnt, int):
            raise CalibrationError(
                f"{name}: found {learnt} card{'s' if learnt != 1 else ''} but the list names {len(cards)}"
                " (lay the cards apart, face up, on a plain darker table)"
            )
        for item in learnt:
            # A suit's symbols, or a special card's corner marks.
            card = item.card
            printed = card.suit.name.lower() if card.suit is not None else str(card)
            colours.setdefault(printed, []).extend(item.colours)
            exemplars.extend(item.vectors)
            labels.extend(item.labels)
            sources.extend([len(sources) and sources[-1] + 1] * len(item.vectors))
            templates.setdefault(str(card), []).append(item.template)
            if card.rank is not None:
                indices.append(item.indices)
            if item.word is not None:
                words.setdefault(str(card), item.word)
    stacked = (
        np.stack(exemplars).astype(np.float32) if exemplars else np.zeros((0, FEATURE_LENGTH), np.float32)
    )
    merged = {}
    for card_name, items in templates.items():
        mean = np.mean(items, axis=0)
        merged[card_name] = (mean / max(float(np.linalg.norm(mean)), 1e-6)).astype(np.float32)
    return DeckProfile(
        game=game,
        exemplars=stacked,
        labels=tuple(labels),
        templates=merged,
        spread=_spread(stacked, labels, sources),
        name="calibrated",
        colours=_learnt_colours(colours),
        indices=int(np.median(indices)) if indices else 0,
        words=words,
    )


#: A suit's (or a mark's) colour is learnt when at least this share of its symbols measured it.
COLOUR_AGREEMENT = 0.75


def _learnt_colours(measured: dict[str, list[str]]) -> dict[str, str]:
    """Each suit's (or mark's) colour, when its symbols in the calibration photos mostly
    agree on one.

    >>> _learnt_colours({"star": ["red"] * 9 + [""], "sword": ["neutral", "blue", "", "neutral"]})
    {'star': 'red'}
    """
    learnt: dict[str, str] = {}
    for suit, colours in measured.items():
        named = [colour for colour in colours if colour]
        if not named:
            continue
        best = max(set(named), key=named.count)
        if named.count(best) >= COLOUR_AGREEMENT * len(colours):
            learnt[suit] = best
    return learnt


def _spread(exemplars: np.ndarray, labels: Sequence[str], sources: Sequence[int]) -> float:
    """Typical distance from an exemplar to the nearest one of its class on another card
    (the two indices of one card are near twins), or half the nearest other class's."""
    if len(exemplars) < 2:
        return 1.0
    distance = euclidean_distances(exemplars, exemplars)
    card = np.asarray(sources)
    distance[card[:, None] == card[None, :]] = np.inf
    same = np.array(labels)[:, None] == np.array(labels)[None, :]
    own = np.where(same, distance, np.inf).min(axis=1)
    other = np.where(~same, distance, np.inf).min(axis=1)
    values = np.where(np.isfinite(own), own, other / 2)
    values = values[np.isfinite(values)]
    return float(max(np.median(values), 0.3)) if values.size else 1.0
