"""Words for moves: one entry per move type of the vocabulary (`app/rules/moves.py`), read from the viewer's state
document. Prices and VP come from the catalog and the state document, never typed again here; a move type without
an entry is an error (`Labeller.label` raises), not a button with the type's name on it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from app.i18n import N_, gettext, ngettext
from app.notify.gamelog import building_name, card_name, road_name, square_name
from app.rules.catalog import (
    BANKER_VP_PRICES,
    BRIDGE_ROADS,
    BUILDINGS,
    BUY_VP_PRICE,
    CAPTAIN_COWBOY_PRICES,
    CAPTAIN_REVOLVER_PRICES,
    CASH_LIMIT_MONEY_PER_VP,
    CHINESE_WORKER_RED_PRICE,
    GOVERNOR_TAX_MONEY_STEP,
    GOVERNOR_TAX_PER_ITEM,
    GROCER_MONEY,
    HORSE_PRICE,
    HORSE_VP,
    OUTLAW_VP,
    PERSONALITIES,
    PROSPECTOR_PRICE,
    RED_CARD_VP_PER_ITEM,
    SETTLER_RED_MONEY,
    SHOP,
    SQUARES,
    WAGE_PER_COWBOY,
)
from app.rules.decisions import Decision
from app.rules.moves import MoveType

Move = dict[str, Any]
Doc = dict[str, Any]

# A permission's answer, by whether the parcel holds a house (a townhouse there, RULING G19) and the answer.
PERMISSION_ANSWERS: Final = {
    (False, True): N_("Allow a house on {parcel}"), (False, False): N_("Refuse a house on {parcel}"),
    (True, True): N_("Allow a townhouse in place of your house on {parcel}"),
    (True, False): N_("Refuse a townhouse in place of your house on {parcel}"),
}
# How a parcel is claimed, by the decision that claims it (a parcel pick needs no words).
CLAIMED_AS: Mapping[str, str] = {
    Decision.START_PARCEL: N_("Take {parcel} as a starting parcel"),
    Decision.SETTLER: N_("Take {parcel} with the Settler"),
}
TAKE_PARCEL: Final = N_("Take {parcel}")  # a parcel pick of A New Beginning needs no more words
# The sides of a personality card, and the two roles of the Doctor / Undertaker card by the side chosen.
SIDE_NAMES: Final = {"yellow": N_("yellow"), "red": N_("red")}
SIDE_BY_VOTE: Final = N_("side by vote")  # a card whose side the vote decides later
AS_ROLE: Final = {"yellow": N_("Choose the {card} as the Doctor"), "red": N_("Choose the {card} as the Undertaker")}
COPY_AS_ROLE: Final = {"yellow": N_("Copy the {card} as the Doctor"), "red": N_("Copy the {card} as the Undertaker")}
# The red Settler's and the red Grocer's VP at the end of the round, by the decision that offers them.
RED_CARD_VP: Final = {
    Decision.SETTLER_RED: N_("{vp} VP per mountain you own at the end of the round"),
    Decision.GROCER_RED: N_("{vp} VP per house you own at the end of the round"),
}
# The red Governor's tax, by what is taxed (RULING G12).
TAXES: Final = {"revolvers": N_("Tax revolver chips (${amount} each)"),
                "money": N_("Tax money (${amount} per started ${step})")}
UNDERTAKER: Final = PERSONALITIES["doctor"].red  # what a defeated cowboy costs with the Undertaker (RULING G11)



# The answers a player may give ahead (issue 26, `app.rules.automatic`), in the order the pages offer them.
ANSWER_LABELS: Final[dict[str, list[tuple[str, str]]]] = {
    "permission": [("ask", N_("Ask me each time")), ("allow", N_("Allow it")), ("deny", N_("Deny it"))],
    "cash_limit": [("ask", N_("Ask me each time")), ("least", N_("Give up only the excess")),
                   ("round_up", N_("Give up the excess, rounded up to the next whole VP"))],
}

class Labeller:
    """Words for moves, from the viewer's state document: what a move's words need to know of the table."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.names = [p["username"] for p in doc["players"]]
        self.parcels = {(p["x"], p["y"]): p for p in doc["board"]["parcels"]}
        self.construction = {c["square"]: c for c in doc["construction"]}
        self.squares = {q["square"]: q for q in doc.get("squares", [])}
        work = doc.get("construction_work") or {}
        self.site_incomes = {(p["x"], p["y"]): p["income"] for p in work.get("site_incomes", [])}

    def who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else gettext("nobody")

    def holds_house(self, move: Move) -> bool:
        """Whether the move's parcel holds a house, which a permission would let the builder turn into a townhouse
        (RULING G19)."""
        return bool(self.parcels.get((move["x"], move["y"]), {}).get("content") == "house")

    def parcel(self, move: Move) -> str:
        return gettext("parcel ({x}, {y})").format(x=move["x"], y=move["y"])

    def spot(self, move: Move) -> str:
        """A placement target in words, with what standing there means: the price or the gain, and the duel
        with whoever already stands there (a preview, issue "The table players would switch for", item 3)."""
        viewer = self.doc.get("viewer")
        if "square" in move:
            square = str(move["square"])
            building = self.construction.get(square, {}).get("building")
            where = square_name(square)
            if building:
                where = gettext("{square} ({building})").format(square=where, building=building_name(building))
            row = self.squares.get(square, {})
            gain = self.gain_now(square)
            if gain:
                where = gettext("{where}, {gain} now").format(where=where, gain=gain)
            return where + self.duel_with(row.get("cowboys", []), square)
        p = self.parcels.get((move["x"], move["y"]), {})
        where = self.parcel(move)
        duel = self.duel_with(p.get("cowboys", []))
        if p.get("owner") is None:
            return gettext("{parcel} (price ${price})").format(parcel=where, price=p.get("price")) + duel
        building = building_name(p.get("content"))
        if p.get("owner") == viewer:
            return gettext("{parcel}: defend your {building}").format(parcel=where, building=building) + duel
        return gettext("{parcel}: attack {owner}'s {building}").format(
            parcel=where, owner=self.who(p.get("owner")), building=building) + duel

    def gain_now(self, square: str) -> str:
        """What an income or VP square would give the viewer if they won it now ("$6", "2 VP")."""
        me = next((p for p in self.doc["players"] if p["seat"] == self.doc.get("viewer")), None)
        if me is None or square not in me.get("hints", {}):
            return ""
        n = me["hints"][square]
        return f"${n}" if square.endswith("income") else gettext("{n} VP").format(n=n)

    def duel_with(self, seats: list[int], square: str | None = None) -> str:
        """", a duel with bert": who the viewer would duel by standing here (nobody duels on Wages and Road)."""
        if square is not None and SQUARES[square].many:
            return ""
        others = sorted({s for s in seats if s != self.doc.get("viewer")})
        together = gettext(" and ").join(self.who(s) for s in others)
        return gettext(", a duel with {players}").format(players=together) if others else ""

    def label(self, move: Move) -> str:
        """The words on a move's button, by its type's entry in `MOVE_LABELS` (a type without one raises
        KeyError: every type of the vocabulary has its words, checked by a test)."""
        words = MOVE_LABELS[move["type"]](self, move)
        if move.get("buy"):  # a placement with its parcel's purchase answered ahead (decision D106)
            return gettext("{placement}, and buy it if you win and can pay").format(placement=words)
        return words

    def horse(self, buy: bool) -> str:
        """Big Box's choice at Wages (RULING X6) in money: what the viewer's cowboys there bring either way."""
        wages = self.squares.get("wages", {})
        viewer = self.doc.get("viewer")
        n = wages.get("cowboys", []).count(viewer) + int(wages.get("white_cowboy") == viewer)
        total = WAGE_PER_COWBOY * n
        if not buy:
            return gettext("Take ${total} of wages, no horse").format(total=total)
        if n == 1:
            return gettext("Buy a horse for ${price} ({vp} VP at the end) instead of taking ${wage}").format(
                price=HORSE_PRICE, vp=HORSE_VP, wage=WAGE_PER_COWBOY)
        return gettext("Buy a horse for ${price} ({vp} VP at the end): ${left} of wages instead of ${total}").format(
            price=HORSE_PRICE, vp=HORSE_VP, left=total - WAGE_PER_COWBOY - HORSE_PRICE, total=total)

    def confirmation(self, move: Move) -> str:
        """The question to ask before a move that ends something for the round and cannot be taken back by
        playing on: passing with cowboys still in reserve, refusing every parcel a request has left (issue "The
        table players would switch for", item 4). Empty for every other move."""
        if move["type"] == "pass":
            viewer = self.doc.get("viewer")
            left = self.doc["players"][viewer]["cowboys"] if viewer is not None else 0
            if left:
                return ngettext(
                    "You still have {n} cowboy in reserve. Pass and place no more cowboys this round?",
                    "You still have {n} cowboys in reserve. Pass and place no more cowboys this round?", left,
                ).format(n=left)
        if move["type"] == "deny_remaining":
            return gettext("Refuse every parcel of this request not answered yet?")
        return ""


Label = Callable[[Labeller, Move], str]


def _claim_parcel(lab: Labeller, move: Move) -> str:
    return gettext(CLAIMED_AS.get(lab.doc.get("awaiting") or "", TAKE_PARCEL)).format(parcel=lab.parcel(move))


def _choose_personality(lab: Labeller, move: Move) -> str:
    card: dict[str, Any] = next((c for c in lab.doc["personalities"] if c["card"] == move["card"]), {})
    if "side" in move:  # the Doctor / Undertaker: the side comes with the choice
        return gettext(AS_ROLE[move["side"]]).format(card=card_name(move["card"]))
    side = gettext(SIDE_NAMES.get(card.get("side") or "", SIDE_BY_VOTE))
    return gettext("Choose the {card} ({side})").format(card=card_name(move["card"]), side=side)


def _copy_card(lab: Labeller, move: Move) -> str:
    """Big Box's Newspaper Boy (RULING X2)."""
    if "side" in move:
        return gettext(COPY_AS_ROLE[move["side"]]).format(card=card_name(move["card"]))
    return gettext("Copy the {card}").format(card=card_name(move["card"]))


def _grocer_choice(lab: Labeller, move: Move) -> str:
    option = move["option"]
    if option == "double":
        return gettext("Double the income of your {building}s").format(building=building_name(move["building"]))
    if option == "money_now":
        return gettext("Receive ${amount} now").format(amount=GROCER_MONEY)
    return gettext("Receive ${amount} at the estate income").format(amount=GROCER_MONEY)


def _card_option(lab: Labeller, move: Move) -> str:
    """The red Settler or the red Grocer: the money now, or VP at the end of the round."""
    if move["option"] == "money":
        return gettext("Receive ${amount} now").format(amount=SETTLER_RED_MONEY)
    offer = RED_CARD_VP[Decision.GROCER_RED if lab.doc.get("awaiting") == Decision.GROCER_RED else Decision.SETTLER_RED]
    return gettext(offer).format(vp=RED_CARD_VP_PER_ITEM)


def _hire_cowboys(lab: Labeller, move: Move) -> str:
    n = move["count"]
    return gettext("Hire no cowboy") if n == 0 else ngettext(
        "Hire {n} cowboy for ${price}", "Hire {n} cowboys for ${price}", n).format(n=n, price=CAPTAIN_COWBOY_PRICES[n])


def _buy_revolvers(lab: Labeller, move: Move) -> str:
    n = move["count"]
    return gettext("Buy no revolver") if n == 0 else ngettext(
        "Buy {n} revolver for ${price}", "Buy {n} revolvers for ${price}", n).format(
        n=n, price=CAPTAIN_REVOLVER_PRICES[n])


def _take_building(lab: Labeller, move: Move) -> str:
    building = lab.construction.get(move["square"], {}).get("building")
    return gettext("Take the {building} of {square} for ${price}").format(
        building=building_name(building), square=square_name(move["square"]), price=CHINESE_WORKER_RED_PRICE)


def _decline(lab: Labeller, move: Move) -> str:
    return lab.horse(buy=False) if lab.doc.get("awaiting") == Decision.HORSE else gettext("Decline")


def _place_cowboy(lab: Labeller, move: Move) -> str:
    if move.get("dynamite"):
        return gettext("Place a cowboy with a dynamite chip (two dice in its duel) on {spot}").format(
            spot=lab.spot(move))
    if move.get("no_duel"):
        return gettext("Place a cowboy with a \"no duel\" chip on {square}").format(
            square=square_name(move.get("square")))
    return gettext("Place a cowboy on {spot}").format(spot=lab.spot(move))


def _pay_undertaker(lab: Labeller, move: Move) -> str:
    if move["pay"] == "money":
        return gettext("Pay the Undertaker ${price}").format(price=UNDERTAKER.burial_price)
    return gettext("Lose {vp} VP to the Undertaker").format(vp=UNDERTAKER.burial_vp)


def _buy_parcel(lab: Labeller, move: Move) -> str:
    price = lab.parcels.get((move["x"], move["y"]), {}).get("price")
    return gettext("Buy {parcel} for ${price}").format(parcel=lab.parcel(move), price=price)


def _buy_building(lab: Labeller, move: Move) -> str:
    row = lab.construction.get(lab.doc.get("step", ""), {})
    return gettext("Buy the {building} for ${price}").format(
        building=building_name(row.get("building")), price=row.get("your_price"))


def _place_road(lab: Labeller, move: Move) -> str:
    edge = [move["x1"], move["y1"], move["x2"], move["y2"]]
    where = road_name(move["x1"], move["y1"], move["x2"], move["y2"])
    if edge in lab.doc["board"].get("water_edges", []):
        return gettext("Bridge {where} (takes {n} roads)").format(where=where, n=BRIDGE_ROADS)
    return gettext("Road {where}").format(where=where)


def _prospect_mine(lab: Labeller, move: Move) -> str:
    if "square" in move:
        return gettext("Pay ${price} for the mine of {square} and build it on {parcel}").format(
            price=PROSPECTOR_PRICE, square=square_name(move["square"]), parcel=lab.parcel(move))
    return gettext("Pay ${price} for a mine from the bag and build it on {parcel}").format(
        price=PROSPECTOR_PRICE, parcel=lab.parcel(move))


def _outlaw_reward(lab: Labeller, move: Move) -> str:
    if move["reward"] == "income":
        return gettext("Leave your cowboy there to take half of the building's income this round")
    strength = (lab.doc.get("outlaws") or {}).get("strength")
    if strength in OUTLAW_VP:
        return gettext("Take the outlaw tile's {vp} VP").format(vp=OUTLAW_VP[strength])
    return gettext("Take the VP")


def _place_building(lab: Labeller, move: Move) -> str:
    earns = lab.site_incomes.get((move["x"], move["y"]))
    built = gettext("Build the {building} on {parcel}").format(
        building=building_name(move["building"]), parcel=lab.parcel(move))
    if earns is None:
        return built
    if BUILDINGS[move["building"]].needs_house:
        return gettext("{build}: earns ${income} before its house").format(build=built, income=earns)
    return gettext("{build}: earns ${income}").format(build=built, income=earns)


def _buy_vp(lab: Labeller, move: Move) -> str:
    n = move["count"]
    price = BUY_VP_PRICE.get(lab.doc.get("step", ""), 0)
    return gettext("Buy no VP") if n == 0 else gettext("Buy {n} VP for ${price}").format(n=n, price=n * price)


def _banker_vp(lab: Labeller, move: Move) -> str:
    vp = move["vp"]
    return gettext("Buy no VP") if vp == 0 else gettext("Buy {n} VP for ${price}").format(
        n=vp, price=BANKER_VP_PRICES[vp])


def _give_up_money(lab: Labeller, move: Move) -> str:
    vp = move["amount"] // CASH_LIMIT_MONEY_PER_VP
    if vp:
        return gettext("Give up ${amount} for {vp} VP").format(amount=move["amount"], vp=vp)
    return gettext("Give up ${amount}").format(amount=move["amount"])


def _play_tile(lab: Labeller, move: Move) -> str:
    if "second" in move:
        return gettext("Play tiles {tile} and {second} (dynamite)").format(tile=move["tile"], second=move["second"])
    return gettext("Play tile {tile}").format(tile=move["tile"])


def _shop_add(lab: Labeller, move: Move) -> str:
    item = SHOP[move["item"]]
    cost = f"${item.price}" if item.price >= 0 else f"+${-item.price}"
    return gettext("Add {item} ({cost})").format(item=gettext(item.name), cost=cost)


def _on_parcel(message: str) -> Label:
    """A move whose words only name its parcel ("Put the house on parcel (3, 4)")."""
    return lambda lab, move: gettext(message).format(parcel=lab.parcel(move))


def _on_spot(message: str) -> Label:
    """A move whose words only name its spot, with what standing there means."""
    return lambda lab, move: gettext(message).format(spot=lab.spot(move))


def _said(message: str) -> Label:
    """A move whose words are the same whatever the state."""
    return lambda lab, move: gettext(message)


MOVE_LABELS: Final[Mapping[MoveType, Label]] = {
    "claim_parcel": _claim_parcel,
    "choose_personality": _choose_personality,
    "grocer_choice": _grocer_choice,
    "card_option": _card_option,
    "hire_cowboys": _hire_cowboys,
    "buy_revolvers": _buy_revolvers,
    "take_building": _take_building,
    "decline": _decline,
    "place_cowboy": _place_cowboy,
    "place_white_cowboy": _on_spot(N_("Place the white cowboy on {spot}")),
    "pass": _said(N_("Pass (no more cowboys this round)")),
    "resolve_duel": _on_parcel(N_("Fight the duel on {parcel} next")),
    "buy_parcel": _buy_parcel,
    "decline_parcel": _on_parcel(N_("Leave {parcel}")),
    "buy_building": _buy_building,
    "place_road": _place_road,
    "ask_permission": lambda lab, move: gettext(
        "Ask {player} for permission to build a house on their parcels").format(player=lab.who(move["seat"])),
    "answer_permission": lambda lab, move: gettext(
        PERMISSION_ANSWERS[lab.holds_house(move), move["grant"]]).format(parcel=lab.parcel(move)),
    "deny_remaining": _said(N_("Refuse all remaining parcels")),
    "place_building": _place_building,
    "place_house": _on_parcel(N_("Put the house on {parcel}")),
    "place_townhouse": _on_parcel(N_("Turn the house on {parcel} into a townhouse")),
    "place_city_hall": _on_parcel(N_("Place the City Hall on {parcel}")),
    "keep_building": _said(N_("Keep the building in reserve")),
    "buy_vp": _buy_vp,
    "banker_vp": _banker_vp,
    "give_up_money": _give_up_money,
    "vote_side": lambda lab, move: f"{card_name(move['card'])}: {gettext(SIDE_NAMES[move['side']])}",
    "play_tile": _play_tile,
    "shop_add": _shop_add,
    "shop_remove": lambda lab, move: gettext("Take back {item}").format(item=gettext(SHOP[move["item"]].name)),
    "shop_done": _said(N_("Done shopping")),
    "finish_roads": _said(N_("Place no more roads")),
    "prospect_mine": _prospect_mine,
    "collect_tax": lambda lab, move: gettext(TAXES[move["tax"]]).format(
        amount=GOVERNOR_TAX_PER_ITEM, step=GOVERNOR_TAX_MONEY_STEP),
    "place_singer_cowboy": _said(N_("Place the Singer's cowboy (from the general reserve) on Gambling income")),
    "auction_parcel": _on_parcel(N_("Put an auction chip on {parcel}")),
    "bid": lambda lab, move: gettext("Bid ${amount}").format(amount=move["amount"]),
    "bid_pass": _said(N_("Pass (no more bids in this auction)")),
    "move_outlaw": _on_parcel(N_("Move the outlaw on {parcel} next")),
    "outlaw_reward": _outlaw_reward,
    "use_dynamite": _on_parcel(N_("Triple the income of your mine on {parcel} with a dynamite chip")),
    "keep_dynamite": _said(N_("Keep your dynamite chips")),
    "reroll": _said(N_("Roll again (the new roll counts)")),
    "keep_roll": _said(N_("Keep your roll")),
    "heal_cowboy": _on_spot(N_("Have the Doctor move your defeated cowboy to {spot}")),
    "pay_undertaker": _pay_undertaker,
    "buy_horse": lambda lab, move: lab.horse(buy=True),
    "copy_card": _copy_card,
}
