"""The server's command-line commands: `serve`, `worker`, `migrate`, `create-admin` (wired in app.cli).

They sit outside the layers, next to the composition root (app.main) they start: they read the settings and
assemble everything, the database, the services and the web app. Each imports the composition root only when it
runs (2.5 s of imports on a slow machine: the web app, the push sender), so that `migrate` and a refused
`create-admin` answer at once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import os
import secrets
import sys
from typing import Any

from app import serving
from app.play import addresses
from app.play.errors import Invalid
from app.settings import Settings


def serve(args: argparse.Namespace) -> int:
    """Start the server; migrations run at start-up, the embedded PostgreSQL starts when DATABASE_URL is unset."""
    import uvicorn

    from app.main import create_app

    settings = Settings()
    demo_password = None
    if settings.environment == "development" and not settings.admin_username:
        # A fresh local server should be playable at once: a demo admin with a new password on each start.
        demo_password = secrets.token_urlsafe(9)
        settings = settings.model_copy(update={"admin_username": "admin", "admin_password": demo_password})
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}"
    database = "DATABASE_URL" if settings.database_url else f"embedded PostgreSQL in {settings.data_dir}/pgdata"
    print(f"Carson City Online: {url}/  (API docs at {url}/docs; database: {database})")
    if demo_password is not None:
        print(f"Sign in as the admin: username 'admin', password '{demo_password}' (new on every start;")
        print("  set ADMIN_USERNAME/ADMIN_PASSWORD to choose them).")
    elif settings.admin_username:
        print(f"Sign in as the admin '{settings.admin_username}' with ADMIN_PASSWORD.")
    else:
        print("Create an admin with `python -m app create-admin NAME`.")
    print(f"Players register at POST {url}/api/v1/auth/register and get a token at POST {url}/api/v1/auth/token.")
    sys.stdout.flush()
    serving.raise_open_file_limit()
    application = create_app(settings)
    serving.collect_garbage_on_a_timer()
    logs = serving.configure_logging(settings.log_format)
    serving.lean_log_records()
    uvicorn.run(application, host=args.host, port=args.port, log_level="info", **uvicorn_options(settings), **logs)
    return 0


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The options of uvicorn that the settings decide. The app reads forwarded headers itself, from the proxies
    of FORWARDED_ALLOW_IPS only: uvicorn's own reading trusts 127.0.0.1 by default, which would let any local
    client choose its address. Idle connections are kept KEEP_ALIVE_SECONDS, longer than the clients' and the
    proxy's own keep-alive, so the server never closes one just as a client sends on it."""
    return {"proxy_headers": False, "timeout_keep_alive": settings.keep_alive_seconds}


def worker(args: argparse.Namespace) -> int:
    """Run the background jobs (mail worker, move clocks, bots) alone; any number of them may run side by side."""
    import logging

    from app.main import run_worker

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_worker(Settings()))
    return 0


def migrate(args: argparse.Namespace) -> int:
    """Bring the database (DATABASE_URL, or the embedded one in DATA_DIR) to the newest schema."""
    from app.store import migrate as migrations
    from app.store.db import resolve_url

    settings = Settings()
    url, server = resolve_url(settings.database_url, settings.data_dir)
    try:
        migrations.upgrade(url, args.revision)
    finally:
        if server is not None:
            server.cleanup()
    print(f"database migrated to {args.revision}")
    return 0


def create_admin(args: argparse.Namespace) -> int:
    """Create an admin account, or make an existing account an admin with a new password."""
    password = args.password or os.environ.get("ADMIN_PASSWORD")
    if not password:
        if not sys.stdin.isatty():
            print("create-admin: give --password or ADMIN_PASSWORD (no terminal to ask on)", file=sys.stderr)
            return 2
        password = getpass.getpass(f"Password for {args.username}: ")
    if len(password) < 8:
        print("create-admin: the password needs at least 8 characters", file=sys.stderr)
        return 2
    try:  # checked before anything is opened: an address the sign-up form would refuse is refused here too
        email = addresses.normalised(args.email) if args.email else None
    except Invalid as exc:
        print(f"create-admin: {args.email!r}: {exc.message}", file=sys.stderr)
        return 2
    from app.main import ensure_admin

    asyncio.run(ensure_admin(Settings(), args.username, password, email))
    print(f"admin '{args.username}' is ready")
    return 0


def ratings(args: argparse.Namespace) -> int:
    """Rate the finished games still pending, or compute every rating again from the results (`--rebuild`)."""
    from app.main import rate_games

    rated = asyncio.run(rate_games(Settings(), args.rebuild))
    print(f"ratings: {rated} games rated{' (rebuilt from the results)' if args.rebuild else ''}")
    return 0


def audit(args: argparse.Namespace) -> int:
    """Replay every stored game from its log and check it (app.play.log_audit); exit 1 naming each failing game."""
    from app.main import audit_logs

    failed = asyncio.run(audit_logs(Settings(), print))
    return 1 if failed else 0
