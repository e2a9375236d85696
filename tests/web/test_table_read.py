"""The table is read at one seq (issue "the play layer along a move's route, one read for the table"): its board,
its choices and its log describe the same position even when a move lands while the page is being read — no log
line of a move the board does not show yet, no "Waiting for bob" beside the clock of the seat that now moves."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import Api

from app.play.commands import PlayerMove
from app.store import event_store


async def test_a_move_landing_while_the_table_is_read_is_not_half_shown(
    api: Api, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob], seed=5)
    seated = api.seated(game, [ann, bob])
    viewer = seated[game["to_act"][0]]
    service = app.state.service
    options = (await api.client.get(f"/api/v1/games/{game['id']}/moves", headers=viewer.headers)).json()
    load_known_to = event_store.load_known_to
    moved: list[int] = []

    async def a_move_lands_first(*args: Any, **kwargs: Any) -> Any:
        """The awaited player moves (from another tab) just before the page reads the log."""
        if not moved:
            applied = await service.apply(PlayerMove(viewer.id, game["id"], options["seq"], options["moves"][0]))
            moved.append(applied.seq)
        return await load_known_to(*args, **kwargs)

    monkeypatch.setattr(event_store, "load_known_to", a_move_lands_first)
    page = await api.client.get(f"/games/{game['id']}", headers={**viewer.headers, "HX-Request": "true"})
    assert page.status_code == 200, page.text
    assert moved and moved[0] > game["seq"]  # the move landed during the read
    (board_seq,) = {int(s) for s in re.findall(r'data-seq="(\d+)"', page.text)}
    logged = [int(v) for v in re.findall(r'<li value="(\d+)">', page.text)]
    assert board_seq == game["seq"]  # the board as it stood when the read began
    assert logged and max(logged) <= board_seq  # and the log no further: the move is on the next refresh
