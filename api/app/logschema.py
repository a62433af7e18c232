"""The strict shape of a game's log: every field, its JSON type, and nothing else.

The hash chain proves that a log is the one its hashes describe; this module proves that it is
a log Ludex could have written, so that a value the hashes cannot tell apart from another
(`33.0` and `33` have one RFC 8785 encoding) or a value Python compares loosely (`1 == True`)
never reaches the replay. Every check raises `SchemaError` naming the event's version, the
field and what was wrong. Ludex logs hold integers only: a JSON number with a fraction or an
exponent is refused anywhere.

The shapes (see `api/app/log.py` for their meaning):
- a record: exactly `{game_id: str, version: int, kind: str, body: object, prev_hash: hex,
  hash: hex}`;
- the header body (`HEADER_TYPES`): exactly its fields (`sources_hash` may be absent only in
  the legacy format `ludex-log/1`);
- a runtime event body (move, chance, show): exactly what `runtime.event_to_dict` gives for the
  event it decodes to (checked by decoding and re-encoding, compared as typed JSON);
- the reveal body: exactly `{seed: str, outcome: object | null}`.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any, Callable, Mapping

from api.store.chain import LEGACY_LOG_FORMAT, LOG_FORMATS, RECORD_FIELDS, canonical_json
from runtime import event_from_dict, event_to_dict

RUNTIME_KINDS = ("move", "chance", "show")
KINDS = ("header", *RUNTIME_KINDS, "reveal")
KINDS = (*KINDS, "commit", "opening")  # sealed moves' commitments and openings (api/app/sealed.py)
SEALED_TYPES = {"commit": {"ply": "int", "seat": "int", "rule": "str", "source": "str", "commitment": "hex", "box": "str"},
                "opening": {"commit": "int", "seat": "int", "move": "str", "args": "object", "salt": "str"}}
_HEX64 = re.compile(r"[0-9a-f]{64}")


class SchemaError(Exception):
    """A log entry is not of the log's shape: `version` (None if unknown) and what is wrong."""

    def __init__(self, version: int | None, message: str) -> None:
        super().__init__(message)
        self.version = version


def _is_int(v: Any) -> bool:
    return type(v) is int


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_hex(v: Any) -> bool:
    return isinstance(v, str) and _HEX64.fullmatch(v) is not None


def _is_str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_sources(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(s, list) and len(s) == 2 and all(isinstance(x, str) for x in s) for s in v)


def _is_timestamp(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    try:
        return dt.datetime.fromisoformat(v).tzinfo is not None
    except ValueError:
        return False


_TYPE_NAMES = {
    "int": "an integer",
    "str": "a string",
    "hex": "64 lowercase hex digits",
    "str_list": "a list of strings",
    "object": "an object",
    "sources": "a list of [file, text] pairs",
    "timestamp": "an ISO 8601 time with its UTC offset",
}
_CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": _is_int,
    "str": _is_str,
    "hex": _is_hex,
    "str_list": _is_str_list,
    "object": lambda v: isinstance(v, dict),
    "sources": _is_sources,
    "timestamp": _is_timestamp,
}

RECORD_TYPES = {"game_id": "str", "version": "int", "kind": "str", "body": "object", "prev_hash": "hex", "hash": "hex"}
HEADER_TYPES = {
    "format": "str",
    "game_id": "str",
    "ruleset": "str",
    "variants": "str_list",
    "options": "object",
    "seats": "int",
    "content_hash": "hex",
    "sources": "sources",
    "sources_hash": "hex",
    "seed_commitment": "hex",
    "created_at": "timestamp",
}


def no_fractions(value: Any, version: int | None, path: str = "") -> None:
    """Refuse what is not plain JSON of a Ludex log: floats (`33.0`, `1e3`), non-string keys,
    and Python values JSON has no type for."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise SchemaError(version, f"event {version}: key {k!r} at {path or 'top level'} is not a string")
            no_fractions(v, version, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            no_fractions(v, version, f"{path}[{i}]")
    elif isinstance(value, float):
        raise SchemaError(
            version, f"event {version}: {path or 'value'} is {value!r}, a number with a fraction or exponent "
            "(Ludex logs hold integers only)")
    elif value is not None and not isinstance(value, (str, int)):
        raise SchemaError(version, f"event {version}: {path or 'value'} is not a JSON value ({type(value).__name__})")


def _exact(obj: Mapping[str, Any], types: Mapping[str, str], version: int | None, what: str,
           optional: tuple[str, ...] = ()) -> None:
    missing = [k for k in types if k not in obj and k not in optional]
    if missing:
        raise SchemaError(version, f"event {version}: {what} lacks field {missing[0]!r}")
    unknown = sorted(k for k in obj if k not in types)
    if unknown:
        raise SchemaError(version, f"event {version}: {what} has unknown field {unknown[0]!r}")
    for key, kind in types.items():
        if key in obj and not _CHECKS[kind](obj[key]):
            raise SchemaError(
                version, f"event {version}: {what} field {key!r} must be {_TYPE_NAMES[kind]}, not {json.dumps(obj[key])[:60]}")


def check_record(entry: Any, position: int) -> None:
    """One record of the log at 1-based `position`: exactly RECORD_FIELDS, typed, a known kind."""
    if not isinstance(entry, Mapping):
        raise SchemaError(position, f"event {position}: a log entry must be a JSON object")
    version = entry.get("version") if _is_int(entry.get("version")) else position
    _exact(entry, RECORD_TYPES, version, "the record")
    assert tuple(RECORD_TYPES) == RECORD_FIELDS
    if entry["kind"] not in KINDS:
        raise SchemaError(version, f"event {version}: unknown kind {entry['kind']!r} (a log has {', '.join(KINDS)})")
    no_fractions(entry, version)


def check_header(entry: Mapping[str, Any]) -> str:
    """The header record (version 1): its body's fields and types, a known format, the record's
    game id. Returns the format."""
    if entry.get("kind") != "header" or entry.get("version") != 1:
        raise SchemaError(1, "event 1: the log does not start with a header event")
    body = entry["body"]
    fmt = body.get("format")
    if fmt not in LOG_FORMATS:
        raise SchemaError(1, f"event 1: unknown log format {fmt!r} (this Ludex reads {', '.join(LOG_FORMATS)})")
    _exact(body, HEADER_TYPES, 1, "the header", optional=("sources_hash",) if fmt == LEGACY_LOG_FORMAT else ())
    if body["game_id"] != entry["game_id"]:
        raise SchemaError(1, f"event 1: the header names game {body['game_id']!r}, its records {entry['game_id']!r}")
    return str(fmt)


def check_body(entry: Mapping[str, Any]) -> None:
    """A non-header record's body: a runtime event exactly as the runtime encodes it, or the
    reveal. Raises SchemaError naming the first field that differs."""
    version, kind, body = entry["version"], entry["kind"], entry["body"]
    if kind == "header":
        raise SchemaError(version, f"event {version}: a header event after event 1")
    if kind == "reveal":
        _exact(body, {"seed": "str", "outcome": "object"}, version, "the reveal")
        return
    if kind in SEALED_TYPES:
        _exact(body, SEALED_TYPES[kind], version, f"the {kind}")
        return
    if body.get("kind") != kind:
        raise SchemaError(version, f"event {version}: a {kind} record holds a body of kind {body.get('kind')!r}")
    try:
        again = event_to_dict(event_from_dict(dict(body)))
    except Exception as exc:  # cattrs raises several types for malformed input
        raise SchemaError(version, f"event {version}: not a valid {kind} event ({exc})") from exc
    if not same_json(again, body):
        raise SchemaError(version, f"event {version}: {first_difference(body, again)}")


def same_json(a: Any, b: Any) -> bool:
    """Equal as typed JSON: `1` and `true`, `1` and `1.0` differ (unlike Python's `==`).
    Compared as sorted-key JSON text, which tells every JSON type apart, and is much faster
    than RFC 8785 bytes (they differ only in number and string escaping, both fixed here)."""
    return canonical_json(a) == canonical_json(b)


def first_difference(body: Mapping[str, Any], canonical: Mapping[str, Any]) -> str:
    """What first differs between an event `body` and the `canonical` one (field, values)."""
    for key in canonical:
        if key not in body:
            return f"the {body.get('kind')} event lacks field {key!r}"
    for key in body:
        if key not in canonical:
            return f"the {body.get('kind')} event has unknown field {key!r}"
    for key, value in canonical.items():
        if not same_json(value, body[key]):
            return f"field {key!r} is {json.dumps(body[key])[:60]}, where the runtime has {json.dumps(value)[:60]}"
    return "the event is not in the runtime's form"


def strict_loads(text: str) -> Any:
    """Parse one JSON text as a log line: duplicate keys, NaN and Infinity are refused
    (ValueError); floats are kept as floats for `no_fractions` to name."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise ValueError(f"duplicate key {k!r}")
            out[k] = v
        return out

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
