"""The devices a player receives pushes on, and which kinds of notice they want pushed.

A device is a browser's push subscription: at most `MAX_DEVICES` per account, the oldest dropped when a sixth
subscribes. An endpoint belongs to one account at a time: a browser that subscribes again (a new sign-in on a
shared computer) takes its endpoint over. Whether a kind is pushed is a choice of its own beside the mail's mode
(app.notify.preferences), so each kind goes by mail, by push, both or neither.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.notify import push_endpoints
from app.notify.messages import KINDS, default_push
from app.play.errors import Invalid, NotFound
from app.store.tables import PushPreference, PushSubscription

MAX_DEVICES = 5
# (token in the User-Agent, name shown), first match wins: Edge and Opera also say "Chrome", Chrome says "Safari".
BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
            ("Safari/", "Safari"))
SYSTEMS = (("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iOS"), ("Windows", "Windows"),
           ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))


@dataclass(frozen=True, slots=True)
class Device:
    id: int
    device: str
    created_at: datetime
    last_sent_at: datetime | None


def device_label(user_agent: str) -> str:
    """A short name for the browser a User-Agent names ("Chrome, Android"), for the settings page's list."""
    browser = next((name for token, name in BROWSERS if token in user_agent), "")
    system = next((name for token, name in SYSTEMS if token in user_agent), "")
    return ", ".join(part for part in (browser, system) if part) or "?"


def _decoded(value: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return b""


def check_keys(p256dh: str, auth: str) -> None:
    """Refuse keys no message can be encrypted to: `p256dh` must be a P-256 point (65 bytes, uncompressed) and
    `auth` 16 bytes, both base64url (RFC 8291 section 3)."""
    point, secret = _decoded(p256dh), _decoded(auth)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        valid = len(point) == 65 and len(secret) == 16
    except ValueError:
        valid = False
    if not valid:
        raise Invalid("invalid_push_keys", "The subscription's keys are not a P-256 key and a 16-byte secret.")


async def subscribe(
    session: AsyncSession, user_id: int, endpoint: str, p256dh: str, auth: str, device: str, *, allow_private: bool
) -> int:
    """Store the caller's subscription (checked first: keys, then the endpoint with name resolution) and return its
    id; the account's oldest devices beyond `MAX_DEVICES` are dropped. The caller commits."""
    check_keys(p256dh, auth)
    await push_endpoints.resolve(endpoint, allow_private)
    values = {"user_id": user_id, "endpoint": endpoint, "p256dh": p256dh, "auth": auth, "device": device[:80]}
    statement = insert(PushSubscription).values(**values)
    subscription_id: int | None = await session.scalar(
        statement.on_conflict_do_update(
            index_elements=[PushSubscription.endpoint],
            set_={**{k: statement.excluded[k] for k in ("user_id", "p256dh", "auth", "device")},
                  "created_at": statement.excluded.created_at, "last_sent_at": None},
        ).returning(PushSubscription.id)
    )
    assert subscription_id is not None
    kept = (
        select(PushSubscription.id)
        .where(PushSubscription.user_id == user_id)
        .order_by(PushSubscription.created_at.desc(), PushSubscription.id.desc())
        .limit(MAX_DEVICES)
    )
    await session.execute(
        delete(PushSubscription).where(PushSubscription.user_id == user_id, PushSubscription.id.not_in(kept))
    )
    return subscription_id


async def unsubscribe(session: AsyncSession, user_id: int, subscription_id: int) -> None:
    """Delete one of the caller's subscriptions (NotFound when it is not theirs). The caller commits."""
    gone = await session.scalar(
        delete(PushSubscription)
        .where(PushSubscription.id == subscription_id, PushSubscription.user_id == user_id)
        .returning(PushSubscription.id)
    )
    if gone is None:
        raise NotFound("push_subscription_not_found", "You have no push subscription with this id.")


async def devices(session: AsyncSession, user_id: int) -> list[Device]:
    """The caller's subscribed devices, newest first."""
    rows = await session.execute(
        select(PushSubscription.id, PushSubscription.device, PushSubscription.created_at,
               PushSubscription.last_sent_at)
        .where(PushSubscription.user_id == user_id)
        .order_by(PushSubscription.created_at.desc(), PushSubscription.id.desc())
    )
    return [Device(*row) for row in rows]


async def push_choices(session: AsyncSession, user_id: int) -> dict[str, bool]:
    """Whether each kind is pushed to `user_id`'s devices, defaults filled in."""
    rows = await session.execute(
        select(PushPreference.kind, PushPreference.push).where(PushPreference.user_id == user_id)
    )
    chosen: dict[str, bool] = {kind: push for kind, push in rows}
    return {kind: chosen.get(kind, default_push(kind)) for kind in KINDS}


async def set_push(session: AsyncSession, user_id: int, changes: Mapping[str, bool]) -> None:
    """Store whether the kinds in `changes` are pushed (unknown kinds: ValueError). The caller commits."""
    unknown = set(changes) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown kinds: {sorted(unknown)}")
    if not changes:
        return
    statement = insert(PushPreference).values(
        [{"user_id": user_id, "kind": kind, "push": push} for kind, push in changes.items()]
    )
    await session.execute(
        statement.on_conflict_do_update(
            index_elements=[PushPreference.user_id, PushPreference.kind], set_={"push": statement.excluded.push}
        )
    )
