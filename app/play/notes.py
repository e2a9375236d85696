"""Private notes: what a player writes down about one game, for their own eyes only.

Every read and write is keyed by the caller's own account, so there is no way to name another player's notes.
Only a player seated at the table keeps notes on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnExpressionArgument, ScalarSelect, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.accounts import Account
from app.play.chat import seated
from app.store.db import Database
from app.store.tables import Note

MAX_LENGTH = 10_000


@dataclass(frozen=True, slots=True)
class Notes:
    text: str
    updated_at: datetime | None  # None: nothing written yet


class NoteBook:
    """Reads and writes the private notes of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def read(self, account: Account, game_id: int) -> Notes:
        """The caller's notes on the game (empty when none); NotFound, NotAllowed `no_seat`."""
        async with self.db.reading() as session:
            await seated(session, game_id, account.id)
            return await _notes(session, account, game_id)

    async def write(self, account: Account, game_id: int, text: str) -> Notes:
        """Replace the caller's notes on the game; NotFound, NotAllowed `no_seat`."""
        async with self.db.session() as session:
            await seated(session, game_id, account.id)
            statement = insert(Note).values(game_id=game_id, user_id=account.id, text=text)
            saved = (
                await session.execute(
                    statement.on_conflict_do_update(
                        index_elements=[Note.game_id, Note.user_id],
                        set_={"text": statement.excluded.text, "updated_at": func.now()},
                    ).returning(Note.text, Note.updated_at)
                )
            ).one()
            await session.commit()
        return Notes(saved.text, saved.updated_at)


def notes_column(game_id: ColumnExpressionArgument[int], user_id: ColumnExpressionArgument[int]) -> ScalarSelect[Any]:
    """The notes of user `user_id` on game `game_id` as a JSON array (text, updated_at), null when they wrote none
    (`notes_of` reads it back): a column of a statement that reads the game itself (the table page's one read), so
    the notes cost no statement of their own. Whether the user sits at the table is for that statement's reader to
    tell."""
    return (
        select(func.json_build_array(Note.text, Note.updated_at))
        .where(Note.game_id == game_id, Note.user_id == user_id)
        .scalar_subquery()
    )


def notes_of(column: list[Any] | None) -> Notes:
    """The notes of a `notes_column` (the time an ISO 8601 string there); empty when none were written."""
    if column is None:
        return Notes("", None)
    text, updated_at = column
    return Notes(text, datetime.fromisoformat(updated_at))


async def _notes(session: AsyncSession, account: Account, game_id: int) -> Notes:
    row = (
        await session.execute(
            select(Note.text, Note.updated_at).where(Note.game_id == game_id, Note.user_id == account.id)
        )
    ).one_or_none()
    return Notes(row.text, row.updated_at) if row is not None else Notes("", None)
