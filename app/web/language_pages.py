"""The footer's language switcher: a plain form (it works without JavaScript) that leaves the choice in the
`lang` cookie, which `app.web.language` reads on every request, and for a signed-in player also saves it as the
account's setting, which their mails follow."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

import app.i18n as i18n
from app.play.accounts import set_language
from app.play.errors import NotAllowed
from app.web import csrf
from app.web.deps import OptionalAccount, SessionDep
from app.web.language import COOKIE, COOKIE_MAX_AGE
from app.web.rendering import redirect, render, safe_next, said

router = APIRouter(include_in_schema=False)


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
