"""Password reset by mail: a signed link that works once and for an hour.

The link's token names the account and a fingerprint of its password hash and of its address, signed with the
signing key and timestamped. Setting a password changes the hash (argon2 salts every hash afresh, even for the
same password), so a used link, or any link older than the last password change, no longer matches: single use
needs no table. Changing the address changes the fingerprint too: a link mailed to an address the account has
left (a mailbox its owner may have lost, or that a thief still reads) is void from that moment.
The token is made when the mail is written (app.notify.worker), so no usable token is ever stored.

Asking for a link answers the same whether or not the address belongs to an account, and is limited per
address asked for and per client address (app.play.sign_in_limits, counted apart from sign-ins).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.errors import TooMany, TooManyAttempts
from app.play.sign_in_limits import RESET_SCOPES, Limits, reserve
from app.store.tables import Outbox, User

MAIL = "password_reset"  # the kind of mail (app.notify.messages); always sent, whatever the mail settings
LINK_LIFETIME = timedelta(hours=1)
REQUEST_LIMITS = Limits(per_account=3, per_address=10, window=timedelta(hours=1))


def fingerprint(password_hash: str, email: str | None) -> str:
    """A short digest of the hash and the address: enough to notice either changed, useless for guessing the
    password, and the token does not show the address."""
    return hashlib.sha256(f"{password_hash}\n{(email or '').lower()}".encode()).hexdigest()[:16]


class ResetLinks:
    """Issues and reads the tokens of reset links."""

    def __init__(self, secret_key: str, base_url: str, lifetime: timedelta = LINK_LIFETIME) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="password-reset")
        self.base_url = base_url.rstrip("/")
        self.lifetime = lifetime

    def token(self, user_id: int, password_hash: str, email: str | None) -> str:
        return self._serializer.dumps([user_id, fingerprint(password_hash, email)])

    def url(self, user_id: int, password_hash: str, email: str | None) -> str:
        return f"{self.base_url}/password/reset/{self.token(user_id, password_hash, email)}"

    def read(self, token: str) -> tuple[int, str] | None:
        """(user id, fingerprint) of a genuine token younger than the lifetime; None for anything else."""
        try:
            data = self._serializer.loads(token, max_age=int(self.lifetime.total_seconds()))
        except BadSignature:
            return None
        if isinstance(data, list) and len(data) == 2 and isinstance(data[0], int) and isinstance(data[1], str):
            return data[0], data[1]
        return None


@dataclass(frozen=True, slots=True)
class Pending:
    """A reset link that is still good: whose account it opens."""

    user_id: int
    username: str


async def request_link(session: AsyncSession, email: str, address: str, now: datetime) -> None:
    """Queue a reset mail to the account with `email`, if there is one (nothing tells the caller which).
    TooMany `too_many_requests` once the address asked for or the client's address used up its hour."""
    try:
        await reserve(session, REQUEST_LIMITS, email.strip(), address, now, RESET_SCOPES)
    except TooManyAttempts as exc:
        raise TooMany(
            "too_many_requests", "Too many reset mails were asked for; please wait and try again.",
            retry_after=exc.retry_after,
        ) from exc
    user_id = await session.scalar(select(User.id).where(User.email == email.strip().lower()))
    if user_id is not None:
        session.add(Outbox(kind="mail", recipient_id=user_id, next_attempt_at=now, payload={"message": MAIL}))
    await session.commit()


async def pending(session: AsyncSession, links: ResetLinks, token: str) -> Pending | None:
    """The account `token` may set a new password for: None when the token is forged, expired or used, or the
    account's password or address changed since it was made."""
    read = links.read(token)
    if read is None:
        return None
    user = await session.get(User, read[0], with_for_update=True)  # two uses of one link: the second waits, then fails
    if user is None or fingerprint(user.password_hash, user.email) != read[1]:
        return None
    return Pending(user.id, user.username)
