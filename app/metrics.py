"""The server's Prometheus metrics: every instrument in one place, and the text `/metrics` answers with.

Outside the layers, like the translations: the layers that count something (the write path, the bot's thinking,
the mail worker, the web's requests and streams) import the instrument they add to, and nothing here imports
anything of ours. Names follow Prometheus' conventions (`carson_` prefix, base units, `_total` counters).

Several worker processes of one server (gunicorn, `uvicorn --workers`) each count for themselves; with
PROMETHEUS_MULTIPROC_DIR set before the processes start (an empty directory, emptied at each start), the client
keeps the counts in files there and `exposition()` adds up every process's, as prometheus-client documents.
Gauges say how they combine across processes: the live streams add up, a figure read from the database (the same
in every process) is the freshest one.
"""

from __future__ import annotations

import os
from typing import Final

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client import generate_latest as _generate
from prometheus_client import multiprocess as _multiprocess
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

# The format API.md names (`text/plain; version=0.0.4`); the client's default is now 1.0.0, which only differs for
# names outside Prometheus' classic character set, and ours are all inside it.
CONTENT_TYPE: Final = CONTENT_TYPE_PLAIN_0_0_4

REQUESTS = Counter(
    "carson_http_requests_total",
    "HTTP requests answered, by route template (the path for unmatched ones is not kept), method and status.",
    ["route", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "carson_http_request_duration_seconds",
    "Time from a request's arrival to its answer's last byte, by route template and method (live streams, which "
    "last as long as a page is open, are left out).",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
MOVES = Counter(
    "carson_moves_total",
    "Changes recorded in games' logs, by kind: a player's move, the bot's, a timeout's default move, an undo, a "
    "seat handed over.",
    ["kind"],
)
LIVE_STREAMS = Gauge("carson_live_streams", "Live streams (server-sent events) open now.", multiprocess_mode="livesum")
LIVE_CATCH_UP_READS = Counter(
    "carson_live_catch_up_reads_total",
    "Statements the bus ran to read the heads of the games its live streams watch (one a period while any is open).",
)
LIVE_CAUGHT_UP = Counter(
    "carson_live_streams_caught_up_total",
    "Live streams handed a game's head by the periodic catch-up: a change whose notice never reached them (its "
    "instance stopped before sending it, or a reconnect raced it).",
)
OUTBOX_PENDING = Gauge(
    "carson_outbox_pending", "Outbox rows not settled yet (mail to plan or send).", multiprocess_mode="mostrecent"
)
OUTBOX_OLDEST_SECONDS = Gauge(
    "carson_outbox_oldest_pending_seconds",
    "Age of the oldest outbox row not settled yet (0 when none is pending).",
    multiprocess_mode="mostrecent",
)
MAILS = Counter(
    "carson_outbox_mails_total",
    "Mails the worker settled, by outcome (sent; retry: the SMTP server refused or was away; failed: given up).",
    ["outcome"],
)
BOT_THINKING_SECONDS = Histogram(
    "carson_bot_thinking_seconds",
    "Time the site's bot took to choose a move, by outcome (move; overran its deadline; failed).",
    ["outcome"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0),
)
DB_POOL = Gauge(
    "carson_db_pool_connections",
    "The process's database connections by state: in_use (checked out), idle (in the pool), and the pool's size.",
    ["state"],
    multiprocess_mode="livesum",
)


def exposition() -> bytes:
    """Every metric in Prometheus' text format: this process's, or every process's under PROMETHEUS_MULTIPROC_DIR."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return _generate(registry)
    return _generate(REGISTRY)
