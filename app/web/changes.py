"""What changed at a table since the viewer's own last move: the other seats' moves recorded after it, and the
board spots they touched (parcels, action squares, road edges), so the table can mark them on the board and in
the log. Read from the log as the viewer may see it (each event's `actor`, the seat whose move recorded it); it
decides nothing about the rules. The turn mail tells the same stretch of the log (`app.notify.worker`,
`_since_last_move`: from the seat's last move of its own, which the clock or the bot did not make for it); the
table leaves out what no seat's move recorded (the setup), where nobody moved."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# (seq, event as the viewer may see it, the seat whose move recorded it[, whether the clock or the bot made that
# move for the seat])
ActedEvent = tuple[int, Mapping[str, Any], int | None] | tuple[int, Mapping[str, Any], int | None, bool]


@dataclass(frozen=True, slots=True)
class Changes:
    """The other seats' moves since the viewer's last one: their log positions, who made them, and the spots."""

    seqs: frozenset[int] = frozenset()
    actors: tuple[int, ...] = ()  # in the order they first moved
    parcels: frozenset[tuple[int, int]] = frozenset()
    squares: frozenset[str] = frozenset()
    roads: frozenset[tuple[int, int, int, int]] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.seqs)


NONE = Changes()


def since_last_move(events: Sequence[ActedEvent], viewer: int | None) -> Changes:
    """The events of `events` (oldest first) recorded by another seat's move after the viewer's newest one of their
    own (all of them when the viewer has not moved within `events`); nothing for a spectator. Events of no seat's
    move (the setup) are left out: nobody moved."""
    if viewer is None:
        return NONE
    # A move the clock or the bot made for the viewer is not theirs: what came before it is still news to them.
    last_own = max((i for i, (_, _, actor, *made_for) in enumerate(events) if actor == viewer and not any(made_for)),
                   default=-1)
    theirs = [(seq, event, actor) for seq, event, actor, *_ in events[last_own + 1:]
              if actor is not None and actor != viewer]
    if not theirs:
        return NONE
    parcels: set[tuple[int, int]] = set()
    squares: set[str] = set()
    roads: set[tuple[int, int, int, int]] = set()
    for _, event, _ in theirs:
        _spots(event, parcels, squares, roads)
    return Changes(
        frozenset(seq for seq, _, _ in theirs),
        tuple(dict.fromkeys(actor for _, _, actor in theirs if actor is not None)),
        frozenset(parcels), frozenset(squares), frozenset(roads),
    )


def _spots(value: Any, parcels: set[tuple[int, int]], squares: set[str],
           roads: set[tuple[int, int, int, int]]) -> None:
    """Collect the spots an event names, wherever it names them: a parcel as `x` and `y` (also inside `target`,
    `to` or a list of parcels as {x, y} or [x, y]), an action square as `square`, a road edge as `x1`..`y2`."""
    if isinstance(value, Mapping):
        if _ints(value.get("x"), value.get("y")):
            parcels.add((value["x"], value["y"]))
        if _ints(value.get("x1"), value.get("y1"), value.get("x2"), value.get("y2")):
            roads.add((value["x1"], value["y1"], value["x2"], value["y2"]))
        if isinstance(value.get("square"), str):
            squares.add(value["square"])
        for key, inner in value.items():
            if isinstance(inner, Mapping | list):
                _spots_in(key, inner, parcels, squares, roads)
    elif isinstance(value, list):
        for item in value:
            _spots(item, parcels, squares, roads)


def _spots_in(key: str, inner: Any, parcels: set[tuple[int, int]], squares: set[str],
              roads: set[tuple[int, int, int, int]]) -> None:
    if key in ("parcels", "townhouses") and isinstance(inner, list):
        for item in inner:
            if isinstance(item, list) and len(item) == 2 and _ints(*item):
                parcels.add((item[0], item[1]))
            else:
                _spots(item, parcels, squares, roads)
    elif key in ("target", "to"):
        _spots(inner, parcels, squares, roads)


def _ints(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def of_events(events: Iterable[Any]) -> list[ActedEvent]:
    """(seq, data, actor, made for the seat by the clock or the bot) of the reads' visible events
    (`app.play.positions.VisibleEvent`)."""
    return [(e.seq, e.data, e.actor, bool(e.timed_out or e.by_bot)) for e in events]
