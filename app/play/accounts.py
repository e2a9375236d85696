"""Accounts: registration, password checks (argon2 via argon2-cffi), admins, and the site's bots.

Hashing takes a tenth of a second on purpose, so it runs in a worker thread to keep the event loop free.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, or_, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.errors import Conflict, Invalid, NotAllowed, NotSignedIn
from app.store.tables import User

# The site's bots are called bot-1, bot-2, ... (API.md "Bots"); nobody else may take such a name.
BOT_NAME = re.compile(r"bot-[0-9a-z]+", re.IGNORECASE)  # bot-1 ..., and the bot levels (bot-normal)
# A deleted account is called deleted-<its id> (app.play.your_data); nobody may take such a name either.
DELETED_NAME = re.compile(r"deleted-[0-9]+", re.IGNORECASE)
NO_PASSWORD = "!"  # no argon2 hash: every password is wrong for it


def suspended() -> NotAllowed:
    """The refusal of a suspended account's sign-ins and requests."""
    return NotAllowed("account_suspended", "This account is suspended; the mail it was sent says why.")


def deleted_name(user_id: int) -> str:
    """The name a deleted account is shown by, everywhere."""
    return f"deleted-{user_id}"


@dataclass(frozen=True, slots=True)
class Account:
    """What the rest of the application knows about a signed-in user."""

    id: int
    username: str
    is_admin: bool
    language: str | None = None  # the language chosen for pages and mails; None: the browser's
    suspended: bool = False  # suspended by an admin (app.play.moderation): every request of it is refused


def make_hasher(profile: str = "standard") -> PasswordHasher:
    """argon2id with the library's recommended parameters, or its cheapest profile for test suites."""
    if profile == "cheapest":
        return PasswordHasher.from_parameters(profiles.CHEAPEST)
    return PasswordHasher()


class Accounts:
    """Account commands; one instance per application (it owns the hasher)."""

    def __init__(self, hasher: PasswordHasher) -> None:
        self.hasher = hasher
        # Verifying against a real hash for unknown names keeps their answer as slow as a wrong password's.
        self._decoy = hasher.hash("decoy password, never valid")

    async def register(
        self, session: AsyncSession, username: str, email: str, password: str, *, is_admin: bool = False,
        language: str | None = None,
    ) -> Account:
        """Create an account (speaking `language`, the one its sign-up page spoke); Conflict `username_taken` /
        `email_taken` when either is in use (any case), Invalid `reserved_username` for a bot's name."""
        if BOT_NAME.fullmatch(username):
            raise Invalid("reserved_username", "Names like 'bot-1' belong to the site's bots; please choose another.")
        if DELETED_NAME.fullmatch(username):
            raise Invalid(
                "reserved_username", "Names like 'deleted-1' stand for deleted accounts; please choose another."
            )
        await self._refuse_taken(session, username, email)
        password_hash = await asyncio.to_thread(self.hasher.hash, password)
        user = User(username=username, email=email.lower(), password_hash=password_hash, is_admin=is_admin,
                    language=language)
        session.add(user)
        try:
            await session.flush()
        except IntegrityError as exc:  # a concurrent registration won the race
            await session.rollback()
            await self._refuse_taken(session, username, email)
            raise Conflict("username_taken", "That username or email address is already in use.") from exc
        return Account(user.id, user.username, user.is_admin, user.language)

    async def _refuse_taken(self, session: AsyncSession, username: str, email: str) -> None:
        rows = await session.execute(
            select(User.username, User.email).where(
                or_(func.lower(User.username) == username.lower(), User.email == email.lower())
            )
        )
        for taken_name, taken_email in rows.all():
            if taken_name.lower() == username.lower():
                raise Conflict("username_taken", "The username '{name}' is already taken.", name=username)
            if taken_email == email.lower():
                raise Conflict("email_taken", "An account with that email address already exists.")

    async def authenticate(self, session: AsyncSession, username: str, password: str) -> Account:
        """The account for these credentials; NotSignedIn `invalid_credentials` otherwise."""
        user = await find_by_name(session, username)
        stored = user.password_hash if user is not None else self._decoy
        try:
            await asyncio.to_thread(self.hasher.verify, stored, password)
        except (VerificationError, InvalidHashError):
            user = None
        if user is None:
            raise NotSignedIn("invalid_credentials", "The username or password is wrong.")
        if user.suspended_at is not None:  # said only to whoever knows the password
            raise suspended()
        if self.hasher.check_needs_rehash(user.password_hash):
            user.password_hash = await asyncio.to_thread(self.hasher.hash, password)
        return Account(user.id, user.username, user.is_admin, user.language)

    async def set_password(self, session: AsyncSession, user_id: int, password: str) -> Account:
        """Replace the password of `user_id` (the caller has checked who is asking)."""
        user = await session.get(User, user_id, with_for_update=True)
        if user is None:
            raise NotSignedIn("not_signed_in", "Your account no longer exists.")
        user.password_hash = await asyncio.to_thread(self.hasher.hash, password)
        return Account(user.id, user.username, user.is_admin, user.language)

    async def email_of(self, session: AsyncSession, user_id: int) -> str | None:
        """The address of `user_id` (None: a bot's account, or no such account)."""
        email: str | None = await session.scalar(select(User.email).where(User.id == user_id))
        return email

    async def check_email_free(self, session: AsyncSession, user_id: int, email: str) -> None:
        """Conflict `email_taken` when an account other than `user_id` uses `email` (any case)."""
        taken = await session.scalar(select(User.id).where(User.email == email.lower(), User.id != user_id))
        if taken is not None:
            raise Conflict("email_taken", "An account with that email address already exists.")

    async def set_email(self, session: AsyncSession, user_id: int, email: str) -> str | None:
        """Replace the address of `user_id` and return the one it replaced; Conflict `email_taken` when another
        account uses it (any case)."""
        await self.check_email_free(session, user_id, email)
        user = await session.get(User, user_id)
        if user is None:
            raise NotSignedIn("not_signed_in", "Your account no longer exists.")
        previous, user.email = user.email, email.lower()
        try:
            await session.flush()
        except IntegrityError as exc:  # a concurrent registration took it
            await session.rollback()
            raise Conflict("email_taken", "An account with that email address already exists.") from exc
        return previous

    async def ensure_admin(
        self, session: AsyncSession, username: str, password: str, email: str
    ) -> tuple[Account, bool]:
        """Create the admin `username`, or make the existing account an admin with this password; also says
        whether an existing account's password changed (its sign-ins must then be revoked by the caller)."""
        user = await find_by_name(session, username)
        if user is None:
            return await self.register(session, username, email, password, is_admin=True), False
        user.is_admin = True
        try:
            await asyncio.to_thread(self.hasher.verify, user.password_hash, password)
            changed = False
        except (VerificationError, InvalidHashError):
            user.password_hash = await asyncio.to_thread(self.hasher.hash, password)
            changed = True
        return Account(user.id, user.username, True, user.language), changed


async def set_language(session: AsyncSession, user_id: int, language: str | None) -> None:
    """Speak `language` to `user_id` in pages and mails from now on (None: follow the browser)."""
    await session.execute(update(User).where(User.id == user_id).values(language=language))


async def account_by_id(session: AsyncSession, user_id: int) -> Account | None:
    """The account of `user_id` (None when there is none), for a page whose reader need not be signed in: an
    unsubscribe link names its account."""
    user = await session.get(User, user_id)
    return Account(user.id, user.username, user.is_admin, user.language) if user is not None else None


async def email_of(session: AsyncSession, user_id: int) -> str | None:
    """The address `user_id`'s mails go to (None: a bot's, which is never mailed)."""
    email: str | None = await session.scalar(select(User.email).where(User.id == user_id))
    return email


async def find_by_name(session: AsyncSession, username: str) -> User | None:
    """The user called `username`, ignoring case."""
    result = await session.execute(select(User).where(func.lower(User.username) == username.lower()))
    return result.scalar_one_or_none()


async def bot_accounts(session: AsyncSession, count: int) -> list[User]:
    """The site's bots `bot-1` .. `bot-{count}`, created when first needed: no address (no mail ever goes to a
    bot) and no password (nobody signs in as one). Several instances may create them at once."""
    names = [f"bot-{n}" for n in range(1, count + 1)]
    if not names:
        return []
    await session.execute(
        insert(User)
        .values([{"username": name, "email": None, "password_hash": NO_PASSWORD, "is_bot": True} for name in names])
        .on_conflict_do_nothing()
    )
    found = {
        user.username: user
        for user in (await session.scalars(select(User).where(User.username.in_(names), User.is_bot))).all()
    }
    missing = [name for name in names if name not in found]
    if missing:  # an account from before the names were reserved
        raise Conflict(
            "bot_unavailable", "The name '{name}' belongs to a player, not to the site's bot.", name=missing[0]
        )
    return [found[name] for name in names]
