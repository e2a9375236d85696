"""Duels (`000` "Performing The Actions and Duels", "Parcel purchase", "Estate income / attacks on buildings";
RULINGS B8, B9; `003` "Comment se résout un duel ?", "Que devient un cow-boy qui perd un duel ?").

Dice are never hard-coded: either the outcome is forced by a firepower gap wider than a die can close, or the
winner is checked against the rolls written into the `duel_fought` event."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import IllegalMove
from app.rules.board import parcel_index
from tests.rules.builders import SEED, Game, events_of
from tests.rules.scenarios import seat_of

# No card decision and no firepower bonus: Sheriff (1), Banker (2), Chinese Worker (4).
CARDS = ("sheriff", "banker", "chinese_worker")
SEEDS = range(1, 61)


def placing(cards: tuple[str, ...] = CARDS, seed: int = SEED) -> Game:
    g = Game(len(cards), seed)
    g.claim_starts()
    g.choose(cards)
    return g


def duels(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return events_of(events, "duel_fought")


def duelist(fought: dict[str, Any], seat: int) -> dict[str, Any]:
    (found,) = [d for d in fought["duelists"] if d["seat"] == seat]
    return found


def expected_winner(fought: dict[str, Any], passing_order: tuple[int, ...]) -> int:
    """RULING B8: the highest strength wins; a tie goes to the tied player who passed earliest."""
    best = max(d["roll"] + d["firepower"] for d in fought["duelists"])
    tied = [d["seat"] for d in fought["duelists"] if d["roll"] + d["firepower"] == best]
    return min(tied, key=passing_order.index)


def square_duel(seed: int, seats_power: dict[int, tuple[int, int]], passing_order: tuple[int, int, int],
                square: str = "three_roads") -> tuple[Game, dict[str, Any]]:
    """A duel on `square` between the given seats with (cowboys, revolvers) each, everyone passed in
    `passing_order`."""
    g = placing(seed=seed)
    for seat, (cowboys, revolvers) in seats_power.items():
        g.set_player(seat, cowboys=cowboys, revolvers=revolvers)
    g.place_cowboys(square=square, seats=list(seats_power))
    (fought,) = duels(g.resume_at(square, passing_order))
    return g, fought


# --- R-DUE-1: strength ------------------------------------------------------------------------------------------


def test_strength_is_one_die_plus_firepower() -> None:
    """R-DUE-1: every player in a duel rolls a die and adds the revolvers and cowboys in their personal reserve
    (`000` "Performing The Actions and Duels"); every die is recorded (RULING B8)."""
    rolls = set()
    for seed in SEEDS[:20]:
        _, fought = square_duel(seed, {0: (4, 1), 1: (2, 3), 2: (7, 0)}, (0, 1, 2))
        for seat, power in ((0, 4 + 1), (1, 2 + 3), (2, 7 + 0)):
            d = duelist(fought, seat)
            assert 1 <= d["roll"] <= 6
            assert d["firepower"] == power
            assert d["strength"] == d["roll"] + power
            rolls.add(d["roll"])
    assert len(rolls) == 6  # a real die


def test_round_bonuses_add_to_firepower() -> None:
    """R-DUE-1: the 3-guns chip (+3) and the Mercenary (+3 yellow) count in a duel's firepower (RULING B8,
    B14; `000` "Ammunition", "Mercenary")."""
    g = placing(("mercenary", "banker", "chinese_worker"))
    mercenary, banker, worker = (seat_of(g, c) for c in ("mercenary", "banker", "chinese_worker"))
    for seat in (mercenary, banker, worker):
        g.set_player(seat, cowboys=2, revolvers=1)
    g.with_state(chip_holder=banker)
    g.place_cowboys(square="three_roads", seats=[mercenary, banker, worker])
    (fought,) = duels(g.resume_at("three_roads"))
    assert duelist(fought, mercenary)["firepower"] == 2 + 1 + 3
    assert duelist(fought, banker)["firepower"] == 2 + 1 + 3
    assert duelist(fought, worker)["firepower"] == 2 + 1


def test_cowboys_on_the_board_do_not_count() -> None:
    """R-DUE-1: only the cowboys still in the personal reserve count, not those placed this round, nor the
    Sheriff's white cowboy (`000` "Performing The Actions and Duels", RULING B6)."""
    g = placing()
    sheriff, banker, worker = (seat_of(g, c) for c in CARDS)
    g.act({"type": "place_white_cowboy", "square": "wages"})  # the Sheriff
    g.act({"type": "place_cowboy", "square": "ammunition"})  # the Banker
    g.act({"type": "place_cowboy", "square": "road"})  # the Chinese Worker
    g.act({"type": "place_cowboy", "square": "ammunition"})  # the Sheriff
    g.act({"type": "place_cowboy", "square": "road"})  # the Banker
    events = []
    while g.awaiting == "placement":
        events += g.act({"type": "pass"})
    (fought,) = duels(events)
    assert duelist(fought, sheriff)["firepower"] == (3 - 1) + 1
    assert duelist(fought, banker)["firepower"] == (3 - 2) + 1
    assert worker not in {d["seat"] for d in fought["duelists"]}


# --- R-DUE-2: highest wins, tie to the earliest passer ---------------------------------------------------------


@pytest.mark.parametrize("passing_order", [(0, 1, 2), (2, 1, 0), (1, 2, 0)])
def test_highest_strength_wins(passing_order: tuple[int, int, int]) -> None:
    """R-DUE-2: the winner is the player with the highest total; a tie goes to the tied player who passed
    earliest (`000` "Performing The Actions and Duels", RULING B8) — checked against the recorded dice."""
    winners = set()
    for seed in SEEDS:
        g, fought = square_duel(seed, {0: (3, 1), 1: (2, 2), 2: (1, 2)}, passing_order)
        assert fought["winner"] == expected_winner(fought, passing_order)
        winners.add(fought["winner"])
        # The winner performs the action: 3 Roads go to the winner only (`000` "3 Roads").
        gained = [e for e in events_of(g.events, "roads_gained") if e.get("square") == "three_roads"]
        assert [e["seat"] for e in gained] == [fought["winner"]]
    assert winners == {0, 1, 2}  # the dice decide


@pytest.mark.parametrize("seed", SEEDS[:15])
def test_a_firepower_gap_beyond_a_die_decides(seed: int) -> None:
    """R-DUE-2: with 6 more firepower, the stronger player wins whatever the dice (a die adds 1 to 6; `000`
    "Performing The Actions and Duels", RULING B8)."""
    _, fought = square_duel(seed, {1: (6, 1), 0: (0, 1)}, (0, 1, 2))
    assert fought["winner"] == 1


def find_tie(seats: tuple[int, int], passing_order: tuple[int, int, int]) -> dict[str, Any]:
    for seed in SEEDS:
        _, fought = square_duel(seed, {seats[0]: (3, 1), seats[1]: (3, 1)}, passing_order)
        rolls = {d["roll"] for d in fought["duelists"]}
        if len(rolls) == 1:
            return fought
    pytest.fail("no seed rolled a tie")


@pytest.mark.parametrize("passing_order", [(2, 1, 0), (2, 0, 1), (0, 2, 1), (1, 0, 2)])
def test_a_tie_goes_to_the_earliest_passer(passing_order: tuple[int, int, int]) -> None:
    """R-DUE-2: "In case of a tie, the player (among the ones involved in the tie) with the lowest turn order
    number ... is the winner (ie the player who passed earliest)" (`000` "Performing The Actions and Duels") —
    not the first to place, nor the first in placement order."""
    fought = find_tie((0, 1), passing_order)
    earliest = 0 if passing_order.index(0) < passing_order.index(1) else 1
    assert fought["winner"] == earliest
    assert [d["seat"] for d in fought["duelists"]] == [0, 1]  # seat 0 arrived first in every case


def test_a_tie_below_the_best_does_not_matter() -> None:
    """R-DUE-2: the tie-break only applies among the players tied for the highest total: a player far ahead
    wins even if they passed last (RULING B8)."""
    for seed in SEEDS[:20]:
        _, fought = square_duel(seed, {0: (2, 0), 1: (2, 0), 2: (9, 1)}, (0, 1, 2))
        assert fought["winner"] == 2


# --- R-DUE-3: losers back to the personal reserve at once --------------------------------------------------------


def test_losers_cowboys_return_to_their_reserve() -> None:
    """R-DUE-3: the losers do not perform the action; their cowboys return to their personal reserves (`000`
    "Performing The Actions and Duels"), at once — the construction square's buy decision already sees them."""
    g = placing()
    sheriff, banker, worker = (seat_of(g, c) for c in CARDS)
    g.set_player(sheriff, cowboys=9, revolvers=2)
    g.set_player(banker, cowboys=1, revolvers=0)
    g.set_player(worker, cowboys=0, revolvers=0)
    g.place_cowboys(square="build_3", seats=[banker, sheriff, worker])
    (fought,) = duels(g.resume_at("build_3"))
    assert fought["winner"] == sheriff  # 11 + die against at most 1 + 6
    assert (g.awaiting, g.to_act) == ("buy_building", (sheriff,))
    assert g.state.players[banker].cowboys == 1 + 1
    assert g.state.players[worker].cowboys == 0 + 1
    assert [c.seat for c in g.state.squares["build_3"]] == [sheriff]


def test_a_returned_cowboy_raises_firepower_in_later_duels() -> None:
    """R-DUE-3: a lost cowboy "revient dans la réserve personnelle de son propriétaire, ce qui renforce même ce
    joueur pour les duels suivants" (`003`): firepower is taken at the moment of each duel (RULING B8). The
    winner of Ammunition also has the 3-guns chip in the next duel."""
    g = placing()
    sheriff, banker, _ = (seat_of(g, c) for c in CARDS)
    g.set_player(sheriff, cowboys=9, revolvers=3)
    g.set_player(banker, cowboys=0, revolvers=1)
    g.place_cowboys(square="ammunition", seats=[sheriff, banker])
    g.place_cowboys(square="three_roads", seats=[sheriff, banker])
    first, second = duels(g.resume_at("ammunition"))
    assert first["target"] == {"square": "ammunition"} and second["target"] == {"square": "three_roads"}
    assert first["winner"] == sheriff  # 12 + die against at most 1 + 6
    assert duelist(first, banker)["firepower"] == 0 + 1
    assert duelist(second, banker)["firepower"] == (0 + 1) + 1
    assert duelist(second, sheriff)["firepower"] == 9 + 3 + 3


# --- R-DUE-4: the winner's cowboy goes to the general reserve -----------------------------------------------------


def test_winners_cowboy_leaves_after_the_action() -> None:
    """R-DUE-4: the winner's cowboy goes to the general reserve, not back to the personal reserve (`000`
    "Performing The Actions and Duels", RULING B8)."""
    g = placing()
    sheriff, banker, _ = (seat_of(g, c) for c in CARDS)
    g.set_player(sheriff, cowboys=9, revolvers=2)
    g.set_player(banker, cowboys=0, revolvers=0)
    g.set_player(sheriff, money=50)
    g.place_cowboys(square="build_3", seats=[sheriff, banker])
    g.resume_at("build_3")
    assert g.awaiting == "buy_building"
    g.act({"type": "buy_building"})
    assert g.state.players[sheriff].cowboys == 9
    assert "build_3" not in g.state.squares or not g.state.squares["build_3"]


@pytest.mark.parametrize("where", ["square", "parcel"])
def test_winners_cowboy_leaves_when_the_action_is_declined(where: str) -> None:
    """R-DUE-4: a player may decline an action even after winning the duel for it; "Regardless, their cowboy goes
    to the general reserve" (`000` "Actions", RULING B8, B10)."""
    g = placing()
    sheriff, banker, _ = (seat_of(g, c) for c in CARDS)
    g.set_player(sheriff, cowboys=9, revolvers=2)
    g.set_player(banker, cowboys=0, revolvers=0)
    g.place_cowboys(square="build_4", seats=[banker])  # a later decision, so the round stops there
    if where == "square":
        g.place_cowboys(square="build_3", seats=[banker, sheriff])
        g.resume_at("build_3")
        assert (g.awaiting, g.to_act) == ("buy_building", (sheriff,))
        g.act({"type": "decline"})
        assert not g.state.squares.get("build_3")
    else:
        g.place_cowboys(xy=(5, 8), seats=[banker, sheriff])
        g.resume_at("parcel_purchase")
        assert (g.awaiting, g.to_act) == ("buy_parcel", (sheriff,))
        g.act({"type": "decline_parcel", "x": 5, "y": 8})
        assert not g.state.parcel_cowboys.get(parcel_index(5, 8))
        assert g.state.parcels[parcel_index(5, 8)].owner is None
    assert (g.awaiting, g.to_act) == ("buy_building", (banker,))
    assert g.state.players[sheriff].cowboys == 9
    assert g.state.players[banker].cowboys == 1


# --- R-DUE-5: the order of parcel and attack duels ---------------------------------------------------------------


def test_earliest_passer_among_those_involved_picks_the_parcel_duel() -> None:
    """R-DUE-5: "If a duel must be carried out for more than one parcel purchase, the player who passed first
    decides in which order the duels will take place" (`000` "Parcel purchase") — the earliest passer among the
    players involved in such duels, each time (RULING B9)."""
    g = placing(("sheriff", "banker", "chinese_worker", "captain"))
    a, b, c, d = (seat_of(g, card) for card in ("sheriff", "banker", "chinese_worker", "captain"))
    g.place_cowboys(xy=(4, 8), seats=[a, b])
    g.place_cowboys(xy=(5, 8), seats=[a, b])
    g.place_cowboys(xy=(6, 8), seats=[b, c])
    # d passed first but is in no duel; c is the earliest passer among those involved.
    g.resume_at("parcel_purchase", (d, c, b, a))
    assert (g.awaiting, g.to_act) == ("choose_duel", (c,))
    offered = g.moves()
    assert offered == [{"type": "resolve_duel", "x": x, "y": 8} for x in (4, 5, 6)]

    new = g.act({"type": "resolve_duel", "x": 6, "y": 8})
    assert new[0] == {"type": "duel_order_chosen", "seat": c, "x": 6, "y": 8}
    (fought,) = duels(new)
    assert fought["target"] == {"x": 6, "y": 8}
    # The winner of (6, 8) decides on the purchase, then the next duel is picked again: c is no longer involved,
    # so the earliest passer among a and b picks.
    while g.awaiting == "buy_parcel":
        g.act(next(m for m in g.moves() if m["type"] == "decline_parcel"))
    assert (g.awaiting, g.to_act) == ("choose_duel", (b,))
    assert g.moves() == [{"type": "resolve_duel", "x": x, "y": 8} for x in (4, 5)]
    new = g.act({"type": "resolve_duel", "x": 5, "y": 8})
    assert [e["target"] for e in duels(new)] == [{"x": 5, "y": 8}]


def test_a_single_contested_parcel_needs_no_choice() -> None:
    """R-DUE-5: with one parcel duel left there is nothing to choose; the duel is fought at once (RULING B9,
    B10)."""
    g = placing()
    sheriff, banker, worker = (seat_of(g, c) for c in CARDS)
    g.place_cowboys(xy=(4, 8), seats=[sheriff, banker])
    g.place_cowboys(xy=(5, 8), seats=[worker])
    events = g.resume_at("parcel_purchase", (worker, banker, sheriff))
    assert not events_of(events, "duel_order_chosen")
    # The lone cowboy's purchase is decided first, then the duel is fought without a choice.
    assert (g.awaiting, g.to_act) == ("buy_parcel", (worker,))
    new = g.act({"type": "decline_parcel", "x": 5, "y": 8})
    assert [e["target"] for e in duels(new)] == [{"x": 4, "y": 8}]


def test_earliest_passer_among_those_involved_picks_the_attack_duel() -> None:
    """R-DUE-5: "If a duel must be carried out for more than one attack, the player who has passed first decides
    in which order the duels will take place" (`000` "Estate income / attacks on buildings", RULING B9)."""
    g = placing(("sheriff", "banker", "chinese_worker", "captain"))
    a, b, c, d = (seat_of(g, card) for card in ("sheriff", "banker", "chinese_worker", "captain"))
    g.clear_board()
    g.put(2, 2, owner=a, content="hotel")
    g.put(6, 6, owner=b, content="hotel")
    g.place_cowboys(xy=(2, 2), seats=[a, c])  # a defends against c
    g.place_cowboys(xy=(6, 6), seats=[a, b])  # a attacks, b defends
    g.resume_at("estate_income", (d, b, a, c))
    assert (g.awaiting, g.to_act) == ("choose_duel", (b,))
    assert g.moves() == [{"type": "resolve_duel", "x": 2, "y": 2}, {"type": "resolve_duel", "x": 6, "y": 6}]
    before = g.state
    for seat in (a, c, d):
        with pytest.raises(IllegalMove) as error:
            g.move(seat, {"type": "resolve_duel", "x": 2, "y": 2})
        assert error.value.code == "not_your_turn"
    with pytest.raises(IllegalMove):
        g.act({"type": "resolve_duel", "x": 4, "y": 4})  # no duel there
    assert g.state == before
    new = g.act({"type": "resolve_duel", "x": 2, "y": 2})
    assert [e["target"] for e in duels(new)] == [{"x": 2, "y": 2}, {"x": 6, "y": 6}]
