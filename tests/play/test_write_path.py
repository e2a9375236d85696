"""One write path (GameService.apply): a player's move and a timeout are decided by the rules core and recorded
by the same statement, so they leave the same traces — log, head, outbox, clocks — apart from what marks a
timeout as the clock's; and when they race for one decision, one lands and the log has no gap."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import psycopg
import pytest
from conftest import Api
from sqlalchemy import select

from app.play import announcer as announcer_module
from app.play import service as service_module
from app.play.bus import Change
from app.play.commands import PlayerMove, TimeOut
from app.play.errors import Conflict
from app.play.positions import Seen
from app.play.record import Outcome
from app.play.service import GameService
from app.store.tables import GameEvent, Outbox, Seat
from tests.notify.conftest import Table, account, now, started

HOURS = 24


async def _traces(service: GameService, table: Table, after: int) -> dict[str, Any]:
    """What the change after seq `after` left: its events, outbox rows and the seats' clocks."""
    async with service.db.autocommit() as session:
        events = (
            await session.execute(
                select(GameEvent.type, GameEvent.data, GameEvent.actor, GameEvent.timed_out)
                .where(GameEvent.game_id == table.id, GameEvent.seq > after)
                .order_by(GameEvent.seq)
            )
        ).all()
        outbox = (
            await session.execute(
                select(Outbox.kind, Outbox.payload).where(Outbox.game_id == table.id, Outbox.seq > after)
            )
        ).all()
        seats = (
            await session.execute(
                select(Seat.seat, Seat.deadline, Seat.timeouts_in_row).where(Seat.game_id == table.id)
            )
        ).all()
    return {
        "events": [tuple(row) for row in events],
        "changed": [payload for kind, payload in outbox if kind == "game_changed"],
        "mails": [payload["message"] for kind, payload in outbox if kind == "mail"],
        "deadlines": {seat: deadline for seat, deadline, _ in seats},
        "timeouts": {seat: count for seat, _, count in seats},
    }


async def _deadline(service: GameService, table: Table, seat: int) -> datetime:
    deadline = next(s.deadline for s in (await table.positions.summary(table.id)).seats if s.seat == seat)
    assert deadline is not None
    return deadline


async def test_a_timeout_and_the_same_move_by_the_player_leave_the_same_traces(
    api: Api, service: GameService
) -> None:
    timed_out, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=HOURS)
    played, _, _ = await started(api, service, ["cid", "dan"], seed=3, move_timeout_hours=HOURS)
    head = (await timed_out.positions.summary(timed_out.id)).head
    assert (await played.positions.summary(played.id)).head == head
    (seat,) = await timed_out.to_act()
    assert await played.to_act() == (seat,)

    later = await _deadline(service, timed_out, seat) + timedelta(minutes=1)
    assert await service.apply(TimeOut(timed_out.id, seat, later)) is not None
    by_clock = await _traces(service, timed_out, head)
    async with service.db.autocommit() as session:
        move = await session.scalar(
            select(Outbox.payload["move"]).where(Outbox.game_id == timed_out.id, Outbox.kind == "mail")
        )
    before = now()
    await service.apply(PlayerMove(played.player(seat).id, played.id, head, move))
    by_hand = await _traces(service, played, head)
    after = now()

    assert by_clock["events"] and [e[:3] for e in by_clock["events"]] == [e[:3] for e in by_hand["events"]]
    assert {e[2] for e in by_clock["events"]} == {seat}
    assert all(e[3] for e in by_clock["events"]) and not any(e[3] for e in by_hand["events"])
    assert by_clock["changed"] == by_hand["changed"] and len(by_clock["changed"]) == 1
    assert by_clock["mails"] == ["timed_out"] and by_hand["mails"] == []
    awaited = {s for s, d in by_clock["deadlines"].items() if d is not None}
    assert awaited == {s for s, d in by_hand["deadlines"].items() if d is not None} == set(await played.to_act())
    for s in awaited:
        assert by_clock["deadlines"][s] == later + timedelta(hours=HOURS)  # the clock's own time
        assert before + timedelta(hours=HOURS) <= by_hand["deadlines"][s] <= after + timedelta(hours=HOURS)
    assert by_clock["timeouts"][seat] == 1 and by_hand["timeouts"][seat] == 0


async def test_a_move_racing_the_timeout_of_its_seat_one_lands_and_the_log_has_no_gap(
    api: Api, service: GameService
) -> None:
    for round_ in range(4):
        table, _, _ = await started(api, service, [f"ann{round_}", f"bob{round_}"], seed=3, move_timeout_hours=1)
        (seat,) = await table.to_act()
        options = await table.positions.moves(account(table.player(seat)), table.id)
        later = await _deadline(service, table, seat) + timedelta(minutes=1)
        commands = [
            service.apply(PlayerMove(table.player(seat).id, table.id, options.seq, options.moves[0])),
            service.apply(TimeOut(table.id, seat, later)),
        ]
        first = round_ % 2  # even rounds start the move first, odd rounds the timeout
        results = await asyncio.gather(commands[first], commands[1 - first], return_exceptions=True)
        move, timeout = results[first], results[1 - first]
        if isinstance(move, BaseException):
            assert getattr(move, "code", None) == "stale_seq" and timeout is not None, (move, timeout)
        else:
            assert timeout is None, timeout
        traces = await _traces(service, table, options.seq)
        assert len({e[3] for e in traces["events"]}) == 1  # all the player's, or all the clock's
        async with service.db.autocommit() as session:
            seqs = list((await session.scalars(select(GameEvent.seq).where(GameEvent.game_id == table.id))).all())
        assert sorted(seqs) == list(range(1, (await table.positions.summary(table.id)).head + 1))


async def test_a_stream_that_hears_of_a_move_before_its_writer_does_waits_for_the_state_and_reads_nothing(
    api: Api, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit's notice can reach this process's streams before the recording statement's own answer reaches
    the writer: the stream then takes the state the writer is about to remember, not a read of the database.
    When the statement recorded nothing (another writer got that head first), the stream reads the real one."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    recording = service_module.record
    seen: list[asyncio.Task[Seen]] = []

    async def heard_first(on: Any, outcome: Outcome) -> bool:
        recorded = await recording(on, outcome)
        change = Change(table.id, outcome.new_seq, (), "active")
        seen.append(asyncio.create_task(table.positions.seen_by(change, None)))
        await asyncio.sleep(0.01)  # the stream's turn comes first
        return recorded

    monkeypatch.setattr(service_module, "record", heard_first)
    (seat,) = await table.to_act()
    reads = service.cache.misses
    head = await table.play(seat, lambda moves: moves[0])
    (shown,) = await asyncio.gather(*seen)
    assert service.cache.misses == reads
    assert shown.change.seq == head and shown.change.to_act == await table.to_act()

    async def lost(on: Any, outcome: Outcome) -> bool:
        change = Change(table.id, outcome.new_seq, (), "active")
        seen.append(asyncio.create_task(table.positions.seen_by(change, None)))
        await asyncio.sleep(0.01)
        return False

    seen.clear()
    monkeypatch.setattr(service_module, "record", lost)
    (seat,) = await table.to_act()
    with pytest.raises(Conflict):
        await table.play(seat, lambda moves: moves[0])
    assert len(seen) > 1  # every decision of the move was heard of; it got a 409 when none landed
    shown_all = await asyncio.gather(*seen)
    assert service.cache.misses > reads  # nothing recorded to wait for: the streams read the database
    assert {shown.change.seq for shown in shown_all} == {head}  # and never show the state that was not recorded



async def test_a_move_whose_notice_cannot_be_sent_is_recorded_and_answered(
    api: Api, service: GameService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The notice follows the committed change: when it cannot be sent, the move stands and is answered, and the
    failure is logged (the streams catch up with the game's next change or at the bus's resync)."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)

    async def unsent(*args: Any) -> None:
        raise psycopg.OperationalError("the connection was lost")

    monkeypatch.setattr(announcer_module, "fetch_all", unsent)
    (seat,) = await table.to_act()
    before = (await table.positions.summary(table.id)).head
    head = await table.play(seat, lambda moves: moves[0])
    await service.announcer.settled()
    assert head > before
    async with service.db.autocommit() as session:
        seqs = list((await session.scalars(select(GameEvent.seq).where(GameEvent.game_id == table.id))).all())
    assert max(seqs) == head
    assert "1 live notices could not be sent" in caplog.text
