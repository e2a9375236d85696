"""The player's settings page: how each kind of notice is sent (mail, push), the devices pushed to, vacation days
that stop one's move clocks, the time zone and reminder hours of the clock, the e-mail address, the password, and
signing out everywhere.

Every mail's footer links here. Handlers only parse, call the notification preferences, the clocks and the
sign-in service, and render; every POST checks the CSRF token first.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

import app.i18n as i18n
from app.i18n import N_, gettext
from app.notify import preferences, push_devices
from app.notify.messages import KIND_LABELS, KINDS, MODES
from app.play import answers, clocks, invitations
from app.play.accounts import Account, email_of, set_language
from app.play.clock_settings import clock_settings, save_clock_settings
from app.play.errors import PlayError
from app.play.service import GameService
from app.web import csrf
from app.web.deps import OptionalAccount, OptionalSignedIn, ServiceDep, SessionDep, SignInDep, client_address
from app.web.fields import Id
from app.web.forms import FormStr, OptionalFormStr
from app.web.labels import ANSWER_LABELS
from app.web.language import browser_language
from app.web.rendering import redirect, refused, render, said, to_login
from app.web.schemas import EmailAddress, NewPassword
from app.web.security import hold_in_cookie

router = APIRouter(include_in_schema=False)
MODE_LABELS = {"immediately": N_("Immediately"), "digest": N_("In the daily digest"), "off": N_("Never")}


def _forged(request: Request, account: Account | None, csrf_token: str | None) -> Response | None:
    """The 403 page when a settings form does not carry this session's CSRF token, None when it does."""
    try:
        csrf.check(request, csrf_token)
    except PlayError as exc:
        return render(request, "pages/error.html", account, status=403, message=said(exc))
    return None


async def _context(account: Account, service: GameService, session: AsyncSession) -> dict[str, Any]:
    modes = await preferences.modes(session, account.id)
    vacation = await clocks.vacation_summary(service.db, account, service.clock())
    email = await email_of(session, account.id)
    # Only admins are ever sent the admins' alerts: the others are not asked about them.
    kinds = [kind for kind in KINDS if account.is_admin or kind != "admin_alert"]
    return {"kinds": kinds, "labels": KIND_LABELS, "modes": MODES, "mode_labels": MODE_LABELS, "current": modes,
            "pushed": await push_devices.push_choices(session, account.id),
            "devices": await push_devices.devices(session, account.id),
            "vacation": vacation, "email": email or "", **await clock_context(service, account),
            "invitations_from_anyone": await invitations.takes_invitations_from_anyone(session, account.id),
            "answers": await answers.account_answers(session, account.id), "answer_labels": ANSWER_LABELS}


def time_zones() -> list[str]:
    """The time zones a player may choose: UTC, then every region's, by name."""
    return ["UTC", *sorted(z for z in zoneinfo.available_timezones() if "/" in z and not z.startswith("Etc/"))]


async def clock_context(service: GameService, account: Account) -> dict[str, Any]:
    """The clock section's context (`partials/clock_settings.html`)."""
    return {"clock": await clock_settings(service.db, account), "time_zones": time_zones()}


async def _page(request: Request, account: OptionalAccount, service: ServiceDep, session: SessionDep,
                status: int = 200, notice: str | None = None, error: str | None = None) -> Response:
    assert account is not None
    context = await _context(account, service, session)
    return render(request, "pages/settings.html", account, status=status, notice=notice, error=error, **context)


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
    if (forged := _forged(request, account, csrf_token)) is not None:
        return forged
    changes = {kind: str(form[kind]) for kind in KINDS if form.get(kind) in MODES}
    await preferences.set_modes(session, account.id, changes)
    if form.get("push_shown"):  # the form's push boxes: one per kind shown, an unticked one is not sent
        shown = [kind for kind in KINDS if account.is_admin or kind != "admin_alert"]
        await push_devices.set_push(session, account.id, {kind: form.get(f"push:{kind}") == "on" for kind in shown})
    if form.get("invitations_from") in ("anyone", "played_with"):
        await invitations.take_invitations_from_anyone(session, account.id, form["invitations_from"] == "anyone")
    await session.commit()
    return await _page(request, account, service, session, notice=gettext("Your mail settings are saved."))


@router.post("/settings/push/{subscription_id}/delete")
async def remove_device(request: Request, subscription_id: Id, account: OptionalAccount, service: ServiceDep,
                        session: SessionDep, csrf_token: OptionalFormStr = None) -> Response:
    """Stop pushing to one of the player's devices."""
    if account is None:
        return to_login(request)
    if (forged := _forged(request, account, csrf_token)) is not None:
        return forged
    try:
        await push_devices.unsubscribe(session, account.id, subscription_id)
    except PlayError as exc:
        return await _page(request, account, service, session, status=404, error=said(exc))
    await session.commit()
    return await _page(request, account, service, session, notice=gettext("That device gets no more notifications."))


@router.post("/settings/language")
async def save_language(request: Request, account: OptionalAccount, service: ServiceDep, session: SessionDep,
                        language: FormStr = "", csrf_token: OptionalFormStr = None) -> Response:
    """The account's language for pages and mails; empty: follow the browser (and English for mails)."""
    if account is None:
        return to_login(request)
    if (forged := _forged(request, account, csrf_token)) is not None:
        return forged
    chosen = i18n.supported(language) if language else None
    await set_language(session, account.id, chosen)
    await session.commit()
    i18n.use(chosen or browser_language(request.scope))
    account = replace(account, language=chosen)
    return await _page(request, account, service, session, notice=gettext("Your language is saved."))


@router.post("/settings/answers")
async def save_answers(request: Request, account: OptionalAccount, service: ServiceDep, session: SessionDep,
                       permission: FormStr = "ask", cash_limit: FormStr = "ask",
                       csrf_token: OptionalFormStr = None) -> Response:
    """The answers given ahead for every game: permission requests, and the cash limit (issue 26)."""
    if account is None:
        return to_login(request)
    if (forged := _forged(request, account, csrf_token)) is not None:
        return forged
    try:
        await answers.set_account_answers(session, account.id, permission, cash_limit)
    except PlayError as exc:
        return await _page(request, account, service, session, status=422, error=said(exc))
    await session.commit()
    return await _page(request, account, service, session, notice=gettext("Your answers are saved."))


@router.post("/settings/vacation")
async def declare_vacation(request: Request, account: OptionalAccount, service: ServiceDep, session: SessionDep,
                           days: Annotated[int, Form(ge=1, le=clocks.VACATION_DAYS_PER_YEAR)],
                           csrf_token: OptionalFormStr = None) -> Response:
    if account is None:
        return to_login(request)
    try:
        csrf.check(request, csrf_token)
        await clocks.declare_vacation(service.db, account, days, None, service.clock())
    except PlayError as exc:
        return await _page(request, account, service, session, status=409, error=said(exc))
    return redirect("/settings/notifications")


@router.post("/settings/clock")
async def save_clock(request: Request, account: OptionalAccount, service: ServiceDep, session: SessionDep,
                     time_zone: FormStr = "UTC", first: OptionalFormStr = None, second: OptionalFormStr = None,
                     csrf_token: OptionalFormStr = None) -> Response:
    """The player's time zone and reminder hours (empty fields: fewer reminders)."""
    if account is None:
        return to_login(request)
    if (forged := _forged(request, account, csrf_token)) is not None:
        return forged
    try:
        hours = [int(h) for h in (first, second) if h and h.strip()]
        await save_clock_settings(service.db, account, time_zone, hours)
    except ValueError:
        return await _page(request, account, service, session, status=422,
                           error=gettext("A reminder comes a whole number of hours before the clock runs out."))
    except PlayError as exc:
        return await _page(request, account, service, session, status=422, error=said(exc))
    return await _page(request, account, service, session, notice=gettext("Your clock settings are saved."))


@router.post("/settings/password")
async def change_password(request: Request, signed_in: OptionalSignedIn, sign_in: SignInDep, service: ServiceDep,
                          session: SessionDep, current_password: FormStr, new_password: FormStr,
                          csrf_token: OptionalFormStr = None) -> Response:
    """Change the password: every browser and API token of the account is signed out, and this browser signed in
    again with a fresh session."""
    if signed_in is None:
        return to_login(request)
    account = signed_in.account
    if (forged := _forged(request, account, csrf_token)) is not None:
        return forged
    try:
        TypeAdapter(NewPassword).validate_python(new_password)
    except ValidationError:
        return await _page(request, account, service, session, status=422,
                           error=gettext("A new password needs at least 8 characters."))
    try:
        await sign_in.change_password(account, current_password, new_password, client_address(request))
    except PlayError as exc:
        return refused(request, "pages/settings.html", account, exc, 403, **await _context(account, service, session))
    hold_in_cookie(request, await sign_in.open(account, "cookie"))
    return await _page(request, account, service, session,
                       notice=gettext("Your password is changed; every other browser and API token is signed out."))


@router.post("/settings/delete")
async def delete_account(request: Request, signed_in: OptionalSignedIn, sign_in: SignInDep, service: ServiceDep,
                         session: SessionDep, password: FormStr, csrf_token: OptionalFormStr = None) -> Response:
    """Delete the account (`app.play.your_data`) after checking the password; signed out, to the front page."""
    if signed_in is None:
        return to_login(request)
    account = signed_in.account
    if (forged := _forged(request, account, csrf_token)) is not None:
        return forged
    try:
        await sign_in.delete_account(account, password, client_address(request))
    except PlayError as exc:
        return refused(request, "pages/settings.html", account, exc, 403, **await _context(account, service, session))
    request.session.clear()
    return redirect("/")


@router.post("/settings/email")
async def change_email(request: Request, account: OptionalAccount, sign_in: SignInDep, service: ServiceDep,
                       session: SessionDep, current_password: FormStr, email: FormStr,
                       csrf_token: OptionalFormStr = None) -> Response:
    """Change the address mails and password resets go to, after the password is checked."""
    if account is None:
        return to_login(request)
    if (forged := _forged(request, account, csrf_token)) is not None:
        return forged
    try:
        address = TypeAdapter(EmailAddress).validate_python(email.strip())
    except ValidationError:
        return await _page(request, account, service, session, status=422,
                           error=gettext("Please give a valid email address."))
    try:
        sent = await sign_in.change_email(account, current_password, address, client_address(request))
    except PlayError as exc:
        context = await _context(account, service, session)
        return refused(request, "pages/settings.html", account, exc, 409 if exc.code == "email_taken" else 403,
                       **context)
    if not sent:
        return await _page(request, account, service, session,
                           notice=gettext("{address} is your address already.").format(address=address.lower()))
    return await _page(request, account, service, session, notice=gettext(
        "We sent a link to {address}: your mails go there once you follow it, within a day. Until then they go "
        "to the address you have now.").format(address=address.lower()))


@router.get("/settings/email/confirm/{token}")
async def confirm_email_form(request: Request, token: str, account: OptionalAccount, sign_in: SignInDep) -> Response:
    """The page a confirmation link opens: what it changes, and a button (mail scanners open links; only a
    person's click changes the address). No sign-in needed: the link was sent to the new address."""
    pending = await sign_in.email_pending(token)
    if pending is None:
        return _expired_email_link(request, account)
    return render(request, "pages/email_confirm.html", account, token=token, username=pending.username,
                  new_email=pending.new_email)


@router.post("/settings/email/confirm/{token}")
async def confirm_email(request: Request, token: str, account: OptionalAccount, sign_in: SignInDep,
                        csrf_token: OptionalFormStr = None) -> Response:
    """Change the address as the link says; the address it replaces is told."""
    if (forged := _forged(request, account, csrf_token)) is not None:
        return forged
    pending = await sign_in.email_pending(token)
    if pending is None:
        return _expired_email_link(request, account)
    try:
        address = await sign_in.confirm_email(token)
    except PlayError as exc:
        if exc.code == "invalid_email_link":
            return _expired_email_link(request, account)
        return refused(request, "pages/email_confirm.html", account, exc, 409, token=token,
                       username=pending.username, new_email=pending.new_email)
    return render(request, "pages/email_confirm.html", account, token=token, username=pending.username,
                  new_email=address, done=True)


def _expired_email_link(request: Request, account: Account | None) -> Response:
    return render(request, "pages/error.html", account, status=410,
                  message=gettext("This confirmation link has expired or was already used. "
                                  "Ask for a new one in your settings."))
