"""Undo and the server's work around a move (decision D86; `../shared/API.md` "Undo"): a move made by the clock
is not the player's to take back; an undo gives the undoing seat back the clock its move found (deadline and
reminder: a move and its undo never give more time), stops the other's, and queues no mail."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from conftest import Api
from sqlalchemy import select

from app.play import clocks
from app.play.commands import TimeOut, Undo
from app.play.errors import Conflict
from app.play.keeper import ClockKeeper
from app.play.service import GameService
from app.store.tables import Outbox, Seat
from tests.notify.conftest import Table, account, now, started

HOURS = 24


async def _deadlines(service: GameService, table: Table) -> dict[int, object]:
    return {s.seat: s.deadline for s in (await table.positions.summary(table.id)).seats if s.seat is not None}


async def test_a_move_made_by_the_clock_cannot_be_taken_back(api: Api, service: GameService) -> None:
    """D84/D86: the clock's move (a timeout) is the server's, not the player's: 409 `undo_not_allowed`."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=HOURS)
    (seat,) = await table.to_act()
    later = (await _deadlines(service, table))[seat] + timedelta(minutes=1)  # type: ignore[operator]
    assert await service.apply(TimeOut(table.id, seat, later)) is not None
    seq = (await table.positions.view(account(table.player(seat)), table.id))["seq"]
    with pytest.raises(Conflict) as refused:
        await service.apply(Undo(table.player(seat).id, table.id, seq))
    assert refused.value.code == "undo_not_allowed"


async def test_an_undo_gives_the_mover_back_their_clock_and_queues_no_mail(api: Api, service: GameService) -> None:
    """D86: after the undo the mover is awaited again with the clock the move found, the seat awaited after the
    move has none, and no outbox row (no "your turn" mail) is written for the undo."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=HOURS)
    (seat,) = await table.to_act()
    before = await _deadlines(service, table)
    seq = await table.play(seat, lambda moves: moves[0])  # a starting parcel: nothing drawn
    (other,) = await table.to_act()
    assert other != seat
    moved = await _deadlines(service, table)
    assert moved[seat] is None and moved[other] is not None
    applied = await service.apply(Undo(table.player(seat).id, table.id, seq))
    assert await table.to_act() == (seat,)
    undone = await _deadlines(service, table)
    assert undone[other] is None and undone[seat] == before[seat] is not None
    async with service.db.autocommit() as session:
        rows = (await session.execute(select(Outbox.kind).where(
            Outbox.game_id == table.id, Outbox.seq == (await table.positions.summary(table.id)).head))).all()
    assert rows == [] and applied.seq == seq + 1


def _at(service: GameService, moment: datetime) -> None:
    """The service's clock stands at `moment` from now on (the time every move and undo is recorded at)."""
    service.clock = lambda: moment


async def test_moves_and_their_undos_never_put_off_the_movers_timeout(api: Api, service: GameService) -> None:
    """The "Corrections" issue, item 4: each move + undo pair moved the mover's deadline on (22:52:51 -> :54 ->
    :56 -> :58), so a player could put off a timeout forever. Three pairs, two hours apart on the clock: the
    deadline stays the one the first move found, and the clock check times the seat out at it."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=HOURS, vacations=False)
    (seat,) = await table.to_act()
    deadline = (await _deadlines(service, table))[seat]
    assert isinstance(deadline, datetime)
    for pair in range(1, 4):
        _at(service, deadline - timedelta(hours=HOURS) + timedelta(hours=2 * pair))
        seq = await table.play(seat, lambda moves: moves[0])
        await service.apply(Undo(table.player(seat).id, table.id, seq))
        assert (await _deadlines(service, table))[seat] == deadline, f"after pair {pair}"
    assert (await ClockKeeper(service).tick(deadline + timedelta(seconds=1))).timeouts == 1


async def test_an_undo_gives_back_the_reminder_already_sent(api: Api, service: GameService) -> None:
    """Item 4's "any reminder state": a seat reminded before its move is still reminded after the undo, so no
    second reminder is queued for the same clock."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=HOURS)
    (seat,) = await table.to_act()
    deadline = (await _deadlines(service, table))[seat]
    assert isinstance(deadline, datetime)
    late = deadline - timedelta(hours=2)  # within 12 hours (a player's default reminder hours): the reminder is due
    keeper = ClockKeeper(service)
    assert (await keeper.tick(late)).reminders == 1
    _at(service, late)
    seq = await table.play(seat, lambda moves: moves[0])
    await service.apply(Undo(table.player(seat).id, table.id, seq))
    assert (await keeper.tick(late + timedelta(minutes=1))).reminders == 0
    async with service.db.autocommit() as session:
        reminded = await session.scalar(select(Seat.reminded).where(Seat.game_id == table.id, Seat.seat == seat))
    assert reminded is True


async def test_a_vacation_declared_between_a_move_and_its_undo_stops_the_clock_given_back(
    api: Api, service: GameService
) -> None:
    """A vacation moves every running deadline that falls after its start later by its length; the clock an
    undo gives back is one of them (the player had it when they moved)."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=HOURS)
    (seat,) = await table.to_act()
    deadline = (await _deadlines(service, table))[seat]
    assert isinstance(deadline, datetime)
    seq = await table.play(seat, lambda moves: moves[0])
    player = table.player(seat)
    await clocks.declare_vacation(service.db, account(player), 2, None, now())
    await service.apply(Undo(player.id, table.id, seq))
    assert (await _deadlines(service, table))[seat] == deadline + timedelta(days=2)
