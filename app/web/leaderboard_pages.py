"""The leaderboard page `/leaderboard`: the rated players best first, provisional ones left out, by table size
on request (`app.play.standing.leaderboard`, the same list as `GET /api/v1/leaderboard`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.play.ratings import PROVISIONAL_BELOW
from app.play.standing import leaderboard
from app.web.deps import OptionalAccount, PositionsDep
from app.web.rendering import render, to_login

router = APIRouter(include_in_schema=False)
SIZES = range(2, 7)  # the table sizes the filter offers


def size_of(players: str) -> int | None:
    """The filter's table size; None (every size) for an empty or unknown choice."""
    return int(players) if players.isdigit() and int(players) in SIZES else None


@router.get("/leaderboard")
async def leaderboard_page(request: Request, account: OptionalAccount, positions: PositionsDep,
                           players: str = "") -> Response:
    if account is None:
        return to_login(request)
    size = size_of(players)
    ranked = await leaderboard(positions.db, size)
    return render(request, "pages/leaderboard.html", account, ranked=ranked, size=size, sizes=SIZES,
                  provisional_below=PROVISIONAL_BELOW)
