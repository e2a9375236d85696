"""Credentials: signed bearer tokens for the API, the signed session cookie for browsers.

Both are signed with SECRET_KEY by itsdangerous and carry only the user id; the account is looked up on every
request, so a deleted account loses access at once.
"""

from __future__ import annotations

from itsdangerous import BadSignature, URLSafeTimedSerializer

SESSION_USER_KEY = "uid"


class TokenSigner:
    """Issues and checks API access tokens."""

    def __init__(self, secret_key: str, max_age_seconds: int) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="api-access-token")
        self.max_age_seconds = max_age_seconds

    def issue(self, user_id: int) -> str:
        return self._serializer.dumps({SESSION_USER_KEY: user_id})

    def user_id(self, token: str) -> int | None:
        """The user id inside a valid, unexpired token; None for anything else."""
        try:
            data = self._serializer.loads(token, max_age=self.max_age_seconds)
        except BadSignature:
            return None
        uid = data.get(SESSION_USER_KEY) if isinstance(data, dict) else None
        return uid if isinstance(uid, int) else None
