"""Buildings and estate income (`000` "Buildings", "Estate income / attacks on buildings"; `004` "Almacén",
"Banco"; RULING B13): R-INC-1 .. R-INC-12.

Most tests shape a board around a building on (4, 4) and ask `building_income` directly; the attack, church and
payment tests go through the estate income step.
"""

from __future__ import annotations

import pytest

from app.rules.board import SIDES, parcel_index
from app.rules.catalog import CONSTRUCTION_INDEX
from app.rules.evolve import evolve
from app.rules.income import building_income, estate_payments, income_if_built, is_attackable
from app.rules.legal import legal_moves
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import ready, run_step

RING = [(x, y) for x in (3, 4, 5) for y in (3, 4, 5) if (x, y) != (4, 4)]  # the eight neighbours of (4, 4)


def board() -> Game:
    g = ready()
    g.clear_board()
    for seat in range(3):
        g.set_player(seat, money=0)
    return g


def income(g: Game, x: int = 4, y: int = 4) -> int:
    return building_income(g.state, parcel_index(x, y))


# --- R-INC-1 -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("owner", "content", "value"),
    [
        (None, "house", 1),  # owner-free house
        (0, "house", 1),  # a house on the building owner's parcel
        (1, "house", 0),  # a house on another player's parcel
        (0, "ranch", 1),
        (0, "church", 1),
        (0, "hotel", 2),
        (1, "ranch", 0),
        (1, "church", 0),
        (1, "hotel", 0),
        (0, "mine", 0),
        (0, "saloon", 0),
        (0, "bank", 0),
        (0, "drugstore", 0),
        (0, "prison", 0),
        (None, "mountain", 0),
        (0, "mountain", 0),
        (0, None, 0),
    ],
)
def test_house_value_of_a_neighbour(owner: int | None, content: str | None, value: int) -> None:
    """R-INC-1: what a neighbour is worth as houses to seat 0's saloon ($5 per house value): owner-free or own
    house 1, own ranch or church 1, own hotel 2, anything of another player 0 (RULING B13; `000` "Ranch",
    "Hotel", "Church": "considered a house / two houses")."""
    g = board()
    g.put(4, 4, owner=0, content="saloon")
    g.put(5, 3, owner=owner, content=content)
    assert income(g) == 5 * value


def test_house_value_only_from_the_eight_neighbours() -> None:
    """R-INC-1: only the eight parcels around count, diagonals included; two parcels away counts nothing
    (RULING B2, B13)."""
    g = board()
    g.put(4, 4, owner=0, content="saloon")
    g.put(3, 3, content="house")  # diagonal
    g.put(4, 6, content="house")  # two rows away
    g.put(6, 4, content="house")  # two columns away
    assert income(g) == 5 * 1


# --- R-INC-2 -----------------------------------------------------------------------------------------------------


def test_house_on_a_players_parcel_serves_only_that_player() -> None:
    """R-INC-2: an owner-free house counts for every neighbouring building, whoever its owner; a house on a
    player's parcel only for that player's buildings (`000` "Estate income": "Important: ...", `003` "Compter la
    maison d'un adversaire")."""
    g = board()
    g.put(3, 4, owner=0, content="saloon")
    g.put(5, 4, owner=1, content="saloon")
    g.put(4, 3, content="house")  # owner-free, next to both
    g.put(4, 5, owner=0, content="house")  # seat 0's, next to both
    assert income(g, 3, 4) == 5 * 2
    assert income(g, 5, 4) == 5 * 1


def test_owned_mountain_serves_only_its_owners_mines() -> None:
    """R-INC-2: a mountain owned by a player no longer counts for another player's mine (`000` "Mine": "Once you
    own a mountain, it no longer benefits other player's mines")."""
    g = board()
    g.put(3, 4, owner=0, content="mine")
    g.put(5, 4, owner=1, content="mine")
    g.put(4, 4, owner=1, content="mountain")
    g.put(4, 3, content="mountain")  # owner-free: both
    assert income(g, 3, 4) == 3 * 1
    assert income(g, 5, 4) == 3 * 2


# --- R-INC-3 -----------------------------------------------------------------------------------------------------


def test_ranch_one_dollar_per_free_neighbour_whoever_owns_it() -> None:
    """R-INC-3: $1 per neighbouring parcel with no building, mountain or house, no matter its owner (`000`
    "Ranch", RULING B13)."""
    g = board()
    g.put(4, 4, owner=0, content="ranch")
    g.put(3, 3, content="house")
    g.put(4, 3, owner=2, content="mountain")
    g.put(5, 3, owner=1, content="bank")
    g.put(3, 5, owner=1)  # owned by another player, but free
    g.put(5, 5, owner=0)
    assert income(g) == 8 - 3


def test_ranch_minimum_income() -> None:
    """R-INC-3: a ranch with no free neighbour still earns $1 (`000` "Ranch": "Minimal income: $1")."""
    g = board()
    g.put(4, 4, owner=0, content="ranch")
    for x, y in RING:
        g.put(x, y, content="mountain")
    assert income(g) == 1


def test_ranches_share_free_parcels_and_the_border_limits_them() -> None:
    """R-INC-3: several ranches may count the same free parcel; a corner ranch has three neighbours (`000`
    "Ranch")."""
    g = board()
    g.put(1, 1, owner=0, content="ranch")
    g.put(2, 2, owner=1, content="ranch")
    assert income(g, 1, 1) == 3 - 1  # (2, 1) and (1, 2); (2, 2) holds the other ranch
    assert income(g, 2, 2) == 8 - 1  # the ranch on (1, 1) is its only occupied neighbour


# --- R-INC-4 -----------------------------------------------------------------------------------------------------


def test_mine_three_dollars_per_neighbouring_mountain() -> None:
    """R-INC-4: $3 per neighbouring mountain, owner-free or the mine owner's (`000` "Mine", RULING B13)."""
    g = board()
    g.put(4, 4, owner=0, content="mine")
    g.put(3, 3, content="mountain")
    g.put(5, 5, owner=0, content="mountain")
    g.put(4, 5, owner=1, content="mountain")  # another player's: no
    g.put(6, 6, content="mountain")  # not a neighbour
    g.put(3, 4, content="house")
    assert income(g) == 3 * 2


def test_mine_without_mountain_earns_nothing() -> None:
    """R-INC-4: the mine has no minimum (`000` "Mine": only "$3 per neighboring mountain")."""
    g = board()
    g.put(4, 4, owner=0, content="mine")
    assert income(g) == 0


# --- R-INC-5 .. R-INC-8 ------------------------------------------------------------------------------------------


def test_saloon_five_dollars_per_house_value() -> None:
    """R-INC-5: $5 per house value (`000` "Saloon", RULING B13): two houses and an own hotel are 4 values."""
    g = board()
    g.put(4, 4, owner=0, content="saloon")
    g.put(3, 3, content="house")
    g.put(5, 5, owner=0, content="house")
    g.put(3, 5, owner=0, content="hotel")
    assert income(g) == 5 * (1 + 1 + 2)


def test_drugstore_example_of_004() -> None:
    """R-INC-6: `004` "Almacén": a drugstore next to a ranch and three houses, all his, earns $15 (the ranch
    counts once as a house, once as a ranch)."""
    g = board()
    g.put(4, 4, owner=0, content="drugstore")
    g.put(3, 4, owner=0, content="ranch")
    for xy in ((3, 3), (4, 3), (5, 3)):
        g.put(*xy, owner=0, content="house")
    assert income(g) == 15


def test_drugstore_counts_own_ranches_anywhere() -> None:
    """R-INC-6: $3 per house value + $3 per ranch the owner has anywhere; other players' ranches do not count
    (`000` "Drugstore": "The ranches do not need to be neighboring")."""
    g = board()
    g.put(4, 4, owner=0, content="drugstore")
    g.put(3, 3, content="house")
    g.put(8, 8, owner=0, content="ranch")
    g.put(1, 8, owner=0, content="ranch")
    g.put(8, 1, owner=1, content="ranch")
    assert income(g) == 3 * 1 + 3 * 2


def test_bank_example_of_004() -> None:
    """R-INC-7: `004` "Banco": a bank and a mine, a house and a hotel next to the bank, earns $12 — wherever the
    mine stands."""
    for mine in ((8, 8), (5, 5)):
        g = board()
        g.put(4, 4, owner=0, content="bank")
        g.put(3, 3, content="house")
        g.put(4, 3, owner=0, content="hotel")
        g.put(*mine, owner=0, content="mine")
        assert income(g) == 12, mine


def test_bank_counts_only_own_mines() -> None:
    """R-INC-7: $3 per house value + $3 per mine the owner has; another player's mine counts nothing (`000`
    "Bank": "per mine (owned by the player)")."""
    g = board()
    g.put(4, 4, owner=0, content="bank")
    g.put(1, 1, owner=1, content="mine")
    g.put(2, 1, owner=0, content="mine")
    g.put(3, 1, owner=0, content="mine")
    assert income(g) == 3 * 0 + 3 * 2


def test_hotel_six_church_and_prison_nothing() -> None:
    """R-INC-8: a hotel earns $6 whatever surrounds it; churches and prisons earn nothing (`000` "Hotel",
    "Church", "Prison")."""
    g = board()
    g.put(4, 4, owner=0, content="hotel")
    assert income(g) == 6
    for x, y in RING:
        g.put(x, y, content="house")
    assert income(g) == 6
    for building in ("church", "prison"):
        g.put(4, 4, owner=0, content=building)
        assert income(g) == 0, building


# --- R-INC-9 -----------------------------------------------------------------------------------------------------


def test_income_caps() -> None:
    """R-INC-9: the printed maxima: saloon $55, bank $45, drugstore $33 (`004`, RULING B13). Eight own hotels
    around are 16 house values."""
    for building, per_value, cap in (("saloon", 5, 55), ("bank", 3, 45), ("drugstore", 3, 33)):
        g = board()
        g.put(4, 4, owner=0, content=building)
        for x, y in RING:
            g.put(x, y, owner=0, content="hotel")
        assert per_value * 16 > cap
        assert income(g) == cap, building


def test_income_below_the_cap_is_not_cut() -> None:
    """R-INC-9: a cap only limits: a drugstore at $30 keeps $30 (RULING B13)."""
    g = board()
    g.put(4, 4, owner=0, content="drugstore")
    for xy in ((3, 3), (4, 3), (5, 3)):
        g.put(*xy, owner=0, content="hotel")  # 6 house values
    g.put(8, 8, owner=0, content="ranch")
    g.put(8, 7, owner=0, content="ranch")
    g.put(8, 6, owner=0, content="ranch")
    g.put(8, 5, owner=0, content="ranch")
    assert income(g) == 3 * 6 + 3 * 4 == 30


# --- R-INC-10 ----------------------------------------------------------------------------------------------------


def attacked_ranch(cowboys: list[int]) -> Game:
    """Seat 0's ranch on (4, 4) with three occupied neighbours ($5); cowboys of `cowboys` on it."""
    g = board()
    g.put(4, 4, owner=0, content="ranch")
    for xy in ((3, 3), (4, 3), (5, 3)):
        g.put(*xy, content="mountain")
    g.place_cowboys(xy=(4, 4), seats=cowboys)
    return g


def test_undefended_attack_takes_half_rounded_down() -> None:
    """R-INC-10: an undefended attack succeeds: the attacker takes half the income rounded down, the owner keeps
    the rest (`000` "Estate income / attacks on buildings", RULING B13)."""
    g = attacked_ranch([1])
    ranch = 8 - 3
    events, s = run_step(g, "estate_income")
    assert events_of(events, "attack_won")
    assert (s.players[0].money, s.players[1].money) == (ranch - ranch // 2, ranch // 2)


def test_attack_won_in_a_duel_takes_half() -> None:
    """R-INC-10: the attacker who wins the duel against the defender takes half rounded down (`000`). Firepower
    is shaped so that the dice cannot change the winner."""
    g = attacked_ranch([0, 1])
    g.set_player(0, cowboys=0, revolvers=0)
    g.set_player(1, cowboys=10, revolvers=20)
    ranch = 8 - 3
    events, s = run_step(g, "estate_income")
    assert events_of(events, "duel_fought")[0]["winner"] == 1
    assert (s.players[0].money, s.players[1].money) == (ranch - ranch // 2, ranch // 2)


def test_defended_building_keeps_its_income() -> None:
    """R-INC-10: if the defender wins the duel the owner keeps the whole income (`000`: "The attack succeeds if
    the building is not defended or if the attacker wins the duel")."""
    g = attacked_ranch([1, 0])
    g.set_player(0, cowboys=10, revolvers=20)
    g.set_player(1, cowboys=0, revolvers=0)
    events, s = run_step(g, "estate_income")
    assert events_of(events, "duel_fought")[0]["winner"] == 0
    assert (s.players[0].money, s.players[1].money) == (8 - 3, 0)


# --- R-INC-11 ----------------------------------------------------------------------------------------------------


def test_church_protects_its_owners_neighbouring_buildings() -> None:
    """R-INC-11: buildings next to their owner's church cannot be attacked; another player's church protects
    nothing; churches and prisons are never attacked (`000` "Church": "You are not allowed to attack a church";
    RULING B7). Seat 0, to place, may attack only the unprotected buildings."""
    g = board()
    assert g.to_act == (0,)
    g.put(4, 4, owner=1, content="church")
    g.put(5, 5, owner=1, content="bank")  # diagonal to its owner's church
    g.put(3, 4, owner=2, content="bank")  # next to seat 1's church: not protected
    g.put(6, 6, owner=1, content="saloon")  # two parcels away: not protected
    g.put(1, 1, owner=1, content="prison")
    assert not is_attackable(g.state, parcel_index(5, 5))
    assert is_attackable(g.state, parcel_index(3, 4))
    assert is_attackable(g.state, parcel_index(6, 6))
    assert not is_attackable(g.state, parcel_index(4, 4))
    assert not is_attackable(g.state, parcel_index(1, 1))
    attackable = {(m["x"], m["y"]) for m in legal_moves(g.state, 0) if m["type"] == "place_cowboy" and "x" in m
                  and g.state.parcels[parcel_index(m["x"], m["y"])].owner is not None}
    assert attackable == {(3, 4), (6, 6)}


def test_church_built_next_to_an_attacked_building_cancels_the_attack() -> None:
    """R-INC-11: a church built next to one of its owner's buildings under attack cancels the attack and the
    attacker's cowboy returns to their personal reserve (`000` "Church"; `004` "Iglesia")."""
    g = board()
    g.with_state(roads=frozenset(SIDES[parcel_index(4, 4)]))
    g.put(4, 4, owner=0, content="ranch")
    g.put(5, 4, owner=0)
    g.place_cowboys(xy=(4, 4), seats=[1])
    attacker_cowboys = g.state.players[1].cowboys
    construction = list(g.state.construction)
    construction[CONSTRUCTION_INDEX["build_3"]] = "church"
    g.with_state(construction=tuple(construction))
    g.set_player(0, money=3)
    g.place_cowboys(square="build_3", seats=[0])
    run_step(g, "build_3")
    g.act({"type": "buy_building"})
    g.act({"type": "place_building", "building": "church", "x": 5, "y": 4})
    before = g.state
    events = g.act({"type": "place_house", "x": 3, "y": 3})
    (cancelled,) = events_of(events, "attack_cancelled")
    assert cancelled["seats"] == [1]
    assert not events_of(events, "attack_won")
    (paid,) = events_of(events, "estate_income_paid")
    (ranch,) = [p for p in paid["payments"] if p["building"] == "ranch"]
    assert ranch["owner_gets"] == 8 - 2  # the church and its house now occupy two neighbours
    assert ranch["attacker"] is None
    s = before
    for event in events[: events.index(cancelled) + 1]:
        s = evolve(s, event)
    assert s.players[1].cowboys == attacker_cowboys + 1
    assert parcel_index(4, 4) not in s.parcel_cowboys or not s.parcel_cowboys[parcel_index(4, 4)]
    assert g.state.players[1].money == 0


# --- R-INC-12 ----------------------------------------------------------------------------------------------------


def test_estate_income_paid_automatically_to_every_owner() -> None:
    """R-INC-12: every building pays its owner at the estate income step, no cowboy needed and nobody asked
    (`000` "Estate income": "This action is automatic")."""
    g = board()
    g.put(2, 2, owner=0, content="hotel")
    g.put(7, 7, owner=1, content="hotel")
    g.put(7, 2, owner=1, content="mine")
    g.put(7, 3, content="mountain")
    g.put(2, 7, owner=2, content="church")
    expected = {0: 6, 1: 6 + 3, 2: 0}
    assert {seat: sum(p["owner_gets"] for p in estate_payments(g.state) if p["owner"] == seat)
            for seat in range(3)} == expected
    events, s = run_step(g, "estate_income")
    assert events_of(events, "estate_income_paid")
    assert {seat: s.players[seat].money for seat in range(3)} == expected


def test_the_income_a_building_would_have_on_a_site_is_its_income_there() -> None:
    """The preview of a site (RULING B13): a ranch on (4, 4) of an empty board would earn $1 for each of its 8
    empty neighbours; a mountain beside it takes $1 off the ranch and makes a mine there earn $3."""
    g = Game(2)
    g.clear_board()
    centre = parcel_index(4, 4)
    assert income_if_built(g.state, 0, "ranch", centre) == 8
    g.put(5, 5, content="mountain")
    assert income_if_built(g.state, 0, "ranch", centre) == 7
    assert income_if_built(g.state, 1, "mine", centre) == 3
    assert g.state.parcels[centre].content is None  # nothing was built
