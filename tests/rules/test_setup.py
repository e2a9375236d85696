"""Game setup (`000` "Game Setup"; RULINGS B1, B18, B19): the board, the centre, the mountains, the
construction squares, the players' starting resources and the starting-parcel draft."""

from __future__ import annotations

from collections import Counter

import pytest

from app.rules import GameConfig, IllegalMove, new_game, replay, start_game, to_act
from app.rules.board import parcel_index
from app.rules.catalog import CONSTRUCTION_SQUARES
from tests.rules.builders import Game, events_of

SEEDS = range(1, 41)

# `000` "Game Content": the 30 buildings in the box.
BOX = {"ranch": 6, "mine": 6, "drugstore": 4, "bank": 4, "saloon": 3, "hotel": 3, "church": 2, "prison": 2}


def _event(g: Game, event_type: str) -> dict:
    (event,) = events_of(g.events, event_type)
    return event


def _xy(item: dict) -> tuple[int, int]:
    return item["x"], item["y"]


def _dice_parcel(white: int, black: int) -> tuple[int, int]:
    """RULING B1: white die d -> column d + 1, black die d -> row d + 1."""
    return white + 1, black + 1


# --- R-SET-1: board and centre ---------------------------------------------------------------------------------


def test_board_is_eight_by_eight() -> None:
    """R-SET-1: the board has 8 x 8 parcels (RULING B1)."""
    g = Game(3)
    assert len(g.state.parcels) == 64
    assert parcel_index(1, 1) == 0 and parcel_index(8, 8) == 63


@pytest.mark.parametrize("seed", SEEDS)
def test_centre_is_rolled_on_the_inner_six_by_six(seed: int) -> None:
    """R-SET-1: the centre is the parcel at the column of the white die and the row of the black die, on the
    inner 6 x 6 (`000` "Game Setup", RULING B1); a house stands on it."""
    g = Game(3, seed)
    centre = _event(g, "centre_placed")
    white, black = centre["dice"]
    assert 1 <= white <= 6 and 1 <= black <= 6
    assert (centre["x"], centre["y"]) == _dice_parcel(white, black)
    assert 2 <= centre["x"] <= 7 and 2 <= centre["y"] <= 7
    index = parcel_index(centre["x"], centre["y"])
    assert g.state.centre == index
    assert g.state.parcels[index].content == "house"
    assert g.state.parcels[index].owner is None


def test_centre_varies_with_the_seed() -> None:
    """R-SET-1: the centre is determined by rolling the dice (`000` "Game Setup"), so different games have
    different centres."""
    centres = {_xy(_event(Game(3, seed), "centre_placed")) for seed in SEEDS}
    assert len(centres) > 5


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_centre_has_a_road_on_each_of_its_four_sides(seed: int) -> None:
    """R-SET-1: four roads are placed along the centre house, one per side (`000` "Game Setup", RULING B3);
    they are the only roads on the board at the start and come from the 20-house / 25-road supplies (B18)."""
    g = Game(3, seed)
    x, y = _xy(_event(g, "centre_placed"))
    # Parcel (x, y) has the grid corners (x-1, y-1), (x, y-1), (x-1, y), (x, y).
    expected = {
        (x - 1, y - 1, x, y - 1),  # north
        (x - 1, y, x, y),  # south
        (x - 1, y - 1, x - 1, y),  # west
        (x, y - 1, x, y),  # east
    }
    assert set(g.state.roads) == expected
    assert g.state.houses == 20 - 1


# --- R-SET-2: mountains ----------------------------------------------------------------------------------------


def _replay_mountain_dice(centre: tuple[int, int], dice: list[list[int]]) -> list[tuple[int, int]]:
    """Where the mountains go by the rule: each roll names a parcel; an occupied result is rolled again."""
    taken = {centre}
    placed = []
    for white, black in dice:
        parcel = _dice_parcel(white, black)
        if parcel not in taken:
            taken.add(parcel)
            placed.append(parcel)
    return placed


@pytest.mark.parametrize("seed", SEEDS)
def test_nine_mountains_by_dice(seed: int) -> None:
    """R-SET-2: 9 mountains are placed using the dice as for the centre; an occupied result is rolled again
    (`000` "Game Setup", RULING B1)."""
    g = Game(3, seed)
    centre = _event(g, "centre_placed")
    event = _event(g, "mountains_placed")
    mountains = [(m["x"], m["y"]) for m in event["parcels"]]
    assert len(mountains) == 9 and len(set(mountains)) == 9
    assert mountains == _replay_mountain_dice((centre["x"], centre["y"]), event["dice"])
    assert all(2 <= x <= 7 and 2 <= y <= 7 for x, y in mountains)
    on_board = [(i % 8 + 1, i // 8 + 1) for i, p in enumerate(g.state.parcels) if p.content == "mountain"]
    assert sorted(on_board) == sorted(mountains)
    assert all(g.state.parcels[parcel_index(x, y)].owner is None for x, y in mountains)


def test_an_occupied_mountain_roll_is_rolled_again() -> None:
    """R-SET-2: "If the designated parcel is already occupied, the dice are rolled again" (`000` "Game Setup"):
    a game whose dice hit an occupied parcel still gets 9 mountains, and the repeated roll places nothing."""
    for seed in SEEDS:
        g = Game(3, seed)
        event = _event(g, "mountains_placed")
        if len(event["dice"]) > 9:
            break
    else:
        pytest.fail("no seed rolled an occupied parcel")
    centre = _event(g, "centre_placed")
    taken = {(centre["x"], centre["y"])}
    rerolls = 0
    for white, black in event["dice"]:
        parcel = _dice_parcel(white, black)
        if parcel in taken:
            rerolls += 1
        taken.add(parcel)
    assert rerolls == len(event["dice"]) - 9 > 0
    assert len(event["parcels"]) == 9


# --- R-SET-3: construction squares and bag ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_construction_squares_at_setup(seed: int) -> None:
    """R-SET-3: a ranch on the $3 and $10 squares, a mine on the $4 and $12 squares, three buildings drawn from
    the bag on $5, $6 and $8; the bag keeps the rest of the 30 buildings (`000` "Game Setup", "Game Content",
    RULING B18)."""
    g = Game(3, seed)
    by_price = {c.price: building for c, building in zip(CONSTRUCTION_SQUARES, g.state.construction, strict=True)}
    assert sorted(by_price) == [3, 4, 5, 6, 8, 10, 12]
    assert (by_price[3], by_price[10], by_price[4], by_price[12]) == ("ranch", "ranch", "mine", "mine")
    drawn = _event(g, "construction_refilled")["drawn"]
    assert drawn == [by_price[5], by_price[6], by_price[8]]
    assert all(b in BOX for b in drawn)
    expected_bag = Counter(BOX)
    expected_bag.subtract(["ranch", "ranch", "mine", "mine", *drawn])
    assert all(n >= 0 for n in expected_bag.values())
    assert dict(g.state.bag) == dict(expected_bag)
    assert sum(g.state.bag.values()) == 30 - 7


def test_the_three_setup_draws_are_random() -> None:
    """R-SET-3: the $5, $6 and $8 buildings are drawn randomly (`000` "Game Setup"), so they differ between
    games."""
    draws = {tuple(_event(Game(3, seed), "construction_refilled")["drawn"]) for seed in SEEDS}
    assert len(draws) > 5


# --- R-SET-4: starting resources -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_starting_resources(players: int) -> None:
    """R-SET-4: every player gets $15, 1 revolver, 1 road and 3 cowboys, and owns nothing yet
    (`000` "Game Setup")."""
    g = Game(players)
    assert len(g.state.players) == players
    for p in g.state.players:
        assert (p.money, p.revolvers, p.roads, p.cowboys, p.vp) == (15, 1, 1, 3, 0)
        assert p.buildings == () and p.personality is None
    assert all(parcel.owner is None for parcel in g.state.parcels)


def test_twelve_property_tiles() -> None:
    """R-SET-4: each player has 12 property tiles (`000` "Game Setup"), so a player owning 12 parcels cannot
    take a 13th: the Settler, who must take a parcel, can only decline (and the flow does it, RULING B10)."""
    g = Game(3)
    g.claim_starts()
    chooser = g.to_act[0]
    for x, y in [(x, y) for y in range(1, 9) for x in (7, 8)][:10]:  # + the two starting parcels
        g.put(x, y, owner=chooser)
    assert sum(1 for p in g.state.parcels if p.owner == chooser) == 12
    new = g.act({"type": "choose_personality", "card": "settler"})
    assert not events_of(new, "parcel_claimed")
    assert events_of(new, "card_decision_declined") == [
        {"type": "card_decision_declined", "seat": chooser, "automatic": "only_move"}]
    assert sum(1 for p in g.state.parcels if p.owner == chooser) == 12


def test_eleven_parcels_leave_one_tile() -> None:
    """R-SET-4: with 11 parcels a player still has a 12th property tile (`000` "Game Setup"), so the Settler may
    take a parcel."""
    g = Game(3)
    g.claim_starts()
    chooser = g.to_act[0]
    for x, y in [(x, y) for y in range(1, 9) for x in (7, 8)][:9]:
        g.put(x, y, owner=chooser)
    assert sum(1 for p in g.state.parcels if p.owner == chooser) == 11
    g.act({"type": "choose_personality", "card": "settler"})
    assert g.awaiting == "settler"
    assert any(m["type"] == "claim_parcel" for m in g.moves())


# --- R-SET-5: initial order and starting parcels ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_initial_order_is_a_random_permutation(players: int) -> None:
    """R-SET-5: "For the first turn, randomly choose the turn order" (`000` "Game Setup")."""
    orders = {Game(players, seed).state.initial_order for seed in SEEDS}
    assert all(sorted(order) == list(range(players)) for order in orders)
    assert len({order[0] for order in orders}) == players  # every seat starts in some game
    assert len(orders) > 1


@pytest.mark.parametrize("players", [2, 3, 5])
def test_starting_parcels_first_to_last_then_last_to_first(players: int) -> None:
    """R-SET-5: each player in turn order chooses a parcel, then from the last player back to the first each
    chooses a second one (`000` "Game Setup", RULING B19)."""
    g = Game(players, 7)
    order = g.state.initial_order
    asked = []
    free = [(x, y) for y in (1, 8) for x in range(1, 9)]
    while g.awaiting == "start_parcel":
        asked.append(g.to_act[0])
        x, y = free.pop()
        g.act({"type": "claim_parcel", "x": x, "y": y})
    assert asked == [*order, *reversed(order)]
    for seat in range(players):
        assert sum(1 for p in g.state.parcels if p.owner == seat) == 2
    # Round 1 then starts with the choice of personalities in the initial order (`000` "How To Play").
    assert (g.state.round, g.awaiting, g.to_act) == (1, "personality", (order[0],))


def test_any_owner_free_parcel_may_be_a_starting_parcel() -> None:
    """R-SET-5: any parcel may be chosen, a mountain or the centre included (`000` "Game Setup", RULING B19)."""
    g = Game(3)
    moves = g.moves()
    claimable = {(m["x"], m["y"]) for m in moves}
    assert claimable == {(x, y) for x in range(1, 9) for y in range(1, 9)}
    cx, cy = _xy(_event(g, "centre_placed"))
    mx, my = _xy(_event(g, "mountains_placed")["parcels"][0])
    first = g.to_act[0]
    g.act({"type": "claim_parcel", "x": cx, "y": cy})
    second = g.to_act[0]
    g.act({"type": "claim_parcel", "x": mx, "y": my})
    centre, mountain = g.state.parcels[parcel_index(cx, cy)], g.state.parcels[parcel_index(mx, my)]
    assert (centre.owner, centre.content) == (first, "house")  # the tile goes under the house
    assert (mountain.owner, mountain.content) == (second, "mountain")


def test_a_claimed_parcel_cannot_be_claimed_again() -> None:
    """R-SET-5: starting parcels are owner-free parcels (RULING B19): a parcel already chosen is refused."""
    g = Game(3)
    g.act({"type": "claim_parcel", "x": 1, "y": 1})
    assert {"type": "claim_parcel", "x": 1, "y": 1} not in g.moves()
    before = g.state
    with pytest.raises(IllegalMove) as error:
        g.act({"type": "claim_parcel", "x": 1, "y": 1})
    assert error.value.code == "parcel_taken"
    assert g.state == before


def test_river_parcels_are_not_starting_parcels() -> None:
    """R-SET-5: a river parcel may not be chosen as a starting parcel (RULING B19; `000` "The River": "It is
    neither allowed to buy a river parcel ...")."""
    g = Game(3)
    g.put(1, 6, river=True)
    assert {"type": "claim_parcel", "x": 1, "y": 6} not in g.moves()
    assert len(g.moves()) == 63
    with pytest.raises(IllegalMove) as error:
        g.act({"type": "claim_parcel", "x": 1, "y": 6})
    assert error.value.code == "river_parcel"


# --- start_game: the setup and the state it leads to ------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "variants"),
    [(2, {}), (4, {"might_is_right": True, "river": True}), (5, {"expansions": ["gold_and_guns", "outlaws"]}),
     (6, {"expansions": ["big_box"], "horses": True, "new_beginning": True})],
)
def test_start_game_hands_out_the_state_its_setup_events_replay_to(players: int, variants: dict) -> None:
    """R-SET-1: `start_game` gives `new_game`'s very events (`000` "Game Setup") and, with them, the state a
    replay of those events reaches, awaiting the same decision: the simulation and the lobby play on from it
    instead of folding the setup a second time."""
    config = GameConfig.from_variants(players, variants)
    for seed in SEEDS[:10]:
        events, state = start_game(config, seed)
        assert events == new_game(config, seed)
        assert state == replay(events)
        assert to_act(state) == to_act(replay(events)) != ()
