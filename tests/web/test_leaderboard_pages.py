"""The leaderboard page `/leaderboard` and the rating on the player page (issue 27 "Ratings, reputation and a
player's record", item 4): rated players best first, provisional ones (fewer than 10 rated games) left out, a
filter by table size; the player page shows the rating, "?" while provisional, the reputation and the rating's
history as an SVG chart."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
from conftest import Api

from app.web.rating_chart import HEIGHT, chart_of
from tests.play.finishing import play_to_the_end
from tests.web.test_pages import signed_in


def board_rows(page: str) -> list[tuple[str, int]]:
    """The leaderboard's (username, rating) rows, top to bottom."""
    table = page[page.index('id="leaderboard"'):page.index("</table>")]
    return [(name, int(rating)) for name, rating in
            re.findall(r'href="/players/([^"]+)">[^<]+</a></td><td>(\d+)</td>', table)]


async def test_the_leaderboard_lists_rated_players_best_first_by_size_and_the_player_page_charts_the_rating(
    app: Any, api: Api, client: httpx.AsyncClient
) -> None:
    service = app.state.service
    admin = await api.admin()
    ann, bob, cid, dee = [await api.player(name) for name in ("ann", "bob", "cid", "dee")]
    for n in range(10):
        game = await api.started_game(admin, [ann, bob], seed=n)
        await play_to_the_end(service, game["id"], random.Random(n))
    game = await api.started_game(admin, [ann, cid, dee], seed=50)
    await play_to_the_end(service, game["id"], random.Random(50))
    ratings = {name: (await client.get(f"/api/v1/players/{name}", headers=cid.headers)).json()["rating"]
               for name in ("ann", "bob", "cid")}

    await signed_in(client, "zed")
    every = (await client.get("/leaderboard")).text
    lobby = (await client.get("/")).text
    assert '<a href="/leaderboard">Leaderboard</a>' in lobby, "the header links to it"
    assert 'See the <a href="/leaderboard">leaderboard</a>' in lobby, "and so does the lobby"
    rows = board_rows(every)
    assert {name for name, _ in rows} == {"ann", "bob"}, "cid and dee (1 rated game) are provisional"
    assert [rating for _, rating in rows] == sorted((rating for _, rating in rows), reverse=True)
    assert dict(rows) == {name: ratings[name]["value"] for name in ("ann", "bob")}
    assert [name for name, _ in board_rows((await client.get("/leaderboard?players=2")).text)] == [n for n, _ in rows]
    three = (await client.get("/leaderboard", params={"players": "3"})).text
    assert board_rows(three) == [("ann", ratings["ann"]["value"])], "only ann of the rated played at a table of 3"
    assert '<option value="3" selected>' in three
    four = (await client.get("/leaderboard", params={"players": "4"})).text
    assert 'id="leaderboard"' not in four and "Nobody is on the leaderboard for tables of 4 yet" in four
    assert board_rows((await client.get("/leaderboard?players=9")).text) == rows, "an unknown size: every size"

    ann_page = (await client.get("/players/ann")).text
    assert f'<strong class="rating">{ratings["ann"]["value"]}</strong>' in ann_page
    assert "11 rated games" in ann_page and "11 games finished · 0 abandoned · 0 clocks run out" in ann_page
    chart = ann_page[ann_page.index('<svg id="rating-chart"'):ann_page.index("</svg>")]
    assert 'role="img"' in chart and "<title id=\"rating-chart-title\">The rating of ann after each rated game" in chart
    assert len(re.search(r'<polyline class="line" points="([^"]+)"', chart)[1].split()) == 11  # type: ignore[index]
    assert "After 11 rated games: from" in ann_page
    cid_page = (await client.get("/players/cid")).text
    assert f'<strong class="rating">{ratings["cid"]["value"]}<abbr title="provisional">?</abbr></strong>' in cid_page
    assert "1 rated game" in cid_page and "provisional until 10 rated games" in cid_page
    assert f"After 1 rated game: {ratings['cid']['value']}." in cid_page


async def test_an_empty_leaderboard_says_how_to_get_on_it_and_a_newcomer_has_no_chart(
    api: Api, client: httpx.AsyncClient
) -> None:
    await signed_in(client, "ann")
    page = await client.get("/leaderboard")
    assert page.status_code == 200 and 'id="leaderboard"' not in page.text
    assert "Nobody is on the leaderboard yet. Play 10 rated games to get on it" in page.text
    ann = (await client.get("/players/ann")).text
    assert '<strong class="rating">1000<abbr title="provisional">?</abbr></strong>' in ann
    assert "0 rated games" in ann and "<svg" not in ann


async def test_the_leaderboard_asks_to_sign_in(client: httpx.AsyncClient) -> None:
    page = await client.get("/leaderboard")
    assert page.status_code in (302, 303) and "/login" in page.headers["location"]


def test_the_chart_draws_the_highest_rating_at_the_top_and_the_newest_on_the_right() -> None:
    assert chart_of([]) is None
    chart = chart_of([1000, 1120, 980, 1050])
    assert chart is not None
    assert (chart.low, chart.high, chart.first, chart.newest, chart.games) == (980, 1120, 1000, 1050, 4)
    points = [tuple(map(float, p.split(","))) for p in chart.points.split()]
    assert [x for x, _ in points] == sorted(x for x, _ in points) and chart.last == points[-1]
    assert points[1][1] == chart.top and points[2][1] == chart.bottom_y, "1120 at the top, 980 at the bottom"
    assert all(chart.top <= y <= chart.bottom_y <= HEIGHT for _, y in points)
    alone = chart_of([1040])
    assert alone is not None and len(alone.points.split()) == 1
