"""Limits on failed sign-ins, per account name and per client address, counted in PostgreSQL so that they hold
across instances.

Each attempt first reserves its place: one transaction bumps both counters (account first, then address, so two
attempts never wait on each other in opposite orders) and is rolled back when either is over its limit; the
row locks make concurrent attempts count one after another, so no burst slips past the limit. Only then may the
password be hashed. A success gives the reservation back: the account's count starts again and the address's
goes down by one, so the address counts failures only. Counting is per fixed window: the first failure opens
it, and it closes `window` later.

Account names are counted whether or not such an account exists, so the answer tells nobody which names exist.
IPv6 addresses are counted per /64, the block one machine usually holds.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import case, delete, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.errors import TooManyAttempts
from app.store.tables import SignInLimit

KEY_LENGTH = 64  # longer account names than this cannot exist (usernames have at most 32 characters)


@dataclass(frozen=True, slots=True)
class Limits:
    """How many failed sign-ins are allowed per account and per address within one window."""

    per_account: int = 10
    per_address: int = 30
    window: timedelta = timedelta(minutes=15)
    sign_ups_per_address: int = 30  # accounts created from one address within `sign_up_window`
    sign_up_window: timedelta = timedelta(hours=1)

    @property
    def sign_ups(self) -> Limits:
        """The limits sign-ups are counted under (per name: a few tries; per address: `sign_ups_per_address`)."""
        return Limits(per_account=5, per_address=self.sign_ups_per_address, window=self.sign_up_window)


def address_key(address: str) -> str:
    """The key an address is counted under: itself, or its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:KEY_LENGTH]
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


# The counters' scopes (account, address): sign-ins, and requests for a password reset mail, which are counted
# apart so that asking for mails never locks anybody out of signing in, nor the other way round.
SIGN_IN_SCOPES = ("account", "address")
RESET_SCOPES = ("reset", "resetip")
# Sign-ups, counted whether they succeed or not: each one costs a password hash, CPU an attacker could buy by the
# thousand. The name is counted too (harmless: a name can be registered once).
SIGN_UP_SCOPES = ("signup", "signupip")


def _keys(username: str, address: str, scopes: tuple[str, str] = SIGN_IN_SCOPES) -> list[tuple[str, str]]:
    return [(scopes[0], username.lower()[:KEY_LENGTH]), (scopes[1], address_key(address))]


async def reserve(
    session: AsyncSession,
    limits: Limits,
    username: str,
    address: str,
    now: datetime,
    scopes: tuple[str, str] = SIGN_IN_SCOPES,
) -> None:
    """Count an attempt to sign in as `username` from `address` (or, with other `scopes`, another kind of
    attempt) and commit it; TooManyAttempts (with nothing counted) when the account or the address has used up
    its window."""
    allowed = {scopes[0]: limits.per_account, scopes[1]: limits.per_address}
    waits = []
    for scope, key in _keys(username, address, scopes):
        failures, window_start = await _bump(session, scope, key, now, limits.window)
        if failures > allowed[scope]:
            waits.append(window_start + limits.window - now)
    if waits:
        await session.rollback()
        raise TooManyAttempts(max(1, math.ceil(max(waits).total_seconds())))
    await session.commit()


async def _bump(session: AsyncSession, scope: str, key: str, now: datetime, window: timedelta) -> tuple[int, datetime]:
    closed = SignInLimit.window_start <= now - window
    statement = (
        insert(SignInLimit)
        .values(scope=scope, key=key, window_start=now, failures=1)
        .on_conflict_do_update(
            index_elements=[SignInLimit.scope, SignInLimit.key],
            set_={
                "failures": case((closed, 1), else_=SignInLimit.failures + 1),
                "window_start": case((closed, now), else_=SignInLimit.window_start),
            },
        )
        .returning(SignInLimit.failures, SignInLimit.window_start)
    )
    failures, window_start = (await session.execute(statement)).one()
    return failures, window_start


async def succeeded(session: AsyncSession, limits: Limits, username: str, address: str, now: datetime) -> None:
    """Give back a successful attempt's reservation, and drop every count whose window has closed."""
    (account, name), (address_scope, address) = _keys(username, address)
    await session.execute(delete(SignInLimit).where(SignInLimit.scope == account, SignInLimit.key == name))
    await session.execute(
        update(SignInLimit)
        .where(SignInLimit.scope == address_scope, SignInLimit.key == address, SignInLimit.failures > 0)
        .values(failures=SignInLimit.failures - 1)
    )
    await session.execute(  # only the sign-ins' own counts: other scopes count over longer windows
        delete(SignInLimit).where(
            SignInLimit.scope.in_(SIGN_IN_SCOPES), SignInLimit.window_start <= now - limits.window
        )
    )
