"""The move made for a player whose clock ran out (issue "Asynchronous play": "the safest legal default move
for that seat (pass, decline, deny, give up only the required money)")."""

from __future__ import annotations

import random

from app.rules import GameConfig, default_move, legal_moves, new_game, play, replay
from app.rules.rng import Rng
from tests.rules.builders import Game


def test_default_is_always_legal_and_games_finish_on_defaults_alone() -> None:
    """R-WEB-1: a whole game played only by default moves finishes, every default being a listed move."""
    for players, variants in ((2, {}), (4, {"sides": "vote", "might_is_right": True, "river": True,
                                            "new_beginning": True})):
        config = GameConfig.from_variants(players, variants)
        state = replay(new_game(config, 5))
        while state.status != "finished":
            seat = state.to_act[0]
            move = default_move(state, seat)
            assert move is not None and move in legal_moves(state, seat)
            _, state = play(state, seat, move, Rng(5, state.seq))
        assert default_move(state, 0) is None


def test_default_passes_in_placement_and_declines_purchases() -> None:
    g = Game(2)
    g.claim_starts()
    g.choose(["banker", "mercenary"])
    assert default_move(g.state, g.state.to_act[0]) == {"type": "pass"}
    g.place_cowboys(square="buy_vp_2", seats=[0])
    g.set_player(0, money=20)
    g.resume_at("buy_vp_2")
    assert default_move(g.state, 0) == {"type": "buy_vp", "count": 0}


def test_default_gives_up_only_the_required_money() -> None:
    g = Game(2)
    g.claim_starts()
    g.choose(["sheriff", "banker"])
    sheriff = g.state.holder("sheriff")
    assert sheriff is not None
    g.set_player(sheriff, money=37)
    g.resume_at("cash_limit")
    assert default_move(g.state, sheriff) == {"type": "give_up_money", "amount": 17}


def test_default_denies_a_permission_request() -> None:
    chooser = random.Random(3)
    config = GameConfig.from_variants(3, {})
    for seed in range(40):
        state = replay(new_game(config, seed))
        while state.status != "finished":
            seat = chooser.choice(state.to_act)
            moves = legal_moves(state, seat)
            if any(m["type"] == "deny_remaining" for m in moves):
                assert default_move(state, seat) == {"type": "deny_remaining"}
                return
            _, state = play(state, seat, chooser.choice(moves), Rng(seed, state.seq))
    raise AssertionError("no permission request arose in 40 random games")
