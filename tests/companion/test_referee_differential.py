"""Differential test: random Tichu situations judged by the real referee and the reference.

The reference (tests/companion/reference_referee.py) was written from the contract alone.
Random situations come from a seeded generator: a random hand from a shuffled deck, a
trick built as a legal sequence of plays from the other cards, a random open wish, play
in or out of turn, and a play drawn from the hand (random subsets, built combinations,
the real lister ``legal_plays``, cards not in the hand, passes), in random spellings.
Both engines must agree on legal, kind, rank, length and points (not on the wording).
The real lister is checked too: each play it lists is legal for the reference, and for
small hands it lists every legal card set.

Run many more offline (nice, a few minutes):
    nice .venv/bin/python -m tests.companion.test_referee_differential --count 200000 --seed 1
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from companion.cards import format_cards, parse_cards
from companion.tichu.combinations import Combination, Kind, classify
from companion.tichu.referee import SituationError, judge_situation, legal_plays
from tests.companion import reference_referee as ref

PYTEST_COUNT = 2500
PYTEST_SEED = 20261122
KINDS = ("single", "pair", "triple", "full_house", "stairs", "straight", "bomb")
# Leads drawn with these weights: bombs rarer, since only bombs can follow them.
LEAD_KINDS = ("single", "single", "pair", "pair", "triple", "full_house", "stairs", "straight", "straight",
              "bomb")

# ---------------------------------------------------------------- random situations


def _by_rank(pool: Sequence[str]) -> dict[int, list[str]]:
    ranks: dict[int, list[str]] = {}
    for card in pool:
        if ref.is_ordinary(card) or card == ref.MAHJONG:
            ranks.setdefault(ref.rank_of(card), []).append(card)
    return ranks


def _feasible(by_rank: dict[int, list[str]], needs: dict[int, int], phoenix: bool) -> bool:
    """Whether the needs can be met, the Phoenix filling at most one gap (never a 1)."""
    short = {rank: count - len(by_rank.get(rank, [])) for rank, count in needs.items()}
    gaps = [rank for rank, missing in short.items() if missing > 0]
    if not gaps:
        return True
    return phoenix and len(gaps) == 1 and short[gaps[0]] == 1 and gaps[0] != 1


def _fill(rng: random.Random, pool: Sequence[str], needs: dict[int, int]) -> list[str]:
    """Cards from ``pool`` meeting ``needs`` (rank -> count), the Phoenix filling a gap."""
    by_rank = _by_rank(pool)
    phoenix_left = ref.PHOENIX in pool
    cards: list[str] = []
    for rank, count in needs.items():
        have = list(by_rank.get(rank, []))
        rng.shuffle(have)
        if len(have) < count:
            cards += [*have, ref.PHOENIX]
            phoenix_left = False
        else:
            cards += have[:count]
    if phoenix_left and rng.random() < 0.1 and cards[-1] != ref.MAHJONG:  # the Phoenix when not needed
        cards[-1] = ref.PHOENIX
    return cards


def _shapes(kind: str, length: int | None) -> list[tuple[float, dict[int, int]]]:
    """(rank, needs) for every combination of ``kind`` (and ``length``) in a full deck."""
    if kind in ("pair", "triple"):
        return [(r, {r: 2 if kind == "pair" else 3}) for r in range(2, 15)]
    if kind == "full_house":
        return [(a, {a: 3, b: 2}) for a in range(2, 15) for b in range(2, 15) if a != b]
    if kind == "stairs":
        sizes = [length // 2] if length else [2, 2, 3, 4, 5]
        return [(s + m - 1, {r: 2 for r in range(s, s + m)}) for m in sizes for s in range(2, 16 - m)]
    assert kind == "straight"
    sizes = [length] if length else [5, 5, 6, 7, 8, 10]
    return [(s + n - 1, {r: 1 for r in range(s, s + n)}) for n in sizes for s in range(1, 16 - n)]


def _bombs(pool: Sequence[str]) -> list[list[str]]:
    fours = [[ref.NAME_BY_RANK[r] + suit for suit in ref.SUITS] for r in range(2, 15)]
    flushes = [
        [ref.NAME_BY_RANK[r] + suit for r in range(start, start + size)]
        for suit in ref.SUITS
        for size in range(5, 14)
        for start in range(2, 16 - size)
    ]
    present = set(pool)
    return [cards for cards in fours + flushes if present.issuperset(cards)]


def random_combination(
    rng: random.Random,
    pool: Sequence[str],
    kind: str,
    length: int | None = None,
    above: float = 0,
    strict: bool = False,
) -> list[str] | None:
    """A random combination of ``kind`` (and ``length``) from ``pool``, mostly ranked above
    ``above`` (only so when ``strict``, where singles and bombs are also picked to beat)."""
    if not pool:
        return None
    if kind == "single":
        singles = list(pool)
        if strict:
            singles = [c for c in pool if (c == ref.PHOENIX and above < ref.DRAGON_RANK)
                       or (c not in (ref.DOG, ref.PHOENIX) and ref.rank_of(c) > above)]
        return [rng.choice(singles)] if singles else None
    if kind == "bomb":
        bombs = _bombs(pool)
        if strict:
            # a bomb's strength: its length, then its highest rank
            bombs = [b for b in bombs if (len(b), max(map(ref.rank_of, b))) > (length or 0, above)]
        return rng.choice(bombs) if bombs else None
    by_rank = _by_rank(pool)
    phoenix = ref.PHOENIX in pool
    options = [(rank, needs) for rank, needs in _shapes(kind, length) if _feasible(by_rank, needs, phoenix)]
    higher = [option for option in options if option[0] > above]
    if strict or (higher and rng.random() < 0.8):
        options = higher
    if not options:
        return None
    return _fill(rng, pool, rng.choice(options)[1])


def random_trick(rng: random.Random, pool: list[str]) -> list[list[str]]:
    """A legal sequence of plays (oldest first) from ``pool``; the cards leave the pool."""
    if rng.random() < 0.3:
        return []
    plays: list[list[str]] = []
    top: ref.Reading | None = None
    for _ in range(rng.choice((1, 1, 2, 3, 4))):
        if top is not None and top.kind == "dog":
            break
        bomb = rng.random() < 0.05
        for _attempt in range(5):
            if top is None:
                cards = random_combination(rng, pool, rng.choice(LEAD_KINDS))
            elif bomb or top.is_bomb:
                bomb_top = top if top.is_bomb else None
                cards = random_combination(rng, pool, "bomb", bomb_top.length if bomb_top else None,
                                           (bomb_top and bomb_top.rank) or 0, strict=True)
            else:
                cards = random_combination(rng, pool, top.kind, top.length, top.rank or 0, strict=True)
            if not cards:
                continue
            reading = ref.best_reading(cards, top, True)
            if reading is not None and ref.allowed(reading, top, True):
                plays.append(cards)
                top = reading
                for card in cards:
                    pool.remove(card)
                break
    return plays


_ALIASES = {ref.MAHJONG: ("mj", "1", "MAHJONG"), ref.DOG: ("dg", "dog"), ref.PHOENIX: ("ph", "PH"),
            ref.DRAGON: ("dr", "dragon")}


def spell(cards: Sequence[str], rng: random.Random) -> str:
    """Cards in a random but valid spelling (case, aliases, T for 10, commas)."""
    tokens = []
    for card in cards:
        token = card
        if rng.random() < 0.2:
            if card in _ALIASES:
                token = rng.choice(_ALIASES[card])
            else:
                token = card.replace("10", "T").lower() if rng.random() < 0.5 else card.upper()
        tokens.append(token)
    return rng.choice((" ", ", ", ",")).join(tokens)


def real_trick(trick: Sequence[str]) -> list[Combination]:
    """The trick's plays as the real engine's combinations (for its lister)."""
    combos: list[Combination] = []
    for text in trick:
        combo = classify(parse_cards(text), on=combos[-1] if combos else None)
        assert combo is not None, text
        combos.append(combo)
    return combos


def real_listing(
    hand: Sequence[str], trick: Sequence[str], wish: int | None, turn: bool
) -> list[tuple[str, dict[str, Any]]]:
    """The real lister's plays: (card text or "pass", combination JSON)."""
    combos = real_trick(trick)
    plays = legal_plays(parse_cards(" ".join(hand)), combos or None, wish, turn)
    return [("pass" if p.kind is Kind.PASS else format_cards(p.cards), p.to_json()) for p in plays]


def real_legal_plays(hand: Sequence[str], trick: Sequence[str], wish: int | None, turn: bool) -> list[str]:
    """The real lister's plays as card texts ("pass" for the pass)."""
    return [text for text, _ in real_listing(hand, trick, wish, turn)]


def random_situation(rng: random.Random, use_lister: bool = True) -> dict[str, Any]:
    deck = ref.full_deck()
    rng.shuffle(deck)
    hand_size = rng.choice((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14, 14))
    if rng.random() < 0.15:  # bombs are rare in random hands; plant one
        planted = rng.choice(_bombs(deck))
        deck = planted + [card for card in deck if card not in planted]
        hand_size = max(hand_size, len(planted))
    hand, pool = deck[:hand_size], deck[hand_size:]
    rng.shuffle(hand)
    trick = random_trick(rng, pool)
    trick_texts = [spell(play, rng) for play in trick]
    if trick_texts and rng.random() < 0.1:  # passes written into the trick are skipped
        trick_texts.insert(rng.randint(1, len(trick_texts)), rng.choice(("pass", "", "PASS")))
    wish: int | None = None
    if rng.random() < 0.4:
        ordinary = [ref.rank_of(c) for c in hand if ref.is_ordinary(c)]
        wish = rng.choice(ordinary) if ordinary and rng.random() < 0.7 else rng.randint(2, 14)
    turn = rng.random() > 0.15
    top = trick[-1] if trick else None
    top_reading = ref.best_reading(top, None, True) if top else None
    strategy = rng.random()
    if not use_lister and 0.5 <= strategy < 0.8:
        strategy -= 0.3  # the lister's share goes to built combinations
    play: list[str] | str
    if strategy < 0.08:
        play = "pass"
    elif strategy < 0.2:
        play = rng.sample(hand, min(len(hand), rng.choice((1, 1, 2, 2, 3, 4, 5, 6))))
    elif strategy < 0.5:
        kind = rng.choice(LEAD_KINDS) if turn else "bomb"
        if turn and top_reading is not None and top_reading.kind != "dog" and rng.random() < 0.6:
            kind = top_reading.kind
        length = top_reading.length if top_reading and top_reading.kind == kind else None
        above = (top_reading.rank or 0) if top_reading else 0
        play = random_combination(rng, hand, kind, length, above) or rng.sample(hand, 1)
    elif strategy < 0.8:
        options = real_legal_plays(hand, [" ".join(p) for p in trick], wish, turn)
        plays = [option for option in options if option != "pass"]
        choice = rng.choice(plays) if plays and rng.random() < 0.9 else "pass"
        play = "pass" if choice == "pass" else choice.split()
    elif strategy < 0.92 and top_reading is not None:
        play = random_combination(rng, hand, "single", None) or "pass"
    else:
        outside = rng.sample(pool, min(len(pool), rng.randint(1, 3)))
        play = outside + rng.sample(hand, rng.randint(0, min(len(hand), 3)))
    situation: dict[str, Any] = {
        "play": play if isinstance(play, str) else spell(play, rng),
        "trick": trick_texts,
    }
    if rng.random() < 0.85:
        situation["hand"] = spell(hand, rng)
    if wish is not None:
        name = ref.NAME_BY_RANK[wish]
        situation["wish"] = rng.choice((name, name, name.lower(), name.replace("10", "T"), wish))
    if not turn or rng.random() < 0.3:
        situation["turn"] = turn
    if rng.random() < 0.2:
        situation["game"] = "tichu"
    if rng.random() < 0.04:
        corrupt(situation, rng)
    return situation


def corrupt(situation: dict[str, Any], rng: random.Random) -> None:
    """Turn ``situation`` into a line that cannot be a real situation."""
    how = rng.choice(("token", "twice", "wish", "game", "no play", "hand twice"))
    play = situation["play"] if situation["play"].strip().lower() not in ("", "pass") else "9j"
    if how == "token":
        situation["play"] = play + rng.choice((" 1j", " Xs", " 11p", " Dragons", " 0t"))
    elif how == "twice":
        situation["play"] = play + " " + play.replace(",", " ").split()[0].lower()
    elif how == "wish":
        situation["wish"] = rng.choice(("1", "Mahjong", "Z", 15, 0, "Dragon"))
    elif how == "game":
        situation["game"] = rng.choice(("chess", "shengji"))
    elif how == "no play":
        del situation["play"]
    else:
        hand = situation.get("hand") or "7s"
        situation["hand"] = hand + " " + hand.replace(",", " ").split()[0]


# ---------------------------------------------------------------- comparing


def _judge(engine: Any, situation: Mapping[str, Any], error: type[Exception]) -> dict[str, Any]:
    try:
        return dict(engine(situation))
    except error as caught:
        return {"error": str(caught)}


def disagreement(situation: Mapping[str, Any], real: dict[str, Any] | None = None) -> str | None:
    """A short description of how the two engines differ on ``situation``, or None
    (``real``: the real verdict when already known, e.g. from the command line)."""
    if real is None:
        real = _judge(judge_situation, situation, SituationError)
    mine = _judge(ref.judge, situation, ref.ReferenceSituationError)
    if ("error" in real) != ("error" in mine):
        return f"error line: real={real} reference={mine}"
    if "error" in real or "play" not in situation:
        return None
    fields = ["legal", "points"]
    combination_fields = ["kind", "length", "rank"]
    passing = ref._is_pass(situation["play"])
    top, _ = ref.read_trick(situation.get("trick") or [])
    # Rulings the contract leaves open: a pass out of turn, a pass on the Dog, and the
    # value of a Phoenix single on something that is not a single, or on the Dragon.
    if passing and (situation.get("turn") is False or (top is not None and top.kind == "dog")):
        fields.remove("legal")
    play_cards = [] if passing else ref.read_cards(situation["play"], "play")
    on_no_single = top is not None and (top.kind != "single" or top.rank == ref.DRAGON_RANK)
    if play_cards == [ref.PHOENIX] and on_no_single:
        combination_fields.remove("rank")
    differences = [f"{name}: real={real[name]!r} reference={mine[name]!r}" for name in fields
                   if real[name] != mine[name]]
    real_combo, my_combo = real["combination"], mine["combination"]
    if (real_combo is None) != (my_combo is None):
        differences.append(f"combination: real={real_combo} reference={my_combo}")
    elif real_combo is not None:
        differences += [f"{name}: real={real_combo.get(name)!r} reference={my_combo.get(name)!r}"
                        for name in combination_fields if real_combo.get(name) != my_combo.get(name)]
    real_rank = None if real_combo is None else real_combo.get("rank")
    if isinstance(real_rank, float) and real_rank.is_integer():
        differences.append(f"rank written as a float: {real_combo}")  # JSON would show 13.0
    if differences:
        reasons = f"real reason: {real.get('reason')!r}; reference: {mine['reason']!r}"
        return "; ".join(differences) + f" ({reasons})"
    return None


def lister_disagreement(rng: random.Random) -> str | None:
    """Check the real lister against the reference on one random hand and trick."""
    deck = ref.full_deck()
    rng.shuffle(deck)
    hand, pool = deck[: rng.randint(1, 8)], deck[8:]
    trick = [" ".join(play) for play in random_trick(rng, pool)]
    wish = rng.randint(2, 14) if rng.random() < 0.4 else None
    turn = rng.random() > 0.15
    listing = real_listing(hand, trick, wish, turn)
    listed = [text for text, _ in listing]
    base: dict[str, Any] = {"trick": trick, "hand": " ".join(hand), "turn": turn}
    if wish is not None:
        base["wish"] = ref.NAME_BY_RANK[wish]
    for text, combination in listing:
        if text != "pass":
            verdict = ref.judge({**base, "play": text})
            if verdict["combination"] != combination:
                return f"lister reading: {json.dumps({**base, 'play': text})} listed as {combination}, " \
                    f"reference {verdict['combination']}"
    listed_sets = {frozenset(p.split()) for p in listed if p != "pass"}
    for size in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            situation = {**base, "play": " ".join(combo)}
            is_legal = ref.judge(situation)["legal"]
            if is_legal != (frozenset(combo) in listed_sets):
                return f"lister: {json.dumps(situation)} reference legal={is_legal}, listed={not is_legal}"
    on_dog = bool(trick) and trick[-1] == ref.DOG
    if turn and not on_dog:
        pass_legal = ref.judge({**base, "play": "pass"})["legal"]
        if pass_legal != ("pass" in listed):
            return f"lister pass: {json.dumps(base)} reference pass legal={pass_legal}"
    return None


# Every set of up to five cards from this small deck is compared exhaustively: it holds
# straights with the Mahjong, straight flushes, Phoenix pairs, triples, full houses and stairs.
SMALL_DECK = [ref.NAME_BY_RANK[r] + suit for r in range(4, 9) for suit in "jsp"] + [ref.MAHJONG, ref.PHOENIX]
SMALL_DECK_TRICKS: list[list[str]] = [
    [], ["5t"], ["3j 3s"], ["2j 2s 3p 3t"], ["2p 2t 2j 3j 3t"], ["2j 3s 4t 5t 6t"], ["2j 2s 2p 2t"],
    ["Aj As Ap At"], ["Dog"], ["Dragon"], ["Kt", "At"],
]


def exhaustive_disagreements(max_size: int, tricks: Sequence[list[str]] = SMALL_DECK_TRICKS) -> list[str]:
    """Compare every card set of SMALL_DECK up to ``max_size`` cards, led and on each trick."""
    mismatches = []
    for size in range(1, max_size + 1):
        for cards in itertools.combinations(SMALL_DECK, size):
            for trick in tricks:
                for turn in (True, False) if trick and size >= 4 else (True,):
                    situation = {"play": " ".join(cards), "trick": trick, "turn": turn}
                    problem = disagreement(situation)
                    if problem is not None:
                        mismatches.append(f"{json.dumps(situation)}\n    {problem}")
    return mismatches


def test_every_small_card_set_agrees_with_the_reference() -> None:
    mismatches = exhaustive_disagreements(4)
    assert not mismatches, "\n".join(mismatches[:10])


def test_command_line_agrees_with_the_reference() -> None:
    """The installed command, line by line: same verdicts, error lines, exit status."""
    rng = random.Random(PYTEST_SEED + 1)
    situations = [random_situation(rng) for _ in range(400)]
    lines = "".join(json.dumps(situation) + "\n" for situation in situations)
    done = subprocess.run([sys.executable, "-m", "companion", "referee"], input=lines, capture_output=True,
                          text=True, timeout=120, check=False)
    outputs = done.stdout.splitlines()
    assert len(outputs) == len(situations), done.stderr
    mismatches = []
    for situation, output in zip(situations, outputs, strict=True):
        problem = disagreement(situation, json.loads(output))
        if problem is not None:
            mismatches.append(f"{json.dumps(situation)}\n    {problem}")
    assert not mismatches, "\n".join(mismatches[:10])
    errors = sum("error" in json.loads(output) for output in outputs)
    assert errors > 0 and done.returncode == 1


def run(count: int, seed: int, show: int = 10, lister_every: int = 10) -> list[str]:
    """Compare ``count`` random situations; return the readable mismatches found."""
    rng = random.Random(seed)
    mismatches: list[str] = []
    for index in range(count):
        situation = random_situation(rng)
        problem = disagreement(situation)
        if problem is not None:
            mismatches.append(f"#{index} {json.dumps(situation)}\n    {problem}")
        if lister_every and index % lister_every == 0:
            problem = lister_disagreement(rng)
            if problem is not None:
                mismatches.append(f"#{index} {problem}")
        if len(mismatches) >= show > 0:
            break
    return mismatches


def test_random_situations_agree_with_the_reference() -> None:
    mismatches = run(PYTEST_COUNT, PYTEST_SEED)
    assert not mismatches, "\n".join(mismatches)


def test_generator_makes_varied_situations() -> None:
    """The generator must reach the interesting cases, or the comparison proves little."""
    rng = random.Random(PYTEST_SEED)
    kinds: set[str] = set()
    legal = illegal = wish_bound = errors = 0
    for _ in range(600):
        situation = random_situation(rng)
        try:
            verdict = ref.judge(situation)
        except ref.ReferenceSituationError:
            errors += 1
            continue
        combination = verdict["combination"]
        kinds.add(combination["kind"] if combination else "none")
        legal += verdict["legal"]
        illegal += not verdict["legal"]
        wish_bound += "wish" in (verdict["reason"] or "")
    assert kinds >= {"single", "pair", "triple", "full_house", "stairs", "straight", "bomb", "pass", "none"}
    assert legal > 100 and illegal > 100 and wish_bound > 5 and errors > 5


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=20, help="stop after this many mismatches (0: never)")
    parser.add_argument("--exhaustive", type=int, default=0, metavar="N",
                        help="also compare every set of up to N cards of the small deck")
    args = parser.parse_args(argv)
    mismatches = run(args.count, args.seed, args.show)
    if args.exhaustive:
        mismatches += exhaustive_disagreements(args.exhaustive)
    for line in mismatches:
        print(line)
    print(f"{len(mismatches)} mismatches in {args.count} situations (seed {args.seed})", file=sys.stderr)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
