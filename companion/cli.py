"""The ``trickmate`` command: one entry point, one module per subcommand.

Each subcommand lives in its own module, which defines ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int`` (the exit status).  Modules
keep heavy imports (OpenCV, Flask) inside ``run`` so that ``trickmate referee``
starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from companion import __version__

#: Subcommand name -> module implementing it.
SUBCOMMANDS: dict[str, str] = {
    "referee": "companion.commands.referee",
    "score": "companion.commands.score",
    "serve": "web.serve",
    "scan": "vision.commands.scan",
    "calibrate": "vision.commands.calibrate",
}


def _module(name: str) -> ModuleType:
    return importlib.import_module(SUBCOMMANDS[name])


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``only``, the other subcommands are not imported."""
    parser = argparse.ArgumentParser(
        prog="trickmate",
        description="A companion for card games played with real cards: referee, scores, card scanner.",
    )
    parser.add_argument("--version", action="version", version=f"trickmate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        if only is not None and name != only:
            sub.add_parser(name)
            continue
        module = _module(name)
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in args_list if not a.startswith("-")), None)
    parser = build_parser(chosen if chosen in SUBCOMMANDS else None)
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(_module(args.command).run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`trickmate scan ... | head`): stop quietly, as Unix tools do,
        # and keep Python from failing again on flushing stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    raise SystemExit(main())
