"""The HTML pages (see docs/api.md "Pages"): lobby, sign-up, sign-in/out, the new-game form and the table.

Handlers parse, call the services, and render; requests made by htmx (`HX-Request`) get the board fragment
instead of the whole page. Every POST checks the CSRF token first. What a seat sees is built only from
`player_view` and `legal_moves` for that seat (through `Positions`, the reads of `app.play.positions`).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError

import app.i18n as i18n
from app.i18n import N_, gettext
from app.play.accounts import Account
from app.play.commands import PlayerMove, Undo
from app.play.errors import Conflict, Invalid, NotAllowed, PlayError, TooMany
from app.play.positions import Board, GameSummary, Position, Positions
from app.play.service import GameService
from app.rules.catalog import OUTLAW_VP, PERSONALITIES
from app.rules.config import EXPANSION_NAMES, PLAYABLE_EXPANSIONS, SIDES
from app.rules.history import round_begun
from app.web import csrf, guide, present, talk
from app.web.assets import static_url
from app.web.deps import (
    OptionalAccount,
    OptionalSignedIn,
    PositionsDep,
    ServiceDep,
    SignInDep,
    client_address,
)
from app.web.device import device_cookies
from app.web.fields import MAX_INTEGER, Id, Text
from app.web.gamelog import COLOUR_NAMES, Describer, building_name, card_name
from app.web.schemas import CreateGameIn, RegisterIn
from app.web.security import hold_in_cookie

ROOT = Path(__file__).resolve().parents[2]
templates = Jinja2Templates(directory=ROOT / "templates")
i18n.install(templates.env)
templates.env.globals.update(
    language=i18n.current, languages=i18n.LANGUAGES, moment=i18n.format_moment,
    colour=present.colour, colour_names=COLOUR_NAMES, CELL=present.CELL, MARGIN=present.MARGIN,
    BOARD_PX=present.BOARD_PX, ink=present.ink, variant_help=guide.variant_help, variant_names=guide.VARIANT_NAMES,
    side_choices=guide.SIDE_CHOICES,
    expansion_names=EXPANSION_NAMES, OUTLAW_VP=OUTLAW_VP, static_url=static_url, score_part=present.score_part,
    horses_not_played=guide.HORSES_NOT_PLAYED, numbers=guide.NUMBERS, building_name=building_name, card_name=card_name,
    card_side_name=present.card_side_name, shop_name=present.shop_name, piece_name=present.piece_name,
)
templates.env.filters.update(
    player_link=present.player_link, player_links=present.player_links, building_name=building_name,
)
router = APIRouter(include_in_schema=False)
LOG_LENGTH = 80
# The admin's choice of characters: the cards of the expansions players may open.
CARDS_BY_NUMBER = [card for card in sorted(PERSONALITIES.values(), key=lambda card: card.number)
                   if card.expansion is None or card.expansion in PLAYABLE_EXPANSIONS]
STALE_NOTICE = N_("The game moved on before your click arrived: here is the table as it is now. Please choose again.")
LOBBY_WATCHABLE = 20  # games being played that the lobby offers to watch, newest first
LOBBY_VIEWS = 20  # games whose decision the lobby names (one state read each)
LOBBY_RESULTS = 10  # finished games whose result the lobby shows (one state read each)

FormStr = Annotated[str, Form()]
FormText = Annotated[Text, Form()]
OptionalFormStr = Annotated[str | None, Form()]


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def may_create_games(request: Request, account: Account | None) -> bool:
    """Admins always; every other signed-in player unless the site leaves it to admins (PLAYERS_CREATE_GAMES)."""
    return account is not None and (account.is_admin or request.app.state.settings.players_create_games)


def render(request: Request, name: str, account: Account | None, status: int = 200, **context: Any) -> HTMLResponse:
    context.update(request=request, account=account, csrf_token=csrf.token(request),
                   may_create=may_create_games(request, account))
    response = templates.TemplateResponse(request, name, context, status_code=status)
    response.headers["Cache-Control"] = "no-store"
    return response


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def to_login(request: Request) -> RedirectResponse:
    return redirect(f"/login?next={request.url.path}")


def safe_next(url: str | None) -> str:
    """Only local paths, so the sign-in form cannot send anyone to another site."""
    if url and url.startswith("/") and not url.startswith("//") and "\\" not in url:
        return url
    return "/"


def said(exc: PlayError) -> str:
    """A refusal's message in the language of the request."""
    return exc.translated(gettext)


def _csrf_failed(request: Request, account: Account | None, exc: PlayError) -> HTMLResponse:
    return render(request, "pages/error.html", account, status=403, message=said(exc))


# --- accounts -----------------------------------------------------------------------------------------------


@router.get("/fairness")
async def fairness(request: Request, account: OptionalAccount) -> Response:
    """How anyone can check that a game's dice were fair (the seed's commitment and `python -m app verify`)."""
    return render(request, "pages/fairness.html", account)


@router.get("/rules")
async def rules(request: Request, account: OptionalAccount) -> Response:
    """The rules in our words, open to everyone (signed in or not): the same texts as the table's help."""
    return render(request, "pages/rules.html", account, **guide.rules_context())


@router.get("/signup")
async def signup_form(request: Request, account: OptionalAccount) -> Response:
    return render(request, "pages/signup.html", account, values={})


@router.post("/signup")
async def signup(
    request: Request,
    sign_in: SignInDep,
    username: FormStr,
    email: FormStr,
    password: FormStr,
    csrf_token: OptionalFormStr = None,
) -> Response:
    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return _csrf_failed(request, None, exc)
    values = {"username": username, "email": email}
    try:
        body = RegisterIn(username=username.strip(), email=email.strip(), password=password)
    except ValidationError as exc:
        field = ".".join(str(p) for p in exc.errors()[0]["loc"])
        message = gettext({
            "username": N_("A username has 3 to 32 letters, digits, dots, dashes or underscores."),
            "email": N_("Please give a valid email address."),
            "password": N_("A password needs at least 8 characters."),
        }.get(field, N_("Please check the form.")))
        return render(request, "pages/signup.html", None, status=422, values=values, error=message)
    try:
        account = await sign_in.register(
            body.username, body.email, body.password, client_address(request), language=i18n.current()
        )
    except PlayError as exc:  # too many sign-ups (429), a name reserved for the site's bots (422), taken (409)
        status = 429 if isinstance(exc, TooMany) else 422 if isinstance(exc, Invalid) else 409
        return render(request, "pages/signup.html", None, status=status, values=values, error=said(exc))
    hold_in_cookie(request, await sign_in.open(account, "cookie"))
    return redirect("/")


@router.get("/login")
async def login_form(request: Request, account: OptionalAccount, next: str | None = None) -> Response:
    return render(request, "pages/login.html", account, next=safe_next(next), username="")


@router.post("/login")
async def login(
    request: Request,
    sign_in: SignInDep,
    username: FormText,
    password: FormStr,
    next: OptionalFormStr = None,
    csrf_token: OptionalFormStr = None,
) -> Response:
    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return _csrf_failed(request, None, exc)
    devices = device_cookies(request)
    try:
        account, session_id = await sign_in.with_password(
            username, password, client_address(request), "cookie", known_device=devices.known(request, username)
        )
    except PlayError as exc:
        return refused(request, "pages/login.html", None, exc, 401, next=safe_next(next), username=username)
    hold_in_cookie(request, session_id)
    response = redirect(safe_next(next))
    devices.remember(response, account.username)
    return response


def refused(request: Request, name: str, account: Account | None, exc: PlayError, status: int,
            **context: Any) -> HTMLResponse:
    """The form again with the refusal's message; too many failed sign-ins answer 429 with `Retry-After`, input
    that cannot be accepted (Invalid: an address we cannot mail) 422, as the API does."""
    if isinstance(exc, Invalid):
        status = 422
    if isinstance(exc, TooMany):
        response = render(request, name, account, status=429, error=said(exc), **context)
        response.headers["Retry-After"] = str(exc.retry_after)
        return response
    return render(request, name, account, status=status, error=said(exc), **context)


@router.get("/logout")
async def logout_form(request: Request, account: OptionalAccount) -> Response:
    return render(request, "pages/logout.html", account)


@router.post("/logout")
async def logout(
    request: Request,
    signed_in: OptionalSignedIn,
    sign_in: SignInDep,
    everywhere: OptionalFormStr = None,
    csrf_token: OptionalFormStr = None,
) -> Response:
    """Sign this browser out (its session is revoked, so a copy of the cookie is worthless), or, with
    `everywhere`, every browser and API token of the account."""
    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return _csrf_failed(request, None, exc)
    if signed_in is not None and everywhere:
        await sign_in.sign_out_everywhere(signed_in.account)
    elif signed_in is not None:
        await sign_in.sign_out(signed_in.session_id)
    request.session.clear()
    return redirect("/")


# --- lobby and games ----------------------------------------------------------------------------------------


@router.get("/")
async def lobby(request: Request, account: OptionalAccount, positions: PositionsDep) -> Response:
    if account is None:
        return render(request, "pages/welcome.html", None)
    return render(request, "pages/lobby.html", account, **await _lobby_context(request, positions, account))


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
    """The lobby's lists: the viewer's invitations, their games ("your turn" first, the most urgent clock
    first), tables they may join, games to watch and their finished games; with a `version` that changes
    whenever any of it does."""
    mine, _ = await positions.list_games(account, mine=True, limit=100)
    open_games, _ = await positions.list_games(account, status="open", limit=100)
    finished, _ = await positions.list_games(account, status="finished", mine=True, limit=50)
    playing, _ = await positions.list_games(account, status="active", limit=LOBBY_WATCHABLE)
    invitations = await positions.pending_invitations(account)
    running = [g for g in mine if g.status != "finished"]
    rows = [await _lobby_row(positions, account, g, i < LOBBY_VIEWS) for i, g in enumerate(running)]
    rows.sort(key=lambda r: (not r["my_turn"], r["my_deadline"] or datetime.max.replace(tzinfo=UTC)))
    invited_to = {i.game.id for i in invitations}
    joinable = [_plain_row(account, g) for g in open_games
                if g.public and g.id not in invited_to and free_seats(g) > 0 and not talk.is_seated(account, g)]
    context: dict[str, Any] = {
        "mine": rows, "joinable": joinable,
        "invitations": [{**_plain_row(account, i.game), "invited_by": i.invited_by} for i in invitations],
        "finished": [await _finished_row(positions, account, g, i < LOBBY_RESULTS) for i, g in enumerate(finished)],
        "watchable": [_plain_row(account, g) for g in playing if g.seat_of(account.id) is None],
        "refresh_seconds": request.app.state.settings.lobby_refresh_seconds,
    }
    context["version"] = _lobby_version(context)
    return context


def _lobby_version(context: dict[str, Any]) -> str:
    """A digest of everything the lobby shows (the games' heads, whose turn, seats, invitations, the clocks as
    shown), so a poll can tell "nothing changed" without sending the page."""
    shown = [
        [name, [[r["game"].id, r["game"].seq, r["game"].status, list(r["game"].to_act), r["names"],
                 list(r["game"].invited), r.get("decision", ""), r["deadlines"]] for r in context[name]]]
        for name in ("mine", "joinable", "invitations", "finished", "watchable")
    ]
    return hashlib.sha256(json.dumps(shown, default=str).encode()).hexdigest()[:16]


def free_seats(g: GameSummary) -> int:
    """Seats of an open table neither taken nor held for an invited player."""
    return g.seat_count - len(g.seats) - len(g.invited)


def is_host(account: Account, g: GameSummary) -> bool:
    """Who may start an open table and invite to it: its creator, or an admin."""
    return account.is_admin or g.created_by == account.id


def _plain_row(account: Account, g: GameSummary) -> dict[str, Any]:
    return {
        "game": g,
        "players": ", ".join(s.username for s in g.seats) or gettext("nobody yet"),
        "names": [s.username for s in g.seats],
        "variants": present.variant_badges(g.variants),
        "deadlines": _deadlines(g),
        "joined": any(s.user_id == account.id for s in g.seats),
        "host": is_host(account, g),
        "free": free_seats(g),
    }


async def _finished_row(positions: Positions, account: Account, g: GameSummary, with_result: bool) -> dict[str, Any]:
    """A finished game of the lobby, with its result (the players by place, with their final totals)."""
    row = _plain_row(account, g)
    row["result"] = present.standings(await positions.view(account, g.id)) if with_result else []
    return row


async def _lobby_row(positions: Positions, account: Account, g: GameSummary, with_view: bool) -> dict[str, Any]:
    row = _plain_row(account, g)
    seat = g.seat_of(account.id)
    row["my_turn"] = g.status == "active" and seat is not None and seat in g.to_act
    row["my_deadline"] = next((s.deadline for s in g.seats if s.user_id == account.id), None)
    row["decision"] = ""
    row["waiting_for"] = ", ".join(g.usernames[s] for s in g.to_act if s < len(g.usernames))
    if row["my_turn"] and with_view:
        doc = await positions.view(account, g.id)
        row["decision"] = gettext(present.decision_text(doc.get("awaiting")))
    return row


def time_left(when: datetime, now: datetime) -> str:
    """A deadline as the time left, the way a player reads it at a glance: "1 d 23 h", "5 h 10 min", "overdue"."""
    minutes = int((when - now).total_seconds() // 60)
    if minutes < 0:
        return gettext("overdue")
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return gettext("{days} d {hours} h").format(days=days, hours=hours)
    return gettext("{hours} h {minutes} min").format(hours=hours, minutes=mins) if hours \
        else gettext("{minutes} min").format(minutes=mins)


def _deadlines(g: GameSummary) -> list[tuple[str, str, str]]:
    """Per-seat move deadlines of a timed game (the seats' move clocks): who, the time left, the exact time."""
    now = datetime.now(UTC)
    shown = []
    for seat in g.seats:
        when = getattr(seat, "deadline", None)
        if isinstance(when, datetime):
            shown.append((seat.username, time_left(when, now), when.strftime("%Y-%m-%d %H:%M UTC")))
    return shown


async def _table_command(request: Request, account: Account | None, csrf_token: str | None, game_id: int,
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


@router.post("/games/{game_id}/join")
async def join(
    request: Request, game_id: Id, account: OptionalAccount, service: ServiceDep, csrf_token: OptionalFormStr = None
) -> Response:
    """Join a table, or accept one's invitation to it."""
    return await _table_command(request, account, csrf_token, game_id, service.join)


@router.post("/games/{game_id}/leave")
async def leave(
    request: Request, game_id: Id, account: OptionalAccount, service: ServiceDep, csrf_token: OptionalFormStr = None
) -> Response:
    return await _table_command(request, account, csrf_token, game_id, service.leave, then="/")


@router.post("/games/{game_id}/decline")
async def decline(
    request: Request, game_id: Id, account: OptionalAccount, service: ServiceDep, csrf_token: OptionalFormStr = None
) -> Response:
    return await _table_command(request, account, csrf_token, game_id, service.decline, then="/")


@router.post("/games/{game_id}/start")
async def start(
    request: Request, game_id: Id, account: OptionalAccount, service: ServiceDep, csrf_token: OptionalFormStr = None
) -> Response:
    return await _table_command(request, account, csrf_token, game_id, service.start)


@router.post("/games/{game_id}/seat/back")
async def take_seat_back(
    request: Request, game_id: Id, account: OptionalAccount, service: ServiceDep, csrf_token: OptionalFormStr = None
) -> Response:
    """Play one's seat again after the bot played it while one's time had run out."""
    return await _table_command(request, account, csrf_token, game_id, service.take_seat_back)


@router.post("/games/{game_id}/invitations")
async def invite(
    request: Request,
    game_id: Id,
    account: OptionalAccount,
    service: ServiceDep,
    username: FormText,
    csrf_token: OptionalFormStr = None,
) -> Response:
    """The host invites a player by name from the table's waiting page."""

    async def inviting(account: Account, game_id: int) -> object:
        return await service.invite(account, game_id, username.strip(), client_address(request))

    return await _table_command(request, account, csrf_token, game_id, inviting)


@router.get("/games/new")
async def new_game_form(request: Request, account: OptionalAccount) -> Response:
    if account is None:
        return to_login(request)
    if not may_create_games(request, account):
        return render(request, "pages/error.html", account, status=403,
                      message=gettext("Only an admin may create games."))
    return render(request, "pages/new_game.html", account, sides=SIDES,
                  values={"seats": "2", "bots": "0", "sides": "yellow", "access": "public"},
                  expansions=PLAYABLE_EXPANSIONS, cards=CARDS_BY_NUMBER)


@router.post("/games/new")
async def new_game(
    request: Request,
    account: OptionalAccount,
    service: ServiceDep,
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
    }

    def again(message: str, status: int) -> HTMLResponse:
        return render(request, "pages/new_game.html", account, status=status, sides=SIDES, values=values,
                      expansions=PLAYABLE_EXPANSIONS, cards=CARDS_BY_NUMBER, error=message)

    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return _csrf_failed(request, account, exc)
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
        })
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return again(f"{where}: {first['msg']}", 422)
    try:
        summary = await service.create_game(
            account, name=body.name, seat_count=body.seats, variants=body.variants.settings(), players=body.players,
            seed=body.seed, move_timeout_hours=body.move_timeout_hours, public=body.public, bots=body.bots,
            address=client_address(request),
        )
    except PlayError as exc:
        response = again(said(exc), 429 if isinstance(exc, TooMany) else 403 if isinstance(exc, NotAllowed) else 422)
        if isinstance(exc, TooMany):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response
    return redirect(f"/games/{summary.id}")


# --- the table ----------------------------------------------------------------------------------------------


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
    seq: FormStr,
    move: FormStr,
    csrf_token: OptionalFormStr = None,
) -> Response:
    def command(user_id: int, seen: int) -> PlayerMove:
        parsed = json.loads(move)
        if not isinstance(parsed, dict):
            raise ValueError
        return PlayerMove(user_id, game_id, seen, parsed)

    return await _change_table(request, account, service, game_id, seq, csrf_token, command)


@router.post("/games/{game_id}/undo")
async def undo(
    request: Request,
    game_id: Id,
    account: OptionalAccount,
    service: ServiceDep,
    seq: FormStr,
    csrf_token: OptionalFormStr = None,
) -> Response:
    """The table's Undo button: take back one's last move (`GameService.apply(Undo)`)."""
    return await _change_table(request, account, service, game_id, seq, csrf_token,
                               lambda user_id, seen: Undo(user_id, game_id, seen))


async def _change_table(
    request: Request,
    account: Account | None,
    service: GameService,
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
        return _csrf_failed(request, account, exc)
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
    return await _render_table(request, account, service.positions, game_id, notice=notice, error=error,
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
        return render(request, "pages/waiting.html", account, game=summary, row=_plain_row(account, summary),
                      invited=account.username in summary.invited, **talked,
                      variants=present.variant_badges(summary.variants), deadlines=_deadlines(summary))
    context = _table_context(summary, read.board)
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
    logged: list[LoggedEvent] = [(e.seq, e.data, e.at, e.timed_out, e.by_bot) for e in position.events[-LOG_LENGTH:]]
    context = table_context(position.summary, position.view, [], logged)
    context.update(my_turn=False, history=_history_controls(position),
                   render_ms=round((time.perf_counter() - started) * 1000, 1))
    return render(request, "pages/game.html", account, **context)


@dataclass(frozen=True, slots=True)
class HistoryControls:
    """Where the viewer is in the game's past, and where the controls lead."""

    at: int
    last: int
    rounds: list[tuple[int, int]]  # (round, the position where it began)
    everything: bool  # the game is over: every secret is shown

    @property
    def back(self) -> int | None:
        return self.at - 1 if self.at > 1 else None

    @property
    def forward(self) -> int | None:
        return self.at + 1 if self.at < self.last else None


def _history_controls(position: Position) -> HistoryControls:
    everything = position.summary.status == "finished"
    return HistoryControls(position.view["seq"], position.last, position.rounds, everything)


def _table_context(summary: GameSummary, board: Board) -> dict[str, Any]:
    """The table's templates' context from one read of the game (`Positions.table`)."""
    logged: list[LoggedEvent] = [(e.seq, e.data, e.at, e.timed_out, e.by_bot) for e in board.events]
    return table_context(summary, board.view, board.moves, logged, _deadlines(summary))


@dataclass(frozen=True, slots=True)
class LogLine:
    seq: int
    text: str
    heading: bool = False  # a round's heading, placed where its personalities are chosen
    seat: int | None = None  # whose action it was, for their colour and letter
    at: datetime | None = None
    mark: str | None = None  # who played it, when not the seat's player: "played by the clock", or by the bot

    @property
    def when(self) -> str:
        return self.at.strftime("%d %b %H:%M") if self.at else ""


LoggedEvent = (
    tuple[int, dict[str, Any]]
    | tuple[int, dict[str, Any], datetime | None, bool]
    | tuple[int, dict[str, Any], datetime | None, bool, bool]
)


def game_log(describer: Describer, events: Sequence[LoggedEvent]) -> list[LogLine]:
    """The log's sentences, newest first, with a heading where each round starts: round 1 where the setup hands
    over to the personalities, every later round where the one before it ends. Each event is (seq, event) or
    (seq, event, when it was recorded, whether the clock played it[, whether the bot played it for the seat's
    absent player])."""
    lines: list[LogLine] = []
    for seq, e, *more in events:
        at = more[0] if more and isinstance(more[0], datetime) else None
        by_clock = len(more) > 1 and bool(more[1])
        by_bot = len(more) > 2 and bool(more[2])
        seat = e.get("seat") if isinstance(e.get("seat"), int) else None
        if (text := describer.describe(e)) is not None:
            lines.append(LogLine(seq, text, seat=seat, at=at, mark=_played_by(describer, seat, by_clock, by_bot)))
        if (begun := round_begun(e)) is not None:
            lines.append(LogLine(seq, gettext("Round {round}").format(round=begun), heading=True))
    return lines[::-1]


def _played_by(describer: Describer, seat: int | None, by_clock: bool, by_bot: bool) -> str | None:
    """The log's note on a move its player did not make (None for one they made)."""
    if by_bot:
        player = describer.who(seat) if seat is not None else gettext("a player")
        return gettext("played by the bot for {player}, whose time ran out").format(player=player)
    return gettext("played by the clock") if by_clock else None


def table_context(
    game: Any, doc: dict[str, Any], moves: list[dict[str, Any]], events: Sequence[LoggedEvent],
    deadlines: list[tuple[str, str, str]] | None = None,
) -> dict[str, Any]:
    """What the table's templates need: the viewer's state document, their legal moves as choices and board
    targets, and the log (`events`: (seq, event) already redacted for the viewer, oldest first)."""
    groups, targets = present.choices(doc, moves)
    built, offered = present.roads(doc, targets)
    describer = Describer([p["username"] for p in doc["players"]])
    log = game_log(describer, events)
    viewer = doc.get("viewer")
    by_seat = {p["seat"]: p for p in doc["players"]}
    return {
        "game": game,
        "doc": doc,
        "me": by_seat.get(viewer) if viewer is not None else None,
        "my_turn": viewer is not None and viewer in doc["to_act"],
        "decision": present.said(present.decision_text(doc.get("awaiting"))),
        "phase_name": present.phase_name(doc.get("phase")),
        "waiting_text": present.waiting_text(doc),
        "groups": groups,
        "cells": present.cells(doc, targets),
        "marks": present.player_marks([p["username"] for p in doc["players"]]),
        "legend": guide.building_legend(doc["variants"].get("expansions") or []),
        "roads": built,
        "offered_roads": offered,
        "track": present.track(doc, targets),
        "cards": present.personality_cards(doc),
        "variants": present.variant_badges(doc["variants"]),
        "log": log,
        "deadlines": deadlines or [],
        "hint_squares": present.HINT_SQUARES,
        "standings": present.standings(doc),
        "stake": present.stake(doc, moves),
        "vp_shown": present.vp_shown(doc),
    }
