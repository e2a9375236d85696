"""CSRF protection for the HTML forms: a synchronizer token kept in the signed session cookie.

The token is random (`secrets`) and lives in Starlette's session, which itsdangerous signs with SECRET_KEY, so a
third-party site can neither read nor forge it. Every form carries it in a hidden field and htmx sends it in the
`X-CSRF-Token` header; a POST whose token does not match the session's is refused before it does anything. The
session cookie is also SameSite=Lax, which already keeps it off cross-site POSTs in current browsers.
"""

from __future__ import annotations

import secrets

from fastapi import Request

from app.play.errors import NotAllowed

SESSION_KEY = "csrf"
FIELD = "csrf_token"
HEADER = "x-csrf-token"


def token(request: Request) -> str:
    """This browser's token, created on first use."""
    value = request.session.get(SESSION_KEY)
    if not isinstance(value, str) or not value:
        value = secrets.token_urlsafe(32)
        request.session[SESSION_KEY] = value
    return value


def check(request: Request, submitted: str | None) -> None:
    """Refuse the request unless `submitted` (form field) or the header carries this session's token."""
    expected = request.session.get(SESSION_KEY)
    given = submitted or request.headers.get(HEADER) or ""
    if not isinstance(expected, str) or not expected or not secrets.compare_digest(expected, given):
        raise NotAllowed(
            "csrf_failed", "This form has expired or did not come from this site; reload the page and try again."
        )
