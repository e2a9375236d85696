"""Every viewer gets exactly the rules core's view for their own seat (or a spectator's): the platform never
shows one seat what was redacted for another."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from conftest import Api, Player

from app.rules import player_view, redact_event, replay
from app.store import event_store


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


async def test_state_and_events_are_the_views_of_the_callers_seat(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    players = [await api.player(n) for n in ("ann", "bob", "cid")]
    eve = await api.player("eve")
    game = await api.started_game(admin, players, seed=11)
    gid = game["id"]
    seats = api.seated(game, players)
    chooser = random.Random(11)
    summary = game
    for _ in range(12):
        who = seats[chooser.choice(summary["to_act"])]
        options = (await client.get(f"/api/v1/games/{gid}/moves", headers=who.headers)).json()
        body = {"seq": options["seq"], "move": chooser.choice(options["moves"])}
        assert (await client.post(f"/api/v1/games/{gid}/moves", json=body, headers=who.headers)).status_code == 200
        summary = (await client.get(f"/api/v1/games/{gid}", headers=admin.headers)).json()

    async with api.app.state.service.db.reading() as session:
        log = [e.event for e in await event_store.load(session, gid)]
    state = replay(log)
    usernames = [seats[s].username for s in sorted(seats)]
    viewers: list[tuple[Player, int | None]] = [(p, s) for s, p in seats.items()] + [(eve, None), (admin, None)]
    distinct = set()
    for viewer, seat in viewers:
        shown = (await client.get(f"/api/v1/games/{gid}/state", headers=viewer.headers)).json()
        distinct.add(json.dumps(shown, sort_keys=True))
        assert shown == _json(player_view(state, seat, game_id=gid, usernames=usernames)), viewer.username
        events = (await client.get(f"/api/v1/games/{gid}/events", headers=viewer.headers)).json()["events"]
        assert [e["data"] for e in events] == [_json(redact_event(e, seat)) for e in log], viewer.username
    assert len(distinct) == 4  # three seats, and one spectator's view shared by eve and the admin
