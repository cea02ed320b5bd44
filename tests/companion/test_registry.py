"""The game registry: commands and pages find a game's rules by name."""

from __future__ import annotations

import pytest

from companion.cards import Deck
from companion.errors import TrickmateError, UnknownGameError
from companion.registry import games, get_game
from companion.tichu.scoring import ScoreError


@pytest.mark.parametrize("name", ["tichu", "Tichu", " TICHU "])
def test_tichu_is_found_by_name_in_any_case(name: str) -> None:
    game = get_game(name)
    assert (game.name, game.title, game.deck, game.players) == ("tichu", "Tichu", Deck.TICHU, (4,))


def test_tichu_is_listed() -> None:
    assert "tichu" in [game.name for game in games()]


def test_tichu_scores_a_document() -> None:
    score = get_game("tichu").score
    assert score is not None
    result = score(
        {"rounds": [{"out": [1, 3], "calls": {"1": "tichu"}}, {"out": [0, 1], "points": {"0": 75}}]}
    )
    assert result == {
        "rounds": [{"0": 0, "1": 300}, {"0": 75, "1": 25}],
        "totals": {"0": 75, "1": 325},
        "finished": False,
        "winner": None,
    }


def test_tichu_score_refuses_a_broken_rule() -> None:
    score = get_game("tichu").score
    assert score is not None
    with pytest.raises(ScoreError, match=r"^round 1: points must be a multiple of 5, got 33$"):
        score({"rounds": [{"out": [0, 1], "points": {"0": 33}}]})


@pytest.mark.parametrize("name", ["chess", "", "tichu2", "tich"])
def test_unknown_games_are_errors(name: str) -> None:
    with pytest.raises(UnknownGameError) as caught:
        get_game(name)
    assert str(caught.value) == f"unknown game {name!r}"
    assert isinstance(caught.value, TrickmateError)
