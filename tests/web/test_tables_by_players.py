"""Tables opened by players (docs/api.md "Games", the contract "Players create tables"): the creator sits down and
invites, invitations hold seats until accepted (joined) or declined, public tables take anyone and private ones
only the invited, players leave open tables, and only the creator (or an admin) starts one or invites to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from conftest import Api, Player
from support import assert_error

from app.main import create_app
from app.settings import Settings


async def open_table(client: httpx.AsyncClient, creator: Player, **body: Any) -> dict[str, Any]:
    r = await client.post("/api/v1/games", json={"name": "Friends", "seats": 3, **body}, headers=creator.headers)
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def seated(game: dict[str, Any]) -> list[str]:
    return sorted(s["username"] for s in game["seats"])


async def test_a_player_opens_a_table_takes_a_seat_and_invites(api: Api, client: httpx.AsyncClient) -> None:
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    game = await open_table(client, ann, players=["bob", "ann"], variants={"river": True})
    assert game["status"] == "open" and game["creator"] == "ann" and game["public"] is True
    assert seated(game) == ["ann"]  # the creator sits down; naming oneself invites nobody
    assert game["invited"] == ["bob"] and game["variants"]["river"] is True
    r = await client.get("/api/v1/me/invitations", headers=bob.headers)
    (invitation,) = r.json()["invitations"]
    assert invitation["invited_by"] == "ann" and invitation["game"]["id"] == game["id"]
    assert (await client.get("/api/v1/me/invitations", headers=cid.headers)).json() == {"invitations": []}


async def test_a_player_may_not_choose_the_seed(api: Api, client: httpx.AsyncClient) -> None:
    ann = await api.player("ann")
    r = await client.post("/api/v1/games", json={"name": "Rigged", "seats": 2, "seed": 7}, headers=ann.headers)
    assert_error(r, 403, "seed_admin_only")
    assert (await client.get("/api/v1/games", headers=ann.headers)).json()["count"] == 0


async def test_a_player_invites_at_most_the_seats_beside_their_own(api: Api, client: httpx.AsyncClient) -> None:
    ann = await api.player("ann")
    await api.player("bob")
    await api.player("cid")
    r = await client.post("/api/v1/games", json={"name": "Crowd", "seats": 2, "players": ["bob", "cid"]},
                          headers=ann.headers)
    assert_error(r, 422, "too_many_players")
    r = await client.post("/api/v1/games", json={"name": "Ghost", "seats": 2, "players": ["nobody"]},
                          headers=ann.headers)
    assert_error(r, 422, "unknown_player")


async def test_accepting_joins_and_declining_frees_the_held_seat(api: Api, client: httpx.AsyncClient) -> None:
    ann, bob, cid, dan = [await api.player(n) for n in ("ann", "bob", "cid", "dan")]
    game = await open_table(client, ann, seats=3, players=["bob", "cid"])
    gid = game["id"]
    # Both other seats are held: a stranger finds the table full.
    assert_error(await client.post(f"/api/v1/games/{gid}/join", headers=dan.headers), 409, "game_full")
    r = await client.post(f"/api/v1/games/{gid}/join", headers=bob.headers)
    assert r.status_code == 200 and seated(r.json()) == ["ann", "bob"] and r.json()["invited"] == ["cid"]
    assert (await client.get("/api/v1/me/invitations", headers=bob.headers)).json() == {"invitations": []}
    r = await client.post(f"/api/v1/games/{gid}/decline", headers=cid.headers)
    assert r.status_code == 204
    assert_error(await client.post(f"/api/v1/games/{gid}/decline", headers=cid.headers), 404, "no_invitation")
    assert (await client.get(f"/api/v1/games/{gid}", headers=ann.headers)).json()["invited"] == []
    r = await client.post(f"/api/v1/games/{gid}/join", headers=dan.headers)  # the freed seat
    assert r.status_code == 200 and seated(r.json()) == ["ann", "bob", "dan"]


async def test_a_table_by_invitation_takes_only_the_invited(api: Api, client: httpx.AsyncClient) -> None:
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    game = await open_table(client, ann, public=False, players=["bob"])
    assert game["public"] is False
    assert_error(await client.post(f"/api/v1/games/{game['id']}/join", headers=cid.headers), 403,
                 "invitation_required")
    r = await client.post(f"/api/v1/games/{game['id']}/join", headers=bob.headers)
    assert r.status_code == 200 and seated(r.json()) == ["ann", "bob"]


async def test_only_the_creator_invites_and_never_into_a_full_table(api: Api, client: httpx.AsyncClient) -> None:
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    await api.player("dan")
    game = await open_table(client, ann, seats=2, start_when_full=False)  # stays open when full
    gid = game["id"]
    invite = f"/api/v1/games/{gid}/invitations"
    assert (await client.post(f"/api/v1/games/{gid}/join", headers=cid.headers)).status_code == 200
    assert_error(await client.post(invite, json={"username": "bob"}, headers=cid.headers), 403, "not_creator")
    assert_error(await client.post(invite, json={"username": "dan"}, headers=ann.headers), 409, "game_full")
    assert (await client.post(f"/api/v1/games/{gid}/leave", headers=cid.headers)).status_code == 204
    assert_error(await client.post(invite, json={"username": "cid2"}, headers=ann.headers), 422, "unknown_player")
    assert_error(await client.post(invite, json={"username": "ann"}, headers=ann.headers), 409, "already_joined")
    r = await client.post(invite, json={"username": "BOB"}, headers=ann.headers)
    assert r.status_code == 201 and r.json()["invited"] == ["bob"]
    assert_error(await client.post(invite, json={"username": "bob"}, headers=ann.headers), 409, "already_invited")
    # Bob's invitation holds the last seat: the table is full for a further invitation and for strangers.
    assert_error(await client.post(invite, json={"username": "dan"}, headers=ann.headers), 409, "game_full")
    assert_error(await client.post(f"/api/v1/games/{gid}/join", headers=cid.headers), 409, "game_full")
    assert (await client.get("/api/v1/me/invitations", headers=bob.headers)).json()["invitations"]


async def test_only_the_creator_or_an_admin_starts_and_unanswered_invitations_lapse(
    api: Api, client: httpx.AsyncClient
) -> None:
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    game = await open_table(client, ann, seats=3, players=["cid"])
    gid = game["id"]
    assert_error(await client.post(f"/api/v1/games/{gid}/start", headers=ann.headers), 409, "not_enough_players")
    await client.post(f"/api/v1/games/{gid}/join", headers=bob.headers)
    assert_error(await client.post(f"/api/v1/games/{gid}/start", headers=bob.headers), 403, "not_creator")
    r = await client.post(f"/api/v1/games/{gid}/start", headers=ann.headers)
    assert r.status_code == 200 and r.json()["status"] == "active" and r.json()["invited"] == []
    assert sorted(s["seat"] for s in r.json()["seats"]) == [0, 1] and r.json()["seat_count"] == 2
    assert (await client.get("/api/v1/me/invitations", headers=cid.headers)).json() == {"invitations": []}
    assert_error(await client.post(f"/api/v1/games/{gid}/join", headers=cid.headers), 409, "game_started")


async def test_an_admin_starts_a_players_table(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await open_table(client, ann, seats=2, start_when_full=False)
    await client.post(f"/api/v1/games/{game['id']}/join", headers=bob.headers)
    r = await client.post(f"/api/v1/games/{game['id']}/start", headers=admin.headers)
    assert r.status_code == 200 and r.json()["status"] == "active"


async def test_leaving_frees_the_seat_hands_the_table_on_and_the_last_closes_it(
    api: Api, client: httpx.AsyncClient
) -> None:
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    game = await open_table(client, ann, seats=2, start_when_full=False)  # stays open when full
    gid = game["id"]
    assert_error(await client.post(f"/api/v1/games/{gid}/leave", headers=bob.headers), 409, "not_joined")
    await client.post(f"/api/v1/games/{gid}/join", headers=bob.headers)
    assert_error(await client.post(f"/api/v1/games/{gid}/join", headers=cid.headers), 409, "game_full")
    assert (await client.post(f"/api/v1/games/{gid}/leave", headers=ann.headers)).status_code == 204
    r = await client.get(f"/api/v1/games/{gid}", headers=bob.headers)
    assert seated(r.json()) == ["bob"] and r.json()["creator"] == "bob"  # the table goes on with Bob as its host
    assert (await client.post(f"/api/v1/games/{gid}/join", headers=cid.headers)).status_code == 200
    assert (await client.post(f"/api/v1/games/{gid}/leave", headers=cid.headers)).status_code == 204
    assert (await client.post(f"/api/v1/games/{gid}/leave", headers=bob.headers)).status_code == 204
    assert_error(await client.get(f"/api/v1/games/{gid}", headers=bob.headers), 404, "game_not_found")


async def test_nobody_leaves_a_running_game(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    assert_error(await client.post(f"/api/v1/games/{game['id']}/leave", headers=ann.headers), 409, "game_started")
    assert_error(await client.post("/api/v1/games/999/leave", headers=ann.headers), 404, "game_not_found")


async def test_an_admins_table_still_seats_its_list_and_starts_when_full(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    await api.player("ann")
    await api.player("bob")
    r = await client.post("/api/v1/games", json={"name": "Club", "seats": 2, "players": ["ann", "bob"]},
                          headers=admin.headers)
    assert r.status_code == 201 and r.json()["status"] == "active" and r.json()["creator"] == "admin"
    assert seated(r.json()) == ["ann", "bob"] and r.json()["invited"] == []


@pytest.fixture
async def admins_only(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """A server of a club where only admins open tables (PLAYERS_CREATE_GAMES=false)."""
    application = create_app(settings.model_copy(update={"players_create_games": False}))
    async with (
        application.router.lifespan_context(application),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://test") as c,
    ):
        yield c


async def test_players_create_games_false_leaves_creation_to_admins(admins_only: httpx.AsyncClient) -> None:
    api = Api(admins_only, admins_only._transport.app)  # type: ignore[attr-defined]
    ann, admin = await api.player("ann"), await api.admin()
    r = await admins_only.post("/api/v1/games", json={"name": "Mine", "seats": 2}, headers=ann.headers)
    assert_error(r, 403, "players_create_games_off")
    r = await admins_only.post("/api/v1/games", json={"name": "Club", "seats": 2}, headers=admin.headers)
    assert r.status_code == 201
