"""The game log in words: one sentence per redacted event ("Anna won the duel for the $8 saloon: 4+6 against
2+5"). Only what `redact_event` left in an event is read here, so a sentence never tells a secret.

Every sentence is a whole message of the catalogs, in the language spoken now (`_` fills its `{fields}`;
`ngettext` picks the plural form), so a translation may order its words as its language needs."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from app.i18n import N_, gettext, ngettext
from app.rules.catalog import BUILDINGS, CONSTRUCTION_PRICE, HORSE_PRICE, MIGHT_REDRAW, PERSONALITIES, SHOP, SQUARES
from app.rules.events import Automatic, EventType
from app.rules.history import round_begun

log = logging.getLogger(__name__)

Event = dict[str, Any]  # an event as `redact_event` left it for the viewer


def _(message: str, **fields: Any) -> str:
    """`message` in the language spoken now, its `{fields}` filled in."""
    return gettext(message).format(**fields)


def _horse_wages(amount: int) -> str:
    """A horse buyer's net wages: the other cowboys' wages less the horse's price (RULING X6)."""
    return _("a horse and ${amount}", amount=amount) if amount >= 0 else _("a horse, paying ${amount}", amount=-amount)


# The seats' colours on the board, in words.
COLOUR_NAMES = (N_("red"), N_("blue"), N_("green"), N_("orange"), N_("purple"), N_("black"))
CLAIM_REASONS = {
    "start": N_("{player} takes parcel {parcel} as a starting parcel."),
    "settler": N_("{player} takes parcel {parcel} with the Settler."),
}
CLAIMED = N_("{player} takes parcel {parcel}.")  # a parcel pick of A New Beginning


def building_name(kind: str | None) -> str:
    row = BUILDINGS.get(kind or "")
    return gettext(row.name).lower() if row else str(kind)


def square_name(square: str | None) -> str:
    row = SQUARES.get(square or "")
    return gettext(row.name) if row else str(square)


def side_name(side: Any) -> str:
    return gettext({"yellow": N_("yellow"), "red": N_("red")}.get(str(side), str(side)))


def _card_gains(e: Mapping[str, Any]) -> str:
    """What a card chosen or copied gave (or cost: the Newspaper Boy's $3) at once, as the end of a sentence."""
    money = e.get("money", 0)
    return (
        (_(" and receives ${amount}", amount=money) if money > 0
         else _(" and pays ${amount}", amount=-money) if money < 0 else "")
        + (ngettext(" and receives {n} dynamite chip", " and receives {n} dynamite chips", e["dynamite"]).format(
            n=e["dynamite"]) if e.get("dynamite") else "")
        + (ngettext(" and receives {n} \"no duel\" chip", " and receives {n} \"no duel\" chips",
                    e["no_duel_chips"]).format(n=e["no_duel_chips"]) if e.get("no_duel_chips") else "")
        + (ngettext(" and receives {n} horse", " and receives {n} horses", e["horses"]).format(n=e["horses"])
           if e.get("horses") else "")
    )


def card_name(card: str | None) -> str:
    row = PERSONALITIES.get(card or "")
    return gettext(row.name) if row else str(card)


def one_sided(card: str | None) -> bool:
    """A Big Box card played on the one side its rules print (decision D91): its colour tells nothing."""
    row = PERSONALITIES.get(card or "")
    return row is not None and row.one_side


def at(e: Event) -> str:
    return f"({e['x']}, {e['y']})"


def road_name(x1: int, y1: int, x2: int, y2: int) -> str:
    """A road the way players name it: by the parcels it runs between, or along the board's edge beside one
    (a road is an edge between grid points 0..8, RULING B3; parcels are numbered 1..8, column then row)."""
    if y1 == y2:  # horizontal: between the parcel above and the one below
        column = min(x1, x2) + 1
        sides = [(column, y1) if y1 >= 1 else None, (column, y1 + 1) if y1 <= 7 else None]
        edge = N_("along the top edge of {parcel}") if y1 == 0 else N_("along the bottom edge of {parcel}")
    else:  # vertical: between the parcel on the left and the one on the right
        row = min(y1, y2) + 1
        sides = [(x1, row) if x1 >= 1 else None, (x1 + 1, row) if x1 <= 7 else None]
        edge = N_("along the left edge of {parcel}") if x1 == 0 else N_("along the right edge of {parcel}")
    a, b = sides
    if a and b:
        return _("between ({ax}, {ay}) and ({bx}, {by})", ax=a[0], ay=a[1], bx=b[0], by=b[1])
    only = a or b
    assert only is not None
    parcel = f"({only[0]}, {only[1]})"
    return _(edge, parcel=parcel)


class Describer:
    """Sentences for events, with the players' names, by each event type's entry in `EVENT_SENTENCES`: every type
    of the vocabulary has one (a test checks it), so an event without one is an error, not a line of its type's
    name."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)

    def who(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return gettext("nobody") if seat is None else _("seat {seat}", seat=seat)

    def describe(self, e: Event) -> str | None:
        """The sentence for `e`, or None for bookkeeping events that say nothing to a player (KeyError for a type
        outside the vocabulary). An event of a known type that its sentence cannot read (a bug, or a log older
        than a field) is told by its type alone and logged as an error: one bad line must not take the whole
        table page down with it."""
        sentence = EVENT_SENTENCES[e["type"]]
        try:
            return sentence(self, e)
        except (KeyError, TypeError, IndexError, ValueError):
            log.exception("cannot tell event %s of type %s", e.get("seq"), e["type"])
            return str(e["type"]).replace("_", " ").capitalize() + "."

    def target(self, target: Event) -> str:
        if "square" in target:
            return _("the {square} square", square=square_name(target["square"]))
        return _("parcel {parcel}", parcel=at(target))

    def place(self, e: Event) -> str:
        """Where a cowboy went: a square by its name, or a parcel."""
        return square_name(e["square"]) if "square" in e else _("parcel {parcel}", parcel=at(e))


def chance(x: Event) -> str:
    """A duellist's die or tile as the log shows it: "4", with dynamite "(3+5)" or tiles "(2+4)", and the red
    Gunsmith's first roll when he rolled again ("5, rolled again from 2")."""
    if "tile" in x:
        return f"({x['tile']}+{x['second_tile']})" if "second_tile" in x else str(x["tile"])
    shown = f"({'+'.join(map(str, x['dice']))})" if x.get("dynamite") and "rolls" not in x else str(x["roll"])
    if "first_roll" in x:
        shown = _("{roll} rolled again from {first}", roll=shown, first=x["first_roll"])
    return shown


def _duel(d: Describer, e: Event) -> str:
    duelists = e["duelists"]
    winner = e["winner"]

    def strength(x: Event) -> str:
        return f"{chance(x)}+{x['firepower']}"

    won = next(x for x in duelists if x["seat"] == winner)
    others = [x for x in duelists if x["seat"] != winner]
    against = ", ".join(f"{strength(x)} ({d.who(x['seat'])})" for x in others)
    prize = d.target(e["target"])
    if e.get("building"):
        prize = _("the ${price} {building}", price=CONSTRUCTION_PRICE[e["target"]["square"]],
                  building=building_name(e["building"]))
    fields = {"player": d.who(winner), "prize": prize, "strength": strength(won), "against": against,
              "vp": e.get("winner_vp")}
    if "tile" in won:
        if e.get("winner_vp"):
            return _("{player} won the duel for {prize}: {strength} against {against} (tile + firepower) and scores "
                     "{vp} VP with the Gunsmith.", **fields)
        return _("{player} won the duel for {prize}: {strength} against {against} (tile + firepower).", **fields)
    if e.get("winner_vp"):
        return _("{player} won the duel for {prize}: {strength} against {against} (die + firepower) and scores "
                 "{vp} VP with the Gunsmith.", **fields)
    return _("{player} won the duel for {prize}: {strength} against {against} (die + firepower).", **fields)


def _payments(d: Describer, e: Event) -> str:
    paid = [p for p in e["payments"] if p.get("owner_gets") or p.get("attacker_gets")]
    if not paid:
        return gettext("Estate income: nothing to pay.")
    parts = []
    for p in paid:
        text = _("{player} ${amount} for the {building} {parcel}", player=d.who(p["owner"]), amount=p["owner_gets"],
                 building=building_name(p["building"]), parcel=at(p))
        if p.get("dynamite"):
            text += gettext(" (tripled by dynamite)")
        if p.get("attacker") is not None:
            text += _(", {player} ${amount} by attack", player=d.who(p["attacker"]), amount=p["attacker_gets"])
        parts.append(text)
    return _("Estate income: {payments}.", payments="; ".join(parts))


def _sides(d: Describer, e: Event) -> str:
    reds = ", ".join(card_name(c) for c, side in e["sides"].items() if side == "red") or gettext("no card")
    if e.get("drawn"):
        return _("Sides decided: red for {cards}, yellow for the others (ties drawn: {drawn}).", cards=reds,
                 drawn=", ".join(card_name(c) for c in e["drawn"]))
    return _("Sides decided: red for {cards}, yellow for the others.", cards=reds)


def _shopping(d: Describer, e: Event) -> str:
    parts = []
    for basket in e["baskets"]:
        items = ", ".join(f"{n} × {gettext(SHOP[item].name)}" for item, n in basket["items"].items() if item in SHOP)
        parts.append(d.who(basket["seat"]) + ": " + (items or gettext("nothing")))
    return _("The baskets are revealed — {baskets}.", baskets="; ".join(parts))


def _auction_closed(d: Describer, e: Event) -> str:
    """"bob wins the auction for $9 ($4 to the bank, $5 to ann) and takes parcels (2, 3) and (5, 6)."""
    if e["winner"] is None:
        return gettext("Nobody bids: the auction ends without a sale.")
    spots = [at(p) for p in e["parcels"]]
    if spots:
        lot = ngettext("parcel {parcels}", "parcels {parcels}", len(spots)).format(
            parcels=gettext(" and ").join(spots))
    else:
        lot = gettext("the 3-guns chip")
    shares = [_("${amount} to the bank", amount=e["bank"])] if e["bank"] else []
    if e["winner"] == e["seat"]:
        shares.append(_("keeping ${amount}", amount=e["auctioneer_gets"]))
    else:
        shares.append(_("${amount} to {player}", amount=e["auctioneer_gets"], player=d.who(e["seat"])))
    return _("{player} wins the auction for ${amount} ({shares}) and takes {lot}.", player=d.who(e["winner"]),
             amount=e["amount"], shares=", ".join(shares), lot=lot)


def _cowboy_placed(d: Describer, e: Event) -> str:
    fields = {"player": d.who(e["seat"]), "place": d.place(e)}
    if e.get("white"):
        return _("{player} places the white cowboy on {place}.", **fields)
    if e.get("singer"):
        return _("{player} places the Singer's cowboy on {place}.", **fields)
    if e.get("dynamite"):
        return _("{player} places a cowboy with a dynamite chip on {place}.", **fields)
    if e.get("no_duel"):
        return _("{player} places a cowboy on {place} with a \"no duel\" chip.", **fields)
    return _("{player} places a cowboy on {place}.", **fields)


def _gains(d: Describer, gains: Sequence[Event], key: str, things: Callable[[int], str]) -> str:
    """"ann 2 roads, bob 1 road": a number of things per player, each with its plural form (`things`)."""
    return ", ".join(f"{d.who(g['seat'])} " + things(g[key]).format(n=g[key]) for g in gains)


def _roads(n: int) -> str:
    return ngettext("{n} road", "{n} roads", n)


def _cowboys(n: int) -> str:
    return ngettext("{n} cowboy", "{n} cowboys", n)


def _hired(d: Describer, e: Event, none: str, some: Callable[[int], str]) -> str:
    """"ann hires 2 cowboys for $6" or "ann hires no cowboys": a purchase with the Captain."""
    n = e["count"]
    return _(none, player=d.who(e["seat"])) if n == 0 else some(n).format(player=d.who(e["seat"]), n=n,
                                                                          price=e["price"])


def _money_gained(d: Describer, e: Event) -> str:
    fields = {"player": d.who(e["seat"]), "amount": e["amount"], "square": square_name(e.get("square")),
              "dice": "+".join(map(str, e.get("dice") or []))}
    if e.get("square") and e.get("dice"):
        return _("{player} receives ${amount} from {square} (dice {dice}).", **fields)
    if e.get("square"):
        return _("{player} receives ${amount} from {square}.", **fields)
    if e.get("dice"):
        return _("{player} receives ${amount} (dice {dice}).", **fields)
    return _("{player} receives ${amount}.", **fields)


def _road_placed(d: Describer, e: Event) -> str:
    fields = {"player": d.who(e["seat"]), "where": road_name(e["x1"], e["y1"], e["x2"], e["y2"]), "vp": e.get("vp")}
    if e.get("bridge"):
        if e.get("vp"):
            return _("{player} places a bridge {where} and scores {vp} VP with the Governor.", **fields)
        return _("{player} places a bridge {where}.", **fields)
    if e.get("vp"):
        return _("{player} places a road {where} and scores {vp} VP with the Governor.", **fields)
    return _("{player} places a road {where}.", **fields)


# A permission's answer, by whether the parcel's house would become a townhouse (RULING G19) and the answer.
PERMISSION_ANSWERED = {
    (False, True): N_("{player} allows a house on {parcel}."),
    (False, False): N_("{player} refuses a house on {parcel}."),
    (True, True): N_("{player} allows a townhouse in place of their house on {parcel}."),
    (True, False): N_("{player} refuses a townhouse in place of their house on {parcel}."),
}


def _permission_asked(d: Describer, e: Event) -> str:
    """A request names the free parcels for a house and, with Gold & Guns, the houses that would become
    townhouses (RULING G19), each kind only when there is one."""
    houses = list(e.get("townhouses", []))
    free = [xy for xy in e["parcels"] if xy not in houses]
    fields = {"player": d.who(e["seat"]), "asked": d.who(e["asked"]),
              "parcels": ", ".join(f"({x}, {y})" for x, y in free),
              "houses": ", ".join(f"({x}, {y})" for x, y in houses)}
    if not houses:
        return _("{player} asks {asked} for permission to build a house on {parcels}.", **fields)
    if not free:
        return _("{player} asks {asked} for permission to turn their house on {houses} into a townhouse.", **fields)
    return _("{player} asks {asked} for permission to build a house on {parcels} or to turn their house on "
             "{houses} into a townhouse.", **fields)


def _city_hall(d: Describer, e: Event) -> str:
    if not e["roads"]:
        return _("{player} places the City Hall on {parcel}.", player=d.who(e["seat"]), parcel=at(e))
    return ngettext("{player} places the City Hall on {parcel} with {n} road from the supply.",
                    "{player} places the City Hall on {parcel} with {n} roads from the supply.",
                    len(e["roads"])).format(player=d.who(e["seat"]), parcel=at(e), n=len(e["roads"]))


def _building_placed(d: Describer, e: Event) -> str:
    fields = {"player": d.who(e["seat"]), "building": building_name(e["building"]), "parcel": at(e)}
    if e.get("revolvers"):
        return ngettext("{player} builds the {building} on {parcel} and takes {n} revolver.",
                        "{player} builds the {building} on {parcel} and takes {n} revolvers.",
                        e["revolvers"]).format(n=e["revolvers"], **fields)
    return _("{player} builds the {building} on {parcel}.", **fields)


def _card_flipped(d: Describer, e: Event) -> str:
    card = card_name(e["card"])
    if e.get("dynamite"):
        return ngettext(
            "The {card} turns to its {side} side for the rest of the game: {player} receives {n} dynamite chip.",
            "The {card} turns to its {side} side for the rest of the game: {player} receives {n} dynamite chips.",
            e["dynamite"]).format(card=card, side=side_name(e["side"]), player=d.who(e["seat"]), n=e["dynamite"])
    return _("The {card} turns to its {side} side for the rest of the game.", card=card, side=side_name(e["side"]))


def _indian(d: Describer, e: Event) -> str:
    parcels = ", ".join(_("parcel {parcel}", parcel=at(p)) for p in e["parcels"]) or gettext("no parcel")
    dice = ", ".join(f"{w}-{b}" for w, b in e["dice"]) or gettext("none")
    return _("{player} receives with the Indian {parcels} (dice: {dice}).", player=d.who(e["seat"]), parcels=parcels,
             dice=dice)


def _tax(d: Describer, e: Event) -> str:
    payments = ", ".join(_("{player} pays ${amount}", player=d.who(p["seat"]), amount=p["amount"])
                         for p in e["payments"]) or gettext("nobody pays")
    what = N_("{player} taxes revolvers with the Governor: {payments}.") if e["tax"] == "revolvers" \
        else N_("{player} taxes money with the Governor: {payments}.")
    return _(what, player=d.who(e["seat"]), payments=payments)


def _auction_opened(d: Describer, e: Event) -> str:
    if e["lot"] != "parcels":
        return _("{player} opens an auction with the Auctioneer: the 3-guns chip.", player=d.who(e["seat"]))
    return ngettext("{player} opens an auction with the Auctioneer: {n} owner-free parcel to choose.",
                    "{player} opens an auction with the Auctioneer: {n} owner-free parcels to choose.",
                    e["size"]).format(player=d.who(e["seat"]), n=e["size"])


def _outlaws_arrived(d: Describer, e: Event) -> str:
    n = len(e["parcels"])
    return ngettext(
        "{n} outlaw of strength {strength} (black die {black}, white die {white}) arrives on {parcels}.",
        "{n} outlaws of strength {strength} (black die {black}, white die {white}) arrive on {parcels}.", n,
    ).format(n=n, strength=e["strength"], black=e["black"], white=e["white"],
             parcels=", ".join(at(p) for p in e["parcels"]))


def _outlaw_moved(d: Describer, e: Event) -> str:
    if e.get("tied"):
        return _("The outlaw on {parcel} moves to {to} (drawn among {tied}).", parcel=at(e), to=at(e["to"]),
                 tied=", ".join(at(p) for p in e["tied"]))
    return _("The outlaw on {parcel} moves to {to}.", parcel=at(e), to=at(e["to"]))


def _duel_tiles_revealed(d: Describer, e: Event) -> str:
    plays = ", ".join(
        _("{player} plays tiles {tile} and {second}", player=d.who(x["seat"]), tile=x["tile"], second=x["second"])
        if "second" in x else _("{player} plays tile {tile}", player=d.who(x["seat"]), tile=x["tile"])
        for x in e["tiles"])
    return _("Duel for {target}: {plays}; {player} chooses last with the Gunsmith.", target=d.target(e["target"]),
             plays=plays, player=d.who(e["seat"]))


def _outlaw_fought(d: Describer, e: Event) -> str:
    strengths = ", ".join(f"{d.who(x['seat'])} {x['strength']}" for x in e["duelists"])
    fields = {"parcel": at(e), "strength": e["strength"], "strengths": strengths, "winner": d.who(e["winner"])}
    if e["winner"] is None:
        text = _("Fight with the outlaw on {parcel} (strength {strength}): {strengths} — the outlaw wins.", **fields)
    else:
        text = _("Fight with the outlaw on {parcel} (strength {strength}): {strengths} — {winner} wins.", **fields)
    for paid in (e.get("bounty"), e.get("copier_bounty")):  # a Newspaper Boy copying the card is paid too (X7)
        if paid:
            text += " " + _("{player} receives ${amount} from the bank for it.", player=d.who(paid["seat"]),
                            amount=paid["amount"])
    return text


def _cowboy_healed(d: Describer, e: Event) -> str:
    fields = {"player": d.who(e["seat"]), "place": d.place(e), "price": e["price"]}
    if e["price"]:
        return _("The Doctor moves {player}'s defeated cowboy to {place} for ${price}.", **fields)
    return _("The Doctor moves {player}'s defeated cowboy to {place} free of charge.", **fields)


def _undertaker_paid(d: Describer, e: Event) -> str:
    fields = {"player": d.who(e["seat"]), "money": e["money"], "vp": e["vp"]}
    if e["money"]:
        return _("{player} pays the Undertaker ${money} for a defeated cowboy.", **fields)
    if e["vp"]:
        return _("{player} loses {vp} VP to the Undertaker for a defeated cowboy.", **fields)
    return _("{player} owes the Undertaker nothing (no money, no VP) for a defeated cowboy.", **fields)


def _tiles_drawn(d: Describer, e: Event) -> str:
    if "tiles" in e:
        return _("{player} draws {tiles} from the used pile.", player=d.who(e["seat"]),
                 tiles=", ".join(map(str, e["tiles"])))
    n = e.get("count", MIGHT_REDRAW)
    return ngettext("{player} draws {n} tile from the used pile.", "{player} draws {n} tiles from the used pile.",
                    n).format(player=d.who(e["seat"]), n=n)


EVENT_SENTENCES: Final[Mapping[EventType, Callable[[Describer, Event], str | None]]] = {
    "game_started": lambda d, e: _("The game starts with {n} players.", n=e["players"]),
    "tiles_dealt": lambda d, e: gettext("The duel tiles are dealt."),
    "turn_order_drawn": lambda d, e: _("Turn order: {players}.", players=", ".join(d.who(s) for s in e["order"])),
    "centre_placed": lambda d, e: _("Carson City's centre is on parcel {parcel}.", parcel=at(e)),
    "mountains_placed": lambda d, e: ngettext("{n} mountain is placed.", "{n} mountains are placed.",
                                              len(e["parcels"])).format(n=len(e["parcels"])),
    "construction_refilled": lambda d, e: _(
        "New buildings on the construction squares: {buildings}.",
        buildings=", ".join(building_name(b) for b in e["drawn"])) if e.get("drawn") else None,
    "step_completed": lambda d, e: None,
    "parcel_claimed": lambda d, e: _(CLAIM_REASONS.get(str(e.get("reason")), CLAIMED),
                                     player=d.who(e["seat"]), parcel=at(e)),
    "personality_chosen": lambda d, e: _(N_("{player} chooses the {card}") if one_sided(e["card"])
                                         else N_("{player} chooses the {card} ({side})"), player=d.who(e["seat"]),
                                         card=card_name(e["card"]), side=side_name(e["side"])) + _card_gains(e) + ".",
    # Big Box's Newspaper Boy (RULING X2).
    "card_copied": lambda d, e: _("{player}'s Newspaper Boy copies the {card} ({side})", player=d.who(e["seat"]),
                                  card=card_name(e["card"]), side=side_name(e["side"])) + _card_gains(e) + ".",
    "card_option_chosen": lambda d, e: _("{player} chooses: {option}.", player=d.who(e["seat"]),
                                         option=str(e["option"]).replace(":", " ")),
    "cowboys_hired": lambda d, e: _hired(d, e, N_("{player} hires no cowboys."), lambda n: ngettext(
        "{player} hires {n} cowboy for ${price}.", "{player} hires {n} cowboys for ${price}.", n)),
    "revolvers_bought": lambda d, e: _hired(d, e, N_("{player} buys no revolvers."), lambda n: ngettext(
        "{player} buys {n} revolver for ${price}.", "{player} buys {n} revolvers for ${price}.", n)),
    "building_taken": lambda d, e: _("{player} takes the {building} for ${price}.", player=d.who(e["seat"]),
                                     building=building_name(e["building"]), price=e["price"]),
    "card_decision_declined": lambda d, e: _("{player} declines the card's offer.", player=d.who(e["seat"])),
    "placement_order_set": lambda d, e: _("Placement order: {players}.",
                                          players=", ".join(d.who(s) for s in e["order"])),
    "cowboy_placed": _cowboy_placed,
    "player_passed": lambda d, e: _("{player} passes.", player=d.who(e["seat"])),
    "wages_paid": lambda d, e: _("Wages: {payments}.", payments=", ".join(
        f"{d.who(p['seat'])} " + (_horse_wages(p["amount"]) if p.get("horse") else f"${p['amount']}")
        for p in e["payments"]) or gettext("nobody")),
    # Big Box's horses (RULING X6).
    "wages_chosen": lambda d, e: _(N_("{player} pays ${price} for a horse at Wages.") if e["horse"]
                                   else N_("{player} takes the wages."), player=d.who(e["seat"]), price=HORSE_PRICE),
    "roads_handed_out": lambda d, e: _("Road square: {gains}.", gains=_gains(d, e["gains"], "roads", _roads)),
    "duel_fought": _duel,
    "chip_taken": lambda d, e: _("{player} takes the 3-revolvers chip.", player=d.who(e["seat"])),
    "roads_gained": lambda d, e: ngettext("{player} receives {n} road.", "{player} receives {n} roads.",
                                          e["count"]).format(player=d.who(e["seat"]), n=e["count"]),
    "money_gained": _money_gained,
    "vp_gained": lambda d, e: _(N_("{player} scores {n} VP from {square}.") if e.get("square")
                                else N_("{player} scores {n} VP."), player=d.who(e["seat"]), n=e["amount"],
                                square=square_name(e.get("square"))),
    "vp_bought": lambda d, e: _("{player} buys {n} VP for ${price}.", player=d.who(e["seat"]), n=e["count"],
                                price=e["count"] * e["price"])
    if e["count"] else _("{player} buys no VP.", player=d.who(e["seat"])),
    "action_declined": lambda d, e: _("{player} does not use {square}.", player=d.who(e["seat"]),
                                      square=square_name(e.get("square"))),
    "parcel_bought": lambda d, e: _("{player} buys parcel {parcel} for ${price}.", player=d.who(e["seat"]),
                                    parcel=at(e), price=e["price"]),
    "parcel_purchase_declined": lambda d, e: _("{player} leaves parcel {parcel}.", player=d.who(e["seat"]),
                                               parcel=at(e)),
    "building_bought": lambda d, e: _("{player} buys the ${price} {building}.", player=d.who(e["seat"]),
                                      price=e["price"], building=building_name(e["building"])),
    "building_purchase_declined": lambda d, e: _("{player} does not buy the building of {square}.",
                                                 player=d.who(e["seat"]), square=square_name(e.get("square"))),
    "construction_started": lambda d, e: _("{player} builds from their reserve.", player=d.who(e["seat"])),
    "road_placed": _road_placed,
    "permission_asked": _permission_asked,
    "permission_answered": lambda d, e: _(PERMISSION_ANSWERED[bool(e.get("townhouse")), e["granted"]],
                                          player=d.who(e["seat"]), parcel=at(e)),
    "permission_denied_rest": lambda d, e: _("{player} refuses the remaining parcels.", player=d.who(e["seat"])),
    "building_placed": _building_placed,
    "house_placed": lambda d, e: _("{player} places a house on {parcel}.", player=d.who(e["seat"]), parcel=at(e)),
    "townhouse_placed": lambda d, e: _("{player} turns the house on {parcel} into a townhouse.",
                                       player=d.who(e["seat"]), parcel=at(e)),
    "city_hall_placed": _city_hall,
    "city_hall_set_aside": lambda d, e: gettext("The City Hall finds no free parcel and leaves the game."),
    "building_kept": lambda d, e: _("{player} keeps the building in reserve.", player=d.who(e["seat"])),
    "attack_cancelled": lambda d, e: _("The church protects {parcel}: the attack is called off.", parcel=at(e)),
    "building_defended": lambda d, e: _("{player} defends the building on {parcel}.", player=d.who(e["seat"]),
                                        parcel=at(e)),
    "attack_won": lambda d, e: _("{player} attacks the building on {parcel}.", player=d.who(e["seat"]),
                                 parcel=at(e)),
    "estate_income_paid": _payments,
    "banker_vp_bought": lambda d, e: _("{player} buys {n} VP for ${price} with the Banker.", player=d.who(e["seat"]),
                                       n=e["vp"], price=e["price"]),
    "money_given_up": lambda d, e: _(N_("{player} gives up ${amount} over the cash limit for {vp} VP.") if e.get("vp")
                                     else N_("{player} gives up ${amount} over the cash limit."),
                                     player=d.who(e["seat"]), amount=e["amount"], vp=e.get("vp")),
    "cowboys_received": lambda d, e: _("New cowboys: {gains}.", gains=_gains(d, e["gains"], "count", _cowboys)),
    "round_ended": lambda d, e: _("Round {round} ends.", round=e["round"]),
    "game_finished": lambda d, e: _("The game is over: {player} wins.", player=d.who(e["winner"])),
    "duel_order_chosen": lambda d, e: _("{player} has the duel on {parcel} fought next.", player=d.who(e["seat"]),
                                        parcel=at(e)),
    "side_voted": lambda d, e: _(N_("{player} votes for the {card}: {side}.") if "side" in e
                                 else N_("{player} votes for the {card} (secret until everyone has voted)."),
                                 player=d.who(e["seat"]), card=card_name(e["card"]), side=side_name(e.get("side"))),
    "sides_decided": _sides,
    "duel_tile_chosen": lambda d, e: _(N_("{player} plays tile {tile}.") if "tile" in e
                                       else N_("{player} has chosen a duel tile (secret)."), player=d.who(e["seat"]),
                                       tile=e.get("tile")),
    "tiles_drawn": _tiles_drawn,
    "shop_item_added": lambda d, e: None,
    "shop_item_removed": lambda d, e: None,
    "shopping_finished": lambda d, e: _("{player} has finished shopping.", player=d.who(e["seat"])),
    "shopping_revealed": _shopping,
    "parcel_pick_forfeited": lambda d, e: _("{player} forfeits a parcel pick.", player=d.who(e["seat"])),
    "final_roads_finished": lambda d, e: _("{player} places no more roads.", player=d.who(e["seat"])),
    "indian_parcels_taken": _indian,
    "card_flipped": _card_flipped,
    "mine_prospected": lambda d, e: _(
        N_("{player} pays ${price} with the Prospector and builds a mine on {parcel} (from the {square} square).")
        if e.get("square") else N_("{player} pays ${price} with the Prospector and builds a mine on {parcel} (from "
                                   "the bag)."),
        player=d.who(e["seat"]), price=e["price"], parcel=at(e), square=square_name(e.get("square"))),
    "tax_collected": _tax,
    "singer_gambled": lambda d, e: _("The Singer's cowboy wins ${amount} for {player} ({first} × {second}).",
                                     amount=e["amount"], player=d.who(e["seat"]), first=e["dice"][0],
                                     second=e["dice"][1]),
    # The Auctioneer (RULING G8).
    "auction_opened": _auction_opened,
    "auction_parcel_chosen": lambda d, e: _("{player} puts an auction chip on parcel {parcel}.",
                                            player=d.who(e["seat"]), parcel=at(e)),
    "bid_made": lambda d, e: _("{player} bids ${amount}.", player=d.who(e["seat"]), amount=e["amount"]),
    "bid_passed": lambda d, e: _("{player} passes in the auction.", player=d.who(e["seat"])),
    "auction_closed": _auction_closed,
    "seat_replaced": lambda d, e: _("{player} takes over {previous}'s seat ({colour}).", player=e["username"],
                                    previous=e["previous"],
                                    colour=gettext(COLOUR_NAMES[e["seat"] % len(COLOUR_NAMES)])),
    "move_undone": lambda d, e: _("{player} takes back their move.", player=d.who(e["seat"])),
    # The Outlaws (RULING G4).
    "outlaw_jailed": lambda d, e: _("The outlaw on the prison {parcel} is jailed: {player} scores {vp} VP.",
                                    parcel=at(e), player=d.who(e["seat"]), vp=e["vp"]),
    "outlaws_arrived": _outlaws_arrived,
    "outlaw_moved": _outlaw_moved,
    "outlaws_settled": lambda d, e: None,
    # Dynamite and the red Gunsmith (RULING G7).
    "duel_rolled": lambda d, e: _("Duel for {target}: {rolls} — {player} may roll again with the Gunsmith.",
                                  target=d.target(e["target"]), player=d.who(e["seat"]), rolls=", ".join(
                                      f"{d.who(x['seat'])} {chance(x)}+{x['firepower']}" for x in e["duelists"])),
    "die_rerolled": lambda d, e: _("{player} rolls again with the Gunsmith: {roll} instead of {first}.",
                                   player=d.who(e["seat"]), roll=chance(e["throw"]), first=chance(e["first"])),
    "roll_kept": lambda d, e: _("{player} keeps the roll.", player=d.who(e["seat"])),
    "duel_tiles_revealed": _duel_tiles_revealed,
    "mine_dynamited": lambda d, e: _("{player} uses a dynamite chip: the mine on {parcel} earns three times as much "
                                     "this round.", player=d.who(e["seat"]), parcel=at(e)),
    "dynamite_kept": lambda d, e: _("{player} keeps their dynamite.", player=d.who(e["seat"])),
    "outlaw_fought": _outlaw_fought,
    # The Doctor and the Undertaker (RULING G11).
    "cowboy_healed": _cowboy_healed,
    "healing_declined": lambda d, e: _("{player}'s defeated cowboy goes home.", player=d.who(e["seat"])),
    "undertaker_paid": _undertaker_paid,
    "outlaw_reward_taken": lambda d, e: _(N_("{player} scores {vp} VP for the outlaw.") if e["reward"] == "vp"
                                          else N_("{player} takes half the income of the building on {parcel}."),
                                          player=d.who(e["seat"]), vp=e.get("vp"), parcel=at(e)),
}


@dataclass(frozen=True, slots=True)
class LogLine:
    seq: int
    text: str
    heading: bool = False  # a round's heading, placed where its personalities are chosen
    seat: int | None = None  # whose action it was, for their colour and letter
    at: datetime | None = None
    mark: str | None = None  # who played it, when not the seat's player: "played by the clock", or by the bot

    @property
    def when(self) -> str:
        return self.at.strftime("%d %b %H:%M") if self.at else ""


LoggedEvent = (
    tuple[int, dict[str, Any]]
    | tuple[int, dict[str, Any], datetime | None, bool]
    | tuple[int, dict[str, Any], datetime | None, bool, bool]
)


def game_log(describer: Describer, events: Sequence[LoggedEvent]) -> list[LogLine]:
    """The log's sentences, newest first, with a heading where each round starts: round 1 where the setup hands
    over to the personalities, every later round where the one before it ends. Each event is (seq, event) or
    (seq, event, when it was recorded, whether the clock played it[, whether the bot played it for the seat's
    absent player])."""
    lines: list[LogLine] = []
    for seq, e, *more in events:
        at = more[0] if more and isinstance(more[0], datetime) else None
        by_clock = len(more) > 1 and bool(more[1])
        by_bot = len(more) > 2 and bool(more[2])
        seat = e.get("seat") if isinstance(e.get("seat"), int) else None
        if (text := describer.describe(e)) is not None:
            mark = _played_by(describer, seat, by_clock, by_bot, e.get("automatic"))
            lines.append(LogLine(seq, text, seat=seat, at=at, mark=mark))
        if (begun := round_begun(e)) is not None:
            lines.append(LogLine(seq, gettext("Round {round}").format(round=begun), heading=True))
    return lines[::-1]


# The log's note on a move the server made for its seat without asking (API.md "No one waits for a choice that
# is not one"), by the reason the rules core gave (`events.Automatic`).
MADE_FOR: Final[dict[Automatic, str]] = {
    "only_move": N_("made for {player}: the only possible move"),
    "answered_ahead": N_("made for {player}, as answered ahead"),
    "standing_answer": N_("{player}'s standing answer"),
}


def _played_by(describer: Describer, seat: int | None, by_clock: bool, by_bot: bool,
               automatic: Automatic | None = None) -> str | None:
    """The log's note on a move its player did not make (None for one they made)."""
    player = describer.who(seat) if seat is not None else gettext("a player")
    if by_bot:
        return gettext("played by the bot for {player}, whose time ran out").format(player=player)
    if by_clock:
        return gettext("played by the clock")
    return gettext(MADE_FOR[automatic]).format(player=player) if automatic in MADE_FOR else None
