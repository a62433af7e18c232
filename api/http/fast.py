"""The two requests every move makes (`GET /games/{id}/legal-moves`, `POST /games/{id}/moves`),
served without FastAPI's per-request machinery.

FastAPI resolves dependencies, validates the body with pydantic and builds a `Request` for every
call: about a third of a millisecond, as much as the rules and the store together spend on a
move. These routes, placed before FastAPI's, take the common well-formed request on a short path
(the bearer token read from its header, the body parsed as strict JSON into the typed move) and hand
anything else, byte for byte, to the FastAPI route of the same operation. So the API's answers,
its errors (malformed JSON, schema violations with their details, a bad Authorization header)
and its OpenAPI document stay exactly those of the declared routes; only the happy path is
shorter. Service errors raised here go to the application's handlers as from any route.
"""

from __future__ import annotations

import json
import re
from typing import Any, Awaitable, Callable

import orjson
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.app import GameService, ServiceError
from api.http import strict_json

Handler = Callable[[Scope, Receive, Send, str, "str | None", bytes], Awaitable[bool]]

_AUTH = b"authorization"
_CONTENT_TYPE = b"content-type"
_JSON_TYPES = (b"application/json", b"application/json; charset=utf-8")


def bearer(scope: Scope) -> tuple[bool, str | None]:
    """`(plain, token)`: plain is False when an Authorization header is there but is not a
    simple `Bearer <token>`, or is there twice (the declared route then answers it, with
    `bad_token`)."""
    found: str | None = None
    for name, value in scope["headers"]:
        if name == _AUTH:
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() != "bearer" or not token or found is not None:  # a second one too
                return False, None
            found = token
    return True, found


def _is_json(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == _CONTENT_TYPE:
            return value.lower() in _JSON_TYPES
    return True  # FastAPI reads a body without Content-Type as JSON too


def parse_move_body(body: bytes) -> tuple[dict[str, Any], int, int | None] | None:
    """`(move, expected_version, seat)` of a well-formed `SubmitMoveIn` JSON body, or None for
    anything the declared route must judge (bad JSON, extra or missing fields, wrong types)."""
    try:
        doc = strict_json.loads(body)
    except ValueError:
        return None
    if type(doc) is not dict or not doc.keys() <= {"move", "expected_version", "seat"}:
        return None
    move, version, seat = doc.get("move"), doc.get("expected_version"), doc.get("seat")
    if type(move) is not dict or not move.keys() <= {"name", "args"} or type(move.get("name")) is not str:
        return None
    args = move.get("args", {})
    if type(args) is not dict or type(version) is not int or not (seat is None or type(seat) is int):
        return None
    return {"name": move["name"], "args": args}, version, seat


class FastRoute(BaseRoute):
    """`method` on `/games/{game_id}/<action>`, answered by `handler`, or by the declared
    FastAPI route `fallback` when the handler declines (returns False)."""

    def __init__(self, action: str, method: str, handler: Handler, fallback: APIRoute) -> None:
        self.path = f"/games/{{game_id}}/{action}"
        self.include_in_schema = False
        self._pattern = re.compile(rf"^/games/([^/]+)/{re.escape(action)}$")
        self._method = method
        self._handler = handler
        self.fallback = fallback

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        # Only an exact method match: anything else (HEAD, 405s) is the declared route's.
        if scope["type"] == "http" and scope["method"] == self._method:
            m = self._pattern.match(scope["path"])
            if m is not None:
                return Match.FULL, {"path_params": {"game_id": m.group(1)}}
        return Match.NONE, {}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await read_body(receive) if self._method == "POST" else b""
        if not await self.serve(scope, receive, send, body):
            _, child = self.fallback.matches(scope)
            scope.update(child)
            await self.fallback.handle(scope, replaying(body, receive), send)

    async def serve(self, scope: Scope, receive: Receive, send: Send, body: bytes) -> bool:
        """Answer the request on the short path; False (nothing sent) when the declared route
        must answer it."""
        plain, token = bearer(scope)
        return plain and await self._handler(scope, receive, send, scope["path_params"]["game_id"], token, body)


async def read_body(receive: Receive, limit: int | None = None) -> bytes:
    """The request body, whole; past `limit` bytes it stops reading (the caller checks the
    length and lets the size limit answer)."""
    chunks = []
    size = 0
    while True:
        message = await receive()
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body") or (limit is not None and size > limit):
            return b"".join(chunks)


def replaying(body: bytes, receive: Receive) -> Receive:
    """`receive` for an app that must read the request again: `body` first, then the rest."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class FrontDoor:
    """The fast routes in front of the whole application, middleware included: a well-formed
    legal-moves or move request goes straight to its handler, which saves the application's own
    cost per request (about a tenth of a move's server time: FastAPI's telemetry checks, the
    exception wrappers, the body limit's wrappers, the router). What the middleware would do on this path is done here: a body over
    `max_body` bytes, and any request the handler declines, goes through the whole stack (with
    the body replayed), so it is answered as before; a ServiceError is rendered by the app's
    own handler, and an unexpected error by its 500 handler and then raised, as Starlette's
    error middleware does. Installed only where no other middleware (CORS, access log) must see
    every request; FastAPI's OpenTelemetry instrumentation does not see these two routes."""

    def __init__(self, app: ASGIApp, routes: list[FastRoute], handlers: dict[Any, Any], max_body: int) -> None:
        self.app = app
        self._routes = routes
        self._service_error = handlers[ServiceError]
        self._unexpected = handlers[Exception]
        self._max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for route in self._routes:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    await self._serve(route, scope, receive, send)
                    return
        await self.app(scope, receive, send)

    async def _serve(self, route: FastRoute, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        if scope["method"] == "POST":
            for name, value in scope["headers"]:
                if name == b"content-length" and not (value.isdigit() and int(value) <= self._max_body):
                    await self.app(scope, receive, send)
                    return
            body = await read_body(receive, self._max_body)
            if len(body) > self._max_body:
                await self.app(scope, replaying(body, receive), send)
                return
        try:
            served = await route.serve(scope, receive, send, body)
        except ServiceError as exc:
            response = await self._service_error(Request(scope), exc)
            await response(scope, receive, send)
            return
        except Exception as exc:
            response = await self._unexpected(Request(scope), exc)
            await response(scope, receive, send)
            raise
        if not served:
            await self.app(scope, replaying(body, receive), send)


def render_json(content: Any) -> bytes:
    """JSON bytes by orjson (non-string keys become strings, as with `json.dumps`), or by the
    standard library for what orjson refuses (integers beyond 64 bits)."""
    try:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


async def send_json(send: Send, payload: bytes, status: int = 200) -> None:
    """An `application/json` response with `payload` as its body."""
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(payload)).encode()), (b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": payload})


def install(app: Any, service: GameService, call: Callable[..., Awaitable[Any]], inline_reads: bool) -> list[FastRoute]:
    """Put the fast routes for legal-moves and moves in front of `app`'s declared ones.
    Answers the routes (for a `FrontDoor`). `call(fn, *args)` runs a service method the way the face runs it (in a worker thread) and
    returns its result. A move on the version the process holds runs on the event loop, the loop
    free while its commit waits (`GameService.submit_move_on_loop`). With `inline_reads` a
    legal-moves listing also runs on the loop when no other call holds the game: worth it where
    the store's read is short and never waits for a commit (SQLite in WAL mode), since a hop to
    a thread and back costs more CPU than the listing."""
    declared = {r.name: r for r in app.router.routes if isinstance(r, APIRoute)}

    async def legal_moves(scope: Scope, receive: Receive, send: Send, game_id: str, token: str | None,
                          body: bytes) -> bool:
        result = service.legal_moves_now(game_id, token) if inline_reads else None
        if result is None:
            result = await call(service.legal_moves, game_id, token)
        await send_json(send, render_json(result))
        return True

    async def submit_move(scope: Scope, receive: Receive, send: Send, game_id: str, token: str | None,
                          body: bytes) -> bool:
        if not _is_json(scope):
            return False
        parsed = parse_move_body(body)
        if parsed is None:
            return False
        move, version, seat = parsed
        result = await service.submit_move_on_loop(game_id, token, move, version, seat)
        if result is None:
            result = await call(service.submit_move, game_id, token, move, version, seat)
        await send_json(send, render_json(result))
        return True

    routes = [
        FastRoute("legal-moves", "GET", legal_moves, declared["legal_moves"]),
        FastRoute("moves", "POST", submit_move, declared["submit_move"]),
    ]
    app.router.routes[:0] = routes
    return routes
