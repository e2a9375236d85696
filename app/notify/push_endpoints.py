"""Where a push may be sent: an `https` URL whose host resolves to public addresses only.

A push endpoint is a URL the browser hands us, so anybody signed in can name one: without this check, the server
would post on their behalf to its own network (a database, a cloud's metadata service, an admin page). The URL is
checked when subscribing and again before every send, after name resolution, and the sender then connects to the
very address checked here (`Target.address`), never resolving the name a second time (a DNS answer that changes
between the check and the connection, "DNS rebinding", would otherwise reach a private address). Redirects are
never followed (app.notify.push_sender). `allow_private` (PUSH_ALLOW_PRIVATE_ENDPOINTS, development and tests
only) lifts both rules: plain `http` and loopback or private addresses are then allowed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from app.play.errors import Invalid

MAX_ENDPOINT_LENGTH = 2048
DEFAULT_PORTS = {"https": 443, "http": 80}
UNSAFE = "unsafe_push_endpoint"


@dataclass(frozen=True, slots=True)
class Target:
    """A checked endpoint: the URL as given, its host name (for the Host header and TLS's server name), and the
    one address the sender connects to."""

    url: str
    scheme: str
    host: str
    port: int
    address: str

    @property
    def origin(self) -> str:
        """`scheme://host[:port]`: the audience (`aud`) of the VAPID claims (RFC 8292 section 2)."""
        shown_host = f"[{self.host}]" if ":" in self.host else self.host
        default = DEFAULT_PORTS[self.scheme]
        return f"{self.scheme}://{shown_host}" + ("" if self.port == default else f":{self.port}")

    @property
    def connect_url(self) -> str:
        """The URL with the checked address in place of the host name."""
        parts = urlsplit(self.url)
        shown = f"[{self.address}]" if ":" in self.address else self.address
        return parts._replace(netloc=f"{shown}:{self.port}").geturl()


def parse(url: str, allow_private: bool) -> SplitResult:
    """The parts of `url` if its form may name a push service (https, a host, no user name or password); raises
    Invalid (`unsafe_push_endpoint`) otherwise. Needs no network."""
    if len(url) > MAX_ENDPOINT_LENGTH:
        raise Invalid(UNSAFE, "The push endpoint is longer than {limit} characters.", limit=MAX_ENDPOINT_LENGTH)
    parts = urlsplit(url)
    allowed = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in allowed:
        raise Invalid(UNSAFE, "A push endpoint must be an https URL.")
    try:
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError:
        raise Invalid(UNSAFE, "The push endpoint's port is not a valid port.") from None
    if not parts.hostname or parts.username is not None or parts.password is not None:
        raise Invalid(UNSAFE, "A push endpoint must name a host, and no user name or password.")
    return parts


def is_public(address: str) -> bool:
    """Whether `address` is on the public internet (not loopback, private, link-local, reserved, multicast...);
    an IPv4 address written as IPv6 counts as the IPv4 address it is."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


async def lookup(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to (the system's resolver, off the event loop), each once, in its order."""
    found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


async def resolve(url: str, allow_private: bool) -> Target:
    """The checked target of `url`: its form (see `parse`), then every address its host resolves to must be
    public (unless `allow_private`); raises Invalid (`unsafe_push_endpoint`) otherwise, or when the name does
    not resolve."""
    parts = parse(url, allow_private)
    host = str(parts.hostname)
    port = parts.port or DEFAULT_PORTS[parts.scheme]
    try:
        addresses = await lookup(host, port)
    except (OSError, UnicodeError):
        raise Invalid(UNSAFE, "The push endpoint's host name does not resolve.") from None
    if not addresses:
        raise Invalid(UNSAFE, "The push endpoint's host name does not resolve.")
    if not allow_private and not all(is_public(address) for address in addresses):
        raise Invalid(UNSAFE, "A push endpoint must be on a public address.")
    return Target(url=url, scheme=parts.scheme, host=host, port=port, address=addresses[0])
