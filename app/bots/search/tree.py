"""The hard bot: single-observer information-set Monte Carlo tree search (ISMCTS) over the rules core.

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (2012), single-observer variant: the
searching seat cannot tell apart the games its view allows, so each iteration plays in one of them, drawn afresh
(a determinization: `determinize.rebuild` gives the game as the view shows it, the others' secrets — their Might
Is Right tiles, votes, baskets — drawn anew, and the same draw of luck decides what else the view hides: the bag's
order, every die to come). The tree's nodes are what the searching seat has seen
happen since its move: the moves played, every seat's, keyed by who played them (the dice are not branched on,
so a node holds every way the luck fell). Each iteration

1. descends while every candidate at the node has a child: the seat to move picks the child with the best upper
   confidence bound on *its own* value (each node keeps a vector of values, one per seat, so that 2 to 6 seats
   each play their best, max^n style), counting a child's trials by its availability (how often it was a
   candidate when its parent was visited) rather than by its parent's visits, since in another determinization
   another set of moves may be legal;
2. expands the first candidate without a child, in the heuristic's order (the candidates are the heuristic's
   `Budget.candidates` best legal moves: a place-a-cowboy step offers dozens of moves, too many for the
   iterations that fit in a move's time);
3. plays the game out, every seat moving as the heuristic bot would, to the end or, with `Budget.rounds`, to that
   many rounds' ends, then scored as if the game ended there (`bench/search_cutoff.py` compares the two);
4. backs the vector of values up the path it took.

The move played is the root's most visited child (the heuristic's earlier choice on a tie). A playout's vector
gives each seat a win (the best total; a tie counts for each seat in it) plus a small share of its lead over the
best other seat, which tells moves apart when they win equally often.

The search stops at whichever comes first: `Budget.playouts` iterations, or `Budget.seconds` of its process's CPU
time (`time.process_time`: a shared core's waiting is not counted; on the site the search has a process of its
own, `app.play.thinking`), checked at every decision; the iteration under way then is left out. When not one
iteration fitted, the heuristic's choice is played. A position the view cannot rebuild, or a failure inside the
search, is played by the heuristic bot (the `normal` level), the safe default. The search draws only from the
generator it is handed, so with a budget of iterations alone the same view, moves and generator give the same move.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from time import process_time
from typing import Any, Final

from app.bots.base import Bot, MoveView, View
from app.bots.heuristic import heuristic_bot, move_values
from app.bots.search.determinize import rebuild
from app.rules import GameState, legal_moves_read_only, play, player_view, to_act
from app.rules.model import replace
from app.rules.rng import Rng
from app.rules.scoring import final_scores

LEAD_WEIGHT: Final = 0.05  # a victory point of lead is worth this share of a win
EXPLORATION: Final = 0.7  # UCB's constant, for values of about a win's size
# Playouts are cut after this many decisions (a safety bound: a base game has about 45 per seat).
MAX_PLAYOUT_DECISIONS: Final = 2000


@dataclass(frozen=True)
class Budget:
    """How much the hard bot may think for one move: at most `playouts` iterations (one playout each) and
    `seconds` of CPU time, over the heuristic's `candidates` best moves at every node; `rounds` cuts each playout
    after that many rounds' ends (None: to the game's end) and scores it as if the game ended there.

    The site's defaults (the settings' BOT_HARD_PLAYOUTS and BOT_HARD_SECONDS): playouts cut at the end of the
    round, which beat whole playouts at the same CPU time (`bench/search_cutoff.py`), and 50 iterations, a
    median of 0.23 s of one core a move at 2 players and 0.76 s at 4 (`bench/bots.py --hard-positions`); the
    costliest 4-player positions reach the 2 s cap, which then ends the search."""

    playouts: int = 50
    seconds: float = 2.0
    candidates: int = 5
    rounds: int | None = 0


class OutOfTime(Exception):
    """The search's CPU time ran out in the middle of an iteration."""


@dataclass
class Node:
    """What the searching seat has seen happen: `visits` iterations passed here, `available` of its parent's
    visits offered its move as a candidate, `totals` sums each seat's value over the visits."""

    seats: int
    visits: int = 0
    available: int = 0
    totals: list[float] = field(default_factory=list)
    children: dict[tuple[int, str], Node] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.totals = self.totals or [0.0] * self.seats

    def bound(self, seat: int) -> float:
        """The upper confidence bound of `seat`'s value here (UCB1 over the availability count)."""
        return self.totals[seat] / self.visits + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


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
    """The root's most visited move after the search, or None when the view cannot be rebuilt."""
    found = search(view, moves, rng, budget)
    return found[0] if found is not None else None


def search(view: View, moves: Sequence[MoveView], rng: random.Random, budget: Budget) -> tuple[MoveView, Node] | None:
    """The root's most visited move and the tree searched, or None when the view cannot be rebuilt."""
    deadline = process_time() + budget.seconds
    state = rebuild(view, moves)
    if state is None:
        return None
    seat = int(view["viewer"])
    candidates = ranked(view, moves, budget.candidates)
    root = Node(len(state.players))
    if len(candidates) == 1:
        return candidates[0], root
    for _ in range(budget.playouts):
        luck = rng.randrange(2**62)
        # A fresh determinization: the others' secrets drawn anew (the first one's where a draw is refused).
        sampled = rebuild(view, moves, random.Random(luck)) or state
        try:
            iterate(root, sampled, seat, luck, budget, deadline)
        except OutOfTime:
            break  # the iteration under way is left out
    keys = [(seat, key(move)) for move in candidates]
    visits = [root.children[k].visits if k in root.children else 0 for k in keys]
    return candidates[max(range(len(candidates)), key=lambda k: visits[k])], root  # the heuristic's, on a tie


def ranked(view: View, moves: Sequence[MoveView], width: int) -> list[MoveView]:
    """The heuristic's `width` best moves, best first (the order of `moves` on a tie)."""
    values = move_values(view, moves)
    order = sorted(range(len(moves)), key=lambda k: -values[k])
    return [moves[k] for k in order[: max(1, width)]]


def key(move: MoveView) -> str:
    """A move as a node's key (its fields in a fixed order)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def iterate(root: Node, state: GameState, seat: int, luck: int, budget: Budget, deadline: float) -> None:
    """One iteration in the determinization drawn from `luck`: select, expand, play out, back up. `seat` moves
    first (where several seats choose at once, the root is the searching seat's choice)."""
    path = [root]
    node, s = root, state
    expanded = False
    while s.status != "finished" and not expanded:
        _check(deadline)
        mover = seat if node is root else to_act(s)[0]
        candidates = ranked(player_view(s, mover), legal_moves_read_only(s, mover), budget.candidates)
        keys = [(mover, key(move)) for move in candidates]
        for k in keys:
            if k in node.children:
                node.children[k].available += 1
        fresh = next((i for i, k in enumerate(keys) if k not in node.children), None)
        if fresh is None:
            chosen = max(range(len(keys)), key=lambda i: node.children[keys[i]].bound(mover))
        else:
            chosen, expanded = fresh, True
            node.children[keys[fresh]] = Node(node.seats, available=1)
        node = node.children[keys[chosen]]
        path.append(node)
        _, s = play(s, mover, dict(candidates[chosen]), Rng(luck, s.seq))
    values = seat_values(playout(s, luck, budget.rounds, deadline, state.round))
    for visited in path:
        visited.visits += 1
        visited.totals = [total + value for total, value in zip(visited.totals, values, strict=True)]


def _check(deadline: float) -> None:
    if process_time() > deadline:
        raise OutOfTime


def playout(
    state: GameState, luck: int, rounds: int | None = None, deadline: float = math.inf, start_round: int | None = None
) -> list[Mapping[str, int]]:
    """Every seat moving as the heuristic bot would from `state` until the end (or `rounds` rounds' ends after
    `start_round`, the searched position's round); the dice and draws come from `luck`. The scores.

    Raises OutOfTime once the process's CPU clock (`time.process_time`) passes `deadline`."""
    s = state
    first = state.round if start_round is None else start_round
    last_round = None if rounds is None else first + rounds
    for _ in range(MAX_PLAYOUT_DECISIONS):
        if s.status == "finished" or (last_round is not None and s.round > last_round):
            break
        _check(deadline)
        mover = to_act(s)[0]
        chosen = heuristic_bot(player_view(s, mover), legal_moves_read_only(s, mover), random.Random(luck ^ s.seq))
        _, s = play(s, mover, chosen, Rng(luck, s.seq))
    if s.scores:
        return list(s.scores)
    # Cut before the end: scored as if it ended now (its tie-break needs every seat in the passing order).
    order = (*s.passing_order, *(seat for seat in range(len(s.players)) if seat not in s.passing_order))
    return list(final_scores(replace(s, passing_order=order))[0])


def seat_values(scores: Sequence[Mapping[str, int]]) -> list[float]:
    """What a playout's scores are worth to each seat: 1 for the best total (the rules' tie-break is not
    applied: a tie counts for every seat in it), and a share of the lead over the best other seat."""
    totals = [score["total"] for score in scores]
    values = []
    for seat, total in enumerate(totals):
        best_other = max(other for k, other in enumerate(totals) if k != seat)
        values.append((1.0 if total >= best_other else 0.0) + LEAD_WEIGHT * (total - best_other))
    return values
