"""Annotated dependencies: the session, the signed-in account, the services."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import OAuth2PasswordBearer
from sqlalchemy.ext.asyncio import AsyncSession

import app.i18n as i18n
from app.play.accounts import Account
from app.play.bus import Bus
from app.play.chat import Chat
from app.play.errors import NotSignedIn
from app.play.lobby import Lobby
from app.play.notes import NoteBook
from app.play.positions import Positions
from app.play.service import GameService
from app.play.sessions import Kind
from app.play.sign_in import SignIn
from app.settings import Settings
from app.web.security import SESSION_ID_KEY, TokenSigner, cookie_session_id

oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/api/v1/auth/token", auto_error=False)


# The getters are `async def` on purpose: FastAPI runs plain `def` dependencies in a thread pool, a thread hop
# per dependency per request.
async def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


async def _positions(request: Request) -> Positions:
    positions: Positions = request.app.state.positions
    return positions


async def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def _bus(request: Request) -> Bus:
    bus: Bus = request.app.state.bus
    return bus


async def _chat(request: Request) -> Chat:
    chat: Chat = request.app.state.chat
    return chat


async def _notes(request: Request) -> NoteBook:
    notes: NoteBook = request.app.state.notes
    return notes


async def _signer(request: Request) -> TokenSigner:
    signer: TokenSigner = request.app.state.signer
    return signer


async def _sign_in(request: Request) -> SignIn:
    sign_in: SignIn = request.app.state.sign_in
    return sign_in


async def _session(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.service.db.session() as session:
        yield session


SettingsDep = Annotated[Settings, Depends(_settings)]
ServiceDep = Annotated[GameService, Depends(_service)]
PositionsDep = Annotated[Positions, Depends(_positions)]
LobbyDep = Annotated[Lobby, Depends(_lobby)]
BusDep = Annotated[Bus, Depends(_bus)]
ChatDep = Annotated[Chat, Depends(_chat)]
NotesDep = Annotated[NoteBook, Depends(_notes)]
SignerDep = Annotated[TokenSigner, Depends(_signer)]
SignInDep = Annotated[SignIn, Depends(_sign_in)]
SessionDep = Annotated[AsyncSession, Depends(_session)]


@dataclass(frozen=True, slots=True)
class SignedIn:
    """Who made the request, and with which session (to sign exactly that one out)."""

    account: Account
    session_id: str
    kind: Kind


@dataclass(frozen=True, slots=True)
class Claim:
    """A request's sign-in before anything is looked up: the random id its bearer token carries (the token's
    signature checked) or, without a token, its session cookie's."""

    session_id: str
    kind: Kind


async def _claim(request: Request, token: Annotated[str | None, Depends(oauth2_scheme)]) -> Claim | None:
    """The sign-in the request claims, without a query: None without token or cookie; a token whose signature
    does not hold is an error at once (its client expects to be signed in)."""
    return _claim_of(request, token)


def _claim_of(request: Request, token: str | None) -> Claim | None:
    if token is not None:
        signer: TokenSigner = request.app.state.signer
        session_id = signer.session_id(token)
        if session_id is None:
            raise _invalid_token()
        return Claim(session_id, "token")
    session_id = cookie_session_id(request)
    return None if session_id is None else Claim(session_id, "cookie")


@dataclass(frozen=True, slots=True)
class Claimed:
    """What the two requests of a move's cycle (GET and POST .../moves) start from: the request's claim (none is
    401) and the services they may answer with before anything is looked up."""

    claim: Claim
    sign_in: SignIn
    service: GameService
    positions: Positions


async def _claimed(request: Request) -> Claimed:
    """The claim and the services in one dependency that reads the token itself: the requests a player makes on
    every move (GET and POST .../moves) pay FastAPI's work for this one dependency, not for the token's as well
    (measured: a tenth of the web layer's instructions per move), nor for five. It stays a dependency so that a
    request without a sign-in is refused 401 before its body or path is judged, as with the others. Its routes
    declare the token's scheme in `openapi_extra` (`BEARER`), so that their documentation stays the same."""
    claim = _claim_of(request, await oauth2_scheme(request))
    if claim is None:
        raise _not_signed_in()
    state = request.app.state
    return Claimed(claim, state.sign_in, state.service, state.positions)


# What the token's dependency adds to a route's OpenAPI operation, for the routes that read the token themselves.
BEARER: dict[str, Any] = {"security": [{oauth2_scheme.scheme_name: []}]}


async def _signed_in(request: Request, claim: Annotated[Claim | None, Depends(_claim)]) -> SignedIn | None:
    """The session behind the bearer token, else behind the session cookie, else None. A bad, expired or revoked
    token is an error (its client expects to be signed in); such a cookie is only forgotten. From here on the
    request speaks the account's language, if it chose one.

    Every signed-in request resolves this, so it reaches the services itself rather than through dependencies of
    its own: FastAPI's work for each dependency costs more CPU than the lookup's own Python."""
    return await looked_up(request, claim)


async def looked_up(request: Request, claim: Claim | None) -> SignedIn | None:
    """`claim` looked up (see `_signed_in`), for a handler that tried something cheaper first."""
    if claim is None:
        return None
    sign_in: SignIn = request.app.state.sign_in
    account = await sign_in.account(claim.session_id, claim.kind)
    if account is None:
        if claim.kind == "token":
            raise _invalid_token()
        request.session.pop(SESSION_ID_KEY, None)
        return None
    return _speaking(SignedIn(account, claim.session_id, claim.kind))


def _not_signed_in() -> NotSignedIn:
    return NotSignedIn("not_signed_in", "Please sign in first.")


def _invalid_token() -> NotSignedIn:
    return NotSignedIn("invalid_token", "Your access token is invalid, expired or revoked; sign in again.")


def _speaking(signed_in: SignedIn) -> SignedIn:
    """Switch the request to the account's language (the request's middleware restores it afterwards)."""
    if signed_in.account.language is not None:
        i18n.use(signed_in.account.language)
    return signed_in


def required(signed_in: SignedIn | None) -> SignedIn:
    if signed_in is None:
        raise _not_signed_in()
    return signed_in


async def _current(signed_in: Annotated[SignedIn | None, Depends(_signed_in)]) -> SignedIn:
    return required(signed_in)


async def _optional_account(signed_in: Annotated[SignedIn | None, Depends(_signed_in)]) -> Account | None:
    return signed_in.account if signed_in is not None else None


async def _current_account(signed_in: Annotated[SignedIn | None, Depends(_signed_in)]) -> Account:
    return required(signed_in).account


def client_address(request: Request) -> str:
    """The client's address, as the server sees it (behind a trusted proxy: the one it forwarded)."""
    return request.client.host if request.client is not None else "unknown"


ClaimedDep = Annotated[Claimed, Depends(_claimed)]
OptionalSignedIn = Annotated[SignedIn | None, Depends(_signed_in)]
CurrentSignedIn = Annotated[SignedIn, Depends(_current)]
OptionalAccount = Annotated[Account | None, Depends(_optional_account)]
CurrentAccount = Annotated[Account, Depends(_current_account)]
