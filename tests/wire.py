"""A Unix-socket proxy in front of PostgreSQL that counts, from outside the server, what the server asks of the
database: round trips and statements. The tests of what a request costs (tests/web/test_round_trips.py) and the
reads' benchmark (bench/reads.py) put it between the server and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from sqlalchemy.engine import make_url


class WireCounter:
    """A Unix-socket proxy in front of PostgreSQL that counts the round trips of the connections through it, and
    the statements the server is asked to run: each simple query ('Q') and each execution of an extended-protocol
    statement ('E'), read from the frontend messages themselves."""

    def __init__(self, target: str, directory: Path) -> None:
        self.target = target
        self.path = directory / ".s.PGSQL.5432"
        self.round_trips = 0
        self.statements = 0
        self._server: asyncio.AbstractServer | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._handlers: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> WireCounter:
        self._server = await asyncio.start_unix_server(self._serve, path=str(self.path))
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.close()
        # Wait for the connections' handlers to see their sockets close: a handler still pending when the event
        # loop shuts down is cancelled, and asyncio's stream callback then reports the cancellation as an error.
        await asyncio.wait_for(asyncio.gather(*self._handlers, return_exceptions=True), timeout=5)
        await self._server.wait_closed()

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        handler = asyncio.current_task()
        assert handler is not None
        self._handlers.add(handler)
        server_reader, server_writer = await asyncio.open_unix_connection(self.target)
        self._writers += [client_writer, server_writer]
        last = ["server"]  # who spoke last on this connection
        messages = _FrontendMessages(self)

        async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, side: str) -> None:
            with contextlib.suppress(ConnectionError):
                while data := await reader.read(65536):
                    if side == "client":
                        messages.feed(data)
                        if last[0] != "client":
                            self.round_trips += 1
                    last[0] = side
                    writer.write(data)
                    await writer.drain()
            writer.close()

        await asyncio.gather(
            pump(client_reader, server_writer, "client"), pump(server_reader, client_writer, "server")
        )


class _FrontendMessages:
    """The frontend half of one connection, split into messages: the start-up packets (a length and a code, no
    type byte: SSL and GSS requests, then the start-up message), then typed messages (a type byte and a length)."""

    def __init__(self, counter: WireCounter) -> None:
        self.counter = counter
        self.buffer = b""
        self.started = False

    def feed(self, data: bytes) -> None:
        self.buffer += data
        while True:
            header = 8 if not self.started else 5
            if len(self.buffer) < header:
                return
            if self.started:
                kind, length = self.buffer[:1], int.from_bytes(self.buffer[1:5], "big") + 1
            else:
                kind, length = b"", int.from_bytes(self.buffer[:4], "big")
            if len(self.buffer) < length:
                return
            if not self.started:
                code = int.from_bytes(self.buffer[4:8], "big")
                self.started = code not in (80877103, 80877104)  # SSLRequest, GSSENCRequest
            elif kind in (b"Q", b"E"):
                self.counter.statements += 1
            self.buffer = self.buffer[length:]


def socket_of(url: str) -> str:
    """The Unix socket of the PostgreSQL at `url` (the embedded server's kind of URL)."""
    parsed = make_url(url)
    return f"{parsed.query['host']}/.s.PGSQL.{parsed.port or 5432}"
