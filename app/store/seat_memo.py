"""What this process remembers of who sits where, from the head reads it made: a game's seed (which never
changes) and each user's seat (which changes only when the seat is handed over).

A player's move decided on the cached state, without reading the head first, needs both: the seed for the
random generator and the mover's seat. The recording statement checks that the mover still holds that seat
(`app.play.record`), so a stale memo costs a refused try, never a wrong move; it is forgotten on a handover.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class KnownTable:
    """A game's seed and the seats of the users a head read told of."""

    seed: int
    seats: dict[int, int]  # user id -> seat


@dataclass(frozen=True, slots=True)
class Seated:
    """A user's seat at a game, and that game's seed."""

    seed: int
    seat: int


class SeatMemo:
    """Who sits where in up to `capacity` games, the game learnt of longest ago dropped first."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.tables: OrderedDict[int, KnownTable] = OrderedDict()  # game -> what is known of its table

    def learn(self, game_id: int, user_id: int, seed: int, seat: int | None) -> None:
        """Keep what a head read told: the game's `seed`, and `user_id`'s `seat` (None: no seat)."""
        table = self.tables.pop(game_id, None) or KnownTable(seed, {})
        if seat is None:
            table.seats.pop(user_id, None)
        else:
            table.seats[user_id] = seat
        self.tables[game_id] = table
        while len(self.tables) > self.capacity:
            self.tables.popitem(last=False)

    def seated(self, game_id: int, user_id: int) -> Seated | None:
        """`user_id`'s seat at `game_id` and the game's seed, when a head read told of them."""
        table = self.tables.get(game_id)
        seat = table.seats.get(user_id) if table is not None else None
        return Seated(table.seed, seat) if table is not None and seat is not None else None

    def forget_seat(self, game_id: int, seat: int) -> None:
        """Drop every memo of a user at `seat`: whoever sits there now is learnt from the next head read."""
        table = self.tables.get(game_id)
        if table is not None:
            for user_id in [user for user, theirs in table.seats.items() if theirs == seat]:
                del table.seats[user_id]

    def forget_game(self, game_id: int) -> None:
        """Drop every memo of who sits where in `game_id` (a seat changed hands there, which one is unknown)."""
        table = self.tables.get(game_id)
        if table is not None:
            table.seats.clear()

    def forget_all(self) -> None:
        """Drop every memo of who sits where, in every game (the seeds stay: they never change)."""
        for table in self.tables.values():
            table.seats.clear()
