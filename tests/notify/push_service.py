"""A push service for the tests, on loopback: it receives push messages as a browser vendor's service would (RFC
8030), checks their VAPID signature (RFC 8292) and decrypts them (RFC 8291, `aes128gcm`) with the keys of a
browser the test plays, written here from the RFCs with `cryptography` alone (not with the libraries the server
sends with), so that a mistake on either side shows.

`PushService.respond(name, status, ...)` makes one endpoint answer something else (410 gone, 500, a redirect),
`delays[name]` makes it slow to answer.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import ssl
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import uvicorn
from conftest import free_port
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.x509.oid import NameOID
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """The keys a browser makes when it subscribes: a P-256 key pair and a 16-byte authentication secret."""

    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def public_bytes(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    def keys(self) -> dict[str, str]:
        return {"p256dh": b64url(self.public_bytes), "auth": b64url(self.auth)}

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 section 3.4 and RFC 8188 section 2: the header (salt, record size, the sender's key), the
        keys derived from ECDH and the authentication secret, then the one record, unpadded."""
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender_public = body[21 : 21 + id_length]
        records = body[21 + id_length :]
        assert id_length == 65 and len(records) <= record_size
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_public)
        shared = self.private_key.exchange(ec.ECDH(), sender)
        key_info = b"WebPush: info\x00" + self.public_bytes + sender_public
        ikm = HKDF(hashes.SHA256(), 32, self.auth, key_info).derive(shared)
        cek = HKDF(hashes.SHA256(), 16, salt, b"Content-Encoding: aes128gcm\x00").derive(ikm)
        nonce = HKDF(hashes.SHA256(), 12, salt, b"Content-Encoding: nonce\x00").derive(ikm)
        plain = AESGCM(cek).decrypt(nonce, records, None)  # one record: sequence number 0
        unpadded = plain.rstrip(b"\x00")
        assert unpadded.endswith(b"\x02"), "the last record's delimiter"
        return unpadded[:-1]


def verify_vapid(authorization: str, audience: str) -> tuple[dict[str, Any], str]:
    """The claims of a `vapid t=..., k=...` header after checking its ES256 signature against `k` and its claims
    (RFC 8292 section 2: `aud` the push service's origin, `exp` within 24 hours, `sub` a contact); and `k`."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid", authorization
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    token, key = fields["t"], fields["k"]
    head, claims_part, signature = token.split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims_part}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims: dict[str, Any] = json.loads(unb64url(claims_part))
    assert claims["aud"] == audience, claims
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert str(claims["sub"]).startswith(("mailto:", "https:"))
    return claims, key


@dataclass
class Received:
    name: str
    headers: dict[str, str]
    claims: dict[str, Any]
    vapid_key: str
    payload: dict[str, Any]


class PushService:
    """The service: endpoints `{url}/push/{name}`, each decrypted with the browser registered under its name."""

    def __init__(self, scheme: str = "http", host: str = "127.0.0.1") -> None:
        self.port = free_port()
        self.scheme = scheme
        self.host = host
        self.browsers: dict[str, Browser] = {}
        self.received: list[Received] = []
        self.answers: dict[str, list[tuple[int, dict[str, str]]]] = {}
        self.refused: list[str] = []
        self.delays: dict[str, float] = {}
        self._stopping = asyncio.Event()  # ends the delays, so that stopping never waits for a slow answer

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}"

    def browser(self, name: str) -> tuple[str, Browser]:
        """A new browser subscribed under `name`: its endpoint and keys."""
        self.browsers[name] = Browser()
        return f"{self.origin}/push/{name}", self.browsers[name]

    def respond(self, name: str, status: int, times: int = 1, headers: dict[str, str] | None = None) -> None:
        """Make `name`'s endpoint answer `status` the next `times` pushes (instead of 201)."""
        self.answers.setdefault(name, []).extend([(status, headers or {})] * times)

    def to(self, name: str) -> list[Received]:
        return [r for r in self.received if r.name == name]

    async def _push(self, request: Request) -> Response:
        name = request.path_params["name"]
        body = await request.body()
        if name in self.delays:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.delays[name])
        if self.answers.get(name):
            status, headers = self.answers[name].pop(0)
            self.refused.append(name)
            return Response(status_code=status, headers=headers)
        claims, key = verify_vapid(request.headers["authorization"], self.origin)
        assert request.headers["content-encoding"] == "aes128gcm"
        payload = json.loads(self.browsers[name].decrypt(body))
        self.received.append(Received(name, dict(request.headers), claims, key, payload))
        return Response(status_code=201, headers={"Location": f"{self.origin}/message/{len(self.received)}"})

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/push/{name}", self._push, methods=["POST"])])

    @contextlib.asynccontextmanager
    async def running(self, tls: tuple[Path, Path] | None = None) -> AsyncIterator[PushService]:
        extra: dict[str, Any] = {"ssl_certfile": str(tls[0]), "ssl_keyfile": str(tls[1])} if tls else {}
        config = uvicorn.Config(self.app(), host="127.0.0.1", port=self.port, log_level="warning", **extra)
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve())
        try:
            for _ in range(500):
                if server.started or task.done():
                    break
                await asyncio.sleep(0.01)
            assert server.started, "the push service did not start"
            yield self
        finally:
            self._stopping.set()
            server.should_exit = True
            await task


def self_signed(directory: Path, host: str) -> tuple[Path, Path, ssl.SSLContext]:
    """A certificate for `host` (key and cert files for the server) and a client context that trusts only it."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "push-cert.pem", directory / "push-key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.create_default_context(cafile=str(cert_file))
    return cert_file, key_file, context
