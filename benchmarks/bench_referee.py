"""Speed of the Tichu referee and of the lister of legal plays.

Run: ``.venv/bin/python benchmarks/bench_referee.py [--hands N] [--situations N] [--seed S]``

1. ``legal_plays``: every legal play of a random 14-card hand (always holding the
   Phoenix, the costly case) against a random trick: half leads, half a random
   combination of the other cards to beat; a quarter with an open wish.
   Target: median < 5 ms. Prints median, p95 and max.
2. The referee end to end in one process: JSON line in -> verdict line out (the same
   code path as ``trickmate referee``: decode, judge, encode), over a realistic mix of
   situations (hands given mostly, wishes, passes, out-of-turn bombs, some bad plays and
   a few error lines). Target: at least 20,000 situations/s.
3. The same lines through the installed ``trickmate referee FILE`` (start-up included).

Each figure is given by the wall clock and by the CPU time of the process doing the work:
on a machine shared with other jobs the wall clock measures the queue for the CPU, the
CPU time measures the code.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.cards import PHOENIX, RANK_NAMES, Card, tichu_deck
from companion.commands.referee import _dumps, referee_lines
from companion.tichu.combinations import Combination, Kind
from companion.tichu.referee import legal_plays

DECK = tichu_deck()


def text(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(map(str, cards))


def random_top(rng: random.Random, others: list[Card]) -> Combination | None:
    """A random combination from cards the player does not hold (None: the player leads)."""
    plays = [
        play for play in legal_plays(rng.sample(others, min(14, len(others)))) if play.kind is not Kind.PASS
    ]
    return rng.choice(plays) if plays else None


def bench_lister(rng: random.Random, hands: int) -> None:
    times: list[float] = []
    cpu_times: list[float] = []
    counts: list[int] = []
    without_phoenix = [card for card in DECK if card != PHOENIX]
    for number in range(hands):
        rng.shuffle(without_phoenix)
        hand = [PHOENIX, *without_phoenix[:13]]
        others = without_phoenix[13:]
        top = random_top(rng, others) if number % 2 else None
        wish = rng.randint(2, 14) if rng.random() < 0.25 else None
        start, cpu_start = time.perf_counter(), time.process_time()
        plays = legal_plays(hand, top, wish)
        times.append((time.perf_counter() - start) * 1000)
        cpu_times.append((time.process_time() - cpu_start) * 1000)
        counts.append(len(plays))
    print(f"legal_plays, {hands} random 14-card hands with the Phoenix (half leading):")
    for clock, values in (("wall", times), ("cpu ", cpu_times)):
        values.sort()
        p95 = values[int(0.95 * (len(values) - 1))]
        median = statistics.median(values)
        print(f"  {clock}: median {median:.3f} ms   p95 {p95:.3f} ms   max {values[-1]:.3f} ms")
    print(f"  plays listed: median {statistics.median(counts):.0f}, max {max(counts)}")


def random_situation(rng: random.Random) -> dict[str, Any]:
    deck = list(DECK)
    rng.shuffle(deck)
    hand = deck[: rng.randint(1, 14)]
    others = deck[14:]
    trick: list[str] = []
    top = random_top(rng, others) if rng.random() < 0.7 else None
    if top is not None:
        trick.append(text(top.cards))
    wish = rng.randint(2, 14) if rng.random() < 0.3 else None
    turn = rng.random() < 0.9
    roll = rng.random()
    if roll < 0.55:
        plays = legal_plays(hand, top, wish, turn)
        play = rng.choice(plays)
        play_text = "pass" if play.kind is Kind.PASS else text(play.cards)
    elif roll < 0.9:
        play_text = text(rng.sample(hand, rng.randint(1, min(5, len(hand)))))
    else:
        play_text = "pass"
    situation: dict[str, Any] = {"game": "tichu", "play": play_text}
    if trick:
        situation["trick"] = trick
    if rng.random() < 0.85:
        situation["hand"] = text(hand)
    if wish is not None:
        situation["wish"] = RANK_NAMES[wish] if rng.random() < 0.5 else wish
    if not turn:
        situation["turn"] = False
    return situation


def make_lines(rng: random.Random, count: int) -> list[bytes]:
    lines = [json.dumps(random_situation(rng)).encode() for _ in range(count)]
    # A few lines that are errors, as real input has.
    for index in range(0, count, 200):
        lines[index] = rng.choice(
            [b'{"play": "5j Zz"}', b"not json", b'{"play": "5j 5j"}', b'{"hand": "5j"}']
        )
    return lines


def bench_referee(rng: random.Random, count: int) -> list[bytes]:
    lines = make_lines(rng, count)
    out = io.StringIO()
    best = best_cpu = 0.0
    for _ in range(3):
        out.seek(0)
        out.truncate()
        start, cpu_start = time.perf_counter(), time.process_time()
        for _number, result, _failed in referee_lines(lines):
            out.write(_dumps(result) + "\n")
        best = max(best, count / (time.perf_counter() - start))
        best_cpu = max(best_cpu, count / (time.process_time() - cpu_start))
    verdicts = [json.loads(line) for line in out.getvalue().splitlines()]
    legal = sum(1 for v in verdicts if v.get("legal") is True)
    errors = sum(1 for v in verdicts if "error" in v)
    print(f"referee end to end in one process, {count} situations (best of 3):")
    illegal = count - legal - errors
    print(f"  wall: {best:,.0f} situations/s   cpu: {best_cpu:,.0f} situations/s")
    print(f"  ({legal} legal, {illegal} illegal, {errors} error lines)")
    return lines


def bench_command(lines: list[bytes]) -> None:
    trickmate = Path(sys.executable).parent / "trickmate"
    if not trickmate.exists():
        print("trickmate not installed; skipping the command benchmark")
        return
    with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as file:
        file.write(b"\n".join(lines) + b"\n")
        path = file.name
    try:
        start = time.perf_counter()
        cpu_start = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = subprocess.run([str(trickmate), "referee", path], capture_output=True, check=False)
        elapsed = time.perf_counter() - start
        cpu_end = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (cpu_end.ru_utime + cpu_end.ru_stime) - (cpu_start.ru_utime + cpu_start.ru_stime)
    finally:
        Path(path).unlink()
    answered = len(result.stdout.splitlines())
    print(f"trickmate referee FILE, {len(lines)} lines (process start-up included):")
    print(f"  wall: {len(lines) / elapsed:,.0f} situations/s   cpu: {len(lines) / cpu:,.0f} situations/s")
    print(f"  {answered} lines answered, exit {result.returncode}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--situations", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bench_lister(rng, args.hands)
    lines = bench_referee(rng, args.situations)
    bench_command(lines)


if __name__ == "__main__":
    main()
