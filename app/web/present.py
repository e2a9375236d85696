"""Presentation of a seat's state document for the game page: board geometry, the choices offered (their words
come from `labels`). Everything here reads `player_view` and `legal_moves` output (and the catalog's printed texts); it
decides nothing about the rules.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from markupsafe import Markup, escape

from app.i18n import N_, gettext, ngettext
from app.notify.gamelog import building_name, one_sided, road_name, square_name
from app.rules.catalog import (
    BUILDINGS,
    CONSTRUCTION_PRICE,
    FINAL_MONEY_PER_VP,
    HORSE_VP,
    PERSONALITIES,
    SHOP,
    SQUARES,
    TRACK_STEPS,
)
from app.rules.config import EXPANSION_NAMES
from app.rules.decisions import Decision
from app.rules.moves import MoveType
from app.rules.phrases import DECISION_PHRASES, third_person
from app.web.guide import (
    HORSES_NOT_PLAYED,
    OPTION_SQUARE_TEXTS,
    STEP_NAMES,
    building_help,
    option_square_help,
    square_help,
)
from app.web.labels import SIDE_NAMES, Doc, Labeller, Move

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
# What a decision's buttons need said beside them (RULING X6: where horses are shown, the page says what is not played).
DECISION_NOTES: Mapping[str, str] = {Decision.HORSE: HORSES_NOT_PLAYED}
# From how many board spots with several choices each the spots' buttons are folded away until a spot is clicked
# (the Sheriff's placement offers two moves on every parcel: 128 buttons unfolded).
FOLDED_FROM = 3
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


@dataclass
class Choice:
    label: str
    value: str
    tone: str = ""  # "yes", "no" or "" — only for the button's look
    confirm: str = ""  # the question asked before the move is sent (moves that end something for the round)
    detail: str = ""  # what the choice means, under its words (a personality card's text and cash limit)


@dataclass
class Group:
    title: str
    choices: list[Choice]
    anchor: str | None = None
    as_select: bool = False
    note: str = ""
    folded: bool = False  # a board spot's choices, shown once the spot is clicked (many spots would be a wall)

    @property
    def inline(self) -> bool:
        """Whether the title and the buttons share a row: a group of one or two buttons (a parcel's Allow and
        Refuse) takes one line of the decision box, not two, so that more answers fit the first screen."""
        return not self.as_select and not self.note and not self.folded and len(self.choices) <= 2

    @property
    def named_by_choices(self) -> bool:
        """Whether every button already names the group's spot ("Allow a house on parcel (5, 8)" under "Parcel
        (5, 8)"): the title then names the group for assistive technology only and takes no line of its own."""
        return bool(self.anchor) and all(self.title.lower() in c.label.lower() for c in self.choices)


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
        if move.get("buy"):  # a placement with its purchase answered ahead (D106): in the list, so that a click on
            on_board.append(move)  # the spot stays one plain placement and the spots are not folded for it
            continue
        keys = target_keys(move, askable)
        if not keys or move["type"] == ASKING:  # asking is the next step of a build: a button as well
            free.append(move)
        if not keys:
            continue
        if move["type"] != ASKING:  # listed once: among the buttons
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
    several = [(key, target) for key, target in sorted(targets.items()) if target.single is None]
    folded = len(several) > FOLDED_FROM
    for key, target in several:
        groups.append(Group(_spot_title(key), target.moves, anchor=f"choose-{key}", folded=folded))
    # A board choice whose button is already shown, under its spot's title, is not listed a second time: the list
    # is the way to the board's choices without the board, and a permission's answers (two a parcel, every parcel
    # shown) would otherwise take twice the height of the decision box.
    shown = set() if folded else {c.value for _, target in several for c in target.moves}
    on_board = [m for m in on_board if encode(m) not in shown]
    if free:
        many = len(free) > 10
        groups.insert(0, Group(
            gettext("Your choice"),
            [Choice(labeller.label(m), encode(m), _tone(m), labeller.confirmation(m), card_detail(doc, m))
             for m in free],
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


def card_detail(doc: Doc, move: Move) -> str:
    """A personality card's choice in full: the text of the side it is played on, and its cash limit; both sides'
    while the side is still to be decided."""
    if move["type"] not in ("choose_personality", "copy_card") or move.get("card") not in PERSONALITIES:
        return ""
    row = PERSONALITIES[move["card"]]
    side = move.get("side") or next((c.get("side") for c in doc["personalities"] if c["card"] == move["card"]), None)
    sides = [side] if side else ["yellow", "red"]
    return " / ".join(
        gettext("{text} (cash limit ${limit})").format(text=said(row.side(s).text), limit=row.side(s).cash_limit)
        for s in sides)


def stake(doc: Doc, moves: Sequence[Move]) -> list[str]:
    """What the viewer's decision puts at stake, in sentences read from the view and the legal moves: a duel's
    place, duellists and prize; a build's building, sites and what it still lacks; a permission's asker, parcels
    and what the house does for each side; an auction's lots, high bid and bidders still in."""
    viewer = doc.get("viewer")
    kind = doc.get("awaiting")
    if viewer is None or viewer not in doc["to_act"] or kind is None:
        return []
    explain = STAKES.get(Decision(kind))
    return explain(doc, moves, Labeller(doc)) if explain else []


def _parcel(doc: Doc, x: int, y: int) -> dict[str, Any]:
    return next(p for p in doc["board"]["parcels"] if p["x"] == x and p["y"] == y)


def _duel_stake(doc: Doc, moves: Sequence[Move], lab: Labeller) -> list[str]:
    duel = doc.get("duel")
    if not duel:
        return []
    firepower = {p["seat"]: p["firepower"] for p in doc["players"]}
    sides = [gettext("{player}: firepower {firepower}").format(player=lab.who(seat), firepower=firepower[seat])
             for seat in duel["seats"]]
    if "square" in duel:
        where = gettext("Duel on {square}.").format(square=square_name(duel["square"]))
    else:
        place = gettext("Duel over parcel ({x}, {y})").format(x=duel["x"], y=duel["y"])
        name = content_name(_parcel(doc, duel["x"], duel["y"]))
        where = f"{place}: {name}." if name else f"{place}."
    prize = duel.get("prize") or {}
    said_prize = DUEL_PRIZES.get(prize.get("kind", ""))
    lines = [where, gettext("Each side: {sides}.").format(sides="; ".join(sides))]
    if said_prize:
        lines.append(said_prize(prize, doc, lab))
    if duel.get("tie_to") is not None:
        lines.append(gettext("A tie goes to {player}, who passed first this round.").format(
            player=lab.who(duel["tie_to"])))
    return lines


def _attack_prize(prize: Mapping[str, Any], doc: Doc, lab: Labeller) -> str:
    x_y = (doc["duel"]["x"], doc["duel"]["y"])
    content = _parcel(doc, *x_y)["content"]
    return gettext("If {owner} wins, the {building} pays them its ${income} as usual; an attacker who wins takes "
                   "${share} of it.").format(owner=lab.who(prize["owner"]), building=building_name(content),
                                            income=prize["income"], share=prize["attacker_gets"])


# What a duel's winner gets, in words, by the kind of prize the view names (`duel.prize.kind`); the numbers are
# the view's.
DUEL_PRIZES: Final[Mapping[str, Callable[[Mapping[str, Any], Doc, Labeller], str]]] = {
    "square": lambda prize, doc, lab: gettext("The winner takes the square's action."),
    "outlaw": lambda prize, doc, lab: (
        gettext("Whoever beats the outlaw takes {vp} VP, or, if the building is not theirs, ${share} of its ${income}"
                " income.").format(vp=prize["vp"], share=prize["attacker_gets"], income=prize["income"])
        if "attacker_gets" in prize else gettext("Whoever beats the outlaw takes {vp} VP.").format(vp=prize["vp"])),
    "city_hall": lambda prize, doc, lab: gettext("The winner occupies the City Hall."),
    "attack": _attack_prize,
    "parcel": lambda prize, doc, lab: gettext("The winner may buy the parcel for ${price}.").format(
        price=prize["price"]),
}


def _build_stake(doc: Doc, moves: Sequence[Move], lab: Labeller) -> list[str]:
    work = doc.get("construction_work") or {}
    if work.get("seat") != doc.get("viewer"):
        return []
    lines = []
    if work.get("building"):
        lines.append(gettext("Your {building}: {help}").format(
            building=building_name(work["building"]), help=building_help(work["building"])))
    if work.get("stage") == "house":
        lines.append(gettext("Next: its house, on one of the highlighted parcels."))
        return lines
    sites = work.get("site_incomes") or []
    if sites:
        lines.append(gettext("It may go now on {sites}.").format(sites=", ".join(
            gettext("({x}, {y}) for ${income} a round").format(x=p["x"], y=p["y"], income=p["income"])
            for p in sites)))
        return lines
    kinds = {m["type"] for m in moves}
    missing = [text for kind, text in MISSING_FOR_BUILDING.items() if kind in kinds]
    if work.get("building"):
        lines.append(gettext("It cannot go anywhere yet. Still missing: {missing}.").format(
            missing=gettext(" or ").join(said(text) for text in missing) if missing else gettext("a free parcel")))
    return lines


# What a building without a site may still get, by the move that gets it.
MISSING_FOR_BUILDING: Final[Mapping[MoveType, str]] = {
    "place_road": N_("a road reaching one of your free parcels"),
    "ask_permission": N_("another player's permission to use their parcel"),
}


def _permission_stake(doc: Doc, moves: Sequence[Move], lab: Labeller) -> list[str]:
    work = doc.get("construction_work") or {}
    request = work.get("request") or {}
    if request.get("asked") != doc.get("viewer") or work.get("seat") is None:
        return []
    builder = lab.who(work["seat"])
    building = building_name(work["building"]) if work.get("building") else gettext("building")
    parcels = ", ".join(_xy(row) for row in request.get("stake", []))
    lines = [gettext("{builder} asks to build the house of their {building} on your parcels {parcels}.").format(
        builder=builder, building=building, parcels=parcels)]
    groups: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    for row in request.get("stake", []):
        groups.setdefault((row["piece"], row["vp"]), []).append(row)
    for (piece, _), rows in groups.items():
        said = PERMISSION_STAKES[piece](rows[0])
        lines.append(said if len(groups) == 1 else f"{', '.join(_xy(row) for row in rows)}: {said}")
    for row in request.get("stake", []):
        income = row["income_beside"]
        if income["now"] != income["then"]:
            lines.append(gettext("Your buildings beside ({x}, {y}) earn ${now} now, ${then} with it.").format(
                x=row["x"], y=row["y"], now=income["now"], then=income["then"]))
    lines.append(gettext("For {builder}: the {building} can be built with its house there; refused, they must find "
                         "another parcel.").format(builder=builder, building=building))
    return lines


def work_in_stake(doc: Doc, stake_lines: Sequence[str]) -> bool:
    """Whether the decision's stake already says what the construction work is, so that the table need not say it
    a second time above it: the asked player's stake names the builder, the building and the parcels asked (and
    nothing has been granted yet, which only the work's line would say). The line it spares is the height the
    decision box needs to show every parcel's answers in the first screen."""
    work = doc.get("construction_work") or {}
    request = work.get("request") or {}
    return bool(stake_lines) and doc.get("awaiting") == Decision.PERMISSION \
        and request.get("asked") == doc.get("viewer") and not work.get("granted")


def _xy(row: Mapping[str, Any]) -> str:
    return gettext("({x}, {y})").format(x=row["x"], y=row["y"])


# What a granted permission does for the asked player, by the piece the view names (`request.stake[].piece`); the
# figures are the view's.
PERMISSION_STAKES: Final[Mapping[str, Callable[[Mapping[str, Any]], str]]] = {
    "house": lambda row: gettext(
        "For you: the house stands on your parcel and stays yours ({vp} VP at the game's end), but that parcel can no "
        "longer take a building of yours.").format(vp=row["vp"]),
    "townhouse": lambda row: gettext(
        "For you: your house there becomes a townhouse and stays yours ({vp} VP at the game's end), worth "
        "{values} houses to your buildings beside it.").format(vp=row["vp"], values=row["house_values"]),
}


def _auction_stake(doc: Doc, moves: Sequence[Move], lab: Labeller) -> list[str]:
    auction = doc.get("auction")
    if not auction:
        return []
    still = [lab.who(p["seat"]) for p in doc["players"] if p["seat"] not in auction["passed"]]
    lines = [gettext("Still in: {players}.").format(players=", ".join(still))]
    bids = [m["amount"] for m in moves if m["type"] == "bid"]
    if bids:
        lines.append(gettext("You may bid from ${low} to ${high}.").format(low=min(bids), high=max(bids)))
    return lines


STAKES: Final[Mapping[Decision, Callable[[Doc, Sequence[Move], Labeller], list[str]]]] = {
    Decision.DUEL_TILE: _duel_stake,
    Decision.REROLL: _duel_stake,
    Decision.CONSTRUCT: _build_stake,
    Decision.PERMISSION: _permission_stake,
    Decision.AUCTION_BID: _auction_stake,
}


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
        if step in CONSTRUCTION_PRICE:  # "Build $3" beside its building: the track stays in the first screen
            name = gettext("Build ${price}").format(price=CONSTRUCTION_PRICE[step])
        built = construction.get(step, {})
        # What a square would give now; once the game is over there is no "now" (the score says the rest).
        hints = [(p["username"], p["hints"][step]) for p in doc["players"]] \
            if step in HINT_SQUARES and doc["status"] != "finished" else []
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
    "mountains": N_("Mountains"), "money": N_("Money (${money} per VP)"), "station": N_("Stations"),
    "outlaws": N_("Outlaws"), "horses": N_("Horses ({vp} VP each)"), "kit_carson": N_("Kit Carson (players behind)"),
}


def score_part(key: str) -> str:
    """A score part's row heading: the players read "Kit Carson (players behind)", not the API's `kit_carson`."""
    if key not in SCORE_PARTS:
        return key.replace("_", " ").capitalize()
    return gettext(SCORE_PARTS[key]).format(money=FINAL_MONEY_PER_VP, vp=HORSE_VP)


def standings(doc: Doc) -> list[dict[str, Any]]:
    """The players of a finished game, the winner first, then by final total (the score table's columns); empty
    while the game is on."""
    if doc["status"] != "finished" or not all(p.get("score") for p in doc["players"]):
        return []
    return sorted(doc["players"], key=lambda p: (p["seat"] != doc.get("winner"), -p["score"]["total"], p["seat"]))


def vp_shown(doc: Doc) -> dict[int, int]:
    """Each player's VP as the table shows it: the VP track while the game is on, the final total once it is over
    (a panel showing the track beside "bob wins." would seem to crown the wrong player)."""
    final = doc["status"] == "finished"
    return {p["seat"]: p["score"]["total"] if final and p.get("score") else p["vp"] for p in doc["players"]}


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
