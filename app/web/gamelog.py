"""The game log in words: one sentence per redacted event ("Anna won the duel for the $8 saloon: 4+6 against
2+5"). Only what `redact_event` left in an event is read here, so a sentence never tells a secret."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from app.i18n import N_, gettext
from app.rules.catalog import BUILDINGS, CONSTRUCTION_PRICE, PERSONALITIES, SHOP, SQUARES
from app.rules.events import EventType

Event = dict[str, Any]  # an event as `redact_event` left it for the viewer


def _horse_wages(amount: int) -> str:
    """A horse buyer's net wages: the other cowboys' $4s less the horse's $4 (RULING X6)."""
    return f"a horse and ${amount}" if amount >= 0 else f"a horse, paying ${-amount}"


# The seats' colours on the board, in words.
COLOUR_NAMES = (N_("red"), N_("blue"), N_("green"), N_("orange"), N_("purple"), N_("black"))
CLAIM_REASONS = {"start": " as a starting parcel", "settler": " with the Settler", "pick": ""}


def building_name(kind: str | None) -> str:
    row = BUILDINGS.get(kind or "")
    return gettext(row.name).lower() if row else str(kind)


def square_name(square: str | None) -> str:
    row = SQUARES.get(square or "")
    return gettext(row.name) if row else str(square)


def _card_gains(e: Mapping[str, Any]) -> str:
    """What a card chosen or copied gave (or cost: the Newspaper Boy's $3) at once, as the end of a sentence."""
    money = e.get("money", 0)
    return (
        (f" and receives ${money}" if money > 0 else f" and pays ${-money}" if money < 0 else "")
        + (f" and receives {count(e['dynamite'], 'dynamite chip')}" if e.get("dynamite") else "")
        + (f" and receives {e['no_duel_chips']} \"no duel\" chips" if e.get("no_duel_chips") else "")
        + (f" and receives {count(e['horses'], 'horse')}" if e.get("horses") else "")
    )


def card_name(card: str | None) -> str:
    row = PERSONALITIES.get(card or "")
    return gettext(row.name) if row else str(card)


def count(n: int, thing: str, plural: str | None = None) -> str:
    """"1 road", "3 roads", "no roads": a number with its noun, as a sentence needs it."""
    many = plural or thing + "s"
    return f"no {many}" if n == 0 else f"{n} {thing if n == 1 else many}"


def at(e: Event) -> str:
    return f"({e['x']}, {e['y']})"


def road_name(x1: int, y1: int, x2: int, y2: int) -> str:
    """A road the way players name it: by the parcels it runs between, or along the board's edge beside one
    (a road is an edge between grid points 0..8, RULING B3; parcels are numbered 1..8, column then row)."""
    if y1 == y2:  # horizontal: between the parcel above and the one below
        column = min(x1, x2) + 1
        sides = [(column, y1) if y1 >= 1 else None, (column, y1 + 1) if y1 <= 7 else None]
        edge = "top" if y1 == 0 else "bottom"
    else:  # vertical: between the parcel on the left and the one on the right
        row = min(y1, y2) + 1
        sides = [(x1, row) if x1 >= 1 else None, (x1 + 1, row) if x1 <= 7 else None]
        edge = "left" if x1 == 0 else "right"
    a, b = sides
    if a and b:
        return f"between ({a[0]}, {a[1]}) and ({b[0]}, {b[1]})"
    only = a or b
    assert only is not None
    return f"along the {edge} edge of ({only[0]}, {only[1]})"


class Describer:
    """Sentences for events, with the players' names; `describe` never raises (unknown events get a plain
    fallback) so that a new event type never breaks the page."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)

    def who(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "nobody" if seat is None else f"seat {seat}"

    def describe(self, e: Event) -> str | None:
        """The sentence for `e`, or None for bookkeeping events that say nothing to a player."""
        handler = _HANDLERS.get(cast(EventType, str(e.get("type"))))  # an unknown name finds no handler
        if handler is None:
            return str(e.get("type", "event")).replace("_", " ").capitalize() + "."
        try:
            return handler(self, e)
        except (KeyError, TypeError, IndexError, ValueError):
            return str(e.get("type", "event")).replace("_", " ").capitalize() + "."

    def target(self, target: Event) -> str:
        if "square" in target:
            return f"the {square_name(target['square'])} square"
        return f"parcel {at(target)}"


def chance(x: Event) -> str:
    """A duellist's die or tile as the log shows it: "4", with dynamite "(3+5)" or tiles "(2+4)", and the red
    Gunsmith's first roll when he rolled again ("5, rolled again from 2")."""
    if "tile" in x:
        return f"({x['tile']}+{x['second_tile']})" if "second_tile" in x else str(x["tile"])
    shown = f"({'+'.join(map(str, x['dice']))})" if x.get("dynamite") and "rolls" not in x else str(x["roll"])
    if "first_roll" in x:
        shown += f" rolled again from {x['first_roll']}"
    return shown


def _duel(d: Describer, e: Event) -> str:
    duelists = e["duelists"]
    winner = e["winner"]

    def strength(x: Event) -> str:
        return f"{chance(x)}+{x['firepower']}"

    won = next(x for x in duelists if x["seat"] == winner)
    others = [x for x in duelists if x["seat"] != winner]
    what = "tile" if "tile" in won else "die"
    against = ", ".join(f"{strength(x)} ({d.who(x['seat'])})" for x in others)
    prize = d.target(e["target"])
    if e.get("building"):
        prize = f"the ${CONSTRUCTION_PRICE[e['target']['square']]} {building_name(e['building'])}"
    vp = f" and scores {e['winner_vp']} VP with the Gunsmith" if e.get("winner_vp") else ""
    return (f"{d.who(winner)} won the duel for {prize}: {strength(won)} against {against} "
            f"({what} + firepower){vp}.")


def _payments(d: Describer, e: Event) -> str:
    paid = [p for p in e["payments"] if p.get("owner_gets") or p.get("attacker_gets")]
    if not paid:
        return "Estate income: nothing to pay."
    parts = []
    for p in paid:
        text = f"{d.who(p['owner'])} ${p['owner_gets']} for the {building_name(p['building'])} {at(p)}"
        if p.get("dynamite"):
            text += " (tripled by dynamite)"
        if p.get("attacker") is not None:
            text += f", {d.who(p['attacker'])} ${p['attacker_gets']} by attack"
        parts.append(text)
    return "Estate income: " + "; ".join(parts) + "."


def _sides(d: Describer, e: Event) -> str:
    reds = [card_name(c) for c, side in e["sides"].items() if side == "red"]
    drawn = f" (ties drawn: {', '.join(card_name(c) for c in e.get('drawn', []))})" if e.get("drawn") else ""
    return f"Sides decided: red for {', '.join(reds) or 'no card'}, yellow for the others{drawn}."


def _shopping(d: Describer, e: Event) -> str:
    parts = []
    for basket in e["baskets"]:
        items = ", ".join(f"{n} × {SHOP[item].name}" for item, n in basket["items"].items() if item in SHOP)
        parts.append(f"{d.who(basket['seat'])}: {items or 'nothing'}")
    return "The baskets are revealed — " + "; ".join(parts) + "."


def _auction_closed(d: Describer, e: Event) -> str:
    """"bob wins the auction for $9 ($4 to the bank, $5 to ann) and takes parcels (2, 3) and (5, 6)."""
    if e["winner"] is None:
        return "Nobody bids: the auction ends without a sale."
    spots = [at(p) for p in e["parcels"]]
    lot = f"parcel{'s' if len(spots) > 1 else ''} {' and '.join(spots)}" if spots else "the 3-guns chip"
    shares = [f"${e['bank']} to the bank"] if e["bank"] else []
    if e["winner"] == e["seat"]:
        shares.append(f"keeping ${e['auctioneer_gets']}")
    else:
        shares.append(f"${e['auctioneer_gets']} to {d.who(e['seat'])}")
    return f"{d.who(e['winner'])} wins the auction for ${e['amount']} ({', '.join(shares)}) and takes {lot}."


_HANDLERS: dict[EventType, Callable[[Describer, Event], str | None]] = {
    "game_started": lambda d, e: f"The game starts with {e['players']} players.",
    "tiles_dealt": lambda d, e: "The duel tiles are dealt.",
    "turn_order_drawn": lambda d, e: "Turn order: " + ", ".join(d.who(s) for s in e["order"]) + ".",
    "centre_placed": lambda d, e: f"Carson City's centre is on parcel {at(e)}.",
    "mountains_placed": lambda d, e: f"{len(e['parcels'])} mountains are placed.",
    "construction_refilled": lambda d, e: (
        "New buildings on the construction squares: " + ", ".join(building_name(b) for b in e["drawn"]) + "."
        if e.get("drawn") else None
    ),
    "step_completed": lambda d, e: None,
    "parcel_claimed": lambda d, e: f"{d.who(e['seat'])} takes parcel {at(e)}"
    + CLAIM_REASONS.get(str(e.get("reason")), "") + ".",
    "personality_chosen": lambda d, e: f"{d.who(e['seat'])} chooses the {card_name(e['card'])} ({e['side']})"
    + _card_gains(e) + ".",
    # Big Box's Newspaper Boy (RULING X2).
    "card_copied": lambda d, e: f"{d.who(e['seat'])}'s Newspaper Boy copies the {card_name(e['card'])} "
    f"({e['side']})" + _card_gains(e) + ".",
    "card_option_chosen": lambda d, e: f"{d.who(e['seat'])} chooses: {str(e['option']).replace(':', ' ')}.",
    "cowboys_hired": lambda d, e: f"{d.who(e['seat'])} hires {count(e['count'], 'cowboy')}"
    + (f" for ${e['price']}" if e["count"] else "") + ".",
    "revolvers_bought": lambda d, e: f"{d.who(e['seat'])} buys {count(e['count'], 'revolver')}"
    + (f" for ${e['price']}" if e["count"] else "") + ".",
    "building_taken": lambda d, e: f"{d.who(e['seat'])} takes the {building_name(e['building'])} for ${e['price']}.",
    "card_decision_declined": lambda d, e: f"{d.who(e['seat'])} declines the card's offer.",
    "placement_order_set": lambda d, e: "Placement order: " + ", ".join(d.who(s) for s in e["order"]) + ".",
    "cowboy_placed": lambda d, e: f"{d.who(e['seat'])} places "
    + ("the white cowboy" if e.get("white") else "the Singer's cowboy" if e.get("singer") else "a cowboy")
    + (" with a dynamite chip" if e.get("dynamite") else "") + " on "
    + (f"{square_name(e['square'])}" if "square" in e else f"parcel {at(e)}")
    + (" with a \"no duel\" chip" if e.get("no_duel") else "") + ".",
    "player_passed": lambda d, e: f"{d.who(e['seat'])} passes.",
    "wages_paid": lambda d, e: "Wages: " + (", ".join(
        f"{d.who(p['seat'])} " + (_horse_wages(p["amount"]) if p.get("horse") else f"${p['amount']}")
        for p in e["payments"]) or "nobody") + ".",
    # Big Box's horses (RULING X6).
    "wages_chosen": lambda d, e: f"{d.who(e['seat'])} "
    + ("pays $4 for a horse at Wages." if e["horse"] else "takes the wages."),
    "roads_handed_out": lambda d, e: "Road square: " + ", ".join(
        f"{d.who(g['seat'])} {count(g['roads'], 'road')}" for g in e["gains"]) + ".",
    "duel_fought": _duel,
    "chip_taken": lambda d, e: f"{d.who(e['seat'])} takes the 3-revolvers chip.",
    "roads_gained": lambda d, e: f"{d.who(e['seat'])} receives {count(e['count'], 'road')}.",
    "money_gained": lambda d, e: f"{d.who(e['seat'])} receives ${e['amount']}"
    + (f" from {square_name(e['square'])}" if e.get("square") else "")
    + (f" (dice {'+'.join(map(str, e['dice']))})" if e.get("dice") else "") + ".",
    "vp_gained": lambda d, e: f"{d.who(e['seat'])} scores {e['amount']} VP"
    + (f" from {square_name(e['square'])}" if e.get("square") else "") + ".",
    "vp_bought": lambda d, e: f"{d.who(e['seat'])} buys {e['count']} VP for ${e['count'] * e['price']}."
    if e["count"] else f"{d.who(e['seat'])} buys no VP.",
    "action_declined": lambda d, e: f"{d.who(e['seat'])} does not use {square_name(e.get('square'))}.",
    "parcel_bought": lambda d, e: f"{d.who(e['seat'])} buys parcel {at(e)} for ${e['price']}.",
    "parcel_purchase_declined": lambda d, e: f"{d.who(e['seat'])} leaves parcel {at(e)}.",
    "building_bought": lambda d, e: f"{d.who(e['seat'])} buys the ${e['price']} {building_name(e['building'])}.",
    "building_purchase_declined": lambda d, e: f"{d.who(e['seat'])} does not buy the building of "
    f"{square_name(e.get('square'))}.",
    "construction_started": lambda d, e: f"{d.who(e['seat'])} builds from their reserve.",
    "road_placed": lambda d, e: f"{d.who(e['seat'])} places a {'bridge' if e.get('bridge') else 'road'} "
    + road_name(e["x1"], e["y1"], e["x2"], e["y2"])
    + (f" and scores {e['vp']} VP with the Governor" if e.get("vp") else "") + ".",
    "permission_asked": lambda d, e: f"{d.who(e['seat'])} asks {d.who(e['asked'])} for permission to build a house "
    "on " + ", ".join(f"({x}, {y})" for x, y in e["parcels"]) + ".",
    "permission_answered": lambda d, e: f"{d.who(e['seat'])} {'allows' if e['granted'] else 'refuses'} a house on "
    f"{at(e)}.",
    "permission_denied_rest": lambda d, e: f"{d.who(e['seat'])} refuses the remaining parcels.",
    "building_placed": lambda d, e: f"{d.who(e['seat'])} builds the {building_name(e['building'])} on {at(e)}"
    + (f" and takes {count(e['revolvers'], 'revolver')}" if e.get("revolvers") else "") + ".",
    "house_placed": lambda d, e: f"{d.who(e['seat'])} places a house on {at(e)}.",
    "townhouse_placed": lambda d, e: f"{d.who(e['seat'])} turns the house on {at(e)} into a townhouse.",
    "city_hall_placed": lambda d, e: f"{d.who(e['seat'])} places the City Hall on {at(e)}"
    + (f" with {len(e['roads'])} road{'s' if len(e['roads']) > 1 else ''} from the supply" if e["roads"] else "")
    + ".",
    "city_hall_set_aside": lambda d, e: "The City Hall finds no free parcel and leaves the game.",
    "building_kept": lambda d, e: f"{d.who(e['seat'])} keeps the building in reserve.",
    "attack_cancelled": lambda d, e: f"The church protects {at(e)}: the attack is called off.",
    "building_defended": lambda d, e: f"{d.who(e['seat'])} defends the building on {at(e)}.",
    "attack_won": lambda d, e: f"{d.who(e['seat'])} attacks the building on {at(e)}.",
    "estate_income_paid": _payments,
    "banker_vp_bought": lambda d, e: f"{d.who(e['seat'])} buys {e['vp']} VP for ${e['price']} with the Banker.",
    "money_given_up": lambda d, e: f"{d.who(e['seat'])} gives up ${e['amount']} over the cash limit"
    + (f" for {e['vp']} VP" if e.get("vp") else "") + ".",
    "cowboys_received": lambda d, e: "New cowboys: " + ", ".join(
        f"{d.who(g['seat'])} {count(g['count'], 'cowboy')}" for g in e["gains"]) + ".",
    "round_ended": lambda d, e: f"Round {e['round']} ends.",
    "game_finished": lambda d, e: f"The game is over: {d.who(e['winner'])} wins.",
    "duel_order_chosen": lambda d, e: f"{d.who(e['seat'])} has the duel on {at(e)} fought next.",
    "side_voted": lambda d, e: f"{d.who(e['seat'])} votes for the {card_name(e['card'])}"
    + (f": {e['side']}" if "side" in e else " (secret until everyone has voted)") + ".",
    "sides_decided": _sides,
    "duel_tile_chosen": lambda d, e: f"{d.who(e['seat'])} "
    + (f"plays tile {e['tile']}" if "tile" in e else "has chosen a duel tile (secret)") + ".",
    "tiles_drawn": lambda d, e: f"{d.who(e['seat'])} draws "
    + (", ".join(map(str, e["tiles"])) if "tiles" in e else f"{e.get('count', 3)} tiles") + " from the used pile.",
    "shop_item_added": lambda d, e: None,
    "shop_item_removed": lambda d, e: None,
    "shopping_finished": lambda d, e: f"{d.who(e['seat'])} has finished shopping.",
    "shopping_revealed": _shopping,
    "parcel_pick_forfeited": lambda d, e: f"{d.who(e['seat'])} forfeits a parcel pick.",
    "final_roads_finished": lambda d, e: f"{d.who(e['seat'])} places no more roads.",
    "indian_parcels_taken": lambda d, e: f"{d.who(e['seat'])} receives with the Indian "
    + (", ".join(f"parcel {at(p)}" for p in e["parcels"]) or "no parcel")
    + f" (dice: {', '.join(f'{w}-{b}' for w, b in e['dice']) or 'none'}).",
    "card_flipped": lambda d, e: f"The {card_name(e['card'])} turns to its {e['side']} side for the rest of the game"
    + (f": {d.who(e['seat'])} receives {count(e['dynamite'], 'dynamite chip')}" if e.get("dynamite") else "") + ".",
    "mine_prospected": lambda d, e: f"{d.who(e['seat'])} pays ${e['price']} with the Prospector and builds a mine on "
    f"{at(e)}" + (f" (from the {square_name(e['square'])} square)" if e.get("square") else " (from the bag)") + ".",
    "tax_collected": lambda d, e: f"{d.who(e['seat'])} taxes {e['tax']} with the Governor: "
    + (", ".join(f"{d.who(p['seat'])} pays ${p['amount']}" for p in e["payments"]) or "nobody pays") + ".",
    "singer_gambled": lambda d, e: f"The Singer's cowboy wins ${e['amount']} for {d.who(e['seat'])} "
    f"({e['dice'][0]} × {e['dice'][1]}).",
    # The Auctioneer (RULING G8).
    "auction_opened": lambda d, e: f"{d.who(e['seat'])} opens an auction with the Auctioneer: "
    + (f"{count(e['size'], 'owner-free parcel')} to choose." if e["lot"] == "parcels" else "the 3-guns chip."),
    "auction_parcel_chosen": lambda d, e: f"{d.who(e['seat'])} puts an auction chip on parcel {at(e)}.",
    "bid_made": lambda d, e: f"{d.who(e['seat'])} bids ${e['amount']}.",
    "bid_passed": lambda d, e: f"{d.who(e['seat'])} passes in the auction.",
    "auction_closed": _auction_closed,
    "seat_replaced": lambda d, e: f"{e['username']} takes over {e['previous']}'s seat "
    f"({COLOUR_NAMES[e['seat'] % len(COLOUR_NAMES)]}).",
    "move_undone": lambda d, e: f"{d.who(e['seat'])} takes back their move.",
    # The Outlaws (RULING G4).
    "outlaw_jailed": lambda d, e: f"The outlaw on the prison {at(e)} is jailed: {d.who(e['seat'])} scores "
    f"{e['vp']} VP.",
    "outlaws_arrived": lambda d, e: f"{len(e['parcels'])} outlaw{'s' if len(e['parcels']) > 1 else ''} of strength "
    f"{e['strength']} (black die {e['black']}, white die {e['white']}) arrive on "
    + ", ".join(at(p) for p in e["parcels"]) + ".",
    "outlaw_moved": lambda d, e: f"The outlaw on {at(e)} moves to {at(e['to'])}"
    + (" (drawn among " + ", ".join(at(p) for p in e["tied"]) + ")" if e.get("tied") else "") + ".",
    "outlaws_settled": lambda d, e: None,
    # Dynamite and the red Gunsmith (RULING G7).
    "duel_rolled": lambda d, e: f"Duel for {d.target(e['target'])}: "
    + ", ".join(f"{d.who(x['seat'])} {chance(x)}+{x['firepower']}" for x in e["duelists"])
    + f" — {d.who(e['seat'])} may roll again with the Gunsmith.",
    "die_rerolled": lambda d, e: f"{d.who(e['seat'])} rolls again with the Gunsmith: {chance(e['throw'])} instead "
    f"of {chance(e['first'])}.",
    "roll_kept": lambda d, e: f"{d.who(e['seat'])} keeps the roll.",
    "duel_tiles_revealed": lambda d, e: f"Duel for {d.target(e['target'])}: "
    + ", ".join(f"{d.who(x['seat'])} plays " + (f"tiles {x['tile']} and {x['second']}" if "second" in x
                                               else f"tile {x['tile']}") for x in e["tiles"])
    + f"; {d.who(e['seat'])} chooses last with the Gunsmith.",
    "mine_dynamited": lambda d, e: f"{d.who(e['seat'])} uses a dynamite chip: the mine on {at(e)} earns three times "
    "as much this round.",
    "dynamite_kept": lambda d, e: f"{d.who(e['seat'])} keeps their dynamite.",
    "outlaw_fought": lambda d, e: "Fight with the outlaw on " + at(e) + " (strength " + str(e["strength"]) + "): "
    + ", ".join(f"{d.who(x['seat'])} {x['strength']}" for x in e["duelists"]) + " — "
    + (f"{d.who(e['winner'])} wins." if e["winner"] is not None else "the outlaw wins.")
    + (f" {d.who(e['bounty']['seat'])} receives ${e['bounty']['amount']} from the bank for it."
       if e.get("bounty") else ""),
    # The Doctor and the Undertaker (RULING G11).
    "cowboy_healed": lambda d, e: f"The Doctor moves {d.who(e['seat'])}'s defeated cowboy to "
    + (f"{square_name(e['square'])}" if "square" in e else f"parcel {at(e)}")
    + (f" for ${e['price']}" if e["price"] else " free of charge") + ".",
    "healing_declined": lambda d, e: f"{d.who(e['seat'])}'s defeated cowboy goes home.",
    "undertaker_paid": lambda d, e: f"{d.who(e['seat'])} "
    + (f"pays the Undertaker ${e['money']}" if e["money"] else f"loses {e['vp']} VP to the Undertaker" if e["vp"]
       else "owes the Undertaker nothing (no money, no VP)") + " for a defeated cowboy.",
    "outlaw_reward_taken": lambda d, e: f"{d.who(e['seat'])} "
    + (f"scores {e['vp']} VP for the outlaw." if e["reward"] == "vp"
       else f"takes half the income of the building on {at(e)}."),
}
