"""Hand-written Tichu situations with their expected verdicts, one per rule and ruling.

Each example is checked against the real referee (companion.tichu.referee) and against the
independent reference engine (tests/companion/reference_referee.py), so a wrong
expectation here shows up as a failure of both, and a bug in either as a failure of one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.tichu.referee import SituationError, judge_situation
from tests.companion import reference_referee

Judge = Callable[[Mapping[str, Any]], dict[str, Any]]
ANY_RANK = "any"  # the rank is left open by the rules (e.g. a Phoenix single on a pair)


@dataclass(frozen=True)
class Example:
    name: str
    situation: dict[str, Any]
    legal: bool
    kind: str | None  # None: the cards form no combination
    rank: float | str | None = None
    length: int = 0
    points: int = 0
    keyword: str = ""  # a word the reason must contain when illegal
    notes: list[str] = field(default_factory=list)


def ok(name: str, play: str, kind: str, rank: float | str | None, length: int, points: int = 0,
       **situation: Any) -> Example:
    return Example(name, {"play": play, **situation}, True, kind, rank, length, points)


def bad(name: str, play: str, kind: str | None, rank: float | str | None = None, length: int = 0,
        points: int = 0, keyword: str = "", **situation: Any) -> Example:
    return Example(name, {"play": play, **situation}, False, kind, rank, length, points, keyword)


EXAMPLES: list[Example] = [
    # --- every kind of combination, led
    ok("single led", "7s", "single", 7, 1),
    ok("Mahjong single is 1", "Mahjong", "single", 1, 1),
    ok("Dragon single is 15", "Dragon", "single", 15, 1, 25),
    ok("Phoenix led is 1.5", "Phoenix", "single", 1.5, 1, -25),
    ok("Dog led", "Dog", "dog", None, 1),
    ok("pair", "8j 8s", "pair", 8, 2),
    ok("pair with Phoenix", "Kj Ph", "pair", 13, 2, -15),
    ok("triple", "2j 2s 2p", "triple", 2, 3),
    ok("triple with Phoenix", "Qj Qs Phoenix", "triple", 12, 3, -25),
    ok("full house (contract example)", "5j 5s 5p 9t 9j", "full_house", 5, 5, 15,
       trick=["4j 4s 4p Kt Kj"], hand="5j 5s 5p 9t 9j 2s 3s Dragon", wish="7"),
    ok("full house with Phoenix takes the higher triple", "5j 5s 6j 6s Ph", "full_house", 6, 5, -15),
    ok("full house with Phoenix on a lower full house", "5j 5s 6j 6s Ph", "full_house", 6, 5, -15,
       trick=["4j 4s 4p 2s 2j"]),
    bad("full house with Phoenix too low reports its highest reading", "5j 5s 6j 6s Ph",
        "full_house", 6, 5, -15, trick=["7j 7s 7p 2s 2t"]),
    ok("full house beats a lower triple part", "6j 6s 6p 2j 2s", "full_house", 6, 5,
       trick=["5j 5s 5p Kt Kj"]),
    bad("full house with a lower triple", "4j 4s 4p At Aj", "full_house", 4, 5,
        trick=["5j 5s 5p Kt Kj"]),
    ok("stairs of two pairs", "3j 3s 4j 4s", "stairs", 4, 4),
    ok("stairs with Phoenix", "Jj Js Qj Ph Kj Ks", "stairs", 13, 6, -5),
    ok("stairs with Phoenix filling a pair", "2j 2s 3j Ph", "stairs", 3, 4, -25),
    bad("pairs that are not consecutive", "2j 2s 4j 4s", None),
    ok("stairs beat lower stairs", "6j 6s 7j 7s", "stairs", 7, 4, trick=["5j 5s 6p 6t"]),
    bad("stairs of another length", "6j 6s 7j 7s 8j 8s", "stairs", 8, 6, trick=["5p 5t 6p 6t"]),
    ok("straight", "2j 3s 4p 5t 6j", "straight", 6, 5, 5),
    ok("Mahjong in a straight", "Mahjong 2j 3s 4p 5t", "straight", 5, 5, 5),
    ok("Mahjong breaks the flush", "mj 2s 3s 4s 5s", "straight", 5, 5, 5),
    ok("Mahjong in a fourteen-card straight", "Mahjong 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj",
       "straight", 14, 14, 25),
    bad("Phoenix is neither 1 nor above A", "2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj Phoenix", None,
        points=0),
    ok("straight with Phoenix takes the highest reading", "9j 10s Jp Qt Ph", "straight", 13, 5, -15),
    ok("Phoenix never above A in a straight", "Jp Qt Kj As Ph", "straight", 14, 5, -15),
    ok("Phoenix in a straight after the Mahjong", "Mahjong 2j 3s 4p Ph", "straight", 5, 5, -25),
    ok("straight with Phoenix beats", "2j 3s 4p 5t Ph", "straight", 6, 5, -20,
       trick=["Mahjong 2p 3j 4j 5p"]),
    bad("straight of another length", "3j 4s 5p 6t 7j 8s", "straight", 8, 6, 5,
        trick=["2s 3p 4t 5j 6s"]),
    bad("Dragon is no straight card", "10j Js Qp Kt Dragon", None, points=45),
    bad("Dog and Phoenix are no pair", "Dog Phoenix", None, points=-25),
    bad("Mahjong and Phoenix are no pair", "Mahjong Phoenix", None, points=-25),
    bad("Mahjong and 2 are no pair", "Mahjong 2j", None),
    bad("three of a kind and Phoenix are no combination", "3j 3s 3p Ph", None, points=-25),
    bad("four of a kind and Phoenix are no full house", "3j 3s 3p 3t Ph", None, points=-25),
    bad("cards of no shape", "5j 10s Ks Dragon", None, points=50),
    # --- bombs
    ok("four of a kind", "9j 9s 9p 9t", "bomb", 9, 4),
    ok("straight flush", "2j 3j 4j 5j 6j", "bomb", 6, 5, 5),
    ok("straight flush to the A, spelled with T", "tp Jp Qp Kp Ap", "bomb", 14, 5, 20),
    ok("Phoenix makes no straight flush", "2j 3j 4j 5j Ph", "straight", 6, 5, -20),
    ok("straight flush beats a straight", "2j 3j 4j 5j 6j", "bomb", 6, 5, 5, trick=["Aj Ks Qp Jt 10s"]),
    ok("a straight flush is never a plain straight", "4j 5j 6j 7j 8j", "bomb", 8, 5, 5,
       trick=["3s 4p 5t 6s 7p"]),
    ok("bomb on a single", "8j 8s 8p 8t", "bomb", 8, 4, trick=["5j"]),
    ok("higher four of a kind", "Jj Js Jp Jt", "bomb", 11, 4, trick=["8j 8s 8p 8t"]),
    bad("lower four of a kind", "8j 8s 8p 8t", "bomb", 8, 4, trick=["Jj Js Jp Jt"]),
    ok("straight flush beats every four of a kind", "2j 3j 4j 5j 6j", "bomb", 6, 5, 5,
       trick=["As Ap At Aj"]),
    bad("four of a kind cannot beat a straight flush", "As Ap At Aj", "bomb", 14, 4,
        trick=["2j 3j 4j 5j 6j"]),
    ok("higher straight flush of the same length", "5s 6s 7s 8s 9s", "bomb", 9, 5, 5,
       trick=["3j 4j 5j 6j 7j"]),
    ok("longer straight flush beats a higher one", "2s 3s 4s 5s 6s 7s", "bomb", 7, 6, 5,
       trick=["5j 6j 7j 8j 9j"]),
    bad("shorter straight flush", "3j 4j 5j 6j 7j", "bomb", 7, 5, 5, trick=["2s 3s 4s 5s 6s 7s"]),
    ok("bomb on the Dragon", "8j 8s 8p 8t", "bomb", 8, 4, trick=["Dragon"]),
    ok("bomb on the Dragon out of turn", "8j 8s 8p 8t", "bomb", 8, 4, trick=["Dragon"], turn=False),
    ok("a bomb can lead", "8j 8s 8p 8t", "bomb", 8, 4),
    bad("no bomb on the Dog", "8j 8s 8p 8t", "bomb", 8, 4, trick=["Dog"]),
    bad("no bomb on the Dog out of turn", "8j 8s 8p 8t", "bomb", 8, 4, trick=["Dog"], turn=False),
    # --- singles, Phoenix and Dragon
    ok("higher single", "9s", "single", 9, 1, trick=["8s"]),
    bad("equal single", "8j", "single", 8, 1, trick=["8s"]),
    bad("lower single", "7j", "single", 7, 1, trick=["8s"]),
    ok("Phoenix on an 8 is 8.5", "Phoenix", "single", 8.5, 1, -25, trick=["8s"]),
    ok("9 beats a Phoenix played on an 8", "9j", "single", 9, 1, trick=["8s", "Phoenix"]),
    bad("8 does not beat a Phoenix played on an 8", "8j", "single", 8, 1, trick=["8s", "Phoenix"]),
    ok("8 beats a Phoenix played on a 7", "8j", "single", 8, 1, trick=["7s", "Phoenix"]),
    ok("Phoenix on an A is 14.5", "Phoenix", "single", 14.5, 1, -25, trick=["9j", "Aj"]),
    ok("Dragon beats A + Phoenix", "Dragon", "single", 15, 1, 25, trick=["Aj", "Phoenix"]),
    bad("Phoenix never beats the Dragon", "Phoenix", "single", ANY_RANK, 1, -25, trick=["Dragon"]),
    bad("A does not beat the Dragon", "Aj", "single", 14, 1, trick=["Dragon"]),
    bad("passes written in the trick are skipped", "8j", "single", 8, 1, trick=["8s", "pass", "Phoenix", ""]),
    ok("Phoenix on the Mahjong is 1.5", "Phoenix", "single", 1.5, 1, -25, trick=["Mahjong"]),
    ok("a 2 beats a led Phoenix", "2j", "single", 2, 1, trick=["Phoenix"]),
    bad("the Mahjong does not beat a led Phoenix", "Mahjong", "single", 1, 1, trick=["Phoenix"]),
    bad("Phoenix single on a pair", "Phoenix", "single", ANY_RANK, 1, -25, trick=["5j 5s"]),
    bad("a pair cannot beat a triple", "9j 9s", "pair", 9, 2, trick=["5j 5s 5p"]),
    bad("a single cannot beat a pair", "Aj", "single", 14, 1, trick=["5j 5s"]),
    # --- the Dog
    bad("the Dog is only led", "Dog", "dog", None, 1, trick=["5j"]),
    bad("nothing is played on the Dog", "5j", "single", 5, 1, 5, trick=["Dog"]),
    # --- passing and turns
    bad("the leader cannot pass", "pass", "pass", None, 0),
    bad("the leader cannot pass (empty play)", "", "pass", None, 0, trick=[]),
    ok("pass", "pass", "pass", None, 0, trick=["5j"]),
    ok("pass as an empty play", "", "pass", None, 0, trick=["5j"]),
    bad("out of turn only a bomb", "9j", "single", 9, 1, trick=["5s"], turn=False),
    ok("bomb out of turn", "9j 9s 9p 9t", "bomb", 9, 4, trick=["5s"], turn=False),
    bad("out of turn on an empty table", "9j 9s 9p 9t", "bomb", 9, 4, turn=False),
    bad("out of turn a bomb too low", "5j 5s 5p 5t", "bomb", 5, 4, 20, trick=["9j 9s 9p 9t"], turn=False),
    # --- the hand
    bad("a play not in the hand", "9j", "single", 9, 1, trick=["5s"], hand="9s 2j"),
    ok("a play from the hand", "9s", "single", 9, 1, trick=["5j"], hand="9s 2j"),
    # --- the Mahjong wish
    bad("wish: must play the wished single", "9j", "single", 9, 1, keyword="wish",
        trick=["5j"], hand="7s 9j 2p", wish="7"),
    ok("wish: playing the wished single", "7s", "single", 7, 1, trick=["5j"], hand="7s 9j 2p", wish="7"),
    bad("wish: no pass when it can be played", "pass", "pass", None, 0, keyword="wish",
        trick=["5j"], hand="7s 9j 2p", wish="7"),
    ok("wish: too low to play, so anything goes", "9j", "single", 9, 1, trick=["8j"], hand="7s 9j",
       wish="7"),
    ok("wish: too low to play, so passing goes", "pass", "pass", None, 0, trick=["8j"], hand="7s 9j",
       wish="7"),
    bad("wish: with the Phoenix's help as a pair", "9j 9s", "pair", 9, 2, keyword="wish",
        trick=["5j 5s"], hand="7s Phoenix 9j 9s", wish="7"),
    ok("wish: fulfilled with the Phoenix", "7s Phoenix", "pair", 7, 2, -25,
       trick=["5j 5s"], hand="7s Phoenix 9j 9s", wish="7"),
    bad("wish: in a straight", "8s 9p 10t Jj Qs", "straight", 12, 5, 10, keyword="wish",
        trick=["2s 3p 4t 5j 6s"], hand="7j 8s 9p 10t Jj Qs", wish="7"),
    ok("wish: fulfilled in a straight", "7j 8s 9p 10t Jj", "straight", 11, 5, 10,
       trick=["2s 3p 4t 5j 6s"], hand="7j 8s 9p 10t Jj Qs", wish="7"),
    bad("wish: in a straight with the Phoenix", "pass", "pass", None, 0, keyword="wish",
        trick=["2s 3p 4t 5j 6s"], hand="3j 4s 5p 7j Phoenix 9j", wish="7"),
    bad("wish: via a bomb holding it", "pass", "pass", None, 0, keyword="wish",
        trick=["Aj"], hand="7j 7s 7p 7t 2j", wish="7"),
    ok("wish: fulfilled by the bomb", "7j 7s 7p 7t", "bomb", 7, 4, trick=["Aj"], hand="7j 7s 7p 7t 2j",
       wish="7"),
    bad("wish: via a straight flush holding it", "pass", "pass", None, 0, keyword="wish",
        trick=["Dragon"], hand="3p 4p 5p 6p 7p 9j", wish="7"),
    bad("wish: a straight flush holding it beats a pair", "pass", "pass", None, 0, keyword="wish",
        trick=["7s 7t"], hand="2j 3j 4j 5j 6j", wish="2"),
    ok("wish: any bomb instead", "9j 9s 9p 9t", "bomb", 9, 4, trick=["5j"], hand="7s 9j 9s 9p 9t",
       wish="7"),
    ok("wish: the Phoenix alone never obliges", "pass", "pass", None, 0, trick=["5j"],
       hand="Phoenix 2j", wish="7"),
    ok("wish: the Phoenix alone may be played", "Phoenix", "single", 5.5, 1, -25, trick=["5j"],
       hand="Phoenix 2j", wish="7"),
    ok("wish: out of turn nothing binds", "9j 9s 9p 9t", "bomb", 9, 4, trick=["5j"],
       hand="7s 9j 9s 9p 9t", wish="7", turn=False),
    bad("wish: leading while holding it", "9j", "single", 9, 1, keyword="wish", hand="7s 9j", wish="7"),
    ok("wish: leading with it", "7s", "single", 7, 1, hand="7s 9j", wish="7"),
    ok("wish: leading with it in a pair", "7s 7j", "pair", 7, 2, hand="7s 7j 9j", wish="7"),
    bad("wish: the Dog lead ignores it", "Dog", "dog", None, 1, keyword="wish", hand="7s Dog", wish="7"),
    ok("wish: leading with a bomb instead", "9j 9s 9p 9t", "bomb", 9, 4, hand="7s 9j 9s 9p 9t",
       wish="7"),
    ok("wish: without a hand nothing can be checked", "9j", "single", 9, 1, trick=["5j"], wish="7"),
    ok("wish: not held", "9j", "single", 9, 1, trick=["5j"], hand="9j 2s", wish="7"),
    bad("wish for 10 spelled T", "Jj", "single", 11, 1, keyword="wish", trick=["5j"], hand="10s Jj",
        wish="T"),
    bad("wish for an A", "pass", "pass", None, 0, keyword="wish", trick=["Kj"], hand="As 2j", wish="A"),
    bad("wish: a higher bomb holding it beats a bomb", "pass", "pass", None, 0, keyword="wish",
        trick=["3j 3s 3p 3t"], hand="7j 7s 7p 7t 9s", wish="7"),
    bad("wish: a higher bomb holding it, not a single", "9s", "single", 9, 1, keyword="wish",
        trick=["5j"], hand="7j 7s 7p 7t 9s", wish="7"),
    ok("wish: a lower bomb holding it does not bind", "pass", "pass", None, 0,
        trick=["9j 9s 9p 9t"], hand="7j 7s 7p 7t 2s", wish="7"),
    ok("wish: the Phoenix cannot lift a low wished single", "pass", "pass", None, 0,
       trick=["8j"], hand="7s Phoenix", wish="7"),
    bad("wish: on a led Phoenix a 2 must be played", "pass", "pass", None, 0, keyword="wish",
        trick=["Phoenix"], hand="2s 9j", wish="2"),
    bad("wish: in a full house with the Phoenix", "pass", "pass", None, 0, keyword="wish",
        trick=["5j 5s 5p 2s 2t"], hand="7s 7j 9j 9s Phoenix", wish="7"),
    ok("wish: the full house with it", "7s 7j 9j 9s Phoenix", "full_house", 9, 5, -25,
       trick=["5j 5s 5p 2s 2t"], hand="7s 7j 9j 9s Phoenix", wish="7"),
    bad("wish: a play not in the hand", "7s", "single", 7, 1, trick=["5j"], hand="7j 9j", wish="7"),
    ok("no wish given as null", "9j", "single", 9, 1, trick=["5j"], hand="7s 9j", wish=None),
    ok("straight flush beats a longer straight", "2j 3j 4j 5j 6j", "bomb", 6, 5, 5,
       trick=["8s 9p 10t Js Qp Kt"]),
    bad("four of a kind out of turn on a straight flush", "As Ap At Aj", "bomb", 14, 4,
        trick=["2j 3j 4j 5j 6j"], turn=False),
    bad("Dragon and Phoenix are no pair", "Dragon Phoenix", None, points=0),
    ok("straight with Phoenix at the top end", "3j 4s 5p 6t Ph", "straight", 7, 5, -20,
       trick=["2s 3p 4t 5j 6s"]),
    ok("wish does not bind the wrong length", "9j 9s", "pair", 9, 2, trick=["5j 5s"],
       hand="7s 9j 9s", wish="7"),
]

# The worked examples of the rule documents (seeds 000, 003, 004), in order.
SEED_EXAMPLES: list[Example] = [
    ok("003 single 1: a 5 beats a 4", "5j", "single", 5, 1, 5, trick=["4s"]),
    ok("003 single 2: 6677 beats 5566", "6p 6t 7j 7s", "stairs", 7, 4, trick=["5j 5s 6j 6s"]),
    ok("003 single 2: 7788 beats 5566", "7j 7s 8j 8s", "stairs", 8, 4, trick=["5j 5s 6j 6s"]),
    ok("003 single 3: 345678 beats 234567", "3j 4s 5p 6t 7s 8j", "straight", 8, 6, 5,
       trick=["2j 3s 4p 5t 6j 7p"]),
    ok("003 single 4: 77722 beats 66633", "7j 7s 7p 2j 2s", "full_house", 7, 5, trick=["6j 6s 6p 3j 3s"]),
    ok("003 single 4: 888JJ beats 66633", "8j 8s 8p Jj Js", "full_house", 8, 5, trick=["6j 6s 6p 3j 3s"]),
    ok("003 bombs: 8888 on the Dragon", "8j 8s 8p 8t", "bomb", 8, 4, trick=["Dragon"], turn=False),
    ok("003 bombs: JJJJ on 8888", "Jj Js Jp Jt", "bomb", 11, 4, trick=["Dragon", "8j 8s 8p 8t"], turn=False),
    ok("003 bombs: a 34567 flush on JJJJ", "3s 4s 5s 6s 7s", "bomb", 7, 5, 5,
       trick=["Dragon", "8j 8s 8p 8t", "Jj Js Jp Jt"], turn=False),
    ok("003 wish 1: without a 5, a 2", "2j", "single", 2, 1, trick=["Mahjong"], hand="2j 9s", wish="5"),
    bad("003 wish 1: holding a 5, not a 9", "9j", "single", 9, 1, keyword="wish", trick=["Mahjong", "2j"],
        hand="5s 9j", wish="5"),
    ok("003 wish 1: holding a 5, the 5", "5s", "single", 5, 1, 5, trick=["Mahjong", "2j"],
       hand="5s 9j", wish="5"),
    ok("003 wish 2: a 5 too low, an A", "Aj", "single", 14, 1, trick=["Mahjong", "8j"], hand="5s Aj",
       wish="5"),
    bad("003 wish 2: the wish lasts: lead the 5", "Kj", "single", 13, 1, 10, keyword="wish",
        hand="5s Kj", wish="5"),
    bad("003 wish 3: four 5s must be bombed", "Kj", "single", 13, 1, 10, keyword="wish",
        trick=["Mahjong", "8j"], hand="5j 5s 5p 5t Kj", wish="5"),
    ok("003 wish 3: the 5 bomb", "5j 5s 5p 5t", "bomb", 5, 4, 20, trick=["Mahjong", "8j"],
       hand="5j 5s 5p 5t Kj", wish="5"),
    ok("003 wish 4: a bomb out of turn need not hold the 5", "8j 8s 8p 8t", "bomb", 8, 4,
       trick=["Mahjong"], hand="5j 8j 8s 8p 8t", wish="5", turn=False),
    bad("003 wish 4: then the lead must hold the 5", "9s", "single", 9, 1, keyword="wish", hand="5j 9s",
        wish="5"),
    ok("003 Dog 1: the Dog leads", "Dog", "dog", None, 1, hand="Dog 5j"),
    ok("003 Dragon 1: the Dragon on an A", "Dragon", "single", 15, 1, 25, trick=["8j", "Aj"]),
    ok("003 Dragon 2: 3333 on the Dragon", "3j 3s 3p 3t", "bomb", 3, 4, trick=["Aj", "Dragon"]),
    ok("003 Dragon 3: 9999 on 3333", "9j 9s 9p 9t", "bomb", 9, 4, trick=["Aj", "Dragon", "3j 3s 3p 3t"]),
    ok("003 Phoenix 1: the Phoenix on a 5", "Phoenix", "single", 5.5, 1, -25, trick=["5j"]),
    ok("003 Phoenix 1: a 6 on the Phoenix", "6j", "single", 6, 1, trick=["5j", "Phoenix"]),
    ok("003 Phoenix 2: K and Phoenix on 33", "Kj Phoenix", "pair", 13, 2, -15, trick=["3j 3s"]),
    ok("003 Phoenix 2: AA on K and Phoenix", "Aj As", "pair", 14, 2, trick=["3j 3s", "Kj Phoenix"]),
    ok("003 Phoenix 3: the Phoenix on an A", "Phoenix", "single", 14.5, 1, -25, trick=["9j", "Aj"]),
    ok("003 Phoenix 3: the Dragon on it", "Dragon", "single", 15, 1, 25, trick=["9j", "Aj", "Phoenix"]),
    bad("003 Phoenix 4: three 9s and the Phoenix are no bomb", "9j 9s 9p Phoenix", None, points=-25,
        trick=["Dragon", "8j 8s 8p 8t"], turn=False),
    ok("004 full house: 44433 beats 22288", "4j 4s 4p 3j 3s", "full_house", 4, 5,
       trick=["2j 2s 2p 8j 8s"]),
    ok("004 stairs: 334455 beats 223344", "3p 3t 4p 4t 5j 5s", "stairs", 5, 6, 10,
       trick=["2j 2s 3j 3s 4j 4s"]),
    ok("000 straight of 8 beats a lower straight of 8", "3j 4s 5p 6t 7j 8s 9p 10t", "straight", 10, 8, 15,
       trick=["2s 3p 4t 5j 6s 7p 8t 9j"]),
    bad("000 straight of 7 does not beat a straight of 8", "4s 5p 6t 7j 8s 9p 10t", "straight", 10, 7, 15,
        trick=["2s 3p 4t 5j 6s 7p 8t 9j"]),
    ok("000 FAQ: the K bomb out of turn before one's turn", "Kj Ks Kp Kt", "bomb", 13, 4, 40,
       trick=["Mahjong"], hand="3j 4s 5p 6t 7j 8s 9p 10t Jj Qs Kj Ks Kp Kt", wish="8", turn=False),
    bad("000 FAQ: then the lead must hold the 8", "Qs", "single", 12, 1, keyword="wish",
        hand="3j 4s 5p 6t 7j 8s 9p 10t Jj Qs", wish="8"),
    ok("000 FAQ: a lead with the 8 in a straight", "3j 4s 5p 6t 7j 8s", "straight", 8, 6, 5,
       hand="3j 4s 5p 6t 7j 8s 9p 10t Jj Qs", wish="8"),
    bad("000 FAQ: a straight flush holding the 8 must beat the K bomb", "pass", "pass", None, 0,
        keyword="wish", trick=["Mahjong", "Kj Ks Kp Kt"], hand="4p 5p 6p 7p 8p 2j", wish="8"),
    ok("000 FAQ: the straight flush holding the 8", "4p 5p 6p 7p 8p", "bomb", 8, 5, 5,
       trick=["Mahjong", "Kj Ks Kp Kt"], hand="4p 5p 6p 7p 8p 2j", wish="8"),
    ok("000 FAQ: without the wished card the Phoenix need not stand in", "pass", "pass", None, 0,
       trick=["5j 5s"], hand="Phoenix 9j 2s", wish="8"),
]
EXAMPLES += SEED_EXAMPLES

ERRORS: list[tuple[str, dict[str, Any]]] = [
    ("unreadable play", {"play": "5x"}),
    ("unreadable hand", {"play": "5j", "hand": "5j Zz"}),
    ("unreadable trick", {"play": "5j", "trick": ["Qq"]}),
    ("card twice in the play", {"play": "5j 5j"}),
    ("card twice in the play, two spellings", {"play": "Mahjong 1 2j 3j 4j"}),
    ("card twice in the hand", {"play": "5j", "hand": "5j 2s 2s"}),
    ("card twice in one trick play", {"play": "5j", "trick": ["3s 3s"]}),
    ("wish of 1", {"play": "5j", "wish": "1"}),
    ("wish of a letter", {"play": "5j", "wish": "Z"}),
    ("wish of the Dragon", {"play": "5j", "wish": "Dragon"}),
    ("unknown game", {"play": "5j", "game": "chess"}),
    ("card both in the play and the trick", {"play": "5j", "trick": ["5j"]}),
    ("card both in the hand and the trick", {"play": "9s", "trick": ["5j"], "hand": "9s 5j"}),
    ("trick play of no shape", {"play": "9s", "trick": ["5j 7s"]}),
    ("missing play", {"trick": ["5j"]}),
]

ENGINES: dict[str, Judge] = {"real": judge_situation, "reference": reference_referee.judge}
ERROR_TYPES: dict[str, type[Exception]] = {
    "real": SituationError,
    "reference": reference_referee.ReferenceSituationError,
}


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_example_verdict(example: Example, engine: str) -> None:
    verdict = ENGINES[engine](example.situation)
    assert verdict["legal"] is example.legal, verdict
    combination = verdict["combination"]
    if example.kind is None:
        assert combination is None, verdict
    else:
        assert combination is not None, verdict
        assert combination["kind"] == example.kind, verdict
        assert combination["length"] == example.length, verdict
        if example.rank != ANY_RANK:
            assert combination.get("rank") == example.rank, verdict
            assert type(combination.get("rank")) is type(example.rank), "whole ranks are ints in JSON"
    assert verdict["points"] == example.points, verdict
    if example.legal:
        assert verdict["reason"] is None, verdict
    else:
        reason = verdict["reason"]
        assert isinstance(reason, str) and len(reason.split()) >= 2, verdict
        assert example.keyword.lower() in reason.lower(), verdict


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("situation", [s for _, s in ERRORS], ids=[n for n, _ in ERRORS])
def test_error_line(situation: dict[str, Any], engine: str) -> None:
    with pytest.raises(ERROR_TYPES[engine]) as caught:
        ENGINES[engine](situation)
    assert str(caught.value).strip(), "an error line needs a message"


def test_examples_cover_every_kind() -> None:
    kinds = {e.kind for e in EXAMPLES}
    assert kinds >= {"single", "pair", "triple", "full_house", "stairs", "straight", "bomb", "dog", "pass",
                     None}
