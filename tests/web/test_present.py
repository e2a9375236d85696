"""The table's presentation over whole random games in every variant: every legal move of the viewer is offered
exactly once as a choice (nothing more), every event reads as a sentence, and the board template renders at
every kind of decision and at the end with the score."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from app.notify.gamelog import EVENT_SENTENCES, Describer, card_name
from app.notify.messages import awaited_phrase
from app.rules import (
    GameConfig,
    GameState,
    decide,
    evolve,
    legal_moves,
    new_game,
    player_view,
    redact_event,
    replay,
    to_act,
)
from app.rules.decisions import Decision
from app.rules.phrases import DECISION_PHRASES
from app.web import present
from app.web.rendering import templates
from app.web.table_view import table_context

VARIANTS = [
    {},
    {"sides": "red"},
    {"sides": "vote", "might_is_right": True, "river": True, "new_beginning": True},
    {"sides": "random", "river": True},
    {"expansions": ["gold_and_guns"], "river": True},
    {"expansions": ["outlaws"], "might_is_right": True},
    {"expansions": ["outlaws", "gold_and_guns"], "sides": "random"},
    # Dynamite and the red Gunsmith (RULING G7): placements with a chip, two tiles, the Gunsmith's tile last.
    {"expansions": ["gold_and_guns"], "characters": [1, 2, 3, 7, 9, 10, 13], "sides": "red", "might_is_right": True},
    # Big Box (RULINGS X1, X4, X6): six seats, horses at Wages, Kit Carson's part of the score.
    {"expansions": ["gold_and_guns", "outlaws", "big_box"], "horses": True, "kit_carson": True, "sides": "random"},
    # Big Box's four cards (RULINGS X2, X3, X5): the Newspaper Boy's copy, the Cowboy's horse, six seats.
    {"expansions": ["gold_and_guns", "outlaws", "big_box"], "horses": True, "characters": [0, 2, 3, 12, 14, 15, 16,
                                                                                           17]},
]


def board_html(game: Any, doc: dict[str, Any], moves: list[dict[str, Any]], events: list[Any]) -> str:
    context = table_context(game, doc, moves, events)
    context.update(csrf_token="t", account=None, notice=None, error=None, render_ms=0)
    return templates.env.get_template("partials/board.html").render(context)


def fresh_game(
    players: int, variants: dict[str, Any], seed: int
) -> tuple[list[dict[str, Any]], GameState, random.Random, list[str], SimpleNamespace]:
    """A new game of `players` seats with `variants` (previews allowed): its events, its state, a generator for
    the random moves that play it, the players' names, and the table's game record."""
    events = new_game(GameConfig.from_variants(players=players, variants=variants, preview=True), seed)
    names = [f"p{i}" for i in range(players)]
    return events, replay(events), random.Random(seed), names, SimpleNamespace(id=1, name="Test")


def _known_log(events: list[dict[str, Any]], seat: int | None) -> list[tuple[int, dict[str, Any]]]:
    """The last 80 events `seat` may know of, numbered as that viewer counts the log."""
    known = [shown for event in events if (shown := redact_event(event, seat)) is not None]
    return list(enumerate(known, 1))[-80:]


@pytest.mark.parametrize(("players", "variants"), [(2, VARIANTS[0]), (3, VARIANTS[1]), (4, VARIANTS[2]),
                                                    (2, VARIANTS[2]), (5, VARIANTS[3]), (3, VARIANTS[4]),
                                                    (5, VARIANTS[4]), (3, VARIANTS[5]), (4, VARIANTS[6]),
                                                    (4, VARIANTS[7]), (6, VARIANTS[8]), (6, VARIANTS[9])])
def test_every_legal_move_is_offered_once_and_every_page_renders(players: int, variants: dict[str, Any]) -> None:
    seed = 17 + players
    events, state, chooser, names, game = fresh_game(players, variants, seed)
    kinds_rendered: set[str] = set()
    for _ in range(4000):
        if state.status == "finished":
            break
        for seat in to_act(state):
            moves = legal_moves(state, seat)
            doc = player_view(state, seat, game_id=1, usernames=names)
            groups, _targets = present.choices(doc, moves)
            # The button groups and the list of board choices hold every legal move exactly once, but for the
            # moves shown as buttons of a board spot that is not folded (a permission's Allow and Refuse), which
            # the list does not repeat; the groups behind a folded spot repeat some of the list, and add nothing.
            main = [c.value for g in groups if not g.anchor for c in g.choices]
            shown = {c.value for g in groups if g.anchor and not g.folded for c in g.choices}
            spots = {c.value for g in groups if g.anchor for c in g.choices}
            wanted = sorted(present.encode(m) for m in moves)
            assert len(main) == len(set(main)), doc["awaiting"]
            assert set(main) | shown == set(wanted), doc["awaiting"]
            assert not shown & {c.value for g in groups if g.as_select and not g.anchor for c in g.choices}
            assert spots <= set(wanted)
            assert all(c.label for g in groups for c in g.choices)
            if doc["awaiting"] not in kinds_rendered:
                kinds_rendered.add(doc["awaiting"])
                html = board_html(game, doc, moves, _known_log(events, seat))
                assert 'id="board"' in html and f'data-seq="{doc["seq"]}"' in html
        seat = chooser.choice(to_act(state))
        move = chooser.choice(legal_moves(state, seat))
        new = decide(state, seat, move, seed)
        for event in new:
            state = evolve(state, event)
        events.extend(new)
    assert state.status == "finished"
    describer = Describer(names)
    for event in events:
        assert event["type"] in EVENT_SENTENCES, f"no sentence for {event['type']}"
        describer.describe(event)
    doc = player_view(state, None, game_id=1, usernames=names)
    html = board_html(game, doc, [], _known_log(events, None))
    # The winner's cup is drawn (an emoji shows as an empty box without an emoji font), and named.
    assert "Final score" in html and '<svg class="trophy" viewBox="0 0 24 24" role="img" aria-label="winner">' in html
    assert "🏆" not in html
    assert "The game is over" in html


def test_duel_sentence_names_both_strengths() -> None:
    d = Describer(["Anna", "Bert"])
    event = {"type": "duel_fought", "target": {"x": 3, "y": 4},
             "duelists": [{"seat": 0, "roll": 4, "firepower": 6, "strength": 10},
                          {"seat": 1, "roll": 2, "firepower": 5, "strength": 7}], "winner": 0}
    assert d.describe(event) == "Anna won the duel for parcel (3, 4): 4+6 against 2+5 (Bert) (die + firepower)."


def test_the_page_and_the_mails_name_every_decision_alike() -> None:
    """The game page, the mails and the rules' refusals say what a decision asks in the same words (one table,
    `app.rules.phrases`), for every decision the game can await."""
    for decision in Decision:
        assert present.decision_text(decision) == awaited_phrase(decision) == DECISION_PHRASES[decision]
    assert present.decision_text(None) == "" and awaited_phrase(None) == "make a decision"


def test_the_table_shows_the_city_hall_and_its_placement() -> None:
    """R-GG-20: the drawn City Hall's placement is offered with a label, its event reads as a sentence, and the
    board renders it standing and occupied — nobody's, with no price and no income (RULING G2)."""
    from tests.rules.test_city_hall import drawn_at_refill
    from tests.rules.test_gold_and_guns_buildings import gg_town

    g = gg_town()
    drawn_at_refill(g, passing_order=(0, 1, 2))
    names = ["p0", "p1", "p2"]
    game = SimpleNamespace(id=1, name="Test")
    doc = player_view(g.state, 0, game_id=1, usernames=names)
    moves = legal_moves(g.state, 0)
    groups, _targets = present.choices(doc, moves)
    labels = {c.label for group in groups for c in group.choices}
    assert "Place the City Hall on parcel (3, 3)" in labels
    board_html(game, doc, moves, _known_log(g.events, 0))
    (placed, *_) = g.act({"type": "place_city_hall", "x": 3, "y": 3})
    assert Describer(names).describe(placed) == "p0 places the City Hall on (3, 3)."
    g.place_cowboys(xy=(3, 3), seats=[1])
    doc = player_view(g.state, 0, game_id=1, usernames=names)
    html = board_html(game, doc, legal_moves(g.state, 0), _known_log(g.events, 0))
    assert "Parcel (3, 3); City Hall" in html and "$None" not in html


ONE_SIDED = ("newspaper_boy", "cowboy", "heroes")


def test_a_one_sided_big_box_card_is_shown_without_a_colour() -> None:
    """Decision D91: the Newspaper Boy, the Cowboy and the Heroes are played on the one side `004` prints, so the
    player panels, the card's heading and the log name them without "yellow"; two-sided cards keep their side."""
    variants = {"expansions": ["big_box"], "horses": True, "characters": [0, 1, 2, 3, 4, 15, 16, 17]}
    config = GameConfig.from_variants(players=3, variants=variants, preview=True)
    events = new_game(config, 5)
    state = replay(events)
    chooser = random.Random(5)
    names = ["ann", "bob", "cy"]
    while not all(p.personality for p in state.players):
        seat = to_act(state)[0]
        moves = legal_moves(state, seat)
        # The first card taken is a one-sided one, the others two-sided ones, so that both kinds are held.
        taken_one = any(p.personality in ONE_SIDED for p in state.players)
        wanted = [m for m in moves if "card" in m and (m["card"] in ONE_SIDED) != taken_one
                  and m["card"] != "teacher"]
        move = wanted[0] if wanted else chooser.choice(moves)
        new = decide(state, seat, move, 5)
        for event in new:
            state = evolve(state, event)
        events.extend(new)
    doc = player_view(state, None, game_id=1, usernames=names)
    html = board_html(SimpleNamespace(id=1, name="Test"), doc, [], _known_log(events, None))
    held = {p.personality for p in state.players}
    one = next(card for card in ONE_SIDED if card in held)
    two = next(card for card in held if card not in (*ONE_SIDED, "teacher"))
    name_one, name_two = card_name(one), card_name(two)
    assert f"{name_one} (yellow)" not in html and f"{name_one} <span" not in html
    assert f"{name_one}</dd>" in html or f"{name_one}, " in html
    assert f"{name_two} (yellow)" in html or f"{name_two} (red)" in html
    chosen = [Describer(names).describe(e) for e in events if e["type"] == "personality_chosen" and e["card"] == one]
    assert chosen and "(yellow)" not in chosen[0] and f"the {name_one}" in chosen[0]


def test_a_townhouse_permission_is_asked_answered_and_told_as_such() -> None:
    """R-GG-28 (RULINGS G19, B12): the owner's buttons and the log say the house would become a townhouse, where
    a free parcel's say a house; a request that lists both names each."""
    from tests.rules.test_gold_and_guns_buildings import bought, gg_town, hemmed_in

    g = gg_town()
    hemmed_in(g, house_owner=2)
    bought(g, "saloon")
    g.act({"type": "place_building", "building": "saloon", "x": 6, "y": 6})
    (asked,) = g.act({"type": "ask_permission", "seat": 2})
    names = ["p0", "p1", "p2"]
    d = Describer(names)
    assert d.describe(asked) == "p0 asks p2 for permission to turn their house on (4, 4) into a townhouse."
    both = {**asked, "parcels": [[2, 2], [4, 4]]}
    assert d.describe(both) == ("p0 asks p2 for permission to build a house on (2, 2) or to turn their house on "
                                "(4, 4) into a townhouse.")
    doc = player_view(g.state, 2, game_id=1, usernames=names)
    groups, _targets = present.choices(doc, legal_moves(g.state, 2))
    labels = {c.label for group in groups for c in group.choices}
    assert {"Allow a townhouse in place of your house on parcel (4, 4)",
            "Refuse a townhouse in place of your house on parcel (4, 4)"} <= labels
    (granted,) = g.act({"type": "answer_permission", "x": 4, "y": 4, "grant": True})
    assert d.describe(granted) == "p2 allows a townhouse in place of their house on (4, 4)."
    assert d.describe({**granted, "granted": False}) == "p2 refuses a townhouse in place of their house on (4, 4)."
    plain = {"type": "permission_answered", "seat": 2, "x": 2, "y": 2, "granted": True}  # a log written before
    assert d.describe(plain) == "p2 allows a house on (2, 2)."
