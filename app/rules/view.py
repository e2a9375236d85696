"""What a viewer may see: `player_view` builds the API's state document for one seat (or a spectator),
`redact_event` the part of an event that viewer may read, and `visible_seq` how far the log reaches for them.

Hidden information never leaves through here: the seed is not in the state at all, and the bag's contents,
the draw order, the used duel tiles' contents and other players' secret choices are left out. Events private to
one seat (`private_to`) are left out whole, and every viewer numbers the log without the ones it may not know of,
so that no sequence number tells how many there were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from app.rules.auction import high_bid
from app.rules.board import is_reached, parcel_index, parcel_xy, road_points
from app.rules.cash_limit import cash_limit
from app.rules.catalog import (
    BUILDINGS,
    BUY_VP_SQUARES,
    CONSTRUCTION_SQUARES,
    END_OF_ROUND_STEPS,
    PERSONALITIES,
    SETUP_STEPS,
    SQUARES,
    TRACK_STEPS,
)
from app.rules.city_hall import occupant
from app.rules.construction import (
    WATER_EDGES,
    askable_players,
    build_sites,
    is_bridge,
    parcels_owned,
    permission_parcels,
)
from app.rules.duels import duelling_seats, earliest_passer, spot_cowboys
from app.rules.dynamite import dynamite_in_supply
from app.rules.events import EventType, private_to
from app.rules.flow import Awaiting, awaiting
from app.rules.income import (
    SQUARE_GAINS,
    attack_split,
    building_income,
    earned,
    firepower,
    house_values,
    income_if_built,
    incomes_beside_if_placed,
)
from app.rules.model import Cowboy, GameState
from app.rules.outlaws import current_income, outlaw_vp, outlaws_in_supply
from app.rules.prices import building_price, parcel_price, placement_cost
from app.rules.scoring import piece_vp
from app.rules.spots import open_squares
from app.rules.supply import roads_in_supply


def visible_seq(s: GameState, seat: int | None) -> int:
    """The head of the log as `seat` (None: a spectator) counts it: how many of its events that viewer may know
    of. A viewer's own numbers never move for another seat's private events, before or after them."""
    return s.seq - sum(n for owner, n in s.private_events.items() if owner != seat)


def phase(s: GameState) -> str:
    if s.step in ("setup", *SETUP_STEPS, "personalities", "placement", "final_roads", "finished"):
        return s.step
    if s.step in TRACK_STEPS:
        return "resolution"
    if s.step in END_OF_ROUND_STEPS:
        return "end_of_round"
    return "finished"


def _no_duel_seats(cowboys: Sequence[Cowboy]) -> list[int]:
    """The players whose cowboy on a square carries the yellow Singer's "no duel" chip (RULING G9)."""
    return [c.seat for c in cowboys if c.no_duel]


def _cowboy_seats(cowboys: Sequence[Cowboy]) -> list[int]:
    """The players' own cowboys on a spot (the white cowboy and the red Singer's are shown apart)."""
    return [c.seat for c in cowboys if not c.white and not c.singer]


def _white(cowboys: Sequence[Cowboy]) -> int | None:
    return next((c.seat for c in cowboys if c.white), None)


def _player(
    s: GameState, seat: int, viewer: int | None, usernames: Sequence[str] | None, reveal_all: bool = False
) -> dict[str, Any]:
    p = s.players[seat]
    card = p.personality
    own = seat == viewer or reveal_all
    row = {
        "seat": seat,
        "username": usernames[seat] if usernames else f"Player {seat + 1}",
        "money": p.money,
        "vp": p.vp,
        "cowboys": p.cowboys,
        "revolvers": p.revolvers,
        "roads": p.roads,
        "firepower": firepower(s, seat),
        "personality": card,
        "side": s.sides.get(card, "yellow") if card else None,  # Big Box's cards are yellow (decision D91)
        "card_option": p.card_option,
        "cash_limit": cash_limit(s, seat),
        "passed": p.passed,
        "parcels": parcels_owned(s, seat),
        "buildings_in_reserve": list(p.buildings),
        "has_3_guns": s.chip_holder == seat,
        "score": dict(s.scores[seat]) if s.scores else None,
        # Might Is Right: a player's tiles are theirs alone; the others see how many (RULING V2).
        "tiles": list(p.tiles) if own else None,
        "tile_count": len(p.tiles),
        "duel_tile_chosen": seat in s.duel_tiles,
        # The red Gunsmith plays last: the tiles chosen before his are shown to everyone (RULING G7).
        "duel_tile": s.duel_tiles.get(seat) if own or s.duel_tiles_revealed else None,
        # The vote and the shopping stay secret until everyone is done (RULINGS V1, V4).
        "votes": dict(s.votes.get(seat, {})) if own else None,
        "votes_cast": len(s.votes.get(seat, {})),
        "basket": dict(s.baskets.get(seat, {})) if own else None,
        "shopping_done": seat in s.shopping_done,
        "marksman": p.marksman,
        "parcel_picks": p.picks,
        # Hints (`000` "Hints for handling"): what each income/VP square would give now, and the cost of
        # the parcels and buildings under this player's cowboys.
        "hints": {
            **{square: gain(s, seat) for square, gain in SQUARE_GAINS.items()},
            "placement_cost": placement_cost(s, seat),
        },
    }
    if s.config.gold_and_guns:  # the yellow Singer's chips not placed yet this round (RULING G9)
        row["no_duel_chips"] = p.no_duel_chips
    if s.config.horses:  # Big Box: the horses bought at Wages (RULING X6; API.md "players[].horses")
        row["horses"] = p.horses
    if s.config.big_box:  # the card the Newspaper Boy copies this round, announced to everyone (RULING X2)
        row["copies"] = p.copied
    return row


def _parcels(s: GameState) -> list[dict[str, Any]]:
    points = road_points(s.roads)
    outlaws = s.config.outlaws
    rows: list[dict[str, Any]] = []
    for index, parcel in enumerate(s.parcels):
        x, y = parcel_xy(index)
        cowboys = s.parcel_cowboys.get(index, ())
        rows.append({
            "x": x,
            "y": y,
            "owner": parcel.owner,
            "content": parcel.content,
            "river": parcel.river,
            "centre": index == s.centre,
            "reached": is_reached(index, points),
            # The City Hall's parcel is never for sale, nor does it earn (RULING G2), nor one with an outlaw (G4).
            "price": parcel_price(s, index)
            if parcel.owner is None and not parcel.river and index != s.city_hall and not parcel.outlaw
            else None,
            "income": building_income(s, index) if parcel.content in BUILDINGS and parcel.owner is not None else None,
            "cowboys": _cowboy_seats(cowboys),
            "white_cowboy": _white(cowboys),
            "attacked_by": s.attacks.get(index),
        })
        if outlaws:
            rows[-1]["outlaw"] = {"strength": s.outlaw_strength, "vp": outlaw_vp(s)} if parcel.outlaw else None
    return rows


def _squares(s: GameState) -> list[dict[str, Any]]:
    available = set(open_squares(s)) if s.round else set()
    rows: list[dict[str, Any]] = [
        {
            "square": square.square,
            "name": square.name,
            "open": square.square in available,
            "cowboys": _cowboy_seats(s.squares.get(square.square, ())),
            "white_cowboy": _white(s.squares.get(square.square, ())),
        }
        for square in SQUARES.values()
    ]
    if s.config.gold_and_guns:  # which of those cowboys carry a "no duel" chip (RULING G9)
        for row in rows:
            row["no_duel"] = _no_duel_seats(s.squares.get(str(row["square"]), ()))
    return rows


def _work(s: GameState) -> dict[str, Any] | None:
    work = s.work
    if work is None:
        return None
    request = None
    if work.request is not None:
        request = {"asked": work.request.asked, "parcels": [list(parcel_xy(i)) for i in work.request.open],
                   "stake": [_permission_stake(s, i) for i in work.request.open]}
    return {
        "seat": work.seat,
        "building": work.building,
        "source": work.source,
        "stage": "house" if work.parcel is not None else "building",
        "parcel": list(parcel_xy(work.parcel)) if work.parcel is not None else None,
        "asked": sorted(work.asked),
        "granted": [list(parcel_xy(i)) for i in sorted(work.granted)],
        "request": request,
        # Whom the builder may still ask, and which of their parcels a request would cover (RULING B12).
        "askable": [
            {"seat": other, "parcels": [list(parcel_xy(i)) for i in permission_parcels(s, other)]}
            for other in askable_players(s, work)
        ],
        # What the building would earn on each site the builder may choose, before its house (a preview).
        "site_incomes": [
            {"x": x, "y": y, "income": income_if_built(s, work.seat, work.building, i)}
            for i in build_sites(s, work.seat, work.building, work.granted)
            for x, y in (parcel_xy(i),)
        ] if work.building is not None and work.parcel is None else [],
    }


# What a granted permission puts on the asked player's parcel (`request.stake[].piece`): the table words each one.
PERMISSION_PIECES: Final = ("house", "townhouse")


def _permission_stake(s: GameState, index: int) -> dict[str, Any]:
    """What granting parcel `index` does for its owner, so that the table can say it without rules of its own: the
    piece that would stand there, a house on free land or a townhouse over their house (RULINGS B12, G19), which
    stays the owner's and scores `vp` for them at the end (B17, V3; a townhouse scores as one house, G6) and is
    worth `house_values` to their buildings beside it (B13; never to the builder's); on free land the parcel can no
    longer take a building of theirs (B11); and what their buildings beside it earn now and would earn then."""
    parcel = s.parcels[index]
    piece = "townhouse" if parcel.content == "house" else "house"
    now, then = incomes_beside_if_placed(s, index, piece)
    x, y = parcel_xy(index)
    return {"x": x, "y": y, "piece": piece, "vp": piece_vp(s, index), "house_values": house_values(piece),
            "loses_building_site": parcel.content is None, "income_beside": {"now": now, "then": then}}


def player_view(
    s: GameState,
    seat: int | None,
    *,
    game_id: int | None = None,
    usernames: Sequence[str] | None = None,
    reveal_all: bool = False,
) -> dict[str, Any]:
    """The state document of the API for `seat` (None: a spectator). With `reveal_all` (a finished game's
    history and export, where nothing is secret any more) every seat's hand, vote and basket is shown and the log
    is counted whole."""
    # Between the game's first event and its turn order (a past position only) the schedule has not begun.
    waiting = awaiting(s) if s.step != "setup" else None
    taken = {p.personality: p.seat for p in s.players if p.personality}
    document: dict[str, Any] = {
        "game_id": game_id,
        "seq": s.seq if reveal_all else visible_seq(s, seat),
        "status": s.status,
        "round": s.round,
        "phase": phase(s),
        "step": s.step,
        "viewer": seat,
        "to_act": list(waiting.seats) if waiting else [],
        "awaiting": waiting.kind if waiting else None,
        "variants": s.config.to_json(),
        "players": [_player(s, p.seat, seat, usernames, reveal_all) for p in s.players],
        "board": {
            "parcels": _parcels(s),
            "roads": [list(road) for road in sorted(s.roads)],
            "bridges": [list(road) for road in sorted(s.roads) if is_bridge(s, road)],
            # Edges across the river: a road there is a bridge and takes two roads (RULING V3).
            "water_edges": [list(e) for e in sorted(WATER_EDGES)] if s.config.river else [],
            "centre": list(parcel_xy(s.centre)) if s.centre is not None else None,
        },
        "construction": [
            {
                "square": c.square,
                "price": c.price,
                # What the viewer would pay (the yellow Chinese Worker pays half, rounded up).
                "your_price": building_price(s, seat, c.square) if seat is not None and s.players else None,
                "building": building,
                "cowboys": _cowboy_seats(s.squares.get(c.square, ())),
            }
            for c, building in zip(CONSTRUCTION_SQUARES, s.construction, strict=True)
        ],
        "squares": _squares(s),
        "buy_vp_blocked": [b.square for b in BUY_VP_SQUARES if s.round >= b.first_round_blocked],
        "personalities": [
            {
                "card": card.card,
                "number": card.number,
                "name": card.name,
                # None: still to be voted, or chosen by its holder; Big Box's cards show theirs (decision D91)
                "side": s.sides.get(card.card, "yellow" if card.one_side or card.red_from_round else None),
                "text": card.side(s.sides.get(card.card, "yellow")).text,
                "cash_limit": card.side(s.sides.get(card.card, "yellow")).cash_limit,
                "taken_by": taken.get(card.card),
            }
            for card in map(PERSONALITIES.__getitem__, s.cards)
        ],
        "turn_order": {
            "initial": list(s.initial_order),
            "choosing": list(s.choosing_order),
            "placement": list(s.placement_order),
            "passing": list(s.passing_order),
        },
        "turn": s.turn,
        "chip_holder": s.chip_holder,
        "white_cowboy_available": s.white_cowboy,
        "houses_left": s.houses,
        "roads_left": roads_in_supply(s) if s.players else None,
        "construction_work": _work(s),
        # Might Is Right: the tiles played are public in each duel, but the used pile only as a count, so that
        # nobody can work out which tiles a redraw gave another player (RULING V2).
        "used_tile_count": len(s.used_tiles),
        "winner": s.winner,
    }
    if s.config.gold_and_guns:  # the dynamite chips each player keeps (API.md "With expansions")
        for row in document["players"]:
            row["dynamite"] = s.players[row["seat"]].dynamite
    return {**document, **_duel_field(s, waiting), **_expansion_fields(s)}


def _duel_field(s: GameState, waiting: Awaiting | None) -> dict[str, Any]:
    """While a duel waits for its duellists (a duel tile, the red Gunsmith's roll): what it is fought over and who
    fights there, so that the table can say what is at stake (absent otherwise, as the expansions' fields are)."""
    if waiting is None or waiting.target is None:
        return {}
    seats = duelling_seats(spot_cowboys(s, waiting.target))
    duel: dict[str, Any] = {**waiting.target, "seats": seats, "prize": _duel_prize(s, waiting.target)}
    if seats and all(seat in s.passing_order for seat in seats):
        duel["tie_to"] = earliest_passer(s, seats)
    return {"duel": duel}


# The kinds of prize a duel is fought for (`duel.prize.kind`): the table words each one.
DUEL_PRIZE_KINDS: Final = ("square", "outlaw", "city_hall", "attack", "parcel")


def _duel_prize(s: GameState, target: Mapping[str, Any]) -> dict[str, Any]:
    """What winning a duel gives, by what it is fought over: a square's action; an outlaw's reward (RULING G4); the
    City Hall (RULING G2); an attacked building's part of its income (`000` "Estate income / attacks on
    buildings": the owner who wins keeps it whole); a free parcel to buy at its price."""
    if "square" in target:
        return {"kind": "square"}
    index = parcel_index(target["x"], target["y"])
    parcel = s.parcels[index]
    if parcel.outlaw:  # its winner's choice (decision D54): the tile's VP, or half another player's income
        prize: dict[str, Any] = {"kind": "outlaw", "vp": outlaw_vp(s)}
        if parcel.content in BUILDINGS and parcel.owner is not None and (income := current_income(s, index)) > 0:
            prize.update(owner=parcel.owner, income=income, attacker_gets=attack_split(income)[1])
        return prize
    if index == s.city_hall:
        return {"kind": "city_hall"}
    if parcel.content in BUILDINGS and parcel.owner is not None:
        income = earned(s, index)
        return {"kind": "attack", "owner": parcel.owner, "income": income, "attacker_gets": attack_split(income)[1]}
    return {"kind": "parcel", "price": parcel_price(s, index)}


def _expansion_fields(s: GameState) -> dict[str, Any]:
    """The fields an expansion adds to the state document, present only when it is played (the API's "With
    expansions"): the City Hall is null until it stands, the outlaws' strength until the first ones arrive."""
    fields: dict[str, Any] = {}
    if s.config.gold_and_guns:
        city_hall = None
        if s.city_hall is not None:
            x, y = parcel_xy(s.city_hall)
            city_hall = {"x": x, "y": y, "occupant": occupant(s)}
        singer = next((c.seat for c in s.squares.get("gambling_income", ()) if c.singer), None)
        fields.update(
            # Defeated cowboys waiting for their owners' decision, in order (the Doctor / Undertaker, RULING G11).
            defeated=list(s.defeat.seats) if s.defeat is not None else [],
            townhouses_left=s.townhouses,
            city_hall=city_hall,
            # The red Singer's cowboy from the general reserve, on Gambling income (`001` "The Singer (11)").
            singer_cowboy={"seat": singer, "square": "gambling_income"} if singer is not None else None,
            singer_cowboy_available=s.singer_cowboy,
            **dynamite_fields(s),
            auction=_auction(s),
        )
    if s.config.outlaws:
        fields["outlaws"] = {"strength": s.outlaw_strength, "reserve": outlaws_in_supply(s)}
    return fields


def dynamite_fields(s: GameState) -> dict[str, Any]:
    """Dynamite (RULING G7): the chips in the supply, the cowboys placed with one, the mines tripled this round,
    and the throws of a duel while the red Gunsmith decides whether to roll again."""
    placed: list[dict[str, Any]] = [
        {"seat": c.seat, "square": square} for square, cowboys in s.squares.items() for c in cowboys if c.dynamite
    ]
    placed += [
        {"seat": c.seat, "x": parcel_xy(index)[0], "y": parcel_xy(index)[1]}
        for index, cowboys in sorted(s.parcel_cowboys.items()) for c in cowboys if c.dynamite
    ]
    return {
        "dynamite_left": dynamite_in_supply(s) if s.players else None,
        "dynamite_cowboys": placed,
        "dynamite_mines": [{"x": parcel_xy(i)[0], "y": parcel_xy(i)[1]} for i in sorted(s.dynamite_mines)],
        "duel_rolls": [{"seat": seat, **thrown} for seat, thrown in sorted(s.duel_rolls.items())] or None,
    }


def _auction(s: GameState) -> dict[str, Any] | None:
    """The Auctioneer's auction under way: the lot, the parcels with an auction chip, every bid (bids are public,
    RULING G8), the high bid, who has passed and whose bid is awaited."""
    a = s.auction
    if a is None:
        return None
    high = high_bid(a)
    return {
        "seat": a.seat,
        "lot": a.lot,
        "size": a.size,
        "parcels": [{"x": x, "y": y} for x, y in map(parcel_xy, a.parcels)],
        "bids": [{"seat": seat, "amount": amount} for seat, amount in a.bids],
        "high": {"seat": high[0], "amount": high[1]} if high is not None else None,
        "passed": sorted(a.passed),
        "turn": a.turn,
    }


# Event fields that only the acting seat may see, by event type (RULINGS V1, V2).
_PRIVATE_FIELDS: Final[Mapping[EventType, tuple[str, ...]]] = {
    "side_voted": ("side",),
    "duel_tile_chosen": ("tile", "second"),
    "tiles_drawn": ("tiles",),
}


def redact_event(event: Mapping[str, Any], seat: int | None) -> dict[str, Any] | None:
    """The part of `event` that `seat` (None: a spectator) may see, or None when that viewer may not know of it
    at all (`private_to`). Secret choices and hands are removed for everybody but their owner; everything else
    — dice and bag draws included — is public once it happened. The server redacts the events it reads back from
    the log, so any mapping will do."""
    if private_to(event) not in (None, seat):
        return None
    shown = dict(event)
    kind = event["type"]
    if kind in _PRIVATE_FIELDS and event["seat"] != seat:
        for name in _PRIVATE_FIELDS[kind]:
            value = shown.pop(name, None)
            if isinstance(value, list):
                shown["count"] = len(value)
    elif kind == "tiles_dealt":
        shown["hands"] = [hand if i == seat else None for i, hand in enumerate(event["hands"])]
        shown["counts"] = [len(hand) for hand in event["hands"]]
    return shown
