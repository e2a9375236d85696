"""The leaderboard's query (issue 27 "Leaderboard"; `app.play.standing.leaderboard`): the database sorts, filters
and cuts it, on the partial index of the ranked players' ordinals (migration 0016), page by page; and reading a
player's rating never writes (a bot level never rated has no identity yet, and a read does not make one)."""

from __future__ import annotations

import random
from typing import Any

import httpx
from conftest import Api
from sqlalchemy import func, insert, select, text

from app.play.ratings import PROVISIONAL_BELOW, Skill
from app.play.standing import leaderboard, ranked
from app.store.tables import Rating, User
from tests.web.test_leaderboard_pages import board_rows
from tests.web.test_pages import signed_in


async def _rated_players(app: Any, count: int) -> list[tuple[str, int, int]]:
    """`count` accounts with ratings of every kind, a third of them provisional; (name, shown, games) of each."""
    chooser = random.Random(5)
    players = []
    async with app.state.service.db.session() as session:
        for n in range(count):
            user_id = await session.scalar(insert(User).values(
                username=f"p{n:03d}", email=f"p{n}@example.com", password_hash="-").returning(User.id))
            mu, sigma = chooser.uniform(15, 35), chooser.uniform(1, 8)
            games = chooser.choice([3, 9, 10, 11, 40])
            await session.execute(insert(Rating).values(user_id=user_id, mu=mu, sigma=sigma, games=games))
            players.append((f"p{n:03d}", mu - 3 * sigma, Skill(mu, sigma, games).value, games))
        await session.commit()
    ranked = sorted((p for p in players if p[3] >= PROVISIONAL_BELOW), key=lambda p: (-p[1], p[0]))
    return [(name, shown, games) for name, _, shown, games in ranked]


async def test_the_database_sorts_and_cuts_the_leaderboard_page_by_page(app: Any) -> None:
    expected = await _rated_players(app, 120)
    db = app.state.service.db
    every = await leaderboard(db, limit=100)
    assert every.total == len(expected) > 60
    assert [(r.username, r.rating, r.games) for r in every.players] == expected[:100]
    pages = [await leaderboard(db, limit=25, offset=offset) for offset in range(0, every.total, 25)]
    assert [(r.username, r.rating, r.games) for p in pages for r in p.players] == expected
    assert all(p.total == every.total for p in pages) and pages[1].offset == 25
    assert (await leaderboard(db, players=4)).players == [], "nobody played a rated game of 4"


async def test_the_leaderboards_order_reads_its_partial_index(app: Any) -> None:
    await _rated_players(app, 40)
    query = ranked().limit(10)
    async with app.state.service.db.session() as session:
        await session.execute(text("SET LOCAL enable_seqscan = off"))  # 40 rows: a scan would be cheaper
        compiled = query.compile(session.bind, compile_kwargs={"literal_binds": True})
        plan = "\n".join((await session.execute(text(f"EXPLAIN {compiled}"))).scalars())
    assert "ix_ratings_leaderboard" in plan, plan


async def test_the_leaderboard_page_has_pages_of_fifty(app: Any, client: httpx.AsyncClient) -> None:
    expected = await _rated_players(app, 180)
    await signed_in(client, "zed")
    first = (await client.get("/leaderboard")).text
    assert board_rows(first) == [(name, shown) for name, shown, _ in expected[:50]]
    assert "Page 1 of" in first and 'rel="next" href="/leaderboard?page=2"' in first and 'rel="prev"' not in first
    second = (await client.get("/leaderboard?page=2")).text
    assert board_rows(second) == [(name, shown) for name, shown, _ in expected[50:100]]
    assert "<tr><td>51</td>" in second and 'rel="prev" href="/leaderboard?page=1"' in second
    assert board_rows((await client.get("/leaderboard?page=nonsense")).text) == board_rows(first)


async def test_reading_a_bots_rating_writes_nothing(app: Any, api: Api, client: httpx.AsyncClient) -> None:
    ann = await api.player("ann")
    r = await client.post("/api/v1/games", json={"name": "Bots", "seats": 3, "bots": 2}, headers=ann.headers)
    assert r.status_code == 201

    async def users() -> list[str]:
        async with app.state.service.db.reading() as session:
            return sorted((await session.scalars(select(User.username))).all())

    before = await users()
    assert "bot-normal" not in before
    page = (await client.get("/api/v1/players/bot-1", headers=ann.headers)).json()
    assert page["rating"] == {"value": 1000, "games": 0, "provisional": True}
    await signed_in(client, "zed")
    assert (await client.get("/players/bot-2")).status_code == 200
    assert await users() == sorted([*before, "zed"])
    async with app.state.service.db.reading() as session:
        assert await session.scalar(select(func.count()).select_from(Rating)) == 0
