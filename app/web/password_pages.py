"""Password reset pages: "Forgot your password?" asks for the address and mails a link; the link's page sets a
new password, which signs out every browser and token of the account and signs this browser in.

The request's answer is the same whether or not the address has an account. Handlers only parse, call the
sign-in service and render; every POST checks the CSRF token first.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import TypeAdapter, ValidationError

from app.i18n import N_, gettext
from app.play.errors import PlayError
from app.web import csrf
from app.web.deps import OptionalAccount, SignInDep, client_address
from app.web.forms import FormStr, OptionalFormStr
from app.web.rendering import redirect, refused, render, said
from app.web.schemas import NewPassword
from app.web.security import hold_in_cookie

router = APIRouter(include_in_schema=False)
SENT = N_("If an account has this address, a mail with a link to set a new password is on its way. "
          "The link works once, within an hour.")


@router.get("/password/forgot")
async def forgot_form(request: Request, account: OptionalAccount) -> Response:
    return render(request, "pages/password_forgot.html", account, email="")


@router.post("/password/forgot")
async def forgot(request: Request, account: OptionalAccount, sign_in: SignInDep, email: FormStr,
                 csrf_token: OptionalFormStr = None) -> Response:
    """Queue the reset mail; the answer never tells whether the address belongs to an account."""
    try:
        csrf.check(request, csrf_token)
        await sign_in.ask_for_reset(email, client_address(request))
    except PlayError as exc:
        return refused(request, "pages/password_forgot.html", account, exc, 403, email=email)
    return render(request, "pages/password_forgot.html", account, email="", notice=gettext(SENT))


@router.get("/password/reset/{token}")
async def reset_form(request: Request, token: str, account: OptionalAccount, sign_in: SignInDep) -> Response:
    pending = await sign_in.reset_pending(token)
    if pending is None:
        return _expired(request, account)
    return render(request, "pages/password_reset.html", account, token=token, username=pending.username)


@router.post("/password/reset/{token}")
async def reset(request: Request, token: str, account: OptionalAccount, sign_in: SignInDep, new_password: FormStr,
                csrf_token: OptionalFormStr = None) -> Response:
    """Set the new password, sign out everywhere else, sign this browser in, and go to the lobby."""
    try:
        csrf.check(request, csrf_token)
    except PlayError as exc:
        return render(request, "pages/error.html", account, status=403, message=said(exc))
    pending = await sign_in.reset_pending(token)
    if pending is None:
        return _expired(request, account)
    try:
        TypeAdapter(NewPassword).validate_python(new_password)
    except ValidationError:
        return render(request, "pages/password_reset.html", account, status=422, token=token,
                      username=pending.username, error=gettext("A new password needs at least 8 characters."))
    try:
        signed_in = await sign_in.reset_password(token, new_password)
    except PlayError:
        return _expired(request, account)
    hold_in_cookie(request, await sign_in.open(signed_in, "cookie"))
    return redirect("/")


def _expired(request: Request, account: OptionalAccount) -> Response:
    return render(request, "pages/error.html", account, status=410,
                  message=gettext("This reset link has expired or was already used. "
                                  "Ask for a new one on the sign-in page."))
