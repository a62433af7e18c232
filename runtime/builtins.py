"""Built-in functions of the rule language: `f(st, *args)` over run-time values.

Collections may be Python lists, maps (dicts, iterated by key) or zones (`ZoneRef`, whose
contents are read from the state). Reference: docs/language.md, "Built-in functions".
"""

from __future__ import annotations

from typing import Any

from runtime.builtins_search import SEARCH_FUNCS
from runtime.values import Comp, Ent, ZoneRef


def display(v: Any) -> str:
    """A value as text for messages: components and entities by name, seats as numbers."""
    if isinstance(v, (Comp, Ent)):
        return v.name
    if isinstance(v, ZoneRef):
        return v.key
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{display(k)}: {display(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(display(x) for x in v) + "]"
    return str(v)


_ABSENT = object()


def _size(st, x):
    return len(st.items(x))


def _min(st, xs, b=_ABSENT):
    if b is not _ABSENT:  # min(a, b), as Python's: b only when it is smaller
        return b if b < xs else xs
    items = xs if xs.__class__ is list else st.items(xs)
    if items.__class__ is not list:
        items = list(items)
    return min(items) if items else None


def _max(st, xs, b=_ABSENT):
    if b is not _ABSENT:  # max(a, b), as Python's: b only when it is larger
        return b if b > xs else xs
    items = xs if xs.__class__ is list else st.items(xs)
    if items.__class__ is not list:
        items = list(items)
    return max(items) if items else None


def _other(st, s):
    if st.nseats != 2:
        raise ValueError("other(seat) needs exactly two seats; use next(seat)")
    return 1 - s


def _first(st, n, xs):
    items = st.items(xs)
    if items.__class__ is not list:
        items = list(items)
    return items[: max(0, n)]


def _top(st, z):
    items = st.items(z)
    return items[0] if items else None


def _bottom(st, z):
    items = st.items(z)
    return items[-1] if items else None


def bundles(st, avail: dict, n: int) -> list[dict]:
    """Every way to take `n` units from the counts in `avail` ({key: count}), as {key: taken}
    maps without zero entries, in a stable order. `bundles({a: 2, b: 1}, 2)` is
    `[{a: 2}, {a: 1, b: 1}]`; `n == 0` gives `[{}]`; not enough units gives `[]`."""
    if n == 0:
        return [{}]
    if not avail:
        return []
    try:
        key: tuple | None = (tuple(avail.items()), n)
        shapes = _BUNDLES.get(key)  # type: ignore[arg-type]
    except TypeError:  # unhashable keys or counts
        key, shapes = None, None
    if shapes is None:
        shapes = _bundle_shapes(avail, n)
        if key is not None:
            if len(_BUNDLES) >= 4096:
                _BUNDLES.clear()
            _BUNDLES[key] = shapes
    return [dict(s) for s in shapes]  # new dicts each time: a rule may keep and change one


# (avail items, n) -> the bundles as tuples of (key, taken): a claim lists the same few often
_BUNDLES: dict[tuple, tuple[tuple, ...]] = {}


def _bundle_shapes(avail: dict, n: int) -> tuple[tuple, ...]:
    keys = [k for k in avail if avail[k] > 0]
    out: list[dict] = []

    def rec(i: int, left: int, acc: dict) -> None:
        if left == 0:
            out.append(dict(acc))
            return
        if i == len(keys):
            return
        k = keys[i]
        for take in range(min(avail[k], left), -1, -1):
            if take:
                acc[k] = take
            rec(i + 1, left - take, acc)
            acc.pop(k, None)

    rec(0, n, {})
    return tuple(tuple(b.items()) for b in out)


def tally(st, xs, field: str, keys=None) -> dict:
    """How many components of `xs` (a list or zone) have each value of their `field`:
    `{value: count}`, in first-seen order after every element of `keys`, which appear (with 0)
    even when no component has them. One pass, where `{k: count(xs where .field == k) for k in
    keys}` makes one per key. Raises KeyError when a component lacks the field."""
    out = {} if keys is None else dict.fromkeys(st.items(keys), 0)
    for c in st.items(xs):
        k = c.d[field]
        out[k] = out.get(k, 0) + 1
    return out


def _argbest(st, m, pick):
    if isinstance(m, dict):
        if not m:
            return None
        best = pick(m.values())
        winners = [k for k, v in m.items() if v == best]
        return winners[0] if len(winners) == 1 else None
    items = list(st.items(m))
    if not items:
        return None
    best = pick(items)
    winners = [i for i, v in enumerate(items) if v == best]
    return winners[0] if len(winners) == 1 else None


def _distinct(st, xs):
    items = xs if xs.__class__ is list else st.items(xs)
    if len(items) > 8 if items.__class__ is list else True:
        if items.__class__ is not list:
            items = list(items)
        try:
            return list(dict.fromkeys(items))  # first-seen order; components hash by identity
        except TypeError:  # unhashable elements (lists, maps): compared one by one below
            pass
    out = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


FUNCS: dict[str, Any] = {
    "size": _size,
    "count": _size,
    "len": _size,
    "sum": lambda st, xs: sum(st.items(xs)),
    "min": _min,
    "max": _max,
    "any": lambda st, xs: any(st.items(xs)),
    "all": lambda st, xs: all(st.items(xs)),
    "other": _other,
    "next": lambda st, s: (s + 1) % st.nseats,
    "first": _first,
    "top": _top,
    "bottom": _bottom,
    "abs": lambda st, x: abs(x),
    "bundles": bundles,
    "tally": tally,
    "sorted": lambda st, xs: sorted(st.items(xs)),
    "argmax": lambda st, m: _argbest(st, m, max),
    "argmin": lambda st, m: _argbest(st, m, min),
    "keys": lambda st, m: list(m.keys()),
    "values": lambda st, m: list(m.values()),
    "empty": lambda st, xs: len(st.items(xs)) == 0,
    "marks": lambda st, c: list(st.marks.get(c.id, ())),
    "has_mark": lambda st, c, m: m in st.marks.get(c.id, ()),
    "position": lambda st, c: st.position(c),
    "distinct": _distinct,
    "list": lambda st, xs: list(st.items(xs)),
    "owner": lambda st, z: z.owner,
    "str": lambda st, x: display(x),
    "remaining": lambda st, z: len(st.items(z)),
    "completions": SEARCH_FUNCS["completions"],
    "any_completion": SEARCH_FUNCS["any_completion"],
    "best_completion": SEARCH_FUNCS["best_completion"],
    "expand": SEARCH_FUNCS["expand"],
    "group_values": SEARCH_FUNCS["group_values"],
    "top_run": SEARCH_FUNCS["top_run"],
    "best_combination": SEARCH_FUNCS["best_combination"],
}
