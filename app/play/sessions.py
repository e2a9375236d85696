"""Revocable sign-ins: one row per browser session or API token (`LoginSession`).

The client holds a random id (signed by the web layer); the table holds its SHA-256, who it belongs to, when it
expires and whether it was revoked. Every authenticated request looks its id up here (one primary-key query,
joined with the account), so a revocation is seen by every instance at the very next request.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.accounts import Account
from app.store.tables import LoginSession, User

Kind = Literal["cookie", "token"]


def _key(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


async def open_session(session: AsyncSession, user_id: int, kind: Kind, now: datetime, lifetime: timedelta) -> str:
    """Start a sign-in for `user_id`; returns the random id the client is to hold (never stored as such).

    The user's expired and revoked rows are deleted on the way, so the table stays as small as the live sessions.
    """
    await session.execute(
        delete(LoginSession).where(
            LoginSession.user_id == user_id, (LoginSession.expires_at <= now) | LoginSession.revoked_at.is_not(None)
        )
    )
    session_id = secrets.token_urlsafe(32)
    row = LoginSession(id=_key(session_id), user_id=user_id, kind=kind, created_at=now, expires_at=now + lifetime)
    session.add(row)
    await session.flush()
    return session_id


async def account_of(session: AsyncSession, session_id: str, kind: Kind, now: datetime) -> Account | None:
    """The account signed in by `session_id` (of this `kind`), unless it expired or was revoked."""
    row = (
        await session.execute(
            select(User.id, User.username, User.is_admin)
            .join(LoginSession, LoginSession.user_id == User.id)
            .where(
                LoginSession.id == _key(session_id),
                LoginSession.kind == kind,
                LoginSession.expires_at > now,
                LoginSession.revoked_at.is_(None),
            )
        )
    ).one_or_none()
    return Account(row.id, row.username, row.is_admin) if row is not None else None


async def revoke(session: AsyncSession, session_id: str, now: datetime) -> None:
    """End one sign-in (signing out)."""
    await session.execute(
        update(LoginSession)
        .where(LoginSession.id == _key(session_id), LoginSession.revoked_at.is_(None))
        .values(revoked_at=now)
    )


async def revoke_all(session: AsyncSession, user_id: int, now: datetime) -> None:
    """End every sign-in of `user_id`: every browser and every token (signing out everywhere)."""
    await session.execute(
        update(LoginSession)
        .where(LoginSession.user_id == user_id, LoginSession.revoked_at.is_(None))
        .values(revoked_at=now)
    )
