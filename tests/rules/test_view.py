"""The state document's construction help (`000` "Hints for handling", RULING B12): the board page marks the
parcels a permission request would cover, so the builder can ask by clicking one of them."""

from __future__ import annotations

from app.rules.view import player_view
from tests.rules.test_construction import permission_town


def test_askable_lists_each_askable_player_with_the_parcels_a_request_covers() -> None:
    g = permission_town()
    work = player_view(g.state, 0)["construction_work"]
    assert work["askable"] == [{"seat": 1, "parcels": [[5, 3], [5, 5]]}, {"seat": 2, "parcels": [[3, 5]]}]
    g.act({"type": "ask_permission", "seat": 1})
    g.move(1, {"type": "deny_remaining"})
    work = player_view(g.state, 0)["construction_work"]
    assert work["askable"] == [{"seat": 2, "parcels": [[3, 5]]}]  # each player asked at most once


def test_askable_is_public_board_information() -> None:
    g = permission_town()
    assert player_view(g.state, 1)["construction_work"] == player_view(g.state, None)["construction_work"]
