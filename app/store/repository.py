"""Load a game's state without replaying its whole log on every request.

States are immutable, so a cache of the latest state per game can be shared by every request of this process.
A load reads only the events newer than the cached state (none, when the caller already knows the head), and
folds them onto it (`replay` from that state). States enter the cache only after their events are committed,
so the cache never holds a state the database does not.

The cache is what this process's writes and reads of games share, and all they share: beside the committed states
it holds the states a statement of this process is recording (a live stream can hear of a commit before the
statement's own answer arrives, and then waits for the state rather than reading it back), and the memo of who
sits where that head reads teach (`app.store.seat_memo`, for a move decided without reading the head).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Iterable
from typing import cast

from sqlalchemy.ext.asyncio import AsyncSession

from app.rules import Event, GameState, UndoBeyondState, replay
from app.store import event_store
from app.store.seat_memo import SeatMemo


class StateCache:
    """The most recent known state of up to `capacity` games, least recently used evicted first; the states
    being recorded; who sits where in as many games."""

    def __init__(self, capacity: int = 2048) -> None:
        self.capacity = capacity
        self._states: OrderedDict[int, GameState] = OrderedDict()
        # (game, head after it) -> the state, once the statement under way recording it has answered (`recording`)
        self._landing: dict[tuple[int, int], asyncio.Future[GameState | None]] = {}
        self.seats = SeatMemo(capacity)
        self.hits = 0
        self.misses = 0

    def get(self, game_id: int) -> GameState | None:
        state = self._states.get(game_id)
        if state is not None:
            self._states.move_to_end(game_id)
        return state

    def remember(self, game_id: int, state: GameState) -> None:
        """Keep `state` (committed!) unless a newer one of the same game is already known."""
        known = self._states.get(game_id)
        if known is None or known.seq <= state.seq:
            self._states[game_id] = state
            self._states.move_to_end(game_id)
        while len(self._states) > self.capacity:
            self._states.popitem(last=False)

    async def recording(self, game_id: int, head_seq: int, state: GameState, write: Awaitable[bool]) -> bool:
        """Await `write`, the statement (in autocommit) that makes `state` the head `head_seq` of `game_id`, and
        remember `state` if it did; return whether it did. Meanwhile `landing(game_id, head_seq)` is the state to
        come: None when the statement recorded nothing (another writer got that head first)."""
        key = (game_id, head_seq)
        landed = None if key in self._landing else asyncio.get_running_loop().create_future()
        if landed is not None:
            self._landing[key] = landed
        recorded = False
        try:
            recorded = await write
            if recorded:
                self.remember(game_id, state)
            return recorded
        finally:
            if landed is not None:
                del self._landing[key]
                landed.set_result(state if recorded else None)

    def landing(self, game_id: int, head_seq: int) -> asyncio.Future[GameState | None] | None:
        """The state a statement of this process under way records as the head `head_seq` of `game_id`, if one
        is (see `recording`)."""
        return self._landing.get((game_id, head_seq))

    def peek(self, game_id: int, seq: int) -> GameState | None:
        """The cached state of `game_id` if it is the one at `seq`, else None; for a reader of another cache (the
        mail worker's) that looks here first: neither counted as a hit or miss nor kept from eviction by it."""
        cached = self._states.get(game_id)
        return cached if cached is not None and cached.seq == seq else None

    def at(self, game_id: int, head_seq: int) -> GameState | None:
        """The cached state of `game_id` if it is the one at `head_seq` (a hit), else None."""
        cached = self.get(game_id)
        if cached is None or cached.seq != head_seq:
            return None
        self.hits += 1
        return cached

    async def load(self, session: AsyncSession, game_id: int, head_seq: int) -> GameState:
        """The state of `game_id` at `head_seq` (the committed head the caller read from `games.seq`)."""
        hit = self.at(game_id, head_seq)
        if hit is not None:
            return hit
        cached = self.get(game_id)
        self.misses += 1
        state = None
        if cached is not None and cached.seq < head_seq:
            newer = await event_store.load(session, game_id, after=cached.seq, limit=head_seq - cached.seq)
            try:
                state = replay(_logged(newer), cached)
            except UndoBeyondState:  # an undo returns to a state older than the cached one
                state = None
        if state is None:
            state = replay(await log_of(session, game_id, head_seq))
        self.remember(game_id, state)
        return state

    async def load_each(self, session: AsyncSession, game_id: int, seqs: Iterable[int]) -> dict[int, GameState]:
        """The states of `game_id` at each of `seqs` (committed heads), reading the events they need with one
        query: the mail worker plans a backlog of changes of one game at once, and a query per change would make
        its work grow with the backlog's statements instead of its events."""
        wanted = sorted(set(seqs))
        if not wanted:
            return {}
        cached = self.get(game_id)
        start = cached if cached is not None and cached.seq <= wanted[0] else None
        after = start.seq if start is not None else 0
        rows = await event_store.load(session, game_id, after=after, limit=wanted[-1] - after)
        states: dict[int, GameState] = {}
        state, folded = start, after
        for seq in wanted:
            if state is None or seq > folded:
                try:
                    state = replay(_logged(rows[folded - after : seq - after]), state)
                except UndoBeyondState:  # an undo reaches back before the cached state: fold from the start
                    state = replay(await log_of(session, game_id, seq))
                folded = seq
            states[seq] = state
        self.remember(game_id, states[wanted[-1]])
        return states


async def log_of(session: AsyncSession, game_id: int, head_seq: int) -> list[Event]:
    """The log of `game_id` up to `head_seq`, every event of it, as the rules core's events."""
    return _logged(await event_store.load(session, game_id, limit=head_seq))


def _logged(rows: Iterable[event_store.StoredEvent]) -> list[Event]:
    """The events of stored rows, as the rules core's events: the log holds only what the core produced (a log
    written with older event shapes would be upcast here, see `app.rules.events.SCHEMA_VERSION`)."""
    return cast(list[Event], [row.event for row in rows])
