"""The account pages: sign-up, sign-in and sign-out (see docs/api.md "Pages"); the password's pages are
`password_pages`, the settings' `settings_pages`.

Handlers parse, call the sign-in service, and render; every POST checks the CSRF token first.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import ValidationError

import app.i18n as i18n
from app.i18n import N_, gettext
from app.play.errors import Invalid, NotAllowed, PlayError, TooMany
from app.web import bot_game, csrf
from app.web.deps import LobbyDep, OptionalAccount, OptionalSignedIn, SignInDep, client_address
from app.web.device import device_cookies
from app.web.forms import FormStr, FormText, OptionalFormStr, csrf_failed
from app.web.rendering import redirect, refused, render, safe_next, said
from app.web.schemas import RegisterIn
from app.web.security import hold_in_cookie

router = APIRouter(include_in_schema=False)


# What a sign-up may lead to at once, by the form's `play` field: a table against the bot (the home page's "Play
# against the bot now"). A name, never an address, so the form cannot send anyone elsewhere.
SIGNUP_NEXT_STEPS = frozenset({"bot"})


@router.get("/signup")
async def signup_form(request: Request, account: OptionalAccount, play: str = "") -> Response:
    return render(request, "pages/signup.html", account, values={}, play=play if play in SIGNUP_NEXT_STEPS else "")


@router.post("/signup")
async def signup(
    request: Request,
    sign_in: SignInDep,
    username: FormStr,
    email: FormStr,
    password: FormStr,
    lobby: LobbyDep,
    play: OptionalFormStr = None,
    csrf_token: OptionalFormStr = None,
) -> Response:
    """Open an account and sign it in; with `play=bot`, also open a table against the bot and go to it (to the
    lobby, which offers it again, if the table cannot be opened)."""
    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return csrf_failed(request, None, exc)
    values = {"username": username, "email": email}
    play = play if play in SIGNUP_NEXT_STEPS else ""
    try:
        body = RegisterIn(username=username.strip(), email=email.strip(), password=password)
    except ValidationError as exc:
        field = ".".join(str(p) for p in exc.errors()[0]["loc"])
        message = gettext({
            "username": N_("A username has 3 to 32 letters, digits, dots, dashes or underscores."),
            "email": N_("Please give a valid email address."),
            "password": N_("A password needs at least 8 characters."),
        }.get(field, N_("Please check the form.")))
        return render(request, "pages/signup.html", None, status=422, values=values, error=message, play=play)
    try:
        account = await sign_in.register(
            body.username, body.email, body.password, client_address(request), language=i18n.current()
        )
    except PlayError as exc:  # too many sign-ups (429), a name reserved for the site's bots (422), taken (409)
        status = 429 if isinstance(exc, TooMany) else 422 if isinstance(exc, Invalid) else 409
        return render(request, "pages/signup.html", None, status=status, values=values, error=said(exc),
                      play=play)
    hold_in_cookie(request, await sign_in.open(account, "cookie"))
    if play == "bot":
        try:
            summary = await bot_game.open_against_the_bot(lobby, account, client_address(request))
        except PlayError:
            return redirect("/#play-bot")
        return redirect(f"/games/{summary.id}")
    return redirect("/")


@router.get("/login")
async def login_form(request: Request, account: OptionalAccount, next: str | None = None) -> Response:
    return render(request, "pages/login.html", account, next=safe_next(next), username="")


@router.post("/login")
async def login(
    request: Request,
    sign_in: SignInDep,
    username: FormText,
    password: FormStr,
    next: OptionalFormStr = None,
    csrf_token: OptionalFormStr = None,
) -> Response:
    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return csrf_failed(request, None, exc)
    devices = device_cookies(request)
    try:
        account, session_id = await sign_in.with_password(
            username, password, client_address(request), "cookie", known_device=devices.known(request, username)
        )
    except PlayError as exc:
        return refused(request, "pages/login.html", None, exc, 401, next=safe_next(next), username=username)
    hold_in_cookie(request, session_id)
    response = redirect(safe_next(next))
    devices.remember(response, account.username)
    return response


@router.get("/logout")
async def logout_form(request: Request, account: OptionalAccount) -> Response:
    return render(request, "pages/logout.html", account)


@router.post("/logout")
async def logout(
    request: Request,
    signed_in: OptionalSignedIn,
    sign_in: SignInDep,
    everywhere: OptionalFormStr = None,
    csrf_token: OptionalFormStr = None,
) -> Response:
    """Sign this browser out (its session is revoked, so a copy of the cookie is worthless), or, with
    `everywhere`, every browser and API token of the account."""
    try:
        csrf.check(request, csrf_token)
    except NotAllowed as exc:
        return csrf_failed(request, None, exc)
    if signed_in is not None and everywhere:
        await sign_in.sign_out_everywhere(signed_in.account)
    elif signed_in is not None:
        await sign_in.sign_out(signed_in.session_id)
    request.session.clear()
    return redirect("/")
