"""What the steps of the schedule are made of, for the base game's (`flow`) and the families' alike: events known
at once, events that finish their step, and the event that ends a step, naming the next one with something to do.

Which step comes when, and whose decision it awaits, is `flow`'s; the steps themselves are registered by name
(`registry.STEPS`), so that the look-ahead below reads every one of them, wherever it lives.
"""

from __future__ import annotations

from typing import Final

from app.rules.catalog import FINAL_STEPS, ROUND_STEPS, SETUP_STEPS
from app.rules.config import MAX_PLAYERS
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import fold
from app.rules.events import Event
from app.rules.model import GameState
from app.rules.registry import STEPS, Auto
from app.rules.rng import Rng


def awaits(kind: Decision, seat: int) -> Awaiting:
    """`Awaiting(kind, (seat,))`, one value kept for each decision and seat: the flow awaits a single seat at nearly
    every state it reaches, and a named tuple is made by a function written in Python."""
    found = _ONE_SEAT.get((kind, seat))
    return found if found is not None else Awaiting(kind, (seat,))


_ONE_SEAT: Final = {(kind, seat): Awaiting(kind, (seat,)) for kind in Decision for seat in range(MAX_PLAYERS)}


def at_once(*events: Event) -> Auto:
    """A step whose events are known without the generator."""
    return lambda rng: list(events)


class Folded(list[Event]):
    """A step's events, of which the first `done` are already folded into `after`: `completed` folds its events
    to name the next busy step, and `decide.advance` goes on from `after` instead of folding them a second time
    (the same states: the fold is deterministic)."""

    __slots__ = ("after", "done")

    def __init__(self, events: list[Event], after: GameState, done: int) -> None:
        super().__init__(events)
        self.after = after
        self.done = done


def completed(s: GameState, *events: Event) -> Auto:
    """The events of a step that finish it at once, then the cursor moves on. Produced from `s`, the state the
    step was asked of (as `flow.next_step` does)."""

    def produce(rng: Rng) -> list[Event]:
        after = fold(s, events)
        return Folded([*events, *finish_step(after)], after, len(events))

    return produce


def finish_step(s: GameState) -> list[Event]:
    """The event that ends the current step (for decisions that end a step by themselves)."""
    return [{"type": "step_completed", "step": s.step, "next": _next_busy_step(s)}]


def _next_busy_step(s: GameState) -> str:
    """The next step of the schedule that has something to do; steps with nothing to do are skipped in one
    event, so the log shows only what happened."""
    for step in _FOLLOWING[s.step]:
        # A round always starts with the personalities (whose order is only set as it starts).
        if step == ROUND_STEPS[0] or STEPS[step](s) is not None:
            return step
    raise AssertionError("the last step of every schedule always has something to do")


_SCHEDULES: Final = (SETUP_STEPS + ROUND_STEPS[:1], ROUND_STEPS, FINAL_STEPS)
# The steps that may come after each step, in the order they are looked at: those after it in each schedule that
# holds it (the round's first step ends the setup's schedule and starts the round's), worked out once.
_FOLLOWING: Final[dict[str, tuple[str, ...]]] = {
    step: tuple(later for schedule in _SCHEDULES if step in schedule for later in schedule[schedule.index(step) + 1:])
    for schedule in _SCHEDULES for step in schedule
}
