"""Changing an account's address: the new address is used only once the link mailed to it is followed.

Why: a mistyped address would otherwise take every mail of the account, password resets included, somewhere its
owner never reads, and nothing would tell them. The link's token names the account, the new address and a
fingerprint of the address it replaces, signed with the signing key and timestamped: once the account's address
has changed (by this link or in any other way) the fingerprint no longer matches, so a link works once and no table
is needed. The token is made when the mail is written (app.notify.worker), so no usable token is ever stored.

Following the link needs no sign-in (it proves the new address is the account owner's, and only a signed-in owner
who gave the password could have it sent); the page asks to confirm with a button, since mail scanners open links.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.tables import User

MAIL = "email_confirm"  # the kind of mail (app.notify.messages); always sent, whatever the mail settings
LINK_LIFETIME = timedelta(hours=24)


def fingerprint(email: str) -> str:
    """A short digest of an address: enough to notice it changed, and the token does not show it."""
    return hashlib.sha256(email.lower().encode()).hexdigest()[:16]


class EmailLinks:
    """Issues and reads the tokens of the links that confirm a new address."""

    def __init__(self, secret_key: str, base_url: str, lifetime: timedelta = LINK_LIFETIME) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="email-change")
        self.base_url = base_url.rstrip("/")
        self.lifetime = lifetime

    def token(self, user_id: int, new_email: str, current_email: str) -> str:
        return self._serializer.dumps([user_id, new_email.lower(), fingerprint(current_email)])

    def url(self, user_id: int, new_email: str, current_email: str) -> str:
        return f"{self.base_url}/settings/email/confirm/{self.token(user_id, new_email, current_email)}"

    def read(self, token: str) -> tuple[int, str, str] | None:
        """(user id, new address, fingerprint of the address it replaces) of a genuine token younger than the
        lifetime; None for anything else."""
        try:
            data = self._serializer.loads(token, max_age=int(self.lifetime.total_seconds()))
        except BadSignature:
            return None
        if isinstance(data, list) and len(data) == 3 and isinstance(data[0], int) and all(
            isinstance(part, str) for part in data[1:]
        ):
            return data[0], data[1], data[2]
        return None


@dataclass(frozen=True, slots=True)
class Pending:
    """A confirmation link that is still good: whose address it changes, from what, to what."""

    user_id: int
    username: str
    current_email: str
    new_email: str


async def pending(session: AsyncSession, links: EmailLinks, token: str) -> Pending | None:
    """What the link `token` would change; None for a forged or expired link, or one whose account's address has
    changed since it was sent (a used link among them)."""
    read = links.read(token)
    if read is None:
        return None
    user_id, new_email, previous = read
    user = await session.get(User, user_id)
    if user is None or user.email is None or fingerprint(user.email) != previous:
        return None
    return Pending(user.id, user.username, user.email, new_email)
