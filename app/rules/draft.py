"""evolve(state, event) -> state: one event applied by the effect registered for its type (`registry.EFFECTS`), and
the helpers the effects of the base game and of the families share to write it.

An effect never validates and never draws: everything random or chosen is already inside the event. It works on
a fresh copy of the state that nobody else holds yet (the draft), so an event costs one copy of the state however
many fields it changes; the state it was made from is never changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from app.rules.board import parcel_index
from app.rules.catalog import CONSTRUCTION_INDEX, PERSONALITIES, SHERIFF_RED_VP_PER_LOST_DUEL
from app.rules.construction import ownership_carried
from app.rules.defeats import defeated_cowboys
from app.rules.events import (
    PRIVATE_EVENTS,
    BuildingBought,
    BuildingTaken,
    CardCopied,
    Duelist,
    Event,
    PersonalityChosen,
    private_to,
)
from app.rules.model import Construction, GameState, PlayerState, replace_player, successor
from app.rules.model import replace as model_replace
from app.rules.registry import EFFECTS

T = TypeVar("T")


def evolve(s: GameState, event: Event) -> GameState:
    """Apply one event. Unknown event types are a programming error, not a player's."""
    draft = successor(s, s.seq + 1)
    kind = event["type"]
    if kind in PRIVATE_EVENTS:  # `private_to`, asked here only of the few event types it may answer for
        _count_private(draft, event)
    return EFFECTS[kind](draft, event)


def fold(s: GameState, events: Iterable[Event]) -> GameState:
    """Apply the events in order, as `evolve` does one by one; but the states between them, which nobody is
    handed, are one draft each event writes on in turn rather than a copy per event (the copy is the fold's
    largest cost). What was worked out from the draft before its next event (`memo`) is dropped, as a new state's
    is."""
    draft: GameState | None = None
    for event in events:
        if draft is None:
            draft = successor(s, s.seq + 1)
        else:
            values = draft.__dict__
            values["seq"] += 1
            if values["memo"]:
                values["memo"] = {}
        kind = event["type"]
        if kind in PRIVATE_EVENTS:
            _count_private(draft, event)
        s = EFFECTS[kind](draft, event)
        if s is not draft:  # an effect handed back another state, which others may hold: copied for the next
            draft = None
    return s


def _count_private(draft: GameState, event: Event) -> None:
    """Count an event only its owner may know of (`events.private_to`), asked only of the few event types it may
    answer for."""
    owner = private_to(event)
    assert owner is not None
    private = draft.private_events
    replace(draft, private_events={**private, owner: private.get(owner, 0) + 1})


def replace(obj: T, **changes: Any) -> T:
    """Change the draft state in place; any other (shared) value is copied with its changes."""
    if type(obj) is GameState:
        obj.__dict__.update(changes)
        return obj
    return model_replace(obj, **changes)


# --- the players ----------------------------------------------------------------------------------------------


def with_player(players: tuple[PlayerState, ...], seat: int, **changes: Any) -> tuple[PlayerState, ...]:
    changed = list(players)
    changed[seat] = replace_player(players[seat], changes)
    return tuple(changed)


def update_player(s: GameState, seat: int, **changes: Any) -> GameState:
    """Change one player of the draft (`with_player` written into the draft directly: the effects call this at
    most events)."""
    players = list(s.players)
    players[seat] = replace_player(players[seat], changes)
    s.__dict__["players"] = tuple(players)
    return s


def gain(s: GameState, seat: int, money: int = 0, vp: int = 0, roads: int = 0, cowboys: int = 0,
         revolvers: int = 0) -> GameState:
    p = s.players[seat]
    return update_player(
        s, seat, money=p.money + money, vp=p.vp + vp, roads=p.roads + roads, cowboys=p.cowboys + cowboys,
        revolvers=p.revolvers + revolvers,
    )


def add_dynamite(s: GameState, seat: int, change: int) -> GameState:
    """Dynamite chips received (or used, `change` negative) by `seat` (RULING G7)."""
    return update_player(s, seat, dynamite=s.players[seat].dynamite + change)


# --- the board ------------------------------------------------------------------------------------------------


def index_of(e: Mapping[str, Any]) -> int:
    """The parcel an event names by its `x` and `y`."""
    return parcel_index(e["x"], e["y"])


def set_parcel(s: GameState, index: int, **changes: Any) -> GameState:
    before = s.parcels
    parcels = list(before)
    parcels[index] = model_replace(before[index], **changes)
    s.__dict__["parcels"] = tuple(parcels)  # written into the draft directly, as `update_player` does
    ownership_carried(s, before, index)
    return s


def clear_square(s: GameState, square: str | None) -> GameState:
    if square is None or square not in s.squares:
        return s
    squares = dict(s.squares)
    del squares[square]
    return replace(s, squares=squares)


def square_done(s: GameState, square: str | None, seat: int) -> GameState:
    """The cowboys of `seat` have performed the square's action and leave it. The others stay only beside a
    cowboy that never duels, which acts first (RULING G9); otherwise the performer is the last one there."""
    if square is None or square not in s.squares:
        return s
    for c in s.squares[square]:
        if c.seat != seat:
            break
    else:  # the usual case, and the only one without a chip: a plain loop, as this runs at every action
        return clear_square(s, square)
    squares = dict(s.squares)
    squares[square] = tuple(c for c in squares[square] if c.seat != seat)
    return replace(s, squares=squares)


def clear_parcel(s: GameState, index: int) -> GameState:
    if index not in s.parcel_cowboys:
        return s
    spots = dict(s.parcel_cowboys)
    del spots[index]
    s.__dict__["parcel_cowboys"] = spots  # written into the draft directly: every purchase clears its parcel
    return s


def remove_cowboys(s: GameState, target: Mapping[str, Any], seats: Iterable[int]) -> GameState:
    """Take the cowboys of `seats` off a square or parcel (not the white cowboy, which never duels)."""
    gone = set(seats)
    if "square" in target:
        squares = dict(s.squares)
        squares[target["square"]] = tuple(c for c in squares[target["square"]] if c.seat not in gone)
        return replace(s, squares=squares)
    index = index_of(target)
    spots = dict(s.parcel_cowboys)
    spots[index] = tuple(c for c in spots[index] if c.seat not in gone)
    return replace(s, parcel_cowboys=spots)


# --- effects shared by several events -------------------------------------------------------------------------


def card_taken(s: GameState, seat: int, e: PersonalityChosen | CardCopied) -> GameState:
    """What a card chosen or copied gives at once; its side, when its holder names it; its decision, if any."""
    s = gain(s, seat, money=e.get("money", 0), roads=e.get("roads", 0))
    if "dynamite" in e:
        s = add_dynamite(s, seat, e["dynamite"])
    if "no_duel_chips" in e:
        s = update_player(s, seat, no_duel_chips=e["no_duel_chips"])
    if "horses" in e:  # Big Box's Cowboy (RULING X6)
        s = update_player(s, seat, horses=s.players[seat].horses + e["horses"])
    if e["card"] not in s.sides and PERSONALITIES[e["card"]].holder_chooses_side:  # the Doctor / Undertaker
        s = replace(s, sides={**s.sides, e["card"]: e["side"]})
    side = PERSONALITIES[e["card"]].side(s.sides.get(e["card"], "yellow"))
    return replace(s, card_decision=seat if side.decision else None)


def building_to_player(s: GameState, e: BuildingTaken | BuildingBought, source: str) -> GameState:
    """A building leaves its construction square for the player's reserve; its construction begins."""
    seat = e["seat"]
    construction = list(s.construction)
    construction[CONSTRUCTION_INDEX[e["square"]]] = None
    p = s.players[seat]
    s = update_player(s, seat, money=p.money - e["price"], buildings=(*p.buildings, e["building"]))
    return replace(s, construction=tuple(construction), work=Construction(seat, source, e["building"]),
                   card_decision=None)


def duel_outcome(
    s: GameState, target: Mapping[str, Any], duelists: list[Duelist], winner: int | None, winner_vp: int,
    outlaw_fight: bool = False,
) -> GameState:
    """Every duellist but the winner goes back to their reserve (the red Sheriff scoring for each lost duel) —
    or, while the Doctor or the Undertaker is held, waits for its owner's decision (RULING G11); with Might Is
    Right the played tiles go to the used pile; the winner scores what winning gives (the yellow Gunsmith)."""
    losers = [d["seat"] for d in duelists if d["seat"] != winner]
    defeat = defeated_cowboys(s, losers, target, outlaw_fight)
    waiting = defeat.seats if defeat is not None else ()
    s = replace(remove_cowboys(s, target, losers), duel_target=None, defeat=defeat)
    if s.duel_rolls:  # the red Gunsmith's duel is over (RULING G7)
        s = replace(s, duel_rolls={}, reroll_pending=False)
    if s.config.might_is_right:  # played tiles go to the used pile (`000` "Might Is Right")
        used = list(s.used_tiles)
        for d in duelists:
            hand = list(s.players[d["seat"]].tiles)
            played = [d["tile"], d["second_tile"]] if "second_tile" in d else [d["tile"]]  # dynamite: two (G7)
            for tile in played:
                hand.remove(tile)
                used.append(tile)
            s = update_player(s, d["seat"], tiles=tuple(hand))
        s = replace(s, used_tiles=tuple(sorted(used)), duel_tiles={})
        if s.duel_second_tiles or s.duel_tiles_revealed:
            s = replace(s, duel_second_tiles={}, duel_tiles_revealed=False)
    for seat in losers:
        vp = SHERIFF_RED_VP_PER_LOST_DUEL if s.holds(seat, "sheriff", "red") else 0
        s = gain(s, seat, cowboys=0 if seat in waiting else 1, vp=vp)
    if winner is not None and winner_vp:
        s = gain(s, winner, vp=winner_vp)
    return s
