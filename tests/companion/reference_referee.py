"""An independent reference Tichu referee, for differential tests of companion.tichu.referee.

Written from CONTRACTS section 2 and RULES.md alone, without looking at the real referee,
and deliberately simple: its own card reader, every Phoenix substitution tried one by one,
and the wish obligation found by trying every set of hand cards of the needed size.
Clarity over speed; it is only ever run by tests.

>>> verdict = judge({"play": "5j 5s 5p 9t 9j", "trick": ["4j 4s 4p Kt Kj"]})
>>> verdict["legal"], verdict["combination"], verdict["points"]
(True, {'kind': 'full_house', 'rank': 5, 'length': 5}, 15)
>>> judge({"play": "Phoenix", "trick": ["8s"]})["combination"]
{'kind': 'single', 'rank': 8.5, 'length': 1}
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MAHJONG = "Mahjong"
DOG = "Dog"
PHOENIX = "Phoenix"
DRAGON = "Dragon"
SPECIALS = (MAHJONG, DOG, PHOENIX, DRAGON)
SUITS = ("j", "s", "p", "t")
RANK_BY_NAME: dict[str, int] = {str(r): r for r in range(2, 11)} | {
    "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14,
}
NAME_BY_RANK: dict[int, str] = {r: str(r) for r in range(2, 11)} | {11: "J", 12: "Q", 13: "K", 14: "A"}
SPECIAL_BY_NAME: dict[str, str] = {
    "MAHJONG": MAHJONG,
    "MJ": MAHJONG,
    "1": MAHJONG,
    "DOG": DOG,
    "DG": DOG,
    "PHOENIX": PHOENIX,
    "PH": PHOENIX,
    "DRAGON": DRAGON,
    "DR": DRAGON,
}
DRAGON_RANK = 15


class ReferenceSituationError(Exception):
    """A line that cannot be a real situation (the contract's error line)."""


def full_deck() -> list[str]:
    """The 56 Tichu cards in canonical spelling.

    >>> len(full_deck()), full_deck()[:2]
    (56, ['2j', '3j'])
    """
    return [NAME_BY_RANK[r] + s for s in SUITS for r in range(2, 15)] + list(SPECIALS)


def read_card(token: str) -> str:
    """The canonical name of one card token, or an error naming it.

    >>> read_card("tp"), read_card("mj"), read_card("1"), read_card("ks")
    ('10p', 'Mahjong', 'Mahjong', 'Ks')
    """
    upper = token.upper()
    if upper in SPECIAL_BY_NAME:
        return SPECIAL_BY_NAME[upper]
    rank_text, suit_text = upper[:-1], token[-1:].lower()
    if rank_text in RANK_BY_NAME and suit_text in SUITS:
        return NAME_BY_RANK[RANK_BY_NAME[rank_text]] + suit_text
    raise ReferenceSituationError(f"cannot read card {token!r}")


def read_cards(text: str, where: str) -> list[str]:
    """Cards separated by spaces or commas; a card written twice is an error line."""
    cards = [read_card(token) for token in re.split(r"[\s,]+", text.strip()) if token]
    twice = [card for card, count in Counter(cards).items() if count > 1]
    if twice:
        raise ReferenceSituationError(f"{twice[0]} is written twice in the {where}")
    return cards


def rank_of(card: str) -> int:
    """Rank of an ordinary card or the Mahjong (1) / Dragon (15); Dog 0."""
    if card == MAHJONG:
        return 1
    if card == DRAGON:
        return DRAGON_RANK
    if card == DOG:
        return 0
    assert card != PHOENIX
    return RANK_BY_NAME[card[:-1].upper()]


def is_ordinary(card: str) -> bool:
    return card not in SPECIALS


def card_points(card: str) -> int:
    if card == DRAGON:
        return 25
    if card == PHOENIX:
        return -25
    if card in SPECIALS:
        return 0
    return {5: 5, 10: 10, 13: 10}.get(rank_of(card), 0)


@dataclass(frozen=True)
class Reading:
    """One way to read a set of cards as a combination."""

    kind: str
    rank: float | None
    length: int
    phoenix_single: bool = False

    @property
    def is_bomb(self) -> bool:
        return self.kind == "bomb"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.rank is not None:
            out["rank"] = int(self.rank) if float(self.rank).is_integer() else self.rank
        out["length"] = self.length
        return out


def _shape(ranks: list[int], suits: list[str | None], with_phoenix: bool) -> Reading | None:
    """Classify cards given as concrete ranks (the Phoenix already given one, suit None)."""
    n = len(ranks)
    counts = Counter(ranks)
    distinct = sorted(counts)
    consecutive = distinct == list(range(distinct[0], distinct[0] + len(distinct)))
    has_mahjong = 1 in counts
    if n >= 5 and all(c == 1 for c in counts.values()) and consecutive:
        same_suit = len(set(suits)) == 1 and suits[0] is not None
        if same_suit and not with_phoenix and not has_mahjong:
            return Reading("bomb", max(ranks), n)
        return Reading("straight", max(ranks), n)
    if has_mahjong:
        return None  # the Mahjong only combines in a straight
    if n == 2 and len(counts) == 1:
        return Reading("pair", ranks[0], 2)
    if n == 3 and len(counts) == 1:
        return Reading("triple", ranks[0], 3)
    if n == 4 and len(counts) == 1:
        return None if with_phoenix else Reading("bomb", ranks[0], 4)
    if n == 5 and sorted(counts.values()) == [2, 3]:
        return Reading("full_house", next(r for r, c in counts.items() if c == 3), 5)
    if n >= 4 and n % 2 == 0 and all(c == 2 for c in counts.values()) and consecutive:
        return Reading("stairs", max(ranks), n)
    return None


def readings(cards: Sequence[str], top: Reading | None) -> list[Reading]:
    """Every reading of ``cards``, highest first (``top`` only sets a Phoenix single).

    >>> readings(["5j", "5s", "6j", "6s", "Phoenix"], None)
    [Reading(kind='full_house', rank=6, length=5, phoenix_single=False), \
Reading(kind='full_house', rank=5, length=5, phoenix_single=False)]
    >>> readings(["3j", "3s", "3p", "3t", "Phoenix"], None)
    []
    """
    if not cards:
        return []
    if len(cards) == 1:
        card = cards[0]
        if card == DOG:
            return [Reading("dog", None, 1)]
        if card == PHOENIX:
            on = top.rank if top is not None and top.kind == "single" and top.rank is not None else 1.0
            return [Reading("single", on + 0.5, 1, phoenix_single=True)]
        return [Reading("single", rank_of(card), 1)]
    if DOG in cards or DRAGON in cards:
        return []
    plain = [c for c in cards if c != PHOENIX]
    ranks = [rank_of(c) for c in plain]
    suits: list[str | None] = [c[-1] if is_ordinary(c) else None for c in plain]
    found: set[Reading] = set()
    if PHOENIX in cards:
        for stand_in in range(2, 15):  # a normal rank 2..A, never 1, never above A
            reading = _shape([*ranks, stand_in], [*suits, None], with_phoenix=True)
            if reading is not None:
                found.add(reading)
    else:
        reading = _shape(ranks, suits, with_phoenix=False)
        if reading is not None:
            found.add(reading)
    return sorted(found, key=lambda r: r.rank or 0, reverse=True)


def beats(play: Reading, top: Reading) -> bool:
    """Whether ``play`` may be played on ``top`` by the combination rules alone."""
    if top.kind == "dog":
        return False
    if play.is_bomb:
        if not top.is_bomb:
            return True
        assert play.rank is not None and top.rank is not None
        return (play.length, play.rank) > (top.length, top.rank)
    if top.is_bomb or play.kind != top.kind or play.length != top.length:
        return False
    assert play.rank is not None and top.rank is not None
    if play.phoenix_single:
        return top.rank < DRAGON_RANK
    return play.rank > top.rank


def allowed(play: Reading, top: Reading | None, turn: bool) -> bool:
    """Combination rules plus turn rules (leading, out of turn)."""
    if not turn:
        return play.is_bomb and top is not None and beats(play, top)
    return top is None or beats(play, top)


def best_reading(cards: Sequence[str], top: Reading | None, turn: bool) -> Reading | None:
    """The highest legal reading, else the highest reading, else None."""
    options = readings(cards, top)
    legal = [r for r in options if allowed(r, top, turn)]
    if legal:
        return legal[0]
    return options[0] if options else None


def _has_wished(cards: Iterable[str], wish: int) -> bool:
    return any(is_ordinary(c) and rank_of(c) == wish for c in cards)


def can_fulfil_wish(hand: Sequence[str], top: Reading | None, wish: int) -> bool:
    """Whether some combination from ``hand`` holding a real card of ``wish`` may be played now."""
    if not _has_wished(hand, wish):
        return False
    if top is None:
        return True  # the wished card alone is a lead
    candidates: list[tuple[str, ...]] = []
    if not top.is_bomb:
        candidates += itertools.combinations(hand, top.length)
    # Bombs holding the wished rank: its four of a kind, or a straight flush through it.
    candidates.append(tuple(c for c in hand if is_ordinary(c) and rank_of(c) == wish))
    for suit in SUITS:
        for low in range(2, 11):
            for high in range(low + 4, 15):
                run = tuple(NAME_BY_RANK[r] + suit for r in range(low, high + 1))
                if low <= wish <= high and all(card in hand for card in run):
                    candidates.append(run)
    for combo in candidates:
        if not _has_wished(combo, wish):
            continue
        for reading in readings(combo, top):
            if beats(reading, top):
                return True
    return False


def _read_wish(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ReferenceSituationError(f"the wish must be a rank 2 to A, got {value!r}")
    if isinstance(value, int):
        if 2 <= value <= 14:
            return value
        raise ReferenceSituationError(f"the wish must be a rank 2 to A, got {value!r}")
    if isinstance(value, str) and value.strip().upper() in RANK_BY_NAME:
        return RANK_BY_NAME[value.strip().upper()]
    raise ReferenceSituationError(f"the wish must be a rank 2 to A, got {value!r}")


def _is_pass(text: str) -> bool:
    return text.strip() == "" or text.strip().lower() == "pass"


def _describe(reading: Reading) -> str:
    return reading.kind.replace("_", " ")


def read_trick(trick_texts: Iterable[str]) -> tuple[Reading | None, set[str]]:
    """The play to beat (each play read on the one before) and every card of the trick."""
    top: Reading | None = None
    trick_cards: set[str] = set()
    for text in trick_texts:
        if _is_pass(text):
            continue  # a pass in the trick is no play (lenient: the contract lists plays)
        cards = read_cards(text, "trick play")
        if trick_cards & set(cards):
            raise ReferenceSituationError("a card appears twice in the trick")
        trick_cards |= set(cards)
        reading = best_reading(cards, top, True)
        if reading is None:
            raise ReferenceSituationError(f"the trick play {text!r} is no combination")
        top = reading
    return top, trick_cards


def judge(situation: Mapping[str, Any]) -> dict[str, Any]:
    """The verdict for one situation; raise ReferenceSituationError for an error line."""
    # null counts as absent for every optional key
    game = situation.get("game")
    game = "tichu" if game is None else game
    if game != "tichu":
        raise ReferenceSituationError(f"unknown game {game!r}")
    if "play" not in situation or not isinstance(situation["play"], str):
        raise ReferenceSituationError("the situation has no play")
    turn = situation.get("turn")
    turn = True if turn is None else turn
    if not isinstance(turn, bool):
        raise ReferenceSituationError("turn must be true or false")
    wish = _read_wish(situation.get("wish"))
    hand_text = situation.get("hand")
    if hand_text is not None and not isinstance(hand_text, str):
        raise ReferenceSituationError("the hand must be a string of cards")
    hand = None if hand_text is None else read_cards(hand_text, "hand")
    trick_texts = situation.get("trick") or []
    if not isinstance(trick_texts, list) or not all(isinstance(t, str) for t in trick_texts):
        raise ReferenceSituationError("the trick must be a list of plays")
    top, trick_cards = read_trick(trick_texts)
    play_text: str = situation["play"]
    passing = _is_pass(play_text)
    play = [] if passing else read_cards(play_text, "play")
    if trick_cards & set(play) or (hand is not None and trick_cards & set(hand)):
        raise ReferenceSituationError("a card is both in the trick and in the play or hand")

    obliged = (
        turn
        and hand is not None
        and wish is not None
        and can_fulfil_wish(hand, top, wish)
    )
    wish_name = NAME_BY_RANK[wish] if wish is not None else ""

    def verdict(combination: dict[str, Any] | None, reason: str | None) -> dict[str, Any]:
        return {
            "legal": reason is None,
            "combination": combination,
            "points": sum(card_points(c) for c in play),
            "reason": reason,
        }

    if passing:
        pass_json = {"kind": "pass", "length": 0}
        if not turn:
            return verdict(pass_json, "it is not your turn: out of turn only a bomb can be played")
        if top is None:
            return verdict(pass_json, "the player who leads cannot pass")
        if obliged:
            return verdict(pass_json, f"you cannot pass: the wish for {wish_name} must be played")
        return verdict(pass_json, None)

    reading = best_reading(play, top, turn)
    if reading is None:
        return verdict(None, "these cards form no combination")
    combination = reading.to_json()
    if hand is not None:
        missing = [c for c in play if c not in hand]
        if missing:
            return verdict(combination, f"{missing[0]} is not in the hand")
    if not allowed(reading, top, turn):
        if not turn:
            if top is None:
                return verdict(combination, "out of turn nothing can be played on an empty table")
            return verdict(combination, "out of turn only a bomb that beats the table can be played")
        assert top is not None
        if top.kind == "dog":
            return verdict(combination, "nothing can be played on the Dog")
        if reading.kind == "dog":
            return verdict(combination, "the Dog can only be led")
        beaten = _describe(top)
        return verdict(combination, f"this {_describe(reading)} cannot beat the {beaten} on the table")
    if obliged and not reading.is_bomb and not _has_wished(play, wish or 0):
        return verdict(combination, f"the wish for {wish_name} must be played")
    return verdict(combination, None)
