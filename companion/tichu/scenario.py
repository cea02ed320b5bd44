"""Tichu rounds written as text: a scenario deals the hands, plays actions and checks the state.

One statement per line; ``#`` starts a comment; blank lines are ignored.  Seats are 0..3.

The deal comes first::

    hands:                  the hands, one line per seat: 14 cards each, or the first 8
    0: Mahjong 2j 3j ...    (then a ``rest:`` block with the other 6 of each seat)
    1: ...
    rest:
    0: ...
    start: play             optional: ``push`` (the default for 14-card hands) or ``play``
                            (the hands as held after a push that is not written down)

Actions (each one must be allowed, else the scenario fails)::

    grand 2                 seat 2 calls Grand Tichu
    no grand 0 1 3          seats 0, 1 and 3 decline it
    tichu 0                 seat 0 calls Tichu
    push 0: Kj>1 3s>2 4p>3  seat 0 pushes Kj to seat 1, 3s to seat 2, 4p to seat 3
    0 plays Mahjong wish 7  a play (``wish`` only with the Mahjong)
    3 bombs 8j 8s 8p 8t     a play that must read as a bomb
    1 passes
    0 gives dragon to 1
    undo                    take the last action back

Expectations, checked where they stand::

    expect: turn 2          seat 2 is to play (``expect: lead 2``: and no trick is open)
    expect: trick to 3      the last action closed a trick that seat 3 took
    expect: wish 7          the open wish (``expect: wish none``)
    expect: out 0 2         the seats out so far, in order
    expect: hand 1: 5j 6j   exactly the cards seat 1 holds
    expect: won 1: Dragon   exactly the cards seat 1 has won in tricks
    expect: phase push      the phase (grand_tichu, push, play, dragon_gift, over)
    expect: over            the round is over
    expect: points 0=40 1=60   the card points per team at the end
    expect: score 0=140 1=60   the round's score (by companion.tichu.scoring)
    expect error "does not beat": 1 plays 7j
                            the action is refused with a message containing the text

The scenarios of the test suite are in ``tests/companion/scenarios/``; to watch one being
played, run ``python -m companion.tichu.scenario FILE...``: it prints every event, then the
round object and its score.

>>> game = run_scenario('''
... hands:
... 0: Mahjong 2j 3j 4j 5j 6j 7s 8s 9s 10s Js Qs Ks As
... 1: 2s 3s 4s 5s 6s 7j 8j 9j 10j Jj Qj Kj Aj Dog
... 2: 2p 3p 4p 5p 6p 7p 8p 9p 10p Jp Qp Kp Ap Phoenix
... 3: 2t 3t 4t 5t 6t 7t 8t 9t 10t Jt Qt Kt At Dragon
... start: play
... 0 plays Mahjong 2j 3j 4j 5j 6j 7s 8s 9s 10s Js Qs Ks As
... expect: out 0
... expect error "it is seat 1's turn": 3 plays Dragon
... ''')
>>> game.turn
1
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from companion.cards import format_cards, parse_cards, parse_rank
from companion.errors import NotationError, RuleError, TrickmateError
from companion.tichu.combinations import Kind, classify
from companion.tichu.round import (
    Action,
    CallGrandTichu,
    CallTichu,
    DeclineGrandTichu,
    GiveDragon,
    Pass,
    Phase,
    Play,
    Push,
    TichuRound,
)


class ScenarioError(TrickmateError):
    """A scenario line that cannot be read or whose expectation fails; names the line."""

    def __init__(self, line_number: int, line: str, problem: str) -> None:
        self.line_number = line_number
        self.problem = problem
        super().__init__(f"line {line_number}: {line.strip()!r}: {problem}")


_SEAT_LINE = re.compile(r"^([0-3])\s*:\s*(.*)$")
_PLAY = re.compile(r"^([0-3])\s+(plays|bombs)\s+(.+?)(?:\s+wish\s+(\S+))?$", re.IGNORECASE)
_PASS = re.compile(r"^([0-3])\s+pass(?:es)?$", re.IGNORECASE)
_GIVE = re.compile(r"^([0-3])\s+gives\s+(?:the\s+)?dragon(?:\s+trick)?\s+to\s+([0-3])$", re.IGNORECASE)
_PUSH = re.compile(r"^push\s+([0-3])\s*:\s*(.+)$", re.IGNORECASE)
_EXPECT_ERROR = re.compile(r'^expect\s+error\s+"([^"]*)"\s*:\s*(.+)$', re.IGNORECASE)


def parse_action(text: str) -> Action:
    """Read one action line.

    >>> parse_action("0 plays Mahjong 2j 3s 4p 5t wish Q")
    Play(seat=0, cards=(Card.parse('Mahjong'), Card.parse('2j'), Card.parse('3s'), Card.parse('4p'), \
Card.parse('5t')), wish=12)
    >>> parse_action("2 gives dragon to 1"), parse_action("tichu 3")
    (GiveDragon(seat=2, to=1), CallTichu(seat=3))
    """
    text = text.strip()
    if match := _PLAY.match(text):
        seat, verb, cards, wish = match.groups()
        # A number is passed on as it is, so that the round itself judges a wish like 1 or 15.
        wished = None if wish is None else int(wish) if wish.isdigit() else parse_rank(wish)
        play = Play(int(seat), parse_cards(cards), wished)
        combination = classify(play.cards)
        if verb.lower() == "bombs" and (combination is None or combination.kind is not Kind.BOMB):
            raise RuleError(f"{format_cards(play.cards)} is not a bomb")
        return play
    if match := _PASS.match(text):
        return Pass(int(match.group(1)))
    if match := _GIVE.match(text):
        return GiveDragon(int(match.group(1)), int(match.group(2)))
    if match := _PUSH.match(text):
        seat = int(match.group(1))
        gifts: dict[int, str] = {}
        for part in match.group(2).split():
            card, _, to = part.partition(">")
            if not to.strip().isdigit():
                raise RuleError(f"write each pushed card as card>seat, got {part!r}")
            gifts[int(to)] = card
        return Push.to_seats(seat, gifts)
    words = text.split()
    if len(words) == 2 and words[0].lower() == "tichu" and words[1] in "0123":
        return CallTichu(int(words[1]))
    if len(words) == 2 and words[0].lower() == "grand" and words[1] in "0123":
        return CallGrandTichu(int(words[1]))
    raise RuleError(f"cannot read the action {text!r}")


def _team_numbers(text: str) -> dict[str, int]:
    pairs = dict(part.split("=", 1) for part in text.split())
    return {team: int(value) for team, value in pairs.items()}


def run_scenario(text: str) -> TichuRound:
    """Run a scenario; return the round at its end, or raise :class:`ScenarioError`."""
    lines = text.splitlines()
    hands: dict[str, dict[int, str]] = {"hands": {}, "rest": {}}
    block: str | None = None
    start: Phase | None = None
    game: TichuRound | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue

        def fail(problem: str, number: int = number, raw: str = raw) -> ScenarioError:
            return ScenarioError(number, raw, problem)

        try:
            if game is None:
                lowered = line.lower()
                if lowered in ("hands:", "rest:"):
                    block = lowered[:-1]
                    continue
                if lowered.startswith("start:"):
                    start = Phase(lowered.split(":", 1)[1].strip())
                    continue
                seat_line = _SEAT_LINE.match(line)
                if seat_line and block is not None:
                    hands[block][int(seat_line.group(1))] = seat_line.group(2)
                    continue
                if sorted(hands["hands"]) != [0, 1, 2, 3]:
                    raise fail("write the hands of seats 0 to 3 first")
                rest = [hands["rest"][seat] for seat in range(4)] if hands["rest"] else None
                game = TichuRound.from_hands([hands["hands"][seat] for seat in range(4)], rest, start)
            _run_line(game, line, fail)
        except ScenarioError:
            raise
        except (RuleError, NotationError, ValueError, KeyError) as error:
            raise fail(str(error)) from None
    if game is None:
        raise ScenarioError(len(lines), "", "the scenario deals no hands")
    return game


def _run_line(game: TichuRound, line: str, fail: Callable[[str], ScenarioError]) -> None:
    lowered = line.lower()
    if match := _EXPECT_ERROR.match(line):
        expected, action_text = match.groups()
        action = parse_action(action_text)
        try:
            game.verify(action)
        except RuleError as error:
            if expected.lower() not in str(error).lower():
                raise fail(f"refused as expected, but with {str(error)!r}") from None
            if game.can(action):
                raise fail("verify refused the action but can() allows it") from None
            return
        raise fail(f"the action was allowed; expected an error with {expected!r}")
    if lowered.startswith("expect:"):
        _check(game, line.split(":", 1)[1].strip(), fail)
        return
    if lowered == "undo":
        game.undo()
        return
    if lowered.startswith("no grand"):
        for seat in lowered.split()[2:]:
            game.do(DeclineGrandTichu(int(seat)))
        return
    game.do(parse_action(line))  # a refused action raises its reason


def _check(game: TichuRound, expectation: str, fail: Callable[[str], ScenarioError]) -> None:
    what, _, value = expectation.partition(" ")
    what = what.lower()
    value = value.strip()
    if what == "over":
        if not game.is_over:
            raise fail(f"the round is not over (phase {game.phase.value})")
        return
    if what in ("turn", "lead"):
        if game.turn != int(value):
            raise fail(f"it is seat {game.turn}'s turn")
        if what == "lead" and game.top is not None:
            raise fail(f"a trick is open: {game.top.describe()} to beat")
        return
    if what == "trick":
        seat = int(value.split()[-1])
        taken = game.events[-1].trick_taken_by if game.events else None
        if taken != seat:
            raise fail(f"the last action gave no trick to seat {seat} (taken by: {taken})")
        return
    if what == "wish":
        wished = None if value.lower() == "none" else parse_rank(value)
        if game.wish != wished:
            raise fail(f"the open wish is {game.wish}")
        return
    if what == "out":
        seats = [int(seat) for seat in value.split()]
        if game.out != seats:
            raise fail(f"seats out: {game.out}")
        return
    if what in ("hand", "won"):
        seat_text, _, cards_text = value.partition(":")
        seat = int(seat_text)
        held = game.hand(seat) if what == "hand" else game.won[seat]
        if format_cards(held) != format_cards(parse_cards(cards_text)):
            raise fail(f"seat {seat} {'holds' if what == 'hand' else 'has won'}: {format_cards(held)}")
        return
    if what == "phase":
        if game.phase is not Phase(value.lower()):
            raise fail(f"the phase is {game.phase.value}")
        return
    if what in ("points", "score"):
        actual = game.card_points() if what == "points" else game.score()
        if actual != _team_numbers(value):
            raise fail(f"the {what} are {actual}")
        return
    raise fail(f"unknown expectation {what!r}")


def run_scenario_file(path: str | Path) -> TichuRound:
    """Run the scenario in a text file."""
    return run_scenario(Path(path).read_text(encoding="utf-8"))


def main(argv: Sequence[str] | None = None) -> int:
    """Play scenario files, printing their events, round objects and scores; 1 on a failure."""
    status = 0
    for path in sys.argv[1:] if argv is None else argv:
        print(f"== {path}")
        try:
            game = run_scenario_file(path)
        except (ScenarioError, OSError) as error:
            print(f"FAILED: {error}", file=sys.stderr)
            status = 1
            continue
        for event in game.events:
            print(event)
        if game.is_over:
            print(json.dumps(game.round_object()))
            print(json.dumps(game.score()))
    return status


if __name__ == "__main__":
    sys.exit(main())
