"""Who wants which mail, how: per user and kind "immediately", "digest" or "off" (without a choice, the kind's
default: `messages.default_mode`); and the signed one-click unsubscribe links that change a preference without
signing in.
"""

from __future__ import annotations

from collections.abc import Mapping

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.notify.messages import KINDS, MODES, default_mode
from app.store.tables import NotificationPreference

DIGEST = "digest"  # an unsubscribe link in a digest turns off every kind the user gets as a digest


class UnsubscribeLinks:
    """Signed, non-expiring tokens naming (user, kind): a link in a year-old mail still works, and nobody can
    make one for somebody else without SECRET_KEY."""

    def __init__(self, secret_key: str, base_url: str) -> None:
        self._serializer = URLSafeSerializer(secret_key, salt="unsubscribe")
        self.base_url = base_url.rstrip("/")

    def token(self, user_id: int, kind: str) -> str:
        return self._serializer.dumps([user_id, kind])

    def url(self, user_id: int, kind: str) -> str:
        return f"{self.base_url}/unsubscribe/{self.token(user_id, kind)}"

    def read(self, token: str) -> tuple[int, str] | None:
        """(user id, kind) of a genuine token; None for anything forged, altered or malformed."""
        try:
            data = self._serializer.loads(token)
        except BadSignature:
            return None
        if isinstance(data, list) and len(data) == 2 and isinstance(data[0], int) and data[1] in (*KINDS, DIGEST):
            return data[0], data[1]
        return None


async def modes(session: AsyncSession, user_id: int) -> dict[str, str]:
    """Every kind's mode for `user_id`, defaults filled in."""
    rows = await session.execute(
        select(NotificationPreference.kind, NotificationPreference.mode).where(
            NotificationPreference.user_id == user_id
        )
    )
    chosen = dict(rows.all())
    return {kind: chosen.get(kind, default_mode(kind)) for kind in KINDS}


async def set_modes(session: AsyncSession, user_id: int, changes: Mapping[str, str]) -> None:
    """Store the modes in `changes` (kinds and modes must be known: ValueError otherwise)."""
    for kind, mode in changes.items():
        if kind not in KINDS or mode not in MODES:
            raise ValueError(f"unknown kind or mode: {kind}={mode}")
    if not changes:
        return
    statement = insert(NotificationPreference).values(
        [{"user_id": user_id, "kind": kind, "mode": mode} for kind, mode in changes.items()]
    )
    await session.execute(
        statement.on_conflict_do_update(
            index_elements=[NotificationPreference.user_id, NotificationPreference.kind],
            set_={"mode": statement.excluded.mode},
        )
    )


async def unsubscribe(session: AsyncSession, user_id: int, kind: str, *, every_kind: bool = False) -> None:
    """Turn off `kind` (a digest's link: every kind sent as a digest; `every_kind`: all mail)."""
    if every_kind:
        await set_modes(session, user_id, dict.fromkeys(KINDS, "off"))
    elif kind == DIGEST:
        current = await modes(session, user_id)
        await set_modes(session, user_id, {k: "off" for k, mode in current.items() if mode == DIGEST})
    else:
        await set_modes(session, user_id, {kind: "off"})
