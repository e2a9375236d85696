"""A player's own data: everything stored about them, as one JSON document, and the deletion of their account.

Deleting keeps what other players' games need and erases the person: the games and their logs stay (finished
games replay and verify as before), the seats stay the account's, now named `deleted-<id>` everywhere the name is
shown (pages, the API, exports, mails, the log's handover events), and its seats in running games are played by
the bot from then on, as an absent player's. What is erased is listed in `ERASED`: one row per table keyed by the
account, so that a new table of personal data is one line here (a test checks that every table with a column
pointing at `users.id` is either erased, kept on purpose in `KEPT`, or anonymised by the rename).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from sqlalchemy import Text, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app.play import sessions
from app.play.accounts import NO_PASSWORD, Account, deleted_name
from app.play.record import rename_in_logs
from app.store.tables import (
    AdminAction,
    ChatMessage,
    ChatReport,
    Game,
    GameResult,
    Invitation,
    LoginSession,
    Note,
    NotificationPreference,
    Outbox,
    PushPreference,
    PushSubscription,
    Rating,
    RatingHistory,
    Seat,
    StandingAnswer,
    User,
    Vacation,
    Watcher,
)

# Personal data erased with the account: the column of each table that names it.
ERASED: Final[tuple[InstrumentedAttribute[int | None], ...]] = (
    Note.user_id,  # private notes
    NotificationPreference.user_id,  # mail subscriptions
    PushSubscription.user_id,  # the devices pushed to (their endpoints and keys)
    PushPreference.user_id,  # which kinds are pushed
    Vacation.user_id,
    Watcher.user_id,  # open pages
    Invitation.user_id,  # invitations to the account
    LoginSession.user_id,  # every sign-in (after their live streams were told to end)
    ChatReport.reporter_id,  # the account's reports (the admins' trail keeps what was done about them)
    StandingAnswer.user_id,  # its answers to permission requests in its games (the bot answers for it now)
)

# The keys of a mail's payload that hold a person's name: a chat message's author, an inviter, both sides of a
# seat handed over; a digest holds the payloads it gathers in its "items".
_NAMING_KEYS: Final = ("from", "by", "previous", "username")


# Rows naming the account that stay, because other players' games and records need them; each shows the account
# by its new name only.
KEPT: Final[tuple[InstrumentedAttribute[int | None], ...]] = (
    Seat.user_id,  # its seats: the games go on (the bot plays) or stay replayable
    GameResult.user_id,  # places in finished games, which other players' ratings came from
    RatingHistory.user_id,
    Rating.user_id,
    ChatMessage.user_id,  # the table chat other players took part in
    ChatMessage.removed_by,
    Game.created_by,
    Invitation.invited_by,  # invitations it sent to others
    Outbox.recipient_id,  # mail already sent, as the delivery record (pending mail to it is dropped)
    AdminAction.admin_id,  # the admins' audit trail
    AdminAction.target_user_id,
)


async def export(session: AsyncSession, account: Account) -> dict[str, Any]:
    """Everything stored about `account`, for `GET /api/v1/me/export`: the account, its preferences and
    vacations, its answers ahead, its seats with their games, its chat messages and notes, its push devices, and
    its rating."""
    user = await session.get(User, account.id)
    assert user is not None, "a signed-in account exists"
    seats = (
        await session.execute(
            select(Seat.game_id, Game.name, Game.status, Seat.seat, Seat.joined_at, Seat.absent)
            .join(Game, Game.id == Seat.game_id)
            .where(Seat.user_id == account.id)
            .order_by(Seat.game_id)
        )
    ).all()
    chat = (
        await session.execute(
            select(
                ChatMessage.id, ChatMessage.game_id, ChatMessage.text, ChatMessage.created_at, ChatMessage.removed_at
            )
            .where(ChatMessage.user_id == account.id)
            .order_by(ChatMessage.id)
        )
    ).all()
    notes = (
        await session.execute(select(Note.game_id, Note.text, Note.updated_at).where(Note.user_id == account.id))
    ).all()
    preferences = (
        await session.execute(
            select(NotificationPreference.kind, NotificationPreference.mode).where(
                NotificationPreference.user_id == account.id
            )
        )
    ).all()
    vacations = (
        await session.execute(
            select(Vacation.starts_at, Vacation.ends_at, Vacation.days).where(Vacation.user_id == account.id)
        )
    ).all()
    pushed = (
        await session.execute(
            select(PushPreference.kind, PushPreference.push).where(PushPreference.user_id == account.id)
        )
    ).all()
    devices = (
        await session.scalars(
            select(PushSubscription).where(PushSubscription.user_id == account.id).order_by(PushSubscription.id)
        )
    ).all()
    standing = (
        await session.execute(
            select(StandingAnswer.game_id, StandingAnswer.permission).where(StandingAnswer.user_id == account.id)
        )
    ).all()
    rating = await session.get(Rating, account.id)
    return {
        "account": {
            "id": user.id,
            "username": user.username,
            "email": user.email,
            "created_at": user.created_at.isoformat(),
            "is_admin": user.is_admin,
            "language": user.language,
        },
        "preferences": {
            "notifications": {kind: mode for kind, mode in preferences},
            "push": {kind: push for kind, push in pushed},
            "invitations_from": "played_with" if user.invitations_from_played_with else "anyone",
            "vacations": [
                {"starts_at": s.isoformat(), "ends_at": e.isoformat(), "days": d} for s, e, d in vacations
            ],
            "answers": {"permission": user.permission_answer, "cash_limit": user.cash_limit_answer,
                        "games": [{"game_id": g, "permission": a} for g, a in standing]},
        },
        "games": [
            {"game_id": g, "name": n, "status": st, "seat": seat, "joined_at": j.isoformat(), "absent": absent}
            for g, n, st, seat, j, absent in seats
        ],
        "chat_messages": [
            {"id": i, "game_id": g, "text": t, "created_at": c.isoformat(), "removed": r is not None}
            for i, g, t, c, r in chat
        ],
        "notes": [{"game_id": g, "text": t, "updated_at": u.isoformat()} for g, t, u in notes],
        "subscriptions": [  # web push: each device's push service address and the keys its pushes are sealed to
            {"id": d.id, "endpoint": d.endpoint, "keys": {"p256dh": d.p256dh, "auth": d.auth}, "device": d.device,
             "created_at": d.created_at.isoformat(),
             "last_sent_at": d.last_sent_at.isoformat() if d.last_sent_at else None}
            for d in devices
        ],
        "rating": None if rating is None else {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games},
    }


async def erase(session: AsyncSession, account: Account, now: datetime) -> None:
    """Delete `account` in the caller's transaction, as the module's docstring says; the caller has checked the
    password. Its live streams end and its pending mails are dropped when the transaction commits."""
    user = await session.get(User, account.id, with_for_update=True)
    if user is None or user.deleted_at is not None:
        return
    old_name, new_name = user.username, deleted_name(user.id)
    await sessions.revoke_all(session, user.id, now)  # announces the end of its live streams
    for column in ERASED:
        await session.execute(delete(column.class_).where(column == user.id))
    await session.execute(delete(Outbox).where(Outbox.recipient_id == user.id, Outbox.sent_at.is_(None)))
    # Seats at tables not started yet are given up; in running games the bot plays them from now on.
    open_games = select(Game.id).where(Game.status == "open").scalar_subquery()
    await session.execute(delete(Seat).where(Seat.user_id == user.id, Seat.game_id.in_(open_games)))
    running = select(Game.id).where(Game.status == "active").scalar_subquery()
    await session.execute(update(Seat).where(Seat.user_id == user.id, Seat.game_id.in_(running)).values(absent=True))
    user.username = new_name
    user.email = None
    user.password_hash = NO_PASSWORD
    user.language = None
    user.is_admin = False
    user.invitations_from_played_with = False
    user.permission_answer = user.cash_limit_answer = "ask"
    user.deleted_at = now
    await session.flush()
    await rename_in_logs(session, old_name, new_name)
    await _rename_in_mails(session, old_name, new_name)


async def _rename_in_mails(session: AsyncSession, old: str, new: str) -> None:
    """Name the deleted account by its new name in every mail that names it, so that mails still queued to other
    players (a chat message it wrote, an invitation it sent, a digest gathering them) go out with `deleted-N`, not
    the erased name; mails already sent keep their delivery record under the new name too."""
    rows = (
        await session.scalars(select(Outbox).where(Outbox.payload.cast(Text).contains(f'"{old}"')))
    ).all()
    for row in rows:
        renamed = _renamed(row.payload, old, new)
        if renamed != row.payload:
            row.payload = renamed


def _renamed(payload: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A copy of a mail's `payload` with the name `old` replaced by `new` where it names a person."""
    copy = {key: new if key in _NAMING_KEYS and value == old else value for key, value in payload.items()}
    items = copy.get("items")
    if isinstance(items, list):
        copy["items"] = [_renamed(item, old, new) if isinstance(item, dict) else item for item in items]
    return copy
