"""One table of games: every command and page finds a game's rules here by name.

A game module registers a :class:`Game` when it is imported; :func:`get_game`
imports the known game modules on first use, so callers never import them
directly.

>>> get_game("tichu").name
'tichu'
>>> get_game("chess")
Traceback (most recent call last):
...
companion.errors.UnknownGameError: unknown game 'chess'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.cards import Deck
from companion.errors import UnknownGameError

#: A JSON document in, a JSON document out (the shape of the ``trickmate`` commands).
JsonHandler = Callable[[Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Game:
    """What trickmate knows how to do for one game."""

    name: str
    title: str
    deck: Deck
    players: tuple[int, ...]
    #: Judges one referee situation (CONTRACTS section 2); None if the game has no referee yet.
    judge: JsonHandler | None = None
    #: Scores a whole game document (CONTRACTS section 3); None if not scored yet.
    score: JsonHandler | None = None


_GAMES: dict[str, Game] = {}
# Modules that register games when imported; listed here so that lookups by name work.
_GAME_MODULES: tuple[str, ...] = ("companion.tichu",)
_loaded = False


def register(game: Game) -> Game:
    """Add or replace a game in the registry."""
    _GAMES[game.name] = game
    return game


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in _GAME_MODULES:
            importlib.import_module(module)


def get_game(name: str) -> Game:
    """The registered game called ``name`` (case-insensitive)."""
    _load()
    game = _GAMES.get(str(name).strip().lower())
    if game is None:
        raise UnknownGameError(str(name))
    return game


def games() -> list[Game]:
    """Every registered game, by name."""
    _load()
    return [_GAMES[name] for name in sorted(_GAMES)]
