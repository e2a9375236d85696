"""The table's pages (see docs/api.md "Pages"): the table, a past position of it, a move or an undo made from
it, and taking one's seat back from the bot; requests made by htmx (`HX-Request`) get the board fragment instead
of the whole page. The table's chat and notes are `talk_pages`.

Handlers parse, call the write path or the reads, and render; every POST checks the CSRF token first. What a seat
sees is built only from `player_view` and `legal_moves` for that seat (through `Positions`, the reads of
`app.play.positions`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from app.i18n import N_, gettext
from app.play.accounts import Account
from app.play.commands import PlayerMove, Undo
from app.play.errors import Conflict, NotAllowed, PlayError, TooMany
from app.play.positions import Positions
from app.play.service import GameService
from app.web import csrf, present, talk
from app.web.deps import OptionalAccount, PositionsDep, ServiceDep
from app.web.fields import MAX_INTEGER, Id
from app.web.forms import FormStr, OptionalFormStr, csrf_failed, table_command
from app.web.game_rows import deadlines, game_row
from app.web.rendering import is_htmx, redirect, render, said, to_login
from app.web.table_view import board_context, history_controls, past_context

router = APIRouter(include_in_schema=False)
LOG_LENGTH = 80
STALE_NOTICE = N_("The game moved on before your click arrived: here is the table as it is now. Please choose again.")


@router.get("/games/{game_id}")
async def table(
    request: Request,
    game_id: Id,
    account: OptionalAccount,
    positions: PositionsDep,
    at: Annotated[int | None, Query(ge=1, le=MAX_INTEGER)] = None,
) -> Response:
    """The table; with `at=N`, the game as the viewer saw it at position N, with controls to step through it."""
    if account is None:
        return to_login(request)
    if at is not None:
        return await _render_past(request, account, positions, game_id, at)
    return await _render_table(request, account, positions, game_id)


@router.post("/games/{game_id}/moves")
async def move(
    request: Request,
    game_id: Id,
    account: OptionalAccount,
    service: ServiceDep,
    positions: PositionsDep,
    seq: FormStr,
    move: FormStr,
    csrf_token: OptionalFormStr = None,
) -> Response:
    """A move chosen on the table (`GameService.apply(PlayerMove)`)."""
    def command(user_id: int, seen: int) -> PlayerMove:
        parsed = json.loads(move)
        if not isinstance(parsed, dict):
            raise ValueError
        return PlayerMove(user_id, game_id, seen, parsed)

    return await _change_table(request, account, service, positions, game_id, seq, csrf_token, command)


@router.post("/games/{game_id}/undo")
async def undo(
    request: Request,
    game_id: Id,
    account: OptionalAccount,
    service: ServiceDep,
    positions: PositionsDep,
    seq: FormStr,
    csrf_token: OptionalFormStr = None,
) -> Response:
    """The table's Undo button: take back one's last move (`GameService.apply(Undo)`)."""
    return await _change_table(request, account, service, positions, game_id, seq, csrf_token,
                               lambda user_id, seen: Undo(user_id, game_id, seen))


async def _change_table(
    request: Request,
    account: Account | None,
    service: GameService,
    positions: Positions,
    game_id: int,
    seq: str,
    csrf_token: str | None,
    command: Callable[[int, int], PlayerMove | Undo],
) -> Response:
    """A move or an undo from the table: check the CSRF token, read the form into a command (`command` raises
    ValueError when it cannot), apply it, and show the table again with what went wrong, if anything."""
    if account is None:
        return to_login(request)
    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return csrf_failed(request, account, exc)
    notice = error = None
    status = 200
    try:
        seen = int(seq)
        if seen < 0:
            raise ValueError
        asked = command(account.id, seen)
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than the parser goes
        error, status = gettext("That choice could not be read; please choose again."), 422
    else:
        try:
            await service.apply(asked)
        except Conflict as exc:
            status = 409
            if exc.code == "stale_seq":
                notice = gettext(STALE_NOTICE)
            else:
                error = said(exc)
        except TooMany as exc:
            error, status = said(exc), 429
        except PlayError as exc:
            error, status = said(exc), 403 if isinstance(exc, NotAllowed) else 422
    if status == 200 and not is_htmx(request):
        return redirect(f"/games/{game_id}")  # post/redirect/get without JavaScript
    return await _render_table(request, account, positions, game_id, notice=notice, error=error,
                               status=200 if is_htmx(request) else status)


async def _render_table(
    request: Request,
    account: Account,
    positions: Positions,
    game_id: int,
    *,
    notice: str | None = None,
    error: str | None = None,
    status: int = 200,
) -> Response:
    """The table page, or its board alone for htmx (a move's answer, the live refresh), from ONE read of the
    game (`Positions.table`): the summary, the view, the moves and the log all at the same seq, and for the whole
    page the chat and the notes in the summary's statement."""
    started = time.perf_counter()
    board_only = is_htmx(request)
    try:
        read = await positions.table(account, game_id, LOG_LENGTH, chat=0 if board_only else talk.CHAT_SHOWN)
        if read.board is None and read.talk is None:  # the board asked for at a table still open: its whole page
            read = await positions.table(account, game_id, LOG_LENGTH, chat=talk.CHAT_SHOWN)
    except PlayError as exc:
        return render(request, "pages/error.html", account, status=404, message=said(exc))
    summary = read.summary
    talked = talk.talk_context(account, summary, read.talk) if read.talk is not None else {}
    if read.board is None:
        return render(request, "pages/waiting.html", account, game=summary, row=game_row(account, summary),
                      invited=account.username in summary.invited, **talked,
                      variants=present.variant_badges(summary.variants), deadlines=deadlines(summary))
    context = board_context(summary, read.board, read.waiting)
    context.update(notice=notice, error=error, render_ms=round((time.perf_counter() - started) * 1000, 1))
    if board_only:
        return render(request, "partials/board.html", account, status=status, **context)
    return render(request, "pages/game.html", account, status=status, **context, **talked)


async def _render_past(request: Request, account: Account, positions: Positions, game_id: int, at: int) -> Response:
    """A past position: the table as the viewer saw it then (no choices, no live refresh) and the history's
    controls (`partials/history.html`)."""
    started = time.perf_counter()
    try:
        position = await positions.history(account, game_id, at)
    except PlayError as exc:
        return render(request, "pages/error.html", account, status=404, message=said(exc))
    context = past_context(position, LOG_LENGTH)
    context.update(my_turn=False, history=history_controls(position),
                   render_ms=round((time.perf_counter() - started) * 1000, 1))
    return render(request, "pages/game.html", account, **context)


@router.post("/games/{game_id}/seat/back")
async def take_seat_back(
    request: Request, game_id: Id, account: OptionalAccount, service: ServiceDep, csrf_token: OptionalFormStr = None
) -> Response:
    """Play one's seat again after the bot played it while one's time had run out."""
    return await table_command(request, account, csrf_token, game_id, service.take_seat_back)
