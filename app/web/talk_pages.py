"""The table's chat box and notes box as HTML: the chat log re-read when the live stream announces a message,
the chat's and the notes' forms (htmx swaps the box; without JavaScript, post/redirect/get to the table).

Handlers parse, call the chat or the notes, and render; every POST checks the CSRF token first. Chat texts are
escaped by Jinja like everything else a player writes.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import ValidationError

from app.play.accounts import Account
from app.play.errors import PlayError, TooMany
from app.web import csrf, talk
from app.web.deps import ChatDep, NotesDep, OptionalAccount, PositionsDep
from app.web.fields import Id
from app.web.forms import FormStr, OptionalFormStr
from app.web.rendering import is_htmx, redirect, render, said, to_login
from app.web.schemas import ChatIn, NotesIn

router = APIRouter(include_in_schema=False)


def _refused(request: Request, account: Account, exc: PlayError) -> Response:
    status = 429 if isinstance(exc, TooMany) else 403
    response = render(request, "pages/error.html", account, status=status, message=said(exc))
    if isinstance(exc, TooMany):
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


@router.get("/games/{game_id}/chat")
async def chat_log(request: Request, game_id: Id, account: OptionalAccount, positions: PositionsDep) -> Response:
    """The chat log alone: what the table swaps in when its stream announces a message."""
    if account is None:
        return to_login(request)
    game = await positions.summary(game_id)
    return render(request, "partials/chat_log.html", account, game=game, **await talk.chat_context(request, game))


@router.post("/games/{game_id}/chat")
async def post_chat(
    request: Request,
    game_id: Id,
    account: OptionalAccount,
    positions: PositionsDep,
    chat: ChatDep,
    text: FormStr = "",
    csrf_token: OptionalFormStr = None,
) -> Response:
    if account is None:
        return to_login(request)
    error: str | None = None
    try:
        csrf.check(request, csrf_token)
        await chat.post(account, game_id, ChatIn(text=text).text)
    except ValidationError:
        error = "A message has 1 to 1000 characters, without control characters."
    except PlayError as exc:
        if not is_htmx(request):
            return _refused(request, account, exc)
        error = said(exc)
    if not is_htmx(request):
        return redirect(f"/games/{game_id}") if error is None else render(
            request, "pages/error.html", account, status=422, message=error)
    game = await positions.summary(game_id)
    context: dict[str, Any] = await talk.chat_context(request, game)
    return render(request, "partials/chat_log.html", account, game=game, chat_error=error, **context)


@router.post("/games/{game_id}/notes")
async def save_notes(
    request: Request,
    game_id: Id,
    account: OptionalAccount,
    positions: PositionsDep,
    notes: NotesDep,
    text: FormStr = "",
    csrf_token: OptionalFormStr = None,
) -> Response:
    if account is None:
        return to_login(request)
    try:
        csrf.check(request, csrf_token)
        saved = await notes.write(account, game_id, NotesIn(text=text).text)
    except ValidationError:
        return render(request, "pages/error.html", account, status=422,
                      message="Notes have up to 10,000 characters, without control characters other than line breaks.")
    except PlayError as exc:
        return _refused(request, account, exc)
    if not is_htmx(request):
        return redirect(f"/games/{game_id}")
    game = await positions.summary(game_id)
    return render(request, "partials/notes.html", account, game=game, notes=saved, notes_saved=True)
