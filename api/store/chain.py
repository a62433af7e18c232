"""The hash chain that makes a game's event log tamper-evident.

Every stored event carries `prev_hash` (the hash of the event before it, or `GENESIS` for the
first) and `hash`, the SHA-256 of the canonical JSON of `{game_id, version, kind, body,
prev_hash}`. Editing, dropping or reordering any event changes a hash and breaks every link
after it, so a verifier only needs the log itself.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable, Mapping

GENESIS = "0" * 64
"""`prev_hash` of the first event of every stream."""


def canonical_json(value: Any) -> str:
    """JSON text with sorted keys and no spaces: equal values always give equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def sha256_hex(text: str) -> str:
    """Hex SHA-256 of the UTF-8 bytes of `text` (also used for the seed commitment)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def event_hash(game_id: str, version: int, kind: str, body: Mapping[str, Any], prev_hash: str) -> str:
    """Hash of one event; `body` must already be JSON-able."""
    return sha256_hex(
        canonical_json(
            {"game_id": game_id, "version": version, "kind": kind, "body": body, "prev_hash": prev_hash}
        )
    )


def first_broken_link(events: Iterable[Mapping[str, Any]]) -> tuple[int, str] | None:
    """Check a log given as dicts (`game_id, version, kind, body, prev_hash, hash`).

    Returns None when versions run 1, 2, 3... and every hash and link is right, otherwise
    `(position, message)` for the first bad event, where position is its 1-based line.
    """
    prev = GENESIS
    game_id = None
    for position, e in enumerate(events, start=1):
        try:
            version, kind, body = e["version"], e["kind"], e["body"]
            stored_prev, stored_hash = e["prev_hash"], e["hash"]
            gid = e["game_id"]
        except (KeyError, TypeError) as exc:
            return position, f"event {position}: malformed log entry (missing {exc})"
        if game_id is None:
            game_id = gid
        if gid != game_id:
            return position, f"event {version}: belongs to game {gid!r}, not {game_id!r}"
        if version != position:
            return position, f"event {version}: expected version {position} (events missing or reordered)"
        if stored_prev != prev:
            return position, f"event {version}: prev_hash does not match the hash of event {version - 1}"
        try:
            recomputed = event_hash(gid, version, kind, body, stored_prev)
        except (TypeError, ValueError) as exc:
            return position, f"event {version}: body is not canonical JSON ({exc})"
        if recomputed != stored_hash:
            return position, f"event {version}: hash mismatch (the event was edited)"
        prev = stored_hash
    return None
