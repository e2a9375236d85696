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

from sqlalchemy import ColumnElement, Integer, ScalarSelect, Select, and_, bindparam, func, select
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


# The two reads of the log are made once, with their values as parameters: a statement made anew costs SQLAlchemy
# its columns (a subquery's, each time) and its cache key at every run, more of the server's CPU than PostgreSQL
# spends on it (measured: about 3 ms of the 6 the table's log cost). A NULL limit is no limit to PostgreSQL.
_GAME_ID = bindparam("game_id", type_=Integer)
_AFTER = bindparam("after", type_=Integer)
_LIMIT = bindparam("limit", type_=Integer)
_VIEWER = bindparam("viewer", type_=Integer)

_LOAD = (
    select(
        GameEvent.seq, GameEvent.type, GameEvent.data, GameEvent.actor, GameEvent.created_at, GameEvent.timed_out,
        GameEvent.by_bot,
    )
    .where(GameEvent.game_id == _GAME_ID, GameEvent.seq > _AFTER)
    .order_by(GameEvent.seq)
    .limit(_LIMIT)
)


async def load(session: AsyncSession, game_id: int, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
    """The events of `game_id` with seq > `after`, oldest first."""
    result = await session.execute(_LOAD, {"game_id": game_id, "after": after, "limit": limit})
    return [
        StoredEvent(seq, {"type": kind, **data}, actor, at, timed_out, by_bot)
        for seq, kind, data, actor, at, timed_out, by_bot in result.all()
    ]


def _unknown_to(viewer: ColumnElement[int]) -> ColumnElement[bool]:
    """Whether a row is an event `viewer` may not know of: `private_to` in SQL (a private event belongs to its
    `seat`; a spectator, NULL, knows of none)."""
    return and_(GameEvent.type.in_(PRIVATE_EVENTS), GameEvent.data["seat"].as_integer().is_distinct_from(viewer))


def _known_to() -> Select[Any]:
    """The events of game `game_id` that seat `viewer` may know of, numbered as the viewer counts the log, after
    the viewer's `after`, at most `limit` of them."""
    unknown = _unknown_to(_VIEWER)
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
        .where(GameEvent.game_id == _GAME_ID)
        .subquery()
    )
    return (
        select(
            numbered.c.shown,
            numbered.c.type,
            numbered.c.data,
            numbered.c.actor,
            numbered.c.created_at,
            numbered.c.timed_out,
            numbered.c.by_bot,
        )
        .where(~numbered.c.unknown, numbered.c.shown > _AFTER)
        .order_by(numbered.c.seq)
        .limit(_LIMIT)
    )


_KNOWN_TO = _known_to()


async def load_known_to(
    session: AsyncSession, game_id: int, viewer: int | None, after: int = 0, limit: int | None = None
) -> list[StoredEvent]:
    """The events of `game_id` that `viewer` (a seat, None: a spectator) may know of, oldest first, each `seq`
    counted as that viewer counts the log (1, 2, 3 ... without gaps), starting after the viewer's `after`."""
    result = await session.execute(
        _KNOWN_TO, {"game_id": game_id, "viewer": viewer, "after": after, "limit": limit}
    )
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
