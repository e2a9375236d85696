"""Benchmark of the rules core: complete random 4-player games per second on one core, and its ratio to the
target issue 24 sets (TARGET); the median cost of `legal_moves`, `decide` (with its automatic steps) and
`replay` of a whole game.

The rate is given in CPU time of this process (what one core does, even when other work shares the machine)
and in wall-clock time (what a quiet machine shows).

Run: `.venv/bin/python bench/engine.py [--games N] [--players P]`. Prints figures; asserts nothing.

Instructions per game, which a shared machine's load does not disturb: `--play-only` plays the games and nothing
else, so that the difference between two counts is the games' own work:

    for n in 0 20; do PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        .venv/bin/python bench/engine.py --play-only --games $n 2>&1 | grep "I *refs"; done

(the second count less the first, divided by 20).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rules import GameConfig, replay
from app.simulate import play_random_game

TARGET = 250  # complete random 4-player games per second on one core (issue 24, "Speed that players feel")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variants", default="{}")
    parser.add_argument("--play-only", action="store_true", help="play the games, print nothing (see above)")
    args = parser.parse_args()

    config = GameConfig.from_variants(args.players, json.loads(args.variants))
    chooser = random.Random(2026)
    seeds = [chooser.randrange(2**62) for _ in range(args.games)]

    start, cpu_start = time.perf_counter(), time.process_time()
    logs = [play_random_game(config, seed, random.Random(seed)).events for seed in seeds]
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    if args.play_only:
        return

    timed = [play_random_game(config, seed, random.Random(seed), timed=True) for seed in seeds[:50]]
    legal_us = [t for record in timed for t in record.legal_us]
    decide_us = [t for record in timed for t in record.decide_us]
    replay_ms = []
    for events in logs[:50]:
        t0 = time.perf_counter()
        replay(events)
        replay_ms.append((time.perf_counter() - t0) * 1e3)

    decisions = statistics.mean(record.decisions for record in timed)
    events = statistics.mean(len(log) for log in logs)
    print(f"rules core, {args.players} players, variants {config.to_json()}, Python {sys.version.split()[0]}")
    print(f"complete random games/s on one core: {_rate(args.games, cpu)} by CPU time, {_rate(args.games, elapsed)} "
          f"by the clock  (target {TARGET}; {args.games} games)")
    print(f"decisions per game: {decisions:.0f}; events per game: {events:.0f}")
    for name, samples in (("legal_moves", legal_us), ("decide", decide_us)):
        p95 = statistics.quantiles(samples, n=20)[-1]
        print(f"median {name}: {statistics.median(samples):.1f} us (p95 {p95:.1f})")
    print(f"median replay of a whole game: {statistics.median(replay_ms):.2f} ms")


def _rate(games: int, seconds: float) -> str:
    rate = games / seconds
    return f"{rate:.1f} ({rate / TARGET:.2f}x the target)"


if __name__ == "__main__":
    main()
