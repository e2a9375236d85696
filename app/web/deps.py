"""Annotated dependencies: the session, the signed-in account, the services."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import OAuth2PasswordBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.accounts import Account, AccountCache, Accounts, get_account
from app.play.bus import Bus
from app.play.errors import NotSignedIn
from app.play.service import GameService
from app.web.security import SESSION_USER_KEY, TokenSigner
from app.web.settings import Settings

oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/api/v1/auth/token", auto_error=False)


# The getters are `async def` on purpose: FastAPI runs plain `def` dependencies in a thread pool, a thread hop
# per dependency per request.
async def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


async def _accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


async def _bus(request: Request) -> Bus:
    bus: Bus = request.app.state.bus
    return bus


async def _signer(request: Request) -> TokenSigner:
    signer: TokenSigner = request.app.state.signer
    return signer


async def _session(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.service.db.session() as session:
        yield session


SettingsDep = Annotated[Settings, Depends(_settings)]
ServiceDep = Annotated[GameService, Depends(_service)]
AccountsDep = Annotated[Accounts, Depends(_accounts)]
BusDep = Annotated[Bus, Depends(_bus)]
SignerDep = Annotated[TokenSigner, Depends(_signer)]
SessionDep = Annotated[AsyncSession, Depends(_session)]


async def _optional_account(
    request: Request, signer: SignerDep, token: Annotated[str | None, Depends(oauth2_scheme)]
) -> Account | None:
    """The account behind the bearer token, else behind the session cookie, else None."""
    if token is not None:
        user_id = signer.user_id(token)
        if user_id is None:
            raise NotSignedIn("invalid_token", "Your access token is invalid or has expired; sign in again.")
    else:
        user_id = request.session.get(SESSION_USER_KEY)
        if not isinstance(user_id, int):
            return None
    cache: AccountCache = request.app.state.account_cache
    account = cache.get(user_id)
    if account is not None:
        return account
    async with request.app.state.service.db.reading() as session:
        account = await get_account(session, user_id)
    if account is None:
        request.session.pop(SESSION_USER_KEY, None)
    else:
        cache.put(account)
    return account


async def _current_account(account: Annotated[Account | None, Depends(_optional_account)]) -> Account:
    if account is None:
        raise NotSignedIn("not_signed_in", "Please sign in first.")
    return account


OptionalAccount = Annotated[Account | None, Depends(_optional_account)]
CurrentAccount = Annotated[Account, Depends(_current_account)]
