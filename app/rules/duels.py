"""Duels (`000` "Performing The Actions and Duels"; RULINGS B8, B9).

Who duels where: a parcel or building with one player's cowboys is theirs to buy or attack, one with several
players' cowboys is fought over. Strength = one die + firepower at the moment of the duel; the highest wins; a
tie goes to the tied player who passed earliest this round. Every die is written into the `duel_fought` event.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.rules.board import parcel_index
from app.rules.catalog import BUILDINGS, CONSTRUCTION_INDEX, DYNAMITE_DICE
from app.rules.events import DuelFought, Duelist, DuelTarget, Throw
from app.rules.income import firepower
from app.rules.model import Cowboy, GameState
from app.rules.rng import Rng


def duelling_seats(cowboys: Iterable[Cowboy]) -> list[int]:
    """The distinct players with a cowboy on a spot, in the order they arrived; the red Singer's cowboy never
    duels (`001` "The Singer (11)")."""
    seats: list[int] = []
    for c in cowboys:
        if c.seat not in seats and not c.singer:
            seats.append(c.seat)
    return seats


def earliest_passer(s: GameState, seats: Iterable[int]) -> int:
    """Among `seats`, the one who passed earliest this round (ties in duels, the duel-order picker)."""
    return min(seats, key=s.passing_order.index)


def purchase_spots(s: GameState) -> dict[int, list[int]]:
    """Who stands on each building-free parcel (memoised per state: the flow and the legal moves both ask)."""
    return _purchases(s)[0]


def attack_spots(s: GameState) -> dict[int, list[int]]:
    """Who stands on each building: its owner to defend it, the others to attack it (the City Hall is nobody's:
    its cowboys contend for it, `city_hall_contenders`; the cowboys on an outlaw's parcel fight the outlaw,
    `outlaws.fight_spots`; an outlaw's winner who stayed has taken the building's half already, RULING G13)."""
    on = s.parcel_cowboys
    return {
        index: duelling_seats(on[index])
        for index in sorted(on)
        if on[index] and s.parcels[index].content in BUILDINGS and index != s.city_hall and not s.parcels[index].outlaw
        and index not in s.attacks
    }


def city_hall_contenders(s: GameState) -> list[int]:
    """Everyone with a cowboy on the City Hall, its occupant first: more than one makes a duel (RULING G2). Nobody
    while an outlaw stands on it: they fight the outlaw instead (RULING G14, `outlaws.fight_spots`)."""
    if s.city_hall is None or s.parcels[s.city_hall].outlaw:
        return []
    return duelling_seats(s.parcel_cowboys.get(s.city_hall, ()))


def purchase_singles(s: GameState, seat: int) -> tuple[int, ...]:
    """The parcels where only `seat`'s cowboy stands: the purchases awaiting their decision, in parcel order."""
    found = s.memo.get("purchases")  # `_purchases`'s memo, read here: asked several times a purchase
    return (found or _purchases(s))[1].get(seat, ())


def lone_buyers(s: GameState) -> dict[int, tuple[int, ...]]:
    """Each seat with a parcel where only its cowboy stands, and those parcels (`purchase_singles`); memoised per
    state, as the flow, the legal moves and the purchase answered ahead all ask."""
    found = s.memo.get("purchases")
    return (found or _purchases(s))[1]


Purchases = tuple[dict[int, list[int]], dict[int, tuple[int, ...]]]


def _purchases(s: GameState) -> Purchases:
    """`purchase_spots` and `lone_buyers` in one pass over the parcels with cowboys, in parcel order, once per
    state (asked at every purchase); kept with the cowboys and the board it was worked out from, so that the
    state after a purchase starts from its parent's answer (`purchase_settled`) instead of working it out again."""
    found: Purchases | None = s.memo.get("purchases")
    if found is not None:
        return found
    found = kept_purchases(s)
    if found is not None:
        s.memo["purchases"] = found
        return found
    spots: dict[int, list[int]] = {}
    alone: dict[int, tuple[int, ...]] = {}
    parcels, on = s.parcels, s.parcel_cowboys
    for index in sorted(on):  # plain loops over the numbers sorted (not the pairs)
        cowboys = on[index]
        if cowboys and parcels[index].content not in BUILDINGS and not parcels[index].outlaw:
            if len(cowboys) == 1:  # `duelling_seats` of a lone cowboy, without the call: most parcels hold one
                seats = spots[index] = [] if cowboys[0].singer else [cowboys[0].seat]
            else:
                seats = spots[index] = duelling_seats(cowboys)
            if len(seats) == 1:
                alone[seats[0]] = (*alone.get(seats[0], ()), index)
    found = s.memo["purchases"] = spots, alone
    s.kept[_purchases] = (on, (parcels, found))
    return found


def kept_purchases(s: GameState) -> Purchases | None:
    """`_purchases`'s answer kept for these very cowboys and this very board, if there is one."""
    entry = s.kept.get(_purchases)
    if entry is None or entry[0] is not s.parcel_cowboys or entry[1][0] is not s.parcels:
        return None
    found: Purchases = entry[1][1]
    return found


def purchase_settled(s: GameState, index: int, before: Purchases | None) -> GameState:
    """Keep the purchases' answer of the draft `s` whose parcel `index` was just bought or declined, from the one
    `before` it (`kept_purchases`): the parcel's cowboys went home and its owner may have changed, nothing else,
    so the answer is the one before without that parcel (the state after a purchase asks again at once)."""
    if before is None:
        return s
    spots, alone = before
    seats = spots.get(index)
    if seats is not None:
        spots = {spot: seats for spot, seats in spots.items() if spot != index}
        if len(seats) == 1:
            alone = alone.copy()
            rest = tuple([spot for spot in alone[seats[0]] if spot != index])
            if rest:
                alone[seats[0]] = rest
            else:
                del alone[seats[0]]
    s.kept[_purchases] = (s.parcel_cowboys, (s.parcels, (spots, alone)))
    return s


def spot_cowboys(s: GameState, target: DuelTarget) -> tuple[Cowboy, ...]:
    """The cowboys on the square or parcel a duel is fought over."""
    if "square" in target:
        return tuple(s.squares.get(target["square"], ()))
    return tuple(s.parcel_cowboys.get(parcel_index(target["x"], target["y"]), ()))


def dynamite_seats(s: GameState, target: DuelTarget) -> frozenset[int]:
    """The duellists whose cowboy there carries a dynamite chip (RULING G7)."""
    return frozenset(c.seat for c in spot_cowboys(s, target) if c.dynamite)


def throw(s: GameState, seat: int, dynamite: bool, rng: Rng) -> Throw:
    """One duellist's roll: one die, or with dynamite two dice added together (`001` "The Prospector (9)"); the
    Marksman throws twice and keeps the higher (`000` "Rules adjusted to yucata"), the sum of both dice with
    dynamite (decision D61)."""
    count = DYNAMITE_DICE if dynamite else 1
    throws = 2 if s.players[seat].marksman else 1
    sums: list[int] = []
    dice: list[int] = []
    for _ in range(throws):
        rolled = [rng.die() for _ in range(count)]
        dice += rolled
        sums.append(sum(rolled))
    result: Throw = {"roll": max(sums)}
    if throws > 1:
        result["rolls"] = sums
    if dynamite:
        result["dynamite"] = True
        result["dice"] = dice
    return result


def duelists(s: GameState, target: DuelTarget, seats: list[int], rng: Rng) -> list[Duelist]:
    """Each duellist's die (or tile), firepower and strength at the moment of the duel (RULING B8); a throw already
    made while the red Gunsmith decided is taken as it stands (`s.duel_rolls`)."""
    dynamite = dynamite_seats(s, target)
    sides: list[Duelist] = []
    for seat in seats:
        power = firepower(s, seat)
        if s.config.might_is_right:  # the tile replaces the die (`000` "Might Is Right")
            tile = s.duel_tiles[seat]
            tiled: Duelist = {"seat": seat, "tile": tile, "firepower": power, "strength": tile + power}
            if seat in s.duel_second_tiles:  # a dynamite duellist plays two tiles (RULING G7)
                tiled["second_tile"] = s.duel_second_tiles[seat]
                tiled["strength"] += tiled["second_tile"]
            sides.append(tiled)
            continue
        thrown = s.duel_rolls.get(seat) or throw(s, seat, seat in dynamite, rng)
        duelist: Duelist = {"seat": seat, "roll": thrown["roll"], "firepower": power,
                            "strength": thrown["roll"] + power}
        sides.append({**duelist, **thrown})
    return sides


def strongest(s: GameState, sides: list[Duelist]) -> tuple[int, int]:
    """The best duellist's seat and strength; a tie goes to the tied player who passed earliest (RULING B8)."""
    best = max(d["strength"] for d in sides)
    return earliest_passer(s, [d["seat"] for d in sides if d["strength"] == best]), best


def fight(s: GameState, target: DuelTarget, seats: list[int], rng: Rng) -> DuelFought:
    sides = duelists(s, target, seats, rng)
    winner, _ = strongest(s, sides)
    event: DuelFought = {"type": "duel_fought", "target": target.copy(), "duelists": sides, "winner": winner}
    square = target.get("square")
    if square in CONSTRUCTION_INDEX:  # name the prize, for the log ("the duel for the $8 saloon")
        event["building"] = s.construction[CONSTRUCTION_INDEX[square]]
    vp = duel_won_vp(s, winner)
    if vp:
        event["winner_vp"] = vp
    return event


def duel_won_vp(s: GameState, winner: int) -> int:
    """What winning a duel gives its winner at once: the yellow Gunsmith's 2 VP for every duel won this round
    (`001` "The Gunsmith (10)"). A duel against an outlaw counts as well: its event is to carry this too."""
    side = s.side(winner)
    return side.duel_vp if side is not None else 0
