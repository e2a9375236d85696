"""What the income and VP squares give (`000` "Parcel income", "Cowboy income", the VP squares, "Hints"), the
estate income of buildings (`000` "Buildings", "Estate income / attacks on buildings"; RULING B13) and firepower —
the numbers the board shows as hints and the track's steps pay."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from app.rules.board import NEIGHBOURS
from app.rules.catalog import (
    AMMUNITION_FIREPOWER,
    BANK_PER_HOUSE,
    BANK_PER_MINE,
    BLACKSMITH_PER_RANCH,
    BLACKSMITH_PER_ROUND,
    BUILDINGS,
    CITY_HALL_LEVEL,
    COWBOY_INCOME_PER_FIREPOWER,
    DRUGSTORE_PER_HOUSE,
    DRUGSTORE_PER_RANCH,
    DYNAMITE_INCOME_FACTOR,
    FIREPOWER_PER_VP,
    GENERAL_STORE_PER_OTHER_HOUSE,
    GENERAL_STORE_PER_OWN_HOUSE,
    HOTEL_INCOME,
    HOUSE_PIECES,
    MINE_PER_MOUNTAIN,
    OUTLAW_INCOME_DIVISOR,
    OWNER_FREE_HOUSE_VALUES,
    PARCEL_INCOME_PER_PARCEL,
    PARCELS_PER_VP,
    RANCH_LEAST,
    RANCH_PER_EMPTY_PARCEL,
    RIVER_MINE_BONUS,
    SALOON_PER_HOUSE,
)
from app.rules.city_hall import occupant
from app.rules.construction import parcels_owned
from app.rules.events import EstatePayment
from app.rules.heroes import shielded
from app.rules.model import GameState, Parcel, about_parcels, replace


def firepower(s: GameState, seat: int) -> int:
    """Cowboys in the personal reserve + revolvers + the round's bonuses (RULING B8)."""
    p = s.players[seat]
    total = p.cowboys + p.revolvers
    if s.chip_holder == seat:
        total += AMMUNITION_FIREPOWER
    side = s.side(seat)
    if side is not None:
        total += side.firepower
    return total


def parcel_income(s: GameState, seat: int) -> int:
    """Parcel income: $2 per parcel owned (`000` "Parcel income")."""
    return PARCEL_INCOME_PER_PARCEL * parcels_owned(s, seat)


def cowboy_income(s: GameState, seat: int) -> int:
    """Cowboy income: $2 per firepower point (`000` "Cowboy income")."""
    return COWBOY_INCOME_PER_FIREPOWER * firepower(s, seat)


def parcels_vp(s: GameState, seat: int) -> int:
    """Parcels VP: half the parcels owned, rounded down (`000` "Parcels victory points")."""
    return parcels_owned(s, seat) // PARCELS_PER_VP


def cowboy_vp(s: GameState, seat: int) -> int:
    """Cowboy VP: half the firepower, rounded down (`000` "Cowboy victory points")."""
    return firepower(s, seat) // FIREPOWER_PER_VP


def estate_vp(s: GameState, seat: int) -> int:
    """Estate VP: buildings on one's parcels, houses and mountains excluded (`000` "Estate victory points")."""
    return sum(1 for p in s.parcels if p.owner == seat and p.content in BUILDINGS)


# What each income and VP square would give each player now: the hints the board shows (`000` "Hints").
SQUARE_GAINS: Final[dict[str, Callable[[GameState, int], int]]] = {
    "parcel_income": parcel_income,
    "cowboy_income": cowboy_income,
    "parcels_vp": parcels_vp,
    "cowboy_vp": cowboy_vp,
    "estate_vp": estate_vp,
}


def house_values(content: str | None) -> int:
    """How many house values a piece is, whoever owns it: a house 1, a townhouse 2, a building its row's number
    (RULINGS B13, G3, G6); land, mountains and buildings without one 0."""
    if content in HOUSE_PIECES:
        return HOUSE_PIECES[content]
    row = BUILDINGS.get(content or "")
    return 0 if row is None else row.house_value


def house_value(s: GameState, owner: int, index: int) -> int:
    """What parcel `index` is worth as houses to a building of `owner`: houses count on an owner-free parcel or
    `owner`'s, buildings on `owner`'s, the City Hall (always owner-free) for everyone (RULINGS B13, G2)."""
    parcel = s.parcels[index]
    if parcel.owner == owner or (parcel.owner is None and parcel.content in OWNER_FREE_HOUSE_VALUES):
        return house_values(parcel.content)
    return 0


def _houses_around(s: GameState, owner: int, index: int) -> int:
    return sum(house_value(s, owner, n) for n in NEIGHBOURS[index])


def _owned_anywhere(s: GameState, owner: int, building: str) -> int:
    return sum(1 for p in s.parcels if p.owner == owner and p.content == building)


def _ranch(s: GameState, owner: int, index: int) -> int:
    free = sum(1 for n in NEIGHBOURS[index] if s.parcels[n].content is None)
    return max(RANCH_LEAST, RANCH_PER_EMPTY_PARCEL * free)


def _mine(s: GameState, owner: int, index: int) -> int:
    mountains = sum(
        1
        for n in NEIGHBOURS[index]
        if s.parcels[n].content == "mountain" and s.parcels[n].owner in (None, owner)
    )
    river = any(s.parcels[n].river for n in NEIGHBOURS[index])  # +$3 once beside the river (RULING V3)
    return MINE_PER_MOUNTAIN * mountains + (RIVER_MINE_BONUS if river else 0)


def _saloon(s: GameState, owner: int, index: int) -> int:
    return SALOON_PER_HOUSE * _houses_around(s, owner, index)


def _drugstore(s: GameState, owner: int, index: int) -> int:
    return (DRUGSTORE_PER_HOUSE * _houses_around(s, owner, index)
            + DRUGSTORE_PER_RANCH * _owned_anywhere(s, owner, "ranch"))


def _bank(s: GameState, owner: int, index: int) -> int:
    return BANK_PER_HOUSE * _houses_around(s, owner, index) + BANK_PER_MINE * _owned_anywhere(s, owner, "mine")


def _hotel(s: GameState, owner: int, index: int) -> int:
    return HOTEL_INCOME


def _general_store(s: GameState, owner: int, index: int) -> int:
    """$6 per house value of the owner's around, $3 per house value of anyone else's or nobody's (RULING G5)."""
    total = 0
    for n in NEIGHBOURS[index]:
        parcel = s.parcels[n]
        rate = GENERAL_STORE_PER_OWN_HOUSE if parcel.owner == owner else GENERAL_STORE_PER_OTHER_HOUSE
        total += rate * house_values(parcel.content)
    return total


def _blacksmith(s: GameState, owner: int, index: int) -> int:
    """$5 per round played so far and $5 per ranch its owner has (`001` "Blacksmith")."""
    return BLACKSMITH_PER_ROUND * s.round + BLACKSMITH_PER_RANCH * _owned_anywhere(s, owner, "ranch")


def _nothing(s: GameState, owner: int, index: int) -> int:
    return 0


INCOME_RULES = {
    "ranch": _ranch,
    "mine": _mine,
    "saloon": _saloon,
    "drugstore": _drugstore,
    "bank": _bank,
    "hotel": _hotel,
    "church": _nothing,
    "prison": _nothing,
    "station": _nothing,  # it scores at the end instead (RULING G3)
    "school": _nothing,
    "city_hall": _nothing,  # nobody's: it raises its occupant's incomes instead (RULING G2)
    "general_store": _general_store,
    "blacksmith": _blacksmith,
}


def building_income(s: GameState, index: int) -> int:
    """What the building on parcel `index` earns at the next estate income, before attacks and bonuses, within
    the printed maximum of its tile; one level more when its owner occupies the City Hall (RULING G2)."""
    parcel = s.parcels[index]
    assert parcel.owner is not None and parcel.content in BUILDINGS
    amount = INCOME_RULES[parcel.content](s, parcel.owner, index)
    if occupant(s) == parcel.owner:
        amount += CITY_HALL_LEVEL.get(parcel.content, 0)
    cap = BUILDINGS[parcel.content].income_cap
    return amount if cap is None else min(amount, cap)


def income_if_built(s: GameState, seat: int, building: str, index: int) -> int:
    """What `building` would earn for `seat` on parcel `index` if it stood there now, before its house: the
    preview the table shows beside each site the builder may choose."""
    parcels = list(s.parcels)
    parcels[index] = replace(parcels[index], owner=seat, content=building)
    return building_income(replace(s, parcels=tuple(parcels)), index)


def incomes_beside_if_placed(s: GameState, index: int, piece: str) -> tuple[int, int]:
    """What the buildings of parcel `index`'s owner next to it earn now and would earn with `piece` (a house, a
    townhouse) standing there: what a house granted on that parcel does to its owner's incomes (RULING B13; a
    ranch may lose a free neighbour, a building gain a house value)."""
    owner = s.parcels[index].owner
    beside = [n for n in NEIGHBOURS[index] if s.parcels[n].owner == owner and s.parcels[n].content in BUILDINGS]
    parcels = list(s.parcels)
    parcels[index] = replace(parcels[index], content=piece)
    after = replace(s, parcels=tuple(parcels))
    return sum(building_income(s, n) for n in beside), sum(building_income(after, n) for n in beside)


def is_protected_by_church(parcels: tuple[Parcel, ...], index: int) -> bool:
    """Buildings next to their owner's church cannot be attacked (`000` "Church")."""
    owner = parcels[index].owner
    return any(parcels[n].content == "church" and parcels[n].owner == owner for n in NEIGHBOURS[index])


def attackable_buildings(parcels: tuple[Parcel, ...]) -> tuple[int, ...]:
    """The parcels whose building may be attacked (or defended), in parcel order: churches, prisons and
    buildings beside their owner's church cannot be attacked (RULING B7); a building with an outlaw is fought
    over, not attacked (`outlaws.fightable`)."""
    return tuple(
        index
        for index, parcel in enumerate(parcels)
        if parcel.content in BUILDINGS
        and BUILDINGS[parcel.content].attackable
        and not parcel.outlaw
        and not is_protected_by_church(parcels, index)
    )


def is_attackable(s: GameState, index: int) -> bool:
    """Whether the building on parcel `index` may be attacked (RULING B7, see `attackable_buildings`)."""
    return index in about_parcels(s, attackable_buildings)


def attack_split(income: int) -> tuple[int, int]:
    """An attacked building's income as (its owner's part, its attacker's part): the attacker takes half, rounded
    down (`000` "Estate income / attacks on buildings")."""
    return income - income // 2, income // 2


def earned(s: GameState, index: int) -> int:
    """What the building on `index` earns at this estate income before attacks and bonuses: a building with an
    outlaw keeps half, rounded down (RULING G4), unless its owner holds the Heroes (RULING X5)."""
    income = building_income(s, index)
    parcel = s.parcels[index]
    # The Heroes' buildings are not hurt by an outlaw standing on them (`004` "Los héroes": "cobras el total").
    return income // OUTLAW_INCOME_DIVISOR if parcel.outlaw and not shielded(s, parcel.owner) else income


def grocer_doubles(s: GameState, index: int) -> bool:
    """Whether the yellow Grocer doubles this building's income: its owner chose its type and it was not attacked
    (`000` "Grocer")."""
    parcel = s.parcels[index]
    assert parcel.owner is not None
    return s.attacks.get(index) is None and s.players[parcel.owner].card_option == f"double:{parcel.content}" \
        and s.holds(parcel.owner, "grocer", "yellow")


def estate_payments(s: GameState) -> list[EstatePayment]:
    """The estate income of every building (RULING B13): a building with an outlaw keeps half, rounded down
    (RULING G4); a mine with dynamite earns three times as much, unless the Grocer doubles it (RULING G7); a
    successful attacker takes half rounded down; the Grocer's doubling applies only to buildings that were not
    attacked (`000` "Grocer"), to what they earn (decision D55)."""
    payments: list[EstatePayment] = []
    for index, parcel in enumerate(s.parcels):
        if parcel.owner is None or parcel.content not in BUILDINGS:
            continue
        income = earned(s, index)
        attacker = s.attacks.get(index)
        doubled = grocer_doubles(s, index)
        tripled = index in s.dynamite_mines and not doubled
        if tripled:
            income *= DYNAMITE_INCOME_FACTOR
        owner_gets = income * 2 if doubled else income
        attacker_gets = 0
        if attacker is not None:
            owner_gets, attacker_gets = attack_split(income)
        x, y = index % 8 + 1, index // 8 + 1
        payment: EstatePayment = {
            "x": x, "y": y, "owner": parcel.owner, "building": parcel.content, "income": income,
            "doubled": doubled, "owner_gets": owner_gets, "attacker": attacker, "attacker_gets": attacker_gets,
        }
        if parcel.outlaw:
            payment["outlaw"] = True
        if tripled:
            payment["dynamite"] = True
        payments.append(payment)
    return payments
