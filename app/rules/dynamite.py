"""Dynamite and the red Gunsmith (`001` "The Prospector (9)" and "The Gunsmith (10)", variants; RULING G7;
decisions D57-D64).

The box holds 7 dynamite chips (`001` "Components"). The red Prospector receives two when chosen, the red Gunsmith
one, as the supply allows; a player keeps their chips until they use them, and a used chip goes back to the
supply (decision D57). A chip is used once, either

- at the estate income, to triple the income of one of its holder's mines (an attacker takes half of the tripled
  income; never on a mine the Grocer doubles), or
- with a cowboy at placement: that cowboy's duel is fought with two dice added together (two tiles with Might Is
  Right); without a duel the chip is lost. On the player's own mine it does both (`001`'s note).

The red Gunsmith may roll again once in each duel, outlaw fights included, and with Might Is Right plays his
tile after his opponents have shown theirs. Where these rules touch a duel, the duel's own module reads them
(`duels.throw`, `duels.dynamite_seats`); the decisions are asked and answered in `families.dynamite` (with Might
Is Right, `families.might_is_right`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from app.rules.catalog import DYNAMITE_CHIPS, DYNAMITE_DICE, SQUARES, Side
from app.rules.duels import dynamite_seats
from app.rules.events import DuelFought, DuelTarget, DuelTilesRevealed, OutlawFought, RevealedTile
from app.rules.income import earned, grocer_doubles
from app.rules.model import GameState, replace
from app.rules.rng import Rng

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Move, PlaceCowboy, PlayTile

MINE = "mine"
DIE_FACES = 6
Fought = Callable[[GameState, DuelTarget, list[int], Rng], DuelFought | OutlawFought]


# --- the chips (R-GG-5, R-GG-8) ----------------------------------------------------------------------------------


def dynamite_in_supply(s: GameState) -> int:
    """The chips neither held by a player nor standing with a cowboy (used chips are back in the box, D57)."""
    held = sum(p.dynamite for p in s.players)
    placed = sum(1 for spot in (*s.squares.values(), *s.parcel_cowboys.values()) for c in spot if c.dynamite)
    return DYNAMITE_CHIPS - held - placed


def chips_received(s: GameState, side: Side) -> int:
    """What a card's side gives at once: its chips, as far as the supply holds them (`001`: "if available")."""
    return min(side.dynamite, dynamite_in_supply(s)) if side.dynamite else 0


# --- a chip with a cowboy (R-GG-6) -------------------------------------------------------------------------------


def may_duel_there(move: Move) -> bool:
    """Whether a cowboy placed by `move` could ever duel there: never on Wages and Road, which take any number
    of cowboys (RULING B6), so no chip is offered there (decision D59)."""
    return move["type"] == "place_cowboy" and not ("square" in move and SQUARES[move["square"]].many)


def with_dynamite(s: GameState, seat: int, moves: Iterable[Move]) -> list[Move]:
    """The placements of `moves` again, each with a dynamite chip, for a player who holds one (RULING G7)."""
    if not s.players[seat].dynamite:
        return []
    offered: list[Move] = []
    for move in moves:
        if move["type"] == "place_cowboy" and may_duel_there(move):
            placed: PlaceCowboy = {**move, "dynamite": True}
            offered.append(placed)
    return offered


def tile_pairs(hand: Sequence[int]) -> list[Move]:
    """Might Is Right with dynamite: every pair of tiles of the hand, smaller first (RULING G7: "play two
    tiles"); a hand of one tile plays it alone (decision D61)."""
    counts = Counter(hand)
    values = sorted(counts)
    pairs: list[Move] = []
    for i, first in enumerate(values):
        for second in values[i:]:
            if first != second or counts[first] > 1:
                move: PlayTile = {"type": "play_tile", "tile": first, "second": second}
                pairs.append(move)
    return pairs


def plays_two_tiles(s: GameState, seat: int, target: DuelTarget | None) -> bool:
    return target is not None and seat in dynamite_seats(s, target) and len(s.players[seat].tiles) > 1


# --- a chip on a mine (R-GG-6) ------------------------------------------------------------------------------------


def dynamite_targets(s: GameState, seat: int) -> list[int]:
    """The seat's mines a chip may triple now: a mine that earns something this round, not tripled yet, and not
    one the Grocer doubles (`001`: "You may not perform this action in combination with the grocer")."""
    return [
        index
        for index, parcel in enumerate(s.parcels)
        if parcel.owner == seat and parcel.content == MINE and index not in s.dynamite_mines
        and earned(s, index) > 0 and not grocer_doubles(s, index)
    ]


def dynamite_deciders(s: GameState) -> tuple[int, ...]:
    """Who is asked at the estate income, all at once (their choices do not touch each other, decision D60):
    every holder of a chip with a mine to triple who has not said they are done."""
    return tuple(
        seat for seat in s.placement_order
        if s.players[seat].dynamite and seat not in s.dynamite_done and dynamite_targets(s, seat)
    )


# --- the red Gunsmith (R-GG-8) -----------------------------------------------------------------------------------


def rerolling_seat(s: GameState, seats: Iterable[int]) -> int | None:
    """The duellist holding the red Gunsmith, if one does."""
    for seat in seats:
        side = s.side(seat)
        if side is not None and side.rerolls:
            return seat
    return None


def reroll_may_win(s: GameState, target: DuelTarget, seats: list[int], fought: Fought, seat: int, rng: Rng) -> bool:
    """Whether the Gunsmith is asked: he does not win with his first throw (in `s.duel_rolls`), and his best
    possible throw would win (decision D62) — otherwise a new roll could change nothing for him."""
    if fought(s, target, seats, rng)["winner"] == seat:
        return False
    first = s.duel_rolls[seat]
    best = DIE_FACES * (DYNAMITE_DICE if first.get("dynamite") else 1)
    hoped = replace(s, duel_rolls={**s.duel_rolls, seat: {"roll": best}})
    return fought(hoped, target, seats, rng)["winner"] == seat


def tiles_revealed(s: GameState, target: DuelTarget, seat: int) -> DuelTilesRevealed:
    """Might Is Right: the red Gunsmith's opponents' tiles, shown to the table before he plays his (`001`: "you
    select and play your duel tile after your opponents")."""
    tiles: list[RevealedTile] = []
    for other, tile in sorted(s.duel_tiles.items()):
        shown: RevealedTile = {"seat": other, "tile": tile}
        if other in s.duel_second_tiles:
            shown["second"] = s.duel_second_tiles[other]
        tiles.append(shown)
    return {"type": "duel_tiles_revealed", "target": target.copy(), "seat": seat, "tiles": tiles}
