"""The action track (`000` "Actions"; RULINGS B3, B10, B14, B15): R-ACT-1 .. R-ACT-11."""

from __future__ import annotations

from app.rules.board import parcel_index
from app.rules.catalog import TRACK_STEPS
from app.rules.income import firepower
from app.rules.legal import legal_moves
from app.rules.prices import parcel_price
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import at, ready, run_step, seat_of

# RULING B14, written out from its text: "Wages -> Ammunition -> 3 Roads -> Road -> parcel purchases -> the seven
# construction squares, then building from reserve -> Parcel income -> Cowboy income -> Gambling income -> estate
# income with attacks -> Parcels VP -> Cowboy VP -> Estate VP -> Buy VP" ($2, $3, $4, $5: RULING B15).
B14_ORDER = [
    "wages", "ammunition", "three_roads", "road", "parcel_purchase",
    "build_3", "build_4", "build_5", "build_6", "build_8", "build_10", "build_12", "build_from_reserve",
    "parcel_income", "cowboy_income", "gambling_income", "estate_income",
    "parcels_vp", "cowboy_vp", "estate_vp",
    "buy_vp_2", "buy_vp_3", "buy_vp_4", "buy_vp_5",
]
BUY_VP = {"buy_vp_2": 2, "buy_vp_3": 3, "buy_vp_4": 4, "buy_vp_5": 5}
ROAD_PIECES = 25  # RULING B3 / B18: the four centre roads included


def supply(g: Game) -> int:
    return ROAD_PIECES - len(g.state.roads) - sum(p.roads for p in g.state.players)


def square_placements(g: Game, seat: int) -> set[str]:
    return {m["square"] for m in legal_moves(g.state, seat) if m["type"] == "place_cowboy" and "square" in m}


# --- R-ACT-1 -----------------------------------------------------------------------------------------------------


def test_track_schedule_is_the_b14_order() -> None:
    """R-ACT-1: the round's action steps run in the order of RULING B14 (`000` "Actions": "always performed in
    the sequence indicated on the board")."""
    assert list(TRACK_STEPS) == B14_ORDER


def test_actions_resolve_in_track_order() -> None:
    """R-ACT-1: with one cowboy on each square that needs no decision, the actions happen in B14 order — and the
    3-guns chip won at Ammunition already counts at the later Cowboy income (RULING B14, B8)."""
    g = ready()
    seat = seat_of(g, "sheriff")
    squares = ["estate_vp", "cowboy_income", "wages", "parcels_vp", "road", "gambling_income", "ammunition",
               "three_roads", "parcel_income", "cowboy_vp"]
    for square in squares:
        g.place_cowboys(square=square, seats=[seat])
    g.set_player(seat, cowboys=4, revolvers=1)
    events = g.resume_at("wages")
    completed = [e["step"] for e in events_of(events, "step_completed")]
    expected = [s for s in B14_ORDER if s in squares or s == "estate_income"]  # estate income always happens
    assert completed[: len(expected)] == expected
    (cowboy_income,) = [e for e in events if e.get("square") == "cowboy_income"]
    assert cowboy_income["amount"] == 2 * (4 + 1 + 3)


# --- R-ACT-2 -----------------------------------------------------------------------------------------------------


def test_wages_pay_four_dollars_per_cowboy_without_duel() -> None:
    """R-ACT-2: Wages pay $4 per cowboy, several cowboys of several players, no duel (`000` "Wages")."""
    g = ready()
    g.place_cowboys(square="wages", seats=[0, 1, 0])
    for seat in range(3):
        g.set_player(seat, money=10)
    events, s = run_step(g, "wages")
    assert not events_of(events, "duel_fought")
    assert [p.money for p in s.players] == [10 + 2 * 4, 10 + 4, 10]
    assert "wages" not in s.squares


# --- R-ACT-3 -----------------------------------------------------------------------------------------------------


def test_ammunition_gives_the_chip_and_three_firepower() -> None:
    """R-ACT-3: the Ammunition winner takes the 3-guns chip: +3 firepower for the round (`000` "Ammunition",
    RULING B14, B8)."""
    g = ready()
    seat = seat_of(g, "banker")
    g.set_player(seat, cowboys=2, revolvers=1)
    g.place_cowboys(square="ammunition", seats=[seat])
    assert firepower(g.state, seat) == 2 + 1
    _, s = run_step(g, "ammunition")
    assert s.chip_holder == seat
    assert firepower(s, seat) == 2 + 1 + 3


# --- R-ACT-4 -----------------------------------------------------------------------------------------------------


def test_three_roads_gives_three_roads() -> None:
    """R-ACT-4: 3 Roads puts three roads into the winner's personal reserve (`000` "3 Roads")."""
    g = ready()
    seat = seat_of(g, "sheriff")
    before, board = g.state.players[seat].roads, g.state.roads
    g.place_cowboys(square="three_roads", seats=[seat])
    _, s = run_step(g, "three_roads")
    assert s.players[seat].roads == before + 3
    assert s.roads == board  # into the reserve, not onto the board (RULING B4)


def test_road_gives_one_road_per_cowboy() -> None:
    """R-ACT-4: Road gives one road per cowboy, several cowboys of several players, no duel (`000` "Road")."""
    g = ready()
    before = [p.roads for p in g.state.players]
    g.place_cowboys(square="road", seats=[1, 0, 1, 1])
    events, s = run_step(g, "road")
    assert not events_of(events, "duel_fought")
    assert [p.roads for p in s.players] == [before[0] + 1, before[1] + 3, before[2]]


def test_three_roads_is_limited_by_the_supply() -> None:
    """R-ACT-4: only the road pieces left in the supply (25, the centre's four included) can be gained; the rest
    of the gain is lost (RULING B3, B18)."""
    g = ready()
    g.set_player(0, roads=0)
    g.set_player(1, roads=0)
    g.set_player(2, roads=0)
    g.set_player(1, roads=supply(g) - 2)
    assert supply(g) == 2
    g.place_cowboys(square="three_roads", seats=[0])
    _, s = run_step(g, "three_roads")
    assert s.players[0].roads == 2
    assert ROAD_PIECES - len(s.roads) - sum(p.roads for p in s.players) == 0


def test_road_gains_stop_when_the_supply_is_empty() -> None:
    """R-ACT-4: Road gains beyond the supply are lost: three cowboys with one piece left gain one road in all
    (RULING B3)."""
    g = ready()
    for seat in range(3):
        g.set_player(seat, roads=0)
    g.set_player(2, roads=supply(g) - 1)
    before = [p.roads for p in g.state.players]
    g.place_cowboys(square="road", seats=[0, 1, 0])
    _, s = run_step(g, "road")
    gained = [p.roads - b for p, b in zip(s.players, before, strict=True)]
    assert sum(gained) == 1
    assert gained[2] == 0
    assert ROAD_PIECES - len(s.roads) - sum(p.roads for p in s.players) == 0


# --- R-ACT-5 -----------------------------------------------------------------------------------------------------


def shaped_purchase(money: int) -> Game:
    """(4, 4) holds a mountain; a house is diagonal to it, a ranch beside it; a mountain two parcels away."""
    g = ready()
    g.clear_board()
    g.put(4, 4, content="mountain")
    g.put(5, 5, content="house")
    g.put(3, 4, owner=1, content="ranch")
    g.put(6, 4, content="mountain")
    g.set_player(0, money=money)
    g.place_cowboys(xy=(4, 4), seats=[0])
    return g


def test_parcel_price_counts_the_parcel_and_its_eight_neighbours() -> None:
    """R-ACT-5: price = $1 + $1 per building, mountain or house on the parcel or next to it, diagonals included;
    nothing further away counts (`000` "Parcel purchase", `003` "Combien coûte un terrain ?", RULING B2)."""
    g = shaped_purchase(money=20)
    assert parcel_price(g.state, parcel_index(4, 4)) == 1 + 1 + 1 + 1  # own mountain, diagonal house, ranch
    g.clear_board()
    assert parcel_price(g.state, parcel_index(4, 4)) == 1
    for x in (3, 4, 5):
        for y in (3, 4, 5):
            g.put(x, y, content="house")
    assert parcel_price(g.state, parcel_index(4, 4)) == 10  # `003`: "de 1 à 10 dollars"
    g.clear_board()
    g.put(1, 1, content="mountain")
    g.put(2, 2, content="hotel", owner=0)
    assert parcel_price(g.state, parcel_index(1, 1)) == 1 + 1 + 1  # its own mountain, the diagonal hotel


def test_parcel_purchase_is_paid_and_a_property_tile_placed() -> None:
    """R-ACT-5: the lone cowboy's owner may buy the parcel, mountain and all, paying its price (`000` "Parcel
    purchase": "This parcel may already contain a house or a mountain")."""
    g = shaped_purchase(money=20)
    price = 1 + 3
    run_step(g, "parcel_purchase")
    assert g.awaiting == "buy_parcel"
    assert {m["type"] for m in g.moves()} == {"buy_parcel", "decline_parcel"}
    g.act({"type": "buy_parcel", "x": 4, "y": 4})
    assert at(g.state, 4, 4) == (0, "mountain")
    assert g.state.players[0].money == 20 - price
    assert parcel_index(4, 4) not in g.state.parcel_cowboys


def test_parcel_purchase_is_optional() -> None:
    """R-ACT-5, R-ACT-11: the purchase may be declined; the parcel stays owner-free and the cowboy leaves
    (`000` "Actions": "may decide to not perform an action"; RULING B10)."""
    g = shaped_purchase(money=20)
    run_step(g, "parcel_purchase")
    events = g.act({"type": "decline_parcel", "x": 4, "y": 4})
    assert events_of(events, "parcel_purchase_declined")
    assert at(g.state, 4, 4) == (None, "mountain")
    assert g.state.players[0].money == 20
    assert parcel_index(4, 4) not in g.state.parcel_cowboys


def test_parcel_beyond_the_buyers_money_is_not_bought() -> None:
    """R-ACT-5: with less money than the price the only possibility is not to buy, so nobody is asked
    (RULING B10: "asked only where there is a choice or a cost")."""
    g = shaped_purchase(money=3)
    events, s = run_step(g, "parcel_purchase")
    assert events_of(events, "parcel_purchase_declined")
    assert at(s, 4, 4) == (None, "mountain")
    assert s.players[0].money == 3


# --- R-ACT-6 / R-ACT-7 / R-ACT-8 ---------------------------------------------------------------------------------


def test_parcel_income_two_dollars_per_parcel() -> None:
    """R-ACT-6: $2 per parcel owned, built-on ones included (`000` "Parcel income")."""
    g = ready()
    g.clear_board()
    g.put(2, 2, owner=0)
    g.put(3, 2, owner=0, content="saloon")
    g.put(4, 2, owner=0, content="mountain")
    g.put(5, 2, owner=0, content="house")
    g.put(6, 2, owner=0, content="ranch")
    g.put(7, 2, owner=1)
    g.set_player(0, money=0)
    g.place_cowboys(square="parcel_income", seats=[0])
    _, s = run_step(g, "parcel_income")
    assert s.players[0].money == 2 * 5


def test_cowboy_income_two_dollars_per_firepower() -> None:
    """R-ACT-7: $2 per firepower point, firepower = cowboys and revolvers in the personal reserve (`000` "Cowboy
    income")."""
    g = ready()
    seat = seat_of(g, "banker")
    g.set_player(seat, money=0, cowboys=5, revolvers=2)
    g.place_cowboys(square="cowboy_income", seats=[seat])
    _, s = run_step(g, "cowboy_income")
    assert s.players[seat].money == 2 * (5 + 2)


def test_cowboy_income_counts_the_round_bonuses() -> None:
    """R-ACT-7: the round's firepower bonuses (Mercenary +3, 3-guns chip +3) count too (RULING B8)."""
    g = ready(cards=("sheriff", "banker", "mercenary"))
    seat = seat_of(g, "mercenary")
    g.set_player(seat, money=0, cowboys=4, revolvers=1)
    g.with_state(chip_holder=seat)
    g.place_cowboys(square="cowboy_income", seats=[seat])
    _, s = run_step(g, "cowboy_income")
    assert s.players[seat].money == 2 * (4 + 1 + 3 + 3)


def test_gambling_pays_the_sum_of_two_dice() -> None:
    """R-ACT-8: the winner rolls two dice and receives their sum (`000` "Gambling income"); the dice are recorded
    in the event."""
    for seed in (1, 2, 3):
        g = ready(seed=seed)
        g.set_player(0, money=0)
        g.place_cowboys(square="gambling_income", seats=[0])
        events, s = run_step(g, "gambling_income")
        (gain,) = [e for e in events if e.get("square") == "gambling_income"]
        assert len(gain["dice"]) == 2
        assert all(1 <= d <= 6 for d in gain["dice"])
        assert gain["amount"] == sum(gain["dice"])
        assert s.players[0].money == sum(gain["dice"])


# --- R-ACT-9 -----------------------------------------------------------------------------------------------------


def test_parcels_vp_half_the_parcels_rounded_down() -> None:
    """R-ACT-9: Parcels VP = parcels owned // 2, built-on ones included (`000` "Parcels victory points")."""
    g = ready()
    g.clear_board()
    for x in range(2, 7):
        g.put(x, 2, owner=0, content="bank" if x == 2 else None)
    g.place_cowboys(square="parcels_vp", seats=[0])
    _, s = run_step(g, "parcels_vp")
    assert s.players[0].vp == 5 // 2


def test_cowboy_vp_half_the_firepower_rounded_down() -> None:
    """R-ACT-9: Cowboy VP = firepower // 2 (`000` "Cowboy victory points")."""
    g = ready()
    seat = seat_of(g, "sheriff")
    g.set_player(seat, cowboys=4, revolvers=3)
    g.place_cowboys(square="cowboy_vp", seats=[seat])
    _, s = run_step(g, "cowboy_vp")
    assert s.players[seat].vp == (4 + 3) // 2


def test_estate_vp_counts_buildings_not_houses_or_mountains() -> None:
    """R-ACT-9: Estate VP = buildings on one's parcels; houses and mountains excluded (`000` "Estate victory
    points")."""
    g = ready()
    g.clear_board()
    g.put(2, 2, owner=0, content="ranch")
    g.put(3, 2, owner=0, content="church")
    g.put(4, 2, owner=0, content="house")
    g.put(5, 2, owner=0, content="mountain")
    g.put(6, 2, owner=0)
    g.put(7, 2, owner=1, content="bank")
    g.put(7, 7, content="house")
    g.set_player(0, buildings=("saloon",))  # in reserve: not on a parcel
    g.place_cowboys(square="estate_vp", seats=[0])
    _, s = run_step(g, "estate_vp")
    assert s.players[0].vp == 2


# --- R-ACT-10 ----------------------------------------------------------------------------------------------------


def test_buy_vp_any_number_at_the_square_price() -> None:
    """R-ACT-10: the winner buys any number of VP they can pay for, 0 allowed, at the square's price (`000`
    "Buying victory points", RULING B15)."""
    for square, price in BUY_VP.items():
        g = ready()
        g.set_player(0, money=13, vp=0)
        g.place_cowboys(square=square, seats=[0])
        run_step(g, square)
        assert g.awaiting == "buy_vp"
        assert sorted(m["count"] for m in g.moves()) == list(range(13 // price + 1))
        g.act({"type": "buy_vp", "count": 2})
        assert (g.state.players[0].money, g.state.players[0].vp) == (13 - 2 * price, 2)


def test_buy_vp_squares_blocked_by_the_round_counter() -> None:
    """R-ACT-10: round 1 all four squares, round 2 $3-$5, round 3 $4-$5, round 4 $5 only (RULING B15)."""
    open_by_round = {1: {2, 3, 4, 5}, 2: {3, 4, 5}, 3: {4, 5}, 4: {5}}
    for rnd, prices in open_by_round.items():
        g = ready()
        g.with_state(round=rnd)
        seat = g.to_act[0]
        offered = {BUY_VP[sq] for sq in square_placements(g, seat) if sq in BUY_VP}
        assert offered == prices, rnd


def test_buy_vp_with_too_little_money_buys_nothing() -> None:
    """R-ACT-10: with less than the price, 0 VP is the only possibility, so the action passes without a question
    (RULING B10, B15)."""
    g = ready()
    g.set_player(0, money=4, vp=0)
    g.place_cowboys(square="buy_vp_5", seats=[0])
    events, s = run_step(g, "buy_vp_5")
    assert events_of(events, "action_declined")
    assert (s.players[0].money, s.players[0].vp) == (4, 0)


# --- R-ACT-11 ----------------------------------------------------------------------------------------------------


def test_duel_winner_may_decline_the_action() -> None:
    """R-ACT-11: the winner of a duel may decline; their cowboy still leaves the square (`000` "Actions", RULING
    B10). Firepower is shaped so that the duel's outcome does not depend on the dice."""
    g = ready()
    g.set_player(0, money=20, vp=0, cowboys=10, revolvers=20)
    g.set_player(1, money=20, vp=0, cowboys=0, revolvers=0)
    g.place_cowboys(square="buy_vp_2", seats=[1, 0])
    events, _ = run_step(g, "buy_vp_2")
    (duel,) = events_of(events, "duel_fought")
    assert duel["winner"] == 0
    assert g.awaiting == "buy_vp"
    assert {"type": "buy_vp", "count": 0} in g.moves()
    g.act({"type": "buy_vp", "count": 0})
    assert (g.state.players[0].money, g.state.players[0].vp) == (20, 0)
    assert "buy_vp_2" not in g.state.squares


def test_building_purchase_may_be_declined() -> None:
    """R-ACT-11: the winner of a construction square may leave the building on the square (`000` "Actions",
    RULING B10, B11)."""
    g = ready()
    building = g.state.construction[0]
    g.set_player(0, money=20)
    g.place_cowboys(square="build_3", seats=[0])
    run_step(g, "build_3")
    assert g.awaiting == "buy_building"
    assert {"type": "decline"} in g.moves()
    g.act({"type": "decline"})
    assert g.state.construction[0] == building
    assert g.state.players[0].money == 20
    assert g.state.players[0].buildings == ()
