"""Benchmark of the bots (issue 15): the heuristic bot's win rate against random bots at 2, 3, 4 and 5 players,
against the safest default (`app.rules.default_move`) at 2 players, and its time per move — building the seat's
view and legal moves included, as a server would spend it — beside the bound of 200 ms.

Targets: at least 70 % of 4-player games against three random bots, at least 40 % of 2-player games against the
safest default. Run: `.venv/bin/python bench/bots.py [--games N] [--seed S]`. Prints figures; asserts nothing.

The server's own call, `app.bots.table.table_move`, is timed too, in CPU time of its thread as well as wall-clock
time: on a shared machine the wall clock also counts the time other processes held the core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import BOTS
from app.bots.table import table_move
from app.bots.tournament import bot_player, play_game
from app.rules import GameConfig, GameState, to_act
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
    print("heuristic moves: " + _figures(seconds))
    cpu, wall = _table_moves(args.games // 5, args.seed)
    print("the server's table_move, CPU: " + _figures(cpu))
    print("the server's table_move, wall clock: " + _figures(wall))


def _figures(seconds: list[float]) -> str:
    ms = sorted(t * 1000 for t in seconds)
    return (f"{len(ms)}; ms per move: median {statistics.median(ms):.2f}, p99 {ms[int(len(ms) * 0.99)]:.1f}, "
            f"max {ms[-1]:.1f} (bound {BOUND_MS})")


def _table_moves(games: int, seed: int) -> tuple[list[float], list[float]]:
    """`table_move` for every awaited seat of every position of `games` 4-player games (heuristic vs random)."""
    cpu: list[float] = []
    wall: list[float] = []

    def time_it(state: GameState) -> None:
        for seat in to_act(state):
            started, started_cpu = time.perf_counter(), time.thread_time()
            table_move(state, seat, 1)
            cpu.append(time.thread_time() - started_cpu)
            wall.append(time.perf_counter() - started)

    players = [bot_player(BOTS["heuristic"])] + [bot_player(BOTS["random"])] * 3
    for game in range(games):
        play_game(GameConfig.from_variants(4, {}), seed + game, players, random.Random(game), observe=time_it)
    return cpu, wall


if __name__ == "__main__":
    main()
