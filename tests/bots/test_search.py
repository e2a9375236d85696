"""The hard bot (issue 29): a search over a game rebuilt from its seat's view alone, within a time budget, with the
heuristic as the safe default; and the easy bot, the heuristic played less carefully.

Sources: issue 29 "Done when" (the bot never reads hidden information: scrambling the others' secrets leaves its
move unchanged for a fixed sampling seed; it respects its time budget; it falls back to the safe default on
failure), ARCHITECTURE "Views" (the secrets: the bag, other players' duel tiles, unrevealed simultaneous choices —
RULINGS V1 votes, V2 tiles, V4 baskets).
"""

from __future__ import annotations

import inspect
import random
from pathlib import Path
from typing import Any

import pytest
from imports import imported_names

import app.bots.search
from app.bots import BOTS, LEVELS, easy_bot, hard_bot, heuristic_bot
from app.bots.heuristic import move_values
from app.bots.search import Budget, search_bot, tree
from app.bots.search.determinize import rebuild
from app.bots.tournament import bot_player, play_game
from app.play.ratings import BOT_IDENTITIES
from app.rules import GameConfig, GameState, legal_moves, player_view, to_act
from tests.rules.invariants import _scrambled_for

SEARCH_DIR = Path(app.bots.search.__file__).parent
SMALL = Budget(playouts=10, seconds=1e9, candidates=3)  # iterations alone: the same inputs give the same move


def _positions(players: int, variants: dict[str, Any], seed: int, every: int = 1) -> list[tuple[GameState, int]]:
    """Every `every`-th awaited (position, seat) of a game of heuristic bots."""
    found: list[tuple[GameState, int]] = []

    def keep(s: GameState) -> None:
        found.extend((s, seat) for seat in to_act(s))

    config = GameConfig.from_variants(players, variants, preview=True)
    play_game(config, seed, [bot_player(heuristic_bot)] * players, random.Random(seed), observe=keep)
    return found[::every]


def test_the_search_is_handed_only_the_view_and_never_reads_the_seed() -> None:
    """The search modules may play the rules core's pure functions (to look ahead), but the hard bot is a bot
    like the others — (view, legal moves, generator) — and nothing in the search can reach a game's seed: no
    game is set up anew (`new_game`), and the provably-fair seed code is never imported."""
    assert list(inspect.signature(hard_bot).parameters) == ["view", "moves", "rng"]
    for path in SEARCH_DIR.rglob("*.py"):
        for imported in imported_names(path, SEARCH_DIR.parent.parent):
            assert not imported.startswith(("app.rules.setup", "app.rules.fairness", "app.store", "app.play")), (
                path.name, imported)
            assert not imported.endswith(".new_game"), (path.name, imported)


@pytest.mark.parametrize("variants", [{}, {"sides": "red"}, {"sides": "random", "river": True},
                                      {"expansions": ["big_box"], "horses": True}],
                         ids=["base", "red", "river", "big_box+horses"])
def test_a_game_is_rebuilt_from_the_view_alone_in_every_position(variants: dict[str, Any]) -> None:
    """The rebuilt state shows the seat exactly its view and its legal moves, in every position of a whole game
    (3 players), so that the search plays the game the seat is in."""
    positions = _positions(3, variants, 2029)
    for state, seat in positions:
        view, moves = player_view(state, seat), legal_moves(state, seat)
        rebuilt = rebuild(view, moves)
        assert rebuilt is not None, (state.step, state.round, seat)
        assert player_view(rebuilt, seat) == view and legal_moves(rebuilt, seat) == moves
    assert len(positions) > 100


def test_the_bag_is_what_the_view_allows_not_what_the_game_holds() -> None:
    """The bag's contents are a secret (ARCHITECTURE "Views"): the rebuilt bag is the box's buildings less those
    in sight, the same whatever the real bag holds."""
    state, seat = _positions(2, {}, 7, every=20)[2]
    emptied = _scrambled_for(state, seat)  # the bag emptied, the others' secrets changed
    view = player_view(state, seat)
    assert view == player_view(emptied, seat)
    rebuilt = rebuild(view, legal_moves(state, seat))
    assert rebuilt is not None and sum(rebuilt.bag.values()) > 0 == sum(emptied.bag.values())


@pytest.mark.parametrize(("players", "variants"),
                         [(2, {}), (3, {"sides": "vote"}), (3, {"might_is_right": True, "new_beginning": True})],
                         ids=["base-bag", "vote", "tiles+baskets"])
def test_the_hard_bot_never_reads_another_seats_secret(players: int, variants: dict[str, Any]) -> None:
    """Issue 29 "Done when": scrambling the other seats' secrets (the bag, their votes, tiles, baskets —
    `invariants._scrambled_for`) leaves the hard bot's move the same for a fixed sampling seed, in positions
    spread over a whole game."""
    bot = search_bot(SMALL)
    checked = 0
    for state, seat in _positions(players, variants, 29, every=9 if players == 2 else 25):
        moves = legal_moves(state, seat)
        if len(moves) < 2:
            continue
        scrambled = _scrambled_for(state, seat)
        first = bot(player_view(state, seat), moves, random.Random(5))
        assert first == bot(player_view(scrambled, seat), legal_moves(scrambled, seat), random.Random(5)), seat
        checked += 1
    assert checked >= 5


def test_the_search_runs_its_budget_of_iterations_and_no_more() -> None:
    """Issue 29: with CPU time to spare, the search runs exactly `Budget.playouts` iterations (one playout each,
    every one backed up to the root), in 2- and 4-player positions; the site's budget is a number of iterations
    so that a move is reproducible, with the time cap as a guard."""
    checked = 0
    for players in (2, 4):
        for state, seat in _positions(players, {}, 31, every=40):
            moves = legal_moves(state, seat)
            found = tree.search(player_view(state, seat), moves, random.Random(1), Budget(playouts=7, seconds=1e9))
            assert found is not None
            chosen, root = found
            assert chosen in moves
            if len(tree.ranked(player_view(state, seat), moves, 5)) > 1:
                assert root.visits == 7 == sum(child.visits for child in root.children.values())
                checked += 1
    assert checked >= 5


def test_the_time_cap_stops_the_search_and_leaves_out_the_iteration_under_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 29: the search reads the process's CPU clock at every decision and stops once its `seconds` are
    spent, whatever its budget of iterations; the iteration under way is not backed up. A clock of our own,
    which advances 10 ms at every reading, makes this exact and independent of the machine's speed."""
    state, seat = next((s, seat) for s, seat in _positions(2, {}, 3) if s.round == 1 and len(legal_moves(s, seat)) > 3)
    readings: list[float] = []

    def clock() -> float:
        readings.append(0.01 * len(readings))
        return readings[-1]

    monkeypatch.setattr(tree, "process_time", clock)
    found = tree.search(player_view(state, seat), legal_moves(state, seat), random.Random(4),
                        Budget(playouts=10**9, seconds=1.0))
    assert found is not None
    chosen, root = found
    assert chosen in legal_moves(state, seat)
    assert 0.01 * (len(readings) - 1) == pytest.approx(1.01)  # the first reading past the deadline was the last
    assert 0 < root.visits < len(readings) - 1  # iterations of several decisions each, the last one left out


def test_the_hard_bot_plays_the_heuristics_move_when_the_search_fails_or_cannot_see_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 29: a failure inside the search, or a position it cannot rebuild (here a view handed with moves that
    are not the rules' for it, one left out), leaves the seat the `normal` bot's move, the safe default."""
    state, seat = next((s, seat) for s, seat in _positions(2, {}, 3) if len(legal_moves(s, seat)) > 3)
    view, moves = player_view(state, seat), legal_moves(state, seat)

    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug in the search")

    monkeypatch.setattr(tree, "playout", broken)
    assert search_bot(SMALL)(view, moves, random.Random(2)) == heuristic_bot(view, moves, random.Random(2))
    monkeypatch.undo()
    unseen = [(s, seat) for s, seat in _positions(3, {"might_is_right": True}, 4, every=7)
              if len(legal_moves(s, seat)) > 3]
    assert len(unseen) >= 5
    for s, seat in unseen[:5]:
        view, moves = player_view(s, seat), legal_moves(s, seat)[:-1]
        assert rebuild(view, moves) is None
        assert search_bot(SMALL)(view, moves, random.Random(3)) == heuristic_bot(view, moves, random.Random(3))


def test_the_search_prefers_the_move_whose_playouts_win_for_its_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search plays the move whose playouts score best for its own seat, not the heuristic's first choice:
    with playouts won by the searching seat exactly when it holds the heuristic's third-choice personality, that
    card is chosen."""
    state, seat = next((s, seat) for s, seat in _positions(2, {}, 11)
                       if s.step == "personalities" and len(legal_moves(s, seat)) > 3)
    view, moves = player_view(state, seat), legal_moves(state, seat)
    third = tree.ranked(view, moves, 5)[2]

    def favours_third(s: GameState, luck: int, rounds: int | None, deadline: float,
                      start_round: int | None) -> list[dict[str, int]]:
        mine = 60 if s.players[seat].personality == third["card"] else 40
        return [{"total": mine if k == seat else 50} for k in range(len(s.players))]

    monkeypatch.setattr(tree, "playout", favours_third)
    assert search_bot(Budget(playouts=40, seconds=1e9))(view, moves, random.Random(1)) == third


def test_every_seat_picks_its_own_best_at_its_nodes() -> None:
    """Max^n for 2 to 6 seats: a node keeps one value per seat, and the seat to move there ranks the children
    by its own value — the child best for seat 1 is not the one best for seat 0."""
    good_for_0 = tree.Node(3, visits=10, available=20, totals=[9.0, 1.0, 0.0])
    good_for_1 = tree.Node(3, visits=10, available=20, totals=[1.0, 9.0, 0.0])
    assert good_for_0.bound(0) > good_for_1.bound(0) and good_for_1.bound(1) > good_for_0.bound(1)
    rarely_offered = tree.Node(3, visits=10, available=11, totals=[1.0, 9.0, 0.0])
    assert good_for_1.bound(1) > rarely_offered.bound(1)  # availability, not the parent's visits, in the bound


def test_a_playouts_value_is_a_vector_of_a_win_and_a_share_of_the_lead() -> None:
    """A vector of scores (2 to 6 players) is worth, to each seat, a win for the best total (a tie too) plus a
    share of its lead over the best other seat."""
    lead = tree.LEAD_WEIGHT
    values = tree.seat_values([{"total": t} for t in (40, 52, 47, 52)])
    assert values == pytest.approx([-12 * lead, 1.0, -5 * lead, 1.0])
    assert tree.seat_values([{"total": 40}, {"total": 52}]) == pytest.approx([-12 * lead, 1 + 12 * lead])


def test_the_easy_bot_plays_one_of_the_heuristics_best_moves() -> None:
    """The easy bot stays plausible: always one of the heuristic's three best moves, the best most often."""
    best_count = total = 0
    for state, seat in _positions(2, {}, 17, every=2):
        view, moves = player_view(state, seat), legal_moves(state, seat)
        values = move_values(view, moves)
        chosen = easy_bot(view, moves, random.Random(total))
        rank = sorted(values, reverse=True).index(values[moves.index(chosen)])
        assert rank <= 2
        best_count += rank == 0
        total += 1
    assert total > 20 and best_count > total / 2


def test_every_level_is_a_bot_with_a_rated_identity() -> None:
    """API.md "Bot levels" and the ratings: the three levels, each a bot of the tournament and a rated identity
    `bot-<level>`."""
    assert set(LEVELS) == {"easy", "normal", "hard"}
    assert LEVELS["normal"] is heuristic_bot
    assert all(BOTS[level] is bot for level, bot in LEVELS.items())
    assert dict(BOT_IDENTITIES) == {level: f"bot-{level}" for level in LEVELS}



def test_a_playout_cut_after_some_rounds_is_scored_as_if_the_game_ended_there() -> None:
    """`Budget.rounds`: a playout cut at the end of the position's round scores every seat by the final scoring
    of the state it reached (money, pieces on parcels, VP so far), which is below a whole game's totals."""
    state, _ = next((s, seat) for s, seat in _positions(2, {}, 13) if s.round == 1 and s.step == "placement")
    cut = tree.playout(state, luck=1, rounds=0)
    whole = tree.playout(state, luck=1)
    assert len(cut) == len(whole) == 2
    assert sum(score["total"] for score in cut) < sum(score["total"] for score in whole)


# Six players need the Big Box.
CONFIGURATIONS = [(2, {}), (3, {"sides": "vote", "river": True}), (4, {"might_is_right": True, "sides": "red"}),
                  (5, {"expansions": ["gold_and_guns", "outlaws"], "characters": [1, 2, 3, 6, 7, 11, 14]}),
                  (6, {"expansions": ["big_box"], "horses": True, "characters": [0, 1, 2, 5, 6, 15, 16, 17]}),
                  (4, {"expansions": ["outlaws"], "new_beginning": True, "river": True})]


@pytest.mark.parametrize(("players", "variants"), CONFIGURATIONS, ids=lambda c: str(c))
def test_the_hard_bot_returns_a_legal_move_in_every_configuration(players: int, variants: dict[str, Any]) -> None:
    """Issue 29: 2 to 6 players, the variants and expansions — the search's move, or the heuristic's where the
    position is not rebuilt, is one of the seat's legal moves, in positions spread over a whole game."""
    bot = search_bot(Budget(playouts=3, seconds=1e9, candidates=2))
    game = _positions(players, variants, 40 + players)
    positions = game[::max(1, len(game) // 8)]
    for state, seat in positions:
        view, moves = player_view(state, seat), legal_moves(state, seat)
        assert bot(view, moves, random.Random(seat)) in moves, (state.step, state.round)
    assert len(positions) >= 8
