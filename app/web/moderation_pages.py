"""The admins' page `/admin`: players' reports of chat messages, newest first, and the audit trail of every
admin action (`app.play.moderation`). Acting is done through the API (`moderation_api`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.play import moderation
from app.web.deps import OptionalAccount, ServiceDep
from app.web.rendering import render, to_login

router = APIRouter(include_in_schema=False)


@router.get("/admin")
async def admin_page(request: Request, account: OptionalAccount, service: ServiceDep) -> Response:
    if account is None:
        return to_login(request)
    reports = await moderation.reports(service.db, account)  # 403 `admin_only` for anyone else
    trail = await moderation.trail(service.db, account)
    return render(request, "pages/admin.html", account, reports=reports, trail=trail)
