"""Search built-ins: quantifiers over the ways a partial collection can be completed, and over
the alternatives each element may stand for.

    completions(partial, pool, size)              lazy: every `partial + c`, c a size-(size-|partial|) combination of pool
    any_completion(partial, pool, size, pred, viable, args)   is some completion accepted by `pred`?
    best_completion(partial, pool, size, key, bound, args)    the largest `key` of any completion (or none)
    expand(items, alternatives, args)             lazy: every choice of one alternative per item (cartesian product)
    group_values(items, key, value, keys)         {k: the `value` fields of the items whose `key` field is k, highest first}
    top_run(values, n, required, wild)            the top of the highest run of n consecutive integers (or none), wild slots filling gaps
    best_combination(held, wild, pool, size, suit, rank, kinds, above)   the score of the strongest set of cards (or none)

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
key or per candidate run in the rule language. `best_combination` answers the whole of such a
quantifier over sets of cards (a suit and a rank each) scored by kind: per kind from bitmasks of
the pool's ranks, a pool of zones summarised once per zone contents (and changed by the cards
that leave or join it, not read again).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from functools import reduce
from operator import or_
from typing import Any

from runtime.values import ZoneRef


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
    if n < 1 or len(set(req)) != len(req) or len(req) + len(slots) > n or not all(slots):
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
    t = _run_top(vmask, rmask, wmasks, n, 0)
    return None if t is None else t + base


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


# ---- best_combination: the strongest set of cards made of held cards, wild slots and a pool ----

KINDS = ("suited_run", "same_rank", "suited", "run", "any")


def _suits_ranks(cards: Any, suit: str, rank: str) -> Iterator[tuple[Any, Any]]:
    """(suit, rank) of each of `cards` that has both attributes, in order (the others are no
    cards of a pool: `_summary` leaves them out)."""
    for c in cards:
        d = c.d
        if suit in d and rank in d:
            yield d[suit], d[rank]


class _Pool:
    """What `best_combination` reads of a pool of cards: `groups` {suit: [ranks]} (in pool
    order; sorted, highest first, per suit on first use), `masks` {suit: bitmask of the ranks
    of that suit (bit r for rank r)}, `total` (cards), and, on first use, the ranks of any suit
    (`union`) and, when a suit holds a rank twice, the counts of the ranks. `best` holds what is
    known of the strongest set for given held cards, wild slots, size and kinds: (its score,
    True, and the pool's cards it may be made of: those of one suit (or of any, none) whose
    ranks are bits of a mask), or (a score it does not exceed, False, None, 0), each followed by
    the `gen` of the last pool it was asked in (answers not asked for in a few pools are
    dropped), when the pool is `kept` (in `_POOLS`)."""

    __slots__ = ("groups", "masks", "total", "best", "gen", "kept", "_dups", "_desc", "_sorted", "_union")

    def __init__(self, groups: dict[Any, list[int]], kept: bool = False):
        self.groups, self.kept = groups, kept
        masks: dict[Any, int] = {}
        total = distinct = 0
        bits = _BITS.__getitem__
        try:
            for s, g in groups.items():
                m = masks[s] = reduce(or_, map(bits, g), 0)  # the usual case: small ranks, bits from a table
                total += len(g)
                distinct += m.bit_count()
        except (KeyError, TypeError):  # ranks of 64 or more (or no ints, raised below)
            masks, total, distinct = {}, 0, 0
            for s, g in groups.items():
                m = 0
                for r in g:
                    if r.__class__ is not int or r < 0:
                        raise ValueError(f"a rank is an int, 0 or more, not {r!r}") from None
                    m |= 1 << r
                masks[s] = m
                total += len(g)
                distinct += m.bit_count()
        self.masks, self.total = masks, total
        self._dups = total != distinct  # a rank twice in a suit
        self.best: dict[tuple[Any, ...], tuple[int | None, bool, Any, int, int]] = {}
        self.gen = 0  # how many changes made this pool from one summarised afresh
        self._desc: list[tuple[int, int]] | None = None
        self._sorted: set[Any] = set()
        self._union = -1

    def _counts(self) -> dict[int, int]:
        """{rank: cards of that rank}, when some suit has a rank twice (else the masks tell)."""
        desc = self._desc
        if desc is None:
            desc = self._desc = sorted(Counter(itertools.chain.from_iterable(self.groups.values())).items(), reverse=True)
        return dict(desc)

    def count(self, r: int) -> int:
        """How many cards have rank r."""
        if self._dups:
            return self._counts().get(r, 0)
        bit = 1 << r
        return sum(1 for m in self.masks.values() if m & bit)

    def ranks(self) -> list[int]:
        """The ranks present, highest first."""
        u = self.union()
        return [r for r in range(u.bit_length() - 1, -1, -1) if u >> r & 1]

    def union(self) -> int:
        """The bitmask of the ranks present in any suit."""
        if self._union < 0:
            u = 0
            for m in self.masks.values():
                u |= m
            self._union = u
        return self._union

    def top(self, m: int) -> tuple[int, int]:
        """The sum of the m highest ranks (the pool holds at least m cards, m >= 1), and the
        lowest of them."""
        total = r = 0
        u = self.union()
        while m > 0 and u:
            r = u.bit_length() - 1
            c = self.count(r)
            total += (c if c < m else m) * r
            m -= c
            u ^= 1 << r
        return total, r

    def suit_top(self, suit: Any, m: int) -> tuple[int, int] | None:
        """The sum of the m highest ranks of one suit (m >= 1) and the lowest of them; none when
        it has fewer than m cards."""
        ranks = self.groups.get(suit, [])
        if suit not in self._sorted:
            ranks.sort(reverse=True)
            self._sorted.add(suit)
        return (sum(ranks[:m]), ranks[m - 1]) if len(ranks) >= m else None

    def changed(self, removed: set[Any], added: set[Any], suit: str, rank: str) -> _Pool | None:
        """The pool of this one's cards less the components `removed` (each of them summarised
        here) and with those of `added`: itself when no card is among them, else a new pool
        that shares the groups of the suits left alone. When cards only left, what `best` knows
        carries over: a strongest set none of whose cards left is still the strongest (fewer
        cards make none stronger), and any other score is still one no set exceeds. None when
        a card cannot be read as one (`_summary` says why)."""
        groups = self.groups
        was_sorted = self._sorted.copy()  # (before any group is copied: a thread may sort one meanwhile)
        touched: dict[Any, list[int]] = {}
        gone_by: dict[Any, int] = {}  # the ranks of the cards removed, by suit (bit r for rank r)
        came_by: dict[Any, int] = {}  # the same of the cards added
        gone = 0  # the ranks of the cards removed, of any suit
        total = self.total
        try:
            for s, r in _suits_ranks(removed, suit, rank):
                g = touched.get(s)
                if g is None:
                    g = touched[s] = groups[s][:]
                g.remove(r)
                total -= 1
                b = 1 << r
                gone |= b
                gone_by[s] = gone_by.get(s, 0) | b
            for s, r in _suits_ranks(added, suit, rank):
                g = touched.get(s)
                if g is None:
                    g = touched[s] = groups[s][:] if s in groups else []
                g.append(r)
                total += 1
                came_by[s] = came_by.get(s, 0) | _BITS[r]  # (KeyError: a rank `_Pool` reads the long way)
        except (KeyError, ValueError, TypeError):  # a rank that is no small int, an unhashable suit, ...
            return None
        if not touched:
            return self
        masks = self.masks.copy()
        dups = self._dups
        new_groups = {**groups, **touched}
        for s, g in touched.items():
            if not g:
                del masks[s], new_groups[s]
            elif dups:  # some suit holds a rank twice: a rank's bit stays while a card of it does
                m = 0
                for r in g:
                    m |= 1 << r
                masks[s] = m
            elif came_by:
                m = masks.get(s, 0) & ~gone_by.get(s, 0) | came_by.get(s, 0)
                dups = len(g) != m.bit_count()
                masks[s] = m
            else:  # each rank removed was there once
                masks[s] &= ~gone_by[s]
        new = _Pool.__new__(_Pool)
        new.groups, new.masks, new.total, new.kept, new._dups = new_groups, masks, total, True, dups
        new.gen = self.gen + 1
        new._desc = None
        new._union = -1
        if came_by:
            new.best = {}
            new._sorted = was_sorted - came_by.keys()
            return new
        new._sorted = was_sorted  # a group that only lost cards is still sorted
        lim = self.gen - _CARRIED_AGE
        best = new.best = {}
        for k, e in list(self.best.items()):
            if e[4] >= lim:
                if e[1] and e[3] & (gone if e[2] is None else gone_by.get(e[2], 0)):  # a card of it left
                    e = (e[0], False, None, 0, e[4])
                best[k] = e
        return new


def _summary(lists: Any, suit: str, rank: str) -> _Pool:
    """The `_Pool` of the components of some lists; those without both fields are left out."""
    groups: defaultdict[Any, list[int]] = defaultdict(list)
    for cards in lists:
        for c in cards:
            d = c.d
            try:
                groups[d[suit]].append(d[rank])
            except KeyError:  # no card (a suit without a rank leaves an empty group: no card either)
                continue
    return _Pool(dict(groups))


# Pools by the identity (and length) of the zone lists summarised. Zone lists are never changed
# in place once a game runs (copy-on-write, runtime.state.move_items; setup only appends, which
# the length tells), so zones that have not changed since the last question are not read again,
# in this state or in a clone. The cache holds the lists it keys, so their ids are not reused
# while it does; it is small, as a game's zones soon change for good (a pool of zones that
# changed is made from the last one, `_derived`). With each pool, the set of the components in
# its zones (none when one is there twice).
_POOLS: dict[tuple[Any, ...], tuple[Any, _Pool, set[Any] | None]] = {}
_POOLS_MAX = 16
_EMPTY_POOL = _Pool({})


def _pool(st: Any, pool: Any, suit: str, rank: str) -> _Pool:
    """The `_Pool` of a zone, a list of zones (their cards together) or a list of components
    (summarised afresh: a list value, unlike a zone, may be changed in place)."""
    if pool.__class__ is ZoneRef:
        pool = [pool]
    elif pool.__class__ is not list:
        pool = list(st.items(pool))
    if not pool:
        return _EMPTY_POOL
    if pool[0].__class__ is not ZoneRef:
        return _summary([pool], suit, rank)
    zones = st.zones  # (the same zones as last time, unchanged, are found by best_combination)
    try:
        lists = [zones[x.idx] for x in pool]
    except AttributeError:
        raise TypeError("a pool is a zone, a list of zones or a list of components, not a mix") from None
    key = (suit, rank, *map(id, lists), *map(len, lists))
    hit = _POOLS.get(key)
    if hit is not None:
        p, comps = hit[1], hit[2]
    else:
        if len(_POOLS) >= _POOLS_MAX:
            _POOLS.clear()
        p, comps = _derived(_LAST_POOL[0], lists, suit, rank)
        if p is None:
            p = _summary(lists, suit, rank)
            p.kept = True
        _POOLS[key] = (lists, p, comps)
    _LAST_POOL[0] = (comps, suit, rank, [(x, len(x)) for x in lists], p)
    return p


def _derived(last: tuple[Any, ...], lists: list[list[Any]], suit: str, rank: str) -> tuple[_Pool | None, set[Any] | None]:
    """The components in `lists` (a set; none when one is there twice), and their pool made
    from the last one `_pool` gave (`last`, as in `_LAST_POOL`) when the two differ by a few
    components: as play goes, a card or two leave or join the zones between two questions, or
    move from one of them to another, which changes nothing. No pool when it is not so (another
    pool, many changes): then the zones are summarised afresh."""
    try:
        comps = set(lists[0])
        for x in lists[1:]:
            comps.update(x)
    except TypeError:  # (no component: `_summary` says what)
        return None, None
    if len(comps) != sum(map(len, lists)):
        return None, None
    was, s0, r0, _, parent = last
    if was is None or s0 != suit or r0 != rank:
        return None, comps
    removed = was - comps  # (components are compared by identity)
    if len(removed) > _DIFF_MAX:  # (another game's zones, say)
        return None, comps
    added = comps - was
    if not removed and not added:
        return parent, comps
    if len(removed) + len(added) > _DIFF_MAX:
        return None, comps
    return parent.changed(removed, added, suit, rank), comps


_DIFF_MAX = 8  # components removed and added, at most, for a pool to be changed rather than made afresh
# a changed pool takes over the answers last asked for (or found) in its parent or the two pools
# before it (pools that follow one another in a game ask much the same questions, a player's
# every other turn; an answer not asked for since is likely about sets no longer asked about)
_CARRIED_AGE = 2


# (the set of the components in them, suit, rank, the lists and lengths of the zones `_pool` was
# given last, their pool): what the next pool is made from when the zones change (`_derived`)
_NO_POOL: tuple[Any, ...] = (None, None, None, [], None)
_LAST_POOL: list[tuple[Any, ...]] = [_NO_POOL]


def _run_top(vmask: int, rmask: int, wmasks: list[int], n: int, low: int) -> int | None:
    """The largest t >= low such that the ranks t-n+1 .. t are every bit of `rmask`, one bit of
    each of `wmasks` (distinct) and bits of `vmask` for the rest; none when there is none."""
    covered = vmask | rmask
    for m in wmasks:
        covered |= m
    tops = covered
    for j in range(1, n):
        tops &= covered << j
    if low > 0:
        tops = tops >> low << low
    if rmask:  # runs holding every required rank
        lo, hi = rmask.bit_length() - 1, (rmask & -rmask).bit_length() - 2 + n
        tops = tops & ((1 << (hi + 1)) - 1) >> lo << lo if hi >= lo else 0
    if not wmasks:
        return tops.bit_length() - 1 if tops else None
    k = len(wmasks)
    full = (1 << n) - 1
    while tops:  # highest first
        t = tops.bit_length() - 1
        open_ = (full << (t - n + 1)) & ~rmask  # the ranks the wild slots and the pool fill
        missing = open_ & ~vmask  # those only a wild slot can fill
        if missing.bit_count() <= k and _assign(wmasks, 0, open_, missing):
            return t
        tops ^= 1 << t
    return None


def best_combination(st: Any, held: Any, wild: Any, pool: Any, size: int, suit: str, rank: str, kinds: Any,
                     above: int | None = None) -> int | None:
    """The score of the strongest set of `size` cards made of every component of `held`, one
    card for each list of `wild` (a wild slot: a card of any suit whose rank is one of its list)
    and `size - size(held) - size(wild)` components of `pool`, when it is above `above` (none
    when no such set scores more than `above`, or when none can be made at all).

    A card is a component with a `suit` field (any hashable value) and a `rank` field (an int,
    0 or more); components of `pool` without both are not cards and are left out (a zone that
    holds other things too). `pool`: a zone, a list of zones (their cards together) or a list
    of components. `kinds`: a map {kind: base} of the kinds of sets that score, among
    "suited_run" (one suit, consecutive ranks), "same_rank" (one rank), "suited" (one suit),
    "run" (consecutive ranks) and "any" (every set); a set scores the largest base + the sum of
    its ranks over the kinds it is (with {"suited_run": 500, "suited": 300}, ranks 1-2-3 of one
    suit score 506). Wild slots take distinct ranks in a run, and any suit; `held` must hold
    distinct ranks for a run, one rank for "same_rank".

    Answered directly, with no enumeration: per kind, the strongest set of that kind (runs and
    suits from bitmasks of the pool's ranks, highest first), skipping a kind whose base plus
    the largest sum any set could have is not above the best found. A pool of zones is
    summarised once per zone contents (`_POOLS`; when the zones change by a few cards, the
    summary changes by them, `_derived`), and what an answer tells of the strongest set for
    given held cards, wild slots, size and kinds (its score, or that none is above `above`) is
    kept with it, so that the same question, or one with another `above` that this settles,
    only compares; when cards leave the pool, a strongest set none of whose cards left is still
    the strongest, and any other score known is still one no set exceeds. Raises ValueError
    for an unknown kind or a rank that is no int of 0 or more, KeyError when a card of `held`
    lacks a field, TypeError for a pool mixing zones and components."""
    held = held if held.__class__ is list else st.items(held)
    slots = wild if wild.__class__ is list else st.items(wild)
    cards = tuple([(c.d[suit], c.d[rank]) for c in held]) if held else ()
    wilds = tuple([tuple(w) if w.__class__ is list else tuple(st.items(w)) for w in slots]) if slots else ()
    last = _KINDS_SEEN.get(id(kinds))
    if last is None or last[1] != kinds:  # a map of the rules is the same object at every call
        items = tuple(kinds.items() if kinds.__class__ is dict else kinds)
        if len(_KINDS_SEEN) >= _POOLS_MAX:
            _KINDS_SEEN.clear()
        if items not in _KIND_TOKENS and len(_KIND_TOKENS) >= _POOLS_MAX:  # forget the numbers: so do the pools
            _KIND_TOKENS.clear()
            _KINDS_SEEN.clear()
            _POOLS.clear()
            _LAST_POOL[0] = _NO_POOL
        for kind, _base in items:
            if kind not in KINDS:
                raise ValueError(f"unknown kind of set '{kind}' (one of {', '.join(KINDS)})")
        last = _KINDS_SEEN[id(kinds)] = (kinds, dict(items), _KIND_TOKENS.setdefault(items, next(_KIND_NUMBERS)), items)
    key = (last[2], size, cards, wilds)
    lp = _LAST_POOL[0]  # after the kinds (their numbers may have started again); one read: a thread may replace it
    p = lp[4]
    if pool.__class__ is list and suit == lp[1] and rank == lp[2] and len(pool) == len(lp[3]):
        zones = st.zones  # the same zones, unchanged, as last time? (`_pool`, inlined for the usual case)
        for x, (lst, n) in zip(pool, lp[3]):
            if x.__class__ is not ZoneRef or zones[x.idx] is not lst or len(lst) != n:
                p = _pool(st, pool, suit, rank)
                break
    else:
        p = _pool(st, pool, suit, rank)
    if not p.kept:  # a pool asked about once: nothing to keep
        return _strongest(p, cards, wilds, size, last[3], above)[0]
    memo = p.best
    known = memo.get(key)
    if known is not None:
        value, exact = known[0], known[1]
        if known[4] != p.gen:  # asked for again: keep it for the pools that follow
            memo[key] = (*known[:4], p.gen)
        if exact:  # the strongest set's score (none: no set can be made)
            return value if value is not None and (above is None or value > above) else None
        if above is not None and value is not None and above >= value:  # no set scores more than `value`
            return None
    best, wsuit, wmask = _strongest(p, cards, wilds, size, last[3], above)
    memo[key] = (best, True, wsuit, wmask, p.gen) if best is not None or above is None else (above, False, None, 0, p.gen)
    return best


# the kinds maps seen: a number for each (a key of `_Pool.best`) by their items, and by the map's
# id (the map itself, which keeps the id from being reused, a copy of it, its number, its items)
_KIND_TOKENS: dict[tuple[Any, ...], int] = {}
# numbers are never given twice, even after `_KIND_TOKENS` is forgotten: a thread still asking
# about an older kinds map cannot store its answer under a number a newer map now has
_KIND_NUMBERS = itertools.count()
_KINDS_SEEN: dict[int, tuple[Any, dict[Any, int], int, tuple[tuple[str, int], ...]]] = {}


def _strongest(p: _Pool, cards: tuple[tuple[Any, int], ...], wilds: tuple[tuple[int, ...], ...], size: int,
               kinds: tuple[tuple[str, int], ...], above: int | None) -> tuple[int | None, Any, int]:
    """`best_combination` of a summarised pool: the strongest set's score when it is above
    `above` (then it is the strongest of all), else none; and the pool's cards that set may be
    made of, as a suit (none: any suit) and a mask of ranks (bit r: rank r; 0 when it takes no
    card of the pool)."""
    m = size - len(cards) - len(wilds)
    if m < 0 or p.total < m or not all(wilds):
        return None, None, 0
    hsum = hmask = 0
    suits = set()
    ranks = []
    for s, r in cards:
        suits.add(s)
        ranks.append(r)
        hsum += r
        hmask |= 1 << r
    wmasks = []
    for w in wilds:
        mask = 0
        for r in w:
            mask |= 1 << r
        wmasks.append(mask)
        hsum += max(w)
    # no set of any kind sums more than the held cards, each wild slot's highest rank and m
    # cards of the pool's highest rank
    most = hsum + m * (p.union().bit_length() - 1) if m else hsum
    best, found = above, None
    wsuit, wmask = None, 0  # where the pool's cards of the best set found are (see above)
    distinct = hmask.bit_count() == len(ranks)
    one_suit = len(suits) <= 1
    for kind, base in kinds:
        if best is not None and base + most <= best:
            continue
        need = None if best is None else best - base  # the sum to beat
        got = gsuit = None
        gmask = 0
        if kind == "suited_run" or kind == "run":
            if not distinct or (kind == "suited_run" and not one_suit):
                continue
            low = 0 if need is None else (need + size * (size - 1) // 2) // size + 1
            if kind == "run":
                t = _run_top(p.union() if m else 0, hmask, wmasks, size, low)
            else:
                t = None
                for s in (suits if suits else p.masks if m else (None,)):  # wild slots alone: any one suit
                    u = _run_top(p.masks.get(s, 0) if m else 0, hmask, wmasks, size, low)
                    if u is not None:
                        t = low = u
                        low += 1
                        gsuit = s
            if t is not None:
                got = size * t - size * (size - 1) // 2
                gmask = ((1 << size) - 1) << (t - size + 1)
        elif kind == "same_rank":
            if len(set(ranks)) > 1:
                continue
            if ranks:
                cands: Any = ranks[:1]
            elif m:
                cands = p.ranks()
            else:  # wild slots alone: a rank every one of them may take
                common = -1
                for wm in wmasks:
                    common &= wm
                cands = [r for r in range(common.bit_length() - 1, -1, -1) if common >> r & 1]
            for r in cands:
                if need is not None and size * r <= need:
                    break
                if p.count(r) >= m and all(wm >> r & 1 for wm in wmasks):
                    got = size * r
                    gmask = 1 << r
                    break
        elif kind == "suited":
            if not one_suit:
                continue
            if not m:
                got = hsum
            else:
                for s in (suits if suits else p.masks):
                    top = p.suit_top(s, m)
                    if top is not None and (got is None or hsum + top[0] > got):
                        got = hsum + top[0]
                        gsuit, gmask = s, -1 << top[1]  # its ranks from the lowest taken up
        elif m:  # any
            top = p.top(m)
            got = hsum + top[0]
            gmask = -1 << top[1]
        else:
            got = hsum
        if got is not None and (best is None or base + got > best):
            best = found = base + got
            wsuit, wmask = gsuit, gmask
    return found, wsuit, wmask if m else 0


SEARCH_FUNCS: dict[str, Any] = {
    "completions": completions,
    "any_completion": any_completion,
    "best_completion": best_completion,
    "expand": expand,
    "group_values": group_values,
    "top_run": top_run,
    "best_combination": best_combination,
}
