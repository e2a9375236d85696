"""R-WEB-1 for every move a client can send: any JSON object, at any point of a game, from any seat, is either
one of `legal_moves` (and accepted) or refused with IllegalMove — the rules core never fails in any other way
on a move (STYLE "Habits" 2 and 7: `decide` validates and may raise, with a stable code and a sentence). The
server relies on it: only IllegalMove is the player's mistake; anything else the core raises is a bug (a 500)."""

from __future__ import annotations

import random
from typing import Any, get_args, get_type_hints

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import GameConfig, GameState, IllegalMove, is_legal, legal_moves, new_game, play, replay, to_act
from app.rules.moves import MOVE_SHAPES
from app.rules.rng import Rng

TYPES = sorted(get_args(get_type_hints(shape)["type"])[0] for shape in MOVE_SHAPES)
FIELDS = sorted({name for shape in MOVE_SHAPES for name in get_type_hints(shape)} - {"type"})
VARIANTS: list[dict[str, Any]] = [
    {},
    {"sides": "red"},
    {"sides": "vote"},
    {"might_is_right": True},
    {"river": True},
    {"new_beginning": True},
]

# JSON as a request body can carry it (Python's json also reads NaN and Infinity).
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([0, 1, 8, 9, -1, 2**63, True, False])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(TYPES)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
keys = st.sampled_from(["type", *FIELDS]) | st.text(max_size=6)
any_object = st.dictionaries(keys, json_values, max_size=6)
plausible = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)}, optional={name: json_values for name in FIELDS}
)


def _state(players: int, variants: dict[str, Any], seed: int, decisions: int) -> GameState:
    """A game `decisions` random legal moves in (or finished earlier)."""
    state = replay(new_game(GameConfig.from_variants(players, variants), seed))
    chooser = random.Random(seed)
    for _ in range(decisions):
        if state.status == "finished":
            break
        seat = chooser.choice(to_act(state))
        _, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
    return state


@st.composite
def near_legal(draw: st.DrawFn, state: GameState) -> dict[str, Any]:
    """A legal move of an awaited seat with one field changed, added or taken away."""
    if not to_act(state):
        return draw(plausible)
    moves = legal_moves(state, draw(st.sampled_from(to_act(state))))
    move = dict(draw(st.sampled_from(moves)))
    field = draw(st.sampled_from(sorted(move)) | keys)
    if field in move and draw(st.booleans()):
        del move[field]
    else:
        move[field] = draw(json_values)
    return move


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_object_is_a_legal_move_or_an_illegal_move(data: st.DataObject) -> None:
    """R-WEB-1 (`decide` refuses what `legal_moves` does not list, with a code and a sentence)."""
    players = data.draw(st.integers(2, 5), label="players")
    variants = data.draw(st.sampled_from(VARIANTS), label="variants")
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    state = _state(players, variants, seed, data.draw(st.integers(0, 120), label="decisions"))
    awaited = st.sampled_from(to_act(state)) if to_act(state) else st.nothing()
    seat = data.draw(awaited | st.integers(0, players - 1), label="seat")
    move = data.draw(any_object | plausible | near_legal(state), label="move")
    try:
        events, after = play(state, seat, move, Rng(seed, state.seq))
    except IllegalMove as refused:
        assert refused.code and refused.message
        assert not is_legal(state, seat, move)
    else:
        assert is_legal(state, seat, move) and events and after.seq == state.seq + len(events)
