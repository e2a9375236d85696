"""Moderation: admins suspend and unsuspend accounts and remove chat messages; players report chat messages to
them. Every admin action is written, in the transaction that makes it, to the audit trail (`admin_actions`: who,
when, on whom or what, why), which rows are never changed.

A suspended account's sign-ins and requests are refused (403 `account_suspended`, `app.play.accounts.suspended`,
checked by the sign-in lookup and by the one-trip move's own statement), its live streams end, the bot plays its
seats in running games from then on (as an absent player's; after the suspension is lifted the player takes a
seat back by moving, as after a timeout), and it is told by mail why. A removed chat message stays in its place,
shown to everyone as removed, its text never sent again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.play import sessions
from app.play.accounts import Account
from app.play.bus import CHANNEL, ChatPosted
from app.play.chat import seated
from app.play.errors import Conflict, NotAllowed, NotFound
from app.store.db import Database
from app.store.tables import AdminAction, ChatMessage, ChatReport, Game, Outbox, Seat, User

SUSPENDED_MAIL: Final = "account_suspended"


@dataclass(frozen=True, slots=True)
class Report:
    """A player's report of a chat message, with the message, for the admins' page."""

    id: int
    game_id: int
    message_id: int
    author: str
    text: str
    removed: bool
    reporter: str
    reason: str
    at: datetime


@dataclass(frozen=True, slots=True)
class TrailEntry:
    """One admin action: who, what, on whom or which message, why, when."""

    admin: str | None
    action: str
    target: str | None
    message_id: int | None
    reason: str
    at: datetime


def _require_admin(account: Account) -> None:
    if not account.is_admin:
        raise NotAllowed("admin_only", "Only an admin may do this.")


async def _target(session: AsyncSession, username: str) -> User:
    user = await session.scalar(
        select(User).where(func.lower(User.username) == username.lower()).with_for_update()
    )
    if user is None:
        raise NotFound("player_not_found", "There is no player called {name}.", name=username)
    return user


async def suspend(db: Database, admin: Account, username: str, reason: str, now: datetime) -> None:
    """Suspend the account `username` for `reason` (see the module's docstring). NotAllowed `admin_only`, or
    `cannot_suspend_admin` for an admin or a bot; NotFound `player_not_found`; Conflict `already_suspended`."""
    _require_admin(admin)
    async with db.session() as session:
        user = await _target(session, username)
        if user.is_admin or user.is_bot:
            raise NotAllowed("cannot_suspend_admin", "Admins and the site's bots cannot be suspended.")
        if user.suspended_at is not None:
            raise Conflict("already_suspended", "{name} is suspended already.", name=user.username)
        user.suspended_at, user.suspension_reason = now, reason
        running = select(Game.id).where(Game.status == "active").scalar_subquery()
        await session.execute(
            update(Seat).where(Seat.user_id == user.id, Seat.game_id.in_(running)).values(absent=True)
        )
        await sessions.announce_end(session, user.id)
        session.add(Outbox(kind="mail", recipient_id=user.id, next_attempt_at=now,
                           payload={"message": SUSPENDED_MAIL, "reason": reason}))
        session.add(AdminAction(admin_id=admin.id, action="suspend", target_user_id=user.id, reason=reason,
                                created_at=now))
        await session.commit()


async def unsuspend(db: Database, admin: Account, username: str, reason: str, now: datetime) -> None:
    """Lift the suspension of `username`; Conflict `not_suspended` when it is not suspended."""
    _require_admin(admin)
    async with db.session() as session:
        user = await _target(session, username)
        if user.suspended_at is None:
            raise Conflict("not_suspended", "{name} is not suspended.", name=user.username)
        user.suspended_at, user.suspension_reason = None, None
        session.add(AdminAction(admin_id=admin.id, action="unsuspend", target_user_id=user.id, reason=reason,
                                created_at=now))
        await session.commit()


async def remove_message(db: Database, admin: Account, game_id: int, message_id: int, reason: str,
                         now: datetime) -> None:
    """Remove a chat message (shown as removed to everyone from now on; every open table reads its chat again).
    NotFound `message_not_found`; a message removed already stays as it is."""
    _require_admin(admin)
    async with db.session() as session:
        message = await session.get(ChatMessage, message_id, with_for_update=True)
        if message is None or message.game_id != game_id:
            raise NotFound("message_not_found", "There is no message {number} in game {game}.",
                           number=message_id, game=game_id)
        if message.removed_at is not None:
            return
        message.removed_at, message.removed_by = now, admin.id
        session.add(AdminAction(admin_id=admin.id, action="remove_message", target_user_id=message.user_id,
                                message_id=message_id, reason=reason, created_at=now))
        await session.execute(text("SELECT pg_notify(:channel, :notice)"),
                              {"channel": CHANNEL, "notice": ChatPosted(game_id, message_id).to_json()})
        await session.commit()


async def report_message(db: Database, account: Account, game_id: int, message_id: int, reason: str,
                         now: datetime) -> None:
    """Report a chat message of a game one has a seat in to the admins (once per message; again changes nothing).
    NotAllowed `no_seat`; NotFound `message_not_found`."""
    async with db.session() as session:
        await seated(session, game_id, account.id)
        message = await session.get(ChatMessage, message_id)
        if message is None or message.game_id != game_id:
            raise NotFound("message_not_found", "There is no message {number} in game {game}.",
                           number=message_id, game=game_id)
        await session.execute(
            insert(ChatReport)
            .values(message_id=message_id, reporter_id=account.id, reason=reason, created_at=now)
            .on_conflict_do_nothing()
        )
        await session.commit()


async def reports(db: Database, admin: Account, limit: int = 200) -> list[Report]:
    """The newest reports first, each with its message."""
    _require_admin(admin)
    author, reporter = aliased(User), aliased(User)
    async with db.reading() as session:
        rows = (
            await session.execute(
                select(
                    ChatReport.id, ChatMessage.game_id, ChatMessage.id, author.username, ChatMessage.text,
                    ChatMessage.removed_at.is_not(None), reporter.username, ChatReport.reason, ChatReport.created_at,
                )
                .join(ChatMessage, ChatMessage.id == ChatReport.message_id)
                .join(author, author.id == ChatMessage.user_id)
                .join(reporter, reporter.id == ChatReport.reporter_id)
                .order_by(ChatReport.id.desc())
                .limit(limit)
            )
        ).all()
    return [Report(*row) for row in rows]


async def trail(db: Database, admin: Account, limit: int = 200) -> list[TrailEntry]:
    """The newest admin actions first."""
    _require_admin(admin)
    by, on = aliased(User), aliased(User)
    async with db.reading() as session:
        rows = (
            await session.execute(
                select(by.username, AdminAction.action, on.username, AdminAction.message_id, AdminAction.reason,
                       AdminAction.created_at)
                .outerjoin(by, by.id == AdminAction.admin_id)
                .outerjoin(on, on.id == AdminAction.target_user_id)
                .order_by(AdminAction.id.desc())
                .limit(limit)
            )
        ).all()
    return [TrailEntry(*row) for row in rows]
