"""Ratings (issue 27, API.md "Ratings and reputation"): openskill's Plackett-Luce model rates each rated game's
players from their places; bots are rated as their level's one identity; unrated tables and games nobody played
out change nothing; a player who left is last; `rebuild` gives the live figures again from the results table."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable
from typing import Any

import httpx
import psycopg
import pytest
from conftest import Api, Player
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.play import ratings
from app.play.ratings import NEWCOMER, Skill, rate, shown
from app.play.service import GameService
from app.store.tables import GameResult, Rating, RatingHistory, User
from tests.play.finishing import play_to_the_end

BIG_BOX = {"expansions": ["big_box"]}


def test_two_players_the_winner_goes_up_and_the_loser_down() -> None:
    after = rate([(1, 1), (2, 2)], {})
    assert after[1].mu > NEWCOMER.mu > after[2].mu
    assert after[1].games == after[2].games == 1 and after[1].provisional


@pytest.mark.parametrize("players", [4, 6])
def test_many_players_move_in_the_order_of_their_places(players: int) -> None:
    after = rate([(p, p) for p in range(1, players + 1)], {})
    mus = [after[p].mu for p in range(1, players + 1)]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == players
    assert mus[0] > NEWCOMER.mu > mus[-1]


def test_tied_players_move_alike_and_a_win_over_a_stronger_player_counts_more() -> None:
    after = rate([(1, 1), (2, 2), (3, 2), (4, 4)], {})
    assert after[2].mu == pytest.approx(after[3].mu)
    strong = Skill(40.0, 4.0, 30)
    beat_strong = rate([(1, 1), (2, 2)], {2: strong})[1].mu
    beat_newcomer = rate([(1, 1), (2, 2)], {})[1].mu
    assert beat_strong > beat_newcomer


def test_one_identity_with_several_seats_counts_the_game_once() -> None:
    after = rate([(1, 1), (9, 2), (9, 3)], {})
    assert set(after) == {1, 9} and after[9].games == 1 and after[9].mu < NEWCOMER.mu


def test_the_shown_value_is_one_integer_that_starts_at_the_base_and_is_provisional_below_ten_games() -> None:
    assert shown(NEWCOMER.mu, NEWCOMER.sigma) == ratings.BASE
    assert Skill(30.0, 5.0, 9).provisional and not Skill(30.0, 5.0, 10).provisional


async def _finished(api: Api, service: GameService, names: list[str], seed: int, **extra: Any) -> int:
    admin = await api.admin()
    players = [await api.player(name) for name in names]
    game = await api.started_game(admin, players, seed=seed, **extra)
    await play_to_the_end(service, game["id"], random.Random(seed))
    return int(game["id"])


async def _ratings(service: GameService) -> dict[str, tuple[float, float, int]]:
    async with service.db.reading() as session:
        rows = (
            await session.execute(
                select(User.username, Rating.mu, Rating.sigma, Rating.games).join(User, User.id == Rating.user_id)
            )
        ).all()
    return {name: (mu, sigma, games) for name, mu, sigma, games in rows}


async def _places(service: GameService, game_id: int) -> dict[str, int]:
    async with service.db.reading() as session:
        rows = (
            await session.execute(
                select(User.username, GameResult.place)
                .join(User, User.id == GameResult.user_id)
                .where(GameResult.game_id == game_id)
            )
        ).all()
    return dict(rows)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("names", "extra"),
    [
        (["ann", "bob"], {}),
        (["ann", "bob", "cid", "dee"], {}),
        (["ann", "bob", "cid", "dee", "eve", "fay"], {"variants": BIG_BOX}),
    ],
    ids=["2", "4", "6"],
)
async def test_a_finished_game_rates_its_players_in_the_order_of_their_places(
    api: Api, service: GameService, names: list[str], extra: dict[str, Any]
) -> None:
    gid = await _finished(api, service, names, seed=len(names), **extra)
    places, rated = await _places(service, gid), await _ratings(service)
    assert set(rated) == set(names) and all(games == 1 for _, _, games in rated.values())
    for a in names:
        for b in names:
            if places[a] < places[b]:
                assert rated[a][0] > rated[b][0], (places, rated)
            elif places[a] == places[b]:
                assert rated[a][0] == pytest.approx(rated[b][0])
    best = min(names, key=places.__getitem__)
    assert rated[best][0] > NEWCOMER.mu


async def test_a_replaced_player_is_rated_last(api: Api, client: httpx.AsyncClient, service: GameService) -> None:
    admin = await api.admin()
    players = [await api.player(name) for name in ("ann", "bob", "cid")]
    await api.player("dan")
    game = await api.started_game(admin, players, seed=21)
    seat = next(s["seat"] for s in game["seats"] if s["username"] == "ann")
    r = await client.post(
        f"/api/v1/games/{game['id']}/seats/{seat}/replace", json={"username": "dan"}, headers=admin.headers
    )
    assert r.status_code == 204
    await play_to_the_end(service, game["id"], random.Random(21))
    rated = await _ratings(service)
    assert set(rated) == {"ann", "bob", "cid", "dan"}
    assert rated["ann"][0] == min(mu for mu, _, _ in rated.values()) < NEWCOMER.mu


async def test_an_unrated_table_changes_no_rating(api: Api, service: GameService) -> None:
    gid = await _finished(api, service, ["ann", "bob"], seed=22, rated=False)
    assert await _ratings(service) == {}
    async with service.db.reading() as session:
        assert (await session.scalars(select(GameResult.rated).where(GameResult.game_id == gid))).all() == [
            False,
            False,
        ]


@pytest.mark.parametrize("level", [None, "easy", "hard"])
async def test_bots_are_rated_as_their_levels_one_identity(
    api: Api, client: httpx.AsyncClient, service: GameService, level: str | None
) -> None:
    """Issue 29: each bot level is one rated identity, `bot-<level>` (`normal` when the table names none),
    whichever `bot-N` accounts sat at the table."""
    ann = await api.player("ann")
    body = {"name": "With bots", "seats": 3, "bots": 2, "seed": None, **({"bot_level": level} if level else {})}
    r = await client.post("/api/v1/games", json=body, headers=ann.headers)
    assert r.status_code == 201 and r.json()["status"] == "active", r.text
    await play_to_the_end(service, r.json()["id"], random.Random(23))
    rated = await _ratings(service)
    identity = f"bot-{level or 'normal'}"
    assert set(rated) == {"ann", identity} and rated[identity][2] == 1
    for name, games in ((identity, 1), ("bot-1", 1 if identity == "bot-normal" else 0)):  # bot-N: normal's
        r = await client.get(f"/api/v1/players/{name}", headers=ann.headers)
        assert r.status_code == 200 and r.json()["rating"]["games"] == games, (name, r.text)


async def test_a_rebuild_from_the_results_gives_the_live_figures(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    admin = await api.admin()
    people: dict[str, Player] = {name: await api.player(name) for name in ("ann", "bob", "cid", "dee")}
    chooser = random.Random(24)
    for n in range(6):
        names = chooser.sample(sorted(people), chooser.choice([2, 3, 4]))
        game = await api.started_game(admin, [people[name] for name in names], seed=100 + n, rated=n != 3)
        await play_to_the_end(service, game["id"], random.Random(n))
    r = await client.post("/api/v1/games", json={"name": "Bots", "seats": 2, "bots": 1}, headers=people["ann"].headers)
    await play_to_the_end(service, r.json()["id"], random.Random(9))

    async def history() -> list[tuple[Any, ...]]:
        async with service.db.reading() as session:
            return [
                tuple(row)
                for row in (
                    await session.execute(
                        select(
                            RatingHistory.game_id,
                            RatingHistory.user_id,
                            RatingHistory.mu,
                            RatingHistory.sigma,
                            RatingHistory.games,
                        ).order_by(RatingHistory.game_id, RatingHistory.user_id)
                    )
                ).all()
            ]

    live, live_history = await _ratings(service), await history()
    assert len(live) == 5 and sum(games for _, _, games in live.values()) > 10
    assert await ratings.rebuild(service.db) == 6
    assert await _ratings(service) == live and await history() == live_history


async def _unrated(service: GameService) -> set[int]:
    async with service.db.reading() as session:
        return set(await ratings._pending(session))


async def test_games_ending_while_another_rater_holds_the_lock_wait_for_nobody_and_are_rated_by_the_holder(
    api: Api, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24 (load): the last move of a game that ends while another rater holds the ratings' lock (another
    game's end, here or on another instance) does not queue behind it holding a connection; the holder rates that
    game too, since it looks for pending games again once its transaction is over."""
    admin = await api.admin()
    ann, bob, cid, dee = [await api.player(name) for name in ("ann", "bob", "cid", "dee")]
    first = await api.started_game(admin, [ann, bob], seed=31)
    second = await api.started_game(admin, [cid, dee], seed=32)
    async with await psycopg.AsyncConnection.connect(service.db.libpq_url) as other_rater:
        await other_rater.execute("SELECT pg_advisory_xact_lock(%s)", (ratings._LOCK,))
        # Were the last move waiting for the lock held here, this would never end: the guard turns that into a
        # failure.
        await asyncio.wait_for(play_to_the_end(service, first["id"], random.Random(31)), timeout=120)
        assert await _unrated(service) == {first["id"]}
        await other_rater.rollback()

    rate_games = ratings._rate_games

    async def second_game_ends_meanwhile(session: AsyncSession, game_ids: Iterable[int]) -> None:
        """While the first game is being rated (the lock held), the second one ends: its last move finds the
        lock taken and answers."""
        if list(game_ids) == [first["id"]]:
            await play_to_the_end(service, second["id"], random.Random(32))
            assert await _unrated(service) == {first["id"], second["id"]}
        await rate_games(session, game_ids)

    monkeypatch.setattr(ratings, "_rate_games", second_game_ends_meanwhile)
    assert await ratings.rate_pending(service.db) == 2
    assert await _unrated(service) == set()
    rated = await _ratings(service)
    assert set(rated) == {"ann", "bob", "cid", "dee"} and all(games == 1 for _, _, games in rated.values())


async def test_a_last_move_answers_after_one_pass_and_the_games_that_ended_meanwhile_are_rated_after_it(
    api: Api, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24 (load): a game's last move rates the pending games once before it answers; a game that ended
    during that pass (its own last move found the lock taken) is rated by the service after the move answered,
    so one last move never waits for every game that ends while it rates."""
    admin = await api.admin()
    ann, bob, cid, dee = [await api.player(name) for name in ("ann", "bob", "cid", "dee")]
    first = await api.started_game(admin, [ann, bob], seed=33)
    second = await api.started_game(admin, [cid, dee], seed=34)
    released = asyncio.Event()
    rate_games = ratings._rate_games

    async def second_game_ends_meanwhile(session: AsyncSession, game_ids: Iterable[int]) -> None:
        """The second game ends while the first one's last move rates it; its own rating waits for the test."""
        ids = list(game_ids)
        if ids == [first["id"]]:
            await play_to_the_end(service, second["id"], random.Random(34))
        elif ids == [second["id"]]:
            await released.wait()
        await rate_games(session, ids)

    monkeypatch.setattr(ratings, "_rate_games", second_game_ends_meanwhile)
    # Were the last move waiting for the second game's rating, this would never end: the guard turns that into a
    # failure.
    await asyncio.wait_for(play_to_the_end(service, first["id"], random.Random(33)), timeout=120)
    assert await _unrated(service) == {second["id"]}
    released.set()
    await service.ratings_settled()
    assert await _unrated(service) == set()
    rated = await _ratings(service)
    assert set(rated) == {"ann", "bob", "cid", "dee"} and all(games == 1 for _, _, games in rated.values())
