"""The event vocabulary: what can happen in a game, in the past tense, one typed dict each.

Events are the only persisted truth (a game is the fold of its events, `evolve`). Their type names and fields are
stable: a renamed or reshaped event needs an upcaster for the logs already stored. `SCHEMA_VERSION` is written
into every game's first event, so a reader knows which shapes a log uses. What a viewer may see of each event is
decided by `view.redact_event`; whether a viewer may know of an event at all, by `private_to` below.

Each event is a `TypedDict` — a plain dict at run time, so the JSON and the speed are those of a dict — whose
`type` is a `Literal`: mypy checks every event the core builds against its shape, and every table keyed by
`EventType` against the names. A NotRequired field is left out of the event when it does not apply.

No `from __future__ import annotations` here: a TypedDict reads NotRequired only from evaluated annotations (as
strings, every field would count as required in `__required_keys__`).
"""

from collections.abc import Mapping
from typing import Any, Final, Literal, NotRequired, Required, TypedDict, get_args

SCHEMA_VERSION: Final = 1

EventType = Literal[
    "game_started", "turn_order_drawn", "centre_placed", "mountains_placed", "construction_refilled",
    "tiles_dealt", "side_voted", "sides_decided", "shop_item_added", "shop_item_removed", "shopping_finished",
    "shopping_revealed", "parcel_pick_forfeited", "parcel_claimed",
    "personality_chosen", "card_option_chosen", "cowboys_hired", "revolvers_bought", "building_taken",
    "card_decision_declined", "placement_order_set",
    "cowboy_placed", "player_passed",
    "step_completed", "wages_paid", "roads_handed_out", "duel_order_chosen", "duel_tile_chosen", "duel_fought",
    "tiles_drawn", "chip_taken", "roads_gained", "money_gained", "vp_gained", "vp_bought", "action_declined",
    "parcel_bought", "parcel_purchase_declined", "building_bought", "building_purchase_declined",
    "construction_started", "road_placed", "permission_asked", "permission_answered", "permission_denied_rest",
    "building_placed", "house_placed", "townhouse_placed", "city_hall_placed", "city_hall_set_aside",
    "building_kept", "attack_cancelled", "building_defended",
    "attack_won", "estate_income_paid",
    "banker_vp_bought", "money_given_up", "cowboys_received", "round_ended", "final_roads_finished",
    "game_finished",
    "seat_replaced", "move_undone",
    # Gold & Guns characters
    "indian_parcels_taken", "card_flipped", "mine_prospected", "tax_collected", "singer_gambled",
    "auction_opened", "auction_parcel_chosen", "bid_made", "bid_passed", "auction_closed",
    "outlaw_jailed", "outlaws_arrived", "outlaw_moved", "outlaws_settled", "outlaw_fought", "outlaw_reward_taken",
    "duel_rolled", "die_rerolled", "roll_kept", "duel_tiles_revealed", "mine_dynamited", "dynamite_kept",
    # Gold & Guns: the Doctor and the Undertaker
    "cowboy_healed", "healing_declined", "undertaker_paid",
    # Big Box
    "wages_chosen", "card_copied",
]
EVENT_TYPES: Final[frozenset[EventType]] = frozenset(get_args(EventType))
ClaimReason = Literal["start", "settler", "pick"]  # a starting parcel, the Settler's parcel, a parcel pick


# --- parts of events ------------------------------------------------------------------------------------------


class XY(TypedDict):
    """A parcel, as RULING B1 numbers it (1 to 8 from the north-west corner)."""

    x: int
    y: int


class DuelTarget(TypedDict, total=False):
    """What a duel is fought over: an action square, or a parcel or building given by x and y."""

    square: str
    x: int
    y: int


class Duelist(TypedDict):
    """One side of a duel: the die (`roll`, both dice in `rolls` for the Marksman) or the tile (Might Is
    Right), the firepower, and their sum.

    Gold & Guns (RULING G7): a cowboy with dynamite rolls two dice and adds them (`dynamite`, every die in `dice`;
    with the Marksman `rolls` holds the two sums) or plays two tiles (`second_tile`); the red Gunsmith's throw
    before he rolled again is kept in `first_roll` and `first_dice`."""

    seat: int
    firepower: int
    strength: int
    roll: NotRequired[int]
    rolls: NotRequired[list[int]]
    tile: NotRequired[int]
    second_tile: NotRequired[int]
    dynamite: NotRequired[bool]
    dice: NotRequired[list[int]]
    first_roll: NotRequired[int]
    first_dice: NotRequired[list[int]]


class Throw(TypedDict):
    """One duellist's throw: what counts (`roll`) and how it came (as in `Duelist`)."""

    roll: int
    rolls: NotRequired[list[int]]
    dynamite: NotRequired[bool]
    dice: NotRequired[list[int]]
    first_roll: NotRequired[int]
    first_dice: NotRequired[list[int]]


class Bounty(TypedDict):
    """Money from the bank to the Doctor or the Undertaker (`seat`) for the outlaws an event took off the board."""

    seat: int
    amount: int


class Payment(TypedDict):
    """Wages for one seat's cowboys on the Wages square."""

    seat: int
    cowboys: int
    amount: int  # negative when a horse cost more than the other cowboys' wages
    horse: NotRequired[bool]  # Big Box: one cowboy paid $4 for a horse instead of taking $4 (RULING X6)


class RoadGain(TypedDict):
    """Roads the Road square hands one seat (cut to what the supply holds)."""

    seat: int
    cowboys: int
    roads: int


class CowboyGain(TypedDict):
    seat: int
    count: int


class Basket(TypedDict):
    """A New Beginning: one revealed basket, what it cost (`money` is negative) and what it gave."""

    seat: int
    items: dict[str, int]
    roads: int
    money: int
    vp: int


class EstatePayment(TypedDict):
    """One building's estate income (RULING B13): its owner's share and an attacker's."""

    x: int
    y: int
    owner: int
    building: str
    income: int
    doubled: bool
    owner_gets: int
    attacker: int | None
    attacker_gets: int
    outlaw: NotRequired[bool]  # the Outlaws: an outlaw stands on it, so `income` is half the tile's (RULING G4)
    dynamite: NotRequired[bool]  # Gold & Guns: a dynamite chip tripled this mine's income (`income`, RULING G7)


# Why a move was made for its seat without asking it (API.md "No one waits for a choice that is not one",
# decisions D1, D106-D108): its only legal move; the asked player's standing answer to permission requests; an
# answer the player gave ahead of time (a purchase asked for with the cowboy, the cash limit in their settings).
Automatic = Literal["only_move", "standing_answer", "answered_ahead"]


class Made(TypedDict):
    """What every event may carry: `automatic` on the first event of a move the server made for its seat (the log
    says so), absent on a move the player made and on every other event."""

    automatic: NotRequired[Automatic]


# --- setup ----------------------------------------------------------------------------------------------------


class GameStarted(TypedDict):
    """The game was set up: players, variant settings, the sides of the cards (schema version)."""

    type: Literal["game_started"]
    schema: int
    players: int
    config: dict[str, Any]
    sides: dict[str, str]
    characters: NotRequired[list[str]]  # Gold & Guns: the 7 cards of the game, by number (RULING G1)


class TurnOrderDrawn(TypedDict):
    """The initial turn order was drawn."""

    type: Literal["turn_order_drawn"]
    order: list[int]


class CentrePlaced(TypedDict):
    """The centre of Carson City was rolled (house and four roads)."""

    type: Literal["centre_placed"]
    x: int
    y: int
    dice: list[int]


class MountainsPlaced(TypedDict):
    """The mountains were rolled (every roll, re-rolls included)."""

    type: Literal["mountains_placed"]
    parcels: list[XY]
    dice: list[list[int]]


class ConstructionRefilled(TypedDict):
    """The construction squares were slid and refilled from the bag (the draws; at setup, the printed ones)."""

    type: Literal["construction_refilled"]
    construction: list[str | None]
    drawn: list[str]
    placed: NotRequired[list[str]]


class TilesDealt(TypedDict):
    """Might Is Right: the duel tiles were dealt (each hand is secret), and the money they leave each player."""

    type: Literal["tiles_dealt"]
    hands: list[list[int]]
    money: NotRequired[list[int]]


class SideVoted(Made):
    """A player voted on one card's side (secret until all voted)."""

    type: Literal["side_voted"]
    seat: int
    card: str
    side: str


class SidesDecided(TypedDict):
    """The vote was counted: the sides, every vote, the cards drawn on a tie."""

    type: Literal["sides_decided"]
    sides: dict[str, str]
    votes: dict[str, dict[str, str]]
    drawn: list[str]


class ShopItemAdded(Made):
    """A New Beginning: an item went into a basket (secret)."""

    type: Literal["shop_item_added"]
    seat: int
    item: str


class ShopItemRemoved(Made):
    """A New Beginning: an item was taken back out of a basket (secret)."""

    type: Literal["shop_item_removed"]
    seat: int
    item: str


class ShoppingFinished(Made):
    """A New Beginning: a player finished shopping."""

    type: Literal["shopping_finished"]
    seat: int


class ShoppingRevealed(TypedDict):
    """A New Beginning: every basket was revealed and paid."""

    type: Literal["shopping_revealed"]
    baskets: list[Basket]


class ParcelPickForfeited(Made):
    """A New Beginning: a parcel pick could not be placed and was refunded."""

    type: Literal["parcel_pick_forfeited"]
    seat: int
    refund: int


class ParcelClaimed(Made):
    """A parcel was taken: a starting parcel, the Settler's or a pick."""

    type: Literal["parcel_claimed"]
    seat: int
    x: int
    y: int
    reason: ClaimReason


# --- personalities --------------------------------------------------------------------------------------------


class CardGains(Made, total=False):
    """What a card's side gives at once, in the event of its choice (or of its copy by the Newspaper Boy)."""

    money: int  # negative: paid (the Newspaper Boy's $3)
    roads: int
    dynamite: int  # Gold & Guns: the chips received, as the supply allowed (RULING G7)
    no_duel_chips: int  # Gold & Guns: the yellow Singer's chips for the round
    horses: int  # Big Box: the Cowboy's horse (RULING X6)


class PersonalityChosen(CardGains):
    """A player chose a personality (and what it gave at once)."""

    type: Required[Literal["personality_chosen"]]
    seat: Required[int]
    card: Required[str]
    side: Required[str]


class CardOptionChosen(Made):
    """A personality's option was chosen (Grocer, red Settler, red Grocer)."""

    type: Literal["card_option_chosen"]
    seat: int
    option: str
    money: NotRequired[int]


class CowboysHired(Made):
    """The Captain hired cowboys."""

    type: Literal["cowboys_hired"]
    seat: int
    count: int
    price: int


class RevolversBought(Made):
    """The red Captain bought revolvers."""

    type: Literal["revolvers_bought"]
    seat: int
    count: int
    price: int


class BuildingTaken(Made):
    """The red Chinese Worker took a building."""

    type: Literal["building_taken"]
    seat: int
    square: str
    building: str
    price: int


class CardDecisionDeclined(Made):
    """A personality's offer was declined."""

    type: Literal["card_decision_declined"]
    seat: int


class PlacementOrderSet(TypedDict):
    """The placement order of the round was set by the card numbers."""

    type: Literal["placement_order_set"]
    order: list[int]


# --- placement ------------------------------------------------------------------------------------------------


class CowboyPlaced(Made):
    """A cowboy (or the white cowboy) was placed on a square, or on a parcel or building given by x and y."""

    type: Literal["cowboy_placed"]
    seat: int
    white: bool
    square: NotRequired[str]
    x: NotRequired[int]
    y: NotRequired[int]
    singer: NotRequired[bool]  # Gold & Guns: the red Singer's cowboy from the general reserve
    dynamite: NotRequired[bool]  # Gold & Guns: a dynamite chip placed with the cowboy (RULING G7)
    no_duel: NotRequired[bool]  # Gold & Guns: placed with the yellow Singer's "no duel" chip
    buy: NotRequired[bool]  # on an owner-free parcel: "buy it if I win and can pay", answered ahead (D106)


class PlayerPassed(Made):
    """A player passed."""

    type: Literal["player_passed"]
    seat: int


# --- resolution -----------------------------------------------------------------------------------------------


class StepCompleted(TypedDict):
    """A step of the round ended; the next one with something to do begins."""

    type: Literal["step_completed"]
    step: str
    next: str


class WagesPaid(TypedDict):
    """Wages were paid."""

    type: Literal["wages_paid"]
    payments: list[Payment]


class RoadsHandedOut(TypedDict):
    """The Road square handed out roads."""

    type: Literal["roads_handed_out"]
    gains: list[RoadGain]


class DuelOrderChosen(Made):
    """The earliest passer chose which contested parcel or building is next."""

    type: Literal["duel_order_chosen"]
    seat: int
    x: int
    y: int


class DuelTileChosen(Made):
    """Might Is Right: a duellist chose a tile (secret until the duel)."""

    type: Literal["duel_tile_chosen"]
    seat: int
    tile: int
    second: NotRequired[int]  # Gold & Guns: a dynamite duellist's second tile (secret as well)


class DuelFought(TypedDict):
    """A duel was fought: every die or tile, firepower and strength, and the winner (and, on a construction
    square, the building fought over)."""

    type: Literal["duel_fought"]
    target: DuelTarget
    duelists: list[Duelist]
    winner: int
    building: NotRequired[str | None]
    winner_vp: NotRequired[int]  # Gold & Guns: what the duel won gives its winner (the yellow Gunsmith)


class TilesDrawn(TypedDict):
    """Might Is Right: an empty hand drew tiles from the used pile (secret)."""

    type: Literal["tiles_drawn"]
    seat: int
    tiles: list[int]


class ChipTaken(TypedDict):
    """The 3-guns chip was taken."""

    type: Literal["chip_taken"]
    seat: int
    square: str


class RoadsGained(TypedDict):
    """Roads were gained (3 Roads)."""

    type: Literal["roads_gained"]
    seat: int
    square: str
    count: int


class MoneyGained(TypedDict):
    """Money was gained: an income square (with the dice of Gambling), or the Grocer (`reason`)."""

    type: Literal["money_gained"]
    seat: int
    amount: int
    square: NotRequired[str]
    dice: NotRequired[list[int]]
    reason: NotRequired[str]


class VpGained(TypedDict):
    """Victory points were scored: a VP square, or a red card at the end of the round (`reason`)."""

    type: Literal["vp_gained"]
    seat: int
    amount: int
    square: NotRequired[str]
    reason: NotRequired[str]


class VpBought(Made):
    """Victory points were bought."""

    type: Literal["vp_bought"]
    seat: int
    square: str
    count: int
    price: int


class ActionDeclined(Made):
    """The winner of a square did not use it."""

    type: Literal["action_declined"]
    seat: int
    square: str


class ParcelBought(Made):
    """A parcel was bought."""

    type: Literal["parcel_bought"]
    seat: int
    x: int
    y: int
    price: int


class ParcelPurchaseDeclined(Made):
    """A parcel was not bought."""

    type: Literal["parcel_purchase_declined"]
    seat: int
    x: int
    y: int


class BuildingBought(Made):
    """A building was bought."""

    type: Literal["building_bought"]
    seat: int
    square: str
    building: str
    price: int


class BuildingPurchaseDeclined(Made):
    """A building was not bought."""

    type: Literal["building_purchase_declined"]
    seat: int
    square: str


class ConstructionStarted(TypedDict):
    """A player began building from their reserve."""

    type: Literal["construction_started"]
    seat: int


class RoadPlaced(Made):
    """A road (or a bridge) was placed."""

    type: Literal["road_placed"]
    seat: int
    x1: int
    y1: int
    x2: int
    y2: int
    bridge: NotRequired[bool]
    vp: NotRequired[int]  # Gold & Guns: the yellow Governor's VP for a road that reaches a new parcel


class PermissionAsked(Made):
    """A builder asked a player for permission to build a house on their parcels (each as [x, y])."""

    type: Literal["permission_asked"]
    seat: int
    asked: int
    parcels: list[list[int]]
    townhouses: NotRequired[list[list[int]]]  # Gold & Guns: those of `parcels` whose house would become a townhouse


class PermissionAnswered(Made):
    """The asked player granted or denied one parcel."""

    type: Literal["permission_answered"]
    seat: int
    x: int
    y: int
    granted: bool
    townhouse: NotRequired[bool]  # Gold & Guns: the parcel's house would become a townhouse (RULING G19)


class PermissionDeniedRest(Made):
    """The asked player denied every parcel not answered yet."""

    type: Literal["permission_denied_rest"]
    seat: int


class BuildingPlaced(Made):
    """A building was placed (`house`: its house is still to be placed)."""

    type: Literal["building_placed"]
    seat: int
    building: str
    x: int
    y: int
    revolvers: int
    house: bool
    houses: NotRequired[int]  # Gold & Guns: the school's houses, when more than one (`001` "School")


class HousePlaced(Made):
    """A building's house was placed."""

    type: Literal["house_placed"]
    seat: int
    x: int
    y: int


class TownhousePlaced(Made):
    """Gold & Guns: instead of a building's new house, a house became a townhouse."""

    type: Literal["townhouse_placed"]
    seat: int
    x: int
    y: int


class CityHallPlaced(Made):
    """Gold & Guns: the City Hall, just drawn, was placed by the first player, with the roads from the general
    supply that reach it (each as [x1, y1, x2, y2]; usually none)."""

    type: Literal["city_hall_placed"]
    seat: int
    x: int
    y: int
    roads: list[list[int]]


class CityHallSetAside(TypedDict):
    """Gold & Guns: the City Hall, just drawn, had no parcel left to stand on and leaves the game."""

    type: Literal["city_hall_set_aside"]


class BuildingKept(Made):
    """A building was kept in reserve (or building from the reserve ended)."""

    type: Literal["building_kept"]
    seat: int


class AttackCancelled(TypedDict):
    """A church next to an attacked building cancelled the attack."""

    type: Literal["attack_cancelled"]
    x: int
    y: int
    seats: list[int]


class BuildingDefended(TypedDict):
    """A building's defender kept its income."""

    type: Literal["building_defended"]
    x: int
    y: int
    seat: int


class AttackWon(TypedDict):
    """An attack on a building succeeded."""

    type: Literal["attack_won"]
    x: int
    y: int
    seat: int


class EstateIncomePaid(TypedDict):
    """The estate income of every building was paid (and what attackers took)."""

    type: Literal["estate_income_paid"]
    payments: list[EstatePayment]


# --- end of round and game ------------------------------------------------------------------------------------


class BankerVpBought(Made):
    """The red Banker bought victory points."""

    type: Literal["banker_vp_bought"]
    seat: int
    vp: int
    price: int


class MoneyGivenUp(Made):
    """Money above the cash limit was given up for VP."""

    type: Literal["money_given_up"]
    seat: int
    amount: int
    vp: int


class CowboysReceived(TypedDict):
    """New cowboys were received."""

    type: Literal["cowboys_received"]
    gains: list[CowboyGain]


class RoundEnded(TypedDict):
    """The round ended: cards, white cowboy and chip returned."""

    type: Literal["round_ended"]
    round: int


class FinalRoadsFinished(Made):
    """The River: a player ended the final road phase."""

    type: Literal["final_roads_finished"]
    seat: int


class GameFinished(TypedDict):
    """The game ended: each player's score and the winner."""

    type: Literal["game_finished"]
    scores: list[dict[str, int]]
    winner: int


# --- Gold & Guns characters -----------------------------------------------------------------------------------


class TaxPayment(TypedDict):
    """What one player paid the red Governor."""

    seat: int
    amount: int


class IndianParcelsTaken(TypedDict):
    """The yellow Indian received owner-free parcels found by dice (every roll, re-rolls included)."""

    type: Literal["indian_parcels_taken"]
    seat: int
    parcels: list[XY]
    dice: list[list[int]]


class CardFlipped(TypedDict):
    """A card turned to its other side for the rest of the game (the Prospector with no mine left)."""

    type: Literal["card_flipped"]
    seat: int
    card: str
    side: str
    dynamite: NotRequired[int]  # the red side's chips, received by the holder at once (decision D58)


class MineProspected(Made):
    """The yellow Prospector paid for a mine (from a construction square, or the bag without `square`) and built
    it on an owner-free parcel, which became theirs."""

    type: Literal["mine_prospected"]
    seat: int
    x: int
    y: int
    price: int
    revolvers: int
    square: NotRequired[str]


class TaxCollected(Made):
    """The red Governor taxed the other players' revolvers or money."""

    type: Literal["tax_collected"]
    seat: int
    tax: str
    payments: list[TaxPayment]


class SingerGambled(TypedDict):
    """The red Singer's cowboy on Gambling income won the product of two dice."""

    type: Literal["singer_gambled"]
    seat: int
    dice: list[int]
    amount: int
class AuctionOpened(TypedDict):
    """The Auctioneer opened an auction on choosing the card: of `size` owner-free parcels still to be chosen
    (yellow), or of the 3-guns chip (red, `size` 0) (`001` "The Auctioneer (12)", RULING G8)."""

    type: Literal["auction_opened"]
    seat: int
    lot: str
    size: int


class AuctionParcelChosen(Made):
    """The Auctioneer put an auction chip on an owner-free parcel."""

    type: Literal["auction_parcel_chosen"]
    seat: int
    x: int
    y: int


class BidMade(Made):
    """A player bid in the auction, more than the bid before."""

    type: Literal["bid_made"]
    seat: int
    amount: int


class BidPassed(Made):
    """A player passed in the auction, for good."""

    type: Literal["bid_passed"]
    seat: int


class AuctionClosed(TypedDict):
    """The auction ended: the last bidder (`winner`, None when nobody bid) paid `amount`, `bank` of it to the bank
    and `auctioneer_gets` to the Auctioneer (`seat`; his own share stays his when he wins), and took the parcels
    or the 3-guns chip."""

    type: Literal["auction_closed"]
    seat: int
    lot: str
    winner: int | None
    amount: int
    bank: int
    auctioneer_gets: int
    parcels: list[XY]


# --- the Outlaws (`001` "Outlaws", RULING G4) --------------------------------------------------------------------


class OutlawJailed(TypedDict):
    """An outlaw started a round on a prison: it went back to the supply and the prison's owner (`seat`) took the
    VP of the outlaw tile."""

    type: Literal["outlaw_jailed"]
    x: int
    y: int
    seat: int
    vp: int


class OutlawsArrived(TypedDict):
    """Outlaws arrived at the start of a round: the black die gives the strength (+7), the white die how many;
    each took two dice (`dice`, every roll as [white, black], re-rolls included) to find its parcel."""

    type: Literal["outlaws_arrived"]
    round: int
    black: int
    white: int
    strength: int
    parcels: list[XY]
    dice: list[list[int]]


class OutlawMoved(Made):
    """An outlaw stepped from (x, y) to the neighbouring building with the highest income; `tied` lists the
    buildings a random draw chose among, `seat` the first player when they picked this outlaw to move next."""

    type: Literal["outlaw_moved"]
    x: int
    y: int
    to: XY
    tied: NotRequired[list[XY]]
    seat: NotRequired[int]


class OutlawsSettled(TypedDict):
    """Every outlaw has moved (or stayed): the round goes on to the personalities."""

    type: Literal["outlaws_settled"]


class OutlawFought(TypedDict):
    """The cowboys on an outlaw's parcel fought it: each one's die or tile, firepower and strength against the
    outlaw's `strength`; `winner` is the best player when their strength reached the outlaw's, else None (the
    outlaw won). Losers went back to their reserve; a beaten outlaw went back to the supply."""

    type: Literal["outlaw_fought"]
    x: int
    y: int
    strength: int
    duelists: list[Duelist]
    winner: int | None
    winner_vp: NotRequired[int]  # Gold & Guns: the yellow Gunsmith's VP for a fight won (R-GG-7)
    bounty: NotRequired[Bounty]  # Gold & Guns: the Doctor's or the Undertaker's money for a beaten outlaw
    copier_bounty: NotRequired[Bounty]  # Big Box: the same to a Newspaper Boy copying that card (RULING X7)


class OutlawRewardTaken(Made):
    """The winner of an outlaw fight took the tile's VP, or left the cowboy to take half of that building's
    income at the estate income (`vp` 0); the cowboy then left the parcel."""

    type: Literal["outlaw_reward_taken"]
    x: int
    y: int
    seat: int
    reward: Literal["vp", "income"]
    vp: int


# --- dynamite and the red Gunsmith (RULING G7) -----------------------------------------------------------------


class DuelRolled(TypedDict):
    """A duel with the red Gunsmith: everyone's first throw, before he decides whether to roll again (`seat`)."""

    type: Literal["duel_rolled"]
    target: DuelTarget
    seat: int
    duelists: list[Duelist]


class DieRerolled(Made):
    """The red Gunsmith rolled again: `throw` counts instead of `first`."""

    type: Literal["die_rerolled"]
    seat: int
    first: Throw
    throw: Throw


class RollKept(Made):
    """The red Gunsmith kept his roll."""

    type: Literal["roll_kept"]
    seat: int


class RevealedTile(TypedDict):
    seat: int
    tile: int
    second: NotRequired[int]


class DuelTilesRevealed(TypedDict):
    """Might Is Right: the tiles of the red Gunsmith's opponents are shown before he chooses his (he plays last)."""

    type: Literal["duel_tiles_revealed"]
    target: DuelTarget
    seat: int
    tiles: list[RevealedTile]


class MineDynamited(Made):
    """A dynamite chip was used on a mine: its estate income is tripled this round."""

    type: Literal["mine_dynamited"]
    seat: int
    x: int
    y: int


class DynamiteKept(Made):
    """A player used no (more) dynamite at this estate income."""

    type: Literal["dynamite_kept"]
    seat: int
# --- the Doctor and the Undertaker (`001` "The Doctor / The Undertaker (14)", RULING G11) ------------------------


class CowboyHealed(Made):
    """A defeated cowboy was moved by the Doctor (`doctor`, paid `price`, 0 for his own) to a square or parcel
    whose turn has not come yet; it acts there as if placed there."""

    type: Literal["cowboy_healed"]
    seat: int
    doctor: int
    price: int
    square: NotRequired[str]
    x: NotRequired[int]
    y: NotRequired[int]


class HealingDeclined(Made):
    """The owner of a defeated cowboy did not call the Doctor: it went back to their reserve."""

    type: Literal["healing_declined"]
    seat: int


class UndertakerPaid(Made):
    """The owner of a defeated cowboy paid the Undertaker `money` or lost `vp` (both 0 when they had neither); the
    cowboy went back to their reserve."""

    type: Literal["undertaker_paid"]
    seat: int
    undertaker: int
    money: int
    vp: int


class WagesChosen(Made):
    """Big Box: at Wages, `seat` chose to pay $4 for a horse (`horse`) or to take its wages; paid with the wages
    (RULING X6, decision D87)."""

    type: Literal["wages_chosen"]
    seat: int
    horse: bool


class CardCopied(CardGains):
    """Big Box: the Newspaper Boy's holder copies `card` on `side` for the round (RULING X2), with what it gives
    at once, as `personality_chosen` gives it."""

    type: Required[Literal["card_copied"]]
    seat: Required[int]
    card: Required[str]
    side: Required[str]


# --- the table ------------------------------------------------------------------------------------------------


class SeatReplaced(TypedDict):
    """An admin gave a seat to another player (the seat, the previous and the new username)."""

    type: Literal["seat_replaced"]
    seat: int
    previous: str
    username: str


class MoveUndone(TypedDict):
    """A player took back their last move (`app.rules.undo`): the `events` public events before this one that
    the move made. Events of the log stay where they are; the state is as if the move had never been made. A
    count, not seq numbers: viewers number the log differently (`visible_seq`), and every viewer sees all of
    the move's events."""

    type: Literal["move_undone"]
    seat: int
    events: int


Event = (
    GameStarted | TurnOrderDrawn | CentrePlaced | MountainsPlaced | ConstructionRefilled | TilesDealt | SideVoted
    | SidesDecided | ShopItemAdded | ShopItemRemoved | ShoppingFinished | ShoppingRevealed | ParcelPickForfeited
    | ParcelClaimed | PersonalityChosen | CardOptionChosen | CowboysHired | RevolversBought | BuildingTaken
    | CardDecisionDeclined | PlacementOrderSet | CowboyPlaced | PlayerPassed | StepCompleted | WagesPaid
    | RoadsHandedOut | DuelOrderChosen | DuelTileChosen | DuelFought | TilesDrawn | ChipTaken | RoadsGained
    | MoneyGained | VpGained | VpBought | ActionDeclined | ParcelBought | ParcelPurchaseDeclined | BuildingBought
    | BuildingPurchaseDeclined | ConstructionStarted | RoadPlaced | PermissionAsked | PermissionAnswered
    | PermissionDeniedRest | BuildingPlaced | HousePlaced | TownhousePlaced | CityHallPlaced | CityHallSetAside
    | BuildingKept | AttackCancelled
    | BuildingDefended
    | AttackWon | EstateIncomePaid | BankerVpBought | MoneyGivenUp | CowboysReceived | RoundEnded
    | FinalRoadsFinished | GameFinished | SeatReplaced | MoveUndone
    | IndianParcelsTaken | CardFlipped | MineProspected | TaxCollected | SingerGambled
    | AuctionOpened | AuctionParcelChosen | BidMade | BidPassed | AuctionClosed
    | OutlawJailed | OutlawsArrived | OutlawMoved | OutlawsSettled | OutlawFought | OutlawRewardTaken
    | DuelRolled | DieRerolled | RollKept | DuelTilesRevealed | MineDynamited | DynamiteKept
    | CowboyHealed | HealingDeclined | UndertakerPaid
    | WagesChosen | CardCopied
)

# Events that nobody but their own `seat` may know of at all, not even that they happened: A New Beginning's
# basket edits are hidden "until everyone is done" (RULING V4), and their number would tell the others how
# full a basket is. The reveal (`shopping_revealed`) then shows every basket. The store counts these by their
# type and `seat` field too (a viewer's seq numbers skip them), so an entry here is all a new one needs.
PRIVATE_EVENTS: Final[frozenset[EventType]] = frozenset({"shop_item_added", "shop_item_removed"})


def private_to(event: Mapping[str, Any]) -> int | None:
    """The only seat that may know of `event`, or None when everyone may (redacted as `redact_event` says).
    Any mapping will do: the store asks this of events read back from the log as well."""
    if event["type"] in PRIVATE_EVENTS:
        seat: int = event["seat"]
        return seat
    return None
