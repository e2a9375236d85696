"""Mails that cannot go out end marked "failed" (outcome, last error, no longer pending) instead of blocking
the queue: a mail that cannot be written fails at once, a mail the SMTP server keeps refusing after its
retries. Real SMTP server, real PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from conftest import Api
from sqlalchemy import select

from app.notify.worker import Notifier
from app.play.accounts import Account
from app.play.lobby import Lobby
from app.play.service import GameService
from app.rules.fairness import seed_bytes
from app.store.tables import Game, Outbox, Seat
from tests.notify.conftest import SmtpServer, drain, now


async def _mail_rows(service: GameService, game_id: int) -> list[Outbox]:
    async with service.db.reading() as session:
        rows = await session.scalars(select(Outbox).where(Outbox.kind == "mail", Outbox.game_id == game_id))
        return list(rows.all())


async def test_a_mail_that_cannot_be_written_fails_at_once_and_the_mails_behind_it_go_out(
    api: Api, service: GameService, lobby: Lobby, notifier: Notifier, smtp: SmtpServer
) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    # Old data from before names were checked: a game whose name holds a line break, which no Subject can carry.
    async with service.db.session() as session:
        poisoned = Game(
            name="Line\nbreak", seat_count=2, variants={}, seed=seed_bytes(7), created_by=admin.id
        )
        session.add(poisoned)
        await session.flush()
        session.add_all([Seat(game_id=poisoned.id, user_id=ann.id), Seat(game_id=poisoned.id, user_id=bob.id)])
        await session.commit()
    await lobby.start(Account(admin.id, admin.username, True), poisoned.id)
    fine = await api.started_game(admin, [ann, bob], name="Fine")

    assert await drain(notifier) == {"failed": 2, "sent": 2}
    subjects = [m["Subject"].removesuffix(": you play first") for _, m in smtp.inbox.mails]
    assert subjects == ["Fine has started"] * 2
    failed = await _mail_rows(service, poisoned.id)
    assert len(failed) == 2
    for row in failed:
        assert row.outcome == "failed" and row.sent_at is not None and row.attempts == 0
        assert row.last_error is not None and "cannot be composed" in row.last_error
    assert {row.outcome for row in await _mail_rows(service, fine["id"])} == {"sent"}
    assert await drain(notifier, now() + timedelta(days=2)) == {}  # nothing pending, nothing retried


async def test_a_mail_the_smtp_server_keeps_refusing_is_retried_then_marked_failed(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    admin = await api.admin()
    game = await api.started_game(admin, [await api.player("ann"), await api.player("bob")])
    smtp.stop()
    t = now()
    outcomes: dict[str, int] = {}
    for _ in range(notifier.settings.max_attempts):
        for outcome, count in (await drain(notifier, t)).items():
            outcomes[outcome] = outcomes.get(outcome, 0) + count
        t += notifier.settings.longest_retry
    assert outcomes == {"retry": 2 * (notifier.settings.max_attempts - 1), "failed": 2}
    rows = await _mail_rows(service, game["id"])
    assert [(r.outcome, r.attempts) for r in rows] == [("failed", notifier.settings.max_attempts)] * 2
    assert all(r.sent_at is not None and r.last_error for r in rows)
    smtp.start()
    assert await drain(notifier, t) == {} and smtp.inbox.mails == []
