"""legal_moves(state, seat): every move the seat may submit now — the single truth about legality.

A move is a JSON object with a "type"; `decide` accepts exactly the moves listed here. One function per kind of
decision (`registry.LEGAL`), named after the decision: the base game's below, the families' in their own modules
(`app.rules.families`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import is_
from typing import TYPE_CHECKING, Any, Final, cast

import app.rules.families  # noqa: F401  (every family registers its decisions' moves before they are listed)
from app.rules.cash_limit import cash_limit
from app.rules.catalog import BUILDINGS, BUY_VP_PRICE, NO_DUEL_CHIP_SQUARES, PERSONALITIES, SQUARES
from app.rules.characters import may_place_singer_cowboy
from app.rules.construction import has_property_tile
from app.rules.decisions import Awaiting, Decision
from app.rules.duels import purchase_singles, purchase_spots
from app.rules.dynamite import with_dynamite
from app.rules.flow import awaiting
from app.rules.income import attackable_buildings
from app.rules.model import GameState, Parcel, about_parcels
from app.rules.outlaws import estate_duels
from app.rules.prices import parcel_price
from app.rules.registry import LEGAL, lists
from app.rules.registry import LEGAL as MOVES_BY_KIND
from app.rules.spots import COORDINATES, claimable, cowboy_spots, open_squares, xy

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import ChoosePersonality, Move, PlaceWhiteCowboy

__all__ = [
    "MOVES_BY_KIND", "cowboy_spots", "is_legal", "legal_moves", "legal_moves_read_only", "legal_moves_view",
    "open_squares",
]

_CHOOSE: dict[str, tuple[ChoosePersonality, ...]] = {
    card: tuple({"type": "choose_personality", "card": card, "side": side} for side in ("yellow", "red"))
    if p.holder_chooses_side else ({"type": "choose_personality", "card": card},)
    for card, p in PERSONALITIES.items()
}


@lists(Decision.START_PARCEL)
def _start_parcel(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """Any owner-free parcel, mountain or centre included, river excluded (RULING B19)."""
    return claimable(s, seat)


@lists(Decision.PERSONALITY)
def _personality(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The cards not taken yet; a card whose holder chooses its side is chosen with a side (the Doctor /
    Undertaker, `001`; decision D73)."""
    taken = {p.personality for p in s.players}
    money = s.players[seat].money
    return [
        move
        for card in s.cards
        if card not in taken and money >= -PERSONALITIES[card].yellow.money  # the Newspaper Boy's $3 (D94)
        for move in _CHOOSE[card]
        # a Doctor / Undertaker a Newspaper Boy copied shows the side he named (decision D95)
        if card not in s.sides or not PERSONALITIES[card].holder_chooses_side or move["side"] == s.sides[card]
    ]


def _no_duel_placements(s: GameState, seat: int) -> list[Move]:
    """The yellow Singer's cowboy with a "no duel" chip: on the squares of RULING G9 that are open, wherever the
    player has no cowboy yet (one per player, RULING B7), even beside the white cowboy or a duel."""
    return [
        {"type": "place_cowboy", "square": square, "no_duel": True}
        for square in open_squares(s)
        if square in NO_DUEL_CHIP_SQUARES and not any(c.seat == seat for c in s.squares.get(square, ()))
    ]


@lists(Decision.PLACEMENT)
def _placement(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """Place a cowboy on a square, an owner-free parcel or a building (attack or defend), or pass
    (`000` "Cowboy Placement", RULINGS B6, B7); on an owner-free parcel, also with its purchase answered ahead
    (decision D106)."""
    p = s.players[seat]
    moves: list[Move] = []
    squares = open_squares(s)
    spots = s.parcel_cowboys
    ahead = has_property_tile(s, seat)  # a purchase may be answered ahead (decision D106)
    if p.cowboys > 0:
        moves += cowboy_spots(s, seat, squares, ahead=ahead)
        if p.dynamite:
            moves += with_dynamite(s, seat, moves)  # the same places with a dynamite chip (RULING G7)
        if p.no_duel_chips:
            moves += _no_duel_placements(s, seat)
    if s.singer_cowboy and may_place_singer_cowboy(s, seat):  # only while the red Singer's cowboy waits
        moves.append({"type": "place_singer_cowboy"})
    if s.white_cowboy and s.holds(seat, "sheriff", "yellow"):
        for square in squares:
            if not s.squares.get(square):
                moves.append(_WHITE_ON_SQUARE[square])
        for index, owner, plain, bought_ahead in about_parcels(s, _white_spots):
            if spots.get(index):
                continue
            if owner is None:  # owner-free land, but the City Hall's
                if index != s.city_hall:
                    moves += bought_ahead if ahead else plain
            elif owner == seat:  # the seat's own building, to defend it
                moves += plain
    moves.append(_PASS)
    return moves


_PASS: Final[Move] = {"type": "pass"}
# The white cowboy's moves, built once (see `_BUY` below).
_WHITE_ON_SQUARE: Final[dict[str, Move]] = {
    square: {"type": "place_white_cowboy", "square": square} for square in SQUARES
}
_WHITE_ON_PARCEL: Final[tuple[PlaceWhiteCowboy, ...]] = tuple(
    {"type": "place_white_cowboy", "x": spot["x"], "y": spot["y"]} for spot in COORDINATES
)
_WHITE_BUYING: Final[tuple[PlaceWhiteCowboy, ...]] = tuple(
    {"type": "place_white_cowboy", "x": spot["x"], "y": spot["y"], "buy": True} for spot in COORDINATES
)


def _white_spots(parcels: tuple[Parcel, ...]) -> tuple[tuple[int, int | None, tuple[Move, ...], tuple[Move, ...]], ...]:
    """The parcels the white cowboy may go to, once per board, in parcel order (RULING B6): owner-free land off
    the river without an outlaw (owner None), and the attackable buildings (by owner), each with its moves —
    plainly, and with the purchase answered ahead (decision D106), which only land takes."""
    attackable = attackable_buildings(parcels)
    spots: list[tuple[int, int | None, tuple[Move, ...], tuple[Move, ...]]] = []
    for index, parcel in enumerate(parcels):
        plain = (_WHITE_ON_PARCEL[index],)
        if parcel.owner is None and not parcel.river and not parcel.outlaw:
            spots.append((index, None, plain, (*plain, _WHITE_BUYING[index])))
        elif parcel.owner is not None and parcel.content in BUILDINGS and index in attackable:
            spots.append((index, parcel.owner, plain, plain))
    return tuple(spots)


@lists(Decision.CHOOSE_DUEL)
def _choose_duel(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The contested parcels, or at the estate income the outlaw fights and the contested buildings (G15)."""
    if s.step == "parcel_purchase":
        return [{"type": "resolve_duel", **xy(index)} for index, seats in purchase_spots(s).items() if len(seats) > 1]
    return [{"type": "resolve_duel", **xy(index)} for index in estate_duels(s)]


# Each parcel's purchase and its refusal, built once: listed at every purchase, handed out only as copies or
# read-only (`legal_moves_read_only`).
_BUY: Final[tuple[Move, ...]] = tuple({"type": "buy_parcel", **xy(index)} for index in range(len(COORDINATES)))
_DECLINE: Final[tuple[Move, ...]] = tuple(
    {"type": "decline_parcel", **xy(index)} for index in range(len(COORDINATES))
)


@lists(Decision.BUY_PARCEL)
def _buy_parcel(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    money = s.players[seat].money
    tile = has_property_tile(s, seat)
    moves: list[Move] = []
    for index in purchase_singles(s, seat):
        if tile and parcel_price(s, index) <= money:
            moves.append(_BUY[index])
        moves.append(_DECLINE[index])
    return moves


@lists(Decision.BUY_VP)
def _buy_vp(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    price = BUY_VP_PRICE[s.step]
    return [{"type": "buy_vp", "count": n} for n in range(s.players[seat].money // price + 1)]


@lists(Decision.CASH_LIMIT)
def _cash_limit(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """Give up at least the excess, at most everything (`000` "End of Round")."""
    money = s.players[seat].money
    limit = cash_limit(s, seat)
    assert limit is not None
    return [{"type": "give_up_money", "amount": amount} for amount in range(money - limit, money + 1)]


def legal_moves(s: GameState, seat: int) -> list[dict[str, Any]]:
    """Every move `seat` may submit now, as JSON objects the caller may keep and change (copies); empty when
    nothing is awaited from that seat.

    Each move is copied with `dict.copy`, which clones a small dict's table at once, where `dict(move)` inserts
    its keys one by one: the copies are most of what this costs (a placement lists some thirty moves)."""
    moves = cast("list[dict[str, Any]]", legal_moves_view(s, seat))  # TypedDicts: plain dicts at run time
    return list(map(dict.copy, moves))


def legal_moves_read_only(s: GameState, seat: int) -> Sequence[Mapping[str, Any]]:
    """`legal_moves` without the copies, for a caller that only reads them and plays one as it is (the simulation,
    a bot's search): the moves the state keeps, so `play` recognises one of them at once instead of comparing it
    with the candidates value by value. Never change them: the state hands the same ones out again."""
    moves: list[Move] | None = s.memo.get(seat)  # `legal_moves_view`'s memo read here: one call less a decision
    return moves if moves is not None else legal_moves_view(s, seat)


def legal_moves_view(s: GameState, seat: int, waiting: Awaiting | None = None) -> list[Move]:
    """`legal_moves` without the defensive copies, for the core's own read-only use (memoised per state, under
    the seat's number); `waiting`: what the state awaits, when the caller knows it already."""
    moves: list[Move] | None = s.memo.get(seat)
    if moves is None:
        if waiting is None:
            waiting = awaiting(s)
        moves = s.memo[seat] = LEGAL[waiting.kind](s, seat, waiting) if waiting and seat in waiting.seats else []
    return moves


def is_legal(s: GameState, seat: int, move: Mapping[str, Any]) -> bool:
    """Whether `move` is one of `legal_moves(s, seat)`, value for value and type for type (so `true` is not `1`
    and `1.0` is not `1`): the test `decide` applies, so the two never disagree."""
    kept: Sequence[Mapping[str, Any]] | None = s.memo.get(seat)  # `legal_moves_view`'s memo, read here
    candidates: Sequence[Mapping[str, Any]] = legal_moves_view(s, seat) if kept is None else kept
    if any(map(is_, candidates, repeat(move))):  # one of the very moves listed (`legal_moves_read_only`)
        return True
    try:
        candidate = candidates[candidates.index(move)]
    except ValueError:
        return False
    # Field for field, the candidate's type and the move's, compared in C (a placement lists a hundred moves).
    return all(map(is_, map(type, candidate.values()), map(type, map(move.__getitem__, candidate))))
