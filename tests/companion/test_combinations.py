"""Tichu combinations: classify every kind, the Phoenix's readings, and beats()."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import Card, card_points, parse_cards, tichu_deck
from companion.tichu.combinations import PASS, Combination, Kind, beats, classify


def reading(text: str, on: str | None = None) -> tuple[str, float | None, int] | None:
    top = classify(parse_cards(on)) if on is not None else None
    combination = classify(parse_cards(text), top)
    if combination is None:
        return None
    return combination.kind.value, combination.rank, combination.length


def beats_text(play: str, top: str) -> bool:
    play_combination = classify(parse_cards(play))
    top_combination = classify(parse_cards(top))
    assert play_combination is not None and top_combination is not None
    return beats(play_combination, top_combination)


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("7j", ("single", 7, 1)),
        ("Mahjong", ("single", 1, 1)),
        ("Dragon", ("single", 15, 1)),
        ("Phoenix", ("single", 1.5, 1)),
        ("Dog", ("dog", None, 1)),
        ("Kj Ks", ("pair", 13, 2)),
        ("Kj Phoenix", ("pair", 13, 2)),
        ("10j 10s 10p", ("triple", 10, 3)),
        ("10j 10s Phoenix", ("triple", 10, 3)),
        ("2j 2s 2p 2t", ("bomb", 2, 4)),
        ("5j 5s 5p 9t 9j", ("full_house", 5, 5)),
        ("9t 9j 5j 5s 5p", ("full_house", 5, 5)),
        ("5j 5s 9p 9t 9j", ("full_house", 9, 5)),
        ("5j 5s 5p 9t Phoenix", ("full_house", 5, 5)),
        ("5j 5s 9p 9t Phoenix", ("full_house", 9, 5)),
        ("3j 3s 4p 4t", ("stairs", 4, 4)),
        ("3j 3s 4p 4t 5j 5s", ("stairs", 5, 6)),
        ("3j 3s 4p Phoenix", ("stairs", 4, 4)),
        ("3j Phoenix 4p 4t 5j 5s", ("stairs", 5, 6)),
        ("Mahjong 2s 3p 4t 5j", ("straight", 5, 5)),
        ("Mahjong 2s 3p 4t Phoenix", ("straight", 5, 5)),
        ("Mahjong 3p 4t 5j Phoenix", ("straight", 5, 5)),
        ("2s 3p 4t 5j 6j", ("straight", 6, 5)),
        ("10s Jp Qt Kj Aj", ("straight", 14, 5)),
        ("10s Jp Qt Kj Phoenix", ("straight", 14, 5)),
        ("Jp Qt Kj Aj Phoenix", ("straight", 14, 5)),
        ("2s 3s 4s 5s 6s", ("bomb", 6, 5)),
        ("2s 3s 4s 5s 6s 7s 8s", ("bomb", 8, 7)),
        ("2s 3s 4s 5s Phoenix", ("straight", 6, 5)),
        ("Mahjong 2s 3s 4s 5s", ("straight", 5, 5)),
        ("Mahjong 2s 3s 4s 5s 6s 7j 8s 9s 10s Js Qs Ks As", ("straight", 14, 14)),
    ],
)
def test_classify_every_kind(cards: str, expected: tuple[str, float | None, int]) -> None:
    assert reading(cards) == expected


@pytest.mark.parametrize(
    "cards",
    [
        "",
        "5j 6j",
        "5j 5s 6p",
        "Dog 5j",
        "Dragon Dragon",
        "Dragon Phoenix",
        "Dragon 5j 5s",
        "Mahjong Phoenix",  # the Phoenix never stands for 1
        "Mahjong 2j",
        "Mahjong 1",
        "Mahjong 2j 2s",
        "7j 7s 7p 7t Phoenix",  # four of a kind + Phoenix: a bomb plus a Phoenix (FAQ)
        "7j 7s 7p Phoenix",  # the Phoenix never makes a bomb
        "3j 3s 5p 5t",  # stairs need consecutive ranks
        "3j 3s 3p 4t 4j 4s",  # two triples are no combination
        "2j 3s 4p 5t",  # a straight needs five cards
        "Jp Qt Kj Aj 2j",  # no wrapping past the Ace
        "Jp Qt Kj Aj Dragon",  # the Dragon is no rank of a straight
        "5j 5s 5p 5t 9j",
        "5j 5s 5p 9t 9j 9s",
        "2j 2s 2p 2t 3j 3s 3p 3t",
    ],
)
def test_no_combination(cards: str) -> None:
    assert reading(cards) is None


def test_phoenix_single_takes_its_value_from_the_play_before() -> None:
    assert reading("Phoenix", "8j") == ("single", 8.5, 1)
    assert reading("Phoenix", "Aj") == ("single", 14.5, 1)
    assert reading("Phoenix", "Mahjong") == ("single", 1.5, 1)
    # Read as the contract's rule says (15 + 0.5), though it can never beat the Dragon.
    assert reading("Phoenix", "Dragon") == ("single", 15.5, 1)
    assert reading("Phoenix", "8j 8s") == ("single", 1.5, 1)


def test_phoenix_takes_the_highest_reading_that_beats() -> None:
    # 8-Q with the Phoenix as 7 or as K: the highest reading is K.
    assert reading("8j 9s 10p Jt Phoenix") == ("straight", 12, 5)
    assert reading("8j 9s 10p Jt Qj Phoenix") == ("straight", 13, 6)
    # Full house 5-5-6-6-Ph: 6s high reads 6; on a full house of 7s nothing beats, 6 stays.
    assert reading("5j 5s 6p 6t Phoenix", "4j 4s 4p 2t 2j") == ("full_house", 6, 5)
    assert reading("5j 5s 6p 6t Phoenix", "7j 7s 7p 2t 2j") == ("full_house", 6, 5)


def test_to_json_matches_the_contract() -> None:
    combination = classify(parse_cards("Phoenix"), classify(parse_cards("8j")))
    assert combination is not None
    assert combination.to_json() == {"kind": "single", "rank": 8.5, "length": 1}
    full_house = classify(parse_cards("5j 5s 5p 9t 9j"))
    assert full_house is not None
    as_json = full_house.to_json()
    assert as_json == {"kind": "full_house", "rank": 5, "length": 5}
    assert isinstance(as_json["rank"], int)
    assert PASS.to_json() == {"kind": "pass", "length": 0}


@pytest.mark.parametrize(
    ("play", "top", "expected"),
    [
        ("9j", "8s", True),
        ("9j", "9s", False),
        ("8j", "9s", False),
        ("Qj Qs", "Jj Js", True),
        ("Qj Qs", "Jj Js Jp", False),  # a pair cannot beat a triple
        ("Dragon", "Aj", True),
        ("Dragon", "Mahjong", True),
        ("Phoenix", "Aj", True),
        ("Phoenix", "Dragon", False),
        ("Aj", "Phoenix", True),  # the Phoenix led is 1.5
        ("2j", "Phoenix", True),
        ("Mahjong", "Phoenix", False),
        ("3j 3s 4p 4t", "2j 2s 3p 3t", True),
        ("2j 2s 3p 3t", "3j 3s 4p 4t", False),
        ("5j 5s 6p 6t", "3j 3s 4p 4t", True),
        ("5j 5s 6p 6t 7j 7s", "3j 3s 4p 4t", False),  # stairs of other length
        ("3j 4s 5p 6t 7j 8s", "2j 3s 4p 5t 6j", False),  # straight of other length
        ("3j 4s 5p 6t 7j", "2j 3s 4p 5t 6j", True),
        ("Kj Ks Kp 2t 2j", "Qj Qs Qp At Aj", True),  # full house ranks by its triple
        ("2j 2s 2p 2t", "Dragon", True),
        ("2j 2s 2p 2t", "Aj As Ap Kt Kj", True),
        ("3j 3s 3p 3t", "2j 2s 2p 2t", True),
        ("2j 2s 2p 2t", "3j 3s 3p 3t", False),
        ("2j 3j 4j 5j 6j", "Aj As Ap At", True),  # every straight flush beats every four
        ("2j 3j 4j 5j 6j 7j", "9s 10s Js Qs Ks", True),  # more cards first
        ("3j 4j 5j 6j 7j", "2s 3s 4s 5s 6s", True),
        ("2s 3s 4s 5s 6s", "3j 4j 5j 6j 7j", False),
        ("Aj As Ap At", "2t 3t 4t 5t 6t", False),
        ("Kj Ks", "2j 2s 2p 2t", False),
        ("2j 2s 2p 2t", "Dog", False),  # nothing beats the Dog
        ("Dragon", "Dog", False),
    ],
)
def test_beats(play: str, top: str, expected: bool) -> None:
    assert beats_text(play, top) is expected


def test_pass_and_dog_beat_nothing() -> None:
    seven = classify(parse_cards("7j"))
    dog = classify(parse_cards("Dog"))
    assert seven is not None and dog is not None
    assert not beats(PASS, seven)
    assert not beats(dog, seven)
    assert not beats(seven, PASS)


def test_describe_names_the_combination() -> None:
    def describe(text: str) -> str:
        combination = classify(parse_cards(text))
        assert combination is not None
        return combination.describe()

    assert describe("9j") == "a single 9"
    assert describe("Jj Js") == "a pair of Js"
    assert describe("Dragon") == "the Dragon"
    assert describe("2j 3j 4j 5j 6j") == "a straight flush bomb of 5 cards up to 6"
    assert describe("2j 2s 2p 2t") == "a bomb of four 2s"
    assert describe("2j 3s 4j 5j 6j") == "a straight of 5 cards up to 6"


# --- properties -------------------------------------------------------------------------

DECK = tichu_deck()
ORDINARY = [card for card in DECK if card.rank is not None]


@st.composite
def card_sets(draw: st.DrawFn) -> list[Card]:
    size = draw(st.integers(min_value=1, max_value=8))
    return draw(st.lists(st.sampled_from(DECK), min_size=size, max_size=size, unique=True))


@settings(max_examples=300)
@given(card_sets(), st.randoms(use_true_random=False))
def test_the_order_of_cards_never_changes_a_classification(cards: list[Card], rng: random.Random) -> None:
    shuffled = list(cards)
    rng.shuffle(shuffled)
    first, second = classify(cards), classify(shuffled)
    assert (first is None) == (second is None)
    if first is not None and second is not None:
        assert (first.kind, first.rank, first.length) == (second.kind, second.rank, second.length)


def _brute_force_readings(cards: list[Card]) -> set[tuple[Kind, float]]:
    """Every reading of several cards, from the rule text alone (slow, independent)."""
    readings: set[tuple[Kind, float]] = set()
    has_phoenix = any(str(card) == "Phoenix" for card in cards)
    others = [card for card in cards if str(card) != "Phoenix"]
    if any(str(card) in ("Dog", "Dragon") for card in others):
        return readings
    stand_ins: list[int | None] = list(range(2, 15)) if has_phoenix else [None]
    for stand_in in stand_ins:
        ranks = sorted(
            [1 if str(c) == "Mahjong" else c.rank or 0 for c in others]
            + ([stand_in] if stand_in is not None else [])
        )
        n = len(ranks)
        counts = {r: ranks.count(r) for r in set(ranks)}
        suits = {c.suit for c in others}
        flush = not has_phoenix and 1 not in counts and len(suits) == 1
        distinct = sorted(counts)
        consecutive = distinct == list(range(distinct[0], distinct[0] + len(distinct)))
        if n >= 5 and len(distinct) == n and consecutive:
            readings.add((Kind.BOMB if flush else Kind.STRAIGHT, max(ranks)))
        if 1 in counts:
            continue
        if len(counts) == 1:
            kind = {2: Kind.PAIR, 3: Kind.TRIPLE}.get(n)
            if kind is not None:
                readings.add((kind, ranks[0]))
            if n == 4 and not has_phoenix:
                readings.add((Kind.BOMB, ranks[0]))
        if sorted(counts.values()) == [2, 3]:
            readings.add((Kind.FULL_HOUSE, next(r for r, k in counts.items() if k == 3)))
        if n >= 4 and set(counts.values()) == {2} and consecutive:
            readings.add((Kind.STAIRS, max(ranks)))
    return readings


@settings(max_examples=400)
@given(st.lists(st.sampled_from(DECK), min_size=2, max_size=7, unique=True))
def test_classify_agrees_with_a_brute_force_reading_of_the_rules(cards: list[Card]) -> None:
    readings = _brute_force_readings(cards)
    combination = classify(cards)
    if not readings:
        assert combination is None
    else:
        assert combination is not None
        assert (combination.kind, combination.rank) == max(readings, key=lambda kr: kr[1])


@st.composite
def straightish(draw: st.DrawFn) -> list[Card]:
    """Cards that often form combinations: a few neighbouring ranks, Phoenix sometimes."""
    low = draw(st.integers(min_value=2, max_value=10))
    pool = [card for card in ORDINARY if card.rank is not None and low <= card.rank <= low + 4]
    pool += [parse_cards("Phoenix")[0], parse_cards("Mahjong")[0]]
    return draw(st.lists(st.sampled_from(pool), min_size=2, max_size=8, unique=True))


@settings(max_examples=400)
@given(straightish())
def test_classify_agrees_with_brute_force_on_likely_combinations(cards: list[Card]) -> None:
    readings = _brute_force_readings(cards)
    combination = classify(cards)
    if not readings:
        assert combination is None
    else:
        assert combination is not None
        assert (combination.kind, combination.rank) == max(readings, key=lambda kr: kr[1])


@settings(max_examples=300)
@given(straightish(), straightish())
def test_with_on_the_reading_is_the_highest_that_beats(cards: list[Card], top_cards: list[Card]) -> None:
    top = classify(top_cards)
    play = classify(cards, top)
    if top is None or play is None or len(cards) == 1:
        return
    readings = [
        Combination(kind, rank, len(cards), tuple(cards)) for kind, rank in _brute_force_readings(cards)
    ]
    beating = [r for r in readings if beats(r, top)]
    if beating:
        assert beats(play, top)
        assert play.rank == max(r.rank or 0 for r in beating)
    else:
        assert not beats(play, top)


@settings(max_examples=300)
@given(card_sets(), card_sets())
def test_no_bomb_is_beaten_by_a_non_bomb(play_cards: list[Card], top_cards: list[Card]) -> None:
    play, top = classify(play_cards), classify(top_cards)
    if play is not None and top is not None and top.is_bomb and not play.is_bomb:
        assert not beats(play, top)
    if play is not None and top is not None and play.is_bomb and not top.is_bomb:
        assert beats(play, top) is (top.kind is not Kind.DOG)


def test_a_full_deck_holds_100_points() -> None:
    assert card_points(DECK) == 100
    assert len(set(DECK)) == 56
