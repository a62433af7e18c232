"""Structured access logs: one JSON object per request (`ludex serve --access-log`).

Each record: `ts` (ISO 8601, UTC, when the request arrived), `method`, `path`, `game` (the
game id in the path, or null), `seat` (the seat the request's token or ticket resolved to,
or null for spectators and requests without a game), `status`, `latency_ms` (until the
response ended: for an event stream, until the stream closed) and `client` (address).
Secrets never appear: tokens travel in headers, tickets are cut from the query string.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
import time
from typing import Any, Awaitable, Callable

from api.app.requests import begin_request

Message = dict[str, Any]
Sink = Callable[[dict[str, Any]], None]
_GAME = re.compile(r"^/games/([^/]+)")


def json_lines(stream: Any = None) -> Sink:
    """A sink writing each record as one JSON line to `stream` (default: stderr)."""

    def write(record: dict[str, Any]) -> None:
        out = stream or sys.stderr
        out.write(json.dumps(record, separators=(",", ":")) + "\n")
        out.flush()

    return write


class AccessLog:
    """ASGI middleware calling `sink` with one record per HTTP request, once it is answered."""

    def __init__(self, app: Callable[..., Awaitable[None]], sink: Sink) -> None:
        self.app = app
        self.sink = sink

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started, arrived = time.perf_counter(), dt.datetime.now(dt.timezone.utc)
        seen = begin_request()
        status = 500

        async def observe(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, observe)
        finally:
            path = scope.get("path", "")
            game = _GAME.match(path)
            client = scope.get("client")
            self.sink({
                "ts": arrived.isoformat(timespec="milliseconds"),
                "method": scope.get("method"),
                "path": path,
                "game": game.group(1) if game else None,
                "seat": seen.get("seat"),
                "status": status,
                "latency_ms": round((time.perf_counter() - started) * 1000, 3),
                "client": client[0] if client else None,
            })
