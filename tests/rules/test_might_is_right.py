"""Might Is Right (`000` "Variants" / "Might Is Right"; RULING V2; decisions D26, D31): duel tiles instead of
dice — the deal, the secret and simultaneous choice of a tile, the reveal, the used pile and the redraw."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from app.rules import (
    GameConfig,
    GameState,
    IllegalMove,
    evolve,
    legal_moves,
    new_game,
    play,
    player_view,
    redact_event,
    replay,
    to_act,
)
from app.rules.events import Event
from app.rules.model import replace
from app.rules.rng import Rng
from tests.rules.builders import Game, events_of

# No card decision, no firepower bonus: Sheriff (1), Banker (2), Chinese Worker (4).
CARDS = ("sheriff", "banker", "chinese_worker")
SET = [0, 1, 2, 3, 4, 5]  # `000`: "6 duel tiles numbered 0 to 5"


def placing(players: int = 3, seed: int = 12345) -> Game:
    g = Game(players, seed, might_is_right=True)
    g.claim_starts()
    g.choose(CARDS[:players] if players <= 3 else (*CARDS, "mercenary")[:players])
    return g


def armed(g: Game, **hands: tuple[tuple[int, ...], int]) -> None:
    """Give seats (named s0, s1, ...) a hand of tiles and a firepower (cowboys, no revolver)."""
    for name, (tiles, power) in hands.items():
        g.set_player(int(name[1:]), tiles=tiles, cowboys=power, revolvers=0)


def fought(events: list[dict[str, Any]]) -> dict[str, Any]:
    (duel,) = events_of(events, "duel_fought")
    return duel


def duelist(duel: dict[str, Any], seat: int) -> dict[str, Any]:
    (found,) = [d for d in duel["duelists"] if d["seat"] == seat]
    return found


# --- R-VAR-2: the deal ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(1, 6))
def test_r_var_2_two_players_get_tiles_0_to_5_and_15_dollars(seed: int) -> None:
    """R-VAR-2 (`000` "Might Is Right": "For a 2 player game each receives 6 duel tiles numbered 0 to 5 and
    $15")."""
    g = Game(2, seed, might_is_right=True)
    for p in g.state.players:
        assert sorted(p.tiles) == SET
        assert p.money == 15


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r_var_2_three_to_five_players_get_six_mixed_tiles_and_30_minus_their_sum(players: int) -> None:
    """R-VAR-2 (`000` "Might Is Right": "take 6 duel tiles (from 0 to 5) per player and mix them. Each player
    receives 6 duel tiles at random ... As starting cash each player receives $30 minus that sum")."""
    uneven = False
    for seed in range(1, 16):
        g = Game(players, seed, might_is_right=True)
        (dealt,) = events_of(g.events, "tiles_dealt")
        hands = [list(p.tiles) for p in g.state.players]
        assert [sorted(h) for h in dealt["hands"]] == [sorted(h) for h in hands]
        assert all(len(hand) == 6 for hand in hands)
        assert Counter(t for hand in hands for t in hand) == Counter(SET * players)
        for p in g.state.players:
            assert p.money == 30 - sum(p.tiles)
        uneven |= any(sorted(hand) != SET for hand in hands)
    assert uneven  # mixed, not one set each


def test_r_var_2_r_web_2_a_hand_is_seen_by_its_owner_only() -> None:
    """R-VAR-2, R-WEB-2 (`000`: "keeps them secretly"; RULING V2: "other players see only how many tiles each
    player holds"): in the deal event and in the state document."""
    g = Game(3, 7, might_is_right=True)
    (dealt,) = events_of(g.events, "tiles_dealt")
    for viewer in (0, 1, 2, None):
        shown = redact_event(dealt, viewer)
        assert shown["counts"] == [6, 6, 6]
        view = player_view(g.state, viewer)
        for seat in range(3):
            mine = seat == viewer
            assert (shown["hands"][seat] is not None) == mine
            assert view["players"][seat]["tile_count"] == 6
            assert (view["players"][seat]["tiles"] == list(g.state.players[seat].tiles)) if mine \
                else view["players"][seat]["tiles"] is None


# --- R-VAR-3: the duel ----------------------------------------------------------------------------------------


def test_r_var_3_duellists_choose_a_tile_at_the_same_time_and_in_secret() -> None:
    """R-VAR-3 (`000`: "each player challenged at a duel chooses and plays a duel tile"; RULING V2: "chosen
    secretly and revealed together"): both duellists are awaited at once, each among their own tiles; a chosen
    tile is hidden from everyone else (event and view) until the duel is fought."""
    g = placing()
    armed(g, s0=((0, 1, 4, 5), 3), s1=((2, 3), 4))
    g.place_cowboys(square="three_roads", seats=[0, 1])
    g.resume_at("three_roads", (0, 1, 2))
    assert g.awaiting == "duel_tile"
    assert g.to_act == (0, 1)
    assert g.moves(0) == [{"type": "play_tile", "tile": t} for t in (0, 1, 4, 5)]
    assert g.moves(1) == [{"type": "play_tile", "tile": t} for t in (2, 3)]
    assert g.moves(2) == []
    with pytest.raises(IllegalMove):
        g.move(0, {"type": "play_tile", "tile": 3})  # not in seat 0's hand

    (chosen,) = g.move(1, {"type": "play_tile", "tile": 3})
    assert chosen == {"type": "duel_tile_chosen", "seat": 1, "tile": 3}
    assert not events_of(g.events, "duel_fought")
    assert g.to_act == (0,)
    with pytest.raises(IllegalMove):
        g.move(1, {"type": "play_tile", "tile": 2})  # chosen once
    for viewer in (0, 2, None):
        assert "tile" not in redact_event(chosen, viewer)
        row = player_view(g.state, viewer)["players"][1]
        assert row["duel_tile_chosen"] is True
        assert row["duel_tile"] is None and row["tiles"] is None
        assert row["tile_count"] == 2
    assert redact_event(chosen, 1)["tile"] == 3
    assert player_view(g.state, 1)["players"][1]["duel_tile"] == 3
    assert player_view(g.state, 1)["players"][0]["duel_tile_chosen"] is False


def test_r_var_3_tiles_are_revealed_together_and_add_to_firepower() -> None:
    """R-VAR-3 (`000`: the tile "adds that number of points to their firepower", instead of a die; RULING V2):
    the `duel_fought` event shows every tile at once; the higher strength wins; no die is rolled."""
    g = placing()
    armed(g, s0=((0, 1, 4, 5), 3), s1=((2, 3), 4))
    g.place_cowboys(square="three_roads", seats=[0, 1])
    g.resume_at("three_roads", (1, 0, 2))
    g.move(0, {"type": "play_tile", "tile": 5})
    events = g.move(1, {"type": "play_tile", "tile": 3})
    duel = fought(events)
    assert duelist(duel, 0) == {"seat": 0, "tile": 5, "firepower": 3, "strength": 8}
    assert duelist(duel, 1) == {"seat": 1, "tile": 3, "firepower": 4, "strength": 7}
    assert duel["winner"] == 0
    assert redact_event(duel, 2) == duel  # public once fought
    assert events_of(events, "roads_gained")[0]["seat"] == 0  # the winner takes the action


def test_r_var_3_a_tie_goes_to_the_earliest_passer() -> None:
    """R-VAR-3 with RULING B8 (a tie goes to the tied player who passed earliest): tiles change only what is
    added to firepower."""
    g = placing()
    armed(g, s0=((2, 4), 3), s1=((1, 4), 3))
    g.place_cowboys(square="three_roads", seats=[0, 1])
    g.resume_at("three_roads", (2, 1, 0))
    g.move(0, {"type": "play_tile", "tile": 4})
    duel = fought(g.move(1, {"type": "play_tile", "tile": 4}))
    assert duelist(duel, 0)["strength"] == duelist(duel, 1)["strength"] == 7
    assert duel["winner"] == 1


def test_r_var_3_played_tiles_go_to_the_used_pile_shown_as_a_count() -> None:
    """R-VAR-3 (`000`: "Duel tiles are discarded after use to make a new stockpile"; RULING V2: "the used pile
    is shown only as a count"): the played tiles leave the hands for the used pile, whose size everyone sees."""
    g = placing()
    armed(g, s0=((0, 1, 4, 5), 3), s1=((2, 3), 4))
    g.with_state(used_tiles=(2,))
    g.place_cowboys(square="three_roads", seats=[0, 1])
    g.resume_at("three_roads", (0, 1, 2))
    g.move(0, {"type": "play_tile", "tile": 1})
    g.move(1, {"type": "play_tile", "tile": 2})
    assert g.state.players[0].tiles == (0, 4, 5)
    assert g.state.players[1].tiles == (3,)
    assert sorted(g.state.used_tiles) == [1, 2, 2]
    for viewer in (0, 1, 2, None):
        view = player_view(g.state, viewer)
        assert view["used_tile_count"] == 3 and "used_tiles" not in view
        assert [row["tile_count"] for row in view["players"]] == [3, 1, len(g.state.players[2].tiles)]


def test_d31_a_lone_tile_plays_without_asking() -> None:
    """D31 (with D1, RULING B10): a duellist holding a single tile has no choice, and everyone sees how many tiles
    a hand holds (RULING V2), so the tile is played for them; the other duellist is still asked."""
    g = placing()
    armed(g, s0=((2,), 3), s1=((1, 5), 3))
    g.place_cowboys(square="three_roads", seats=[0, 1])
    events = g.resume_at("three_roads", (0, 1, 2))
    assert {"type": "duel_tile_chosen", "seat": 0, "tile": 2, "automatic": "only_move"} in events
    assert g.to_act == (1,)


def test_d31_several_tiles_of_one_value_are_still_asked() -> None:
    """D31, RULING V2 (revised: "nobody can work out which tiles another player drew"): a hand of several tiles of
    one value is asked like any other, so the table cannot tell it from a hand with a real choice."""
    g = placing()
    armed(g, s0=((2, 2), 3), s1=((1, 5), 3))
    g.place_cowboys(square="three_roads", seats=[0, 1])
    events = g.resume_at("three_roads", (0, 1, 2))
    assert not [e for e in events if e["type"] == "duel_tile_chosen"]
    assert g.awaiting == "duel_tile" and g.to_act == (0, 1)
    assert legal_moves(g.state, 0) == [{"type": "play_tile", "tile": 2}]


def test_d31_every_player_in_a_three_way_duel_chooses() -> None:
    """D31 (RULING V2): every player in the duel chooses a tile, all at the same time."""
    g = placing()
    armed(g, s0=((0, 5), 1), s1=((0, 5), 1), s2=((0, 5), 1))
    g.place_cowboys(square="three_roads", seats=[2, 0, 1])
    g.resume_at("three_roads", (0, 1, 2))
    assert g.awaiting == "duel_tile" and g.to_act == (2, 0, 1)
    g.move(1, {"type": "play_tile", "tile": 5})
    g.move(2, {"type": "play_tile", "tile": 0})
    duel = fought(g.move(0, {"type": "play_tile", "tile": 0}))
    assert [d["tile"] for d in duel["duelists"]] == [0, 0, 5]
    assert duel["winner"] == 1


def test_r_var_3_d26_an_empty_hand_draws_three_from_the_used_pile() -> None:
    """R-VAR-3, D26 (`000`: "When a player has no duel tiles left, they take three new ones at random from the
    stockpile"; RULING V2: "draw recorded"): the draw is written into `tiles_drawn`, comes out of the used
    pile (the tiles just played included), and only its owner sees the tiles."""
    drew_just_played = False
    for seed in range(1, 21):
        g = placing(seed=seed)
        armed(g, s0=((3,), 3), s1=((1, 4), 3))
        g.with_state(used_tiles=(0, 5, 5))
        g.place_cowboys(square="three_roads", seats=[0, 1])
        events = g.resume_at("three_roads", (0, 1, 2))  # seat 0 plays its last tile without asking (D31)
        events += g.move(1, {"type": "play_tile", "tile": 1})
        (drawn,) = events_of(events, "tiles_drawn")
        assert drawn["seat"] == 0 and len(drawn["tiles"]) == 3
        pile = Counter([0, 5, 5, 3, 1])  # the pile after the duel
        assert not Counter(drawn["tiles"]) - pile
        assert sorted(g.state.players[0].tiles) == sorted(drawn["tiles"])
        assert Counter(g.state.used_tiles) == pile - Counter(drawn["tiles"])
        assert g.state.players[1].tiles == (4,)  # a hand that is not empty draws nothing
        drew_just_played |= bool({1, 3} & set(drawn["tiles"]))
        for viewer in (1, 2, None):
            shown = redact_event(drawn, viewer)
            assert "tiles" not in shown and shown["count"] == 3
            assert player_view(g.state, viewer)["players"][0]["tile_count"] == 3
        assert redact_event(drawn, 0)["tiles"] == drawn["tiles"]
    assert drew_just_played


def _other_draws(after: GameState, draw: Event) -> list[tuple[GameState, Event]]:
    """Every other draw the same seat could have made from the same used pile: the state right after it (the
    hand and the used pile changed consistently) and its `tiles_drawn` event."""
    seat, drawn = draw["seat"], Counter(draw["tiles"])
    pile = Counter(after.used_tiles) + drawn  # the used pile before the draw
    kept = Counter(after.players[seat].tiles) - drawn
    worlds = []
    for other in sorted(set(combinations(sorted(pile.elements()), len(draw["tiles"])))):
        if Counter(other) == drawn:
            continue
        players = list(after.players)
        players[seat] = replace(players[seat], tiles=tuple(sorted((kept + Counter(other)).elements())))
        world = replace(after, players=tuple(players), used_tiles=tuple(sorted((pile - Counter(other)).elements())))
        worlds.append((world, {**draw, "tiles": list(other)}))
    return worlds


def test_r_var_3_nobody_can_tell_which_tiles_another_player_drew() -> None:
    """R-VAR-3, R-WEB-2 (RULING V2, revised 2026-12-01: "the used pile is shown only as a count, so that nobody
    can work out which tiles another player drew"): at every redraw of many random games, every other draw the
    same seat could have made from the same pile gives every other viewer the same view and the same redacted
    event, while the drawing player sees their own new hand."""
    checked = 0
    for players in (3, 5):
        chooser = random.Random(f"might-{players}")
        for _ in range(4):
            seed = chooser.randrange(10**6)
            state = replay(new_game(GameConfig.from_variants(players, {"might_is_right": True}), seed))
            while state.status != "finished":
                seat = chooser.choice(to_act(state))
                before = state
                new, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
                after = before
                for event in new:
                    after = evolve(after, event)
                    if event["type"] != "tiles_drawn":
                        continue
                    drawer = event["seat"]
                    own = player_view(after, drawer)["players"][drawer]
                    assert own["tiles"] == sorted(after.players[drawer].tiles)
                    viewers = [None, *(v for v in range(players) if v != drawer)]
                    for world, told in _other_draws(after, event):
                        for viewer in viewers:
                            assert player_view(world, viewer) == player_view(after, viewer)
                            assert redact_event(told, viewer) == redact_event(event, viewer)
                        checked += 1
    assert checked >= 10


def test_d26_with_fewer_than_three_in_the_pile_the_hand_takes_them_all() -> None:
    """D26: "with fewer than three there, they take them all"."""
    g = placing()
    armed(g, s0=((3,), 3), s1=((2, 4), 3))
    g.place_cowboys(square="three_roads", seats=[0, 1])
    events = g.resume_at("three_roads", (0, 1, 2))
    events += g.move(1, {"type": "play_tile", "tile": 2})
    (drawn,) = events_of(events, "tiles_drawn")
    assert sorted(drawn["tiles"]) == [2, 3]
    assert g.state.used_tiles == ()


def test_r_var_3_parcel_duels_wait_for_tiles_after_the_duel_order_is_chosen() -> None:
    """R-VAR-3 with RULING B9 / D4 (the earliest passer among those involved picks the order of the parcel
    duels): the pick starts no duel by itself; the duellists of the picked parcel then choose their tiles."""
    g = placing()
    g.clear_board()
    armed(g, s0=((0, 5), 2), s1=((0, 5), 2), s2=((0, 5), 2))
    g.place_cowboys(xy=(2, 2), seats=[0, 1])
    g.place_cowboys(xy=(6, 6), seats=[1, 2])
    g.resume_at("parcel_purchase", (2, 0, 1))
    assert g.awaiting == "choose_duel" and g.to_act == (2,)
    events = g.act({"type": "resolve_duel", "x": 6, "y": 6})
    assert not events_of(events, "duel_fought")
    assert g.awaiting == "duel_tile" and g.to_act == (1, 2)
    g.move(1, {"type": "play_tile", "tile": 5})
    duel = fought(g.move(2, {"type": "play_tile", "tile": 0}))
    assert duel["target"] == {"x": 6, "y": 6} and duel["winner"] == 1
    events = g.move(1, {"type": "decline_parcel", "x": 6, "y": 6})
    # The other parcel's duel: seat 1 has only the 0 left and plays it without asking (D31).
    assert {"type": "duel_tile_chosen", "seat": 1, "tile": 0, "automatic": "only_move"} in events
    assert g.awaiting == "duel_tile" and g.to_act == (0,)
    duel = fought(g.move(0, {"type": "play_tile", "tile": 5}))
    assert duel["target"] == {"x": 2, "y": 2} and duel["winner"] == 0


def test_r_var_3_attack_duels_are_fought_with_tiles() -> None:
    """R-VAR-3 (`000` "Estate income / attacks on buildings": a defended attack is a duel) with tiles: the
    attacker who wins takes half the income (rounded down)."""
    g = placing()
    g.clear_board()
    g.put(6, 6, owner=1, content="hotel")
    armed(g, s0=((1, 5), 4), s1=((0, 2), 2))
    g.place_cowboys(xy=(6, 6), seats=[1, 0])
    g.resume_at("estate_income", (0, 1, 2))
    assert g.awaiting == "duel_tile" and g.to_act == (1, 0)
    g.move(1, {"type": "play_tile", "tile": 2})
    events = g.move(0, {"type": "play_tile", "tile": 5})
    duel = fought(events)
    assert duel["target"] == {"x": 6, "y": 6} and duel["winner"] == 0
    assert events_of(events, "attack_won")[0]["seat"] == 0
    (paid,) = events_of(events, "estate_income_paid")[0]["payments"]
    assert (paid["owner_gets"], paid["attacker"], paid["attacker_gets"]) == (3, 0, 3)  # hotel $6 (`000`)


def test_d31_the_white_cowboy_never_duels() -> None:
    """D31 (RULING B6: nobody may join the white cowboy): the Sheriff's white cowboy takes its square's action
    with no tile to choose."""
    g = placing()
    sheriff = g.state.holder("sheriff")
    assert sheriff is not None
    g.place_cowboys(square="three_roads", seats=[sheriff], white=True)
    events = g.resume_at("three_roads")
    assert not events_of(events, "duel_tile_chosen") and not events_of(events, "duel_fought")
    assert events_of(events, "roads_gained")[0]["seat"] == sheriff
