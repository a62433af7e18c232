"""A seat's information set as one flat float32 vector, derived from the IR and the seat's view.

The layout is fixed by the ruleset, the seats and the options (`ObservationEncoder.layout`
lists every field with its offset). Fields, in order:

1. `seat`: one-hot of the observing seat; `actor`: one-hot of the seat to act (zeros once
   the game is over); `step`: one-hot of the turn machine's step (steps in declaration
   order); `terminal`: 1 once the game is over.
2. per zone instance (`deck`, `hand[0]`, `tile1.side[1]`... in the game's zone order):
   `count` (its number of components, 0 for a `secret` zone), `seen` (1 when the seat sees
   its contents), then one presence bit per component of the kinds it holds (in the game's
   component order), all 0 when the seat does not see the contents.
3. `marks`: per component, `MARK_BUCKETS` bits, bit `crc32(repr(mark)) % MARK_BUCKETS` set
   for each of its marks, when the seat sees the component; then per zone instance that some
   seat cannot see, per place (as many places as components of its kinds), the same bits for
   the marks of the component lying there, when the seat does not see the zone (the view's
   `slots`). A mark is any value the rules put on a component (a hint), so the engine hashes
   it rather than naming it; two marks may share a bit.
4. `vars`: each variable in declaration order (all variables are public), then each
   entity's `alive` and its fields and variables. An `int` or `seat` is its value, a `bool`
   0/1, an enum or a component or entity type a one-hot over its values, an optional value
   a none-bit then its value, a per-seat variable one encoding per seat, a `per ENUM` or a
   `map<enum, T>` one per enum value (zeros for a key the map lacks), a list its length then, for a list of enum values,
   components or entities, how many of each; `str` and other values are not encoded.

Nothing in it reads a component the seat cannot see: a component's presence, marks and
place-marks come only through zones the seat sees (`ZoneRef.visible_to`, the predicate the
view uses), so changing hidden components leaves the vector as it was (tests/rl).
"""

from __future__ import annotations

import zlib
from itertools import compress
from operator import itemgetter, ne
from typing import Any

import numpy as np

from runtime import Game

MARK_BUCKETS = 16


# Keeping each seat's vector (`ObservationEncoder.keep`) pays from this many zone instances and
# entities on: a move then changes few of many fields. With fewer (Hanabi: 5 to 9 zones),
# writing the vector afresh is cheaper (bench/rl_bench.py's A/B on the loaded 2-core machine,
# AEC cycle: Hanabi 34 us afresh against 41 kept; Balloon Cup, 27 zones and entities, 59
# against 61; Battle Line, 53, 62 against 57; Weather Machine, 94, 179 against 147).
KEEP_FROM = 40


class ObservationEncoder:
    """Encodes `game`'s information sets for any seat into vectors of length `size`.

    `keep` (default: when the game has at least `KEEP_FROM` zone instances and entities) makes
    `encode` keep each seat's vector and bring it up to date (see `encode`)."""

    def __init__(self, game: Game, keep: bool | None = None):
        st, rs = game.st, game.ruleset
        self._layout: list[tuple[str, int, int, list[str]]] = []
        self.size = 0
        n = st.nseats
        self._seat = self._field("seat", [str(s) for s in range(n)])
        self._actor = self._field("actor", [str(s) for s in range(n)])
        steps = [s.name for s in rs.steps]
        self._steps = {s: i for i, s in enumerate(steps)}
        self._step = self._field("step", steps)
        self._terminal = self._field("terminal", ["terminal"])
        ncomp = len(st.comps)
        # per zone: (ZoneRef, count offset, presence positions by component id (-1: not held))
        self._zones: list[tuple[Any, int, list[int]]] = []
        for z in st.zone_refs:
            kinds = set(z.holds.split("|"))
            held = [c for c in st.comps if c.kind in kinds]
            at = self._field(f"zone {z.key}", ["count", "seen"] + [c.name for c in held])
            pos = [-1] * ncomp  # component id -> its presence bit (a list: read per component)
            for k, c in enumerate(held):
                pos[c.id] = at + 2 + k
            self._zones.append((z, at, pos))
        self._comp_marks = self._field("marks", [f"{c.name}:{b}" for c in st.comps for b in range(MARK_BUCKETS)])
        self._slot_marks: dict[int, int] = {}  # zone index -> offset of its places' mark bits
        self._slot_size: dict[int, int] = {}  # zone index -> how many entries its places' mark bits take
        for z in st.zone_refs:
            if z.visibility != "public" and z.count_visible():
                kinds = set(z.holds.split("|"))
                places = sum(1 for c in st.comps if c.kind in kinds)
                self._slot_marks[z.idx] = self._field(f"place marks {z.key}", [f"@{i}:{b}" for i in range(places) for b in range(MARK_BUCKETS)])
                self._slot_size[z.idx] = places * MARK_BUCKETS
        enums = {e.name: e.values for e in rs.enums}
        comp_kinds: dict[str, list[str]] = {}
        for c in st.comps:
            comp_kinds.setdefault(c.kind, []).append(c.name)
        ent_kinds: dict[str, list[str]] = {}
        for e in st.entities:
            ent_kinds.setdefault(e.kind, []).append(e.name)
        self._types = (enums, comp_kinds, ent_kinds)
        self._vars: list[tuple[str, int, Any, int]] = []  # (name, offset, writer, width)
        self._scalars: list[tuple[str, int]] = []  # plain int, seat and bool variables: (name, offset)
        for v in rs.vars:
            labels, write = self._var_encoding(v.type, per_seat=v.per_seat, per=v.per, nseats=n)
            if not labels:
                continue
            at = self._field(f"var {v.name}", labels)
            if v.type.name in ("int", "seat", "bool") and not (v.type.optional or v.per_seat or v.per):
                self._scalars.append((v.name, at))
            else:
                self._vars.append((v.name, at, write, len(labels)))
        decls = {e.name: e for e in rs.entity_types}
        self._ents: list[tuple[Any, int, list[tuple[str, int, Any, int]]]] = []
        for e in st.entities:
            at = self._field(f"entity {e.name}", ["alive"])
            members = []
            d = decls[e.kind]
            for m in list(d.fields) + list(d.vars):
                labels, write = self._var_encoding(m.type, per_seat=getattr(m, "per_seat", False),
                                                   per=getattr(m, "per", ""), nseats=n)
                if labels:
                    members.append((m.name, self._field(f"entity {e.name}.{m.name}", labels), write, len(labels)))
            self._ents.append((e, at, members))
        self._cid_bits: dict[int, tuple[tuple, list[int]]] = {}  # component id -> (its marks, their bits)
        self._plans: dict[int, tuple] = {}
        self._last: dict[int, _Written] = {}  # seat -> what `encode` last wrote for it
        self.keep = len(st.zone_refs) + len(st.entities) >= KEEP_FROM if keep is None else keep
        self._by_zone = {z.idx: k for k, (z, _at, _pos) in enumerate(self._zones)}  # zone index -> its entry
        # what `_update` compares (`_sources`): the globals' values, the entities' `alive`, then
        # each entity's members' values, each a tuple read in C; and per value its field
        # `(offset, width, writer)`
        self._global_get = _getter([n for n, _at in self._scalars] + [n for n, *_ in self._vars])
        self._member_names = [[n for n, *_ in members] for _e, _at, members in self._ents]
        self._fields: list[list[tuple[int, int, Any]]] = [
            [(at, 1, _write_number) for _n, at in self._scalars] + [(at, n, write) for _n, at, write, n in self._vars],
            [(e_at, 1, _write_number) for _e, e_at, _m in self._ents],
            *([(at, n, write) for _n, at, write, n in members] for _e, _at, members in self._ents)]

    def _field(self, name: str, labels: list[str]) -> int:
        at = self.size
        self._layout.append((name, at, len(labels), labels))
        self.size += len(labels)
        return at

    def layout(self) -> list[dict[str, Any]]:
        """Every field: `{name, offset, size, labels}` (one label per entry), in order."""
        return [{"name": n, "offset": o, "size": s, "labels": labels} for n, o, s, labels in self._layout]

    # ---- variables ----
    def _var_encoding(self, t: Any, per_seat: bool = False, per: str = "", nseats: int = 0) -> tuple[list[str], Any]:
        enums, comp_kinds, ent_kinds = self._types
        if per_seat or per:
            keys: list[Any] = list(range(nseats)) if per_seat else list(enums.get(per, ()))
            labels, one = self._var_encoding(t)
            if not labels:
                return [], None
            w = len(labels)

            def write_each(out: np.ndarray, at: int, v: Any) -> None:
                get = v.__getitem__ if per_seat else v.get
                for i, k in enumerate(keys):
                    x = get(k)
                    if x is not None:  # a map may lack a key: its entries stay 0
                        one(out, at + i * w, x)
            return [f"{k}:{lab}" for k in keys for lab in labels], write_each
        if t.optional:
            import attrs

            labels, one = self._var_encoding(attrs.evolve(t, optional=False))
            if not labels:
                return [], None

            def write_opt(out: np.ndarray, at: int, v: Any) -> None:
                if v is None:
                    out[at] = 1.0
                else:
                    one(out, at + 1, v)
            return ["none"] + labels, write_opt
        name = t.name
        if name in ("int", "seat"):
            def write_num(out: np.ndarray, at: int, v: Any) -> None:
                out[at] = v
            return ["value"], write_num
        if name == "bool":
            def write_bool(out: np.ndarray, at: int, v: Any) -> None:
                out[at] = 1.0 if v else 0.0
            return ["value"], write_bool
        values = self._one_hot_values(name)
        if values is not None:
            index = {x: i for i, x in enumerate(values)}

            def write_hot(out: np.ndarray, at: int, v: Any) -> None:
                i = index.get(getattr(v, "name", v))
                if i is not None:
                    out[at + i] = 1.0
            return list(values), write_hot
        if name == "map" and len(t.args) == 2 and t.args[0].name in enums:
            return self._var_encoding(t.args[1], per=t.args[0].name)
        if name == "list":
            inner = self._one_hot_values(t.args[0].name) if t.args else None
            index = {x: i for i, x in enumerate(inner or ())}

            def write_list(out: np.ndarray, at: int, v: Any) -> None:
                out[at] = len(v)
                for x in v:
                    i = index.get(getattr(x, "name", x))
                    if i is not None:
                        out[at + 1 + i] += 1.0
            return ["length"] + [f"count {x}" for x in inner or ()], write_list
        return [], None

    def _one_hot_values(self, name: str) -> list[str] | None:
        enums, comp_kinds, ent_kinds = self._types
        if name in enums:
            return list(enums[name])
        members = name.split("|")
        if all(m in comp_kinds for m in members):
            return [c for m in members for c in comp_kinds[m]]
        if name in ent_kinds:
            return ent_kinds[name]
        return None

    # ---- encoding ----
    def _plan(self, seat: int) -> tuple:
        """What `encode` reads for `seat`, worked out once (a zone's visibility and owner never
        change): the zones whose contents the seat sees with their presence positions, their
        `seen` flags, the zones whose count it sees, the set of zones it sees, and per zone
        `(zone index, count offset or -1, presence positions or None)` for `_update`."""
        plan = self._plans.get(seat)
        if plan is None:
            seen = [(z.idx, pos) for z, _at, pos in self._zones if z.visible_to(seat)]
            seen_flags = [at + 1 for z, at, _pos in self._zones if z.visible_to(seat)]
            counted = [(z.idx, at) for z, at, _pos in self._zones if z.count_visible()]
            each = [(z.idx, at if z.count_visible() else -1, pos if z.visible_to(seat) else None)
                    for z, at, pos in self._zones]
            plan = self._plans[seat] = (seen, seen_flags, counted,
                                        frozenset(z.idx for z, _at, _pos in self._zones if z.visible_to(seat)), each)
        return plan

    def encode(self, game: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """`seat`'s observation of `game` (float32, length `size`), a new array, or written into
        `out` when given (and returned).

        With `keep`, the encoder keeps, per seat, the last vector it made and what it was made
        from (the state object and version, the zone lists, the marks, the variables' values).
        Asked again about the same state object (an environment's game, move after move), it
        rewrites only the fields whose source changed since; asked about another state, it
        encodes afresh. Either way the vector is exactly what a fresh encoding gives
        (tests/rl/test_rl_observations.py checks this after every ply of random games)."""
        if not self.keep:
            return self.encode_fresh(game, seat, out)
        w = self._current(game.st, seat)
        if out is None:
            return w.buf.copy()
        out[:] = w.buf
        return out

    def encode_fresh(self, game: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """`encode` without the kept vectors: every field written from the state (what
        `encode` does for a state it has not seen)."""
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        self._write(game.st, seat, out, None)
        return out

    def _current(self, st: Any, seat: int) -> _Written:
        """The kept vector of `seat`, brought up to date with `st`."""
        w = self._last.get(seat)
        if w is None:
            w = self._last[seat] = _Written(self.size)
        if w.st is st and len(w.zones) == len(st.zones) == len(self._by_zone) and len(st.entities) == len(self._ents):
            if w.version != st.version:
                self._update(st, seat, w)
                w.version = st.version
            return w
        w.buf.fill(0.0)
        self._write(st, seat, w.buf, w)
        return w

    def _sources(self, st: Any) -> list[tuple]:
        """The values the variable fields encode, read in C: a tuple of the globals' (`_scalars`,
        then `_vars`), one of the entities' `alive`, then one per entity of its members'."""
        ents, alive, member = st.entities, st.ent_alive, st.member
        return [self._global_get(st.g), tuple(alive[e._n] for e in ents),
                *(tuple(member(e, n) for n in names) for e, names in zip(ents, self._member_names))]

    def _write(self, st: Any, seat: int, out: np.ndarray, w: _Written | None) -> None:
        """Every field of `seat`'s vector into `out` (zeros); with `w`, remember its sources."""
        # single entries are written through a memoryview: a tenth of numpy's cost per item
        mv: Any = out.data  # the array's memoryview
        seen, seen_flags, counted, seen_set, _each = self._plan(seat)
        zones = st.zones
        mv[self._seat + seat] = 1.0
        head = self._head(st)
        for at in head:
            mv[at] = 1.0
        for zi, at in counted:
            mv[at] = len(zones[zi])
        for at in seen_flags:
            mv[at] = 1.0
        for zi, posl in seen:
            for c in zones[zi]:
                mv[posl[c.id]] = 1.0
        marked = self._marks(st, seen_set, mv) if st.marks else []
        g = st.g
        for name, at in self._scalars:
            mv[at] = g[name]
        for name, at, write, _n in self._vars:
            write(out, at, g[name])
        alive, member = st.ent_alive, st.member  # entity fields live in the state's columns
        for e, (_decl, e_at, members) in zip(st.entities, self._ents):  # this state's entities, not the probe's
            if alive[e._n]:
                mv[e_at] = 1.0
            for name, m_at, write, _n in members:
                write(out, m_at, member(e, name))
        if w is not None:
            w.st, w.version = st, st.version
            w.head = head
            w.zones = [z[:] for z in zones]  # copies: what the zones held, whatever happens to the lists
            w.marks = dict(st.marks)
            w.marked = marked
            w.values = [tuple(map(_copy, vs)) for vs in self._sources(st)]

    def _head(self, st: Any) -> tuple[int, ...]:
        """The positions of the `actor` (or `terminal`) and `step` bits set in this state."""
        i = self._steps.get(st.step)
        first = self._terminal if st.terminal else self._actor + st.actor
        return (first,) if i is None else (first, self._step + i)

    def _update(self, st: Any, seat: int, w: _Written) -> None:
        """Bring `w`'s vector (written from this state object at an earlier version) up to date:
        only the fields whose sources differ from those `w` remembers are written again. The
        comparisons run in C (`==` on lists of zone lists, of marks, of variables' values)."""
        buf = w.buf
        mv: Any = buf.data
        head = self._head(st)
        if head != w.head:
            for at in w.head:
                mv[at] = 0.0
            for at in head:
                mv[at] = 1.0
            w.head = head
        zones, old = st.zones, w.zones
        marks = st.marks
        moved = zones != old  # list against list: C compares the components by identity
        if moved:
            by_zone = self._by_zone
            plan = self._plan(seat)[4]
            for zi in compress(range(len(zones)), map(ne, zones, old)):
                now, then = zones[zi], old[zi]
                _z, at, pos = plan[by_zone[zi]]
                if at >= 0:
                    mv[at] = len(now)
                if pos is not None:
                    for c in then:
                        mv[pos[c.id]] = 0.0
                    for c in now:
                        mv[pos[c.id]] = 1.0
                old[zi] = now[:]
        if (moved and (marks or w.marked)) or marks != w.marks:  # a mark's bit lies at its component, or at its place
            for base, bits in w.marked:
                for b in bits:
                    mv[base + b] = 0.0
            w.marked = self._marks(st, self._plan(seat)[3], mv) if marks else []
            w.marks = dict(marks)
        values = self._sources(st)
        kept = w.values
        if values != kept:  # C compares the values with the copies kept (lists and maps by content)
            for gi in compress(range(len(values)), map(ne, values, kept)):
                fields = self._fields[gi]
                now, then = values[gi], list(kept[gi])
                for k in compress(range(len(now)), map(ne, now, then)):
                    at, n, write = fields[k]
                    if n == 1:
                        mv[at] = 0.0
                    else:
                        buf[at:at + n] = 0.0
                    write(buf, at, now[k])
                    then[k] = _copy(now[k])
                kept[gi] = tuple(then)

    def _marks(self, st: Any, seen: frozenset[int], mv: Any) -> list[tuple[int, list[int]]]:
        """Set the mark bits the seat sees: on components in zones it sees, else on the place
        of a zone it does not see (`_slot_marks`). Returns the bits set, as `(base, bits)`."""
        loc, zones, comps = st.loc, st.zones, st.comps
        slot_marks, comp_marks, kept = self._slot_marks, self._comp_marks, self._cid_bits
        written: list[tuple[int, list[int]]] = []
        for cid, marks in st.marks.items():
            zi = loc[cid]
            if zi is None:
                continue
            if zi in seen:
                base = comp_marks + cid * MARK_BUCKETS
            else:
                slot_at = slot_marks.get(zi)
                if slot_at is None:
                    continue
                base = slot_at + zones[zi].index(comps[cid]) * MARK_BUCKETS
            got = kept.get(cid)
            bits = got[1] if got is not None and got[0] is marks else self._bits(cid, marks)
            for b in bits:
                mv[base + b] = 1.0
            written.append((base, bits))
        return written

    def _bits(self, cid: int, marks: tuple) -> list[int]:
        """The bits of component `cid`'s marks (a tuple the state replaces when they change),
        kept per component with the tuple they were found for; when the tuple is the kept one
        and one mark more, only the new mark's bit is found."""
        got = self._cid_bits.get(cid)
        if got is not None:
            before, bits = got
            if before is marks:
                return bits
            if len(marks) == len(before) + 1 and marks[:-1] == before:
                b = _bit(marks[-1])
                if b not in bits:
                    bits = [*bits, b]
                self._cid_bits[cid] = (marks, bits)
                return bits
        bits = list({_bit(m) for m in marks})
        self._cid_bits[cid] = (marks, bits)
        return bits


class _Written:
    """One seat's last vector (`buf`) and what it was written from: the state object and its
    version, the `head` bits set (actor or terminal, step), copies of the zone lists, the
    marks, the mark bits set (`marked`), and copies of the variables' values
    (`values`, as `ObservationEncoder._sources` reads them)."""

    __slots__ = ("buf", "st", "version", "head", "zones", "marks", "marked", "values")

    def __init__(self, size: int):
        self.buf = np.zeros(size, dtype=np.float32)
        self.st: Any = None
        self.version = -1
        self.head: tuple[int, ...] = ()
        self.zones: list[list[Any]] = []
        self.marks: dict[int, tuple] = {}
        self.marked: list[tuple[int, list[int]]] = []  # the mark bits set: (base, bits)
        self.values: list[tuple] = []


def _bit(mark: Any) -> int:
    """A mark's bit: `crc32(repr(mark)) % MARK_BUCKETS`."""
    return zlib.crc32(repr(mark).encode()) % MARK_BUCKETS


def _getter(names: list[str]) -> Any:
    """A function of a dict returning the tuple of its values at `names` (itemgetter, in C)."""
    if not names:
        return lambda d: ()
    if len(names) == 1:
        name = names[0]
        return lambda d: (d[name],)
    return itemgetter(*names)


def _write_number(out: np.ndarray, at: int, v: Any) -> None:
    out[at] = v


def _copy(v: Any) -> Any:
    """`v` with its lists and maps copied (at every depth), so a value changed in place later
    compares unequal to it; numbers, text, components and entities as themselves. A list or
    map holding no container is copied in C."""
    cls = v.__class__
    if cls is list:
        return v[:] if not any(map(_CONTAINER, map(type, v))) else [_copy(x) for x in v]
    if cls is dict:
        return v.copy() if not any(map(_CONTAINER, map(type, v.values()))) else {k: _copy(x) for k, x in v.items()}
    if cls is tuple:
        return v if not any(map(_CONTAINER, map(type, v))) else tuple(_copy(x) for x in v)
    if cls is set:
        return set(v)
    return v


_CONTAINER = frozenset((list, dict, tuple, set)).__contains__
