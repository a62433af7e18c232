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
from operator import is_, itemgetter, ne
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
        self._marks_end = self.size  # the mark fields, component marks then place marks, end here
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
        # id of a tuple of marks -> (the tuple, its bits, their entries on its component); component
        # id -> the same for its marks last looked at (`_fill` reads it): `_bits`
        self._marks_bits: dict[int, tuple[tuple, tuple[int, ...], tuple[int, ...]]] = {}
        self._cid_bits: dict[int, tuple[tuple, tuple[int, ...], tuple[int, ...]]] = {}
        self._marked_state: int | None = None  # the id of the state whose marks were last read
        self._bit_of: dict[tuple, int] = {}  # a mark's value and types -> its bit (`_mark_bit`)
        self._plans: dict[int, _SeatPlan] = {}
        self._f32 = np.dtype(np.float32)  # (np.zeros takes a dtype object faster than a type or a keyword)
        # the zones whose count every seat sees, and their `count` offsets
        self._counted = [(z.idx, at) for z, at, _pos in self._zones if z.count_visible()]
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
    def _plan(self, seat: int) -> _SeatPlan:
        """What `encode` reads and writes for `seat`, worked out once (a zone's visibility and
        owner never change)."""
        plan = self._plans.get(seat)
        if plan is None:
            plan = self._plans[seat] = _SeatPlan(self, seat)
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
            out = np.zeros(self.size, self._f32)
        else:
            out.fill(0.0)
        self._fill(game.st, self._plans.get(seat) or self._plan(seat), out)
        return out

    def _fill(self, st: Any, plan: _SeatPlan, out: np.ndarray) -> None:
        """Every field of the seat's vector into `out` (zeros), in one function: an encoding
        writes a few dozen entries, and on this path each call, loop or lookup saved is a
        share of the whole (bench/rl_bench.py, encode)."""
        # single entries are written through the array's memoryview: a tenth of numpy's cost
        # per item (and a plain loop beats `map(mv.__setitem__, ...)`, a slot wrapper's call,
        # or a numpy index array kept per zone list, in play: bench/rl_bench.py)
        mv: Any = out.data
        zones = st.zones
        mv[self._terminal if st.terminal else self._actor + st.actor] = 1.0  # (`_head`, inline)
        step = self._steps.get(st.step)
        if step is not None:
            mv[self._step + step] = 1.0
        for at in plan.flags:  # the seat's bit, the `seen` flags
            mv[at] = 1.0
        for zi, at in self._counted:
            mv[at] = len(zones[zi])
        for zi, pos in plan.seen:
            for c in zones[zi]:
                mv[pos[c.id]] = 1.0
        if st.marks:
            self._write_marks(st, plan, mv)
        g = st.g
        for name, at in self._scalars:
            mv[at] = g[name]
        for name, at, write, _n in self._vars:
            write(out, at, g[name])
        if self._ents:
            alive, member = st.ent_alive, st.member  # entity fields live in the state's columns
            for e, (_decl, e_at, members) in zip(st.entities, self._ents):  # this state's entities, not the probe's
                if alive[e._n]:
                    mv[e_at] = 1.0
                for name, m_at, write, _n in members:
                    write(out, m_at, member(e, name))

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
        self._write(st, self._plan(seat), w.buf, w)
        return w

    def _sources(self, st: Any) -> list[tuple]:
        """The values the variable fields encode, read in C: a tuple of the globals' (`_scalars`,
        then `_vars`), one of the entities' `alive`, then one per entity of its members'."""
        ents, alive, member = st.entities, st.ent_alive, st.member
        return [self._global_get(st.g), tuple(alive[e._n] for e in ents),
                *(tuple(member(e, n) for n in names) for e, names in zip(ents, self._member_names))]

    def _write(self, st: Any, plan: _SeatPlan, out: np.ndarray, w: _Written) -> None:
        """Every field of the seat's vector into `out` (zeros, `w`'s vector), and in `w` what
        it was made from."""
        self._fill(st, plan, out)
        w.st, w.version = st, st.version
        w.head = self._head(st)
        w.zones = [z[:] for z in st.zones]  # copies: what the zones held, whatever happens to the lists
        w.marks = dict(st.marks)
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
        plan = self._plan(seat)
        moved = zones != old  # list against list: C compares the components by identity
        if moved:
            each = plan.each
            for zi in compress(range(len(zones)), map(ne, zones, old)):
                now, then = zones[zi], old[zi]
                at, pos = each[zi]
                if at >= 0:
                    mv[at] = len(now)
                if pos is not None:
                    for c in then:
                        mv[pos[c.id]] = 0.0
                    for c in now:
                        mv[pos[c.id]] = 1.0
                old[zi] = now[:]
        if (moved and (marks or w.marks)) or marks != w.marks:  # a mark's bit lies at its component, or at its place
            buf[self._comp_marks:self._marks_end] = 0.0
            if marks:
                self._write_marks(st, plan, mv)
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

    def _write_marks(self, st: Any, plan: _SeatPlan, mv: Any) -> None:
        """Set (in `mv`, the vector's memoryview, its mark fields zeros) the mark bits the seat
        sees: on components in zones it sees, else on the place of a zone it does not see
        (`_slot_marks`), as `plan.marks_at` says."""
        loc, zones, comps, marks_at, by_cid = st.loc, st.zones, st.comps, plan.marks_at, self._cid_bits
        # the state of the last call, played on since (its id, not the state: the encoder keeps
        # no game alive; a reused id only skips the lookup by identity, never gives a wrong bit)
        again = id(st) == self._marked_state
        self._marked_state = id(st)
        for cid, m in st.marks.items():  # (plain loops: `map`s and `zip` over the marks measured slower)
            zi = loc[cid]
            if zi is None:
                continue
            at = marks_at[zi]
            if at is None:
                continue
            got = by_cid.get(cid)
            if got is None or got[0] is not m:
                got = self._bits(cid, m, again)
            if at < 0:  # on the component: the entries of its bits, kept with them
                for i in got[2]:
                    mv[i] = 1.0
            else:
                at += zones[zi].index(comps[cid]) * MARK_BUCKETS
                for b in got[1]:
                    mv[at + b] = 1.0

    def _bits(self, cid: int, marks: tuple, again: bool) -> tuple[tuple, tuple[int, ...], tuple[int, ...]]:
        """`(marks, their bits, the entries of those bits on the component)` for `marks`,
        component `cid`'s (a tuple the state replaces when they change, and clones share), kept
        per component with the tuple (`_cid_bits`, which `_fill` reads). A state asked about
        `again` (a game played on: its new tuples are a kept one and one mark more, or a first
        mark) costs the new mark's bit only; another state's tuple (positions of other games in
        turn) is looked up by its identity (`_marks_bits`, kept with the tuple, so the identity
        is not reused). A mark's bit is kept by value (`_mark_bit`)."""
        known = self._marks_bits
        # (an id is a safe key: the entry keeps its tuple alive, so no other object takes the id)
        got = None if again else known.get(id(marks))
        base = self._comp_marks + cid * MARK_BUCKETS
        if got is not None and got[1] and got[2][0] - got[1][0] != base:
            # the tuple seen on another component (the state never shares one, a rule's copy might)
            got = (marks, got[1], tuple([base + b for b in got[1]]))
        elif got is None:
            last = self._cid_bits.get(cid)
            if len(marks) == 1:
                b = self._mark_bit(marks[0])
                got = (marks, (b,), (base + b,))
            elif last is not None and len(marks) == len(last[0]) + 1 and all(map(is_, marks, last[0])):
                # (the same mark objects, not equal ones: 1 == True, but their bits differ)
                b = self._mark_bit(marks[-1])
                got = (marks, last[1], last[2]) if b in last[1] else (marks, (*last[1], b), (*last[2], base + b))
            else:
                bits = tuple({self._mark_bit(m) for m in marks})
                got = (marks, bits, tuple([base + b for b in bits]))
            if not again:
                if len(known) >= _KNOWN_TUPLES:  # a bound on what is kept over many games
                    known.clear()
                known[id(marks)] = got
        self._cid_bits[cid] = got
        return got

    def _mark_bit(self, mark: Any) -> int:
        """`_bit(mark)`, kept by value for a mark that is text, an integer, a boolean or none, or
        a list of them (two such lists whose items are equal and of the same types have the same
        `repr`)."""
        try:
            key = (tuple(mark), tuple(map(type, mark))) if mark.__class__ is list else (mark, mark.__class__)
            b = self._bit_of.get(key)
        except TypeError:  # an unhashable item (a nested list), or a mark that is no list and unhashable
            return _bit(mark)
        if b is None:
            b = _bit(mark)
            if _EXACT_REPR.issuperset(key[1] if mark.__class__ is list else (key[1],)) and len(self._bit_of) < _KNOWN_LIMIT:
                self._bit_of[key] = b
        return b


class _SeatPlan:
    """What `ObservationEncoder` writes for one seat, worked out once from the zones'
    visibility and owners (which never change):

    - `flags`: the entries set in all the seat's vectors: its `seat` bit, the `seen` flags of
      the zones whose contents it sees (a copy of a vector holding them costs more in play,
      where the copied vector is out of the processor's caches);
    - `seen`: per zone whose contents it sees, `(zone index, component id -> presence position)`;
    - `marks_at`: per zone index, where the marks of a component lying there are written: -1
      on the component (the seat sees the zone), the offset of the zone's place marks (it does
      not, and the zone has them), None nowhere;
    - `each`: per zone index, `(count offset or -1, presence positions by component id or None)`,
      for `ObservationEncoder._update`."""

    __slots__ = ("flags", "seen", "marks_at", "each")

    def __init__(self, enc: ObservationEncoder, seat: int):
        self.flags = [enc._seat + seat]
        self.seen: list[tuple[int, Any]] = []
        self.marks_at: list[int | None] = [None] * len(enc._zones)
        self.each: dict[int, tuple[int, list[int] | None]] = {}
        for z, at, pos in enc._zones:
            sees = z.visible_to(seat)
            if sees:
                self.flags.append(at + 1)
                self.seen.append((z.idx, pos))
            self.marks_at[z.idx] = -1 if sees else enc._slot_marks.get(z.idx)
            self.each[z.idx] = (at if z.count_visible() else -1, pos if sees else None)


class _Written:
    """One seat's last vector (`buf`) and what it was written from: the state object and its
    version, the `head` bits set (actor or terminal, step), copies of the zone lists, the
    marks, and copies of the variables' values (`values`, as `ObservationEncoder._sources`
    reads them)."""

    __slots__ = ("buf", "st", "version", "head", "zones", "marks", "values")

    def __init__(self, size: int):
        self.buf = np.zeros(size, np.float32)
        self.st: Any = None
        self.version = -1
        self.head: tuple[int, ...] = ()
        self.zones: list[list[Any]] = []
        self.marks: dict[int, tuple] = {}
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


_EXACT_REPR = frozenset((str, int, bool, type(None)))  # types whose equal values have the same `repr`
_KNOWN_LIMIT = 4096  # marks whose bits `ObservationEncoder._mark_bit` keeps at most
_KNOWN_TUPLES = 1024  # tuples of marks whose bits `ObservationEncoder._bits` keeps at most (a small table: few cache misses)


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
