"""The recorder queues a `game_changed` row only for a change that may call for mail (`may_call_for_mail`): every
change it skips must be one the mail worker would have planned no mail for (`plan`), in any game of any size."""

from __future__ import annotations

import random

import pytest

from app.notify.worker import Changed, plan
from app.play.record import may_call_for_mail
from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.rng import Rng


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_change_queued_for_no_mail_would_have_planned_none(players: int) -> None:
    skipped = queued = 0
    for seed in range(3):
        chooser = random.Random(seed)
        state = replay(new_game(GameConfig(players=players), seed))
        seats = {seat: 100 + seat for seat in range(players)}
        while state.status != "finished":
            seat = chooser.choice(to_act(state))
            was, from_seq = to_act(state), state.seq
            _, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
            payload = {"to_act": list(to_act(state)), "from_seq": from_seq, "was_to_act": list(was)}
            if may_call_for_mail(from_seq, was, to_act(state), state.status):
                queued += 1
            else:
                skipped += 1
                assert plan(payload, Changed.of(state), seats) == []
    assert skipped and queued  # both kinds of change occur


def test_the_start_the_end_and_a_newly_awaited_seat_call_for_mail() -> None:
    assert may_call_for_mail(0, (), (0,), "active")
    assert may_call_for_mail(40, (1,), (), "finished")
    assert may_call_for_mail(40, (1,), (0,), "active")
    assert may_call_for_mail(40, (1,), (0, 1), "active")
    assert not may_call_for_mail(40, (1,), (1,), "active")
    assert not may_call_for_mail(40, (0, 1), (1,), "active")
