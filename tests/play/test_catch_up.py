"""The bus's periodic catch-up (app.play.bus): a change whose notice was never sent (its instance stopped between
the move's commit and its announcer's batch) reaches the streams of every other instance within a period, in one
statement a period whatever the number of streams; streams already told of the head are not woken."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import pytest
from conftest import Api
from prometheus_client import REGISTRY

from app.play.accounts import Account
from app.play.bus import Bus, Change, Notice
from app.play.commands import ReplaceSeat
from app.play.service import GameService
from tests.notify.conftest import Table, started

PERIOD = 0.4  # the catch-up period of the instance whose streams are watched (the setting's default is 5 s)
# What a catch-up may take beyond its period: its statement and the event loop's turn, on a shared test machine.
LEEWAY = 0.3


class CountingBus(Bus):
    """A bus that keeps every statement run on its LISTEN connection, as that connection was asked to run it, and
    how many streams the catch-ups had woken when each began (`caught_up()`)."""

    def __init__(self, libpq_url: str, *, catch_up_seconds: float) -> None:
        super().__init__(libpq_url, catch_up_seconds=catch_up_seconds)
        self.statements: list[str] = []
        self.woken: list[float] = []

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        connection = await super()._connect()
        execute = connection.execute

        async def counted(query: Any, params: Any = None, **options: Any) -> Any:
            self.statements.append(str(query))
            self.woken.append(caught_up())
            return await execute(query, params, **options)

        connection.execute = counted  # type: ignore[method-assign]
        return connection


@contextlib.asynccontextmanager
async def other_instance(service: GameService) -> AsyncIterator[CountingBus]:
    """The bus of another server instance on the same database, catching up every PERIOD."""
    bus = CountingBus(service.db.libpq_url, catch_up_seconds=PERIOD)
    await bus.start()
    try:
        yield bus
    finally:
        await bus.stop()


def silence(monkeypatch: pytest.MonkeyPatch, service: GameService) -> None:
    """Make `service` the instance that stops after a move's commit and before its notice's batch: its moves
    commit, and their notices are never sent."""
    monkeypatch.setattr(service.announcer, "send", lambda change: None)


async def head_of(table: Table) -> Change:
    """The game's head as stored (every seat's events counted), as the bus's notices and catch-up tell it."""
    summary = await table.positions.summary(table.id)
    return Change(table.id, summary.head, summary.to_act, summary.status)


async def first_move(table: Table) -> None:
    await table.play((await table.to_act())[0], lambda moves: moves[0])


def caught_up() -> float:
    return REGISTRY.get_sample_value("carson_live_streams_caught_up_total") or 0.0


async def periods(bus: CountingBus, count: int) -> None:
    """Return once `bus` has run `count` more catch-up statements (the streams have had `count` chances)."""
    goal = len(bus.statements) + count
    for _ in range(int(count * PERIOD / 0.02) + 200):
        if len(bus.statements) >= goal:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{count} catch-ups did not run: {bus.statements}")


async def test_a_move_whose_notice_was_never_sent_reaches_a_stream_within_the_period(
    api: Api, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    silence(monkeypatch, service)
    async with other_instance(service) as bus, bus.subscribe(table.id) as queue:
        bus.shows(queue, (await head_of(table)).seq)
        waited: list[float] = []
        for _ in range(5):
            moving = time.monotonic()  # the commit comes a little later: what is measured is at least the wait
            await first_move(table)
            change = await asyncio.wait_for(queue.get(), timeout=10)
            waited.append(time.monotonic() - moving)
            assert change == await head_of(table) and not change.reseats
        assert queue.empty()
    assert max(waited) <= PERIOD + LEEWAY, waited


async def test_only_the_streams_behind_the_head_are_woken(
    api: Api, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    quiet, _, _ = await started(api, service, ["cat", "dan"], seed=4)
    before = caught_up()
    async with (
        other_instance(service) as bus,
        bus.subscribe(table.id) as behind,
        bus.subscribe(table.id) as opening,  # still reading its head: the catch-up leaves it to that read
        bus.subscribe(quiet.id) as on_quiet,
    ):
        bus.shows(behind, (await head_of(table)).seq)
        bus.shows(on_quiet, (await head_of(quiet)).seq)
        with monkeypatch.context() as patched:
            silence(patched, service)
            await first_move(table)
        async with bus.subscribe(table.id) as opened_after:  # read the new head itself
            bus.shows(opened_after, (await head_of(table)).seq)
            assert await asyncio.wait_for(behind.get(), timeout=10) == await head_of(table)
            await periods(bus, 3)
            assert behind.empty() and opening.empty() and opened_after.empty() and on_quiet.empty()
            assert caught_up() - before == 1
            # A move whose notice is sent: every stream of the game hears it once, and the catch-up adds nothing.
            await first_move(table)
            head = await head_of(table)
            for queue in (behind, opening, opened_after):
                assert await asyncio.wait_for(queue.get(), timeout=10) == head
            await periods(bus, 3)
            assert behind.empty() and opening.empty() and opened_after.empty() and on_quiet.empty()
            assert caught_up() - before == 1


async def test_a_handover_whose_notice_was_never_sent_has_its_seats_read_again(
    api: Api, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, admin, _ = await started(api, service, ["ann", "bob"], seed=3)
    await api.player("carl")
    silence(monkeypatch, service)
    async with other_instance(service) as bus, bus.subscribe(table.id) as queue:
        bus.shows(queue, (await head_of(table)).seq)
        bob_seat = next(seat for seat, player in table.by_seat.items() if player.username == "bob")
        await service.apply(ReplaceSeat(Account(admin.id, admin.username, True), table.id, bob_seat, "carl"))
        handed = await asyncio.wait_for(queue.get(), timeout=10)
        assert handed.seq == (await head_of(table)).seq and isinstance(handed, Change) and handed.reseats
        await first_move(table)  # after the handover: an ordinary move again
        moved = await asyncio.wait_for(queue.get(), timeout=10)
        assert moved == await head_of(table) and not moved.reseats


async def test_one_statement_a_period_whatever_the_number_of_streams_and_none_without_one(
    api: Api, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = [(await started(api, service, [f"p{i}a", f"p{i}b"], seed=3))[0] for i in range(3)]
    async with other_instance(service) as bus:
        await periods_without_streams(bus)
        rounds: dict[int, tuple[int, float]] = {}
        for streams in (1, 300):
            heads = {table.id: (await head_of(table)).seq for table in tables}
            async with contextlib.AsyncExitStack() as stack:
                queues: list[tuple[Table, asyncio.Queue[Notice]]] = []
                for n in range(streams):
                    table = tables[n % len(tables)]
                    queue = await stack.enter_async_context(bus.subscribe(table.id))
                    bus.shows(queue, heads[table.id])
                    queues.append((table, queue))
                await periods(bus, 1)  # from the start of a period
                first, started_at = len(bus.statements), time.monotonic()
                await asyncio.sleep(PERIOD * 5)
                rounds[streams] = (len(bus.statements) - first, time.monotonic() - started_at)
                # One game moves without a notice: the streams of that game are woken, all by one statement.
                mark = len(bus.statements)
                with monkeypatch.context() as patched:
                    silence(patched, service)
                    await first_move(tables[0])
                await periods(bus, 2)  # the statement after the commit, and the next (whose wakes end before it)
                behind = [queue for table, queue in queues if table is tables[0]]
                assert all(queue.qsize() == 1 for queue in behind)
                assert all(queue.empty() for table, queue in queues if table is not tables[0])
                woken = bus.woken[mark - 1 :]
                by_statement = sorted(after - before for before, after in itertools.pairwise(woken))
                assert by_statement[-1] == len(behind) and not any(by_statement[:-1]), by_statement
        assert all(statement == bus.statements[-1] for statement in bus.statements[1:])  # LISTEN, then catch-ups
        for count, elapsed in rounds.values():
            assert elapsed / (PERIOD + LEEWAY) - 1 <= count <= elapsed / PERIOD + 1, rounds


async def periods_without_streams(bus: CountingBus) -> None:
    """With no stream open, the bus runs nothing on its connection but its LISTEN, however many periods pass."""
    await asyncio.sleep(PERIOD * 4)
    assert len(bus.statements) == 1 and bus.statements[0].startswith("LISTEN")
