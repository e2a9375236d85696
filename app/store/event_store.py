"""The append-only event log of every game, with optimistic concurrency.

A writer says which sequence number it saw; the append moves `games.seq` from exactly that number to the new
head in the same statement, so of two writers that saw the same head one wins and the other gets `StaleSeq`,
and the log never forks. The primary key `(game_id, seq)` backs this up.

Readers outside the server see the log through `load_known_to`: without the events private to other seats
(`app.rules.events.private_to`), numbered as that viewer counts them (`app.rules.view.visible_seq`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, ScalarSelect, and_, func, select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.expression import ColumnExpressionArgument

from app.rules.events import PRIVATE_EVENTS
from app.store.tables import GameEvent


class StaleSeq(Exception):
    """Somebody else appended first: the log is no longer at the sequence number the writer saw."""

    def __init__(self, game_id: int, expected_seq: int) -> None:
        super().__init__(f"game {game_id} is no longer at seq {expected_seq}")
        self.game_id = game_id
        self.expected_seq = expected_seq


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of the log, with the event as the rules core wrote it (`type` included)."""

    seq: int
    event: dict[str, Any]
    actor: int | None
    at: datetime
    timed_out: bool = False  # made by the server for `actor`, whose clock ran out


def _split(event: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    data = dict(event)
    return str(data.pop("type")), data


# One round trip: move the head from `expected_seq` (with the caller's projection of the new state) and insert
# the events only if the head moved. Of two writers that saw the same head, the second waits for the first's
# row lock, then finds the head moved on and inserts nothing.
_APPEND = text(
    """
    WITH moved AS (
        UPDATE games
        SET seq = :new_seq,
            status = COALESCE(CAST(:status AS varchar), status),
            to_act = COALESCE(CAST(:to_act AS integer[]), to_act),
            updated_at = now()
        WHERE id = :game_id AND seq = :expected_seq
        RETURNING id
    )
    INSERT INTO game_events (game_id, seq, type, data, actor)
    SELECT moved.id, e.seq, e.type, e.data, :actor
    FROM moved,
         unnest(CAST(:seqs AS integer[]), CAST(:types AS varchar[]), CAST(:datas AS jsonb[])) AS e(seq, type, data)
    RETURNING game_events.seq
    """
)


async def append(
    session: AsyncSession,
    game_id: int,
    expected_seq: int,
    events: Sequence[Mapping[str, Any]],
    *,
    actor: int | None = None,
    status: str | None = None,
    to_act: Sequence[int] | None = None,
) -> int:
    """Append `events` after `expected_seq` in the caller's transaction; return the new head.

    `status` and `to_act` update the games row's projection of the new state in the same statement. Raises
    StaleSeq when the game is not at `expected_seq` (or does not exist); nothing is written then.
    """
    if not events:
        raise ValueError("an append needs at least one event")
    kinds, datas = zip(*(_split(event) for event in events), strict=True)
    new_seq = expected_seq + len(events)
    inserted = await session.execute(
        _APPEND,
        {
            "game_id": game_id,
            "expected_seq": expected_seq,
            "new_seq": new_seq,
            "status": status,
            "to_act": list(to_act) if to_act is not None else None,
            "actor": actor,
            "seqs": list(range(expected_seq + 1, new_seq + 1)),
            "types": list(kinds),
            "datas": [json.dumps(data) for data in datas],
        },
    )
    if len(inserted.all()) != len(events):
        raise StaleSeq(game_id, expected_seq)
    return new_seq


async def load(session: AsyncSession, game_id: int, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
    """The events of `game_id` with seq > `after`, oldest first."""
    query = (
        select(
            GameEvent.seq, GameEvent.type, GameEvent.data, GameEvent.actor, GameEvent.created_at, GameEvent.timed_out
        )
        .where(GameEvent.game_id == game_id, GameEvent.seq > after)
        .order_by(GameEvent.seq)
    )
    if limit is not None:
        query = query.limit(limit)
    result = await session.execute(query)
    return [
        StoredEvent(seq, {"type": kind, **data}, actor, at, timed_out)
        for seq, kind, data, actor, at, timed_out in result.all()
    ]


def _unknown_to(viewer: int | None) -> ColumnElement[bool]:
    """Whether a row is an event `viewer` may not know of: `private_to` in SQL (a private event belongs to its
    `seat`; a spectator knows of none)."""
    return and_(GameEvent.type.in_(PRIVATE_EVENTS), GameEvent.data["seat"].as_integer().is_distinct_from(viewer))


async def load_known_to(
    session: AsyncSession, game_id: int, viewer: int | None, after: int = 0, limit: int | None = None
) -> list[StoredEvent]:
    """The events of `game_id` that `viewer` (a seat, None: a spectator) may know of, oldest first, each `seq`
    counted as that viewer counts the log (1, 2, 3 ... without gaps), starting after the viewer's `after`."""
    unknown = _unknown_to(viewer)
    numbered = (
        select(
            GameEvent.seq,
            GameEvent.type,
            GameEvent.data,
            GameEvent.actor,
            GameEvent.created_at,
            GameEvent.timed_out,
            unknown.label("unknown"),
            (GameEvent.seq - func.count().filter(unknown).over(order_by=GameEvent.seq)).label("shown"),
        )
        .where(GameEvent.game_id == game_id)
        .subquery()
    )
    query = (
        select(
            numbered.c.shown,
            numbered.c.type,
            numbered.c.data,
            numbered.c.actor,
            numbered.c.created_at,
            numbered.c.timed_out,
        )
        .where(~numbered.c.unknown, numbered.c.shown > after)
        .order_by(numbered.c.seq)
    )
    if limit is not None:
        query = query.limit(limit)
    result = await session.execute(query)
    return [
        StoredEvent(shown, {"type": kind, **data}, actor, at, timed_out)
        for shown, kind, data, actor, at, timed_out in result.all()
    ]


def private_event_count(game_id: ColumnExpressionArgument[int]) -> ScalarSelect[int]:
    """How many events of the game are private to some seat: a spectator's head is `games.seq` minus these."""
    return (
        select(func.count())
        .select_from(GameEvent)
        .where(GameEvent.game_id == game_id, GameEvent.type.in_(PRIVATE_EVENTS))
        .scalar_subquery()
    )
