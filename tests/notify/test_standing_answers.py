"""Standing answers and answers ahead through the API (issue 26, items 2 and 3; API.md "Standing answers"), with
the mail over a real SMTP exchange: a permission request to a player with a standing answer is answered in the
request's own write — the owner is never awaited nor mailed about it, and the log says the answer was theirs —;
the cash limit answered in the settings never stops the game; `ask` keeps today's behaviour."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import Api, Player

from app.notify.worker import Notifier
from app.play.service import GameService
from tests.notify.conftest import SmtpServer, Table, account, drain, started


async def _until_a_request_can_be_made(table: Table) -> tuple[int, dict[str, Any]]:
    """Play randomly (as seed 5 leads to a permission request) until an awaited builder may ask for permission;
    the builder's seat and the request, not made yet."""
    chooser = random.Random(5)
    for _ in range(400):
        seat = (await table.to_act())[0]
        options = await table.positions.moves(account(table.player(seat)), table.id)
        asks = [m for m in options.moves if m["type"] == "ask_permission"]
        if asks:
            return seat, asks[0]
        await table.play(seat, lambda moves: chooser.choice([m for m in moves if not m.get("buy")]))
    raise AssertionError("no permission request could be made")


async def _move(api: Api, game_id: int, who: Player, move: dict[str, Any]) -> None:
    options = (await api.client.get(f"/api/v1/games/{game_id}/moves", headers=who.headers)).json()
    assert move in options["moves"]
    r = await api.client.post(f"/api/v1/games/{game_id}/moves", json={"seq": options["seq"], "move": move},
                              headers=who.headers)
    assert r.status_code == 200, r.text


async def _events(api: Api, game_id: int, who: Player) -> list[dict[str, Any]]:
    r = await api.client.get(f"/api/v1/games/{game_id}/events", headers=who.headers)
    assert r.status_code == 200, r.text
    return [{"type": e["type"], **e["data"]} for e in r.json()["events"]]


MONEY_SQUARES = ("wages", "parcel_income", "cowboy_income", "gambling_income")


def _saver(moves: list[dict[str, Any]], chooser: random.Random) -> dict[str, Any]:
    """A player who earns and keeps money, so as to go over the cash limit: cowboys on the money squares, every
    purchase declined."""
    earning = [m for m in moves if m["type"] == "place_cowboy" and m.get("square") in MONEY_SQUARES]
    keeping = [m for m in moves if m["type"] in ("pass", "decline", "decline_parcel") or m.get("count") == 0]
    return chooser.choice(earning or keeping or moves)


@pytest.mark.parametrize(("where", "answer"), [("game", "allow"), ("game", "deny"), ("account", "allow")])
async def test_a_standing_answer_answers_a_permission_request_in_its_own_write(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer, where: str, answer: str
) -> None:
    """R-CON-6, decision D108: the asked player's standing answer — set for the game, or as the account's default
    — answers the builder's request at once: the game goes back to the builder, the owner gets no mail about the
    request, and the log (the events API) marks the answers `standing_answer`."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=5)
    builder, ask = await _until_a_request_can_be_made(table)
    owner = table.player(ask["seat"])
    if where == "game":
        r = await api.client.put(f"/api/v1/games/{table.id}/permission-answer", json={"answer": answer},
                                 headers=owner.headers)
        assert (r.status_code, r.json()) == (200, {"answer": answer})
    else:
        r = await api.client.put("/api/v1/me/answers", json={"permission": answer}, headers=owner.headers)
        assert (r.status_code, r.json()) == (200, {"permission": answer, "cash_limit": "ask"})
    r = await api.client.get(f"/api/v1/games/{table.id}/permission-answer", headers=owner.headers)
    assert r.json() == {"answer": answer}
    await drain(notifier)
    smtp.inbox.clear()
    before = len(await _events(api, table.id, owner))
    await _move(api, table.id, table.player(builder), ask)
    summary = (await api.client.get(f"/api/v1/games/{table.id}", headers=owner.headers)).json()
    assert summary["to_act"] == [builder]
    made = (await _events(api, table.id, owner))[before:]
    assert made[0]["type"] == "permission_asked"
    answered = [e for e in made if e["type"] in ("permission_answered", "permission_denied_rest")]
    assert answered and all(e["automatic"] == "standing_answer" and e["seat"] == ask["seat"] for e in answered)
    if answer == "allow":
        assert all(e["type"] == "permission_answered" and e["granted"] for e in answered)
    else:
        assert [e["type"] for e in answered] == ["permission_denied_rest"]
    await drain(notifier)
    assert not [m for m in smtp.inbox.to(f"{owner.username}@example.com") if "asks to build a house" in m["Subject"]]


async def test_ask_keeps_the_request_waiting_for_the_owner(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    """R-CON-6 (RULING B12): with `ask` — the default, or chosen again for the game over an account's `allow` —
    the owner is awaited and mailed, as before."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=5)
    builder, ask = await _until_a_request_can_be_made(table)
    owner = table.player(ask["seat"])
    await api.client.put("/api/v1/me/answers", json={"permission": "allow"}, headers=owner.headers)
    r = await api.client.put(f"/api/v1/games/{table.id}/permission-answer", json={"answer": "ask"},
                             headers=owner.headers)
    assert r.json() == {"answer": "ask"}
    await drain(notifier)
    smtp.inbox.clear()
    await _move(api, table.id, table.player(builder), ask)
    summary = (await api.client.get(f"/api/v1/games/{table.id}", headers=owner.headers)).json()
    assert summary["to_act"] == [ask["seat"]]
    await drain(notifier)
    assert [m for m in smtp.inbox.to(f"{owner.username}@example.com") if "asks to build a house" in m["Subject"]]


async def test_the_cash_limit_answered_in_the_settings_never_stops_the_game(
    api: Api, service: GameService
) -> None:
    """R-END-3, decision D107: players whose settings give up the excess are never awaited at the cash limit in a
    whole game played through the write path; each time they were over it, the log shows the money given up for
    them (`answered_ahead`, the excess only)."""
    table, _, players = await started(api, service, ["ann", "bob"], seed=5)
    for player in players:
        r = await api.client.put("/api/v1/me/answers", json={"cash_limit": "least"}, headers=player.headers)
        assert r.json() == {"permission": "ask", "cash_limit": "least"}
    chooser = random.Random(7)
    for _ in range(2000):
        view = await table.positions.view(None, table.id)
        if view["status"] == "finished":
            break
        assert view["awaiting"] != "cash_limit"
        seat = view["to_act"][0]
        await table.play(seat, lambda moves: _saver(moves, chooser))
    else:
        raise AssertionError("the game did not end")
    given = [e for e in await _events(api, table.id, players[0]) if e["type"] == "money_given_up"]
    assert given and all(e["automatic"] == "answered_ahead" for e in given)
