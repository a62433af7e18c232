"""The hash chain that makes a game's event log tamper-evident.

Every stored event is a record `{game_id, version, kind, body, prev_hash, hash}`: `prev_hash` is
the hash of the event before it (`GENESIS` for the first) and `hash` the SHA-256 of the whole
record but `hash` itself, in one canonical encoding. Editing, dropping or reordering any event
changes a hash and breaks every link after it, so a verifier only needs the log itself.

The encoding is named by the log format, which the header event (version 1) states in its body:

- `ludex-log/2` (`LOG_FORMAT`, every new game): RFC 8785 JSON Canonicalization Scheme (JCS,
  the `rfc8785` package) of the record without `hash`. A key added anywhere, a `1` turned into
  `true`, a reordered list: each gives other bytes, so another hash.
- `ludex-log/1` (`LEGACY_LOG_FORMAT`, games stored before JCS): Python's `json.dumps` with sorted
  keys of exactly `{game_id, version, kind, body, prev_hash}`. Old stores keep these hashes (events
  are append-only), their games go on being appended to in that encoding, and the audit still
  verifies them; what the old hash leaves out (other top-level keys, Python's `1 == 1.0`) the
  audit's strict schema (`api/app/logschema.py`) rejects for both formats.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable, Mapping

import orjson
import rfc8785

GENESIS = "0" * 64
"""`prev_hash` of the first event of every stream."""

LOG_FORMAT = "ludex-log/2"
"""The log format of new games: JCS hashes of whole records."""

LEGACY_LOG_FORMAT = "ludex-log/1"
"""Games stored before JCS: sorted-key `json.dumps` hashes of the five hashed fields."""

LOG_FORMATS = (LEGACY_LOG_FORMAT, LOG_FORMAT)

RECORD_FIELDS = ("game_id", "version", "kind", "body", "prev_hash", "hash")
"""Every field of a stored event record, and no other."""


class UnknownLogFormat(ValueError):
    """The log names a format this version of Ludex cannot verify."""


# Fast path. For a value made only of exact dicts with str keys, lists, str, int, bool and None,
# orjson with sorted keys writes the same bytes as both encoders below: keys sorted by code point
# (as Python's sort, and as JCS's UTF-16 order while no key holds a character beyond U+FFFF), the
# same escapes (\b \t \n \f \r, other controls as lowercase \u00xx, everything else raw UTF-8),
# and with OPT_STRICT_INTEGER the same integer domain as `rfc8785` (|n| < 2**53, else it raises).
# Floats (JCS writes 1.0 as `1`), other types, astral keys in JCS, lone surrogates (orjson raises)
# and nesting beyond orjson's limit take the reference encoders. tests/service/test_chain_encoding.py
# checks the equality with Hypothesis.
_FAST = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER


def _plain(value: Any, jcs_keys: bool) -> bool:
    """Whether `value` holds only types the fast path encodes exactly (see above)."""
    t = type(value)
    if t is str or t is int or t is bool or value is None:
        return True
    if t is dict:
        for k, v in value.items():
            if type(k) is not str:
                return False
            # A character beyond U+FFFF is two UTF-16 units: JCS may order such a key differently.
            if jcs_keys and not k.isascii() and len(k.encode("utf-16-le", "surrogatepass")) != 2 * len(k):
                return False
            if not _plain(v, jcs_keys):
                return False
        return True
    if t is list:
        return all(_plain(v, jcs_keys) for v in value)
    return False


def _fast(value: Any, jcs_keys: bool) -> bytes | None:
    """The fast path's bytes, or None where only the reference encoder is exact."""
    try:
        if _plain(value, jcs_keys):
            return orjson.dumps(value, option=_FAST)
    except (TypeError, RecursionError):  # orjson.JSONEncodeError is a TypeError
        pass
    return None


def canonical_json(value: Any) -> str:
    """JSON text with sorted keys and no spaces (the store's body text, and the legacy hash):
    exactly `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    allow_nan=False)`, and its errors."""
    fast = _fast(value, jcs_keys=False)
    if fast is not None:
        return fast.decode("utf-8")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def jcs(value: Any) -> bytes:
    """RFC 8785 canonical UTF-8 bytes of a JSON value: exactly `rfc8785.dumps(value)`. Raises
    `rfc8785.CanonicalizationError` (a ValueError) for what JSON cannot carry exactly: NaN,
    non-string keys, integers beyond +-2**53."""
    fast = _fast(value, jcs_keys=True)
    if fast is not None:
        return fast
    return rfc8785.dumps(value)


def sha256_hex(text: str) -> str:
    """Hex SHA-256 of the UTF-8 bytes of `text` (also used for the seed commitment)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_hash(record: Mapping[str, Any], log_format: str = LOG_FORMAT) -> str:
    """Hash of one stored record: every key but `hash` in `ludex-log/2`, the five hashed fields
    in `ludex-log/1`. Raises KeyError for a missing field, UnknownLogFormat, and ValueError or
    TypeError for a value canonical JSON cannot encode."""
    if log_format == LOG_FORMAT:
        return hashlib.sha256(jcs({k: v for k, v in record.items() if k != "hash"})).hexdigest()
    if log_format == LEGACY_LOG_FORMAT:
        fields = {k: record[k] for k in ("game_id", "version", "kind", "body", "prev_hash")}
        return sha256_hex(canonical_json(fields))
    raise UnknownLogFormat(f"unknown log format {log_format!r} (this Ludex reads {', '.join(LOG_FORMATS)})")


def event_hash(
    game_id: str, version: int, kind: str, body: Mapping[str, Any], prev_hash: str, log_format: str = LOG_FORMAT
) -> str:
    """Hash of the event record with these fields; `body` must already be JSON-able."""
    record = {"game_id": game_id, "version": version, "kind": kind, "body": body, "prev_hash": prev_hash}
    return record_hash(record, log_format)


def log_format_of(events: Iterable[Mapping[str, Any]]) -> str:
    """The format a log's header states (`body.format` of its first record); LOG_FORMAT when the
    first record states none (a stream without a header, as in store tests)."""
    for e in events:
        body = e.get("body") if isinstance(e, Mapping) else None
        fmt = body.get("format") if isinstance(body, Mapping) else None
        return fmt if isinstance(fmt, str) else LOG_FORMAT
    return LOG_FORMAT


def first_broken_link(events: Iterable[Mapping[str, Any]], log_format: str | None = None) -> tuple[int, str] | None:
    """Check a log given as dicts (`game_id, version, kind, body, prev_hash, hash`).

    `log_format` defaults to the one the header states. Returns None when versions run 1, 2,
    3... and every hash and link is right, otherwise `(position, message)` for the first bad
    event, where position is its 1-based line.
    """
    events = list(events)
    fmt = log_format or log_format_of(events)
    prev = GENESIS
    game_id = None
    for position, e in enumerate(events, start=1):
        try:
            version, stored_prev, stored_hash, gid = e["version"], e["prev_hash"], e["hash"], e["game_id"]
            e["kind"], e["body"]
        except (KeyError, TypeError) as exc:
            return position, f"event {position}: malformed log entry (missing {exc})"
        if game_id is None:
            game_id = gid
        if gid != game_id:
            return position, f"event {version}: belongs to game {gid!r}, not {game_id!r}"
        if type(version) is not int or version != position:
            return position, f"event {version}: expected version {position} (events missing or reordered)"
        if stored_prev != prev:
            return position, f"event {version}: prev_hash does not match the hash of event {version - 1}"
        try:
            recomputed = record_hash(e, fmt)
        except UnknownLogFormat as exc:
            return position, f"event {version}: {exc}"
        except (TypeError, ValueError) as exc:
            return position, f"event {version}: not canonical JSON ({exc})"
        if recomputed != stored_hash:
            return position, f"event {version}: hash mismatch (the event was edited)"
        prev = stored_hash
    return None
