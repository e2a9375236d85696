"""The work the rules core does per game (issue "one write path": >= 150 complete random 4-player games per second
on one core, measured by `bench/engine.py`).

Wall-clock figures are too noisy on a shared machine to assert, so these tests pin down the work itself,
deterministically: which answers are worked out once per state, and how many function calls a whole game takes.
"""

from __future__ import annotations

import gc
import random
import sys
from collections import Counter
from collections.abc import Callable

import pytest

import app.rules.flow as flow
from app.rules import GameConfig, GameState, legal_moves, legal_moves_read_only, new_game, play, replay, to_act
from app.rules.board import Edge
from app.rules.construction import _owned
from app.rules.duels import _purchases, kept_purchases
from app.rules.model import Parcel, about_parcels, about_roads, replace
from app.rules.rng import Rng

# Function calls (Python and built-in) for a complete random 4-player game: about 28,100 now (29,000 before the fold
# made one dedicated copy per event), about 52,700 before the rules core was made faster; the headroom leaves room
# for rule corrections, not for a slower core.
CALLS_PER_GAME = 31_000


def _random_game(players: int, seed: int, on_state: Callable[[GameState], None] = lambda s: None,
                 variants: dict[str, object] | None = None) -> GameState:
    """A complete game with players choosing uniformly among the legal moves (as `python -m app simulate`)."""
    chooser = random.Random(seed)
    state = replay(new_game(GameConfig.from_variants(players, variants or {}), seed))
    while state.status != "finished":
        on_state(state)
        seat = chooser.choice(to_act(state))
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


def test_answers_about_the_board_are_worked_out_once_per_board() -> None:
    """`about_parcels` hands an answer from state to state while the parcels stay the same tuple, and works it
    out again as soon as a parcel changes: never stale, never twice for one board."""
    asked: Counter[int] = Counter()
    boards: list[tuple[Parcel, ...]] = []  # kept alive, so that no two boards share an id

    def free_parcels(parcels: tuple[Parcel, ...]) -> int:
        asked[id(parcels)] += 1
        boards.append(parcels)
        return sum(1 for parcel in parcels if parcel.owner is None)

    def ask(s: GameState) -> None:
        assert about_parcels(s, free_parcels) == sum(1 for parcel in s.parcels if parcel.owner is None)

    final = _random_game(4, seed=5, on_state=ask)
    assert len(asked) > 20 and max(asked.values()) == 1  # a game changes its board many times
    changed = replace(final, parcels=(Parcel(owner=0), *final.parcels[1:]))
    ask(changed)
    assert asked[id(changed.parcels)] == 1


def test_answers_about_the_roads_are_worked_out_once_per_road_network() -> None:
    """`about_roads` does for the road network what `about_parcels` does for the board."""
    asked: Counter[int] = Counter()
    networks: list[frozenset[Edge]] = []

    def count(roads: frozenset[Edge]) -> int:
        asked[id(roads)] += 1
        networks.append(roads)
        return len(roads)

    def ask(s: GameState) -> None:
        assert about_roads(s, count) == len(s.roads)

    _random_game(4, seed=22, on_state=ask)  # a game in which roads are placed several times
    assert len(asked) > 5 and max(asked.values()) == 1


@pytest.mark.parametrize("variants", [{}, {"river": True}, {"new_beginning": True, "might_is_right": True},
                                      {"sides": "vote"}])
def test_answers_handed_on_give_the_same_legal_moves_as_fresh_ones(variants: dict[str, object]) -> None:
    """At every decision, the legal moves of every seat are the same whether the answers about the board and
    the roads come from earlier states or are worked out afresh: keeping them changes no rule."""

    def compare(s: GameState) -> None:
        fresh = replace(s)
        fresh.kept.clear()
        for seat in range(len(s.players)):
            assert legal_moves(s, seat) == legal_moves(fresh, seat)

    _random_game(3, seed=11, on_state=compare, variants=variants)


@pytest.mark.parametrize("variants", [{}, {"river": True}, {"expansions": ["gold_and_guns", "outlaws", "big_box"]}])
def test_answers_carried_over_a_purchase_are_the_ones_worked_out_afresh(variants: dict[str, object]) -> None:
    """A purchase hands the next state its parent's answers about who may buy where (`purchase_settled`) and how
    many parcels each seat owns (`ownership_carried`), changed by that purchase alone: at every state they are
    the answers worked out afresh."""
    purchases = 0

    def compare(s: GameState) -> None:
        nonlocal purchases
        fresh = replace(s)
        fresh.kept.clear()
        assert about_parcels(s, _owned) == about_parcels(fresh, _owned)
        kept = kept_purchases(s)
        if kept is not None:
            purchases += 1
            assert kept == _purchases(fresh)

    _random_game(4, seed=8, on_state=compare, variants=variants)
    assert purchases > 10


@pytest.mark.parametrize("variants", [{}, {"expansions": ["gold_and_guns", "outlaws", "big_box"]}])
def test_read_only_legal_moves_are_the_legal_moves_and_play_as_their_copies(variants: dict[str, object]) -> None:
    """`legal_moves_read_only` lists what `legal_moves` lists, in order; a move taken from it as it is (known to
    `is_legal` by identity) produces the same events and state as its copy, validated value by value."""

    def compare(s: GameState) -> None:
        for seat in to_act(s):
            shared, copies = legal_moves_read_only(s, seat), legal_moves(s, seat)
            assert list(shared) == copies
            for move, copy in zip(shared[:3], copies[:3], strict=True):
                assert copy is not move
                by_identity, after = play(s, seat, move, Rng(5, s.seq))
                by_value, after_copy = play(s, seat, copy, Rng(5, s.seq))
                assert by_identity == by_value and after == after_copy

    _random_game(4, seed=8, on_state=compare, variants=variants)


def test_the_final_score_is_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The step before the final scoring looks ahead to see whether it has something to do; that look must not
    score the game (the scoring runs once, when the step runs)."""
    scored: list[int] = []
    real = flow.final_scores

    def counting(s: GameState) -> tuple[list[dict[str, int]], int]:
        scored.append(s.seq)
        return real(s)

    monkeypatch.setattr(flow, "final_scores", counting)
    final = _random_game(4, seed=3)
    assert final.status == "finished" and len(scored) == 1


def test_a_game_leaves_nothing_for_the_garbage_collector() -> None:
    """States hold no reference cycles (an automatic step is a closure over its state, so it is never memoised
    in that state), so each state is freed as soon as the game moves on, without the garbage collector."""
    gc.collect()
    gc.disable()
    try:
        _random_game(4, seed=3)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_complete_game_stays_within_its_call_budget() -> None:
    """The benchmark's floor as a deterministic budget: a complete random game takes no more function calls
    than the faster core needs (`bench/engine.py` gives the games per second)."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(count)
    try:
        for seed in range(3):
            _random_game(4, seed)
    finally:
        sys.setprofile(None)
    assert calls / 3 <= CALLS_PER_GAME
