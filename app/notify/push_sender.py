"""Sending one push message (RFC 8030) to one browser's push service: encrypted to the subscription's keys (RFC
8291 `aes128gcm`, pywebpush) and signed with the site's VAPID key (RFC 8292, py-vapid).

The endpoint is checked again here (app.notify.push_endpoints) and the request goes to the very address that
check resolved, with the endpoint's host name as `Host` and as TLS's server name (so the certificate is checked
against the name, as for any https request); redirects are never followed. The libraries' own senders are not
used for the request itself: they resolve the name again when they connect.
"""

from __future__ import annotations

import asyncio
import base64
import ssl
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPusher

from app.notify import push_endpoints
from app.play.errors import Invalid

MAX_TTL = 12 * 3600  # seconds a push service keeps an undelivered message (the notice is stale by then)
URGENCIES = ("very-low", "low", "normal", "high")  # RFC 8030 section 5.3
GONE = frozenset({404, 410})  # the subscription expired or was withdrawn: delete it (RFC 8030 section 7.3)
RETRIED = frozenset({408, 425, 429})  # and every 5xx: the push service may take it later
Outcome = Literal["sent", "gone", "retry", "failed", "unsafe"]


@dataclass(frozen=True, slots=True)
class Subscription:
    """Where one device's pushes go, and the keys they are encrypted to (base64url, as the browser gives them)."""

    id: int
    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True, slots=True)
class Delivery:
    """What became of one push: `sent` (accepted), `gone` (404/410: delete the subscription), `retry` (later, with
    back-off), `failed` (would fail again: given up), `unsafe` (the endpoint no longer passes the check)."""

    outcome: Outcome
    detail: str = ""


def private_key_of(text: str) -> ec.EllipticCurvePrivateKey:
    """A P-256 private key from VAPID_PRIVATE_KEY's forms: PEM, or base64url of the 32-byte secret number."""
    if text.lstrip().startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode(), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
            raise ValueError("VAPID_PRIVATE_KEY must be a P-256 (prime256v1) key")
        return key
    raw = base64.urlsafe_b64decode(text.strip() + "=" * (-len(text.strip()) % 4))
    if len(raw) != 32:
        raise ValueError("VAPID_PRIVATE_KEY must be 32 bytes in base64url, or a PEM key")
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushSender:
    """Encrypts, signs and posts push messages; holds the VAPID key."""

    def __init__(
        self,
        private_key: str,
        contact: str,
        *,
        allow_private: bool = False,
        tls: ssl.SSLContext | None = None,
        timeout: float = 10.0,
    ) -> None:
        self._key = private_key_of(private_key)
        self._vapid = Vapid02(self._key)
        self.contact = contact
        self.allow_private = allow_private
        # Made once: building a context that loads the CA bundle costs 100+ ms, more than the push itself.
        self._tls = tls if tls is not None else httpx.create_ssl_context()
        self.timeout = timeout

    @property
    def public_key(self) -> str:
        """The application server key browsers subscribe with: the uncompressed P-256 point, base64url."""
        point = self._key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def vapid_header(self, audience: str, now: datetime) -> str:
        """`Authorization: vapid t=<JWT>, k=<public key>` for `audience`, valid 12 hours (RFC 8292 allows 24)."""
        expires = int((now + timedelta(hours=12)).timestamp())
        signed: dict[str, str] = self._vapid.sign({"aud": audience, "exp": expires, "sub": self.contact})
        return signed["Authorization"]

    @staticmethod
    def encrypt(subscription: Subscription, data: bytes) -> bytes:
        """`data` encrypted to the subscription's keys (RFC 8291, `aes128gcm`), header and records."""
        info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        body: bytes = WebPusher(info).encode(data, content_encoding="aes128gcm")["body"]
        return body

    async def send(
        self, subscription: Subscription, data: bytes, *, topic: str, ttl: int, urgency: str, now: datetime
    ) -> Delivery:
        """Post `data` to the subscription's push service; what became of it (never raises for the network)."""
        if urgency not in URGENCIES:
            raise ValueError(f"unknown urgency {urgency!r}")
        try:
            target = await push_endpoints.resolve(subscription.endpoint, self.allow_private)
        except Invalid as exc:
            return Delivery("unsafe", exc.message)
        try:
            body = self.encrypt(subscription, data)
        except Exception as exc:  # keys the browser gave that no encryption accepts: every retry would fail too
            return Delivery("failed", f"cannot encrypt: {exc!r}"[:500])
        headers = {
            "Host": target.origin.split("://", 1)[1],
            "TTL": str(max(0, min(ttl, MAX_TTL))),
            "Urgency": urgency,
            "Topic": topic,
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "Authorization": self.vapid_header(target.origin, now),
        }
        extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
        try:
            async with (
                asyncio.timeout(self.timeout),  # the whole exchange: a service that trickles its answer is cut off
                httpx.AsyncClient(verify=self._tls, follow_redirects=False, timeout=self.timeout,
                                  trust_env=False) as client,
            ):
                response = await client.post(target.connect_url, content=body, headers=headers,
                                             extensions=extensions)
        except TimeoutError:
            return Delivery("retry", f"no answer within {self.timeout:g} s")
        except httpx.HTTPError as exc:
            return Delivery("retry", f"{type(exc).__name__}: {exc}"[:500])
        status = response.status_code
        said = f"{status} {response.text[:200]}".strip()
        if 200 <= status < 300:
            return Delivery("sent")
        if status in GONE:
            return Delivery("gone", said)
        if status in RETRIED or status >= 500:
            return Delivery("retry", said)
        return Delivery("failed", said)  # a redirect (never followed), a refused signature, a too-large payload
