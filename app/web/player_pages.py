"""The player page `/players/{name}`: their rating with its history drawn as a chart, their reputation, their
finished games with results and win rate, and their running games. Usernames in the lobby, on the table and on
the leaderboard link here (`present.player_link`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.play.errors import PlayError
from app.play.profiles import player_record
from app.play.ratings import PROVISIONAL_BELOW
from app.web.deps import OptionalAccount, PositionsDep
from app.web.fields import Name
from app.web.rating_chart import chart_of
from app.web.rendering import render, said, to_login

router = APIRouter(include_in_schema=False)


@router.get("/players/{name}")
async def player_page(request: Request, name: Name, account: OptionalAccount, positions: PositionsDep) -> Response:
    if account is None:
        return to_login(request)
    try:
        record = await player_record(positions, account, name)
    except PlayError as exc:
        return render(request, "pages/error.html", account, status=404, message=said(exc))
    return render(request, "pages/player.html", account, record=record, chart=chart_of(record.history),
                  provisional_below=PROVISIONAL_BELOW)
