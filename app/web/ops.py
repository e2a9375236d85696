"""The routes for operators and their machines: `/healthz` (the process is alive), `/readyz` (it may take
traffic: the database answers at the expected migration) and `/metrics` (Prometheus' text format, behind
METRICS_TOKEN when set). See docs/operations.md for what to watch and when to alert."""

from __future__ import annotations

import hmac
import logging
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

import app.metrics as metrics
from app.i18n import N_, gettext
from app.notify.backlog import outbox_backlog
from app.play.errors import NotSignedIn
from app.play.readiness import Readiness
from app.web.deps import SettingsDep
from app.web.openapi import errors

log = logging.getLogger(__name__)

router = APIRouter(tags=["ops"])

NOT_READY = N_("This server is not ready to serve yet: {reason}.")


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """200 while the process runs and answers (liveness: restart it when this fails). It asks nothing of the
    database: an instance whose database is away is alive, only not ready (`/readyz`)."""
    return {"status": "ok"}


@router.get("/readyz", responses=errors(503))
async def readyz(request: Request) -> Any:
    """200 when the database answers and is at the migration this server needs; 503 `not_ready` otherwise (a
    load balancer sends an instance traffic only while it is ready)."""
    readiness: Readiness = request.app.state.readiness
    problem = await readiness.problem()
    if problem is not None:
        message = gettext(NOT_READY).format(reason=problem)
        return JSONResponse({"detail": {"code": "not_ready", "message": message}}, status_code=503)
    return {"status": "ready"}


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus' text format 0.0.4."}, **errors(401)},
)
async def prometheus(request: Request, settings: SettingsDep) -> Response:
    """Every metric of this process (every worker process's, under PROMETHEUS_MULTIPROC_DIR), with the figures
    read from the database refreshed first. With METRICS_TOKEN set, only for `Authorization: Bearer <token>`."""
    if settings.metrics_token and not _bears(request, settings.metrics_token):
        raise NotSignedIn("metrics_token_required", "The metrics need the bearer token METRICS_TOKEN names.")
    readiness: Readiness = request.app.state.readiness
    db = readiness.db
    try:
        pending, oldest = await outbox_backlog(db, datetime.now(UTC))
        metrics.OUTBOX_PENDING.set(pending)
        metrics.OUTBOX_OLDEST_SECONDS.set(oldest)
    except Exception as exc:  # the other figures are still worth having while the database is away
        log.warning("metrics: the outbox could not be read (%s)", type(exc).__name__)
    for state, count in db.pool_use().items():
        metrics.DB_POOL.labels(state).set(count)
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)


def _bears(request: Request, token: str) -> bool:
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())
