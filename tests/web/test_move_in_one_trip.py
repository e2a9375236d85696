"""A move in one round trip (one write path issue, "a move in one round trip"): when this server has already looked
a sign-in up and holds the game's state, `POST .../moves` records the move with one statement that also checks
the sign-in. These tests hold that statement to everything the lookup it replaces would have refused: a
signed-out token, an expired one, and a sign-in remembered as somebody else's — each refused as before, with the
log untouched."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Api, Player
from sqlalchemy import text
from support import assert_error

from app.play import sessions
from app.play.sign_in import SignIn


async def _table(api: Api) -> tuple[dict[str, Any], dict[int, Player]]:
    admin = await api.admin()
    players = [await api.player("ann"), await api.player("bob")]
    game = await api.started_game(admin, players, seed=7)
    return game, api.seated(game, players)


async def _awaited(api: Api, game: dict[str, Any], seated: dict[int, Player]) -> tuple[Player, dict[str, Any]]:
    """The awaited player and the move they would post (its body), read the way a client reads it."""
    summary = (await api.client.get(f"/api/v1/games/{game['id']}", headers=seated[0].headers)).json()
    player = seated[summary["to_act"][0]]
    options = (await api.client.get(f"/api/v1/games/{game['id']}/moves", headers=player.headers)).json()
    return player, {"seq": options["seq"], "move": options["moves"][0]}


async def _head(api: Api, game: dict[str, Any], viewer: Player) -> int:
    seq: int = (await api.client.get(f"/api/v1/games/{game['id']}", headers=viewer.headers)).json()["seq"]
    return seq


@pytest.fixture
def lookups(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sign-in lookups the application makes from now on (each one a query of its own)."""
    made: list[str] = []
    sign_in: SignIn = app.state.sign_in
    account = sign_in.account

    async def counted(session_id: str, kind: sessions.Kind) -> Any:
        made.append(kind)
        return await account(session_id, kind)

    monkeypatch.setattr(sign_in, "account", counted)
    return made


async def test_a_known_sign_in_moves_without_a_lookup_of_its_own(api: Api, lookups: list[str]) -> None:
    game, seated = await _table(api)
    player, body = await _awaited(api, game, seated)
    lookups.clear()
    r = await api.client.post(f"/api/v1/games/{game['id']}/moves", json=body, headers=player.headers)
    assert r.status_code == 200, r.text
    assert lookups == []  # the recording statement checked the sign-in itself
    assert await _head(api, game, player) == r.json()["seq"] > body["seq"]


async def test_a_signed_out_token_cannot_move_though_the_server_remembers_it(api: Api) -> None:
    game, seated = await _table(api)
    player, body = await _awaited(api, game, seated)  # the token was looked up: its owner is remembered
    before = await _head(api, game, seated[0] if player is not seated[0] else seated[1])
    assert (await api.client.post("/api/v1/auth/logout", headers=player.headers)).status_code == 204
    r = await api.client.post(f"/api/v1/games/{game['id']}/moves", json=body, headers=player.headers)
    assert_error(r, 401, "invalid_token")
    assert await _head(api, game, seated[0] if player is not seated[0] else seated[1]) == before


async def test_an_expired_token_cannot_move_though_the_server_remembers_it(api: Api, app: Any) -> None:
    game, seated = await _table(api)
    player, body = await _awaited(api, game, seated)
    other = seated[0] if player is not seated[0] else seated[1]
    before = await _head(api, game, other)
    async with app.state.service.db.autocommit() as session:
        await session.execute(
            text("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = :id"),
            {"id": player.id},
        )
    r = await api.client.post(f"/api/v1/games/{game['id']}/moves", json=body, headers=player.headers)
    assert_error(r, 401, "invalid_token")
    assert await _head(api, game, other) == before


async def test_a_sign_in_remembered_as_another_players_moves_only_for_its_own_seat(api: Api, app: Any) -> None:
    """Should the remembered owner ever be wrong, the statement's check refuses the move it decided for that
    owner's seat; the request is then looked up and decided for its real owner, who is not awaited here."""
    game, seated = await _table(api)
    player, body = await _awaited(api, game, seated)
    other = seated[0] if player is not seated[0] else seated[1]
    before = await _head(api, game, other)  # other's sign-in looked up: its owner is remembered
    sign_in: SignIn = app.state.sign_in
    token = other.headers["Authorization"].removeprefix("Bearer ")
    key = sessions.key_of(app.state.signer.session_id(token))
    sign_in._owners[key] = player.id  # the memory this test corrupts on purpose
    r = await api.client.post(f"/api/v1/games/{game['id']}/moves", json=body, headers=other.headers)
    assert_error(r, 403, "not_awaited")
    assert await _head(api, game, other) == before
    # The awaited player's own move still goes through.
    r = await api.client.post(f"/api/v1/games/{game['id']}/moves", json=body, headers=player.headers)
    assert r.status_code == 200, r.text


# The same holds for the list of one's moves (`GET .../moves`), which reads the head in one statement that checks
# the sign-in too (`Positions.moves_in_one_trip`).


async def test_a_known_sign_in_lists_its_moves_without_a_lookup_of_its_own(api: Api, lookups: list[str]) -> None:
    game, seated = await _table(api)
    player, body = await _awaited(api, game, seated)
    lookups.clear()
    r = await api.client.get(f"/api/v1/games/{game['id']}/moves", headers=player.headers)
    assert r.status_code == 200, r.text
    assert lookups == []  # the head read checked the sign-in itself
    assert r.json()["seq"] == body["seq"] and body["move"] in r.json()["moves"]


async def test_a_signed_out_token_cannot_list_moves_though_the_server_remembers_it(api: Api) -> None:
    game, seated = await _table(api)
    player, _ = await _awaited(api, game, seated)
    assert (await api.client.post("/api/v1/auth/logout", headers=player.headers)).status_code == 204
    r = await api.client.get(f"/api/v1/games/{game['id']}/moves", headers=player.headers)
    assert_error(r, 401, "invalid_token")


async def test_an_expired_token_cannot_list_moves_though_the_server_remembers_it(api: Api, app: Any) -> None:
    game, seated = await _table(api)
    player, _ = await _awaited(api, game, seated)
    async with app.state.service.db.autocommit() as session:
        await session.execute(
            text("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = :id"),
            {"id": player.id},
        )
    r = await api.client.get(f"/api/v1/games/{game['id']}/moves", headers=player.headers)
    assert_error(r, 401, "invalid_token")


async def test_a_sign_in_remembered_as_another_players_lists_only_its_own_moves(api: Api, app: Any) -> None:
    """A wrong memory of the owner makes the statement answer nothing; the request is then looked up and the
    moves listed are its real owner's (none: they are not awaited)."""
    game, seated = await _table(api)
    player, _ = await _awaited(api, game, seated)
    other = seated[0] if player is not seated[0] else seated[1]
    await _head(api, game, other)  # other's sign-in looked up: its owner is remembered
    token = other.headers["Authorization"].removeprefix("Bearer ")
    app.state.sign_in._owners[sessions.key_of(app.state.signer.session_id(token))] = player.id
    r = await api.client.get(f"/api/v1/games/{game['id']}/moves", headers=other.headers)
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == next(s for s, p in seated.items() if p is other) and r.json()["moves"] == []
