"""Taking back a move (decisions D83-D85; `../shared/API.md` "Undo"): the undo is an event of the log whose fold
gives the state as if the move had never been made, while `seq` keeps counting every event; which moves a
player may take back (nothing drawn, nothing revealed, nothing private)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from app.rules import UndoBeyondState, legal_moves, play, player_view, replay, to_act, visible_seq
from app.rules.events import Event
from app.rules.model import GameState
from app.rules.rng import Rng
from app.rules.undo import may_be_undone, move_undone
from tests.rules.builders import Game
from tests.rules.scenarios import ready


def same_game(a: GameState, b: GameState) -> bool:
    """Whether two states are the same position of the game: every field but the log's length (`seq`) and the
    count of private events, which an undo leaves counting the whole log."""
    return all(
        getattr(a, f.name) == getattr(b, f.name)
        for f in fields(GameState)
        if f.compare and f.name not in ("seq", "private_events")
    )


def played(g: Game, seat: int, move: dict[str, Any]) -> tuple[list[Event], int]:
    """Play `move` with a generator of our own, returning its events and how often the generator drew."""
    rng = Rng(g.seed, g.state.seq)
    events, g.state = play(g.state, seat, move, rng)
    g.events += events
    return events, rng.draws


def undo(g: Game, seat: int, events: list[Event]) -> None:
    g.events.append(move_undone(seat, len(events)))
    g.state = replay(g.events)


def placement(g: Game) -> tuple[int, dict[str, Any]]:
    """The awaited seat and its first placement on an action square (no duel can follow from it yet)."""
    (seat,) = g.to_act
    move = next(m for m in legal_moves(g.state, seat) if m["type"] == "place_cowboy" and "square" in m)
    return seat, move


def test_the_fold_of_an_undo_returns_to_the_state_before_the_move() -> None:
    """D83: the undo's fold gives the position before the move (same board, money, turn, legal moves), while
    `seq` counts every event of the log, the undone ones and the undo included (so stale seqs still tell)."""
    g = ready()
    before = g.state
    seat, move = placement(g)
    events, draws = played(g, seat, move)
    assert draws == 0 and may_be_undone(events, draws)
    assert g.state.players[seat].cowboys == before.players[seat].cowboys - 1
    undo(g, seat, events)
    assert same_game(g.state, before)
    assert g.state.seq == before.seq + len(events) + 1
    assert to_act(g.state) == (seat,)
    assert legal_moves(g.state, seat) == legal_moves(before, seat)
    assert player_view(g.state, seat) == {**player_view(before, seat), "seq": g.state.seq}


def test_replay_of_a_log_with_undos_equals_the_game_without_the_moves() -> None:
    """D83: a log where moves were made, taken back and made otherwise replays to the same position as the log
    of the moves actually kept; and the play goes on from the state after an undo as from any other."""
    kept, undone = ready(), ready()
    for _ in range(3):
        seat, move = placement(undone)
        events, _ = played(undone, seat, move)
        undo(undone, seat, events)
        other = [m for m in legal_moves(undone.state, seat) if m != move and m["type"] == "place_cowboy"][-1]
        played(undone, seat, other)
        played(kept, seat, other)
    assert same_game(undone.state, kept.state)
    assert same_game(replay(undone.events), kept.state)
    assert undone.state.seq == len(undone.events)


def test_an_undo_cannot_be_folded_onto_a_state_after_the_move() -> None:
    """An undo needs the state before its move: folded onto a later state it is refused, not guessed."""
    g = ready()
    seat, move = placement(g)
    events, _ = played(g, seat, move)
    with pytest.raises(UndoBeyondState):
        replay([move_undone(seat, len(events))], g.state)
    start = len(g.events) - len(events)
    # Onto the state before the move, the move and its undo fold as a whole.
    assert same_game(replay([*events, move_undone(seat, len(events))], replay(g.events[:start])),
                     replay(g.events[:start]))


def test_moves_that_drew_or_revealed_may_not_be_undone() -> None:
    """D84: a move whose generator drew (a die, a bag draw, a shuffle), or that revealed something hidden (a
    duel, the vote's or the shopping's reveal, tiles drawn), or that was private, may not be taken back."""
    placed: list[Event] = [{"type": "cowboy_placed", "seat": 0, "square": "wages"}]
    assert may_be_undone(placed, 0)
    assert not may_be_undone(placed, 1)
    duel: Event = {"type": "duel_fought", "target": {"square": "wages"}, "duelists": [], "winner": 0}  # type: ignore[typeddict-item]
    assert not may_be_undone([*placed, duel], 0)
    for revealing in ("shopping_revealed", "sides_decided", "tiles_drawn", "construction_refilled"):
        assert not may_be_undone([{"type": revealing}], 0)  # type: ignore[list-item]
    assert not may_be_undone([{"type": "shop_item_added", "seat": 0, "item": "vp"}], 0)
    assert not may_be_undone([], 0)


def test_a_move_that_leads_to_a_duel_is_not_undoable() -> None:
    """D84: two cowboys on one parcel must duel for it when the track reaches the parcels: the move after which
    the automatic flow fought that duel rolled the dice and stays made."""
    g = ready()
    a, b = g.state.placement_order[0], g.state.placement_order[1]
    spot = {"type": "place_cowboy", "x": 4, "y": 4}
    g.move(a, spot)
    g.move(b, spot)
    for _ in range(20):
        (seat,) = g.to_act
        moves = legal_moves(g.state, seat)
        events, draws = played(g, seat, next((m for m in moves if m["type"] == "pass"), moves[0]))
        if any(e["type"] == "duel_fought" for e in events):
            assert draws > 0
            assert not may_be_undone(events, draws)
            assert not may_be_undone(events, 0)  # the duel itself reveals, whatever the generator did
            return
    raise AssertionError("no duel was fought")


def test_private_edits_of_others_after_the_move_are_kept_by_the_undo() -> None:
    """D85 (A New Beginning, RULING V4): seat 0 finishes shopping, seat 1 then edits its basket in secret, and
    seat 0 takes back its finish: the state is as if seat 0 had not finished, seat 1's basket is kept, and each
    viewer's numbering counts the undo as one more event without telling of the other's edits."""
    g = Game(3, new_beginning=True)
    g.move(0, {"type": "shop_add", "item": "vp"})
    events, draws = played(g, 0, {"type": "shop_done"})
    assert may_be_undone(events, draws)
    g.move(1, {"type": "shop_add", "item": "cowboy"})
    g.move(1, {"type": "shop_add", "item": "revolver"})
    seen = {seat: visible_seq(g.state, seat) for seat in (None, 0, 1, 2)}
    undo(g, 0, events)
    assert 0 not in g.state.shopping_done and 0 in to_act(g.state)
    assert g.state.baskets[1] == {"cowboy": 1, "revolver": 1}
    assert g.state.baskets[0] == {"vp": 1}
    assert {seat: visible_seq(g.state, seat) for seat in (None, 0, 1, 2)} == {
        seat: n + 1 for seat, n in seen.items()
    }
    assert g.state.private_events == {0: 1, 1: 2}
