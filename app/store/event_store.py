"""The append-only event log of every game, with optimistic concurrency.

A writer says which sequence number it saw; the append moves `games.seq` from exactly that number to the new
head in the same statement, so of two writers that saw the same head one wins and the other gets `StaleSeq`,
and the log never forks. The primary key `(game_id, seq)` backs this up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.tables import Game, GameEvent


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


def _split(event: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    data = dict(event)
    return str(data.pop("type")), data


async def append(
    session: AsyncSession,
    game_id: int,
    expected_seq: int,
    events: Sequence[dict[str, Any]],
    *,
    actor: int | None = None,
) -> int:
    """Append `events` after `expected_seq` in the caller's transaction; return the new head.

    Raises StaleSeq when the game is not at `expected_seq` (or does not exist). Nothing is written then; the
    caller's transaction stays usable for a rollback.
    """
    new_seq = expected_seq + len(events)
    moved = await session.execute(
        update(Game).where(Game.id == game_id, Game.seq == expected_seq).values(seq=new_seq).returning(Game.id)
    )
    if moved.scalar_one_or_none() is None:
        raise StaleSeq(game_id, expected_seq)
    if events:
        rows = []
        for offset, event in enumerate(events, start=1):
            kind, data = _split(event)
            rows.append({"game_id": game_id, "seq": expected_seq + offset, "type": kind, "data": data, "actor": actor})
        await session.execute(insert(GameEvent), rows)
    return new_seq


async def load(session: AsyncSession, game_id: int, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
    """The events of `game_id` with seq > `after`, oldest first."""
    query = (
        select(GameEvent.seq, GameEvent.type, GameEvent.data, GameEvent.actor, GameEvent.created_at)
        .where(GameEvent.game_id == game_id, GameEvent.seq > after)
        .order_by(GameEvent.seq)
    )
    if limit is not None:
        query = query.limit(limit)
    result = await session.execute(query)
    return [StoredEvent(seq, {"type": kind, **data}, actor, at) for seq, kind, data, actor, at in result.all()]
