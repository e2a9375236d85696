"""Invariants that hold after every decision of every game (issue "Rules core", property tests)."""

from __future__ import annotations

import json

from app.rules import GameState, player_view, redact_event
from app.rules.board import is_connected, is_reached, parcel_index, road_points
from app.rules.catalog import (
    BUILDINGS,
    CITY_HALL,
    COWBOYS_PER_PLAYER,
    DYNAMITE_CHIPS,
    HOUSES_SUPPLY,
    NO_DUEL_CHIP_SQUARES,
    OUTLAW_MEEPLES,
    PERSONALITIES,
    PROPERTY_TILES,
    ROADS_SUPPLY,
    TOWNHOUSES_SUPPLY,
    sided_cards,
)
from app.rules.construction import owner_free_land, road_pieces_on_board
from app.rules.dynamite import dynamite_in_supply
from app.rules.events import Event
from app.rules.evolve import evolve
from app.rules.model import replace
from app.rules.outlaws import next_to_prison
from app.rules.townhouses import is_hemmed_in


def check_invariants(s: GameState) -> None:
    points = road_points(s.roads)
    owned = [0] * len(s.players)
    houses_on_board = townhouses_on_board = 0
    for index, parcel in enumerate(s.parcels):
        if parcel.owner is not None:
            owned[parcel.owner] += 1
        if parcel.content == "house":
            houses_on_board += 1
        if parcel.content == "townhouse":  # RULING G6: only where all 8 neighbours were occupied or owned
            townhouses_on_board += 1
            assert is_hemmed_in(s.parcels, index), f"townhouse at {index} is not hemmed in"
        if parcel.content == CITY_HALL:  # RULING G2: free-standing, never bought, never the white cowboy's
            assert index == s.city_hall and parcel.owner is None, "the City Hall is owned or misplaced"
            assert not any(c.white for c in s.parcel_cowboys.get(index, ())), "the white cowboy is on the City Hall"
        elif parcel.content in BUILDINGS:
            assert parcel.owner is not None, "a building stands on an owner-free parcel"
        if parcel.content in BUILDINGS and BUILDINGS[parcel.content].needs_road:
            assert is_reached(index, points), f"{parcel.content} at {index} is not reached by a road"
    # R-GG-10: the red Singer's cowboy stands only on Gambling income; R-GG-1: a game has 7 cards, sides for them.
    assert not any(c.singer for cowboys in s.parcel_cowboys.values() for c in cowboys)
    assert all(not c.singer for square, cowboys in s.squares.items() if square != "gambling_income" for c in cowboys)
    # A card whose holder chooses its side (the Doctor / Undertaker, decision D73) has one only while chosen.
    # R-BB-1 (decision D90): the Newspaper Boy comes on top of the 7.
    assert len(s.cards) == len(set(s.cards)) == 7 + ("newspaper_boy" in s.cards)
    # R-BB-2 (RULING X2): only the Newspaper Boy copies, another card of the game but the Sheriff.
    for p in s.players:
        assert p.copied is None or (p.personality == "newspaper_boy" and p.copied in s.cards
                                    and p.copied not in ("sheriff", "newspaper_boy")), f"seat {p.seat} copies"
    assert not s.sides or set(sided_cards(s.cards)) <= set(s.sides) <= set(s.cards)
    # R-GG-9 (RULING G9): "no duel" chips only with the yellow Singer, at most two, their cowboys only on the
    # chip squares.
    for p in s.players:
        chips = PERSONALITIES["singer"].yellow.no_duel_chips if s.holds(p.seat, "singer", "yellow") else 0
        assert 0 <= p.no_duel_chips <= chips, f"seat {p.seat} has {p.no_duel_chips} no duel chips"
    assert not any(c.no_duel for cowboys in s.parcel_cowboys.values() for c in cowboys)
    chip_squares = {square for square, cowboys in s.squares.items() if any(c.no_duel for c in cowboys)}
    assert chip_squares <= NO_DUEL_CHIP_SQUARES
    # R-GG-15, R-GG-16 (RULING G11): defeated cowboys wait only while the Doctor or the Undertaker is held.
    waiting = s.defeat.seats if s.defeat is not None else ()
    assert len(set(waiting)) == len(waiting)
    assert not waiting or any(s.holds(p.seat, "doctor") for p in s.players)
    placed = [0] * len(s.players)
    for seat in waiting:
        placed[seat] += 1  # off the board and out of the reserve, still the player's
    for spot in (*s.squares.values(), *s.parcel_cowboys.values()):
        for cowboy in spot:
            if not cowboy.white and not cowboy.singer:  # those two come from the general reserve
                placed[cowboy.seat] += 1
    for p in s.players:
        assert p.money >= 0, f"seat {p.seat} has ${p.money}"
        assert p.vp >= (-10 if s.config.new_beginning else 0)  # A New Beginning sells up to 10 VP (RULING V4)
        assert p.roads >= 0
        assert p.cowboys >= 0 and p.cowboys + placed[p.seat] <= COWBOYS_PER_PLAYER
        assert owned[p.seat] <= PROPERTY_TILES
    assert is_connected(s.roads), "the road network is not connected"
    assert road_pieces_on_board(s) + sum(p.roads for p in s.players) <= ROADS_SUPPLY
    assert houses_on_board + s.houses == HOUSES_SUPPLY and s.houses >= 0
    assert townhouses_on_board + s.townhouses == TOWNHOUSES_SUPPLY and s.townhouses >= 0
    assert all(count >= 0 for count in s.bag.values())
    outlaws = sum(1 for parcel in s.parcels if parcel.outlaw)  # RULING G4, `001` "Components": 9 meeples
    assert outlaws <= OUTLAW_MEEPLES and (s.config.outlaws or not outlaws)
    # RULING G7: 7 dynamite chips, held or standing with a cowboy; a throw waits only for the Gunsmith's decision,
    # a tripled mine is a mine.
    assert all(p.dynamite >= 0 for p in s.players) and 0 <= dynamite_in_supply(s) <= DYNAMITE_CHIPS
    assert s.config.gold_and_guns or dynamite_in_supply(s) == DYNAMITE_CHIPS
    assert bool(s.duel_rolls) == s.reroll_pending
    assert all(s.parcels[i].content == "mine" for i in s.dynamite_mines)
    check_auction(s)


def check_auction(s: GameState) -> None:
    """R-GG-11, R-GG-12 (RULING G8): an auction runs only while the cards are chosen; its parcels could be bought,
    its bids rise and the high one is covered by its bidder's money (nothing else happens during an auction);
    whoever passed is never asked again. A chip sold at auction has a holder and Ammunition stays empty."""
    if s.chip_sold:
        assert s.chip_holder is not None and not s.squares.get("ammunition"), "the sold chip is on Ammunition"
    a = s.auction
    if a is None:
        return
    # The Auctioneer's holder, or a Newspaper Boy copying him, whose copy opens an auction too (decision D95).
    assert s.step == "personalities" and s.holds(a.seat, "auctioneer")
    assert len(set(a.parcels)) == len(a.parcels) <= a.size
    assert all(i in owner_free_land(s.parcels) for i in a.parcels), "an auctioned parcel cannot be bought"
    amounts = [amount for _, amount in a.bids]
    assert amounts == sorted(set(amounts)) and all(amount >= 1 for amount in amounts), "the bids do not rise"
    if a.bids:
        seat, amount = a.bids[-1]
        assert s.players[seat].money >= amount, "the high bid is not covered"
        assert PROPERTY_TILES - sum(p.owner == seat for p in s.parcels) >= a.size
    assert a.turn is None or a.turn not in a.passed, "a player who passed is asked to bid"


# Events that buy, claim or build on a parcel, which an outlaw forbids (`001` "Effects of the Outlaws").
_ON_A_PARCEL = ("parcel_bought", "parcel_claimed", "building_placed", "house_placed", "townhouse_placed",
                "city_hall_placed")


def check_outlaw_events(s: GameState, events: list[Event]) -> None:
    """Event by event from `s`: nothing bought or built under an outlaw (R-OUT-3); arrivals never on an outlaw or
    next to a prison (R-OUT-1); moves only to a building that holds no outlaw and is not next to a prison
    (R-OUT-2)."""
    for event in events:
        kind = event["type"]
        if kind in _ON_A_PARCEL:
            assert not s.parcels[parcel_index(event["x"], event["y"])].outlaw, f"{kind} under an outlaw"
        if kind == "outlaws_arrived":
            spots = [parcel_index(p["x"], p["y"]) for p in event["parcels"]]
            assert len(set(spots)) == len(spots)
            for index in spots:
                assert not s.parcels[index].outlaw and not next_to_prison(s.parcels, index), "arrival refused"
        if kind == "outlaw_moved":
            to = parcel_index(event["to"]["x"], event["to"]["y"])
            assert s.parcels[to].content in BUILDINGS and not s.parcels[to].outlaw
            assert not next_to_prison(s.parcels, to), "an outlaw moved next to a prison"
        s = evolve(s, event)


def _scrambled_for(s: GameState, viewer: int | None) -> GameState:
    """The state with every secret of the players other than `viewer` changed: their duel tiles, chosen tile,
    votes, shopping basket and how many basket edits they made. A view for `viewer` must not notice the
    difference."""
    players = tuple(
        p if p.seat == viewer else replace(p, tiles=tuple((t + 1) % 6 for t in p.tiles))
        for p in s.players
    )
    flip = {"yellow": "red", "red": "yellow"}
    votes = {
        seat: v if seat == viewer else {card: flip[side] for card, side in v.items()} for seat, v in s.votes.items()
    }
    baskets = {
        seat: b if seat == viewer else {"vp": sum(b.values()) + 1} for seat, b in s.baskets.items()
    }
    # The tiles chosen before the red Gunsmith's are shown to everyone once he is to choose (RULING G7).
    duel_tiles = {seat: t if seat == viewer or s.duel_tiles_revealed else (t + 1) % 6
                  for seat, t in s.duel_tiles.items()}
    second_tiles = {seat: t if seat == viewer or s.duel_tiles_revealed else (t + 1) % 6
                    for seat, t in s.duel_second_tiles.items()}
    # Three more basket edits by every other seat: the log grows by events the viewer may not know of.
    others = [p.seat for p in s.players if p.seat != viewer]
    private_events = {**s.private_events, **{seat: s.private_events.get(seat, 0) + 3 for seat in others}}
    return replace(s, players=players, votes=votes, baskets=baskets, duel_tiles=duel_tiles,
                   duel_second_tiles=second_tiles,
                   bag={building: 0 for building in BUILDINGS}, seq=s.seq + 3 * len(others),
                   private_events=private_events)


def check_view_hides_secrets(s: GameState, seed: int) -> None:
    """R-WEB-2: no view contains the seed, and neither the bag nor another player's secrets (tiles, chosen
    tile, votes, basket) can influence what a viewer sees — so they never leak."""
    for seat in (None, *range(len(s.players))):
        view = player_view(s, seat)
        text = json.dumps(view)
        assert str(seed) not in text
        assert '"bag"' not in text
        assert view == player_view(_scrambled_for(s, seat), seat), f"a secret leaks into the view of {seat}"


PRIVATE_FIELDS = {"side_voted": "side", "duel_tile_chosen": "tile", "tiles_drawn": "tiles"}
PRIVATE_EXTRA_FIELDS = {"duel_tile_chosen": "second"}  # a dynamite duellist's second tile (RULING G7)
# RULING V4: basket edits are "hidden from the others until everyone is done" — whole, even their number.
UNKNOWN_TO_OTHERS = {"shop_item_added", "shop_item_removed"}


def check_events_redacted(events: list[Event], players: int) -> None:
    """R-WEB-2: what redact_event shows of a secret choice to anyone but its owner holds no secret."""
    for event in events:
        for seat in (None, *range(players)):
            shown = redact_event(event, seat)
            if event["type"] in UNKNOWN_TO_OTHERS:
                assert (shown is None) == (event["seat"] != seat)
                continue
            assert shown is not None
            if event["type"] in PRIVATE_FIELDS and event["seat"] != seat:
                assert PRIVATE_FIELDS[event["type"]] not in shown
                assert PRIVATE_EXTRA_FIELDS.get(event["type"], "") not in shown
            if event["type"] == "tiles_dealt":
                assert all(hand is None for i, hand in enumerate(shown["hands"]) if i != seat)


def check_seq_counts_visible_events(events: list[Event], s: GameState) -> None:
    """R-WEB-2 (RULING V4): every viewer's seq is the number of events that viewer may know of, so a viewer's
    log is numbered 1, 2, 3 ... without gaps and no number tells of another seat's hidden events."""
    for seat in (None, *range(len(s.players))):
        known = sum(1 for event in events if redact_event(event, seat) is not None)
        assert player_view(s, seat)["seq"] == known, seat
