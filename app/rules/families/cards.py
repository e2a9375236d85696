"""The decisions the base game's cards print (`000` "Personalities"): the Settler's parcel, the Grocer's choice,
the red Settler's and red Grocer's money or VP, the Captain's cowboys and the red Captain's revolvers, the red
Chinese Worker's building, asked the moment the card is chosen; the red Banker's VP, asked at the end of the
round; and what the Grocer and the red Settler and Grocer pay later in the round.

Choosing a card is the base game's (`decide`, `legal`, `evolve`); each card's terms are its catalog row
(`catalog.PERSONALITIES`), and the Gold & Guns and Big Box cards' own moves live in `families.characters` and
`families.newspaper_boy`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.catalog import (
    BANKER_VP_BOUGHT,
    BANKER_VP_PRICES,
    BUILDINGS,
    CAPTAIN_COWBOY_PRICES,
    CAPTAIN_REVOLVER_PRICES,
    CHINESE_WORKER_RED_PRICE,
    CONSTRUCTION_INDEX,
    CONSTRUCTION_SQUARES,
    COWBOYS_PER_PLAYER,
    GROCER_MONEY,
    INCOME_BUILDINGS,
    RED_CARD_VP_PER_ITEM,
    SETTLER_RED_MONEY,
)
from app.rules.city_hall import cowboys_away
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import building_to_player, evolve, gain, replace, update_player
from app.rules.events import (
    BankerVpBought,
    BuildingTaken,
    CardDecisionDeclined,
    CardOptionChosen,
    CowboysHired,
    Event,
    MoneyGained,
    RevolversBought,
)
from app.rules.model import GameState
from app.rules.registry import Step, declines, handles, lists, move_handler, runs
from app.rules.rng import Rng
from app.rules.spots import claimable
from app.rules.steps import awaits, completed, finish_step
from app.rules.supply import refill_event

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import (
        BankerVp,
        BuyRevolvers,
        CardOption,
        Decline,
        GrocerChoice,
        HireCowboys,
        Move,
        TakeBuilding,
    )


def _declined(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    """Nothing to take: the card's decision is over."""
    return [{"type": "card_decision_declined", "seat": seat}]


@handles("card_decision_declined")
def _card_decision_declined(s: GameState, e: CardDecisionDeclined) -> GameState:
    return replace(s, card_decision=None)


# --- the Settler ----------------------------------------------------------------------------------------------


@lists(Decision.SETTLER)
def _settler(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """An owner-free parcel at once, claimed with `claim_parcel` (`000` "Settler"); with none left (or no
    property tile), nothing."""
    return claimable(s, seat) or [{"type": "decline"}]


declines(Decision.SETTLER)(_declined)


# --- money now, or later -------------------------------------------------------------------------------------


@lists(Decision.GROCER)
def _grocer(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The yellow Grocer: double one type that earns money, of those the game's bag holds (RULING G16), or $8."""
    moves: list[Move] = [
        {"type": "grocer_choice", "option": "double", "building": b} for b in INCOME_BUILDINGS
        if BUILDINGS[b].expansion is None or BUILDINGS[b].expansion in s.config.expansions
    ]
    moves += [{"type": "grocer_choice", "option": "money_now"}, {"type": "grocer_choice", "option": "money_at_income"}]
    return moves


@move_handler("grocer_choice")
def _grocer_choice(s: GameState, seat: int, move: GrocerChoice, rng: Rng, kind: Decision) -> list[Event]:
    option = move["option"]
    if option == "double":
        return [{"type": "card_option_chosen", "seat": seat, "option": f"double:{move['building']}"}]
    money = GROCER_MONEY if option == "money_now" else 0
    return [{"type": "card_option_chosen", "seat": seat, "option": option, "money": money}]


def grocer_income(s: GameState) -> list[MoneyGained]:
    """The yellow Grocer's $8 chosen for the estate income, paid with it."""
    return [
        {"type": "money_gained", "seat": p.seat, "amount": GROCER_MONEY, "reason": "grocer"}
        for p in s.players
        if p.card_option == "money_at_income" and s.holds(p.seat, "grocer", "yellow")
    ]


@lists(Decision.SETTLER_RED)
@lists(Decision.GROCER_RED)
def _money_or_vp(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    return [{"type": "card_option", "option": "money"}, {"type": "card_option", "option": "vp"}]


@move_handler("card_option")
def _card_option(s: GameState, seat: int, move: CardOption, rng: Rng, kind: Decision) -> list[Event]:
    """Red Settler and red Grocer: $8 now, or VP at the end of the round (`000` "Personalities")."""
    money = SETTLER_RED_MONEY if move["option"] == "money" else 0
    return [{"type": "card_option_chosen", "seat": seat, "option": move["option"], "money": money}]


@handles("card_option_chosen")
def _card_option_chosen(s: GameState, e: CardOptionChosen) -> GameState:
    s = update_player(s, e["seat"], card_option=e["option"])
    return replace(gain(s, e["seat"], money=e.get("money", 0)), card_decision=None)


@runs("end_of_round_vp")
def _end_of_round_vp(s: GameState) -> Step:
    """Red Settler: 1 VP per mountain owned; red Grocer: 1 VP per house owned (`000` "Personalities")."""
    events: list[Event] = []
    for card, content in (("settler", "mountain"), ("grocer", "house")):
        for seat in s.holders(card, "red"):  # a Newspaper Boy copying the card too (decision D95)
            if s.players[seat].card_option == "vp":
                count = sum(1 for p in s.parcels if p.owner == seat and p.content == content)
                events.append({"type": "vp_gained", "seat": seat, "amount": RED_CARD_VP_PER_ITEM * count,
                               "reason": f"{card}_red"})
    return completed(s, *events) if events else None


# --- the Captain ----------------------------------------------------------------------------------------------


@lists(Decision.CAPTAIN)
def _captain(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    p = s.players[seat]
    return [
        {"type": "hire_cowboys", "count": n}
        for n, price in CAPTAIN_COWBOY_PRICES.items()
        if price <= p.money and p.cowboys + cowboys_away(s, seat) + n <= COWBOYS_PER_PLAYER
    ]


@move_handler("hire_cowboys")
def _hire_cowboys(s: GameState, seat: int, move: HireCowboys, rng: Rng, kind: Decision) -> list[Event]:
    count = move["count"]
    return [{"type": "cowboys_hired", "seat": seat, "count": count, "price": CAPTAIN_COWBOY_PRICES[count]}]


@handles("cowboys_hired")
def _cowboys_hired(s: GameState, e: CowboysHired) -> GameState:
    return replace(gain(s, e["seat"], money=-e["price"], cowboys=e["count"]), card_decision=None)


@lists(Decision.CAPTAIN_RED)
def _captain_red(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    money = s.players[seat].money
    return [{"type": "buy_revolvers", "count": n} for n, price in CAPTAIN_REVOLVER_PRICES.items() if price <= money]


@move_handler("buy_revolvers")
def _buy_revolvers(s: GameState, seat: int, move: BuyRevolvers, rng: Rng, kind: Decision) -> list[Event]:
    count = move["count"]
    return [{"type": "revolvers_bought", "seat": seat, "count": count, "price": CAPTAIN_REVOLVER_PRICES[count]}]


@handles("revolvers_bought")
def _revolvers_bought(s: GameState, e: RevolversBought) -> GameState:
    return replace(gain(s, e["seat"], money=-e["price"], revolvers=e["count"]), card_decision=None)


# --- the red Chinese Worker -------------------------------------------------------------------------------------


@lists(Decision.CHINESE_WORKER_RED)
def _chinese_worker_red(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    moves: list[Move] = [{"type": "decline"}]
    if s.players[seat].money >= CHINESE_WORKER_RED_PRICE:
        moves += [
            {"type": "take_building", "square": c.square}
            for c, building in zip(CONSTRUCTION_SQUARES, s.construction, strict=True)
            if building is not None
        ]
    return moves


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


@handles("building_taken")
def _building_taken(s: GameState, e: BuildingTaken) -> GameState:
    """The building goes into construction at once, as one bought on a square (`families.construction`)."""
    return building_to_player(s, e, source="card")


# --- the red Banker -------------------------------------------------------------------------------------------


@runs("banker_vp")
def _banker_vp_step(s: GameState) -> Step:
    """The red Banker's purchase, asked of each holder in placement order (a Newspaper Boy copying it too,
    decision D95)."""
    for banker in s.holders("banker", "red"):
        if s.players[banker].card_option != BANKER_VP_BOUGHT:
            return awaits(Decision.BANKER_VP, banker)
    return None


@lists(Decision.BANKER_VP)
def _banker_vp(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    money = s.players[seat].money
    return [{"type": "banker_vp", "vp": vp} for vp, price in BANKER_VP_PRICES.items() if price <= money]


@move_handler("banker_vp")
def _buy_banker_vp(s: GameState, seat: int, move: BankerVp, rng: Rng, kind: Decision) -> list[Event]:
    """The purchase ends the step, unless another holder is still to be asked (decision D95)."""
    vp = move["vp"]
    bought: Event = {"type": "banker_vp_bought", "seat": seat, "vp": vp, "price": BANKER_VP_PRICES[vp]}
    after = evolve(s, bought)
    return [bought] if _banker_vp_step(after) else [bought, *finish_step(after)]


@handles("banker_vp_bought")
def _banker_vp_bought(s: GameState, e: BankerVpBought) -> GameState:
    """The purchase is the holder's choice on the card this round: a Newspaper Boy copying the red Banker is asked
    too (decision D95)."""
    s = update_player(s, e["seat"], card_option=BANKER_VP_BOUGHT)
    return gain(s, e["seat"], money=-e["price"], vp=e["vp"])
