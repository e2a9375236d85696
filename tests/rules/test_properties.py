"""Property tests: many complete random games, with invariants checked after every decision.

R-WEB-3 (replay = state), R-WEB-2 (no view holds the seed or the bag) and the structural invariants of the
base game (money never negative, at most 10 cowboys and 12 parcels per player, one connected road network,
every building that needs a road is reached) — RULINGS B3, B8, B11, B18 and `000` "Game Setup".
Games are played by players choosing uniformly among `legal_moves`; every listed move must decide cleanly.
"""

from __future__ import annotations

import json
import random

import pytest

from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.audit import audit
from app.rules.fairness import SEED_BYTES, seed_number
from app.rules.history import seen_log, state_at
from app.rules.model import GameState, replace
from app.rules.rng import Rng
from app.rules.undo import may_be_undone, move_undone
from tests.rules.invariants import (
    check_events_redacted,
    check_invariants,
    check_outlaw_events,
    check_seq_counts_visible_events,
    check_view_hides_secrets,
)

GAMES_PER_CASE = 25
CASES = [(players, sides) for players in (2, 3, 4, 5) for sides in ("yellow", "red", "random")]
ALL_VARIANTS = {"sides": "vote", "might_is_right": True, "river": True, "new_beginning": True}
VARIANT_CASES = [
    {"sides": "vote"},
    {"might_is_right": True},
    {"river": True},
    {"new_beginning": True},
    {"new_beginning": True, "might_is_right": True},
    ALL_VARIANTS,
]


def _play_checked(players: int, variants: dict[str, object] | str, seed: int, chooser: random.Random,
                  probe: int) -> GameState:
    if isinstance(variants, str):
        variants = {"sides": variants}
    config = GameConfig.from_variants(players, variants, preview=True)
    events = new_game(config, seed)
    state = replay(events)
    decisions = 0
    while state.status != "finished":
        seat = chooser.choice(to_act(state))
        moves = legal_moves(state, seat)
        assert moves, "an awaited seat must have a legal move"
        # Every listed move must decide cleanly; try a few others besides the one played.
        for other in chooser.sample(moves, min(probe, len(moves))):
            play(state, seat, other, Rng(seed, state.seq))
        before = state
        new, state = play(state, seat, chooser.choice(moves), Rng(seed, state.seq))
        events += new
        decisions += 1
        check_invariants(state)
        if config.outlaws:
            check_outlaw_events(before, new)
        check_events_redacted(new, players)
        secrets_pending = state.votes or state.baskets or state.duel_tiles
        if decisions % 25 == 0 or secrets_pending:
            check_view_hides_secrets(state, seed)
    lowest = -10 if config.new_beginning else 0  # A New Beginning sells up to 10 VP (RULING V4)
    assert state.winner is not None and all(score["total"] >= lowest for score in state.scores)
    check_view_hides_secrets(state, seed)
    check_seq_counts_visible_events(events, state)
    assert replay(events) == state, "R-WEB-3: replaying the log must give the same state"
    assert replay(json.loads(json.dumps(events))) == state, "the log must survive a JSON round trip"
    return state


@pytest.mark.parametrize(("players", "sides"), CASES)
def test_random_complete_games_keep_invariants(players: int, sides: str) -> None:
    """R-WEB-3, R-WEB-2: 12 cases x 25 games = 300 complete random games per run (2-5 players, all sides)."""
    chooser = random.Random(f"{players}-{sides}")
    for _ in range(GAMES_PER_CASE):
        seed = chooser.randrange(10**15, 10**16)  # long seeds, so a leak would be visible in any text
        _play_checked(players, sides, seed, chooser, probe=2)


@pytest.mark.parametrize("variants", VARIANT_CASES, ids=lambda v: "+".join(f"{k}={v[k]}" for k in sorted(v)))
@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_games_with_variants_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """R-WEB-2, R-WEB-3 for every variant alone and all together (RULINGS V1-V9): invariants after every
    decision, replay equality, and no secret (votes, tiles, baskets, the bag, the seed) in another's view."""
    chooser = random.Random(f"{players}-{sorted(variants.items())}")
    for _ in range(4):
        _play_checked(players, variants, chooser.randrange(10**15, 10**16), chooser, probe=2)


GOLD_AND_GUNS_CASES = [
    {"expansions": ["gold_and_guns"]},
    {"expansions": ["gold_and_guns"], "river": True, "sides": "random"},
    {"expansions": ["gold_and_guns"], "new_beginning": True},
]


@pytest.mark.parametrize("variants", GOLD_AND_GUNS_CASES, ids=lambda v: "+".join(sorted(k for k in v if v[k])))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_gold_and_guns_buildings_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """R-GG-2, R-GG-19, R-GG-21 .. R-GG-24 in whole games (with The River and A New Beginning too): the same
    invariants, plus the townhouse supply of 20 and every townhouse hemmed in (RULING G6)."""
    chooser = random.Random(f"gg-{players}-{sorted(variants)}")
    for _ in range(4):
        _play_checked(players, variants, chooser.randrange(10**15, 10**16), chooser, probe=2)


# The Gold & Guns characters: the cards drawn at random (the playable ones), and each side written so far in a
# chosen set — the yellow Prospector and Gunsmith, the red Singer — beside the Indian and the Governor.
CHARACTER_CASES = [
    {"expansions": ["gold_and_guns"], "sides": "random"},
    {"expansions": ["gold_and_guns"], "characters": [1, 3, 5, 8, 9, 10, 13]},
    {"expansions": ["gold_and_guns"], "characters": [2, 4, 6, 8, 11, 13, 7], "sides": "red"},
    {"expansions": ["gold_and_guns"], "characters": [1, 2, 5, 8, 9, 10, 13], "river": True},
    {"expansions": ["gold_and_guns"], "characters": [1, 3, 6, 8, 11, 13, 7], "sides": "red",
     "might_is_right": True},
    {"expansions": ["gold_and_guns"], "characters": [1, 4, 5, 8, 9, 10, 13], "new_beginning": True},
    {"expansions": ["gold_and_guns"], "sides": "vote"},
]


@pytest.mark.parametrize("variants", CHARACTER_CASES, ids=lambda v: "+".join(
    f"{k}={v[k]}" for k in sorted(v) if k != "expansions"))
@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_games_with_gold_and_guns_characters_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """R-GG-1, R-GG-4, R-GG-7, R-GG-10, R-GG-13, R-GG-14, R-GG-17, R-GG-18 in whole games with every base variant:
    the invariants after every decision, replay equality and no secret in another's view."""
    chooser = random.Random(f"chars-{players}-{sorted(variants)}-{variants.get('characters')}")
    for _ in range(2):
        _play_checked(players, variants, chooser.randrange(10**15, 10**16), chooser, probe=2)


# Dynamite and the red Gunsmith (R-GG-5, R-GG-6, R-GG-8): both red cards in every game, alone, with Might Is Right
# (two tiles, the Gunsmith last), with the Outlaws (his second roll against them), and with the other variants.
DYNAMITE_CASES = [
    {"expansions": ["gold_and_guns"], "characters": [1, 2, 3, 7, 9, 10, 13], "sides": "red"},
    {"expansions": ["gold_and_guns"], "characters": [1, 2, 3, 7, 9, 10, 13], "sides": "red", "might_is_right": True},
    {"expansions": ["gold_and_guns", "outlaws"], "characters": [2, 3, 4, 8, 9, 10, 13], "sides": "red"},
    {"expansions": ["gold_and_guns", "outlaws"], "characters": [1, 3, 5, 6, 9, 10, 13], "sides": "random",
     "might_is_right": True, "river": True},
    {"expansions": ["gold_and_guns"], "characters": [1, 2, 3, 6, 9, 10, 12], "sides": "red", "new_beginning": True},
]


@pytest.mark.parametrize("variants", DYNAMITE_CASES, ids=lambda v: "+".join(
    f"{k}={v[k]}" for k in sorted(v) if k not in ("expansions", "characters")) + f"+{len(v['expansions'])}exp")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_dynamite_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """R-GG-5, R-GG-6, R-GG-8 in whole games: the 7 chips are never more than the box holds, the Gunsmith's first
    throws wait only for his decision, replay equality and no secret (a second tile) in another's view."""
    chooser = random.Random(f"dynamite-{players}-{sorted(variants.items())}")
    _play_checked(players, variants, chooser.randrange(10**15, 10**16), chooser, probe=2)


# The Auctioneer (R-GG-11, R-GG-12) on each side and with each base variant, and with the Outlaws.
AUCTION_CASES = [
    {"expansions": ["gold_and_guns"], "characters": [1, 2, 4, 6, 8, 12, 13], "sides": "yellow"},
    {"expansions": ["gold_and_guns"], "characters": [1, 2, 4, 6, 8, 12, 13], "sides": "red", "might_is_right": True},
    {"expansions": ["gold_and_guns"], "characters": [1, 3, 5, 7, 8, 12, 13], "sides": "random", "river": True},
    {"expansions": ["gold_and_guns"], "characters": [1, 3, 5, 7, 8, 12, 13], "sides": "vote", "new_beginning": True},
    {"expansions": ["gold_and_guns", "outlaws"], "characters": [2, 3, 5, 6, 8, 12, 13], "sides": "random"},
]


@pytest.mark.parametrize("variants", AUCTION_CASES, ids=lambda v: "+".join(
    f"{k}={v[k]}" for k in sorted(v) if k not in ("expansions", "characters")))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_the_auctioneer_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """R-GG-11, R-GG-12 in whole games, 2-5 players, each side and base variant, with the Outlaws: the invariants
    after every decision (`check_auction`), replay equality and no secret in another's view."""
    chooser = random.Random(f"auction-{players}-{sorted(variants.items())}")
    _play_checked(players, variants, chooser.randrange(10**15, 10**16), chooser, probe=2)


# The yellow Singer's chips and the Doctor / Undertaker (whose holder picks a side at random here), with the
# Outlaws, alone and with each base variant.
_SINGER_DOCTOR: dict[str, object] = {"expansions": ["gold_and_guns", "outlaws"], "characters": [1, 2, 3, 6, 7, 11, 14]}
SINGER_DOCTOR_CASES = [
    _SINGER_DOCTOR,
    {**_SINGER_DOCTOR, "sides": "vote"},
    {**_SINGER_DOCTOR, "might_is_right": True},
    {**_SINGER_DOCTOR, "river": True, "characters": [1, 4, 5, 8, 11, 13, 14]},
    {**_SINGER_DOCTOR, "new_beginning": True},
]


@pytest.mark.parametrize("variants", SINGER_DOCTOR_CASES, ids=lambda v: "+".join(
    f"{k}={v[k]}" for k in sorted(v) if k not in ("expansions", "characters")) or "plain")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_the_singer_and_the_doctor_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """R-GG-9, R-GG-15, R-GG-16 in whole games with the Outlaws and every base variant: chips only on their squares,
    defeated cowboys waiting only under the Doctor or the Undertaker and counted as their owners', the invariants
    after every decision, replay equality and no secret in another's view."""
    chooser = random.Random(f"singer-doctor-{players}-{sorted(variants)}")
    _play_checked(players, variants, chooser.randrange(10**15, 10**16), chooser, probe=2)


OUTLAWS_CASES = [
    {"expansions": ["outlaws"]},
    {"expansions": ["outlaws"], "sides": "vote"},
    {"expansions": ["outlaws"], "might_is_right": True},
    {"expansions": ["outlaws"], "river": True, "sides": "random"},
    {"expansions": ["outlaws"], "new_beginning": True},
    {"expansions": ["outlaws", "gold_and_guns"], "sides": "red"},
]


@pytest.mark.parametrize("variants", OUTLAWS_CASES, ids=lambda v: "+".join(f"{k}={v[k]}" for k in sorted(v)))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_outlaws_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """R-OUT-1 .. R-OUT-6 in whole games, alone, with each base variant and with Gold & Guns: the same invariants,
    plus at most 9 outlaws, none arriving on an outlaw or next to a prison, none moving next to a prison or onto
    another outlaw, nothing bought or built under one (`001` "Outlaws", RULING G4)."""
    chooser = random.Random(f"outlaws-{players}-{sorted(variants.items())}")
    for _ in range(2):
        _play_checked(players, variants, chooser.randrange(10**15, 10**16), chooser, probe=2)


def test_every_listed_move_decides_cleanly() -> None:
    """R-WEB-1: at every decision of a few whole games, every single listed move is accepted by `decide`."""
    chooser = random.Random("all-moves")
    for players, variants in ((2, {"sides": "random"}), (4, {"sides": "random"}), (3, ALL_VARIANTS),
                              (4, {**ALL_VARIANTS, "expansions": ["gold_and_guns"]}),
                              (3, {"expansions": ["gold_and_guns"], "characters": [1, 2, 8, 9, 10, 11, 13],
                                   "sides": "random"}),
                              (3, {"expansions": ["gold_and_guns", "outlaws"], "characters": [1, 2, 3, 4, 9, 10, 13],
                                   "sides": "red", "might_is_right": True}),
                              (3, {**ALL_VARIANTS, "expansions": ["outlaws"]})):
        seed = chooser.randrange(10**15, 10**16)
        _play_checked(players, variants, seed, chooser, probe=10_000)


def test_same_seed_and_moves_give_the_same_log() -> None:
    """R-WEB-3: the core is deterministic — the same seed and the same moves give the same events."""
    logs = []
    for _ in range(2):
        chooser = random.Random(7)
        config = GameConfig.from_variants(3, {})
        events = new_game(config, 99)
        state = replay(events)
        while state.status != "finished":
            seat = chooser.choice(to_act(state))
            new, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(99, state.seq))
            events += new
        logs.append(events)
    assert logs[0] == logs[1]


@pytest.mark.parametrize(("players", "variants"), [
    (3, {"sides": "random"}),
    (3, {"new_beginning": True, "might_is_right": True, "sides": "vote"}),
    (4, {"expansions": ["gold_and_guns", "outlaws"]}),
])
def test_random_games_with_undos_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """Decisions D83-D84: in random complete games where a player now and then takes back a move that drew and
    revealed nothing (and then plays on, often otherwise), every undo returns to the state before its move, the
    invariants hold, and the whole log — undos included — replays to the final state."""
    chooser = random.Random(2026)
    config = GameConfig.from_variants(players, variants, preview=True)
    for seed in range(2):
        events = new_game(config, seed)
        state = replay(events)
        undos = 0
        while state.status != "finished":
            seat = chooser.choice(to_act(state))
            rng = Rng(seed, state.seq)
            before = state
            new, state = play(state, seat, chooser.choice(legal_moves(state, seat)), rng)
            events += new
            if may_be_undone(new, rng.draws) and chooser.random() < 0.3:
                undo = move_undone(seat, len(new))
                events.append(undo)
                state = replay([*new, undo], before)
                assert state.seq == before.seq + len(new) + 1
                assert replace(state, seq=before.seq) == before
                undos += 1
            check_invariants(state)
        assert undos > 10
        check_seq_counts_visible_events(events, state)
        assert replay(events) == state, "D83: replaying a log with undos must give the same state"
        assert replay(json.loads(json.dumps(events))) == state


def test_random_games_verify_against_their_seed_and_every_past_position_keeps_secrets() -> None:
    """Issue 14 (provably fair dice, history): random complete games with every variant and both expansions,
    on 32-byte seeds, replay from their seed move by move (`app.rules.audit`), and their past positions are valid
    views that hold no secret of another seat (R-WEB-2) — a sample of positions of each game, for every viewer."""
    chooser = random.Random("history")
    for players, variants in ((3, ALL_VARIANTS), (4, {**ALL_VARIANTS, "expansions": ["gold_and_guns", "outlaws"]})):
        config = GameConfig.from_variants(players, variants, preview=True)
        seed = seed_number(chooser.randbytes(SEED_BYTES))
        events = new_game(config, seed)
        state = replay(events)
        while state.status != "finished":
            seat = chooser.choice(to_act(state))
            new, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
            events += new
        result = audit(config, seed, events)
        assert result.ok, result.discrepancy
        for viewer in (None, *range(players)):
            positions = len(seen_log(events, viewer))
            for at in range(1, positions + 1, 11):
                check_view_hides_secrets(state_at(events, viewer, at), seed)


BIG_BOX_CASES = [
    {"expansions": ["big_box"]},
    {"expansions": ["big_box"], "horses": True, "kit_carson": True, "might_is_right": True},
    {"expansions": ["gold_and_guns", "outlaws", "big_box"], "horses": True, "kit_carson": True, "sides": "random"},
    {"expansions": ["big_box"], "horses": True, "river": True, "new_beginning": True, "sides": "vote"},
]


@pytest.mark.parametrize("variants", BIG_BOX_CASES, ids=lambda v: "+".join(f"{k}={v[k]}" for k in sorted(v)))
@pytest.mark.parametrize("players", [2, 6])
def test_random_games_with_big_box_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """R-BB-1, R-BB-6, R-BB-7 in whole games (`004`; RULINGS X1, X4, X6): six players on the same board, alone and
    with every other expansion and the base variants, keep every invariant; horses bought at Wages never leave a
    player's money negative, and a finished game's score carries the `horses` and `kit_carson` parts it was asked
    for."""
    chooser = random.Random(f"big-box-{players}-{sorted(variants.items())}")
    state = _play_checked(players, variants, chooser.randrange(10**15, 10**16), chooser, probe=2)
    assert len(state.players) == players
    for p, score in zip(state.players, state.scores, strict=True):
        assert ("horses" in score) == bool(variants.get("horses"))
        assert score.get("horses", 0) == p.horses
        assert ("kit_carson" in score) == bool(variants.get("kit_carson"))
    if variants.get("kit_carson"):  # 0, 1, ... players-1: one each for every player behind (RULING X4)
        assert sorted(score["kit_carson"] for score in state.scores) == list(range(players))


# Big Box's four cards (R-BB-2 .. R-BB-5) in every game: the Newspaper Boy as an eighth card copying whatever the
# random players pick, the Heroes and the Teacher, and the Cowboy wherever horses are played; alone and with Gold &
# Guns (whose cards he copies too, the Doctor's side and the Auctioneer's auction included), the Outlaws (the
# Heroes' buildings), Kit Carson (the Teacher's turn order) and the base variants.
BIG_BOX_CHARACTER_CASES = [
    {"expansions": ["big_box"], "characters": [0, 1, 2, 3, 5, 6, 16, 17]},
    {"expansions": ["big_box"], "horses": True, "kit_carson": True, "characters": [0, 2, 3, 4, 6, 15, 16, 17],
     "sides": "red"},
    {"expansions": ["gold_and_guns", "outlaws", "big_box"], "horses": True, "kit_carson": True,
     "characters": [0, 2, 9, 11, 12, 14, 15, 16], "sides": "random"},
    {"expansions": ["gold_and_guns", "outlaws", "big_box"], "characters": [0, 1, 3, 8, 10, 13, 16, 17],
     "sides": "red", "might_is_right": True},
    {"expansions": ["big_box", "outlaws"], "horses": True, "characters": [0, 2, 5, 7, 15, 16, 17, 4],
     "river": True, "new_beginning": True, "sides": "vote"},
]


@pytest.mark.parametrize("variants", BIG_BOX_CHARACTER_CASES, ids=lambda v: "+".join(
    f"{k}={v[k]}" for k in sorted(v) if k not in ("expansions", "characters")) + "+" + "+".join(v["expansions"]))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_with_big_box_characters_keep_invariants(players: int, variants: dict[str, object]) -> None:
    """R-BB-1 .. R-BB-5 (`004` "Elección de personaje"; RULINGS X2, X3, X5; decisions D90-D96) in whole games:
    every invariant after every decision, replay equality, no secret in another's view, and every game ends."""
    chooser = random.Random(f"big-box-cards-{players}-{sorted(variants.items(), key=str)}")
    for _ in range(2):
        state = _play_checked(players, variants, chooser.randrange(10**15, 10**16), chooser, probe=2)
        assert state.status == "finished" and len(state.cards) == 8
