"""Tichu: combinations, the referee, the round and the score.

Importing this package registers the game (see :mod:`companion.registry`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.cards import Deck
from companion.registry import Game, register


def _judge(situation: Mapping[str, Any]) -> dict[str, Any]:
    from companion.tichu.referee import judge_situation

    return judge_situation(situation)


def _score(document: Mapping[str, Any]) -> dict[str, Any]:
    from companion.tichu.scoring import score_document

    return score_document(document)


TICHU = register(Game(name="tichu", title="Tichu", deck=Deck.TICHU, players=(4,), judge=_judge, score=_score))
