"""The Tichu referee: is this play legal here? (CONTRACTS section 2.)

:func:`judge_situation` takes one situation (a JSON object) and returns the verdict;
:func:`legal_plays` lists every legal play of a hand. Both decide with :func:`classify`
and :func:`beats` alone; the lister and the wish check find candidate card sets in a hand
by their shape (:func:`_candidates`).

A situation that cannot be real (unreadable cards, a card written twice, a wish that is
no rank, wrong JSON types) raises :class:`SituationError`; a readable play that breaks a
rule gets a verdict with ``"legal": false`` and a reason. Keys other than those of the
contract are ignored, and ``null`` counts as absent for every optional key. Entries
``""`` and ``"pass"`` in ``trick`` are passes and skipped.

>>> judge_situation({"play": "5j 5s 5p 9t 9j", "trick": ["4j 4s 4p Kt Kj"],
...                  "hand": "5j 5s 5p 9t 9j 2s 3s Dragon", "wish": "7"})
{'legal': True, 'combination': {'kind': 'full_house', 'rank': 5, 'length': 5}, 'points': 15, 'reason': None}
>>> judge_situation({"play": "9j", "trick": ["Jt"]})["reason"]
'a single 9 does not beat a single J'
>>> judge_situation({"play": "9j 9s", "trick": ["8j"], "hand": "9j 9s 7p", "wish": 7})["reason"]
'a pair cannot beat a single'
>>> judge_situation({"play": "9j", "trick": ["5j"], "hand": "9j 9s 7p", "wish": 7})["reason"]
'the wish for 7 must be played: you hold 7p'
>>> judge_situation({"play": "Phoenix", "trick": ["Aj"]})["combination"]
{'kind': 'single', 'rank': 14.5, 'length': 1}
>>> judge_situation({"play": "pass"})["reason"]
'you lead: you must play'
>>> judge_situation({"play": "5j Zz"})
Traceback (most recent call last):
...
companion.tichu.referee.SituationError: cannot read card 'Zz' in the play
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from companion.cards import RANK_NAMES, Card, Special, Suit, parse_rank, tichu_deck
from companion.errors import NotationError, TrickmateError
from companion.tichu.combinations import (
    DRAGON_RANK,
    PASS,
    Combination,
    Kind,
    beats,
    classify,
    kind_name,
)


class SituationError(TrickmateError, ValueError):
    """A referee situation that cannot be a real one; str(error) says why."""


# --- reading situations -----------------------------------------------------------------

# Every token read so far -> the one canonical Card object of the deck, so that the
# duplicate and membership checks can compare identities (fast) instead of hashing cards.
_CANONICAL: dict[Card, Card] = {card: card for card in tichu_deck()}
_CARD_BY_TOKEN: dict[str, Card] = {}
_POINTS_BY_ID: dict[int, int] = {id(card): card.points for card in _CANONICAL}
_PASS_WORDS = frozenset({"", "pass"})


def _read_cards(text: object, where: str) -> list[Card]:
    if not isinstance(text, str):
        raise SituationError(f"{where} must be a string of cards, got {_json_type(text)}")
    tokens = text.replace(",", " ").split()
    try:
        cards = [_CARD_BY_TOKEN[token] for token in tokens]
    except KeyError:
        cards = [_read_token(token, where) for token in tokens]
    if len(set(map(id, cards))) != len(cards):
        seen: set[int] = set()
        for card in cards:
            if id(card) in seen:
                raise SituationError(f"{card} is written twice in {where}")
            seen.add(id(card))
    return cards


def _read_token(token: str, where: str) -> Card:
    card = _CARD_BY_TOKEN.get(token)
    if card is None:
        try:
            card = _CANONICAL[Card.parse(token)]
        except NotationError as error:
            raise SituationError(f"{error} in {where}") from None
        _CARD_BY_TOKEN[token] = card
    return card


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def read_wish(value: object) -> int | None:
    """The open wish as a rank 2..14, or None for no wish.

    >>> read_wish("7"), read_wish(7), read_wish("T"), read_wish("q"), read_wish("13"), read_wish(None)
    (7, 7, 10, 12, 13, None)
    >>> read_wish("1")
    Traceback (most recent call last):
    ...
    companion.tichu.referee.SituationError: the wish must be a rank 2..A, got '1'
    """
    if value is None:
        return None
    if isinstance(value, str):
        if not value.strip():
            return None
        if value.strip().isdecimal() and 2 <= int(value) <= 14:  # "13" like the number 13
            return int(value)
        try:
            return parse_rank(value)
        except NotationError:
            raise SituationError(f"the wish must be a rank 2..A, got {value!r}") from None
    if isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= 14:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        raise SituationError(f"the wish must be a rank 2..A, got {value}")
    raise SituationError(f"the wish must be a rank 2..A, got {_json_type(value)}")


def _is_pass(text: object) -> bool:
    return isinstance(text, str) and text.strip().lower() in _PASS_WORDS


def _read_trick(value: object) -> list[tuple[str, list[Card]]]:
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise SituationError(f"trick must be a list of plays, got {_json_type(value)}")
    plays = []
    for number, text in enumerate(value, start=1):
        if _is_pass(text):
            continue
        plays.append((f"trick play {number}", _read_cards(text, f"trick play {number}")))
    return plays


# --- verdicts ---------------------------------------------------------------------------


def _verdict(combination: Combination | None, points: int, reason: str | None) -> dict[str, Any]:
    return {
        "legal": reason is None,
        "combination": None if combination is None else combination.to_json(),
        "points": points,
        "reason": reason,
    }


def _and_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def why_not(play: Combination, top: Combination) -> str:
    """Why ``play`` does not beat ``top`` (assuming it does not), in one sentence.

    >>> from companion.cards import parse_cards
    >>> def why(play, top):
    ...     return why_not(classify(parse_cards(play)), classify(parse_cards(top)))
    >>> why("Qj Qs", "Jj Js Jp"), why("Phoenix", "Dragon")
    ('a pair cannot beat a triple', 'nothing beats the Dragon but a bomb')
    >>> why("3j 4s 5p 6t 7j 8s", "2j 3s 4p 5t 6j")
    'a straight of 6 cards cannot beat a straight of 5 cards'
    """
    if top.kind is Kind.DOG:
        return "the Dog cannot be beaten or bombed"
    if top.kind is Kind.BOMB and play.kind is not Kind.BOMB:
        return "only a higher bomb beats a bomb"
    if top.kind is Kind.SINGLE and top.rank == DRAGON_RANK and play.kind is not Kind.BOMB:
        return "nothing beats the Dragon but a bomb"
    if play.kind is not top.kind:
        return f"{kind_name(play.kind)} cannot beat {kind_name(top.kind)}"
    if play.length != top.length:
        return f"{_shape(play)} cannot beat {_shape(top)}"
    return f"{play.describe()} does not beat {top.describe()}"


def _shape(combination: Combination) -> str:
    if combination.kind is Kind.STAIRS:
        return f"stairs of {combination.length // 2} pairs"
    return f"{kind_name(combination.kind)} of {combination.length} cards"


def _wish_reason(wish: int, hand: list[Card]) -> str:
    # Name the very cards: "you hold 7s" would read as the Seven of Sword.
    held = sorted(card for card in hand if card.rank == wish)
    return f"the wish for {RANK_NAMES[wish]} must be played: you hold {_and_list([str(c) for c in held])}"


def _find_card_in_two_places(trick: list[tuple[str, list[Card]]], play: list[Card], hand: list[Card]) -> None:
    place_of: dict[int, str] = {}
    for where, cards in trick:
        for card in cards:
            other = place_of.get(id(card))
            if other is not None:
                raise SituationError(f"{card} is both in {other} and in {where}")
            place_of[id(card)] = where
    for where, cards in (("the play", play), ("the hand", hand)):
        for card in cards:
            other = place_of.get(id(card))
            if other is not None:
                raise SituationError(f"{card} is both in {where} and in {other}")


def judge_situation(situation: Mapping[str, Any]) -> dict[str, Any]:
    """Judge one situation of CONTRACTS section 2 and return the verdict.

    >>> judge_situation({"play": "2j 2s 2p 2t", "trick": ["Dragon"], "turn": False})["legal"]
    True
    >>> judge_situation({"play": "Kj", "trick": ["Dragon"], "turn": False})["reason"]
    'only a bomb can be played out of turn'
    """
    if not isinstance(situation, Mapping):
        raise SituationError(f"a situation must be a JSON object, got {_json_type(situation)}")
    game = situation.get("game")
    if game is not None:
        if not isinstance(game, str):
            raise SituationError(f"game must be a string, got {_json_type(game)}")
        if game.strip().lower() != "tichu":
            raise SituationError(f"unknown game {game!r}")
    if "play" not in situation:
        raise SituationError('missing "play": the cards played ("pass" to pass)')
    play_text = situation["play"]
    if not isinstance(play_text, str):
        raise SituationError(f"play must be a string of cards, got {_json_type(play_text)}")
    turn = situation.get("turn")
    if turn is None:
        turn = True
    elif not isinstance(turn, bool):
        raise SituationError(f"turn must be true or false, got {_json_type(turn)}")
    wish = read_wish(situation.get("wish"))

    passing = play_text.strip().lower() in _PASS_WORDS
    play = [] if passing else _read_cards(play_text, "the play")
    hand_text = situation.get("hand")
    hand = None if hand_text is None else _read_cards(hand_text, "the hand")
    trick = _read_trick(situation.get("trick"))

    # No card can be in two places at once.
    if trick:
        in_trick = {id(card) for _, cards in trick for card in cards}
        if len(in_trick) != sum(len(cards) for _, cards in trick) or not (
            in_trick.isdisjoint(map(id, play)) and (hand is None or in_trick.isdisjoint(map(id, hand)))
        ):
            _find_card_in_two_places(trick, play, hand or [])

    top: Combination | None = None
    for where, cards in trick:
        combination = classify(cards, top)
        if combination is None:
            raise SituationError(f"{where} ({' '.join(map(str, cards))}) forms no combination")
        top = combination

    # The wish binds on the player's own turn, and we can only check it knowing the hand.
    binding_wish = wish if turn and hand is not None else None
    if passing:
        if turn and top is None:
            return _verdict(PASS, 0, "you lead: you must play")
        if binding_wish is not None and hand is not None and wish_obliges(hand, top, binding_wish):
            return _verdict(PASS, 0, _wish_reason(binding_wish, hand))
        return _verdict(PASS, 0, None)

    points = sum([_POINTS_BY_ID[id(card)] for card in play])
    combination = classify(play, top)
    if hand is not None:
        held = set(map(id, hand))
        if not held.issuperset(map(id, play)):
            missing = [str(card) for card in play if id(card) not in held]
            verb = "is" if len(missing) == 1 else "are"
            return _verdict(combination, points, f"{_and_list(missing)} {verb} not in your hand")
    if combination is None:
        return _verdict(None, points, "these cards form no combination")
    if top is not None and top.kind is Kind.DOG:
        return _verdict(combination, points, "the Dog cannot be beaten or bombed")
    if combination.kind is Kind.DOG and (not turn or top is not None):
        return _verdict(combination, points, "the Dog can only be led")
    if not turn:
        if not combination.is_bomb:
            return _verdict(combination, points, "only a bomb can be played out of turn")
        if top is None:
            return _verdict(combination, points, "a bomb out of turn needs a play on the table to beat")
    if top is not None and not beats(combination, top):
        return _verdict(combination, points, why_not(combination, top))
    if (
        binding_wish is not None
        and hand is not None
        and not combination.is_bomb
        and not any(card.rank == binding_wish for card in play)
        and wish_obliges(hand, top, binding_wish)
    ):
        return _verdict(combination, points, _wish_reason(binding_wish, hand))
    return _verdict(combination, points, None)


# --- the plays a hand can make ----------------------------------------------------------
#
# The generator below proposes card sets by their shape (rank groups, runs), pruned by rank
# where that is safe; classify() and beats() alone decide what a set is and whether it
# may be played, exactly as for a play the referee is asked about.

Option = tuple[Card, ...]


class _HandIndex:
    """A hand sorted by rank (index 1 holds the Mahjong), with its special cards."""

    __slots__ = ("by_rank", "dog", "dragon", "phoenix")

    def __init__(self, cards: Iterable[Card]) -> None:
        self.by_rank: list[list[Card]] = [[] for _ in range(15)]
        self.phoenix: Card | None = None
        self.dragon: Card | None = None
        self.dog: Card | None = None
        for card in cards:
            rank = card.rank
            if rank is not None:
                self.by_rank[rank].append(card)
            elif card.special is Special.MAHJONG:
                self.by_rank[1].append(card)
            elif card.special is Special.PHOENIX:
                self.phoenix = card
            elif card.special is Special.DRAGON:
                self.dragon = card
            elif card.special is Special.DOG:
                self.dog = card


def _options(real: list[list[Option]], with_phoenix: list[list[Option]]) -> Iterator[Option]:
    """One option per position, the Phoenix in at most one position."""
    empty = [i for i, options in enumerate(real) if not options]
    if not empty:
        for parts in itertools.product(*real):
            yield tuple(itertools.chain.from_iterable(parts))
    if len(empty) > 1:
        return
    for i in empty or range(len(real)):
        if with_phoenix[i]:
            for parts in itertools.product(*real[:i], with_phoenix[i], *real[i + 1 :]):
                yield tuple(itertools.chain.from_iterable(parts))


def _groups(hand: _HandIndex, rank: int, size: int) -> tuple[list[Option], list[Option]]:
    """Groups of ``size`` cards of one rank: real ones, and ones completed by the Phoenix."""
    same = hand.by_rank[rank]
    real = list(itertools.combinations(same, size)) if len(same) >= size else []
    phoenix = hand.phoenix
    if phoenix is None or not same:
        return real, []
    return real, [(*part, phoenix) for part in itertools.combinations(same, size - 1)]


def _singles(hand: _HandIndex, above: float, wish: int | None) -> Iterator[Option]:
    for rank in range(1, 15) if wish is None else (wish,):
        if rank > above:
            for card in hand.by_rank[rank]:
                yield (card,)
    if wish is None:
        for special in (hand.dragon, hand.phoenix, hand.dog):
            if special is not None:
                yield (special,)


def _same_rank(hand: _HandIndex, size: int, above: float, wish: int | None) -> Iterator[Option]:
    for rank in range(2, 15) if wish is None else (wish,):
        if rank > above:
            real, phoenix = _groups(hand, rank, size)
            yield from real
            yield from phoenix


def _full_houses(hand: _HandIndex, above: float, wish: int | None) -> Iterator[Option]:
    for triple_rank in range(max(2, int(above) + 1), 15):
        triples = _groups(hand, triple_rank, 3)
        if not triples[0] and not triples[1]:
            continue
        for pair_rank in range(2, 15):
            if pair_rank == triple_rank or (wish is not None and wish not in (triple_rank, pair_rank)):
                continue
            pairs = _groups(hand, pair_rank, 2)
            yield from _options([triples[0], pairs[0]], [triples[1], pairs[1]])


def _stairs(hand: _HandIndex, pairs: int, above: float, wish: int | None) -> Iterator[Option]:
    for high in range(max(pairs + 1, int(above) + 1), 15):
        low = high - pairs + 1
        if wish is None or low <= wish <= high:
            groups = [_groups(hand, rank, 2) for rank in range(low, high + 1)]
            yield from _options([g[0] for g in groups], [g[1] for g in groups])


def _straights(hand: _HandIndex, length: int, above: float, wish: int | None) -> Iterator[Option]:
    phoenix = hand.phoenix
    for high in range(max(length, int(above) + 1), 15):
        low = high - length + 1
        if wish is not None and not low <= wish <= high:
            continue
        real: list[list[Option]] = [[(card,) for card in hand.by_rank[rank]] for rank in range(low, high + 1)]
        # The Phoenix stands for 2..A (and standing for the wished rank would not fulfil it).
        stand_in: list[list[Option]] = [
            [(phoenix,)] if phoenix is not None and rank >= 2 and rank != wish else []
            for rank in range(low, high + 1)
        ]
        yield from _options(real, stand_in)


def _bombs(hand: _HandIndex, wish: int | None) -> Iterator[Option]:
    for rank in range(2, 15) if wish is None else (wish,):
        if len(hand.by_rank[rank]) == 4:
            yield tuple(hand.by_rank[rank])
    by_suit: dict[Suit, dict[int, Card]] = {}
    for rank in range(2, 15):
        for card in hand.by_rank[rank]:
            assert card.suit is not None
            by_suit.setdefault(card.suit, {})[rank] = card
    for cards_by_rank in by_suit.values():
        if len(cards_by_rank) < 5:
            continue
        for low in range(2, 11):
            if low not in cards_by_rank:
                continue
            high = low
            while high + 1 in cards_by_rank:
                high += 1
                if high - low >= 4 and (wish is None or low <= wish <= high):
                    yield tuple(cards_by_rank[rank] for rank in range(low, high + 1))


def _candidates(hand: _HandIndex, top: Combination | None, wish: int | None = None) -> Iterator[Option]:
    """Card sets of ``hand`` that may lead (``top`` None) or beat ``top``: a superset.

    With ``wish``, only sets holding a real card of that rank. A set may come twice.
    """
    if top is None:
        yield from _singles(hand, 0, wish)
        yield from _same_rank(hand, 2, 0, wish)
        yield from _same_rank(hand, 3, 0, wish)
        yield from _full_houses(hand, 0, wish)
        for pairs in range(2, 8):
            yield from _stairs(hand, pairs, 0, wish)
        for length in range(5, 15):
            yield from _straights(hand, length, 0, wish)
    elif top.kind is Kind.DOG or top.kind is Kind.PASS:
        return
    elif top.kind is not Kind.BOMB:
        above = float(top.rank or 0)
        kind = top.kind
        if kind is Kind.SINGLE:
            yield from _singles(hand, above, wish)
        elif kind is Kind.PAIR or kind is Kind.TRIPLE:
            yield from _same_rank(hand, top.length, above, wish)
        elif kind is Kind.FULL_HOUSE:
            yield from _full_houses(hand, above, wish)
        elif kind is Kind.STAIRS:
            yield from _stairs(hand, top.length // 2, above, wish)
        elif kind is Kind.STRAIGHT:
            yield from _straights(hand, top.length, above, wish)
    yield from _bombs(hand, wish)


def _playable(cards: Option, top: Combination | None) -> Combination | None:
    """The play these cards make on ``top`` (or as a lead), or None if they may not."""
    combination = classify(cards, top)
    if combination is None or (top is not None and not beats(combination, top)):
        return None
    return combination


def wish_obliges(hand: Iterable[Card] | _HandIndex, top: Combination | None, wish: int) -> bool:
    """Whether the hand, on its turn, can legally play a combination holding a real card of
    ``wish`` (on ``top``, or as a lead): then it must play one, or a bomb.

    >>> from companion.cards import parse_cards
    >>> wish_obliges(parse_cards("7j 9s"), classify(parse_cards("5s")), 7)
    True
    >>> wish_obliges(parse_cards("7j 9s"), classify(parse_cards("8s")), 7)
    False
    >>> wish_obliges(parse_cards("Phoenix 9s"), None, 7)  # the Phoenix alone never stands in
    False
    """
    index = hand if isinstance(hand, _HandIndex) else _HandIndex(hand)
    if not index.by_rank[wish]:
        return False
    return any(_playable(cards, top) is not None for cards in _candidates(index, top, wish))


def _top_of(trick: Combination | Sequence[Combination] | None) -> Combination | None:
    if trick is None or isinstance(trick, Combination):
        return None if trick is None or trick.kind is Kind.PASS else trick
    for combination in reversed(trick):
        if combination.kind is not Kind.PASS:
            return combination
    return None


def legal_plays(
    hand: Iterable[Card],
    trick: Combination | Sequence[Combination] | None = None,
    wish: int | None = None,
    turn: bool = True,
) -> list[Combination]:
    """Every legal play of ``hand``, each card set once (the pass too when legal).

    ``trick`` is the last play to beat, or the trick's plays oldest first (passes are
    skipped), or None to lead. ``wish`` is the open wish (2..14), ``turn`` False for a
    play out of turn (only bombs on a play, and the wish does not bind). Each play is
    read by :func:`classify` as the referee reads it: the highest legal reading.

    >>> from companion.cards import parse_cards
    >>> hand = parse_cards("7j 7s 9p Phoenix")
    >>> [play.describe() for play in legal_plays(hand, classify(parse_cards("8j 8s")))]
    ['a pair of 9s', 'a pass']
    >>> [play.describe() for play in legal_plays(hand, classify(parse_cards("5j")), wish=7)]
    ['a single 7', 'a single 7']
    """
    index = _HandIndex(hand)
    top = _top_of(trick)
    if not turn:
        bombs = [] if top is None else [_playable(cards, top) for cards in _bombs(index, None)]
        return [*(bomb for bomb in bombs if bomb is not None), PASS]
    plays: list[Combination] = []
    seen: set[frozenset[int]] = set()
    for cards in _candidates(index, top):
        key = frozenset(map(id, cards))
        if key not in seen:
            seen.add(key)
            combination = _playable(cards, top)
            if combination is not None:
                plays.append(combination)
    if wish is not None and wish_obliges(index, top, wish):
        return [play for play in plays if play.is_bomb or any(card.rank == wish for card in play.cards)]
    if top is not None:
        plays.append(PASS)
    return plays
