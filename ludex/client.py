"""A Python client for the Ludex HTTP API, sync (`Client`) and async (`AsyncClient`), on httpx.

Responses are parsed into the service's own models (`api.http.models`: `ViewOut`,
`LegalMovesOut`, `MoveOut`, `EventsOut`, the `LogEvent` union...), so the client cannot drift
from the OpenAPI document. Errors raise `LudexError` with the typed error body.

    from ludex.client import Client

    with Client("http://127.0.0.1:8000") as ludex:
        game = ludex.create_game("balloon_cup", seed="example")
        view = ludex.view(game.game_id)
        seat = view.decision.seats[0]
        moves = ludex.legal_moves(game.game_id, game.tokens[seat])
        done = ludex.submit(game.game_id, game.tokens[seat], moves.moves[0])
        for event in ludex.stream(game.game_id, after=done.version):  # until the game ends
            print(event.version, event.text)  # its sentence, as the caller may read it

`submit` sends the move at the version it was listed at (or the game's current version) and,
on 409 `stale_version`, retries at the `current_version` the service reports, up to `retries`
times: a move still legal after someone else's move (a simultaneous step) goes through, one
that no longer is raises the 422 `illegal_move`.
"""

from __future__ import annotations

from typing import Any, AsyncIterator, Iterator, Mapping, Sequence, TypeVar

import httpx
from httpx_sse import aconnect_sse, connect_sse
from pydantic import BaseModel, TypeAdapter

from api.http.models import (
    AuditOut,
    CreatedGameOut,
    ErrorOut,
    EventsOut,
    LegalMovesOut,
    LogEvent,
    Move,
    MoveOut,
    ReceiptOut,
    ReplayOut,
    RulesetOut,
    ViewOut,
)

__all__ = ["AsyncClient", "Client", "LudexError", "Move"]

M = TypeVar("M", bound=BaseModel)
_RULESETS = TypeAdapter(list[RulesetOut])
_EVENT: TypeAdapter[Any] = TypeAdapter(LogEvent)
DEFAULT_RETRIES = 3


class LudexError(Exception):
    """An error response: `status` (HTTP), `code` (api.app.errors.ErrorCode value), `message`,
    `reason` (an illegal move's `require` text) and `body` (the whole error object, details
    such as `current_version` included)."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.body = body
        self.code: str = body.get("code", "http_error")
        self.message: str = body.get("message", "")
        self.reason: str | None = body.get("reason")
        super().__init__(f"{status} {self.code}: {self.message}" + (f" ({self.reason})" if self.reason else ""))


def _raise_for(response: httpx.Response) -> None:
    if response.status_code < 400:
        return
    try:
        body = response.json()["error"]
        ErrorOut.model_validate({"error": body})
    except (ValueError, KeyError, TypeError):  # not the API's error shape (a proxy's page...)
        body = {"code": "http_error", "message": response.text[:200]}
    raise LudexError(response.status_code, body)


def _log(response: httpx.Response) -> list[dict[str, Any]]:
    """The raw entries of a finished game's /events (exactly as stored: the hashes cover them)."""
    _raise_for(response)
    page = response.json()
    if not page["finished"]:
        raise LudexError(409, {"code": "game_running", "message": "the log is public once the game is over"})
    return list(page["events"])


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _move_body(move: Move | Mapping[str, Any], version: int) -> dict[str, Any]:
    parsed = move if isinstance(move, Move) else Move.model_validate(dict(move))
    return {"move": parsed.model_dump(), "expected_version": version}


def _create_body(ruleset: str, variants: Sequence[str], options: Mapping[str, Any] | None,
                 seats: int | None, seed: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {"ruleset": ruleset, "variants": list(variants), "options": dict(options or {})}
    if seats is not None:
        body["seats"] = seats
    if seed is not None:
        body["seed"] = seed
    return body


def _retry_at(response: httpx.Response, attempts_left: int) -> int | None:
    """None when the move was accepted; the version to retry at after a 409 stale_version while
    attempts are left; raises LudexError otherwise."""
    try:
        _raise_for(response)
    except LudexError as error:
        if error.code != "stale_version" or attempts_left <= 0:
            raise
        return int(error.body["current_version"])
    return None


class Client:
    """The sync client. `base_url` is the service (`http://127.0.0.1:8000`); pass `http` to
    reuse an httpx.Client (its base_url is then used). Use as a context manager or `close()`."""

    def __init__(self, base_url: str = "http://127.0.0.1:8000", *, timeout: float = 30.0,
                 retries: int = DEFAULT_RETRIES, http: httpx.Client | None = None) -> None:
        self.http = http or httpx.Client(base_url=base_url, timeout=timeout)
        self.retries = retries

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def _get(self, model: type[M], url: str, token: str | None = None, **params: Any) -> M:
        response = self.http.get(url, headers=_auth(token), params=params)
        _raise_for(response)
        return model.model_validate(response.json())

    def rulesets(self) -> list[RulesetOut]:
        """GET /rulesets."""
        response = self.http.get("/rulesets")
        _raise_for(response)
        return _RULESETS.validate_python(response.json())

    def create_game(self, ruleset: str, *, variants: Sequence[str] = (), options: Mapping[str, Any] | None = None,
                    seats: int | None = None, seed: str | None = None) -> CreatedGameOut:
        """POST /games: the game id and one secret token per seat."""
        response = self.http.post("/games", json=_create_body(ruleset, variants, options, seats, seed))
        _raise_for(response)
        return CreatedGameOut.model_validate(response.json())

    def view(self, game_id: str, token: str | None = None) -> ViewOut:
        """GET /games/{id}/view, as the token's seat (a spectator without one)."""
        return self._get(ViewOut, f"/games/{game_id}/view", token)

    def legal_moves(self, game_id: str, token: str) -> LegalMovesOut:
        """GET /games/{id}/legal-moves for the token's seat."""
        return self._get(LegalMovesOut, f"/games/{game_id}/legal-moves", token)

    def submit(self, game_id: str, token: str, move: Move | Mapping[str, Any],
               expected_version: int | None = None) -> MoveOut:
        """POST /games/{id}/moves. Without `expected_version`, the game's current version is
        used. A 409 stale_version is retried at the reported current version (`retries` times)."""
        version = expected_version if expected_version is not None else self.view(game_id, token).version
        for left in range(self.retries, -1, -1):
            response = self.http.post(f"/games/{game_id}/moves", json=_move_body(move, version), headers=_auth(token))
            if (retry := _retry_at(response, left)) is None:
                break
            version = retry
        return MoveOut.model_validate(response.json())

    def events(self, game_id: str, token: str | None = None, after: int = 0) -> EventsOut:
        """GET /games/{id}/events after version `after`."""
        return self._get(EventsOut, f"/games/{game_id}/events", token, after=after)

    def stream(self, game_id: str, token: str | None = None, after: int = 0) -> Iterator[Any]:
        """The game's events after `after` as they happen (GET /games/{id}/stream, server-sent
        events), each a `LogEvent` model with its sentence as `text` (as `events` lists it in
        `texts`); ends after the game's last event."""
        with connect_sse(self.http, "GET", f"/games/{game_id}/stream", params={"after": after},
                         headers=_auth(token)) as source:
            if source.response.status_code == 204:
                return
            if source.response.status_code >= 400:
                source.response.read()
                _raise_for(source.response)
            for message in source.iter_sse():
                if message.data:  # a message without data (a keep-alive, an id alone) is no event
                    yield _EVENT.validate_json(message.data)

    def replay(self, game_id: str, at: int, token: str | None = None) -> ReplayOut:
        """GET /games/{id}/replay: the view right after event `at`."""
        return self._get(ReplayOut, f"/games/{game_id}/replay", token, at=at)

    def audit(self, game_id: str) -> AuditOut:
        """GET /games/{id}/audit."""
        return self._get(AuditOut, f"/games/{game_id}/audit")

    def receipt(self, game_id: str) -> ReceiptOut:
        """GET /games/{id}/receipt: a signed receipt of the game's head now."""
        return self._get(ReceiptOut, f"/games/{game_id}/receipt")

    def export(self, game_id: str) -> list[dict[str, Any]]:
        """The complete log of a finished game, one dict per entry, as `ludex export` writes
        it (one JSON object a line) and `ludex audit` reads it. Raises LudexError
        (`game_running`) while the game runs: its log is not public yet."""
        return _log(self.http.get(f"/games/{game_id}/events"))


class AsyncClient:
    """The async client: the same methods as `Client`, awaited (`stream` is an async iterator)."""

    def __init__(self, base_url: str = "http://127.0.0.1:8000", *, timeout: float = 30.0,
                 retries: int = DEFAULT_RETRIES, http: httpx.AsyncClient | None = None) -> None:
        self.http = http or httpx.AsyncClient(base_url=base_url, timeout=timeout)
        self.retries = retries

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def _get(self, model: type[M], url: str, token: str | None = None, **params: Any) -> M:
        response = await self.http.get(url, headers=_auth(token), params=params)
        _raise_for(response)
        return model.model_validate(response.json())

    async def rulesets(self) -> list[RulesetOut]:
        response = await self.http.get("/rulesets")
        _raise_for(response)
        return _RULESETS.validate_python(response.json())

    async def create_game(self, ruleset: str, *, variants: Sequence[str] = (),
                          options: Mapping[str, Any] | None = None, seats: int | None = None,
                          seed: str | None = None) -> CreatedGameOut:
        response = await self.http.post("/games", json=_create_body(ruleset, variants, options, seats, seed))
        _raise_for(response)
        return CreatedGameOut.model_validate(response.json())

    async def view(self, game_id: str, token: str | None = None) -> ViewOut:
        return await self._get(ViewOut, f"/games/{game_id}/view", token)

    async def legal_moves(self, game_id: str, token: str) -> LegalMovesOut:
        return await self._get(LegalMovesOut, f"/games/{game_id}/legal-moves", token)

    async def submit(self, game_id: str, token: str, move: Move | Mapping[str, Any],
                     expected_version: int | None = None) -> MoveOut:
        version = expected_version if expected_version is not None else (await self.view(game_id, token)).version
        for left in range(self.retries, -1, -1):
            response = await self.http.post(
                f"/games/{game_id}/moves", json=_move_body(move, version), headers=_auth(token))
            if (retry := _retry_at(response, left)) is None:
                break
            version = retry
        return MoveOut.model_validate(response.json())

    async def events(self, game_id: str, token: str | None = None, after: int = 0) -> EventsOut:
        return await self._get(EventsOut, f"/games/{game_id}/events", token, after=after)

    async def stream(self, game_id: str, token: str | None = None, after: int = 0) -> AsyncIterator[Any]:
        async with aconnect_sse(self.http, "GET", f"/games/{game_id}/stream", params={"after": after},
                                headers=_auth(token)) as source:
            if source.response.status_code == 204:
                return
            if source.response.status_code >= 400:
                await source.response.aread()
                _raise_for(source.response)
            async for message in source.aiter_sse():
                if message.data:  # a message without data (a keep-alive, an id alone) is no event
                    yield _EVENT.validate_json(message.data)

    async def replay(self, game_id: str, at: int, token: str | None = None) -> ReplayOut:
        return await self._get(ReplayOut, f"/games/{game_id}/replay", token, at=at)

    async def audit(self, game_id: str) -> AuditOut:
        return await self._get(AuditOut, f"/games/{game_id}/audit")

    async def receipt(self, game_id: str) -> ReceiptOut:
        return await self._get(ReceiptOut, f"/games/{game_id}/receipt")

    async def export(self, game_id: str) -> list[dict[str, Any]]:
        return _log(await self.http.get(f"/games/{game_id}/events"))
