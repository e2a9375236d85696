"""The table's status line said to the players who are not awaited (issue "The table players would switch for",
item 6): in the third person, and a permission request names whose request it is."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from app.rules import GameConfig, legal_moves, new_game, play, player_view, replay, to_act
from app.rules.board import parcel_index
from app.rules.decisions import Decision
from app.rules.income import income_if_built
from app.rules.rng import Rng
from app.web.game_rows import time_left
from app.web.present import Labeller, waiting_text


def _doc(kind: Decision, to_act: list[int], **more: Any) -> dict[str, Any]:
    return {"awaiting": kind.value, "to_act": to_act,
            "players": [{"username": name} for name in ("ann", "bob", "cy")], **more}


def test_others_are_told_whose_request_is_being_answered() -> None:
    doc = _doc(Decision.PERMISSION, [0], construction_work={"seat": 1})
    assert waiting_text(doc) == "Waiting for ann to answer bob's request to build a house on their parcels."


def test_phrases_speaking_to_the_player_are_turned_to_the_third_person() -> None:
    assert waiting_text(_doc(Decision.CASH_LIMIT, [1, 2])) == (
        "Waiting for bob, cy to give up the money above their cash limit.")
    assert waiting_text(_doc(Decision.FINAL_ROADS, [2])) == "Waiting for cy to place their remaining roads, or stop."
    assert waiting_text(_doc(Decision.PLACEMENT, [0])) == "Waiting for ann to place a cowboy or pass."
    for kind in Decision:  # no decision, said to others, still speaks to "you"
        text = waiting_text(_doc(kind, [0], construction_work={"seat": 1}))
        assert " you " not in text and " your " not in text, text


def test_deadlines_read_as_time_left() -> None:
    """Deadlines as time left, "1 d 23 h" (issue "The table players would switch for", item 6)."""
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    assert time_left(now + timedelta(days=1, hours=23, minutes=59), now) == "1 d 23 h"
    assert time_left(now + timedelta(hours=5, minutes=10, seconds=30), now) == "5 h 10 min"
    assert time_left(now + timedelta(minutes=7), now) == "7 min"
    assert time_left(now - timedelta(seconds=1), now) == "overdue"


def test_an_offered_placement_says_what_it_gives_and_whom_it_duels() -> None:
    """Previews (issue "The table players would switch for", item 3): a square says what it would pay the viewer
    now and names the duel a cowboy there would start; Wages never duels (RULING B7)."""
    doc = {
        "viewer": 0, "awaiting": "placement", "to_act": [0],
        "players": [{"seat": 0, "username": "ann", "hints": {"parcel_income": 6, "cowboy_vp": 2}},
                    {"seat": 1, "username": "bob", "hints": {"parcel_income": 4, "cowboy_vp": 1}}],
        "board": {"parcels": [{"x": 3, "y": 4, "owner": None, "price": 5, "cowboys": [1], "content": None}]},
        "construction": [],
        "squares": [{"square": "parcel_income", "cowboys": [1]}, {"square": "cowboy_vp", "cowboys": []},
                    {"square": "wages", "cowboys": [1]}],
    }
    labels = Labeller(doc)
    assert labels.label({"type": "place_cowboy", "square": "parcel_income"}) == (
        "Place a cowboy on Parcel income, $6 now, a duel with bob")
    assert labels.label({"type": "place_cowboy", "square": "cowboy_vp"}) == (
        "Place a cowboy on Cowboy victory points, 2 VP now")
    assert labels.label({"type": "place_cowboy", "square": "wages"}) == "Place a cowboy on Wages"
    assert labels.label({"type": "place_cowboy", "x": 3, "y": 4}) == (
        "Place a cowboy on parcel (3, 4) (price $5), a duel with bob")
    assert labels.label({"type": "give_up_money", "amount": 23}) == "Give up $23 for 2 VP"


def test_each_building_site_says_what_the_building_would_earn_there() -> None:
    """Previews (item 3): the builder's choice of site names the income the building would have there, as the
    rules core computes it for that parcel (RULING B13: a ranch earns $1 per empty parcel around it)."""
    state = replay(new_game(GameConfig.from_variants(2, {}), 4))
    chooser = random.Random(4)
    while not any(m["type"] == "place_building" for m in legal_moves(state, to_act(state)[0])):
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        builds = [m for m in legal if m["type"] in ("buy_building", "buy_parcel")]
        _, state = play(state, seat, chooser.choice(builds or legal), Rng(4, state.seq))
    seat = to_act(state)[0]
    doc = player_view(state, seat, usernames=["ann", "bob"])
    labels = Labeller(doc)
    for move in legal_moves(state, seat):
        if move["type"] == "place_building":
            earns = income_if_built(state, seat, move["building"], parcel_index(move["x"], move["y"]))
            assert f": earns ${earns}" in labels.label(move)
