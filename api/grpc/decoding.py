"""Per-method request deserializers for the gRPC face: a request grpcio cannot decode is refused
like any other bad input, with INVALID_ARGUMENT and a google.rpc.ErrorInfo, not INTERNAL.

grpcio answers a request whose deserializer raises with INTERNAL ("Exception deserializing
request!") before any Ludex code runs. Each method gets its own deserializer here, which
returns an `Undecodable` instead of raising; the method's behavior (wrapped by `guarded`) then
aborts with its `error`. The error's code is the one the method gives other refusals of the same
field (a move that cannot be decoded is `bad_move`, as a move nested too deep or holding a lone
surrogate is), found by decoding the request's top-level fields one at a time; a request whose
wire format is broken before any field is `invalid_request`.
"""

from __future__ import annotations

from typing import Any, Callable

from api.app.errors import InvalidRequest

# (method, field) -> the error code of that field's other refusals; other fields: invalid_request.
FIELD_CODES: dict[str, dict[str, str]] = {
    "CreateGame": {"ruleset": "bad_ruleset", "variants": "bad_variant", "seats": "bad_seats", "seed": "bad_seed",
                   "options": "bad_options"},
    "CheckRuleset": {"text": "bad_text", "filename": "bad_text"},
    "SubmitMove": {"move": "bad_move", "expected_version": "bad_move", "seat": "bad_move"},
    "Replay": {"at": "bad_at"},
    "ListEvents": {"after": "bad_after"},
    "StreamEvents": {"after": "bad_after"},
}
_WHY = "invalid UTF-8 in a string, a value nested deeper than protobuf decodes (100 levels), or malformed bytes"


class Undecodable:
    """A request that could not be decoded: `error` is the InvalidRequest to answer with."""

    __slots__ = ("error",)

    def __init__(self, error: InvalidRequest) -> None:
        self.error = error


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[pos]  # IndexError past the end: the caller's "malformed"
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def bad_field(message: Any, data: bytes) -> str | None:
    """The name of the first top-level field of `data` (a serialized `message` type) that does
    not decode on its own, or None when the wire format itself is broken before one is found.
    Protocol Buffers encoding: each field is a varint key (number << 3 | wire type), then a
    varint, 8 bytes, a varint length and that many bytes, or 4 bytes."""
    pos = 0
    try:
        while pos < len(data):
            start = pos
            key, pos = _varint(data, pos)
            wire = key & 7
            if wire == 0:
                _, pos = _varint(data, pos)
            elif wire == 1:
                pos += 8
            elif wire == 2:
                length, pos = _varint(data, pos)
                pos += length
            elif wire == 5:
                pos += 4
            else:
                return None
            if pos > len(data):
                return None
            try:
                message.FromString(data[start:pos])
            except Exception:  # noqa: BLE001 - any decode failure names this field
                field = message.DESCRIPTOR.fields_by_number.get(key >> 3)
                return field.name if field is not None else None
    except IndexError:
        return None
    return None


def request_deserializer(method: str, message: Any) -> Callable[[bytes], Any]:
    """`message.FromString`, except that a request it cannot decode becomes an `Undecodable`
    carrying InvalidRequest (code from `FIELD_CODES`, `field` the field's name when known)."""
    parse = message.FromString
    codes = FIELD_CODES.get(method, {})
    name = message.DESCRIPTOR.full_name

    def deserialize(data: bytes) -> Any:
        try:
            return parse(data)
        except Exception:  # noqa: BLE001 - DecodeError, RecursionError...: all are the client's bytes
            field = bad_field(message, data)
            if field is None:
                return Undecodable(InvalidRequest("invalid_request", f"the request is not a {name} message",
                                                  reason=_WHY))
            return Undecodable(InvalidRequest(codes.get(field, "invalid_request"),
                                              f"{name}.{field} cannot be decoded", reason=_WHY, field=field))

    return deserialize


def guarded(behavior: Callable[..., Any], abort: Callable[[Any, Undecodable], Any]) -> Callable[..., Any]:
    """`behavior(request, context)`, or `abort(context, request)` for an `Undecodable`."""

    def call(request: Any, context: Any) -> Any:
        if request.__class__ is Undecodable:
            abort(context, request)
        return behavior(request, context)

    return call
