"""The Outlaws (`001` "Outlaws"; RULINGS G4, G14, G15; decisions D47-D56): R-OUT-1 .. R-OUT-6, R-OUT-8.

Boards are emptied and shaped by hand; the incomes used are the plain ones of `000` "Buildings": a hotel earns $6,
a saloon $5 per house value around it (owner-free houses count for everyone, RULING B13). Moves and steps go
through the real core.
"""

from __future__ import annotations

import pytest

from app.rules import player_view
from app.rules.board import INNER, NEIGHBOURS, SIDES, parcel_index
from app.rules.catalog import OUTLAW_COUNT, OUTLAW_MEEPLES, OUTLAW_VP
from app.rules.city_hall import city_hall_sites
from app.rules.construction import build_sites, buildable_roads, house_targets, owner_free_land
from app.rules.decide import advance
from app.rules.events import Event
from app.rules.income import estate_payments
from app.rules.model import replace
from app.rules.outlaws import arrival, current_income
from app.rules.rng import Rng
from app.rules.scoring import final_scores
from app.rules.townhouses import townhouse_targets
from tests.rules.builders import SEED, Game, events_of
from tests.rules.scenarios import CARDS, run_step

OUTLAWS = ["outlaws"]


def town(players: int = 3, **variants: object) -> Game:
    """Round 1's placement with the Outlaws, an empty board and the four roads around (4, 4)."""
    g = Game(players, expansions=variants.pop("expansions", OUTLAWS), **variants)
    g.claim_starts([(x, 1) for x in range(1, 9)])
    g.choose(CARDS)
    g.clear_board()
    g.with_state(roads=frozenset(SIDES[parcel_index(4, 4)]), passing_order=tuple(range(players)))
    return g


def outlaw(g: Game, x: int, y: int, strength: int = 10) -> None:
    """An outlaw on (x, y) (after `put`, which lays a fresh parcel), every outlaw of `strength` (decision D48)."""
    parcels = list(g.state.parcels)
    parcels[parcel_index(x, y)] = replace(parcels[parcel_index(x, y)], outlaw=True)
    g.with_state(parcels=tuple(parcels), outlaw_strength=strength)


def has_outlaw(g: Game, x: int, y: int) -> bool:
    return g.state.parcels[parcel_index(x, y)].outlaw


def move_outlaws(g: Game) -> list[Event]:
    """Open the outlaws' movement, as right after an arrival, and run the flow to the next decision."""
    g.with_state(outlaws_moved=frozenset(), step="personalities")
    new, g.state = advance(g.state, Rng(g.seed, g.state.seq))
    g.events += new
    return new


def moves_of(events: list[Event]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return [((e["x"], e["y"]), (e["to"]["x"], e["to"]["y"])) for e in events_of(events, "outlaw_moved")]


def round_two(g: Game) -> list[Event]:
    """End round 1 (everyone passed) and run the flow into round 2 up to the first personality choice."""
    g.set_player(0, money=0)
    g.set_player(1, money=0)
    g.set_player(2, money=0)
    return g.resume_at("round_end")


# --- R-OUT-1 arrival ----------------------------------------------------------------------------------------------


def test_no_outlaw_arrives_in_round_one_nor_without_the_expansion() -> None:
    """R-OUT-1 (`001` "Outlaws": "At the beginning of the second, third and fourth round"): a new game has none;
    a base game never has any, round 2 included."""
    g = town()
    assert not events_of(g.events, "outlaws_arrived") and g.state.outlaw_strength is None
    base = Game(3)
    base.claim_starts()
    base.choose(CARDS)
    assert not events_of(round_two(base), "outlaws_arrived") and base.state.round == 2


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_outlaws_arrive_at_the_start_of_round_two_before_the_personalities(seed: int) -> None:
    """R-OUT-1 (`001` "Outlaws", RULING G4): before the personalities of round 2 the black die + 7 is the strength,
    the white die the count (1-2: 1, 3-4: 2, 5-6: 3), and each outlaw lands where two dice name a parcel of the
    inner 6 x 6 (white -> column + 1, black -> row + 1, RULING B1); every die is in the event."""
    g = town(seed=seed)
    events = round_two(g)
    (arrived,) = events_of(events, "outlaws_arrived")
    assert arrived["round"] == 2 and arrived["strength"] == arrived["black"] + 7
    assert len(arrived["parcels"]) == {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}[arrived["white"]]
    # On an empty board only another outlaw refuses a parcel: the kept rolls are the first roll naming a new parcel.
    kept: list[dict[str, int]] = []
    for white, black in arrived["dice"]:
        spot = {"x": white + 1, "y": black + 1}
        if spot not in kept:
            kept.append(spot)
    assert kept == arrived["parcels"]
    assert events.index(events_of(events, "round_ended")[0]) < events.index(arrived)
    assert g.state.round == 2 and g.awaiting == "personality" and g.state.outlaw_strength == arrived["strength"]
    assert not any(p.personality for p in g.state.players)
    assert all(has_outlaw(g, spot["x"], spot["y"]) for spot in arrived["parcels"])  # no building: nobody moved


class Dice(Rng):
    """A generator whose first dice are given: the outlaw tile's black and white dice, then whatever follows."""

    def __init__(self, *dice: int) -> None:
        super().__init__(SEED, 0)
        self._dice = list(dice)

    def die(self) -> int:
        return self._dice.pop(0) if self._dice else super().die()


@pytest.mark.parametrize(("white", "count"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_the_white_die_says_how_many_outlaws_arrive(white: int, count: int) -> None:
    """R-OUT-1 (`001` "Outlaws": "A result of 1 or 2 means that only 1 outlaw arrives, a result of 3 or 4 indicates
    2 outlaws and a result of 5 or 6 means that 3 outlaws arrive in town"; RULING G4): every face of the white die,
    on an empty board; the black die 4 gives strength 11."""
    g = town()
    g.with_state(round=2)
    arrived = arrival(g.state, Dice(4, white))
    assert (arrived["black"], arrived["white"], arrived["strength"]) == (4, white, 11)
    assert len(arrived["parcels"]) == count


def test_arrivals_are_rolled_again_onto_an_outlaw_or_next_to_a_prison() -> None:
    """R-OUT-1 (`001`: "Throw the dice again if the indicated location is already occupied by another outlaw;
    there is an adjacent prison building"), decision D47: a prison itself or a mountain may be named."""
    g = town()
    g.put(3, 3, owner=1, content="prison")
    g.put(6, 6, owner=2, content="prison")
    g.put(5, 3, content="mountain")
    outlaw(g, 2, 6)
    g.with_state(round=2)
    refused = {parcel_index(2, 6)} | set(NEIGHBOURS[parcel_index(3, 3)]) | set(NEIGHBOURS[parcel_index(6, 6)])
    landed: set[int] = set()
    rerolled = 0
    for n in range(60):
        event = arrival(g.state, Rng(n, 0))
        spots = [parcel_index(p["x"], p["y"]) for p in event["parcels"]]
        assert len(set(spots)) == len(spots) and not refused & set(spots)
        assert set(spots) <= set(INNER)
        rerolled += len(event["dice"]) - len(spots)
        landed |= set(spots)
    assert rerolled > 0
    assert parcel_index(5, 3) in landed  # a mountain is no reason to roll again (D47)


def test_a_prison_itself_may_be_named_when_no_other_prison_is_next_to_it() -> None:
    """Decision D47: only a prison *next to* the parcel refuses it; an outlaw can arrive on a prison."""
    g = town()
    g.put(4, 4, owner=1, content="prison")
    g.with_state(round=2)
    named = set()
    for n in range(150):
        named |= {parcel_index(p["x"], p["y"]) for p in arrival(g.state, Rng(n, 0))["parcels"]}
    assert parcel_index(4, 4) in named


def test_the_supply_of_nine_meeples_always_covers_the_arrivals() -> None:
    """R-OUT-1, decision D47: 9 meeples (`001` "Components"), at most 3 in each of rounds 2-4; arrivals never
    exceed what the supply holds."""
    assert OUTLAW_MEEPLES == 9 and max(OUTLAW_COUNT.values()) * 3 == OUTLAW_MEEPLES
    g = town()
    for x, y in ((2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (2, 3), (3, 3)):
        outlaw(g, x, y)
    g.with_state(round=2)
    for n in range(20):
        assert len(arrival(g.state, Rng(n, 0))["parcels"]) <= 1
    assert player_view(g.state, None)["outlaws"]["reserve"] == 1


def test_every_outlaw_takes_the_strength_of_the_tile_on_the_board() -> None:
    """Decision D48 (`001`: "The total strength of an outlaw is indicated on the outlaw tile placed on the game
    board at the start of the round"): an outlaw from round 2 has round 3's strength once round 3's tile is down."""
    g = town()
    g.with_state(round=2, outlaw_round=2)
    outlaw(g, 2, 2, strength=8)
    events = round_two(g)  # ends round 2: round 3's outlaws arrive
    (arrived,) = events_of(events, "outlaws_arrived")
    assert arrived["round"] == 3
    view = player_view(g.state, None)
    shown = [p["outlaw"] for p in view["board"]["parcels"] if p["outlaw"]]
    assert shown and all(o == {"strength": arrived["strength"], "vp": arrived["strength"] // 2} for o in shown)


# --- R-OUT-6 jail -------------------------------------------------------------------------------------------------


def test_an_outlaw_starting_a_round_on_a_prison_is_jailed_before_the_new_ones_arrive() -> None:
    """R-OUT-6 (`001` "Churches and Prisons"), decision D49: at the start of round 3 the outlaw on a prison goes
    back to the supply and the prison's owner takes the VP of the tile on the board (strength 11 -> 5, RULING G4),
    before round 3's outlaws arrive."""
    g = town()
    g.with_state(round=2, outlaw_round=2)
    g.put(5, 5, owner=1, content="prison")
    outlaw(g, 5, 5, strength=11)
    vp = g.state.players[1].vp
    events = round_two(g)
    (jailed,) = events_of(events, "outlaw_jailed")
    assert jailed == {"type": "outlaw_jailed", "x": 5, "y": 5, "seat": 1, "vp": 5}
    assert events.index(jailed) < events.index(events_of(events, "outlaws_arrived")[0])
    assert g.state.players[1].vp == vp + 5 and g.state.players[1].outlaw_vp == 5


def test_an_outlaw_next_to_a_prison_is_not_jailed() -> None:
    """R-OUT-6: only an outlaw *on* a prison is jailed."""
    g = town()
    g.with_state(round=2, outlaw_round=2)
    g.put(5, 5, owner=1, content="prison")
    outlaw(g, 5, 6)
    assert not events_of(round_two(g), "outlaw_jailed")


# --- R-OUT-2 movement ---------------------------------------------------------------------------------------------


def saloon_row(g: Game) -> None:
    """A hotel of seat 0 on (2, 3) earning $6 and a saloon of seat 1 on (4, 3) with the owner-free houses on
    (4, 2) and (4, 4): $10."""
    g.put(2, 3, owner=0, content="hotel")
    g.put(4, 3, owner=1, content="saloon")
    g.put(4, 2, content="house")
    g.put(4, 4, content="house")


def test_an_outlaw_steps_to_the_neighbouring_building_with_the_highest_income() -> None:
    """R-OUT-2 (`001` "Movements of the Outlaws"): from (3, 3) the saloon ($10) beats the hotel ($6)."""
    g = town()
    saloon_row(g)
    outlaw(g, 3, 3)
    events = move_outlaws(g)
    assert moves_of(events) == [((3, 3), (4, 3))] and has_outlaw(g, 4, 3) and not has_outlaw(g, 3, 3)
    assert events_of(events, "outlaws_settled") and g.state.outlaws_moved is None


def test_an_outlaw_ignores_buildings_next_to_a_prison_or_holding_another_outlaw() -> None:
    """R-OUT-2 (`001`: "an outlaw does not take into account a building which is adjacent to a prison, or
    buildings where another outlaw is already present")."""
    g = town()
    saloon_row(g)
    g.put(5, 4, owner=2, content="prison")  # next to the saloon
    outlaw(g, 3, 3)
    assert moves_of(move_outlaws(g)) == [((3, 3), (2, 3))]
    g = town()
    saloon_row(g)
    outlaw(g, 4, 3)  # on the saloon, where nothing better is around: stays
    outlaw(g, 3, 3)
    assert moves_of(move_outlaws(g)) == [((3, 3), (2, 3))]


def test_an_outlaw_stays_on_the_best_building_or_where_nothing_around_earns() -> None:
    """R-OUT-2, decision D50: on the saloon ($10) beside the hotel ($6) it stays; beside a church only
    ($0) it stays."""
    g = town()
    saloon_row(g)
    g.put(3, 3, owner=0, content="hotel")
    outlaw(g, 4, 3)
    g.put(7, 7, owner=2, content="church")
    outlaw(g, 6, 6)
    assert moves_of(move_outlaws(g)) == []


@pytest.mark.parametrize(("neighbour", "moves"), [("hotel", False), ("saloon", True)])
def test_an_outlaw_stays_beside_an_equal_income_and_moves_for_a_higher_one(neighbour: str, moves: bool) -> None:
    """R-OUT-2 (`001` "Movements of the Outlaws": "If this outlaw is already situated on the building with the
    highest income, he does not move"), decision D50 ("stays when its own parcel earns at least as much as the best
    neighbour"): on a hotel of seat 0 ($6) beside seat 1's hotel ($6) it stays; beside seat 1's saloon with an
    owner-free house ($5) and a second one ($10 > $6, `000` "Saloon") it moves. The boundary is the equal income."""
    g = town()
    g.put(3, 3, owner=0, content="hotel")
    g.put(4, 3, owner=1, content=neighbour)
    if neighbour == "saloon":
        g.put(5, 2, content="house")
        g.put(5, 3, content="house")
    outlaw(g, 3, 3)
    assert current_income(g.state, parcel_index(3, 3)) == 6
    assert current_income(g.state, parcel_index(4, 3)) == (10 if moves else 6)
    assert moves_of(move_outlaws(g)) == ([((3, 3), (4, 3))] if moves else [])
    assert has_outlaw(g, 4, 3) is moves and has_outlaw(g, 3, 3) is not moves


def test_a_tie_is_drawn_at_random_and_recorded() -> None:
    """R-OUT-2 (`001`: "when several available buildings have equally high incomes, randomly decide"): two
    hotels at $6 — the draw is written into the event with the tied parcels."""
    seen = set()
    for seed in range(1, 12):
        g = town(seed=seed)
        g.put(2, 3, owner=0, content="hotel")
        g.put(4, 3, owner=1, content="hotel")
        outlaw(g, 3, 3)
        (moved,) = events_of(move_outlaws(g), "outlaw_moved")
        assert moved["tied"] == [{"x": 2, "y": 3}, {"x": 4, "y": 3}] and moved["to"] in moved["tied"]
        seen.add((moved["to"]["x"], moved["to"]["y"]))
    assert seen == {(2, 3), (4, 3)}


def test_the_first_player_orders_the_moves_when_two_outlaws_would_move() -> None:
    """R-OUT-2 (`001`: "The player who is currently first in turn order decides in which order the outlaws
    move"), RULING G4, decision D50: two outlaws want the saloon; the one picked first takes it, the other then
    goes to its best free building."""
    for first, expected in (((5, 3), [((5, 3), (4, 3)), ((3, 3), (2, 3))]),
                            ((3, 3), [((3, 3), (4, 3)), ((5, 3), (6, 3))])):
        g = town()
        saloon_row(g)
        g.put(6, 3, owner=2, content="hotel")
        outlaw(g, 3, 3)
        outlaw(g, 5, 3)
        assert moves_of(move_outlaws(g)) == []
        assert g.awaiting == "outlaw_order" and g.to_act == (g.state.choosing_order[0],)
        assert {(m["x"], m["y"]) for m in g.moves()} == {(3, 3), (5, 3)}
        events = g.act({"type": "move_outlaw", "x": first[0], "y": first[1]})
        assert moves_of(events) == expected
        assert events_of(events, "outlaw_moved")[0]["seat"] == g.state.choosing_order[0]


# --- R-OUT-3 effects ----------------------------------------------------------------------------------------------


def test_a_parcel_with_an_outlaw_cannot_be_bought_claimed_or_built_on() -> None:
    """R-OUT-3 (`001` "Effects of the Outlaws": "cannot be bought nor can there be houses or buildings built"):
    no claim (starting parcel, Settler, picks), no building, no house, no City Hall."""
    g = town()
    g.put(3, 4, owner=0)
    g.put(5, 4, owner=0)
    g.set_player(0, buildings=("hotel",))
    free_before = set(owner_free_land(g.state.parcels))
    sites_before = set(build_sites(g.state, 0, "hotel", frozenset()))
    houses_before = set(house_targets(g.state, 0, frozenset()))
    assert {parcel_index(3, 4), parcel_index(5, 4)} <= sites_before and parcel_index(4, 5) in houses_before
    outlaw(g, 4, 5)
    outlaw(g, 3, 4)
    assert set(owner_free_land(g.state.parcels)) == free_before - {parcel_index(4, 5)}
    assert parcel_index(3, 4) not in build_sites(g.state, 0, "hotel", frozenset())
    assert set(house_targets(g.state, 0, frozenset())) == houses_before - {parcel_index(4, 5), parcel_index(3, 4)}
    assert parcel_index(4, 5) not in city_hall_sites(g.state) and parcel_index(5, 5) in city_hall_sites(g.state)


def test_a_house_under_an_outlaw_does_not_become_a_townhouse() -> None:
    """R-OUT-3 with Gold & Guns (RULING G6): a townhouse is built, so not under an outlaw."""
    g = town(expansions=["gold_and_guns", "outlaws"])
    g.put(4, 4, owner=0, content="house")
    for index in NEIGHBOURS[parcel_index(4, 4)]:
        g.put(index % 8 + 1, index // 8 + 1, owner=1)
    assert townhouse_targets(g.state, 0) == [parcel_index(4, 4)]
    outlaw(g, 4, 4)
    assert townhouse_targets(g.state, 0) == []


def test_an_outlaw_never_stops_a_road() -> None:
    """Decision D56: a road lies on an edge (RULING B3), not on a parcel."""
    g = town()
    g.set_player(0, roads=2)
    before = buildable_roads(g.state, 0)
    outlaw(g, 4, 5)
    outlaw(g, 5, 4)
    assert buildable_roads(g.state, 0) == before


def test_a_building_with_an_outlaw_earns_half_and_its_neighbours_are_not_affected() -> None:
    """R-OUT-3 (`001`: "loses half of its income (the remaining income is rounded down). An outlaw does not
    affect adjacent buildings"): a hotel's $6 becomes $3, a saloon's $15 becomes $7, the next hotel keeps $6."""
    g = town()
    g.put(2, 3, owner=0, content="hotel")
    g.put(3, 3, owner=1, content="hotel")
    g.put(6, 6, owner=2, content="saloon")
    for x, y in ((5, 5), (6, 5), (7, 5)):
        g.put(x, y, content="house")
    outlaw(g, 2, 3)
    outlaw(g, 6, 6)
    paid = {(p["x"], p["y"]): p for p in estate_payments(g.state)}
    assert paid[2, 3]["owner_gets"] == 3 and paid[2, 3]["outlaw"]
    assert paid[6, 6]["owner_gets"] == 7
    assert paid[3, 3]["owner_gets"] == 6 and "outlaw" not in paid[3, 3]


def test_the_grocer_doubles_what_a_building_with_an_outlaw_earns() -> None:
    """Decision D55: the halving first ($6 -> $3), then the yellow Grocer's doubling ($6)."""
    g = town()
    g.put(2, 3, owner=0, content="hotel")
    g.set_player(0, personality="grocer", card_option="double:hotel")
    g.with_state(sides={**g.state.sides, "grocer": "yellow"})
    outlaw(g, 2, 3)
    (paid,) = estate_payments(g.state)
    assert paid["income"] == 3 and paid["doubled"] and paid["owner_gets"] == 6


def test_the_views_show_the_outlaws_and_no_price_under_them() -> None:
    """R-OUT-3 and the API ("With expansions"): `outlaw` per parcel, `price` null under one, the tile's strength
    and the supply; none of these fields without the expansion."""
    g = town()
    outlaw(g, 3, 3, strength=13)
    view = player_view(g.state, 0)
    parcels = {(p["x"], p["y"]): p for p in view["board"]["parcels"]}
    assert parcels[3, 3]["outlaw"] == {"strength": 13, "vp": OUTLAW_VP[13]} and OUTLAW_VP[13] == 6
    assert parcels[3, 3]["price"] is None and parcels[3, 4]["price"] is not None and parcels[3, 4]["outlaw"] is None
    assert view["outlaws"] == {"strength": 13, "reserve": 8}
    base = Game(3)
    base_view = player_view(base.state, 0)
    assert "outlaws" not in base_view and "outlaw" not in base_view["board"]["parcels"][0]


# --- R-OUT-4 fights -----------------------------------------------------------------------------------------------


def test_cowboys_may_go_to_any_parcel_with_an_outlaw_to_fight_it() -> None:
    """R-OUT-4 (`001`: "It is possible to put a cowboy on a parcel of land or a building which has an outlaw on
    it"), decision D52: another player's land, a church-protected building, one's own church; never the white
    cowboy, never the river."""
    g = town()
    seat = g.state.holder("sheriff", "yellow")
    assert seat is not None
    g.with_state(turn=seat, white_cowboy=True)
    other = (seat + 1) % 3
    g.set_player(seat, cowboys=3)
    g.put(2, 2, owner=other)  # another player's empty land
    g.put(6, 2, owner=other, content="hotel")
    g.put(7, 2, owner=other, content="church")  # protects the hotel from attacks
    g.put(2, 7, owner=seat, content="church")
    g.put(7, 7, river=True)
    targets = {(2, 2), (6, 2), (2, 7), (7, 7)}

    def placements(kind: str) -> set[tuple[int, int]]:
        return {(m["x"], m["y"]) for m in g.moves(seat) if m["type"] == kind and "x" in m}

    assert not targets & placements("place_cowboy")
    assert (2, 7) not in placements("place_white_cowboy")
    for x, y in targets:
        outlaw(g, x, y)
    assert placements("place_cowboy") & targets == {(2, 2), (6, 2), (2, 7)}
    assert not placements("place_white_cowboy") & targets  # the white cowboy never duels (RULING B6)
    assert (3, 3) in placements("place_white_cowboy")


def fighter(g: Game, seat: int, firepower: int) -> None:
    """`seat` with exactly `firepower` (no cowboy in reserve, `firepower` revolvers, no card bonus here)."""
    g.set_player(seat, cowboys=0, revolvers=firepower)


def test_a_lone_cowboy_weaker_than_the_outlaw_loses_and_goes_home() -> None:
    """R-OUT-4 (`001`: "the strength of the best player ... has to be equal to or higher than the strength of
    the outlaw ... Any defeated cowboys are returned to the personal reserves"): firepower 1 + a die < 13."""
    g = town()
    g.put(3, 3, owner=1, content="hotel")
    outlaw(g, 3, 3, strength=13)
    fighter(g, 0, 1)
    g.place_cowboys(xy=(3, 3), seats=[0])
    events, state = run_step(g, "estate_income")
    (fought,) = events_of(events, "outlaw_fought")
    assert fought["winner"] is None and fought["strength"] == 13 and fought["duelists"][0]["strength"] <= 7
    assert state.parcels[parcel_index(3, 3)].outlaw and state.players[0].cowboys == 1
    assert not state.parcel_cowboys.get(parcel_index(3, 3))
    paid = {(p["x"], p["y"]): p for p in events_of(events, "estate_income_paid")[0]["payments"]}
    assert paid[3, 3]["owner_gets"] == 3  # still halved: the outlaw stays


def test_the_best_player_beats_the_outlaw_and_the_others_lose_the_duel() -> None:
    """R-OUT-4: the players there duel as usual; the best one (firepower 20) reaches the outlaw's 13 and wins;
    the other goes back to the reserve; the beaten outlaw leaves the board (`001`: "returned to the general
    reserve"). On land, only the VP can be taken (decision D54): at once."""
    g = town()
    outlaw(g, 3, 3, strength=13)
    fighter(g, 0, 20)
    fighter(g, 1, 0)
    g.place_cowboys(xy=(3, 3), seats=[1, 0])
    vp = g.state.players[0].vp
    events, state = run_step(g, "estate_income")
    (fought,) = events_of(events, "outlaw_fought")
    assert fought["winner"] == 0 and {d["seat"] for d in fought["duelists"]} == {0, 1}
    (reward,) = events_of(events, "outlaw_reward_taken")
    assert reward == {"type": "outlaw_reward_taken", "x": 3, "y": 3, "seat": 0, "reward": "vp", "vp": 6,
                      "automatic": "only_move"}
    assert not state.parcels[parcel_index(3, 3)].outlaw and state.players[1].cowboys == 1
    assert state.players[0].vp == vp + 6 and state.players[0].cowboys == 0  # the winner's cowboy left the board
    assert state.parcels[parcel_index(3, 3)].owner is None  # nothing was bought (decision D53)


def test_when_nobody_reaches_the_outlaw_every_cowboy_loses() -> None:
    """R-OUT-4 (`001`: "there is only one winner of a duel, either one player or the outlaw")."""
    g = town()
    outlaw(g, 3, 3, strength=13)
    fighter(g, 0, 1)
    fighter(g, 1, 0)
    g.place_cowboys(xy=(3, 3), seats=[0, 1])
    events, state = run_step(g, "estate_income")
    assert events_of(events, "outlaw_fought")[0]["winner"] is None
    assert state.players[0].cowboys == 1 and state.players[1].cowboys == 1 and state.parcels[parcel_index(3, 3)].outlaw


@pytest.mark.parametrize(("revolvers", "wins"), [(7, True), (6, False)])
def test_strength_equal_to_the_outlaws_wins(revolvers: int, wins: bool) -> None:
    """R-OUT-4 ("equal to or higher"), with Might Is Right's tile instead of the die (RULING V2): tile 3 +
    firepower 7 = 10 beats an outlaw of 10; 3 + 6 does not."""
    g = town(might_is_right=True)
    outlaw(g, 3, 3, strength=10)
    fighter(g, 0, revolvers)
    g.set_player(0, tiles=(3,))
    g.place_cowboys(xy=(3, 3), seats=[0])
    events, _ = run_step(g, "estate_income")
    (fought,) = events_of(events, "outlaw_fought")
    assert fought["duelists"][0]["tile"] == 3 and fought["duelists"][0]["strength"] == 3 + revolvers
    assert (fought["winner"] == 0) is wins


def test_a_cowboy_on_an_outlaws_parcel_does_not_buy_it() -> None:
    """Decision D53: at the parcel purchase the cowboy on an owner-free parcel with an outlaw is not offered the
    parcel (R-OUT-3); it fights at the estate income."""
    g = town()
    outlaw(g, 3, 3, strength=8)
    g.set_player(0, money=30)
    fighter(g, 0, 10)
    g.place_cowboys(xy=(3, 3), seats=[0])
    _, state = run_step(g, "parcel_purchase")
    assert g.awaiting != "buy_parcel" and not events_of(g.events, "parcel_bought")
    assert state.parcels[parcel_index(3, 3)].owner is None and state.parcel_cowboys[parcel_index(3, 3)]
    assert events_of(g.events, "outlaw_fought")


def test_outlaw_fights_are_ordered_with_the_duels_by_the_earliest_passer() -> None:
    """R-OUT-8 (RULING G15: "Fights against outlaws are duels (`001` "performed like a duel in the basic game"):
    when several duels and fights wait, the earliest passer among the players involved chooses the order, as B9
    says"; `001`: "resolved before the income phase of the buildings"; decision D51): the lone attack on (7, 7)
    comes first; then seat 2, who passed first, picks among both fights and the contested hotel, and again among
    what is left; everything is fought before the incomes."""
    g = town()
    g.put(6, 6, owner=1, content="hotel")
    g.put(7, 7, owner=1, content="hotel")
    outlaw(g, 5, 5, strength=13)
    outlaw(g, 2, 2, strength=13)
    fighter(g, 0, 0)
    fighter(g, 2, 0)
    g.place_cowboys(xy=(5, 5), seats=[0])
    g.place_cowboys(xy=(2, 2), seats=[2])
    g.place_cowboys(xy=(6, 6), seats=[1, 2])
    g.place_cowboys(xy=(7, 7), seats=[0])
    first = len(g.events)
    g.resume_at("estate_income", passing_order=(2, 0, 1))
    assert g.awaiting == "choose_duel" and g.to_act == (2,)
    assert g.moves() == [{"type": "resolve_duel", "x": 2, "y": 2}, {"type": "resolve_duel", "x": 5, "y": 5},
                         {"type": "resolve_duel", "x": 6, "y": 6}]
    g.act({"type": "resolve_duel", "x": 6, "y": 6})
    assert g.awaiting == "choose_duel" and g.to_act == (2,)
    g.act({"type": "resolve_duel", "x": 5, "y": 5})
    events = g.events[first:]
    duels = [e for e in events if e["type"] in ("outlaw_fought", "duel_fought")]
    assert [(e["type"], e.get("target", e)["x"], e.get("target", e)["y"]) for e in duels] == [
        ("duel_fought", 6, 6), ("outlaw_fought", 5, 5), ("outlaw_fought", 2, 2)]
    lone = events.index({"type": "attack_won", "x": 7, "y": 7, "seat": 0})
    paid = events.index(events_of(events, "estate_income_paid")[0])
    assert lone < events.index(duels[0]) and events.index(duels[-1]) < paid


def city_hall_with_outlaw(occupant: int | None) -> Game:
    """Gold & Guns and the Outlaws: the City Hall on (5, 5) with an outlaw of 8 on it, occupied by `occupant`'s
    cowboy kept from an earlier round (RULING G2)."""
    g = town(expansions=["gold_and_guns", "outlaws"])
    g.put(5, 5, content="city_hall")
    g.with_state(city_hall=parcel_index(5, 5))
    outlaw(g, 5, 5, strength=8)
    if occupant is not None:
        g.place_cowboys(xy=(5, 5), seats=[occupant])
    return g


def test_an_outlaw_on_the_city_hall_is_fought_and_its_winner_occupies_it() -> None:
    """R-OUT-8 (RULING G14: "`001` "put a cowboy on a parcel of land or a building which has an outlaw on it in
    order to fight the outlaw": an outlaw on the City Hall can be fought like any other"; decisions D52, D53):
    the City Hall is offered once to a player; the challenger and the occupant fight the outlaw, and no City
    Hall duel is fought; the winner takes the tile's VP at once (the City Hall is nobody's building, D54) and
    occupies the City Hall (RULING G2: "the winner stays as occupant"); the beaten occupant goes home."""
    g = city_hall_with_outlaw(occupant=1)
    g.with_state(turn=0)
    g.set_player(0, cowboys=1)
    assert g.moves(0).count({"type": "place_cowboy", "x": 5, "y": 5}) == 1
    fighter(g, 0, 20)
    fighter(g, 1, 0)
    g.place_cowboys(xy=(5, 5), seats=[0])
    vp, home = g.state.players[0].vp, g.state.players[1].cowboys
    events, state = run_step(g, "estate_income")
    (fought,) = events_of(events, "outlaw_fought")
    assert (fought["x"], fought["y"], fought["winner"]) == (5, 5, 0)
    assert sorted(d["seat"] for d in fought["duelists"]) == [0, 1] and not events_of(events, "duel_fought")
    (reward,) = events_of(events, "outlaw_reward_taken")
    assert reward["reward"] == "vp" and state.players[0].vp == vp + 4
    assert not state.parcels[parcel_index(5, 5)].outlaw and state.players[1].cowboys == home + 1
    assert player_view(state, None)["city_hall"] == {"x": 5, "y": 5, "occupant": 0}


def test_an_outlaw_beating_the_city_halls_occupant_leaves_it_empty() -> None:
    """R-OUT-8 (RULING G14), R-OUT-4 (`001`: "Any defeated cowboys are returned to the personal reserves"): alone
    on the City Hall with an outlaw, the occupant fights it; beaten, its cowboy goes home and the outlaw stays."""
    g = city_hall_with_outlaw(occupant=1)
    fighter(g, 1, 0)
    g.with_state(outlaw_strength=13)
    home = g.state.players[1].cowboys
    events, state = run_step(g, "estate_income")
    (fought,) = events_of(events, "outlaw_fought")
    assert (fought["x"], fought["y"], fought["winner"]) == (5, 5, None)
    assert state.parcels[parcel_index(5, 5)].outlaw and state.players[1].cowboys == home + 1
    assert parcel_index(5, 5) not in state.parcel_cowboys
    assert player_view(state, None)["city_hall"]["occupant"] is None


# --- R-OUT-5 reward -----------------------------------------------------------------------------------------------


def beaten_on_hotel(g: Game) -> None:
    """Seat 0 beats an outlaw of 10 on seat 1's hotel ($6)."""
    g.put(3, 3, owner=1, content="hotel")
    outlaw(g, 3, 3, strength=10)
    fighter(g, 0, 20)
    g.place_cowboys(xy=(3, 3), seats=[0])
    run_step(g, "estate_income")


def test_the_winner_may_take_the_tiles_vp() -> None:
    """R-OUT-5 (`001`: "he can claim the number of victory points as indicated on the outlaw tile"; RULING G4:
    strength // 2): 5 VP, kept as the score's `outlaws` part; the hotel, freed, earns its full $6."""
    g = town()
    beaten_on_hotel(g)
    assert g.awaiting == "outlaw_reward" and g.to_act == (0,)
    assert g.moves() == [{"type": "outlaw_reward", "reward": "vp"}, {"type": "outlaw_reward", "reward": "income"}]
    vp, money = g.state.players[0].vp, g.state.players[1].money
    events = g.act({"type": "outlaw_reward", "reward": "vp"})
    assert g.state.players[0].vp == vp + 5 and g.state.players[0].outlaw_vp == 5
    paid = {(p["x"], p["y"]): p for p in events_of(events, "estate_income_paid")[0]["payments"]}
    assert paid[3, 3]["owner_gets"] == 6 and paid[3, 3]["attacker"] is None
    assert g.state.players[1].money >= money + 6


def test_the_winner_may_take_half_the_buildings_income_instead() -> None:
    """R-OUT-5 (`001`: "the cowboy can remain in the building he has liberated.. and take half of its income"),
    decision D54: $3 of the hotel's $6, as an attacker takes it."""
    g = town()
    beaten_on_hotel(g)
    vp = g.state.players[0].vp
    events = g.act({"type": "outlaw_reward", "reward": "income"})
    paid = {(p["x"], p["y"]): p for p in events_of(events, "estate_income_paid")[0]["payments"]}
    assert paid[3, 3]["attacker"] == 0 and paid[3, 3]["attacker_gets"] == 3 and paid[3, 3]["owner_gets"] == 3
    assert g.state.players[0].vp == vp and not g.state.parcels[parcel_index(3, 3)].outlaw


def test_on_ones_own_building_the_vp_are_taken_at_once() -> None:
    """Decision D54 (and D1): half of one's own income is no choice."""
    g = town()
    g.put(3, 3, owner=0, content="hotel")
    outlaw(g, 3, 3, strength=12)
    fighter(g, 0, 20)
    g.place_cowboys(xy=(3, 3), seats=[0])
    events, _ = run_step(g, "estate_income")
    assert events_of(events, "outlaw_reward_taken")[0]["reward"] == "vp"


def test_outlaw_vp_are_a_score_part_of_their_own() -> None:
    """R-OUT-5 and the API's score part `outlaws`: VP won from outlaws leave `during_game`; the total is the same."""
    g = town()
    g.set_player(0, vp=9, outlaw_vp=5)
    scores, _ = final_scores(g.state)
    assert scores[0]["outlaws"] == 5 and scores[0]["during_game"] == 4
    assert scores[0]["total"] == sum(v for k, v in scores[0].items() if k != "total")
    base = Game(3)
    base_scores, _ = final_scores(replace(base.state, passing_order=(0, 1, 2)))
    assert "outlaws" not in base_scores[0]


def test_the_red_sheriff_fights_outlaws_only_on_his_own_buildings_and_scores_for_a_lost_fight() -> None:
    """Decision D52 with `000` red Sheriff ("not allowed to ... engage in a duel (except to defend your own
    building)"; "for every lost duel you receive 3 victory points"): a fight is a duel (`001`)."""
    g = town(sides="red")
    seat = g.state.holder("sheriff", "red")
    assert seat is not None
    other = (seat + 1) % 3
    g.with_state(turn=seat)
    g.set_player(seat, cowboys=3)
    g.put(2, 2, owner=seat, content="hotel")
    g.put(6, 2, owner=other, content="hotel")
    for x, y in ((2, 2), (6, 2), (3, 5)):
        outlaw(g, x, y, strength=13)
    offered = {(m["x"], m["y"]) for m in g.moves(seat) if m["type"] == "place_cowboy" and "x" in m}
    assert (2, 2) in offered and (6, 2) not in offered and (3, 5) not in offered
    fighter(g, seat, 0)
    g.place_cowboys(xy=(2, 2), seats=[seat])
    vp = g.state.players[seat].vp
    events, state = run_step(g, "estate_income")
    assert events_of(events, "outlaw_fought")[0]["winner"] is None and state.players[seat].vp == vp + 3


def test_the_yellow_gunsmith_scores_for_an_outlaw_beaten() -> None:
    """R-GG-7 (`001` "The Gunsmith (10)": "2 victory points for each duel you win this turn (including those
    against an Outlaw)"): beating an outlaw gives the yellow Gunsmith's holder 2 VP at once, beside the reward."""
    g = town(expansions=["outlaws", "gold_and_guns"])
    g.set_player(0, personality="gunsmith")
    g.put(3, 3, content="mountain")
    outlaw(g, 3, 3, strength=8)
    fighter(g, 0, 20)
    g.place_cowboys(xy=(3, 3), seats=[0])
    vp = g.state.players[0].vp
    events, state = run_step(g, "estate_income")
    (fought,) = events_of(events, "outlaw_fought")
    assert fought["winner"] == 0 and fought["winner_vp"] == 2
    reward = events_of(events, "outlaw_reward_taken")[0]["vp"]  # on land only the VP are offered (D54)
    assert state.players[0].vp == vp + 2 + reward
