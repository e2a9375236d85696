"""What changed since the viewer's last move (issue 25, item 3): the other seats' moves after the viewer's newest
one, the spots they touched, and the table's marks for them on the board, the track and in the log."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

from app.notify.gamelog import Describer
from app.rules import GameConfig, decide, evolve, legal_moves, new_game, player_view, redact_event, replay, to_act
from app.web.changes import since_last_move
from app.web.rendering import templates
from app.web.table_view import table_context


def test_only_the_other_seats_moves_after_the_viewers_last_one_count() -> None:
    events = [
        (1, {"type": "game_started"}, None),
        (2, {"type": "cowboy_placed", "seat": 0, "square": "bank"}, 0),
        (3, {"type": "cowboy_placed", "seat": 1, "x": 3, "y": 4}, 1),
        (4, {"type": "cowboy_placed", "seat": 0, "x": 5, "y": 5}, 0),
        (5, {"type": "road_built", "seat": 1, "x1": 1, "y1": 1, "x2": 2, "y2": 1}, 1),
        (6, {"type": "duel_fought", "target": {"x": 2, "y": 2}}, 1),
        (7, {"type": "parcels_auctioned", "parcels": [{"x": 7, "y": 7}, [8, 8]]}, 2),
        (8, {"type": "round_ended"}, None),
    ]
    seen = since_last_move(events, 0)
    assert seen.seqs == {5, 6, 7}  # not the server's own event, nor anything before the viewer's move at 4
    assert seen.actors == (1, 2)
    assert seen.parcels == {(2, 2), (7, 7), (8, 8)}
    assert seen.roads == {(1, 1, 2, 1)}
    assert not seen.squares
    # Seat 1 moved last: nothing since; a spectator is shown nothing; a seat that never moved sees every move.
    assert not since_last_move(events[:6], 1)
    assert not since_last_move(events, None)
    assert since_last_move(events, 3).seqs == {2, 3, 4, 5, 6, 7}
    assert since_last_move(events, 3).squares == {"bank"}
    # A move the clock made for the viewer is not theirs: the other seat's moves before it stay news.
    clocked = [*events[:3], (4, {"type": "cowboy_placed", "seat": 0, "x": 5, "y": 5}, 0, True), *events[4:]]
    assert since_last_move(clocked, 0).seqs == {3, 5, 6, 7}


def test_the_table_marks_the_changes_on_the_board_the_track_and_in_the_log() -> None:
    """A real two-player game played at random until seat 0 has moved and seat 1 moved after it: the board page
    of seat 0 frames each spot seat 1's moves touched, and the log heads those moves 'Since your last move'."""
    seed = 11
    state = replay(new_game(GameConfig.from_variants(players=2, variants={}), seed))
    chooser = random.Random(seed)
    logged: list[tuple[int, dict[str, Any], int]] = []
    seq = state.seq
    while True:
        seat = to_act(state)[0]
        moved_after_zero = any(a == 0 for *_, a in logged) and logged[-1][2] == 1
        if moved_after_zero and seat == 0 and state.round >= 2:
            break
        move = chooser.choice(legal_moves(state, seat))
        for event in decide(state, seat, move, seed):
            state = evolve(state, event)
            if (shown := redact_event(event, 0)) is not None:
                seq += 1
                logged.append((seq, shown, seat))
    seen = since_last_move(logged, 0)
    assert seen and seen.actors == (1,)
    assert seen.parcels or seen.squares  # something to mark on the board
    doc = player_view(state, 0, game_id=1, usernames=["ann", "bob"])
    context = table_context(SimpleNamespace(id=1, name="T"), doc, legal_moves(state, 0),
                            [(s, e) for s, e, _ in logged], since=seen)
    context.update(csrf_token="t", account=None, notice=None, error=None, render_ms=0)
    html = templates.env.get_template("partials/board.html").render(context)
    assert 'id="since"' in html and "Since your last move: moves by bob" in html
    assert html.count('<li class="since-heading"') == 1
    describer = Describer(["ann", "bob"])
    assert len(re.findall(r'<li value="\d+" class="since">', html)) == sum(
        1 for s, e, _ in logged if s in seen.seqs and describer.describe(e) is not None)
    for x, y in seen.parcels:
        assert f'id="parcel-{x}-{y}"' in html
    assert html.count('class="changed-mark"') == len(seen.parcels)
    assert html.count("(changed since your last move)") == len(
        [sq for sq in seen.squares if f'id="square-{sq}"' in html])
    assert f'data-since="{len(seen.seqs)}"' in html

