"""Tichu scoring: rounds, games and the score document (CONTRACTS section 3, RULES.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import Card, card_points, format_cards, parse_cards, tichu_deck
from companion.errors import RuleError, UnknownGameError
from companion.tichu.scoring import (
    ROUND_KEYS,
    ScoreError,
    score_document,
    score_game,
    score_round,
    team_of,
)

DECK: tuple[Card, ...] = tichu_deck()
SEAT_ORDERS = st.permutations(["0", "1", "2", "3"])
FIFTEEN = "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj 2s 3s"


def deck_without(*names: str) -> str:
    """The whole deck as text, minus the named cards."""
    left_out = set(parse_cards(" ".join(names)))
    return format_cards(card for card in DECK if card not in left_out)


def refused(round_obj: Any, *, number: int | None = 1, double_victory: int = 200) -> str:
    with pytest.raises(ScoreError) as caught:
        score_round(round_obj, double_victory=double_victory, number=number)
    message = str(caught.value)
    assert len(message) <= 160, "too long for a phone"
    return message


# --- The contract's and the rule books' worked rounds -------------------------------------


def test_contract_example_document() -> None:
    rest = deck_without("Dragon", "5j", "Kt", "10t", "Phoenix")
    document = {
        "game": "tichu",
        "target": 1000,
        "rounds": [
            {"calls": {"0": "grand", "3": "tichu"}, "out": [0, 1, 3, 2], "points": {"0": 60}},
            {"calls": {"1": "tichu"}, "out": [1, 3]},
            # seat 1 is last: its tricks (Dragon 5j = 30) go to seat 2, out first; its hand
            # (Kt 10t Phoenix = -5) to team 0; seat 0's tricks hold the other 75.
            {"out": [2, 3, 0, 1], "tricks": {"0": rest, "1": "Dragon 5j"}, "hand": "Kt 10t Phoenix"},
        ],
    }
    result = score_document(document)
    assert result == {
        "rounds": [{"0": 260, "1": -60}, {"0": 0, "1": 300}, {"0": 100, "1": 0}],
        "totals": {"0": 360, "1": 240},
        "finished": False,
        "winner": None,
    }


def test_rule_book_round_end_hand_over() -> None:
    # Seed 003: 1. the loser's hand goes to the other team; 2. the loser's tricks go to
    # the player out first; 3. count. Seat 3 last, seat 0 out first (same team as the
    # hand receiver): everything seat 3 holds or took ends with team 0.
    rest = deck_without("Dragon", "Kj", "5s")
    tricks = {"1": rest, "3": "Dragon"}
    assert score_round({"out": [0, 1, 2, 3], "tricks": tricks, "hand": "Kj 5s"}) == {"0": 40, "1": 60}
    # Seat 1 out first instead: seat 3's Dragon trick stays with team 1.
    assert score_round({"out": [1, 0, 2, 3], "tricks": tricks, "hand": "Kj 5s"}) == {"0": 15, "1": 85}


def test_rule_book_tichu_partner_out_first_loses_the_call() -> None:
    # Seed 000: "if the partner goes out first, the team still loses 100 points".
    assert score_round({"calls": {"0": "tichu"}, "out": [2, 1], "points": {"0": 50}}) == {"0": -50, "1": 50}


def test_rule_book_double_victory_skips_card_points() -> None:
    # Seed 004: 1st and 2nd of one team: no card count, that team gets 200.
    assert score_round({"out": [3, 1]}) == {"0": 0, "1": 200}
    assert score_round({"out": [3, 1], "calls": {"3": "tichu", "0": "grand"}}) == {"0": -200, "1": 300}


def test_rule_book_both_teams_over_target_the_higher_wins() -> None:
    # Seed 000: both teams reach 1000 at once: the higher wins; a tie continues.
    even = [{"out": [0, 1], "points": {"0": 50}}] * 19
    tie = score_game([*even, {"out": [1, 0], "points": {"0": 100}, "calls": {"1": "tichu"}}])
    assert tie["totals"] == {"0": 1050, "1": 1050}
    assert (tie["finished"], tie["winner"]) == (False, None)
    won = score_game([*even, {"out": [1, 0], "points": {"0": 100}, "calls": {"1": "grand"}}])
    assert won["totals"] == {"0": 1050, "1": 1150}
    assert (won["finished"], won["winner"]) == (True, "1")


# --- Calls -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("calls", "out", "expected"),
    [
        ({"0": "tichu"}, [0, 1], {"0": 150, "1": 50}),
        ({"0": "tichu"}, [1, 0], {"0": -50, "1": 50}),
        ({"1": "grand"}, [1, 0], {"0": 50, "1": 250}),
        ({"1": "grand"}, [0, 1], {"0": 50, "1": -150}),
        ({"0": "tichu", "2": "tichu"}, [0, 1], {"0": 50, "1": 50}),  # each call on its own
        ({"0": "grand", "2": "tichu"}, [2, 3], {"0": -50, "1": 50}),
        ({"0": "tichu", "1": "tichu", "2": "grand", "3": "grand"}, [3, 0], {"0": -250, "1": 150}),
        ({3: "TICHU"}, [3, 0], {"0": 50, "1": 150}),  # int keys and any case
        (None, [0, 1], {"0": 50, "1": 50}),
        ({}, [0, 1], {"0": 50, "1": 50}),
    ],
)
def test_calls(calls: Any, out: list[int], expected: dict[str, int]) -> None:
    assert score_round({"calls": calls, "out": out, "points": {"0": 50}}) == expected


@pytest.mark.parametrize(
    ("calls", "message"),
    [
        ({"0": "big"}, "round 1: unknown call 'big' for seat 0 (use tichu or grand)"),
        ({"0": 100}, "round 1: unknown call 100 for seat 0"),
        ({"0": None}, "round 1: unknown call null for seat 0"),
        ({"4": "tichu"}, "round 1: unknown seat '4' in calls"),
        ({"north": "tichu"}, "round 1: unknown seat 'north' in calls"),
        ({0: "tichu", "0": "grand"}, "round 1: seat 0 has more than one call"),
        (["0", "tichu"], "round 1: calls must be an object"),
        ("0 tichu", "round 1: calls must be an object"),
    ],
)
def test_bad_calls(calls: Any, message: str) -> None:
    assert refused({"calls": calls, "out": [0, 1], "points": {"0": 50}}).startswith(message)


# --- Going out -----------------------------------------------------------------------------


@pytest.mark.parametrize("out", [[0, 1], ["0", "1"], [0, "1", 2], [" 0", 1, 2, 3], (0, 1, 3, 2)])
def test_out_accepts_numbers_and_strings(out: Any) -> None:
    assert score_round({"out": out, "points": {"1": 40}, "calls": {"0": "tichu"}}) == {"0": 160, "1": 40}


@pytest.mark.parametrize(
    ("round_obj", "message"),
    [
        ({"points": {"0": 50}}, "round 1: out is missing"),
        ({"out": None, "points": {"0": 50}}, "round 1: out is missing"),
        ({"out": "0 1", "points": {"0": 50}}, "round 1: out must be a list of seats"),
        ({"out": {"0": 1}, "points": {"0": 50}}, "round 1: out must be a list of seats"),
        ({"out": [0, 0], "points": {"0": 50}}, "round 1: seat 0 is in out twice"),
        ({"out": [0, 1, "1"], "points": {"0": 50}}, "round 1: seat 1 is in out twice"),
        ({"out": [0, 4], "points": {"0": 50}}, "round 1: unknown seat 4 in out (seats are 0 to 3)"),
        ({"out": [0, -1], "points": {"0": 50}}, "round 1: unknown seat -1 in out"),
        ({"out": [0, True], "points": {"0": 50}}, "round 1: unknown seat true/false in out"),
        ({"out": [0, 1.5], "points": {"0": 50}}, "round 1: unknown seat 1.5 in out"),
        ({"out": [0, None], "points": {"0": 50}}, "round 1: unknown seat null in out"),
        ({"out": [0], "points": {"0": 50}}, "round 1: out needs at least the first two seats out, got 1"),
        ({"out": [], "points": {"0": 50}}, "round 1: out needs at least the first two seats out, got 0"),
    ],
)
def test_bad_out(round_obj: Any, message: str) -> None:
    assert refused(round_obj).startswith(message)


# --- Double victory -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "round_obj",
    [
        {"out": [0, 2]},
        {"out": [2, 0, 1, 3]},  # a full order after a double victory is fine
        {"out": [0, 2, 3]},
        {"out": [0, 2], "points": {}},
        {"out": [0, 2], "points": None, "tricks": None, "hand": None},
        {"out": [0, 2], "tricks": {}, "hand": ""},
    ],
)
def test_double_victory(round_obj: dict[str, Any]) -> None:
    assert score_round(round_obj) == {"0": 200, "1": 0}
    assert score_round(round_obj, double_victory=300) == {"0": 300, "1": 0}


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        ({"points": {"0": 100}}, "points"),
        ({"points": {"0": 0, "1": 100}}, "points"),
        ({"points": {"0": 0}}, "points"),
        ({"tricks": {"0": deck_without()}, "hand": ""}, "tricks"),
        ({"hand": "5j"}, "hand"),
    ],
)
def test_double_victory_refuses_card_points(extra: dict[str, Any], key: str) -> None:
    message = refused({"out": [1, 3], **extra})
    assert message.startswith("round 1: ")
    assert "double victory" in message or "hand needs tricks" in message
    assert key in message


# --- Points -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ({"0": 60}, {"0": 60, "1": 40}),
        ({"1": 60}, {"0": 40, "1": 60}),
        ({"0": 60, "1": 40}, {"0": 60, "1": 40}),
        ({0: -25}, {"0": -25, "1": 125}),
        ({"1": 125}, {"0": -25, "1": 125}),
        ({"0": 0}, {"0": 0, "1": 100}),
        ({"0": 60.0}, {"0": 60, "1": 40}),
    ],
)
def test_points(points: dict[Any, Any], expected: dict[str, int]) -> None:
    assert score_round({"out": [0, 1], "points": points}) == expected


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ({"0": 33}, "round 1: points must be a multiple of 5, got 33"),
        ({"0": 130}, "round 1: points for team 0 must be from -25 to 125, got 130"),
        ({"1": -30}, "round 1: points for team 1 must be from -25 to 125, got -30"),
        ({"0": 60, "1": 50}, "round 1: team points must add up to 100, got 60 + 50 = 110"),
        ({"0": 125, "1": 125}, "round 1: team points must add up to 100"),
        ({"2": 50}, "round 1: unknown team '2' in points (teams are 0 and 1)"),
        ({"A": 50}, "round 1: unknown team 'A' in points"),
        ({0: 50, "0": 50}, "round 1: team 0 has points twice"),
        ({"0": "60"}, "round 1: points for team 0 must be a whole number, got text"),
        ({"0": True}, "round 1: points for team 0 must be a whole number, got true/false"),
        ({"0": None}, "round 1: points for team 0 must be a whole number, got null"),
        ({"0": 60.5}, "round 1: points for team 0 must be a whole number, got 60.5"),
        ({"0": 10**5000}, "round 1: points for team 0 must be from -25 to 125, got a huge number"),
        ({"0": 1e300}, "round 1: points for team 0 must be from -25 to 125, got a huge number"),
        ({"0": float("nan")}, "round 1: points for team 0 must be a whole number, got nan"),
        ({"0": float("-inf")}, "round 1: points for team 0 must be a whole number, got -inf"),
        ({}, "round 1: points is empty"),
        ("60", "round 1: points must be an object"),
        (60, "round 1: points must be an object"),
        ([60, 40], "round 1: points must be an object"),
    ],
)
def test_bad_points(points: Any, message: str) -> None:
    assert refused({"out": [0, 1], "points": points}).startswith(message)


def test_a_normal_round_needs_card_points() -> None:
    assert refused({"out": [0, 1]}) == "round 1: card points are missing: give points, or tricks and hand"
    assert refused({"out": [0, 1], "points": None}).startswith("round 1: card points are missing")


# --- Round objects ------------------------------------------------------------------------


def test_round_keys_are_the_contract_keys() -> None:
    assert frozenset({"calls", "out", "points", "tricks", "hand"}) == ROUND_KEYS


@pytest.mark.parametrize(
    ("round_obj", "message"),
    [
        ({"out": [0, 1], "points": {"0": 50}, "bonus": 5}, "round 1: unknown key 'bonus'"),
        ({"out": [0, 1], "points": {"0": 50}, "Out": [0, 1]}, "round 1: unknown key 'Out'"),
        ([0, 1], "round 1: a round must be an object, got a list"),
        ("out 0 1", "round 1: a round must be an object, got text"),
        (None, "round 1: a round must be an object, got null"),
    ],
)
def test_bad_round_objects(round_obj: Any, message: str) -> None:
    assert refused(round_obj).startswith(message)


def test_errors_are_rule_errors_and_name_no_round_without_a_number() -> None:
    with pytest.raises(RuleError) as caught:
        score_round({"out": [0, 1], "points": {"0": 33}})
    assert str(caught.value) == "points must be a multiple of 5, got 33"


# --- Card points from the cards -----------------------------------------------------------


def test_tricks_as_a_list_of_trick_texts() -> None:
    tricks = {"0": ["5j 5s", "Kj Ks, 10j"], "1": deck_without("5j", "5s", "Kj", "Ks", "10j", "2j")}
    assert score_round({"out": [0, 1, 2], "tricks": tricks, "hand": "2j"}) == {"0": 40, "1": 60}


def test_three_seats_out_make_the_fourth_the_last() -> None:
    # Seat 2 is last (not listed); its hand goes to team 1, its tricks to seat 3.
    tricks = {"0": deck_without("Dragon", "Kj", "Phoenix"), "2": "Dragon Phoenix"}
    assert score_round({"out": [3, 0, 1], "tricks": tricks, "hand": "Kj"}) == {"0": 90, "1": 10}


@pytest.mark.parametrize(
    ("round_obj", "message"),
    [
        (
            {"out": [0, 1], "tricks": {"0": deck_without("2j")}, "hand": "2j"},
            "round 1: to count the cards, out needs the first three seats out",
        ),
        ({"out": [0, 1, 2], "tricks": {"0": deck_without()}}, "round 1: tricks need hand"),
        ({"out": [0, 1, 2], "tricks": {"0": deck_without()}, "hand": ""}, "round 1: tricks need hand"),
        ({"out": [0, 1, 2], "hand": "2j"}, "round 1: hand needs tricks"),
        (
            {"out": [0, 1, 2], "points": {"0": 50}, "tricks": {"0": deck_without("2j")}, "hand": "2j"},
            "round 1: give points or tricks, not both",
        ),
        (
            {"out": [0, 1, 2], "points": {"0": 50}, "hand": "2j"},
            "round 1: hand needs tricks",
        ),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without("2j", "5j", "Dragon")}, "hand": "2j"},
            "round 1: cards missing: 5j Dragon (tricks and hand need all 56 cards once)",
        ),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without("2j"), "1": "Kt kt"}, "hand": "2j"},
            "round 1: cards written twice: Kt",
        ),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without("2j", "5j"), "1": "Kt"}, "hand": "2j"},
            "round 1: cards missing: 5j; written twice: Kt (tricks and hand need all 56 cards once)",
        ),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without("2j"), "1": "Kh BJ"}, "hand": "2j"},
            "round 1: cannot read cards 'Kh', 'BJ' in seat 1's tricks (not Tichu cards)",
        ),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without("2j")}, "hand": "2j RJ"},
            "round 1: cannot read card 'RJ' in hand",
        ),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without("2j"), "5": "2j"}, "hand": "3j"},
            "round 1: unknown seat '5' in tricks",
        ),
        (
            {"out": [0, 1, 2], "tricks": {0: deck_without("2j"), "0": ""}, "hand": "2j"},
            "round 1: seat 0 has tricks twice",
        ),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without("2j"), "1": 5}, "hand": "2j"},
            "round 1: seat 1's tricks must be card text",
        ),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without("2j"), "1": ["5j", 5]}, "hand": "2j"},
            "round 1: seat 1's tricks must be card text",
        ),
        ({"out": [0, 1, 2], "tricks": deck_without("2j"), "hand": "2j"}, "round 1: tricks must be an object"),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without("2j")}, "hand": {"3": "2j"}},
            "round 1: hand must be card text",
        ),
        (
            {"out": [0, 1, 2], "tricks": {"0": deck_without(*FIFTEEN.split())}, "hand": FIFTEEN},
            "round 1: the last player (seat 3) must hold 1 to 14 cards, got 15",
        ),
    ],
)
def test_bad_cards(round_obj: dict[str, Any], message: str) -> None:
    assert refused(round_obj).startswith(message)


def test_long_card_lists_are_cut_short() -> None:
    message = refused({"out": [0, 1, 2], "tricks": {"0": "5j"}, "hand": "2j"})
    assert message.startswith("round 1: cards missing: ")
    assert "and 48 more" in message
    many = {"0": deck_without(), "1": deck_without(), "2": "2j"}
    message = refused({"out": [0, 1, 2], "tricks": many, "hand": "3j"})
    assert message.startswith("round 1: cards written twice: Dog Mahjong 2j 2s 2p 2t and 50 more")
    half = format_cards(sorted(DECK)[:28])
    message = refused({"out": [0, 1, 2], "tricks": {"0": half, "1": half}, "hand": "Dragon"})
    assert message.startswith("round 1: cards missing: ")
    assert "; written twice: " in message


# --- Games and documents ------------------------------------------------------------------


def test_game_finishes_when_a_team_reaches_the_target_and_leads() -> None:
    rounds = [{"out": [0, 2]}] * 4 + [{"out": [0, 1], "points": {"0": 100}}]
    result = score_game(rounds, 1000)
    assert result["totals"] == {"0": 900, "1": 0}
    assert (result["finished"], result["winner"]) == (False, None)
    result = score_game([*rounds, {"out": [1, 0], "points": {"0": 100}}], 1000)
    assert result["totals"] == {"0": 1000, "1": 0}
    assert (result["finished"], result["winner"]) == (True, "0")


def test_a_tie_at_the_target_continues() -> None:
    rounds = [{"out": [0, 2]}] * 5 + [{"out": [1, 3]}] * 5
    assert score_game(rounds, 1000) == {
        "rounds": [{"0": 200, "1": 0}] * 5 + [{"0": 0, "1": 200}] * 5,
        "totals": {"0": 1000, "1": 1000},
        "finished": False,
        "winner": None,
    }
    result = score_game([*rounds, {"out": [3, 0], "points": {"1": 55}}], 1000)
    assert (result["finished"], result["winner"]) == (True, "1")


def test_reaching_the_target_while_behind_is_not_a_win() -> None:
    result = score_game([{"out": [1, 3]}, {"out": [0, 2]}, {"out": [1, 3]}], 200)
    assert result["totals"] == {"0": 200, "1": 400}
    assert result["winner"] == "1"
    result = score_game([{"out": [1, 3], "calls": {"0": "grand"}}, {"out": [0, 2]}], 150)
    assert result["totals"] == {"0": 0, "1": 200}
    assert result["winner"] == "1"


def test_the_game_is_judged_after_the_last_round() -> None:
    # Team 0 led at 200 after round 1; by the end team 1 is ahead: the winner is team 1.
    result = score_game([{"out": [0, 2]}, {"out": [1, 3]}, {"out": [1, 3]}], 200)
    assert (result["finished"], result["winner"]) == (True, "1")
    result = score_game([{"out": [0, 2]}, {"out": [1, 3], "calls": {"0": "grand"}}], 200)
    assert result["totals"] == {"0": 0, "1": 200}
    assert result["winner"] == "1"
    result = score_game([{"out": [0, 2]}, {"out": [1, 0], "calls": {"2": "grand"}, "points": {"0": 0}}], 200)
    assert (result["finished"], result["winner"]) == (False, None)


def test_game_errors_name_the_round() -> None:
    rounds: list[dict[str, Any]] = [
        {"out": [0, 2]},
        {"out": [0, 1], "points": {"0": 50}},
        {"out": [0, 1], "points": {"0": 33}},
    ]
    with pytest.raises(ScoreError) as caught:
        score_game(rounds)
    assert str(caught.value) == "round 3: points must be a multiple of 5, got 33"
    assert caught.value.round_number == 3
    assert caught.value.problem == "points must be a multiple of 5, got 33"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (0, "target must be a positive whole number, got 0"),
        (-500, "target must be a positive whole number, got -500"),
        ("1000", "target must be a whole number, got text"),
        (True, "target must be a whole number, got true/false"),
        (999.5, "target must be a whole number, got 999.5"),
        (None, "target must be a whole number, got null"),
    ],
)
def test_bad_targets(target: Any, message: str) -> None:
    with pytest.raises(ScoreError, match=f"^{message}$"):
        score_document({"target": target, "rounds": []})


@pytest.mark.parametrize("target", [1, 500, 2000, 1000.0])
def test_good_targets(target: Any) -> None:
    result = score_document({"target": target, "rounds": [{"out": [0, 2]}, {"out": [0, 2]}, {"out": [0, 2]}]})
    assert result["finished"] is (target <= 600)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"rounds": [], "players": ["Ann"]}, "unknown key 'players'"),
        ({"game": "tichu"}, "rounds is missing"),
        ({"rounds": {"0": {"out": [0, 2]}}}, "rounds must be a list of rounds, got an object"),
        ({"rounds": "none"}, "rounds must be a list of rounds, got text"),
        ({"rounds": None}, "rounds must be a list of rounds, got null"),
        ({"game": 1, "rounds": []}, 'game must be a name like "tichu", got a number'),
        ({"rounds": [], "double_victory": 0}, "double_victory must be a positive multiple of 5, got 0"),
        ({"rounds": [], "double_victory": -200}, "double_victory must be a positive multiple of 5, got -200"),
        ({"rounds": [], "double_victory": 202}, "double_victory must be a positive multiple of 5, got 202"),
        ({"rounds": [], "double_victory": "200"}, "double_victory must be a whole number, got text"),
        ({"rounds": [], "double_victory": False}, "double_victory must be a whole number, got true/false"),
        (["rounds"], "the document must be an object, got a list"),
    ],
)
def test_bad_documents(document: Any, message: str) -> None:
    with pytest.raises(ScoreError) as caught:
        score_document(document)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("game", ["chess", "shengji", ""])
def test_unknown_games(game: str) -> None:
    with pytest.raises(UnknownGameError, match="unknown game"):
        score_document({"game": game, "rounds": []})


def test_document_defaults_and_double_victory_extension() -> None:
    rounds = [{"out": [0, 2]}, {"out": [3, 1], "calls": {"3": "tichu"}}]
    assert score_document({"rounds": rounds}) == score_document(
        {"game": "Tichu", "target": 1000, "double_victory": 200, "rounds": rounds}
    )
    result = score_document({"rounds": rounds, "double_victory": 300, "target": 300})
    assert result["rounds"] == [{"0": 300, "1": 0}, {"0": 0, "1": 400}]
    assert (result["finished"], result["winner"]) == (True, "1")


def test_empty_game() -> None:
    assert score_game([]) == {"rounds": [], "totals": {"0": 0, "1": 0}, "finished": False, "winner": None}


# --- Properties ---------------------------------------------------------------------------

VALID_POINTS = st.integers(min_value=-5, max_value=25).map(lambda n: n * 5)
CALLS = st.dictionaries(st.sampled_from(["0", "1", "2", "3"]), st.sampled_from(["tichu", "grand"]))


def call_effect(calls: Mapping[str, str], first: str) -> dict[str, int]:
    """The call bonuses by team, computed independently of the module."""
    effect = {"0": 0, "1": 0}
    for seat, call in calls.items():
        value = 100 if call == "tichu" else 200
        effect[str(int(seat) % 2)] += value if seat == first else -value
    return effect


@given(order=SEAT_ORDERS, points=VALID_POINTS, calls=CALLS, team=st.sampled_from(["0", "1"]))
def test_points_scores_add_up_to_100_plus_calls(
    order: list[str], points: int, calls: dict[str, str], team: str
) -> None:
    if team_of(order[0]) == team_of(order[1]):
        order[1], order[2] = order[2], order[1]
    scores = score_round({"out": order, "points": {team: points}, "calls": calls})
    effect = call_effect(calls, order[0])
    assert scores[team] - effect[team] == points
    assert sum(scores.values()) - sum(effect.values()) == 100


def rotated(seat: Any) -> str:
    return str((int(seat) + 1) % 4)


@given(order=SEAT_ORDERS, points=VALID_POINTS, calls=CALLS, length=st.integers(2, 4))
def test_moving_everyone_one_seat_on_swaps_the_team_scores(
    order: list[str], points: int, calls: dict[str, str], length: int
) -> None:
    round_obj: dict[str, Any] = {"out": order[:length], "calls": calls}
    if team_of(order[0]) != team_of(order[1]):
        round_obj["points"] = {"0": points}
    moved: dict[str, Any] = {
        "out": [rotated(seat) for seat in round_obj["out"]],
        "calls": {rotated(seat): call for seat, call in calls.items()},
    }
    if "points" in round_obj:
        moved["points"] = {"1": points}
    scores, moved_scores = score_round(round_obj), score_round(moved)
    assert (moved_scores["0"], moved_scores["1"]) == (scores["1"], scores["0"])


@given(order=SEAT_ORDERS, calls=CALLS)
def test_double_victory_scores_only_the_bonus_and_calls(order: list[str], calls: dict[str, str]) -> None:
    order = [order[0], str((int(order[0]) + 2) % 4)]
    scores = score_round({"out": order, "calls": calls})
    effect = call_effect(calls, order[0])
    winners = team_of(order[0])
    assert scores[winners] == 200 + effect[winners]
    assert scores[str(1 - int(winners))] == effect[str(1 - int(winners))]


def deal_round(rng: random.Random, order: list[str]) -> tuple[dict[str, str], str, dict[str, int]]:
    """Shuffle the deck into tricks and a hand; also the team points by hand, independently."""
    cards = list(DECK)
    rng.shuffle(cards)
    hand_size = rng.randint(1, 14)
    hand, rest = cards[:hand_size], cards[hand_size:]
    cuts = sorted(rng.randint(0, len(rest)) for _ in range(3))
    piles = [rest[: cuts[0]], rest[cuts[0] : cuts[1]], rest[cuts[1] : cuts[2]], rest[cuts[2] :]]
    tricks = {
        seat: format_cards(pile)
        for seat, pile in zip(order, piles, strict=True)
        if pile or rng.random() < 0.5
    }
    last = order[3]
    expected = {"0": 0, "1": 0}
    for seat, pile in zip(order, piles, strict=True):
        owner = order[0] if seat == last else seat
        expected[str(int(owner) % 2)] += card_points(pile)
    expected[str(1 - int(last) % 2)] += card_points(hand)
    return tricks, format_cards(hand), expected


@given(order=SEAT_ORDERS, seed=st.integers(0, 2**32 - 1), calls=CALLS, full_order=st.booleans())
def test_tricks_score_like_the_equivalent_points(
    order: list[str], seed: int, calls: dict[str, str], full_order: bool
) -> None:
    if team_of(order[0]) == team_of(order[1]):
        order[1], order[2] = order[2], order[1]
    tricks, hand, expected = deal_round(random.Random(seed), order)
    out = order if full_order else order[:3]
    from_cards = score_round({"out": out, "tricks": tricks, "hand": hand, "calls": calls})
    from_points = score_round({"out": out[:2], "points": {"0": expected["0"]}, "calls": calls})
    assert from_cards == from_points
    assert expected["0"] + expected["1"] == 100


@given(seed=st.integers(0, 2**32 - 1), order=SEAT_ORDERS)
def test_any_shuffled_deck_gives_card_points_adding_to_100(seed: int, order: list[str]) -> None:
    if team_of(order[0]) == team_of(order[1]):
        order[1], order[2] = order[2], order[1]
    tricks, hand, _ = deal_round(random.Random(seed), order)
    scores = score_round({"out": order[:3], "tricks": tricks, "hand": hand})
    assert scores["0"] + scores["1"] == 100
    assert all(-25 <= score <= 125 and score % 5 == 0 for score in scores.values())


@given(
    seed=st.integers(0, 2**32 - 1),
    order=SEAT_ORDERS,
    tamper=st.sampled_from(["drop", "repeat"]),
)
def test_any_tampered_deck_is_refused_naming_the_card(seed: int, order: list[str], tamper: str) -> None:
    if team_of(order[0]) == team_of(order[1]):
        order[1], order[2] = order[2], order[1]
    rng = random.Random(seed)
    tricks, hand, _ = deal_round(rng, order)
    seat = rng.choice(sorted(seat for seat, text in tricks.items() if text))
    cards = list(parse_cards(tricks[seat]))
    card = rng.choice(cards)
    if tamper == "drop":
        cards.remove(card)
    else:
        cards.append(card)
    tricks[seat] = format_cards(cards)
    message = refused({"out": order, "tricks": tricks, "hand": hand})
    label = "cards missing: " if tamper == "drop" else "cards written twice: "
    assert message.startswith("round 1: ")
    assert f"{label}{card}" in message


@given(
    rounds=st.lists(st.tuples(st.sampled_from(["0", "1"]), VALID_POINTS), max_size=30),
    target=st.integers(1, 3000),
)
def test_game_totals_and_winner(rounds: list[tuple[str, int]], target: int) -> None:
    round_objs = [{"out": [0, 1], "points": {team: points}} for team, points in rounds]
    result = score_game(round_objs, target)
    totals = result["totals"]
    assert totals["0"] == sum(score["0"] for score in result["rounds"])
    assert totals["0"] + totals["1"] == 100 * len(rounds)
    leader = "0" if totals["0"] > totals["1"] else "1" if totals["1"] > totals["0"] else None
    expected = leader if leader is not None and totals[leader] >= target else None
    assert result["winner"] == expected
    assert result["finished"] is (expected is not None)


def test_null_and_empty_keys_give_nothing() -> None:
    nothing = {"calls": None, "tricks": None, "hand": None}
    assert score_round({"out": [0, 1], "points": {"0": 70}, **nothing}) == {"0": 70, "1": 30}
    tricks = {"0": deck_without("2j")}
    assert score_round({"out": [0, 1, 2], "points": {}, "tricks": tricks, "hand": "2j"}) == {"0": 100, "1": 0}
    assert score_round({"out": [0, 1, 2], "points": None, "tricks": tricks, "hand": "2j"}) == {
        "0": 100,
        "1": 0,
    }
