"""Recording a command's outcome (app.play.record): one statement that appends at the head the command read, or
changes nothing at all — log, head and outbox alike. Of writers that read the same head, one wins. The live
notice follows in a transaction of its own, once the change is committed."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import psycopg
import pytest
from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH
from sqlalchemy import func, select, text

from app.play.bus import CHANNEL, Change
from app.play.head import HEAD
from app.play.record import _RECORD, Outcome, SignInCheck, announce_within, notice, record
from app.play.service import GameService
from app.play.sessions import _ACCOUNT_OF
from app.rules import GameConfig, GameState, decide, legal_moves, new_game, replay, to_act
from app.rules.fairness import seed_bytes
from app.store import event_store
from app.store.db import Database, to_libpq_url
from app.store.tables import Game, Outbox
from tests.notify.conftest import now

SEED = 7


async def _game(db: Database) -> int:
    async with db.session() as session:
        game = Game(name="record test", seat_count=2, variants={}, seed=seed_bytes(SEED))
        session.add(game)
        await session.commit()
        return game.id


def _setup(game_id: int) -> Outcome:
    events = new_game(GameConfig.from_variants(players=2, variants={}), SEED)
    return Outcome(game_id, 0, (), events, replay(events), now())


def _decision(setup: Outcome) -> Outcome:
    """The first awaited seat's first legal move after the setup."""
    state: GameState = setup.after
    seat = to_act(state)[0]
    events = decide(state, seat, legal_moves(state, seat)[0], SEED)
    return Outcome(setup.game_id, state.seq, to_act(state), events, replay(events, state), now(), actor=seat)


async def _written(db: Database, game_id: int) -> tuple[list[tuple[int, Any, int | None]], Any, int]:
    """The log (seq, event, actor), the games row's head (seq, status, to_act) and the outbox rows of the game."""
    async with db.autocommit() as session:
        log = [(e.seq, e.event, e.actor) for e in await event_store.load(session, game_id)]
        head = (await session.execute(select(Game.seq, Game.status, Game.to_act).where(Game.id == game_id))).one()
        outbox = await session.scalar(select(func.count()).select_from(Outbox).where(Outbox.game_id == game_id))
    return log, tuple(head), int(outbox or 0)


async def test_a_record_appends_at_the_head_it_read(service: GameService) -> None:
    db = service.db
    gid = await _game(db)
    setup = _setup(gid)
    decision = _decision(setup)
    async with db.autocommit() as session:
        assert await record(session, setup)
        assert await record(session, decision)
    log, head, outbox = await _written(db, gid)
    events = [*setup.events, *decision.events]
    actors = [None] * len(setup.events) + [decision.actor] * len(decision.events)
    assert log == list(zip(range(1, len(events) + 1), events, actors, strict=True))
    assert head == (len(events), "active", list(to_act(decision.after)))
    assert outbox == 2  # one game_changed row per public change


async def test_a_record_at_a_head_that_moved_on_changes_nothing(service: GameService) -> None:
    db = service.db
    gid = await _game(db)
    setup = _setup(gid)
    async with db.autocommit() as session:
        assert await record(session, setup)
    before = await _written(db, gid)
    decision = _decision(setup)
    for expected in (0, setup.new_seq - 1, setup.new_seq + 1):
        stale = Outcome(gid, expected, decision.was_to_act, decision.events, decision.after, now(), actor=0)
        async with db.autocommit() as session:
            assert not await record(session, stale)
    assert await _written(db, gid) == before


async def test_of_writers_that_read_the_same_head_one_wins(service: GameService) -> None:
    db = service.db
    gid = await _game(db)
    setup = _setup(gid)
    async with db.autocommit() as session:
        assert await record(session, setup)
    decision = _decision(setup)

    async def attempt() -> bool:
        async with db.autocommit() as session:
            return await record(session, decision)

    results = await asyncio.gather(*(attempt() for _ in range(8)))
    assert sorted(results) == [False] * 7 + [True]
    log, head, _ = await _written(db, gid)
    assert [seq for seq, _, _ in log] == list(range(1, decision.new_seq + 1)) and head[0] == decision.new_seq


async def test_recording_for_a_missing_game_changes_nothing(service: GameService) -> None:
    async with service.db.autocommit() as session:
        assert not await record(session, _setup(424242))


async def test_every_kind_of_move_reuses_one_prepared_recording_statement(service: GameService) -> None:
    # psycopg prepares a statement on its sixth run with the same parameter types on a connection (its
    # prepare_threshold, 5); NULLs and integers of other sizes count as other types. Nine moves of as many kinds,
    # each run once (for a game that does not exist: the statement runs, and writes nothing), are prepared only
    # if they all send the same types.
    decision = _decision(_setup(424242))
    seat = decision.actor
    assert seat is not None
    kinds = [
        replace(decision, actor=None),  # the server's own (a game's setup)
        decision,
        replace(decision, undoable=True),
        replace(decision, by_clock=True, by_bot=True),
        replace(decision, bot_turn=True, for_absent=True),
        replace(decision, mover=7, move_cap=30, sign_in=SignInCheck("key", "bearer", 7)),
        replace(decision, handover=(seat, 70_000), quiet=True),
        replace(decision, clock_back=True, expected_seq=40_000),  # a head past int2
        replace(decision, game_id=12),  # an id within int2
    ]
    async with await psycopg.AsyncConnection.connect(to_libpq_url(service.db.url), autocommit=True) as connection:
        for outcome in kinds:
            assert not await record(connection, outcome)
        cursor = await connection.execute(
            "SELECT generic_plans + custom_plans FROM pg_prepared_statements WHERE statement LIKE 'WITH moved AS %'"
        )
        assert await cursor.fetchall() == [(len(kinds) - 5,)]  # one statement, run prepared from the sixth move on


async def _heard(listener: psycopg.AsyncConnection[Any]) -> list[str]:
    """The notices `listener` has been sent so far (it asks PostgreSQL once, so that any sent are read)."""
    await listener.execute("SELECT 1")
    return [notice.payload async for notice in listener.notifies(timeout=0.3)]


async def test_the_recording_statement_notifies_nobody(service: GameService) -> None:
    """A move's notice goes apart, after its commit (`app.play.announcer`)."""
    db = service.db
    gid = await _game(db)
    async with (
        await psycopg.AsyncConnection.connect(to_libpq_url(db.url), autocommit=True) as listener,
        db.autocommit() as session,
    ):
        await listener.execute(f"LISTEN {CHANNEL}")
        assert await record(session, _setup(gid))
        assert await _heard(listener) == []


async def test_a_notice_announced_within_a_transaction_goes_out_with_its_durable_commit(service: GameService) -> None:
    """A change recorded with other writes (a game's start) has its notice sent when, and only if, that
    transaction commits — which still waits for its flush."""
    db = service.db
    gid = await _game(db)
    setup = _setup(gid)
    async with (
        await psycopg.AsyncConnection.connect(to_libpq_url(db.url), autocommit=True) as listener,
        db.session() as session,
    ):
        await listener.execute(f"LISTEN {CHANNEL}")
        assert await record(session, setup)
        await announce_within(session, setup)
        assert await session.scalar(text("SHOW synchronous_commit")) == "on"
        assert await _heard(listener) == []
        await session.commit()
        (heard,) = await _heard(listener)
    assert Change.from_json(heard) == notice(setup)
    assert notice(setup) == Change(gid, len(setup.events), tuple(to_act(setup.after)), "active")


@pytest.mark.parametrize("statement", [_RECORD, HEAD, _ACCOUNT_OF], ids=["record", "head", "sign-in"])
def test_the_statements_of_every_move_fit_psycopgs_cache(statement: str) -> None:
    """psycopg converts a statement's parameters once, and keeps the result, only for statements of at most
    4 KiB; a longer one is parsed again on every run (app.store.db.driver_sql)."""
    assert len(statement) <= MAX_CACHED_STATEMENT_LENGTH
