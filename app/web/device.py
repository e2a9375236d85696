"""The device cookie (OWASP Authentication Cheat Sheet, "device cookies"): a browser that signed in to an account
once carries a signed cookie naming it, and its later sign-ins to that account are held up by the limit per
account and address only, never by the account's slowdown an attacker elsewhere caused (app.play.sign_in_limits).

The cookie outlives sign-outs (it proves a past sign-in, not a present one) and signs nothing in by itself: the
password is checked as always.
"""

from __future__ import annotations

import secrets

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

DEVICE_COOKIE = "carson_device"
MAX_AGE_SECONDS = 365 * 24 * 3600


class DeviceCookies:
    """Sets and reads the device cookie, signed with the site's key."""

    def __init__(self, secret_key: str, *, secure: bool) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="device-cookie")
        self.secure = secure

    def remember(self, response: Response, username: str) -> None:
        """Give the browser the cookie of `username`, after a successful sign-in (a random nonce makes each one
        different)."""
        value = self._serializer.dumps({"u": username.lower(), "n": secrets.token_urlsafe(8)})
        response.set_cookie(DEVICE_COOKIE, value, max_age=MAX_AGE_SECONDS, httponly=True, samesite="lax",
                            secure=self.secure)

    def known(self, request: Request, username: str) -> bool:
        """Whether the request carries a genuine cookie of `username` (in any case) not older than a year."""
        value = request.cookies.get(DEVICE_COOKIE)
        if value is None:
            return False
        try:
            data = self._serializer.loads(value, max_age=MAX_AGE_SECONDS)
        except BadSignature:
            return False
        return isinstance(data, dict) and data.get("u") == username.lower()


def device_cookies(request: Request) -> DeviceCookies:
    """The application's device cookies."""
    devices: DeviceCookies = request.app.state.devices
    return devices
