"""Invitations to an open table: a player named by the table's creator, holding a seat for them until they accept
(join) or decline; each invitation is announced by mail through the outbox, in the transaction that makes it.

An account may take invitations only from players it shared a running or finished game with (a setting, off by
default): anybody else's invitation is refused, so the inviter knows, and nothing is mailed.

The rows live while the table is open: joining takes one's own invitation, declining drops it, starting the
game drops the ones nobody answered, and an invitation unanswered for the table's `invitation_days` expires (its
inviter is mailed, through the outbox, by the statement that drops it).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.play.bus import CHANNEL
from app.play.errors import NotAllowed
from app.store.tables import Game, Invitation, Outbox, Seat, User

MAIL = "invitation"  # the kind of mail (app.notify.messages)
EXPIRED = "invitation_expired"  # the kind of mail that tells the inviter

# One statement: the invitations drop and their inviters' mails are queued together, or neither (two instances
# checking at once each drop a different row, never one twice).
_EXPIRE = text("""
    WITH gone AS (
        DELETE FROM invitations AS i USING games AS g
        WHERE g.id = i.game_id AND g.status = 'open'
          AND i.created_at + make_interval(days => g.invitation_days) <= CAST(:now AS timestamptz)
        RETURNING i.game_id, i.user_id, i.invited_by, g.invitation_days
    ),
    told AS (
        INSERT INTO outbox (game_id, kind, recipient_id, payload)
        SELECT gone.game_id, 'mail', gone.invited_by,
               jsonb_build_object('message', CAST(:kind AS text), 'invitee', u.username, 'days', gone.invitation_days)
        FROM gone JOIN users AS u ON u.id = gone.user_id
        WHERE gone.invited_by IS NOT NULL
    )
    -- Each table's waiting pages read its seats again (`bus.TableChanged`), when the drop commits.
    SELECT (SELECT count(*) FROM gone),
           (SELECT count(pg_notify(CAST(:channel AS text), CAST(json_build_object('game_id', t.game_id, 'table', true)
                                                                AS text)))
            FROM (SELECT DISTINCT game_id FROM gone) AS t)
""")


async def free_seats(session: AsyncSession, game_id: int, seat_count: int) -> int:
    """Seats neither taken nor held for an invited player."""
    seated = await session.scalar(select(func.count()).select_from(Seat).where(Seat.game_id == game_id))
    held = await session.scalar(select(func.count()).select_from(Invitation).where(Invitation.game_id == game_id))
    return seat_count - (seated or 0) - (held or 0)


async def invite(session: AsyncSession, game_id: int, inviter_id: int, users: Sequence[User]) -> None:
    """Invite `users` (checked by the caller: not seated, not invited yet, room for them) and queue their mails.
    NotAllowed `invitations_refused` (nothing invited, nothing mailed) when one of them takes invitations only
    from players they played with, and the inviter is not one."""
    for user in users:
        if user.invitations_from_played_with and not await have_played_together(session, inviter_id, user.id):
            raise NotAllowed(
                "invitations_refused",
                "{name} takes invitations only from players they have played with.", name=user.username,
            )
    by = await session.scalar(select(User.username).where(User.id == inviter_id))
    for user in users:
        session.add(Invitation(game_id=game_id, user_id=user.id, invited_by=inviter_id))
        session.add(Outbox(game_id=game_id, kind="mail", recipient_id=user.id, payload={"message": MAIL, "by": by}))
    await session.flush()


# Aliases made once: an alias works its columns out at its first use, a millisecond or more of CPU each time.
_THEIR_SEAT = aliased(Seat)
_INVITER = aliased(User)


async def have_played_together(session: AsyncSession, one: int, other: int) -> bool:
    """Whether `one` and `other` share a game that has started (running or finished)."""
    theirs = _THEIR_SEAT
    found = await session.scalar(
        select(Seat.game_id)
        .join(theirs, (theirs.game_id == Seat.game_id) & (theirs.user_id == other))
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.user_id == one, Game.status.in_(("active", "finished")))
        .limit(1)
    )
    return found is not None


async def takes_invitations_from_anyone(session: AsyncSession, user_id: int) -> bool:
    """The account's setting: invitations from anyone (True, the default) or only from players met in a game."""
    only_met = await session.scalar(select(User.invitations_from_played_with).where(User.id == user_id))
    return not only_met


async def take_invitations_from_anyone(session: AsyncSession, user_id: int, anyone: bool) -> None:
    """Change that setting."""
    await session.execute(update(User).where(User.id == user_id).values(invitations_from_played_with=not anyone))


async def is_invited(session: AsyncSession, game_id: int, user_id: int) -> bool:
    return await session.get(Invitation, (game_id, user_id)) is not None


async def take(session: AsyncSession, game_id: int, user_id: int) -> bool:
    """Remove `user_id`'s invitation to `game_id` (accepted or declined); whether there was one."""
    found = await session.execute(
        delete(Invitation)
        .where(Invitation.game_id == game_id, Invitation.user_id == user_id)
        .returning(Invitation.user_id)
    )
    return found.first() is not None


async def expire(session: AsyncSession, now: datetime) -> int:
    """Drop the invitations to open tables unanswered for their table's `invitation_days` by `now`, freeing their
    seats, and queue a mail to each inviter; how many expired."""
    return int(await session.scalar(_EXPIRE, {"now": now, "kind": EXPIRED, "channel": CHANNEL}) or 0)


async def drop_all(session: AsyncSession, game_id: int) -> None:
    """The table starts: the invitations nobody answered lapse."""
    await session.execute(delete(Invitation).where(Invitation.game_id == game_id))


async def invited_names(session: AsyncSession, game_ids: Sequence[int]) -> dict[int, list[str]]:
    """The usernames invited to each game, in the order they were invited."""
    if not game_ids:
        return {}
    rows = await session.execute(
        select(Invitation.game_id, User.username)
        .join(User, User.id == Invitation.user_id)
        .where(Invitation.game_id.in_(game_ids))
        .order_by(Invitation.game_id, Invitation.created_at, User.username)
    )
    found: dict[int, list[str]] = {}
    for game_id, username in rows.all():
        found.setdefault(game_id, []).append(username)
    return found


async def of_user(session: AsyncSession, user_id: int) -> list[tuple[int, str | None]]:
    """(game id, who invited) of each pending invitation of `user_id`, oldest first."""
    inviter = _INVITER
    rows = await session.execute(
        select(Invitation.game_id, inviter.username)
        .outerjoin(inviter, inviter.id == Invitation.invited_by)
        .where(Invitation.user_id == user_id)
        .order_by(Invitation.created_at, Invitation.game_id)
    )
    return [(game_id, by) for game_id, by in rows.all()]
