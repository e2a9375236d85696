"""A `game_changed` row tells the mail worker what the change left (`Changed`: finished or not, the seats awaited,
whether a permission request is awaited), so that planning needs no state rebuilt from the log: what the row tells
must be what the state at it would, for every change of any game, or a "your turn" or "permission" mail would go to
the wrong seats."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from app.notify.worker import Changed, plan
from app.play.record import Outcome, _outbox
from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.rng import Rng

NOW = datetime(2026, 12, 3, tzinfo=UTC)


def test_a_change_row_tells_what_the_state_at_it_would() -> None:
    told = permission = 0
    for players, seed in ((players, seed) for players in (2, 3, 4, 5) for seed in range(4)):
        chooser = random.Random(seed)
        state = replay(new_game(GameConfig(players=players), seed))
        seats = {seat: 100 + seat for seat in range(players)}
        while state.status != "finished":
            seat = chooser.choice(to_act(state))
            before = state
            events, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
            outcome = Outcome(1, before.seq, to_act(before), events, state, NOW, actor=seat)
            for kind, _, _, payload in _outbox(outcome):
                if kind != "game_changed":
                    continue
                after = Changed.told(payload)
                assert after == Changed.of(state)
                assert plan(payload, after, seats) == plan(payload, Changed.of(state), seats)
                told += 1
                permission += after.permission
    assert told and permission  # permission requests among them (five-player games reach some)


def test_a_row_written_before_it_told_is_planned_from_the_state() -> None:
    payload = {"to_act": [1], "status": "active", "from_seq": 40, "was_to_act": [0]}
    assert Changed.told(payload) is None
    assert Changed.told({**payload, "awaits": None}) == Changed(False, (1,), False)
    assert Changed.told({**payload, "awaits": "permission"}) == Changed(False, (1,), True)
    assert Changed.told({**payload, "status": "finished", "to_act": [], "awaits": None}) == Changed(True, (), False)
