"""Help on everything (issue "The table players would switch for", item 2): every action square, building,
piece and variant explains itself, on the table and on the rules page open to everyone."""

from __future__ import annotations

from html import unescape
from typing import Any

import httpx

from app.rules.catalog import BUILDINGS, PERSONALITIES, SQUARES, TRACK_STEPS
from app.rules.config import SIDES
from app.web.guide import BUILDING_HELP, SQUARE_HELP, VARIANT_HELP, building_help
from tests.web.test_input import _page_client


def test_every_square_building_and_variant_has_its_help() -> None:
    assert set(SQUARE_HELP) == set(TRACK_STEPS)
    assert set(BUILDING_HELP) == set(BUILDINGS)
    assert {*SIDES, "might_is_right", "river", "new_beginning"} <= set(VARIANT_HELP)
    # The numbers come from the catalog: a capped building names its printed maximum.
    assert building_help("saloon").endswith(f"At most ${BUILDINGS['saloon'].income_cap}.")


async def test_the_rules_page_is_open_to_everyone_and_names_every_square_building_and_card(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/rules", headers={"Accept": "text/html"})
    assert page.status_code == 200
    text = unescape(page.text)
    for square in SQUARES.values():
        assert square.name in text
    for row in BUILDINGS.values():
        assert row.name in text and building_help(row.type) in text
    for card in PERSONALITIES.values():
        assert card.yellow.text in text and card.red.text in text


async def test_the_table_explains_each_square_and_the_admin_form_each_variant(
    api: Any, client: httpx.AsyncClient,
) -> None:
    await _page_client(client, api)
    form = unescape((await client.get("/games/new", headers={"Accept": "text/html"})).text)
    for text in VARIANT_HELP.values():
        assert text in form
    ann, bob = await api.player("ann"), await api.player("bob")
    admin = await api.admin()
    game = await api.started_game(admin, [ann, bob])
    table = unescape((await client.get(f"/games/{game['id']}", headers={"Accept": "text/html"})).text)
    for step in TRACK_STEPS:
        assert f'id="square-{step}"' in table and SQUARE_HELP[step] in table
    assert 'id="legend"' in table and building_help("mine") in table
