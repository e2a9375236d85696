"""Limits on opening tables and on invitations, per account and per client address within a day, counted in
PostgreSQL (the sign-in limits' counters, app.play.sign_in_limits, under scopes of their own) so that they hold
across instances.

Why: every invitation mails a person the inviter names, so opening tables and inviting were a way to make the site
mail anyone, as often as one liked (20 tables inviting one player: 20 mails in 2.3 s). The defaults are far above
what a real player does (a few tables a week), and admins are not counted. An attempt is counted before the table
or the invitation is made, and stays counted whether or not it succeeds, like a sign-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from app.play.errors import TooMany, TooManyAttempts
from app.play.sign_in_limits import Limits, reserve

# (per account, per client address); at most 8 characters each (the counters' `scope` column).
TABLE_SCOPES = ("tables", "tablesip")
INVITATION_SCOPES = ("invites", "invitip")


@dataclass(frozen=True, slots=True)
class HostingLimits:
    """How many tables and invitations one account, and one client address, may make within `window`."""

    tables_per_account: int = 20
    tables_per_address: int = 60
    invitations_per_account: int = 50
    invitations_per_address: int = 150
    window: timedelta = timedelta(days=1)

    @property
    def tables(self) -> Limits:
        return Limits(per_account=self.tables_per_account, per_address=self.tables_per_address, window=self.window)

    @property
    def invitations(self) -> Limits:
        return Limits(
            per_account=self.invitations_per_account, per_address=self.invitations_per_address, window=self.window
        )


async def count_table(session: AsyncSession, limits: HostingLimits, username: str, address: str,
                      now: datetime) -> None:
    """Count one table opened by `username` from `address` (committed); TooMany `too_many_tables` once either
    has used up its day (nothing counted then)."""
    try:
        await reserve(session, limits.tables, username, address, now, TABLE_SCOPES)
    except TooManyAttempts as exc:
        raise TooMany(
            "too_many_tables", "You opened too many tables lately; please wait and try again.",
            retry_after=exc.retry_after,
        ) from exc


async def count_invitations(session: AsyncSession, limits: HostingLimits, username: str, address: str,
                            now: datetime, count: int) -> None:
    """Count `count` invitations sent by `username` from `address` (each committed); TooMany
    `too_many_invitations` once either has used up its day."""
    for _ in range(count):
        try:
            await reserve(session, limits.invitations, username, address, now, INVITATION_SCOPES)
        except TooManyAttempts as exc:
            raise TooMany(
                "too_many_invitations", "You sent too many invitations lately; please wait and try again.",
                retry_after=exc.retry_after,
            ) from exc
