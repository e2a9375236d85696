"""The leaderboard page `/leaderboard`: the rated players best first, provisional ones left out, by table size
on request, `PAGE_SIZE` a page (`app.play.standing.leaderboard`, the same list as `GET /api/v1/leaderboard`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.play.ratings import PROVISIONAL_BELOW
from app.play.standing import leaderboard
from app.web.deps import OptionalAccount, PositionsDep
from app.web.rendering import render, to_login

router = APIRouter(include_in_schema=False)
SIZES = range(2, 7)  # the table sizes the filter offers
PAGE_SIZE = 50


def size_of(players: str) -> int | None:
    """The filter's table size; None (every size) for an empty or unknown choice."""
    return int(players) if players.isdigit() and int(players) in SIZES else None


def page_of(page: str) -> int:
    """The page asked for, counted from 1; the first for anything else."""
    return int(page) if page.isdigit() and 0 < int(page) < 10**6 else 1


@router.get("/leaderboard")
async def leaderboard_page(request: Request, account: OptionalAccount, positions: PositionsDep,
                           players: str = "", page: str = "") -> Response:
    if account is None:
        return to_login(request)
    size, number = size_of(players), page_of(page)
    board = await leaderboard(positions.db, size, PAGE_SIZE, (number - 1) * PAGE_SIZE)
    pages = max(1, -(-board.total // PAGE_SIZE))
    return render(request, "pages/leaderboard.html", account, board=board, size=size, sizes=SIZES, page=number,
                  pages=pages, provisional_below=PROVISIONAL_BELOW)
