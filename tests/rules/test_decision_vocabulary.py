"""The decision vocabulary (app/rules/decisions.py): every decision the flow can await has its legal moves and one
phrase that names it to the player (app/rules/phrases.py), and the flow awaits nothing else."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules import GameConfig, IllegalMove, legal_moves, new_game, play, replay
from app.rules.catalog import PERSONALITIES
from app.rules.decisions import Decision
from app.rules.flow import awaiting
from app.rules.legal import MOVES_BY_KIND
from app.rules.phrases import DECISION_PHRASES
from app.rules.rng import Rng
from tests.rules.builders import Game


def test_every_decision_has_legal_moves_and_a_phrase() -> None:
    """R-WEB-1: a decision the game can await lists its moves, and has words for the page, the mails and the
    refusals alike."""
    assert set(MOVES_BY_KIND) == set(Decision) == set(DECISION_PHRASES)
    assert all(phrase and phrase[0].islower() and not phrase.endswith(".") for phrase in DECISION_PHRASES.values())


def test_the_cards_name_decisions_of_the_vocabulary() -> None:
    """`000` "Personalities": the decision printed on a card's side is one the flow can await."""
    named = [side.decision for card in PERSONALITIES.values() for side in (card.yellow, card.red) if side.decision]
    assert named and all(type(decision) is Decision for decision in named)


@pytest.mark.parametrize(("players", "variants"), [
    (4, {}), (3, {"sides": "red"}), (4, {"sides": "vote", "might_is_right": True, "river": True}),
    (3, {"new_beginning": True}),
])
def test_the_flow_awaits_only_decisions_of_the_vocabulary(players: int, variants: dict[str, Any]) -> None:
    """R-WEB-1: in whole random games, every decision awaited is a member of `Decision`."""
    kinds: set[Decision] = set()
    for seed in range(2):
        chooser = random.Random(seed)
        state = replay(new_game(GameConfig.from_variants(players, variants), seed))
        while (waiting := awaiting(state)) is not None:
            assert type(waiting.kind) is Decision
            kinds.add(waiting.kind)
            seat = chooser.choice(waiting.seats)
            _, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
    assert len(kinds) > 5


def test_a_refusal_names_the_awaited_decision_in_its_phrase() -> None:
    """R-WEB-1: a move that does not fit the decision is refused with the decision's phrase."""
    g = Game(3)
    with pytest.raises(IllegalMove) as refused:
        g.act({"type": "pass"})
    assert refused.value.message == f"'pass' is not possible now: you must {DECISION_PHRASES[Decision.START_PARCEL]}."
