"""Checks on untrusted input that every face shares, run before anything reaches the rules or
the store.

A request that passes these is text the store can keep and JSON the faces can encode: no lone
UTF-16 surrogate (JSON's `"\\ud800"` escape decodes to one, and UTF-8 cannot encode it), no NUL
where the store keeps raw text (PostgreSQL refuses NUL in text), and JSON values nested no
deeper than `MAX_JSON_DEPTH`. Each failure is an `InvalidRequest` naming the field and the
position, and never echoes the offending text itself.
"""

from __future__ import annotations

import re
from typing import Any

from api.app.errors import InvalidRequest

MAX_JSON_DEPTH = 32  # far above any move argument or option a ruleset declares

_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def check_text(value: str, field: str, code: str, *, controls: bool = True) -> str:
    """`value` if it is encodable text; `controls=False` also refuses control characters
    (C0 and DEL, NUL included). Raises InvalidRequest(`code`) naming `field` and the
    0-based character index of the first bad character."""
    bad = _SURROGATE.search(value)
    if bad is not None:
        raise _refuse(code, field, f"contains a lone UTF-16 surrogate at character {bad.start()}",
                      "text must be valid Unicode (a surrogate is only valid as half of a \\uD8xx\\uDCxx pair)")
    bad = None if controls else _CONTROL.search(value)
    if bad is not None:
        raise _refuse(code, field, f"contains control character U+{ord(bad.group()):04X} at character {bad.start()}",
                      "control characters (NUL included) are not allowed here")
    return value


def _refuse(code: str, field: str, what: str, reason: str) -> InvalidRequest:
    return InvalidRequest(code, f"{field} {what}", reason=reason, field=field)


def check_json(value: Any, field: str, code: str) -> Any:
    """`value` if it is a JSON value whose strings (keys included) are encodable text and whose
    nesting is at most `MAX_JSON_DEPTH`; raises InvalidRequest(`code`) naming `field`.
    Iterative, so a hostile depth cannot exhaust the stack."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_text(item, field, code)
            continue
        if not isinstance(item, (dict, list, tuple)):
            continue
        if depth > MAX_JSON_DEPTH:
            raise _refuse(code, field, f"is nested more than {MAX_JSON_DEPTH} levels deep",
                          f"JSON values here may nest at most {MAX_JSON_DEPTH} levels")
        if isinstance(item, dict):
            for k, v in item.items():
                if isinstance(k, str):
                    check_text(k, field, code)
                stack.append((v, depth + 1))
        else:
            stack.extend((v, depth + 1) for v in item)
    return value
