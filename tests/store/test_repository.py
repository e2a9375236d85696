"""The state cache: a load at a known head costs no replay; newer events are folded onto the cached state."""

from __future__ import annotations

from typing import Any

from app.rules import GameConfig, decide, legal_moves, new_game, replay, to_act
from app.store.db import Database
from app.store.repository import StateCache
from tests.store.conftest import put_events

SEED = 2024


async def _play(db: Database, game_id: int, moves: int) -> list[dict[str, Any]]:
    """Set up a 2-player game in the log and play `moves` first-listed legal moves; return all events."""
    events = new_game(GameConfig.from_variants(players=2, variants={}), SEED)
    state = replay(events)
    for _ in range(moves):
        seat = to_act(state)[0]
        new = decide(state, seat, legal_moves(state, seat)[0], SEED)
        events += new
        state = replay(new, state)
    await put_events(db, game_id, events)
    return events


async def test_load_replays_once_then_hits_the_cache(db: Database, game_id: int) -> None:
    events = await _play(db, game_id, 6)
    cache = StateCache()
    async with db.session() as session:
        first = await cache.load(session, game_id, len(events))
        again = await cache.load(session, game_id, len(events))
    assert first == replay(events) and again is first
    assert (cache.misses, cache.hits) == (1, 1)


async def test_newer_events_are_folded_onto_the_cached_state(db: Database, game_id: int) -> None:
    events = await _play(db, game_id, 0)
    cache = StateCache()
    async with db.session() as session:
        state = await cache.load(session, game_id, len(events))
    seat = to_act(state)[0]
    new = decide(state, seat, legal_moves(state, seat)[0], SEED)
    head = await put_events(db, game_id, new)
    async with db.session() as session:
        loaded = await cache.load(session, game_id, head)
    assert loaded.seq == head and loaded == replay(events + new)


async def test_the_cache_keeps_the_newest_state_and_evicts_the_oldest_game() -> None:
    events = new_game(GameConfig.from_variants(players=2, variants={}), SEED)
    old, new = replay(events[:1]), replay(events)
    cache = StateCache(capacity=2)
    cache.remember(1, new)
    cache.remember(1, old)
    assert cache.get(1) is new
    cache.remember(2, old)
    cache.remember(3, old)
    assert cache.get(1) is None and cache.get(3) is old


async def test_a_peek_finds_only_the_state_at_its_seq_and_leaves_counts_and_order_alone() -> None:
    events = new_game(GameConfig.from_variants(players=2, variants={}), SEED)
    head = replay(events)
    cache = StateCache(capacity=2)
    cache.remember(1, head)
    cache.remember(2, head)
    assert cache.peek(1, head.seq) is head
    assert cache.peek(1, head.seq - 1) is None and cache.peek(3, head.seq) is None
    assert (cache.hits, cache.misses) == (0, 0)
    cache.remember(3, head)  # game 1 is still the least recently used: the peek did not keep it
    assert cache.get(1) is None and cache.get(2) is head
