"""Issue 17 "Languages", the table: a game in progress, at each kind of decision its viewer meets, rendered with its
log in English, French and Spanish; the French and Spanish tables hold no English (names apart), and the log's
plurals follow each language ("1 cowboy" / "2 cowboys")."""

from __future__ import annotations

import random
from html import unescape
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from conftest import Api

from app.i18n import speaking
from app.notify.gamelog import Describer
from app.rules import GameConfig, decide, evolve, legal_moves, new_game, player_view, replay, to_act
from tests.support import english_left
from tests.web.test_pages import signed_in
from tests.web.test_present import _known_log, board_html

NAMES = ("ann", "bob", "cid", "dan")
HEADINGS = {"en": "Game log", "fr": "Journal de la partie", "es": "Registro de la partida"}
# The tables are rendered in games with the expansions and variants whose words the table shows.
VARIANTS = [
    {"sides": "random"},
    {"expansions": ["gold_and_guns", "outlaws"], "sides": "random", "might_is_right": True},
    {"sides": "vote", "river": True, "new_beginning": True},
]


def tables(variants: dict[str, Any], players: int, seed: int) -> list[tuple[str, dict[str, Any], list[Any], list[Any]]]:
    """A random game's positions, one for each kind of decision its deciding seat meets: (kind, view, moves, log)."""
    config = GameConfig.from_variants(players=players, variants=variants, preview=True)
    events = new_game(config, seed)
    state = replay(events)
    chooser = random.Random(seed)
    seen: dict[str, tuple[str, dict[str, Any], list[Any], list[Any]]] = {}
    while state.status != "finished":
        seat = chooser.choice(to_act(state))
        moves = legal_moves(state, seat)
        doc = player_view(state, seat, game_id=1, usernames=NAMES[:players])
        if doc["awaiting"] not in seen and len(events) > 20:
            seen[doc["awaiting"]] = (doc["awaiting"], doc, moves, _known_log(events, seat))
        for event in decide(state, seat, chooser.choice(moves), seed):
            state = evolve(state, event)
            events.append(event)
    return list(seen.values())


@pytest.mark.parametrize("variants", VARIANTS)
def test_a_table_mid_game_has_no_english_left_in_french_and_spanish(variants: dict[str, Any]) -> None:
    game = SimpleNamespace(id=1, name="Table")
    positions = tables(variants, 4, 23)
    assert len(positions) > 3
    for kind, doc, moves, log in positions:
        pages = {}
        for language in HEADINGS:
            with speaking(language):
                pages[language] = unescape(board_html(game, doc, moves, log))
        assert 'id="decision"' in pages["en"] and HEADINGS["en"] in pages["en"], kind
        for language in ("fr", "es"):
            page = pages[language]
            assert HEADINGS[language] in page and 'id="decision"' in page
            assert english_left(page, (*NAMES, "Table")) == [], (language, kind)


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "ann 1 cowboy", "bob 2 cowboys"),
    ("fr", "ann 1 cow-boy", "bob 2 cow-boys"),
    ("es", "ann 1 vaquero", "bob 2 vaqueros"),
])
def test_the_logs_plurals_follow_each_language(language: str, one: str, two: str) -> None:
    describer = Describer(NAMES)
    received = {"type": "cowboys_received", "gains": [{"seat": 0, "count": 1}, {"seat": 1, "count": 2}]}
    with speaking(language):
        line = describer.describe(received)
        hired = [describer.describe({"type": "cowboys_hired", "seat": 2, "count": n, "price": 1}) for n in (1, 2)]
    assert line is not None and one in line and two in line
    assert hired[0] != hired[1] and all(h and h.startswith("cid") for h in hired)


@pytest.mark.parametrize("language", ["fr", "es"])
async def test_the_game_page_and_its_history_have_no_english_left(
    client: httpx.AsyncClient, api: Api, language: str,
) -> None:
    """The whole page around the table: the chat and notes, the record, and a past position's controls."""
    admin = await api.admin()
    await api.player("bob")
    client.headers["Accept-Language"] = language
    await signed_in(client, "ann")
    r = await client.post("/api/v1/games", json={"name": "Table", "seats": 2, "players": ["ann", "bob"]},
                          headers=admin.headers)
    assert r.status_code == 201 and r.json()["status"] == "active", r.text
    game = r.json()["id"]
    for path in (f"/games/{game}", f"/games/{game}?at=2"):
        page = unescape((await client.get(path, headers={"Accept": "text/html"})).text)
        assert f'<html lang="{language}">' in page and 'id="record"' in page, path
        assert HEADINGS[language] in page and english_left(page, ("ann", "bob", "admin", "Table")) == [], path


@pytest.mark.parametrize("language", ["fr", "es"])
async def test_the_rules_page_and_the_new_game_form_have_no_english_left(
    client: httpx.AsyncClient, api: Api, language: str,
) -> None:
    """The long help texts (squares, buildings, cards, variants) speak the page's language too."""
    client.headers["Accept-Language"] = language
    rules = unescape((await client.get("/rules", headers={"Accept": "text/html"})).text)
    assert f'<html lang="{language}">' in rules and english_left(rules, ("Gold & Guns", "Big Box")) == []
    await signed_in(client, "ann")
    form = unescape((await client.get("/games/new", headers={"Accept": "text/html"})).text)
    assert 'name="sides"' in form and english_left(form, ("Gold & Guns", "Big Box", "The Outlaws")) == []
