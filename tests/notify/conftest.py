"""Fixtures for the mail tests: a real SMTP server (aiosmtpd) on a free local port, an app whose mail goes
there, and drivers that play moves through the service quickly."""

from __future__ import annotations

import asyncio
import email
import random
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import default as default_policy
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from conftest import Api, Player, free_port

from app.main import create_app, notifier_for
from app.notify.worker import Notifier
from app.play.accounts import Account
from app.play.commands import PlayerMove
from app.play.lobby import Lobby
from app.play.positions import Positions
from app.play.service import GameService
from app.settings import Settings

BASE_URL = "https://carson.example"


@dataclass
class Inbox:
    """What the SMTP server received, each mail parsed, with its envelope recipients (and, in `raw`, the bytes
    as they came over the wire)."""

    mails: list[tuple[list[str], EmailMessage]] = field(default_factory=list)
    raw: list[bytes] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=default_policy)
        assert isinstance(parsed, EmailMessage)
        with self.lock:
            self.mails.append((list(envelope.rcpt_tos), parsed))
            self.raw.append(bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for rcpt, m in self.mails if address in rcpt]

    def clear(self) -> None:
        with self.lock:
            self.mails.clear()
            self.raw.clear()


class SmtpServer:
    """An aiosmtpd server on a fixed free port that tests can stop and start (an SMTP outage)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.inbox = Inbox()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def mail_settings(settings: Settings, smtp: SmtpServer) -> Settings:
    """The test settings with mail to the test SMTP server and no background jobs: tests run them by hand."""
    return settings.model_copy(
        update={
            "smtp_host": "127.0.0.1",
            "smtp_port": smtp.port,
            "smtp_from": "Carson City <games@carson.example>",
            "base_url": BASE_URL,
            "background_jobs": False,
        }
    )


@pytest.fixture
async def app(mail_settings: Settings) -> AsyncIterator[Any]:
    application = create_app(mail_settings)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
def service(app: Any) -> GameService:
    service: GameService = app.state.service
    return service


@pytest.fixture
def lobby(app: Any) -> Lobby:
    lobby: Lobby = app.state.lobby
    return lobby


@pytest.fixture
def notifier(app: Any, mail_settings: Settings, service: GameService) -> Notifier:
    return notifier_for(mail_settings, service)


def now() -> datetime:
    return datetime.now(UTC)


def account(player: Player) -> Account:
    return Account(player.id, player.username, False)


class Table:
    """A started game driven through the service (much faster than HTTP for long sequences of moves)."""

    def __init__(self, service: GameService, positions: Positions, game: dict[str, Any], players: list[Player]) -> None:
        self.service = service
        self.positions = positions
        self.id: int = game["id"]
        self.by_seat = {s["seat"]: next(p for p in players if p.username == s["username"]) for s in game["seats"]}

    def player(self, seat: int) -> Player:
        return self.by_seat[seat]

    async def to_act(self) -> tuple[int, ...]:
        return (await self.positions.summary(self.id)).to_act

    async def play(self, seat: int, choose: Callable[[list[dict[str, Any]]], dict[str, Any]]) -> int:
        options = await self.positions.moves(account(self.by_seat[seat]), self.id)
        move = PlayerMove(self.by_seat[seat].id, self.id, options.seq, choose(options.moves))
        return (await self.service.apply(move)).seq

    async def play_until(
        self,
        done: Callable[[tuple[int, ...], tuple[int, ...]], bool],
        chooser: random.Random | None = None,
        limit: int = 400,
    ) -> None:
        """Play (first awaited seat; asks for permission when it can, else a random or the first legal move)
        until `done(to_act before, to_act after)` holds."""
        for _ in range(limit):
            before = await self.to_act()
            if not before:
                break

            def choose(moves: list[dict[str, Any]]) -> dict[str, Any]:
                asks = [m for m in moves if m["type"] == "ask_permission"]
                if asks:
                    return asks[0]
                return chooser.choice(moves) if chooser else moves[0]

            await self.play(before[0], choose)
            if done(before, await self.to_act()):
                return
        raise AssertionError("the condition was never met")


async def started(api: Api, service: GameService, names: list[str], **extra: Any) -> tuple[Table, Player, list[Player]]:
    admin = await api.admin()
    players = [await api.player(name) for name in names]
    game = await api.started_game(admin, players, **extra)
    return Table(service, api.app.state.positions, game, players), admin, players


async def drain(notifier: Notifier, when: datetime | None = None) -> dict[str, int]:
    """Run the worker until nothing is left to do at `when`; returns the outcomes."""
    outcomes: dict[str, int] = {}
    for _ in range(20):
        result = await notifier.run_once(when or now())
        for key, count in result.outcomes.items():
            outcomes[key] = outcomes.get(key, 0) + count
        if not result.outcomes and not result.planned and not result.digests:
            break
        await asyncio.sleep(0)
    return outcomes
