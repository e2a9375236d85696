"""The board the signed-out home page shows: a two-player game of the base rules, played by the rules core from a
fixed seed with a fixed chooser that favours buildings, until a few cowboys stand on the board in its fourth round,
seen as a spectator sees it. Played once per process; it is no real game, and has no secret anyone could learn."""

from __future__ import annotations

import random
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from app.rules import GameConfig, legal_moves, new_game, play, player_view, replay, to_act
from app.rules.rng import Rng
from app.web.table_view import table_context

SEED = 33
NAMES = ("Annie", "Wyatt")
BUILDS = ("buy_building", "place_building", "buy_parcel")
ROUND = 4
COWBOYS = 4  # placed in that round before the picture is taken


@lru_cache(maxsize=1)
def _document() -> dict[str, Any]:
    """The spectator's state document of the showcase game once `COWBOYS` cowboys are placed in round `ROUND`."""
    state = replay(new_game(GameConfig.from_variants(len(NAMES), {}), SEED))
    chooser = random.Random(SEED)
    placed = 0
    while state.status != "finished" and not (state.round >= ROUND and placed >= COWBOYS):
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        move = chooser.choice([m for m in legal if m["type"] in BUILDS] or legal)
        placed += state.round >= ROUND and move["type"] == "place_cowboy"
        _, state = play(state, seat, move, Rng(SEED, state.seq))
    return player_view(state, None, game_id=0, usernames=list(NAMES))


def board_context() -> dict[str, Any]:
    """What `partials/svg_board.html` needs to draw the showcase board, in the language spoken now."""
    return table_context(SimpleNamespace(id=0, name="Carson City"), _document(), [], [])
