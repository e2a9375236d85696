"""Might Is Right (variant, `000` "Might Is Right"; RULING V2): duels are fought with secret tiles instead of dice.
Every hand is dealt at setup; before a duel, each duellist chooses a tile in secret, then all are revealed
together and the duel is fought; an empty hand draws three tiles from the used pile. With Gold & Guns, a dynamite
chip plays two tiles, and the red Gunsmith plays his after his opponents' are shown (RULING G7).

The duel itself is every duel's (`duels.fight`, `flow.duel_step`); the played tiles go to the used pile in
`draft.duel_outcome`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.catalog import MIGHT_REDRAW
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import evolve, replace, update_player
from app.rules.dynamite import Fought, plays_two_tiles, tile_pairs, tiles_revealed
from app.rules.events import DuelTarget, DuelTileChosen, DuelTilesRevealed, Event, TilesDealt, TilesDrawn
from app.rules.model import GameState
from app.rules.registry import Step, handles, lists, move_handler
from app.rules.rng import Rng
from app.rules.steps import at_once

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Move, PlayTile


@handles("tiles_dealt")
def _tiles_dealt(s: GameState, e: TilesDealt) -> GameState:
    for seat, hand in enumerate(e["hands"]):
        s = update_player(s, seat, tiles=tuple(hand))
        if "money" in e:
            s = update_player(s, seat, money=e["money"][seat])
    return s


def tiles_step(s: GameState, target: DuelTarget, seats: list[int], fought: Fought, gunsmith: int | None) -> Step:
    """A duel's secret tiles: those involved choose theirs, the red Gunsmith (`gunsmith`, if he duels) after his
    opponents have shown theirs (RULING G7); then the tiles are revealed and the duel is fought."""
    missing = tuple(seat for seat in seats if seat not in s.duel_tiles)
    if gunsmith in missing and len(seats) > 1:  # the red Gunsmith plays after his opponents have shown theirs
        assert gunsmith is not None
        others = tuple(seat for seat in missing if seat != gunsmith)
        if others:
            return Awaiting(Decision.DUEL_TILE, others, target)
        if not s.duel_tiles_revealed:
            return at_once(tiles_revealed(s, target, gunsmith))
    if missing:
        return Awaiting(Decision.DUEL_TILE, missing, target)

    def reveal(rng: Rng) -> list[Event]:
        duel = fought(s, target, seats, rng)
        after = evolve(s, duel)
        events: list[Event] = [duel]
        for seat in seats:  # an empty hand takes three tiles at random from the used pile (`000`)
            if not after.players[seat].tiles and after.used_tiles:
                pile = list(after.used_tiles)
                drawn = [pile.pop(rng.choice(range(len(pile)))) for _ in range(min(MIGHT_REDRAW, len(pile)))]
                draw: TilesDrawn = {"type": "tiles_drawn", "seat": seat, "tiles": sorted(drawn)}
                after = evolve(after, draw)
                events.append(draw)
        return events

    return reveal


@lists(Decision.DUEL_TILE)
def _duel_tile(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """One tile of one's hand (RULING V2), two with a dynamite chip (RULING G7)."""
    if plays_two_tiles(s, seat, waiting.target):
        return tile_pairs(s.players[seat].tiles)
    return [{"type": "play_tile", "tile": tile} for tile in sorted(set(s.players[seat].tiles))]


@move_handler("play_tile")
def _play_tile(s: GameState, seat: int, move: PlayTile, rng: Rng, kind: Decision) -> list[Event]:
    chosen: DuelTileChosen = {"type": "duel_tile_chosen", "seat": seat, "tile": move["tile"]}
    if "second" in move:  # dynamite: two tiles (RULING G7)
        chosen["second"] = move["second"]
    return [chosen]


@handles("duel_tile_chosen")
def _duel_tile_chosen(s: GameState, e: DuelTileChosen) -> GameState:
    if "second" in e:  # dynamite: a second tile (RULING G7)
        s = replace(s, duel_second_tiles={**s.duel_second_tiles, e["seat"]: e["second"]})
    return replace(s, duel_tiles={**s.duel_tiles, e["seat"]: e["tile"]})


@handles("duel_tiles_revealed")
def _duel_tiles_revealed(s: GameState, e: DuelTilesRevealed) -> GameState:
    """The opponents' tiles are shown to the table before the red Gunsmith plays his."""
    return replace(s, duel_tiles_revealed=True)


@handles("tiles_drawn")
def _tiles_drawn(s: GameState, e: TilesDrawn) -> GameState:
    used = list(s.used_tiles)
    for tile in e["tiles"]:
        used.remove(tile)
    s = update_player(s, e["seat"], tiles=tuple(sorted((*s.players[e["seat"]].tiles, *e["tiles"]))))
    return replace(s, used_tiles=tuple(used))
