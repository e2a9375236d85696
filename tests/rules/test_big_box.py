"""Big Box (`004`; RULINGS X1, X4, X6): six players, horses bought at Wages, Kit Carson's VP at the end.

R-BB-1, R-BB-6 and R-BB-7 of the checklist; the cards of the expansion (R-BB-2 .. R-BB-5) are not played yet.
Decisions D87-D89.
"""

from __future__ import annotations

import pytest

from app.rules import GameConfig, new_game, replay
from app.rules.catalog import DUEL_TILE_VALUES, MIGHT_MONEY_BEFORE_TILES
from app.rules.defaults import default_move
from app.rules.errors import ConfigError
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
