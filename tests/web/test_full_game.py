"""A whole game through the API, from creation to the final score, with random legal moves."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from conftest import Api
from support import assert_error


@pytest.mark.parametrize("variants", [
    {},
    # Both expansions and the characters drawn at random (issue "Gold & Guns and the Outlaws": "played to its end
    # ... through the API").
    {"expansions": ["gold_and_guns", "outlaws"], "sides": "random"},
], ids=["base", "gold-and-guns-and-outlaws"])
async def test_play_a_two_player_game_to_the_end(api: Api, client: httpx.AsyncClient, variants: dict[str, Any]) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob], seed=5, variants=variants)
    gid = game["id"]
    seats = api.seated(game, [ann, bob])
    chooser = random.Random(5)
    summary = game
    for _ in range(3000):
        if summary["status"] == "finished":
            break
        who = seats[chooser.choice(summary["to_act"])]
        options = (await client.get(f"/api/v1/games/{gid}/moves", headers=who.headers)).json()
        move = chooser.choice(options["moves"])
        r = await client.post(
            f"/api/v1/games/{gid}/moves", json={"seq": options["seq"], "move": move}, headers=who.headers
        )
        assert r.status_code == 200, (move, r.text)
        summary = (await client.get(f"/api/v1/games/{gid}", headers=admin.headers)).json()
        assert summary["seq"] == r.json()["seq"]
    assert summary["status"] == "finished" and summary["to_act"] == []
    state = (await client.get(f"/api/v1/games/{gid}/state", headers=ann.headers)).json()
    assert state["status"] == "finished" and state["winner"] in (0, 1)
    assert all(p["score"] is not None for p in state["players"])
    r = await client.post(
        f"/api/v1/games/{gid}/moves", json={"seq": summary["seq"], "move": {"type": "pass"}}, headers=ann.headers
    )
    assert_error(r, 409, "game_not_active")
    finished = (await client.get("/api/v1/games", params={"status": "finished"}, headers=bob.headers)).json()
    assert [g["id"] for g in finished["data"]] == [gid]
    events = (await client.get(f"/api/v1/games/{gid}/events", headers=bob.headers)).json()["events"]
    assert [e["seq"] for e in events] == list(range(1, summary["seq"] + 1))
