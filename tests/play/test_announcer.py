"""The live notices of recorded moves (app.play.announcer): sent after their commits, in order, batched, in
transactions that do not wait for the disk."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

from app.play import announcer as announcer_module
from app.play.announcer import Announcer
from app.play.bus import CHANNEL, Change
from app.play.service import GameService
from app.store.db import to_libpq_url


async def _listening(url: str) -> psycopg.AsyncConnection[Any]:
    listener = await psycopg.AsyncConnection.connect(to_libpq_url(url), autocommit=True)
    await listener.execute(f"LISTEN {CHANNEL}")
    return listener


async def _heard(listener: psycopg.AsyncConnection[Any], count: int) -> list[Change]:
    await listener.execute("SELECT 1")
    return [Change.from_json(n.payload) async for n in listener.notifies(timeout=2, stop_after=count)]


async def test_notices_handed_over_together_go_out_in_one_transaction_in_their_order(service: GameService) -> None:
    announcer = Announcer(service.db)
    changes = [Change(7, seq, (seq % 2,), "active") for seq in range(1, 6)]
    sent: list[dict[str, Any]] = []
    fetch_all = announcer_module.fetch_all

    async def counted(on: Any, sql: str, params: Any) -> Any:
        sent.append(dict(params))
        return await fetch_all(on, sql, params)

    async with await _listening(service.db.url) as listener:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(announcer_module, "fetch_all", counted)
            for change in changes:
                announcer.send(change)
            await announcer.settled()
        assert await _heard(listener, len(changes)) == changes
    assert len(sent) == 1  # one batch: all were handed over before the first went out


async def test_a_notice_handed_over_while_a_batch_is_on_its_way_goes_in_the_next(service: GameService) -> None:
    announcer = Announcer(service.db)
    first, second = Change(8, 1, (0,), "active"), Change(8, 2, (1,), "active")
    async with await _listening(service.db.url) as listener:
        announcer.send(first)
        await asyncio.sleep(0)  # the batch of `first` is under way
        announcer.send(second)
        await announcer.settled()
        assert await _heard(listener, 2) == [first, second]


async def test_a_batchs_commit_does_not_wait_for_the_disk(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A notice is no data: its transaction commits without the flush, so that it holds PostgreSQL's notify lock
    only briefly. The batch's statement, asked also for the setting it runs under (which its commit then uses),
    sees it off, and leaves the pooled connection's own setting as it was."""
    seen: list[Any] = []
    fetch_all = announcer_module.fetch_all
    setting = "SELECT current_setting('synchronous_commit'), count("
    sql_seen = announcer_module._ANNOUNCE.replace("SELECT count(", setting)

    async def checked(on: Any, sql: str, params: Any) -> Any:
        rows = await fetch_all(on, sql_seen + " GROUP BY 1", params)
        seen.extend(rows)
        return rows

    monkeypatch.setattr(announcer_module, "fetch_all", checked)
    announcer = Announcer(service.db)
    announcer.send(Change(9, 1, (0,), "active"))
    await announcer.settled()
    assert seen == [("off", 1)]
    async with service.db.driver() as connection:  # and the pooled connection's own setting is untouched
        cursor = await connection.execute("SHOW synchronous_commit")
        assert await cursor.fetchall() == [("on",)]


async def test_a_batch_that_fails_is_logged_and_the_next_goes_out(
    service: GameService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    announcer = Announcer(service.db)
    fetch_all = announcer_module.fetch_all

    async def lost(*args: Any) -> None:
        raise psycopg.OperationalError("the connection was lost")

    async with await _listening(service.db.url) as listener:
        monkeypatch.setattr(announcer_module, "fetch_all", lost)
        announcer.send(Change(10, 1, (0,), "active"))
        await announcer.settled()
        assert "1 live notices could not be sent" in caplog.text
        monkeypatch.setattr(announcer_module, "fetch_all", fetch_all)
        announcer.send(Change(10, 2, (1,), "active"))
        await announcer.settled()
        assert await _heard(listener, 1) == [Change(10, 2, (1,), "active")]
