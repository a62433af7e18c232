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
from typing import Any

import numpy as np

from runtime import Game

MARK_BUCKETS = 16


class ObservationEncoder:
    """Encodes `game`'s information sets for any seat into vectors of length `size`."""

    def __init__(self, game: Game):
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
        for z in st.zone_refs:
            if z.visibility != "public" and z.count_visible():
                kinds = set(z.holds.split("|"))
                places = sum(1 for c in st.comps if c.kind in kinds)
                self._slot_marks[z.idx] = self._field(f"place marks {z.key}", [f"@{i}:{b}" for i in range(places) for b in range(MARK_BUCKETS)])
        enums = {e.name: e.values for e in rs.enums}
        comp_kinds: dict[str, list[str]] = {}
        for c in st.comps:
            comp_kinds.setdefault(c.kind, []).append(c.name)
        ent_kinds: dict[str, list[str]] = {}
        for e in st.entities:
            ent_kinds.setdefault(e.kind, []).append(e.name)
        self._types = (enums, comp_kinds, ent_kinds)
        self._vars: list[tuple[str, int, Any]] = []  # (name, offset, writer)
        self._scalars: list[tuple[str, int]] = []  # plain int, seat and bool variables: (name, offset)
        for v in rs.vars:
            labels, write = self._var_encoding(v.type, per_seat=v.per_seat, per=v.per, nseats=n)
            if not labels:
                continue
            at = self._field(f"var {v.name}", labels)
            if v.type.name in ("int", "seat", "bool") and not (v.type.optional or v.per_seat or v.per):
                self._scalars.append((v.name, at))
            else:
                self._vars.append((v.name, at, write))
        decls = {e.name: e for e in rs.entity_types}
        self._ents: list[tuple[Any, int, list[tuple[str, int, Any]]]] = []
        for e in st.entities:
            at = self._field(f"entity {e.name}", ["alive"])
            members = []
            d = decls[e.kind]
            for m in list(d.fields) + list(d.vars):
                labels, write = self._var_encoding(m.type, per_seat=getattr(m, "per_seat", False),
                                                   per=getattr(m, "per", ""), nseats=n)
                if labels:
                    members.append((m.name, self._field(f"entity {e.name}.{m.name}", labels), write))
            self._ents.append((e, at, members))
        self._mark_bits: dict[int, tuple[Any, int]] = {}
        self._mark_sets: dict[int, tuple[tuple, list[int]]] = {}
        self._plans: dict[int, tuple] = {}

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
        """What `encode` reads for `seat`, worked out once: per zone whether the seat sees its
        contents (a zone's visibility and owner never change), and the int and bool variables
        written as one batch."""
        plan = self._plans.get(seat)
        if plan is None:
            seen = [(z.idx, pos) for z, _at, pos in self._zones if z.visible_to(seat)]
            seen_flags = [at + 1 for z, at, _pos in self._zones if z.visible_to(seat)]
            counted = [(z.idx, at) for z, at, _pos in self._zones if z.count_visible()]
            plan = self._plans[seat] = (seen, seen_flags, counted,
                                        frozenset(z.idx for z, _at, _pos in self._zones if z.visible_to(seat)))
        return plan

    def encode(self, game: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """`seat`'s observation of `game` (float32, length `size`); written into `out` when given."""
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        # single entries are written through a memoryview: a tenth of numpy's cost per item
        mv: Any = out.data  # the array's memoryview
        st = game.st
        seen, seen_flags, counted, seen_set = self._plan(seat)
        zones = st.zones
        mv[self._seat + seat] = 1.0
        mv[self._terminal if st.terminal else self._actor + st.actor] = 1.0
        i = self._steps.get(st.step)
        if i is not None:
            mv[self._step + i] = 1.0
        for zi, at in counted:
            mv[at] = len(zones[zi])
        for at in seen_flags:
            mv[at] = 1.0
        for zi, posl in seen:
            for c in zones[zi]:
                mv[posl[c.id]] = 1.0
        if st.marks:
            self._marks(st, seen_set, mv)
        g = st.g
        for name, at in self._scalars:
            mv[at] = g[name]
        for name, at, write in self._vars:
            write(out, at, g[name])
        alive, member = st.ent_alive, st.member
        for e, e_at, members in self._ents:
            if alive[e._n]:
                mv[e_at] = 1.0
            for name, m_at, write in members:
                write(out, m_at, member(e, name))
        return out

    def _marks(self, st: Any, seen: frozenset[int], mv: Any) -> None:
        """Set the mark bits the seat sees: on components in zones it sees, else on the place
        of a zone it does not see (`_slot_marks`)."""
        loc, zones, comps = st.loc, st.zones, st.comps
        sets = self._mark_sets
        if len(sets) > 100_000:
            sets.clear()
        for cid, marks in st.marks.items():
            zi = loc[cid]
            if zi is None:
                continue
            if zi in seen:
                base = self._comp_marks + cid * MARK_BUCKETS
            else:
                slot_at = self._slot_marks.get(zi)
                if slot_at is None:
                    continue
                base = slot_at + zones[zi].index(comps[cid]) * MARK_BUCKETS
            # a component's marks are a tuple the state replaces when they change: its bits are
            # kept by the tuple's id, with the tuple (so the id is not reused meanwhile)
            got = sets.get(id(marks))
            if got is None or got[0] is not marks:
                got = sets[id(marks)] = (marks, sorted({self._bit(m) for m in marks}))
            for b in got[1]:
                mv[base + b] = 1.0

    def _bit(self, mark: Any) -> int:
        """A mark's bit, kept by the mark's id with the mark itself (so the id cannot be
        reused meanwhile): a mark stays the same object while it stays on a component."""
        got = self._mark_bits.get(id(mark))
        if got is None or got[0] is not mark:
            if len(self._mark_bits) > 100_000:
                self._mark_bits.clear()
            got = self._mark_bits[id(mark)] = (mark, zlib.crc32(repr(mark).encode()) % MARK_BUCKETS)
        return got[1]
