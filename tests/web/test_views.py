"""Every viewer gets exactly the rules core's view for their own seat (or a spectator's): the platform never
shows one seat what was redacted for another."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from conftest import Api, Player

from app.rules import player_view, redact_event, replay
from app.store import event_store


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("variants", [{}, {"new_beginning": True}])
async def test_state_and_events_are_the_views_of_the_callers_seat(
    api: Api, client: httpx.AsyncClient, variants: dict[str, Any]
) -> None:
    """Also in A New Beginning, where the first moves are secret basket edits (RULING V4): each viewer's events
    are exactly those `redact_event` leaves it, numbered 1, 2, 3 ... as the viewer counts the log."""
    admin = await api.admin()
    players = [await api.player(n) for n in ("ann", "bob", "cid")]
    eve = await api.player("eve")
    game = await api.started_game(admin, players, seed=11, variants=variants)
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
    assert bool(variants) == any(redact_event(e, None) is None for e in log)  # secret edits were made
    usernames = [seats[s].username for s in sorted(seats)]
    viewers: list[tuple[Player, int | None]] = [(p, s) for s, p in seats.items()] + [(eve, None), (admin, None)]
    distinct = set()
    for viewer, seat in viewers:
        shown = (await client.get(f"/api/v1/games/{gid}/state", headers=viewer.headers)).json()
        distinct.add(json.dumps(shown, sort_keys=True))
        # Whether the viewer may take back their last move is the server's knowledge, added beside the view.
        undo = shown.pop("undo")
        assert undo is False if seat is None else isinstance(undo, bool)
        assert shown == _json(player_view(state, seat, game_id=gid, usernames=usernames)), viewer.username
        events = (await client.get(f"/api/v1/games/{gid}/events", headers=viewer.headers)).json()["events"]
        known = [_json(shown) for e in log if (shown := redact_event(e, seat)) is not None]
        assert [(e["seq"], e["data"]) for e in events] == list(enumerate(known, 1)), viewer.username
        later = (await client.get(f"/api/v1/games/{gid}/events?after=3&limit=4", headers=viewer.headers)).json()
        assert [(e["seq"], e["data"]) for e in later["events"]] == list(enumerate(known, 1))[3:7], viewer.username
    assert len(distinct) == 4  # three seats, and one spectator's view shared by eve and the admin
