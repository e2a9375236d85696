"""The table's game log has words for every event the rules core can produce (app/rules/events.py)."""

from __future__ import annotations

from typing import get_args

from app.notify import gamelog
from app.notify.gamelog import game_log
from app.rules.events import Automatic


def test_a_seat_replacement_says_who_took_over_whose_seat_and_its_colour() -> None:
    event = {"type": "seat_replaced", "seat": 1, "previous": "bob", "username": "carl"}
    assert gamelog.Describer(["ann", "carl"]).describe(event) == "carl takes over bob's seat (blue)."


def test_numbers_read_as_words_would_say_them() -> None:
    """No "buys 0 revolvers for $0", no "receives 1 roads" (issue "The table players would switch for", item 6)."""
    d = gamelog.Describer(["ann", "bob"])
    assert d.describe({"type": "revolvers_bought", "seat": 0, "count": 0, "price": 0}) == "ann buys no revolvers."
    assert d.describe({"type": "revolvers_bought", "seat": 0, "count": 1, "price": 3}) == "ann buys 1 revolver for $3."
    assert d.describe({"type": "cowboys_hired", "seat": 1, "count": 2, "price": 4}) == "bob hires 2 cowboys for $4."
    assert d.describe({"type": "roads_gained", "seat": 1, "square": "three_roads", "count": 1}) == (
        "bob receives 1 road.")
    assert d.describe({"type": "cowboys_received", "gains": [{"seat": 0, "count": 4}, {"seat": 1, "count": 1}]}) == (
        "New cowboys: ann 4 cowboys, bob 1 cowboy.")
    assert d.describe({"type": "road_placed", "seat": 0, "x1": 2, "y1": 3, "x2": 3, "y2": 3}) == (
        "ann places a road between (3, 3) and (3, 4).")


def test_the_log_has_a_heading_where_each_round_starts() -> None:
    """Round 1 starts where the setup hands over to the personalities; a later round where the one before ends
    (`round_ended` moves the game on to the personalities itself); nothing after the last round."""
    d = gamelog.Describer(["ann", "bob"])
    events = [(10, {"type": "step_completed", "step": "start_parcels", "next": "personalities"}),
              (11, {"type": "player_passed", "seat": 0}), (12, {"type": "round_ended", "round": 2}),
              (13, {"type": "player_passed", "seat": 1}), (14, {"type": "round_ended", "round": 4})]
    lines = game_log(d, events)
    assert [(line.seq, line.text, line.heading) for line in lines] == [
        (14, "Round 4 ends.", False), (13, "bob passes.", False), (12, "Round 3", True), (12, "Round 2 ends.", False),
        (11, "ann passes.", False), (10, "Round 1", True)]


def test_dynamite_and_the_gunsmith_read_as_sentences() -> None:
    """RULING G7: a chip placed, two dice and a second roll, two tiles, a tripled mine."""
    d = gamelog.Describer(["ann", "bob"])
    assert d.describe({"type": "cowboy_placed", "seat": 0, "white": False, "square": "ammunition",
                       "dynamite": True}) == "ann places a cowboy with a dynamite chip on Ammunition."
    duel = {"type": "duel_fought", "target": {"square": "ammunition"}, "winner": 0, "duelists": [
        {"seat": 0, "roll": 8, "dice": [3, 5], "dynamite": True, "firepower": 2, "strength": 10},
        {"seat": 1, "roll": 6, "first_roll": 2, "first_dice": [2], "firepower": 3, "strength": 9}]}
    assert d.describe(duel) == ("ann won the duel for the Ammunition square: (3+5)+2 against 6 rolled again from "
                                "2+3 (bob) (die + firepower).")
    assert d.describe({"type": "die_rerolled", "seat": 1, "first": {"roll": 2}, "throw": {"roll": 6}}) == (
        "bob rolls again with the Gunsmith: 6 instead of 2.")
    assert d.describe({"type": "mine_dynamited", "seat": 0, "x": 2, "y": 3}) == (
        "ann uses a dynamite chip: the mine on (2, 3) earns three times as much this round.")
    assert d.describe({"type": "duel_tiles_revealed", "target": {"x": 2, "y": 3}, "seat": 1,
                       "tiles": [{"seat": 0, "tile": 1, "second": 4}]}) == (
        "Duel for parcel (2, 3): ann plays tiles 1 and 4; bob chooses last with the Gunsmith.")


def test_the_auction_reads_bid_by_bid_and_says_who_paid_whom() -> None:
    """R-GG-11, R-GG-12 (RULING G8): the bids are public; the settlement names the bank's and the Auctioneer's
    shares, and an Auctioneer who wins keeps his own."""
    d = gamelog.Describer(["ann", "bob"])
    assert d.describe({"type": "bid_made", "seat": 1, "amount": 7}) == "bob bids $7."
    assert d.describe({"type": "auction_closed", "seat": 0, "lot": "parcels", "winner": 1, "amount": 7, "bank": 3,
                       "auctioneer_gets": 4, "parcels": [{"x": 1, "y": 2}, {"x": 3, "y": 4}]}) == (
        "bob wins the auction for $7 ($3 to the bank, $4 to ann) and takes parcels (1, 2) and (3, 4).")
    assert d.describe({"type": "auction_closed", "seat": 0, "lot": "chip", "winner": 0, "amount": 5, "bank": 0,
                       "auctioneer_gets": 5, "parcels": []}) == (
        "ann wins the auction for $5 (keeping $5) and takes the 3-guns chip.")
    assert d.describe({"type": "auction_closed", "seat": 0, "lot": "chip", "winner": None, "amount": 0, "bank": 0,
                       "auctioneer_gets": 0, "parcels": []}) == "Nobody bids: the auction ends without a sale."


def test_an_undo_says_who_took_back_their_move() -> None:
    """API.md "Undo": the log keeps the move and says it was taken back."""
    event = {"type": "move_undone", "seat": 0, "events": 2}
    assert gamelog.Describer(["ann", "bob"]).describe(event) == "ann takes back their move."


def test_the_newspaper_boy_pays_and_his_copy_is_told() -> None:
    """R-BB-2 (RULING X2): choosing him costs $3 (not "receives $-3"); the copy names the card and what it gave."""
    d = gamelog.Describer(["ann", "bob"])
    chosen = {"type": "personality_chosen", "seat": 0, "card": "newspaper_boy", "side": "yellow", "money": -3}
    assert d.describe(chosen) == "ann chooses the Newspaper Boy and pays $3."  # one side only (D91)
    copied = {"type": "card_copied", "seat": 0, "card": "banker", "side": "yellow", "money": 9}
    assert d.describe(copied) == "ann's Newspaper Boy copies the Banker (yellow) and receives $9."
    cowboy = {"type": "personality_chosen", "seat": 1, "card": "cowboy", "side": "yellow", "horses": 1}
    assert d.describe(cowboy) == "bob chooses the Cowboy and receives 1 horse."


def test_a_horse_bought_at_wages_is_told_with_its_net_payment() -> None:
    """R-BB-6 (RULING X6): the Wages line names the horse; a horse dearer than the other wages reads as minus."""
    d = gamelog.Describer(["ann", "bob"])
    assert d.describe({"type": "wages_chosen", "seat": 0, "horse": True}) == "ann pays $4 for a horse at Wages."
    paid = {"type": "wages_paid", "payments": [{"seat": 0, "cowboys": 1, "amount": -4, "horse": True},
                                               {"seat": 1, "cowboys": 1, "amount": 4}]}
    assert d.describe(paid) == "Wages: ann a horse, paying $4, bob $4."


def test_an_outlaws_bounty_names_each_holder_paid() -> None:
    """R-BB-8 (RULING X7): the card's holder and a Newspaper Boy copying it are both paid, and the log says so."""
    d = gamelog.Describer(["ann", "bob", "cid"])
    fought = {"type": "outlaw_fought", "x": 3, "y": 3, "strength": 8, "winner": 2,
              "duelists": [{"seat": 2, "roll": 4, "firepower": 20, "strength": 24}],
              "bounty": {"seat": 1, "amount": 3}, "copier_bounty": {"seat": 0, "amount": 3}}
    assert d.describe(fought) == (
        "Fight with the outlaw on (3, 3) (strength 8): cid 24 — cid wins. bob receives $3 from the bank for it. "
        "ann receives $3 from the bank for it.")


def test_a_move_made_for_a_player_says_so_and_why() -> None:
    """API.md "No one waits for a choice that is not one": the log says a move was made for the player, and why —
    their only move, an answer given ahead, their standing answer (one note per reason of the rules core)."""
    assert set(gamelog.MADE_FOR) == set(get_args(Automatic))
    d = gamelog.Describer(["ann", "bob"])
    events = [(5, {"type": "player_passed", "seat": 0, "automatic": "only_move"}),
              (6, {"type": "parcel_bought", "seat": 1, "x": 2, "y": 3, "price": 2, "automatic": "answered_ahead"}),
              (7, {"type": "permission_denied_rest", "seat": 0, "automatic": "standing_answer"}),
              (8, {"type": "player_passed", "seat": 1})]
    marks = {line.seq: line.mark for line in game_log(d, events)}
    assert marks == {5: "made for ann: the only possible move", 6: "made for bob, as answered ahead",
                     7: "ann's standing answer", 8: None}
