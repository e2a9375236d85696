"""Rebuild, from one seat's view alone, a full game state the rules core can play on (a determinization).

The search bot is handed what a person in the seat is: `player_view(state, seat)` and its legal moves. To look
ahead it needs a state `play` accepts, so this package writes one: everything the view shows is copied
(`board`, and the expansions' fields, `expansions`), and what it hides is sampled as the seat sees it
(`secrets`): the other seats' Might Is Right tiles and the used pile, their votes on the sides, their secret
baskets — each drawn with the generator handed in. The bag holds the box's buildings less every building in sight,
and which of them comes out next, like every die, is left to the generator the search plays with. The game's seed
and the other seats' secrets are never an input: there is nothing here to read them from.

What the view lacks altogether is left at the state's default or read the likeliest way, and stays a gap of the
search: a purchase answered ahead with a placement (`Cowboy.buy`: in the playouts its seat is asked when its
cowboy wins), whether an outlaw with nowhere to go has moved this round, who built from their reserve before the
builder, the VP won from outlaws, a City Hall set aside, the seat's own second dynamite tile (drawn from its hand),
the horses answered at Wages before the seat (drawn). The sampling itself uses only what the view shows, so the
others' tiles are drawn as if every unseen tile were as likely anywhere: the view does not carry the duels played.

Where the view leaves a choice open (`expansions.alternatives`), each reading is tried in turn, and the first
whose view and moves are the seat's is kept. A position none of them rebuilds faithfully is refused: `rebuild`
returns None when the rebuilt state's view for the seat differs from the one handed in, or its legal moves from
the seat's, and the bot then plays without search. `tests/bots/test_determinize.py` names the positions rebuilt
in each configuration, and `bench/determinize.py` measures the share.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots.base import MoveView, View
from app.bots.search.determinize import board, expansions, secrets
from app.rules import GameState, legal_moves_read_only, player_view

# The errors of a view this package does not know how to rebuild (a part of an expansion it does not read).
UNREADABLE = (KeyError, TypeError, ValueError, AssertionError, IndexError, StopIteration)


def rebuild(view: View, moves: Sequence[MoveView], rng: random.Random | None = None) -> GameState | None:
    """A state consistent with `view` — the others' secrets drawn from `rng` (a fixed generator when none is
    handed, so that the same view gives the same state) — or None when it would not show the seat the same view
    and the same legal moves."""
    return _rebuilt(view, moves, random.Random(0) if rng is None else rng)[0]


def refusal(view: View, moves: Sequence[MoveView], rng: random.Random | None = None) -> str | None:
    """Why `rebuild` refuses this position (None: it does not): the first field of the view the rebuilt state
    shows otherwise, "moves" when only the legal moves differ, or the error raised. For the benchmark."""
    return _rebuilt(view, moves, random.Random(0) if rng is None else rng)[1]


def _rebuilt(view: View, moves: Sequence[MoveView], rng: random.Random) -> tuple[GameState | None, str | None]:
    cause = "view"
    try:
        seat = int(view["viewer"])
        public = expansions.fill(board.state(view), view)
        wanted = [dict(m) for m in moves]
        for reading in expansions.alternatives(public, view, moves):
            state = secrets.fill(reading, view, rng)
            shown = player_view(state, seat)
            if shown != dict(view):
                cause = _first_difference(shown, view)
            elif legal_moves_read_only(state, seat) != wanted:
                cause = "moves"
            else:
                return state, None
    except UNREADABLE as error:
        return None, f"{type(error).__name__} {error}"
    return None, cause


def _first_difference(shown: Mapping[str, Any], view: Mapping[str, Any], path: str = "") -> str:
    """The path of the first field where two documents differ (players[].tiles, ...)."""
    for key in sorted(set(shown) | set(view), key=str):
        a, b = shown.get(key), view.get(key)
        if a == b:
            continue
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            return _first_difference(a, b, f"{path}{key}.")
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            x, y = next((x, y) for x, y in zip(a, b, strict=True) if x != y)
            if isinstance(x, Mapping) and isinstance(y, Mapping):
                return _first_difference(x, y, f"{path}{key}[].")
            return f"{path}{key}[]"
        return f"{path}{key}"
    return path or "view"
