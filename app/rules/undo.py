"""Taking back a move (decisions D83-D85): which moves may be undone, the event that undoes one, and where in
the log the move it undoes lies.

A player may take back their own last move while nobody else has moved since, provided the move told the
table nothing it did not know: no die, no bag draw, no shuffle (the move's generator drew nothing, `Rng.draws`)
and no hidden information revealed (an event of `REVEALING_EVENTS`). Taking back such a move changes nothing
anyone could have learnt from it, so the game goes on as if it had never been made (Board Game Arena's policy
for its undo button). Who made which move, and whether by their clock, is the server's to know
(`app.play.service`); the rules core says what a move's events allow and folds the undo (`evolve.replay`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from app.rules.events import EventType, MoveUndone, private_to

# Events that make public something hidden or drawn at random: a duel (dice, or the secret tiles shown), a
# bag draw, the vote's and the shopping's reveal, Might Is Right tiles dealt or drawn. A move that produced one
# may not be taken back, even when its generator drew nothing this time.
REVEALING_EVENTS: Final[frozenset[EventType]] = frozenset({
    "duel_fought",
    "outlaw_fought",
    "construction_refilled",
    "sides_decided",
    "shopping_revealed",
    "tiles_dealt",
    "tiles_drawn",
    "turn_order_drawn",
})


def may_be_undone(events: Sequence[Mapping[str, Any]], draws: int) -> bool:
    """Whether a move that made `events` while its generator drew `draws` times may be taken back: it drew
    nothing, revealed nothing, and was public (a secret basket edit has its own way back, taking the item out
    again, and an undo of it would tell the others it happened, D84)."""
    return (
        draws == 0
        and bool(events)
        and not any(event["type"] in REVEALING_EVENTS or private_to(event) is not None for event in events)
    )


def move_undone(seat: int, events: int) -> MoveUndone:
    """The event by which `seat` takes back its last move, which made `events` events."""
    return {"type": "move_undone", "seat": seat, "events": events}


def taken_back(log: Sequence[Mapping[str, Any]], index: int) -> tuple[int, list[int]] | None:
    """Where the move undone by the undo at `log[index]` starts, and the events after it that the undo keeps:
    `(start, kept)`, the state to return to being the one before `log[start]`; None when `log` does not reach
    back to the move's start.

    The move's events are the last public events before the undo; the private events between them and the undo
    (other seats' secret basket edits, which nobody else may know of, D85) are kept: they are folded again onto
    the state the undo returns to."""
    count = log[index]["events"]
    kept: list[int] = []
    position = index - 1
    while position >= 0:
        if private_to(log[position]) is None:
            count -= 1
            if count == 0:
                return position, kept[::-1]
        else:
            kept.append(position)
        position -= 1
    return None
