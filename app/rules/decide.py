"""decide(state, seat, move, seed) -> events: validate a move against `legal_moves`, turn it into events, then
run the flow's automatic steps until the next real decision.

A move outside `legal_moves` raises IllegalMove with a stable code and a sentence for the player; nothing is
produced, so nothing changes. One handler per move type (`registry.MOVES`): the base game's below, the families'
in their own modules (`app.rules.families`); `decline`, one move for many decisions, means what the family of the
decision it answers registered (`registry.DECLINES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

import app.rules.families  # noqa: F401  (every family registers its moves before one is played)
from app.rules.board import parcel_index
from app.rules.catalog import (
    BANKER_VP_PRICES,
    BRIDGE_ROADS,
    BUILDINGS,
    BUY_VP_PRICE,
    CAPTAIN_COWBOY_PRICES,
    CAPTAIN_REVOLVER_PRICES,
    CASH_LIMIT_MONEY_PER_VP,
    CHINESE_WORKER_RED_PRICE,
    CONSTRUCTION_INDEX,
    GROCER_MONEY,
    PERSONALITIES,
    SETTLER_RED_MONEY,
)
from app.rules.characters import card_gains, on_choosing, road_vp
from app.rules.construction import (
    houses_to_place,
    is_bridge,
    needs_house,
    permission_parcels,
)
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import evolve
from app.rules.duels import duelling_seats, fight
from app.rules.dynamite import rerolling_seat
from app.rules.events import (
    BuildingPlaced,
    BuildingTaken,
    ClaimReason,
    CowboyPlaced,
    Event,
    PermissionAnswered,
    PermissionAsked,
    PersonalityChosen,
    RoadPlaced,
)
from app.rules.explain import explain_illegal
from app.rules.flow import awaiting, next_step
from app.rules.legal import is_legal, legal_moves_view
from app.rules.model import GameState
from app.rules.outlaws import fight_outlaw
from app.rules.prices import building_price, parcel_price
from app.rules.registry import DECLINES, declines, move_handler
from app.rules.registry import MOVES as _MOVES
from app.rules.rng import Rng
from app.rules.steps import finish_step
from app.rules.supply import refill_event

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import (
        AnswerPermission,
        AskPermission,
        BankerVp,
        BuyBuilding,
        BuyParcel,
        BuyRevolvers,
        BuyVp,
        CardOption,
        ChoosePersonality,
        ClaimParcel,
        Decline,
        DeclineParcel,
        DenyRemaining,
        GiveUpMoney,
        GrocerChoice,
        HireCowboys,
        KeepBuilding,
        Move,
        Pass,
        PlaceBuilding,
        PlaceCowboy,
        PlaceHouse,
        PlaceRoad,
        PlaceTownhouse,
        PlaceWhiteCowboy,
        ResolveDuel,
        TakeBuilding,
    )

MAX_AUTOMATIC_EVENTS = 10_000  # a guard against a flow that never waits; a real game has a few hundred
# Why a parcel is claimed, by the decision that claims it; any other claim is the Settler's.
_CLAIM_REASONS: Final[dict[Decision, ClaimReason]] = {
    Decision.START_PARCEL: "start",
    Decision.PARCEL_PICK: "pick",
}


def decide(s: GameState, seat: int, move: Mapping[str, Any], seed: int) -> list[Event]:
    """The events a legal move produces, followed by every automatic step up to the next decision."""
    events, _ = play(s, seat, move, Rng(seed, s.seq))
    return events


def play(s: GameState, seat: int, move: Mapping[str, Any], rng: Rng) -> tuple[list[Event], GameState]:
    """Like `decide`, also returning the state after the events (so callers need not fold them again)."""
    waiting = awaiting(s)
    if waiting is None or seat not in waiting.seats:
        raise explain_illegal(s, seat, move, waiting)
    if not isinstance(move, dict) or not is_legal(s, seat, move):
        raise explain_illegal(s, seat, move, waiting)
    events = _MOVES[move["type"]](s, seat, move, rng, waiting.kind)
    for event in events:
        s = evolve(s, event)
    more, s = advance(s, rng)
    return events + more, s


def advance(s: GameState, rng: Rng) -> tuple[list[Event], GameState]:
    """Run automatic steps, and moves that are a seat's only possibility, until a real decision is awaited."""
    produced: list[Event] = []
    while len(produced) < MAX_AUTOMATIC_EVENTS:
        step = next_step(s)
        if step is None:
            return produced, s
        if isinstance(step, Awaiting):
            forced = _forced_move(s, step)
            if forced is None:
                return produced, s
            seat, move = forced
            new = _MOVES[move["type"]](s, seat, move, rng, step.kind)
        else:
            new = step(rng)
        for event in new:
            s = evolve(s, event)
        produced += new
    raise RuntimeError("the game flow produced too many automatic events")


def _forced_move(s: GameState, waiting: Awaiting) -> tuple[int, Move] | None:
    for seat in waiting.seats:
        moves = legal_moves_view(s, seat)
        if len(moves) == 1 and not _asking_hides_a_hand(s, seat, moves[0]):
            return seat, moves[0]
    return None


def _asking_hides_a_hand(s: GameState, seat: int, move: Move) -> bool:
    """Whether the seat must be asked although it has one choice, because playing it for them would tell the
    table something hidden: a duel tile chosen from a hand of several tiles of one value (D31). Everyone sees
    how many tiles a hand holds, so a lone tile may be played at once; several tiles of one value may not, or
    the others would learn what was drawn (RULING V2: "nobody can work out which tiles another player drew")."""
    return move["type"] == "play_tile" and len(s.players[seat].tiles) > 1


# --- setup and personalities ----------------------------------------------------------------------------------


@move_handler("claim_parcel")
def _claim_parcel(s: GameState, seat: int, move: ClaimParcel, rng: Rng, kind: Decision) -> list[Event]:
    reason: ClaimReason = _CLAIM_REASONS.get(kind, "settler")
    return [{"type": "parcel_claimed", "seat": seat, "x": move["x"], "y": move["y"], "reason": reason}]


@move_handler("choose_personality")
def _choose_personality(s: GameState, seat: int, move: ChoosePersonality, rng: Rng, kind: Decision) -> list[Event]:
    card = move["card"]
    # The Doctor / Undertaker's holder names the side (decision D73); Big Box's cards have theirs (decision D91).
    colour = move.get("side") or s.sides.get(card, "yellow")
    side = PERSONALITIES[card].side(colour)
    event: PersonalityChosen = {"type": "personality_chosen", "seat": seat, "card": card, "side": colour,
                                **card_gains(s, side)}
    return [event, *on_choosing(s, seat, card, side, rng)]


# --- placement ------------------------------------------------------------------------------------------------


def _placed(seat: int, move: PlaceCowboy | PlaceWhiteCowboy, white: bool) -> CowboyPlaced:
    event: CowboyPlaced = {"type": "cowboy_placed", "seat": seat, "white": white}
    if "square" in move:
        event["square"] = move["square"]
    else:
        event["x"], event["y"] = move["x"], move["y"]
    return event


@move_handler("place_cowboy")
def _place_cowboy(s: GameState, seat: int, move: PlaceCowboy, rng: Rng, kind: Decision) -> list[Event]:
    placed = _placed(seat, move, white=False)
    if move.get("dynamite"):
        placed["dynamite"] = True
    if move.get("no_duel"):
        placed["no_duel"] = True  # with one of the yellow Singer's chips (RULING G9)
    return [placed]


@move_handler("place_white_cowboy")
def _place_white_cowboy(s: GameState, seat: int, move: PlaceWhiteCowboy, rng: Rng, kind: Decision) -> list[Event]:
    return [_placed(seat, move, white=True)]


@move_handler("pass")
def _pass(s: GameState, seat: int, move: Pass, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "player_passed", "seat": seat}]


# --- resolution -----------------------------------------------------------------------------------------------


@move_handler("resolve_duel")
def _resolve_duel(s: GameState, seat: int, move: ResolveDuel, rng: Rng, kind: Decision) -> list[Event]:
    index = parcel_index(move["x"], move["y"])
    seats = duelling_seats(s.parcel_cowboys[index])
    chosen: Event = {"type": "duel_order_chosen", "seat": seat, "x": move["x"], "y": move["y"]}
    if s.config.might_is_right or rerolling_seat(s, seats) is not None:
        return [chosen]  # the duellists choose their tiles first, or the red Gunsmith decides after the dice
    fought = fight_outlaw if s.parcels[index].outlaw else fight  # an outlaw's fight is one of the duels (G15)
    return [chosen, fought(s, {"x": move["x"], "y": move["y"]}, seats, rng)]


@move_handler("buy_parcel")
def _buy_parcel(s: GameState, seat: int, move: BuyParcel, rng: Rng, kind: Decision) -> list[Event]:
    price = parcel_price(s, parcel_index(move["x"], move["y"]))
    return [{"type": "parcel_bought", "seat": seat, "x": move["x"], "y": move["y"], "price": price}]


@move_handler("decline_parcel")
def _decline_parcel(s: GameState, seat: int, move: DeclineParcel, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "parcel_purchase_declined", "seat": seat, "x": move["x"], "y": move["y"]}]


@move_handler("buy_vp")
def _buy_vp(s: GameState, seat: int, move: BuyVp, rng: Rng, kind: Decision) -> list[Event]:
    square = s.step
    if move["count"] == 0:
        return [{"type": "action_declined", "seat": seat, "square": square}]
    return [{"type": "vp_bought", "seat": seat, "square": square, "count": move["count"],
             "price": BUY_VP_PRICE[square]}]


# --- end of round ---------------------------------------------------------------------------------------------


@move_handler("give_up_money")
def _give_up_money(s: GameState, seat: int, move: GiveUpMoney, rng: Rng, kind: Decision) -> list[Event]:
    amount = move["amount"]
    return [{"type": "money_given_up", "seat": seat, "amount": amount, "vp": amount // CASH_LIMIT_MONEY_PER_VP}]


@move_handler("decline")
def _decline(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    """What declining means is the declined decision's: its family registered it (`registry.declines`)."""
    return DECLINES[kind](s, seat, move, rng, kind)


# --- the base cards' decisions --------------------------------------------------------------------------------


def _declined(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    """Nothing to take: the card's decision is over."""
    return [{"type": "card_decision_declined", "seat": seat}]


declines(Decision.SETTLER)(_declined)


@move_handler("grocer_choice")
def _grocer_choice(s: GameState, seat: int, move: GrocerChoice, rng: Rng, kind: Decision) -> list[Event]:
    option = move["option"]
    if option == "double":
        return [{"type": "card_option_chosen", "seat": seat, "option": f"double:{move['building']}"}]
    money = GROCER_MONEY if option == "money_now" else 0
    return [{"type": "card_option_chosen", "seat": seat, "option": option, "money": money}]


@move_handler("card_option")
def _card_option(s: GameState, seat: int, move: CardOption, rng: Rng, kind: Decision) -> list[Event]:
    """Red Settler and red Grocer: $8 now, or VP at the end of the round (`000` "Personalities")."""
    money = SETTLER_RED_MONEY if move["option"] == "money" else 0
    return [{"type": "card_option_chosen", "seat": seat, "option": move["option"], "money": money}]


@move_handler("hire_cowboys")
def _hire_cowboys(s: GameState, seat: int, move: HireCowboys, rng: Rng, kind: Decision) -> list[Event]:
    count = move["count"]
    return [{"type": "cowboys_hired", "seat": seat, "count": count, "price": CAPTAIN_COWBOY_PRICES[count]}]


@move_handler("buy_revolvers")
def _buy_revolvers(s: GameState, seat: int, move: BuyRevolvers, rng: Rng, kind: Decision) -> list[Event]:
    count = move["count"]
    return [{"type": "revolvers_bought", "seat": seat, "count": count, "price": CAPTAIN_REVOLVER_PRICES[count]}]


declines(Decision.CHINESE_WORKER_RED)(_declined)


@move_handler("take_building")
def _take_building(s: GameState, seat: int, move: TakeBuilding, rng: Rng, kind: Decision) -> list[Event]:
    """Red Chinese Worker: $5 for an available building; the others slide and one is drawn (`000`)."""
    square = move["square"]
    building = s.construction[CONSTRUCTION_INDEX[square]]
    assert building is not None  # only squares holding a building are listed
    taken: BuildingTaken = {"type": "building_taken", "seat": seat, "square": square, "building": building,
                            "price": CHINESE_WORKER_RED_PRICE}
    return [taken, refill_event(evolve(s, taken), rng)]


@move_handler("banker_vp")
def _buy_banker_vp(s: GameState, seat: int, move: BankerVp, rng: Rng, kind: Decision) -> list[Event]:
    """The purchase ends the step, unless another holder is still to be asked (decision D95)."""
    vp = move["vp"]
    bought: Event = {"type": "banker_vp_bought", "seat": seat, "vp": vp, "price": BANKER_VP_PRICES[vp]}
    after = evolve(s, bought)
    return [bought] if awaiting(after) else [bought, *finish_step(after)]



# --- construction ---------------------------------------------------------------------------------------------


@move_handler("buy_building")
def _buy(s: GameState, seat: int, move: BuyBuilding, rng: Rng, kind: Decision) -> list[Event]:
    square = s.step
    building = s.construction[CONSTRUCTION_INDEX[square]]
    assert building is not None  # a square without a building is not open to cowboys
    price = building_price(s, seat, square)
    return [{"type": "building_bought", "seat": seat, "square": square, "building": building, "price": price}]


@declines(Decision.BUY_BUILDING)
def _not_bought(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "building_purchase_declined", "seat": seat, "square": s.step}]


@move_handler("place_road")
def _place_road(s: GameState, seat: int, move: PlaceRoad, rng: Rng, kind: Decision) -> list[Event]:
    """A road of the construction, or of The River's final road phase (`families.river`)."""
    event: RoadPlaced = {"type": "road_placed", "seat": seat, "x1": move["x1"], "y1": move["y1"], "x2": move["x2"],
                         "y2": move["y2"]}
    road = (move["x1"], move["y1"], move["x2"], move["y2"])
    bridge = is_bridge(s, road)
    if bridge:
        event["bridge"] = True
    vp = road_vp(s, seat, road, BRIDGE_ROADS if bridge else 1)  # the yellow Governor (RULING G12)
    if vp:
        event["vp"] = vp
    return [event]


@move_handler("place_building")
def _place_building(s: GameState, seat: int, move: PlaceBuilding, rng: Rng, kind: Decision) -> list[Event]:
    building = move["building"]
    event: BuildingPlaced = {
        "type": "building_placed", "seat": seat, "building": building, "x": move["x"], "y": move["y"],
        "revolvers": BUILDINGS[building].revolvers, "house": needs_house(s, building),
    }
    houses = houses_to_place(s, building)
    if houses > 1:  # the school's three houses (`001` "School")
        event["houses"] = houses
    return [event]


@move_handler("place_house")
def _place_house(s: GameState, seat: int, move: PlaceHouse, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "house_placed", "seat": seat, "x": move["x"], "y": move["y"]}]


@move_handler("place_townhouse")
def _place_townhouse(s: GameState, seat: int, move: PlaceTownhouse, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "townhouse_placed", "seat": seat, "x": move["x"], "y": move["y"]}]


@move_handler("keep_building")
def _keep_building(s: GameState, seat: int, move: KeepBuilding, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "building_kept", "seat": seat}]


@move_handler("ask_permission")
def _ask_permission(s: GameState, seat: int, move: AskPermission, rng: Rng, kind: Decision) -> list[Event]:
    asked = move["seat"]
    parcels: list[list[int]] = []
    houses: list[list[int]] = []  # with Gold & Guns, those whose house would become a townhouse (RULING G19)
    for i in permission_parcels(s, asked):
        parcels.append([i % 8 + 1, i // 8 + 1])
        if s.parcels[i].content == "house":
            houses.append(parcels[-1])
    event: PermissionAsked = {"type": "permission_asked", "seat": seat, "asked": asked, "parcels": parcels}
    if houses:
        event["townhouses"] = houses
    return [event]


@move_handler("answer_permission")
def _answer_permission(s: GameState, seat: int, move: AnswerPermission, rng: Rng, kind: Decision) -> list[Event]:
    event: PermissionAnswered = {"type": "permission_answered", "seat": seat, "x": move["x"], "y": move["y"],
                                 "granted": move["grant"]}
    # With Gold & Guns, a townhouse in place of that parcel's house (RULING G19).
    if "gold_and_guns" in s.config.expansions and s.parcels[parcel_index(move["x"], move["y"])].content == "house":
        event["townhouse"] = True
    return [event]


@move_handler("deny_remaining")
def _deny_remaining(s: GameState, seat: int, move: DenyRemaining, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "permission_denied_rest", "seat": seat}]

