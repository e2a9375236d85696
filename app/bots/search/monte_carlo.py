"""The hard bot: Monte Carlo search over the rules core, from the seat's view alone.

One level of search, sampled: the game is rebuilt from the view (`determinize.rebuild`: what the view hides is
left to chance), the heuristic's favourite moves are the candidates, and each sample plays every candidate out,
every seat then moving as the heuristic bot would, with the same dice and bag draws for each candidate (common
random numbers, so that two candidates are compared on the same luck) and new ones for the next sample. The
candidate whose playouts ended best for the seat is played. Each playout ends in a vector of scores, one per seat
(2 to 6); the seat's value is a win (a tie for the best total counts as one) plus a small share of its lead over
the best other score, which tells candidates apart when they win equally often. This is not yet a tree: the
other seats' replies are the heuristic's, not searched.

The search stops at whichever comes first: `Budget.playouts`, or `Budget.seconds` of its process's CPU time (a
shared core's waiting is not counted; on the site the search has a process of its own, `app.play.thinking`, and
`time.process_time` costs a fraction of a microsecond where `time.thread_time` was measured at 100 µs on these
machines, a quarter of a playout's time), checked at every decision of a playout; the sample under way then is
left out. When not even one sample fitted, the heuristic's choice is played. A position it cannot rebuild, or a
failure inside the search, is played by the heuristic bot (the `normal` level), the safe default. The search
draws only from the generator it is handed, so with a budget of playouts alone the same view, moves and
generator give the same move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from app.bots.base import Bot, MoveView, View
from app.bots.heuristic import heuristic_bot, move_values
from app.bots.search.determinize import rebuild
from app.rules import GameState, legal_moves, play, player_view, to_act
from app.rules.model import replace
from app.rules.rng import Rng
from app.rules.scoring import final_scores

LEAD_WEIGHT: Final = 0.05  # a victory point of lead is worth this share of a win
# Playouts are cut after this many decisions (a safety bound: a base game has about 45 per seat).
MAX_PLAYOUT_DECISIONS: Final = 2000


@dataclass(frozen=True)
class Budget:
    """How much the hard bot may think for one move: at most `playouts` playouts and `seconds` of CPU time, over
    the heuristic's `candidates` best moves; `rounds` cuts each playout after that many rounds' ends (None: to the
    game's end) and scores it as if the game ended there."""

    playouts: int = 400
    seconds: float = 2.0
    candidates: int = 5
    rounds: int | None = None


def search_bot(budget: Budget) -> Bot:
    """The hard bot thinking within `budget`."""

    def bot(view: View, moves: Sequence[MoveView], rng: random.Random) -> dict[str, Any]:
        if len(moves) == 1:
            return dict(moves[0])
        try:
            chosen = best_move(view, moves, rng, budget)
        except Exception:
            chosen = None
        return dict(chosen) if chosen is not None else heuristic_bot(view, moves, rng)

    return bot


def best_move(view: View, moves: Sequence[MoveView], rng: random.Random, budget: Budget) -> MoveView | None:
    """The candidate with the best mean playout value for the seat, or None when the view cannot be rebuilt."""
    started = time.process_time()
    state = rebuild(view, moves)
    if state is None:
        return None
    seat = int(view["viewer"])
    values = move_values(view, moves)
    ranked = sorted(range(len(moves)), key=lambda k: -values[k])
    candidates = [moves[k] for k in ranked[:max(1, budget.candidates)]]
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    deadline = started + budget.seconds
    samples = 0
    while (samples + 1) * len(candidates) <= max(budget.playouts, len(candidates)):
        luck = rng.randrange(2**62)
        try:
            sample = [seat_value(playout(state, seat, move, luck, budget.rounds, deadline), seat)
                      for move in candidates]
        except OutOfTime:
            break  # a sample cut short would compare the candidates on different luck: left out
        samples += 1
        totals = [total + value for total, value in zip(totals, sample, strict=True)]
    best = max(range(len(candidates)), key=lambda k: totals[k])  # the first, the heuristic's, on a tie
    return candidates[best]


class OutOfTime(Exception):
    """The search's CPU time ran out in the middle of a playout."""


def playout(state: GameState, seat: int, move: MoveView, luck: int, rounds: int | None = None,
            deadline: float = math.inf) -> list[Mapping[str, int]]:
    """Play `move` for `seat`, then the heuristic for every seat until the end (or `rounds` rounds' ends); the
    dice and draws come from `luck` and the position, so every candidate meets the same ones. The scores.

    Raises OutOfTime once the process's CPU clock (`time.process_time`) passes `deadline`."""
    _, s = play(state, seat, dict(move), Rng(luck, state.seq))
    last_round = None if rounds is None else state.round + rounds
    for _ in range(MAX_PLAYOUT_DECISIONS):
        if s.status == "finished" or (last_round is not None and s.round > last_round):
            break
        if time.process_time() > deadline:
            raise OutOfTime
        mover = to_act(s)[0]
        chosen = heuristic_bot(player_view(s, mover), legal_moves(s, mover), random.Random(luck ^ s.seq))
        _, s = play(s, mover, chosen, Rng(luck, s.seq))
    if s.scores:
        return list(s.scores)
    # Cut before the end: scored as if it ended now (its tie-break needs every seat in the passing order).
    order = (*s.passing_order, *(seat for seat in range(len(s.players)) if seat not in s.passing_order))
    return list(final_scores(replace(s, passing_order=order))[0])


def seat_value(scores: Sequence[Mapping[str, int]], seat: int) -> float:
    """What a playout's scores are worth to `seat`: 1 for the best total (the rules' tie-break is not applied:
    a tie counts for every seat in it), and a share of the lead over the best other seat."""
    totals = [score["total"] for score in scores]
    best_other = max(total for other, total in enumerate(totals) if other != seat)
    return (1.0 if totals[seat] >= best_other else 0.0) + LEAD_WEIGHT * (totals[seat] - best_other)
