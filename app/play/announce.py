"""Telling the world that a game's log moved: the outbox row the mail worker plans its mails from, and the bus
notice the live streams wait for. Both are written in the change's own transaction, so they take effect
exactly when (and only if) it commits; every command that appends to a log calls `announce`."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.bus import Change, notice
from app.store.tables import Outbox


async def announce(
    session: AsyncSession,
    game_id: int,
    new_seq: int,
    status: str,
    to_act: Sequence[int],
    *,
    from_seq: int,
    was_to_act: Sequence[int],
    only: int | None = None,
) -> None:
    """Queue the notification work (outbox) and the bus notice for the log now at `new_seq`.

    The outbox row says who was awaited before (`was_to_act` at `from_seq`), so the mail worker can tell who
    has just become awaited. A seat's secret edit (`only`) concerns nobody else: no outbox row, and a notice
    that only that seat's streams act on.
    """
    change = Change(game_id, new_seq, tuple(to_act), status, only)
    if only is not None:
        await session.execute(select(notice(change)))
        return
    payload = {"to_act": list(to_act), "status": status, "from_seq": from_seq, "was_to_act": list(was_to_act)}
    # One round trip: the outbox row, and the notice evaluated in its RETURNING clause.
    await session.execute(
        insert(Outbox)
        .values(game_id=game_id, seq=new_seq, kind="game_changed", payload=payload)
        .returning(notice(change))
    )
