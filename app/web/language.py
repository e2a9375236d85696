"""The language of each request (the footer's switcher that chooses it is `language_pages`).

A request speaks the signed-in account's language when it has one (set in `deps`, once the account is known),
else the language the footer's switcher left in the `lang` cookie, else the best one of the browser's
Accept-Language, else English. The switcher is a plain form (it works without JavaScript); for a signed-in player
it also saves the choice as the account's setting, which their mails follow.
"""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie

from starlette.types import ASGIApp, Receive, Scope, Send

import app.i18n as i18n

COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600


def _header(scope: Scope, name: bytes) -> str:
    return next((value.decode("latin-1") for key, value in scope.get("headers", ()) if key == name), "")


def browser_language(scope: Scope) -> str:
    """The request's language before the account is known: the switcher's cookie, else Accept-Language. A request
    without either header (a program's, such as every move of a client of the API) parses neither."""
    cookies, accepted = _header(scope, b"cookie"), _header(scope, b"accept-language")
    return (cookies and _chosen(cookies)) or (accepted and i18n.negotiate(accepted)) or i18n.DEFAULT


def _chosen(cookies: str) -> str | None:
    """The supported language the switcher's cookie names in a Cookie header, if any."""
    cookie = SimpleCookie()
    try:
        cookie.load(cookies)
    except CookieError:  # a malformed Cookie header only loses the choice
        return None
    chosen = cookie.get(COOKIE)
    return i18n.supported(chosen.value) if chosen else None


class RequestLanguage:
    """Speak the browser's language for the length of each request (`deps` may switch to the account's)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with i18n.speaking(browser_language(scope)):
            await self.app(scope, receive, send)
