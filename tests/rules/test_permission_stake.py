"""What a permission request puts at stake, as the view says it (`construction_work.request.stake`): for each parcel
asked, the piece that would stand there, what it scores its owner, what it is worth to their buildings beside it
and whether the parcel is lost as a building site, so that the table only words it (issue 25). Sources: RULING B12
(`000` "asking permission for a house on another player's parcel": the house belongs to the parcel's owner), G19
(a townhouse over another player's house, asked the same way), B11 (a building needs an own parcel with no
building, house or mountain), B13 (a house counts for the buildings of its parcel's owner only), B17 (2 VP per
building, house and mountain on one's own parcels), G6 (a townhouse scores as one house)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from app.rules import GameConfig, legal_moves, new_game, play, player_view, replay, to_act
from app.rules.board import parcel_index
from app.rules.income import house_value
from app.rules.model import GameState
from app.rules.rng import Rng
from app.rules.scoring import final_scores
from app.rules.view import PERMISSION_PIECES
from app.web.present import PERMISSION_STAKES

VARIANTS: list[dict[str, Any]] = [{}, {"expansions": ["gold_and_guns"]}]
FAVOURED = ("buy_building", "place_building", "buy_parcel", "ask_permission")


def requests(variants: dict[str, Any], seed: int) -> list[tuple[GameState, int, list[Any]]]:
    """(state, asked seat, its legal moves) at every permission request awaiting its answer in one random game of
    three players that favours building and asking."""
    state = replay(new_game(GameConfig.from_variants(3, variants), seed))
    chooser = random.Random(seed)
    found = []
    while state.status != "finished":
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        if any(m["type"] == "answer_permission" for m in legal):
            found.append((state, seat, legal))
        favoured = [m for m in legal if m["type"] in FAVOURED]
        move = chooser.choice(favoured or legal)
        _, state = play(state, seat, move, Rng(seed, state.seq))
    return found


def with_piece(s: GameState, index: int, piece: str) -> GameState:
    parcels = list(s.parcels)
    parcels[index] = replace(parcels[index], content=piece)
    return replace(s, parcels=tuple(parcels))


def test_the_table_words_every_piece() -> None:
    assert set(PERMISSION_STAKES) == set(PERMISSION_PIECES)


@pytest.mark.parametrize("variants", VARIANTS)
def test_every_parcel_asked_names_what_the_piece_does_for_each_side(variants: dict[str, Any]) -> None:
    """R-CON-5, R-CON-6, R-GG-28, R-INC-1, R-INC-2, R-END-6: the stake of every parcel of a request, against the
    answers the asked player may give and against the final scoring and incomes of the core."""
    pieces = set()
    for seed in range(1, 9):
        for state, asked, legal in requests(variants, seed):
            doc = player_view(state, asked)
            work = doc["construction_work"]
            request = work["request"]
            stake = request["stake"]
            # R-CON-6 (B12): one row per parcel the asked player answers for, parcel by parcel.
            answers = {(m["x"], m["y"]) for m in legal if m["type"] == "answer_permission"}
            assert {(row["x"], row["y"]) for row in stake} == answers
            incomes = {(p["x"], p["y"]): p["income"] for p in doc["board"]["parcels"]}
            for row in stake:
                index = parcel_index(row["x"], row["y"])
                parcel = state.parcels[index]
                assert parcel.owner == asked
                pieces.add(row["piece"])
                # R-CON-5 (B12) and R-GG-28 (G19): a house on free land, a townhouse over the owner's house.
                assert row["piece"] == ("house" if parcel.content is None else "townhouse")
                assert parcel.content in (None, "house")
                # B11 (R-CON-2): free land taken by a house can no longer take a building of the owner's.
                assert row["loses_building_site"] == (parcel.content is None)
                after = with_piece(state, index, row["piece"])
                # R-END-6 (B17, G6): the piece scores `vp` for the owner; a townhouse scores as the house it covers.
                gained = final_scores(after)[0][asked]["houses"] - final_scores(state)[0][asked]["houses"]
                assert gained == (row["vp"] if row["piece"] == "house" else 0)
                assert final_scores(after)[0][asked]["houses"] >= row["vp"]
                # R-INC-1, R-INC-2 (B13): worth its house values to the owner's buildings, nothing to the builder's.
                assert house_value(after, asked, index) == row["house_values"]
                assert house_value(after, work["seat"], index) == 0
                # The owner's buildings beside it: their incomes on the board now, and unchanged without any.
                beside = [(x, y) for (x, y), income in incomes.items()
                          if income is not None and abs(x - row["x"]) <= 1 and abs(y - row["y"]) <= 1
                          and (x, y) != (row["x"], row["y"])
                          and state.parcels[parcel_index(x, y)].owner == asked]
                assert row["income_beside"]["now"] == sum(incomes[xy] for xy in beside)
                if not beside:
                    assert row["income_beside"]["then"] == 0
    assert "house" in pieces, pieces


def grant_and_place(state: GameState, asked: int, row: dict[str, Any], seed: int) -> GameState | None:
    """The game after the asked player grants the row's parcel (and denies the rest) and the builder puts the
    house there at once, if the builder may; None when the builder has to do something else first."""
    grant = {"type": "answer_permission", "x": row["x"], "y": row["y"], "grant": True}
    _, state = play(state, asked, grant, Rng(seed, state.seq))
    if any(m["type"] == "deny_remaining" for m in legal_moves(state, asked)) and to_act(state) == [asked]:
        _, state = play(state, asked, {"type": "deny_remaining"}, Rng(seed, state.seq))
    placed = [p for p in player_view(state, asked)["board"]["parcels"] if (p["x"], p["y"]) == (row["x"], row["y"])]
    if placed and placed[0]["content"] == row["piece"]:
        return state  # the house was the builder's only move, made for them at once (D31)
    if not to_act(state):
        return None
    builder = to_act(state)[0]
    there = [m for m in legal_moves(state, builder)
             if m["type"] == "place_house" and (m.get("x"), m.get("y")) == (row["x"], row["y"])]
    if not there:
        return None
    _, state = play(state, builder, there[0], Rng(seed, state.seq))
    return state


def test_the_income_beside_is_what_the_owners_buildings_earn_once_the_house_stands() -> None:
    """R-INC-1, R-INC-2 (B13): granted and built, the house changes the incomes of the owner's buildings beside it
    from `now` to `then`, as the board shows them afterwards. Seed 982 with Gold & Guns is the first request with a
    change of income, among seeds 1-1199 of both variants above, that the builder can follow with the house at once
    (the others still have their building to place, which may change those incomes too; the random games changed
    when placements gained "buy it if I win", D106)."""
    seed, checked = 982, 0
    for state, asked, _ in requests({"expansions": ["gold_and_guns"]}, seed):
        for row in player_view(state, asked)["construction_work"]["request"]["stake"]:
            if row["income_beside"]["now"] == row["income_beside"]["then"]:
                continue
            after = grant_and_place(state, asked, row, seed)
            if after is None:
                continue
            board = player_view(after, asked)["board"]["parcels"]
            beside = [p["income"] for p in board
                      if p["income"] is not None and p["owner"] == asked and (p["x"], p["y"]) != (row["x"], row["y"])
                      and abs(p["x"] - row["x"]) <= 1 and abs(p["y"] - row["y"]) <= 1]
            assert sum(beside) == row["income_beside"]["then"], row
            checked += 1
    assert checked, "no request with a change of income could be granted and built at once"
