"""The Auctioneer (`001` "The Auctioneer (12)", RULING G8 with its 2026-12-01 addition; decisions D65-D70):
R-GG-11 (yellow: two owner-free parcels auctioned) and R-GG-12 (red: the 3-guns chip auctioned).

Games are built with the real setup and driven through the real moves; the board is emptied around the centre
(4, 4) and every player given $20, so that the figures below can be worked out by hand.
"""

from __future__ import annotations

from app.rules import player_view
from app.rules.board import parcel_index
from app.rules.catalog import PROPERTY_TILES
from app.rules.defaults import default_move
from app.rules.income import firepower
from tests.rules.builders import Game, events_of
from tests.rules.test_gold_and_guns_characters import empty_town, first_chooser_takes, with_card

AUCTIONEER = 12


def auction_table(sides: str = "yellow", players: int = 3, outlaws: bool = False) -> Game:
    """Cards 1-6 and the Auctioneer, an empty town, $20 each, waiting for round 1's first personality."""
    g = Game(players, expansions=["gold_and_guns", "outlaws"] if outlaws else ["gold_and_guns"],
             characters=with_card(AUCTIONEER), sides=sides)
    g.claim_starts([(x, 1) for x in range(1, 9)])
    empty_town(g)
    for seat in range(players):
        g.set_player(seat, money=20)
    return g


def choose_parcels(g: Game, *parcels: tuple[int, int]) -> None:
    for x, y in parcels:
        g.act({"type": "auction_parcel", "x": x, "y": y})


def bid(g: Game, amount: int) -> None:
    g.act({"type": "bid", "amount": amount})


def pass_bid(g: Game) -> None:
    g.act({"type": "bid_pass"})


# --- R-GG-11: the yellow Auctioneer -----------------------------------------------------------------------------


def test_the_auctioneer_chooses_two_parcels_that_could_be_bought() -> None:
    """R-GG-11 (`001` "The Auctioneer (12)": "immediately chooses 2 parcels which belong to no player"; RULING G8:
    only parcels that could be bought — owner-free land, no outlaw, not a river parcel; decision D65: the City
    Hall's neither, one parcel at a time, before the next card is chosen)."""
    g = auction_table(outlaws=True)
    g.put(1, 1, owner=1)  # owned
    g.put(2, 1, river=True)  # river
    g.put(3, 1, outlaw=True)  # an outlaw stands there
    g.with_state(outlaw_strength=9)
    g.put(5, 1, content="city_hall")
    g.with_state(city_hall=parcel_index(5, 1))
    g.put(6, 1, content="mountain")  # a mountain can be bought (`000` "Parcel purchase")
    seat = first_chooser_takes(g, "auctioneer")
    (opened,) = events_of(g.events, "auction_opened")
    assert opened == {"type": "auction_opened", "seat": seat, "lot": "parcels", "size": 2}
    assert g.awaiting == "auction_parcels" and g.to_act == (seat,)
    offered = {(m["x"], m["y"]) for m in g.moves()}
    every = {(x, y) for x in range(1, 9) for y in range(1, 9)}
    assert offered == every - {(1, 1), (2, 1), (3, 1), (5, 1)}
    assert {(4, 4), (6, 1)} <= offered  # the centre and a mountain are owner-free land
    choose_parcels(g, (6, 1))
    assert (6, 1) not in {(m["x"], m["y"]) for m in g.moves()}  # not twice
    choose_parcels(g, (7, 7))
    assert g.awaiting == "auction_bid" and g.to_act == (seat,)  # the bidding opens with the Auctioneer
    assert player_view(g.state, None)["auction"]["parcels"] == [{"x": 6, "y": 1}, {"x": 7, "y": 7}]


def test_bids_go_around_in_seat_order_rising_within_money_and_a_pass_is_final() -> None:
    """R-GG-11 (RULING G8): starting with the Auctioneer, then in seat order, each bid exceeds the last and is
    covered by the bidder's money (decision D66: every such amount is listed, from $1 up); a pass is final, so
    the bidding goes round the others until one bidder is left."""
    g = auction_table(players=4)
    auctioneer = first_chooser_takes(g, "auctioneer")
    order = [(auctioneer + k) % 4 for k in range(4)]
    for seat, money in zip(order, (20, 9, 30, 25), strict=True):
        g.set_player(seat, money=money)
    choose_parcels(g, (1, 1), (2, 2))
    money = {seat: g.state.players[seat].money for seat in range(4)}
    assert g.to_act == (order[0],)
    assert [m["amount"] for m in g.moves() if m["type"] == "bid"] == list(range(1, money[order[0]] + 1))
    bid(g, 5)
    assert g.to_act == (order[1],)
    assert [m["amount"] for m in g.moves() if m["type"] == "bid"] == list(range(6, money[order[1]] + 1))
    pass_bid(g)
    assert g.to_act == (order[2],)
    bid(g, 8)
    assert g.to_act == (order[3],)
    bid(g, 9)
    assert g.to_act == (order[0],)  # round again, skipping the one who passed
    bid(g, 10)
    assert g.to_act == (order[2],)  # order[1] passed for good
    assert player_view(g.state, order[1])["auction"] == {
        "seat": auctioneer, "lot": "parcels", "size": 2, "parcels": [{"x": 1, "y": 1}, {"x": 2, "y": 2}],
        "bids": [{"seat": order[0], "amount": 5}, {"seat": order[2], "amount": 8}, {"seat": order[3], "amount": 9},
                 {"seat": order[0], "amount": 10}],
        "high": {"seat": order[0], "amount": 10}, "passed": [order[1]], "turn": order[2],
    }


def test_the_last_bidder_pays_half_down_to_the_bank_and_half_up_to_the_auctioneer() -> None:
    """R-GG-11 (`001`: "he pays half of his bid (rounded down) to the bank and the other half to the auctioneer
    (rounded up) and he places two parcel tiles"; RULING G8): a $7 bid gives the bank $3 and the Auctioneer $4;
    the auction ends as soon as only the high bidder is left, without asking him again (decision D69)."""
    g = auction_table()
    auctioneer = first_chooser_takes(g, "auctioneer")
    buyer = (auctioneer + 1) % 3
    other = (auctioneer + 2) % 3
    before = {seat: g.state.players[seat].money for seat in range(3)}
    choose_parcels(g, (1, 1), (8, 8))
    pass_bid(g)  # the Auctioneer
    bid(g, 7)  # the buyer
    new = g.act({"type": "bid_pass"})  # the third player: one bidder is left, the auction ends at once
    (closed,) = events_of(new, "auction_closed")
    assert closed == {"type": "auction_closed", "seat": auctioneer, "lot": "parcels", "winner": buyer, "amount": 7,
                      "bank": 3, "auctioneer_gets": 4, "parcels": [{"x": 1, "y": 1}, {"x": 8, "y": 8}]}
    s = g.state
    assert s.players[buyer].money == before[buyer] - 7
    assert s.players[auctioneer].money == before[auctioneer] + 4
    assert s.players[other].money == before[other]
    assert s.parcels[parcel_index(1, 1)].owner == buyer and s.parcels[parcel_index(8, 8)].owner == buyer
    assert s.auction is None and g.awaiting == "personality"  # the choice of cards goes on


def test_the_auctioneer_winning_pays_only_the_banks_half() -> None:
    """R-GG-11 (RULING G8: "the Auctioneer, winning, pays only the bank's half"; decision D69): a $9 bid costs him
    $4."""
    g = auction_table()
    auctioneer = first_chooser_takes(g, "auctioneer")
    before = g.state.players[auctioneer].money
    choose_parcels(g, (3, 3), (5, 6))
    bid(g, 9)
    pass_bid(g)
    pass_bid(g)
    (closed,) = events_of(g.events, "auction_closed")
    assert closed["winner"] == auctioneer and (closed["bank"], closed["auctioneer_gets"]) == (4, 5)
    assert g.state.players[auctioneer].money == before - 4
    assert {g.state.parcels[parcel_index(3, 3)].owner, g.state.parcels[parcel_index(5, 6)].owner} == {auctioneer}


def test_without_a_bid_nothing_happens() -> None:
    """R-GG-11 (`001`: "If nobody makes a bid, the parcels remain unoccupied"; RULING G8)."""
    g = auction_table()
    first_chooser_takes(g, "auctioneer")
    money = [p.money for p in g.state.players]
    choose_parcels(g, (3, 3), (5, 6))
    for _ in range(3):
        pass_bid(g)
    (closed,) = events_of(g.events, "auction_closed")
    assert closed["winner"] is None and closed["amount"] == closed["bank"] == closed["auctioneer_gets"] == 0
    assert [p.money for p in g.state.players] == money
    assert g.state.parcels[parcel_index(3, 3)].owner is None and g.state.parcels[parcel_index(5, 6)].owner is None
    assert g.state.auction is None and g.awaiting == "personality"


def test_a_player_with_fewer_than_two_property_tiles_left_may_not_bid() -> None:
    """R-GG-11 (RULING G8, added 2026-12-01): with one property tile left a player only passes — played at once
    (decision D1), nobody waits for it; with two tiles left the same player may bid."""
    g = auction_table()
    auctioneer = first_chooser_takes(g, "auctioneer")
    short = (auctioneer + 1) % 3
    owned = [(x, y) for y in (7, 8) for x in range(1, 9)]
    for x, y in owned[:PROPERTY_TILES - 1]:
        g.put(x, y, owner=short)
    choose_parcels(g, (1, 1), (2, 2))
    bid(g, 3)
    assert g.to_act == ((auctioneer + 2) % 3,)  # the player without the tiles was passed over...
    assert events_of(g.events, "bid_passed") == [  # ...by a recorded pass, made for them
        {"type": "bid_passed", "seat": short, "automatic": "only_move"}]
    g2 = auction_table()
    auctioneer = first_chooser_takes(g2, "auctioneer")
    for x, y in owned[:PROPERTY_TILES - 2]:
        g2.put(x, y, owner=(auctioneer + 1) % 3)
    choose_parcels(g2, (1, 1), (2, 2))
    bid(g2, 3)
    assert g2.to_act == ((auctioneer + 1) % 3,) and {"type": "bid", "amount": 4} in g2.moves()


def test_a_bidder_who_cannot_top_the_bid_passes_at_once() -> None:
    """R-GG-11 (RULING G8: "each bid must ... be covered by the bidder's money"; decision D66): $5 cannot top a
    $5 bid, so that player's only move, the pass, is played for them (D1)."""
    g = auction_table()
    auctioneer = first_chooser_takes(g, "auctioneer")
    poor = (auctioneer + 1) % 3
    g.set_player(poor, money=5)
    choose_parcels(g, (1, 1), (2, 2))
    bid(g, 5)
    assert g.to_act == ((auctioneer + 2) % 3,)
    assert events_of(g.events, "bid_passed") == [{"type": "bid_passed", "seat": poor, "automatic": "only_move"}]


def test_fewer_than_two_buyable_parcels() -> None:
    """Decision D67: with one parcel that could be bought, the auction is of that one (a bidder needs one property
    tile); with none, no auction opens and the next player chooses a card."""
    g = auction_table()
    for x in range(1, 9):
        for y in range(1, 9):
            g.put(x, y, river=True)  # nobody buys a river parcel (RULING B19)
    g.put(6, 6)  # the only parcel that could be bought
    auctioneer = first_chooser_takes(g, "auctioneer")
    (opened,) = events_of(g.events, "auction_opened")
    assert opened["size"] == 1
    # The one parcel is the only choice: chosen at once (D1), and the bidding opens with the Auctioneer.
    assert events_of(g.events, "auction_parcel_chosen") == [
        {"type": "auction_parcel_chosen", "seat": auctioneer, "x": 6, "y": 6, "automatic": "only_move"}]
    assert g.awaiting == "auction_bid" and g.to_act == (auctioneer,)
    g2 = auction_table()
    for x in range(1, 9):
        for y in range(1, 9):
            g2.put(x, y, river=True)
    first_chooser_takes(g2, "auctioneer")
    assert events_of(g2.events, "auction_opened") == [] and g2.awaiting == "personality"


def test_the_auction_decisions_default_to_the_cheapest_move() -> None:
    """Decision D70: a bidder whose clock runs out passes; the Auctioneer's clock puts the chip on the first
    parcel listed."""
    g = auction_table()
    first_chooser_takes(g, "auctioneer")
    assert default_move(g.state, g.to_act[0]) == g.moves()[0]
    choose_parcels(g, (1, 1), (2, 2))
    bid(g, 2)
    assert default_move(g.state, g.to_act[0]) == {"type": "bid_pass"}


# --- R-GG-12: the red Auctioneer --------------------------------------------------------------------------------


def test_red_auctions_the_3_guns_chip_and_the_winner_pays_the_auctioneer() -> None:
    """R-GG-12 (`001` "The Auctioneer (12)", variant: "pays the auction amount directly to the auctioneer and takes
    the 3-gun chip"; RULING G8): no parcels to choose, the bidding opens at once; the winner pays it all to the
    Auctioneer (nothing to the bank), holds the chip (+3 firepower, `000` "Ammunition") and no cowboy may go to
    Ammunition this round (decision D68)."""
    g = auction_table(sides="red")
    auctioneer = first_chooser_takes(g, "auctioneer")
    (opened,) = events_of(g.events, "auction_opened")
    assert opened == {"type": "auction_opened", "seat": auctioneer, "lot": "chip", "size": 0}
    assert g.awaiting == "auction_bid" and g.to_act == (auctioneer,)
    buyer = (auctioneer + 2) % 3
    before = {seat: g.state.players[seat].money for seat in range(3)}
    strength = firepower(g.state, buyer)
    bid(g, 2)
    pass_bid(g)
    bid(g, 7)
    pass_bid(g)  # the Auctioneer
    (closed,) = events_of(g.events, "auction_closed")
    assert (closed["winner"], closed["amount"], closed["bank"], closed["auctioneer_gets"]) == (buyer, 7, 0, 7)
    assert g.state.players[buyer].money == before[buyer] - 7
    assert g.state.players[auctioneer].money == before[auctioneer] + 7
    assert g.state.chip_holder == buyer and firepower(g.state, buyer) == strength + 3
    g.choose(["banker", "chinese_worker"])
    assert g.awaiting == "placement"
    seat = g.to_act[0]
    assert {"type": "place_cowboy", "square": "ammunition"} not in g.moves(seat)
    assert {"type": "place_cowboy", "square": "three_roads"} in g.moves(seat)
    assert next(q for q in player_view(g.state, None)["squares"] if q["square"] == "ammunition")["open"] is False


def test_red_auctioneer_winning_pays_nothing_and_an_unsold_chip_stays_on_ammunition() -> None:
    """R-GG-12 (`001`: "If the auctioneer is the winner, he pays nothing"); with no bid the chip is still won at
    Ammunition as usual (decision D68)."""
    g = auction_table(sides="red")
    auctioneer = first_chooser_takes(g, "auctioneer")
    before = g.state.players[auctioneer].money
    bid(g, 12)
    pass_bid(g)
    pass_bid(g)
    assert g.state.chip_holder == auctioneer and g.state.players[auctioneer].money == before
    g2 = auction_table(sides="red")
    first_chooser_takes(g2, "auctioneer")
    for _ in range(3):
        pass_bid(g2)
    assert g2.state.chip_holder is None and not g2.state.chip_sold
    g2.choose(["banker", "chinese_worker"])
    assert {"type": "place_cowboy", "square": "ammunition"} in g2.moves()


def test_the_sale_of_the_chip_lasts_one_round() -> None:
    """Decision D68: the chip sold at auction goes back at the end of the round like any 3-guns chip (`000`
    "End of Round"), and Ammunition opens again."""
    g = auction_table(sides="red")
    first_chooser_takes(g, "auctioneer")
    bid(g, 1)
    pass_bid(g)
    pass_bid(g)
    g.choose(["banker", "chinese_worker"])
    g.pass_all()
    g.run(lambda game, seat, moves: moves[-1] if moves[-1]["type"] != "give_up_money" else moves[0],
          until=lambda game: game.state.round == 2)
    assert g.state.chip_holder is None and not g.state.chip_sold
    assert "ammunition" in {q["square"] for q in player_view(g.state, None)["squares"] if q["open"]}


def test_the_base_game_state_document_has_no_auction() -> None:
    """Base-game behaviour does not change: the auction is an expansion field of the state document."""
    g = Game(3)
    assert "auction" not in player_view(g.state, 0)
    g2 = auction_table()
    assert player_view(g2.state, 0)["auction"] is None
