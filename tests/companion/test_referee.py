"""The Tichu referee (CONTRACTS section 2) and the lister of legal plays."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import TICHU_SUITS, Card, format_cards, parse_cards, tichu_deck
from companion.tichu.combinations import PASS, Combination, Kind, beats, classify
from companion.tichu.referee import SituationError, judge_situation, legal_plays


def judge(play: str, trick: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    situation: dict[str, Any] = {"game": "tichu", "play": play, **extra}
    if trick is not None:
        situation["trick"] = trick
    return judge_situation(situation)


def reason(play: str, trick: list[str] | None = None, **extra: Any) -> str | None:
    verdict = judge(play, trick, **extra)
    assert verdict["legal"] is (verdict["reason"] is None)
    return verdict["reason"]  # type: ignore[no-any-return]


# --- the contract's example and the shape of verdicts ------------------------------------


def test_the_contract_example() -> None:
    verdict = judge_situation(
        {
            "game": "tichu",
            "play": "5j 5s 5p 9t 9j",
            "trick": ["4j 4s 4p Kt Kj"],
            "hand": "5j 5s 5p 9t 9j 2s 3s Dragon",
            "wish": "7",
            "turn": True,
        }
    )
    assert verdict == {
        "legal": True,
        "combination": {"kind": "full_house", "rank": 5, "length": 5},
        "points": 15,
        "reason": None,
    }


def test_a_pass_has_kind_pass_length_0_and_no_points() -> None:
    assert judge("pass", ["5j"]) == {
        "legal": True,
        "combination": {"kind": "pass", "length": 0},
        "points": 0,
        "reason": None,
    }
    assert judge("", ["5j"])["legal"] is True
    assert judge(" PASS ", ["5j"])["legal"] is True


def test_points_are_the_card_points_of_the_play() -> None:
    assert judge("5j 5s 10p 10t Kj Ks", ["2j 2s 3p 3t 4j 4s"])["points"] == 50
    assert judge("Phoenix")["points"] == -25
    assert judge("Dragon")["points"] == 25
    # also when the play is illegal
    assert judge("5j 10p")["points"] == 15
    assert judge("5j 10p")["combination"] is None


# --- reasons -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("play", "trick", "extra", "expected"),
    [
        ("Qj Qs", ["Jj Js Jp"], {}, "a pair cannot beat a triple"),
        ("9j", ["Jt"], {}, "a single 9 does not beat a single J"),
        ("9j 9s", ["Jt Jj"], {}, "a pair of 9s does not beat a pair of Js"),
        ("5j 6s", [], {}, "these cards form no combination"),
        ("8j", ["5s"], {"hand": "9j 9s"}, "8j is not in your hand"),
        ("8j 8s", ["5s 5j"], {"hand": "9j 9s"}, "8j and 8s are not in your hand"),
        ("Kj", ["5s"], {"turn": False}, "only a bomb can be played out of turn"),
        ("2j 2s 2p 2t", [], {"turn": False}, "a bomb out of turn needs a play on the table to beat"),
        ("Dog", ["5s"], {}, "the Dog can only be led"),
        ("Dog", [], {"turn": False}, "the Dog can only be led"),
        ("2j 2s 2p 2t", ["Dog"], {}, "the Dog cannot be beaten or bombed"),
        ("2j 2s 2p 2t", ["Dog"], {"turn": False}, "the Dog cannot be beaten or bombed"),
        ("Aj", ["Dragon"], {}, "nothing beats the Dragon but a bomb"),
        ("Phoenix", ["Dragon"], {}, "nothing beats the Dragon but a bomb"),
        ("Aj", ["2j 2s 2p 2t"], {}, "only a higher bomb beats a bomb"),
        ("pass", [], {}, "you lead: you must play"),
        ("pass", ["pass", ""], {}, "you lead: you must play"),
        ("9j", ["5s"], {"hand": "9j 7p", "wish": "7"}, "the wish for 7 must be played: you hold 7p"),
        ("pass", ["5s"], {"hand": "7p 7t", "wish": 7}, "the wish for 7 must be played: you hold 7p and 7t"),
        (
            "pass",
            ["5s"],
            {"hand": "7j 7s 7p 7t", "wish": 7},
            "the wish for 7 must be played: you hold 7j, 7s, 7p and 7t",
        ),
        (
            "3j 4s 5p 6t 7j 8s",
            ["2j 3s 4p 5t 6j"],
            {},
            "a straight of 6 cards cannot beat a straight of 5 cards",
        ),
        ("3j 3s 4p 4t 5j 5s", ["2p 2t 3p 3t"], {}, "stairs of 3 pairs cannot beat stairs of 2 pairs"),
        (
            "2j 2s 2p 2t",
            ["3j 3s 3p 3t"],
            {"turn": False},
            "a bomb of four 2s does not beat a bomb of four 3s",
        ),
    ],
)
def test_reasons(play: str, trick: list[str], extra: dict[str, Any], expected: str) -> None:
    verdict = judge(play, trick, **extra)
    assert verdict["legal"] is False
    assert verdict["reason"] == expected


@pytest.mark.parametrize(
    ("play", "trick", "extra"),
    [
        ("2j 2s 2p 2t", [], {}),  # a bomb may lead
        ("2j 2s 2p 2t", ["Dragon"], {"turn": False}),
        ("2j 3j 4j 5j 6j", ["Aj As Ap At"], {"turn": False}),
        ("Dog", [], {}),
        ("Dragon", ["Aj", "Phoenix"], {}),
        ("Phoenix", ["Aj"], {}),
        ("Phoenix", ["Mahjong"], {}),
        ("2j", ["Phoenix"], {}),
        ("pass", ["5j"], {"turn": False}),
        ("pass", [], {"turn": False}),
        ("Mahjong 2s 3p 4t 5j", [], {}),
        ("Kj Ks", ["Jj Phoenix"], {}),
    ],
)
def test_legal(play: str, trick: list[str], extra: dict[str, Any]) -> None:
    assert reason(play, trick, **extra) is None


def test_phoenix_single_reads_half_above_the_play_before() -> None:
    assert judge("Phoenix", ["8j"])["combination"] == {"kind": "single", "rank": 8.5, "length": 1}
    assert judge("Phoenix", ["Mahjong"])["combination"] == {"kind": "single", "rank": 1.5, "length": 1}
    assert judge("Phoenix")["combination"] == {"kind": "single", "rank": 1.5, "length": 1}
    # A Phoenix in the trick takes its value from the play before it: 9 beats 8.5, 8 does not.
    assert reason("9j", ["8j", "Phoenix"]) is None
    assert reason("8s", ["8j", "Phoenix"]) == "a single 8 does not beat the Phoenix"
    assert reason("2s", ["Phoenix"]) is None


def test_phoenix_reading_that_makes_the_play_legal_is_taken() -> None:
    # 9-10-J-Q + Phoenix reads K (highest) when that beats; on a straight to K it must be K... no: A is
    # impossible (A would need 10-A), so it stays K and does not beat.
    assert judge("9j 10s Jp Qt Phoenix", ["7j 8s 9p 10t Jj"])["combination"]["rank"] == 13
    assert reason("9j 10s Jp Qt Phoenix", ["9s 10j Js Qp Kt"]) is not None
    # 3-4-5-6 + Phoenix: reads 7 (or 2); on a straight to 6 the 7 reading beats.
    assert judge("3j 4s 5p 6t Phoenix", ["2j 3s 4p 5t 6j"])["legal"] is True


# --- the wish ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("play", "trick", "hand", "wish", "legal"),
    [
        # Leading with a 7 in the hand: a 7 must be led (or a bomb).
        ("9j", [], "9j 7p", "7", False),
        ("7p", [], "9j 7p", "7", True),
        ("7p 8p 9p 10p Jp", [], "7p 8p 9p 10p Jp 7j", "7", True),  # a bomb is always allowed
        ("2j 2s 2p 2t", [], "2j 2s 2p 2t 7j", "7", True),
        # The 7 cannot beat the table: no obligation.
        ("9j", ["8s"], "9j 7p", "7", True),
        ("pass", ["8s"], "9j 7p", "7", True),
        # A 7 in a straight that beats the table obliges.
        ("9j 10s Jp Qt Kj", ["2j 3s 4p 5t 6j"], "3t 4j 5s 6s 7p 9j 10s Jp Qt Kj", "7", False),
        ("3t 4j 5s 6s 7p", ["2j 3s 4p 5t 6j"], "3t 4j 5s 6s 7p 9j 10s Jp Qt Kj", "7", True),
        # ... also with the Phoenix's help (the FAQ of seed 000).
        ("pass", ["2j 3s 4p 5t 6j"], "4j 5s 6s 7p Phoenix", "7", False),
        # The Phoenix alone never stands in for the wish.
        ("pass", ["5j"], "Phoenix 9j", "7", True),
        ("9j", ["5j"], "Phoenix 9j", "7", True),
        # A Phoenix standing for the wished rank does not fulfil it.
        ("Phoenix 8s 9s 10s Js", ["2j 3s 4p 5t 6j"], "Phoenix 8s 9s 10s Js 7j", "7", False),
        # A bomb holding the 7 obliges (seed 003, wish example 3), any bomb fulfils.
        ("pass", ["8s"], "7j 7s 7p 7t 3j", "7", False),
        ("7j 7s 7p 7t", ["8s"], "7j 7s 7p 7t 3j", "7", True),
        # Pair of 7 with the Phoenix beats a pair of 5s: obliged.
        ("9j 9s", ["5j 5s"], "9j 9s 7p Phoenix", "7", False),
        ("7p Phoenix", ["5j 5s"], "9j 9s 7p Phoenix", "7", True),
        # Out of turn nothing binds.
        ("2j 2s 2p 2t", ["5j"], "2j 2s 2p 2t 7j", "7", True),
        # Without a hand the referee cannot know: any legal play is legal.
        ("9j", ["5j"], None, "7", True),
        # Full house with the wished rank as the pair.
        ("9j 9s 9p 3j 3s", ["8j 8s 8p 2j 2s"], "9j 9s 9p 3j 3s 7j 7s", "7", False),
        # Stairs holding the 7.
        ("pass", ["2j 2s 3p 3t"], "6j 6s 7p 7t", "7", False),
        ("pass", ["2j 2s 3p 3t"], "6j 6s 7p", "7", True),
        ("pass", ["2j 2s 3p 3t"], "6j 6s 7p Phoenix", "7", False),
    ],
)
def test_wish(play: str, trick: list[str], hand: str | None, wish: str, legal: bool) -> None:
    extra: dict[str, Any] = {"wish": wish}
    if hand is not None:
        extra["hand"] = hand
    if play == "2j 2s 2p 2t" and trick == ["5j"]:
        extra["turn"] = False
    verdict = judge(play, trick, **extra)
    assert verdict["legal"] is legal, verdict
    if not legal and verdict["reason"].startswith("the wish"):
        # The reason names exactly the hand's cards of the wished rank.
        assert hand is not None
        sevens = [c for c in format_cards(parse_cards(hand)).split() if c.startswith("7")]
        assert verdict["reason"].startswith("the wish for 7 must be played: you hold ")
        assert verdict["reason"].endswith(sevens[-1])
        assert all(card in verdict["reason"] for card in sevens)


def test_an_illegal_play_gives_its_own_reason_before_the_wish() -> None:
    assert reason("9j", ["Jj"], hand="9j 8p", wish="8") == "a single 9 does not beat a single J"


# --- situations that cannot be real --------------------------------------------------------


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ({"play": "5j Zz"}, "cannot read card 'Zz' in the play"),
        ({"play": "5j", "hand": "5j 6q"}, "cannot read card '6q' in the hand"),
        ({"play": "5j", "trick": ["4j", "Xx"]}, "cannot read card 'Xx' in trick play 2"),
        ({"play": "5j 5J"}, "5j is written twice in the play"),
        ({"play": "5j", "hand": "5j 6s 6s"}, "6s is written twice in the hand"),
        ({"play": "5j", "trick": ["4j 4j"]}, "4j is written twice in trick play 1"),
        ({"play": "5j", "trick": ["4j"], "hand": "5j 4j"}, "4j is both in the hand and in trick play 1"),
        ({"play": "4j", "trick": ["4j"]}, "4j is both in the play and in trick play 1"),
        ({"play": "5j", "trick": ["4j", "4j"]}, "4j is both in trick play 1 and in trick play 2"),
        ({"play": "5j", "wish": "1"}, "the wish must be a rank 2..A, got '1'"),
        ({"play": "5j", "wish": "Dragon"}, "the wish must be a rank 2..A, got 'Dragon'"),
        ({"play": "5j", "wish": 15}, "the wish must be a rank 2..A, got 15"),
        ({"play": "5j", "wish": "15"}, "the wish must be a rank 2..A, got '15'"),
        ({"play": "5j", "wish": "0"}, "the wish must be a rank 2..A, got '0'"),
        ({"play": "5j", "wish": "Phoenix"}, "the wish must be a rank 2..A, got 'Phoenix'"),
        ({"play": "5j", "wish": [7]}, "the wish must be a rank 2..A, got a list"),
        ({"play": "5j", "wish": True}, "the wish must be a rank 2..A, got a boolean"),
        ({"play": "5j", "wish": 7.5}, "the wish must be a rank 2..A, got a number"),
        ({"play": "5j", "game": "chess"}, "unknown game 'chess'"),
        ({"play": "5j", "game": 3}, "game must be a string, got a number"),
        ({"trick": ["5j"]}, 'missing "play": the cards played ("pass" to pass)'),
        ({"play": None}, "play must be a string of cards, got null"),
        ({"play": ["5j"]}, "play must be a string of cards, got a list"),
        ({"play": "5j", "hand": 5}, "the hand must be a string of cards, got a number"),
        ({"play": "5j", "trick": "4j"}, "trick must be a list of plays, got a string"),
        ({"play": "5j", "trick": [4]}, "trick play 1 must be a string of cards, got a number"),
        ({"play": "5j", "turn": "yes"}, "turn must be true or false, got a string"),
        ({"play": "5j", "trick": ["4j 6s"]}, "trick play 1 (4j 6s) forms no combination"),
    ],
)
def test_situation_errors(situation: dict[str, Any], message: str) -> None:
    with pytest.raises(SituationError) as caught:
        judge_situation(situation)
    assert str(caught.value) == message


def test_a_situation_must_be_an_object() -> None:
    with pytest.raises(SituationError, match="JSON object"):
        judge_situation(["5j"])  # type: ignore[arg-type]


@pytest.mark.parametrize("wish", ["7", 7, "10", 10, "T", "t", "J", "q", "A", " k ", "14", 2, "", None])
def test_wish_spellings(wish: object) -> None:
    assert judge("5j", [], wish=wish)["legal"] is True


@pytest.mark.parametrize("absent", [{}, {"wish": None}, {"trick": None}, {"turn": None}, {"hand": None}])
def test_null_means_absent(absent: dict[str, Any]) -> None:
    assert judge_situation({"play": "5j", **absent})["legal"] is True


# --- the lister ----------------------------------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def card_sets(plays: list[Combination]) -> set[str]:
    return {format_cards(play.cards) if play.kind is not Kind.PASS else "pass" for play in plays}


def test_lister_following_a_pair() -> None:
    plays = legal_plays(cards("7j 7s 9p Phoenix 2j 2s 2p 2t"), classify(cards("8j 8s")))
    assert card_sets(plays) == {"9p Phoenix", "2j 2s 2p 2t", "pass"}


def test_lister_leading_lists_every_combination_once() -> None:
    plays = legal_plays(cards("3j 4s 5p 6t Phoenix"))
    sets = [format_cards(play.cards) for play in plays]
    assert len(sets) == len(set(sets))
    assert "3j 4s 5p 6t Phoenix" in sets  # one straight, read as 3..7
    straight = next(play for play in plays if play.kind is Kind.STRAIGHT)
    assert straight.rank == 7
    assert "pass" not in card_sets(plays)  # a leader cannot pass


def test_lister_out_of_turn_only_bombs_on_a_play() -> None:
    hand = cards("2j 2s 2p 2t 3j 4j 5j 6j 7j Dragon")
    assert card_sets(legal_plays(hand, None, turn=False)) == {"pass"}
    plays = legal_plays(hand, classify(cards("Kj")), turn=False)
    assert card_sets(plays) == {
        "2j 2s 2p 2t",
        "3j 4j 5j 6j 7j",
        "2j 3j 4j 5j 6j",
        "2j 3j 4j 5j 6j 7j",
        "pass",
    }


def test_lister_nothing_on_the_dog() -> None:
    assert legal_plays(cards("2j 2s 2p 2t Dragon"), classify(cards("Dog"))) == [PASS]


def test_lister_with_wish() -> None:
    plays = legal_plays(cards("7j 9s Phoenix 2j 2s 2p 2t"), classify(cards("5s")), wish=7)
    assert card_sets(plays) == {"7j", "2j 2s 2p 2t"}


def test_lister_accepts_a_list_of_trick_plays() -> None:
    trick = [classify(cards("5s")), PASS, classify(cards("8s"))]
    plays = legal_plays(cards("7j 9s"), [c for c in trick if c is not None])
    assert card_sets(plays) == {"9s", "pass"}


# --- properties: the lister, the referee and brute force agree -----------------------------

DECK = tichu_deck()


def situation_for(
    play: tuple[Card, ...] | None,
    hand: list[Card],
    trick: list[tuple[Card, ...]],
    wish: int | None,
    turn: bool,
) -> dict[str, Any]:
    return {
        "play": "pass" if play is None else " ".join(map(str, play)),
        "hand": " ".join(map(str, hand)),
        "trick": [" ".join(map(str, cards)) for cards in trick],
        "wish": wish,
        "turn": turn,
    }


@st.composite
def tables(draw: st.DrawFn, hand_size: int) -> tuple[list[Card], list[tuple[Card, ...]], int | None, bool]:
    """A hand, a trick taken from the other cards, an optional wish, and the turn flag."""
    rng = draw(st.randoms(use_true_random=False))
    # Draw from a few neighbouring ranks plus specials, so that combinations are common.
    low = draw(st.integers(min_value=1, max_value=10))
    shape = draw(st.sampled_from(["neighbours", "neighbours", "one suit", "anything"]))
    if shape == "neighbours":
        pool = [c for c in DECK if c.rank is None or low <= c.rank <= low + 4]
    elif shape == "one suit":  # straight flushes
        suit = draw(st.sampled_from(TICHU_SUITS))
        pool = [c for c in DECK if c.rank is None or c.suit is suit or c.rank == low + 2]
    else:
        pool = list(DECK)
    rng.shuffle(pool)
    hand = pool[:hand_size]
    rest = pool[hand_size:] + [c for c in DECK if c not in pool]
    trick: list[tuple[Card, ...]] = []
    if draw(st.integers(min_value=0, max_value=3)):
        rest_plays = [p for p in legal_plays(rng.sample(rest, 14)) if p.kind is not Kind.PASS]
        trick = [rng.choice(rest_plays).cards]
    wish = draw(st.one_of(st.none(), st.integers(min_value=2, max_value=14)))
    turn = draw(st.integers(min_value=0, max_value=4)) > 0
    return hand, trick, wish, turn


def top_of(trick: list[tuple[Card, ...]]) -> Combination | None:
    return classify(trick[-1]) if trick else None


@settings(max_examples=60)
@given(tables(hand_size=9))
def test_small_hands_every_subset_agrees_with_the_lister(
    table: tuple[list[Card], list[tuple[Card, ...]], int | None, bool],
) -> None:
    hand, trick, wish, turn = table
    top = top_of(trick)
    plays = legal_plays(hand, top, wish, turn)
    offered = {frozenset(p.cards): p for p in plays}
    assert len(offered) == len(plays), "each card set is listed once"
    for size in range(len(hand) + 1):
        for subset in itertools.combinations(hand, size):
            play = subset or None
            verdict = judge_situation(situation_for(play, hand, trick, wish, turn))
            key = frozenset(subset)
            assert verdict["legal"] is (key in offered), (subset, verdict)
            if verdict["legal"]:
                assert verdict["combination"] == offered[key].to_json()


def brute_force_normal_plays(hand: list[Card], top: Combination | None) -> set[frozenset[Card]]:
    """Plays legal by the normal rules (no wish), by trying every subset with classify/beats."""
    legal = set()
    for size in range(1, len(hand) + 1):
        for subset in itertools.combinations(hand, size):
            combination = classify(subset, top)
            if combination is None:
                continue
            if top is None or beats(combination, top):
                legal.add(frozenset(subset))
    return legal


@settings(max_examples=60)
@given(tables(hand_size=10))
def test_the_wish_obligation_matches_its_definition(
    table: tuple[list[Card], list[tuple[Card, ...]], int | None, bool],
) -> None:
    hand, trick, wish, _ = table
    top = top_of(trick)
    normal = brute_force_normal_plays(hand, top)
    offered = {frozenset(p.cards) for p in legal_plays(hand, top, wish) if p.kind is not Kind.PASS}
    if wish is not None and any(any(card.rank == wish for card in play) for play in normal):
        expected = {
            play
            for play in normal
            if any(card.rank == wish for card in play) or classify(play, top).is_bomb  # type: ignore[union-attr]
        }
    else:
        expected = normal
    assert offered == expected


@settings(max_examples=40)
@given(tables(hand_size=14), st.randoms(use_true_random=False))
def test_full_hands_referee_and_lister_agree_on_random_subsets(
    table: tuple[list[Card], list[tuple[Card, ...]], int | None, bool], rng: random.Random
) -> None:
    hand, trick, wish, turn = table
    top = top_of(trick)
    plays = legal_plays(hand, top, wish, turn)
    offered = {frozenset(p.cards) for p in plays if p.kind is not Kind.PASS}
    assert len(offered) + any(p.kind is Kind.PASS for p in plays) == len(plays), "each card set once"
    for play in plays:
        subset = None if play.kind is Kind.PASS else play.cards
        verdict = judge_situation(situation_for(subset, hand, trick, wish, turn))
        assert verdict["legal"], (play, verdict)
        assert verdict["combination"] == play.to_json()
    for _ in range(150):
        size = rng.choice([1, 2, 2, 3, 4, 5, 5, 6, 7, 8])
        subset = tuple(rng.sample(hand, size))
        verdict = judge_situation(situation_for(subset, hand, trick, wish, turn))
        assert verdict["legal"] is (frozenset(subset) in offered), (subset, verdict)
    pass_verdict = judge_situation(situation_for(None, hand, trick, wish, turn))
    assert pass_verdict["legal"] is any(p.kind is Kind.PASS for p in plays)


def test_lister_finds_the_longest_stairs_and_straight() -> None:
    pairs = cards("2j 2s 3j 3s 4j 4s 5j 5s 6j 6s 7j 7s 8j 8s")
    longest = max(legal_plays(pairs), key=lambda play: play.length)
    assert (longest.kind, longest.rank, longest.length) == (Kind.STAIRS, 8, 14)
    with_phoenix = cards("2j 2s 3j 3s 4j 4s 5j Phoenix 6j 6s 7j 7s 8j 8s")
    assert any(play.length == 14 for play in legal_plays(with_phoenix))
    straight = cards("Mahjong 2j 3s 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj")
    longest = max(legal_plays(straight), key=lambda play: play.length)
    assert (longest.kind, longest.rank, longest.length) == (Kind.STRAIGHT, 14, 14)
    # the Jade run 4j..Aj is a straight flush bomb of 11 cards (the 3 is a Sword)
    bombs = [play for play in legal_plays(straight) if play.is_bomb]
    assert max(play.length for play in bombs) == 11  # 4j..Aj
