"""Belief-consistent determinisation: one world a seat could be in, sampled uniformly among the
deals consistent with what it knows.

The components in zones the seat cannot see (other seats' hands, face-down decks) are dealt
again among those places; each place keeps the kind of component it held (a card's back shows
its deck) and its marks, so the seat's view of the sampled world is exactly its view of the real
one. What a mark tells about its component is rule text (`knowledge FN`, docs/language.md
"Knowledge"): a place with marks receives only a component for which `FN(component, mark)`
holds for each of its marks. Cards the seat sees, cards played or discarded face up, and cards a
standing `reveal` showed (still in the zone revealed) stay where they are: they are facts.

Sampling is exact and uniform over the consistent deals. Per kind, the marked places (the
constrained ones, k of them) are few; each component allows a subset of them (a mask of k bits),
and components with the same mask are interchangeable for counting. A dynamic programme over
the masks counts the ways to fill the constrained places with distinct components:

    f[i][S] = sum over T subset of mask_i, T disjoint from S' = S minus T:  f[i-1][S'] * n_i!/(n_i-|T|)!

(n_i components share mask_i; they fill the places T in any order), and a backward pass samples
one filling with probability proportional to its count; the remaining components are shuffled
into the unconstrained places, whose arrangements every filling shares. So each consistent deal
has probability 1 / (number of consistent deals). The cost is O(G * 3^k) for G distinct masks,
cheap for the handful of marked places a hand has; beyond `MAX_EXACT` constrained places the
places are filled one by one among the components each allows (biased towards deals whose early
places have few candidates; documented, never used by the bundled games).

The sampled world also draws future chance from a fresh seed, so it never carries the real
game's coming shuffles.
"""

from __future__ import annotations

import random
from typing import Any

from runtime.builtins_search import ruleset_fn
from runtime.chance import ChanceSource

MAX_EXACT = 12  # constrained places per kind sampled exactly (3^12 subset steps per mask group)


class Inconsistent(ValueError):
    """No deal satisfies the knowledge: a `knowledge` function that the real deal contradicts."""


def determinise(game: Any, seat: int, rng: random.Random) -> Any:
    """A clone of `game` (a `runtime.Game`) whose hidden components are resampled for `seat`,
    uniformly among the deals consistent with the ruleset's `knowledge` declarations.

    The clone is independent of `game`; `rng` draws the deal and the clone's chance seed.
    Raises `Inconsistent` when no deal fits the marks (the knowledge contradicts the real deal).
    """
    g = game.clone()
    st = g.st
    hidden = [z for z in st.zone_refs if not z.visible_to(seat) and st.zones[z.idx]]
    shown = _shown(st)
    slots = [(z.idx, k) for z in hidden for k, c in enumerate(st.zones[z.idx]) if (z.key, c.name) not in shown]
    old = [st.zones[i][k] for i, k in slots]
    marks = [st.marks.get(c.id) for c in old]
    allows = _knowledge(g)
    by_kind: dict[str, list[int]] = {}
    for n, c in enumerate(old):
        by_kind.setdefault(c.kind, []).append(n)
    pool: list[Any] = [None] * len(old)
    for positions in by_kind.values():
        comps = sorted((old[n] for n in positions), key=lambda c: c.id)  # the same set, the same tables
        constrained = [n for n in positions if marks[n] and allows is not None]
        if not constrained:
            rng.shuffle(comps)
            for n, c in zip(positions, comps):
                pool[n] = c
            continue
        ok = allows.table(comps, [marks[n] for n in constrained])  # type: ignore[union-attr]
        chosen = sample_filling(ok, rng, allows.groups(ok))  # type: ignore[union-attr]
        used = set(chosen)
        for n, ci in zip(constrained, chosen):
            pool[n] = comps[ci]
        rest = [c for ci, c in enumerate(comps) if ci not in used]
        rng.shuffle(rest)
        free = [n for n in positions if n not in set(constrained)]
        for n, c in zip(free, rest):
            pool[n] = c
    new_zones = {z.idx: list(st.zones[z.idx]) for z in hidden}  # zone lists are copy-on-write
    own_marks = st.own_marks()  # the clone shares the game's marks till one of the two changes them
    for c in pool:
        own_marks.pop(c.id, None)
    loc = st.own_loc()
    for (i, k), c, m in zip(slots, pool, marks):
        new_zones[i][k] = c
        loc[c.id] = i
        if m is not None:
            own_marks[c.id] = m
    for i, zone in new_zones.items():
        st.zones[i] = zone
    g.forget_choices(keep=seat)  # other seats' sealed moves at a simultaneous step are unknown too
    st.chance = ChanceSource(rng.getrandbits(64))
    st.version += 1
    g._listing = None  # the listing belonged to the state before the resampling
    return g


class _Allows:
    """Which components each marked place may receive, from the ruleset's knowledge functions;
    memoised per (component's attributes, marks), since a knowledge function reads nothing else."""

    def __init__(self, st: Any, fns: dict[str, list[Any]], memo: dict[tuple, bool], sigs: dict[int, tuple],
                 tables: dict[tuple, list[list[bool]]]) -> None:
        self.st, self.fns, self.memo, self.sigs, self.tables = st, fns, memo, sigs, tables
        self.grouped: dict[int, tuple[list[list[bool]], dict[int, list[int]]]] = _GROUPED

    def groups(self, ok: list[list[bool]]) -> dict[int, list[int]]:
        """`mask_groups(ok)`, kept with the table."""
        got = self.grouped.get(id(ok))
        if got is None or got[0] is not ok:
            got = self.grouped[id(ok)] = (ok, mask_groups(ok))
        return got[1]

    def sig(self, c: Any) -> tuple:
        got = self.sigs.get(c.id)
        if got is None:
            got = self.sigs[c.id] = (c.kind, tuple(sorted((k, repr(v)) for k, v in c.d.items() if k != "name")))
        return got

    def table(self, comps: list[Any], place_marks: list[tuple]) -> list[list[bool]]:
        """`ok[c][p]`: component `comps[c]` fits every mark of place `p` (kept for the same
        components and marks, which a search asks for again and again)."""
        reprs = [repr(ms) for ms in place_marks]
        key = (tuple(c.id for c in comps), tuple(reprs))
        got = self.tables.get(key)
        if got is not None:
            return got
        memo = self.memo
        rows: dict[tuple, list[bool]] = {}
        out = []
        for c in comps:
            sig = self.sig(c)
            row = rows.get(sig)
            if row is None:
                row = []
                for ms, r in zip(place_marks, reprs):
                    mkey = (sig, r)
                    got = memo.get(mkey)
                    if got is None:
                        got = memo[mkey] = all(bool(f(c, m)) for f in self.fns.get(c.kind, ()) for m in ms)
                    row.append(got)
                rows[sig] = row
            out.append(row)
        if len(self.tables) >= 1024:
            self.tables.clear()
            self.grouped.clear()
        self.tables[key] = out
        return out


def _shown(st: Any) -> set[tuple[str, str]]:
    """(zone key, component name) of the components a standing reveal showed every seat and that
    still lie in the zone revealed: facts, which a determinisation leaves in place."""
    return {(r["zone"], name) for r in st.reveals for name in r["components"]}


def _knowledge(game: Any) -> _Allows | None:
    """The ruleset's knowledge functions by component kind, as an `_Allows` (None without any)."""
    decls = game.ruleset.knowledge
    if not decls:
        return None
    st = game.st
    fns: dict[str, list[Any]] = {}
    for d in decls:
        fn = next(f for f in game.ruleset.fns if f.name == d.name)
        for kind in fn.params[0].type.members:
            fns.setdefault(kind, []).append(ruleset_fn(st, d.name))
    key = (game.ruleset.content_hash, repr(sorted(st.options.items())))
    memo = _MEMO.setdefault(key, {})
    return _Allows(st, fns, memo, _SIGS.setdefault(key, {}), _OK.setdefault(key, {}))


_MEMO: dict[tuple[str, str], dict[tuple, bool]] = {}  # (content hash, options) -> {(attributes, marks): allowed}
_SIGS: dict[tuple[str, str], dict[int, tuple]] = {}  # (content hash, options) -> {component id: its attributes}
_GROUPED: dict[int, tuple[list[list[bool]], dict[int, list[int]]]] = {}  # id(ok table) -> (it, its mask groups)
_OK: dict[tuple[str, str], dict[tuple, list[list[bool]]]] = {}  # (content hash, options) -> {(ids, marks): ok table}


def mask_groups(ok: list[list[bool]]) -> dict[int, list[int]]:
    """The components (indices into `ok`) by the mask of places they allow, those allowing none left out."""
    groups: dict[int, list[int]] = {}
    for ci, row in enumerate(ok):
        mask = sum(1 << p for p, good in enumerate(row) if good)
        if mask:
            groups.setdefault(mask, []).append(ci)
    return groups


def sample_filling(ok: list[list[bool]], rng: random.Random, groups: dict[int, list[int]] | None = None) -> list[int]:
    """Distinct components for k places, uniformly among the fillings where component `c` goes
    only to places `p` with `ok[c][p]`: returns the component index of each place. `groups`,
    when given, is `mask_groups(ok)`.

    Raises `Inconsistent` when there is no such filling."""
    k = len(ok[0]) if ok else 0
    if k > MAX_EXACT:
        return _fill_greedily(ok, k, rng)
    if groups is None:
        groups = mask_groups(ok)
    masks = list(groups)
    full = (1 << k) - 1
    f = _counts(k, tuple((mask, len(groups[mask])) for mask in masks))
    total = f[-1].get(full, 0)
    if total == 0:
        raise Inconsistent("no deal of the hidden components fits every mark: a knowledge function contradicts the real deal")
    out = [0] * k
    s = full
    for i in range(len(masks), 0, -1):
        mask = masks[i - 1]
        members = groups[mask]
        n = len(members)
        options = []
        t = s & mask
        while True:
            ways = f[i - 1].get(s & ~t, 0) * _falling(n, bin(t).count("1"))
            if ways:
                options.append((t, ways))
            if t == 0:
                break
            t = (t - 1) & (s & mask)
        r = rng.randrange(sum(w for _t, w in options))
        for t, ways in options:
            if r < ways:
                break
            r -= ways
        places = [p for p in range(k) if t >> p & 1]
        for p, ci in zip(places, rng.sample(members, len(places))):
            out[p] = ci
        s &= ~t
    return out


def _counts(k: int, groups: tuple[tuple[int, int], ...]) -> list[dict[int, int]]:
    """`f[i][S]`: the ways to fill exactly the places S with distinct components of the first i
    groups, a group being (mask of the places its components allow, how many components). A
    search asks again and again with the same groups (the same marks, the same unseen
    components), so the tables are kept, a bounded number of them."""
    got = _TABLES.get((k, groups))
    if got is not None:
        return got
    f: list[dict[int, int]] = [{0: 1}]
    for mask, n in groups:
        prev = f[-1]
        cur: dict[int, int] = {}
        for s, ways in prev.items():
            free = mask & ~s
            t = free
            while True:  # every subset t of the group's free places, the empty one included
                cur[s | t] = cur.get(s | t, 0) + ways * _falling(n, bin(t).count("1"))
                if t == 0:
                    break
                t = (t - 1) & free
        f.append(cur)
    if len(_TABLES) >= 4096:
        _TABLES.clear()
    _TABLES[(k, groups)] = f
    return f


_TABLES: dict[tuple[int, tuple[tuple[int, int], ...]], list[dict[int, int]]] = {}


def _falling(n: int, j: int) -> int:
    out = 1
    for x in range(n - j + 1, n + 1):
        out *= x
    return out


def _fill_greedily(ok: list[list[bool]], k: int, rng: random.Random) -> list[int]:
    """Places filled one by one among the components each allows (not uniform; see the module
    docstring), restarting when a place is left with no candidate."""
    for _attempt in range(1000):
        taken: set[int] = set()
        out = []
        for p in range(k):
            cands = [ci for ci, row in enumerate(ok) if row[p] and ci not in taken]
            if not cands:
                break
            ci = rng.choice(cands)
            taken.add(ci)
            out.append(ci)
        else:
            return out
    raise Inconsistent("no deal of the hidden components fits every mark after 1000 attempts")
