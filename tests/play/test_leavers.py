"""Leavers, ties and games nobody played out, end to end (issue 27 "Done when": ratings move the right way after
2-, 4- and 6-player games, ties, leavers, unrated and aborted games, bots).

A running game's seats are played to the end (`POST .../leave` frees a seat only at an open table): a player
leaves a running game when an admin hands their seat to another player (`seat_replaced`), and a game is not
played out when every person's seat is left to the bot (their clocks ran out and none came back). The site has
no other way to abort a running game. A leaver is last, behind every seat, and shares that place with the
other leavers; their reputation counts a game abandoned."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from conftest import Api, Player
from sqlalchemy import select, update

from app.play import ratings
from app.play.ratings import NEWCOMER
from app.play.reputation import reputation_of
from app.play.results import leaver_place
from app.play.service import GameService
from app.store.tables import GameResult, Rating, RatingHistory, User
from tests.play.finishing import finish_with_a_timeout, play_to_the_end

BIG_BOX = {"expansions": ["big_box"]}


async def _ratings(service: GameService) -> dict[str, tuple[float, float, int]]:
    async with service.db.reading() as session:
        rows = (await session.execute(
            select(User.username, Rating.mu, Rating.sigma, Rating.games).join(User, User.id == Rating.user_id)
        )).all()
    return {name: (mu, sigma, games) for name, mu, sigma, games in rows}


async def _results(service: GameService, game_id: int) -> dict[str, GameResult]:
    async with service.db.reading() as session:
        rows = (await session.execute(
            select(GameResult, User.username).join(User, User.id == GameResult.user_id)
            .where(GameResult.game_id == game_id)
        )).all()
    return {name: result for result, name in rows}


async def _reputation(service: GameService, name: str) -> tuple[int, int, int]:
    async with service.db.reading() as session:
        user_id = await session.scalar(select(User.id).where(User.username == name))
        assert user_id is not None
        r = await reputation_of(session, user_id)
    return r.finished, r.abandoned, r.timeouts


async def _hand_over(client: httpx.AsyncClient, admin: Player, game: dict[str, Any], leaver: str, to: str) -> None:
    seat = next(s["seat"] for s in game["seats"] if s["username"] == leaver)
    r = await client.post(f"/api/v1/games/{game['id']}/seats/{seat}/replace", json={"username": to},
                          headers=admin.headers)
    assert r.status_code == 204, r.text


@pytest.mark.parametrize(("names", "extra"), [
    (["ann", "bob", "cid", "dee"], {}),
    (["ann", "bob", "cid", "dee", "eve", "fay"], {"variants": BIG_BOX}),
], ids=["4", "6"])
async def test_leavers_share_the_last_place_below_everyone_and_lose_the_most(
    api: Api, client: httpx.AsyncClient, service: GameService, names: list[str], extra: dict[str, Any]
) -> None:
    admin = await api.admin()
    players = [await api.player(name) for name in names]
    await api.player("gus")
    await api.player("hal")
    game = await api.started_game(admin, players, seed=len(names) * 7, **extra)
    await _hand_over(client, admin, game, "ann", "gus")
    await _hand_over(client, admin, game, "bob", "hal")
    await play_to_the_end(service, game["id"], random.Random(len(names)))

    results = await _results(service, game["id"])
    assert set(results) == {*names, "gus", "hal"}
    last = leaver_place(len(names))
    assert results["ann"].place == results["bob"].place == last and results["ann"].left_game
    assert all(r.place < last and not r.left_game for name, r in results.items() if name not in ("ann", "bob"))
    rated = await _ratings(service)
    assert rated["ann"][0] == pytest.approx(rated["bob"][0]), "leavers share their place"
    assert rated["ann"][0] < min(mu for name, (mu, _, _) in rated.items() if name not in ("ann", "bob"))
    assert rated["ann"][0] < NEWCOMER.mu
    assert await _reputation(service, "ann") == (0, 1, 0)
    assert await _reputation(service, "gus") == (1, 0, 0)


async def test_a_leaver_of_an_unrated_game_keeps_their_rating_but_the_abandoned_game_counts(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    admin = await api.admin()
    players = [await api.player(name) for name in ("ann", "bob", "cid")]
    await api.player("dan")
    game = await api.started_game(admin, players, seed=31, rated=False)
    await _hand_over(client, admin, game, "ann", "dan")
    await play_to_the_end(service, game["id"], random.Random(31))
    assert await _ratings(service) == {}
    assert not any(r.rated for r in (await _results(service, game["id"])).values())
    assert await _reputation(service, "ann") == (0, 1, 0)


async def test_a_game_whose_only_person_left_it_to_the_bots_rates_nobody(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    """ann plays two bots; her clock runs out and she never comes back: the bots finish the game, which nobody
    played out — neither ann's rating nor the bots' level's moves, and her clock run out counts."""
    ann = await api.player("ann")
    r = await client.post("/api/v1/games", json={"name": "Alone", "seats": 3, "bots": 2, "move_timeout_hours": 24},
                          headers=ann.headers)
    assert r.status_code == 201 and r.json()["status"] == "active", r.text
    await finish_with_a_timeout(service, r.json(), "ann", random.Random(32))
    results = await _results(service, r.json()["id"])
    assert set(results) == {"ann", "bot-1", "bot-2"} and not any(r.rated for r in results.values())
    assert await _ratings(service) == {}
    assert await _reputation(service, "ann") == (1, 0, 1)


async def test_a_game_where_one_person_still_plays_is_rated_though_anothers_clock_ran_out(
    api: Api, service: GameService
) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob], seed=33, move_timeout_hours=24)
    await finish_with_a_timeout(service, game, "bob", random.Random(33))
    results = await _results(service, game["id"])
    assert all(r.rated for r in results.values()) and not results["bob"].on_time and results["ann"].on_time
    assert set(await _ratings(service)) == {"ann", "bob"}


async def test_players_tied_in_the_results_move_alike_when_the_ratings_are_rebuilt(
    api: Api, service: GameService
) -> None:
    """A tie below the winner shares the place (RULING B17 breaks only the tie for first); the ratings follow
    the results table, so a tie written there moves the tied players by the same amount."""
    admin = await api.admin()
    players = [await api.player(name) for name in ("ann", "bob", "cid", "dee")]
    game = await api.started_game(admin, players, seed=34)
    await play_to_the_end(service, game["id"], random.Random(34))
    order = sorted((await _results(service, game["id"])).items(), key=lambda item: item[1].place)
    tied = [order[1][0], order[2][0]]
    async with service.db.session() as session:
        await session.execute(update(GameResult).where(
            GameResult.game_id == game["id"], GameResult.user_id.in_(select(User.id).where(User.username.in_(tied)))
        ).values(place=2))
        await session.commit()
    assert await ratings.rebuild(service.db) == 1
    rated = await _ratings(service)
    assert rated[tied[0]] == pytest.approx(rated[tied[1]])
    assert rated[order[0][0]][0] > rated[tied[0]][0] > rated[order[3][0]][0]
    async with service.db.reading() as session:
        assert len((await session.scalars(select(RatingHistory.user_id))).all()) == 4
