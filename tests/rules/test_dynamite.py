"""Dynamite and the red Gunsmith (`001` "The Prospector (9)" and "The Gunsmith (10)", variants; RULING G7;
decisions D57-D64): R-GG-5, R-GG-6, R-GG-8.

Games are built with the real setup and driven through the real moves; a scenario shapes only what it needs (an
empty board around the centre (4, 4), a player's firepower, the cowboys on one spot). Where a die decides whether
the Gunsmith is asked, the test looks through a few seeds for a game in which he is.
"""

from __future__ import annotations

from collections.abc import Callable

from app.rules import player_view, redact_event, replay
from app.rules.board import SIDES, parcel_index
from app.rules.catalog import DYNAMITE_CHIPS
from app.rules.defaults import default_move
from app.rules.dynamite import dynamite_in_supply
from app.rules.events import EstatePayment, Event
from app.rules.evolve import evolve
from app.rules.model import COWBOYS, DYNAMITE_COWBOYS, Cowboy
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import run_step

GG = ["gold_and_guns"]
CARDS = [1, 2, 3, 4, 5, 9, 10]  # the Sheriff, Banker, Grocer, Chinese Worker, Settler, Prospector, Gunsmith


def table(players: int = 3, seed: int = 12345, cards: tuple[str, ...] = ("prospector", "gunsmith", "banker"),
          **variants: object) -> Game:
    """Every card on its red side, the given cards chosen: round 1's placement."""
    expansions = variants.pop("expansions", GG)
    g = Game(players, seed, expansions=expansions, characters=CARDS, sides="red", **variants)
    g.claim_starts([(x, 1) for x in range(1, 9)])
    g.choose(cards)
    assert g.awaiting == "placement"
    return g


def seat(g: Game, card: str) -> int:
    holder = g.state.holder(card)
    assert holder is not None
    return holder


def empty_town(g: Game) -> None:
    """An empty board with the centre house on (4, 4) and its four roads."""
    g.clear_board()
    g.with_state(roads=frozenset(SIDES[parcel_index(4, 4)]), centre=parcel_index(4, 4))
    g.put(4, 4, content="house")


def firepower(g: Game, who: int, power: int) -> None:
    """`who` with exactly `power` firepower, apart from a card's bonus (no cowboy in reserve, `power` revolvers)."""
    g.set_player(who, cowboys=0, revolvers=power)


def on_square(g: Game, square: str, *cowboys: Cowboy) -> None:
    g.with_state(squares={square: cowboys}, parcel_cowboys={})


# --- R-GG-5, R-GG-8: the chips --------------------------------------------------------------------------------


def test_red_prospector_receives_two_chips_and_red_gunsmith_one() -> None:
    """R-GG-5, R-GG-8 (`001` "The Prospector (9)" variant: "receives two dynamite chips"; "The Gunsmith (10)"
    variant: "receives one dynamite chip"): written into the choice's event, kept by the player, shown in every
    view beside the supply of the 7 chips (`001` "Components")."""
    g = table()
    prospector, gunsmith = seat(g, "prospector"), seat(g, "gunsmith")
    chosen = {e["card"]: e for e in events_of(g.events, "personality_chosen")}
    assert chosen["prospector"]["dynamite"] == 2 and chosen["gunsmith"]["dynamite"] == 1
    assert "dynamite" not in chosen["banker"]
    assert g.state.players[prospector].dynamite == 2 and g.state.players[gunsmith].dynamite == 1
    view = player_view(g.state, None)
    assert {p["seat"]: p["dynamite"] for p in view["players"]} == {prospector: 2, gunsmith: 1, seat(g, "banker"): 0}
    assert view["dynamite_left"] == DYNAMITE_CHIPS - 3 == dynamite_in_supply(g.state)
    assert replay(g.events).players[prospector].dynamite == 2


def test_chips_are_received_only_as_the_supply_holds_them() -> None:
    """R-GG-5 (`001`: "two dynamite chips (if available)"): with 6 of the 7 chips kept by another player, the
    Prospector receives one and the Gunsmith none (no chip in the event)."""
    g = Game(3, expansions=GG, characters=CARDS, sides="red")
    g.claim_starts([(x, 1) for x in range(1, 9)])
    hoarder = g.state.choosing_order[2]
    g.set_player(hoarder, dynamite=6)
    g.choose(["prospector", "gunsmith", "banker"])
    chosen = {e["card"]: e for e in events_of(g.events, "personality_chosen")}
    assert chosen["prospector"]["dynamite"] == 1 and "dynamite" not in chosen["gunsmith"]
    assert dynamite_in_supply(g.state) == 0


def test_base_game_and_yellow_sides_carry_no_chips() -> None:
    """R-GG-5: the yellow sides give no chip, and a game without Gold & Guns shows no `dynamite` field."""
    g = Game(3, expansions=GG, characters=CARDS, sides="yellow")
    g.claim_starts([(x, 1) for x in range(1, 9)])
    g.choose(["gunsmith", "sheriff", "banker"])
    assert all("dynamite" not in e for e in events_of(g.events, "personality_chosen"))
    base = Game(3)
    assert "dynamite" not in player_view(base.state, None)["players"][0]
    assert "dynamite_left" not in player_view(base.state, None)


def test_unused_chips_are_kept_into_the_next_round() -> None:
    """Decision D57: `001` limits the Singer's chips to "the current round" but not the dynamite, which is used
    "once": a chip not used stays with its player after the round (the card goes back, the chips do not)."""
    g = table()
    prospector = seat(g, "prospector")
    g.pass_all()
    while g.state.round == 1:
        (who,) = g.to_act[:1]
        move = default_move(g.state, who)
        assert move is not None
        g.move(who, move)  # type: ignore[arg-type]
    assert g.state.players[prospector].personality is None and g.state.players[prospector].dynamite == 2


# --- R-GG-6: a chip with a cowboy -------------------------------------------------------------------------------


def test_a_chip_may_go_with_any_cowboy_placed_where_a_duel_can_happen() -> None:
    """R-GG-6 (`001`: "place the dynamite chip with a cowboy during the cowboy placement phase"; decision D59):
    every place a cowboy may go is offered again with a chip, except Wages and Road, where nobody ever duels; a
    player without chips is offered none."""
    g = table()
    gunsmith = seat(g, "gunsmith")
    g.with_state(turn=gunsmith)
    moves = g.moves(gunsmith)
    plain = [m for m in moves if m["type"] == "place_cowboy" and "dynamite" not in m]
    with_chip = [m for m in moves if m.get("dynamite")]
    assert {"type": "place_cowboy", "square": "ammunition", "dynamite": True} in with_chip
    assert all({**m, "dynamite": True} in with_chip for m in plain if m.get("square") not in ("wages", "road"))
    assert not any(m.get("square") in ("wages", "road") for m in with_chip)
    assert len(with_chip) == len(plain) - 2
    banker = seat(g, "banker")
    g.with_state(turn=banker)
    assert not any("dynamite" in m for m in g.moves(banker))


def test_placing_a_chip_spends_it_and_marks_the_cowboy() -> None:
    """R-GG-6: the placement's event says so, the chip leaves the player's hand, the cowboy carries it (shown in
    the view)."""
    g = table()
    gunsmith = seat(g, "gunsmith")
    g.with_state(turn=gunsmith)
    (placed,) = g.move(gunsmith, {"type": "place_cowboy", "square": "ammunition", "dynamite": True})
    assert placed == {"type": "cowboy_placed", "seat": gunsmith, "white": False, "square": "ammunition",
                      "dynamite": True}
    assert g.state.players[gunsmith].dynamite == 0
    assert g.state.squares["ammunition"] == (DYNAMITE_COWBOYS[gunsmith],)
    view = player_view(g.state, None)
    assert view["dynamite_cowboys"] == [{"seat": gunsmith, "square": "ammunition"}]
    assert view["squares"][1]["cowboys"] == [gunsmith]


def test_a_duel_with_dynamite_rolls_two_dice_and_adds_them() -> None:
    """R-GG-6 (`001`: "you roll two dice (instead of one die) and add the result of the two dice to your
    firepower"): both dice are written into the duel; the other duellist rolls one die."""
    g = table()
    prospector, banker = seat(g, "prospector"), seat(g, "banker")
    on_square(g, "ammunition", DYNAMITE_COWBOYS[prospector], COWBOYS[banker, False])
    events, _ = run_step(g, "ammunition")
    (duel,) = events_of(events, "duel_fought")
    sides = {d["seat"]: d for d in duel["duelists"]}
    blast = sides[prospector]
    assert blast["dynamite"] and len(blast["dice"]) == 2 and blast["roll"] == sum(blast["dice"])
    assert blast["strength"] == blast["roll"] + blast["firepower"]
    assert "dice" not in sides[banker] and 1 <= sides[banker]["roll"] <= 6


def test_a_chip_without_a_duel_is_lost() -> None:
    """R-GG-6 (`001`: "If no duel occurs, the dynamite chip is lost"): the lone cowboy takes the 3-guns chip, no
    die is rolled, the chip goes back to the supply and not to its player (decision D57)."""
    g = table()
    prospector = seat(g, "prospector")
    g.set_player(prospector, dynamite=1)
    on_square(g, "ammunition", DYNAMITE_COWBOYS[prospector])
    assert dynamite_in_supply(g.state) == DYNAMITE_CHIPS - 3  # the Gunsmith's, the Prospector's, the square's
    events, after = run_step(g, "ammunition")
    assert not events_of(events, "duel_fought") and events_of(events, "chip_taken")
    assert after.players[prospector].dynamite == 1
    assert dynamite_in_supply(after) == DYNAMITE_CHIPS - 2  # the Gunsmith's and the Prospector's remaining one


def test_might_is_right_a_dynamite_duellist_plays_two_tiles() -> None:
    """R-GG-6 (`001`: "with the 'might is right' variant, you would also spend two duel tiles"; decision D61):
    the duellist with the chip chooses a pair of tiles (secret, both), the strength adds both, both go to the used
    pile."""
    g = table(might_is_right=True)
    prospector, banker = seat(g, "prospector"), seat(g, "banker")
    g.set_player(prospector, tiles=(1, 3, 4))
    g.set_player(banker, tiles=(0, 2, 5))
    on_square(g, "ammunition", DYNAMITE_COWBOYS[prospector], COWBOYS[banker, False])
    run_step(g, "ammunition")
    assert g.awaiting == "duel_tile" and set(g.to_act) == {prospector, banker}
    pairs = g.moves(prospector)
    assert pairs == [{"type": "play_tile", "tile": a, "second": b} for a, b in ((1, 3), (1, 4), (3, 4))]
    assert all("second" not in m for m in g.moves(banker))
    (chosen,) = g.move(prospector, {"type": "play_tile", "tile": 3, "second": 4})
    assert redact_event(chosen, banker) == {"type": "duel_tile_chosen", "seat": prospector}
    g.move(banker, {"type": "play_tile", "tile": 5})
    (duel,) = events_of(g.events, "duel_fought")
    sides = {d["seat"]: d for d in duel["duelists"]}
    assert sides[prospector]["tile"] == 3 and sides[prospector]["second_tile"] == 4
    assert sides[prospector]["strength"] == 7 + sides[prospector]["firepower"]
    assert g.state.players[prospector].tiles == (1,)


# --- R-GG-6: a chip on a mine ---------------------------------------------------------------------------------


def mine_town(g: Game, owner: int) -> None:
    """`owner`'s mine on (2, 2) beside three owner-free mountains: $9 at the estate income."""
    empty_town(g)
    g.put(2, 2, owner=owner, content="mine")
    for x, y in ((1, 1), (2, 1), (3, 1)):
        g.put(x, y, content="mountain")
    g.with_state(squares={}, parcel_cowboys={})


def payment(events: list[Event], x: int, y: int) -> EstatePayment:
    """The estate income of the building on (x, y)."""
    (paid,) = events_of(events, "estate_income_paid")
    assert paid["type"] == "estate_income_paid"
    return next(p for p in paid["payments"] if (p["x"], p["y"]) == (x, y))


def test_a_chip_triples_a_mines_income_at_the_estate_income() -> None:
    """R-GG-6 (`001`: "triple a mine's income (once). You may spend the dynamite chip at any time when performing
    the estate income action"; decision D60): after the attacks, the holder of a chip with a mine that earns is
    asked; used, the mine pays $27 instead of $9 and the chip goes back to the supply."""
    g = table()
    prospector = seat(g, "prospector")
    mine_town(g, prospector)
    run_step(g, "estate_income")
    assert g.awaiting == "dynamite" and g.to_act == (prospector,)
    assert g.moves() == [{"type": "use_dynamite", "x": 2, "y": 2}, {"type": "keep_dynamite"}]
    (used,) = g.act({"type": "use_dynamite", "x": 2, "y": 2})[:1]
    assert used == {"type": "mine_dynamited", "seat": prospector, "x": 2, "y": 2}
    paid = payment(g.events, 2, 2)
    assert paid["income"] == 27 and paid["owner_gets"] == 27 and paid["dynamite"]
    assert g.state.players[prospector].dynamite == 1 and not g.state.dynamite_mines


def test_keeping_the_chips_pays_the_plain_income() -> None:
    """R-GG-6: the chip is a choice: kept, the mine pays its $9 and the chips stay with their player."""
    g = table()
    prospector = seat(g, "prospector")
    mine_town(g, prospector)
    run_step(g, "estate_income")
    g.act({"type": "keep_dynamite"})
    paid = payment(g.events, 2, 2)
    assert paid["owner_gets"] == 9 and "dynamite" not in paid
    assert g.state.players[prospector].dynamite == 2


def test_an_attacker_takes_half_of_the_tripled_income() -> None:
    """R-GG-6 (`001`: "If a cowboy from another player is present, give him half of your mine's income (150% of
    the normal income, rounded down)"): $27, the attacker $13."""
    g = table()
    prospector, banker = seat(g, "prospector"), seat(g, "banker")
    mine_town(g, prospector)
    g.with_state(parcel_cowboys={parcel_index(2, 2): (COWBOYS[banker, False],)})
    run_step(g, "estate_income")
    assert events_of(g.events, "attack_won") and g.awaiting == "dynamite"
    g.act({"type": "use_dynamite", "x": 2, "y": 2})
    paid = payment(g.events, 2, 2)
    assert paid["income"] == 27 and paid["attacker"] == banker and paid["attacker_gets"] == 13
    assert paid["owner_gets"] == 14


def test_no_chip_on_a_mine_the_grocer_doubles() -> None:
    """R-GG-6 (`001`: "You may not perform this action in combination with the grocer character card"): a holder
    of kept chips whose yellow Grocer doubles mines is not asked; the mine is doubled, not tripled."""
    g = table(cards=("grocer", "banker", "sheriff"))
    grocer = seat(g, "grocer")
    g.with_state(sides={**g.state.sides, "grocer": "yellow"})
    g.set_player(grocer, dynamite=1, card_option="double:mine")
    mine_town(g, grocer)
    events, _ = run_step(g, "estate_income")
    paid = payment(events, 2, 2)
    assert paid["doubled"] and paid["owner_gets"] == 18 and "dynamite" not in paid
    assert not events_of(events, "mine_dynamited") and g.state.players[grocer].dynamite == 1


def test_nobody_is_asked_without_a_mine_that_earns() -> None:
    """R-GG-6 (decision D60): a mine without a mountain around earns $0: tripling it is no choice."""
    g = table()
    prospector = seat(g, "prospector")
    empty_town(g)
    g.put(6, 6, owner=prospector, content="mine")
    g.with_state(squares={}, parcel_cowboys={})
    events, _ = run_step(g, "estate_income")
    assert events_of(events, "estate_income_paid") and not events_of(events, "dynamite_kept")


def test_a_chip_with_a_cowboy_on_ones_own_mine_does_both() -> None:
    """R-GG-6 (`001` note: "If a dynamite chip is placed with a cowboy on a players own mine, the player gains
    both benefits"; decision D63): the defender rolls two dice in the duel, and the mine is tripled at the estate
    income without a question, whoever won (the attacker then takes half of the tripled income)."""
    g = table()
    prospector, banker = seat(g, "prospector"), seat(g, "banker")
    mine_town(g, prospector)
    g.with_state(turn=prospector)
    g.move(prospector, {"type": "place_cowboy", "x": 2, "y": 2, "dynamite": True})
    assert g.state.dynamite_mines == {parcel_index(2, 2)}
    g.with_state(parcel_cowboys={parcel_index(2, 2): (DYNAMITE_COWBOYS[prospector], COWBOYS[banker, False])})
    firepower(g, banker, 40)  # the attacker wins the duel
    events, _ = run_step(g, "estate_income")
    (duel,) = events_of(events, "duel_fought")
    defender = next(d for d in duel["duelists"] if d["seat"] == prospector)
    assert defender["dynamite"] and len(defender["dice"]) == 2 and duel["winner"] == banker
    assert g.awaiting != "dynamite"  # the mine is tripled already; the other chip stays
    paid = payment(g.events, 2, 2)
    assert paid["income"] == 27 and paid["attacker_gets"] == 13 and paid["dynamite"]
    assert g.state.players[prospector].dynamite == 1


# --- R-GG-8: the red Gunsmith's second roll ---------------------------------------------------------------------


def asked_gunsmith(build: Callable[[Game], None], step: str = "ammunition", **variants: object) -> Game:
    """The first seed of a few whose first throw leaves the Gunsmith to decide (the dice decide whether he is)."""
    for seed in range(60):
        g = table(seed=seed, **variants)
        build(g)
        run_step(g, step)
        if g.awaiting == "reroll":
            return g
    raise AssertionError("no seed asked the Gunsmith")


def close_duel(g: Game) -> None:
    """The Gunsmith (firepower 2, +0 from the card) against the Banker (firepower 4) on Ammunition: he loses with
    most throws, and wins with a 6 against a 1-3 (or a tie the earlier passer takes)."""
    gunsmith, banker = seat(g, "gunsmith"), seat(g, "banker")
    firepower(g, gunsmith, 2)
    firepower(g, banker, 4)
    on_square(g, "ammunition", COWBOYS[gunsmith, False], COWBOYS[banker, False])


def test_gunsmith_red_may_roll_again_and_both_throws_are_recorded() -> None:
    """R-GG-8 (`001` "The Gunsmith (10)" variant: "the gunsmith is allowed to roll the die again (once) if
    desired"): the first throws are written (`duel_rolled`), he decides, the new die counts, and the duel records
    his first roll beside it; the other duellist's die is not rolled again."""
    g = asked_gunsmith(close_duel)
    gunsmith, banker = seat(g, "gunsmith"), seat(g, "banker")
    (rolled,) = events_of(g.events, "duel_rolled")
    first = {d["seat"]: d for d in rolled["duelists"]}
    assert first[gunsmith]["strength"] < first[banker]["strength"] or first[gunsmith]["roll"] < 6
    assert g.moves() == [{"type": "reroll"}, {"type": "keep_roll"}]
    (again,) = g.act({"type": "reroll"})[:1]
    assert again["type"] == "die_rerolled" and again["first"]["roll"] == first[gunsmith]["roll"]
    (duel,) = events_of(g.events, "duel_fought")
    sides = {d["seat"]: d for d in duel["duelists"]}
    assert sides[gunsmith]["roll"] == again["throw"]["roll"]
    assert sides[gunsmith]["first_roll"] == first[gunsmith]["roll"]
    assert sides[gunsmith]["first_dice"] == [first[gunsmith]["roll"]]
    assert sides[banker]["roll"] == first[banker]["roll"] and "first_roll" not in sides[banker]
    assert not g.state.duel_rolls and not g.state.reroll_pending


def test_gunsmith_red_keeping_his_roll_fights_with_the_first_throws() -> None:
    """R-GG-8: kept, the duel is fought with the throws already written, nothing is rolled again."""
    g = asked_gunsmith(close_duel)
    (rolled,) = events_of(g.events, "duel_rolled")
    g.act({"type": "keep_roll"})
    (duel,) = events_of(g.events, "duel_fought")
    assert [(d["seat"], d["roll"]) for d in duel["duelists"]] == [(d["seat"], d["roll"]) for d in rolled["duelists"]]


def test_gunsmith_red_is_asked_only_when_a_new_roll_could_win() -> None:
    """R-GG-8 (decision D62): winning already, or unable to win even with a 6, he is not asked: the duel is fought
    at once, as any other."""
    for gunsmith_power, banker_power in ((40, 0), (0, 40)):
        g = table()
        gunsmith, banker = seat(g, "gunsmith"), seat(g, "banker")
        firepower(g, gunsmith, gunsmith_power)
        firepower(g, banker, banker_power)
        on_square(g, "ammunition", COWBOYS[gunsmith, False], COWBOYS[banker, False])
        events, _ = run_step(g, "ammunition")
        assert not events_of(events, "duel_rolled") and len(events_of(events, "duel_fought")) == 1


def test_gunsmith_red_rolls_again_against_an_outlaw() -> None:
    """R-GG-8 (`001`: "again, including those against an Outlaw"): alone against an outlaw of strength 8 with
    firepower 2, he needs a 6; asked, he rolls again and the fight records both throws."""

    def fight(g: Game) -> None:
        gunsmith = seat(g, "gunsmith")
        empty_town(g)
        g.put(5, 5, outlaw=True)
        g.with_state(outlaw_strength=8, squares={}, parcel_cowboys={parcel_index(5, 5): (COWBOYS[gunsmith, False],)})
        firepower(g, gunsmith, 2)

    g = asked_gunsmith(fight, step="estate_income", expansions=["gold_and_guns", "outlaws"])
    gunsmith = seat(g, "gunsmith")
    (rolled,) = events_of(g.events, "duel_rolled")
    assert rolled["target"] == {"x": 5, "y": 5} and rolled["duelists"][0]["roll"] < 6
    g.act({"type": "reroll"})
    (fought,) = events_of(g.events, "outlaw_fought")
    (side,) = fought["duelists"]
    assert side["seat"] == gunsmith and side["first_roll"] == rolled["duelists"][0]["roll"]
    assert (fought["winner"] == gunsmith) == (side["roll"] == 6)


def test_gunsmith_red_rolls_his_two_dynamite_dice_again() -> None:
    """R-GG-8 with R-GG-6 (decision D61): with a chip his throw is two dice; rolling again rolls both, and the duel
    keeps both first dice."""

    def duel(g: Game) -> None:
        gunsmith, banker = seat(g, "gunsmith"), seat(g, "banker")
        firepower(g, gunsmith, 0)
        firepower(g, banker, 9)
        on_square(g, "ammunition", DYNAMITE_COWBOYS[gunsmith], COWBOYS[banker, False])

    g = asked_gunsmith(duel)
    gunsmith = seat(g, "gunsmith")
    first = next(d for d in events_of(g.events, "duel_rolled")[0]["duelists"] if d["seat"] == gunsmith)
    g.act({"type": "reroll"})
    (fought,) = events_of(g.events, "duel_fought")
    side = next(d for d in fought["duelists"] if d["seat"] == gunsmith)
    assert len(side["dice"]) == 2 and side["roll"] == sum(side["dice"])
    assert side["first_dice"] == first["dice"] and side["first_roll"] == sum(first["dice"])


def test_gunsmith_red_plays_his_tile_after_his_opponents() -> None:
    """R-GG-8 (`001`: "With the 'might is right' variant, you select and play your duel tile after your
    opponents"; decision D64): the others choose first; their tiles are then shown to everyone; the Gunsmith
    chooses last."""
    g = table(might_is_right=True)
    gunsmith, banker = seat(g, "gunsmith"), seat(g, "banker")
    g.set_player(gunsmith, tiles=(0, 5))
    g.set_player(banker, tiles=(2, 3))
    on_square(g, "ammunition", COWBOYS[gunsmith, False], COWBOYS[banker, False])
    run_step(g, "ammunition")
    assert g.awaiting == "duel_tile" and g.to_act == (banker,)
    g.act({"type": "play_tile", "tile": 3})
    (shown,) = events_of(g.events, "duel_tiles_revealed")
    assert shown["seat"] == gunsmith and shown["tiles"] == [{"seat": banker, "tile": 3}]
    assert redact_event(shown, None) == shown  # public
    assert g.to_act == (gunsmith,)
    assert player_view(g.state, gunsmith)["players"][banker]["duel_tile"] == 3
    g.act({"type": "play_tile", "tile": 5})
    (duel,) = events_of(g.events, "duel_fought")
    assert {d["seat"]: d["tile"] for d in duel["duelists"]} == {gunsmith: 5, banker: 3}
    assert not g.state.duel_tiles_revealed


def test_the_gunsmith_plays_first_nowhere_and_alone_needs_no_reveal() -> None:
    """R-GG-8: without the red Gunsmith in the duel the tiles are chosen together as ever (RULING V2)."""
    g = table(might_is_right=True)
    prospector, banker = seat(g, "prospector"), seat(g, "banker")
    on_square(g, "ammunition", COWBOYS[prospector, False], COWBOYS[banker, False])
    run_step(g, "ammunition")
    assert set(g.to_act) == {prospector, banker}


def test_the_clock_keeps_the_roll_and_the_chips() -> None:
    """The default moves (a clock run out): keep the roll, keep the chips — nothing is spent nor rolled."""
    g = asked_gunsmith(close_duel)
    assert default_move(g.state, seat(g, "gunsmith")) == {"type": "keep_roll"}
    g = table()
    prospector = seat(g, "prospector")
    mine_town(g, prospector)
    run_step(g, "estate_income")
    assert default_move(g.state, prospector) == {"type": "keep_dynamite"}


def test_a_city_hall_occupant_keeps_no_chip_into_the_next_round() -> None:
    """R-GG-6 (decision D59): the City Hall's occupant stays across rounds (RULING G2), its chip does not (used
    once, lost without a duel)."""
    g = table()
    prospector = seat(g, "prospector")
    g.with_state(city_hall=parcel_index(6, 6), parcel_cowboys={parcel_index(6, 6): (DYNAMITE_COWBOYS[prospector],)})
    after = evolve(g.state, {"type": "round_ended", "round": 1})
    assert after.parcel_cowboys[parcel_index(6, 6)] == (COWBOYS[prospector, False],)
