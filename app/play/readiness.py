"""Whether this instance may take traffic (`/readyz`): the database answers and its schema is the one this code
was written for. An instance whose database is down, or not migrated yet (another instance is still migrating
it, or the code is newer than the schema), is alive but not ready: a load balancer sends it nothing meanwhile."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.store.db import Database

TIMEOUT_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class Readiness:
    """The database of this instance, and the migration its schema must be at (Alembic's head)."""

    db: Database
    revision: str

    async def problem(self) -> str | None:
        """Why this instance is not ready, in a sentence; None when it is."""
        try:
            async with asyncio.timeout(TIMEOUT_SECONDS), self.db.reading() as session:
                found = (await session.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
        except (DBAPIError, OSError, TimeoutError):
            return "the database does not answer"
        if found != [self.revision]:
            at = ", ".join(found) or "no migration"
            return f"the database is at {at}, not at the migration {self.revision} this server needs"
        return None
