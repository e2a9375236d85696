"""Finishing a started game fast: random legal moves played in the rules core up to the game's last decision,
recorded as one outcome by the write path's own statement (`app.play.record`), then the last moves made
through `GameService.apply` as the server makes them — a person's move, or the bot's for a seat it plays —
so that the game's end is recorded exactly as in play."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from app.play.commands import BotMove, PlayerMove, TimeOut
from app.play.head import counted
from app.play.record import Outcome, record
from app.play.service import GameService
from app.rules import GameState, legal_moves, play, to_act
from app.rules.fairness import seed_number
from app.rules.rng import Rng
from app.store.tables import Game, Seat, User


async def _head(service: GameService, game_id: int) -> tuple[GameState, int]:
    async with service.db.autocommit() as session:
        seq, seed = (await session.execute(select(Game.seq, Game.seed).where(Game.id == game_id))).one()
        return await service.cache.load(session, game_id, seq), seed_number(seed)


async def play_to_the_end(service: GameService, game_id: int, chooser: random.Random) -> GameState:
    """Finish `game_id` (started, at any point) with moves `chooser` picks; the final state."""
    state, seed = await _head(service, game_id)
    start, prefix = state, []
    while True:
        seat = chooser.choice(to_act(state))
        events, after = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
        if after.status == "finished":
            break
        prefix += events
        state = after
    if prefix:
        async with service.db.autocommit() as session:
            assert await record(session, Outcome(game_id, start.seq, to_act(start), prefix, state, service.clock()))
        service.cache.remember(game_id, state)
    for _ in range(200):
        state, _ = await _head(service, game_id)
        if state.status == "finished":
            return state
        seat = to_act(state)[0]
        async with service.db.autocommit() as session:
            user_id, played_by_bot = (
                await session.execute(
                    select(Seat.user_id, Seat.absent | User.is_bot)
                    .join(User, User.id == Seat.user_id)
                    .where(Seat.game_id == game_id, Seat.seat == seat)
                )
            ).one()
        if played_by_bot:
            await service.apply(BotMove(game_id, seat))
        else:
            move = chooser.choice(legal_moves(state, seat))
            await service.apply(PlayerMove(user_id, game_id, counted(state, seat), move))
    raise AssertionError(f"game {game_id} did not end")


async def finish_with_a_timeout(service: GameService, game: dict[str, Any], late: str, chooser: random.Random,
                                ) -> GameState:
    """Finish the started timed game `game` (a summary as the API answers it) after the clock of the player
    called `late` ran out once, as the server runs it out (`TimeOut` past the deadline): the bot then plays
    their seat, the others move as `play_to_the_end` moves them."""
    gid = int(game["id"])
    seat = next(s["seat"] for s in game["seats"] if s["username"] == late)
    for _ in range(500):
        state, _ = await _head(service, gid)
        if seat in to_act(state):
            break
        other = to_act(state)[0]
        async with service.db.autocommit() as session:
            user_id, bot = (await session.execute(
                select(Seat.user_id, User.is_bot).join(User, User.id == Seat.user_id)
                .where(Seat.game_id == gid, Seat.seat == other))).one()
        if bot:
            await service.apply(BotMove(gid, other))
        else:
            move = chooser.choice(legal_moves(state, other))
            await service.apply(PlayerMove(user_id, gid, counted(state, other), move))
    else:
        raise AssertionError(f"seat {seat} of game {gid} was never awaited")
    assert await service.apply(TimeOut(gid, seat, service.clock() + timedelta(days=70))) is not None
    return await play_to_the_end(service, gid, chooser)
