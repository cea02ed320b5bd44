"""Tichu scoring: one round, a whole game, and the ``trickmate score`` document.

A round object (CONTRACTS section 3) says who called, who went out in which order,
and where the card points went, either as ``points`` per team or as the cards
themselves (``tricks`` per seat plus the last player's ``hand``):

>>> score_round({"calls": {"0": "grand", "3": "tichu"}, "out": [0, 1, 3, 2], "points": {"0": 60}})
{'0': 260, '1': -60}
>>> score_round({"calls": {"1": "tichu"}, "out": [1, 3]})
{'0': 0, '1': 300}

Seats are ``0``..``3`` (JSON numbers or strings); team ``"0"`` is seats 0 and 2,
team ``"1"`` seats 1 and 3.  A call (``"tichu"`` ±100, ``"grand"`` ±200) succeeds
only when its own caller went out first.  When the first two out are partners
(a double victory) that team scores ``double_victory`` and nobody counts card
points.  From the cards, the last player's hand goes to the other team and the
last player's tricks to the player who went out first:

>>> from companion.cards import format_cards, tichu_deck
>>> rest = format_cards(c for c in tichu_deck() if str(c) not in {"Dragon", "5j", "Kt", "10t"})
>>> score_round({"out": [1, 0, 2], "tricks": {"0": rest, "3": "Dragon 5j"}, "hand": "Kt 10t"})
{'0': 70, '1': 30}

Here seat 3 is last: its 30 points of tricks go to seat 1 (out first), its hand's 20
to team 0, which also took the 50 points left in seat 0's tricks.

What a JSON writer would expect to work does: seats and teams as numbers or strings,
calls in any case (``"Tichu"``), whole numbers written ``60.0``, a seat's tricks as one
text or a list of texts (one per trick), and ``null``, ``{}`` or ``""`` for a key that
gives nothing.  A double victory may still list the full going-out order.

Anything that breaks a rule raises :class:`ScoreError`, whose message names the
round and the bad input, and nothing is computed:

>>> score_game([{"out": [0, 1], "points": {"0": 60}}, {"out": [0, 1], "points": {"0": 33}}])
Traceback (most recent call last):
...
companion.tichu.scoring.ScoreError: round 2: points must be a multiple of 5, got 33

The ``trickmate score`` document has the keys ``game`` (``"tichu"``, the default),
``target`` (a positive whole number, default 1000), ``rounds`` (a list of round
objects, may be empty) and, as trickmate's own extension, ``double_victory``: what a
double victory scores, a positive multiple of 5 (default 200), for house rules.
The game is finished when a team has reached the target and is strictly ahead,
judged on the totals after the last round:

>>> rounds = [{"out": [0, 2]}, {"out": [2, 0], "calls": {"0": "grand"}}]
>>> result = score_document({"target": 500, "rounds": rounds})
>>> result["rounds"], result["totals"], result["finished"], result["winner"]
([{'0': 200, '1': 0}, {'0': 0, '1': 0}], {'0': 200, '1': 0}, False, None)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from companion.cards import Card, card_points, duplicates, format_cards, tichu_deck
from companion.errors import NotationError, RuleError, UnknownGameError

SEATS: tuple[str, ...] = ("0", "1", "2", "3")
TEAMS: tuple[str, ...] = ("0", "1")
#: What each call scores: won if the caller goes out first, lost otherwise.
CALL_VALUES: dict[str, int] = {"tichu": 100, "grand": 200}
#: The keys a round object may have (CONTRACTS section 3).
ROUND_KEYS: frozenset[str] = frozenset({"calls", "out", "points", "tricks", "hand"})
#: The keys a ``trickmate score`` document may have.
DOCUMENT_KEYS: frozenset[str] = frozenset({"game", "target", "rounds", "double_victory"})
DEFAULT_TARGET = 1000
DEFAULT_DOUBLE_VICTORY = 200
TOTAL_CARD_POINTS = 100
MIN_TEAM_POINTS, MAX_TEAM_POINTS = -25, 125
HAND_SIZE = 14
# Long card lists are cut short so that a message still fits on a phone.
_MAX_LISTED_CARDS = 6


class ScoreError(RuleError):
    """A score document or round that breaks a rule; ``str`` names the round.

    >>> str(ScoreError("out is missing", round_number=3))
    'round 3: out is missing'
    >>> ScoreError("out is missing").problem
    'out is missing'
    """

    def __init__(self, problem: str, round_number: int | None = None) -> None:
        self.problem = problem
        self.round_number = round_number
        super().__init__(problem if round_number is None else f"round {round_number}: {problem}")


def team_of(seat: str) -> str:
    """The team of a seat: partners sit opposite.

    >>> [team_of(seat) for seat in SEATS]
    ['0', '1', '0', '1']
    """
    return str(int(seat) % 2)


def other_team(team: str) -> str:
    return "1" if team == "0" else "0"


def _json_type(value: object) -> str:
    """How a JSON user would name the type of ``value``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


def _shown(value: object) -> str:
    """A bad value as a message shows it: text quoted, numbers as written, else its type."""
    if isinstance(value, str):
        return repr(value[:20] + "…" if len(value) > 20 else value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        # Huge numbers would flood a phone screen (and ints past 4300 digits cannot be printed).
        if isinstance(value, float) and not math.isfinite(value):
            return str(value)
        return str(value) if abs(value) < 10**12 else "a huge number"
    return _json_type(value)


def _whole_number(value: object, what: str) -> int:
    """A JSON whole number (``60`` or ``60.0``); booleans and text are refused."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ScoreError(f"{what} must be a whole number, got {_json_type(value)}")
    if isinstance(value, float):
        if not value.is_integer():
            raise ScoreError(f"{what} must be a whole number, got {_shown(value)}")
        return int(value)
    return value


def _seat(value: object, where: str) -> str:
    """A seat given as ``0``..``3`` or ``"0"``..``"3"``."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return str(value)
    if isinstance(value, str) and value.strip() in SEATS:
        return value.strip()
    raise ScoreError(f"unknown seat {_shown(value)} in {where} (seats are 0 to 3)")


def _team(value: object, where: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return str(value)
    if isinstance(value, str) and value.strip() in TEAMS:
        return value.strip()
    raise ScoreError(f"unknown team {_shown(value)} in {where} (teams are 0 and 1)")


def _mapping(value: object, key: str, example: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise ScoreError(f"{key} must be an object like {example}, got {_json_type(value)}")
    return value


def _given(round_obj: Mapping[str, Any], key: str) -> bool:
    """Whether a round really gives ``key``: absent, null, {} and "" give nothing."""
    value = round_obj.get(key)
    return value is not None and value != {} and value != ""


def _read_out(round_obj: Mapping[str, Any]) -> list[str]:
    if "out" not in round_obj or round_obj["out"] is None:
        raise ScoreError("out is missing: list the seats in the order they went out")
    value = round_obj["out"]
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ScoreError(f"out must be a list of seats like [0, 1, 3, 2], got {_json_type(value)}")
    out: list[str] = []
    for item in value:
        seat = _seat(item, "out")
        if seat in out:
            raise ScoreError(f"seat {seat} is in out twice")
        out.append(seat)
    if len(out) < 2:
        raise ScoreError(f"out needs at least the first two seats out, got {len(out)}")
    return out


def _read_calls(round_obj: Mapping[str, Any]) -> dict[str, str]:
    value = round_obj.get("calls")
    if value is None:
        return {}
    calls: dict[str, str] = {}
    for key, call in _mapping(value, "calls", '{"0": "tichu"}').items():
        seat = _seat(key, "calls")
        if seat in calls:
            raise ScoreError(f"seat {seat} has more than one call")
        name = call.strip().lower() if isinstance(call, str) else None
        if name not in CALL_VALUES:
            raise ScoreError(f"unknown call {_shown(call)} for seat {seat} (use tichu or grand)")
        calls[seat] = name
    return calls


def _read_points(value: object) -> dict[str, int]:
    """Team card points, both teams filled in and checked."""
    given: dict[str, int] = {}
    for key, amount in _mapping(value, "points", '{"0": 60}').items():
        team = _team(key, "points")
        if team in given:
            raise ScoreError(f"team {team} has points twice")
        points = _whole_number(amount, f"points for team {team}")
        if points % 5:
            raise ScoreError(f"points must be a multiple of 5, got {_shown(points)}")
        if not MIN_TEAM_POINTS <= points <= MAX_TEAM_POINTS:
            lowest, highest = MIN_TEAM_POINTS, MAX_TEAM_POINTS
            raise ScoreError(
                f"points for team {team} must be from {lowest} to {highest}, got {_shown(points)}"
            )
        given[team] = points
    if not given:
        raise ScoreError('points is empty: give one team\'s card points, like {"0": 60}')
    if len(given) == 2 and given["0"] + given["1"] != TOTAL_CARD_POINTS:
        raise ScoreError(
            f"team points must add up to {TOTAL_CARD_POINTS}, got {given['0']} + {given['1']}"
            f" = {given['0'] + given['1']}"
        )
    (team, points), *_ = given.items()
    return {team: points, other_team(team): TOTAL_CARD_POINTS - points}


def _card_list(cards: Sequence[Card]) -> str:
    shown = format_cards(cards[:_MAX_LISTED_CARDS]) if len(cards) > _MAX_LISTED_CARDS else format_cards(cards)
    more = len(cards) - _MAX_LISTED_CARDS
    return shown + (f" and {more} more" if more > 0 else "")


def _read_cards(value: object, where: str) -> list[Card]:
    """Card text (or a list of card texts, e.g. one per trick), every bad token named."""
    texts: Sequence[object] = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    if not isinstance(value, str | list) or not all(isinstance(text, str) for text in texts):
        raise ScoreError(f'{where} must be card text like "5j Ks Dragon", got {_json_type(value)}')
    cards: list[Card] = []
    unreadable: list[str] = []
    for text in texts:
        assert isinstance(text, str)
        for token in text.replace(",", " ").split():
            try:
                cards.append(Card.parse(token))
            except NotationError:
                unreadable.append(_shown(token))
    if unreadable:
        plural = "card" if len(unreadable) == 1 else "cards"
        raise ScoreError(f"cannot read {plural} {', '.join(unreadable)} in {where} (not Tichu cards)")
    return cards


def _points_from_cards(round_obj: Mapping[str, Any], out: list[str]) -> dict[str, int]:
    """Team card points from ``tricks`` and ``hand``, with the hand-over at the round's end."""
    if len(out) < 3:
        raise ScoreError("to count the cards, out needs the first three seats out")
    tricks: dict[str, list[Card]] = {}
    for key, text in _mapping(round_obj["tricks"], "tricks", '{"0": "5j Ks"}').items():
        seat = _seat(key, "tricks")
        if seat in tricks:
            raise ScoreError(f"seat {seat} has tricks twice")
        tricks[seat] = _read_cards(text, f"seat {seat}'s tricks")
    hand = _read_cards(round_obj["hand"], "hand")
    last = out[3] if len(out) == 4 else next(seat for seat in SEATS if seat not in out)
    if not 1 <= len(hand) <= HAND_SIZE:
        raise ScoreError(f"the last player (seat {last}) must hold 1 to {HAND_SIZE} cards, got {len(hand)}")
    everything = [card for cards in tricks.values() for card in cards] + hand
    repeated = duplicates(everything)
    missing = sorted(set(tichu_deck()) - set(everything))
    problems = []
    if missing:
        problems.append(f"cards missing: {_card_list(missing)}")
    if repeated:
        problems.append(f"{'written' if missing else 'cards written'} twice: {_card_list(repeated)}")
    if problems:
        raise ScoreError("; ".join(problems) + " (tricks and hand need all 56 cards once)")
    points = {team: 0 for team in TEAMS}
    for seat, cards in tricks.items():
        taker = out[0] if seat == last else seat
        points[team_of(taker)] += card_points(cards)
    points[other_team(team_of(last))] += card_points(hand)
    return points


def _round_scores(round_obj: object, double_victory: int) -> dict[str, int]:
    if not isinstance(round_obj, Mapping):
        raise ScoreError(f"a round must be an object, got {_json_type(round_obj)}")
    unknown = sorted(str(key) for key in round_obj if key not in ROUND_KEYS)
    if unknown:
        raise ScoreError(f"unknown key {_shown(unknown[0])} (a round has {', '.join(sorted(ROUND_KEYS))})")
    out = _read_out(round_obj)
    calls = _read_calls(round_obj)
    if _given(round_obj, "hand") and not _given(round_obj, "tricks"):
        raise ScoreError("hand needs tricks: give each seat's tricks too")
    scores = {team: 0 for team in TEAMS}
    first, second = out[0], out[1]
    if team_of(first) == team_of(second):
        for key in ("points", "tricks", "hand"):
            if _given(round_obj, key):
                raise ScoreError(
                    f"double victory (seats {first} and {second} out first) counts no card points:"
                    f" leave out {key}"
                )
        scores[team_of(first)] += double_victory
    else:
        has_points, has_tricks = _given(round_obj, "points"), _given(round_obj, "tricks")
        if has_points and has_tricks:
            raise ScoreError("give points or tricks, not both")
        if has_tricks and not _given(round_obj, "hand"):
            raise ScoreError("tricks need hand: give the last player's remaining cards")
        if has_points:
            card_scores = _read_points(round_obj["points"])
        elif has_tricks:
            card_scores = _points_from_cards(round_obj, out)
        elif "points" in round_obj and round_obj["points"] is not None:
            card_scores = _read_points(round_obj["points"])  # {} or a wrong type: say so
        else:
            raise ScoreError("card points are missing: give points, or tricks and hand")
        for team in TEAMS:
            scores[team] += card_scores[team]
    for seat, call in calls.items():
        value = CALL_VALUES[call]
        scores[team_of(seat)] += value if seat == first else -value
    return scores


def _check_double_victory(value: object) -> int:
    amount = _whole_number(value, "double_victory")
    if amount <= 0 or amount % 5:
        raise ScoreError(f"double_victory must be a positive multiple of 5, got {_shown(amount)}")
    return amount


def score_round(
    round_obj: Mapping[str, Any], *, double_victory: int = DEFAULT_DOUBLE_VICTORY, number: int | None = None
) -> dict[str, int]:
    """Validate one round object and return its score by team, ``{"0": a, "1": b}``.

    ``number`` (from 1) is the round's place in the game, named in error messages.

    >>> score_round({"out": ["2", "1", "3"], "points": {"1": 25}, "calls": {"2": "tichu", "0": "tichu"}})
    {'0': 75, '1': 25}
    >>> score_round({"out": [1, 2], "points": {"0": 60, "1": 50}}, number=4)
    Traceback (most recent call last):
    ...
    companion.tichu.scoring.ScoreError: round 4: team points must add up to 100, got 60 + 50 = 110
    """
    try:
        return _round_scores(round_obj, _check_double_victory(double_victory))
    except ScoreError as error:
        if number is None or error.round_number is not None:
            raise
        raise ScoreError(error.problem, number) from None


def _check_target(value: object) -> int:
    target = _whole_number(value, "target")
    if target <= 0:
        raise ScoreError(f"target must be a positive whole number, got {_shown(target)}")
    return target


def score_game(
    rounds: Sequence[Mapping[str, Any]],
    target: int = DEFAULT_TARGET,
    *,
    double_victory: int = DEFAULT_DOUBLE_VICTORY,
) -> dict[str, Any]:
    """Score every round, total them, and say whether (and by whom) the game is won.

    >>> game = score_game([{"out": [0, 1], "points": {"0": 80}}] * 2, target=150)
    >>> game["rounds"], game["totals"], game["finished"], game["winner"]
    ([{'0': 80, '1': 20}, {'0': 80, '1': 20}], {'0': 160, '1': 40}, True, '0')
    """
    checked_target = _check_target(target)
    checked_double_victory = _check_double_victory(double_victory)
    if isinstance(rounds, str | bytes) or not isinstance(rounds, Sequence):
        raise ScoreError(f"rounds must be a list of rounds, got {_json_type(rounds)}")
    scores = [
        score_round(round_obj, double_victory=checked_double_victory, number=number)
        for number, round_obj in enumerate(rounds, start=1)
    ]
    totals = {team: sum(score[team] for score in scores) for team in TEAMS}
    leader = max(TEAMS, key=lambda team: totals[team])
    won = totals[leader] >= checked_target and totals[leader] > totals[other_team(leader)]
    return {"rounds": scores, "totals": totals, "finished": won, "winner": leader if won else None}


def score_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Score a whole ``trickmate score`` document (see the module docstring).

    >>> score_document({"game": "tichu", "rounds": []})
    {'rounds': [], 'totals': {'0': 0, '1': 0}, 'finished': False, 'winner': None}
    >>> score_document({"game": "chess", "rounds": []})
    Traceback (most recent call last):
    ...
    companion.errors.UnknownGameError: unknown game 'chess'
    """
    if not isinstance(doc, Mapping):
        raise ScoreError(f"the document must be an object, got {_json_type(doc)}")
    unknown = sorted(str(key) for key in doc if key not in DOCUMENT_KEYS)
    if unknown:
        raise ScoreError(
            f"unknown key {_shown(unknown[0])} (a document has {', '.join(sorted(DOCUMENT_KEYS))})"
        )
    game = doc.get("game", "tichu")
    if not isinstance(game, str):
        raise ScoreError(f'game must be a name like "tichu", got {_json_type(game)}')
    if game.strip().lower() != "tichu":
        raise UnknownGameError(game)
    if "rounds" not in doc:
        raise ScoreError("rounds is missing: give a list of rounds (it may be empty)")
    return score_game(
        doc["rounds"],
        doc.get("target", DEFAULT_TARGET),
        double_victory=doc.get("double_victory", DEFAULT_DOUBLE_VICTORY),
    )
