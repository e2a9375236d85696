"""The table chat of a game: talk around the game, kept beside its event log and never in it.

Seated players (those who joined an open table, or play a started game) write; everyone who may look at the table
reads. A message is stored, mailed to the other seated players (a kind of mail they may turn on, app.notify) and
announced on the game's live streams by the one transaction that stores it (`pg_notify` is delivered on commit),
so every instance's streams hear of it. Each player may write `per_window` messages within `window` (across all
games): beyond that, TooMany with the seconds to wait, like the sign-in limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnExpressionArgument, ScalarSelect, case, func, insert, literal_column, select, text
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.accounts import Account
from app.play.bus import CHANNEL, ChatPosted
from app.play.errors import NotAllowed, NotFound, TooMany
from app.store.db import Database
from app.store.tables import ChatMessage, Game, Outbox, Seat, User

MAX_LENGTH = 1000
PER_WINDOW = 5  # a quick exchange of short lines fits; a flood of the table does not
WINDOW = timedelta(seconds=10)
MAIL = "chat"  # the kind of mail (app.notify.messages)
CHAT_LOCK = 7_424_211_005  # advisory lock class: one player's messages are counted and stored one at a time


@dataclass(frozen=True, slots=True)
class ChatLine:
    id: int
    username: str
    text: str  # empty for a removed message
    at: datetime
    # A line the site wrote about `username` (`{"kind": "vacation_day", ...}`, app.play.clocks), told in each
    # reader's language; None for what a player wrote.
    notice: dict[str, Any] | None = None
    removed: bool = False  # removed by an admin (app.play.moderation)

    @property
    def until(self) -> datetime | None:
        """When the vacation day a notice tells of ends (None for any other line)."""
        until = (self.notice or {}).get("until")
        return datetime.fromisoformat(until) if isinstance(until, str) else None


class Chat:
    """Writes and reads the table chats of one database."""

    def __init__(self, db: Database, *, per_window: int = PER_WINDOW, window: timedelta = WINDOW) -> None:
        self.db = db
        self.per_window = per_window
        self.window = window

    async def post(self, account: Account, game_id: int, message: str) -> ChatLine:
        """Store `message` from a seated player (1..MAX_LENGTH characters, checked by the caller).

        Raises NotFound `game_not_found`, NotAllowed `no_seat`, TooMany `too_many_messages`."""
        async with self.db.session() as session:
            await seated(session, game_id, account.id)
            await session.execute(
                select(func.pg_advisory_xact_lock(CHAT_LOCK % 2**31, account.id))
            )
            recent = (
                await session.execute(
                    select(
                        func.count(),
                        func.ceil(func.extract("epoch", func.min(ChatMessage.created_at) + self.window - func.now())),
                    ).where(ChatMessage.user_id == account.id, ChatMessage.created_at > func.now() - self.window)
                )
            ).one()
            if recent[0] >= self.per_window:
                wait = max(1, int(recent[1] or 1))
                raise TooMany(
                    "too_many_messages",
                    "You have written {count} messages within {window} s, the most allowed; please wait {wait} s.",
                    retry_after=wait, count=recent[0], window=int(self.window.total_seconds()), wait=wait,
                )
            row = (
                await session.execute(
                    insert(ChatMessage)
                    .values(game_id=game_id, user_id=account.id, text=message)
                    .returning(ChatMessage.id, ChatMessage.created_at)
                )
            ).one()
            others = (
                await session.scalars(select(Seat.user_id).where(Seat.game_id == game_id, Seat.user_id != account.id))
            ).all()
            if others:
                payload = {"message": MAIL, "from": account.username, "text": message, "chat_id": row.id}
                await session.execute(
                    insert(Outbox),
                    [{"game_id": game_id, "kind": "mail", "recipient_id": user, "payload": payload} for user in others],
                )
            await session.execute(
                text("SELECT pg_notify(:channel, :notice)"),
                {"channel": CHANNEL, "notice": ChatPosted(game_id, row.id).to_json()},
            )
            await session.commit()
        return ChatLine(row.id, account.username, message, row.created_at)

    async def read(self, game_id: int, *, after: int = 0, limit: int = 100) -> list[ChatLine]:
        """The game's messages after message `after`, oldest first; with `after` 0 the newest `limit` of them.
        NotFound when there is no such game."""
        async with self.db.reading() as session:
            if await session.get(Game, game_id) is None:
                raise NotFound("game_not_found", "There is no game {game}.", game=game_id)
            return await _messages(session, game_id, after, limit)

    async def newest(self, game_id: int, limit: int) -> list[ChatLine]:
        """The game's newest `limit` messages, oldest first, in one statement: for a caller that has just read
        the game itself (the table page, from its summary), so nothing checks again that it exists."""
        async with self.db.reading() as session:
            return await _messages(session, game_id, 0, limit)


def newest_column(game_id: ColumnExpressionArgument[int], limit: int) -> ScalarSelect[Any]:
    """The newest `limit` messages of game `game_id`, oldest first, as one JSON array (`lines_of` reads it back): a
    column of a statement that reads the game itself (the table page's one read), so the chat costs no statement
    of its own."""
    newest = (
        select(ChatMessage.id, User.username, _shown_text(), ChatMessage.created_at, ChatMessage.notice, _removed())
        .join(User, User.id == ChatMessage.user_id)
        .where(ChatMessage.game_id == game_id)
        .order_by(ChatMessage.id.desc())
        .limit(limit)
        .subquery()
    )
    line = func.json_build_array(
        newest.c.id, newest.c.username, newest.c.text, newest.c.created_at, newest.c.notice, newest.c.removed
    )
    return select(
        func.coalesce(func.json_agg(aggregate_order_by(line, newest.c.id)), literal_column("'[]'::json"))
    ).scalar_subquery()


def lines_of(column: list[list[Any]]) -> list[ChatLine]:
    """The messages of a `newest_column` (each time an ISO 8601 string there)."""
    return [
        ChatLine(id, username, said, datetime.fromisoformat(at), notice, removed)
        for id, username, said, at, notice, removed in column
    ]


def _shown_text() -> Any:
    """A message's text as it may be shown: nothing once an admin removed it."""
    return case((ChatMessage.removed_at.is_not(None), ""), else_=ChatMessage.text).label("text")


def _removed() -> Any:
    return ChatMessage.removed_at.is_not(None).label("removed")


async def _messages(session: AsyncSession, game_id: int, after: int, limit: int) -> list[ChatLine]:
    """The messages after message `after`, oldest first; with `after` 0 the newest `limit` of them."""
    query = (
        select(ChatMessage.id, User.username, _shown_text(), ChatMessage.created_at, ChatMessage.notice, _removed())
        .join(User, User.id == ChatMessage.user_id)
        .where(ChatMessage.game_id == game_id, ChatMessage.id > after)
    )
    if after:
        rows = (await session.execute(query.order_by(ChatMessage.id).limit(limit))).all()
    else:
        rows = list(reversed((await session.execute(query.order_by(ChatMessage.id.desc()).limit(limit))).all()))
    return [ChatLine(*row) for row in rows]


async def seated(session: AsyncSession, game_id: int, user_id: int) -> None:
    """Raises NotFound when there is no such game, NotAllowed `no_seat` when the user has no seat in it (a seat
    of an open table counts)."""
    if await session.get(Game, game_id) is None:
        raise NotFound("game_not_found", "There is no game {game}.", game=game_id)
    if await session.get(Seat, (game_id, user_id)) is None:
        raise NotAllowed("no_seat", "You do not have a seat in this game.")
