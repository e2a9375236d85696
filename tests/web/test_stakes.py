"""Decisions that say what is at stake (issue "The table on one screen, and decisions that say what is at stake"):
the presenter reads the state document and the legal moves, never the rules, to say where a duel is fought, who
fights with which firepower and what the winner gets; where a building may go or what it still lacks; who asks a
permission for which parcels and what the house does for each side; who is still in an auction; and what each
personality card does, with its cash limit. Once a game is over, every VP figure is the final total."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.i18n import speaking
from app.rules import GameConfig, legal_moves, new_game, play, player_view, replay, to_act
from app.rules.catalog import PERSONALITIES
from app.rules.model import GameState
from app.rules.moves import MOVE_TYPES, Move
from app.rules.rng import Rng
from app.web import present

NAMES = ["ann", "bob"]


def until(seed: int, stop: Callable[[GameState, list[Move]], bool], variants: dict[str, Any] | None = None,
          ) -> tuple[GameState, int, list[Move]]:
    """A two-player game with `seed`, played at random but favouring buildings, until `stop` holds for the seat to
    act: the state, that seat and its legal moves (or the finished game, seat 0 and no moves)."""
    for attempt in range(30):
        chooser = random.Random(attempt)
        state = replay(new_game(GameConfig.from_variants(2, variants or {}), seed))
        while state.status != "finished":
            seat = to_act(state)[0]
            legal = legal_moves(state, seat)
            if stop(state, legal):
                return state, seat, legal
            builds = [m for m in legal if m["type"] in ("buy_building", "place_building", "buy_parcel")]
            _, state = play(state, seat, chooser.choice(builds or legal), Rng(seed, state.seq))
        if stop(state, []):
            return state, 0, []
    raise AssertionError("the stage was not reached")


def offers(kind: str) -> Callable[[GameState, list[Move]], bool]:
    return lambda state, legal: any(m["type"] == kind for m in legal)


def test_a_duel_names_its_parcel_each_duellists_firepower_and_the_prize() -> None:
    state, seat, legal = until(5, offers("play_tile"), {"might_is_right": True})
    doc = player_view(state, seat, usernames=NAMES)
    duel = doc["duel"]
    assert sorted(duel["seats"]) == [0, 1]
    lines = present.stake(doc, legal)
    assert lines[0].startswith(f"Duel over parcel ({duel['x']}, {duel['y']})")
    for p in doc["players"]:
        assert f"{p['username']}: firepower {p['firepower']}" in lines[1]
    assert f"The winner may buy the parcel for ${duel['prize']['price']}." in lines  # the view's price
    assert f"A tie goes to {NAMES[duel['tie_to']]}, who passed first this round." in lines


def test_a_build_says_where_the_building_may_go_now() -> None:
    state, seat, legal = until(31, offers("place_building"))
    doc = player_view(state, seat, usernames=NAMES)
    assert "duel" not in doc  # the field is there only while a duel waits
    lines = present.stake(doc, legal)
    building = doc["construction_work"]["building"]
    assert lines[0].startswith(f"Your {present.building_name(building)}")
    sites = {(m["x"], m["y"]) for m in legal if m["type"] == "place_building"}
    assert all(f"({x}, {y}) for $" in lines[1] for x, y in sites), lines


def test_a_permission_names_the_asker_the_parcels_and_each_sides_gain() -> None:
    state, seat, legal = until(31, offers("answer_permission"))
    doc = player_view(state, seat, usernames=NAMES)
    lines = present.stake(doc, legal)
    builder = NAMES[doc["construction_work"]["seat"]]
    asked = {(m["x"], m["y"]) for m in legal if m["type"] == "answer_permission"}
    assert lines[0].startswith(f"{builder} asks to build the house")
    assert all(f"({x}, {y})" in lines[0] for x, y in asked)
    stake = doc["construction_work"]["request"]["stake"]
    assert lines[1].startswith("For you:") and f"({stake[0]['vp']} VP at the game's end)" in lines[1]
    assert lines[-1].startswith(f"For {builder}:")


def test_a_permissions_answers_are_one_short_row_a_parcel_and_not_listed_twice() -> None:
    """Each parcel asked is a group of its Allow and Refuse, short enough to share a row, named by its buttons
    (which say the parcel); the list of board choices does not repeat them, so every answer fits the first screen
    (tests/browser/test_one_screen.py measures it)."""
    state, seat, legal = until(31, offers("answer_permission"))
    doc = player_view(state, seat, usernames=NAMES)
    groups, _ = present.choices(doc, legal)
    answers = {present.encode(m) for m in legal if m["type"] == "answer_permission"}
    rows = [g for g in groups if g.anchor]
    assert len(rows) == len(answers) // 2 >= 2
    for row in rows:
        assert row.inline and row.named_by_choices and not row.folded
        assert {c.tone for c in row.choices} == {"yes", "no"}
    assert {c.value for g in rows for c in g.choices} == answers
    assert not any(g.as_select for g in groups)
    assert [c.label for g in groups if not g.anchor for c in g.choices] == ["Refuse all remaining parcels"]
    for language in ("fr", "es"):  # the buttons name their parcel in every language, the row's title with them
        with speaking(language):
            rows = [g for g in present.choices(doc, legal)[0] if g.anchor]
        assert all(row.named_by_choices for row in rows), language


def test_the_asked_players_stake_says_the_request_once() -> None:
    """The asked player's stake names the builder, the building and the parcels, so the line of the construction
    work is not shown above it; the builder, who has no stake while waiting, and an asked player who has already
    granted a parcel (which only that line says) still see the line."""
    state, seat, legal = until(31, offers("answer_permission"))
    doc = player_view(state, seat, usernames=NAMES)
    assert present.work_in_stake(doc, present.stake(doc, legal))
    builder = player_view(state, doc["construction_work"]["seat"], usernames=NAMES)
    assert not present.work_in_stake(builder, present.stake(builder, []))
    doc["construction_work"]["granted"] = [[5, 8]]
    assert not present.work_in_stake(doc, present.stake(doc, legal))


def test_a_permission_words_the_views_figures_for_each_piece_and_income() -> None:
    """The presenter says what the view names (`request.stake`), piece by piece, with the view's figures: here a
    request's rows are set by hand to a house and a townhouse, one with a change of income beside it."""
    state, seat, legal = until(31, offers("answer_permission"))
    doc = player_view(state, seat, usernames=NAMES)
    request = doc["construction_work"]["request"]
    row = request["stake"][0]
    request["stake"] = [
        {**row, "x": 2, "y": 3, "vp": 2, "income_beside": {"now": 6, "then": 9}},
        {**row, "x": 5, "y": 5, "piece": "townhouse", "vp": 2, "house_values": 2, "loses_building_site": False,
         "income_beside": {"now": 4, "then": 4}},
    ]
    lines = present.stake(doc, legal)
    assert "(2, 3), (5, 5)" in lines[0]
    assert lines[1] == ("(2, 3): For you: the house stands on your parcel and stays yours (2 VP at the game's end), "
                        "but that parcel can no longer take a building of yours.")
    assert lines[2] == ("(5, 5): For you: your house there becomes a townhouse and stays yours (2 VP at the game's "
                        "end), worth 2 houses to your buildings beside it.")
    assert lines[3] == "Your buildings beside (2, 3) earn $6 now, $9 with it."
    assert len(lines) == 5


def test_an_auction_says_who_is_still_in() -> None:
    variants = {"expansions": ["gold_and_guns"], "characters": [1, 2, 3, 4, 5, 6, 12]}
    state, seat, legal = until(12, offers("bid"), variants)
    doc = player_view(state, seat, usernames=NAMES)
    still = [NAMES[s] for s in (0, 1) if s not in doc["auction"]["passed"]]
    assert present.stake(doc, legal)[0] == f"Still in: {', '.join(still)}."


def test_every_personality_choice_carries_its_card_text_and_cash_limit() -> None:
    state, seat, legal = until(31, offers("choose_personality"))
    doc = player_view(state, seat, usernames=NAMES)
    groups, _ = present.choices(doc, legal)
    buttons = [c for g in groups for c in g.choices if '"choose_personality"' in c.value]
    assert len(buttons) == len(legal)
    for button, move in zip(buttons, legal, strict=True):
        side = PERSONALITIES[move["card"]].side(next(c["side"] for c in doc["personalities"]
                                                     if c["card"] == move["card"]))
        assert button.detail == f"{side.text} (cash limit ${side.cash_limit})"


def test_a_finished_game_shows_final_totals_winner_first() -> None:
    state, _, _ = until(31, lambda s, legal: s.status == "finished")
    doc = player_view(state, None, usernames=NAMES)
    order = present.standings(doc)
    assert order[0]["seat"] == doc["winner"]
    assert [p["score"]["total"] for p in order] == sorted((p["score"]["total"] for p in order), reverse=True)
    assert present.vp_shown(doc) == {p["seat"]: p["score"]["total"] for p in doc["players"]}


def test_the_missing_parts_of_a_build_are_named_by_real_moves() -> None:
    assert set(present.MISSING_FOR_BUILDING) <= MOVE_TYPES
