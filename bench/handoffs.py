"""Hand-offs of random games (issue 26, item 7): how often the game turns to a seat that was not awaited (each one
a "your turn" for somebody), and how many decisions each player makes, in three worlds of the same rules core:

- `none`: nothing is made for anyone, not even a seat's only move;
- `before`: the only move is made at once (decision D1), nobody answers ahead — the site before issue 26;
- `after`: the only move, and players who answer ahead: every cowboy placed on a parcel says "buy it if I win and
  can pay" (D106), the cash limit and permission requests are answered by each player's settings (D107, D108).

Players choose uniformly among their legal moves (in `after`, a parcel's placement always with its purchase
answered ahead, so the placements chosen are those of `before`); the same seeds in each world. The rules core
only: no server, no database. A hand-off is counted each time a seat becomes awaited that was not awaited just
before (the game's first decision included).

Run: `nice -n 10 .venv/bin/python bench/handoffs.py [--games 100] [--players 2,3,4,5,6] [--variants JSON]
[--bot heuristic]` (the site's heuristic bot at every seat instead of uniformly random moves).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import BOTS
from app.rules import GameConfig, legal_moves, play, player_view, start_game, to_act
from app.rules.automatic import ASK, CASH_LIMIT_ANSWERS, Answers
from app.rules.rng import Rng

WORLDS = ("none", "before", "after")


@dataclass(frozen=True, slots=True)
class Played:
    """One game: the hand-offs, and each seat's decisions."""

    handoffs: int
    decisions: tuple[int, ...]
    made: Counter[str]  # the moves made for players, by why (`events.Automatic`)


def _answers(world: str, players: int, chooser: random.Random) -> Answers:
    if world == "none":
        return Answers(only_moves=False)
    if world == "before":
        return ASK
    return Answers(permission=tuple(chooser.choice(("allow", "deny")) for _ in range(players)),
                   cash_limit=tuple(chooser.choice(CASH_LIMIT_ANSWERS[1:]) for _ in range(players)))


def _choices(moves: list[dict[str, Any]], world: str) -> list[dict[str, Any]]:
    """The moves a player of `world` chooses among: a parcel's placement with its purchase answered ahead in
    `after` (in place of the same placement without), never in the others."""
    if world != "after":
        return [m for m in moves if not m.get("buy")]
    ahead = {(m["type"], m["x"], m["y"], m.get("dynamite")) for m in moves if m.get("buy")}
    return [m for m in moves if m.get("buy") or (m["type"], m.get("x"), m.get("y"), m.get("dynamite")) not in ahead]


def play_game(config: GameConfig, seed: int, world: str, bot: str = "random") -> Played:
    """A complete game of `world` from `seed`, every seat played by `bot` (`random`: uniformly among the moves,
    or one of the site's bots, handed the seat's view and the moves it chooses among)."""
    chooser = random.Random(seed)
    answers = _answers(world, config.players, chooser)
    _, state = start_game(config, seed)
    awaited = set(to_act(state))
    handoffs = len(awaited)
    decisions = [0] * config.players
    made: Counter[str] = Counter()
    while state.status != "finished":
        seat = chooser.choice(to_act(state))
        choices = _choices(legal_moves(state, seat), world)
        move = chooser.choice(choices) if bot == "random" else BOTS[bot](player_view(state, seat), choices, chooser)
        events, state = play(state, seat, move, Rng(seed, state.seq), answers)
        made.update(str(e["automatic"]) for e in events if "automatic" in e)
        decisions[seat] += 1
        now = set(to_act(state))
        handoffs += len(now - awaited)
        awaited = now
    return Played(handoffs, tuple(decisions), made)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", default="2,3,4,5,6")
    parser.add_argument("--variants", default="{}", help='as the create body\'s "variants" (6 players: big_box)')
    parser.add_argument("--bot", default="random", choices=["random", *BOTS],
                        help="who plays every seat (default: uniformly random moves)")
    args = parser.parse_args()
    variants = json.loads(args.variants)
    started = time.perf_counter()
    print(f"complete games played by {args.bot}, {args.games} per player count and world, "
          f"variants {json.dumps(variants)}")
    # "made for them": decisions per player fewer than in `none` (where nothing is made for anyone).
    print(f"{'players':>7}  {'world':<6}  {'hand-offs':>9}  {'decisions/player':>16}  {'made for them':>16}"
          "  moves made for a player, by why (per player)")
    two_players: dict[str, float] = {}
    for players in (int(p) for p in args.players.split(",")):
        chosen = dict(variants)
        if players > 5:
            chosen["expansions"] = sorted({*chosen.get("expansions", []), "big_box"})
        config = GameConfig.from_variants(players, chosen)
        chooser = random.Random(f"handoffs-{players}")
        seeds = [chooser.randrange(2**62) for _ in range(args.games)]
        unasked = 0.0
        for world in WORLDS:
            games = [play_game(config, seed, world, args.bot) for seed in seeds]
            handoffs = statistics.mean(g.handoffs for g in games)
            per_player = statistics.mean(d for g in games for d in g.decisions)
            unasked = per_player if world == "none" else unasked
            reasons = Counter[str]()
            for g in games:
                reasons.update(g.made)
            why = ", ".join(f"{k} {v / len(games) / players:.1f}" for k, v in sorted(reasons.items()))
            print(f"{players:>7}  {world:<6}  {handoffs:>9.1f}  {per_player:>16.1f}  {unasked - per_player:>16.1f}"
                  f"  {why}")
            if players == 2:
                two_players[world] = per_player
    if "after" in two_players:
        print(f"a 2-player game costs each player {two_players['after']:.1f} decisions "
              f"(before issue 26: {two_players['before']:.1f}; with nothing made for them: {two_players['none']:.1f})")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
