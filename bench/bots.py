"""Benchmark of the bots (issues 15 and 29).

The ladder of the levels (issue 29): `normal` (the heuristic) against `easy`, and `hard` against `normal`, at 2
players and at 4 (one bot against three), each win rate with its 95 % Wilson interval, the running count printed
after every game (a long run stopped early still tells its counts); and the hard bot's CPU time per move
(`time.process_time`, which its search counts; median, p99 and max over the moves it searched, those with more
than one legal move) in the same games. Targets: hard at least 65 % of 2-player games and 40 % of 4-player games
against normal (25 % is parity), normal at least 60 % against easy. The hard bot plays at the site's budget by
default (`Budget()`: the settings' defaults, BOT_HARD_PLAYOUTS iterations with BOT_HARD_SECONDS as a cap);
`--hard-playouts` and `--hard-seconds` change it, `--rungs` picks rungs (e.g. `hard2` alone, to run the rungs in
separate processes), `--ladder-only` skips issue 15's figures below.

Issue 15: the heuristic bot's win rate against random bots at 2, 3, 4 and 5 players,
against the safest default (`app.rules.default_move`) at 2 players, and its time per move — building the seat's
view and legal moves included, as a server would spend it — beside the bound of 200 ms.

Targets: at least 70 % of 4-player games against three random bots, at least 40 % of 2-player games against the
safest default.

Run: `nice -n 10 .venv/bin/python bench/bots.py [--games N] [--hard-games N] [--hard-playouts N] [--rungs ...]
[--seed S]`.
Prints figures; asserts nothing.

The server's own call, `app.bots.table.table_move`, is timed too, in CPU time of its thread as well as wall-clock
time: on a shared machine the wall clock also counts the time other processes held the core.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import BOTS
from app.bots.base import Bot
from app.bots.search import Budget, search_bot
from app.bots.table import table_move
from app.bots.tournament import Player, bot_player, play_game
from app.rules import GameConfig, GameState, legal_moves, player_view, to_act
from app.tournament import run_tournament

BOUND_MS = 200
TARGETS = {("random", 4): 0.70, ("default", 2): 0.40}
# The ladder: (bot, opponent, players) -> the least win rate asked for.
LADDER = {("normal", "easy", 2): 0.60, ("normal", "easy", 4): None,
          ("hard", "normal", 2): 0.65, ("hard", "normal", 4): 0.40}
Z95 = 1.959964


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate of `wins` in `games`."""
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def ladder(rungs: list[str], games: int, hard_games: int, budget: Budget, seed: int) -> None:
    """Each rung's win rate with its interval, the count printed after every game; the hard bot's CPU time."""
    spent: list[float] = []
    hard = {"hard": timed(search_bot(budget), spent)}
    for (bot, opponent, players), target in LADDER.items():
        if f"{bot}{players}" not in rungs:
            continue
        count = hard_games if bot == "hard" else games
        label = f"{players} players, {bot} vs {opponent}"

        def progress(played: int, wins: Counter[str], label: str = label, bot: str = bot) -> None:
            if bot == "hard":
                print(f"  {label}: {wins[bot]} of {played}; {_cpu(spent)}", flush=True)

        wins, _ = run_tournament(GameConfig.from_variants(players, {}), [bot, opponent], count, seed + players, hard,
                                 progress)
        low, high = wilson(wins[bot], count)
        goal = f"  (target {target:.2f})" if target is not None else ""
        print(f"{label}: {bot}_win_rate={wins[bot] / count:.2f} [{low:.2f}, {high:.2f}] over {count} games{goal}",
              flush=True)
    if spent:
        print(f"hard bot ({budget.playouts} iterations, cap {budget.seconds:.1f} s, playouts cut after "
              f"{budget.rounds} round(s)): {_cpu(spent)}", flush=True)


def _cpu(spent: list[float]) -> str:
    """The hard bot's CPU seconds per move so far: median, p99, max."""
    if not spent:
        return "no searched move yet"
    ordered = sorted(spent)
    return (f"CPU s per move over {len(ordered)} searched moves: median {statistics.median(ordered):.2f}, "
            f"p99 {ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]:.2f}, max {ordered[-1]:.2f}")


def hard_time(positions: int, budget: Budget, seed: int) -> None:
    """The hard bot's CPU time for one move within `budget`, over `positions` awaited positions (with more than
    one legal move) spread over a 2- and a 4-player game of heuristic bots, each printed by player count."""
    for players in (2, 4):
        spent: list[float] = []
        found: list[GameState] = []
        play_game(GameConfig.from_variants(players, {}), seed, [bot_player(BOTS["normal"])] * players,
                  random.Random(seed), observe=found.append)
        searched = [(s, seat) for s in found for seat in to_act(s) if len(legal_moves(s, seat)) > 1]
        mover = timed(search_bot(budget), spent)
        for state, seat in searched[::max(1, len(searched) // positions)]:
            mover(state, seat, random.Random(seed))
        print(f"hard bot, {players} players ({budget.playouts} iterations, cap {budget.seconds:.1f} s): "
              f"{_cpu(spent)}", flush=True)


def timed(bot: Bot, spent: list[float]) -> Player:
    """`bot` as a seat, noting in `spent` the CPU seconds of each move it had more than one choice for."""

    def move(state: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
        view, moves = player_view(state, seat), legal_moves(state, seat)
        started = time.process_time()
        chosen = bot(view, moves, rng)
        if len(moves) > 1:
            spent.append(time.process_time() - started)
        return chosen

    return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--hard-games", type=int, default=20)
    parser.add_argument("--hard-playouts", type=int, default=Budget().playouts, help="iterations per move")
    parser.add_argument("--hard-seconds", type=float, default=Budget().seconds, help="CPU seconds per move at most")
    parser.add_argument("--rungs", nargs="+", default=[f"{bot}{players}" for bot, _, players in LADDER],
                        help="the ladder's rungs to play: normal2 normal4 hard2 hard4")
    parser.add_argument("--hard-positions", type=int, default=0,
                        help="also time the hard bot on this many positions of a 2- and a 4-player game")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--ladder-only", action="store_true")
    args = parser.parse_args()
    budget = replace(Budget(), playouts=args.hard_playouts, seconds=args.hard_seconds)
    if args.hard_positions:
        hard_time(args.hard_positions, budget, args.seed)
    ladder(args.rungs, args.games, args.hard_games, budget, args.seed)
    if args.ladder_only:
        return
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
