"""Mail and push settings over the API (how each kind of notice is sent, whose invitations are taken) and the one-click
unsubscribe page every mail links to."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, ConfigDict, Field

import app.i18n as i18n
from app.i18n import gettext
from app.notify import channels, preferences, push_devices
from app.notify.messages import DIGEST_LABEL, KIND_LABELS, KINDS, TEMPLATES
from app.notify.preferences import UnsubscribeLinks
from app.play import invitations
from app.play.accounts import Account, account_by_id
from app.play.errors import Invalid
from app.settings import Settings
from app.web.deps import CurrentAccount, SessionDep, SettingsDep
from app.web.openapi import errors

router = APIRouter()
Mode = Literal["immediately", "digest", "off"]
_pages = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]))
i18n.install(_pages)


InvitationsFrom = Literal["anyone", "played_with"]
INVITATIONS_FROM = ("Whose invitations the account takes: anyone's (the default), or only those of players who "
                    "shared a running or finished game with it (403 `invitations_refused` for the others).")


Channel = Literal["mail", "push", "both", "none"]
CHANNELS = ("How each kind reaches the player: by mail (as `preferences` says: at once or in the digest), pushed to "
            "their devices, both, or neither.")


class PreferencesOut(BaseModel):
    preferences: dict[str, Mode] = Field(description=f"Mode per kind of mail; kinds: {', '.join(KINDS)}.")
    channels: dict[str, Channel] = Field(description=CHANNELS)
    labels: dict[str, str]
    invitations_from: InvitationsFrom = Field(description=INVITATIONS_FROM)


class PreferencesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preferences: dict[str, Mode] = Field(default_factory=dict,
                                         description="Kinds to change, each to immediately, digest or off.")
    channels: dict[str, Channel] = Field(default_factory=dict, description=CHANNELS + " A kind turned to mail or "
                                         "both keeps its mail mode, or is mailed at once if it was off.")
    invitations_from: InvitationsFrom | None = Field(default=None, description=INVITATIONS_FROM)


def _links(settings: Settings) -> UnsubscribeLinks:
    return UnsubscribeLinks(settings.signing_key(), settings.base_url)


@router.get("/api/v1/me/notifications", tags=["notifications"])
async def get_preferences(account: CurrentAccount, session: SessionDep) -> PreferencesOut:
    """How the caller wants each kind of mail: immediately (default), in the daily digest, or not at all; and
    whose invitations they take."""
    return await _preferences(session, account.id)


@router.put("/api/v1/me/notifications", tags=["notifications"])
async def put_preferences(body: PreferencesIn, account: CurrentAccount, session: SessionDep) -> PreferencesOut:
    """Change the mode of some kinds of mail (the others stay as they are), and, with `invitations_from`, whose
    invitations the caller takes."""
    unknown = sorted((set(body.preferences) | set(body.channels)) - set(KINDS))
    if unknown:
        raise Invalid("unknown_kind", "There is no kind of mail called '{kind}'; kinds: {kinds}.",
                      kind=unknown[0], kinds=", ".join(KINDS))
    await preferences.set_modes(session, account.id, body.preferences)
    if body.channels:
        await channels.set_channels(session, account.id, body.channels)
    if body.invitations_from is not None:
        await invitations.take_invitations_from_anyone(session, account.id, body.invitations_from == "anyone")
    await session.commit()
    return await _preferences(session, account.id)


async def _preferences(session: SessionDep, user_id: int) -> PreferencesOut:
    anyone = await invitations.takes_invitations_from_anyone(session, user_id)
    modes = await preferences.modes(session, user_id)
    return PreferencesOut(
        preferences=modes,  # type: ignore[arg-type]
        channels=channels.channels(modes, await push_devices.push_choices(session, user_id)),  # type: ignore[arg-type]
        labels=_labels(),
        invitations_from="anyone" if anyone else "played_with",
    )


async def _unsubscribe_target(token: str, settings: Settings, session: SessionDep) -> tuple[Account, str]:
    found = _links(settings).read(token)
    user = await account_by_id(session, found[0]) if found is not None else None
    if found is None or user is None:
        raise Invalid("invalid_unsubscribe_link", "This unsubscribe link is not valid (it may be incomplete).")
    return user, found[1]


def _labels() -> dict[str, str]:
    """Each kind's label in the caller's language."""
    return {kind: gettext(label) for kind, label in KIND_LABELS.items()}


def _label(kind: str) -> str:
    return gettext(KIND_LABELS.get(kind, DIGEST_LABEL))


def _page(user: Account, kind: str, **context: object) -> HTMLResponse:
    """The unsubscribe page in the account's language (else the browser's): its reader may not be signed in."""
    with i18n.speaking(user.language or i18n.current()):
        page = _pages.get_template("unsubscribe_page.html").render(
            username=user.username, label=_label(kind), language=i18n.current(), **context
        )
    return HTMLResponse(page)


@router.get("/unsubscribe/{token}", response_class=HTMLResponse, responses=errors(422), tags=["notifications"])
async def unsubscribe_page(token: str, settings: SettingsDep, session: SessionDep) -> HTMLResponse:
    """The page behind the link in every mail: asks to confirm (no sign-in needed; the link is signed)."""
    user, kind = await _unsubscribe_target(token, settings, session)
    return _page(user, kind, done=False)


@router.post("/unsubscribe/{token}", response_class=HTMLResponse, responses=errors(422), tags=["notifications"])
async def unsubscribe(
    token: str,
    settings: SettingsDep,
    session: SessionDep,
    scope: Annotated[Literal["kind", "all"], Form()] = "kind",
) -> HTMLResponse:
    """One-click unsubscribe (RFC 8058: mail programs POST `List-Unsubscribe=One-Click` here); `scope=all`
    turns off every kind of mail."""
    user, kind = await _unsubscribe_target(token, settings, session)
    await preferences.unsubscribe(session, user.id, kind, every_kind=scope == "all")
    await session.commit()
    return _page(user, kind, done=True, all_kinds=scope == "all")
