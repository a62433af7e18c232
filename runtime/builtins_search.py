"""Search built-ins: quantifiers over the ways a partial collection can be completed, and over
the alternatives each element may stand for.

    completions(partial, pool, size)              lazy: every `partial + c`, c a size-(size-|partial|) combination of pool
    any_completion(partial, pool, size, pred, viable, args)   is some completion accepted by `pred`?
    best_completion(partial, pool, size, key, bound, args)    the largest `key` of any completion (or none)
    expand(items, alternatives, args)             lazy: every choice of one alternative per item (cartesian product)
    group_values(items, key, value, keys)         {k: the `value` fields of the items whose `key` field is k, highest first}
    top_run(values, n, required, wild)            the top of the highest run of n consecutive integers (or none), wild slots filling gaps

`pred`, `viable`, `key`, `bound` and `alternatives` name functions of the ruleset (as text, e.g.
`"beats"`); each is called with the candidate list first, then the elements of `args`:
`pred(items, *args) -> bool`, `key(items, *args) -> int`, `viable(items, missing, *args) -> bool`
(false: no completion that adds `missing` more elements can satisfy `pred`), `bound(items,
missing, *args) -> int` (an upper bound of `key` over those completions), `alternatives(item)
-> list`. `viable` and `bound` let the search prune whole subtrees (branch and bound) instead of
enumerating every combination; they must never be too pessimistic, or answers are wrong.

`group_values` and `top_run` are for the other way of answering such a quantifier: directly,
by the strongest completion of each kind (a run, a set of one value, a group of one key), as a
hand-written proof does; they do in one pass over a pool what would otherwise be a loop per
key or per candidate run in the rule language.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any


def ruleset_fn(st: Any, name: Any, arity: int | None = None) -> Callable[..., Any]:
    """The ruleset function called `name` as a Python callable `f(*args)` (evaluated in `st`).

    Raises ValueError when there is no such function (procedures are not functions) or when
    `arity` is given and differs from its parameter count."""
    callables = getattr(st, "callables", None) or {}
    c = callables.get(name) if isinstance(name, str) else None
    if c is None or c.is_proc:
        raise ValueError(f"there is no function '{name}' in this ruleset")
    if arity is not None and c.nparams != arity:
        raise ValueError(f"function '{name}' takes {c.nparams} argument(s), the search passes {arity}")
    py = getattr(c, "py", None)
    if py is not None:  # the generated function (runtime.codegen)
        return lambda *args: py(st, *args)
    body, nslots = c.body, max(c.nslots, 1)

    def call(*args: Any) -> Any:
        env = [None] * nslots
        env[: len(args)] = args
        return body(st, env)

    return call


def _args(st: Any, args: Any) -> list[Any]:
    return [] if args is None else list(st.items(args))


def completions(st: Any, partial: Any, pool: Any, size: int) -> Iterator[list[Any]]:
    """Every completion of `partial` to `size` elements with elements of `pool` (each pool
    element used at most once, combinations in pool order), as new lists; lazy, so
    `all(... for c in completions(...))` stops at the first counterexample. Nothing when
    `partial` is already larger than `size` or the pool is too small."""
    base = list(st.items(partial))
    items = list(st.items(pool))
    need = size - len(base)
    if need < 0:
        return iter(())
    return (base + list(combo) for combo in itertools.combinations(items, need))


def any_completion(st: Any, partial: Any, pool: Any, size: int, pred: str, viable: str | None = None,
                   args: Any = None) -> bool:
    """Whether some completion (see `completions`) satisfies `pred`. Depth first over the pool;
    a branch whose chosen elements `viable` rejects is not explored further."""
    extra = _args(st, args)
    p = ruleset_fn(st, pred, 1 + len(extra))
    v = ruleset_fn(st, viable, 2 + len(extra)) if viable is not None else None
    cards = list(st.items(partial))
    items = list(st.items(pool))
    need = size - len(cards)
    if need < 0 or need > len(items):
        return False
    if need == 0:
        return bool(p(list(cards), *extra))
    if v is not None and not v(list(cards), need, *extra):
        return False

    def rec(start: int, need: int) -> bool:
        for i in range(start, len(items) - need + 1):
            cards.append(items[i])
            if need == 1:
                ok = bool(p(list(cards), *extra))
            else:
                ok = (v is None or bool(v(list(cards), need - 1, *extra))) and rec(i + 1, need - 1)
            cards.pop()
            if ok:
                return True
        return False

    return rec(0, need)


def best_completion(st: Any, partial: Any, pool: Any, size: int, key: str, bound: str | None = None,
                    args: Any = None) -> Any:
    """The largest `key` over all completions, or none when there is no completion. A branch
    whose `bound` is not above the best key found so far is skipped (branch and bound)."""
    extra = _args(st, args)
    k = ruleset_fn(st, key, 1 + len(extra))
    b = ruleset_fn(st, bound, 2 + len(extra)) if bound is not None else None
    cards = list(st.items(partial))
    items = list(st.items(pool))
    need = size - len(cards)
    if need < 0 or need > len(items):
        return None
    if need == 0:
        return k(list(cards), *extra)
    best: list[Any] = [None]

    def rec(start: int, need: int) -> None:
        for i in range(start, len(items) - need + 1):
            cards.append(items[i])
            if need == 1:
                val = k(list(cards), *extra)
                if val is not None and (best[0] is None or val > best[0]):
                    best[0] = val
            elif b is None or best[0] is None or b(list(cards), need - 1, *extra) > best[0]:
                rec(i + 1, need - 1)
            cards.pop()

    rec(0, need)
    return best[0]


def expand(st: Any, items: Any, alternatives: str, args: Any = None) -> Iterator[list[Any]]:
    """Every way to replace each element of `items` by one of `alternatives(element, *args)`,
    as new lists, lazily (the cartesian product, first element varying slowest). An element
    with no alternatives yields nothing."""
    extra = _args(st, args)
    alt = ruleset_fn(st, alternatives, 1 + len(extra))
    choices = [list(st.items(alt(x, *extra))) for x in st.items(items)]
    return (list(combo) for combo in itertools.product(*choices))


def group_values(st: Any, items: Any, key: str, value: str, keys: Any = None) -> dict[Any, list[Any]]:
    """The `value` field of the components in `items`, grouped by their `key` field, each group
    highest first: `{k: [v, ...]}` (a map whose keys are the `key` values present, in
    first-seen order, after every element of `keys`, which appear even when no item has them).
    One pass over `items` (a list or zone of components with both fields); raises KeyError
    when a component lacks one. The same map as
    `{k: sorted-descending([c.value for c in items if c.key == k]) for k in keys}`."""
    out: dict[Any, list[Any]] = {} if keys is None else {k: [] for k in st.items(keys)}
    items = st.items(items)
    try:
        for c in items:
            d = c.d
            out[d[key]].append(d[value])
    except KeyError:  # a key not in `keys` (or a missing field, raised again below): group one by one
        out = {} if keys is None else {k: [] for k in st.items(keys)}
        for c in items:
            d = c.d
            out.setdefault(d[key], []).append(d[value])
    for group in out.values():
        group.sort(reverse=True)
    return out


def top_run(st: Any, values: Any, n: int, required: Any = None, wild: Any = None) -> int | None:
    """The largest t such that the n consecutive integers t-n+1 .. t can be made of every
    element of `required` (each one of them), one value chosen from each list in `wild` (each
    wild slot takes one value of its own list, distinct from the others and from `required`),
    and the rest from `values` (a straight, a run, a sequence, with wild cards); none when
    there is no such run (n < 1 included), or when `required` repeats a value. `values` need
    not be sorted or distinct; a wild slot with an empty list makes no run.

    Without `wild`: the integers present are the bits of a mask m; the tops of runs are the
    bits of m & m<<1 & ... & m<<(n-1), and `required` keeps those from max(required) to
    min(required) + n - 1. With `wild`: each candidate top, highest first, until the values
    the run misses can be given to distinct wild slots (a matching over at most n bits)."""
    allv = values if values.__class__ is list else st.items(values)
    req = () if required is None else required if required.__class__ is list else st.items(required)
    if wild is not None and (wild.__class__ is not list or wild):
        slots = [list(st.items(w)) for w in st.items(wild)]
        if slots:
            return _top_run_wild(list(allv), n, list(req), slots)
    if n < 1 or len(req) > 1 and len(set(req)) != len(req):
        return None
    base, mask = 0, 0
    try:
        for v in set(allv) if len(allv) > 10 else allv:  # the usual case: small values, bits from a table (a long pool: each distinct value once)
            mask |= _BITS[v]
        for v in req:
            mask |= _BITS[v]
    except (KeyError, TypeError):  # values below 0 or above 63 (TypeError: unhashable, raised again below)
        allv = [*allv, *req]
        base, mask = min(allv), 0
        for v in allv:
            mask |= 1 << (v - base)
    if not mask:
        return None
    tops = mask
    for k in range(1, n):
        tops &= mask << k
    if req:
        lo, hi = max(req) - base, min(req) + n - 1 - base
        tops = tops & ((1 << (hi + 1)) - 1) >> lo << lo if hi >= lo else 0
    return tops.bit_length() - 1 + base if tops else None


_BITS = {v: 1 << v for v in range(64)}


def _top_run_wild(values: list[int], n: int, req: list[int], slots: list[list[int]]) -> int | None:
    """`top_run` with wild slots (at least one): see there."""
    k = len(slots)
    if n < 1 or len(set(req)) != len(req) or len(req) + k > n or not all(slots):
        return None
    base = 0
    try:  # the usual case: small values, bits from a table
        vmask = rmask = 0
        for v in set(values) if len(values) > 10 else values:  # a long pool: each distinct value once
            vmask |= _BITS[v]
        for v in req:
            rmask |= _BITS[v]
        wmasks = []
        for sl in slots:
            m = 0
            for v in sl:
                m |= _BITS[v]
            wmasks.append(m)
    except (KeyError, TypeError):  # values below 0 or above 63: bits counted from the lowest
        base = min(values + req + [v for sl in slots for v in sl])
        vmask = rmask = 0
        for v in values:
            vmask |= 1 << (v - base)
        for v in req:
            rmask |= 1 << (v - base)
        wmasks = []
        for sl in slots:
            m = 0
            for v in sl:
                m |= 1 << (v - base)
            wmasks.append(m)
    covered = vmask | rmask
    for m in wmasks:
        covered |= m
    tops = covered  # the tops of the runs every value of which something can fill
    for j in range(1, n):
        tops &= covered << j
    if req:  # runs holding every required value
        lo, hi = max(req) - base, min(req) + n - 1 - base
        tops = tops & ((1 << (hi + 1)) - 1) >> lo << lo if hi >= lo else 0
    full = (1 << n) - 1
    while tops:  # highest first
        t = tops.bit_length() - 1
        open_ = (full << (t - n + 1)) & ~rmask  # the values the wild slots and `values` fill
        missing = open_ & ~vmask  # those only a wild slot can fill
        if missing.bit_count() <= k and _assign(wmasks, 0, open_, missing):
            return t + base
        tops ^= 1 << t
    return None


def _assign(wmasks: list[int], i: int, free: int, missing: int) -> bool:
    """Whether wild slots i.. can take distinct bits of `free` (each within its own mask) so
    that every bit of `missing` is taken."""
    if missing.bit_count() > len(wmasks) - i:
        return False
    if i == len(wmasks):
        return True
    choices = wmasks[i] & free
    while choices:
        b = choices & -choices
        choices ^= b
        if _assign(wmasks, i + 1, free & ~b, missing & ~b):
            return True
    return False


SEARCH_FUNCS: dict[str, Any] = {
    "completions": completions,
    "any_completion": any_completion,
    "best_completion": best_completion,
    "expand": expand,
    "group_values": group_values,
    "top_run": top_run,
}
