"""`python -m app simulate`: play complete games with players choosing uniformly among the legal moves.

It exercises the rules core end to end (every decision goes through the legal moves, read as the state keeps them
with `legal_moves_read_only`, and `play`) and reports how fast it runs. Each finished game's spectator state
document can be written as one JSON line.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from app.rules import (
    Event,
    GameConfig,
    GameState,
    legal_moves_read_only,
    play,
    player_view,
    start_game,
    to_act,
)
from app.rules.rng import Rng

T = TypeVar("T")


@dataclass
class GameRecord:
    state: GameState
    events: list[Event]
    decisions: int
    decide_us: list[float] = field(default_factory=list)
    legal_us: list[float] = field(default_factory=list)


def play_random_game(config: GameConfig, seed: int, chooser: random.Random | None = None,
                     timed: bool = False) -> GameRecord:
    """One complete game: `seed` is the game's secret seed, `chooser` the random players' own generator."""
    chooser = chooser or random.Random(seed)
    pick = _uniform(chooser)
    events, state = start_game(config, seed)
    record = GameRecord(state=state, events=events, decisions=0)
    while state.status != "finished":
        seat = pick(to_act(state))
        if timed:
            t0 = time.perf_counter()
            moves = legal_moves_read_only(state, seat)
            t1 = time.perf_counter()
            new, state = play(state, seat, pick(moves), Rng(seed, state.seq))
            t2 = time.perf_counter()
            record.legal_us.append((t1 - t0) * 1e6)
            record.decide_us.append((t2 - t1) * 1e6)
        else:  # the clock is read only when asked: a game's own work is what an untimed run measures
            moves = legal_moves_read_only(state, seat)
            new, state = play(state, seat, pick(moves), Rng(seed, state.seq))
        events.extend(new)
        record.decisions += 1
    record.state = state
    return record


def _uniform(chooser: random.Random) -> Callable[[Sequence[T]], T]:
    """`chooser.choice`, drawing exactly what it draws (the same games for the same generator), in one Python call
    instead of three: a random player chooses twice a decision, and the simulation is meant to measure the rules
    core, not the standard library's pure-Python layers around `getrandbits`."""
    bits = chooser.getrandbits

    def pick(options: Sequence[T]) -> T:
        n = len(options)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        k = n.bit_length()  # as `Random._randbelow_with_getrandbits`: rejection sampling on k bits
        r = bits(k)
        while r >= n:
            r = bits(k)
        return options[r]

    return pick


def run_from_args(args: argparse.Namespace) -> int:
    try:
        # The core's own caller: an expansion in preview is played too, as the tournament does.
        config = GameConfig.from_variants(args.players, json.loads(args.variants), preview=True)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    chooser = random.Random(args.seed)
    decisions: list[int] = []
    decide_us: list[float] = []
    legal_us: list[float] = []
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(args.out, "w", encoding="utf-8")) if args.out else None
        for game in range(args.games):
            record = play_random_game(config, chooser.randrange(2**63), chooser, timed=True)
            decisions.append(record.decisions)
            decide_us += record.decide_us
            legal_us += record.legal_us
            if out:
                out.write(json.dumps(player_view(record.state, None, game_id=game + 1)) + "\n")
    elapsed = time.perf_counter() - start
    print(f"games: {args.games} ({args.players} players, variants {config.to_json()})")
    print(f"decisions per game: mean {statistics.mean(decisions):.0f}, min {min(decisions)}, max {max(decisions)}")
    print(f"games/s: {args.games / elapsed:.1f}")
    print(f"median us per decide: {statistics.median(decide_us):.0f}")
    print(f"median us per legal_moves: {statistics.median(legal_us):.0f}")
    return 0
