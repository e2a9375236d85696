"""The outbox's backlog, for the metrics (`carson_outbox_pending`, `carson_outbox_oldest_pending_seconds`): rows
not settled yet, and how long the oldest has waited. A growing backlog or an old row means the mail worker is
down, stuck or cannot reach its SMTP server."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select

from app.store.db import Database
from app.store.tables import Outbox


async def outbox_backlog(db: Database, now: datetime) -> tuple[int, float]:
    """How many outbox rows are pending, and the age in seconds of the oldest (0 when none); one statement on the
    pending rows' partial index."""
    async with db.reading() as session:
        pending, oldest = (
            await session.execute(select(func.count(), func.min(Outbox.created_at)).where(Outbox.sent_at.is_(None)))
        ).one()
    return int(pending), max(0.0, (now - oldest).total_seconds()) if oldest is not None else 0.0
