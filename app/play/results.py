"""The places of a finished game, from its final score (`app.rules.scoring`, the `game_finished` event): what the
results table keeps and the ratings are computed from (app.play.ratings).

The rules name one winner, breaking a tie for the most points in favour of the tied player who passed earliest
in round 4 (RULING B17): the winner is first alone. Below the winner nothing breaks a tie, so players with the
same total share a place (two players tied for second are both second, and the next is fourth). A player who
left a running game, or whose seat was handed to another, is behind everyone who played it out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def places(scores: Sequence[Mapping[str, int]], winner: int) -> list[int]:
    """Each seat's place (1 the best), by `scores[seat]["total"]`, the rules' `winner` first alone."""
    totals = [score["total"] for score in scores]
    return [
        1 if seat == winner else 2 + sum(1 for other, total in enumerate(totals)
                                         if other != winner and other != seat and total > totals[seat])
        for seat in range(len(totals))
    ]


def leaver_place(seat_count: int) -> int:
    """The place of a player who left a game of `seat_count` seats: behind every seat, shared by all who left."""
    return seat_count + 1
