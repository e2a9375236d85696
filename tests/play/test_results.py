"""The results table (issue 27 "A results table"): every finished game writes each player's place (ties shared,
the rules' winner first alone, a player who left last), score parts and whether their clock never ran out, once,
in the statement that records the game's end (`app.play.record`)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import httpx
import pytest
from conftest import Api, Player
from sqlalchemy import func, select

from app.play.commands import BotMove, PlayerMove, TimeOut
from app.play.head import counted
from app.play.record import _RECORD, _RECORD_END
from app.play.results import leaver_place, places
from app.play.service import GameService
from app.rules import legal_moves, to_act
from app.store.tables import GameResult, User
from tests.play.finishing import play_to_the_end


@pytest.mark.parametrize(("totals", "winner", "expected"), [
    ([12, 7], 0, [1, 2]),
    ([9, 9, 5], 1, [2, 1, 3]),  # a tie for the most points: the rules' winner alone first (RULING B17)
    ([20, 7, 7, 3], 0, [1, 2, 2, 4]),  # a tie below: shared, and the next place skipped
    ([5, 5, 5, 5, 5, 5], 3, [2, 2, 2, 1, 2, 2]),
])
def test_places_share_ties_below_the_rules_winner(totals: list[int], winner: int, expected: list[int]) -> None:
    assert places([{"total": t} for t in totals], winner) == expected


def test_a_player_who_left_is_behind_every_seat() -> None:
    assert leaver_place(4) == 5


def test_a_plain_move_keeps_its_cached_statement_and_only_the_end_writes_results() -> None:
    assert "game_results" not in _RECORD and "game_results" in _RECORD_END


async def _results(service: GameService, game_id: int) -> list[Any]:
    async with service.db.reading() as session:
        return list((await session.execute(
            select(GameResult, User.username).join(User, User.id == GameResult.user_id)
            .where(GameResult.game_id == game_id).order_by(GameResult.place, GameResult.seat)
        )).all())


async def _started(api: Api, names: list[str], **extra: Any) -> tuple[dict[str, Any], Player, list[Player]]:
    admin = await api.admin()
    players = [await api.player(name) for name in names]
    return await api.started_game(admin, players, **extra), admin, players


async def test_a_finished_game_writes_each_seats_place_and_score_once(api: Api, service: GameService) -> None:
    game, _, _ = await _started(api, ["ann", "bob", "cid", "dee"], seed=11)
    final = await play_to_the_end(service, game["id"], random.Random(11))
    rows = await _results(service, game["id"])
    assert final.winner is not None
    assert sorted((r.seat, r.place) for r, _ in rows) == sorted(enumerate(places(final.scores, final.winner)))
    assert {r.seat: r.score for r, _ in rows} == {seat: dict(score) for seat, score in enumerate(final.scores)}
    assert all(r.on_time and not r.left_game and r.rated for r, _ in rows)
    by_seat = {s["seat"]: s["username"] for s in game["seats"]}
    assert all(by_seat[r.seat] == name for r, name in rows)
    async with service.db.reading() as session:
        assert await session.scalar(select(func.count()).select_from(GameResult)) == 4


async def test_a_replaced_player_is_last_and_the_newcomer_takes_the_seats_place(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    game, admin, _ = await _started(api, ["ann", "bob", "cid"], seed=12)
    await api.player("dan")
    ann_seat = next(s["seat"] for s in game["seats"] if s["username"] == "ann")
    r = await client.post(f"/api/v1/games/{game['id']}/seats/{ann_seat}/replace", json={"username": "dan"},
                          headers=admin.headers)
    assert r.status_code == 204, r.text
    final = await play_to_the_end(service, game["id"], random.Random(12))
    assert final.winner is not None
    rows = {name: r for r, name in await _results(service, game["id"])}
    assert set(rows) == {"ann", "bob", "cid", "dan"}
    assert rows["ann"].place == 4 and rows["ann"].left_game and rows["ann"].score is None
    assert rows["dan"].place == places(final.scores, final.winner)[ann_seat] and not rows["dan"].left_game


async def test_a_clock_that_ran_out_is_marked_and_a_game_every_person_left_to_the_bot_is_not_rated(
    api: Api, service: GameService
) -> None:
    """ann's clock runs out (the bot plays her seat from then on), and the game ends with bob's clock run out
    too: nobody is playing it out, so it does not count for ratings."""
    game, _, players = await _started(api, ["ann", "bob"], seed=13, move_timeout_hours=24)
    gid = game["id"]
    later = service.clock() + timedelta(hours=25)
    state = service.cache.get(gid)
    assert state is not None
    ann = next(s["seat"] for s in game["seats"] if s["username"] == "ann")
    while ann not in to_act(state):
        await service.apply(PlayerMove(players[1].id, gid, counted(state, 1 - ann), legal_moves(state, 1 - ann)[0]))
        state = service.cache.get(gid)
        assert state is not None
    assert await service.apply(TimeOut(gid, ann, later)) is not None
    state = service.cache.get(gid)
    assert state is not None
    while 1 - ann not in to_act(state):  # the bot plays ann's seat
        assert await service.apply(BotMove(gid, ann)) is not None
        state = service.cache.get(gid)
        assert state is not None
    assert await service.apply(TimeOut(gid, 1 - ann, later + timedelta(hours=50))) is not None
    await play_to_the_end(service, gid, random.Random(13))
    rows = await _results(service, gid)
    assert len(rows) == 2 and all(not r.on_time and not r.rated for r, _ in rows)
