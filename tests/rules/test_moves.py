"""The documented move vocabulary (app/rules/moves.py) describes every move `legal_moves` can list."""

from __future__ import annotations

import random

from app.rules import GameConfig, legal_moves, new_game, play, replay
from app.rules.moves import MOVE_MODELS, is_well_formed, move_json_schema
from app.rules.rng import Rng


def test_every_listed_move_is_documented() -> None:
    """R-WEB-1: every move listed in whole random games (all variants on) has a documented shape."""
    chooser = random.Random(11)
    seen: set[str] = set()
    for players, variants in ((2, {"sides": "red"}), (4, {"sides": "vote", "might_is_right": True,
                                                         "river": True, "new_beginning": True}), (3, {})):
        config = GameConfig.from_variants(players, variants)
        for seed in range(3):
            state = replay(new_game(config, seed))
            while state.status != "finished":
                seat = chooser.choice(state.to_act)
                moves = legal_moves(state, seat)
                for move in moves:
                    assert is_well_formed(move), move
                    seen.add(move["type"])
                _, state = play(state, seat, chooser.choice(moves), Rng(seed, state.seq))
    assert len(seen) >= 25  # most of the vocabulary shows up in a few random games


def test_malformed_moves_are_not_well_formed() -> None:
    for move in ({"type": "pass", "extra": 1}, {"type": "buy_vp", "count": "3"}, {"type": "teleport"},
                 {"type": "answer_permission", "x": 1, "y": 1, "grant": 1}, {"x": 1}):
        assert not is_well_formed(move)


def test_schema_lists_every_type_once() -> None:
    schema = move_json_schema()
    types = [entry["properties"]["type"]["const"] for entry in schema["oneOf"]]
    assert len(types) == len(set(types)) == len(MOVE_MODELS)
