"""The work the rules core does per game (issue "one write path": >= 150 complete random 4-player games per second
on one core, measured by `bench/engine.py`).

Wall-clock figures are too noisy on a shared machine to assert, so these tests pin down the work itself,
deterministically: which answers are worked out once per state, and how many function calls a whole game takes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

import app.rules.flow as flow
from app.rules import GameConfig, GameState, legal_moves, new_game, play, replay
from app.rules.rng import Rng


def _random_game(players: int, seed: int, on_state: Callable[[GameState], None] = lambda s: None) -> GameState:
    """A complete game with players choosing uniformly among the legal moves (as `python -m app simulate`)."""
    chooser = random.Random(seed)
    state = replay(new_game(GameConfig.from_variants(players, {}), seed))
    while state.status != "finished":
        on_state(state)
        seat = chooser.choice(state.to_act)
        _, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
    return state


def test_each_state_works_out_its_next_step_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`advance` asks every state it reaches what happens next, and `awaiting` (so `to_act` and the legal moves)
    asks the same state again: the answer is worked out once and shared."""
    asked: Counter[tuple[int, str]] = Counter()
    states: list[GameState] = []  # kept alive, so that no two states share an id

    def counting(name: str, step: Callable[[GameState], flow.Step]) -> Callable[[GameState], flow.Step]:
        def count(s: GameState) -> flow.Step:
            if s.step == name:  # the current step itself, not a look ahead for the next busy one
                asked[id(s), name] += 1
                states.append(s)
            return step(s)

        return count

    for name, step in list(flow.STEPS.items()):
        monkeypatch.setitem(flow.STEPS, name, counting(name, step))
    _random_game(4, seed=3)
    assert asked and max(asked.values()) == 1
