"""Big Box at the table (issue 13, part 2): six seats, horses and Kit Carson chosen through the API and the form,
refused with a message where they cannot be played; the lobby names the settings; a six-player game played to its
end through the API; the table shows the horses and the decision at Wages in words, and the score their VP
(R-BB-1, R-BB-6, R-BB-7; `004`; RULINGS X1, X4, X6)."""

from __future__ import annotations

import random
from html import unescape
from typing import Any

import httpx

from app.web.guide import HORSES_NOT_PLAYED, OPTION_SQUARE_HELP
from app.web.present import Labeller
from tests.support import assert_error
from tests.web.test_input import _page_client

EVERYTHING = {"expansions": ["gold_and_guns", "outlaws", "big_box"], "horses": True, "kit_carson": True}
NAMES = ("ann", "bob", "cid", "dot", "eve")


async def test_a_six_player_table_with_every_expansion_horses_and_kit_carson(
    api: Any, client: httpx.AsyncClient
) -> None:
    """R-BB-1 (`004` "2-6 jugadores"; RULING X1): six seats with Big Box, Gold & Guns and the Outlaws, horses and
    Kit Carson; every player's state shows their horses (API.md "players[].horses")."""
    admin = await api.admin()
    players = [await api.player(name) for name in (*NAMES, "fay")]
    game = await api.started_game(admin, players, variants=EVERYTHING)
    assert len(game["seats"]) == 6
    assert game["variants"]["horses"] is True and game["variants"]["kit_carson"] is True
    assert game["variants"]["expansions"] == EVERYTHING["expansions"]
    state = (await client.get(f"/api/v1/games/{game['id']}/state", headers=players[0].headers)).json()
    assert [p["horses"] for p in state["players"]] == [0] * 6


async def test_a_player_may_open_a_big_box_table(api: Any, client: httpx.AsyncClient) -> None:
    """Big Box is open to players, not only to admins (API.md "Players create tables")."""
    ann = await api.player("ann")
    body = {"name": "Six", "seats": 6, "variants": {"expansions": ["big_box"], "horses": True}}
    r = await client.post("/api/v1/games", json=body, headers=ann.headers)
    assert r.status_code == 201, r.text
    assert r.json()["seat_count"] == 6 and r.json()["variants"]["horses"] is True


async def test_six_seats_or_big_box_options_without_big_box_are_refused_in_words(
    api: Any, client: httpx.AsyncClient
) -> None:
    """API.md: "2..5 (2..6 with `big_box`)" and "`horses` and `kit_carson` need `big_box`": 422 with a sentence
    naming the setting; nothing is created."""
    admin = await api.admin()
    cases = [
        ({"seats": 6, "variants": {"expansions": ["gold_and_guns"]}},
         "A game has 2 to 5 players. Six players need the Big Box expansion."),
        ({"seats": 4, "variants": {"horses": True}}, "'horses' needs the Big Box expansion."),
        ({"seats": 4, "variants": {"kit_carson": True, "expansions": ["outlaws"]}},
         "'kit_carson' needs the Big Box expansion."),
    ]
    for body, words in cases:
        r = await client.post("/api/v1/games", json={"name": "No", **body}, headers=admin.headers)
        detail = assert_error(r, 422, "invalid_variant")
        assert words in detail["message"], detail
    r = await client.post("/api/v1/games", headers=admin.headers,
                          json={"name": "Seven", "seats": 7, "variants": {"expansions": ["big_box"]}})
    assert_error(r, 422)
    maybe = {"expansions": ["big_box"], "horses": "maybe"}
    r = await client.post("/api/v1/games", headers=admin.headers, json={"name": "Horse", "seats": 3, "variants": maybe})
    assert_error(r, 422)
    assert (await client.get("/api/v1/games", headers=admin.headers)).json()["count"] == 0


async def test_the_form_offers_big_box_its_options_and_six_seats(api: Any, client: httpx.AsyncClient) -> None:
    """The new-game form: Big Box, horses and Kit Carson tick-boxes and a sixth seat; horses without Big Box come
    back with the reason and the boxes as they were ticked; the lobby row says the settings in words."""
    token = await _page_client(client, api)
    form = (await client.get("/games/new", headers={"Accept": "text/html"})).text
    for field in ('name="expansions" value="big_box"', 'name="horses"', 'name="kit_carson"', '<option value="6"'):
        assert field in form, field
    r = await client.post("/games/new", data={"name": "Colts", "seats": "6", "csrf_token": token})
    assert r.status_code == 422 and "Six players need the Big Box expansion." in r.text
    r = await client.post("/games/new", data={"name": "Colts", "seats": "4", "horses": "1", "csrf_token": token})
    assert r.status_code == 422 and "'horses' needs the Big Box expansion." in unescape(r.text)
    assert 'name="horses" value="1" aria-describedby="help-horses" checked' in r.text
    r = await client.post("/games/new", data={"name": "Colts", "seats": "6", "expansions": "big_box", "horses": "1",
                                              "kit_carson": "1", "csrf_token": token})
    assert r.status_code == 303, r.text
    game_id = int(r.headers["location"].rsplit("/", 1)[1])
    summary = (await client.get(f"/api/v1/games/{game_id}", headers={"Accept": "application/json"})).json()
    assert summary["seat_count"] == 6
    assert summary["variants"]["expansions"] == ["big_box"]
    assert summary["variants"]["horses"] is True and summary["variants"]["kit_carson"] is True
    lobby = unescape((await client.get("/", headers={"Accept": "text/html"})).text)
    assert "0/6 seats, 6 free · Yellow sides, Big Box, Horses, Kit Carson" in lobby


async def test_the_rules_page_has_a_big_box_section(client: httpx.AsyncClient) -> None:
    """RULING X6: the rodeo and the horses' special actions are said to be not played; six players, horses and
    Kit Carson explained (R-BB-1, R-BB-6, R-BB-7)."""
    page = unescape((await client.get("/rules", headers={"Accept": "text/html"})).text)
    assert "Two to five players (six with Big Box)" in page
    section = page.split('id="big-box"')[1]
    for words in ("Six players", "Horses", "Kit Carson", HORSES_NOT_PLAYED):
        assert words in section, words


def _prefer_wages(moves: list[dict[str, Any]], chooser: random.Random) -> dict[str, Any]:
    """A random legal move, but a cowboy on Wages whenever one may go there (so that horses are offered)."""
    wages = [m for m in moves if m["type"] == "place_cowboy" and m.get("square") == "wages"]
    return wages[0] if wages else chooser.choice(moves)


async def test_a_six_player_big_box_game_through_the_api_and_its_table(api: Any, client: httpx.AsyncClient) -> None:
    """A six-player game with Big Box, horses and Kit Carson played to its end through the API, with random legal
    moves. On the way the table offers the horse at Wages in words, with its help and RULING X6's note, and shows
    the horses on every player's panel (R-BB-6); at the end the score has the horses' and Kit Carson's parts
    (R-BB-6, R-BB-7; API.md `score`), summed into the total."""
    await _page_client(client, api)  # the client's browser session is the admin's, who takes a seat
    api.app.state.service.moves_per_minute = 100_000  # a test plays faster than the limit on people (60 a minute)
    admin = await api.admin()
    players = [await api.player(name) for name in NAMES]
    game = await api.started_game(admin, [admin, *players], seed=13, variants={**EVERYTHING, "sides": "random"})
    gid = game["id"]
    seats = api.seated(game, [admin, *players])
    chooser = random.Random(13)
    summary = game
    offered = False
    for _ in range(6000):
        if summary["status"] == "finished":
            break
        seat = chooser.choice(summary["to_act"])
        options = (await client.get(f"/api/v1/games/{gid}/moves", headers=seats[seat].headers)).json()
        if seats[seat] is admin and {"type": "buy_horse"} in options["moves"] and not offered:
            offered = True
            table = unescape((await client.get(f"/games/{gid}", headers={"Accept": "text/html"})).text)
            assert "you must pay $4 for a horse at Wages instead of taking $4, or take your wages" in table
            assert "Buy a horse for $4 (1 VP at the end)" in table
            assert "of wages, no horse" in table and HORSES_NOT_PLAYED in table
            assert OPTION_SQUARE_HELP["horses"]["wages"] in table
            assert table.count("<dt>Horses</dt>") == 6
        mine = seats[seat] is admin  # the admin's seat goes to Wages when it can, so that it is offered horses
        move = _prefer_wages(options["moves"], chooser) if mine else chooser.choice(options["moves"])
        r = await client.post(f"/api/v1/games/{gid}/moves", headers=seats[seat].headers,
                              json={"seq": options["seq"], "move": move})
        assert r.status_code == 200, r.text
        summary = (await client.get(f"/api/v1/games/{gid}", headers=admin.headers)).json()
    assert summary["status"] == "finished" and offered
    state = (await client.get(f"/api/v1/games/{gid}/state", headers=admin.headers)).json()
    assert sum(p["horses"] for p in state["players"]) > 0
    for p in state["players"]:
        score = p["score"]
        assert score["horses"] == p["horses"]
        assert score["total"] == sum(v for k, v in score.items() if k != "total")
    passing = state["turn_order"]["passing"]  # round 4's passing order: the turn-order track at the end (D88)
    assert [p["score"]["kit_carson"] for p in state["players"]] == [5 - passing.index(seat) for seat in range(6)]
    table = unescape((await client.get(f"/games/{gid}", headers={"Accept": "text/html"})).text)
    score = table.split('id="score"')[1]
    assert "Horses (1 VP each)" in score and "Kit Carson (players behind)" in score


def test_the_horse_at_wages_is_offered_in_money() -> None:
    """R-BB-6 (`004` "Salario"; RULING X6; D87): the two buttons say what the viewer's cowboys on Wages bring
    either way — one cowboy pays $4 instead of taking $4, the others' wages stay (the white cowboy's too)."""
    def labels(cowboys: list[int], white: int | None = None) -> list[str]:
        doc = {"players": [], "board": {"parcels": []}, "construction": [], "viewer": 0, "awaiting": "horse",
               "squares": [{"square": "wages", "cowboys": cowboys, "white_cowboy": white}]}
        return [Labeller(doc).label({"type": kind}) for kind in ("buy_horse", "decline")]

    assert labels([1, 0]) == ["Buy a horse for $4 (1 VP at the end) instead of taking $4", "Take $4 of wages, no horse"]
    assert labels([0, 0, 0]) == ["Buy a horse for $4 (1 VP at the end): $4 of wages instead of $12",
                                 "Take $12 of wages, no horse"]
    assert labels([0], white=0)[0] == "Buy a horse for $4 (1 VP at the end): $0 of wages instead of $8"
