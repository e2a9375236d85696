"""The move vocabulary: every move a player may submit, one model per "type", for documentation (the API's
OpenAPI schema shows them) and for checking that `legal_moves` only ever lists well-formed moves.

Legality is not decided here — `legal_moves` is the single truth; these models only describe the shapes.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

X = Field(ge=1, le=8, description="Parcel column, 1 (west) to 8 (east).")
Y = Field(ge=1, le=8, description="Parcel row, 1 (north) to 8 (south).")
OPTIONAL_X = Field(default=None, ge=1, le=8, description="Parcel column (with y), or leave out for a square.")
OPTIONAL_Y = Field(default=None, ge=1, le=8, description="Parcel row (with x), or leave out for a square.")
POINT = Field(ge=0, le=8, description="A grid point coordinate, 0 to 8.")


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _OnParcel(_Move):
    """A move that names one parcel."""

    x: int = X
    y: int = Y


class ClaimParcel(_OnParcel):
    """Take an owner-free parcel: a starting parcel, the Settler's parcel or a parcel pick."""

    type: Literal["claim_parcel"]


class ChoosePersonality(_Move):
    """Choose a personality card still available."""

    type: Literal["choose_personality"]
    card: str = Field(description="sheriff, banker, grocer, chinese_worker, settler, captain or mercenary")


class GrocerChoice(_Move):
    """The (yellow) Grocer: double one building type's income, or $8 now or at the estate income."""

    type: Literal["grocer_choice"]
    option: Literal["double", "money_now", "money_at_income"]
    building: str | None = None


class CardOption(_Move):
    """The red Settler or red Grocer: $8 now ("money") or VP at the end of the round ("vp")."""

    type: Literal["card_option"]
    option: Literal["money", "vp"]


class HireCowboys(_Move):
    """The Captain: 0-3 extra cowboys for $0/$1/$4/$9."""

    type: Literal["hire_cowboys"]
    count: int = Field(ge=0, le=3)


class BuyRevolvers(_Move):
    """The red Captain: 0-2 revolvers for $0/$3/$9."""

    type: Literal["buy_revolvers"]
    count: int = Field(ge=0, le=2)


class TakeBuilding(_Move):
    """The red Chinese Worker: take the building of a construction square for $5."""

    type: Literal["take_building"]
    square: str


class Decline(_Move):
    """Decline what is offered (a building, the red Chinese Worker's building, ...)."""

    type: Literal["decline"]


class PlaceCowboy(_Move):
    """Place a cowboy on an action square, or on a parcel / building given by x and y."""

    type: Literal["place_cowboy"]
    square: str | None = None
    x: int | None = OPTIONAL_X
    y: int | None = OPTIONAL_Y


class PlaceWhiteCowboy(_Move):
    """Place the Sheriff's white cowboy (on a square, or a parcel / own building)."""

    type: Literal["place_white_cowboy"]
    square: str | None = None
    x: int | None = OPTIONAL_X
    y: int | None = OPTIONAL_Y


class Pass(_Move):
    """Stop placing cowboys this round."""

    type: Literal["pass"]


class ResolveDuel(_OnParcel):
    """Choose which contested parcel or building is fought over next."""

    type: Literal["resolve_duel"]


class BuyParcel(_OnParcel):
    """Buy the parcel your cowboy stands on."""

    type: Literal["buy_parcel"]


class DeclineParcel(_OnParcel):
    """Do not buy the parcel your cowboy stands on."""

    type: Literal["decline_parcel"]


class BuyBuilding(_Move):
    """Buy the building of the construction square you won."""

    type: Literal["buy_building"]


class PlaceRoad(_Move):
    """Place a road from your reserve on the edge between two neighbouring grid points."""

    type: Literal["place_road"]
    x1: int = POINT
    y1: int = POINT
    x2: int = POINT
    y2: int = POINT


class AskPermission(_Move):
    """Ask another player for permission to build the house on their parcels."""

    type: Literal["ask_permission"]
    seat: int = Field(ge=0)


class AnswerPermission(_OnParcel):
    """Grant or deny one of your parcels for the builder's house."""

    type: Literal["answer_permission"]
    grant: bool


class DenyRemaining(_Move):
    """Deny every parcel of the request not answered yet."""

    type: Literal["deny_remaining"]


class PlaceBuilding(_Move):
    """Place a building (bought or from your reserve) on your empty parcel."""

    type: Literal["place_building"]
    building: str
    x: int = X
    y: int = Y


class PlaceHouse(_OnParcel):
    """Place the building's free house."""

    type: Literal["place_house"]


class PlaceTownhouse(_OnParcel):
    """Gold & Guns: instead of a new house, turn a house hemmed in on all eight sides into a townhouse."""

    type: Literal["place_townhouse"]


class KeepBuilding(_Move):
    """Keep the building in your reserve (or stop building from it)."""

    type: Literal["keep_building"]


class BuyVp(_Move):
    """Buy victory points on the square you won (0 = none)."""

    type: Literal["buy_vp"]
    count: int = Field(ge=0)


class BankerVp(_Move):
    """The red Banker: 0, 3, 5 or 7 VP for $0, $3, $12 or $25."""

    type: Literal["banker_vp"]
    vp: int = Field(ge=0)


class GiveUpMoney(_Move):
    """At the cash limit: give up at least the excess (1 VP per $10 given up)."""

    type: Literal["give_up_money"]
    amount: int = Field(ge=0)


class VoteSide(_Move):
    """The per-card vote: which side of one card you want."""

    type: Literal["vote_side"]
    card: str
    side: Literal["yellow", "red"]


class PlayTile(_Move):
    """Might Is Right: the duel tile you play in the current duel."""

    type: Literal["play_tile"]
    tile: int = Field(ge=0, le=5)


class ShopAdd(_Move):
    """A New Beginning: put one item in your basket."""

    type: Literal["shop_add"]
    item: str


class ShopRemove(_Move):
    """A New Beginning: take one item back out of your basket."""

    type: Literal["shop_remove"]
    item: str


class ShopDone(_Move):
    """A New Beginning: your shopping is finished."""

    type: Literal["shop_done"]


class FinishRoads(_Move):
    """The River's final road phase: place no more roads."""

    type: Literal["finish_roads"]


def _concrete(cls: type[_Move]) -> list[type[_Move]]:
    found: list[type[_Move]] = []
    for sub in cls.__subclasses__():
        found += _concrete(sub) if sub.__name__.startswith("_") else [sub]
    return found


MOVE_MODELS: tuple[type[_Move], ...] = tuple(_concrete(_Move))
# A discriminated union of every model, built from the tuple so that a new move class is included by itself.
MOVE_ADAPTER: TypeAdapter[Any] = TypeAdapter(
    Annotated[Union[MOVE_MODELS], Field(discriminator="type")]  # type: ignore[arg-type]  # noqa: UP007
)


def move_json_schema() -> dict[str, Any]:
    """One flat JSON schema per move type, for the OpenAPI description of a move."""
    return {"oneOf": [model.model_json_schema() for model in MOVE_MODELS]}


def is_well_formed(move: dict[str, Any]) -> bool:
    """Whether `move` has the shape of one of the documented moves."""
    try:
        MOVE_ADAPTER.validate_python(move)
    except ValueError:
        return False
    return True
