"""The seat memo the state cache holds for the write path's one-trip move, and the states it hands a reader while a
statement is recording them. No database: the memo and the cache's waiting are plain Python."""

from __future__ import annotations

import asyncio

from app.rules import GameConfig, new_game, replay
from app.store.repository import StateCache
from app.store.seat_memo import Seated, SeatMemo

SEED = 2024


def test_the_memo_tells_a_seat_with_its_games_seed_and_forgets_what_a_head_read_denies() -> None:
    memo = SeatMemo(capacity=4)
    memo.learn(1, user_id=10, seed=SEED, seat=0)
    memo.learn(1, user_id=11, seed=SEED, seat=1)
    assert memo.seated(1, 10) == Seated(SEED, 0) and memo.seated(1, 11) == Seated(SEED, 1)
    memo.learn(1, user_id=10, seed=SEED, seat=None)  # a later head read found no seat for them
    assert memo.seated(1, 10) is None and memo.seated(1, 11) == Seated(SEED, 1)
    assert memo.seated(2, 10) is None  # a game never read


def test_a_handover_forgets_whoever_was_remembered_at_the_seat_and_a_gap_forgets_every_seat() -> None:
    memo = SeatMemo(capacity=4)
    memo.learn(1, user_id=10, seed=SEED, seat=0)
    memo.learn(1, user_id=11, seed=SEED, seat=1)
    memo.learn(2, user_id=10, seed=SEED + 1, seat=0)
    memo.forget_seat(1, 0)
    assert memo.seated(1, 10) is None and memo.seated(1, 11) == Seated(SEED, 1)
    assert memo.seated(2, 10) == Seated(SEED + 1, 0)  # the same seat of another game stays
    memo.forget_all()
    assert memo.seated(1, 11) is None and memo.seated(2, 10) is None
    assert {game: table.seed for game, table in memo.tables.items()} == {1: SEED, 2: SEED + 1}  # seeds never change


def test_the_memo_keeps_as_many_games_as_the_cache_dropping_the_one_learnt_of_longest_ago() -> None:
    cache = StateCache(capacity=2)
    cache.seats.learn(1, user_id=10, seed=SEED, seat=0)
    cache.seats.learn(2, user_id=10, seed=SEED, seat=0)
    cache.seats.learn(1, user_id=11, seed=SEED, seat=1)  # game 1 learnt of again: game 2 is now the oldest
    cache.seats.learn(3, user_id=10, seed=SEED, seat=0)
    assert list(cache.seats.tables) == [1, 3]


async def test_a_reader_waits_for_the_state_being_recorded_and_gets_none_when_nothing_was() -> None:
    """`StateCache.recording`: while the statement runs, `landing` is the state to come; the state enters the
    cache only if the statement recorded it."""
    state = replay(new_game(GameConfig.from_variants(players=2, variants={}), SEED))
    cache = StateCache()
    for recorded in (False, True):
        written = asyncio.Event()

        async def statement(recorded: bool = recorded, written: asyncio.Event = written) -> bool:
            await written.wait()
            return recorded

        writing = asyncio.create_task(cache.recording(7, state.seq, state, statement()))
        await asyncio.sleep(0)
        landing = cache.landing(7, state.seq)
        assert landing is not None and not landing.done()
        written.set()
        assert await writing is recorded
        assert await landing == (state if recorded else None)
        assert cache.landing(7, state.seq) is None
        assert cache.get(7) == (state if recorded else None)
