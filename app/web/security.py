"""Credentials: signed bearer tokens for the API, the signed session cookie for browsers.

Both carry only a random session id (app.play.sessions), signed with the signing key by itsdangerous (Starlette's
SessionMiddleware signs the cookie); the sessions table decides on every request whether that id still signs
anybody in, so a sign-out or a password change revokes a copied token or cookie at once.
"""

from __future__ import annotations

from fastapi import Request
from itsdangerous import BadSignature, URLSafeTimedSerializer

SESSION_COOKIE = "carson_session"
SESSION_ID_KEY = "sid"


class TokenSigner:
    """Issues and checks API access tokens."""

    def __init__(self, secret_key: str, max_age_seconds: int) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="api-access-token")
        self.max_age_seconds = max_age_seconds

    def issue(self, session_id: str) -> str:
        return self._serializer.dumps({SESSION_ID_KEY: session_id})

    def session_id(self, token: str) -> str | None:
        """The session id inside a genuine token not older than its lifetime; None for anything else."""
        try:
            data = self._serializer.loads(token, max_age=self.max_age_seconds)
        except BadSignature:
            return None
        session_id = data.get(SESSION_ID_KEY) if isinstance(data, dict) else None
        return session_id if isinstance(session_id, str) else None


def hold_in_cookie(request: Request, session_id: str) -> None:
    """Make the browser's cookie carry `session_id`, in a new cookie session (with a new CSRF token)."""
    request.session.clear()
    request.session[SESSION_ID_KEY] = session_id


def cookie_session_id(request: Request) -> str | None:
    """The session id the browser's cookie carries, if any."""
    session_id = request.session.get(SESSION_ID_KEY)
    return session_id if isinstance(session_id, str) else None
