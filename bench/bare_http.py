"""A lean HTTP/1.1 client for the benchmarks: keep-alive requests and server-sent event streams over bare asyncio
connections, with far less of the client's own CPU per request than httpx and httpx-sse spend.

Why: on a two-core machine the benchmark's client shares the cores with the servers and PostgreSQL, so at ten
concurrent games a request's round trip follows the CPU that every process spends on it, the client's included.
Players' browsers run on their own devices; the less the simulated ones spend, the more the figures say about the
server. Both sides of a comparison (the project and its floor) use the same client.

It speaks only what the benchmarks need: requests with a JSON or form body on one connection at a time, answers with
`Content-Length` or chunked framing, and `text/event-stream` answers read event by event.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer's status, headers (names in lower case) and body."""

    status_code: int
    headers: Mapping[str, str]
    content: bytes

    def json(self) -> Any:
        return json.loads(self.content)


@dataclass(frozen=True, slots=True)
class ServerSentEvent:
    event: str
    data: str


class Connection:
    """One keep-alive connection to `base_url`; one request at a time."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def _opened(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._reader is None or self._writer is None or self._writer.is_closing():
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        return self._reader, self._writer

    def _request(self, method: str, path: str, headers: Mapping[str, str], body: bytes | None,
                 content_type: str | None) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body is not None:
            lines += [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")

    async def request(self, method: str, path: str, headers: Mapping[str, str] | None = None,
                      json_body: Any = None) -> Answer:
        """Send a request (with `json_body` as its JSON body, if given) and read its whole answer."""
        body = None if json_body is None else json.dumps(json_body).encode()
        reader, writer = await self._opened()
        writer.write(self._request(method, path, headers or {}, body, "application/json"))
        status, answer_headers = await _head(reader)
        if answer_headers.get("transfer-encoding") == "chunked":
            content = b"".join([chunk async for chunk in _chunks(reader)])
        else:
            content = await reader.readexactly(int(answer_headers.get("content-length", "0")))
        if answer_headers.get("connection") == "close":
            await self.close()
        return Answer(status, answer_headers, content)

    async def events(self, path: str, headers: Mapping[str, str] | None = None) -> AsyncIterator[ServerSentEvent]:
        """GET `path` as a server-sent event stream and yield its events (comments and pings skipped) until the
        server ends it; the connection is closed after."""
        reader, writer = await self._opened()
        writer.write(self._request("GET", path, {"Accept": "text/event-stream", **(headers or {})}, None, None))
        try:
            status, _ = await _head(reader)
            if status != 200:
                raise RuntimeError(f"stream refused: {status}")
            async for event in events_of(_chunks(reader)):
                yield event
        finally:
            await self.close()

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._reader = self._writer = None


async def events_of(chunks: AsyncIterator[bytes]) -> AsyncIterator[ServerSentEvent]:
    """The events of a `text/event-stream` body arriving in `chunks` (comments and pings skipped): split at its
    blank lines once a chunk completes them, rather than line by line."""
    pending = b""
    async for chunk in chunks:
        pending += chunk
        *whole, pending = pending.replace(b"\r\n", b"\n").split(b"\n\n")
        for message in whole:
            event, data = "message", []
            for line in message.decode().split("\n"):
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].removeprefix(" "))
            if data:
                yield ServerSentEvent(event, "\n".join(data))


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    status_line, *header_lines = head.rstrip("\r\n").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split(" ", 2)[1]), headers


async def _chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """The chunks of a chunked body, until its last (empty) chunk."""
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")
            return
        chunk = await reader.readexactly(size + 2)
        yield chunk[:-2]
