"""The Gold & Guns characters (`001` "New Characters", "The Indian"; RULINGS G1, G9, G10, G12; decisions D40-D45):
R-GG-1, R-GG-4, R-GG-7, R-GG-10, R-GG-13, R-GG-14, R-GG-17, R-GG-18.

Games are built with the real setup and driven through the real moves; a board is shaped only where a scenario
needs it (an empty board around the centre (4, 4), as in the other Gold & Guns tests).
"""

from __future__ import annotations

import pytest

from app.rules import ConfigError, GameConfig, IllegalMove, new_game, player_view, replay
from app.rules.board import SIDES, parcel_index
from app.rules.catalog import (
    BASE_CARDS,
    CARD_BY_NUMBER,
    PERSONALITIES,
)
from app.rules.defaults import default_move
from app.rules.model import COWBOYS, SINGER_COWBOYS
from app.rules.prices import parcel_price
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import run_step

GG = ["gold_and_guns"]
BASE = [1, 2, 3, 4, 5, 6, 7]


def with_card(number: int, instead_of: int = 7) -> list[int]:
    """The base cards with card `number` in place of `instead_of` (the Mercenary by default)."""
    return sorted({*BASE, number} - {instead_of})


def table(characters: list[int], players: int = 3, sides: str = "yellow", **variants: object) -> Game:
    """A Gold & Guns game with these cards, its starting parcels on the north border, waiting for round 1's first
    personality."""
    g = Game(players, expansions=GG, characters=characters, sides=sides, **variants)
    g.claim_starts([(x, 1) for x in range(1, 9)])
    assert g.awaiting == "personality"
    return g


def first_chooser_takes(g: Game, card: str) -> int:
    seat = g.to_act[0]
    g.act({"type": "choose_personality", "card": card})
    return seat


def empty_town(g: Game) -> None:
    """An empty board with the centre house on (4, 4) and its four roads."""
    g.clear_board()
    g.with_state(roads=frozenset(SIDES[parcel_index(4, 4)]), centre=parcel_index(4, 4))
    g.put(4, 4, content="house")


# --- R-GG-1: the cards of the game ------------------------------------------------------------------------------


def test_the_admin_chooses_seven_cards_only_with_gold_and_guns() -> None:
    """R-GG-1 (RULING G1): `characters` names 7 different card numbers of 1-14, and only with Gold & Guns; every
    other shape is refused by name."""
    config = GameConfig.from_variants(3, {"expansions": GG, "characters": [13, 1, 2, 3, 4, 5, 8]}, preview=True)
    assert config.characters == (1, 2, 3, 4, 5, 8, 13)
    assert config.to_json()["characters"] == [1, 2, 3, 4, 5, 8, 13]
    for wrong in ([1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 6], [1, 2, 3, 4, 5, 6, 15], [0, 1, 2, 3, 4, 5, 6],
                  [1, 2, 3, 4, 5, 6, True], [1, 2, 3, 4, 5, 6, "7"], "1234567"):
        with pytest.raises(ConfigError) as refused:
            GameConfig.from_variants(3, {"expansions": GG, "characters": wrong}, preview=True)
        assert refused.value.setting == "characters"
    with pytest.raises(ConfigError, match="Gold & Guns") as refused:
        GameConfig.from_variants(3, {"characters": BASE}, preview=True)
    assert refused.value.setting == "characters"
    assert "characters" not in GameConfig.from_variants(3, {"expansions": GG}, preview=True).to_json()


def test_every_card_of_the_box_may_be_chosen() -> None:
    """R-GG-1 (RULING G1): any 7 of the 14 cards, the 7 Gold & Guns cards together as well."""
    chosen = GameConfig.from_variants(3, {"expansions": GG, "characters": [14, 13, 12, 11, 10, 9, 8]}, preview=True)
    assert chosen.characters == (8, 9, 10, 11, 12, 13, 14)
    assert replay(new_game(chosen, 3)).cards == tuple(CARD_BY_NUMBER[n] for n in range(8, 15))


def test_without_a_choice_seven_playable_cards_are_drawn_and_recorded() -> None:
    """R-GG-1 (RULING G1, decision D46): without `characters`, 7 cards are drawn at random from the 14, and the
    draw is written into `game_started`; the state keeps them in card-number order; the sides cover exactly them."""
    drawn = set()
    for seed in range(12):
        events = new_game(GameConfig.from_variants(3, {"expansions": GG, "sides": "random"}, preview=True), seed)
        cards = events[0]["characters"]
        assert len(cards) == len(set(cards)) == 7 and set(cards) <= set(PERSONALITIES)
        assert cards == sorted(cards, key=lambda c: PERSONALITIES[c].number)
        assert set(events[0]["sides"]) == set(cards) - {"doctor"}  # its holder chooses (decision D73)
        state = replay(events)
        assert state.cards == tuple(cards)
        drawn.add(tuple(cards))
    assert len(drawn) > 1  # the draw is random, not a fixed set


def test_base_game_logs_carry_no_characters() -> None:
    """R-GG-1: the base game's first event is as it always was (no `characters`), its cards the seven base cards."""
    events = new_game(GameConfig.from_variants(3, {}), 3)
    assert "characters" not in events[0] and "characters" not in events[0]["config"]
    assert replay(events).cards == BASE_CARDS


def test_only_the_cards_of_the_game_are_chosen_voted_and_shown() -> None:
    """R-GG-1 (RULINGS G1, V1): the personality choice, the per-card vote and the state document use the game's
    cards; placement order is ascending card number, the new cards 8-14 after the base cards."""
    g = Game(3, expansions=GG, characters=[1, 2, 3, 4, 5, 8, 13], sides="vote")
    assert g.awaiting == "vote"
    assert {m["card"] for m in g.moves(0)} == {"sheriff", "banker", "grocer", "chinese_worker", "settler", "indian",
                                                "governor"}
    for seat in range(3):
        for move in [m for m in g.moves(seat) if m["side"] == "yellow"]:
            g.move(seat, move)
    assert set(g.state.sides) == set(g.state.cards) and set(g.state.sides.values()) == {"yellow"}
    g.claim_starts([(x, 1) for x in range(1, 9)])
    assert {m["card"] for m in g.moves()} == set(g.state.cards)
    view = player_view(g.state, 0)
    assert [p["card"] for p in view["personalities"]] == list(g.state.cards)
    order = g.state.choosing_order
    g.choose(["governor", "sheriff", "indian"])
    assert g.state.placement_order == (order[1], order[2], order[0])  # Sheriff 1, Indian 8, Governor 13


# --- R-GG-17 / R-GG-18: the Indian ------------------------------------------------------------------------------


def test_indian_yellow_receives_two_owner_free_parcels_by_dice() -> None:
    """R-GG-17 (`001` "The Indian (8)", RULING G10): on choosing, two parcels by dice on the inner 6 x 6, each rolled
    again unless owner-free, land and empty; every roll is in the event, and the parcels become the Indian's."""
    for seed in range(5):
        g = Game(3, seed, expansions=GG, characters=with_card(8))
        g.claim_starts([(x, 1) for x in range(1, 9)])
        before = g.state
        seat = first_chooser_takes(g, "indian")
        (taken,) = events_of(g.events, "indian_parcels_taken")
        parcels = [parcel_index(p["x"], p["y"]) for p in taken["parcels"]]
        assert taken["seat"] == seat and len(parcels) == len(set(parcels)) == 2
        rolled = [parcel_index(w + 1, b + 1) for w, b in taken["dice"]]
        for index in rolled:  # every roll either gave a parcel or hit one the Indian may not take
            p = before.parcels[index]
            assert index in parcels or p.owner is not None or p.content is not None or rolled.count(index) > 1
        assert rolled[-1] == parcels[-1] and parcels[0] in rolled
        assert all(before.parcels[i].owner is None and before.parcels[i].content is None for i in parcels)
        assert all(g.state.parcels[i].owner == seat for i in parcels)


def test_indian_rolls_again_until_a_free_parcel_and_stops_when_none_is_left() -> None:
    """R-GG-17 (RULING G10, decision D41): occupied results are rolled again; with one free parcel left the Indian
    receives that one; with none, no dice are rolled at all (the rolls always end)."""
    inner = [(x, y) for x in range(2, 8) for y in range(2, 8)]
    for free, expected in (([(6, 6), (2, 7)], 2), ([(3, 5)], 1), ([], 0)):
        g = table(with_card(8))
        for x, y in inner:
            if (x, y) not in free:
                g.put(x, y, content="mountain")
        seat = first_chooser_takes(g, "indian")
        taken = events_of(g.events, "indian_parcels_taken")
        if not expected:
            assert taken == []
            continue
        assert sorted((p["x"], p["y"]) for p in taken[0]["parcels"]) == sorted(free)
        assert len(taken[0]["dice"]) >= expected
        assert all(g.state.parcels[parcel_index(x, y)].owner == seat for x, y in free)


def test_indian_never_receives_a_parcel_with_an_outlaw() -> None:
    """R-GG-17 with the Outlaws (RULING G10: "without content and without outlaw"; R-OUT-3): of the two free
    inner parcels left, the one with an outlaw is rolled again like an occupied one, so the Indian gets one."""
    g = Game(3, expansions=[*GG, "outlaws"], characters=with_card(8))
    g.claim_starts([(x, 1) for x in range(1, 9)])
    for x, y in [(x, y) for x in range(2, 8) for y in range(2, 8)]:
        if (x, y) not in ((6, 6), (3, 5)):
            g.put(x, y, content="mountain")
    g.put(3, 5, outlaw=True)
    seat = first_chooser_takes(g, "indian")
    (taken,) = events_of(g.events, "indian_parcels_taken")
    assert [(p["x"], p["y"]) for p in taken["parcels"]] == [(6, 6)]
    assert g.state.parcels[parcel_index(3, 5)].owner is None and g.state.parcels[parcel_index(6, 6)].owner == seat


def test_indian_receives_no_more_parcels_than_property_tiles() -> None:
    """R-GG-17 (decision D41, as D9): a player with 11 parcels has one property tile left, so one parcel."""
    g = table(with_card(8))
    seat = g.to_act[0]
    owned = [i for i, p in enumerate(g.state.parcels) if p.owner == seat]
    for x in range(1, 9):
        for y in (8,):
            g.put(x, y, owner=seat)
    g.put(8, 7, owner=seat)
    assert sum(1 for p in g.state.parcels if p.owner == seat) == 11 == len(owned) + 9
    first_chooser_takes(g, "indian")
    (taken,) = events_of(g.events, "indian_parcels_taken")
    assert len(taken["parcels"]) == 1
    assert sum(1 for p in g.state.parcels if p.owner == seat) == 12


def crowded(g: Game) -> int:
    """Parcel (4, 4) empty with mountains on all eight neighbours: its base price is $9."""
    g.clear_board()
    for x in (3, 4, 5):
        for y in (3, 4, 5):
            if (x, y) != (4, 4):
                g.put(x, y, content="mountain")
    return parcel_index(4, 4)


def test_indian_red_caps_every_parcel_price_for_the_whole_game() -> None:
    """R-GG-18 (`001` "The Indian (8)" variant, RULING G10, decision D40): with the red Indian among the game's cards
    every parcel costs at most $3, whoever holds the card and before anyone has chosen it; a game without it pays
    the full price."""
    g = table(with_card(8), sides="red")
    index = crowded(g)
    assert parcel_price(g.state, index) == 3
    assert player_view(g.state, 0)["board"]["parcels"][index]["price"] == 3
    g.choose(["sheriff", "banker", "chinese_worker"])  # nobody holds the Indian this round
    assert parcel_price(g.state, index) == 3
    g.place_cowboys(xy=(4, 4), seats=[0])
    g.set_player(0, money=20)
    run_step(g, "parcel_purchase")
    g.move(0, {"type": "buy_parcel", "x": 4, "y": 4})
    assert events_of(g.events, "parcel_bought")[-1]["price"] == 3
    for other in (table(BASE, sides="red"), table(with_card(8), sides="yellow")):
        index = crowded(other)
        assert parcel_price(other.state, index) == 9


# --- R-GG-13 / R-GG-14: the Governor ----------------------------------------------------------------------------


def governor_building(river: bool = False) -> tuple[Game, int]:
    """The yellow Governor has bought a saloon and builds it: an empty town around (4, 4)."""
    g = table(with_card(13), river=river)
    order = g.state.choosing_order
    g.choose(["governor", "sheriff", "banker"])
    governor = order[0]
    assert events_of(g.events, "personality_chosen")[0]["roads"] == 1  # R-GG-13: one road at once
    empty_town(g)
    g.with_state(construction=("saloon", *g.state.construction[1:]))
    g.set_player(governor, money=30, roads=4)
    g.place_cowboys(square="build_3", seats=[governor])
    run_step(g, "build_3")
    g.act({"type": "buy_building"})
    assert g.awaiting == "construct"
    return g, governor


def test_governor_yellow_scores_a_vp_for_each_road_reaching_a_new_parcel() -> None:
    """R-GG-13 (`001` "The Governor (13)", RULINGS G12, B3, decision D45): +1 VP for a road that reaches a parcel no
    road reached; none for a road between two points already on the network."""
    g, governor = governor_building()
    vp = g.state.players[governor].vp
    (road,) = g.act({"type": "place_road", "x1": 4, "y1": 3, "x2": 5, "y2": 3})  # reaches (6, 3) and (6, 4)
    assert road["vp"] == 1 and g.state.players[governor].vp == vp + 1
    g.act({"type": "place_road", "x1": 4, "y1": 4, "x2": 5, "y2": 4})  # reaches (6, 5)
    (closing,) = g.act({"type": "place_road", "x1": 5, "y1": 3, "x2": 5, "y2": 4})  # nothing new
    assert "vp" not in closing and g.state.players[governor].vp == vp + 2


def test_governor_yellow_scores_two_for_a_bridge_reaching_a_new_parcel() -> None:
    """R-GG-13 (`001` "The Governor (13)", The River): a bridge (two roads) that reaches a new parcel of land gives
    2 VP."""
    g, governor = governor_building(river=True)
    g.with_state(roads=frozenset({(1, 4, 1, 5)}))  # a road down to the river's bank at grid point (1, 5)
    vp = g.state.players[governor].vp
    (bridge,) = g.act({"type": "place_road", "x1": 1, "y1": 5, "x2": 1, "y2": 6})  # across (1, 6) | (2, 6)
    assert bridge["bridge"] and bridge["vp"] == 2  # reaches the land parcels (1, 7) and (2, 7)
    assert g.state.players[governor].vp == vp + 2


def test_only_the_yellow_governor_scores_roads() -> None:
    """R-GG-13: another builder's road reaching a new parcel scores nothing (and carries no `vp`)."""
    g = table(with_card(13))
    g.choose(["sheriff", "banker", "governor"])
    builder = g.state.holder("sheriff")
    assert builder is not None
    empty_town(g)
    g.with_state(construction=("saloon", *g.state.construction[1:]))
    g.set_player(builder, money=30, roads=2)
    g.place_cowboys(square="build_3", seats=[builder])
    run_step(g, "build_3")
    g.act({"type": "buy_building"})
    (road,) = g.act({"type": "place_road", "x1": 4, "y1": 3, "x2": 5, "y2": 3})
    assert "vp" not in road


def tax(kind: str, money: list[int], revolvers: list[int]) -> tuple[Game, int, dict[int, int]]:
    g = table(with_card(13), sides="red")
    for seat in range(3):
        g.set_player(seat, money=money[seat], revolvers=revolvers[seat])
    governor = first_chooser_takes(g, "governor")
    assert g.awaiting == "governor_red" and g.to_act == (governor,)
    (collected,) = g.act({"type": "collect_tax", "tax": kind})
    return g, governor, {p["seat"]: p["amount"] for p in collected["payments"]}


def test_governor_red_taxes_revolver_chips() -> None:
    """R-GG-14 (`001` "The Governor (13)" variant): $1 per revolver chip of each other player; a player pays at most
    what they have (decision D42)."""
    g, governor, paid = tax("revolvers", money=[10, 10, 10], revolvers=[3, 3, 3])
    others = [seat for seat in range(3) if seat != governor]
    assert paid == {others[0]: 3, others[1]: 3}
    assert g.state.players[governor].money == 16 and all(g.state.players[s].money == 7 for s in others)
    g, governor, paid = tax("revolvers", money=[1, 1, 1], revolvers=[4, 4, 4])
    assert set(paid.values()) == {1} and g.state.players[governor].money == 3


def test_governor_red_taxes_every_full_or_started_ten_dollars() -> None:
    """R-GG-14 (RULING G12): "tax money" is $1 per full or started $10 each other player holds."""
    g, governor, paid = tax("money", money=[0, 0, 0], revolvers=[1, 1, 1])
    assert set(paid.values()) == {0}
    for amounts in ([10, 10, 10], [11, 11, 11], [1, 1, 1], [29, 29, 29]):
        g, governor, paid = tax("money", money=amounts, revolvers=[1, 1, 1])
        expected = -(-amounts[0] // 10)
        assert set(paid.values()) == {expected}
        assert g.state.players[governor].money == amounts[0] + 2 * expected


# --- R-GG-7: the yellow Gunsmith --------------------------------------------------------------------------------


def gunsmith_duel(winner_is_gunsmith: bool) -> tuple[Game, int, int, dict[str, object]]:
    g = Game(3, expansions=GG, characters=with_card(10))
    g.claim_starts([(x, 1) for x in range(1, 9)])
    g.choose(["gunsmith", "sheriff", "banker"])
    gunsmith, rival = g.state.holder("gunsmith"), g.state.holder("banker")
    assert gunsmith is not None and rival is not None
    g.set_player(gunsmith if winner_is_gunsmith else rival, revolvers=30)  # sure to win
    g.place_cowboys(square="ammunition", seats=[gunsmith, rival])
    vp = g.state.players[gunsmith].vp
    events, _ = run_step(g, "ammunition")
    (duel,) = events_of(events, "duel_fought")
    return g, gunsmith, g.state.players[gunsmith].vp - vp, duel


def test_gunsmith_yellow_scores_two_vp_for_each_duel_won() -> None:
    """R-GG-7 (`001` "The Gunsmith (10)"): 2 VP for each duel won this round, written into the duel's event; a duel
    lost gives nothing."""
    _, gunsmith, gained, duel = gunsmith_duel(winner_is_gunsmith=True)
    assert duel["winner"] == gunsmith and duel["winner_vp"] == 2 and gained == 2
    _, gunsmith, gained, duel = gunsmith_duel(winner_is_gunsmith=False)
    assert duel["winner"] != gunsmith and "winner_vp" not in duel and gained == 0


# --- R-GG-10: the red Singer ------------------------------------------------------------------------------------


def singer_table(cards: tuple[str, str, str] = ("singer", "banker", "chinese_worker")) -> tuple[Game, int]:
    g = Game(3, expansions=GG, characters=with_card(11), sides="red")
    g.claim_starts([(x, 1) for x in range(1, 9)])
    g.choose(cards)
    singer = g.state.holder("singer")
    assert singer is not None and g.state.singer_cowboy
    return g, singer


def test_singer_red_places_one_cowboy_from_the_general_reserve_on_gambling_income() -> None:
    """R-GG-10 (`001` "The Singer (11)" variant, decision D43): once a round the Singer may place a cowboy of the
    general reserve on Gambling income; it is no cowboy of theirs (their reserve is unchanged), they may not place
    their own there too, and the others may join it."""
    g, singer = singer_table()
    while g.to_act != (singer,):
        g.act({"type": "pass"} if g.to_act[0] != g.state.placement_order[0] else
              {"type": "place_cowboy", "square": "wages"})
    assert {"type": "place_singer_cowboy"} in g.moves()
    cowboys = g.state.players[singer].cowboys
    (placed,) = g.act({"type": "place_singer_cowboy"})
    assert placed == {"type": "cowboy_placed", "seat": singer, "white": False, "square": "gambling_income",
                      "singer": True}
    assert g.state.players[singer].cowboys == cowboys and not g.state.singer_cowboy
    assert player_view(g.state, None)["singer_cowboy"] == {"seat": singer, "square": "gambling_income"}
    assert player_view(g.state, None)["squares"][-8]["cowboys"] == []  # gambling_income: no player's own cowboy
    g.act({"type": "place_cowboy", "square": "gambling_income"})  # the banker joins it
    assert g.to_act == (singer,)
    moves = g.moves()
    assert {"type": "place_singer_cowboy"} not in moves
    assert {"type": "place_cowboy", "square": "gambling_income"} not in moves


def test_the_red_sheriff_may_join_the_singers_cowboy_which_never_duels() -> None:
    """R-GG-10 (decision D43): the red Sheriff, who may not start a duel (D13), may still go where only the Singer's
    cowboy stands, since it never duels; the white cowboy's rule (B6) keeps it off an occupied square."""
    g, singer = singer_table(("singer", "sheriff", "banker"))
    sheriff = g.state.holder("sheriff")
    assert g.to_act == (sheriff,)
    g.with_state(squares={"gambling_income": (SINGER_COWBOYS[singer],)})
    assert {"type": "place_cowboy", "square": "gambling_income"} in g.moves()
    g.with_state(squares={"gambling_income": (SINGER_COWBOYS[singer], COWBOYS[singer, False])})
    assert {"type": "place_cowboy", "square": "gambling_income"} not in g.moves()


def test_singer_cowboy_never_duels_and_wins_the_product_of_two_dice() -> None:
    """R-GG-10 (`001` "The Singer (11)" variant, RULING G9 by analogy, decision D43): the Singer's cowboy ignores the
    duel of the others and wins the product of two dice; the others duel among themselves as if it were absent, and
    a single other cowboy performs with the usual sum."""
    for others in ([], [1], [1, 2]):
        g, singer = singer_table()
        rivals = [s for s in range(3) if s != singer][: len(others)]
        g.with_state(squares={"gambling_income": (SINGER_COWBOYS[singer], *(COWBOYS[s, False] for s in rivals))})
        money = [p.money for p in g.state.players]
        events, after = run_step(g, "gambling_income")
        (sung,) = events_of(events, "singer_gambled")
        assert sung["amount"] == sung["dice"][0] * sung["dice"][1] and 1 <= sung["amount"] <= 36
        assert all(singer not in [d["seat"] for d in duel["duelists"]] for duel in events_of(events, "duel_fought"))
        assert len(events_of(events, "duel_fought")) == (1 if len(rivals) > 1 else 0)
        gains = events_of(events, "money_gained")
        assert len(gains) == (1 if rivals else 0)
        for gain in gains:
            assert gain["seat"] in rivals and gain["amount"] == sum(gain["dice"])
        assert after.players[singer].money == money[singer] + sung["amount"]


# --- R-GG-25: the yellow Grocer with Gold & Guns -----------------------------------------------------------------


def test_grocer_may_double_general_stores_and_blacksmiths() -> None:
    """R-GG-25 (RULING G16; `000` "Grocer": "one particular building type"; `001` gives the general store and the
    blacksmith an income): the yellow Grocer may choose either, and the chosen type's buildings pay twice what they
    earn at the estate income; the church, the prison, the school, the station and the City Hall are no choice."""
    g = table(BASE)
    grocer = first_chooser_takes(g, "grocer")
    assert g.awaiting == "grocer"
    doubles = {m["building"] for m in g.moves() if m.get("option") == "double"}
    assert doubles == {"ranch", "mine", "drugstore", "bank", "saloon", "hotel", "general_store", "blacksmith"}
    g.act({"type": "grocer_choice", "option": "double", "building": "general_store"})
    assert g.state.players[grocer].card_option == "double:general_store"
    g.choose(["banker", "settler"])
    empty_town(g)
    g.put(5, 5, owner=grocer, content="general_store")
    g.put(5, 4, owner=grocer, content="house")  # one own house value: $6, doubled to $12
    g.put(3, 3, owner=grocer, content="blacksmith")  # not the chosen type: its $5 of round 1 only
    paid = {(p["x"], p["y"]): p for p in events_of(g.resume_at("estate_income"), "estate_income_paid")[0]["payments"]}
    assert (paid[(5, 5)]["income"], paid[(5, 5)]["doubled"], paid[(5, 5)]["owner_gets"]) == (9, True, 18)
    assert (paid[(3, 3)]["doubled"], paid[(3, 3)]["owner_gets"]) == (False, paid[(3, 3)]["income"])


# --- R-GG-4: the yellow Prospector ------------------------------------------------------------------------------


def prospector_table() -> Game:
    g = table(with_card(9))
    empty_town(g)
    for seat in range(3):
        g.set_player(seat, money=20)
    return g


def test_prospector_pays_ten_and_builds_a_mine_of_the_squares_on_an_owner_free_parcel() -> None:
    """R-GG-4 (`001` "The Prospector (9)", decision D44): the holder chooses among the squares holding a mine and any
    owner-free empty land parcel (no road needed); they pay $10, the parcel becomes theirs with the mine and its
    revolver, and the squares slide and one building is drawn, as for the red Chinese Worker (D14)."""
    g = prospector_table()
    assert [c for c in g.state.construction if c == "mine"] == ["mine", "mine"]  # build_4 and build_12 at setup
    seat = first_chooser_takes(g, "prospector")
    assert g.awaiting == "prospector"
    moves = g.moves()
    assert {m.get("square") for m in moves if m["type"] == "prospect_mine"} == {"build_4", "build_12"}
    assert {(m["x"], m["y"]) for m in moves if m["type"] == "prospect_mine"} == {
        (x, y) for x in range(1, 9) for y in range(1, 9) if (x, y) != (4, 4)}
    player = g.state.players[seat]
    rest = [b for b in g.state.construction[:-1] if b is not None]  # build_12's mine goes
    mine, refill = g.act({"type": "prospect_mine", "square": "build_12", "x": 8, "y": 8})[:2]
    assert mine == {"type": "mine_prospected", "seat": seat, "x": 8, "y": 8, "price": 10, "revolvers": 1,
                    "square": "build_12"}
    assert g.state.parcels[parcel_index(8, 8)].owner == seat and g.state.parcels[parcel_index(8, 8)].content == "mine"
    after = g.state.players[seat]
    assert (after.money, after.revolvers) == (player.money - 10, player.revolvers + 1)
    assert refill["type"] == "construction_refilled" and refill["construction"][:6] == rest
    assert len(refill["drawn"]) == 1 and g.awaiting == "personality"


def test_prospector_who_can_pay_and_build_may_not_decline() -> None:
    """R-GG-26 (RULING G17; `001` "The Prospector (9)": "immediately pays $10"): a holder with $10, while a mine is
    left and an owner-free parcel can take it, must pay and build; only the parcel (and the square) is a choice,
    declining is refused."""
    g = prospector_table()
    seat = first_chooser_takes(g, "prospector")
    moves = g.moves()
    assert moves and {m["type"] for m in moves} == {"prospect_mine"}
    with pytest.raises(IllegalMove):
        g.move(seat, {"type": "decline"})
    assert g.awaiting == "prospector" and g.state.players[seat].money == 20


def test_prospector_with_no_parcel_for_the_mine_does_nothing() -> None:
    """R-GG-26 (RULING G17: "without a mine or a parcel, nothing happens"): with no owner-free empty land parcel,
    the holder keeps the $10 and the game goes on at once (D1)."""
    g = prospector_table()
    for x in range(1, 9):
        for y in range(1, 9):
            if (x, y) != (4, 4):
                g.put(x, y, owner=None, content="mountain")
    seat = first_chooser_takes(g, "prospector")
    assert events_of(g.events, "card_decision_declined")[-1]["seat"] == seat and g.awaiting == "personality"
    assert g.state.players[seat].money == 20 and not events_of(g.events, "mine_prospected")


def test_prospector_takes_the_mine_from_the_bag_when_no_square_holds_one() -> None:
    """R-GG-4: with no mine on the construction squares, the mine comes from the bag."""
    g = prospector_table()
    g.with_state(construction=tuple(None if b == "mine" else b for b in g.state.construction))
    mines = g.state.bag["mine"]
    first_chooser_takes(g, "prospector")
    assert {m.get("square") for m in g.moves() if m["type"] == "prospect_mine"} == {None}
    (mine,) = g.act({"type": "prospect_mine", "x": 1, "y": 8})
    assert "square" not in mine and g.state.bag["mine"] == mines - 1


def test_prospector_without_ten_dollars_or_a_mine() -> None:
    """R-GG-4, R-GG-26 (RULING G17): without $10 nothing happens, the only move, declining, is played at once (D1);
    with no mine left anywhere the card turns to its red side for the rest of the game (`001`)."""
    g = prospector_table()
    g.set_player(g.to_act[0], money=9)
    seat = first_chooser_takes(g, "prospector")
    assert events_of(g.events, "card_decision_declined")[-1]["seat"] == seat and g.awaiting == "personality"
    g = prospector_table()
    g.with_state(construction=tuple(None if b == "mine" else b for b in g.state.construction),
                 bag={**g.state.bag, "mine": 0})
    seat = first_chooser_takes(g, "prospector")
    (flipped,) = events_of(g.events, "card_flipped")
    # The red side's two dynamite chips come with it at once (RULING G7, decision D58).
    assert flipped == {"type": "card_flipped", "seat": seat, "card": "prospector", "side": "red", "dynamite": 2}
    assert g.state.sides["prospector"] == "red" and g.awaiting == "personality"
    assert g.state.players[seat].dynamite == 2
    assert replay(g.events).sides["prospector"] == "red"


def test_clock_defaults_for_the_new_decisions() -> None:
    """The timed-out default spends nothing it may keep: the Prospector, who may not decline (RULING G17), builds
    on the first parcel listed; the red Governor collects a tax (neither option costs anything); the red Singer
    passes rather than place."""
    g = prospector_table()
    seat = first_chooser_takes(g, "prospector")
    assert default_move(g.state, seat) == g.moves()[0] and g.moves()[0]["type"] == "prospect_mine"
    g = table(with_card(13), sides="red")
    governor = first_chooser_takes(g, "governor")
    assert default_move(g.state, governor) in ({"type": "collect_tax", "tax": t} for t in ("revolvers", "money"))
    g, singer = singer_table()
    while g.to_act != (singer,):
        g.act({"type": "pass"})
    assert {"type": "place_singer_cowboy"} in g.moves()
    assert default_move(g.state, singer) == {"type": "pass"}
