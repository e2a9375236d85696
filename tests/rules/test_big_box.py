"""Big Box (`004`; RULINGS X1-X6): six players, the cards of a game, the Newspaper Boy, the Teacher, the Heroes,
the Cowboy, horses bought at Wages, Kit Carson's VP at the end.

R-BB-1 .. R-BB-8 of the checklist. Decisions D87-D89, D90-D96.
"""

from __future__ import annotations

import pytest

from app.rules import GameConfig, new_game, replay
from app.rules.board import SIDES, parcel_index
from app.rules.catalog import CARD_BY_NUMBER, DUEL_TILE_VALUES, MIGHT_MONEY_BEFORE_TILES, PERSONALITIES
from app.rules.defaults import default_move
from app.rules.errors import ConfigError
from app.rules.evolve import evolve
from app.rules.income import estate_payments
from app.rules.legal import cowboy_spots
from app.rules.model import COWBOYS, replace
from app.rules.outlaws import current_income
from app.rules.scoring import final_scores
from app.rules.view import player_view
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import run_step

BIG_BOX = {"expansions": ["big_box"]}
SIX_CARDS = ("sheriff", "banker", "grocer", "chinese_worker", "settler", "captain")


def _horses_game(players: int = 3) -> Game:
    """Round 1's placement, base cards chosen, horses played."""
    g = Game(players, expansions=["big_box"], horses=True)
    g.claim_starts()
    g.choose(SIX_CARDS[:players])
    return g


# --- R-BB-1 ------------------------------------------------------------------------------------------------------


def test_big_box_seats_six_players_and_the_base_game_five() -> None:
    """R-BB-1 (`004` "2-6 jugadores"; RULING X1): up to 6 players with Big Box; without it the limit stays 5."""
    assert GameConfig.from_variants(6, BIG_BOX, preview=True).players == 6
    with pytest.raises(ConfigError) as refused:
        GameConfig.from_variants(6, {})
    assert refused.value.setting == "seats"
    with pytest.raises(ConfigError):
        GameConfig.from_variants(7, BIG_BOX, preview=True)


def test_players_may_open_a_table_with_big_box() -> None:
    """Big Box is open to players (issue 13): six seats with its options, no preview needed."""
    config = GameConfig.from_variants(6, {**BIG_BOX, "horses": True, "kit_carson": True})
    assert (config.players, config.horses, config.kit_carson) == (6, True, True)


@pytest.mark.parametrize("option", ["horses", "kit_carson"])
def test_the_horses_and_kit_carson_need_big_box(option: str) -> None:
    """API.md: "`horses` and `kit_carson` need `big_box`"; they are options of `004`'s box."""
    with pytest.raises(ConfigError) as refused:
        GameConfig.from_variants(3, {option: True}, preview=True)
    assert refused.value.setting == option
    assert getattr(GameConfig.from_variants(3, {**BIG_BOX, option: True}, preview=True), option)


def test_a_six_player_game_sets_every_player_up_on_the_same_board() -> None:
    """R-BB-1 (`004` "Preparación": "A cada jugador se le entrega 15$, 1 pieza de camino, 1 pieza de revolver ...
    y 3 vaqueros"): six players, each with the base game's start, six seats in the turn order."""
    s = replay(new_game(GameConfig.from_variants(6, BIG_BOX, preview=True), 7))
    assert len(s.players) == 6
    assert sorted(s.initial_order) == list(range(6))
    assert {(p.money, p.roads, p.revolvers, p.cowboys) for p in s.players} == {(15, 1, 1, 3)}


def test_might_is_right_deals_six_tiles_to_each_of_six_players() -> None:
    """R-BB-1 (RULING X1: "Might Is Right deals 6 tiles per player for 3-6 players"): six sets mixed, six tiles
    each, and $30 minus their sum as for 3-5 players (`000` "Might Is Right")."""
    events = new_game(GameConfig.from_variants(6, {**BIG_BOX, "might_is_right": True}, preview=True), 11)
    (dealt,) = events_of(events, "tiles_dealt")
    assert [len(hand) for hand in dealt["hands"]] == [6] * 6
    assert sorted(v for hand in dealt["hands"] for v in hand) == sorted(list(DUEL_TILE_VALUES) * 6)
    assert dealt["money"] == [MIGHT_MONEY_BEFORE_TILES - sum(hand) for hand in dealt["hands"]]


# --- R-BB-6 ------------------------------------------------------------------------------------------------------


def test_a_horse_costs_four_dollars_instead_of_taking_four() -> None:
    """R-BB-6 (`004` "Salario": "puedes, en lugar de recibir 4$, pagar 4$ para comprar un nuevo caballo"; RULING
    X6): the buyer's cowboy pays $4, the player's other cowboy still takes $4, and the horse is theirs."""
    g = _horses_game()
    g.place_cowboys(square="wages", seats=[0, 0, 1])
    for seat in range(3):
        g.set_player(seat, money=10)
    g.resume_at("wages")
    assert g.awaiting == "horse"
    assert g.moves(g.to_act[0]) == [{"type": "buy_horse"}, {"type": "decline"}]
    while g.awaiting == "horse":
        g.act({"type": "buy_horse"} if g.to_act == (0,) else {"type": "decline"})
    (paid,) = events_of(g.events, "wages_paid")
    by_seat = {pay["seat"]: pay for pay in paid["payments"]}
    assert by_seat[0] == {"seat": 0, "cowboys": 2, "amount": 4 - 4, "horse": True}
    assert by_seat[1] == {"seat": 1, "cowboys": 1, "amount": 4}
    assert [p.money for p in g.state.players] == [10, 14, 10]
    assert [p.horses for p in g.state.players] == [1, 0, 0]
    assert player_view(g.state, 2)["players"][0]["horses"] == 1


def test_one_horse_a_round_however_many_cowboys_stand_at_wages() -> None:
    """R-BB-6 (`004`: "Cada jugador solo puede comprar un caballo por ronda"): asked once, one horse, and the
    other cowboys take their wages."""
    g = _horses_game()
    g.place_cowboys(square="wages", seats=[0, 0, 0])
    g.set_player(0, money=0)
    g.resume_at("wages")
    g.act({"type": "buy_horse"})
    assert g.awaiting != "horse"
    assert g.state.players[0].horses == 1
    assert g.state.players[0].money == 0 + 2 * 4 - 4


def test_a_player_who_cannot_pay_for_a_horse_is_not_asked() -> None:
    """R-BB-6, decision D87: $3 and one cowboy at Wages cannot pay $4 — the wages are paid without a question."""
    g = _horses_game()
    g.place_cowboys(square="wages", seats=[1])
    g.set_player(1, money=3)
    events, s = run_step(g, "wages")
    assert not events_of(events, "wages_chosen")
    assert s.players[1].money == 7 and s.players[1].horses == 0


def test_without_horses_nobody_is_asked_and_wages_keep_their_shape() -> None:
    """R-BB-6 is an option: without `horses` the Wages square pays as in the base game (`000` "Wages")."""
    g = Game(3, expansions=["big_box"])
    g.claim_starts()
    g.choose(SIX_CARDS[:3])
    g.place_cowboys(square="wages", seats=[0])
    events, s = run_step(g, "wages")
    (paid,) = events_of(events, "wages_paid")
    assert paid["payments"] == [{"seat": 0, "cowboys": 1, "amount": 4}]
    assert "horses" not in player_view(s, 0)["players"][0]


def test_each_horse_is_worth_one_vp_at_the_end() -> None:
    """R-BB-6 (`004` "Final de la partida": "cada caballo te otorga un punto de victoria al final")."""
    g = _horses_game()
    g.with_state(passing_order=(0, 1, 2))
    without, _ = final_scores(g.state)
    g.set_player(0, horses=3)
    scores, _ = final_scores(g.state)
    assert [score["horses"] for score in scores] == [3, 0, 0]
    assert scores[0]["total"] == without[0]["total"] + 3


# --- R-BB-7 ------------------------------------------------------------------------------------------------------


def test_kit_carson_gives_one_vp_per_player_behind_on_the_turn_order_track() -> None:
    """R-BB-7 (`004` "KIT CARSON": "un punto de victoria por jugador detrás en el marcador del orden de turno";
    RULING X4; decision D88: the track at the end is round 4's passing order, `000` "End Of The Game")."""
    g = Game(4, expansions=["big_box"], kit_carson=True)
    g.with_state(passing_order=(2, 0, 3, 1))
    scores, _ = final_scores(g.state)
    assert [score["kit_carson"] for score in scores] == [2, 0, 3, 1]
    assert all("horses" not in score for score in scores)


def test_without_kit_carson_the_score_has_no_such_part() -> None:
    """R-BB-7 is an option of Big Box: not chosen, nobody scores it."""
    g = Game(4, expansions=["big_box"])
    g.with_state(passing_order=(2, 0, 3, 1))
    scores, _ = final_scores(g.state)
    assert all("kit_carson" not in score for score in scores)


def test_a_timed_out_horse_decision_takes_the_wages() -> None:
    """Decision D89: the clock's move never spends money, so a timed-out player takes $4 and no horse."""
    g = _horses_game()
    g.place_cowboys(square="wages", seats=[0])
    g.set_player(0, money=10)
    g.resume_at("wages")
    assert default_move(g.state, 0) == {"type": "decline"}
    g.act({"type": "decline"})
    assert g.state.players[0].money == 14 and g.state.players[0].horses == 0


# --- R-BB-1: the cards of a game with Big Box ------------------------------------------------------------------


def _cards(variants: dict[str, object], seed: int = 1, players: int = 3) -> tuple[str, ...]:
    return replay(new_game(GameConfig.from_variants(players, variants, preview=True), seed)).cards


def test_the_pool_of_cards_grows_with_the_expansions_and_the_cowboy_needs_horses() -> None:
    """R-BB-1 (RULINGS G1, X5; decision D90; `004` "El Vaquero": "Sólo puedes jugar con el Vaquero (cara
    amarilla) si juegas con la variante CABALLOS"): Big Box adds 0, 16, 17, and 15 only with horses."""
    assert GameConfig.from_variants(3, BIG_BOX, preview=True).card_pool == (
        "newspaper_boy", *SIX_CARDS, "mercenary", "heroes", "teacher")
    with_horses = GameConfig.from_variants(3, {**BIG_BOX, "horses": True}, preview=True).card_pool
    assert "cowboy" in with_horses and len(with_horses) == 11
    everything = GameConfig.from_variants(
        3, {"expansions": ["gold_and_guns", "big_box"], "horses": True}, preview=True).card_pool
    assert [PERSONALITIES[card].number for card in everything] == list(range(18))
    assert GameConfig.from_variants(3, {"expansions": ["gold_and_guns"]}, preview=True).card_pool == tuple(
        CARD_BY_NUMBER[n] for n in range(1, 15))


def test_the_admin_chooses_seven_cards_or_eight_with_the_newspaper_boy() -> None:
    """R-BB-1 (`004` "Preparación": "se cogen 7 tarjetas de personajes (8 si jugamos con el personaje de
    Repartidor de periódicos)"; decision D90): 0 and 15-17 only with Big Box, 15 only with horses."""
    chosen = GameConfig.from_variants(3, {**BIG_BOX, "characters": [17, 0, 1, 2, 3, 4, 5, 16]}, preview=True)
    assert chosen.characters == (0, 1, 2, 3, 4, 5, 16, 17)
    assert replay(new_game(chosen, 2)).cards == ("newspaper_boy", *SIX_CARDS[:5], "heroes", "teacher")
    assert GameConfig.from_variants(3, {**BIG_BOX, "characters": [1, 2, 3, 4, 5, 16, 17]}, preview=True).characters
    horses = {**BIG_BOX, "horses": True}
    assert GameConfig.from_variants(3, {**horses, "characters": [1, 2, 3, 4, 5, 6, 15]}, preview=True).characters
    for variants, wrong in (
        (BIG_BOX, [0, 1, 2, 3, 4, 5, 6]),  # with the Newspaper Boy, 8
        (BIG_BOX, [1, 2, 3, 4, 5, 6, 7, 16]),  # without him, 7
        (BIG_BOX, [1, 2, 3, 4, 5, 6, 15]),  # the Cowboy without horses
        (BIG_BOX, [1, 2, 3, 4, 5, 6, 8]),  # a Gold & Guns card without Gold & Guns
        ({"expansions": ["gold_and_guns"]}, [1, 2, 3, 4, 5, 6, 16]),  # a Big Box card without Big Box
    ):
        with pytest.raises(ConfigError) as refused:
            GameConfig.from_variants(3, {**variants, "characters": wrong}, preview=True)
        assert refused.value.setting == "characters"


def test_without_a_choice_seven_cards_are_drawn_and_the_newspaper_boy_comes_on_top() -> None:
    """R-BB-1 (`004` "Preparación"; decision D90): the pool shuffled, cards taken until 7 others than the
    Newspaper Boy are in; the draw is written into `game_started` and the Big Box cards have their fixed side."""
    seen_boy = seen_without = False
    for seed in range(20):
        events = new_game(GameConfig.from_variants(
            4, {"expansions": ["gold_and_guns", "big_box"], "horses": True, "sides": "random"}, preview=True), seed)
        cards = events[0]["characters"]
        boy = "newspaper_boy" in cards
        seen_boy, seen_without = seen_boy or boy, seen_without or not boy
        assert len(cards) == len(set(cards)) == 7 + boy
        assert cards == sorted(cards, key=lambda c: PERSONALITIES[c].number)
        assert set(events[0]["sides"]) == set(cards) - {"doctor", "newspaper_boy", "cowboy", "heroes", "teacher"}
        assert replay(events).cards == tuple(cards)
    assert seen_boy and seen_without


# --- R-BB-5: the Cowboy ------------------------------------------------------------------------------------------


def _big_box_table(characters: list[int], players: int = 3, **variants: object) -> Game:
    """A Big Box game with these cards, starting parcels on the north border, waiting for the first card."""
    g = Game(players, expansions=variants.pop("expansions", ["big_box"]), characters=characters, **variants)
    g.claim_starts([(x, 1) for x in range(1, 9)])
    assert g.awaiting == "personality"
    return g


def test_the_cowboy_puts_a_horse_into_the_reserve_and_has_a_limit_of_20() -> None:
    """R-BB-5 (`004` "El Vaquero": "Recibes un nuevo Caballo que colocas en tu reserva personal ... Límite de
    dinero : $20"; RULING X6): chosen, a horse at once, written into the choice; 1 VP for it at the end."""
    g = _big_box_table([1, 2, 3, 4, 5, 6, 15], horses=True)
    seat = g.to_act[0]
    (chosen,) = g.act({"type": "choose_personality", "card": "cowboy"})[:1]
    assert chosen["horses"] == 1
    assert g.state.players[seat].horses == 1
    assert player_view(g.state, None)["players"][seat]["cash_limit"] == 20
    assert player_view(g.state, None)["players"][seat]["horses"] == 1


# --- R-BB-4: the Heroes ------------------------------------------------------------------------------------------


def _heroes_town(**variants: object) -> Game:
    """Round 1's placement: seat 0 holds the Heroes, seat 1 the Banker, seat 2 the Sheriff; an empty board with
    a hotel of each of seats 0 and 1 beside the centre's roads."""
    g = _big_box_table([1, 2, 3, 4, 5, 6, 16], **variants)
    g.with_state(choosing_order=(0, 1, 2))
    g.choose(["heroes", "banker", "sheriff"])
    g.clear_board()
    g.with_state(roads=frozenset(SIDES[parcel_index(4, 4)]))
    g.put(3, 3, owner=0, content="hotel")
    g.put(5, 5, owner=1, content="hotel")
    return g


def test_nobody_attacks_the_heroes_buildings_and_the_heroes_attack_nobody() -> None:
    """R-BB-4 (`004` "Los héroes": "todos tus edificios son inmunes a los ataques de otros jugadores ... No
    puedes atacar los edificios de otros jugadores"; RULING X5): the other players may not go to the Heroes'
    hotel, the Heroes may go to no building (theirs needs no defence), and the others' buildings stay open."""
    g = _heroes_town()
    hotel_of_heroes, hotel_of_banker = {"type": "place_cowboy", "x": 3, "y": 3}, {"type": "place_cowboy", "x": 5,
                                                                                  "y": 5}
    assert PERSONALITIES["heroes"].yellow.cash_limit == 240
    assert player_view(g.state, None)["players"][0]["cash_limit"] == 240
    spots = {seat: cowboy_spots(g.state, seat) for seat in range(3)}  # where each may place a cowboy now
    assert hotel_of_heroes not in spots[0] and hotel_of_banker not in spots[0]
    assert hotel_of_heroes not in spots[2] and hotel_of_banker in spots[2]
    assert hotel_of_banker in spots[1]  # its owner defends it as ever


def test_an_outlaw_leaves_the_heroes_buildings_alone() -> None:
    """R-BB-4 (`004` "Los héroes": "considera que los ingresos de todos tus edificios son igual a cero ... Si un
    Forajido se encuentra en uno de tus edificios durante el pago de ingresos, cobras el total"; decision D92):
    the outlaws see the hotel as earning nothing, the Heroes earn it in full with an outlaw on it, while the
    Banker's hotel with an outlaw keeps half."""
    g = _heroes_town(expansions=["big_box", "outlaws"])
    parcels = list(g.state.parcels)
    for x, y in ((3, 3), (5, 5)):
        parcels[parcel_index(x, y)] = replace(parcels[parcel_index(x, y)], outlaw=True)
    g.with_state(parcels=tuple(parcels), outlaw_strength=10)
    assert current_income(g.state, parcel_index(3, 3)) == 0 and current_income(g.state, parcel_index(5, 5)) == 6
    paid = {(p["x"], p["y"]): p["owner_gets"] for p in estate_payments(g.state)}
    assert paid[3, 3] == 6 and paid[5, 5] == 3


def test_the_winner_of_a_fight_on_the_heroes_building_takes_only_the_vp() -> None:
    """R-BB-4, decision D92: half the income of the Heroes' building is not there to take (its income is 0 to
    the outlaws), so the winner is not asked and takes the VP."""
    g = _heroes_town(expansions=["big_box", "outlaws"])
    parcels = list(g.state.parcels)
    parcels[parcel_index(3, 3)] = replace(parcels[parcel_index(3, 3)], outlaw=True)
    g.with_state(parcels=tuple(parcels), outlaw_strength=8)
    g.set_player(2, cowboys=0, revolvers=20)
    g.place_cowboys(xy=(3, 3), seats=[2])
    events, _ = run_step(g, "estate_income")
    (reward,) = events_of(events, "outlaw_reward_taken")
    assert reward["seat"] == 2 and reward["reward"] == "vp"


# --- R-BB-3: the Teacher -----------------------------------------------------------------------------------------


def test_the_teachers_holder_chooses_first_next_round_whatever_the_passing_order() -> None:
    """R-BB-3 (`004` "La Profesora": "te permitirá ser el primer jugador en la siguiente ronda, no importa
    cuando pases"; RULING X3): the Teacher's holder passed last, yet chooses first in round 2; the others keep
    their passing order."""
    g = _big_box_table([1, 2, 3, 4, 5, 6, 17])
    g.with_state(choosing_order=(0, 1, 2))
    g.choose(["teacher", "banker", "sheriff"])
    assert player_view(g.state, None)["players"][0]["cash_limit"] == 60
    for seat in range(3):
        g.set_player(seat, money=0)
    g.resume_at("round_end", passing_order=(2, 1, 0))
    assert g.state.round == 2 and g.state.choosing_order == (0, 2, 1)


def test_the_teacher_is_red_in_round_four_and_gives_only_its_cash_limit() -> None:
    """R-BB-3 (`004`: "debes usar su cara amarilla las tres primeras rondas del juego, y su cara roja en la ronda
    4"; RULING X3, decision D91: the red side has no text in our sources and gives only its limit of $60)."""
    g = _big_box_table([1, 2, 3, 4, 5, 6, 17])
    assert g.state.sides.get("teacher") is None and PERSONALITIES["teacher"].yellow.chooses_first
    g.with_state(round=3)
    for seat in range(3):
        g.set_player(seat, money=0)
    g.resume_at("round_end", passing_order=(2, 1, 0))
    assert g.state.round == 4 and g.state.sides["teacher"] == "red"
    seat = g.to_act[0]
    g.act({"type": "choose_personality", "card": "teacher"})
    side = g.state.side(seat)
    assert side == PERSONALITIES["teacher"].red and side.cash_limit == 60 and not side.chooses_first
    assert "no text in our sources" in side.text
    assert player_view(g.state, None)["players"][seat]["side"] == "red"


# --- R-BB-2: the Newspaper Boy -----------------------------------------------------------------------------------


def _boy_table(characters: list[int] | None = None, **variants: object) -> tuple[Game, int]:
    """Seat 0 chooses the Newspaper Boy first; returns the game and that seat."""
    g = _big_box_table(characters or [0, 1, 2, 3, 4, 5, 6, 7], **variants)
    g.with_state(choosing_order=(0, 1, 2))
    g.act({"type": "choose_personality", "card": "newspaper_boy"})
    return g, 0


def test_the_newspaper_boy_pays_three_and_copies_any_other_card_but_the_sheriff() -> None:
    """R-BB-2 (`004` "El Repartidor de Periódicos": "Paga 3$ y elige inmediatamente otro personaje en juego a
    excepción del Sheriff"; RULING X2): $3 paid, then the copy is asked of him: every other card of the game
    (taken or not), never the Sheriff nor himself."""
    g, boy = _boy_table()
    assert g.state.players[boy].money == 15 - 3
    assert g.awaiting == "newspaper_boy" and g.to_act == (boy,)
    assert [m["card"] for m in g.moves()] == ["banker", "grocer", "chinese_worker", "settler", "captain",
                                             "mercenary"]


def test_the_copy_gives_the_cards_abilities_and_cash_limit_and_he_places_as_zero() -> None:
    """R-BB-2 (`004`: "Utilizas las habilidades de ese nuevo personaje como de costumbre, incluyendo su límite de
    dinero, pero aplicas el valor “0” de esta carta para determinar el orden de turno"): the Banker copied gives
    $9 and a limit of $120; the Banker is still there for the others; the Newspaper Boy places first."""
    g, boy = _boy_table()
    (copied,) = g.act({"type": "copy_card", "card": "banker"})
    assert copied == {"type": "card_copied", "seat": boy, "card": "banker", "side": "yellow", "money": 9}
    assert g.state.players[boy].money == 15 - 3 + 9
    assert {"type": "choose_personality", "card": "banker"} in g.moves()
    g.choose(["banker", "mercenary"])
    assert g.state.placement_order[0] == boy
    row = player_view(g.state, 1)["players"][boy]
    assert row["personality"] == "newspaper_boy" and row["copies"] == "banker" and row["cash_limit"] == 120
    assert g.state.side(boy) == PERSONALITIES["banker"].yellow


def test_a_card_copied_asks_its_own_decision() -> None:
    """R-BB-2 ("Utilizas las habilidades de ese nuevo personaje como de costumbre"): the Settler copied asks for
    its parcel, as it asks its holder."""
    g, boy = _boy_table()
    g.act({"type": "copy_card", "card": "settler"})
    assert g.awaiting == "settler" and g.to_act == (boy,)
    move = g.moves()[0]
    g.act(move)
    assert g.state.parcels[parcel_index(move["x"], move["y"])].owner == boy


def test_without_three_dollars_the_newspaper_boy_cannot_be_chosen() -> None:
    """R-BB-2, decision D94: his $3 is paid before anything else, so a player with less does not choose him."""
    g = _big_box_table([0, 1, 2, 3, 4, 5, 6, 7])
    g.set_player(g.to_act[0], money=2)
    assert "newspaper_boy" not in {m["card"] for m in g.moves()}
    g.set_player(g.to_act[0], money=3)
    assert "newspaper_boy" in {m["card"] for m in g.moves()}


def test_two_red_bankers_both_buy_their_vp() -> None:
    """R-BB-2 with R-PER-11 (decision D95): the Newspaper Boy copying the red Banker is asked for the purchase as
    the Banker's holder is, each in placement order."""
    g = Game(3, expansions=["big_box"], characters=[0, 1, 2, 3, 4, 5, 6, 7], sides="red")
    g.claim_starts([(x, 1) for x in range(1, 9)])
    g.with_state(choosing_order=(0, 1, 2))
    g.act({"type": "choose_personality", "card": "newspaper_boy"})
    g.act({"type": "copy_card", "card": "banker"})
    g.choose(["banker", "mercenary"])
    for seat in range(3):
        g.set_player(seat, money=50)
    g.resume_at("banker_vp")
    assert g.awaiting == "banker_vp" and g.to_act == (0,)
    g.act({"type": "banker_vp", "vp": 3})
    assert g.awaiting == "banker_vp" and g.to_act == (1,)
    g.act({"type": "banker_vp", "vp": 5})
    assert g.awaiting != "banker_vp"
    assert [p.money for p in g.state.players][:2] == [50 - 3, 50 - 12]


def test_the_doctor_copied_shows_one_side() -> None:
    """R-BB-2 with the Doctor / Undertaker (decision D95): not chosen yet, the copy names its side, and the card
    then shows that side to whoever chooses it; chosen already, the copy takes its holder's side."""
    g = _big_box_table([0, 1, 2, 3, 4, 5, 6, 14], expansions=["big_box", "gold_and_guns"])
    g.with_state(choosing_order=(0, 1, 2))
    g.act({"type": "choose_personality", "card": "newspaper_boy"})
    assert {"type": "copy_card", "card": "doctor", "side": "red"} in g.moves()
    g.act({"type": "copy_card", "card": "doctor", "side": "red"})
    assert [m for m in g.moves() if m["card"] == "doctor"] == [
        {"type": "choose_personality", "card": "doctor", "side": "red"}]
    assert g.state.side(0) == PERSONALITIES["doctor"].red


def _two_doctors(side: str) -> Game:
    """Seat 0's Newspaper Boy copies the Doctor / Undertaker on `side`, seat 1 holds the card, seat 2 the Banker;
    round 1's placement with the Outlaws on an empty board."""
    g, boy = _boy_table([0, 1, 2, 3, 4, 5, 6, 14], expansions=["big_box", "gold_and_guns", "outlaws"])
    g.act({"type": "copy_card", "card": "doctor", "side": side})
    g.act({"type": "choose_personality", "card": "doctor", "side": side})
    g.act({"type": "choose_personality", "card": "banker"})
    assert g.awaiting == "placement" and g.state.placement_order == (boy, 2, 1)
    g.clear_board()
    return g


@pytest.mark.parametrize(("side", "amount"), [("yellow", 3), ("red", 2)])
def test_a_copied_doctor_or_undertaker_and_the_cards_holder_both_take_the_outlaw_bounty(side: str, amount: int) -> None:
    """R-BB-8 (RULING X7: "what the bank pays for an event (the Doctor's $3 and the Undertaker's $2 per outlaw
    removed ...) is paid to each of them"; `004`: the copier uses the card's abilities "como de costumbre";
    decision D95): the Banker's holder beats an outlaw; the card's holder and the Newspaper Boy each take the
    bounty from the bank, written into the fight."""
    g = _two_doctors(side)
    parcels = list(g.state.parcels)
    parcels[parcel_index(3, 3)] = replace(parcels[parcel_index(3, 3)], outlaw=True)
    g.with_state(parcels=tuple(parcels), outlaw_strength=8)
    g.set_player(2, cowboys=0, revolvers=20)
    g.place_cowboys(xy=(3, 3), seats=[2])
    money = [p.money for p in g.state.players]
    events, state = run_step(g, "estate_income")
    (fought,) = events_of(events, "outlaw_fought")
    assert fought["winner"] == 2
    assert fought["bounty"] == {"seat": 1, "amount": amount}
    assert fought["copier_bounty"] == {"seat": 0, "amount": amount}
    income = {p["owner"]: p["owner_gets"] for p in events_of(events, "estate_income_paid")[0]["payments"]}
    assert [state.players[s].money - money[s] - income.get(s, 0) for s in (0, 1)] == [amount, amount]


def test_a_copied_doctors_patient_pays_the_cards_holder_once() -> None:
    """R-BB-8 (RULING X7: "What a defeated cowboy's owner pays or chooses (a heal, the Undertaker's toll) happens
    once, to the card's holder"; decision D95): the Banker's holder, beaten on Ammunition, is the patient of the
    card's holder (seat 1), not of the Newspaper Boy who places first, and pays him $3."""
    g = _two_doctors("yellow")
    g.set_player(0, cowboys=0, revolvers=20)
    g.set_player(2, cowboys=0, revolvers=0)
    g.with_state(squares={"ammunition": (COWBOYS[0, False], COWBOYS[2, False])})
    g.resume_at("ammunition")
    assert g.awaiting == "doctor" and g.to_act == (2,)
    before = g.state
    (healed,) = g.act({"type": "heal_cowboy", "square": "cowboy_income"})[:1]
    assert healed == {"type": "cowboy_healed", "seat": 2, "doctor": 1, "price": 3, "square": "cowboy_income"}
    after = evolve(before, healed)
    assert [after.players[s].money - before.players[s].money for s in range(3)] == [0, 3, -3]


def test_a_timed_out_newspaper_boy_copies_the_first_card_listed() -> None:
    """Decision D96: the copy cannot be declined ($3 is paid); the clock takes the first card listed."""
    g, boy = _boy_table()
    assert default_move(g.state, boy) == {"type": "copy_card", "card": "banker"}


def test_the_heroes_beating_an_outlaw_on_another_players_building_take_the_vp() -> None:
    """R-BB-4, decision D92: the Heroes attack nobody's buildings (`004`: "No puedes atacar los edificios de otros
    jugadores"), so, beating the outlaw on the Banker's hotel, they are not offered half its income."""
    g = _heroes_town(expansions=["big_box", "outlaws"])
    parcels = list(g.state.parcels)
    parcels[parcel_index(5, 5)] = replace(parcels[parcel_index(5, 5)], outlaw=True)
    g.with_state(parcels=tuple(parcels), outlaw_strength=8)
    assert {"type": "place_cowboy", "x": 5, "y": 5} in cowboy_spots(g.state, 0)  # a fight is no attack (D53)
    g.set_player(0, cowboys=0, revolvers=20)
    g.place_cowboys(xy=(5, 5), seats=[0])
    events, _ = run_step(g, "estate_income")
    (reward,) = events_of(events, "outlaw_reward_taken")
    assert reward["seat"] == 0 and reward["reward"] == "vp"


def test_a_newspaper_boy_copying_the_teacher_chooses_first_too_after_the_teacher_by_passing_order() -> None:
    """R-BB-3 with R-BB-2, decision D93: two holders who "choose first" lead next round's choice in the order
    they passed; the third player follows."""
    g = _big_box_table([0, 1, 2, 3, 4, 5, 6, 17])
    g.with_state(choosing_order=(0, 1, 2))
    g.act({"type": "choose_personality", "card": "newspaper_boy"})
    g.act({"type": "copy_card", "card": "teacher"})
    g.choose(["teacher", "banker"])
    for seat in range(3):
        g.set_player(seat, money=0)
    g.resume_at("round_end", passing_order=(2, 1, 0))
    assert g.state.choosing_order == (1, 0, 2)
