"""Tichu combinations: what some cards form, and what beats what.

One typed :class:`Combination`, one :func:`classify`, one :func:`beats` (in the style of
pokerkit and python-chess). Ranks are numbers: Mahjong 1, 2..10, J 11, Q 12, K 13, A 14,
Dragon 15; a Phoenix single is half a rank above the single it is played on.

>>> from companion.cards import parse_cards
>>> def show(text, on=None):
...     combination = classify(parse_cards(text), on)
...     return combination and combination.to_json()
>>> show("5j 5s 5p 9t 9j")
{'kind': 'full_house', 'rank': 5, 'length': 5}
>>> show("3j 3s 4p 4t")
{'kind': 'stairs', 'rank': 4, 'length': 4}
>>> show("Mahjong 2s 3p 4t 5j")
{'kind': 'straight', 'rank': 5, 'length': 5}
>>> show("9s 10s Js Qs Ks")
{'kind': 'bomb', 'rank': 13, 'length': 5}
>>> show("Dog")
{'kind': 'dog', 'length': 1}

The Phoenix stands in for any rank 2..A; :func:`classify` takes the highest reading, or
with ``on`` the highest reading that beats ``on``:

>>> show("3j 4s 5p 6t Phoenix")
{'kind': 'straight', 'rank': 7, 'length': 5}
>>> show("5j 5s 6p 6t Phoenix")
{'kind': 'full_house', 'rank': 6, 'length': 5}
>>> show("Phoenix")
{'kind': 'single', 'rank': 1.5, 'length': 1}
>>> show("Phoenix", classify(parse_cards("8j")))
{'kind': 'single', 'rank': 8.5, 'length': 1}

Four of a kind with the Phoenix is a bomb plus a Phoenix, not a full house (rule book FAQ):

>>> show("7j 7s 7p 7t Phoenix") is None
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.cards import RANK_NAMES, Card, Special


class Kind(enum.Enum):
    """The kinds of Tichu play; the value is the JSON name."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    FULL_HOUSE = "full_house"
    STAIRS = "stairs"
    STRAIGHT = "straight"
    BOMB = "bomb"
    DOG = "dog"
    PASS = "pass"


#: Rank of the Mahjong and the Dragon as singles; the Phoenix led is 1.5.
MAHJONG_RANK = 1
DRAGON_RANK = 15
PHOENIX_LED_RANK = 1.5
#: Ranks the Phoenix may stand for inside a combination, highest first.
PHOENIX_STANDS_FOR: tuple[int, ...] = tuple(range(14, 1, -1))

# Kind of n cards of one rank (the Phoenix never makes a bomb: see classify).
_SAME_RANK_KIND: dict[int, Kind] = {2: Kind.PAIR, 3: Kind.TRIPLE, 4: Kind.BOMB}

_KIND_NAMES: dict[Kind, str] = {
    Kind.SINGLE: "a single",
    Kind.PAIR: "a pair",
    Kind.TRIPLE: "a triple",
    Kind.FULL_HOUSE: "a full house",
    Kind.STAIRS: "stairs",
    Kind.STRAIGHT: "a straight",
    Kind.BOMB: "a bomb",
    Kind.DOG: "the Dog",
    Kind.PASS: "a pass",
}


def rank_text(rank: float) -> str:
    """A rank as players say it.

    >>> rank_text(11), rank_text(1), rank_text(15), rank_text(8.5)
    ('J', 'Mahjong', 'Dragon', '8.5')
    """
    if rank == MAHJONG_RANK:
        return "Mahjong"
    if rank == DRAGON_RANK:
        return "Dragon"
    if rank != int(rank):
        return str(rank)
    return RANK_NAMES[int(rank)]


@dataclass(frozen=True, slots=True)
class Combination:
    """A reading of some cards as one Tichu play.

    ``rank`` decides the combination (CONTRACTS section 2): a single's card, the rank of a
    pair, triple or four of a kind, a full house's triple, the highest pair of stairs, the
    highest card of a straight or straight flush. It is None only for the Dog and a pass.
    """

    kind: Kind
    rank: float | None
    length: int
    cards: tuple[Card, ...] = ()

    @property
    def is_bomb(self) -> bool:
        return self.kind is Kind.BOMB

    @property
    def is_straight_flush(self) -> bool:
        return self.kind is Kind.BOMB and self.length >= 5

    @property
    def is_phoenix_single(self) -> bool:
        return self.kind is Kind.SINGLE and self.cards[0].special is Special.PHOENIX

    def to_json(self) -> dict[str, Any]:
        """The JSON form of CONTRACTS section 2: ``{"kind", "rank", "length"}``.

        >>> PASS.to_json()
        {'kind': 'pass', 'length': 0}
        """
        if self.rank is None:
            return {"kind": self.kind.value, "length": self.length}
        rank = self.rank
        whole = int(rank)
        return {"kind": self.kind.value, "rank": whole if rank == whole else rank, "length": self.length}

    def describe(self) -> str:
        """A short phrase for messages.

        >>> from companion.cards import parse_cards
        >>> classify(parse_cards("9j")).describe(), classify(parse_cards("Qs Qj Qt")).describe()
        ('a single 9', 'a triple of Qs')
        >>> classify(parse_cards("3j 3s 4j 4s 5p 5t")).describe()
        'stairs of 3 pairs up to 5s'
        """
        kind, rank = self.kind, self.rank
        if kind is Kind.PASS or kind is Kind.DOG or rank is None:
            return _KIND_NAMES[kind]
        name = rank_text(rank)
        if kind is Kind.SINGLE:
            special = self.cards[0].special if self.cards else None
            return f"the {special.value}" if special is not None else f"a single {name}"
        if kind is Kind.STAIRS:
            return f"stairs of {self.length // 2} pairs up to {name}s"
        if kind is Kind.STRAIGHT:
            return f"a straight of {self.length} cards up to {name}"
        if kind is Kind.BOMB:
            if self.length >= 5:
                return f"a straight flush bomb of {self.length} cards up to {name}"
            return f"a bomb of four {name}s"
        return f"{_KIND_NAMES[kind]} of {name}s"

    def __str__(self) -> str:
        return self.describe()


#: The pass, as a combination (no rank, no cards).
PASS = Combination(Kind.PASS, None, 0, ())


def kind_name(kind: Kind) -> str:
    """The kind with its article, for messages ("a pair", "stairs")."""
    return _KIND_NAMES[kind]


def _reading(ranks: list[int], flush: bool) -> tuple[Kind, int] | None:
    """Kind and rank of two or more cards given by sorted ranks (Mahjong = 1)."""
    n = len(ranks)
    low, high = ranks[0], ranks[-1]
    if low == high:
        kind = _SAME_RANK_KIND.get(n)
        return None if kind is None or low < 2 else (kind, low)
    if n >= 5 and high - low == n - 1 and ranks == list(range(low, high + 1)):
        # A straight flush is always a bomb, never a plain straight.
        return (Kind.BOMB if flush else Kind.STRAIGHT), high
    if low < 2:  # the Mahjong only plays alone or in a straight
        return None
    if n == 5:
        a, b, c, d, e = ranks
        if a == c and d == e:
            return Kind.FULL_HOUSE, a
        if a == b and c == e:
            return Kind.FULL_HOUSE, c
        return None
    if n >= 4 and n % 2 == 0 and high - low == n // 2 - 1:
        pairs = ranks[0::2]
        if pairs == ranks[1::2] and pairs == list(range(low, high + 1)):
            return Kind.STAIRS, high
    return None


def single(card: Card, on: Combination | None = None) -> Combination | None:
    """One card as a play; the Phoenix takes its value from ``on`` (1.5 when led).

    On the Dragon the Phoenix reads 15.5, as the contract's rule says ("the card it was
    played on plus 0.5"), though it can never be played there (see :func:`beats`).

    >>> from companion.cards import PHOENIX, DRAGON, MAHJONG
    >>> single(PHOENIX, single(MAHJONG)).rank, single(PHOENIX, single(DRAGON)).rank
    (1.5, 15.5)
    """
    if card.rank is not None:
        return Combination(Kind.SINGLE, card.rank, 1, (card,))
    special = card.special
    if special is Special.PHOENIX:
        rank = PHOENIX_LED_RANK
        if on is not None and on.kind is Kind.SINGLE and on.rank is not None:
            rank = on.rank + 0.5
        return Combination(Kind.SINGLE, rank, 1, (card,))
    if special is Special.MAHJONG:
        return Combination(Kind.SINGLE, MAHJONG_RANK, 1, (card,))
    if special is Special.DRAGON:
        return Combination(Kind.SINGLE, DRAGON_RANK, 1, (card,))
    if special is Special.DOG:
        return Combination(Kind.DOG, None, 1, (card,))
    return None  # jokers are not Tichu cards


def classify(cards: Iterable[Card], on: Combination | None = None) -> Combination | None:
    """What ``cards`` form, or None when they form no combination (or are no cards).

    With the Phoenix in a combination of several cards, the highest reading is taken;
    with ``on``, the highest reading that beats ``on`` if there is one. Cards are assumed
    to be distinct (the referee rejects duplicates before).

    >>> from companion.cards import parse_cards
    >>> classify(parse_cards("Kj Phoenix")).to_json()
    {'kind': 'pair', 'rank': 13, 'length': 2}
    >>> classify(parse_cards("Dragon Phoenix")) is None
    True
    >>> classify(parse_cards("Mahjong 1")) is None  # one Mahjong twice is no pair
    True
    >>> cards, on = parse_cards("9j 10s Jp Qt Phoenix"), classify(parse_cards("8j 9s 10p Jt Qj"))
    >>> classify(cards).rank, classify(cards, on).rank
    (13, 13)
    >>> on = classify(parse_cards("7j 8s 9p 10t Jj"))
    >>> classify(parse_cards("8j 9s 10p Jt Phoenix"), on).rank
    12
    """
    cards = tuple(cards)
    n = len(cards)
    if n == 1:
        return single(cards[0], on)
    if n == 0:
        return None
    ranks: list[int] = []
    phoenix = False
    flush = True
    suit = None
    for card in cards:
        rank = card.rank
        if rank is not None:
            ranks.append(rank)
            if suit is None:
                suit = card.suit
            elif card.suit is not suit:
                flush = False
        elif card.special is Special.MAHJONG:
            ranks.append(MAHJONG_RANK)
            flush = False
        elif card.special is Special.PHOENIX and not phoenix:
            phoenix = True
            flush = False
        else:
            return None  # the Dog and the Dragon only play alone
    if not phoenix:
        ranks.sort()
        reading = _reading(ranks, flush)
        return None if reading is None else Combination(reading[0], reading[1], n, cards)
    # The Phoenix: the rank of a reading never falls as the Phoenix's rank rises, so the
    # first fitting reading from the top is the highest (and the first that beats `on`).
    best: Combination | None = None
    for stand_in in PHOENIX_STANDS_FOR:
        trial = sorted([*ranks, stand_in])
        reading = _reading(trial, False)
        if reading is None or reading[0] is Kind.BOMB:  # never a bomb with the Phoenix
            continue
        combination = Combination(reading[0], reading[1], n, cards)
        if on is None or beats(combination, on):
            return combination
        if best is None:
            best = combination
    return best


def beats(play: Combination, top: Combination) -> bool:
    """Whether ``play`` may be played on ``top``, the last play of the trick.

    Same kind, same length, higher rank; a bomb beats any other play, and a bomb only a
    lower bomb (more cards first, then rank). Nothing beats the Dog; a pass beats nothing.
    A Phoenix single beats every single but the Dragon, whatever value it was read with.

    >>> from companion.cards import parse_cards
    >>> def beats_text(play, top):
    ...     return beats(classify(parse_cards(play)), classify(parse_cards(top)))
    >>> on_ace = classify(parse_cards("Phoenix"), classify(parse_cards("Aj")))
    >>> on_ace.rank, beats(classify(parse_cards("Dragon")), on_ace), beats_text("Phoenix", "Dragon")
    (14.5, True, False)
    >>> beats_text("2j 2s 2p 2t", "Dragon"), beats_text("2j 3j 4j 5j 6j", "Aj As Ap At")
    (True, True)
    >>> beats_text("Qj Qs", "Jj Js Jp"), beats_text("2j 2s 2p 2t", "Dog")
    (False, False)
    """
    top_kind = top.kind
    play_kind = play.kind
    if top_kind is Kind.DOG or top_kind is Kind.PASS or play_kind is Kind.PASS or play_kind is Kind.DOG:
        return False
    assert play.rank is not None and top.rank is not None
    if play_kind is Kind.BOMB:
        if top_kind is not Kind.BOMB:
            return True
        return play.length > top.length or (play.length == top.length and play.rank > top.rank)
    if play_kind is not top_kind or play.length != top.length:
        return False
    if play_kind is Kind.SINGLE and play.cards and play.cards[0].special is Special.PHOENIX:
        return top.rank < DRAGON_RANK
    return play.rank > top.rank
