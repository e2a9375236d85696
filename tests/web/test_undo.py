"""Undo through the API (`../shared/API.md` "Undo"; decisions D83-D86): `POST /api/v1/games/{id}/undo {"seq"}`
takes back the caller's own last move while nobody else has moved since and the move drew and revealed nothing
→ 200 `{"seq"}`, else 409 `undo_not_allowed`; the log stays append-only and its replay is the game without the
move; every seq is the caller's own count of the log (A New Beginning's secret edits)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from conftest import Api, Player
from sqlalchemy import select

from app.store.tables import GameEvent, Outbox
from app.web import present
from tests.support import assert_error

SEED = 7


class Table:
    """A started game played over HTTP."""

    def __init__(self, client: httpx.AsyncClient, game: dict[str, Any], seated: dict[int, Player]) -> None:
        self.client = client
        self.id: int = game["id"]
        self.seated = seated

    async def doc(self, who: Player) -> dict[str, Any]:
        r = await self.client.get(f"/api/v1/games/{self.id}/state", headers=who.headers)
        assert r.status_code == 200, r.text
        doc: dict[str, Any] = r.json()
        return doc

    async def awaited(self) -> Player:
        doc = await self.doc(self.seated[0])
        return self.seated[doc["to_act"][0]]

    async def options(self, who: Player) -> tuple[int, list[dict[str, Any]]]:
        r = (await self.client.get(f"/api/v1/games/{self.id}/moves", headers=who.headers)).json()
        return r["seq"], r["moves"]

    async def move(self, who: Player, move: dict[str, Any], seq: int | None = None) -> httpx.Response:
        if seq is None:
            seq, _ = await self.options(who)
        return await self.client.post(f"/api/v1/games/{self.id}/moves", json={"seq": seq, "move": move},
                                      headers=who.headers)

    async def undo(self, who: Player, seq: int | None = None) -> httpx.Response:
        if seq is None:
            seq = (await self.doc(who))["seq"]
        return await self.client.post(f"/api/v1/games/{self.id}/undo", json={"seq": seq}, headers=who.headers)

    async def events(self, who: Player, after: int = 0) -> list[dict[str, Any]]:
        r = await self.client.get(f"/api/v1/games/{self.id}/events", params={"after": after}, headers=who.headers)
        events: list[dict[str, Any]] = r.json()["events"]
        return events

    async def play_until_placement(self) -> Player:
        """Play the first legal move of the awaited seat until a placement is awaited; returns whose it is."""
        for _ in range(40):
            doc = await self.doc(self.seated[0])
            who = self.seated[doc["to_act"][0]]
            if doc["awaiting"] == "placement":
                return who
            _, moves = await self.options(who)
            assert (await self.move(who, moves[0])).status_code == 200
        raise AssertionError("no placement was reached")


async def _table(api: Api, client: httpx.AsyncClient, names: tuple[str, ...] = ("ann", "bob"),
                 **extra: Any) -> Table:
    admin = await api.admin()
    players = [await api.player(name) for name in names]
    game = await api.started_game(admin, players, seed=SEED, **extra)
    return Table(client, game, api.seated(game, players))


def _position(doc: dict[str, Any]) -> dict[str, Any]:
    """A state document without what differs between two views of one position (the seq, the undo flag)."""
    return {k: v for k, v in doc.items() if k not in ("seq", "undo")}


def _square(moves: list[dict[str, Any]]) -> dict[str, Any]:
    return next(m for m in moves if m["type"] == "place_cowboy" and "square" in m)


def _other(table: Table, who: Player) -> Player:
    return next(p for p in table.seated.values() if p is not who)


async def test_a_placement_is_taken_back_and_the_game_is_as_before(api: Api, client: httpx.AsyncClient) -> None:
    """API.md "Undo", D83: the caller's own last move, which drew nothing, is taken back: 200 with the caller's
    new seq (the undo is one more event), the state as before the move, the log keeping the move and the undo,
    and the table told that the caller may undo exactly while they may."""
    table = await _table(api, client)
    ann = await table.play_until_placement()
    bob = _other(table, ann)
    before = await table.doc(ann)
    assert before["undo"] is False  # the personality chosen before was the other seat's move, or a card draw
    seq, moves = await table.options(ann)
    r = await table.move(ann, _square(moves), seq)
    assert r.status_code == 200
    moved = r.json()["seq"]
    assert (await table.doc(ann))["undo"] is True
    assert (await table.doc(bob))["undo"] is False

    r = await table.undo(ann, moved)
    assert r.status_code == 200, r.text
    assert r.json() == {"seq": moved + 1}
    after = await table.doc(ann)
    assert after["seq"] == moved + 1 and after["undo"] is False
    assert _position(after) == _position(before)
    assert (await table.options(ann))[1] == moves
    logged = await table.events(ann, after=seq)
    assert [e["type"] for e in logged][-1] == "move_undone"
    assert logged[-1]["data"] == {"type": "move_undone", "seat": before["viewer"], "events": moved - seq}
    assert [e["seq"] for e in logged] == list(range(seq + 1, moved + 2))


async def test_a_second_undo_of_the_same_move_is_refused(api: Api, client: httpx.AsyncClient) -> None:
    """API.md "Undo": the undo is not a move that can be taken back, nor does it reach the move before."""
    table = await _table(api, client)
    ann = await table.play_until_placement()
    _, moves = await table.options(ann)
    assert (await table.move(ann, _square(moves))).status_code == 200
    assert (await table.undo(ann)).status_code == 200
    assert_error(await table.undo(ann), 409, "undo_not_allowed")


async def test_an_undo_is_refused_once_someone_else_has_moved(api: Api, client: httpx.AsyncClient) -> None:
    """API.md "Undo": "while nobody else has moved since"; the other player may take back their own move."""
    table = await _table(api, client)
    ann = await table.play_until_placement()
    bob = _other(table, ann)
    _, moves = await table.options(ann)
    assert (await table.move(ann, _square(moves))).status_code == 200
    _, moves = await table.options(bob)
    assert (await table.move(bob, _square(moves))).status_code == 200
    assert_error(await table.undo(ann), 409, "undo_not_allowed")
    assert (await table.undo(bob)).status_code == 200


async def test_an_undo_against_a_stale_seq_is_refused(api: Api, client: httpx.AsyncClient) -> None:
    table = await _table(api, client)
    ann = await table.play_until_placement()
    seq, moves = await table.options(ann)
    assert (await table.move(ann, _square(moves), seq)).status_code == 200
    assert_error(await table.undo(ann, seq), 409, "stale_seq")
    assert_error(await table.undo(_other(table, ann)), 409, "undo_not_allowed")


async def _play_until(table: Table, found: set[str], limit: int = 60) -> tuple[Player, list[dict[str, Any]]]:
    """Everyone passes (after ann and bob put a cowboy on one parcel) until a move's events include one of
    `found`; returns that move's player and its events."""
    for _ in range(limit):
        who = await table.awaited()
        seq, moves = await table.options(who)
        move = next((m for m in moves if m["type"] == "pass"), moves[0])
        assert (await table.move(who, move, seq)).status_code == 200
        made = await table.events(who, after=seq)
        if found & {e["type"] for e in made}:
            return who, made
    raise AssertionError(f"none of {found} happened")


async def test_an_undo_is_refused_after_a_duel_roll(api: Api, client: httpx.AsyncClient) -> None:
    """API.md "Undo", D84: a move after which a duel was fought rolled dice: it stays made."""
    table = await _table(api, client)
    ann = await table.play_until_placement()
    spot = {"type": "place_cowboy", "x": 4, "y": 4}
    assert (await table.move(ann, spot)).status_code == 200
    assert (await table.move(_other(table, ann), spot)).status_code == 200
    who, made = await _play_until(table, {"duel_fought"})
    assert any("roll" in d for e in made if e["type"] == "duel_fought" for d in e["data"]["duelists"])
    assert (await table.doc(who))["undo"] is False
    assert_error(await table.undo(who), 409, "undo_not_allowed")


async def test_an_undo_is_refused_after_a_bag_draw(api: Api, client: httpx.AsyncClient) -> None:
    """API.md "Undo", D84: the last pass of a round runs to the refill of the construction squares, a draw from
    the bag: that pass stays made."""
    table = await _table(api, client)
    await table.play_until_placement()
    who, _ = await _play_until(table, {"construction_refilled"})
    assert_error(await table.undo(who), 409, "undo_not_allowed")


async def test_a_racing_undo_and_move_one_lands_the_other_gets_409(
    api: Api, client: httpx.AsyncClient, app: Any
) -> None:
    """Through the one write path, an undo and the next player's move made against the same head: exactly one
    is recorded, the other is refused with 409, and the log has no gap."""
    table = await _table(api, client)
    ann = await table.play_until_placement()
    bob = _other(table, ann)
    _, moves = await table.options(ann)
    assert (await table.move(ann, _square(moves))).status_code == 200
    seq, moves = await table.options(bob)
    undo, move = await asyncio.gather(table.undo(ann), table.move(bob, _square(moves), seq))
    assert sorted([undo.status_code, move.status_code]) == [200, 409]
    assert (undo if undo.status_code == 409 else move).json()["detail"]["code"] in ("stale_seq", "undo_not_allowed")
    head = max(r.json()["seq"] for r in (undo, move) if r.status_code == 200)
    async with app.state.service.db.session() as session:
        seqs = list((await session.execute(select(GameEvent.seq).where(GameEvent.game_id == table.id))).scalars())
    assert sorted(seqs) == list(range(1, head + 1))


async def test_another_server_replays_the_undo_to_the_state_without_the_move(
    api: Api, client: httpx.AsyncClient, other_app: Any
) -> None:
    """D83: a server that held the state after the move reads the undo from the log and folds it from the start
    (its cached state cannot be undone): its view equals the view before the move; and the undo queues no mail
    (D86: the game returns to a decision its seats were told of)."""
    table = await _table(api, client)
    ann = await table.play_until_placement()
    before = await table.doc(ann)
    _, moves = await table.options(ann)
    assert (await table.move(ann, _square(moves))).status_code == 200
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=other_app), base_url="http://test") as other:
        elsewhere = Table(other, {"id": table.id}, table.seated)
        assert (await elsewhere.doc(ann))["undo"] is True  # that server now holds the state after the move
        r = await table.undo(ann)
        assert r.status_code == 200
        replayed = await elsewhere.doc(ann)
    assert replayed["seq"] == r.json()["seq"]
    assert _position(replayed) == _position(before)
    async with other_app.state.service.db.session() as session:
        queued = (await session.execute(
            select(Outbox.kind).where(Outbox.game_id == table.id, Outbox.seq == r.json()["seq"]))).all()
    assert queued == []


async def test_the_undo_counts_the_log_as_each_viewer_does(api: Api, client: httpx.AsyncClient) -> None:
    """API.md "Undo" with A New Beginning's secret shopping (RULING V4, D85): seat 0 finishes shopping, seat 1
    then edits its basket in secret; seat 0 may still take back its finish (it cannot know of seat 1's edits),
    sends its own seq and gets its own seq back; seat 1's basket is kept; seat 2's count grows by one; nobody's
    seq tells of the other seats' edits."""
    table = await _table(api, client, ("ann", "bob", "cid"), variants={"new_beginning": True})
    players = [table.seated[seat] for seat in range(3)]
    first, second, third = players
    assert (await table.move(first, {"type": "shop_add", "item": "vp"})).status_code == 200
    assert (await table.move(first, {"type": "shop_done"})).status_code == 200
    assert (await table.move(second, {"type": "shop_add", "item": "cowboy"})).status_code == 200
    assert (await table.move(second, {"type": "shop_add", "item": "revolver"})).status_code == 200
    seen = [(await table.doc(p))["seq"] for p in players]
    assert seen[1] == seen[0] + 1 and seen[2] == seen[0] - 1  # two secret edits against one; none of its own
    assert (await table.doc(first))["undo"] is True
    assert (await table.doc(third))["undo"] is False
    r = await table.undo(first, seen[0])
    assert r.status_code == 200, r.text
    assert r.json() == {"seq": seen[0] + 1}
    assert [(await table.doc(p))["seq"] for p in players] == [n + 1 for n in seen]
    assert (await table.doc(second))["players"][1]["basket"] == {"cowboy": 1, "revolver": 1}
    mine = await table.doc(first)
    assert mine["players"][0]["basket"] == {"vp": 1} and not mine["players"][0]["shopping_done"]
    assert 0 in mine["to_act"]
    assert [e["type"] for e in await table.events(third)][-2:] == ["shopping_finished", "move_undone"]
    # A secret edit may not be taken back by an undo (D84: the shop takes items back itself).
    assert (await table.move(second, {"type": "shop_add", "item": "vp"})).status_code == 200
    assert_error(await table.undo(second), 409, "undo_not_allowed")


def test_moves_that_end_something_for_the_round_ask_first() -> None:
    """Issue "The table players would switch for", item 4: passing with cowboys left in reserve and refusing
    every remaining parcel of a request carry a question (htmx's `hx-confirm`); passing with none left, or any
    other move, does not."""
    def doc(cowboys: int) -> dict[str, Any]:
        return {"viewer": 0, "players": [{"username": "ann", "cowboys": cowboys}], "board": {"parcels": []},
                "construction": []}

    groups, _ = present.choices(doc(2), [{"type": "pass"}, {"type": "deny_remaining"}])
    asked = {c.label: c.confirm for g in groups for c in g.choices}
    assert "2 cowboys in reserve" in asked["Pass (no more cowboys this round)"]
    assert asked["Refuse all remaining parcels"].startswith("Refuse every parcel")
    assert present.Labeller(doc(0)).confirmation({"type": "pass"}) == ""
    assert present.Labeller(doc(2)).confirmation({"type": "place_cowboy", "square": "wages"}) == ""
