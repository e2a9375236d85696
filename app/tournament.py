"""`python -m app tournament`: bots play complete games against each other in the rules core.

`--bots heuristic,random` names the players seat by seat; the last name fills the remaining seats, and the seats
rotate from game to game so that no bot keeps the first turn. Each bot's win rate is the share of games one of
its seats won; the last line is `heuristic_win_rate=X.XX` (API.md "Bots").
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter

from app.bots import BOTS
from app.bots.tournament import SAFEST_DEFAULT, GameResult, Player, bot_player, default_player, play_game
from app.rules import GameConfig

PLAYERS: dict[str, Player] = {**{name: bot_player(bot) for name, bot in BOTS.items()}, SAFEST_DEFAULT: default_player}


def seat_names(names: list[str], players: int, game: int) -> list[str]:
    """Who plays each seat in game number `game`: the names in order, the last repeated, rotated by the game."""
    seats = (names + [names[-1]] * players)[:players]
    shift = game % players
    return seats[shift:] + seats[:shift]


def run_tournament(config: GameConfig, names: list[str], games: int, seed: int) -> tuple[Counter[str], list[float]]:
    """The wins of each name over `games` games, and every heuristic move's thinking time in seconds."""
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    heuristic_seconds: list[float] = []
    for game in range(games):
        seats = seat_names(names, config.players, game)
        result: GameResult = play_game(config, rng.randrange(2**63), [PLAYERS[n] for n in seats], rng)
        wins[seats[result.winner]] += 1
        heuristic_seconds += [t for seat, times in result.move_seconds.items() if seats[seat] == "heuristic"
                              for t in times]
    return wins, heuristic_seconds


def run_from_args(args: argparse.Namespace) -> int:
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in names if name not in PLAYERS]
    if not names or unknown:
        print(f"error: unknown bot(s) {unknown or names}; choose from {', '.join(PLAYERS)}", file=sys.stderr)
        return 2
    try:
        config = GameConfig.from_variants(args.players, json.loads(args.variants), preview=True)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    wins, seconds = run_tournament(config, names, args.games, args.seed)
    print(f"games: {args.games} ({args.players} players, variants {config.to_json()})")
    for name in dict.fromkeys(names):
        print(f"{name}: won {wins[name]} of {args.games}, win rate {wins[name] / args.games:.2f}")
    if seconds:
        print(f"heuristic median ms per move: {statistics.median(seconds) * 1000:.2f}, "
              f"max {max(seconds) * 1000:.1f}")
    print(f"heuristic_win_rate={wins['heuristic'] / args.games:.2f}")
    return 0
