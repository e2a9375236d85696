"""Reading the append-only event log of every game.

Events are appended by `app.play.record`, in the statement that moves `games.seq` from the head its writer saw:
of two writers that saw the same head one wins, and the log never forks. The primary key `(game_id, seq)`
backs this up.

Readers outside the server see the log through `load_known_to`: without the events private to other seats
(`app.rules.events.private_to`), numbered as that viewer counts them (`app.rules.view.visible_seq`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, ScalarSelect, and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.expression import ColumnExpressionArgument

from app.rules.events import PRIVATE_EVENTS
from app.store.tables import GameEvent


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of the log, with the event as the rules core wrote it (`type` included)."""

    seq: int
    event: dict[str, Any]
    actor: int | None
    at: datetime
    timed_out: bool = False  # made by the server for `actor`, whose clock ran out
    by_bot: bool = False  # made by the site's bot for `actor`, whose player is absent


async def load(session: AsyncSession, game_id: int, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
    """The events of `game_id` with seq > `after`, oldest first."""
    query = (
        select(
            GameEvent.seq, GameEvent.type, GameEvent.data, GameEvent.actor, GameEvent.created_at, GameEvent.timed_out,
            GameEvent.by_bot,
        )
        .where(GameEvent.game_id == game_id, GameEvent.seq > after)
        .order_by(GameEvent.seq)
    )
    if limit is not None:
        query = query.limit(limit)
    result = await session.execute(query)
    return [
        StoredEvent(seq, {"type": kind, **data}, actor, at, timed_out, by_bot)
        for seq, kind, data, actor, at, timed_out, by_bot in result.all()
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
            GameEvent.by_bot,
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
            numbered.c.by_bot,
        )
        .where(~numbered.c.unknown, numbered.c.shown > after)
        .order_by(numbered.c.seq)
    )
    if limit is not None:
        query = query.limit(limit)
    result = await session.execute(query)
    return [
        StoredEvent(shown, {"type": kind, **data}, actor, at, timed_out, by_bot)
        for shown, kind, data, actor, at, timed_out, by_bot in result.all()
    ]


def private_event_count(game_id: ColumnExpressionArgument[int]) -> ScalarSelect[int]:
    """How many events of the game are private to some seat: a spectator's head is `games.seq` minus these."""
    return (
        select(func.count())
        .select_from(GameEvent)
        .where(GameEvent.game_id == game_id, GameEvent.type.in_(PRIVATE_EVENTS))
        .scalar_subquery()
    )
