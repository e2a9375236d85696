"""The language of each request, and the footer's switcher that chooses it.

A request speaks the signed-in account's language when it has one (set in `deps`, once the account is known),
else the language the footer's switcher left in the `lang` cookie, else the best one of the browser's
Accept-Language, else English. The switcher is a plain form (it works without JavaScript); for a signed-in player
it also saves the choice as the account's setting, which their mails follow.
"""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

import app.i18n as i18n
from app.play.accounts import set_language
from app.play.errors import NotAllowed
from app.web import csrf
from app.web.deps import OptionalAccount, SessionDep
from app.web.pages import redirect, render, safe_next, said

COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600

router = APIRouter(include_in_schema=False)


def _header(scope: Scope, name: bytes) -> str:
    return next((value.decode("latin-1") for key, value in scope.get("headers", ()) if key == name), "")


def browser_language(scope: Scope) -> str:
    """The request's language before the account is known: the switcher's cookie, else Accept-Language."""
    cookie = SimpleCookie()
    try:
        cookie.load(_header(scope, b"cookie"))
    except CookieError:  # a malformed Cookie header only loses the choice
        cookie = SimpleCookie()
    chosen = cookie.get(COOKIE)
    return (chosen and i18n.supported(chosen.value)) or i18n.negotiate(_header(scope, b"accept-language")) \
        or i18n.DEFAULT


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


@router.post("/language")
async def choose_language(
    request: Request,
    account: OptionalAccount,
    session: SessionDep,
    language: Annotated[str, Form()],
    next: Annotated[str | None, Form()] = None,
    csrf_token: Annotated[str | None, Form()] = None,
) -> Response:
    """The footer's switcher: remember the language in a cookie (and as the account's setting), then go back."""
    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return render(request, "pages/error.html", account, status=403, message=said(exc))
    chosen = i18n.supported(language) or i18n.DEFAULT
    if account is not None:
        await set_language(session, account.id, chosen)
        await session.commit()
    response = redirect(safe_next(next))
    response.set_cookie(COOKIE, chosen, max_age=COOKIE_MAX_AGE, samesite="lax",
                        secure=request.app.state.settings.cookie_secure)
    return response
