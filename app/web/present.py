"""Presentation of a seat's state document for the game page: board geometry, words for moves, the choices
offered. Everything here reads `player_view` and `legal_moves` output (and the catalog's printed texts); it
decides nothing about the rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from markupsafe import Markup, escape

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
from app.rules.phrases import DECISION_PHRASES
from app.web.gamelog import building_name, card_name, count, road_name, square_name
from app.web.guide import HORSES_NOT_PLAYED, OPTION_SQUARE_HELP, SQUARE_HELP, STEP_NAMES, building_help

Move = dict[str, Any]
Doc = dict[str, Any]

# The seats' colours. The sixth (Big Box, RULING X1) is near-black rather than slate: under a simulated protanopia
# slate and the red come out alike, and slate sits close to the purple in lightness; black stands apart from every
# other colour in lightness, and its white letter has a contrast of 16:1. The letters carry who is who anyway.
COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#ef9a00", "#7b1fa2", "#212121")
CELL = 64
MARGIN = 28
BOARD_PX = 2 * MARGIN + 8 * CELL
# Moves that say no (their buttons look so), and the move that asks for permission (its parcels are marked "?").
REFUSING: tuple[MoveType, ...] = ("decline", "decline_parcel", "deny_remaining", "pass", "bid_pass")
ASKING: MoveType = "ask_permission"
# How a parcel is claimed, by the decision that claims it (a parcel pick needs no words).
CLAIMED_AS: Mapping[str, str] = {Decision.START_PARCEL: " as a starting parcel", Decision.SETTLER: " with the Settler"}
# What a decision's buttons need said beside them (RULING X6: where horses are shown, the page says what is not played).
DECISION_NOTES: Mapping[str, str] = {Decision.HORSE: HORSES_NOT_PLAYED}
HINT_SQUARES = ("parcel_income", "cowboy_income", "parcels_vp", "cowboy_vp", "estate_vp")


def _s(n: int) -> str:
    return "s" if n > 1 else ""


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
    """What the awaited decision asks, in the words the mails and the rules' refusals use too."""
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
        phrase = f"answer {names[work['seat']]}'s request to build a house on their parcels"
    else:
        phrase = THIRD_PERSON.sub(lambda m: {"your": "their", "you": "they"}[m.group(0)], decision_text(kind))
    return f"Waiting for {', '.join(waiting)} to {phrase}."


THIRD_PERSON = re.compile(r"\byour\b|\byou\b")


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
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else "nobody"

    def parcel(self, move: Move) -> str:
        return f"parcel ({move['x']}, {move['y']})"

    def spot(self, move: Move) -> str:
        """A placement target in words, with what standing there means: the price or the gain, and the duel
        with whoever already stands there (a preview, issue "The table players would switch for", item 3)."""
        viewer = self.doc.get("viewer")
        if "square" in move:
            square = str(move["square"])
            building = self.construction.get(square, {}).get("building")
            where = square_name(square) + (f" ({building_name(building)})" if building else "")
            row = self.squares.get(square, {})
            gain = self.gain_now(square)
            return where + (f", {gain} now" if gain else "") + self.duel_with(row.get("cowboys", []), square)
        p = self.parcels.get((move["x"], move["y"]), {})
        where = self.parcel(move)
        duel = self.duel_with(p.get("cowboys", []))
        if p.get("owner") is None:
            return f"{where} (price ${p.get('price')}){duel}"
        building = building_name(p.get("content"))
        if p.get("owner") == viewer:
            return f"{where}: defend your {building}{duel}"
        return f"{where}: attack {self.who(p.get('owner'))}'s {building}{duel}"

    def gain_now(self, square: str) -> str:
        """What an income or VP square would give the viewer if they won it now ("$6", "2 VP")."""
        me = next((p for p in self.doc["players"] if p["seat"] == self.doc.get("viewer")), None)
        if me is None or square not in me.get("hints", {}):
            return ""
        n = me["hints"][square]
        return f"${n}" if square.endswith("income") else f"{n} VP"

    def duel_with(self, seats: list[int], square: str | None = None) -> str:
        """", a duel with bert": who the viewer would duel by standing here (nobody duels on Wages and Road)."""
        if square is not None and SQUARES[square].many:
            return ""
        others = sorted({s for s in seats if s != self.doc.get("viewer")})
        return f", a duel with {' and '.join(self.who(s) for s in others)}" if others else ""

    def label(self, move: Move) -> str:
        kind: MoveType = move["type"]  # typed: mypy refuses a comparison with a name not in the vocabulary
        awaiting = self.doc.get("awaiting")
        if kind == "claim_parcel":
            how = CLAIMED_AS.get(awaiting or "", "")
            return f"Take {self.parcel(move)}{how}"
        if kind == "choose_personality":
            card: dict[str, Any] = next((c for c in self.doc["personalities"] if c["card"] == move["card"]), {})
            if "side" in move:  # the Doctor / Undertaker: the side comes with the choice
                role = "Doctor" if move["side"] == "yellow" else "Undertaker"
                return f"Choose the {card_name(move['card'])} as the {role}"
            side = card.get("side") or "side by vote"
            return f"Choose the {card_name(move['card'])} ({side})"
        if kind == "copy_card":  # Big Box's Newspaper Boy (RULING X2)
            if "side" in move:
                role = "Doctor" if move["side"] == "yellow" else "Undertaker"
                return f"Copy the {card_name(move['card'])} as the {role}"
            return f"Copy the {card_name(move['card'])}"
        if kind == "grocer_choice":
            option = move["option"]
            if option == "double":
                return f"Double the income of your {building_name(move['building'])}s"
            return "Receive $8 now" if option == "money_now" else "Receive $8 at the estate income"
        if kind == "card_option":
            if move["option"] == "money":
                return "Receive $8 now"
            per = "house" if awaiting == Decision.GROCER_RED else "mountain"
            return f"1 VP per {per} you own at the end of the round"
        if kind == "hire_cowboys":
            n = move["count"]
            return "Hire no cowboy" if n == 0 else f"Hire {n} cowboy{_s(n)} for ${CAPTAIN_COWBOY_PRICES[n]}"
        if kind == "buy_revolvers":
            n = move["count"]
            return "Buy no revolver" if n == 0 else f"Buy {n} revolver{_s(n)} for ${CAPTAIN_REVOLVER_PRICES[n]}"
        if kind == "take_building":
            building = self.construction.get(move["square"], {}).get("building")
            price = CHINESE_WORKER_RED_PRICE
            return f"Take the {building_name(building)} of {square_name(move['square'])} for ${price}"
        if kind == "buy_horse":
            return self.horse(buy=True)
        if kind == "decline":
            return self.horse(buy=False) if awaiting == Decision.HORSE else "Decline"
        if kind == "place_cowboy":
            if move.get("dynamite"):
                return f"Place a cowboy with a dynamite chip (two dice in its duel) on {self.spot(move)}"
            if move.get("no_duel"):
                return f"Place a cowboy with a \"no duel\" chip on {square_name(move.get('square'))}"
            return f"Place a cowboy on {self.spot(move)}"
        if kind == "heal_cowboy":
            return f"Have the Doctor move your defeated cowboy to {self.spot(move)}"
        if kind == "pay_undertaker":
            return "Pay the Undertaker $2" if move["pay"] == "money" else "Lose 1 VP to the Undertaker"
        if kind == "place_white_cowboy":
            return f"Place the white cowboy on {self.spot(move)}"
        if kind == "pass":
            return "Pass (no more cowboys this round)"
        if kind == "resolve_duel":
            return f"Fight the duel on {self.parcel(move)} next"
        if kind == "buy_parcel":
            price = self.parcels.get((move["x"], move["y"]), {}).get("price")
            return f"Buy {self.parcel(move)} for ${price}"
        if kind == "decline_parcel":
            return f"Leave {self.parcel(move)}"
        if kind == "buy_building":
            square = self.doc.get("step", "")
            row = self.construction.get(square, {})
            return f"Buy the {building_name(row.get('building'))} for ${row.get('your_price')}"
        if kind == "place_road":
            edge = [move["x1"], move["y1"], move["x2"], move["y2"]]
            where = road_name(move["x1"], move["y1"], move["x2"], move["y2"])
            if edge in self.doc["board"].get("water_edges", []):
                return f"Bridge {where} (takes 2 roads)"
            return f"Road {where}"
        if kind == "ask_permission":
            return f"Ask {self.who(move['seat'])} for permission to build a house on their parcels"
        if kind == "place_house":
            return f"Put the house on {self.parcel(move)}"
        if kind == "place_townhouse":
            return f"Turn the house on {self.parcel(move)} into a townhouse"
        if kind == "place_city_hall":
            return f"Place the City Hall on {self.parcel(move)}"
        if kind == "prospect_mine":
            source = f"the mine of {square_name(move['square'])}" if "square" in move else "a mine from the bag"
            return f"Pay $10 for {source} and build it on {self.parcel(move)}"
        if kind == "collect_tax":
            return "Tax revolver chips ($1 each)" if move["tax"] == "revolvers" else "Tax money ($1 per started $10)"
        if kind == "place_singer_cowboy":
            return "Place the Singer's cowboy (from the general reserve) on Gambling income"
        if kind == "move_outlaw":
            return f"Move the outlaw on {self.parcel(move)} next"
        if kind == "outlaw_reward":
            if move["reward"] == "income":
                return "Leave your cowboy there to take half of the building's income this round"
            strength = (self.doc.get("outlaws") or {}).get("strength")
            return f"Take the outlaw tile's {OUTLAW_VP[strength]} VP" if strength in OUTLAW_VP else "Take the VP"
        if kind == "auction_parcel":
            return f"Put an auction chip on {self.parcel(move)}"
        if kind == "bid":
            return f"Bid ${move['amount']}"
        if kind == "bid_pass":
            return "Pass (no more bids in this auction)"
        if kind == "place_building":
            earns = self.site_incomes.get((move["x"], move["y"]))
            house = " before its house" if BUILDINGS[move["building"]].needs_house else ""
            preview = f": earns ${earns}{house}" if earns is not None else ""
            return f"Build the {building_name(move['building'])} on {self.parcel(move)}{preview}"
        if kind == "keep_building":
            return "Keep the building in reserve"
        if kind == "answer_permission":
            verb = "Allow" if move["grant"] else "Refuse"
            return f"{verb} a house on {self.parcel(move)}"
        if kind == "deny_remaining":
            return "Refuse all remaining parcels"
        if kind == "buy_vp":
            n = move["count"]
            price = BUY_VP_PRICE.get(self.doc.get("step", ""), 0)
            return "Buy no VP" if n == 0 else f"Buy {n} VP for ${n * price}"
        if kind == "banker_vp":
            vp = move["vp"]
            return "Buy no VP" if vp == 0 else f"Buy {vp} VP for ${BANKER_VP_PRICES[vp]}"
        if kind == "give_up_money":
            vp = move["amount"] // CASH_LIMIT_MONEY_PER_VP
            return f"Give up ${move['amount']}" + (f" for {vp} VP" if vp else "")
        if kind == "vote_side":
            return f"{card_name(move['card'])}: {move['side']}"
        if kind == "play_tile":
            if "second" in move:
                return f"Play tiles {move['tile']} and {move['second']} (dynamite)"
            return f"Play tile {move['tile']}"
        if kind == "use_dynamite":
            return f"Triple the income of your mine on {self.parcel(move)} with a dynamite chip"
        if kind == "keep_dynamite":
            return "Keep your dynamite chips"
        if kind == "reroll":
            return "Roll again (the new roll counts)"
        if kind == "keep_roll":
            return "Keep your roll"
        if kind == "shop_add":
            item = SHOP[move["item"]]
            cost = f"${item.price}" if item.price >= 0 else f"+${-item.price}"
            return f"Add {item.name} ({cost})"
        if kind == "shop_remove":
            return f"Take back {SHOP[move['item']].name}"
        if kind == "shop_done":
            return "Done shopping"
        if kind == "finish_roads":
            return "Place no more roads"
        return str(kind).replace("_", " ").capitalize()

    def horse(self, buy: bool) -> str:
        """Big Box's choice at Wages (RULING X6) in money: what the viewer's cowboys there bring either way."""
        wages = self.squares.get("wages", {})
        viewer = self.doc.get("viewer")
        n = wages.get("cowboys", []).count(viewer) + int(wages.get("white_cowboy") == viewer)
        total = WAGE_PER_COWBOY * n
        if not buy:
            return f"Take ${total} of wages, no horse"
        horse = f"Buy a horse for ${HORSE_PRICE} ({HORSE_VP} VP at the end)"
        if n == 1:
            return f"{horse} instead of taking ${WAGE_PER_COWBOY}"
        return f"{horse}: ${total - WAGE_PER_COWBOY - HORSE_PRICE} of wages instead of ${total}"

    def confirmation(self, move: Move) -> str:
        """The question to ask before a move that ends something for the round and cannot be taken back by
        playing on: passing with cowboys still in reserve, refusing every parcel a request has left (issue "The
        table players would switch for", item 4). Empty for every other move."""
        if move["type"] == "pass":
            viewer = self.doc.get("viewer")
            left = self.doc["players"][viewer]["cowboys"] if viewer is not None else 0
            if left:
                return (f"You still have {count(left, 'cowboy')} in reserve. Pass and place no more cowboys "
                        "this round?")
        if move["type"] == "deny_remaining":
            return "Refuse every parcel of this request not answered yet?"
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
            note = f"Yellow: {row.yellow.text} Red: {row.red.text}"
            groups.append(Group(
                row.name, [Choice(m["side"].capitalize(), encode(m), m["side"]) for m in card_moves], note=note
            ))
        free = []
    for key, target in sorted(targets.items()):
        if target.single is None:
            groups.append(Group(_spot_title(key), target.moves, anchor=f"choose-{key}"))
    if free:
        many = len(free) > 10
        groups.insert(0, Group(
            "Your choice",
            [Choice(labeller.label(m), encode(m), _tone(m), labeller.confirmation(m)) for m in free],
            as_select=many,
            note=DECISION_NOTES.get(doc.get("awaiting") or "", ""),
        ))
    if on_board:
        groups.append(Group(
            "Every board choice as a list",
            [Choice(labeller.label(m), encode(m)) for m in on_board],
            as_select=True,
            note="Or click the highlighted spots on the board.",
        ))
    return groups, targets


def _spot_title(key: str) -> str:
    if key.startswith("p"):
        x, y = key[1:].split("-")
        return f"Parcel ({x}, {y})"
    if key.startswith("s-"):
        return square_name(key[2:])
    x1, y1, x2, y2 = (int(v) for v in key[1:].split("-"))
    return "Road " + road_name(x1, y1, x2, y2)


PIECE_NAMES: Final = {"house": "House", "townhouse": "Townhouse", "mountain": "Mountain"}


def content_name(p: Mapping[str, Any]) -> str:
    """What stands on a parcel, in words: "Bank, income $12", "House, centre of Carson City"."""
    content = p["content"]
    if not content:
        return ""
    if content in BUILDINGS:
        name = BUILDINGS[content].name
        return name if p["income"] is None else f"{name}, income ${p['income']}"  # the City Hall earns nothing
    name = PIECE_NAMES.get(content, str(content))
    return f"{name}, centre of Carson City" if p.get("centre") else name


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
        bits = [f"Parcel ({x}, {y})"]
        if p["river"]:
            bits.append("river")
        if p["owner"] is not None:
            bits.append(f"owned by {labeller.who(p['owner'])}")
        content = p["content"]
        name = content_name(p)
        if name:
            bits.append(name)
        if content in BUILDINGS:
            bits.append(building_help(content))
        if p["price"] is not None:
            bits.append(f"price ${p['price']}")
        cowboys = [labeller.who(s) for s in p["cowboys"]]
        if p.get("white_cowboy") is not None:
            cowboys.append(f"{labeller.who(p['white_cowboy'])} (white cowboy)")
        if cowboys:
            bits.append("cowboys: " + ", ".join(cowboys))
        piece, comma, rest = name.partition(",")  # "Bank, income $12" -> "Bank of ann, income $12"
        if p["owner"] is not None and content:
            piece += f" of {labeller.who(p['owner'])}"
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
        return ("Bridge " if self.bridge else "Road ") + road_name(self.x1, self.y1, self.x2, self.y2)


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
        name = SQUARES[step].name if step in SQUARES else STEP_NAMES.get(step, step)
        built = construction.get(step, {})
        hints = [(p["username"], p["hints"][step]) for p in doc["players"]] if step in HINT_SQUARES else []
        explained = " ".join([SQUARE_HELP.get(step, ""), *(
            extra[step] for option, extra in OPTION_SQUARE_HELP.items() if doc["variants"].get(option) and step in extra
        )])
        if built.get("building"):
            explained += f" The {building_name(built['building'])}: {building_help(built['building'])}"
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
            "yellow_text": row.yellow.text,
            "yellow_limit": row.yellow.cash_limit,
            "red_text": row.red.text,
            "red_limit": row.red.cash_limit,
        })
    return cards


def variant_badges(variants: dict[str, Any]) -> list[str]:
    sides = {
        "yellow": "Yellow sides", "red": "Red sides", "random": "Random sides", "vote": "Sides by vote",
    }.get(variants.get("sides", "yellow"), "Yellow sides")
    badges = [sides]
    for flag, name in (("might_is_right", "Might Is Right"), ("river", "The River"),
                       ("new_beginning", "A New Beginning")):
        if variants.get(flag):
            badges.append(name)
    badges += [EXPANSION_NAMES.get(e, str(e)) for e in variants.get("expansions") or []]
    badges += [name for option, name in OPTION_BADGES.items() if variants.get(option)]
    return badges


OPTION_BADGES: Final = {"horses": "Horses", "kit_carson": "Kit Carson"}  # Big Box's options (RULINGS X4, X6)
# The final score's parts in words (API.md `score`); a part not named here is shown by its key.
SCORE_PARTS: Final = {
    "during_game": "During the game", "buildings": "Buildings", "houses": "Houses", "mountains": "Mountains",
    "money": f"Money (1 VP per ${FINAL_MONEY_PER_VP})", "station": "Stations", "outlaws": "Outlaws",
    "horses": f"Horses ({HORSE_VP} VP each)",
    "kit_carson": "Kit Carson (players behind)",
}


def score_part(key: str) -> str:
    """A score part's row heading: the players read "Kit Carson (players behind)", not the API's `kit_carson`."""
    return SCORE_PARTS.get(key, key.replace("_", " ").capitalize())


def player_link(username: str) -> Markup:
    """A username as a link to the player's page (`/players/{name}`), escaped."""
    name = escape(username)
    return Markup(f'<a class="player-link" href="/players/{name}">{name}</a>')


def player_links(usernames: Iterable[str]) -> Markup:
    return Markup(", ").join(player_link(u) for u in usernames)
