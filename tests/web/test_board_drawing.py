"""The drawn board (issue "The table players would switch for", item 1): every road, building, house and cowboy
is its own SVG element with an accessible name; roads are named by the parcels they run between; each player's
pieces carry a letter as well as a colour, so colour-blind players can tell them apart."""

from __future__ import annotations

import random
import re
from html import unescape
from types import SimpleNamespace

from app.notify.gamelog import road_name
from app.rules import GameConfig, legal_moves, new_game, play, player_view, replay, to_act
from app.rules.catalog import BUILDINGS
from app.rules.rng import Rng
from app.web.present import player_marks
from tests.rules.test_auctioneer import auction_table, choose_parcels, first_chooser_takes
from tests.web.test_present import board_html

NAMES = ["anna", "bert", "carl", "dora"]


def _busy_board(seed: int = 1, moves: int = 400) -> tuple[dict[str, object], str]:
    """A 4-player game played at random (preferring moves that put things on the board) until the board holds
    roads, buildings and cowboys on parcels at once; its page as `anna` sees it."""
    state = replay(new_game(GameConfig.from_variants(4, {"river": True}), seed))
    chooser = random.Random(seed)
    for _ in range(moves):
        seat = to_act(state)[0]
        options = legal_moves(state, seat)
        busy = [m for m in options if m["type"] not in ("pass", "decline", "decline_parcel", "deny_remaining")]
        _, state = play(state, seat, chooser.choice(busy or options), Rng(seed, state.seq))
        doc = player_view(state, 0, game_id=1, usernames=NAMES)
        parcels = doc["board"]["parcels"]
        if (doc["board"]["roads"] and any(p["cowboys"] for p in parcels)
                and any(p["content"] in BUILDINGS for p in parcels)):
            return doc, board_html(SimpleNamespace(id=1, name="T"), doc, [], [])
    raise AssertionError("no busy board within the moves played")


def _labels(html: str, kind: str) -> list[str]:
    pattern = rf'<g class="piece {kind}[^"]*" role="img" aria-label="([^"]*)"'
    return [unescape(label) for label in re.findall(pattern, html)]


def test_roads_buildings_and_cowboys_are_distinct_named_svg_elements() -> None:
    doc, html = _busy_board()
    board = doc["board"]
    roads = _labels(html, "road")
    assert sorted(roads) == sorted(
        ("Bridge " if list(r) in board.get("bridges", []) else "Road ") + road_name(*r) for r in board["roads"]
    )
    contents = _labels(html, "content")
    for p in board["parcels"]:
        if p["content"] in BUILDINGS and p["owner"] is not None:
            name = BUILDINGS[p["content"]].name
            assert any(label.startswith(f"{name} of {NAMES[p['owner']]}") for label in contents), (p, contents)
    cowboys = _labels(html, "cowboy")
    on_board = [NAMES[s] for p in board["parcels"] for s in p["cowboys"]]
    assert sorted(label.removeprefix("Cowboy of ") for label in cowboys if "white" not in label) == sorted(on_board)


def test_roads_are_named_by_the_parcels_they_run_between() -> None:
    """Grid points are 0..8 and parcels 1..8 (RULINGS B1, B3): the edge from point (3, 2) to (4, 2) runs between
    parcel (4, 2) above and (4, 3) below; an edge on the border runs along one parcel."""
    assert road_name(3, 2, 4, 2) == "between (4, 2) and (4, 3)"
    assert road_name(3, 2, 3, 3) == "between (3, 3) and (4, 3)"
    assert road_name(0, 0, 1, 0) == "along the top edge of (1, 1)"
    assert road_name(7, 8, 8, 8) == "along the bottom edge of (8, 8)"
    assert road_name(0, 4, 0, 5) == "along the left edge of (1, 5)"
    assert road_name(8, 7, 8, 8) == "along the right edge of (8, 8)"


def test_each_player_has_a_letter_that_tells_them_apart() -> None:
    assert player_marks(["anna", "bert", "carl"]) == ["A", "B", "C"]
    # Two players with the same initial: every player gets their seat number instead, never two alike.
    assert player_marks(["anna", "alex", "bert"]) == ["1", "2", "3"]
    doc, html = _busy_board(seed=9)
    for p in doc["board"]["parcels"]:
        if p["owner"] is not None:
            assert f'aria-label="Property of {NAMES[p["owner"]]}"' in html


def test_the_auctioned_parcels_carry_the_auction_chips() -> None:
    """R-GG-11 (`001` "The Auctioneer (12)": "places the auction chips there"): each parcel chosen for the
    auction shows a chip with an accessible name, and no other parcel does."""
    g = auction_table()
    first_chooser_takes(g, "auctioneer")
    choose_parcels(g, (1, 1), (6, 7))
    doc = player_view(g.state, 0, game_id=1, usernames=NAMES[:3])
    html = board_html(SimpleNamespace(id=1, name="T"), doc, [], [])
    assert _labels(html, "auction-chip") == ["Auction chip: this parcel is auctioned by the Auctioneer"] * 2


def test_chips_with_cowboys_are_drawn_and_named() -> None:
    """Issue "Gold & Guns and the Outlaws", item 4: a cowboy placed with a dynamite chip (RULING G7) or a "no duel"
    chip (RULING G9) says so on the board and on the track, from the state document's fields."""
    state = replay(new_game(GameConfig.from_variants(2, {"expansions": ["gold_and_guns"]}), 3))
    doc = player_view(state, 0, game_id=1, usernames=NAMES[:2])
    parcel = doc["board"]["parcels"][0]
    parcel["cowboys"] = [1]
    doc["dynamite_cowboys"] = [{"seat": 1, "x": parcel["x"], "y": parcel["y"]}, {"seat": 0, "square": "ammunition"}]
    for square in doc["squares"]:
        if square["square"] == "ammunition":
            square["cowboys"] = [0]
        if square["square"] == "parcel_income":
            square["cowboys"], square["no_duel"] = [1], [1]
    html = unescape(board_html(SimpleNamespace(id=1, name="T"), doc, [], []))
    assert "Cowboy of bert, with a dynamite chip" in _labels(html, "cowboy")
    assert 'aria-label="Cowboy of anna, with a dynamite chip"' in html  # on Ammunition
    assert 'aria-label="Cowboy of bert, with a "no duel" chip"' in html  # on Parcel income
