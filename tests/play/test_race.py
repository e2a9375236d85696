"""Concurrent submissions for the same decision: exactly one wins, the log never forks or gaps."""

from __future__ import annotations

import asyncio

import httpx
from conftest import Api
from sqlalchemy import select

from app.store.tables import GameEvent


async def test_fifty_concurrent_submissions_one_wins(api: Api, client: httpx.AsyncClient, app: object) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    gid = game["id"]
    awaited = api.seated(game, [ann, bob])[game["to_act"][0]]
    options = (await client.get(f"/api/v1/games/{gid}/moves", headers=awaited.headers)).json()
    body = {"seq": options["seq"], "move": options["moves"][0]}
    responses = await asyncio.gather(
        *(client.post(f"/api/v1/games/{gid}/moves", json=body, headers=awaited.headers) for _ in range(50))
    )
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] + [409] * 49
    assert all(r.json()["detail"]["code"] == "stale_seq" for r in responses if r.status_code == 409)
    winner = next(r.json()["seq"] for r in responses if r.status_code == 200)
    async with app.state.service.db.session() as session:  # type: ignore[attr-defined]
        seqs = list((await session.execute(select(GameEvent.seq).where(GameEvent.game_id == gid))).scalars())
    assert sorted(seqs) == list(range(1, winner + 1))
