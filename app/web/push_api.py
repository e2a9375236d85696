"""Web push over the API: the site's VAPID key, and the caller's devices (RFC 8030 subscriptions).

The settings page's button (static/push.js) subscribes through these routes too; what is pushed, and when, is
app.notify.push_outbox's.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from app.notify import push_devices
from app.notify.push_sender import PushSender
from app.play.errors import NotFound
from app.web.deps import CurrentAccount, SessionDep, SettingsDep
from app.web.fields import Id
from app.web.openapi import errors

router = APIRouter(tags=["notifications"])


async def _pushes(request: Request) -> PushSender:
    pushes: PushSender | None = request.app.state.pushes
    if pushes is None:
        raise NotFound("push_unavailable", "This site sends no push notifications (it has no VAPID key).")
    return pushes


PushesDep = Annotated[PushSender, Depends(_pushes)]


class KeyOut(BaseModel):
    public_key: str = Field(description="The VAPID application server key (RFC 8292): an uncompressed P-256 point, "
                                        "base64url; `applicationServerKey` of `PushManager.subscribe`.")


class KeysIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    p256dh: str = Field(max_length=100, description="The browser's P-256 public key, base64url (65 bytes).")
    auth: str = Field(max_length=40, description="The authentication secret, base64url (16 bytes).")


class SubscriptionIn(BaseModel):
    """A `PushSubscription` as the browser's `toJSON()` gives it (`expirationTime` is ignored)."""

    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(max_length=2048, description="The push service's URL for this device: https, on a "
                                                        "public address.")
    keys: KeysIn


class SubscriptionOut(BaseModel):
    id: int


class DeviceOut(BaseModel):
    id: int
    device: str = Field(description="The browser and system that subscribed, from its User-Agent.")
    created_at: datetime
    last_sent_at: datetime | None = Field(description="When a push last reached its push service.")


class DevicesOut(BaseModel):
    subscriptions: list[DeviceOut]


@router.get("/api/v1/push/key", responses=errors(404))
async def push_key(pushes: PushesDep) -> KeyOut:
    """The key browsers subscribe with; 404 `push_unavailable` when the site sends no push."""
    return KeyOut(public_key=pushes.public_key)


@router.post("/api/v1/push/subscriptions", status_code=status.HTTP_201_CREATED, responses=errors(401, 404, 422))
async def subscribe(body: SubscriptionIn, request: Request, account: CurrentAccount, session: SessionDep,
                    settings: SettingsDep, pushes: PushesDep) -> SubscriptionOut:
    """Push the caller's notices to this device too. The endpoint must be an https URL whose host resolves to
    public addresses only (422 `unsafe_push_endpoint`), the keys a P-256 key and a 16-byte secret (422
    `invalid_push_keys`). At most 5 devices an account: a sixth replaces the oldest. The same endpoint again
    updates its keys (and moves it to the caller's account)."""
    subscription_id = await push_devices.subscribe(
        session, account.id, body.endpoint, body.keys.p256dh, body.keys.auth,
        push_devices.device_label(request.headers.get("user-agent", "")),
        allow_private=settings.push_allow_private_endpoints,
    )
    await session.commit()
    return SubscriptionOut(id=subscription_id)


@router.get("/api/v1/push/subscriptions", responses=errors(401))
async def list_subscriptions(account: CurrentAccount, session: SessionDep) -> DevicesOut:
    """The caller's devices, newest first (their endpoints and keys are not shown)."""
    found = await push_devices.devices(session, account.id)
    return DevicesOut(subscriptions=[DeviceOut(id=d.id, device=d.device, created_at=d.created_at,
                                               last_sent_at=d.last_sent_at) for d in found])


@router.delete("/api/v1/push/subscriptions/{subscription_id}", status_code=status.HTTP_204_NO_CONTENT,
               responses=errors(401, 404))
async def unsubscribe(subscription_id: Id, account: CurrentAccount, session: SessionDep) -> Response:
    """Stop pushing to one of the caller's devices (404 `push_subscription_not_found` for another's)."""
    await push_devices.unsubscribe(session, account.id, subscription_id)
    await session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
