"""Requests over keep-alive connections that stay idle about as long as the server keeps them: how many end in a
connection reset? A server that closes an idle connection just as a client sends on it fails that request
(httpx: ReadError / RemoteProtocolError; a POST is then not known to have been recorded).

Each simulated client holds one connection, pauses about `--pause` seconds (±3 %) between requests (every
third a POST) and lets its connection expire after `--client-expiry` idle seconds, as httpx does after 5 s by
default. The server is uvicorn with `--server-keep-alive` (`KEEP_ALIVE_SECONDS`; uvicorn's own default is 5 s)
serving a bare ASGI answer: the race is uvicorn's, whatever the application.

Run: `.venv/bin/python bench/keep_alive.py [--server-keep-alive 5] [--client-expiry 5] [--pause 5]`. Prints
figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import time
from typing import Any

import httpx
import uvicorn


async def answer(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A bare 200 for every request (its body read first)."""
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def client(url: str, args: argparse.Namespace, failures: list[str]) -> int:
    """One client's requests; returns how many succeeded, adding the others' errors to `failures`."""
    limits = httpx.Limits(max_keepalive_connections=1, keepalive_expiry=args.client_expiry)
    done = 0
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=10) as http:
        for i in range(args.requests):
            await asyncio.sleep(args.pause * random.uniform(0.97, 1.03))
            try:
                r = await (http.post("/", content=b"x") if i % 3 == 0 else http.get("/"))
                r.raise_for_status()
                done += 1
            except httpx.HTTPError as exc:
                failures.append(type(exc).__name__)
    return done


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server-keep-alive", type=float, default=5.0)
    parser.add_argument("--client-expiry", type=float, default=5.0)
    parser.add_argument("--pause", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()
    port = free_port()
    config = uvicorn.Config(answer, host="127.0.0.1", port=port, log_level="error",
                            timeout_keep_alive=args.server_keep_alive)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    failures: list[str] = []
    start = time.monotonic()
    done = sum(await asyncio.gather(*(client(f"http://127.0.0.1:{port}", args, failures) for _ in range(args.clients))))
    server.should_exit = True
    await task
    print(f"server keep-alive {args.server_keep_alive} s, client expiry {args.client_expiry} s, pause ~{args.pause} s: "
          f"{done} ok, {len(failures)} failed {sorted(set(failures))} in {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    asyncio.run(main())
