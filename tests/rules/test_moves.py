"""The documented move vocabulary (app/rules/moves.py) describes every move `legal_moves` can list, and `decide`
has one handler for each move type, taking that move's typed dict."""

from __future__ import annotations

import random
from typing import Any, get_args, get_type_hints

import app.rules.moves
from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.decide import _MOVES
from app.rules.moves import MOVE_SHAPES, MOVE_TYPES, is_well_formed, move_json_schema
from app.rules.rng import Rng

SHAPES: dict[str, Any] = {get_args(get_type_hints(shape)["type"])[0]: shape for shape in MOVE_SHAPES}


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
                seat = chooser.choice(to_act(state))
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
    assert len(types) == len(set(types)) == len(MOVE_SHAPES)


def test_every_move_type_has_one_shape_and_one_handler() -> None:
    """R-WEB-1: each name of `MoveType` has exactly one typed dict in the `Move` union, and `decide` turns each
    into events (the table mypy checks is keyed by these names)."""
    assert len(SHAPES) == len(MOVE_SHAPES) and set(SHAPES) == MOVE_TYPES
    assert set(_MOVES) == MOVE_TYPES


def test_each_handler_takes_the_move_it_is_registered_for() -> None:
    """R-WEB-1: a handler of `decide` declares the typed dict of the move type it is registered for, so mypy
    checks the fields it reads against what that move carries."""
    types = vars(app.rules.moves)  # the core imports the move types for the type checker only
    wrong = {name: hints["move"] for name, handler in _MOVES.items()
             if (hints := get_type_hints(handler, localns=types))["move"] is not SHAPES[name]}
    assert wrong == {}
