"""The expansions' part of a rebuilt game, copied from what the view carries: Gold & Guns' City Hall, townhouses,
dynamite, the Singer's cowboys and chips, the Auctioneer's auction, the red Gunsmith's throws and the cowboys
defeated while the Doctor or the Undertaker is held; the Outlaws' strength, their arrival and their moves.

What the view shows only through the awaited decision is worked out from it (the City Hall drawn and waiting to be
placed, the red Gunsmith's roll again, who is done with the dynamite at the estate income). Where it leaves a
choice open, `alternatives` lists every reading, and `rebuild` keeps the first whose view and moves are the
seat's: the stage of the resolution where a defeat happened, the parcel whose outlaw was just beaten. Which outlaws
have already moved this round is read from the moves (an outlaw with somewhere to go that is not offered has
moved; one with nowhere to go is read as not yet moved).

What the view does not carry is left at its default (the package's docstring lists it all): here the dynamite
decisions of the estate income taken before another decision interrupted them (the seats would be asked again:
refused, as the moves then differ), the VP won from outlaws (the final score's split of the same total) and a City
Hall set aside (not in sight, so the bag keeps it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from app.bots.base import MoveView, View
from app.rules import GameState
from app.rules.auction import CHIP_SQUARE
from app.rules.board import parcel_index
from app.rules.catalog import OUTLAW_ROUNDS
from app.rules.decisions import Decision
from app.rules.defeats import RESOLUTION_STAGES
from app.rules.events import Throw
from app.rules.model import Auction, Cowboy, Defeat, about_parcels, replace
from app.rules.outlaws import destinations, outlaw_parcels


def fill(s: GameState, view: View) -> GameState:
    """`s` with the fields of the expansions in play copied from `view`."""
    if s.config.gold_and_guns:
        s = _gold_and_guns(s, view)
    if s.config.outlaws:
        s = _outlaws(s, view)
    return s


def alternatives(s: GameState, view: View, moves: Sequence[MoveView]) -> Iterator[GameState]:
    """Every reading of what the view leaves open, one state each (`s` itself when nothing is open)."""
    readings: list[GameState] = [s]
    for widen in _OPEN_QUESTIONS:
        readings = [wider for reading in readings for wider in widen(reading, view, moves)]
    return iter(readings)


# --- Gold & Guns --------------------------------------------------------------------------------------------------


def _gold_and_guns(s: GameState, view: View) -> GameState:
    awaited = view.get("awaiting")
    hall = view["city_hall"]
    squares = {row["square"]: row for row in view["squares"]}
    rolls: dict[int, Throw] = {}
    for row in view.get("duel_rolls") or ():
        thrown = {key: value for key, value in row.items() if key != "seat"}
        rolls[int(row["seat"])] = thrown  # type: ignore[assignment]  # the view's copy of a Throw
    return replace(
        _marked_cowboys(s, view),
        city_hall=parcel_index(hall["x"], hall["y"]) if hall is not None else None,
        city_hall_drawn=awaited == Decision.PLACE_CITY_HALL,
        singer_cowboy=bool(view["singer_cowboy_available"]),
        dynamite_mines=frozenset(parcel_index(m["x"], m["y"]) for m in view["dynamite_mines"]),
        dynamite_done=frozenset(p.seat for p in s.players if p.seat not in view["to_act"])
        if awaited == Decision.DYNAMITE
        else frozenset(),
        duel_rolls=rolls,
        reroll_pending=awaited == Decision.REROLL,
        auction=_auction(view["auction"]),
        chip_sold=bool(s.round) and not squares[CHIP_SQUARE]["open"],
    )


def _marked_cowboys(s: GameState, view: View) -> GameState:
    """The cowboys placed with a dynamite chip or the yellow Singer's "no duel" chip, and the red Singer's cowboy
    from the general reserve (which the view shows apart, and the state keeps after the spot's others)."""
    squares = dict(s.squares)
    spots = dict(s.parcel_cowboys)
    for row in view["squares"]:
        for seat in row.get("no_duel", ()):
            squares[row["square"]] = _marked(squares[row["square"]], seat, no_duel=True)
    for placed in view["dynamite_cowboys"]:
        if "square" in placed:
            squares[placed["square"]] = _marked(squares[placed["square"]], placed["seat"], dynamite=True)
        else:
            index = parcel_index(placed["x"], placed["y"])
            spots[index] = _marked(spots[index], placed["seat"], dynamite=True)
    singer = view["singer_cowboy"]
    if singer is not None:
        square = singer["square"]
        squares[square] = (*squares.get(square, ()), Cowboy(int(singer["seat"]), singer=True))
    # The view lists the squares' dynamite cowboys in the order the squares were first taken this round: keep it.
    first = [placed["square"] for placed in view["dynamite_cowboys"] if "square" in placed]
    ordered = {square: squares[square] for square in dict.fromkeys(first)}
    ordered.update((square, cowboys) for square, cowboys in squares.items() if square not in ordered)
    return replace(s, squares=ordered, parcel_cowboys=spots)


def _marked(cowboys: tuple[Cowboy, ...], seat: int, **flags: bool) -> tuple[Cowboy, ...]:
    """The spot's cowboys with the first plain cowboy of `seat` carrying `flags`."""
    k = next(k for k, c in enumerate(cowboys) if c == Cowboy(seat))
    return (*cowboys[:k], Cowboy(seat, **flags), *cowboys[k + 1 :])


def _auction(row: Mapping[str, Any] | None) -> Auction | None:
    if row is None:
        return None
    return Auction(
        seat=int(row["seat"]),
        lot=str(row["lot"]),
        size=int(row["size"]),
        parcels=tuple(parcel_index(p["x"], p["y"]) for p in row["parcels"]),
        bids=tuple((int(b["seat"]), int(b["amount"])) for b in row["bids"]),
        passed=frozenset(row["passed"]),
        turn=row["turn"],
    )


def _defeat(s: GameState, view: View, moves: Sequence[MoveView]) -> list[GameState]:
    """The cowboys defeated while the Doctor or the Undertaker is held: the view names their owners; the stage of
    the resolution their duel was fought at is the step's own, or at the estate income one of its parts."""
    seats = tuple(view.get("defeated") or ())
    if not seats:
        return [s]
    if s.step == "estate_income":
        stages: Sequence[str] = _ESTATE_INCOME_PARTS
    else:
        stages = (s.step,) if s.step in RESOLUTION_STAGES else RESOLUTION_STAGES
    return [replace(s, defeat=Defeat(seats, stage)) for stage in stages]


_ESTATE_INCOME_PARTS: Final = ("city_hall", "attacks", "estate_income")


# --- the Outlaws --------------------------------------------------------------------------------------------------


def _outlaws(s: GameState, view: View) -> GameState:
    """The strength on the board's outlaw tile, and the last round whose outlaws arrived (they arrive at the start
    of the rounds `OUTLAW_ROUNDS`, before any decision of the round)."""
    strength = view["outlaws"]["strength"]
    arrived = max((r for r in OUTLAW_ROUNDS if r <= s.round), default=0) if strength is not None else 0
    return replace(s, outlaw_strength=strength, outlaw_round=arrived)


def _outlaws_moving(s: GameState, view: View, moves: Sequence[MoveView]) -> list[GameState]:
    """While the first player picks which outlaw moves next: an outlaw not among the moves that has somewhere to go
    has moved already; one with nowhere to go now may or may not have (the view does not say), and is read as not
    yet moved, so that it still moves if the others' moves open a way."""
    if not s.config.outlaws or view.get("awaiting") != Decision.OUTLAW_ORDER:
        return [s]
    movers = {parcel_index(m["x"], m["y"]) for m in moves}
    standing = about_parcels(s, outlaw_parcels)
    moved = frozenset(i for i in standing if i not in movers and destinations(s, i))
    return [replace(s, outlaws_moved=moved)]


def _outlaw_beaten(s: GameState, view: View, moves: Sequence[MoveView]) -> list[GameState]:
    """While the winner of an outlaw's fight chooses the reward, the parcel it was fought on: one where the winner's
    cowboy stands alone."""
    if not s.config.outlaws or view.get("awaiting") != Decision.OUTLAW_REWARD:
        return [s]
    winner = view["to_act"][0]
    return [
        replace(s, outlaw_beaten=index)
        for index, cowboys in sorted(s.parcel_cowboys.items())
        if cowboys and cowboys[0].seat == winner and not s.parcels[index].outlaw
    ]


_OPEN_QUESTIONS: Final[tuple[Callable[[GameState, View, Sequence[MoveView]], list[GameState]], ...]] = (
    _defeat,
    _outlaws_moving,
    _outlaw_beaten,
)
