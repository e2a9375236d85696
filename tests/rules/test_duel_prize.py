"""What a waiting duel puts at stake, as the view says it (`duel.prize`, `duel.tie_to`): the kind of prize with the
core's numbers, so that the table only words them (issue 25). Sources: `000` "Performing The Actions and Duels"
(a tie goes to the player who passed earliest, RULING B8), `000` "Estate income / attacks on buildings" (the
attacker steals half of the income, rounded down), RULING G4 (an outlaw's VP), RULING G2 (the City Hall)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules import GameConfig, legal_moves, new_game, play, player_view, replay, to_act
from app.rules.rng import Rng
from app.rules.view import DUEL_PRIZE_KINDS
from app.web.present import DUEL_PRIZES

VARIANTS = [
    {"might_is_right": True},
    {"might_is_right": True, "expansions": ["outlaws"]},
    {"might_is_right": True, "expansions": ["gold_and_guns"]},
]


def waiting_duels(players: int, variants: dict[str, Any], seed: int) -> list[tuple[Any, dict[str, Any]]]:
    """(state, duel field) at every duel awaiting its duellists in one random game."""
    state = replay(new_game(GameConfig.from_variants(players, variants), seed))
    chooser = random.Random(seed)
    found = []
    for _ in range(3000):
        if state.status == "finished":
            break
        seat = to_act(state)[0]
        doc = player_view(state, seat)
        if doc.get("duel"):
            found.append((state, doc["duel"]))
        move = chooser.choice(legal_moves(state, seat))
        _, state = play(state, seat, move, Rng(seed, state.seq))
    return found


def test_the_table_words_every_kind_of_prize() -> None:
    assert set(DUEL_PRIZES) == set(DUEL_PRIZE_KINDS)


@pytest.mark.parametrize("variants", VARIANTS)
def test_every_waiting_duel_names_its_prize_and_who_wins_a_tie(variants: dict[str, Any]) -> None:
    kinds = set()
    for seed in range(1, 7):
        for state, duel in waiting_duels(3, variants, seed):
            prize = duel["prize"]
            kinds.add(prize["kind"])
            assert prize["kind"] in DUEL_PRIZE_KINDS
            assert ("square" in duel) == (prize["kind"] == "square")
            # RULING B8: the tied player who passed earliest this round.
            order = [seat for seat in state.passing_order if seat in duel["seats"]]
            assert duel["tie_to"] == order[0]
            if "attacker_gets" in prize:  # `000`: the attacker steals half of the income, rounded down
                assert prize["attacker_gets"] == prize["income"] // 2
                assert prize["owner"] is not None
            if prize["kind"] == "parcel":
                parcel = next(p for p in player_view(state, None)["board"]["parcels"]
                              if (p["x"], p["y"]) == (duel["x"], duel["y"]))
                assert prize["price"] == parcel["price"]
    assert kinds >= {"square", "parcel"}, kinds
