"""Edited copies of a game's log, as an attacker would make them, for the tamper suite.

`tampered_logs(log)` yields `Tampered(label, recomputed, entries)` for:
- every single-field edit of every record, at every depth (other value of the same type, and
  type changes: 1 -> true, 33 -> 33.0, number -> text, value -> null, ...);
- a field added to every JSON object, and every field removed;
- every list reordered (reversed), every record deleted, every two neighbouring records
  swapped, and every truncation to a prefix.
Each edit comes twice: as is (`recomputed=False`), and with the hash chain recomputed as a
careful forger would (`recomputed=True`; edits of `hash`/`prev_hash` vanish then and are left
out). Copies equal to the original (compared as typed JSON text) are left out.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Iterator, NamedTuple

from api.store import GENESIS, record_hash


class Tampered(NamedTuple):
    label: str
    recomputed: bool
    entries: list[dict[str, Any]]


def _text(entries: list[dict[str, Any]]) -> str:
    return json.dumps(entries, sort_keys=True)


def _other_values(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value, int(value), str(value).lower(), None]
    if isinstance(value, int):
        out: list[Any] = [value + 1, value - 1, float(value), str(value), None]
        if value in (0, 1):
            out.append(bool(value))
        return out
    if isinstance(value, str):
        return [value + "x", value[:-1] if value else "x", None, 0] + ([int(value)] if value.isdigit() else [])
    if value is None:
        return [0, "", False, {}]
    if isinstance(value, list):
        return [None, {}] + ([] if value else [[0]])
    if isinstance(value, dict):
        return [None, []] + ([] if value else [{"x": 0}])
    raise TypeError(value)


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every path into `value` (dict keys and list indexes), parents before children."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _get(value: Any, path: tuple) -> Any:
    for p in path:
        value = value[p]
    return value


def _edits(entry: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in _paths(entry):
        if not path:
            continue
        where = "/".join(str(p) for p in path)
        current = _get(entry, path)
        for other in _other_values(current):
            e = copy.deepcopy(entry)
            _get(e, path[:-1])[path[-1]] = other
            yield f"set {where}={json.dumps(other)[:20]}", e
        parent = _get(entry, path[:-1])
        if isinstance(parent, dict):
            e = copy.deepcopy(entry)
            del _get(e, path[:-1])[path[-1]]
            yield f"remove {where}", e
        if isinstance(current, list) and len(current) > 1:
            e = copy.deepcopy(entry)
            _get(e, path).reverse()
            yield f"reverse {where}", e
        if isinstance(current, dict):
            e = copy.deepcopy(entry)
            _get(e, path)["extra"] = 1
            yield f"add {where}/extra", e
    e = copy.deepcopy(entry)
    e["extra"] = 1
    yield "add extra", e


def rehash(entries: list[dict[str, Any]], log_format: str) -> list[dict[str, Any]]:
    """The chain recomputed over `entries` (each record's prev_hash and hash)."""
    out, prev = [], GENESIS
    for e in entries:
        e = dict(e, prev_hash=prev)
        e.pop("hash", None)
        try:
            e["hash"] = prev = record_hash(e, log_format)
        except (KeyError, TypeError, ValueError):
            e["hash"] = prev = "0" * 64  # what cannot be hashed cannot be forged either
        out.append(e)
    return out


def tampered_logs(log: list[dict[str, Any]], log_format: str, recomputed: bool | None = None) -> Iterator[Tampered]:
    """Every edited copy of `log` (see the module docstring); only the plain ones
    (`recomputed=False`) or only the ones with the chain recomputed (True), or both (None)."""
    plain: list[tuple[str, list[dict[str, Any]], bool]] = []
    for i, entry in enumerate(log):
        original = json.dumps(entry, sort_keys=True)
        for label, edited in _edits(entry):
            if json.dumps(edited, sort_keys=True) == original:
                continue
            field = label.split(" ")[1].split("=")[0]
            plain.append((f"event {i + 1}: {label}", [*log[:i], edited, *log[i + 1:]],
                          field.split("/")[0] not in ("hash", "prev_hash")))
        plain.append((f"delete event {i + 1}", [*log[:i], *log[i + 1:]], True))
        if i + 1 < len(log):
            plain.append((f"swap events {i + 1},{i + 2}", [*log[:i], log[i + 1], log[i], *log[i + 2:]], True))
    for k in range(len(log)):
        plain.append((f"truncate to {k} events", log[:k], True))
    whole = _text(log)
    seen: set[str] = set()
    for label, entries, can_recompute in plain:
        if recomputed is not True:
            yield Tampered(label, False, entries)
        if can_recompute and recomputed is not False:
            forged = rehash(entries, log_format)
            text = _text(forged)
            if text != whole and text not in seen:
                seen.add(text)
                yield Tampered(label, True, forged)
