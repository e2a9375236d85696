"""The move vocabulary: every move a player may submit, one typed dict per "type".

Each move is a `TypedDict` whose `type` is a `Literal`, so that mypy checks the moves `legal_moves` lists and the
fields `decide` reads; the same classes, with their field constraints, give the API's OpenAPI schema and the
well-formedness check (pydantic reads a TypedDict as it reads a model): one description of each move, not two.

Legality is not decided here — `legal_moves` is the single truth; these types only describe the shapes. The rules
core imports this module for its types only (under TYPE_CHECKING), so the core itself runs without pydantic.
pydantic needs typing_extensions' TypedDict below Python 3.12. No `from __future__ import annotations` here: a
TypedDict reads NotRequired only from evaluated annotations.
"""

from typing import Annotated, Any, Final, Literal, NotRequired, TypeAlias, get_args

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

MoveType = Literal[
    "claim_parcel", "choose_personality", "grocer_choice", "card_option", "hire_cowboys", "buy_revolvers",
    "take_building", "decline", "place_cowboy", "place_white_cowboy", "pass", "resolve_duel", "buy_parcel",
    "decline_parcel", "buy_building", "place_road", "ask_permission", "answer_permission", "deny_remaining",
    "place_building", "place_house", "place_townhouse", "place_city_hall", "keep_building", "buy_vp", "banker_vp",
    "give_up_money",
    "vote_side", "play_tile", "shop_add", "shop_remove", "shop_done", "finish_roads",
    "prospect_mine", "collect_tax", "place_singer_cowboy", "auction_parcel", "bid", "bid_pass",
    "move_outlaw", "outlaw_reward",
    "use_dynamite", "keep_dynamite", "reroll", "keep_roll",
    "heal_cowboy", "pay_undertaker",
    "buy_horse", "copy_card",
]
MOVE_TYPES: Final[frozenset[MoveType]] = frozenset(get_args(MoveType))

X = Field(ge=1, le=8, description="Parcel column, 1 (west) to 8 (east).")
Y = Field(ge=1, le=8, description="Parcel row, 1 (north) to 8 (south).")
OPTIONAL_X = Field(ge=1, le=8, description="Parcel column (with y), or leave out for a square.")
OPTIONAL_Y = Field(ge=1, le=8, description="Parcel row (with x), or leave out for a square.")
POINT = Field(ge=0, le=8, description="A grid point coordinate, 0 to 8.")
# No field beyond those listed, and no conversions: `true` is not 1 and "3" is not 3 (as for `is_legal`).
_EXACT = ConfigDict(extra="forbid", strict=True)


class _OnParcel(TypedDict):
    """A move that names one parcel."""

    x: Annotated[int, X]
    y: Annotated[int, Y]


@with_config(_EXACT)
class ClaimParcel(_OnParcel):
    """Take an owner-free parcel: a starting parcel, the Settler's parcel or a parcel pick."""

    type: Literal["claim_parcel"]


@with_config(_EXACT)
class ChoosePersonality(TypedDict):
    """Choose a personality card still available."""

    type: Literal["choose_personality"]
    card: Annotated[str, Field(description="sheriff, banker, grocer, chinese_worker, settler, captain, mercenary; "
                                           "with Gold & Guns also indian, prospector, gunsmith, singer, "
                                           "auctioneer, governor, doctor; with Big Box also "
                                           "newspaper_boy, cowboy, heroes, teacher (the cards of the game)")]
    side: NotRequired[Annotated[Literal["yellow", "red"], Field(
        description="Gold & Guns: the side of the Doctor / Undertaker, chosen with the card (doctor only)")]]


@with_config(_EXACT)
class GrocerChoice(TypedDict):
    """The (yellow) Grocer: double one building type's income, or $8 now or at the estate income."""

    type: Literal["grocer_choice"]
    option: Literal["double", "money_now", "money_at_income"]
    building: NotRequired[str]


@with_config(_EXACT)
class CardOption(TypedDict):
    """The red Settler or red Grocer: $8 now ("money") or VP at the end of the round ("vp")."""

    type: Literal["card_option"]
    option: Literal["money", "vp"]


@with_config(_EXACT)
class HireCowboys(TypedDict):
    """The Captain: 0-3 extra cowboys for $0/$1/$4/$9."""

    type: Literal["hire_cowboys"]
    count: Annotated[int, Field(ge=0, le=3)]


@with_config(_EXACT)
class BuyRevolvers(TypedDict):
    """The red Captain: 0-2 revolvers for $0/$3/$9."""

    type: Literal["buy_revolvers"]
    count: Annotated[int, Field(ge=0, le=2)]


@with_config(_EXACT)
class TakeBuilding(TypedDict):
    """The red Chinese Worker: take the building of a construction square for $5."""

    type: Literal["take_building"]
    square: str


@with_config(_EXACT)
class Decline(TypedDict):
    """Decline what is offered (a building, the red Chinese Worker's building, ...)."""

    type: Literal["decline"]


@with_config(_EXACT)
class PlaceCowboy(TypedDict):
    """Place a cowboy on an action square, or on a parcel / building given by x and y; with Gold & Guns, `dynamite`
    places one of your dynamite chips with it (two dice, or two duel tiles, in its duel)."""

    type: Literal["place_cowboy"]
    square: NotRequired[str]
    x: NotRequired[Annotated[int, OPTIONAL_X]]
    y: NotRequired[Annotated[int, OPTIONAL_Y]]
    dynamite: NotRequired[Annotated[bool, Field(description="Place a dynamite chip with the cowboy (Gold & Guns).")]]
    no_duel: NotRequired[Annotated[bool, Field(
        description="Gold & Guns, the yellow Singer: with a \"no duel\" chip (3 Roads, money, VP squares)")]]
    buy: NotRequired[Annotated[bool, Field(
        description="On an owner-free parcel: buy it if you win it and can pay, without being asked (decision D106).")]]


@with_config(_EXACT)
class PlaceWhiteCowboy(TypedDict):
    """Place the Sheriff's white cowboy (on a square, or a parcel / own building)."""

    type: Literal["place_white_cowboy"]
    square: NotRequired[str]
    x: NotRequired[Annotated[int, OPTIONAL_X]]
    y: NotRequired[Annotated[int, OPTIONAL_Y]]
    buy: NotRequired[Annotated[bool, Field(
        description="On an owner-free parcel: buy it if you win it and can pay, without being asked (decision D106).")]]


@with_config(_EXACT)
class Pass(TypedDict):
    """Stop placing cowboys this round."""

    type: Literal["pass"]


@with_config(_EXACT)
class ResolveDuel(_OnParcel):
    """Choose which contested parcel or building is fought over next."""

    type: Literal["resolve_duel"]


@with_config(_EXACT)
class BuyParcel(_OnParcel):
    """Buy the parcel your cowboy stands on."""

    type: Literal["buy_parcel"]


@with_config(_EXACT)
class DeclineParcel(_OnParcel):
    """Do not buy the parcel your cowboy stands on."""

    type: Literal["decline_parcel"]


@with_config(_EXACT)
class BuyBuilding(TypedDict):
    """Buy the building of the construction square you won."""

    type: Literal["buy_building"]


@with_config(_EXACT)
class PlaceRoad(TypedDict):
    """Place a road from your reserve on the edge between two neighbouring grid points."""

    type: Literal["place_road"]
    x1: Annotated[int, POINT]
    y1: Annotated[int, POINT]
    x2: Annotated[int, POINT]
    y2: Annotated[int, POINT]


@with_config(_EXACT)
class AskPermission(TypedDict):
    """Ask another player for permission to build the house on their parcels."""

    type: Literal["ask_permission"]
    seat: Annotated[int, Field(ge=0)]


@with_config(_EXACT)
class AnswerPermission(_OnParcel):
    """Grant or deny one of your parcels for the builder's house."""

    type: Literal["answer_permission"]
    grant: bool


@with_config(_EXACT)
class DenyRemaining(TypedDict):
    """Deny every parcel of the request not answered yet."""

    type: Literal["deny_remaining"]


@with_config(_EXACT)
class PlaceBuilding(TypedDict):
    """Place a building (bought or from your reserve) on your empty parcel."""

    type: Literal["place_building"]
    building: str
    x: Annotated[int, X]
    y: Annotated[int, Y]


@with_config(_EXACT)
class PlaceHouse(_OnParcel):
    """Place the building's free house."""

    type: Literal["place_house"]


@with_config(_EXACT)
class PlaceTownhouse(_OnParcel):
    """Gold & Guns: instead of a new house, turn a house hemmed in on all eight sides into a townhouse."""

    type: Literal["place_townhouse"]


@with_config(_EXACT)
class PlaceCityHall(_OnParcel):
    """Gold & Guns: place the City Hall, just drawn from the bag, on an owner-free parcel a road reaches."""

    type: Literal["place_city_hall"]


@with_config(_EXACT)
class KeepBuilding(TypedDict):
    """Keep the building in your reserve (or stop building from it)."""

    type: Literal["keep_building"]


@with_config(_EXACT)
class BuyVp(TypedDict):
    """Buy victory points on the square you won (0 = none)."""

    type: Literal["buy_vp"]
    count: Annotated[int, Field(ge=0)]


@with_config(_EXACT)
class BankerVp(TypedDict):
    """The red Banker: 0, 3, 5 or 7 VP for $0, $3, $12 or $25."""

    type: Literal["banker_vp"]
    vp: Annotated[int, Field(ge=0)]


@with_config(_EXACT)
class GiveUpMoney(TypedDict):
    """At the cash limit: give up at least the excess (1 VP per $10 given up)."""

    type: Literal["give_up_money"]
    amount: Annotated[int, Field(ge=0)]


@with_config(_EXACT)
class VoteSide(TypedDict):
    """The per-card vote: which side of one card you want."""

    type: Literal["vote_side"]
    card: str
    side: Literal["yellow", "red"]


@with_config(_EXACT)
class PlayTile(TypedDict):
    """Might Is Right: the duel tile you play in the current duel (with a dynamite chip, two tiles: `second`)."""

    type: Literal["play_tile"]
    tile: Annotated[int, Field(ge=0, le=5)]
    second: NotRequired[Annotated[int, Field(ge=0, le=5, description="The second tile of a dynamite duellist.")]]


@with_config(_EXACT)
class ShopAdd(TypedDict):
    """A New Beginning: put one item in your basket."""

    type: Literal["shop_add"]
    item: str


@with_config(_EXACT)
class ShopRemove(TypedDict):
    """A New Beginning: take one item back out of your basket."""

    type: Literal["shop_remove"]
    item: str


@with_config(_EXACT)
class ShopDone(TypedDict):
    """A New Beginning: your shopping is finished."""

    type: Literal["shop_done"]


@with_config(_EXACT)
class FinishRoads(TypedDict):
    """The River's final road phase: place no more roads."""

    type: Literal["finish_roads"]


@with_config(_EXACT)
class ProspectMine(_OnParcel):
    """Gold & Guns, the yellow Prospector: pay $10 for the mine of a construction square (or, with none there,
    one from the bag: leave `square` out) and build it on an owner-free parcel, which becomes yours."""

    type: Literal["prospect_mine"]
    square: NotRequired[str]


@with_config(_EXACT)
class CollectTax(TypedDict):
    """Gold & Guns, the red Governor: $1 per revolver chip, or $1 per full or started $10, of each other player."""

    type: Literal["collect_tax"]
    tax: Literal["revolvers", "money"]


@with_config(_EXACT)
class PlaceSingerCowboy(TypedDict):
    """Gold & Guns, the red Singer: place a cowboy from the general reserve on Gambling income, once a round."""

    type: Literal["place_singer_cowboy"]
@with_config(_EXACT)
class AuctionParcel(_OnParcel):
    """Gold & Guns, the yellow Auctioneer: put an auction chip on an owner-free parcel (two, one at a time)."""

    type: Literal["auction_parcel"]


@with_config(_EXACT)
class Bid(TypedDict):
    """Gold & Guns, the Auctioneer's auction: bid more than the last bid, within your money."""

    type: Literal["bid"]
    amount: Annotated[int, Field(ge=1)]


@with_config(_EXACT)
class BidPass(TypedDict):
    """Gold & Guns, the Auctioneer's auction: pass; you may not bid again in this auction."""

    type: Literal["bid_pass"]


class MoveOutlaw(_OnParcel):
    """The Outlaws: the first player picks the outlaw on this parcel to move next."""

    type: Literal["move_outlaw"]


@with_config(_EXACT)
class OutlawReward(TypedDict):
    """The Outlaws: the winner of a fight takes the outlaw tile's VP, or half the income of its building."""

    type: Literal["outlaw_reward"]
    reward: Literal["vp", "income"]


@with_config(_EXACT)
class UseDynamite(_OnParcel):
    """Gold & Guns, dynamite: triple the estate income of your mine on this parcel this round (one chip)."""

    type: Literal["use_dynamite"]


@with_config(_EXACT)
class KeepDynamite(TypedDict):
    """Gold & Guns, dynamite: use no (more) chips at this estate income; you keep them."""

    type: Literal["keep_dynamite"]


@with_config(_EXACT)
class Reroll(TypedDict):
    """Gold & Guns, the red Gunsmith: roll your die (or dice) again in this duel; the new roll counts."""

    type: Literal["reroll"]


@with_config(_EXACT)
class KeepRoll(TypedDict):
    """Gold & Guns, the red Gunsmith: keep your roll in this duel."""

    type: Literal["keep_roll"]
class HealCowboy(TypedDict):
    """Gold & Guns, the Doctor: move your defeated cowboy (for $3, free for the Doctor's own) to a square or parcel
    no cowboy holds whose turn has not come yet."""

    type: Literal["heal_cowboy"]
    square: NotRequired[str]
    x: NotRequired[Annotated[int, OPTIONAL_X]]
    y: NotRequired[Annotated[int, OPTIONAL_Y]]


@with_config(_EXACT)
class PayUndertaker(TypedDict):
    """Gold & Guns, the Undertaker: for your defeated cowboy, pay him $2 ("money") or lose 1 VP ("vp")."""

    type: Literal["pay_undertaker"]
    pay: Literal["money", "vp"]


@with_config(_EXACT)
class BuyHorse(TypedDict):
    """Big Box, at Wages: pay $4 for a horse instead of taking $4 for one of your cowboys there (one a round)."""

    type: Literal["buy_horse"]


@with_config(_EXACT)
class CopyCard(TypedDict):
    """Big Box, the Newspaper Boy: copy another card of the game but the Sheriff, taken or not (RULING X2)."""

    type: Literal["copy_card"]
    card: Annotated[str, Field(description="a card of the game other than sheriff and newspaper_boy")]
    side: NotRequired[Annotated[Literal["yellow", "red"], Field(
        description="the side of the Doctor / Undertaker, when nobody has chosen it yet (doctor only)")]]


Move: TypeAlias = (
    ClaimParcel | ChoosePersonality | GrocerChoice | CardOption | HireCowboys | BuyRevolvers | TakeBuilding
    | Decline | PlaceCowboy | PlaceWhiteCowboy | Pass | ResolveDuel | BuyParcel | DeclineParcel | BuyBuilding
    | PlaceRoad | AskPermission | AnswerPermission | DenyRemaining | PlaceBuilding | PlaceHouse | PlaceTownhouse
    | PlaceCityHall | KeepBuilding
    | BuyVp | BankerVp | GiveUpMoney | VoteSide | PlayTile | ShopAdd | ShopRemove | ShopDone | FinishRoads
    | ProspectMine | CollectTax | PlaceSingerCowboy | AuctionParcel | Bid | BidPass
    | MoveOutlaw | OutlawReward
    | UseDynamite | KeepDynamite | Reroll | KeepRoll
    | HealCowboy | PayUndertaker
    | BuyHorse | CopyCard
)
MOVE_SHAPES: Final[tuple[type[Any], ...]] = get_args(Move)
MOVE_ADAPTER: Final[TypeAdapter[Move]] = TypeAdapter(Annotated[Move, Field(discriminator="type")])


def move_json_schema() -> dict[str, Any]:
    """One flat JSON schema per move type, for the OpenAPI description of a move."""
    return {"oneOf": [TypeAdapter(shape).json_schema() for shape in MOVE_SHAPES]}


def is_well_formed(move: dict[str, Any]) -> bool:
    """Whether `move` has the shape of one of the documented moves."""
    try:
        MOVE_ADAPTER.validate_python(move)
    except ValueError:
        return False
    return True
