"""Requests read strictly: bodies as strict JSON (RFC 8259: UTF-8 text, no duplicate object keys
at any depth, no `NaN` or `Infinity`), and no query parameter given twice.

A body such as `{"expected_version": 9, "expected_version": 3}` means one thing to a client that
keeps the first key, another to one that keeps the last (the standard library, orjson), and a
third to a proxy that refuses it; RFC 8259 section 4 leaves its meaning open. The service refuses
it (400 `malformed_json`, naming the key), so every reader of a request sees the same one. A
body that is not UTF-8 or nests deeper than Python's parser can go is refused the same way.

The check costs about 2 microseconds on a move's body (bench/service/json_keys.py): the standard
library's C parser with an `object_pairs_hook`, against 0.4 for orjson, which cannot report
duplicates.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Coroutine

from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response


class DuplicateKey(ValueError):
    """An object in the body has the key `key` twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_no_constant)


def loads(raw: bytes | str) -> Any:
    """The JSON value of `raw`. Raises json.JSONDecodeError saying what is wrong: not UTF-8,
    not JSON, a duplicate key (named, with its JSON-escaped text), `NaN`/`Infinity`, or nesting
    too deep to parse."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, (bytes, bytearray)) else raw
    except UnicodeDecodeError as exc:
        raise json.JSONDecodeError(f"the body is not UTF-8 text (byte {exc.start})", "", 0) from None
    if text.startswith("\ufeff"):
        raise json.JSONDecodeError("the body starts with a byte order mark (BOM), which JSON text must not "
                                   "(RFC 8259 section 8.1)", "", 0)
    try:
        return _DECODER.decode(text)
    except DuplicateKey as exc:
        raise json.JSONDecodeError(f"duplicate key {json.dumps(exc.key)}: an object may name each key once",
                                   "", 0) from None
    except RecursionError:
        raise json.JSONDecodeError("the body nests too deep to parse", "", 0) from None
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # NaN/Infinity, or an integer too long to convert
        raise json.JSONDecodeError(str(exc), "", 0) from None


def repeated_query_parameter(request: Request, declared: frozenset[str]) -> str | None:
    """The first of the `declared` query parameters given twice (`?at=1&at=2`: one reader takes
    the first, another the last, as with a JSON body's duplicate keys), or None."""
    seen: set[str] = set()
    for key, _ in request.query_params.multi_items():
        if key in seen and key in declared:
            return key
        seen.add(key)
    return None


class StrictJSONRequest(Request):
    """A Starlette request whose `json()` is `loads`: FastAPI reports its JSONDecodeError as a
    `json_invalid` validation error, which the app answers with 400 `malformed_json`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """An APIRoute that reads its body with `StrictJSONRequest` (FastAPI's documented way to
    give routes their own request class)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        declared = frozenset(p.alias for p in self.dependant.query_params)  # others are ignored anyway

        async def strict(request: Request) -> Response:
            repeated = repeated_query_parameter(request, declared) if declared else None
            if repeated is not None:
                raise RequestValidationError([{
                    "type": "duplicate_parameter", "loc": ("query", repeated),
                    "msg": f"the query parameter {repeated!r} is given more than once; give it once", "input": None}])
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict
