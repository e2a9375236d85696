"""What the pages' forms share: the types of their fields, the page a failed CSRF check answers with, and a
table's buttons (join, leave, decline, start, take one's seat back, invite), which all run one command the same
way."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, Response

from app.play.accounts import Account
from app.play.errors import NotAllowed, PlayError, TooMany
from app.web import csrf
from app.web.fields import Text
from app.web.rendering import redirect, render, said, to_login

FormStr = Annotated[str, Form()]
FormText = Annotated[Text, Form()]
OptionalFormStr = Annotated[str | None, Form()]


def csrf_failed(request: Request, account: Account | None, exc: PlayError) -> HTMLResponse:
    """The answer to a form whose CSRF token did not check out."""
    return render(request, "pages/error.html", account, status=403, message=said(exc))


async def table_command(request: Request, account: Account | None, csrf_token: str | None, game_id: int,
                        command: Callable[[Account, int], Awaitable[object]], then: str | None = None) -> Response:
    """Join, leave, decline or start a table from the lobby or its page: check the CSRF token, run the command,
    show the table (or `then`)."""
    if account is None:
        return to_login(request)
    try:
        csrf.check(request, csrf_token)
        await command(account, game_id)
    except PlayError as exc:
        status = 429 if isinstance(exc, TooMany) else 403 if isinstance(exc, NotAllowed) else 409
        response = render(request, "pages/error.html", account, status=status, message=said(exc))
        if isinstance(exc, TooMany):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response
    return redirect(then or f"/games/{game_id}")
