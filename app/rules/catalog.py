"""The game's data tables: buildings, personalities, the action track, supplies and prices.

Rules read these rows instead of branching on names, so that a correction to a number is a one-line change.
Sources: `000` ("Game Content", "Buildings", "Personalities", "Actions") and RULINGS B5, B11, B13, B14, B15, B18.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.decisions import Decision

# --- Supplies (RULING B18, `000` "Game Content") -------------------------------------------------------------
HOUSES_SUPPLY: Final = 20
ROADS_SUPPLY: Final = 25  # the four centre roads included (RULING B3)
COWBOYS_PER_PLAYER: Final = 10
PROPERTY_TILES: Final = 12
MOUNTAINS: Final = 9
ROUNDS: Final = 4

# --- Starting resources (`000` "Game Setup") -----------------------------------------------------------------
START_MONEY: Final = 15
START_REVOLVERS: Final = 1
START_ROADS: Final = 1
START_COWBOYS: Final = 3

# Cowboys received at the end of rounds 1, 2, 3 (`000` "End of Round").
NEW_COWBOYS: Final = {1: 4, 2: 5, 3: 5}

# --- Action squares' numbers (RULING B14) ----------------------------------------------------------------------
WAGE_PER_COWBOY: Final = 4
AMMUNITION_FIREPOWER: Final = 3
THREE_ROADS: Final = 3
PARCEL_INCOME_PER_PARCEL: Final = 2
COWBOY_INCOME_PER_FIREPOWER: Final = 2
FINAL_VP_PER_ITEM: Final = 2
FINAL_MONEY_PER_VP: Final = 6
CASH_LIMIT_MONEY_PER_VP: Final = 10
PARCELS_PER_VP: Final = 2  # Parcels victory points: one for every two parcels owned
FIREPOWER_PER_VP: Final = 2  # Cowboy victory points: one for every two points of firepower

# --- Big Box (`004`; RULINGS X1-X6) ------------------------------------------------------------------------------
HORSE_PRICE: Final = 4  # paid at Wages instead of taking one cowboy's $4, one horse a round (RULING X6)
HORSE_VP: Final = 1  # each horse at the end of the game (`004` "Final de la partida")
KIT_CARSON_VP_PER_PLAYER: Final = 1  # per player behind one on the turn-order track at the end (RULING X4)


@dataclass(frozen=True, slots=True)
class Building:
    """One row per building type: how it is built and what it earns (`000` "Buildings", RULING B13)."""

    type: str
    name: str
    count: int  # tiles in the box
    needs_road: bool
    needs_house: bool
    revolvers: int  # taken when the building is placed
    house_value: int  # what it is worth to its owner's neighbouring buildings as houses
    income_cap: int | None  # the printed maximum of the tile
    attackable: bool
    houses: int = 1  # houses placed with it when `needs_house` (the school three, `001` "School")
    expansion: str | None = None  # in the bag only when this expansion is played


BUILDINGS: Final[dict[str, Building]] = {
    b.type: b
    for b in (
        Building("ranch", "Ranch", 6, False, False, 1, 1, None, True),
        Building("mine", "Mine", 6, False, False, 1, 0, None, True),
        Building("drugstore", "Drugstore", 4, True, True, 0, 0, 33, True),
        Building("bank", "Bank", 4, True, True, 0, 0, 45, True),
        Building("saloon", "Saloon", 3, True, True, 0, 0, 55, True),
        Building("hotel", "Hotel", 3, True, True, 0, 2, None, True),
        Building("church", "Church", 2, True, True, 0, 1, None, False),
        Building("prison", "Prison", 2, True, True, 2, 0, None, False),
        # Gold & Guns (`001` "New Buildings", RULINGS G3, G5, B13; R-GG-3 caps). The station and the school earn
        # nothing, so, like the church and the prison, they cannot be attacked (decision D34).
        Building("station", "Station", 1, True, False, 0, 2, None, False, expansion="gold_and_guns"),
        # The City Hall is never bought: drawn, it stands at once on an owner-free parcel (RULING G2).
        Building("city_hall", "City Hall", 1, True, False, 0, 1, None, False, expansion="gold_and_guns"),
        Building("school", "School", 2, True, True, 0, 1, None, False, houses=3, expansion="gold_and_guns"),
        Building("general_store", "General Store", 2, True, True, 0, 0, 33, True, expansion="gold_and_guns"),
        Building("blacksmith", "Blacksmith", 2, True, True, 0, 0, 40, True, expansion="gold_and_guns"),
    )
}


def bag_contents(expansions: tuple[str, ...]) -> dict[str, int]:
    """The buildings of the box for a game with these expansions, type -> tiles (R-GG-24)."""
    return {b.type: b.count for b in BUILDINGS.values() if b.expansion is None or b.expansion in expansions}


# What the base game's buildings earn at the estate income (`000` "Buildings"): $ per item around them or owned
# anywhere (`income.INCOME_RULES`), before the printed maximum of the tile.
RANCH_PER_EMPTY_PARCEL: Final = 1
RANCH_LEAST: Final = 1  # a ranch with no empty parcel around it still earns this
MINE_PER_MOUNTAIN: Final = 3
DRUGSTORE_PER_HOUSE: Final = 3
DRUGSTORE_PER_RANCH: Final = 3
BANK_PER_HOUSE: Final = 3
BANK_PER_MINE: Final = 3
SALOON_PER_HOUSE: Final = 5
HOTEL_INCOME: Final = 6

# Pieces that are houses, and how many house values each is (RULINGS B13, G6: a townhouse counts as two).
HOUSE_PIECES: Final = {"house": 1, "townhouse": 2}
TOWNHOUSES_SUPPLY: Final = 20  # `001` "Components"

# Gold & Guns incomes and scoring (`001` "New Buildings", RULINGS G3, G5).
GENERAL_STORE_PER_OWN_HOUSE: Final = 6
GENERAL_STORE_PER_OTHER_HOUSE: Final = 3
BLACKSMITH_PER_ROUND: Final = 5
BLACKSMITH_PER_RANCH: Final = 5
STATION_HOUSE_VALUES_PER_VP: Final = 2

# The City Hall (`001` "City Hall", RULING G2): it stands on an owner-free parcel and counts as a house for every
# neighbouring building; its occupant's buildings that came with a house earn "one level" more, the income of one
# more house value, within the caps.
CITY_HALL: Final = "city_hall"
CITY_HALL_LEVEL: Final = {"drugstore": 3, "bank": 3, "saloon": 5, "general_store": 6, "blacksmith": 5}
# Pieces worth house values to every neighbouring building when they stand on an owner-free parcel (RULING B13).
OWNER_FREE_HOUSE_VALUES: Final = frozenset({*HOUSE_PIECES, CITY_HALL})


# --- The Outlaws (`001` "Outlaws", RULING G4) ---------------------------------------------------------------------
OUTLAW_MEEPLES: Final = 9  # `001` "Components": at most 3 arrive in each of rounds 2-4, so the supply never runs out
OUTLAW_ROUNDS: Final = (2, 3, 4)  # they arrive at the start of these rounds
OUTLAW_STRENGTH_BONUS: Final = 7  # strength = black die + 7 (8-13)
OUTLAW_COUNT: Final = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # white die -> how many arrive
# The VP printed on each outlaw tile, by strength: strength // 2 (RULING G4, a house ruling kept in this table).
OUTLAW_VP: Final = {strength: strength // 2 for strength in range(8, 14)}
OUTLAW_INCOME_DIVISOR: Final = 2  # a building with an outlaw keeps half its income, rounded down


# Buildings whose income can be doubled by the Grocer: those that earn something (`000` "Grocer"), with Gold & Guns
# the general store and the blacksmith too (RULING G16); a game offers those of its expansions (`families.cards`).
INCOME_BUILDINGS: Final = ("ranch", "mine", "drugstore", "bank", "saloon", "hotel", "general_store", "blacksmith")


@dataclass(frozen=True, slots=True)
class ConstructionSquare:
    square: str
    price: int
    setup_building: str | None  # placed at setup; None = drawn from the bag (`000` "Game Setup")


CONSTRUCTION_SQUARES: Final = (
    ConstructionSquare("build_3", 3, "ranch"),
    ConstructionSquare("build_4", 4, "mine"),
    ConstructionSquare("build_5", 5, None),
    ConstructionSquare("build_6", 6, None),
    ConstructionSquare("build_8", 8, None),
    ConstructionSquare("build_10", 10, "ranch"),
    ConstructionSquare("build_12", 12, "mine"),
)
CONSTRUCTION_PRICE: Final = {c.square: c.price for c in CONSTRUCTION_SQUARES}
CONSTRUCTION_INDEX: Final = {c.square: i for i, c in enumerate(CONSTRUCTION_SQUARES)}


@dataclass(frozen=True, slots=True)
class BuyVpSquare:
    square: str
    price: int
    first_round_blocked: int  # the round counter blocks it from this round on (RULING B15); 5 = never


BUY_VP_SQUARES: Final = (
    BuyVpSquare("buy_vp_2", 2, 2),
    BuyVpSquare("buy_vp_3", 3, 3),
    BuyVpSquare("buy_vp_4", 4, 4),
    BuyVpSquare("buy_vp_5", 5, 5),
)
BUY_VP_PRICE: Final = {b.square: b.price for b in BUY_VP_SQUARES}


@dataclass(frozen=True, slots=True)
class Square:
    """An action square of the track (RULING B14). `many` squares take any number of cowboys and never duel."""

    square: str
    name: str
    many: bool = False


SQUARES: Final[dict[str, Square]] = {
    s.square: s
    for s in (
        Square("wages", "Wages", many=True),
        Square("ammunition", "Ammunition"),
        Square("three_roads", "3 Roads"),
        Square("road", "Road", many=True),
        *(Square(c.square, f"Building construction ${c.price}") for c in CONSTRUCTION_SQUARES),
        Square("parcel_income", "Parcel income"),
        Square("cowboy_income", "Cowboy income"),
        Square("gambling_income", "Gambling income"),
        Square("parcels_vp", "Parcels victory points"),
        Square("cowboy_vp", "Cowboy victory points"),
        Square("estate_vp", "Estate victory points"),
        *(Square(b.square, f"Buy victory points at ${b.price}") for b in BUY_VP_SQUARES),
    )
}

# --- The round's schedule: the action track in resolution order (RULING B14) and the end of round (B16) -------
TRACK_STEPS: Final = (
    "wages",
    "ammunition",
    "three_roads",
    "road",
    "parcel_purchase",
    *(c.square for c in CONSTRUCTION_SQUARES),
    "build_from_reserve",
    "parcel_income",
    "cowboy_income",
    "gambling_income",
    "estate_income",
    "parcels_vp",
    "cowboy_vp",
    "estate_vp",
    *(b.square for b in BUY_VP_SQUARES),
)
END_OF_ROUND_STEPS: Final = ("banker_vp", "cash_limit", "end_of_round_vp", "new_cowboys", "refill", "round_end")
ROUND_STEPS: Final = ("personalities", "placement", *TRACK_STEPS, *END_OF_ROUND_STEPS)
# Before round 1: the per-card vote (V1), the starting parcels (B19) or A New Beginning's shopping and parcel
# picks (V4). After round 4: The River's final roads (V9), then the final scoring (B17).
SETUP_STEPS: Final = ("vote", "start_parcels", "shopping", "parcel_picks")
FINAL_STEPS: Final = ("final_roads", "final_scoring")

# --- Personalities (`000` "Personalities", RULING B5) -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a personality card. `decision` names what its holder is asked right after choosing it (the
    red Banker's end-of-round purchase is a step of the schedule, in `families.cards`)."""

    cash_limit: int
    text: str
    money: int = 0
    roads: int = 0
    firepower: int = 0
    decision: Decision | None = None
    # Gold & Guns (`001` "New Characters", "The Indian"): what a side does, as data read by the rule it changes.
    parcels_by_dice: int = 0  # owner-free parcels received at once, each by dice (Indian)
    flips_without_mine: bool = False  # turned to red for good when no mine is left (Prospector)
    road_vp: int = 0  # VP per road piece placed that reaches a new parcel (Governor, RULING G12)
    duel_vp: int = 0  # VP per duel won this round (Gunsmith)
    parcel_price_cap: int | None = None  # every parcel's price, while the card is in the game (Indian, G10)
    lucky_cowboy: bool = False  # one cowboy from the general reserve on Gambling income (Singer)
    dynamite: int = 0  # dynamite chips received at once, as the supply allows (red Prospector and Gunsmith, G7)
    rerolls: bool = False  # may roll again once in each duel, plays the duel tile last (red Gunsmith)
    auction: str | None = None  # the lot auctioned at once, a key of `AUCTION_LOTS` (Auctioneer, RULING G8)
    no_duel_chips: int = 0  # "no duel" chips for the round, each placed with a cowboy (Singer, RULING G9)
    # What a defeated cowboy's owner may or must do (`001` "The Doctor / The Undertaker (14)", RULING G11): pay the
    # holder `healing_price` to move it to a place not yet resolved (the Doctor), or pay the holder
    # `burial_price` or lose `burial_vp` (the Undertaker); the holder's own cowboys are free.
    healing_price: int | None = None
    burial_price: int | None = None
    burial_vp: int = 0
    outlaw_bounty: int = 0  # $ from the bank to the holder for each outlaw beaten (Doctor, Undertaker)
    # Big Box (`004` "Elección de personaje"; RULINGS X2, X3, X5).
    horses: int = 0  # horses into the holder's reserve at once (Cowboy)
    protected_buildings: bool = False  # no attack on the holder's buildings, none by them, outlaws harmless (Heroes)
    chooses_first: bool = False  # the holder chooses first next round, whatever the passing order (Teacher)


NEWSPAPER_BOY_PRICE: Final = 3  # `004` "El Repartidor de Periódicos": "Paga 3$"
# The side of a Big Box card our sources print no text for (decision D91).
ONE_SIDE_TEXT: Final = "No text in our sources: this card is always played on its yellow side."


@dataclass(frozen=True, slots=True)
class Personality:
    card: str
    number: int  # placement order is ascending number (RULING B5)
    name: str
    yellow: Side
    red: Side
    holder_chooses_side: bool = False  # the side is chosen with the card, not by the game's `sides` (Doctor)
    expansion: str | None = None  # in the game's pool of cards only with this expansion (RULINGS G1, X2, X5)
    needs_horses: bool = False  # in the pool only when horses are played (`004` "El Vaquero")
    # Big Box: the side the card shows is not the game's `sides` setting's (decision D91): it turns red from this
    # round on (the Teacher, RULING X3), or it is always played on the one side our sources print (`one_side`).
    red_from_round: int | None = None
    one_side: bool = False

    def side(self, colour: str) -> Side:
        return self.red if colour == "red" else self.yellow

    @property
    def sided(self) -> bool:
        """Whether the game's `sides` setting (and the vote) decides this card's side (decisions D73, D91)."""
        return not (self.holder_chooses_side or self.red_from_round or self.one_side)


PERSONALITIES: Final[dict[str, Personality]] = {
    p.card: p
    for p in (
        Personality(
            "sheriff", 1, "Sheriff",
            Side(20, "Take the white cowboy: one placement on a cowboy-free square, free parcel or your own "
                     "building; nobody may join it, except on Wages and Road."),
            Side(20, "You may not attack or start a duel (defending your own building excepted); 3 VP for "
                     "every duel you lose."),
        ),
        Personality(
            "banker", 2, "Banker",
            Side(120, "Receive $9 at once.", money=9),
            Side(60, "At the end of the round, before the cash limit, you may buy 3, 5 or 7 VP for $3, $12 "
                     "or $25."),
        ),
        Personality(
            "grocer", 3, "Grocer",
            Side(60, "Double the income of one building type at the estate income (not when attacked), or "
                     "receive $8 now or at the estate income.", decision=Decision.GROCER),
            Side(60, "Receive $8 now, or 1 VP per house you own at the end of the round.",
                 decision=Decision.GROCER_RED),
        ),
        Personality(
            "chinese_worker", 4, "Chinese Worker",
            Side(30, "Receive 2 roads at once; buildings cost you half (rounded up).", roads=2),
            Side(30, "You may pay $5 at once and take one of the available buildings.",
                 decision=Decision.CHINESE_WORKER_RED),
        ),
        Personality(
            "settler", 5, "Settler",
            Side(30, "Take an owner-free parcel at once.", decision=Decision.SETTLER),
            Side(20, "Receive $8 now, or 1 VP per mountain you own at the end of the round.",
                 decision=Decision.SETTLER_RED),
        ),
        Personality(
            "captain", 6, "Captain",
            Side(25, "Pay $1, $4 or $9 for 1, 2 or 3 extra cowboys (up to 10).", decision=Decision.CAPTAIN),
            Side(20, "Pay $3 for a revolver or $9 for two; you keep them.", decision=Decision.CAPTAIN_RED),
        ),
        Personality(
            "mercenary", 7, "Mercenary",
            Side(20, "3 extra firepower this round.", firepower=3),
            Side(30, "2 extra firepower this round.", firepower=2),
        ),
        # Gold & Guns (`001` "New Characters", "The Indian"; RULINGS G1, G10-G12).
        Personality(
            "indian", 8, "Indian",
            Side(20, "Receive 2 owner-free parcels at once, each found by dice.", parcels_by_dice=2),
            Side(30, "Every parcel costs at most $3, for the whole game.", parcel_price_cap=3),
            expansion="gold_and_guns",
        ),
        Personality(
            "prospector", 9, "Prospector",
            Side(20, "Pay $10 and build a mine (from the construction squares, else the bag) on an owner-free "
                     "parcel, which becomes yours; with no mine left this card turns to its red side for good.",
                 decision=Decision.PROSPECTOR, flips_without_mine=True),
            Side(20, "Receive two dynamite chips (as available): each, once, triples a mine's estate income or "
                     "gives a cowboy two dice (two tiles) in its duel.", dynamite=2),
            expansion="gold_and_guns",
        ),
        Personality(
            "gunsmith", 10, "Gunsmith",
            Side(30, "2 VP for each duel you win this round.", duel_vp=2),
            Side(20, "Roll again once in each duel if you wish (with duel tiles: play yours after the others), and "
                     "receive one dynamite chip.", dynamite=1, rerolls=True),
            expansion="gold_and_guns",
        ),
        Personality(
            "singer", 11, "Singer",
            Side(15, "Two \"no duel\" chips for this round: a cowboy placed with one on 3 Roads, a money square or a "
                     "victory point square never duels and always performs its action.", no_duel_chips=2),
            Side(40, "Once, place a cowboy from the general reserve on Gambling income: it never duels and wins "
                     "the product of two dice.", lucky_cowboy=True),
            expansion="gold_and_guns",
        ),
        Personality(
            "auctioneer", 12, "Auctioneer",
            Side(30, "Auction two owner-free parcels; the winner pays half to the bank, half to you.",
                 auction="parcels"),
            Side(20, "Auction the 3-guns chip; the winner pays you.", auction="chip"),
            expansion="gold_and_guns",
        ),
        Personality(
            "governor", 13, "Governor",
            Side(50, "Receive 1 road at once; 1 VP for each road you place that reaches a new parcel (2 for "
                     "such a bridge).", roads=1, road_vp=1),
            Side(50, "Tax the others at once: $1 per revolver chip, or $1 per full or started $10.",
                 decision=Decision.GOVERNOR_RED),
            expansion="gold_and_guns",
        ),
        Personality(
            "doctor", 14, "Doctor / Undertaker",
            Side(60, "Doctor: a defeated cowboy may be moved for $3 (yours free) to a place no cowboy holds whose "
                     "turn has not come yet; $3 for each outlaw beaten.", healing_price=3, outlaw_bounty=3),
            Side(90, "Undertaker: each defeated cowboy costs its owner $2 to you or 1 VP (yours free); $2 for each "
                     "outlaw beaten.", burial_price=2, burial_vp=1, outlaw_bounty=2),
            holder_chooses_side=True,
            expansion="gold_and_guns",
        ),
        # Big Box (`004` "Elección de personaje"; RULINGS X2, X3, X5: the numbers 15-17 are ours). Our sources print
        # one side of the Newspaper Boy, the Cowboy and the Heroes; the Teacher's red side has no text (decision D91).
        Personality(
            "newspaper_boy", 0, "Newspaper Boy",
            Side(0, "Pay $3, then copy any other card of the game but the Sheriff, taken or not: you have its "
                    "abilities and its cash limit; you still place as 0.",
                 money=-NEWSPAPER_BOY_PRICE, decision=Decision.NEWSPAPER_BOY),
            Side(0, ONE_SIDE_TEXT),
            expansion="big_box", one_side=True,
        ),
        Personality(
            "cowboy", 15, "Cowboy",
            Side(20, "Receive a horse at once, into your reserve (only with horses).", horses=1),
            Side(20, ONE_SIDE_TEXT),
            expansion="big_box", needs_horses=True, one_side=True,
        ),
        Personality(
            "heroes", 16, "Heroes",
            Side(240, "This round nobody may attack your buildings and outlaws leave them alone (they see them as "
                      "earning nothing, and one standing on them takes nothing); you may not attack.",
                 protected_buildings=True),
            Side(240, ONE_SIDE_TEXT),
            expansion="big_box", one_side=True,
        ),
        Personality(
            "teacher", 17, "Teacher",
            Side(60, "Yellow in rounds 1-3: you choose first next round, whatever the passing order.",
                 chooses_first=True),
            Side(60, "Red in round 4: no text in our sources, so it gives only its cash limit of $60."),
            expansion="big_box", red_from_round=4,
        ),
    )
}
BASE_CARDS: Final = tuple(card for card, p in PERSONALITIES.items() if p.expansion is None)
CARD_BY_NUMBER: Final = {p.number: p.card for p in sorted(PERSONALITIES.values(), key=lambda p: p.number)}
CHARACTERS_IN_PLAY: Final = 7  # `001` "New Characters": 7 of the 14 cards (RULING G1)
# `004` "Preparación": "se cogen 7 tarjetas de personajes (8 si jugamos con el personaje de Repartidor de
# periódicos)": the Newspaper Boy comes on top of the 7 (decision D90).
EXTRA_CARD: Final = "newspaper_boy"


def card_pool(expansions: tuple[str, ...], horses: bool) -> tuple[str, ...]:
    """The cards a game with these expansions may use, by number (RULINGS G1, X5; decision D90): the base cards,
    Gold & Guns' 8-14, Big Box's 0, 16 and 17, and its Cowboy (15) only with horses (`004` "El Vaquero")."""
    return tuple(
        card
        for card in CARD_BY_NUMBER.values()
        if (PERSONALITIES[card].expansion or "base") in ("base", *expansions)
        and (horses or not PERSONALITIES[card].needs_horses)
    )


def sided_cards(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The cards whose side the game's `sides` setting decides (the vote included): all but those whose holder
    chooses the side with the card (`001` "The Doctor / The Undertaker (14)", decision D73) and Big Box's cards,
    whose side is fixed (decision D91)."""
    return tuple(card for card in cards if PERSONALITIES[card].sided)


# The squares where the yellow Singer's "no duel" chips may go (RULING G9): 3 Roads, the three money squares and
# the seven victory point squares.
NO_DUEL_CHIP_SQUARES: Final = frozenset({
    "three_roads", "parcel_income", "cowboy_income", "gambling_income",
    "parcels_vp", "cowboy_vp", "estate_vp", *(b.square for b in BUY_VP_SQUARES),
})

# Prices of the personalities' choices (`000` "Personalities").
CAPTAIN_COWBOY_PRICES: Final = {0: 0, 1: 1, 2: 4, 3: 9}
CAPTAIN_REVOLVER_PRICES: Final = {0: 0, 1: 3, 2: 9}
BANKER_VP_PRICES: Final = {0: 0, 3: 3, 5: 12, 7: 25}
BANKER_VP_BOUGHT: Final = "vp_bought"  # the red Banker's card option once its holder has decided
GROCER_MONEY: Final = 8
SETTLER_RED_MONEY: Final = 8
RED_CARD_VP_PER_ITEM: Final = 1  # red Settler: per mountain owned, red Grocer: per house owned, at the round's end
CHINESE_WORKER_RED_PRICE: Final = 5
SHERIFF_RED_VP_PER_LOST_DUEL: Final = 3
PROSPECTOR_PRICE: Final = 10  # `001` "The Prospector (9)"
GOVERNOR_TAX_MONEY_STEP: Final = 10  # $1 per full or started $10 (RULING G12)
GOVERNOR_TAX_PER_ITEM: Final = 1  # $ per revolver chip, or per full or started $10 (RULING G12)
# Dynamite (`001` "Components", "The Prospector (9)", RULING G7): 7 chips in the box; one triples a mine's estate
# income, or gives a cowboy's duel two dice added together (two duel tiles with Might Is Right).
DYNAMITE_CHIPS: Final = 7
DYNAMITE_INCOME_FACTOR: Final = 3
DYNAMITE_DICE: Final = 2


@dataclass(frozen=True, slots=True)
class AuctionLot:
    """What the Auctioneer auctions (`001` "The Auctioneer (12)", RULING G8): `parcels` owner-free parcels the
    Auctioneer chooses (a bidder needs a property tile for each), and whether half the winning bid, rounded down,
    goes to the bank (the rest, rounded up, goes to the Auctioneer, who never pays himself)."""

    lot: str
    parcels: int
    bank_half: bool


AUCTION_LOTS: Final[dict[str, AuctionLot]] = {
    lot.lot: lot
    for lot in (
        AuctionLot("parcels", parcels=2, bank_half=True),  # yellow side
        AuctionLot("chip", parcels=0, bank_half=False),  # red side: the 3-guns chip
    )
}
AUCTION_MIN_BID: Final = 1  # the opening bid: a bid of nothing is no bid (decision D66)


# --- Variants (`000` "Variants"; RULINGS V1-V9) -----------------------------------------------------------------

# The River (RULING V3, a house ruling kept in this one table): the river parcels as (x, y).
RIVER_PARCELS: Final = ((1, 6), (2, 6), (3, 6), (3, 5), (4, 5), (5, 5), (6, 5), (6, 4), (7, 4), (8, 4))
RIVER_MOUNTAINS: Final = 6
BRIDGE_ROADS: Final = 2  # a road across the river takes two roads from the builder's reserve
BRIDGE_VP_PER_ITEM: Final = 3  # instead of 2, for items on parcels touching a bridge
RIVER_MINE_BONUS: Final = 3  # once, for a mine in contact with the river

# Might Is Right (`000` "Might Is Right", RULING V2).
DUEL_TILE_VALUES: Final = (0, 1, 2, 3, 4, 5)  # one set per player
MIGHT_TWO_PLAYER_MONEY: Final = 15
MIGHT_MONEY_BEFORE_TILES: Final = 30  # 3-5 players: $30 minus the sum of one's tiles
MIGHT_REDRAW: Final = 3  # an empty hand takes three tiles at random from the used pile

# A New Beginning (RULING V4: house prices, one table).
NEW_BEGINNING_MONEY: Final = 50
NEW_BEGINNING_COWBOYS: Final = 1


@dataclass(frozen=True, slots=True)
class ShopItem:
    item: str
    name: str
    price: int  # negative: money received
    vp: int = 0  # VP received (negative: given)
    limit: int | None = None  # at most this many per player


SHOP: Final[dict[str, ShopItem]] = {
    i.item: i
    for i in (
        ShopItem("cowboy", "Cowboy", 5),
        ShopItem("revolver", "Revolver", 6),
        ShopItem("road", "Road", 3),
        ShopItem("vp", "Victory point", 5, vp=1),
        ShopItem("parcel", "Parcel pick", 6),
        ShopItem("marksman", "Marksman (duels: two dice, the higher counts)", 10, limit=1),
        ShopItem("sell_5_vp", "Give 5 VP for $15", -15, vp=-5, limit=1),
        ShopItem("sell_10_vp", "Give 10 VP for $30", -30, vp=-10, limit=1),
    )
}
# Only one of the two VP sales (RULING V4: "-5 VP for +$15 or -10 VP for +$30").
SHOP_EXCLUSIVE: Final = (("sell_5_vp", "sell_10_vp"),)
