"""Shared scenario helpers for the track, income, end-of-round and scoring tests.

`ready` gives a game at the placement phase of round 1 with known personalities; `run_step` jumps to one step of
the round with everyone passed and returns what that step did (its events and the state right after it), however
far the automatic flow then runs on.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.rules.board import parcel_index
from app.rules.events import Event
from app.rules.evolve import evolve
from app.rules.model import GameState, replace
from tests.rules.builders import Game

# No card decision, no firepower bonus for the first two: Sheriff (1), Banker (2), Chinese Worker (4).
CARDS = ("sheriff", "banker", "chinese_worker")


def ready(cards: Iterable[str] = CARDS, players: int = 3, seed: int | None = None) -> Game:
    """A game at the start of round 1's placement, starting parcels on the west border, the given cards chosen."""
    g = Game(players) if seed is None else Game(players, seed)
    g.claim_starts()
    g.choose(cards)
    return g


def seat_of(g: Game, card: str) -> int:
    seat = g.state.holder(card)
    assert seat is not None
    return seat


def run_step(g: Game, step: str, passing_order: Iterable[int] | None = None) -> tuple[list[Event], GameState]:
    """Jump to `step` (everyone passed) and run the automatic flow. Returns the events up to and including the
    end of `step` and the state at that point (the game itself runs on to the next decision)."""
    order = tuple(passing_order) if passing_order is not None else g.state.placement_order
    players = tuple(replace(p, passed=True) for p in g.state.players)
    g.with_state(step=step, players=players, passing_order=order, turn=None)
    start = g.state
    events = g.resume_at(step, order)
    state = start
    done: list[Event] = []
    for event in events:
        state = evolve(state, event)
        done.append(event)
        if event["type"] == "step_completed" and event["step"] == step:
            break
    return done, state


def at(state: GameState, x: int, y: int) -> tuple[int | None, str | None]:
    """(owner, content) of parcel (x, y)."""
    parcel = state.parcels[parcel_index(x, y)]
    return parcel.owner, parcel.content


def clear_square(g: Game) -> None:
    """Take every cowboy off the squares and parcels (a scenario then places exactly the ones it needs)."""
    g.with_state(squares={}, parcel_cowboys={})
