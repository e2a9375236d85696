"""Benchmark of the bots (issue 15): the heuristic bot's win rate against random bots at 2, 3, 4 and 5 players,
against the safest default (`app.rules.default_move`) at 2 players, and its time per move — building the seat's
view and legal moves included, as a server would spend it — beside the bound of 200 ms.

Targets: at least 70 % of 4-player games against three random bots, at least 40 % of 2-player games against the
safest default. Run: `.venv/bin/python bench/bots.py [--games N] [--seed S]`. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rules import GameConfig
from app.tournament import run_tournament

BOUND_MS = 200
TARGETS = {("random", 4): 0.70, ("default", 2): 0.40}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    seconds: list[float] = []
    matches = [("random", players) for players in (2, 3, 4, 5)] + [("default", 2)]
    for opponent, players in matches:
        wins, times = run_tournament(GameConfig.from_variants(players, {}), ["heuristic", opponent], args.games,
                                     args.seed + players)
        seconds += times
        rate = wins["heuristic"] / args.games
        target = TARGETS.get((opponent, players))
        goal = f"  (target {target:.2f}: {'met' if rate >= target else 'MISSED'})" if target else ""
        print(f"{players} players, heuristic vs {opponent}: heuristic_win_rate={rate:.2f}{goal}")
    ms = sorted(t * 1000 for t in seconds)
    print(f"heuristic moves: {len(ms)}; ms per move: median {statistics.median(ms):.2f}, "
          f"p99 {ms[int(len(ms) * 0.99)]:.1f}, max {ms[-1]:.1f} (bound {BOUND_MS})")


if __name__ == "__main__":
    main()
