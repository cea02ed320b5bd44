"""Deck styles: the look of one printed deck, drawn at random from a seed.

A style belongs to a FAMILY (a design tradition with its own fonts, palettes, layouts and
art). Families are split into those used while developing and training the scanner and
those HELD OUT, so that evaluation can measure how the scanner does on decks whose look it
has never seen.

>>> style = DeckStyle.from_seed(7, family="lantern")
>>> style.family, style.game, style.held_out, style.id
('lantern', 'tichu', False, 'lantern-0007')
>>> style == DeckStyle.from_seed(7, family="lantern")
True
>>> sorted({f.game for f in FAMILIES.values()})
['standard', 'tichu']
>>> any(f.held_out for f in FAMILIES.values()) and not all(f.held_out for f in FAMILIES.values())
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.synth.symbols import symbol_variant_count
from vision.synth.text import HERSHEY_FACES, FontSpec, is_held_out_font, truetype_fonts

BGR = tuple[int, int, int]

# Suits in the order DeckStyle.suit_colours lists them, as Suit values.
TICHU_SUIT_VALUES: tuple[str, ...] = ("j", "s", "p", "t")
STANDARD_SUIT_VALUES: tuple[str, ...] = ("c", "d", "h", "S")


@dataclass(frozen=True)
class Family:
    """A design tradition. Font tags: "sans", "serif", "mono", "condensed", "script",
    "hershey" (any Hershey face), "hershey_plain" (the upright non-script Hershey faces)."""

    name: str
    game: str
    held_out: bool
    fonts: tuple[str, ...]
    italic_chance: float
    bold_chance: float
    index_size: tuple[float, float]  # rank glyph height / card width
    papers: tuple[BGR, ...]
    borders: tuple[str, ...]  # "none", "line", "frame"
    corner_radius: tuple[float, float]  # / card width
    palette: str
    rank_in_suit_colour: float  # chance that rank text takes the suit colour
    art: tuple[str, ...]  # "pips", "illustration", "framed"
    top_right_chance: float
    special_marks: tuple[str, ...]  # "none", "letter", "symbol"


_WHITE: BGR = (250, 250, 250)
_CREAM: BGR = (215, 240, 250)
_IVORY: BGR = (225, 245, 248)
_GREYISH: BGR = (225, 228, 228)
_WARM: BGR = (200, 228, 242)

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        # Tichu, used in development
        Family(
            "jade_temple",
            "tichu",
            False,
            ("serif", "hershey_plain"),
            0.1,
            0.5,
            (0.11, 0.16),
            (_CREAM, _IVORY),
            ("frame", "line"),
            (0.03, 0.07),
            "classic",
            0.8,
            ("illustration", "framed"),
            0.1,
            ("symbol", "letter"),
        ),
        Family(
            "lantern",
            "tichu",
            False,
            ("sans", "hershey_plain"),
            0.0,
            0.6,
            (0.1, 0.15),
            (_WHITE, _IVORY),
            ("line", "none"),
            (0.04, 0.08),
            "bright",
            0.3,
            ("illustration",),
            0.0,
            ("letter", "none"),
        ),
        Family(
            "ink_wash",
            "tichu",
            False,
            ("hershey", "mono"),
            0.3,
            0.4,
            (0.09, 0.14),
            (_IVORY, _GREYISH, _WARM),
            ("none", "line"),
            (0.02, 0.06),
            "muted",
            0.5,
            ("illustration", "pips"),
            0.2,
            ("symbol", "none"),
        ),
        # Tichu, never seen in development
        Family(
            "neon_court",
            "tichu",
            True,
            ("sans", "condensed"),
            0.1,
            0.9,
            (0.13, 0.2),
            (_WHITE,),
            ("frame",),
            (0.05, 0.09),
            "saturated",
            0.9,
            ("framed",),
            0.5,
            ("letter", "symbol"),
        ),
        Family(
            "scroll",
            "tichu",
            True,
            ("serif", "script", "hershey"),
            0.6,
            0.3,
            (0.1, 0.15),
            (_CREAM, _WARM, _GREYISH),
            ("line", "frame"),
            (0.01, 0.05),
            "earthy",
            0.2,
            ("illustration", "pips"),
            0.3,
            ("letter", "none", "symbol"),
        ),
        Family(
            "mountain",
            "tichu",
            True,
            ("condensed", "sans", "serif"),
            0.2,
            0.5,
            (0.12, 0.17),
            (_IVORY, _WHITE),
            ("frame", "none"),
            (0.04, 0.07),
            "cool",
            0.6,
            ("illustration",),
            0.0,
            ("symbol",),
        ),
        # standard decks, used in development
        Family(
            "casino",
            "standard",
            False,
            ("serif", "hershey_plain"),
            0.0,
            0.6,
            (0.1, 0.15),
            (_WHITE, _IVORY),
            ("none", "line"),
            (0.04, 0.08),
            "red_black",
            1.0,
            ("pips",),
            0.0,
            ("none",),
        ),
        Family(
            "bridge_four",
            "standard",
            False,
            ("sans", "hershey_plain"),
            0.0,
            0.5,
            (0.12, 0.17),
            (_WHITE,),
            ("none", "line"),
            (0.04, 0.07),
            "four_colour",
            1.0,
            ("pips",),
            0.3,
            ("none",),
        ),
        # standard decks, never seen in development
        Family(
            "jumbo",
            "standard",
            True,
            ("sans", "condensed", "hershey"),
            0.1,
            0.9,
            (0.16, 0.2),
            (_WHITE, _GREYISH),
            ("none", "line"),
            (0.04, 0.08),
            "red_black",
            1.0,
            ("pips", "framed"),
            0.5,
            ("none",),
        ),
        Family(
            "vintage",
            "standard",
            True,
            ("serif", "script", "mono"),
            0.5,
            0.3,
            (0.08, 0.13),
            (_CREAM, _WARM),
            ("line", "frame"),
            (0.02, 0.06),
            "mixed_standard",
            1.0,
            ("pips", "framed"),
            0.2,
            ("none",),
        ),
    )
}


def families(game: str | None = None, held_out: bool | None = None) -> tuple[str, ...]:
    """Family names, filtered by game and by held-out status.

    >>> families("standard", held_out=False)
    ('casino', 'bridge_four')
    """
    return tuple(
        f.name
        for f in FAMILIES.values()
        if (game is None or f.game == game) and (held_out is None or f.held_out == held_out)
    )


@dataclass(frozen=True)
class DeckStyle:
    """Everything that decides how a deck's cards look. Lengths are fractions of the card
    width; colours are BGR. ``suit_colours`` follows TICHU_SUIT_VALUES or
    STANDARD_SUIT_VALUES."""

    id: str
    family: str
    game: str
    held_out: bool
    aspect: float  # width / height, 0.62..0.72
    paper: BGR
    paper_texture: float  # amplitude of paper grain, grey levels
    border: str
    border_colour: BGR
    border_width: float
    corner_radius: float
    font: FontSpec
    index_height: float  # rank glyph height / card width, 0.08..0.20
    index_stretch: float  # width multiplier of the rank glyphs
    margin_x: float
    margin_y: float
    suit_scale: float  # suit symbol size / rank glyph height
    index_top_right: bool
    suit_colours: tuple[BGR, BGR, BGR, BGR]
    rank_colour: BGR | None  # None: the suit colour
    symbol_variants: tuple[int, int, int, int]
    art: str
    special_mark: str
    art_seed: int
    special_word: bool = False  # the special cards' names printed under their art

    @classmethod
    def from_seed(
        cls, seed: int, family: str | None = None, game: str | None = None, held_out: bool | None = None
    ) -> DeckStyle:
        """Draw a style; ``family`` fixes the family, else it is drawn among those matching
        ``game`` and ``held_out``."""
        rng = np.random.default_rng([seed, 0x5EED])
        if family is None:
            candidates = families(game, held_out)
            if not candidates:
                raise ValueError(f"no deck family for game={game!r} held_out={held_out!r}")
            family = candidates[int(rng.integers(len(candidates)))]
        if family not in FAMILIES:
            raise ValueError(f"unknown deck family {family!r}; known: {', '.join(FAMILIES)}")
        return _draw_style(rng, FAMILIES[family], seed)

    @property
    def suit_values(self) -> tuple[str, ...]:
        return TICHU_SUIT_VALUES if self.game == "tichu" else STANDARD_SUIT_VALUES


def random_style(
    rng: np.random.Generator, game: str = "tichu", family_names: tuple[str, ...] | None = None
) -> DeckStyle:
    """A style of ``game`` from one of ``family_names`` (default: all of the game's families)."""
    names = family_names if family_names else families(game)
    family = names[int(rng.integers(len(names)))]
    return DeckStyle.from_seed(int(rng.integers(1 << 16)), family=family)


# --- drawing a style ------------------------------------------------------------------------


def _jitter(rng: np.random.Generator, colour: BGR, amount: int) -> BGR:
    values = np.clip(np.asarray(colour) + rng.integers(-amount, amount + 1, 3), 0, 255)
    return (int(values[0]), int(values[1]), int(values[2]))


def _pick(rng: np.random.Generator, options: tuple[BGR, ...] | list[BGR]) -> BGR:
    return options[int(rng.integers(len(options)))]


# Per-suit colour choices of Tichu editions (BGR), per palette: jade, sword, pagoda, star.
_TICHU_PALETTES: dict[str, tuple[list[BGR], list[BGR], list[BGR], list[BGR]]] = {
    "classic": (
        [(60, 140, 20), (80, 150, 50)],
        [(30, 30, 30), (60, 40, 20)],
        [(160, 70, 20), (170, 60, 60)],
        [(30, 40, 200), (20, 90, 220)],
    ),
    "bright": (
        [(80, 190, 40), (100, 170, 0)],
        [(20, 20, 20), (90, 50, 30)],
        [(220, 110, 30), (200, 60, 120)],
        [(20, 30, 230), (0, 120, 250)],
    ),
    "muted": (
        [(90, 120, 70), (70, 110, 60)],
        [(70, 70, 70), (90, 80, 70)],
        [(130, 90, 60), (120, 80, 100)],
        [(60, 70, 160), (60, 100, 180)],
    ),
    "saturated": (
        [(0, 200, 0), (40, 220, 120)],
        [(120, 40, 0), (20, 20, 20)],
        [(255, 80, 80), (230, 40, 160)],
        [(0, 0, 255), (0, 140, 255)],
    ),
    "earthy": (
        [(70, 110, 40), (60, 130, 90)],
        [(50, 45, 40), (110, 90, 70)],
        [(110, 60, 70), (140, 90, 40)],
        [(40, 70, 170), (30, 110, 190)],
    ),
    "cool": (
        [(110, 150, 30), (130, 160, 60)],
        [(80, 40, 20), (60, 60, 60)],
        [(190, 100, 60), (180, 70, 110)],
        [(60, 60, 210), (50, 110, 230)],
    ),
}
_RED: list[BGR] = [(30, 30, 200), (20, 20, 180), (40, 30, 220), (40, 40, 160)]
_BLACK: list[BGR] = [(20, 20, 20), (40, 35, 30), (10, 10, 10)]


def _suit_colours(rng: np.random.Generator, family: Family) -> tuple[BGR, BGR, BGR, BGR]:
    palette = family.palette
    if family.game == "tichu":
        choices = _TICHU_PALETTES[palette]
        drawn = [_jitter(rng, _pick(rng, options), 18) for options in choices]
        return (drawn[0], drawn[1], drawn[2], drawn[3])
    if palette == "mixed_standard":
        palette = "four_colour" if rng.random() < 0.4 else "red_black"
    red, black = _jitter(rng, _pick(rng, _RED), 10), _jitter(rng, _pick(rng, _BLACK), 8)
    if palette == "four_colour":
        green = _jitter(rng, _pick(rng, [(40, 130, 20), (30, 110, 0)]), 15)
        blue_or_orange = _jitter(rng, _pick(rng, [(170, 70, 10), (20, 110, 230)]), 15)
        return (green, blue_or_orange, red, black)
    return (black, red, red, black)


def _font(rng: np.random.Generator, family: Family) -> FontSpec:
    italic = bool(rng.random() < family.italic_chance)
    bold = bool(rng.random() < family.bold_chance)
    tag = family.fonts[int(rng.integers(len(family.fonts)))]
    ttf = truetype_fonts()
    if tag not in ("hershey", "hershey_plain") and ttf:
        keywords = {
            "sans": ("sans",),
            "serif": ("serif",),
            "mono": ("mono",),
            "condensed": ("condensed", "narrow"),
            "script": ("italic", "oblique"),
        }[tag]
        pool = [p for p in ttf if any(k in p.lower() for k in keywords)]
        # Fonts reserved for held-out decks never appear in development decks.
        if family.held_out:
            # A tag the reserved fonts lack (condensed) takes any reserved font, never one
            # the reader trains on; a machine without reserved fonts letters in its own.
            reserved = [p for p in ttf if is_held_out_font(p)]
            pool = [p for p in pool if is_held_out_font(p)] or reserved or pool
        else:
            pool = [p for p in pool if not is_held_out_font(p)]
        styled = [
            p
            for p in pool
            if (("bold" in p.lower()) == bold)
            and (("italic" in p.lower() or "oblique" in p.lower()) == (italic or tag == "script"))
        ]
        pool = styled or pool
        if pool:
            return FontSpec("ttf", path=pool[int(rng.integers(len(pool)))])
    if tag == "script":
        faces: tuple[int, ...] = HERSHEY_FACES[6:]
    elif tag == "hershey_plain":
        faces = HERSHEY_FACES[:6]
    else:
        faces = HERSHEY_FACES
    weight = float(rng.uniform(0.13, 0.2) if bold else rng.uniform(0.06, 0.12))
    return FontSpec(
        "hershey", face=faces[int(rng.integers(len(faces)))], italic=italic, weight=round(weight, 3)
    )


def _draw_style(rng: np.random.Generator, family: Family, seed: int) -> DeckStyle:
    suit_values = TICHU_SUIT_VALUES if family.game == "tichu" else STANDARD_SUIT_VALUES
    suit_colours = _suit_colours(rng, family)
    paper = _jitter(rng, _pick(rng, family.papers), 8)
    border = family.borders[int(rng.integers(len(family.borders)))]
    border_colour = (
        suit_colours[int(rng.integers(4))]
        if rng.random() < 0.5
        else _jitter(rng, _pick(rng, [(40, 40, 40), (30, 120, 180), (120, 60, 20), (60, 60, 150)]), 20)
    )
    in_suit_colour = bool(rng.random() < family.rank_in_suit_colour)
    rank_colour = None if in_suit_colour else _jitter(rng, _pick(rng, _BLACK), 10)
    return DeckStyle(
        id=f"{family.name}-{seed % 10000:04d}",
        family=family.name,
        game=family.game,
        held_out=family.held_out,
        aspect=round(float(rng.uniform(0.62, 0.72)), 4),
        paper=paper,
        paper_texture=round(float(rng.uniform(0.0, 6.0)), 2),
        border=border,
        border_colour=border_colour,
        border_width=round(
            float(rng.uniform(0.006, 0.015) if border == "line" else rng.uniform(0.02, 0.05)), 4
        ),
        corner_radius=round(float(rng.uniform(*family.corner_radius)), 4),
        font=_font(rng, family),
        index_height=round(float(rng.uniform(*family.index_size)), 4),
        index_stretch=round(float(rng.uniform(0.8, 1.2)), 3),
        margin_x=round(float(rng.uniform(0.035, 0.07)), 4),
        margin_y=round(float(rng.uniform(0.035, 0.07)), 4),
        suit_scale=round(float(rng.uniform(0.6, 0.95)), 3),
        index_top_right=bool(rng.random() < family.top_right_chance),
        suit_colours=suit_colours,
        rank_colour=rank_colour,
        symbol_variants=tuple(int(rng.integers(symbol_variant_count(s))) for s in suit_values),  # type: ignore[arg-type]
        art=family.art[int(rng.integers(len(family.art)))],
        special_mark=family.special_marks[int(rng.integers(len(family.special_marks)))],
        art_seed=int(rng.integers(1 << 30)),
        special_word=bool(rng.random() < 0.5),
    )
