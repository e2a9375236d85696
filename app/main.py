"""The composition root: builds the database, the services, the bus, the background jobs and the web app from
the settings, for the server, `python -m app worker` and `create-admin` alike.

It is the one place that turns the Settings into the lower layers' plain arguments (a database URL, a poll
interval, an SMTP host), so that no layer imports the layers above it or the settings to find its parts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

from fastapi import FastAPI

import app.i18n as i18n
from app.bots.search import Budget
from app.notify.preferences import UnsubscribeLinks
from app.notify.push_sender import PushSender
from app.notify.sender import LogSender, Sender, SmtpSender
from app.notify.worker import MailSettings, Notifier
from app.play.accounts import Accounts, make_hasher
from app.play.bot_keeper import BotKeeper
from app.play.bus import Bus
from app.play.chat import Chat
from app.play.email_change import EmailLinks
from app.play.hosting_limits import HostingLimits
from app.play.keeper import ClockKeeper
from app.play.lobby import Lobby
from app.play.notes import NoteBook
from app.play.password_reset import ResetLinks
from app.play.positions import Positions
from app.play.readiness import Readiness
from app.play.service import GameService
from app.play.sign_in import SignIn
from app.play.sign_in_limits import Limits
from app.play.thinking import Thinker
from app.settings import Settings
from app.store import migrate
from app.store.db import Database, open_database
from app.store.repository import StateCache
from app.web.app import Services, build_app

log = logging.getLogger(__name__)


def build_sign_in(settings: Settings, db: Database) -> SignIn:
    """The sign-in service with the lifetimes and limits of the settings."""
    return SignIn(
        db,
        Accounts(make_hasher(settings.password_hashing)),
        lifetimes={
            "token": timedelta(hours=settings.token_max_age_hours),
            "cookie": timedelta(hours=settings.session_max_age_hours),
        },
        limits=Limits(
            per_pair=settings.sign_in_failures_per_account_and_address,
            per_account=settings.sign_in_failures_per_account,
            per_address=settings.sign_in_failures_per_address,
            window=timedelta(minutes=settings.sign_in_window_minutes),
            pace=timedelta(seconds=settings.sign_in_slowdown_seconds),
            sign_ups_per_address=settings.sign_ups_per_address_per_hour,
        ),
        reset_links=reset_links_for(settings),
        email_links=email_links_for(settings),
    )


def hosting_limits_for(settings: Settings) -> HostingLimits:
    """The tables and invitations a player may make a day (TABLES_PER_DAY and friends)."""
    return HostingLimits(
        tables_per_account=settings.tables_per_day,
        tables_per_address=settings.tables_per_address_per_day,
        invitations_per_account=settings.invitations_per_day,
        invitations_per_address=settings.invitations_per_address_per_day,
    )


def thinker_for(settings: Settings) -> Thinker:
    """The site's bot thinking for this server: the hard level's budget and worker processes (BOT_HARD_*)."""
    return Thinker(hard_budget=Budget(playouts=settings.bot_hard_playouts, seconds=settings.bot_hard_seconds),
                   processes=settings.bot_hard_processes)


def reset_links_for(settings: Settings) -> ResetLinks:
    return ResetLinks(settings.signing_key(), settings.base_url)


def email_links_for(settings: Settings) -> EmailLinks:
    return EmailLinks(settings.signing_key(), settings.base_url)


def sender_for(settings: Settings) -> Sender:
    """SMTP when SMTP_HOST is set; otherwise mails only go to the log."""
    if not settings.smtp_host:
        return LogSender()
    return SmtpSender(
        host=settings.smtp_host,
        port=settings.smtp_port,
        username=settings.smtp_user,
        password=settings.smtp_password,
        start_tls=settings.smtp_starttls,
    )


def push_sender_for(settings: Settings) -> PushSender | None:
    """The web push sender with the VAPID key of the settings; None (no push) in production without one."""
    key = settings.vapid_key()
    if key is None:
        return None
    return PushSender(key, settings.vapid_contact(), allow_private=settings.push_allow_private_endpoints)


def notifier_for(settings: Settings, service: GameService, sender: Sender | None = None) -> Notifier:
    return Notifier(
        service.db,
        sender or sender_for(settings),
        MailSettings(
            base_url=settings.base_url, from_address=settings.smtp_from, digest_hour_utc=settings.digest_hour_utc
        ),
        UnsubscribeLinks(settings.signing_key(), settings.base_url),
        reset_links=reset_links_for(settings),
        email_links=email_links_for(settings),
        pushes=push_sender_for(settings),
        recorded=service.cache,
    )


@contextlib.asynccontextmanager
async def opened_database(settings: Settings, *, migrated: bool) -> AsyncIterator[Database]:
    """The database of the settings (the embedded one when DATABASE_URL is unset), brought to the newest schema
    first if `migrated`; closed on exit, which stops an embedded server (uvicorn re-raises SIGTERM, so atexit
    would never run)."""
    db = await asyncio.to_thread(
        functools.partial(
            open_database,
            settings.database_url,
            settings.data_dir,
            listen_url=settings.listen_database_url,
            prepared_statements=settings.database_prepared_statements,
        )
    )
    try:
        if migrated:
            await asyncio.to_thread(migrate.upgrade, db.url)
        yield db
    finally:
        await db.close()


@contextlib.asynccontextmanager
async def background_jobs(settings: Settings, service: GameService, bus: Bus | None = None) -> AsyncIterator[None]:
    """Run the mail worker, the clock check and the bots' moves until the block exits; each is safe to run in
    every instance at once. With the `bus`, a game's change wakes the mail worker (its notices go out at once)."""
    notifier = notifier_for(settings, service)
    if bus is not None:
        bus.hear(lambda _change: notifier.wake(), notifier.wake)
    keeper = ClockKeeper(service)
    bots = BotKeeper(service)
    tasks = [
        asyncio.create_task(notifier.run_forever(settings.mail_poll_seconds), name="mail-worker"),
        asyncio.create_task(keeper.run_forever(settings.clock_check_seconds), name="clock-check"),
        asyncio.create_task(bots.run_forever(settings.bot_poll_seconds), name="bots"),
    ]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[Services]:
    """Everything a server instance runs on, from start-up to shutdown: the database (migrated unless
    MIGRATE_ON_START is off), the bus listening, the admin of ADMIN_USERNAME ensured, the services, and the
    background jobs unless BACKGROUND_JOBS is off."""
    async with opened_database(settings, migrated=settings.migrate_on_start) as db:
        bus = Bus(db.libpq_url, catch_up_seconds=settings.live_catch_up_seconds)
        thinker = thinker_for(settings)
        try:
            await bus.start()
            sign_in = build_sign_in(settings, db)
            if settings.admin_username and settings.admin_password:
                await sign_in.ensure_admin(settings.admin_username, settings.admin_password)
            cache = StateCache()  # all that the write path, the reads and the lobby share
            service = GameService(db, cache, thinker=thinker)
            positions = Positions(db, cache)
            lobby = Lobby(db, cache, positions, players_create_games=settings.players_create_games,
                          hosting_limits=hosting_limits_for(settings))
            bus.hear(service.hear, service.forget_seats)  # seats changing hands on any instance
            services = Services(
                service=service,
                positions=positions,
                lobby=lobby,
                sign_in=sign_in,
                bus=bus,
                chat=Chat(db),
                notes=NoteBook(db),
                readiness=Readiness(db, migrate.head_revision()),
                pushes=push_sender_for(settings),
            )
            async with contextlib.AsyncExitStack() as jobs:
                if settings.background_jobs:
                    await jobs.enter_async_context(background_jobs(settings, services.service, bus))
                yield services
                await service.settled()  # notices still to send, games a last move's pass left pending to rate
        finally:
            thinker.close()
            await bus.stop()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web application of `settings` (read from the environment if not given), whose start-up builds and
    starts everything `running` names; nothing touches the database before then. The message catalogs are
    compiled first where their `.mo` is missing or stale (a fresh clone, an updated translation)."""
    settings = settings or Settings()
    i18n.compile_catalogs()
    return build_app(settings, functools.partial(running, settings))


async def run_worker(settings: Settings) -> None:
    """`python -m app worker`: the background jobs alone, without the web server."""
    i18n.compile_catalogs()
    async with opened_database(settings, migrated=settings.migrate_on_start) as db:
        mail = f"SMTP {settings.smtp_host}:{settings.smtp_port}" if settings.smtp_host else "the log (no SMTP_HOST)"
        log.info(
            "worker running: mail to %s, clock check every %ss, bots every %ss",
            mail, settings.clock_check_seconds, settings.bot_poll_seconds,
        )
        service = GameService(db, thinker=thinker_for(settings))
        try:
            async with background_jobs(settings, service):
                await asyncio.Event().wait()
        finally:
            await service.announcer.settled()  # the notices of the clocks' and bots' last moves
            service.thinker.close()


async def rate_games(settings: Settings, rebuild: bool) -> int:
    """`python -m app ratings`: rate the finished games still pending, or (`rebuild`) compute every rating again
    from the results table (migrating first); how many games were rated."""
    from app.play import ratings

    async with opened_database(settings, migrated=True) as db:
        return await (ratings.rebuild(db) if rebuild else ratings.rate_pending(db))


async def audit_logs(settings: Settings, say: Callable[[str], object]) -> int:
    """`python -m app audit`: check every stored game's log (`app.play.log_audit`), saying a line for each game
    that fails and one in the end; how many failed. The database is read as it is (no migration: an audit of a
    restored backup must not change it)."""
    from app.play.log_audit import audit_games

    games = failed = events = 0
    async with opened_database(settings, migrated=False) as db:
        async for found in audit_games(db):
            games, events = games + 1, events + found.events
            if not found.ok:
                failed += 1
                say(f"game {found.game_id} ({found.name}) FAILS: " + "; ".join(found.problems))
    if failed:
        say(f"audit: {failed} of {games} games fail")
    else:
        say(f"audit: all {games} games hold ({events} events replayed from their seeds)")
    return failed


async def ensure_admin(settings: Settings, username: str, password: str, email: str | None) -> None:
    """`python -m app create-admin`: the account `username` is an admin with `password` (migrating first)."""
    async with opened_database(settings, migrated=True) as db:
        await build_sign_in(settings, db).ensure_admin(username, password, email)
