"""The commands that change a running game's log; each goes through `GameService.apply`, the one write path.

A command says what is asked, by whom, against what; it is decided against the game's current state by the
rules core and recorded by `app.play.record`. The site's bot moves with a command of the same kind (`BotMove`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.play.accounts import Account


@dataclass(frozen=True, slots=True)
class PlayerMove:
    """A signed-in player's move, made against `seq` as that player counts the log."""

    user_id: int
    game_id: int
    seq: int
    move: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The clock of `seat` ran out by `now`: the server makes the seat's default move."""

    game_id: int
    seat: int
    now: datetime


@dataclass(frozen=True, slots=True)
class BotMove:
    """The site's bot moves for `seat`, awaited and played by the bot (a bot's own seat, or an absent player's)."""

    game_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class ReplaceSeat:
    """An admin gives `seat` of a running game to the player called `username`."""

    admin: Account
    game_id: int
    seat: int
    username: str


@dataclass(frozen=True, slots=True)
class Undo:
    """A signed-in player takes back their own last move, asked against `seq` as that player counts the log."""

    user_id: int
    game_id: int
    seq: int


Command = PlayerMove | TimeOut | BotMove | ReplaceSeat | Undo

# What `carson_moves_total` calls each command's change of the log.
KINDS: dict[type[Command], str] = {
    PlayerMove: "player",
    TimeOut: "timeout",
    BotMove: "bot",
    ReplaceSeat: "seat_replaced",
    Undo: "undo",
}
