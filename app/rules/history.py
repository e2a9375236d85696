"""Past positions: the log as one viewer counts it, and the state after any of its events.

A viewer's position N is the state right after the N-th event that viewer may know of (`view.visible_seq`), so
stepping through the past shows exactly what that viewer could have seen then: other seats' private events are
folded in (the rules need them) but counted for nobody else, and `view.player_view` hides every secret as it
does live. Once the game is over nothing is secret: the log is counted whole and every event shown as it is.

Past states come from the same fold as the present one (`evolve.replay`), so every event that changes the game —
an undo included — reads the same in the past as it did live.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from app.rules.catalog import ROUNDS
from app.rules.events import Event, private_to
from app.rules.evolve import replay
from app.rules.model import GameState
from app.rules.view import redact_event


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """One event of the log as a viewer sees it: numbered as that viewer counts (`seq`), with its place in the
    whole log (`index`, the server's own seq) and its content redacted for that viewer."""

    seq: int
    index: int
    event: dict[str, Any]


def seen_log(events: Sequence[Mapping[str, Any]], seat: int | None, *, everything: bool = False) -> list[SeenEvent]:
    """The whole log as `seat` (None: a spectator) sees it, oldest first; with `everything` (a finished game)
    every event, unredacted and numbered as the log is."""
    seen: list[SeenEvent] = []
    for index, event in enumerate(events, start=1):
        shown = dict(event) if everything else redact_event(event, seat)
        if shown is not None:
            seen.append(SeenEvent(len(seen) + 1, index, shown))
    return seen


def state_at(events: Sequence[Mapping[str, Any]], seat: int | None, at: int, *, everything: bool = False) -> GameState:
    """The state right after the viewer's `at`-th event (1 .. the viewer's head); ValueError outside that range."""
    if everything:
        known = len(events)
        index = at
    else:
        indices = [i for i, event in enumerate(events, start=1) if private_to(event) in (None, seat)]
        known = len(indices)
        index = indices[at - 1] if 1 <= at <= known else 0
    if not 1 <= at <= known:
        raise ValueError(f"position {at} is not in 1..{known}")
    return replay(cast(list[Event], list(events[:index])))


def round_begun(event: Mapping[str, Any]) -> int | None:
    """The round that starts with `event`, if one does: round 1 where the setup hands over to the personalities,
    every later round where the one before it ends (`000` "Game Overview": four rounds)."""
    if event.get("type") == "step_completed" and event.get("next") == "personalities":
        return 1
    ended = event.get("round")
    if event.get("type") == "round_ended" and isinstance(ended, int) and ended < ROUNDS:
        return ended + 1
    return None


def round_starts(seen: Sequence[SeenEvent]) -> list[tuple[int, int]]:
    """(round, position) for every round begun in `seen`: the position is the viewer's seq of the event that
    begins it, so the state there is the round's first."""
    return [(number, e.seq) for e in seen if (number := round_begun(e.event)) is not None]
