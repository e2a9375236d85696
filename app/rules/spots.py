"""Where a cowboy may go and which parcels a player may claim: the moves the placement lists, and with them the
Doctor's patients (RULING G11), the Settler's parcel and A New Beginning's parcel picks.

The moves are listed at almost every decision, so they are built once here as shared rows that are never changed:
`legal.legal_moves` hands out copies, `legal.legal_moves_read_only` the rows themselves to callers that only read.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from app.rules.auction import CHIP_SQUARE
from app.rules.board import parcel_xy
from app.rules.catalog import BUILDINGS, BUY_VP_SQUARES, CONSTRUCTION_SQUARES, SQUARES
from app.rules.construction import has_property_tile, owner_free_land
from app.rules.events import XY
from app.rules.heroes import shielded
from app.rules.income import attackable_buildings
from app.rules.model import Cowboy, GameState, Parcel, about_parcels
from app.rules.outlaws import fightable

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import ClaimParcel, Move, PlaceCowboy

# Each parcel's coordinates as a move names them.
COORDINATES: tuple[XY, ...] = tuple({"x": x, "y": y} for x, y in map(parcel_xy, range(64)))
_PLACE_ON_PARCEL: tuple[PlaceCowboy, ...] = tuple(
    {"type": "place_cowboy", "x": p["x"], "y": p["y"]} for p in COORDINATES
)
# The same with the parcel's purchase answered ahead: "buy it if I win and can pay" (decision D106).
BUY_AHEAD_ON_PARCEL: tuple[PlaceCowboy, ...] = tuple({**move, "buy": True} for move in _PLACE_ON_PARCEL)
_CLAIM_PARCEL: tuple[ClaimParcel, ...] = tuple({"type": "claim_parcel", "x": p["x"], "y": p["y"]} for p in COORDINATES)
_PLACE_ON_SQUARE: dict[str, PlaceCowboy] = {square: {"type": "place_cowboy", "square": square} for square in SQUARES}


def xy(index: int) -> XY:
    """A parcel's coordinates as a move names them (a shared row: copy it into the move)."""
    return COORDINATES[index]


def claimable(s: GameState, seat: int) -> list[Move]:
    """The owner-free parcels `seat` may claim, while it has a property tile left (RULING B19)."""
    if not has_property_tile(s, seat):
        return []
    return [_CLAIM_PARCEL[i] for i in about_parcels(s, owner_free_land)]


def open_squares(s: GameState) -> tuple[str, ...]:
    """Squares a cowboy may go to this round: construction squares holding a building, buy-VP squares not yet
    blocked by the round counter (RULING B15), Ammunition unless the red Auctioneer sold its chip (decision
    D68), and all the others."""
    squares = _open_squares(s.round, s.construction)
    if s.chip_sold:
        return tuple(square for square in squares if square != CHIP_SQUARE)
    return squares


@lru_cache(maxsize=256)
def _open_squares(round_: int, construction: tuple[str | None, ...]) -> tuple[str, ...]:
    """`open_squares` from the two things it depends on, worked out once for each (placement asks at every
    decision, and both change only a few times a round)."""
    blocked = {b.square for b in BUY_VP_SQUARES if round_ >= b.first_round_blocked}
    empty = {c.square for c, b in zip(CONSTRUCTION_SQUARES, construction, strict=True) if b is None}
    return tuple(square for square in SQUARES if square not in blocked and square not in empty)


def barred(occupied: Mapping[Any, tuple[Cowboy, ...]], position: Mapping[Any, int], seat: int,
           red_sheriff: bool) -> list[int]:
    """The positions among the moves listed (`position`, by spot) of the occupied spots `seat` may not join.
    RULING B7: one cowboy per player except on Wages and Road, which take anyone, even beside the white cowboy,
    because nobody duels there (B6); elsewhere nobody joins the white cowboy (B6); the red Sheriff starts no duel
    (`000` "Sheriff", red side). The red Singer's cowboy never duels, so the others join as if it were absent, but
    its player has a cowboy there (decision D43); so does a cowboy with the yellow Singer's chip (RULING G9).

    One plain pass over the occupied spots, in one call: placement asks this of every occupied spot at every
    decision."""
    found: list[int] = []
    for spot, cowboys in occupied.items():
        n = position.get(spot)
        if n is None or spot in _CROWDED:
            continue
        rivals = False
        for c in cowboys:
            if c.seat == seat:
                break
            if c.singer or c.no_duel:  # the Singer's cowboys never duel: the others join as if they were absent
                continue
            if c.white:
                break
            rivals = True
        else:
            if not rivals or not red_sheriff:
                continue
        found.append(n)
    return found


_CROWDED: Final = frozenset(square for square, spec in SQUARES.items() if spec.many)  # Wages and Road


def may_join(cowboys: tuple[Cowboy, ...] | None, seat: int, red_sheriff: bool) -> bool:
    """Whether `seat` may join the cowboys on one parcel (`barred`, asked of that spot alone); anyone may go to a
    spot nobody is on (None or empty), which is most of them, so those are answered without asking."""
    return not cowboys or not barred({None: cowboys}, {None: 0}, seat, red_sheriff)


class Rows(NamedTuple):
    """Moves in the order they are listed, and each spot's position among them (a square's name, a parcel's
    index): the placement lists them all but for the few spots a seat may not join (`extend_without`)."""

    moves: tuple[PlaceCowboy, ...]
    position: dict[Any, int]


@lru_cache(maxsize=256)
def _square_rows(squares: tuple[str, ...]) -> Rows:
    """The moves onto the open squares, once for each set of them (`open_squares` changes a few times a round)."""
    return Rows(tuple(_PLACE_ON_SQUARE[square] for square in squares), {square: n for n, square in enumerate(squares)})


def _land_rows(parcels: tuple[Parcel, ...]) -> tuple[Rows, Rows]:
    """The moves onto the owner-free land, plainly and with the purchase answered ahead, once per board."""
    land = owner_free_land(parcels)
    position = {index: n for n, index in enumerate(land)}
    return Rows(tuple(map(_PLACE_ON_PARCEL.__getitem__, land)), position), \
        Rows(tuple(map(BUY_AHEAD_ON_PARCEL.__getitem__, land)), position)


class Board(NamedTuple):
    """What the board alone tells the placement, worked out once per board (`about_parcels`): the moves onto the
    owner-free land, plainly and with the purchase answered ahead, and the parcels a cowboy may go to for a duel —
    the buildings to attack or defend, then the outlaws' parcels."""

    on_land: Rows
    bought_ahead: Rows
    duels: tuple[int, ...]


def _board(parcels: tuple[Parcel, ...]) -> Board:
    on_land, bought_ahead = _land_rows(parcels)
    return Board(on_land, bought_ahead, (*attackable_buildings(parcels), *fightable(parcels)))


def extend_without(moves: list[PlaceCowboy], rows: Rows, barred: list[int]) -> None:
    """Append the rows' moves to `moves` but those at the `barred` positions, in order: the rows appended at once
    and a deletion for each barred spot, rather than a test of every spot (most are free at every placement, only
    the occupied few are asked whether the seat may join), and no list of their own to copy again."""
    start = len(moves)
    moves += rows.moves
    if barred:
        for position in sorted(barred, reverse=True):
            del moves[start + position]


def cowboy_spots(
    s: GameState, seat: int, squares: tuple[str, ...] | None = None, *, ahead: bool = False
) -> list[PlaceCowboy]:
    """Where `seat` may put one of its own cowboys now: a square, an owner-free parcel, the City Hall, a building
    (attack or defend) or an outlaw's parcel (`000` "Cowboy Placement", RULINGS B6, B7, G2; decision D52). The
    placement phase offers these, and the Doctor chooses among them (RULING G11). With `ahead` (the placement, for
    a player with a property tile left), each owner-free parcel once more with its purchase answered ahead (D106).

    Only the occupied spots are asked whether the seat may join (`barred`); every free open square and every
    free owner-free parcel is listed as it stands (`Rows`)."""
    red_sheriff = s.holds(seat, "sheriff", "red")
    spots = s.parcel_cowboys
    # Plain loops over the few occupied spots: a comprehension is a function made and called at every placement.
    on_squares = _square_rows(open_squares(s) if squares is None else squares)
    moves: list[PlaceCowboy] = []
    extend_without(moves, on_squares, barred(s.squares, on_squares.position, seat, red_sheriff))
    board = about_parcels(s, _board)
    on_land = board.on_land  # owner-free land: to buy it
    taken = barred(spots, on_land.position, seat, red_sheriff)
    extend_without(moves, on_land, taken)
    if ahead:
        extend_without(moves, board.bought_ahead, taken)
    # The City Hall: to occupy it, or to challenge its occupant (RULING G2); the white cowboy never (below). With an
    # outlaw on it, to fight the outlaw, as on any outlaw's parcel below (RULING G14).
    if s.city_hall is not None and not s.parcels[s.city_hall].outlaw \
            and may_join(spots.get(s.city_hall), seat, red_sheriff):
        moves.append(_PLACE_ON_PARCEL[s.city_hall])
    # Buildings: to attack or defend; parcels with an outlaw: to fight it, which is a duel (`001` "How to
    # Fight an Outlaw?", decision D52: the red Sheriff only on his own building).
    heroes = _heroes(s) if "big_box" in s.config.expansions else ()
    for index in board.duels:
        parcel = s.parcels[index]
        if heroes and not parcel.outlaw and (seat in heroes or parcel.owner in heroes):
            continue  # the Heroes attack nobody and nobody attacks them, so nothing is to defend (RULING X5)
        defending = parcel.owner == seat and parcel.content in BUILDINGS
        if red_sheriff and not defending:
            continue  # the red Sheriff may not attack
        if may_join(spots.get(index), seat, red_sheriff and not defending):
            moves.append(_PLACE_ON_PARCEL[index])
    return moves


def _heroes(s: GameState) -> tuple[int, ...]:
    """The seats holding the Heroes this round (RULING X5)."""
    return tuple(p.seat for p in s.players if shielded(s, p.seat))
