"""``trickmate score [FILE]``: a game's score from one JSON document (CONTRACTS section 3).

Reads the document from FILE, or from standard input when no file (or ``-``) is
named, and writes the result as one JSON document on standard output.  Bad input
(unreadable file, invalid JSON, a round that breaks a rule) writes
``{"error": "..."}`` instead, a message on standard error, and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from companion.commands.strict_json import RepeatedKeyError, object_without_repeats
from companion.errors import TrickmateError
from companion.registry import get_game

HELP = "score a Tichu game: one JSON document of rounds in, totals and winner out"

EXIT_OK = 0
EXIT_BAD_INPUT = 2


class InputError(TrickmateError):
    """Input that is not one readable JSON document."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="the JSON document to score (default: standard input)",
    )


def _refuse_constant(name: str) -> Any:
    raise InputError(f"{name} is not valid JSON")


def parse_document(text: str) -> Any:
    """One JSON document, strictly: no repeated keys, no NaN or Infinity.

    >>> parse_document('{"rounds": []}')
    {'rounds': []}
    >>> parse_document('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    companion.commands.score.InputError: key 'a' is written twice in one JSON object
    """
    if not text.strip():
        raise InputError("the input is empty: expected one JSON document")
    try:
        return json.loads(text, object_pairs_hook=object_without_repeats, parse_constant=_refuse_constant)
    except RepeatedKeyError as error:
        raise InputError(str(error)) from None
    except json.JSONDecodeError as error:
        raise InputError(f"invalid JSON at line {error.lineno} column {error.colno}: {error.msg}") from None
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply") from None
    except ValueError:  # e.g. a number with more digits than Python will convert
        raise InputError("invalid JSON: a number is too long") from None


def _read_input(name: str) -> str:
    try:
        if name == "-":
            return sys.stdin.buffer.read().decode("utf-8-sig")
        with open(name, encoding="utf-8-sig") as file:
            return file.read()
    except UnicodeDecodeError:
        raise InputError(f"{'the input' if name == '-' else name} is not UTF-8 text") from None
    except OSError as error:
        raise InputError(f"cannot read {name}: {error.strerror or error}") from None


def score_text(text: str) -> dict[str, Any]:
    """The result document for the JSON text of a score document; raises TrickmateError."""
    document = parse_document(text)
    if not isinstance(document, Mapping):
        raise InputError("the input must be one JSON object with a list of rounds")
    game_name = document.get("game", "tichu")
    if not isinstance(game_name, str):
        raise InputError('game must be a name like "tichu"')
    game = get_game(game_name)
    if game.score is None:
        raise InputError(f"trickmate cannot score {game.title} yet")
    return game.score(document)


def run(args: argparse.Namespace) -> int:
    try:
        result = score_text(_read_input(args.file))
    except TrickmateError as error:
        message = str(error)
        sys.stdout.write(json.dumps({"error": message}) + "\n")
        sys.stderr.write(f"trickmate score: {message}\n")
        return EXIT_BAD_INPUT
    sys.stdout.write(json.dumps(result) + "\n")
    return EXIT_OK
