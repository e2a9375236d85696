"""The player's settings page: how each kind of mail is sent, and vacation days that stop one's move clocks.

Every mail's footer links here. Handlers only parse, call the notification preferences and the clocks, and
render; every POST checks the CSRF token first.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from app.notify import preferences
from app.notify.messages import KIND_LABELS, KINDS, MODES
from app.play import clocks
from app.play.errors import PlayError
from app.web import csrf
from app.web.deps import OptionalAccount, ServiceDep, SessionDep
from app.web.pages import OptionalFormStr, redirect, render, to_login

router = APIRouter(include_in_schema=False)
MODE_LABELS = {"immediately": "Immediately", "digest": "In the daily digest", "off": "Never"}


async def _page(request: Request, account: OptionalAccount, service: ServiceDep, session: SessionDep,
                status: int = 200, notice: str | None = None, error: str | None = None) -> Response:
    assert account is not None
    modes = await preferences.modes(session, account.id)
    vacation = await clocks.vacation_summary(service.db, account, service.clock())
    return render(request, "pages/settings.html", account, status=status, kinds=KINDS, labels=KIND_LABELS,
                  modes=MODES, mode_labels=MODE_LABELS, current=modes, vacation=vacation, notice=notice, error=error)


@router.get("/settings/notifications")
async def settings_page(request: Request, account: OptionalAccount, service: ServiceDep,
                        session: SessionDep) -> Response:
    if account is None:
        return to_login(request)
    return await _page(request, account, service, session)


@router.post("/settings/notifications")
async def save_notifications(request: Request, account: OptionalAccount, service: ServiceDep,
                             session: SessionDep, csrf_token: OptionalFormStr = None) -> Response:
    if account is None:
        return to_login(request)
    form = await request.form()
    try:
        csrf.check(request, csrf_token)
    except PlayError as exc:
        return render(request, "pages/error.html", account, status=403, message=exc.message)
    changes = {kind: str(form[kind]) for kind in KINDS if form.get(kind) in MODES}
    await preferences.set_modes(session, account.id, changes)
    await session.commit()
    return await _page(request, account, service, session, notice="Your mail settings are saved.")


@router.post("/settings/vacation")
async def declare_vacation(request: Request, account: OptionalAccount, service: ServiceDep, session: SessionDep,
                           days: Annotated[int, Form(ge=1, le=14)], csrf_token: OptionalFormStr = None) -> Response:
    if account is None:
        return to_login(request)
    try:
        csrf.check(request, csrf_token)
        await clocks.declare_vacation(service.db, account, days, None, service.clock())
    except PlayError as exc:
        return await _page(request, account, service, session, status=409, error=exc.message)
    return redirect("/settings/notifications")
