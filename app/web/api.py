"""The JSON API under /api/v1 (see docs/api.md). Handlers only parse, call a service, and render."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Form, Query, Request, Response, status
from fastapi.security import OAuth2PasswordRequestForm

from app.play.commands import PlayerMove, Undo
from app.play.profiles import player_record
from app.play.standing import LEADERBOARD_SIZE, leaderboard
from app.web.deps import (
    BEARER,
    ChatDep,
    ClaimedDep,
    CurrentAccount,
    CurrentSignedIn,
    LobbyDep,
    NotesDep,
    OptionalSignedIn,
    PositionsDep,
    ServiceDep,
    SignerDep,
    SignInDep,
    client_address,
    looked_up,
    required,
)
from app.web.device import device_cookies
from app.web.fields import MAX_INTEGER, Id, Name, Offset, Text
from app.web.game_rows import table_url
from app.web.openapi import errors
from app.web.schemas import (
    AccountOut,
    ChatIn,
    ChatMessageOut,
    ChatOut,
    CreateGameIn,
    EmailChangeIn,
    EmailConfirmIn,
    EventOut,
    EventsOut,
    ExportOut,
    GameListOut,
    GameOut,
    InvitationOut,
    InvitationsOut,
    InviteIn,
    LeaderboardOut,
    MeOut,
    MoveIn,
    MoveOut,
    MovesOut,
    NextGameOut,
    NotesIn,
    NotesOut,
    PasswordChangeIn,
    PasswordForgotIn,
    PasswordResetIn,
    PlayerOut,
    RankedOut,
    RegisterIn,
    TokenOut,
    UndoIn,
)
from app.web.security import hold_in_cookie


class UsernamePasswordForm(OAuth2PasswordRequestForm):
    """OAuth2's password form (the optional grant_type, scope and client fields are not used here), with the
    username checked like every other name."""

    def __init__(
        self,
        username: Annotated[Text, Form()],
        password: Annotated[str, Form(json_schema_extra={"format": "password"})],
    ) -> None:
        super().__init__(username=username, password=password)


router = APIRouter(prefix="/api/v1", responses=errors(401, 422))
# The routes of a move's cycle (GET and POST .../moves, every few seconds of every game), on a router of their own
# that the application tries first, and first on it (POST .../moves, then GET .../moves): FastAPI matches a request
# against the routes in order, twice, at a cost in CPU for each route it tries before the right one (measured: three
# routes tried before a move's POST were a tenth of the web layer's instructions for it).
play_router = APIRouter(prefix="/api/v1", responses=errors(401, 422), tags=["play"])
PasswordForm = Annotated[UsernamePasswordForm, Depends()]


# --- accounts -----------------------------------------------------------------------------------------------


@router.post("/auth/register", status_code=status.HTTP_201_CREATED, responses=errors(409, 429), tags=["auth"])
async def register(request: Request, body: RegisterIn, sign_in: SignInDep) -> AccountOut:
    """Create a player account. Too many sign-ups from the address within an hour: 429 with `Retry-After`."""
    account = await sign_in.register(body.username, body.email, body.password, client_address(request))
    return AccountOut(id=account.id, username=account.username)


@router.post("/auth/token", responses=errors(429), tags=["auth"])
async def token(request: Request, form: PasswordForm, sign_in: SignInDep, signer: SignerDep) -> TokenOut:
    """OAuth2 password flow: trade a username and password for a bearer token (revocable: see /auth/logout).
    Too many failed sign-ins (for the account from the address, for the account, or from the address): 429 with
    `Retry-After` (see "Failed sign-ins" in the API's documentation)."""
    _, session_id = await sign_in.with_password(form.username, form.password, client_address(request), "token")
    return TokenOut(access_token=signer.issue(session_id))


@router.post("/auth/login", responses=errors(403, 429), tags=["auth"])
async def login(request: Request, response: Response, form: PasswordForm, sign_in: SignInDep) -> MeOut:
    """Sign a browser in: sets the HttpOnly, SameSite session cookie, and the device cookie that lets this
    browser sign in to the account while others' failures slow its sign-ins down. Same limits as /auth/token."""
    devices = device_cookies(request)
    account, session_id = await sign_in.with_password(
        form.username, form.password, client_address(request), "cookie",
        known_device=devices.known(request, form.username),
    )
    hold_in_cookie(request, session_id)
    devices.remember(response, account.username)
    return MeOut(id=account.id, username=account.username, is_admin=account.is_admin)


@router.post("/auth/logout", status_code=status.HTTP_204_NO_CONTENT, tags=["auth"])
async def logout(request: Request, signed_in: OptionalSignedIn, sign_in: SignInDep) -> Response:
    """Sign out: revokes the bearer token or the browser session this request carries (later use gets 401)."""
    if signed_in is not None:
        await sign_in.sign_out(signed_in.session_id)
    if signed_in is None or signed_in.kind == "cookie":  # a token's sign-out leaves a browser's cookie alone
        request.session.clear()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/auth/logout-all", status_code=status.HTTP_204_NO_CONTENT, tags=["auth"])
async def logout_all(request: Request, signed_in: CurrentSignedIn, sign_in: SignInDep) -> Response:
    """Sign out everywhere: revokes every bearer token and browser session of the caller."""
    await sign_in.sign_out_everywhere(signed_in.account)
    request.session.clear()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/auth/password", status_code=status.HTTP_204_NO_CONTENT, responses=errors(403, 429), tags=["auth"])
async def change_password(
    request: Request, body: PasswordChangeIn, signed_in: CurrentSignedIn, sign_in: SignInDep
) -> Response:
    """Change one's password (403 `wrong_password` if `current_password` is wrong). Every bearer token and
    browser session of the account is revoked, this one included: sign in again with the new password."""
    await sign_in.change_password(signed_in.account, body.current_password, body.new_password, client_address(request))
    request.session.clear()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/auth/email", status_code=status.HTTP_202_ACCEPTED, responses=errors(403, 409, 429), tags=["auth"])
async def change_email(request: Request, body: EmailChangeIn, account: CurrentAccount, sign_in: SignInDep) -> Response:
    """Ask for a new address for mails and password resets (403 `wrong_password` if `current_password` is
    wrong, 409 `email_taken` if another account has it): 202, and a link is mailed to the new address; the
    address changes when the link is followed (its page, or POST .../auth/email/confirm with its token), within
    a day, and the old address is then told. The account's own address again changes nothing (202 too)."""
    await sign_in.change_email(account, body.current_password, body.email, client_address(request))
    return Response(status_code=status.HTTP_202_ACCEPTED)


@router.post("/auth/email/confirm", status_code=status.HTTP_204_NO_CONTENT, responses=errors(403, 409),
             tags=["auth"])
async def confirm_email(body: EmailConfirmIn, sign_in: SignInDep) -> Response:
    """Set the new address with the token of the link mailed to it (the last part of the link's path): 403
    `invalid_email_link` once it expired, was used, or the account's address changed since; 409 `email_taken`
    if another account took the address meanwhile. No sign-in needed: the link went to the new address."""
    await sign_in.confirm_email(body.token)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/auth/password/forgot", status_code=status.HTTP_202_ACCEPTED, response_class=Response,
             responses={202: {"description": "Accepted; no body.", "content": {}}, **errors(429)}, tags=["auth"])
async def forgot_password(request: Request, body: PasswordForgotIn, sign_in: SignInDep) -> Response:
    """Mail a password reset link to the account with this address, if there is one: the answer is 202 either
    way. At most 3 requests an hour per address asked for (10 per client address): then 429
    `too_many_requests`."""
    await sign_in.ask_for_reset(body.email, client_address(request))
    return Response(status_code=status.HTTP_202_ACCEPTED)


@router.post("/auth/password/reset", status_code=status.HTTP_204_NO_CONTENT, responses=errors(403), tags=["auth"])
async def reset_password(body: PasswordResetIn, sign_in: SignInDep) -> Response:
    """Set a new password with the token of a reset link (403 `invalid_reset_link` once it expired or was
    used); every bearer token and browser session of the account is revoked."""
    await sign_in.reset_password(body.token, body.new_password)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/auth/me", tags=["auth"])
async def me(account: CurrentAccount) -> MeOut:
    """Who the credentials belong to."""
    return MeOut(id=account.id, username=account.username, is_admin=account.is_admin)


@router.get("/players/{username}", responses=errors(404), tags=["players"])
async def get_player(username: Name, account: CurrentAccount,
                     positions: PositionsDep) -> PlayerOut:
    """A player's record, as their page `/players/{name}` shows it (the name in any case): their newest finished
    games with each result, their win rate over those, and the games they play now. 404 `player_not_found`."""
    return PlayerOut.of(await player_record(positions, account, username))


@router.get("/leaderboard", tags=["players"])
async def get_leaderboard(
    account: CurrentAccount, positions: PositionsDep,
    players: int | None = Query(default=None, ge=2, le=6, description="Only players of rated games of this size."),
    limit: Annotated[int, Query(ge=1, le=LEADERBOARD_SIZE)] = LEADERBOARD_SIZE,
    offset: Offset = 0,
) -> LeaderboardOut:
    """The rated players, best first (then by name), provisional ones (fewer than 10 rated games) left out:
    `limit` of them (at most 100) from the `offset`-th, and `count`, how many there are in all."""
    board = await leaderboard(positions.db, players, limit, offset)
    return LeaderboardOut(players=[RankedOut(username=r.username, rating=r.rating, games=r.games)
                                   for r in board.players], count=board.total, offset=board.offset)


# --- games --------------------------------------------------------------------------------------------------


@router.post("/games", status_code=status.HTTP_201_CREATED, responses=errors(403), tags=["games"])
async def create_game(request: Request, body: CreateGameIn, account: CurrentAccount, lobby: LobbyDep) -> GameOut:
    """Open a table. Any signed-in player may (403 `players_create_games_off` where the site leaves it to
    admins): the creator takes a seat and `players` are invited (each mailed; they accept by joining or decline).
    With `start_when_full` (the default) the last seat taken starts the game in that request (the answer, or the
    join's, says `"status": "active"`); otherwise the creator starts it once enough have joined. `seed` is for
    admins only (403 `seed_admin_only`).
    An admin's table seats the `players` listed instead (a full list starts it at once, seated at random).
    `public: false` makes a table by invitation only. `bots` seats are taken by the site's bots (at least one
    seat stays a person's: 422 `too_many_bots`), playing at `bot_level` (easy, normal, hard); bots cannot be
    invited (422 `bot_not_invited`). A player's tables and invitations are limited a day (429 `too_many_tables`,
    `too_many_invitations`, with Retry-After)."""
    summary = await lobby.create_game(
        account,
        name=body.name,
        seat_count=body.seats,
        variants=body.variants.settings(),
        players=body.players,
        seed=body.seed,
        move_timeout_hours=body.move_timeout_hours,
        public=body.public,
        bots=body.bots,
        bot_level=body.bot_level,
        rated=body.rated,
        start_when_full=body.start_when_full,
        invitation_days=body.invitation_days,
        max_timeout_percent=body.max_timeout_percent,
        pause_weekends=body.pause_weekends,
        vacations=body.vacations,
        address=client_address(request),
    )
    return GameOut.of(summary)


@router.get("/games", tags=["games"])
async def list_games(
    account: CurrentAccount,
    positions: PositionsDep,
    status_: Annotated[Literal["open", "active", "finished"] | None, Query(alias="status")] = None,
    mine: bool = False,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Offset = 0,
) -> GameListOut:
    """Games, newest first; `mine=true` keeps the caller's own."""
    page, count = await positions.list_games(account, status=status_, mine=mine, limit=limit, offset=offset)
    return GameListOut(data=[GameOut.of(g) for g in page], count=count)


@router.get("/games/{game_id}", responses=errors(404), tags=["games"])
async def get_game(game_id: Id, account: CurrentAccount, positions: PositionsDep) -> GameOut:
    """A game's summary: players, variants, and the head of its log (`seq`, `to_act`)."""
    return GameOut.of(await positions.summary(game_id))


@router.post("/games/{game_id}/join", responses=errors(403, 404, 409), tags=["games"])
async def join_game(game_id: Id, account: CurrentAccount, lobby: LobbyDep) -> GameOut:
    """Take a free seat in an open game, or accept one's invitation (its seat was held). A table by invitation
    only: 403 `invitation_required` for the others; a table that asks for a reputation (`max_timeout_percent`):
    403 `reputation_too_low` for an uninvited player whose clock ran out in more of their games; 409 `game_full`
    when the free seats are taken or held. The join that takes the last seat of a table that starts when full
    starts its game: the answer is the running game."""
    return GameOut.of(await lobby.join(account, game_id))


@router.post(
    "/games/{game_id}/leave", status_code=status.HTTP_204_NO_CONTENT, responses=errors(404, 409), tags=["games"]
)
async def leave_game(game_id: Id, account: CurrentAccount, lobby: LobbyDep) -> Response:
    """Free one's seat at an open table (409 `game_started` once it runs, `not_joined` without a seat). The last
    player to leave closes the table; a creator who leaves hands it to the player seated longest."""
    await lobby.leave(account, game_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/games/{game_id}/invitations",
    status_code=status.HTTP_201_CREATED,
    responses=errors(403, 404, 409),
    tags=["games"],
)
async def invite_player(
    request: Request, game_id: Id, body: InviteIn, account: CurrentAccount, lobby: LobbyDep
) -> GameOut:
    """Invite a player to an open table (its creator or an admin; 403 `not_creator` otherwise): the invitation
    holds a seat and is mailed. 409 `game_full`, `already_joined`, `already_invited`; 422 `unknown_player`; 429
    `too_many_invitations` (with Retry-After) beyond a player's invitations of a day."""
    return GameOut.of(await lobby.invite(account, game_id, body.username, client_address(request)))


@router.post(
    "/games/{game_id}/decline", status_code=status.HTTP_204_NO_CONTENT, responses=errors(404), tags=["games"]
)
async def decline_invitation(game_id: Id, account: CurrentAccount, lobby: LobbyDep) -> Response:
    """Turn down one's invitation to a table (404 `no_invitation` without one); its seat is free again."""
    await lobby.decline(account, game_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/me/invitations", tags=["games"])
async def my_invitations(account: CurrentAccount, positions: PositionsDep) -> InvitationsOut:
    """The caller's pending invitations: accept with POST .../join, decline with POST .../decline."""
    return InvitationsOut(invitations=[InvitationOut.of(i) for i in await positions.pending_invitations(account)])


@router.get("/me/next", response_model=NextGameOut, responses={204: {"description": "No game awaits the caller."}},
            tags=["games"])
async def my_next_game(account: CurrentAccount, positions: PositionsDep) -> NextGameOut | Response:
    """The game awaiting the caller whose clock runs out first (games without a clock last, then the turn that has
    waited the longest); 204 when no game awaits them."""
    found = await positions.next_game(account)
    if found is None:
        return Response(status_code=status.HTTP_204_NO_CONTENT)
    return NextGameOut(game_id=found.game_id, url=table_url(found.game_id), deadline=found.deadline)


@router.post("/games/{game_id}/start", responses=errors(403, 404, 409), tags=["games"])
async def start_game(game_id: Id, account: CurrentAccount, lobby: LobbyDep) -> GameOut:
    """Start an open game with the players who joined (its creator or an admin; 403 `not_creator` otherwise);
    seats are drawn at random and unanswered invitations lapse."""
    return GameOut.of(await lobby.start(account, game_id))


# --- table talk: chat and private notes ---------------------------------------------------------------------


@router.get("/games/{game_id}/chat", responses=errors(404), tags=["chat"])
async def get_chat(
    game_id: Id,
    account: CurrentAccount,
    chat: ChatDep,
    after: Offset = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> ChatOut:
    """The table chat after message `after` (its `id`), oldest first; without `after`, the newest `limit`
    messages. Everyone who may look at the table reads it. Not part of the game's log."""
    return ChatOut(messages=[ChatMessageOut.of(m) for m in await chat.read(game_id, after=after, limit=limit)])


@router.post(
    "/games/{game_id}/chat", status_code=status.HTTP_201_CREATED, responses=errors(403, 404, 429), tags=["chat"]
)
async def post_chat(game_id: Id, body: ChatIn, account: CurrentAccount, chat: ChatDep) -> ChatMessageOut:
    """Write in the table chat (seated players: 403 `no_seat` otherwise; 1..1000 characters, no control
    characters). Announced on the game's stream as a `chat` event. 429 `too_many_messages`, with Retry-After,
    beyond 5 messages within 10 seconds."""
    return ChatMessageOut.of(await chat.post(account, game_id, body.text))


@router.get("/games/{game_id}/notes", responses=errors(403, 404), tags=["chat"])
async def get_notes(game_id: Id, account: CurrentAccount, notes: NotesDep) -> NotesOut:
    """The caller's private notes on a game they sit in (nobody else ever reads them)."""
    return NotesOut.of(await notes.read(account, game_id))


@router.put("/games/{game_id}/notes", responses=errors(403, 404), tags=["chat"])
async def put_notes(game_id: Id, body: NotesIn, account: CurrentAccount, notes: NotesDep) -> NotesOut:
    """Replace the caller's private notes on a game they sit in (up to 10,000 characters; line breaks kept)."""
    return NotesOut.of(await notes.write(account, game_id, body.text))


# --- play ---------------------------------------------------------------------------------------------------


@play_router.post("/games/{game_id}/moves", response_model=MoveOut, responses=errors(403, 404, 409, 429),
                  openapi_extra=BEARER)
async def post_move(game_id: Id, body: MoveIn, request: Request, claimed: ClaimedDep) -> Response:
    """Submit a move made against `seq` (409 `stale_seq` if the game moved on; 429 `too_many_moves`, with
    Retry-After, beyond 60 moves of the seat within a minute); errors leave the log alone."""
    # The common case in one round trip: the sign-in is checked by the statement that records the move.
    claim, service = claimed.claim, claimed.service
    known = claimed.sign_in.claim(claim.session_id, claim.kind)
    if known is not None:
        quick = await service.apply_in_one_trip(PlayerMove(known.user_id, game_id, body.seq, body.move), known)
        if quick is not None:
            return _moved(quick.seq)
    account = required(await looked_up(request, claim)).account
    return _moved((await service.apply(PlayerMove(account.id, game_id, body.seq, body.move))).seq)


def _moved(seq: int) -> Response:
    """The answer to a move, `MoveOut` as FastAPI would encode it (`{"seq":N}`), encoded here: FastAPI's check of
    the returned model and its encoding were 35,000 instructions, a twenty-fourth of a move's POST through the web
    layer."""
    return Response(b'{"seq":%d}' % seq, media_type="application/json")


@play_router.get("/games/{game_id}/moves", responses=errors(404, 409), openapi_extra=BEARER)
async def get_moves(game_id: Id, request: Request, claimed: ClaimedDep) -> MovesOut:
    """Every move the caller may submit now, each exactly in the shape POST .../moves accepts."""
    # The common case in one round trip: the sign-in is checked by the statement that reads the head.
    claim, positions = claimed.claim, claimed.positions
    known = claimed.sign_in.claim(claim.session_id, claim.kind)
    if known is not None and (quick := await positions.moves_in_one_trip(game_id, known)) is not None:
        return MovesOut.of(quick)
    account = required(await looked_up(request, claim)).account
    return MovesOut.of(await positions.moves(account, game_id))


@play_router.get("/games/{game_id}/state", responses=errors(404, 409))
async def get_state(
    game_id: Id,
    account: CurrentAccount,
    positions: PositionsDep,
    at: Annotated[int | None, Query(ge=1, le=MAX_INTEGER, description="A past position (see below).")] = None,
) -> dict[str, Any]:
    """The caller's view of the game (a spectator's view without a seat). With `at=N`, the view as it was at
    position N of the log as the caller counts it (`"seq": N`; 404 `position_not_found` beyond the head): no
    other seat's secret before it was revealed. Once the game is finished nothing is secret: positions count the
    whole log and show every seat's hand, vote and basket."""
    if at is not None:
        return (await positions.history(account, game_id, at)).view
    return await positions.view(account, game_id)


@play_router.get("/games/{game_id}/export", responses=errors(404, 409))
async def export_game(game_id: Id, account: CurrentAccount, positions: PositionsDep, response: Response) -> ExportOut:
    """The game's record as a JSON document: the summary, every event the caller may see (redacted for the caller
    while the game runs; once it is finished every event unredacted and the seed, for anyone), and the caller's
    view of the present state. `python -m app verify FILE` replays a finished game's export from its seed."""
    export = ExportOut.of(await positions.export(account, game_id))
    response.headers["Content-Disposition"] = f'attachment; filename="carson-city-game-{game_id}.json"'
    return export


@play_router.post("/games/{game_id}/undo", responses=errors(403, 404, 409, 429))
async def post_undo(game_id: Id, body: UndoIn, account: CurrentAccount, service: ServiceDep) -> MoveOut:
    """Take back the caller's own last move, made against `seq`, while nobody else has moved since and the move
    drew and revealed nothing (no die, no bag, no secret shown): the log gains a `move_undone` event and the
    game is as if the move had never been made. Otherwise 409 `undo_not_allowed` (or `stale_seq`)."""
    return MoveOut(seq=(await service.apply(Undo(account.id, game_id, body.seq))).seq)


@play_router.post("/games/{game_id}/seat/back", responses=errors(403, 404))
async def take_seat_back(
    game_id: Id, account: CurrentAccount, service: ServiceDep, positions: PositionsDep
) -> GameOut:
    """Play one's seat again after one's clock ran out: until then the site's bot plays the seat's turns as soon
    as they come (making a move oneself does the same). 403 `no_seat` without a seat."""
    await service.take_seat_back(account, game_id)
    return GameOut.of(await positions.summary(game_id))


@play_router.get("/games/{game_id}/events", responses=errors(404))
async def get_events(
    game_id: Id,
    account: CurrentAccount,
    positions: PositionsDep,
    after: Offset = 0,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
) -> EventsOut:
    """The log after `after`, as the caller counts it: the events it may know of, each redacted for it (a
    finished game's every event, unredacted: nothing in it is secret any more)."""
    events = await positions.events(account, game_id, after, limit)
    return EventsOut(events=[EventOut.of(e) for e in events])
