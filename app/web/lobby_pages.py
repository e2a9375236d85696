"""The lobby's pages (see docs/api.md "Pages"): the lobby and its live lists, the new-table form, and the
buttons that join, leave, decline, start a table or invite to it (`app.play.lobby.Lobby`).

Handlers parse, call the lobby or the reads, and render; every POST checks the CSRF token first.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from app.i18n import gettext
from app.play.accounts import Account
from app.play.errors import NotAllowed, PlayError, TooMany
from app.play.positions import GameSummary, Positions
from app.rules.catalog import PERSONALITIES
from app.rules.config import BASE_MAX_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, PLAYABLE_EXPANSIONS, SIDES
from app.web import bot_game, csrf, present, showcase, talk
from app.web.deps import LobbyDep, OptionalAccount, PositionsDep, client_address
from app.web.fields import Id
from app.web.forms import FormStr, FormText, OptionalFormStr, csrf_failed, table_command
from app.web.game_rows import free_seats, game_row, table_url
from app.web.rendering import may_create_games, redirect, render, said, to_login
from app.web.schemas import CreateGameIn

router = APIRouter(include_in_schema=False)
# The admin's choice of characters: the cards of the expansions players may open.
CARDS_BY_NUMBER = [card for card in sorted(PERSONALITIES.values(), key=lambda card: card.number)
                   if card.expansion is None or card.expansion in PLAYABLE_EXPANSIONS]
# The reputation a table may ask of those who join, as the new-game form offers it: the most games (in %) whose
# clock ran out; the API takes any whole percent.
TIMEOUT_LIMITS = (5, 10, 25, 50)
LOBBY_WATCHABLE = 20  # games being played that the lobby offers to watch, newest first
LOBBY_VIEWS = 20  # games whose decision the lobby names (one state read each)
LOBBY_RESULTS = 10  # finished games whose result the lobby shows (one state read each)


@router.get("/")
async def lobby_page(request: Request, account: OptionalAccount, positions: PositionsDep) -> Response:
    """The lobby for a signed-in player; the welcome page for anyone else."""
    if account is None:
        return render(request, "pages/welcome.html", None, **showcase.board_context(),
                      players_create=request.app.state.settings.players_create_games,
                      base_players=(MIN_PLAYERS, BASE_MAX_PLAYERS), max_players=MAX_PLAYERS)
    return render(request, "pages/lobby.html", account, **await _lobby_context(request, positions, account))


@router.get("/play/bot")
async def play_the_bot_form(request: Request, account: OptionalAccount) -> Response:
    """The way to a table against the bot: through the sign-up form for a visitor (which opens the table as it
    signs them in), from the lobby's button for a player."""
    return redirect("/signup?play=bot" if account is None else "/#play-bot")


@router.post("/play/bot")
async def play_the_bot(request: Request, account: OptionalAccount, lobby: LobbyDep,
                       csrf_token: OptionalFormStr = None) -> Response:
    """Open a table against the site's bot (`bot_game`) and go to it."""
    if account is None:
        return redirect("/signup?play=bot")
    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return csrf_failed(request, account, exc)
    try:
        summary = await bot_game.open_against_the_bot(lobby, account, client_address(request))
    except PlayError as exc:
        status = 429 if isinstance(exc, TooMany) else 403 if isinstance(exc, NotAllowed) else 422
        return render(request, "pages/error.html", account, status=status, message=said(exc))
    return redirect(table_url(summary.id))


@router.get("/next")
async def next_game(request: Request, account: OptionalAccount, positions: PositionsDep) -> Response:
    """The game that awaits the viewer the most urgently (`Positions.next_game`), or the lobby when none does."""
    if account is None:
        return to_login(request)
    found = await positions.next_game(account)
    return redirect(table_url(found.game_id) if found is not None else "/")


@router.get("/lobby/live")
async def lobby_live(request: Request, account: OptionalAccount, positions: PositionsDep, v: str = "") -> Response:
    """The lobby's games, polled by the open lobby (htmx, every LOBBY_REFRESH_SECONDS): 204 while nothing the
    viewer sees changed (htmx then leaves the page alone, and a half-filled form with it), else the fresh
    fragment; 286 (htmx: stop polling) once the viewer is signed out."""
    if account is None:
        return Response(status_code=286)
    context = await _lobby_context(request, positions, account)
    if context["version"] == v:
        return Response(status_code=204)
    return render(request, "partials/lobby_live.html", account, **context)


async def _lobby_context(request: Request, positions: Positions, account: Account) -> dict[str, Any]:
    """The lobby's lists: the viewer's invitations, their games by time left (`_by_time_left`), tables they may
    join, games to watch and their finished games; with a `version` that changes whenever any of it does."""
    mine, _ = await positions.list_games(account, mine=True, limit=100)
    open_games, _ = await positions.list_games(account, status="open", limit=100)
    finished, _ = await positions.list_games(account, status="finished", mine=True, limit=50)
    playing, _ = await positions.list_games(account, status="active", limit=LOBBY_WATCHABLE)
    invitations = await positions.pending_invitations(account)
    running = [g for g in mine if g.status != "finished"]
    rows = [await _lobby_row(positions, account, g, i < LOBBY_VIEWS) for i, g in enumerate(running)]
    rows.sort(key=_by_time_left)
    invited_to = {i.game.id for i in invitations}
    joinable = [game_row(account, g) for g in open_games
                if g.public and g.id not in invited_to and free_seats(g) > 0 and not talk.is_seated(account, g)]
    context: dict[str, Any] = {
        "mine": rows, "joinable": joinable,
        "invitations": [{**game_row(account, i.game), "invited_by": i.invited_by} for i in invitations],
        "finished": [await _finished_row(positions, account, g, i < LOBBY_RESULTS) for i, g in enumerate(finished)],
        "watchable": [game_row(account, g) for g in playing if g.seat_of(account.id) is None],
        "refresh_seconds": request.app.state.settings.lobby_refresh_seconds,
    }
    context["version"] = _lobby_version(context)
    return context


def _by_time_left(row: dict[str, Any]) -> tuple[bool, datetime, datetime, int]:
    """The lobby's order of the viewer's games, as `/next` picks: those awaiting them first, the clock that runs
    out soonest first, games without a clock after them, the turn that has waited the longest first."""
    latest = datetime.max.replace(tzinfo=UTC)
    game: GameSummary = row["game"]
    return not row["my_turn"], row["my_deadline"] or latest, game.updated_at or latest, game.id


def _lobby_version(context: dict[str, Any]) -> str:
    """A digest of everything the lobby shows (the games' heads, whose turn, seats, invitations, the clocks as
    shown), so a poll can tell "nothing changed" without sending the page."""
    shown = [
        [name, [[r["game"].id, r["game"].seq, r["game"].status, list(r["game"].to_act), r["names"],
                 list(r["game"].invited), r.get("decision", ""), r["deadlines"]] for r in context[name]]]
        for name in ("mine", "joinable", "invitations", "finished", "watchable")
    ]
    return hashlib.sha256(json.dumps(shown, default=str).encode()).hexdigest()[:16]


async def _finished_row(positions: Positions, account: Account, g: GameSummary, with_result: bool) -> dict[str, Any]:
    """A finished game of the lobby, with its result (the players by place, with their final totals)."""
    row = game_row(account, g)
    row["result"] = present.standings(await positions.view(account, g.id)) if with_result else []
    return row


async def _lobby_row(positions: Positions, account: Account, g: GameSummary, with_view: bool) -> dict[str, Any]:
    row = game_row(account, g)
    seat = g.seat_of(account.id)
    row["my_turn"] = g.status == "active" and seat is not None and seat in g.to_act
    row["my_deadline"] = next((s.deadline for s in g.seats if s.user_id == account.id), None)
    row["decision"] = ""
    row["waiting_for"] = ", ".join(g.usernames[s] for s in g.to_act if s < len(g.usernames))
    if row["my_turn"] and with_view:
        doc = await positions.view(account, g.id)
        row["decision"] = gettext(present.decision_text(doc.get("awaiting")))
    return row


@router.post("/games/{game_id}/join")
async def join(
    request: Request, game_id: Id, account: OptionalAccount, lobby: LobbyDep, csrf_token: OptionalFormStr = None
) -> Response:
    """Join a table, or accept one's invitation to it."""
    return await table_command(request, account, csrf_token, game_id, lobby.join)


@router.post("/games/{game_id}/leave")
async def leave(
    request: Request, game_id: Id, account: OptionalAccount, lobby: LobbyDep, csrf_token: OptionalFormStr = None
) -> Response:
    return await table_command(request, account, csrf_token, game_id, lobby.leave, then="/")


@router.post("/games/{game_id}/decline")
async def decline(
    request: Request, game_id: Id, account: OptionalAccount, lobby: LobbyDep, csrf_token: OptionalFormStr = None
) -> Response:
    return await table_command(request, account, csrf_token, game_id, lobby.decline, then="/")


@router.post("/games/{game_id}/start")
async def start(
    request: Request, game_id: Id, account: OptionalAccount, lobby: LobbyDep, csrf_token: OptionalFormStr = None
) -> Response:
    return await table_command(request, account, csrf_token, game_id, lobby.start)


@router.post("/games/{game_id}/invitations")
async def invite(
    request: Request,
    game_id: Id,
    account: OptionalAccount,
    lobby: LobbyDep,
    username: FormText,
    csrf_token: OptionalFormStr = None,
) -> Response:
    """The host invites a player by name from the table's waiting page."""

    async def inviting(account: Account, game_id: int) -> object:
        return await lobby.invite(account, game_id, username.strip(), client_address(request))

    return await table_command(request, account, csrf_token, game_id, inviting)


@router.get("/games/new")
async def new_game_form(request: Request, account: OptionalAccount) -> Response:
    if account is None:
        return to_login(request)
    if not may_create_games(request, account):
        return render(request, "pages/error.html", account, status=403,
                      message=gettext("Only an admin may create games."))
    return render(request, "pages/new_game.html", account, sides=SIDES, bot_levels=bot_levels(),
                  values={"seats": "2", "bots": "0", "bot_level": "normal", "sides": "yellow", "access": "public",
                          "start": "full", "invitation_days": "7", "rated": "yes", "max_timeout_percent": ""},
                  expansions=PLAYABLE_EXPANSIONS, cards=CARDS_BY_NUMBER, timeout_limits=TIMEOUT_LIMITS)


def bot_levels() -> list[tuple[str, str]]:
    """The bot levels the form offers, each with its name in the reader's language (API.md "Bot levels")."""
    return [("easy", gettext("Easy")), ("normal", gettext("Normal")), ("hard", gettext("Hard"))]


@router.post("/games/new")
async def new_game(
    request: Request,
    account: OptionalAccount,
    lobby: LobbyDep,
    name: FormStr,
    seats: FormStr,
    sides: FormStr = "yellow",
    might_is_right: OptionalFormStr = None,
    river: OptionalFormStr = None,
    new_beginning: OptionalFormStr = None,
    expansions: Annotated[list[str] | None, Form()] = None,
    horses: OptionalFormStr = None,
    kit_carson: OptionalFormStr = None,
    characters: Annotated[list[str] | None, Form()] = None,
    players: OptionalFormStr = None,
    seed: OptionalFormStr = None,
    move_timeout_hours: OptionalFormStr = None,
    access: FormStr = "public",
    bots: OptionalFormStr = None,
    bot_level: FormStr = "normal",
    start: FormStr = "full",
    invitation_days: OptionalFormStr = None,
    rated: FormStr = "yes",
    max_timeout_percent: OptionalFormStr = None,
    pause_weekends: OptionalFormStr = None,
    no_vacations: OptionalFormStr = None,
    csrf_token: OptionalFormStr = None,
) -> Response:
    """Open a table: an admin's seats the players listed; a player's seats its creator and invites them."""
    if account is None:
        return to_login(request)
    values = {
        "name": name, "seats": seats, "sides": sides, "might_is_right": bool(might_is_right), "river": bool(river),
        "new_beginning": bool(new_beginning), "expansions": expansions or [], "characters": characters or [],
        "horses": bool(horses), "kit_carson": bool(kit_carson),
        "players": players or "",
        "seed": seed or "",
        "move_timeout_hours": move_timeout_hours or "",
        "access": access,
        "bots": bots or "0",
        "bot_level": bot_level,
        "start": start,
        "invitation_days": invitation_days or "7",
        "rated": rated,
        "max_timeout_percent": max_timeout_percent or "",
        "pause_weekends": bool(pause_weekends),
        "no_vacations": bool(no_vacations),
    }

    def again(message: str, status: int) -> HTMLResponse:
        return render(request, "pages/new_game.html", account, status=status, sides=SIDES, values=values,
                      bot_levels=bot_levels(), expansions=PLAYABLE_EXPANSIONS, cards=CARDS_BY_NUMBER,
                      timeout_limits=TIMEOUT_LIMITS, error=message)

    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return csrf_failed(request, account, exc)
    names = [n for n in (players or "").replace(",", " ").split() if n]
    try:
        body = CreateGameIn.model_validate({
            "name": name.strip(),
            "seats": seats,
            "variants": {
                "sides": sides,
                "might_is_right": bool(might_is_right),
                "river": bool(river),
                "new_beginning": bool(new_beginning),
                "expansions": expansions or None,
                "characters": characters or None,  # ticked cards; none ticked: drawn at random (RULING G1)
                "horses": bool(horses),
                "kit_carson": bool(kit_carson),
            },
            "players": names or None,
            "seed": seed.strip() if seed and seed.strip() else None,
            "move_timeout_hours": move_timeout_hours.strip() if move_timeout_hours and move_timeout_hours.strip()
            else None,
            "public": access != "invitation",
            "bots": bots.strip() if bots and bots.strip() else 0,
            "bot_level": bot_level,
            "start_when_full": start != "creator",
            "invitation_days": invitation_days.strip() if invitation_days and invitation_days.strip() else 7,
            "rated": rated != "no",
            "max_timeout_percent": max_timeout_percent.strip() if max_timeout_percent and max_timeout_percent.strip()
            else None,
            "pause_weekends": bool(pause_weekends),
            "vacations": not no_vacations,
        })
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return again(f"{where}: {first['msg']}", 422)
    try:
        summary = await lobby.create_game(
            account, name=body.name, seat_count=body.seats, variants=body.variants.settings(), players=body.players,
            seed=body.seed, move_timeout_hours=body.move_timeout_hours, public=body.public, bots=body.bots,
            bot_level=body.bot_level, start_when_full=body.start_when_full, invitation_days=body.invitation_days,
            rated=body.rated, max_timeout_percent=body.max_timeout_percent, pause_weekends=body.pause_weekends,
            vacations=body.vacations, address=client_address(request),
        )
    except PlayError as exc:
        response = again(said(exc), 429 if isinstance(exc, TooMany) else 403 if isinstance(exc, NotAllowed) else 422)
        if isinstance(exc, TooMany):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response
    return redirect(f"/games/{summary.id}")
