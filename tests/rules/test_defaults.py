"""The move made for a player whose clock ran out (issue "Asynchronous play": "the safest legal default move
for that seat (pass, decline, deny, give up only the required money)"): it never spends or gives away anything
while a move that costs nothing is listed."""

from __future__ import annotations

import random

import pytest

from app.rules import GameConfig, GameState, default_move, legal_moves, new_game, play, replay, to_act
from app.rules.board import SIDES, parcel_index
from app.rules.moves import Move
from app.rules.rng import Rng
from app.rules.shop import shopping_revealed
from tests.rules.builders import Game
from tests.rules.test_construction import bought, town


def test_default_is_always_legal_and_games_finish_on_defaults_alone() -> None:
    """R-WEB-1: a whole game played only by default moves finishes, every default being a listed move."""
    for players, variants in ((2, {}), (4, {"sides": "vote", "might_is_right": True, "river": True,
                                            "new_beginning": True})):
        config = GameConfig.from_variants(players, variants)
        state = replay(new_game(config, 5))
        while state.status != "finished":
            seat = to_act(state)[0]
            move = default_move(state, seat)
            assert move is not None and move in legal_moves(state, seat)
            _, state = play(state, seat, move, Rng(5, state.seq))
        assert default_move(state, 0) is None


def test_default_passes_in_placement_and_declines_purchases() -> None:
    g = Game(2)
    g.claim_starts()
    g.choose(["banker", "mercenary"])
    assert default_move(g.state, g.to_act[0]) == {"type": "pass"}
    g.place_cowboys(square="buy_vp_2", seats=[0])
    g.set_player(0, money=20)
    g.resume_at("buy_vp_2")
    assert default_move(g.state, 0) == {"type": "buy_vp", "count": 0}


def test_default_gives_up_only_the_required_money() -> None:
    g = Game(2)
    g.claim_starts()
    g.choose(["sheriff", "banker"])
    sheriff = g.state.holder("sheriff")
    assert sheriff is not None
    g.set_player(sheriff, money=37)
    g.resume_at("cash_limit")
    assert default_move(g.state, sheriff) == {"type": "give_up_money", "amount": 17}


def test_default_denies_a_permission_request() -> None:
    chooser = random.Random(3)
    config = GameConfig.from_variants(3, {})
    for seed in range(40):
        state = replay(new_game(config, seed))
        while state.status != "finished":
            seat = chooser.choice(to_act(state))
            moves = legal_moves(state, seat)
            if any(m["type"] == "deny_remaining" for m in moves):
                assert default_move(state, seat) == {"type": "deny_remaining"}
                return
            _, state = play(state, seat, chooser.choice(moves), Rng(seed, state.seq))
    raise AssertionError("no permission request arose in 40 random games")


def test_a_builder_with_roads_places_the_house_and_spends_no_road() -> None:
    """R-CON-3, R-CON-4 (RULINGS B4, B11): once the building stands, its house may go on a reached free parcel at
    no cost, so the default move places it there instead of spending one of the builder's roads."""
    g = town()
    g.put(5, 5, owner=0)
    bought(g, "saloon")
    g.set_player(0, roads=3)
    g.act({"type": "place_building", "building": "saloon", "x": 5, "y": 5})
    assert g.awaiting == "construct" and any(m["type"] == "place_road" for m in g.moves())
    money = g.state.players[0].money
    move = default_move(g.state, 0)
    assert move is not None and move["type"] == "place_house"
    g.act(move)
    assert g.state.work is None  # the construction is finished
    assert g.state.players[0].roads == 3 and g.state.players[0].money >= money


def _holdings(s: GameState, seat: int) -> tuple[int, ...]:
    """What `seat` owns — money, VP, roads, cowboys in reserve, revolvers — with an A New Beginning basket
    counted as already paid for (it is paid when the baskets are revealed, RULING V4)."""
    p = s.players[seat]
    (basket,) = [b for b in shopping_revealed(s)["baskets"] if b["seat"] == seat]
    items = basket["items"]
    return (p.money + basket["money"], p.vp + basket["vp"], p.roads + basket["roads"],
            p.cowboys + items.get("cowboy", 0), p.revolvers + items.get("revolver", 0))


def _costs_nothing(before: GameState, after: GameState, seat: int) -> bool:
    """Whether `seat` has no less of anything after a move (and the automatic flow after it) than before."""
    return all(now >= was for now, was in zip(_holdings(after, seat), _holdings(before, seat), strict=True))


def _outcome(s: GameState, seat: int, move: Move, seed: int) -> GameState:
    return play(s, seat, move, Rng(seed, s.seq))[1]


@pytest.mark.parametrize(("players", "variants"), [
    (2, {"sides": "yellow"}),
    (3, {"sides": "red"}),
    (5, {"sides": "random"}),
    (3, {"sides": "vote", "might_is_right": True, "river": True, "new_beginning": True}),
])
def test_the_default_move_costs_nothing_whenever_some_move_does(players: int, variants: dict[str, object]) -> None:
    """The safest default (issue "Asynchronous play"): at every decision of random games, for every awaited
    seat, if some legal move costs nothing (no money, VP, roads, cowboys or revolvers given up), the default move
    is one of those."""
    chooser = random.Random(f"defaults-{players}-{sorted(variants)}")
    config = GameConfig.from_variants(players, variants)
    paid = 0  # decisions where the random player gave something up: the games did offer costs to avoid
    for _ in range(6):
        seed = chooser.randrange(10**6)
        state = replay(new_game(config, seed))
        while state.status != "finished":
            for seat in to_act(state):
                default = default_move(state, seat)
                assert default is not None
                if _costs_nothing(state, _outcome(state, seat, default, seed), seat):
                    continue
                costless = [m for m in legal_moves(state, seat)
                            if _costs_nothing(state, _outcome(state, seat, m, seed), seat)]
                assert not costless, f"default {default} costs, {costless[0]} does not (seed {seed})"
            seat = chooser.choice(to_act(state))
            # Players who answer nothing ahead: a purchase answered ahead (decision D106) is made by whichever
            # move reaches it, and it is the player's own choice, not a cost of that move.
            chosen = chooser.choice([m for m in legal_moves(state, seat) if not m.get("buy")])
            before, state = state, _outcome(state, seat, chosen, seed)
            paid += not _costs_nothing(before, state, seat)
    assert paid >= 10


def test_a_timed_out_builder_keeps_the_house_for_himself_before_a_granted_parcel() -> None:
    """R-CON-6 (RULING B12: "A house on a player's parcel belongs to that parcel's owner"): the default move never
    gives anything away while it need not, so it puts the house on the builder's own parcel rather than on the
    parcel another player granted, even where the granted one is listed first."""
    from tests.rules.test_construction import permission_town

    g = permission_town()
    g.act({"type": "ask_permission", "seat": 1})
    g.move(1, {"type": "deny_remaining"})
    g.act({"type": "ask_permission", "seat": 2})
    g.move(2, {"type": "answer_permission", "x": 3, "y": 5, "grant": True})
    g.act({"type": "place_building", "building": "saloon", "x": 3, "y": 3})
    g.put(5, 5, owner=0)  # the builder now owns a free reached parcel too
    targets = [(m["x"], m["y"]) for m in g.moves() if m["type"] == "place_house"]
    assert targets.index((3, 5)) < targets.index((5, 5))  # the granted parcel is listed first
    assert default_move(g.state, 0) == {"type": "place_house", "x": 5, "y": 5}


def test_a_timed_out_builder_flips_a_townhouse_rather_than_spend_a_road() -> None:
    """R-GG-2 (RULING G6: a townhouse stands "instead of placing a new house"): where the only free way to finish
    a construction is a townhouse, the default move takes it instead of spending one of the builder's roads."""
    from tests.rules.test_gold_and_guns_buildings import gg_town, hemmed_in

    g = gg_town()
    hemmed_in(g)
    bought(g, "saloon")
    g.set_player(0, roads=3)
    g.act({"type": "place_building", "building": "saloon", "x": 6, "y": 6})
    for m in [m for m in g.moves() if m["type"] == "place_house"]:
        g.put(m["x"], m["y"], content="mountain")  # no free parcel left for a new house
    types = {m["type"] for m in g.moves()}
    assert "place_road" in types and "place_house" not in types
    assert default_move(g.state, 0) == {"type": "place_townhouse", "x": 4, "y": 4}


def test_a_timed_out_builder_flips_his_own_house_before_a_granted_one() -> None:
    """R-GG-28 (RULINGS G19, B12: a townhouse on a player's parcel is that player's): the default move turns the
    builder's own house into the townhouse rather than the house another player granted, even where the granted
    one is listed first."""
    from tests.rules.test_gold_and_guns_buildings import bought as gg_bought
    from tests.rules.test_gold_and_guns_buildings import gg_town

    g = gg_town()
    for x in range(1, 9):
        for y in range(1, 9):
            g.put(x, y, owner=1)  # every parcel owned, so every house is hemmed in and none is free for seat 0
    g.put(4, 4, owner=2, content="house")
    g.put(7, 7, owner=0, content="house")
    g.put(6, 6, owner=0)
    g.with_state(roads=g.state.roads | frozenset(SIDES[parcel_index(6, 6)]))
    gg_bought(g, "saloon")
    g.act({"type": "place_building", "building": "saloon", "x": 6, "y": 6})
    g.act({"type": "ask_permission", "seat": 2})
    g.move(2, {"type": "answer_permission", "x": 4, "y": 4, "grant": True})
    flips = [(m["x"], m["y"]) for m in g.moves() if m["type"] == "place_townhouse"]
    assert flips == [(4, 4), (7, 7)] and not [m for m in g.moves() if m["type"] == "place_house"]
    assert default_move(g.state, 0) == {"type": "place_townhouse", "x": 7, "y": 7}
