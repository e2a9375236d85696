"""Presentation of a seat's state document for the game page: board geometry, words for moves, the choices
offered. Everything here reads `player_view` and `legal_moves` output (and the catalog's printed texts); it
decides nothing about the rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from markupsafe import Markup, escape

from app.i18n import N_, gettext, ngettext
from app.rules.catalog import (
    BANKER_VP_PRICES,
    BUILDINGS,
    BUY_VP_PRICE,
    CAPTAIN_COWBOY_PRICES,
    CAPTAIN_REVOLVER_PRICES,
    CASH_LIMIT_MONEY_PER_VP,
    CHINESE_WORKER_RED_PRICE,
    FINAL_MONEY_PER_VP,
    HORSE_PRICE,
    HORSE_VP,
    OUTLAW_VP,
    PERSONALITIES,
    SHOP,
    SQUARES,
    TRACK_STEPS,
    WAGE_PER_COWBOY,
)
from app.rules.config import EXPANSION_NAMES
from app.rules.decisions import Decision
from app.rules.moves import MoveType
from app.rules.phrases import DECISION_PHRASES, third_person
from app.web.gamelog import building_name, card_name, one_sided, road_name, square_name
from app.web.guide import (
    HORSES_NOT_PLAYED,
    OPTION_SQUARE_TEXTS,
    STEP_NAMES,
    building_help,
    option_square_help,
    square_help,
)

Move = dict[str, Any]
Doc = dict[str, Any]

# The seats' colours. The sixth (Big Box, RULING X1) is near-black rather than slate: under a simulated protanopia
# slate and the red come out alike, and slate sits close to the purple in lightness; black stands apart from every
# other colour in lightness, and its white letter has a contrast of 16:1. The letters carry who is who anyway.
COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#ef9a00", "#7b1fa2", "#212121")
CELL = 64
MARGIN = 28
BOARD_PX = 2 * MARGIN + 8 * CELL
# A permission's answer, by whether the parcel holds a house (a townhouse there, RULING G19) and the answer.
PERMISSION_ANSWERS: Final = {
    (False, True): N_("Allow a house on {parcel}"), (False, False): N_("Refuse a house on {parcel}"),
    (True, True): N_("Allow a townhouse in place of your house on {parcel}"),
    (True, False): N_("Refuse a townhouse in place of your house on {parcel}"),
}
# Moves that say no (their buttons look so), and the move that asks for permission (its parcels are marked "?").
REFUSING: tuple[MoveType, ...] = ("decline", "decline_parcel", "deny_remaining", "pass", "bid_pass")
ASKING: MoveType = "ask_permission"
# How a parcel is claimed, by the decision that claims it (a parcel pick needs no words).
CLAIMED_AS: Mapping[str, str] = {
    Decision.START_PARCEL: N_("Take {parcel} as a starting parcel"),
    Decision.SETTLER: N_("Take {parcel} with the Settler"),
}
TAKE_PARCEL: Final = N_("Take {parcel}")  # a parcel pick of A New Beginning needs no more words
# What a decision's buttons need said beside them (RULING X6: where horses are shown, the page says what is not played).
DECISION_NOTES: Mapping[str, str] = {Decision.HORSE: HORSES_NOT_PLAYED}
HINT_SQUARES = ("parcel_income", "cowboy_income", "parcels_vp", "cowboy_vp", "estate_vp")


def said(text: str) -> str:
    """`text` in the language spoken now; an empty text stays empty (gettext("") is the catalog's header)."""
    return gettext(text) if text else ""


def colour(seat: int | None) -> str:
    return COLOURS[seat % len(COLOURS)] if seat is not None else "#fff"


# The letter drawn on a player's pieces is readable on their colour (orange takes dark ink), one per colour.
INK = ("#fff", "#fff", "#fff", "#000", "#fff", "#fff")


def ink(seat: int) -> str:
    return INK[seat % len(INK)]


def player_marks(names: Sequence[str]) -> list[str]:
    """The letter on each player's pieces, so that no one needs to tell colours apart: the initial of the name,
    or, when two players share an initial, the seat number for everyone (one rule the table can tell)."""
    initials = [name[:1].upper() or "?" for name in names]
    if len(set(initials)) < len(initials):
        return [str(seat + 1) for seat in range(len(names))]
    return initials


def decision_text(kind: str | None) -> str:
    """What the awaited decision asks, in the words the mails and the rules' refusals use too (in English: the
    layers translate it where they show it)."""
    return "" if kind is None else DECISION_PHRASES[Decision(kind)]


def waiting_text(doc: Doc) -> str:
    """"Waiting for ann to …", said to everyone else: the decision's phrase turned to the third person, and a
    permission request names whose request it is (the phrase itself speaks to the one who answers)."""
    kind = doc.get("awaiting")
    names = [p["username"] for p in doc["players"]]
    waiting = [names[s] for s in doc["to_act"] if 0 <= s < len(names)]
    if kind is None or not waiting:
        return ""
    work = doc.get("construction_work") or {}
    if kind == Decision.PERMISSION and work.get("seat") is not None:
        phrase = gettext("answer {name}'s request to build a house on their parcels").format(name=names[work["seat"]])
    else:
        phrase = gettext(third_person(decision_text(kind)))
    return ngettext("Waiting for {names} to {phrase}.", "Waiting for {names} to {phrase}.", len(waiting)).format(
        names=", ".join(waiting), phrase=phrase)


def encode(move: Move) -> str:
    """A move as the compact JSON the page posts back (and the server compares with the legal list)."""
    return json.dumps(move, separators=(",", ":"), sort_keys=True)


def parcel_key(x: int, y: int) -> str:
    return f"p{x}-{y}"


def road_key(x1: int, y1: int, x2: int, y2: int) -> str:
    return f"r{x1}-{y1}-{x2}-{y2}"


def target_keys(move: Move, askable: dict[int, list[list[int]]]) -> list[str]:
    """The board spots (parcels, road edges, squares) a move is made by clicking."""
    kind: MoveType = move["type"]
    if kind == "ask_permission":
        return [parcel_key(x, y) for x, y in askable.get(move["seat"], [])]
    if kind == "place_road":
        return [road_key(move["x1"], move["y1"], move["x2"], move["y2"])]
    if "x" in move and "y" in move:
        return [parcel_key(move["x"], move["y"])]
    if "square" in move:
        return [f"s-{move['square']}"]
    return []


# The sides of a personality card, and the two roles of the Doctor / Undertaker card by the side chosen.
SIDE_NAMES: Final = {"yellow": N_("yellow"), "red": N_("red")}
SIDE_BY_VOTE: Final = N_("side by vote")  # a card whose side the vote decides later
AS_ROLE: Final = {"yellow": N_("Choose the {card} as the Doctor"), "red": N_("Choose the {card} as the Undertaker")}
COPY_AS_ROLE: Final = {"yellow": N_("Copy the {card} as the Doctor"), "red": N_("Copy the {card} as the Undertaker")}


class Labeller:
    """Words for moves, from the viewer's state document."""

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

    def _holds_house(self, move: Move) -> bool:
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
        kind: MoveType = move["type"]  # typed: mypy refuses a comparison with a name not in the vocabulary
        awaiting = self.doc.get("awaiting")
        if kind == "claim_parcel":
            return gettext(CLAIMED_AS.get(awaiting or "", TAKE_PARCEL)).format(parcel=self.parcel(move))
        if kind == "choose_personality":
            card: dict[str, Any] = next((c for c in self.doc["personalities"] if c["card"] == move["card"]), {})
            if "side" in move:  # the Doctor / Undertaker: the side comes with the choice
                return gettext(AS_ROLE[move["side"]]).format(card=card_name(move["card"]))
            side = gettext(SIDE_NAMES.get(card.get("side") or "", SIDE_BY_VOTE))
            return gettext("Choose the {card} ({side})").format(card=card_name(move["card"]), side=side)
        if kind == "copy_card":  # Big Box's Newspaper Boy (RULING X2)
            if "side" in move:
                return gettext(COPY_AS_ROLE[move["side"]]).format(card=card_name(move["card"]))
            return gettext("Copy the {card}").format(card=card_name(move["card"]))
        if kind == "grocer_choice":
            option = move["option"]
            if option == "double":
                building = building_name(move["building"])
                return gettext("Double the income of your {building}s").format(building=building)
            return gettext("Receive $8 now") if option == "money_now" else gettext("Receive $8 at the estate income")
        if kind == "card_option":
            if move["option"] == "money":
                return gettext("Receive $8 now")
            if awaiting == Decision.GROCER_RED:
                return gettext("1 VP per house you own at the end of the round")
            return gettext("1 VP per mountain you own at the end of the round")
        if kind == "hire_cowboys":
            n = move["count"]
            return gettext("Hire no cowboy") if n == 0 else ngettext(
                "Hire {n} cowboy for ${price}", "Hire {n} cowboys for ${price}", n).format(
                n=n, price=CAPTAIN_COWBOY_PRICES[n])
        if kind == "buy_revolvers":
            n = move["count"]
            return gettext("Buy no revolver") if n == 0 else ngettext(
                "Buy {n} revolver for ${price}", "Buy {n} revolvers for ${price}", n).format(
                n=n, price=CAPTAIN_REVOLVER_PRICES[n])
        if kind == "take_building":
            building = self.construction.get(move["square"], {}).get("building")
            return gettext("Take the {building} of {square} for ${price}").format(
                building=building_name(building), square=square_name(move["square"]), price=CHINESE_WORKER_RED_PRICE)
        if kind == "buy_horse":
            return self.horse(buy=True)
        if kind == "decline":
            return self.horse(buy=False) if awaiting == Decision.HORSE else gettext("Decline")
        if kind == "place_cowboy":
            if move.get("dynamite"):
                return gettext("Place a cowboy with a dynamite chip (two dice in its duel) on {spot}").format(
                    spot=self.spot(move))
            if move.get("no_duel"):
                return gettext("Place a cowboy with a \"no duel\" chip on {square}").format(
                    square=square_name(move.get("square")))
            return gettext("Place a cowboy on {spot}").format(spot=self.spot(move))
        if kind == "heal_cowboy":
            return gettext("Have the Doctor move your defeated cowboy to {spot}").format(spot=self.spot(move))
        if kind == "pay_undertaker":
            if move["pay"] == "money":
                return gettext("Pay the Undertaker $2")
            return gettext("Lose 1 VP to the Undertaker")
        if kind == "place_white_cowboy":
            return gettext("Place the white cowboy on {spot}").format(spot=self.spot(move))
        if kind == "pass":
            return gettext("Pass (no more cowboys this round)")
        if kind == "resolve_duel":
            return gettext("Fight the duel on {parcel} next").format(parcel=self.parcel(move))
        if kind == "buy_parcel":
            price = self.parcels.get((move["x"], move["y"]), {}).get("price")
            return gettext("Buy {parcel} for ${price}").format(parcel=self.parcel(move), price=price)
        if kind == "decline_parcel":
            return gettext("Leave {parcel}").format(parcel=self.parcel(move))
        if kind == "buy_building":
            square = self.doc.get("step", "")
            row = self.construction.get(square, {})
            return gettext("Buy the {building} for ${price}").format(
                building=building_name(row.get("building")), price=row.get("your_price"))
        if kind == "place_road":
            edge = [move["x1"], move["y1"], move["x2"], move["y2"]]
            where = road_name(move["x1"], move["y1"], move["x2"], move["y2"])
            if edge in self.doc["board"].get("water_edges", []):
                return gettext("Bridge {where} (takes 2 roads)").format(where=where)
            return gettext("Road {where}").format(where=where)
        if kind == "ask_permission":
            return gettext("Ask {player} for permission to build a house on their parcels").format(
                player=self.who(move["seat"]))
        if kind == "place_house":
            return gettext("Put the house on {parcel}").format(parcel=self.parcel(move))
        if kind == "place_townhouse":
            return gettext("Turn the house on {parcel} into a townhouse").format(parcel=self.parcel(move))
        if kind == "place_city_hall":
            return gettext("Place the City Hall on {parcel}").format(parcel=self.parcel(move))
        if kind == "prospect_mine":
            if "square" in move:
                return gettext("Pay $10 for the mine of {square} and build it on {parcel}").format(
                    square=square_name(move["square"]), parcel=self.parcel(move))
            return gettext("Pay $10 for a mine from the bag and build it on {parcel}").format(parcel=self.parcel(move))
        if kind == "collect_tax":
            if move["tax"] == "revolvers":
                return gettext("Tax revolver chips ($1 each)")
            return gettext("Tax money ($1 per started $10)")
        if kind == "place_singer_cowboy":
            return gettext("Place the Singer's cowboy (from the general reserve) on Gambling income")
        if kind == "move_outlaw":
            return gettext("Move the outlaw on {parcel} next").format(parcel=self.parcel(move))
        if kind == "outlaw_reward":
            if move["reward"] == "income":
                return gettext("Leave your cowboy there to take half of the building's income this round")
            strength = (self.doc.get("outlaws") or {}).get("strength")
            if strength in OUTLAW_VP:
                return gettext("Take the outlaw tile's {vp} VP").format(vp=OUTLAW_VP[strength])
            return gettext("Take the VP")
        if kind == "auction_parcel":
            return gettext("Put an auction chip on {parcel}").format(parcel=self.parcel(move))
        if kind == "bid":
            return gettext("Bid ${amount}").format(amount=move["amount"])
        if kind == "bid_pass":
            return gettext("Pass (no more bids in this auction)")
        if kind == "place_building":
            earns = self.site_incomes.get((move["x"], move["y"]))
            built = gettext("Build the {building} on {parcel}").format(
                building=building_name(move["building"]), parcel=self.parcel(move))
            if earns is None:
                return built
            if BUILDINGS[move["building"]].needs_house:
                return gettext("{build}: earns ${income} before its house").format(build=built, income=earns)
            return gettext("{build}: earns ${income}").format(build=built, income=earns)
        if kind == "keep_building":
            return gettext("Keep the building in reserve")
        if kind == "answer_permission":
            return gettext(PERMISSION_ANSWERS[self._holds_house(move), move["grant"]]).format(parcel=self.parcel(move))
        if kind == "deny_remaining":
            return gettext("Refuse all remaining parcels")
        if kind == "buy_vp":
            n = move["count"]
            price = BUY_VP_PRICE.get(self.doc.get("step", ""), 0)
            return gettext("Buy no VP") if n == 0 else gettext("Buy {n} VP for ${price}").format(n=n, price=n * price)
        if kind == "banker_vp":
            vp = move["vp"]
            return gettext("Buy no VP") if vp == 0 else gettext("Buy {n} VP for ${price}").format(
                n=vp, price=BANKER_VP_PRICES[vp])
        if kind == "give_up_money":
            vp = move["amount"] // CASH_LIMIT_MONEY_PER_VP
            if vp:
                return gettext("Give up ${amount} for {vp} VP").format(amount=move["amount"], vp=vp)
            return gettext("Give up ${amount}").format(amount=move["amount"])
        if kind == "vote_side":
            return f"{card_name(move['card'])}: {gettext(SIDE_NAMES[move['side']])}"
        if kind == "play_tile":
            if "second" in move:
                return gettext("Play tiles {tile} and {second} (dynamite)").format(
                    tile=move["tile"], second=move["second"])
            return gettext("Play tile {tile}").format(tile=move["tile"])
        if kind == "use_dynamite":
            return gettext("Triple the income of your mine on {parcel} with a dynamite chip").format(
                parcel=self.parcel(move))
        if kind == "keep_dynamite":
            return gettext("Keep your dynamite chips")
        if kind == "reroll":
            return gettext("Roll again (the new roll counts)")
        if kind == "keep_roll":
            return gettext("Keep your roll")
        if kind == "shop_add":
            item = SHOP[move["item"]]
            cost = f"${item.price}" if item.price >= 0 else f"+${-item.price}"
            return gettext("Add {item} ({cost})").format(item=gettext(item.name), cost=cost)
        if kind == "shop_remove":
            return gettext("Take back {item}").format(item=gettext(SHOP[move["item"]].name))
        if kind == "shop_done":
            return gettext("Done shopping")
        if kind == "finish_roads":
            return gettext("Place no more roads")
        return str(kind).replace("_", " ").capitalize()

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


@dataclass
class Choice:
    label: str
    value: str
    tone: str = ""  # "yes", "no" or "" — only for the button's look
    confirm: str = ""  # the question asked before the move is sent (moves that end something for the round)


@dataclass
class Group:
    title: str
    choices: list[Choice]
    anchor: str | None = None
    as_select: bool = False
    note: str = ""


@dataclass
class Target:
    """A clickable spot on the board: one move posts at once; several lead to their group of buttons."""

    key: str
    moves: list[Choice] = field(default_factory=list)
    ask: bool = False  # a permission request: the parcel is marked "?"

    @property
    def single(self) -> Choice | None:
        return self.moves[0] if len(self.moves) == 1 else None


def _tone(move: Move) -> str:
    if move.get("grant") is True:
        return "yes"
    if move.get("grant") is False or move["type"] in REFUSING:
        return "no"
    return ""


def choices(doc: Doc, moves: Sequence[Move]) -> tuple[list[Group], dict[str, Target]]:
    """The viewer's legal moves, every one of them, as groups of buttons or lists, and as board targets."""
    labeller = Labeller(doc)
    work = doc.get("construction_work") or {}
    askable = {a["seat"]: a["parcels"] for a in work.get("askable", [])}
    targets: dict[str, Target] = {}
    free: list[Move] = []
    on_board: list[Move] = []
    for move in moves:
        keys = target_keys(move, askable)
        if not keys:
            free.append(move)
            continue
        on_board.append(move)
        for key in keys:
            target = targets.setdefault(key, Target(key))
            target.moves.append(Choice(labeller.label(move), encode(move), _tone(move)))
            target.ask = target.ask or move["type"] == ASKING
    groups: list[Group] = []
    if doc.get("awaiting") == Decision.VOTE:
        by_card: dict[str, list[Move]] = {}
        for move in free:
            by_card.setdefault(move["card"], []).append(move)
        for card, card_moves in by_card.items():
            row = PERSONALITIES[card]
            note = gettext("Yellow: {yellow} Red: {red}").format(
                yellow=said(row.yellow.text), red=said(row.red.text))
            groups.append(Group(
                gettext(row.name), [Choice(gettext(SIDE_NAMES[m["side"]]).capitalize(), encode(m), m["side"])
                                    for m in card_moves], note=note
            ))
        free = []
    for key, target in sorted(targets.items()):
        if target.single is None:
            groups.append(Group(_spot_title(key), target.moves, anchor=f"choose-{key}"))
    if free:
        many = len(free) > 10
        groups.insert(0, Group(
            gettext("Your choice"),
            [Choice(labeller.label(m), encode(m), _tone(m), labeller.confirmation(m)) for m in free],
            as_select=many,
            note=said(DECISION_NOTES.get(doc.get("awaiting") or "", "")),
        ))
    if on_board:
        groups.append(Group(
            gettext("Every board choice as a list"),
            [Choice(labeller.label(m), encode(m)) for m in on_board],
            as_select=True,
            note=gettext("Or click the highlighted spots on the board."),
        ))
    return groups, targets


def _spot_title(key: str) -> str:
    if key.startswith("p"):
        x, y = key[1:].split("-")
        return gettext("Parcel ({x}, {y})").format(x=x, y=y)
    if key.startswith("s-"):
        return square_name(key[2:])
    x1, y1, x2, y2 = (int(v) for v in key[1:].split("-"))
    return gettext("Road {where}").format(where=road_name(x1, y1, x2, y2))


PIECE_NAMES: Final = {"house": N_("House"), "townhouse": N_("Townhouse"), "mountain": N_("Mountain")}


def piece_name(piece: str) -> str:
    """A piece by its name ("House"), as the rules page lists it."""
    return said(PIECE_NAMES.get(piece, piece))


def content_name(p: Mapping[str, Any]) -> str:
    """What stands on a parcel, in words: "Bank, income $12", "House, centre of Carson City"."""
    content = p["content"]
    if not content:
        return ""
    if content in BUILDINGS:
        name = gettext(BUILDINGS[content].name)
        if p["income"] is None:  # the City Hall earns nothing
            return name
        return gettext("{building}, income ${income}").format(building=name, income=p["income"])
    name = said(PIECE_NAMES.get(content, str(content)))
    return gettext("{piece}, centre of Carson City").format(piece=name) if p.get("centre") else name


@dataclass
class Cell:
    x: int
    y: int
    px: int
    py: int
    parcel: dict[str, Any]
    title: str
    target: Target | None
    content_name: str = ""  # the accessible name of what stands on the parcel


def cells(doc: Doc, targets: dict[str, Target]) -> list[Cell]:
    """The 64 parcels with their pixel positions and a text alternative."""
    labeller = Labeller(doc)
    result = []
    for p in doc["board"]["parcels"]:
        x, y = p["x"], p["y"]
        bits = [gettext("Parcel ({x}, {y})").format(x=x, y=y)]
        if p["river"]:
            bits.append(gettext("river"))
        if p["owner"] is not None:
            bits.append(gettext("owned by {player}").format(player=labeller.who(p["owner"])))
        content = p["content"]
        name = content_name(p)
        if name:
            bits.append(name)
        if content in BUILDINGS:
            bits.append(building_help(content))
        if p["price"] is not None:
            bits.append(gettext("price ${price}").format(price=p["price"]))
        cowboys = [labeller.who(s) for s in p["cowboys"]]
        if p.get("white_cowboy") is not None:
            cowboys.append(gettext("{player} (white cowboy)").format(player=labeller.who(p["white_cowboy"])))
        if cowboys:
            bits.append(gettext("cowboys: {players}").format(players=", ".join(cowboys)))
        piece, comma, rest = name.partition(",")  # "Bank, income $12" -> "Bank of ann, income $12"
        if p["owner"] is not None and content:
            piece = gettext("{piece} of {player}").format(piece=piece, player=labeller.who(p["owner"]))
        result.append(Cell(x, y, MARGIN + (x - 1) * CELL, MARGIN + (y - 1) * CELL, p, "; ".join(bits),
                           targets.get(parcel_key(x, y)), piece + comma + rest))
    return result


@dataclass
class Road:
    x1: int
    y1: int
    x2: int
    y2: int
    bridge: bool = False
    target: Target | None = None

    @property
    def coords(self) -> tuple[int, int, int, int]:
        return (MARGIN + self.x1 * CELL, MARGIN + self.y1 * CELL, MARGIN + self.x2 * CELL, MARGIN + self.y2 * CELL)

    @property
    def name(self) -> str:
        where = road_name(self.x1, self.y1, self.x2, self.y2)
        return (gettext("Bridge {where}") if self.bridge else gettext("Road {where}")).format(where=where)


def roads(doc: Doc, targets: dict[str, Target]) -> tuple[list[Road], list[Road]]:
    """Roads on the board (bridges marked) and the free edges where the viewer may place one."""
    bridges = {tuple(b) for b in doc["board"].get("bridges", [])}
    built = [Road(r[0], r[1], r[2], r[3], bridge=tuple(r) in bridges) for r in doc["board"]["roads"]]
    offered = []
    for key, target in targets.items():
        if key.startswith("r"):
            x1, y1, x2, y2 = (int(v) for v in key[1:].split("-"))
            offered.append(Road(x1, y1, x2, y2, target=target))
    return built, offered


@dataclass
class TrackItem:
    step: str
    name: str
    square: dict[str, Any] | None
    building: str | None
    price: int | None
    current: bool
    target: Target | None
    hints: list[tuple[str, int]]
    help: str = ""  # what the square does (and its building, on a construction square)


def track(doc: Doc, targets: dict[str, Target]) -> list[TrackItem]:
    """The action track in resolution order, with the steps between the squares (purchase, estate income)."""
    squares = {s["square"]: s for s in doc["squares"]}
    construction = {c["square"]: c for c in doc["construction"]}
    items = []
    for step in TRACK_STEPS:
        square = squares.get(step)
        name = gettext(SQUARES[step].name if step in SQUARES else STEP_NAMES.get(step, step))
        built = construction.get(step, {})
        hints = [(p["username"], p["hints"][step]) for p in doc["players"]] if step in HINT_SQUARES else []
        explained = " ".join([square_help(step), *(
            option_square_help(option, step) for option, extra in OPTION_SQUARE_TEXTS.items()
            if doc["variants"].get(option) and step in extra
        )])
        if built.get("building"):
            explained += " " + gettext("The {building}: {help}").format(
                building=building_name(built["building"]), help=building_help(built["building"]))
        items.append(TrackItem(
            step, name, square, built.get("building"), built.get("price"), doc.get("step") == step,
            targets.get(f"s-{step}"), hints, explained,
        ))
    return items


def personality_cards(doc: Doc) -> list[dict[str, Any]]:
    """The cards with both printed sides, the side in play (if decided) and who holds each."""
    cards = []
    for card in doc["personalities"]:
        row = PERSONALITIES[card["card"]]
        cards.append({
            **card,
            "name": gettext(row.name),
            "side_name": card_side_name(card["card"], card.get("side")),
            "yellow_text": said(row.yellow.text),
            "yellow_limit": row.yellow.cash_limit,
            "red_text": said(row.red.text),
            "red_limit": row.red.cash_limit,
        })
    return cards


SIDES_BADGES: Final = {
    "yellow": N_("Yellow sides"), "red": N_("Red sides"), "random": N_("Random sides"), "vote": N_("Sides by vote"),
}
VARIANT_FLAGS: Final = {
    "might_is_right": N_("Might Is Right"), "river": N_("The River"), "new_beginning": N_("A New Beginning"),
}
OPTION_BADGES: Final = {"horses": N_("Horses"), "kit_carson": "Kit Carson"}  # Big Box's options (RULINGS X4, X6)


def variant_badges(variants: dict[str, Any]) -> list[str]:
    """The variants, expansions and options of a game as the badges the lobby and the table show, in English: the
    templates translate them (`_(v)`)."""
    badges = [SIDES_BADGES.get(variants.get("sides", "yellow"), SIDES_BADGES["yellow"])]
    badges += [name for flag, name in VARIANT_FLAGS.items() if variants.get(flag)]
    badges += [EXPANSION_NAMES.get(e, str(e)) for e in variants.get("expansions") or []]
    badges += [name for option, name in OPTION_BADGES.items() if variants.get(option)]
    return badges


# The final score's parts in words (API.md `score`); a part not named here is shown by its key.
SCORE_PARTS: Final = {
    "during_game": N_("During the game"), "buildings": N_("Buildings"), "houses": N_("Houses"),
    "mountains": N_("Mountains"), "money": N_("Money (1 VP per ${money})"), "station": N_("Stations"),
    "outlaws": N_("Outlaws"), "horses": N_("Horses ({vp} VP each)"), "kit_carson": N_("Kit Carson (players behind)"),
}


def score_part(key: str) -> str:
    """A score part's row heading: the players read "Kit Carson (players behind)", not the API's `kit_carson`."""
    if key not in SCORE_PARTS:
        return key.replace("_", " ").capitalize()
    return gettext(SCORE_PARTS[key]).format(money=FINAL_MONEY_PER_VP, vp=HORSE_VP)


# The phases the state document names (`phase`), in words for the table's heading.
PHASE_NAMES: Final = {
    "setup": N_("setup"), "vote": N_("vote"), "start_parcels": N_("start parcels"), "shopping": N_("shopping"),
    "parcel_picks": N_("parcel picks"), "personalities": N_("personalities"), "placement": N_("placement"),
    "resolution": N_("resolution"), "end_of_round": N_("end of round"), "final_roads": N_("final roads"),
    "finished": N_("finished"),
}


def phase_name(phase: str | None) -> str:
    """The phase in words ("end of round"); one the table does not know is shown by its key."""
    return said(PHASE_NAMES.get(phase or "", "")) or (phase or "").replace("_", " ")


def side_name(side: str | None) -> str:
    """A card's side in words ("yellow"); empty while it is not decided."""
    return said(SIDE_NAMES.get(side or "", ""))


def card_side_name(card: str | None, side: str | None) -> str:
    """The side of a held card in words, for the player panels: empty while it is not decided, and for the Big Box
    cards played on the one side their rules print (decision D91), where a colour would tell nothing."""
    return "" if one_sided(card) else side_name(side)


def shop_name(item: str) -> str:
    """An item of A New Beginning's shop by its name ("Cowboy")."""
    return gettext(SHOP[item].name) if item in SHOP else item


def player_link(username: str) -> Markup:
    """A username as a link to the player's page (`/players/{name}`), escaped."""
    name = escape(username)
    return Markup(f'<a class="player-link" href="/players/{name}">{name}</a>')


def player_links(usernames: Iterable[str]) -> Markup:
    return Markup(", ").join(player_link(u) for u in usernames)
