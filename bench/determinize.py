"""Benchmark of the hard bot's determinization (issue 29): how often `rebuild` can rebuild the game from a seat's
view, per configuration.

Over seeded games of heuristic bots in each configuration (the base game, its variants, each expansion and Big Box
at 5 and 6 players), every decision that offers more than one legal move is handed to `rebuild`; the figures are
the share it rebuilds (a refused one is played by the heuristic, without search) and the CPU time of one rebuild
(`time.process_time`, median and max, the check of its view and moves included). Each refusal is put down to its
first cause — the first field of the view the rebuilt state shows otherwise, "moves" when only the legal moves
differ, or the error raised — and the most frequent causes are printed, to say which family to work on next.

Run: `nice -n 10 .venv/bin/python bench/determinize.py [--games N] [--seed S]`. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import heuristic_bot
from app.bots.search.determinize import refusal
from app.bots.tournament import bot_player, play_game
from app.rules import GameConfig, GameState, legal_moves, player_view, to_act

BIG_BOX = {"expansions": ["big_box"], "horses": True, "kit_carson": True}
# (name, players of each game in turn, variants)
CONFIGURATIONS: list[tuple[str, tuple[int, ...], dict[str, Any]]] = [
    ("base", (2, 3, 4), {}),
    ("red", (2, 3, 4), {"sides": "red"}),
    ("random sides", (2, 3, 4), {"sides": "random"}),
    ("vote", (2, 3, 4), {"sides": "vote"}),
    ("Might Is Right", (2, 3, 4), {"might_is_right": True}),
    ("River", (2, 3, 4), {"river": True}),
    ("New Beginning", (2, 3, 4), {"new_beginning": True}),
    ("Gold & Guns", (2, 3, 4), {"expansions": ["gold_and_guns"], "sides": "random"}),
    ("Outlaws", (2, 3, 4), {"expansions": ["outlaws"]}),
    ("G&G + Outlaws", (2, 3, 4), {"expansions": ["gold_and_guns", "outlaws"], "sides": "random"}),
    ("G&G + Might Is Right", (2, 3, 4), {"expansions": ["gold_and_guns"], "might_is_right": True}),
    ("Big Box 5-6", (5, 6), BIG_BOX),
]


def measure(
    players: int, variants: dict[str, Any], seed: int, causes: Counter[str], cpu: list[float]
) -> tuple[int, int]:
    """(rebuilt, decisions) over one game: the decisions with more than one legal move; counts each refusal's
    cause in `causes`, and adds each rebuild's CPU time (the check of its view and moves included) to `cpu`."""
    rebuilt = decisions = 0

    def look(state: GameState) -> None:
        nonlocal rebuilt, decisions
        for seat in to_act(state):
            moves = legal_moves(state, seat)
            if len(moves) < 2:
                continue
            decisions += 1
            view = player_view(state, seat)
            started = time.process_time()
            cause = refusal(view, moves, random.Random(seed))
            cpu.append(time.process_time() - started)
            if cause is None:
                rebuilt += 1
            else:
                causes[f"{state.step}: {cause}"] += 1

    config = GameConfig.from_variants(players, variants, preview=True)
    play_game(config, seed, [bot_player(heuristic_bot)] * players, random.Random(seed), observe=look)
    return rebuilt, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6, help="games per configuration")
    parser.add_argument("--seed", type=int, default=2029)
    parser.add_argument("--causes", type=int, default=4, help="refusal causes printed per configuration")
    args = parser.parse_args()
    rebuilt_all = decisions_all = 0
    started = time.process_time()
    for name, counts, variants in CONFIGURATIONS:
        rebuilt = decisions = 0
        causes: Counter[str] = Counter()
        cpu: list[float] = []
        for game in range(args.games):
            r, d = measure(counts[game % len(counts)], variants, args.seed + game, causes, cpu)
            rebuilt, decisions = rebuilt + r, decisions + d
        rebuilt_all, decisions_all = rebuilt_all + rebuilt, decisions_all + decisions
        print(
            f"{name:22} rebuilt {rebuilt:5} of {decisions:5} decisions: {rebuilt / max(1, decisions):6.1%}; "
            f"CPU ms per rebuild: median {statistics.median(cpu) * 1000:.2f}, max {max(cpu) * 1000:.1f}",
            flush=True,
        )
        for cause, n in causes.most_common(args.causes):
            print(f"{'':24}{n:5} refused, {cause}")
    print(
        f"{'all':22} rebuilt {rebuilt_all:5} of {decisions_all:5} decisions: "
        f"{rebuilt_all / max(1, decisions_all):6.1%}  ({time.process_time() - started:.0f} s CPU)"
    )


if __name__ == "__main__":
    main()
