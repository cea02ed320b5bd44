"""Cards, suits and decks, with the text notation of CONTRACTS section 1.

Cards are immutable values with a text round trip, in the style of python-chess:

>>> card = Card.parse("kj")
>>> card, str(card)
(Card.parse('Kj'), 'Kj')
>>> card.rank, card.suit, card.points
(13, <Suit.JADE: 'j'>, 10)
>>> str(Card.parse("mj")), str(Card.parse("Tp"))
('Mahjong', '10p')
>>> format_cards(parse_cards("Dragon, 5s 1 ph"))
'Mahjong 5s Phoenix Dragon'
>>> format_cards(parse_cards("Kh kh bj RJ", Deck.STANDARD))
'Kh Kh BJ RJ'

The letter ``s`` is Sword in the Tichu deck and Spades in a standard deck, so
parsing always knows which deck it reads (Tichu unless told otherwise).
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from companion.errors import NotationError


class Deck(enum.Enum):
    """The kinds of deck trickmate knows."""

    TICHU = "tichu"
    STANDARD = "standard"


class Suit(enum.Enum):
    """Suits of both decks; the value is the notation letter within its deck."""

    JADE = "j"
    SWORD = "s"
    PAGODA = "p"
    STAR = "t"
    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "S"  # written "s" in a standard deck; the value only has to be unique

    @property
    def letter(self) -> str:
        return self.value.lower()

    @property
    def deck(self) -> Deck:
        return Deck.TICHU if self in TICHU_SUITS else Deck.STANDARD


TICHU_SUITS: tuple[Suit, ...] = (Suit.JADE, Suit.SWORD, Suit.PAGODA, Suit.STAR)
STANDARD_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


class Special(enum.Enum):
    """Cards that have no ordinary rank and suit; the value is the canonical name."""

    MAHJONG = "Mahjong"
    DOG = "Dog"
    PHOENIX = "Phoenix"
    DRAGON = "Dragon"
    SMALL_JOKER = "BJ"  # the black-and-white joker
    BIG_JOKER = "RJ"  # the coloured joker

    @property
    def deck(self) -> Deck:
        return Deck.STANDARD if self in (Special.SMALL_JOKER, Special.BIG_JOKER) else Deck.TICHU


TICHU_SPECIALS: tuple[Special, ...] = (Special.MAHJONG, Special.DOG, Special.PHOENIX, Special.DRAGON)
JOKERS: tuple[Special, ...] = (Special.SMALL_JOKER, Special.BIG_JOKER)

#: Ranks of ordinary cards, low to high (J 11, Q 12, K 13, A 14).
RANKS: tuple[int, ...] = tuple(range(2, 15))
RANK_NAMES: dict[int, str] = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_BY_NAME: dict[str, int] = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}

_SPECIAL_ALIASES: dict[Deck, dict[str, Special]] = {
    Deck.TICHU: {
        "MAHJONG": Special.MAHJONG,
        "MJ": Special.MAHJONG,
        "1": Special.MAHJONG,
        "DOG": Special.DOG,
        "DG": Special.DOG,
        "PHOENIX": Special.PHOENIX,
        "PH": Special.PHOENIX,
        "DRAGON": Special.DRAGON,
        "DR": Special.DRAGON,
    },
    Deck.STANDARD: {"BJ": Special.SMALL_JOKER, "RJ": Special.BIG_JOKER},
}
_SUIT_BY_LETTER: dict[Deck, dict[str, Suit]] = {
    Deck.TICHU: {s.letter: s for s in TICHU_SUITS},
    Deck.STANDARD: {s.letter: s for s in STANDARD_SUITS},
}
_TOKEN_SPLIT = re.compile(r"[\s,]+")

# Where specials sort among the ranks (Dog lowest, Dragon highest; jokers above A).
_SPECIAL_SORT_RANK: dict[Special, float] = {
    Special.DOG: 0,
    Special.MAHJONG: 1,
    Special.PHOENIX: 14.5,
    Special.DRAGON: 15,
    Special.SMALL_JOKER: 16,
    Special.BIG_JOKER: 17,
}
_SUIT_ORDER: dict[Suit, int] = {s: i for i, s in enumerate(Suit)}


def rank_name(rank: int) -> str:
    """Canonical spelling of an ordinary rank.

    >>> rank_name(10), rank_name(14)
    ('10', 'A')
    """
    try:
        return RANK_NAMES[rank]
    except KeyError:
        raise NotationError(str(rank), "rank") from None


def parse_rank(text: str) -> int:
    """Read an ordinary rank ``2``..``10``, ``T``, ``J``, ``Q``, ``K``, ``A`` (any case).

    >>> parse_rank("t"), parse_rank("Q"), parse_rank("7")
    (10, 12, 7)
    >>> parse_rank("1")
    Traceback (most recent call last):
    ...
    companion.errors.NotationError: cannot read rank '1'
    """
    rank = _RANK_BY_NAME.get(text.strip().upper())
    if rank is None:
        raise NotationError(text, "rank")
    return rank


@dataclass(frozen=True, slots=True)
class Card:
    """One card: an ordinary card (``rank`` and ``suit``) or a ``special`` one."""

    rank: int | None = None
    suit: Suit | None = None
    special: Special | None = None

    def __post_init__(self) -> None:
        ordinary = self.rank is not None and self.suit is not None and self.special is None
        special = self.special is not None and self.rank is None and self.suit is None
        if not (ordinary or special):
            raise ValueError(
                "a card is a rank and a suit, or a special card: "
                f"rank={self.rank} suit={self.suit} special={self.special}"
            )
        if self.rank is not None and self.rank not in RANK_NAMES:
            raise ValueError(f"rank out of range: {self.rank}")

    @classmethod
    def parse(cls, token: str, deck: Deck = Deck.TICHU) -> Card:
        """Read one card token of ``deck``; raise :class:`NotationError` naming it."""
        text = token.strip()
        upper = text.upper()
        special = _SPECIAL_ALIASES[deck].get(upper)
        if special is not None:
            return cls(special=special)
        if len(text) >= 2:
            rank = _RANK_BY_NAME.get(upper[:-1])
            suit = _SUIT_BY_LETTER[deck].get(text[-1].lower())
            if rank is not None and suit is not None:
                return cls(rank=rank, suit=suit)
        raise NotationError(token)

    @property
    def deck(self) -> Deck:
        if self.special is not None:
            return self.special.deck
        assert self.suit is not None
        return self.suit.deck

    @property
    def is_special(self) -> bool:
        return self.special is not None

    @property
    def points(self) -> int:
        """Card points: 5 is 5; 10 and K are 10; Dragon 25; Phoenix -25; others 0."""
        if self.special is Special.DRAGON:
            return 25
        if self.special is Special.PHOENIX:
            return -25
        return {5: 5, 10: 10, 13: 10}.get(self.rank or 0, 0)

    @property
    def sort_key(self) -> tuple[float, int]:
        """Low to high by rank, specials where they play, then by suit."""
        if self.special is not None:
            return (_SPECIAL_SORT_RANK[self.special], 0)
        assert self.rank is not None and self.suit is not None
        return (float(self.rank), _SUIT_ORDER[self.suit])

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        if self.special is not None:
            return self.special.value
        assert self.rank is not None and self.suit is not None
        return RANK_NAMES[self.rank] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


# The special cards as constants, for readable rule code.
MAHJONG = Card(special=Special.MAHJONG)
DOG = Card(special=Special.DOG)
PHOENIX = Card(special=Special.PHOENIX)
DRAGON = Card(special=Special.DRAGON)
SMALL_JOKER = Card(special=Special.SMALL_JOKER)
BIG_JOKER = Card(special=Special.BIG_JOKER)


def parse_cards(text: str | Iterable[str], deck: Deck = Deck.TICHU) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas (or an iterable of tokens).

    >>> parse_cards("")
    ()
    >>> parse_cards("5j Zz")
    Traceback (most recent call last):
    ...
    companion.errors.NotationError: cannot read card 'Zz'
    """
    tokens = _TOKEN_SPLIT.split(text.strip()) if isinstance(text, str) else list(text)
    return tuple(Card.parse(token, deck) for token in tokens if token.strip())


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of cards, sorted low to high."""
    return " ".join(str(card) for card in sorted(cards))


def tichu_deck() -> tuple[Card, ...]:
    """The 56-card Tichu deck.

    >>> deck = tichu_deck()
    >>> len(deck), sum(card.points for card in deck)
    (56, 100)
    """
    ordinary = tuple(Card(rank=r, suit=s) for s in TICHU_SUITS for r in RANKS)
    return (*ordinary, MAHJONG, DOG, PHOENIX, DRAGON)


def standard_deck(copies: int = 1, jokers: bool = True) -> tuple[Card, ...]:
    """``copies`` standard decks of 52 cards, each with two jokers when ``jokers``.

    >>> len(standard_deck()), len(standard_deck(2)), sum(c.points for c in standard_deck())
    (54, 108, 100)
    """
    one = tuple(Card(rank=r, suit=s) for s in STANDARD_SUITS for r in RANKS)
    if jokers:
        one += (SMALL_JOKER, BIG_JOKER)
    return one * copies


def card_points(cards: Iterable[Card]) -> int:
    """Total card points.

    >>> card_points(parse_cards("5j 10s Kp Dragon Phoenix 2t"))
    25
    """
    return sum(card.points for card in cards)


def duplicates(cards: Iterable[Card]) -> list[Card]:
    """Cards that appear more than once, each listed once, sorted.

    >>> duplicates(parse_cards("5j 5j 6s"))
    [Card.parse('5j')]
    """
    return sorted(card for card, count in Counter(cards).items() if count > 1)
