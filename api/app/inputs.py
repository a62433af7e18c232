"""Checks on untrusted input that every face shares, run before anything reaches the rules or
the store.

A request that passes these is text the store can keep and JSON the faces can encode: no lone
UTF-16 surrogate (JSON's `"\\ud800"` escape decodes to one, and UTF-8 cannot encode it), no NUL
where the store keeps raw text (PostgreSQL refuses NUL in text), and JSON values nested no
deeper than `MAX_JSON_DEPTH`. Each failure is an `InvalidRequest` naming the field and the
position, and never echoes the offending text itself.
"""

from __future__ import annotations

import json
import re
from typing import Any

import attrs

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


# -- the typing rule: what JSON value each type of the rule language accepts --------------------
#
# One rule for every face (HTTP JSON, gRPC `ludex.v1.Value`, the Python client, the CLI's
# `--option`): JSON's `true` is not the number 1 and `1.0` is not a seat, so an integer takes an
# integer only (never a truth value or a fraction, even `2.0`), a truth value a boolean only, a
# name or text a string only, and `null` only where the type is optional.

TYPE_RULE = ("a value must have exactly the JSON type the rules declare: true is not the number 1, 1.0 is not an "
             "integer, and null (none) is only for an optional value")


@attrs.frozen
class ValueType:
    """The JSON a rule-language type accepts. `json` is the JSON type ("integer", "boolean",
    "string", "array", "object", or "any" for a value whose shape is the ruleset's);
    `written` is the type as the ruleset says it (`seat`, `card`, `list<int>`); `item` types
    an array's items or an object's values; `optional` admits `null`."""

    json: str
    written: str
    item: ValueType | None = None
    optional: bool = False

    def describe(self) -> str:
        """`an integer (seat)`, `a boolean`, `a string (card)`, `an array of integers (int)`..."""
        article = "an" if self.json[0] in "aeiou" else "a"
        plural = {"integer": "integers", "boolean": "booleans", "string": "strings", "array": "arrays",
                  "object": "objects", "any": "JSON values"}
        what = f"{article} {self.json}" if self.json != "any" else "a JSON value"
        if self.item is not None:
            what += f" of {plural[self.item.json]}"
        if self.written not in (self.json, "bool", "int", "str"):
            what += f" ({self.written})"
        return what + (" or null" if self.optional else "")


_JSON_OF = {"int": "integer", "seat": "integer", "bool": "boolean", "str": "string", "step": "string"}


def value_type(checker_type: str, *, optional: bool = False) -> ValueType:
    """The ValueType of a checker type string (`dsl/checker.py`: `int`, `seat`, `bool`, `str`,
    `enum:E`, `comp:C1/C2`, `ent:E`, `zone:C`, `list:T`, `map:K|V`, `any`): components,
    entities, enum values, zones and steps travel by name (a string), lists as arrays, maps as
    objects keyed by the key's name."""
    t = checker_type
    if t in _JSON_OF:
        return ValueType(_JSON_OF[t], t, optional=optional)
    if t.startswith("list:"):
        item = value_type(t[5:])
        return ValueType("array", f"list<{item.written}>", item, optional)
    if t.startswith("map:"):
        key, _, val = t[4:].partition("|")
        item = value_type(val or "any")
        return ValueType("object", f"map<{value_type(key).written}, {item.written}>", item, optional)
    kind, _, name = t.partition(":")
    if kind in ("enum", "comp", "ent", "zone", "zones") and name:
        return ValueType("string", " | ".join(name.split("/")), optional=optional)
    return ValueType("any", "any", optional=optional)


def option_type(type_name: str, optional: bool, enums: Any = ()) -> ValueType:
    """The ValueType of an `option NAME: TYPE` (`int`, `bool`, `str` or an enum in `enums`,
    each optionally `?`)."""
    if type_name in _JSON_OF:
        return ValueType(_JSON_OF[type_name], type_name, optional=optional)
    if type_name in enums:
        return ValueType("string", type_name, optional=optional)
    return ValueType("any", type_name, optional=optional)


def sent(value: Any) -> str:
    """What a client sent, for an error message: JSON scalars as written (long text cut), an
    array or object by its type only."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (a boolean)"
    if isinstance(value, int):
        text = str(value) if abs(value) < 10**30 else "a very large integer"
        return f"{text} (an integer)"
    if isinstance(value, float):
        return f"{value!r} (a number with a fraction part)" if value == value else "NaN"
    if isinstance(value, str):
        shown = json.dumps(value[:40], ensure_ascii=True) + ("..." if len(value) > 40 else "")
        return f"{shown} (a string)"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _mismatch(value: Any, vt: ValueType) -> bool:
    if value is None:
        return not vt.optional
    j = vt.json
    cls = value.__class__
    if j == "integer":
        return cls is not int
    if j == "string":
        return cls is not str
    if j == "boolean":
        return cls is not bool
    if j == "array":
        return cls is not list and cls is not tuple
    if j == "object":
        return cls is not dict
    return cls is float  # "any": the rule language has no fractions


def type_error(value: Any, vt: ValueType, field: str) -> tuple[str, ValueType, Any] | None:
    """None when `value` is a JSON value of type `vt`, else the first mismatch: `(where, type
    expected there, value sent there)`, `where` naming an array's item or an object's value
    inside `field` (`field[2]`, `field['red']`). Iterative: `check_json` bounds the nesting."""
    stack = [(value, vt, field)]
    while stack:
        v, t, where = stack.pop()
        if _mismatch(v, t):
            return where, t, v
        inner = t if t.json == "any" else t.item
        if inner is not None and isinstance(v, (list, dict)):
            items = v.items() if isinstance(v, dict) else enumerate(v)
            stack.extend((x, inner, f"{where}[{k!r}]") for k, x in items)
    return None


def check_value(value: Any, vt: ValueType, field: str, code: str, *, context: str = "", **details: Any) -> Any:
    """`value` if it is of type `vt` (`type_error`), else raises InvalidRequest(`code`) naming
    `field` (after `context`, e.g. "move 'place': argument"), the type expected there
    (`expected`: its JSON type) and what was sent (`sent`: its JSON type), with `details`."""
    problem = type_error(value, vt, repr(field.rpartition(".")[2]) if context else field)
    if problem is not None:
        where, want, got = problem
        message = f"{where} must be {want.describe()}, not {sent(got)}"
        raise InvalidRequest(code, f"{context} {message}" if context else message,
                             reason=TYPE_RULE,
                             field=field, expected=want.json, sent=_json_type(got), **details)
    return value


def check_int(value: Any, field: str, code: str, *, optional: bool = False) -> Any:
    """`value` if it is an integer (or None when `optional`); a boolean or a fraction is refused
    with InvalidRequest(`code`), as `check_value` refuses it."""
    if value.__class__ is int or (optional and value is None):
        return value
    return check_value(value, ValueType("integer", "int", optional=optional), field, code)


def _json_type(value: Any) -> str:
    """The JSON type of a decoded value (`number` for a fraction)."""
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", tuple: "array",
            dict: "object", type(None): "null"}.get(type(value), type(value).__name__)


_MOVE_TYPES: dict[str, dict[str, dict[str, ValueType]]] = {}  # by ruleset content hash
_MOVE_TYPES_MAX = 256


def move_types(rs: Any) -> dict[str, dict[str, ValueType]]:
    """`{move: {argument: ValueType}}` of a compiled ruleset (`dsl.signatures`), worked out once
    per ruleset (by its content hash, so pinned copies of one text share it)."""
    found = _MOVE_TYPES.get(rs.content_hash)
    if found is None:
        from dsl.signatures import move_signatures

        found = {move: {arg: value_type(t) for arg, t in params} for move, params in move_signatures(rs).items()}
        if len(_MOVE_TYPES) >= _MOVE_TYPES_MAX:
            _MOVE_TYPES.clear()
        _MOVE_TYPES[rs.content_hash] = found
    return found


def check_move_args(rs: Any, name: str, args: dict[str, Any]) -> None:
    """Refuse a move whose arguments are not of the types the ruleset's move declares, with
    InvalidRequest (`bad_move`) naming the move, the argument, the type expected and what was
    sent. A move or argument the ruleset does not have is left to the rules to refuse."""
    params = move_types(rs).get(name)
    if params is None:
        return
    for arg, value in args.items():
        vt = params.get(arg)
        if vt is not None and type_error(value, vt, arg) is not None:
            check_value(value, vt, f"args.{arg}", "bad_move", context=f"move {name!r}: argument", move=name,
                        argument=arg)


def check_options(rs: Any, options: dict[str, Any]) -> None:
    """Refuse option values not of their declared types (`option NAME: TYPE`) with
    InvalidRequest (`bad_options`) naming the option, the type expected and what was sent.
    Unknown options are the caller's to refuse (they list the known ones)."""
    enums = {e.name for e in rs.enums}
    for decl in rs.options:
        if decl.name in options:
            vt = option_type(decl.type.name, decl.type.optional, enums)
            check_value(options[decl.name], vt, f"options.{decl.name}", "bad_options", context="option", option=decl.name)
