"""The red sides of the personality cards (`000` "Variants" / "The red sides of personality cards"; RULING V1;
decision D24): all yellow, all red, random per card, or a per-card vote — one small move per card, every
player at the same time, hidden until everyone has voted on every card; the majority wins, a tie is drawn."""

from __future__ import annotations

import pytest

from app.rules import IllegalMove, player_view, redact_event
from tests.rules.builders import Game, events_of

CARDS = ("sheriff", "banker", "grocer", "chinese_worker", "settler", "captain", "mercenary")  # `000` 1-7


def vote_all(g: Game, seat: int, side: str | dict[str, str]) -> None:
    """`seat` votes on every card: the same side for all, or one per card."""
    for card in CARDS:
        chosen = side if isinstance(side, str) else side[card]
        g.move(seat, {"type": "vote_side", "card": card, "side": chosen})


def decided(g: Game) -> dict[str, object]:
    (event,) = events_of(g.events, "sides_decided")
    return event


# --- R-VAR-1: the four settings -------------------------------------------------------------------------------


@pytest.mark.parametrize("side", ["yellow", "red"])
def test_r_var_1_all_yellow_or_all_red(side: str) -> None:
    """R-VAR-1 (`000` "The red sides": yellow in the standard game, red as a variant; RULING V1): every card
    is played on the chosen side, nobody votes."""
    g = Game(3, sides=side)
    assert g.state.sides == {card: side for card in CARDS}
    assert g.awaiting == "start_parcel"


def test_r_var_1_random_sides_are_drawn_per_card_and_recorded() -> None:
    """R-VAR-1 (`000`: "Random choice is also available"; RULING V1 "random per card"; D20: every draw is
    written into its event): each card gets its own side, both sides occur, and the draw is in the log."""
    seen: dict[str, set[str]] = {card: set() for card in CARDS}
    mixed = False
    for seed in range(1, 41):
        g = Game(3, seed, sides="random")
        started = g.events[0]
        assert started["type"] == "game_started"
        assert started["sides"] == dict(g.state.sides)
        assert set(g.state.sides) == set(CARDS)
        for card, side in g.state.sides.items():
            seen[card].add(side)
        mixed |= len(set(g.state.sides.values())) == 2
        assert g.awaiting == "start_parcel"
    assert all(sides == {"yellow", "red"} for sides in seen.values())
    assert mixed  # per card, not one draw for the whole set


# --- R-VAR-1 / D24: the vote ----------------------------------------------------------------------------------


def test_r_var_1_vote_is_awaited_from_every_seat_at_once_before_the_starting_parcels() -> None:
    """R-VAR-1, D24 (RULING V1; `000`: "each player may choose the side of each card at the beginning of the
    game"): the vote comes first, every seat is asked at the same time, one move per card and side."""
    g = Game(4, sides="vote")
    assert g.awaiting == "vote"
    assert g.to_act == (0, 1, 2, 3)
    assert not g.state.sides
    expected = [{"type": "vote_side", "card": card, "side": side} for card in CARDS for side in ("yellow", "red")]
    for seat in range(4):
        assert sorted(map(str, g.moves(seat))) == sorted(map(str, expected))


def test_r_var_1_a_seat_stays_awaited_until_it_voted_on_every_card() -> None:
    """R-VAR-1 (RULING V1: "hidden until every player has voted on every card"): `to_act` holds every seat
    that has not voted on all seven cards, in any order of the seats."""
    g = Game(3, sides="vote")
    for card in CARDS[:-1]:
        g.move(1, {"type": "vote_side", "card": card, "side": "red"})
        assert g.to_act == (0, 1, 2)
    g.move(1, {"type": "vote_side", "card": CARDS[-1], "side": "red"})
    assert g.to_act == (0, 2)
    g.move(2, {"type": "vote_side", "card": "captain", "side": "yellow"})
    assert g.to_act == (0, 2)
    assert g.moves(1) == []
    with pytest.raises(IllegalMove):
        g.move(1, {"type": "vote_side", "card": "banker", "side": "yellow"})


def test_d24_a_vote_cannot_be_changed_once_cast() -> None:
    """D24: one move per card, no change once cast."""
    g = Game(2, sides="vote")
    g.move(0, {"type": "vote_side", "card": "banker", "side": "red"})
    assert not [m for m in g.moves(0) if m["card"] == "banker"]
    for side in ("yellow", "red"):
        with pytest.raises(IllegalMove):
            g.move(0, {"type": "vote_side", "card": "banker", "side": side})
    assert g.state.votes[0] == {"banker": "red"}


def test_r_var_1_majority_wins_per_card() -> None:
    """R-VAR-1 (`000`: "the personality cards will be played with the side the most players wanted to play
    with"; RULING V1): with three voters there is always a majority, card by card."""
    g = Game(3, sides="vote")
    vote_all(g, 0, {card: "red" if k % 2 else "yellow" for k, card in enumerate(CARDS)})
    vote_all(g, 1, "red")
    vote_all(g, 2, {card: "yellow" if card == "sheriff" else "red" for card in CARDS})
    expected = {card: "red" for card in CARDS}
    expected["sheriff"] = "yellow"  # yellow, red, yellow
    expected["grocer"] = "red"  # yellow, red, red
    assert decided(g)["sides"] == expected
    assert decided(g)["drawn"] == []
    assert g.state.sides == expected
    assert g.awaiting == "start_parcel"  # D24: the sides are known before anything else happens


def test_r_var_1_a_tie_is_drawn_at_random_and_recorded() -> None:
    """R-VAR-1 (`000`: "In case of a tie, the side is randomly chosen"; RULING V1; D20): a tied card is drawn,
    the draw is listed in `sides_decided`; a card with a majority is not drawn."""
    outcomes: set[str] = set()
    for seed in range(1, 31):
        g = Game(4, seed, sides="vote")
        vote_all(g, 0, "red")
        vote_all(g, 1, "yellow")
        vote_all(g, 2, "red")
        vote_all(g, 3, {card: "red" if card == "mercenary" else "yellow" for card in CARDS})
        event = decided(g)
        tied = [card for card in CARDS if card != "mercenary"]
        assert sorted(event["drawn"]) == sorted(tied)
        assert event["sides"]["mercenary"] == "red"  # three red votes against one
        for card in tied:
            assert event["sides"][card] in ("yellow", "red")
            outcomes.add(event["sides"][card])
        assert g.state.sides == event["sides"]
    assert outcomes == {"yellow", "red"}


def test_r_var_1_two_players_disagreeing_is_a_tie() -> None:
    """R-VAR-1 (`000` "In case of a tie"): with two players, one red and one yellow vote tie every card."""
    g = Game(2, sides="vote")
    vote_all(g, 0, "red")
    vote_all(g, 1, "yellow")
    assert sorted(decided(g)["drawn"]) == sorted(CARDS)


def test_r_var_1_r_web_2_votes_are_hidden_until_everyone_voted() -> None:
    """R-VAR-1, R-WEB-2 (RULING V1: "hidden until every player has voted on every card"; D24: revealed with
    the sides in `sides_decided`): other seats and spectators see that a player voted and how often, never
    the side; the voter sees their own votes; nothing is decided yet."""
    g = Game(3, sides="vote")
    cast = g.move(0, {"type": "vote_side", "card": "banker", "side": "red"})
    (voted,) = events_of(cast, "side_voted")
    assert redact_event(voted, 0)["side"] == "red"
    for viewer in (1, 2, None):
        shown = redact_event(voted, viewer)
        assert "side" not in shown
        assert shown["card"] == "banker" and shown["seat"] == 0
        view = player_view(g.state, viewer)
        assert view["players"][0]["votes"] is None
        assert view["players"][0]["votes_cast"] == 1
        assert "red" not in str(view["players"][0])
        assert all(row["side"] is None for row in view["personalities"])
    assert player_view(g.state, 0)["players"][0]["votes"] == {"banker": "red"}

    vote_all(g, 1, "yellow")
    vote_all(g, 2, "yellow")
    for card in CARDS[2:]:
        g.move(0, {"type": "vote_side", "card": card, "side": "red"})
    assert g.awaiting == "vote"  # seat 0 has not voted on the Sheriff yet
    g.move(0, {"type": "vote_side", "card": "sheriff", "side": "red"})
    event = decided(g)
    # Revealed together: every seat's votes, public to everyone.
    assert event["votes"] == {"0": {card: "red" for card in CARDS}, "1": {card: "yellow" for card in CARDS},
                              "2": {card: "yellow" for card in CARDS}}
    assert redact_event(event, None) == event
    assert not g.state.votes
    assert all(row["side"] == "yellow" for row in player_view(g.state, None)["personalities"])


def test_r_var_1_the_voted_sides_are_played() -> None:
    """R-VAR-1: the decided side is the side a chosen card is played on (`000` "Personalities": the Banker
    gives $9 on its yellow side)."""
    g = Game(3, sides="vote")
    for seat in range(3):
        vote_all(g, seat, "yellow")
    g.claim_starts()
    assert g.awaiting == "personality"
    seat = g.to_act[0]
    before = g.state.players[seat].money
    g.act({"type": "choose_personality", "card": "banker"})
    assert g.state.players[seat].money == before + 9


def test_r_var_1_the_state_document_names_the_vote_phase() -> None:
    """R-VAR-1 (RULING V1: the vote at game start; API.md: `status` "active" while the game runs): the state
    document shows the vote as the current phase, not a finished game."""
    g = Game(3, sides="vote")
    view = player_view(g.state, 0)
    assert (view["status"], view["phase"], view["awaiting"]) == ("active", "vote", "vote")
