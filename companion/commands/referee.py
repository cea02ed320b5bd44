"""``trickmate referee [FILE]``: is this play legal? (CONTRACTS section 2.)

Reads JSON Lines from FILE, or from standard input when no file (or ``-``) is named:
one situation per line. Writes one verdict per line, in the same order, as compact JSON.
A line that cannot be understood (invalid JSON, not an object, an unknown game, a
situation that cannot be real) gets ``{"error": "..."}`` on its output line, and a
message naming the line number on standard error; the other lines are still answered.
A key written twice in one object is an error too. Blank lines (empty or only spaces)
are skipped and get no output line. The exit status
is 1 if any line was an error, 2 if FILE cannot be opened, else 0.

When reading standard input, each verdict is flushed as soon as it is written, so that
another program can talk to the referee one line at a time.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, BinaryIO, TextIO

from companion.commands.strict_json import RepeatedKeyError, object_without_repeats
from companion.errors import TrickmateError
from companion.registry import get_game

HELP = "judge Tichu plays: JSON Lines of situations in, one verdict line out for each"

EXIT_OK = 0
EXIT_ERROR_LINE = 1
EXIT_NO_INPUT = 2

Judge = Callable[[Mapping[str, Any]], dict[str, Any]]


_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_loads = json.JSONDecoder(object_pairs_hook=object_without_repeats).decode


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="JSON Lines of situations (default: standard input)",
    )


class _Judges:
    """The judge of each game named in the input, looked up once per name."""

    def __init__(self) -> None:
        self._by_name: dict[str, Judge] = {}

    def judge(self, situation: Mapping[str, Any]) -> dict[str, Any]:
        name = situation.get("game", "tichu")
        if name is None:
            name = "tichu"
        if not isinstance(name, str):
            raise TrickmateError('game must be a name like "tichu"')
        judge = self._by_name.get(name)
        if judge is None:
            game = get_game(name)
            if game.judge is None:
                raise TrickmateError(f"trickmate referee does not know {game.title} yet")
            judge = self._by_name[name] = game.judge
        return judge(situation)


def judge_line(line: bytes | str, judges: _Judges | None = None) -> tuple[dict[str, Any], bool]:
    """The output object for one input line, and whether it is an error.

    >>> judge_line('{"play": "Kj", "trick": ["Dragon"]}')[0]["reason"]
    'nothing beats the Dragon but a bomb'
    >>> judge_line('{"play": "Kj" "trick"}')[0]["error"]
    "invalid JSON at column 15: Expecting ',' delimiter"
    >>> judge_line('["Kj"]')
    ({'error': 'a situation must be a JSON object, got a list'}, True)
    """
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
    except UnicodeDecodeError:
        return {"error": "the line is not UTF-8 text"}, True
    try:
        situation = _loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as error:
        return {"error": f"invalid JSON at column {error.colno}: {error.msg}"}, True
    except RepeatedKeyError as error:
        return {"error": str(error)}, True
    except (RecursionError, ValueError):
        return {"error": "invalid JSON"}, True
    if not isinstance(situation, dict):
        kind = "a list" if isinstance(situation, list) else "not an object"
        return {"error": f"a situation must be a JSON object, got {kind}"}, True
    try:
        return (judges or _Judges()).judge(situation), False
    except TrickmateError as error:
        return {"error": str(error)}, True


def referee_lines(lines: Iterable[bytes | str]) -> Iterator[tuple[int, dict[str, Any], bool]]:
    """(line number, output object, is error) for each non-blank line, in order."""
    judges = _Judges()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            result, failed = judge_line(line, judges)
        except Exception as error:  # a bug must not cost the answers to the other lines
            result, failed = {"error": f"internal error: {type(error).__name__}: {error}"}, True
        yield number, result, failed


def _serve(source: BinaryIO, out: TextIO, err: TextIO, flush: bool) -> int:
    status = EXIT_OK
    for number, result, failed in referee_lines(source):
        out.write(_dumps(result) + "\n")
        if flush:
            out.flush()
        if failed:
            status = EXIT_ERROR_LINE
            err.write(f"trickmate referee: line {number}: {result['error']}\n")
    out.flush()
    return status


def run(args: argparse.Namespace) -> int:
    if args.file == "-":
        return _serve(sys.stdin.buffer, sys.stdout, sys.stderr, flush=True)
    try:
        source = open(args.file, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        message = f"cannot read {args.file}: {error.strerror or error}"
        sys.stdout.write(_dumps({"error": message}) + "\n")
        sys.stderr.write(f"trickmate referee: {message}\n")
        return EXIT_NO_INPUT
    with source:
        return _serve(source, sys.stdout, sys.stderr, flush=False)
