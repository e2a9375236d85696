"""Benchmark of the store: loading a game's state from the cache vs replaying its whole log, and the cost of
recording a decision (`app.play.record`: one autocommit statement moving the head, inserting the events, queueing
the outbox row and the notice) against one bare PostgreSQL insert and commit, measured in the same run on the
same server.

Run: `.venv/bin/python bench/store.py [--players P] [--rounds N]`. Uses BENCH_DATABASE_URL if set, else an
embedded PostgreSQL in a temporary directory (stopped and deleted at the end). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from sqlalchemy import select, text
    from sqlalchemy.ext.asyncio import async_sessionmaker

    from app.play.clocks import utc_now
    from app.play.record import Outcome, record
    from app.rules import GameConfig, GameState, legal_moves, new_game, play, replay, to_act
    from app.rules.rng import Rng
    from app.store import event_store, migrate
    from app.store.db import Database, make_engine, start_embedded, to_sqlalchemy_url
    from app.store.repository import StateCache
    from app.store.tables import Game

SEED = 7


def random_game(players: int, game_id: int) -> tuple[Outcome, list[Outcome]]:
    """The setup and every decision of one complete random game, ready to record for `game_id`."""
    events = new_game(GameConfig.from_variants(players, {}), SEED)
    state: GameState = replay(events)
    setup = Outcome(game_id, 0, (), events, state, utc_now())
    chooser = random.Random(SEED)
    decisions = []
    while state.status != "finished":
        seat = to_act(state)[0]
        events, after = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(SEED, state.seq))
        decisions.append(Outcome(game_id, state.seq, to_act(state), events, after, utc_now(), actor=seat))
        state = after
    return setup, decisions


async def timed(fn: Callable[[], Awaitable[object]], repeat: int) -> list[float]:
    """Milliseconds per call of `fn`, `repeat` times."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        await fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def describe(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=100)
    return f"median {statistics.median(samples):7.3f} ms   p95 {q[94]:7.3f} ms   (n={len(samples)})"


async def new_game_row(db: Database, players: int) -> int:
    async with db.session() as session:
        game = Game(name="bench", seat_count=players, variants={}, seed=SEED)
        session.add(game)
        await session.commit()
        return game.id


async def run(url: str, players: int, repeat: int) -> None:
    engine = make_engine(url, pool_size=2)
    db = Database(url, engine, async_sessionmaker(engine, expire_on_commit=False))
    try:
        gid = await new_game_row(db, players)
        setup, decisions = random_game(players, gid)
        events = len(setup.events) + sum(len(d.events) for d in decisions)
        print(f"a complete random {players}-player game: {len(decisions)} decisions, {events} events")

        # Records: one statement per decision, exactly as a move is recorded.
        async with db.autocommit() as session:
            await record(session, setup)
        append_ms = []
        for decision in decisions:
            start = time.perf_counter()
            async with db.autocommit() as session:
                await record(session, decision)
            append_ms.append((time.perf_counter() - start) * 1000)
        head = decisions[-1].new_seq

        # The floor: one bare INSERT of one row and its commit, on the same engine, interleaved in time.
        async with engine.begin() as conn:
            await conn.execute(text("DROP TABLE IF EXISTS bench_floor_t"))
            await conn.execute(text("CREATE TABLE bench_floor_t (id bigserial PRIMARY KEY, v int)"))

        async def bare_commit() -> None:
            async with db.session() as session:
                await session.execute(text("INSERT INTO bench_floor_t (v) VALUES (1)"))
                await session.commit()

        floor_ms = await timed(bare_commit, len(decisions))
        async with engine.begin() as conn:
            await conn.execute(text("DROP TABLE bench_floor_t"))

        # Loads, each as a request does it: read the head from the games row, then either replay the whole log
        # or take the cached state (folding in the newest decision when the cache is one decision behind).
        async def read_head(session: Any) -> int:
            seq: int = await session.scalar(select(Game.seq).where(Game.id == gid))
            return seq

        async def full_replay() -> None:
            async with db.session() as session:
                stored = await event_store.load(session, gid, limit=await read_head(session))
            replay([e.event for e in stored])

        cache = StateCache()
        async with db.session() as session:
            await cache.load(session, gid, head)

        async def cached() -> None:
            async with db.session() as session:
                await cache.load(session, gid, await read_head(session))

        behind = decisions[-1].expected_seq

        prewarmed = StateCache()
        async with db.session() as session:
            state_behind = await prewarmed.load(session, gid, behind)

        async def cached_one_behind() -> None:
            fresh = StateCache()
            fresh.remember(gid, state_behind)
            async with db.session() as session:
                await fresh.load(session, gid, await read_head(session))

        replay_ms = await timed(full_replay, repeat)
        cached_ms = await timed(cached, repeat)
        newer_ms = await timed(cached_one_behind, repeat)

        print()
        print("load a game's state")
        print(f"  read head + replay {head} events:  {describe(replay_ms)}")
        print(f"  read head + cached state:        {describe(cached_ms)}")
        print(f"  read head + cache + newest move: {describe(newer_ms)}")
        print(f"  speed-up of the cache: x{statistics.median(replay_ms) / statistics.median(cached_ms):.0f}")
        print()
        print("record one decision (one statement: head + events + outbox + notice, its own commit)")
        print(f"  record:                          {describe(append_ms)}")
        print(f"  bare one-row insert + commit:    {describe(floor_ms)}")
        print(
            f"  ratio record / bare commit (medians): {statistics.median(append_ms) / statistics.median(floor_ms):.2f}"
        )
    finally:
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=200, help="timed loads of each kind")
    args = parser.parse_args()
    given = os.environ.get("BENCH_DATABASE_URL")
    if given:
        url = to_sqlalchemy_url(given)
        migrate.upgrade(url)
        asyncio.run(run(url, args.players, args.repeat))
        return
    with tempfile.TemporaryDirectory() as tmp:
        server = start_embedded(Path(tmp) / "pgdata", delete_on_cleanup=True)
        try:
            url = to_sqlalchemy_url(server.get_uri())
            migrate.upgrade(url)
            asyncio.run(run(url, args.players, args.repeat))
        finally:
            server.cleanup()


if __name__ == "__main__":
    main()
