"""Credentials: signed bearer tokens for the API, the signed session cookie for browsers.

Both carry only a random session id (app.play.sessions), signed with the signing key by itsdangerous (Starlette's
SessionMiddleware signs the cookie); the sessions table decides on every request whether that id still signs
anybody in, so a sign-out or a password change revokes a copied token or cookie at once.
"""

from __future__ import annotations

import time

from fastapi import Request
from itsdangerous import BadSignature, URLSafeTimedSerializer

SESSION_COOKIE = "carson_session"
SESSION_ID_KEY = "sid"


class TokenSigner:
    """Issues and checks API access tokens. A token checked once is remembered with the time it was signed (up
    to `remembered` of them; the first remembered is the first forgotten): a client sends the same token with
    every request, and checking its signature again cost more of a move's CPU than the rest of the sign-in. Its
    age is still checked on every use, so a remembered token expires exactly when it would have."""

    def __init__(self, secret_key: str, max_age_seconds: int, remembered: int = 4096) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="api-access-token")
        self.max_age_seconds = max_age_seconds
        self.remembered = remembered
        self._checked: dict[str, tuple[str, int]] = {}  # token -> (session id, signed at, Unix seconds)

    def issue(self, session_id: str) -> str:
        return self._serializer.dumps({SESSION_ID_KEY: session_id})

    def session_id(self, token: str) -> str | None:
        """The session id inside a genuine token not older than its lifetime; None for anything else."""
        known = self._checked.get(token)
        if known is not None:
            session_id, signed_at = known
            # As itsdangerous judges a token's age: whole seconds, neither older than the lifetime nor from later.
            return session_id if 0 <= int(time.time()) - signed_at <= self.max_age_seconds else None
        try:
            data, signed = self._serializer.loads(token, max_age=self.max_age_seconds, return_timestamp=True)
        except BadSignature:
            return None
        found = data.get(SESSION_ID_KEY) if isinstance(data, dict) else None
        if not isinstance(found, str):
            return None
        if len(self._checked) >= self.remembered:
            del self._checked[next(iter(self._checked))]  # the first remembered
        self._checked[token] = (found, int(signed.timestamp()))
        return found


def hold_in_cookie(request: Request, session_id: str) -> None:
    """Make the browser's cookie carry `session_id`, in a new cookie session (with a new CSRF token)."""
    request.session.clear()
    request.session[SESSION_ID_KEY] = session_id


def cookie_session_id(request: Request) -> str | None:
    """The session id the browser's cookie carries, if any."""
    session_id = request.session.get(SESSION_ID_KEY)
    return session_id if isinstance(session_id, str) else None
