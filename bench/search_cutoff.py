"""Benchmark: the hard bot's playouts cut after some rounds against playouts to the game's end (issue 29).

A cut playout is cheaper, so within the same CPU time per move the search runs more iterations, but each is
scored by the final scoring of a game that has not ended (`tree.playout`'s `rounds`). Which is stronger is
measured head to head: the hard bot with `Budget.rounds = R` against the hard bot with whole playouts, both with
the same CPU seconds per move (`--seconds`) and a budget of iterations too large to end first, at 2 players (and
`--players`), seats rotating from game to game. Prints each R's win rate with its 95 % Wilson interval, the
iterations per move of both (median) and their ratio, and the running count after every game; asserts
nothing.

Run: `nice -n 10 .venv/bin/python bench/search_cutoff.py [--rounds 0 1] [--games N] [--seconds S] [--seed S]`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots.base import MoveView, View
from app.bots.heuristic import heuristic_bot
from app.bots.search import Budget, tree
from app.bots.tournament import bot_player
from app.rules import GameConfig
from app.tournament import TIME_ONLY, run_tournament
from bench.bots import wilson


def counting_bot(budget: Budget, iterations: list[int]) -> Any:
    """The hard bot within `budget`, noting each search's iterations (its root's visits) in `iterations`."""

    def bot(view: View, moves: list[MoveView], rng: random.Random) -> dict[str, Any]:
        if len(moves) == 1:
            return dict(moves[0])
        found = tree.search(view, moves, rng, budget)
        if found is None:
            return heuristic_bot(view, moves, rng)
        chosen, root = found
        iterations.append(root.visits)
        return dict(chosen)

    return bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=0.2, help="CPU seconds per move for both bots")
    parser.add_argument("--seed", type=int, default=2029)
    args = parser.parse_args()
    config = GameConfig.from_variants(args.players, {})
    for rounds in args.rounds:
        cut_its: list[int] = []
        whole_its: list[int] = []
        players = {
            "cut": bot_player(counting_bot(Budget(playouts=TIME_ONLY, seconds=args.seconds, rounds=rounds), cut_its)),
            "whole": bot_player(counting_bot(Budget(playouts=TIME_ONLY, seconds=args.seconds), whole_its)),
        }

        def progress(played: int, wins: Counter[str], rounds: int = rounds) -> None:
            print(f"  cut after {rounds} round(s): {wins['cut']} of {played}", flush=True)

        wins, _ = run_tournament(config, ["cut", "whole"], args.games, args.seed + rounds, players, progress)
        low, high = wilson(wins["cut"], args.games)
        cut, whole = statistics.median(cut_its), statistics.median(whole_its)
        print(
            f"{args.players} players, {args.seconds:.2f} CPU s a move: cut after {rounds} round(s) won "
            f"{wins['cut']} of {args.games}, {wins['cut'] / args.games:.2f} [{low:.2f}, {high:.2f}] against whole "
            f"playouts; iterations a move (median) {cut:.0f} against {whole:.0f}, ratio {cut / whole:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
