"""History, export and provably fair dice through the API and the pages (issue 14; API.md "History", "Export",
"Provably fair"): the commitment from the start and the seed at the end, a finished game's export that
`python -m app verify` accepts (and one changed die it refuses, naming the event), `state?at=N` at every position,
no secret of another seat in the past, the table's history controls and the /fairness page."""

from __future__ import annotations

import copy
import hashlib
import html
import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import Api, Player

from app.cli import main
from app.rules import Event, player_view, replay
from app.rules.fairness import commitment, seed_bytes
from tests.support import assert_error


async def _play(client: httpx.AsyncClient, game: dict[str, Any], seats: dict[int, Player], moves: int,
                chooser: random.Random) -> dict[str, Any]:
    """Up to `moves` random legal moves (fewer if the game ends); returns the summary after them."""
    gid, summary = game["id"], game
    for _ in range(moves):
        if summary["status"] == "finished":
            break
        who = seats[chooser.choice(summary["to_act"])]
        options = (await client.get(f"/api/v1/games/{gid}/moves", headers=who.headers)).json()
        r = await client.post(f"/api/v1/games/{gid}/moves",
                              json={"seq": options["seq"], "move": chooser.choice(options["moves"])},
                              headers=who.headers)
        assert r.status_code == 200, r.text
        summary = (await client.get(f"/api/v1/games/{gid}", headers=who.headers)).json()
    return summary


async def _finished_game(api: Api, client: httpx.AsyncClient) -> tuple[dict[str, Any], Player, Player, Player]:
    """A 2-player game played to its end with random legal moves: (summary, ann, bob, eve who watched)."""
    admin = await api.admin()
    ann, bob, eve = await api.player("ann"), await api.player("bob"), await api.player("eve")
    game = await api.started_game(admin, [ann, bob])
    summary = await _play(client, game, api.seated(game, [ann, bob]), 3000, random.Random(14))
    assert summary["status"] == "finished"
    return summary, ann, bob, eve


def _verify(path: Path, export: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path.write_text(json.dumps(export), encoding="utf-8")
    code = main(["verify", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


async def test_a_finished_games_export_verifies_and_one_changed_die_does_not(
    api: Api, client: httpx.AsyncClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Provably fair: the revealed seed (32 random bytes) matches the commitment published from the start; anyone
    who may see the game gets its whole unredacted log and the seed; `verify` accepts it (exit 0) and names the
    event of one changed die (exit 1)."""
    summary, ann, _, eve = await _finished_game(api, client)
    seed = bytes.fromhex(summary["seed"])
    assert len(seed) == 32 and summary["seed_chosen"] is False
    assert summary["seed_commitment"] == hashlib.sha256(seed).hexdigest()
    answer = await client.get(f"/api/v1/games/{summary['id']}/export", headers=eve.headers)
    assert answer.headers["content-disposition"] == f'attachment; filename="carson-city-game-{summary["id"]}.json"'
    export = answer.json()
    assert export["seed"] == summary["seed"] and export["game"]["seed"] == summary["seed"]
    assert [e["seq"] for e in export["events"]] == list(range(1, summary["seq"] + 1))
    assert export["state"]["status"] == "finished" and export["state"]["winner"] is not None
    seated = (await client.get(f"/api/v1/games/{summary['id']}/export", headers=ann.headers)).json()
    assert seated["events"] == export["events"] and seated["seed"] == export["seed"]

    code, said = _verify(tmp_path / "game.json", export, capsys)
    assert code == 0 and said.startswith("VERIFIED"), said

    index = next(i for i, e in enumerate(export["events"]) if e["type"] == "centre_placed")
    tampered = copy.deepcopy(export)
    dice = tampered["events"][index]["data"]["dice"]
    dice[0] = dice[0] % 6 + 1
    code, said = _verify(tmp_path / "tampered.json", tampered, capsys)
    assert code == 1 and f"event {index + 1} (centre_placed)" in said, said

    other_seed = copy.deepcopy(export)
    other_seed["seed"] = "00" * 32
    code, said = _verify(tmp_path / "other.json", other_seed, capsys)
    assert code == 1 and "commitment" in said, said


async def test_while_the_game_runs_the_seed_stays_secret_and_the_export_is_the_callers(
    api: Api, client: httpx.AsyncClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commitment is there from the game's creation (before the first draw), the seed is null until the end;
    a running game's export is the caller's log (as `/events` numbers it) without the seed, and cannot verify."""
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    r = await client.post("/api/v1/games", json={"name": "Open", "seats": 2}, headers=admin.headers)
    opened = r.json()
    assert len(opened["seed_commitment"]) == 64 and opened["seed"] is None and opened["status"] == "open"
    assert_error(await client.get(f"/api/v1/games/{opened['id']}/export", headers=admin.headers), 409)
    chosen = await api.started_game(admin, [ann, bob], seed=1234)
    assert chosen["seed_chosen"] is True and chosen["seed"] is None
    assert chosen["seed_commitment"] == commitment(seed_bytes(1234))
    summary = await _play(client, chosen, api.seated(chosen, [ann, bob]), 20, random.Random(1))
    export = (await client.get(f"/api/v1/games/{chosen['id']}/export", headers=ann.headers)).json()
    events = (await client.get(f"/api/v1/games/{chosen['id']}/events", headers=ann.headers)).json()["events"]
    assert export["seed"] is None and export["game"]["seed"] is None
    assert export["events"] == events and export["game"]["seq"] == summary["seq"]
    assert export["state"] == (await client.get(f"/api/v1/games/{chosen['id']}/state", headers=ann.headers)).json()
    code, said = _verify(tmp_path / "running.json", export, capsys)
    assert code == 1 and "no seed" in said


async def test_state_at_every_position_is_the_replay_of_the_first_n_events(
    api: Api, client: httpx.AsyncClient
) -> None:
    """History: `state?at=N` for every N of a short game is the caller's view of the fold of the first N events
    of its log (`"seq": N`); beyond the head 404 `position_not_found`, below 1 a 422."""
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    seats = api.seated(game, [ann, bob])
    summary = await _play(client, game, seats, 25, random.Random(3))
    gid = game["id"]
    usernames = [seats[0].username, seats[1].username]
    for seat, who in seats.items():
        events = (await client.get(f"/api/v1/games/{gid}/events", headers=who.headers)).json()["events"]
        log: list[Event] = [e["data"] for e in events]
        assert len(log) == summary["seq"]
        for n in range(1, len(log) + 1):
            past = (await client.get(f"/api/v1/games/{gid}/state", params={"at": n}, headers=who.headers)).json()
            assert past == {**player_view(replay(log[:n]), seat, game_id=gid, usernames=usernames), "undo": False}, n
            assert past["seq"] == n
    assert_error(await client.get(f"/api/v1/games/{gid}/state", params={"at": summary["seq"] + 1},
                                  headers=ann.headers), 404, "position_not_found")
    assert_error(await client.get(f"/api/v1/games/{gid}/state", params={"at": 0}, headers=ann.headers), 422)


# What a past position's document says otherwise than the present one at the same seq: what the server knows of the
# present alone (API.md "History"): whether the viewer may take back their last move now, and a timed game's clocks.
PRESENT_ONLY = frozenset({"undo", "absent", "deadlines"})
_MISSING = object()


def _differences(present: Any, past: Any, path: str = "") -> list[str]:
    """The paths of the fields where two documents differ (a field on one side only, a list of another length)."""
    if isinstance(present, dict) and isinstance(past, dict):
        return [found for key in sorted(present.keys() | past.keys())
                for found in _differences(present.get(key, _MISSING), past.get(key, _MISSING), f"{path}/{key}")]
    if isinstance(present, list) and isinstance(past, list) and len(present) == len(past):
        return [found for i, (a, b) in enumerate(zip(present, past, strict=True))
                for found in _differences(a, b, f"{path}/{i}")]
    return [] if present == past else [path]


@pytest.mark.parametrize("variants", [
    {"might_is_right": True}, {"sides": "vote"}, {"new_beginning": True},
    {"expansions": ["gold_and_guns", "outlaws"]},
], ids=["might_is_right", "sides_by_vote", "new_beginning", "gold_and_guns_outlaws"])
async def test_the_newest_past_position_is_the_present_document(
    api: Api, client: httpx.AsyncClient, variants: dict[str, Any]
) -> None:
    """History (API.md "History"): `state?at=<the caller's head>` is the document `state` gives, field by field,
    but for what the server knows of the present alone — `undo` (false in the past) and a timed game's `absent` and
    `deadlines` (null in the past: the log keeps no clock) — for every seat and a spectator, from the setup to the
    end of a timed three-player game: the viewer's own duel tiles, secret votes and secret basket read the same
    (RULINGS V1, V2, V4), dynamite and outlaws too. The table at that position shows."""
    api.app.state.service.moves_per_minute = 100_000  # a test plays faster than the limit on people (60 a minute)
    admin = await api.admin()
    players = [await api.player(name) for name in ("ann", "bob", "cyd")]
    viewers = [*players, await api.player("eve")]  # eve watches
    game = await api.started_game(admin, players, seed=11, variants=variants, move_timeout_hours=24)
    gid, seats = game["id"], api.seated(game, players)
    chooser = random.Random(11)
    summary, played, compared = game, 0, 0
    while True:
        if played < 12 or played % 15 == 0 or summary["status"] == "finished":
            for who in viewers:
                present = (await client.get(f"/api/v1/games/{gid}/state", headers=who.headers)).json()
                answer = await client.get(f"/api/v1/games/{gid}/state", params={"at": present["seq"]},
                                          headers=who.headers)
                assert answer.status_code == 200, answer.text
                past = answer.json()
                where = (who.username, played, present["seq"])
                assert past.keys() == present.keys(), where
                assert [d for d in _differences(present, past) if d.split("/")[1] not in PRESENT_ONLY] == [], where
                assert (past["undo"], past["absent"], past["deadlines"]) == (False, None, None), where
                if (viewer := present["viewer"]) is not None:
                    own = past["players"][viewer]
                    assert None not in (own["tiles"], own["votes"], own["basket"]), where
                if played % 15 == 0 or summary["status"] == "finished":
                    page = await client.get(f"/games/{gid}", params={"at": present["seq"]}, headers=who.headers)
                    assert page.status_code == 200 and 'id="history-at"' in page.text, where
                compared += 1
        if summary["status"] == "finished":
            break
        who = seats[chooser.choice(summary["to_act"])]
        options = (await client.get(f"/api/v1/games/{gid}/moves", headers=who.headers)).json()
        r = await client.post(f"/api/v1/games/{gid}/moves",
                              json={"seq": options["seq"], "move": chooser.choice(options["moves"])},
                              headers=who.headers)
        assert r.status_code == 200, r.text
        summary = (await client.get(f"/api/v1/games/{gid}", headers=admin.headers)).json()
        played += 1
    assert compared >= 4 * 14, compared  # the first moves, then every 15th, and the end, each by all four


async def test_no_past_position_shows_another_seats_basket(api: Api, client: httpx.AsyncClient) -> None:
    """RULING V4 in the past: A New Beginning's basket edits are counted only by their seat; at no position of
    another seat, or of a spectator, does ann's basket (or its size) show, while ann sees her own."""
    admin = await api.admin()
    ann, bob, eve = await api.player("ann"), await api.player("bob"), await api.player("eve")
    game = await api.started_game(admin, [ann, bob], seed=5, variants={"new_beginning": True})
    seats = api.seated(game, [ann, bob])
    ann_seat = next(s for s, p in seats.items() if p is ann)
    gid = game["id"]
    for move in ({"type": "shop_add", "item": "cowboy"}, {"type": "shop_add", "item": "road"}):
        seq = (await client.get(f"/api/v1/games/{gid}/moves", headers=ann.headers)).json()["seq"]
        r = await client.post(f"/api/v1/games/{gid}/moves", json={"seq": seq, "move": move}, headers=ann.headers)
        assert r.status_code == 200, r.text
    mine = (await client.get(f"/api/v1/games/{gid}/state", headers=ann.headers)).json()["seq"]
    past = (await client.get(f"/api/v1/games/{gid}/state", params={"at": mine}, headers=ann.headers)).json()
    assert past["players"][ann_seat]["basket"] == {"cowboy": 1, "road": 1}
    for other in (bob, eve):
        head = (await client.get(f"/api/v1/games/{gid}/state", headers=other.headers)).json()["seq"]
        assert head == mine - 2
        for n in range(1, head + 1):
            text = (await client.get(f"/api/v1/games/{gid}/state", params={"at": n}, headers=other.headers)).text
            shown = json.loads(text)["players"][ann_seat]
            assert shown["basket"] is None and "cowboy\": 1" not in text
        assert_error(await client.get(f"/api/v1/games/{gid}/state", params={"at": head + 1},
                                      headers=other.headers), 404)
        export = (await client.get(f"/api/v1/games/{gid}/export", headers=other.headers)).json()
        assert "shop_item_added" not in json.dumps(export["events"])


async def test_the_table_steps_through_the_past(api: Api, client: httpx.AsyncClient) -> None:
    """The page `/games/{id}?at=N`: the position with back/forward links, a slider, round jumps, no choices and
    no live refresh; the live table links to it, to the export and to /fairness, with the commitment — and the
    seed once the game is over."""
    summary, ann, _, _ = await _finished_game(api, client)
    gid, last = summary["id"], summary["seq"]
    live = (await client.get(f"/games/{gid}", headers=ann.headers)).text
    assert summary["seed_commitment"] in live and summary["seed"] in live
    assert f'href="/api/v1/games/{gid}/export"' in live and 'href="/fairness"' in live
    assert f'id="history-link" href="/games/{gid}?at={last}"' in live
    page = await client.get(f"/games/{gid}", params={"at": 10}, headers=ann.headers)
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert 'data-seq="10"' in text and "Position <strong id=\"history-at\">10</strong> of" in text
    assert f'id="history-back" rel="prev" href="/games/{gid}?at=9"' in text
    assert f'id="history-forward" rel="next" href="/games/{gid}?at=11"' in text
    assert f'type="range" name="at" min="1" max="{last}" value="10"' in text
    assert "sse-connect" not in text and 'name="move"' not in text
    assert re.findall(r"round (\d)</a>", text) == ["1", "2", "3", "4"]
    first = html.unescape((await client.get(f"/games/{gid}", params={"at": 1}, headers=ann.headers)).text)
    assert 'id="history-back"' not in first and 'id="history-forward"' in first
    for at in range(1, last + 1, 37):  # every kind of position renders
        assert (await client.get(f"/games/{gid}", params={"at": at}, headers=ann.headers)).status_code == 200
    missing = await client.get(f"/games/{gid}", params={"at": last + 1}, headers=ann.headers)
    assert missing.status_code == 404


async def test_the_fairness_page_is_open_to_everyone(client: httpx.AsyncClient) -> None:
    """A page explains the commitment, the revealed seed and `python -m app verify` in plain words."""
    page = await client.get("/fairness")
    assert page.status_code == 200
    assert "SHA-256" in page.text and "python -m app verify" in page.text
