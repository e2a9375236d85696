"""Bots playing whole games against each other in the rules core (`python -m app tournament`).

Each seat is a player: a bot, which is handed only its seat's view and legal moves, or `default`, the move the
site makes for a player whose time ran out (`app.rules.default_move`, the safest legal move).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots.base import Bot
from app.rules import (
    GameConfig,
    GameState,
    default_move,
    legal_moves_read_only,
    play,
    player_view,
    start_game,
    to_act,
)
from app.rules.rng import Rng

Player = Callable[[GameState, int, random.Random], dict[str, Any]]
SAFEST_DEFAULT = "default"


def bot_player(bot: Bot) -> Player:
    """A seat played by `bot`: it sees the seat's view and legal moves, never the state itself."""

    def move(state: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
        return bot(player_view(state, seat), legal_moves_read_only(state, seat), rng)  # a bot never changes them

    return move


def default_player(state: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
    """A seat whose every move is the safest default."""
    chosen = default_move(state, seat)
    assert chosen is not None, "an awaited seat always has a move"
    return chosen


@dataclass
class GameResult:
    winner: int
    totals: list[int]
    move_seconds: dict[int, list[float]] = field(default_factory=dict)  # per seat, each move's thinking time


def play_game(config: GameConfig, seed: int, players: Sequence[Player], rng: random.Random,
              observe: Callable[[GameState], None] | None = None) -> GameResult:
    """One complete game, `players[seat]` choosing for each seat; the game's dice come from `seed`, the
    players' own choices from `rng`. `observe` (for tests) is shown every state a decision is taken in, and the
    last one."""
    _, state = start_game(config, seed)
    seconds: dict[int, list[float]] = {seat: [] for seat in range(len(players))}
    while state.status != "finished":
        if observe is not None:
            observe(state)
        seat = rng.choice(to_act(state))
        start = time.perf_counter()
        move = players[seat](state, seat, rng)
        seconds[seat].append(time.perf_counter() - start)
        _, state = play(state, seat, move, Rng(seed, state.seq))
    if observe is not None:
        observe(state)
    assert state.winner is not None
    return GameResult(state.winner, [score["total"] for score in state.scores], seconds)
