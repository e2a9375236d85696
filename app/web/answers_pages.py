"""A seated player's answers ahead for one game (issue 26): the standing answer to permission requests there, on a
page of its own linked from the table (the table's reads stay as they are), and saved behind CSRF."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.i18n import gettext
from app.play import answers
from app.play.accounts import Account
from app.play.errors import NotAllowed, PlayError
from app.web import csrf
from app.web.deps import OptionalAccount, SessionDep
from app.web.fields import Id
from app.web.forms import FormStr, OptionalFormStr
from app.web.labels import ANSWER_LABELS
from app.web.rendering import render, said, to_login

router = APIRouter(include_in_schema=False)


async def _page(request: Request, account: Account, session: SessionDep, game_id: int, status: int = 200,
                notice: str | None = None) -> Response:
    try:
        current = await answers.permission_answer(session, account, game_id)
    except PlayError as exc:
        return render(request, "pages/error.html", account, status=403 if isinstance(exc, NotAllowed) else 404,
                      message=said(exc))
    return render(request, "pages/game_answers.html", account, status=status, notice=notice, game_id=game_id,
                  current=current, labels=ANSWER_LABELS["permission"])


@router.get("/games/{game_id}/answers")
async def answers_page(request: Request, game_id: Id, account: OptionalAccount, session: SessionDep) -> Response:
    if account is None:
        return to_login(request)
    return await _page(request, account, session, game_id)


@router.post("/games/{game_id}/answers")
async def save_answers(request: Request, game_id: Id, account: OptionalAccount, session: SessionDep,
                       permission: FormStr = "ask", csrf_token: OptionalFormStr = None) -> Response:
    """The caller's standing answer to later permission requests in this game."""
    if account is None:
        return to_login(request)
    try:
        csrf.check(request, csrf_token)
        await answers.set_permission_answer(session, account, game_id, permission)
    except PlayError as exc:
        status = 403 if isinstance(exc, NotAllowed) else 404 if exc.code == "game_not_found" else 422
        return render(request, "pages/error.html", account, status=status, message=said(exc))
    await session.commit()
    return await _page(request, account, session, game_id, notice=gettext("Your answer is saved."))
