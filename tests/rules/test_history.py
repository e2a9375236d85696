"""Past positions (issue 14 "History", API.md "History"; `app.rules.history`): every position is what its viewer
saw then, no position shows another seat's secret before it was revealed (RULINGS V1, V2, V4: votes, Might Is
Right tiles, A New Beginning's baskets), and a finished game shows everything."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules import Event, GameConfig, GameState, legal_moves, new_game, play, player_view, replay, to_act
from app.rules.history import round_starts, seen_log, state_at
from app.rules.rng import Rng
from app.rules.view import redact_event, visible_seq
from tests.rules.invariants import _scrambled_for

SECRETS = {"sides": "vote", "might_is_right": True, "new_beginning": True}


def _game_with_live_views(players: int, variants: dict[str, Any], seed: int
                          ) -> tuple[list[Event], GameState, list[tuple[int | None, dict[str, Any]]]]:
    """A complete random game, and every view each viewer (the seats and a spectator) had of it live, after the
    setup and after each move."""
    config = GameConfig.from_variants(players, variants)
    chooser = random.Random(seed)
    events = new_game(config, seed)
    state = replay(events)
    viewers: list[int | None] = [None, *range(players)]
    live = [(v, player_view(state, v)) for v in viewers]
    while state.status != "finished":
        seat = chooser.choice(to_act(state))
        new, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
        events += new
        live += [(v, player_view(state, v)) for v in viewers]
    return events, state, live


@pytest.fixture(scope="module")
def secret_game() -> tuple[list[Event], GameState, list[tuple[int | None, dict[str, Any]]]]:
    return _game_with_live_views(3, SECRETS, 2024)


def test_every_past_position_is_what_its_viewer_saw_then(
    secret_game: tuple[list[Event], GameState, list[tuple[int | None, dict[str, Any]]]],
) -> None:
    """History: the position a viewer numbers N is the view that viewer had live when the log stood at N — other
    seats' secret basket edits folded in but neither counted nor shown (per-viewer numbering, RULING V4)."""
    events, _, live = secret_game
    for viewer, seen_then in live:
        if seen_then["status"] == "finished":
            continue  # a finished game's history counts and shows everything (below)
        at = seen_then["seq"]
        assert player_view(state_at(events, viewer, at), viewer) == seen_then, (viewer, at)


def test_state_at_is_the_fold_of_the_viewers_first_n_events(
    secret_game: tuple[list[Event], GameState, list[tuple[int | None, dict[str, Any]]]],
) -> None:
    """For every N and viewer: the state after the viewer's N-th event (the same fold as the live state, so an
    undo event will read the same in the past), numbered N; the viewer's log up to it is the log redacted."""
    events, _, _ = secret_game
    for viewer in (None, 0, 1, 2):
        seen = seen_log(events, viewer)
        assert [e.seq for e in seen] == list(range(1, len(seen) + 1))
        assert [e.event for e in seen] == [redact_event(e, viewer) for e in events if redact_event(e, viewer)]
        for n, event in enumerate(seen, start=1):
            state = state_at(events, viewer, n)
            assert state == replay(events[:event.index])
            assert visible_seq(state, viewer) == n
        with pytest.raises(ValueError):
            state_at(events, viewer, len(seen) + 1)
        with pytest.raises(ValueError):
            state_at(events, viewer, 0)


def test_no_past_position_shows_another_seats_secret(
    secret_game: tuple[list[Event], GameState, list[tuple[int | None, dict[str, Any]]]],
) -> None:
    """RULINGS V1, V2, V4 in the past: at no position does a viewer's view depend on another seat's duel tiles,
    chosen tile, votes or basket (scrambling them changes nothing), and no event up to it shows them."""
    events, _, _ = secret_game
    secrets_seen = 0
    for viewer in (None, 0, 1, 2):
        for n in range(1, len(seen_log(events, viewer)) + 1):
            state = state_at(events, viewer, n)
            if state.votes or state.baskets or state.duel_tiles or any(p.tiles for p in state.players):
                secrets_seen += 1
                assert player_view(state, viewer) == player_view(_scrambled_for(state, viewer), viewer), (viewer, n)
            view = player_view(state, viewer)
            for p in view["players"]:
                if p["seat"] != viewer:
                    assert p["tiles"] is None and p["votes"] is None and p["basket"] is None
                    assert p["duel_tile"] is None
    assert secrets_seen > 100, "the game had hidden tiles, votes and baskets to keep"


def test_a_finished_games_past_shows_everything(
    secret_game: tuple[list[Event], GameState, list[tuple[int | None, dict[str, Any]]]],
) -> None:
    """Once the game is over nothing is secret: the log is counted whole and shown unredacted, and every seat's
    hand, vote and basket is in every past position."""
    events, final, _ = secret_game
    seen = seen_log(events, 1, everything=True)
    assert [e.event for e in seen] == events and [e.seq for e in seen] == list(range(1, len(events) + 1))
    dealt = next(i for i, e in enumerate(events, start=1) if e["type"] == "tiles_dealt")
    view = player_view(state_at(events, 1, dealt, everything=True), 1, reveal_all=True)
    assert all(p["tiles"] for p in view["players"])
    voting = next(i for i, e in enumerate(events, start=1) if e["type"] == "side_voted" and e["seat"] != 1)
    view = player_view(state_at(events, 1, voting, everything=True), 1, reveal_all=True)
    assert any(p["votes"] for p in view["players"] if p["seat"] != 1)
    assert view["seq"] == voting
    assert state_at(events, None, len(events), everything=True) == final


def test_round_starts_lead_to_each_rounds_first_position() -> None:
    """`000` "Game Overview": four rounds; jumping to round r shows round r begun, the round before it over."""
    events, _, _ = _game_with_live_views(2, {}, 7)
    seen = seen_log(events, 0)
    starts = round_starts(seen)
    assert [r for r, _ in starts] == [1, 2, 3, 4]
    for number, at in starts:
        assert state_at(events, 0, at).round == number
        assert state_at(events, 0, at - 1).round == number - 1
