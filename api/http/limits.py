"""Request body size limit with a typed 413 error body.

Checks the declared Content-Length up front and also counts the bytes actually received, so a
chunked upload without a length cannot get round it. (Starlette's own limiter answers with a
plain-text body, which would break the API's error contract.)
"""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable

from starlette.exceptions import HTTPException

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodyTooLarge(HTTPException):
    """Raised from `receive` when the body passes the limit. An HTTPException, so that if the
    framework is the one reading the body it still answers 413 through the app's handler."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"request bodies are limited to {max_bytes} bytes")


class BodySizeLimit:
    """ASGI middleware answering 413 `body_too_large` for bodies above `max_bytes`."""

    def __init__(self, app: Callable[..., Awaitable[None]], max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                await self._reject(send)
                return
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._reject(send)

    async def _reject(self, send: Send) -> None:
        body = json.dumps(
            {
                "error": {
                    "code": "body_too_large",
                    "message": f"request bodies are limited to {self.max_bytes} bytes",
                    "reason": None,
                }
            }
        ).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
