"""`python -m app worker`: the background jobs alone, in a process of their own next to the servers, deliver
the mail that a server's moves left in the outbox (README "Configuration", BACKGROUND_JOBS)."""

from __future__ import annotations

import asyncio
import os
import sys

from conftest import Api

from app.play.service import GameService
from app.settings import Settings
from app.store.db import to_libpq_url
from tests.notify.conftest import SmtpServer, started


async def test_the_worker_command_mails_the_players_of_a_game_started_on_a_server(
    api: Api, service: GameService, smtp: SmtpServer, mail_settings: Settings
) -> None:
    await started(api, service, ["ann", "bob"], seed=3)
    assert mail_settings.database_url is not None
    environment = {
        **os.environ,
        "ENVIRONMENT": "test",
        "SECRET_KEY": mail_settings.secret_key,
        "DATABASE_URL": to_libpq_url(mail_settings.database_url),
        "DATA_DIR": str(mail_settings.data_dir),
        "MIGRATE_ON_START": "false",
        "BASE_URL": mail_settings.base_url,
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(smtp.port),
        "MAIL_POLL_SECONDS": "0.2",
    }
    worker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "app",
        "worker",
        env=environment,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        for _ in range(300):
            if len(smtp.inbox.mails) >= 2 or worker.returncode is not None:
                break
            await asyncio.sleep(0.1)
    finally:
        if worker.returncode is None:
            worker.terminate()
        _, log = await worker.communicate()
    assert sorted(recipients for recipients, _ in smtp.inbox.mails) == [["ann@example.com"], ["bob@example.com"]], log
    assert all(mail["Subject"].startswith("Test game has started") for _, mail in smtp.inbox.mails)
