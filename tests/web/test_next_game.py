"""The next-game jump (issue 26, item 4): `GET /api/v1/me/next` names the game awaiting the caller whose clock runs
out first — games without a clock last, then the turn that has waited the longest — or answers 204; the page
`/next` redirects there or to the lobby; the table offers "Next game (N waiting)" once the player has moved; the
lobby lists the player's games in the same order."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx
from conftest import Api, Player
from support import assert_error

from tests.web.test_pages import signed_in


async def _summary(client: httpx.AsyncClient, game_id: int, who: Player) -> dict[str, Any]:
    r = await client.get(f"/api/v1/games/{game_id}", headers=who.headers)
    assert r.status_code == 200, r.text
    summary: dict[str, Any] = r.json()
    return summary


async def _first_move(client: httpx.AsyncClient, game_id: int, who: Player) -> None:
    """`who` makes their first legal move."""
    options = (await client.get(f"/api/v1/games/{game_id}/moves", headers=who.headers)).json()
    r = await client.post(f"/api/v1/games/{game_id}/moves", json={"seq": options["seq"], "move": options["moves"][0]},
                          headers=who.headers)
    assert r.status_code == 200, r.text


async def _until_awaited(client: httpx.AsyncClient, game: dict[str, Any], players: list[Player],
                         awaited: Player) -> None:
    """The others move (their first legal move) until `awaited` is awaited, and nobody else."""
    by_name = {p.username: p for p in players}
    for _ in range(60):
        summary = await _summary(client, game["id"], awaited)
        names = {s["seat"]: s["username"] for s in summary["seats"]}
        waiting = [names[s] for s in summary["to_act"]]
        if waiting == [awaited.username]:
            return
        await _first_move(client, game["id"], by_name[next(n for n in waiting if n != awaited.username)])
    raise AssertionError(f"{awaited.username} is never awaited alone")


async def moves_until_not_awaited(client: httpx.AsyncClient, game_id: int, who: Player) -> None:
    """`who` makes their first legal move until the game awaits them no more."""
    for _ in range(60):
        if who.username not in _awaited_names(await _summary(client, game_id, who)):
            return
        await _first_move(client, game_id, who)
    raise AssertionError(f"{who.username} is always awaited")


async def awaiting(api: Api, admin: Player, ann: Player, bob: Player, **extra: Any) -> dict[str, Any]:
    """A started game of ann and bob in which only ann is awaited."""
    game = await api.started_game(admin, [ann, bob], seed=5, **extra)
    await _until_awaited(api.client, game, [ann, bob], ann)
    return game


async def _next(client: httpx.AsyncClient, who: Player) -> httpx.Response:
    return await client.get("/api/v1/me/next", headers=who.headers)


async def test_the_next_game_is_the_one_whose_clock_runs_out_first_and_games_without_a_clock_come_last(
    client: httpx.AsyncClient, api: Api
) -> None:
    admin, ann, bob = await api.admin(), await api.player("ann"), await api.player("bob")
    untimed = await awaiting(api, admin, ann, bob)  # the oldest turn, but no clock: last
    slow = await awaiting(api, admin, ann, bob, move_timeout_hours=48)
    fast = await awaiting(api, admin, ann, bob, move_timeout_hours=24)  # the newest: its clock runs out first
    r = await _next(client, ann)
    assert r.status_code == 200, r.text
    found = r.json()
    assert found["game_id"] == fast["id"] and found["url"] == f"/games/{fast['id']}"
    deadlines = (await _summary(client, fast["id"], ann))["deadlines"]
    mine = next(d["deadline"] for d in deadlines if d["username"] == "ann")
    assert datetime.fromisoformat(found["deadline"]) == datetime.fromisoformat(mine)
    await moves_until_not_awaited(client, fast["id"], ann)  # no longer ann's turn there: the next clock
    assert (await _next(client, ann)).json()["game_id"] == slow["id"]
    await moves_until_not_awaited(client, slow["id"], ann)
    found = (await _next(client, ann)).json()
    assert found == {"game_id": untimed["id"], "url": f"/games/{untimed['id']}", "deadline": None}


async def test_among_games_without_a_clock_the_turn_that_waited_the_longest_comes_first(
    client: httpx.AsyncClient, api: Api
) -> None:
    admin, ann, bob = await api.admin(), await api.player("ann"), await api.player("bob")
    first = await awaiting(api, admin, ann, bob)
    second = await awaiting(api, admin, ann, bob)
    assert (await _next(client, ann)).json()["game_id"] == first["id"]
    await moves_until_not_awaited(client, first["id"], ann)  # ann moves there; her turn comes back later
    await _until_awaited(client, first, [ann, bob], ann)
    assert (await _next(client, ann)).json()["game_id"] == second["id"]  # its turn has now waited the longest


async def test_no_game_awaiting_answers_204_and_a_signed_out_caller_401(client: httpx.AsyncClient, api: Api) -> None:
    admin, ann, bob = await api.admin(), await api.player("ann"), await api.player("bob")
    assert (await _next(client, ann)).status_code == 204  # no game at all
    game = await awaiting(api, admin, ann, bob)
    assert (await _next(client, bob)).status_code == 204  # bob has a game, but it awaits ann
    assert (await _next(client, admin)).status_code == 204  # the admin opened it, without a seat
    assert (await _next(client, ann)).json()["game_id"] == game["id"]
    assert_error(await client.get("/api/v1/me/next"), 401, "not_signed_in")


async def test_the_next_page_redirects_to_the_game_or_to_the_lobby(client: httpx.AsyncClient, api: Api) -> None:
    assert (await client.get("/next")).headers["location"].startswith("/login")  # signed out
    await signed_in(client, "ann")
    admin, bob = await api.admin(), await api.player("bob")
    ann = Player(0, "ann", await api.token("ann", "correct horse battery"))
    r = await client.get("/next")
    assert r.status_code == 303 and r.headers["location"] == "/"
    game = await awaiting(api, admin, ann, bob)
    r = await client.get("/next")
    assert r.status_code == 303 and r.headers["location"] == f"/games/{game['id']}"


async def test_after_a_move_the_table_offers_the_next_game_with_the_others_waiting(
    client: httpx.AsyncClient, api: Api
) -> None:
    token = await signed_in(client, "ann")
    admin, bob = await api.admin(), await api.player("bob")
    ann = Player(0, "ann", await api.token("ann", "correct horse battery"))
    here = await awaiting(api, admin, ann, bob)
    page = (await client.get(f"/games/{here['id']}")).text
    assert 'id="next-game"' not in page  # ann's turn here
    await moves_until_not_awaited(client, here["id"], ann)
    page = (await client.get(f"/games/{here['id']}")).text
    assert 'id="next-game"' not in page  # no other game awaits her
    await awaiting(api, admin, ann, bob)
    await awaiting(api, admin, ann, bob)
    page = (await client.get(f"/games/{here['id']}")).text
    link = page.split('id="next-game"')[1].split("</p>")[0]
    assert 'href="/next"' in link and "Next game (2 waiting)" in link
    board = (await client.get(f"/games/{here['id']}", headers={"HX-Request": "true"})).text  # a move's answer
    assert "Next game (2 waiting)" in board
    bob_page = (await client.get(f"/games/{here['id']}", headers=bob.headers)).text
    assert 'id="next-game"' not in bob_page  # nothing else awaits bob
    r = await client.post("/settings/language", data={"language": "fr", "csrf_token": token})
    assert r.status_code == 200 and 'lang="fr"' in r.text, r.text
    french = (await client.get(f"/games/{here['id']}")).text
    assert "Partie suivante (2 en attente)" in french


def _awaited_names(summary: dict[str, Any]) -> list[str]:
    names = {s["seat"]: s["username"] for s in summary["seats"]}
    return [names[s] for s in summary["to_act"]]


async def test_the_lobby_lists_ones_games_by_time_left(client: httpx.AsyncClient, api: Api) -> None:
    await signed_in(client, "ann")
    admin, bob = await api.admin(), await api.player("bob")
    ann = Player(0, "ann", await api.token("ann", "correct horse battery"))
    untimed = await awaiting(api, admin, ann, bob, name="Untimed")
    slow = await awaiting(api, admin, ann, bob, name="Slow", move_timeout_hours=48)
    fast = await awaiting(api, admin, ann, bob, name="Fast", move_timeout_hours=24)
    lobby = (await client.get("/")).text
    mine = lobby.split('id="my-games"')[1].split("</ul>")[0]
    places = [mine.index(f'href="/games/{g["id"]}"') for g in (fast, slow, untimed)]
    assert places == sorted(places), places
