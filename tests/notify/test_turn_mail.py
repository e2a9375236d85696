"""The turn mail tells what the others did since the player's last move (issue 26 item 5): a few lines of the
table's own log, in the player's language, from the events as that player may see them; through a real SMTP
server."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
from conftest import Api
from sqlalchemy import func, select

from app.i18n import speaking
from app.notify.gamelog import Describer, game_log
from app.notify.messages import SINCE_LINES, since_last_move
from app.notify.worker import Notifier, _since_last_move
from app.play.accounts import set_language
from app.play.service import GameService
from app.store.tables import GameEvent
from tests.notify.conftest import SmtpServer, Table, drain, now, started


async def _round_trip(table: Table, seat: int) -> None:
    """`seat` plays its first legal moves until the game awaits someone else, who plays theirs until `seat` is
    awaited again: a turn handed over and back."""
    for _ in range(50):
        awaited = await table.to_act()
        if seat not in awaited:
            break
        await table.play(seat, lambda moves: moves[0])
    for _ in range(50):
        awaited = await table.to_act()
        if seat in awaited:
            return
        await table.play(awaited[0], lambda moves: moves[0])
    raise AssertionError("the seat was never awaited again")


async def _log_since(client: httpx.AsyncClient, service: GameService, table: Table, seat: int, language: str | None,
                     ) -> list[str]:
    """The table's log lines, as `seat`'s player reads them there, of the events after their last own move."""
    async with service.db.autocommit() as session:
        last = await session.scalar(
            select(func.max(GameEvent.seq)).where(GameEvent.game_id == table.id, GameEvent.actor == seat)
        )
    player = table.player(seat)
    events: list[dict[str, Any]] = (
        await client.get(f"/api/v1/games/{table.id}/events", params={"after": last}, headers=player.headers)
    ).json()["events"]
    state = (await client.get(f"/api/v1/games/{table.id}/state", headers=player.headers)).json()
    names = [p["username"] for p in sorted(state["players"], key=lambda p: p["seat"])]
    with speaking(language):
        lines = game_log(Describer(names), [(e["seq"], {"type": e["type"], **e["data"]}) for e in events])
    return [line.text for line in lines if not line.heading][::-1]


async def _turn_mail(smtp: SmtpServer, username: str) -> tuple[str, str]:
    (mail,) = [m for m in smtp.inbox.to(f"{username}@example.com") if "turn" in m["Subject"].lower()
               or "tour" in m["Subject"].lower()]
    text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    html = mail.get_body(("html",)).get_content()  # type: ignore[union-attr]
    return text, html


async def test_the_turn_mail_lists_what_the_others_did_since_ones_last_move(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    (seat,) = await table.to_act()
    await _round_trip(table, seat)
    await drain(notifier)
    smtp.inbox.clear()
    # Now a turn away from the table: the player moves, the others answer, and the mail tells of their moves.
    await _round_trip(table, seat)
    expected = await _log_since(client, service, table, seat, None)
    await drain(notifier, now() + timedelta(hours=2))  # past the hour within which one turn mail is enough
    text, html = await _turn_mail(smtp, table.player(seat).username)
    assert expected, "the others made no move"
    assert "Since your last move:" in text and "Since your last move:" in html
    shown = expected[-SINCE_LINES:]
    listed = [line[2:] for line in text.split("Since your last move:", 1)[1].splitlines() if line.startswith("- ")]
    assert listed[-len(shown):] == shown  # the newest lines, oldest first, as the table's log says them
    if len(expected) > SINCE_LINES:
        assert f"({len(expected) - SINCE_LINES} earlier lines in the game's log)" in text


async def test_the_turn_mail_tells_it_in_the_players_language(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    (seat,) = await table.to_act()
    async with service.db.session() as session:
        await set_language(session, table.player(seat).id, "fr")
        await session.commit()
    await drain(notifier)
    smtp.inbox.clear()
    await _round_trip(table, seat)
    expected = await _log_since(client, service, table, seat, "fr")
    english = await _log_since(client, service, table, seat, None)
    await drain(notifier, now() + timedelta(hours=2))
    text, _ = await _turn_mail(smtp, table.player(seat).username)
    assert expected and expected != english
    for line in expected[-SINCE_LINES:]:
        assert line in text


def test_a_long_absence_lists_the_newest_lines_and_counts_the_rest() -> None:
    view = {"players": [{"seat": 1, "username": "bob"}, {"seat": 0, "username": "ann"}]}
    events = [(seq, {"type": "personality_chosen", "seat": 1, "card": "banker", "side": "yellow", "money": seq})
              for seq in range(1, 12)]
    told = since_last_move(view, events)
    assert told["earlier"] == 11 - SINCE_LINES
    assert told["since"] == [f"bob chooses the Banker (yellow) and receives ${seq}." for seq in range(4, 12)]


async def test_what_the_turn_mail_tells_holds_no_secret_of_another_seat(api: Api, service: GameService) -> None:
    """The events since one's last move are read as that seat may see them (`redact_event`): another seat's
    secret basket edit (A New Beginning) is left out, another's secret vote is told without its side."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    (seat,) = await table.to_act()
    other = 1 - seat
    head = (await table.positions.summary(table.id)).head
    logged = [
        {"type": "side_voted", "seat": seat, "card": "grocer", "side": "yellow"},  # one's own last move
        {"type": "side_voted", "seat": other, "card": "banker", "side": "red"},  # the other's secret vote
        {"type": "shop_item_added", "seat": other, "item": "cowboy"},  # the other's secret basket
    ]
    async with service.db.session() as session:
        for offset, event in enumerate(logged, start=1):
            data = {k: v for k, v in event.items() if k != "type"}
            session.add(GameEvent(game_id=table.id, seq=head + offset, type=event["type"], data=data,
                                  actor=event["seat"]))
        await session.commit()
        told = await _since_last_move(session, table.id, head + len(logged), seat)
    assert told == [(head + 2, {"type": "side_voted", "seat": other, "card": "banker"})]
    view = {"players": [{"seat": seat, "username": table.player(seat).username},
                        {"seat": other, "username": table.player(other).username}]}
    (line,) = since_last_move(view, told)["since"]
    assert "red" not in line and table.player(other).username in line
