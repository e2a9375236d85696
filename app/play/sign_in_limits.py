"""Limits on failed sign-ins, counted in PostgreSQL so that they hold across instances.

The policy follows OWASP's advice on brute force (Authentication Cheat Sheet, "Account lockout"): an attacker must
not be able to lock the owner out, and one address shared by many people (an office, a proxy) must not lock them
all out either. So each attempt counts

- per account *and* address (`pair`): past `per_pair` failures that address may not try that account again until
  the window closes; the owner, elsewhere, is not held up;
- per account from every address (`account`): past `per_account` failures sign-ins to the account slow down
  instead of stopping: one attempt per `pace`, the others told to come back within seconds (429 and a short
  `Retry-After`), so the owner's right password still gets in. A browser that signed in to the account before
  (the web layer's signed device cookie) is counted per pair only;
- per address across accounts (`address`): a much higher limit, `per_address`, against one address trying many
  names.

Each attempt first reserves its place: one transaction bumps the counters (always in the order above, so two
attempts never wait on each other in opposite orders) and is rolled back when one is over its limit; the row locks
make concurrent attempts count one after another, so no burst slips past a limit. Only then may the password be
hashed. A success gives the reservation back: the pair's count starts again, the account's and the address's go
down by one, so they count failures only. Counting is per fixed window: the first failure opens it, and it closes
`window` later (`pace` for the slowed-down account's attempts).

Account names are counted whether or not such an account exists, so the answer tells nobody which names exist.
IPv6 addresses are counted per /64, the block one machine usually holds.
"""

from __future__ import annotations

import hashlib
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
    """How many failed sign-ins are allowed per account and address, per account and per address within one
    window, and the pace of an account's attempts past its limit."""

    per_pair: int = 10
    per_account: int = 20
    per_address: int = 100
    window: timedelta = timedelta(minutes=15)
    pace: timedelta = timedelta(seconds=5)
    sign_ups_per_address: int = 30  # accounts created from one address within `sign_up_window`
    sign_up_window: timedelta = timedelta(hours=1)

    @property
    def sign_ups(self) -> Limits:
        """The limits sign-ups are counted under (per name: a few tries; per address: `sign_ups_per_address`)."""
        return Limits(per_account=5, per_address=self.sign_ups_per_address, window=self.sign_up_window)


@dataclass(frozen=True, slots=True)
class Counter:
    """One count an attempt adds to: its row, the failures its window allows and how long that is, and, for a
    count that slows attempts down instead of stopping them, the pace of those past the limit."""

    scope: str
    key: str
    allowed: int
    window: timedelta
    pace: timedelta | None = None


def address_key(address: str) -> str:
    """The key an address is counted under: itself, or its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:KEY_LENGTH]
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _name_key(username: str) -> str:
    return username.lower()[:KEY_LENGTH]


def _pair_key(username: str, address: str) -> str:
    """One key for an account name and an address (together longer than a key may be: hashed)."""
    return hashlib.sha256(f"{_name_key(username)}\n{address_key(address)}".encode()).hexdigest()


# The sign-in counters' scopes, and the one of the slowed-down account's attempts.
PAIR, ACCOUNT, ADDRESS, PACE = "pair", "account", "address", "pace"
SIGN_IN_SCOPES = (PAIR, ACCOUNT, ADDRESS, PACE)
# Requests for a password reset mail, counted per address asked for and per client address, apart from sign-ins
# so that asking for mails never locks anybody out of signing in, nor the other way round.
RESET_SCOPES = ("reset", "resetip")
# Sign-ups, counted whether they succeed or not: each one costs a password hash, CPU an attacker could buy by the
# thousand. The name is counted too (harmless: a name can be registered once).
SIGN_UP_SCOPES = ("signup", "signupip")


def sign_in_counters(limits: Limits, username: str, address: str, *, known_device: bool = False) -> list[Counter]:
    """What a sign-in as `username` from `address` counts under; from a browser that signed in to the account
    before (`known_device`), the pair's count only."""
    pair = Counter(PAIR, _pair_key(username, address), limits.per_pair, limits.window)
    if known_device:
        return [pair]
    return [
        pair,
        Counter(ACCOUNT, _name_key(username), limits.per_account, limits.window, pace=limits.pace),
        Counter(ADDRESS, address_key(address), limits.per_address, limits.window),
    ]


async def reserve_sign_in(
    session: AsyncSession, limits: Limits, username: str, address: str, now: datetime, *, known_device: bool = False
) -> None:
    """Count an attempt to sign in as `username` from `address` and commit it; TooManyAttempts (with nothing
    counted) when a limit is used up, or the account's attempts are slowed down and this one comes too soon."""
    await _reserve(session, sign_in_counters(limits, username, address, known_device=known_device), now)


async def reserve(
    session: AsyncSession, limits: Limits, name: str, address: str, now: datetime, scopes: tuple[str, str]
) -> None:
    """Count another kind of attempt (`scopes`: a reset mail, a sign-up) per name and per address, and commit
    it; TooManyAttempts (with nothing counted) when either has used up its window."""
    counters = [
        Counter(scopes[0], _name_key(name), limits.per_account, limits.window),
        Counter(scopes[1], address_key(address), limits.per_address, limits.window),
    ]
    await _reserve(session, counters, now)


async def _reserve(session: AsyncSession, counters: list[Counter], now: datetime) -> None:
    waits = []
    for counter in counters:
        failures, window_start = await _bump(session, counter.scope, counter.key, now, counter.window)
        if failures <= counter.allowed:
            continue
        if counter.pace is None:
            waits.append(window_start + counter.window - now)
            continue
        attempts, pace_start = await _bump(session, PACE, counter.key, now, counter.pace)
        if attempts > 1:
            waits.append(pace_start + counter.pace - now)
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


async def succeeded(
    session: AsyncSession, limits: Limits, username: str, address: str, now: datetime, *, known_device: bool = False
) -> None:
    """Give back a successful sign-in's reservation (the pair starts again; the account and the address, when
    the attempt counted there, count one failure less), and drop every sign-in count whose window has closed."""
    await session.execute(delete(SignInLimit).where(SignInLimit.scope == PAIR,
                                                    SignInLimit.key == _pair_key(username, address)))
    counted = () if known_device else ((ACCOUNT, _name_key(username)), (ADDRESS, address_key(address)))
    for scope, key in counted:
        await session.execute(
            update(SignInLimit)
            .where(SignInLimit.scope == scope, SignInLimit.key == key, SignInLimit.failures > 0)
            .values(failures=SignInLimit.failures - 1)
        )
    closed = SignInLimit.window_start <= now - limits.window
    await session.execute(delete(SignInLimit).where(SignInLimit.scope.in_(SIGN_IN_SCOPES), closed))
