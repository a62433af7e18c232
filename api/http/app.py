"""The HTTP face (FastAPI): a thin translation of requests to `GameService` calls.

Authentication: a seat token from `POST /games`, sent as `Authorization: Bearer <token>`;
without one the caller is a spectator. Every error body is `{"error": {"code", "message",
"reason", ...}}`; statuses: 400 malformed input, 401 missing/bad token, 403 not your turn or
seat, 404 unknown game, 409 stale version or game over, 413 body too large, 422 illegal move
(reason: the rule's `require`) or invalid fields. OpenAPI docs are served at /docs and
/redoc, with every asset from Ludex itself (`api.http.docs`).
"""

from __future__ import annotations

import json
from typing import Any, AsyncIterator, Sequence

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sse_starlette import EventSourceResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from api.app import GameService, InvalidRequest, ServiceError, Unauthenticated
from api.app.errors import ErrorCode
from api.app.inputs import TYPE_RULE, sent
from api.http import models as m
from api.http.access_log import AccessLog, Sink
from api.http.disconnects import quiet_disconnects
from api.http.docs import add_offline_docs, only_declared_errors
from api.http.fast import FrontDoor, render_json
from api.http.fast import install as install_fast_routes
from api.http.limits import BodySizeLimit
from api.http.strict_json import StrictJSONRoute
from api.viewer import add_viewer_routes

DEFAULT_MAX_BODY_BYTES = 1 << 20  # 1 MiB: ample for ruleset text, far above any move

STATUS_BY_KIND = {
    "not_found": 404,
    "invalid": 400,
    "unauthenticated": 401,
    "forbidden": 403,
    "conflict": 409,
    "unprocessable": 422,
    "too_large": 413,
}

# The errors each operation can return (tests/service/test_openapi.py provokes each one).
_E = ErrorCode
_BODY = {400: [_E.malformed_json], 413: [_E.body_too_large], 422: [_E.invalid_request]}
_GAME = {400: [_E.corrupt_log], 401: [_E.bad_token], 404: [_E.game_not_found]}
_SEAT = {**_GAME, 401: [_E.bad_token, _E.token_required]}
_QUERY = {**_GAME, 422: [_E.invalid_request]}
ERRORS: dict[str, dict[int, list[ErrorCode]]] = {
    "check_ruleset": {**_BODY, 400: [_E.bad_text, _E.malformed_json], 413: [_E.text_too_large, _E.body_too_large]},
    "create_game": {
        **_BODY,
        400: [_E.bad_seats, _E.malformed_json, _E.bad_options, _E.bad_variant, _E.bad_seed, _E.bad_ruleset],
        404: [_E.ruleset_not_found],
    },
    "view": _GAME,
    "legal_moves": _SEAT,
    "submit_move": {
        **_SEAT,
        400: [_E.bad_move, _E.malformed_json, _E.corrupt_log],
        403: [_E.not_your_turn, _E.wrong_seat],
        409: [_E.stale_version, _E.game_over],
        413: [_E.body_too_large],
        422: [_E.illegal_move, _E.invalid_request],
    },
    "events": _QUERY,
    "replay": {**_QUERY, 400: [_E.bad_at, _E.corrupt_log]},
    "audit": {404: [_E.game_not_found]},
    "receipt": {400: [_E.corrupt_log], 404: [_E.game_not_found]},
    "stream": {**_QUERY, 400: [_E.bad_last_event_id, _E.corrupt_log],
               401: [_E.bad_token, _E.bad_ticket, _E.ticket_expired]},
    "stream_ticket": _SEAT,
}

# The bearer token is optional on these operations (without one the caller is a spectator):
# FastAPI lists the scheme as required; OpenAPI's empty requirement `{}` makes it optional.
_SPECTATORS_ALLOWED: dict[str, Any] = {"security": [{}]}

_bearer = HTTPBearer(auto_error=False, description="A seat token from POST /games.")


async def _token(request: Request, creds: HTTPAuthorizationCredentials | None = Depends(_bearer)) -> str | None:
    if len(request.headers.getlist("authorization")) > 1:  # one reader would take the first, another the last
        raise Unauthenticated("bad_token", "send one Authorization header, not several",
                              reason="a proxy may read the first and the service the last: which seat acts must not depend on it")
    if creds is not None:
        return creds.credentials
    if request.headers.get("authorization"):
        raise Unauthenticated("bad_token", "the Authorization header must be 'Bearer <token>'")
    return None


class FastJSONResponse(JSONResponse):
    """JSON rendered by orjson (several times faster than the standard library on views and
    move lists); falls back to the standard encoder for what orjson refuses (integers beyond
    64 bits). Non-string keys become strings, as with `json.dumps`."""

    def render(self, content: Any) -> bytes:
        return render_json(content)


def _error(status: int, code: str, message: str, reason: str | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "reason": reason, **extra}}, status_code=status)


_JSON_RULES = "a body is one JSON value (RFC 8259) in UTF-8, each object naming a key once, with no NaN or Infinity"


def _first_problem(errors: Sequence[Any]) -> str:
    """The first schema violation as a sentence: where, what the schema wants, what was sent
    (`expected_version: Input should be a valid integer, not true (a boolean)`)."""
    if not errors:
        return "no details"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
    text = f"{where}: {first.get('msg', 'invalid')}"
    if first.get("type") != "missing" and "input" in first:
        text += f", not {sent(first['input'])}"
    return text


MAX_EVENT_ID_DIGITS = 18  # any stored version fits; more digits cannot name an event


def _last_event_id(value: str) -> int:
    """The version in a `Last-Event-ID` header (ASCII digits, as the stream sends them).
    Raises InvalidRequest (`bad_last_event_id`) for anything else."""
    if not (value.isascii() and value.isdigit() and len(value) <= MAX_EVENT_ID_DIGITS):
        raise InvalidRequest(
            "bad_last_event_id",
            "Last-Event-ID must be an event version this stream sent",
            reason=f"expected 1 to {MAX_EVENT_ID_DIGITS} ASCII digits",
        )
    return int(value)


class _App(FastAPI):
    """FastAPI with an optional ASGI app in front of all of it (`front_door`), which hands what
    it does not answer to `behind_front_door`: FastAPI itself, telemetry and middleware
    included."""

    front_door: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.front_door is not None and scope["type"] == "http":
            scope["app"] = self  # as Starlette sets it
            await self.front_door(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    async def behind_front_door(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().__call__(scope, receive, send)


def create_app(
    service: GameService,
    *,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    cors_origins: Sequence[str] = (),
    access_log: Sink | None = None,
) -> FastAPI:
    """The ASGI application over `service`; request bodies above `max_body_bytes` get 413.
    Browser pages from `cors_origins` (e.g. `https://play.example`; `*` for any) may call the
    API (CORS, with the Authorization header); by default only same-origin pages can.
    `access_log` receives one record per request (api/http/access_log.py)."""
    app = _App(
        title="Ludex",
        version="1.0",
        summary="Play tabletop games through an event-sourced rules engine.",
        description=(
            "1. `GET /rulesets` to pick a game. 2. `POST /games` returns a game id and one secret "
            "token per seat. 3. Each seat, with `Authorization: Bearer <token>`, reads `GET "
            "/games/{id}/view` and `GET /games/{id}/legal-moves`, then `POST /games/{id}/moves` "
            "with one of the listed moves and the view's `version` as `expected_version`. "
            "4. Follow `GET /games/{id}/stream` (server-sent events) to see others' moves. "
            "When the game is over, `GET /games/{id}/events` is the full public log and "
            "`GET /games/{id}/audit` verifies it."
        ),
        docs_url=None,
        redoc_url=None,
        generate_unique_id_function=lambda route: route.name,  # operationId: create_game, submit_move...
    )
    app.router.route_class = StrictJSONRoute  # bodies read as strict JSON (duplicate keys refused)
    quiet_disconnects()  # a stream's client going away is logged at DEBUG, not as a warning
    add_offline_docs(app)
    only_declared_errors(app)
    app.add_middleware(BodySizeLimit, max_bytes=max_body_bytes)
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
            max_age=600,
        )
    if access_log is not None:
        app.add_middleware(AccessLog, sink=access_log)

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"error": jsonable_encoder(exc.to_dict())}, status_code=STATUS_BY_KIND.get(exc.kind, 400))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = jsonable_encoder(exc.errors(), exclude={"input", "ctx", "url"})
        invalid = [e for e in exc.errors() if e.get("type") == "json_invalid"]
        if invalid:
            why = (invalid[0].get("ctx") or {}).get("error")
            return _error(400, "malformed_json", "the request body is not valid JSON" + (f": {why}" if why else ""),
                          reason=_JSON_RULES, details=errors)
        typed = any(str(e.get("type", "")).endswith("_type") for e in exc.errors())
        return _error(422, "invalid_request", "the request does not match the API schema: " + _first_problem(exc.errors()),
                      reason=TYPE_RULE if typed else "see the operation's request schema in /openapi.json",
                      details=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}.get(exc.status_code, "http_error")
        response = _error(exc.status_code, code, str(exc.detail))
        if exc.headers:  # e.g. Starlette's 405 carries `Allow`, which RFC 9110 requires
            response.headers.update(exc.headers)
        return response

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, _exc: Exception) -> JSONResponse:
        return _error(500, "internal", "internal error")

    # Endpoints are async and make exactly one hop to a worker thread for the (blocking)
    # service call, and return the service's JSON as is: `response_model` documents the shape
    # in OpenAPI without re-validating every response.
    async def run(fn: Any, *args: Any, status_code: int = 200) -> JSONResponse:
        return FastJSONResponse(await run_in_threadpool(fn, *args), status_code=status_code)

    @app.get("/healthz", response_model=m.HealthOut, tags=["service"])
    async def healthz() -> dict[str, str]:
        """Liveness and store reachability."""
        await run_in_threadpool(service.store.ping)
        return {"status": "ok", "store": service.store.dialect}

    @app.get("/rulesets", response_model=list[m.RulesetOut], tags=["rulesets"])
    async def rulesets() -> JSONResponse:
        """Rulesets served (bundled, then `serve --rulesets` folders): names, variants, options,
        seat range, content hash, origin, and `ok`/`diagnostics` (a ruleset failing its check
        is listed but cannot start games)."""
        return await run(service.rulesets)

    @app.post("/rulesets/check", response_model=m.CheckRulesetOut, responses=m.error_responses(ERRORS["check_ruleset"]), tags=["rulesets"])
    async def check_ruleset(body: m.CheckRulesetIn) -> JSONResponse:
        """Diagnostics (with line, column and hint) for a ruleset text."""
        return await run(service.check_ruleset, body.text, body.filename)

    @app.post("/games", response_model=m.CreatedGameOut, status_code=201, tags=["games"],
              responses={**m.error_responses(ERRORS["create_game"]), 201: {"links": m.created_game_links()}})
    async def create_game(body: m.CreateGameIn) -> JSONResponse:
        """Start a game; the response holds the only copy of each seat's token."""
        return await run(
            service.create_game, body.ruleset, body.variants, body.options, body.seats, body.seed, status_code=201
        )

    @app.get("/games/{game_id}/view", response_model=m.ViewOut, responses=m.error_responses(ERRORS["view"]), tags=["games"], openapi_extra=_SPECTATORS_ALLOWED)
    async def view(game_id: str, token: str | None = Depends(_token)) -> JSONResponse:
        """The game as the token's seat sees it (spectator without a token)."""
        return await run(service.view, game_id, token)

    @app.get("/games/{game_id}/legal-moves", response_model=m.LegalMovesOut, responses=m.error_responses(ERRORS["legal_moves"]), tags=["games"])
    async def legal_moves(game_id: str, token: str | None = Depends(_token)) -> JSONResponse:
        """The token's seat's legal moves right now (empty when it is not its turn)."""
        return await run(service.legal_moves, game_id, token)

    @app.post("/games/{game_id}/moves", response_model=m.MoveOut, responses=m.error_responses(ERRORS["submit_move"]), tags=["games"])
    async def submit_move(game_id: str, body: m.SubmitMoveIn, token: str | None = Depends(_token)) -> JSONResponse:
        """Play a move for the token's seat. 409 if the game is no longer at
        `expected_version`, 422 if the rules refuse it, 403 if it is not your turn."""
        return await run(
            service.submit_move, game_id, token, body.move.model_dump(), body.expected_version, body.seat
        )

    @app.get("/games/{game_id}/events", response_model=m.EventsOut, responses=m.error_responses(ERRORS["events"]), tags=["log"], openapi_extra=_SPECTATORS_ALLOWED)
    async def events(
        game_id: str, after: int = Query(0, ge=0), token: str | None = Depends(_token)
    ) -> JSONResponse:
        """Events after version `after`, redacted for the caller while the game runs; the
        complete hash-chained log once it is over."""
        return await run(service.events, game_id, token, after)

    @app.get("/games/{game_id}/replay", response_model=m.ReplayOut, responses=m.error_responses(ERRORS["replay"]), tags=["log"], openapi_extra=_SPECTATORS_ALLOWED)
    async def replay(game_id: str, at: int = Query(ge=1, description=(
                         "An event's version, from 1 (the header) to the game's `version`; past the log's end is "
                         "400 `bad_at`.")), token: str | None = Depends(_token)) -> JSONResponse:
        """The caller's view as it was right after event `at`."""
        return await run(service.replay, game_id, token, at)

    @app.get("/games/{game_id}/audit", response_model=m.AuditOut, responses=m.error_responses(ERRORS["audit"]), tags=["log"])
    async def audit(game_id: str) -> JSONResponse:
        """Verify the log: hash chain, pinned rules, every move legal, chance outcomes against
        the revealed seed, and the outcome."""
        return await run(service.audit, game_id)

    add_viewer_routes(app, service)

    @app.get("/games/{game_id}/receipt", response_model=m.ReceiptOut, responses=m.error_responses(ERRORS["receipt"]), tags=["log"])
    async def receipt(game_id: str) -> JSONResponse:
        """A signed receipt of the game's head now (sealed while the game runs)."""
        return await run(service.receipt, game_id)

    @app.get("/keys", response_model=m.PublicKeysOut, tags=["log"])
    async def public_keys() -> JSONResponse:
        """The Ed25519 public keys that sign receipts (every key ever used, the current first)."""
        return await run(service.public_keys)

    @app.post("/games/{game_id}/stream-ticket", response_model=m.StreamTicketOut,
              responses=m.error_responses(ERRORS["stream_ticket"]), tags=["log"])
    async def stream_ticket(game_id: str, token: str | None = Depends(_token)) -> JSONResponse:
        """Trade the seat token for a ticket valid about a minute, to put in the stream's URL:
        `new EventSource(`/games/${id}/stream?ticket=${ticket}`)` sees what the seat sees."""
        return await run(service.stream_ticket, game_id, token)

    @app.get("/games/{game_id}/stream", tags=["log"], openapi_extra=_SPECTATORS_ALLOWED, response_class=EventSourceResponse,
             responses={204: {"description": "The game is over and every event was already sent."},
                        **m.error_responses(ERRORS["stream"])})
    async def stream(
        game_id: str,
        after: int = Query(0, ge=0),
        last_event_id: str = Header(
            "",
            alias="Last-Event-ID",
            description="Resume after this event version (what the stream sent as `id`); 400 otherwise.",
            json_schema_extra={"pattern": f"^[0-9]{{0,{MAX_EVENT_ID_DIGITS}}}$"},
        ),
        ticket: str | None = Query(None, description="A stream ticket (POST /games/{id}/stream-ticket), for "
                                   "clients that cannot send the Authorization header (EventSource)."),
        token: str | None = Depends(_token),
    ) -> Response:
        """Server-sent events, one message per stored event: `id` is its version and `data` the
        event JSON as in /events, with its sentence as `text` (the one /events lists in `texts`
        for the same caller). The stream ends after the game's last event. A reconnecting
        EventSource resumes after its `Last-Event-ID`, and gets 204 (stop) once nothing is left.
        A browser sees a seat's events with `?ticket=` (an EventSource cannot send headers)."""
        token = token or ticket
        if last_event_id:
            after = max(after, _last_event_id(last_event_id))
        page = await run_in_threadpool(service.events, game_id, token, after)  # fail fast with a status
        if page["finished"] and not page["events"]:
            return Response(status_code=204)

        async def publish() -> AsyncIterator[dict[str, str]]:
            async for event, text in service.stream_told(game_id, token, after):
                yield {"id": str(event["version"]), "data": json.dumps({**event, "text": text})}

        return EventSourceResponse(publish(), ping=15)

    routes = install_fast_routes(app, service, run_in_threadpool, inline_reads=service.store.dialect == "sqlite")
    if not cors_origins and access_log is None:  # no middleware needs to see every request
        app.front_door = FrontDoor(app.behind_front_door, routes, app.exception_handlers, max_body_bytes)
    return app
