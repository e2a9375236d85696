"""Signing in and out: password checks behind the failed-sign-in limits, and the revocable sessions they open.

One place for every way in (API token, API cookie login, the HTML sign-in form, sign-up) and every way out (sign
out, sign out everywhere, password change), so the limits and the revocations cannot be forgotten on one path.
The clock is injected, so tests can move time instead of waiting.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from app.play import addresses, email_change, password_reset, sessions, sign_in_limits, your_data
from app.play.accounts import Account, Accounts, suspended
from app.play.clocks import Clock, utc_now
from app.play.email_change import EmailLinks
from app.play.errors import NotAllowed, NotSignedIn, TooMany, TooManyAttempts
from app.play.password_reset import ResetLinks
from app.play.record import SignInCheck
from app.play.sessions import Kind
from app.play.sign_in_limits import Limits
from app.store.db import Database
from app.store.tables import Outbox

OWNERS_REMEMBERED = 10_000  # sign-ins whose owner a process remembers (a few hundred kB)


class SignIn:
    """Sign-in commands; one instance per application."""

    def __init__(
        self,
        db: Database,
        accounts: Accounts,
        lifetimes: Mapping[Kind, timedelta],
        limits: Limits | None = None,
        clock: Clock = utc_now,
        reset_links: ResetLinks | None = None,
        email_links: EmailLinks | None = None,
    ) -> None:
        self.db = db
        self.reset_links = reset_links
        self.email_links = email_links
        self.accounts = accounts
        self.lifetimes = lifetimes
        self.limits = limits or Limits()
        self.clock = clock
        # Who each sign-in looked up here belongs to; only ever used with a check in the same statement (`claim`).
        self._owners: dict[str, int] = {}

    async def with_password(
        self, username: str, password: str, address: str, kind: Kind, *, known_device: bool = False
    ) -> tuple[Account, str]:
        """Check the password (once the limits allow an attempt) and open a session; returns the account and the
        session id for the client. `known_device`: the request comes from a browser that signed in to this account
        before, which only the limit per account and address holds up (app.play.sign_in_limits). NotSignedIn
        `invalid_credentials`, or TooManyAttempts before any hashing."""
        async with self.db.session() as session:
            await sign_in_limits.reserve_sign_in(
                session, self.limits, username, address, self.clock(), known_device=known_device
            )
        async with self.db.session() as session:
            account = await self.accounts.authenticate(session, username, password)
            await sign_in_limits.succeeded(
                session, self.limits, username, address, self.clock(), known_device=known_device
            )
            session_id = await sessions.open_session(session, account.id, kind, self.clock(), self.lifetimes[kind])
            await session.commit()
        return account, session_id

    async def register(
        self, username: str, email: str, password: str, address: str, *, language: str | None = None
    ) -> Account:
        """Create a player account (speaking `language`) once the sign-up limits allow another one from `address`
        (counted before the password is hashed, and kept whatever the outcome). Invalid `invalid_email` /
        `unsupported_email` (app.play.addresses), before anything is counted; TooMany `too_many_sign_ups`;
        Conflict `username_taken` / `email_taken`."""
        email = addresses.normalised(email)
        try:
            async with self.db.session() as session:
                await sign_in_limits.reserve(
                    session, self.limits.sign_ups, username, address, self.clock(), sign_in_limits.SIGN_UP_SCOPES
                )
        except TooManyAttempts as exc:
            raise TooMany(
                "too_many_sign_ups",
                "Too many accounts were created from your address lately; please wait and try again.",
                retry_after=exc.retry_after,
            ) from exc
        async with self.db.session() as session:
            account = await self.accounts.register(session, username, email, password, language=language)
            await session.commit()
        return account

    async def open(self, account: Account, kind: Kind) -> str:
        """Open a session for an account that just proved who it is (sign-up, a password change)."""
        async with self.db.session() as session:
            session_id = await sessions.open_session(session, account.id, kind, self.clock(), self.lifetimes[kind])
            await session.commit()
        return session_id

    async def account(self, session_id: str, kind: Kind) -> Account | None:
        """Who `session_id` signs in, if anybody still: one indexed query, no cache, so revocations count at once."""
        async with self.db.driver() as connection:
            account = await sessions.account_of(connection, session_id, kind, self.clock())
        key = sessions.key_of(session_id)
        if account is None or account.suspended:
            self._owners.pop(key, None)
            if account is not None:
                raise suspended()
        else:
            self._owners.pop(key, None)  # re-inserted last: the dict's order is the order of use
            self._owners[key] = account.id
            if len(self._owners) > OWNERS_REMEMBERED:
                del self._owners[next(iter(self._owners))]
        return account

    def claim(self, session_id: str, kind: Kind) -> SignInCheck | None:
        """The sign-in `session_id` as this process last found it, for a write that checks it in its own statement
        (`GameService.apply_in_one_trip`) instead of looking it up first; None when it was never looked up here.
        Nothing is trusted from memory: the statement records nothing unless the sign-in still stands and still
        belongs to the remembered user."""
        key = sessions.key_of(session_id)
        user_id = self._owners.get(key)
        return None if user_id is None else SignInCheck(key, kind, user_id)

    async def sign_out(self, session_id: str) -> None:
        async with self.db.session() as session:
            await sessions.revoke(session, session_id, self.clock())
            await session.commit()

    async def sign_out_everywhere(self, account: Account) -> None:
        async with self.db.session() as session:
            await sessions.revoke_all(session, account.id, self.clock())
            await session.commit()

    async def _confirm_password(self, account: Account, current: str, address: str) -> None:
        """The account's own password, asked again before a change: a guess like any sign-in, counted under the
        same limits first (committed on its own, so it stands even when the guess is wrong). NotAllowed
        `wrong_password` when it is not right."""
        async with self.db.session() as session:
            await sign_in_limits.reserve_sign_in(session, self.limits, account.username, address, self.clock())
        async with self.db.session() as session:
            try:
                await self.accounts.authenticate(session, account.username, current)
            except NotSignedIn as exc:
                raise NotAllowed("wrong_password", "Your current password is not right.") from exc

    async def change_password(self, account: Account, current: str, new: str, address: str) -> None:
        """Set a new password after checking the current one (a guess like any sign-in, so under the same limits),
        and sign out every browser and token of the account. NotAllowed `wrong_password` when `current` is wrong."""
        await self._confirm_password(account, current, address)
        async with self.db.session() as session:
            await self.accounts.set_password(session, account.id, new)
            await sessions.revoke_all(session, account.id, self.clock())
            await sign_in_limits.succeeded(session, self.limits, account.username, address, self.clock())
            await session.commit()

    async def delete_account(self, account: Account, password: str, address: str) -> None:
        """Delete the account after checking its password (a guess like any sign-in, under the same limits):
        what is erased and what stays, `app.play.your_data`. NotAllowed `wrong_password` when it is wrong."""
        await self._confirm_password(account, password, address)
        async with self.db.session() as session:
            await your_data.erase(session, account, self.clock())
            await session.commit()

    async def change_email(self, account: Account, current: str, email: str, address: str) -> bool:
        """Ask for a new address after checking the password (under the sign-in limits, like any guess): a
        stolen browser alone must not redirect the account's reset mails. The address changes only once the
        link mailed to it is followed (`confirm_email`, app.play.email_change). Returns whether a link was sent
        (False: the address is the account's own already, in any case). Invalid `invalid_email` /
        `unsupported_email` before the password is tried; NotAllowed `wrong_password`; Conflict `email_taken`."""
        new = addresses.normalised(email)
        await self._confirm_password(account, current, address)
        async with self.db.session() as session:
            await sign_in_limits.succeeded(session, self.limits, account.username, address, self.clock())
            await session.commit()
        async with self.db.session() as session:
            if await self.accounts.email_of(session, account.id) == new:
                return False
            await self.accounts.check_email_free(session, account.id, new)
            session.add(Outbox(kind="mail", recipient_id=account.id, next_attempt_at=self.clock(),
                               payload={"message": email_change.MAIL, "to": new}))
            await session.commit()
        return True

    async def email_pending(self, token: str) -> email_change.Pending | None:
        """What the confirmation link `token` would change; None for a forged, expired or used link."""
        if self.email_links is None:
            return None
        async with self.db.session() as session:
            return await email_change.pending(session, self.email_links, token)

    async def confirm_email(self, token: str) -> str:
        """Set the address the confirmation link `token` names (once: the change voids the link) and tell the
        address it replaces (`email_changed`, in the same transaction: a thief who changed it is seen by the
        owner). Returns the new address. NotAllowed `invalid_email_link` when the link is no longer good;
        Conflict `email_taken` when another account took the address meanwhile."""
        refused = NotAllowed(
            "invalid_email_link",
            "This confirmation link has expired or was already used; please ask for a new one in your settings.",
        )
        if self.email_links is None:
            raise refused
        async with self.db.session() as session:
            found = await email_change.pending(session, self.email_links, token)
            if found is None:
                raise refused
            previous = await self.accounts.set_email(session, found.user_id, found.new_email)
            if previous is not None and previous != found.new_email:
                session.add(Outbox(kind="mail", recipient_id=found.user_id, next_attempt_at=self.clock(),
                                   payload={"message": "email_changed", "to": previous, "new": found.new_email}))
            await session.commit()
        return found.new_email

    async def ask_for_reset(self, email: str, address: str) -> None:
        """Mail a reset link to the account with `email`, if any; the same (silent) answer either way. Invalid
        `invalid_email` / `unsupported_email` for what cannot be an account's address (nothing is counted)."""
        email = addresses.normalised(email)
        async with self.db.session() as session:
            await password_reset.request_link(session, email, address, self.clock())

    async def reset_pending(self, token: str) -> password_reset.Pending | None:
        """Whose password the reset link `token` may set; None for a forged, expired or used link."""
        if self.reset_links is None:
            return None
        async with self.db.session() as session:
            return await password_reset.pending(session, self.reset_links, token)

    async def reset_password(self, token: str, new: str) -> Account:
        """Set the password the reset link `token` allows (once: the new hash voids the link) and sign out every
        browser and token of the account. NotAllowed `invalid_reset_link` when the link is no longer good."""
        refused = NotAllowed(
            "invalid_reset_link", "This reset link has expired or was already used; please ask for a new one."
        )
        if self.reset_links is None:
            raise refused
        async with self.db.session() as session:
            found = await password_reset.pending(session, self.reset_links, token)
            if found is None:
                raise refused
            account = await self.accounts.set_password(session, found.user_id, new)
            await sessions.revoke_all(session, found.user_id, self.clock())
            await session.commit()
        return account

    async def ensure_admin(self, username: str, password: str, email: str | None = None) -> Account:
        """Create the admin `username` or make the account an admin with this password (the demo admin of the
        settings, `create-admin`); a changed password signs out every browser and token of the account, as any
        password change does. A new admin without `email` gets an address that reaches nobody
        (`addresses.placeholder`); Invalid `invalid_email` / `unsupported_email` for a given one."""
        email = addresses.normalised(email) if email is not None else addresses.placeholder(username)
        async with self.db.session() as session:
            account, changed = await self.accounts.ensure_admin(session, username, password, email)
            if changed:
                await sessions.revoke_all(session, account.id, self.clock())
            await session.commit()
        return account
