"""Final scoring (`000` "End Of The Game"; `003` "Comment compte-t-on les points"; RULING B17): R-END-6 .. R-END-8.

Each scenario shapes round 4's final board and runs the end of the round; the finished state carries every
player's score broken down and the winner.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.rules import player_view
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import ready

ITEM_VP = 2  # "Each building, house and mountain gives 2 victory points to their respective owner"
MONEY_PER_VP = 6  # "Any remaining money is also used to buy victory points (at $6 per victory point)"


def last_round() -> Game:
    g = ready()
    g.clear_board()
    g.with_state(round=4)
    for seat in range(3):
        g.set_player(seat, money=0, vp=0)
    return g


def finish(g: Game, passing_order: Iterable[int] = (0, 1, 2)) -> None:
    events = g.resume_at("round_end", passing_order)
    assert events_of(events, "game_finished")
    assert g.state.status == "finished"


def test_items_on_own_parcels_and_money() -> None:
    """R-END-6: 2 VP per building, house and mountain on one's own parcels, plus money // 6, plus the VP scored
    during the game (`000` "End Of The Game", RULING B17)."""
    g = last_round()
    g.put(2, 2, owner=0, content="saloon")
    g.put(3, 2, owner=0, content="ranch")
    g.put(4, 2, owner=0, content="house")
    g.put(5, 2, owner=0, content="mountain")
    g.set_player(0, money=23, vp=5)
    finish(g)
    score = g.state.scores[0]
    assert score == {
        "during_game": 5,
        "buildings": ITEM_VP * 2,
        "houses": ITEM_VP * 1,
        "mountains": ITEM_VP * 1,
        "money": 23 // MONEY_PER_VP,
        "total": 5 + ITEM_VP * 4 + 23 // MONEY_PER_VP,
    }


def test_items_belong_to_the_parcel_owner() -> None:
    """R-END-6: a house counts for the owner of its parcel (RULING B12), owner-free houses and mountains for
    nobody (`000`: "to their respective owner")."""
    g = last_round()
    g.put(2, 2, owner=0, content="bank")
    g.put(3, 2, owner=1, content="house")  # the bank's house, granted on seat 1's parcel
    g.put(4, 4, content="house")
    g.put(5, 5, content="mountain")
    finish(g)
    totals = [score["total"] for score in g.state.scores]
    assert totals == [ITEM_VP, ITEM_VP, 0]
    assert g.state.scores[1]["houses"] == ITEM_VP


def test_money_rounds_down() -> None:
    """R-END-6: $6 per VP, the rest is worth nothing: $35 is 5 VP (`000` "End Of The Game", `003`)."""
    g = last_round()
    g.set_player(0, money=35)
    g.set_player(1, money=5)
    g.set_player(2, money=6)
    finish(g)
    assert [score["money"] for score in g.state.scores] == [5, 0, 1]


def test_reserve_buildings_and_empty_parcels_score_nothing() -> None:
    """R-END-7: buildings kept in reserve and empty parcels give nothing (`000`: "Empty private parcels as well as
    buildings in the player's reserve do not reward victory points", `003` "Un bâtiment acheté mais pas posé
    ne compte pas")."""
    g = last_round()
    g.put(2, 2, owner=0)
    g.put(3, 3, owner=0)
    g.set_player(0, buildings=("hotel", "mine"))
    finish(g)
    assert g.state.scores[0]["total"] == 0


def test_highest_total_wins() -> None:
    """R-END-8: the player with the most VP wins, whatever the passing order (`000` "End Of The Game")."""
    g = last_round()
    g.set_player(1, vp=3)
    g.set_player(2, vp=2)
    finish(g, passing_order=(0, 2, 1))
    assert g.state.winner == 1


def test_tie_goes_to_the_earliest_passer_of_round_four() -> None:
    """R-END-8: among tied players, the one who passed earliest in the last round wins (`000` "End Of The Game",
    `003` "Égalité", RULING B17)."""
    for order, winner in (((2, 1, 0), 2), ((0, 1, 2), 0), ((1, 0, 2), 0)):
        g = last_round()
        g.put(2, 2, owner=0, content="church")  # 2 VP
        g.set_player(2, money=12)  # 2 VP
        g.set_player(1, vp=1)
        finish(g, passing_order=order)
        assert [score["total"] for score in g.state.scores] == [2, 1, 2]
        assert g.state.winner == winner, order


def test_finished_state_shows_the_breakdown_and_winner() -> None:
    """R-END-6, R-END-8: the final state shows each player's score broken down and the winner (RULING B17)."""
    g = last_round()
    g.put(2, 2, owner=2, content="hotel")
    g.set_player(2, money=13, vp=4)
    finish(g)
    view = player_view(g.state, 0)
    assert view["winner"] == 2 == g.state.winner
    shown = [p["score"] for p in view["players"]]
    assert shown == [dict(score) for score in g.state.scores]
    assert shown[2] == {"during_game": 4, "buildings": ITEM_VP, "houses": 0, "mountains": 0,
                        "money": 13 // MONEY_PER_VP, "total": 4 + ITEM_VP + 13 // MONEY_PER_VP}
