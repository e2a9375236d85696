"""`python -m app tournament`: bots play complete games against each other in the rules core.

`--bots hard,heuristic` names the players seat by seat; the last name fills the remaining seats, and the seats
rotate from game to game so that no bot keeps the first turn. Each bot's win rate is the share of games one of
its seats won; the last line names the first bot, `hard_win_rate=X.XX` (API.md "Bots", "Bot levels").
`--hard-playouts` and `--hard-seconds` set the hard bot's budget per move (the site's own is in the settings); a
budget of playouts alone makes a tournament reproducible from its seed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable

from app.bots import BOTS
from app.bots.search import Budget, search_bot
from app.bots.tournament import SAFEST_DEFAULT, GameResult, Player, bot_player, default_player, play_game
from app.rules import GameConfig

PLAYERS: dict[str, Player] = {**{name: bot_player(bot) for name, bot in BOTS.items()}, SAFEST_DEFAULT: default_player}
# A playout budget large enough never to stop the search before its time budget.
TIME_ONLY = 10**9


def seat_names(names: list[str], players: int, game: int) -> list[str]:
    """Who plays each seat in game number `game`: the names in order, the last repeated, rotated by the game."""
    seats = (names + [names[-1]] * players)[:players]
    shift = game % players
    return seats[shift:] + seats[:shift]


def run_tournament(config: GameConfig, names: list[str], games: int, seed: int,
                   players: dict[str, Player] | None = None,
                   after_game: Callable[[int, Counter[str]], None] | None = None) -> tuple[Counter[str], list[float]]:
    """The wins of each name over `games` games, and every move's thinking time in seconds of the first name's
    seats. `players` replaces the named players (a hard bot with another budget); `after_game` is shown the
    games played so far and the wins, after each (a long run's partial counts)."""
    table = {**PLAYERS, **(players or {})}
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    seconds: list[float] = []
    for game in range(games):
        seats = seat_names(names, config.players, game)
        result: GameResult = play_game(config, rng.randrange(2**63), [table[n] for n in seats], rng)
        wins[seats[result.winner]] += 1
        seconds += [t for seat, times in result.move_seconds.items() if seats[seat] == names[0] for t in times]
        if after_game is not None:
            after_game(game + 1, wins)
    return wins, seconds


def hard_player(playouts: int | None, seconds: float | None) -> Player:
    """The hard bot with `playouts` per move and `seconds` of CPU time (either unset: the default's)."""
    default = Budget()
    return bot_player(search_bot(Budget(playouts=playouts or (default.playouts if seconds is None else TIME_ONLY),
                                        seconds=seconds if seconds is not None else default.seconds)))


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
    hard = {"hard": hard_player(args.hard_playouts, args.hard_seconds)}
    wins, seconds = run_tournament(config, names, args.games, args.seed, hard)
    print(f"games: {args.games} ({args.players} players, variants {config.to_json()})")
    for name in dict.fromkeys(names):
        print(f"{name}: won {wins[name]} of {args.games}, win rate {wins[name] / args.games:.2f}")
    if seconds:
        print(f"{names[0]} median ms per move: {statistics.median(seconds) * 1000:.2f}, "
              f"max {max(seconds) * 1000:.1f}")
    print(f"{names[0]}_win_rate={wins[names[0]] / args.games:.2f}")
    return 0
