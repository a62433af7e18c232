"""Generate Python source for the hot paths of a ruleset, compiled once per ruleset.

Ruleset functions become Python functions, each move's legal-move search becomes nested
`for` loops with its requires inlined, each trigger's condition becomes a search function,
and the effects (move and trigger bodies, procedures, setup) become Python statements.
Rule-language locals become Python locals, so the interpreter does per ply about what a
hand-written engine does. The closures of `runtime.compile` remain the reference the
generated code is tested against (`LUDEX_NO_CODEGEN=1`), and run whatever cannot be generated.

Every generated function takes the game's `State` first. Names in the generated module:
`F_<fn>` functions, `M_<i>` move searches, `T_<i>` trigger searches, `P_<proc>` procedures,
`B_<i>` move bodies, `TB_<i>` trigger bodies, `SETUP`, and helpers below.
"""

from __future__ import annotations

import itertools
import keyword
import re
from collections.abc import Callable
from operator import attrgetter, itemgetter
from typing import Any

from dsl import ast as A
from dsl.ir import Ruleset
from runtime import builtins as B
from runtime import outcomes, picks
from runtime.budget import BudgetExceeded
from runtime.errors import RuleError
from runtime.state import State, count_elements
from runtime.values import RESERVED, ZoneRef

SPECIAL_PY = {
    "actor": "st.actor",
    "current": "st.current",
    "step": "st.step",
    "seats": "st.seat_list",
    "nseats": "st.nseats",
    "option": "st.options",
    "ply": "len(st.events)",
}


class CodegenError(Exception):
    """A construct the generator cannot express (the caller falls back to closures)."""


# ---- helpers available to generated code ----


def _index(st: Any, c: Any, k: Any) -> Any:
    if c.__class__ is ZoneRef:
        return st.zones[c.idx][k]
    return c[k]


def _add(st: Any, a: Any, b: Any) -> Any:
    if a.__class__ is int and b.__class__ is int:
        return a + b
    return list(st.items(a)) + list(st.items(b))


def _concat(st: Any, a: Any, b: Any) -> list:
    return list(st.items(a)) + list(st.items(b))


_ABSENT = object()
_D = attrgetter("d")


def _count_of(st: Any, z: ZoneRef, attr: str, value: Any) -> int:
    """How many components of zone `z` have `attr` equal to `value`, from the zone's tally
    (`_counts`; generated code reads an up-to-date one in place and calls this otherwise), for
    a zone whose counts the state does not keep (`Gen._kept_counts`)."""
    return _counts(st, z, attr).get(value, 0)


def _counts(st: Any, z: ZoneRef, attr: str) -> dict[Any, int]:
    """{value: count} of `attr` over zone `z`'s components, in first-seen order, from the
    zone's tally (made and kept on `z.tally` when it is not up to date); not to be changed.
    The tally holds while the zone's list stays the same object: the effects never change a
    zone's list in place once rules can read it (`State.move_items` copies), and placing a
    component at table building forgets the zone's tally (`place_initial`)."""
    lst = st.zones[z.idx]
    t = z.tally
    if t is None or t[0] is not lst:
        t = z.tally = (lst, {})
    by = t[1].get(attr)
    if by is None:
        by = {}
        # Counter's own counting loop (C), on a plain dict: the same counts in first-seen order
        count_elements(by, map(itemgetter(attr), map(_D, lst)))
        t[1][attr] = by  # complete before it is seen
    return by


def _find(st: Any, key: tuple[str, str, str], v: Any) -> Any:
    """`[x for x in SET if x.FIELD == v][0]` (key ("$find", SET, FIELD)) for an entity set and a
    hashable entity field no rule assigns (`Gen.fixed_fields`) in a ruleset that removes no
    entity: the entity from a table {value: first position}, kept in `State.pure_memo` (shared
    by the games of a template) with the set's list and the field's column it was made from,
    and made again when either is another list (code outside the rules that sets such a field
    writes a copy of its column: `State.set_member`). IndexError, as the comprehension's `[0]`, when
    no entity has the value."""
    m = st.pure_memo.get(key)
    if m is None or m[0] is not st.g[key[1]] or m[1] is not st.ev[key[2]]:
        lst, col = st.g[key[1]], st.ev[key[2]]
        firsts: dict[Any, int] = {}
        for i, x in enumerate(lst):
            firsts.setdefault(col[x._n], i)
        m = st.pure_memo[key] = (lst, col, firsts)  # complete before it is seen
        st.pure_memo[("$found", key[2])] = True  # `State.set_member` then writes a copy of that column
    i = m[2].get(v)
    if i is None:
        raise IndexError("list index out of range")
    return m[0][i]


def _tally_of(st: Any, z: ZoneRef, attr: str, keys: Any) -> dict[Any, int]:
    """`tally(z, attr, keys)` (runtime.builtins) of a zone, from its tally: the keys with 0 in
    their order, then the values first seen in the zone, as the built-in's one pass makes it."""
    out = dict.fromkeys(st.items(keys), 0) if keys is not None else {}
    out.update(_counts(st, z, attr))
    return out


def _tally_zones(st: Any, zones: list[ZoneRef], attr: str, keys: Any) -> dict[Any, int]:
    """`tally([x for ... for x in ZONE], attr, keys)` from the zones in order, a small one
    counted in place and a larger one from its tally: the same counts, and the values in the
    order the built-in's one pass first sees them."""
    out = dict.fromkeys(st.items(keys), 0) if keys is not None else {}
    lists = st.zones
    for z in zones:
        lst = lists[z.idx]
        if len(lst) <= _COUNTED_IN_PLACE:
            for c in lst:
                k = c.d[attr]
                out[k] = out.get(k, 0) + 1
        else:
            for k, n in _counts(st, z, attr).items():
                out[k] = out.get(k, 0) + n
    return out


# a zone of at most this many components is counted one by one, faster than through its tally
_COUNTED_IN_PLACE = 8


def _end_game(st: Any, kind: str, reason: Any, span: Any, main: Any = None, breaks: tuple = (), ties: str = "win",
              carried: Any = _ABSENT) -> None:
    """`end game` from generated effects: the outcome (`runtime.outcomes`) of kind `kind` with
    the evaluated winner, team score or scores (`main`), tie-breakers and carried scores."""
    if kind == "team":
        st.end_game({"kind": "team", "winners": list(st.seat_list), "scores": {"team": main}, "reason": reason}, span)

    def seat_values(v: Any) -> dict[int, Any]:
        try:
            return outcomes.per_seat(v, st.seat_list)
        except KeyError as exc:
            raise RuleError(f"end game: {exc.args[0]}", span) from None

    if kind in ("scores", "rank", "lowest"):
        st.end_game(outcomes.ranked(kind, st.seat_list, reason, seat_values(main), [seat_values(b) for b in breaks], ties),
                    span)
    st.end_game(outcomes.plain(kind, reason, main if kind == "win" else None,
                               seat_values(carried) if carried is not _ABSENT else None), span)


def _proc(st: Any, name: str, *args: Any) -> None:
    """Run procedure `name` through its closures (when its body could not be generated)."""
    c = st.callables[name]
    env: list = [None] * max(c.nslots, 1)
    env[: len(args)] = args
    for s in c.body:
        s(st, env)


UNSET = object()
PURE_MEMO_MAX = 20_000  # values `State.pure_memo` keeps per game template before it starts again


HELPERS = {"UNSET": UNSET, "ITEMS": State.items, "MEMBER": State.member, "IX": _index, "ADD": _add, "CAT": _concat, "DISPLAY": B.display, "FUNCS": B.FUNCS,
           "END_GAME": _end_game, "PURE_MEMO_MAX": PURE_MEMO_MAX, "COUNT_OF": _count_of, "TALLY_OF": _tally_of, "TALLY_ZONES": _tally_zones, "COUNTS": _counts, "FIND": _find, "PROC": _proc, "ZoneRef": ZoneRef,
           "PICK_OFFER": picks.offer, "BUDGET": BudgetExceeded}


class Gen:
    """Source generation for one ruleset; `module()` returns the namespace with every function."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.owns: dict[str, frozenset[str]] = {}  # generated body name -> the roots it takes first (`compile_module`)
        self.fns = {f.name: f for f in rs.fns}
        self.enum_values = {v for e in rs.enums for v in e.values}
        self.enum_types = {e.name: list(e.values) for e in rs.enums}
        self.steps = {s.name for s in rs.steps}
        self.ctors = {c.name for c in rs.component_types} | {e.name for e in rs.entity_types}
        self.counter = itertools.count()
        self.last = -1  # the number of the latest fresh name
        # while a search's conditions are generated: memoised subexpressions (see `_hoist`)
        self.hoist: _Hoist | None = None
        # hoisting is off only because an earlier operand guards the node (`Gen._guarded`)
        self.guard_ok = False
        self.hoist_ok = False  # the node being generated is evaluated whenever its condition is
        self.consts: dict[str, Any] = {}
        self.depth = 0
        # > 0 while a comprehension's iterable is generated, where Python forbids `:=`
        self.iterable_depth = 0
        self.recursive = recursive_fns(rs)
        # static shapes, so zones are read as `Z[ref.idx]` without a helper call
        self.global_zones = {z.name: z.per_seat or bool(z.per) for z in rs.zones}
        members: dict[str, set[bool]] = {}
        others: set[str] = set()
        for e in rs.entity_types:
            for z in e.zones:
                members.setdefault(z.name, set()).add(z.per_seat or bool(z.per))
            others |= {f.name for f in e.fields} | {v.name for v in e.vars}
        for c in rs.component_types:
            others |= {f.name for f in c.fields}
        self.member_zones = {m: next(iter(k)) for m, k in members.items() if len(k) == 1 and m not in others}
        # the zone declarations of each name (a global zone's and entity zones'), and each
        # component type's fields: the zones whose counts the state can keep (`_kept_counts`)
        self.zone_decls: dict[str, list[A.ZoneDecl]] = {}
        for z in [*rs.zones, *(z for e in rs.entity_types for z in e.zones)]:
            self.zone_decls.setdefault(z.name, []).append(z)
        self.comp_fields = {c.name: {f.name for f in c.fields} | {"name", "kind"} for c in rs.component_types}
        # whether a component constructor is called where the rules run once the tables are
        # built (setup, moves, triggers, procedures, functions): the state keeps a cell per
        # value its components hold then (`State.keep_counts`), so none are kept if more can come
        comp_types = {c.name for c in rs.component_types}
        self.makes_components = any(n.op == "call" and n.args[0] in comp_types
                                    for n in A.walk((rs.setup, rs.moves, rs.triggers, rs.procs, rs.fns)))
        # zone declaration -> the attributes whose counts over its zones the generated code reads
        # from `State.count_cells` (through `State.count_places`), in the order of their slots (`State.keep_counts`)
        self.counted: dict[str, list[str]] = {}
        # entity members always holding a Python list: per-seat variables (one value per seat)
        self.member_lists = _every_declaration(rs, lambda f: False, lambda v: v.per_seat)
        # entity members indexed as Python sequences: per-seat variables, and variables holding a
        # list of anything but components (never a zone)
        self.member_seqs = _every_declaration(rs, lambda f: False, lambda v: v.per_seat or (
            not v.per and v.type.name == "list" and not v.type.optional and bool(v.type.args)
            and not set(v.type.args[0].members) & self.ctors))

        def seq(t: A.TypeRef) -> bool:  # a Python list or dict, never a zone (it holds no components)
            if t.optional or t.name not in ("list", "map") or not t.args:
                return False
            return t.name == "map" or not set(t.args[-1].members) & self.ctors
        # global variables indexed as Python sequences, and per-seat ones whose elements are
        self.global_seqs = {v.name for v in rs.vars if not v.per_seat and not v.per and seq(v.type)}
        self.per_seat_seqs = {v.name for v in rs.vars if v.per_seat and not v.per and seq(v.type)}
        self.seq_lists = {v.name for v in rs.vars if v.type.name == "list"}  # of those, the lists (not maps)
        # locals holding a list of hashable values (`let vs = [x.value for x in xs]`)
        self.scalar_lists: set[str] = set()
        # attributes only components have: read as Python attributes (`card.colour`, see Comp)
        ent_members = {m for e in rs.entity_types for m in [*(f.name for f in e.fields), *(v.name for v in e.vars),
                                                             *(z.name for z in e.zones)]}
        self.comp_attrs = {f.name for c in rs.component_types for f in c.fields
                           if f.name not in ent_members and f.name not in RESERVED and f.name.isidentifier()
                           and not keyword.iskeyword(f.name)}
        # the entities' fields and variables, kept in the state's columns (`State.ev`): read as
        # `EV_name[x._n]` (the column, a local: `_prologue`) where no component field or entity
        # zone has the name, else through `MEMBER` (which tells the two apart at run time)
        self.ent_columns = {m for e in rs.entity_types for m in [*(f.name for f in e.fields), *(v.name for v in e.vars)]}
        self.ent_only = self.ent_columns - {f.name for c in rs.component_types for f in c.fields} - {
            z.name for e in rs.entity_types for z in e.zones} - RESERVED
        self.lists = {c.name for c in rs.component_sets} | {e.name for e in rs.entity_sets}
        self.procs = {p.name: p for p in rs.procs}
        # functions of the state alone that loop over something: computed once per state version
        self.memoised = {f.name for f in rs.fns if not f.params and f.name not in self.recursive
                         and any(n.op in _LOOPS or (n.op == "call" and n.args[0] in self.fns) for n in A.walk(f.body))}
        self.generated_procs: set[str] = set()
        # functions of their arguments alone, memoised per game template by argument values
        self.arg_memoised = self._arg_memoised()
        # every name some trigger's condition reads (None: unknown); a change to another name is
        # not marked in `State.dirty`, which only the triggers read
        self.trigger_deps: frozenset[str] | None = None
        # attributes whose values are always hashable (every declaration of the name is an int,
        # bool, str, seat or enum field), so they can key a memo
        scalar = {"int", "bool", "str", "seat"} | set(self.enum_types)

        def plain(t: A.TypeRef) -> bool:
            return t.name in scalar and not t.args
        # a per-seat or per-enum variable holds a list or a dict, never a scalar
        self.scalar_attrs = _every_declaration(rs, lambda f: plain(f.type),
                                               lambda v: plain(v.type) and not v.per_seat and not v.per, ("name", "kind"))
        # entity fields no rule assigns (nor flips), of hashable values, read from their columns, in
        # a ruleset that removes no entity: each set's entity with a value is looked up (`_find`)
        assigned = {x for m in A.walk(rs) if m.op == "target" for kind, x in m.args[1] if kind == "attr"}
        removes = any(m.op == "remove_stmt" for m in A.walk(rs))
        self.fixed_fields = set() if removes else (
            {p.name for e in rs.entity_types for p in e.fields} - {v.name for e in rs.entity_types for v in e.vars}
            - assigned) & self.scalar_attrs
        self.entity_set_names = {e.name for e in rs.entity_sets}
        # attributes and globals always holding an int (for `+` without the list case)
        self.int_attrs = _every_declaration(rs, lambda f: _int_type(f.type),
                                            lambda v: _int_type(v.type) and not v.per_seat and not v.per)
        self.int_globals = {v.name for v in rs.vars if _int_type(v.type) and not v.per_seat and not v.per}
        self.var_decls = {v.name: v for v in rs.vars}
        # `other(s)` is `1 - s` when a game always has exactly two seats
        self.two_seats = tuple(rs.seats) == (2, 2) and not rs.automata
        # subexpressions computed before the comprehension being generated: id(node) -> local
        self.prebound: dict[int, str] = {}
        self.shared_counts: dict[str, int] = {}  # while a search is generated: see `_shared_call`
        # while a search is generated: the Python names of its binders and of its comprehension
        # variables with hashable values (None: no search), the latter, and the memo of each
        # ruleset function called with some of those (see `_search_memo`)
        self.search_keys: set[str] | None = None
        self.search_vars: set[str] = set()
        self.search_memos: dict[str, str] = {}
        # Python locals holding a zone's counts of an attribute's values ({value: n}, values
        # with none left out) for a `let` of a tally read only at values of its keys (`_counts_let`)
        self.count_locals: set[str] = set()
        # those holding instead where a zone's kept counts are ({value: cell of
        # `State.count_cells`}, `_kept_counts`), read as `st.count_cells[local.get(value, 0)]`
        self.kept_locals: set[str] = set()
        # Python locals known to hold a list or a dict (`let` of one): name -> "list" | "map"
        self.local_shapes: dict[str, str] = {}  # also "int": a local always holding an int
        self.fn_shapes: dict[str, str | None] = {}  # see `_returns_shape`
        # globals whose value is always a list or a dict: constants written as one, and the
        # containers of per-seat (a list) and per-enum (a dict) variables
        self.global_shapes: dict[str, str] = {}
        for c in rs.consts:
            shape = {"list_lit": "list", "list_comp": "list", "range": "list", "map_lit": "map", "map_comp": "map"}.get(c.value.op)
            if shape is not None:
                self.global_shapes[c.name] = shape
        for var in rs.vars:
            if var.per_seat:
                self.global_shapes[var.name] = "list"
            elif var.per:
                self.global_shapes[var.name] = "map"

    def _arg_memoised(self) -> set[str]:
        """Ruleset functions whose value depends on their arguments alone (and on what is fixed
        for a game template: constants, component sets, seats, options), that loop or call other
        functions, return a scalar and take scalars or lists of components: a score of the
        components in one zone, asked again every turn while that zone stays. Their calls are
        memoised by argument values in `State.pure_memo`, shared by the games of a template."""
        rs = self.rs
        fixed = ({c.name for c in rs.consts} | {c.name for c in rs.component_sets} | set(self.enum_types)
                 | self.enum_values | self.steps | {"seats", "nseats", "option"})
        changing = ({z.name for z in rs.zones} | {v.name for v in rs.vars} | {e.name for e in rs.entity_sets}
                    | {"actor", "current", "step", "ply"})
        ent_state = {m for e in rs.entity_types for m in [*(v.name for v in e.vars), *(z.name for z in e.zones)]}
        safe = {"size", "count", "len", "sum", "min", "max", "any", "all", "other", "next", "first", "abs", "bundles",
                "tally", "sorted", "argmax", "argmin", "keys", "values", "empty", "distinct", "list", "str",
                "group_values", "top_run", "best_combination"}
        scalar = {"int", "bool", "str", "seat"} | set(self.enum_types)

        def own_pure(f: A.FnDecl) -> tuple[bool, set[str]]:
            local = {p.name for p in f.params} | {n.args[0] for n in A.walk(f.body) if n.op in ("let_expr", "comp_for")}
            if local & changing:  # a local that hides a changing name here may read it elsewhere
                return False, set()
            calls: set[str] = set()
            for n in A.walk(f.body):
                op, a = n.op, n.args
                if op == "name" and a[0] not in local and a[0] not in fixed:
                    return False, set()
                if op == "attr" and (a[1] in ent_state or (a[0].op == "name" and a[0].args[0] == "option")):
                    return False, set()
                if op == "call":
                    if a[0] in self.fns:
                        calls.add(a[0])
                    elif a[0] not in safe:
                        return False, set()
                if op == "gen_call" and a[0] not in safe:
                    return False, set()
                if op not in _PURE_OPS:
                    return False, set()
            return True, calls

        own = {f.name: own_pure(f) for f in rs.fns if f.name not in self.recursive}
        pure = {name for name, (ok, _c) in own.items() if ok}
        while True:  # a function is pure when the functions it calls are
            drop = {name for name in pure if not own[name][1] <= pure}
            if not drop:
                break
            pure -= drop
        out = set()
        for f in rs.fns:
            params_ok = f.params and all(
                (p.type.name in scalar and not p.type.args)
                or (p.type.name == "list" and not p.type.optional and len(p.type.args) == 1 and not p.type.args[0].optional
                    and set(p.type.args[0].members) <= {c.name for c in rs.component_types})
                for p in f.params)
            lists = any(p.type.name == "list" for p in f.params)
            costly = any(n.op in _LOOPS or (n.op == "call" and n.args[0] in self.fns) for n in A.walk(f.body))
            returns_scalar = f.returns is not None and f.returns.name in scalar and not f.returns.args
            if f.name in pure and params_ok and lists and costly and returns_scalar:
                out.add(f.name)
        return out

    def inlinable(self, f: A.FnDecl, args: list[Any]) -> bool:
        """Inline calls to small, non-recursive functions whose arguments are cheap and pure
        (names, literals, attribute reads): repeating them costs less than a Python call."""
        if f.name in self.recursive or self.depth >= MAX_INLINE_DEPTH or f.name in self.memoised or f.name in self.arg_memoised:
            return False
        if sum(1 for _ in A.walk(f.body)) > MAX_INLINE_NODES:
            return False
        return all(a is not None and _simple(a) for a in args)

    def fresh(self, name: str) -> str:
        self.last = next(self.counter)
        return f"v{self.last}_{name}"

    def const(self, value: Any) -> str:
        key = f"K{len(self.consts)}"
        self.consts[key] = value
        return key

    def shape(self, n: A.Node, env: dict[str, str]) -> str | None:
        """"zone" (a ZoneRef), "zones" (a per-seat list of them), "list" (a Python list), "map"
        (a Python dict) or None (not known before run time)."""
        op = n.op
        if op == "name":
            name = n.args[0]
            if name in env:  # an inlined function's parameter is its argument's text in parentheses
                return self.local_shapes.get(env[name].strip("()"))
            if name in self.global_zones:
                return "zones" if self.global_zones[name] else "zone"
            if name in self.lists or name in self.enum_types or name == "seats":
                return "list"
            return self.global_shapes.get(name)
        if op == "it":
            return self.local_shapes.get(env["$it"]) if "$it" in env else None
        if op == "attr" and n.args[1] in self.member_lists:
            return "list"
        if op == "attr" and n.args[1] in self.member_zones:
            return "zones" if self.member_zones[n.args[1]] else "zone"
        if op == "index" and self.shape(n.args[0], env) == "zones":
            return "zone"
        if op in ("where", "range", "list_lit", "list_comp"):
            return "list"
        if op in ("map_lit", "map_comp"):
            return "map"
        if op == "binop" and n.args[0] == "++":
            return "list"
        if op == "call" and n.args[0] not in self.fns and n.args[0] in _LIST_BUILTINS:
            return "list"
        if op == "call" and n.args[0] not in self.fns and n.args[0] in ("tally", "group_values"):
            return "map"
        if op == "call" and n.args[0] in self.fns:
            return self._returns_shape(n.args[0])
        if op == "let_expr":  # the value of its body, where the let's name is not a global
            return self.shape(n.args[2], {**env, n.args[0]: "$let"})
        if op == "if_expr":
            parts = n.args
            shapes = {self.shape(parts[k], env) for k in range(1, len(parts) - 1, 2)} | {self.shape(parts[-1], env)}
            if len(shapes) == 1 and shapes & {"list", "map"}:
                return shapes.pop()
        return None

    def iterable(self, n: A.Node, env: dict[str, str]) -> str:
        """`items` for the iterable of a comprehension."""
        self.iterable_depth += 1
        try:
            return self.loop_items(n, env)
        finally:
            self.iterable_depth -= 1

    def loop_items(self, n: A.Node, env: dict[str, str]) -> str:
        """`items` for a loop over `n` (a comprehension's iterable, a search binder's or a `for`
        statement's domain), which only iterates it: a range as a Python range, or as a tuple
        constant when its bounds are literals, with no list made per evaluation."""
        if n.op == "range":
            lo, hi = n.args
            if _int_lit(lo) and _int_lit(hi) and hi.args[0] - lo.args[0] < _FOLDED_RANGE:
                return repr(tuple(range(lo.args[0], hi.args[0] + 1)))
            return f"range({self.ex(lo, env)}, {self.ex(hi, env)} + 1)"
        return self.items(n, env)

    def _returns_shape(self, name: str) -> str | None:
        """"list" or "map" when ruleset function `name` always returns a Python list or dict
        (what its body builds), else None."""
        if name not in self.fn_shapes:
            self.fn_shapes[name] = None  # while its body is looked at: a recursive call is unknown
            f = self.fns[name]
            got = self.shape(f.body, {p.name: "$param" for p in f.params})
            self.fn_shapes[name] = got if got in ("list", "map") else None
        return self.fn_shapes[name]

    def items(self, n: A.Node, env: dict[str, str]) -> str:
        """Python text iterating the elements of collection `n`."""
        shape = self.shape(n, env)
        if shape == "zone":
            return f"Z[{self.ex(n, env)}.idx]"
        if shape == "list":
            return self.ex(n, env)
        text = self.ex(n, env)
        # a local, or a variable declared a list (it may still hold none, or a zone where the
        # type is list<any>): test for a list in place, no call for the common case
        if _LOCAL.fullmatch(text) or self._seq_var(n, env):
            return f"({text} if {text}.__class__ is list else ITEMS(st, {text}))"
        return f"ITEMS(st, {text})"

    def _seq_var(self, n: A.Node, env: dict[str, str]) -> bool:
        """Whether `n` reads a variable declared as a list of values that are not components (a
        global one, a per-seat one's element, an entity's): most often a Python list, whose
        elements are what `State.items` gives; the checker still lets it hold none, or a zone
        where the type is list<any>, so `items` tests for a list before reading it in place."""
        if n.op == "name":
            return n.args[0] not in env and n.args[0] in self.global_seqs and n.args[0] in self.seq_lists
        if n.op == "attr":  # an entity's variable holding a list of values, or a per-seat one
            return n.args[1] in self.member_seqs and not (n.args[0].op == "name" and n.args[0].args[0] == "option")
        return (n.op == "index" and n.args[0].op == "name" and n.args[0].args[0] not in env
                and n.args[0].args[0] in self.per_seat_seqs and n.args[0].args[0] in self.seq_lists)

    # ---- expressions: DSL node -> Python expression text; `env` maps DSL locals to Python names ----
    def ex(self, n: A.Node, env: dict[str, str]) -> str:
        if self.prebound:
            py = self.prebound.get(id(n))
            if py is not None:
                return py
        if n.op == "gen_call":
            m = self._any_as_in(n, env)
            if m is not n and self.hoist is not None and not self.hoist_ok and self.guard_ok and not self.iterable_depth:
                # a pure test that cannot fail: its list may be made once where a guard reaches it
                self.hoist_ok = True
                try:
                    return self.ex(m, env)
                finally:
                    self.hoist_ok = False
            n = m
        f = getattr(self, "ex_" + n.op, None)
        if f is None:
            raise CodegenError(f"no generator for {n.op}")
        if self.hoist is None or not self.hoist_ok:
            return f(n, env, *n.args)
        first = self.last + 1
        if n.op in _TRANSPARENT:
            text = f(n, env, *n.args)
        else:
            guard_ok = self.guard_ok
            self.hoist_ok = self.guard_ok = False  # inside a comprehension, a branch or a `let` body
            try:
                text = f(n, env, *n.args)
            finally:
                self.hoist_ok, self.guard_ok = True, guard_ok
        return self._hoist(text, first) if n.op in _HOISTED else text

    def _any_as_in(self, n: A.Node, env: dict[str, str]) -> A.Node:
        """`any(x.a == e for x in Z)` over a zone `Z`, with `e` a name, a literal or an
        attribute read not reading `x`, as `e in [x.a for x in Z]`: the same truth (the values
        compare with `==`; `e` is pure), and the list reads no binder the test's `e` reads, so
        a legal-move search makes it once per zone, not once per value of `e` (`_hoist`: does
        any element of Z have a == 1? a == 2? ... from one list of Z's values of a). Only for `e` a
        name or a literal: the list reads every element and `e` is read even when Z is empty, so
        an `e` that could fail (an attribute of none) keeps the short-circuiting form. Else `n`."""
        fname, elem, fors = n.args
        if fname != "any" or len(fors) != 1:
            return n
        elem = self._expand(elem)  # `f(x, e)`, a function whose body is `x.a == e`: that body
        if elem.op != "binop" or elem.args[0] != "==":
            return n
        var, dom, cond = fors[0].args
        if cond is not None or self.shape(dom, env) != "zone":
            return n
        for x, e in ((elem.args[1], elem.args[2]), (elem.args[2], elem.args[1])):
            if (x.op == "attr" and x.args[0].op == "name" and x.args[0].args[0] == var and e.op in ("name", "lit")
                    and not any(m.op in ("name", "it") and (m.op == "it" or m.args[0] == var) for m in A.walk(e))):
                return A.Node("in_", (e, A.Node("list_comp", (x, fors), n.span)), n.span)
        return n

    def _hoist(self, text: str, first: int) -> str:
        """Loop-invariant code motion for legal-move searches: a subexpression that does not
        read the innermost binder of its condition is computed at most once per binding of the
        binders it reads (memoised at that loop's level, on first use, so it is still evaluated
        only where the condition would evaluate it)."""
        h = self.hoist
        assert h is not None
        done = _memoised(h.exprs, text)
        if done is not None:
            return done
        if not _COSTLY.search(text):
            return text
        level = -1
        for tok in _TOKEN.findall(text):
            if tok in h.levels:
                level = max(level, h.levels[tok])
            elif int(tok[1:].split("_", 1)[0]) < first:
                return text  # a local of an enclosing expression
        if level >= h.cur:
            return text
        memo = h.memo.get(text)
        if memo is None:
            memo = h.memo[text] = f"h{next(self.counter)}"
            h.levels[memo] = level
            h.inits.setdefault(level, []).append(memo)
        # a local of the search function (hoisted text is never inside a comprehension or a lambda)
        out = f"({memo} if {memo} is not UNSET else ({memo} := {text}))"
        h.exprs.add(out)
        return out

    def _shared_call(self, name: str, args: list[Any], env: dict[str, str]) -> tuple[str, int] | None:
        """Common subexpressions of one search: a call of ruleset function `name` whose arguments
        read no local but the search's binders (`need(f)` asked by `complete(f, s)` and again
        by `threatened(f, s)`) has the same value wherever the search asks it for the same
        binder values, since a search never changes the state. Returns the call's key (its
        arguments' structure, binders by loop level, so the dry run's count of each key holds
        for the real run) and the deepest loop level it reads, when the call is to be shared;
        else None. A recursive function is never shared: each of its calls spends budget."""
        h = self.hoist
        if h is None or self.iterable_depth or name in self.recursive:
            return None
        level = -1

        def key(x: Any) -> str:
            nonlocal level
            if isinstance(x, tuple):
                return "(" + ",".join(key(y) for y in x) + ")"
            if not isinstance(x, A.Node):
                return repr(x)
            if x.op == "it" or (x.op == "name" and x.args[0] in env):
                text = env.get("$it" if x.op == "it" else x.args[0])
                if text is None:
                    raise KeyError(x.op)
                for tok in _TOKEN.findall(text):
                    if tok not in h.binders:  # a let's or a comprehension's local: not shared
                        raise KeyError(tok)
                    level = max(level, h.levels[tok])
                    text = re.sub(rf"\b{tok}\b", f"#{h.levels[tok]}", text)
                while _GROUPED.search(text):
                    text = _GROUPED.sub(r"\1", text)
                return text
            return x.op + key(x.args)

        try:
            k = name + key(tuple(args))
        except KeyError:
            return None
        if h.counts is not None:  # the dry run: count each call
            h.counts[k] = h.counts.get(k, 0) + 1
            return None
        return (k, level) if self.shared_counts.get(k, 0) > 1 else None

    def _search_memo(self, name: str, args: list[str], text: str, env: dict[str, str]) -> str:
        """`text`, a call of ruleset function `name` with arguments `args` in a search, through
        a memo of the search by argument values when some argument is a comprehension
        variable, every one a binder, such a variable, the actor or a literal, and a binder or
        variable in scope (`env`) is none of them, so that the call is asked again with the
        same arguments: a search never changes the state, so `awarded(d)` asked for every
        colour `d` in each binding of an outer binder is computed once per colour. Else `text`."""
        keys = [a.strip("()") for a in args]
        if (self.search_keys is None or name in self.recursive or not _COSTLY.search(text)
                or not any(k in self.search_vars for k in keys)
                or not all(k in self.search_keys or k in ("st.actor", "st.current") or _LITERAL.fullmatch(k) for k in keys)):
            return text
        if not {tok for v in env.values() for tok in _TOKEN.findall(v)} & self.search_keys - set(keys):
            return text  # asked once per value of the loops around it
        memo = self.search_memos.setdefault(name, f"m{next(self.counter)}")
        keys = [k for k in keys if k not in ("st.actor", "st.current")]  # the same in the whole search
        key = keys[0] if len(keys) == 1 else "(" + "".join(k + ", " for k in keys) + ")"
        return f"({memo}[{key}] if {key} in {memo} else {memo}.setdefault({key}, {text}))"

    def _share(self, shared: tuple[str, int], text: str) -> str:
        """`text`, a call shared by key (`_shared_call`), as a memo cell of the search: reset
        for each value of the deepest binder it reads, filled where the search first asks it."""
        h = self.hoist
        assert h is not None
        done = _memoised(h.shared_exprs, text)  # a call of another shared call (`fog_at(f)` is `has_env(f, fog)`)
        if done is not None:
            return done
        k, level = shared
        memo = h.shared.get(k)
        if memo is None:
            memo = h.shared[k] = f"h{next(self.counter)}"
            h.levels[memo] = level
            h.inits.setdefault(level, []).append(memo)
            h.memo[text] = memo
        out = f"({memo} if {memo} is not UNSET else ({memo} := {text}))"
        h.exprs.add(out)
        h.shared_exprs.add(out)
        return out

    def ex_lit(self, n, env, v):
        return repr(v)

    def ex_fstring(self, n, env, *parts):
        pieces = [f"DISPLAY({self.ex(p, env)})" if isinstance(p, A.Node) else repr(p) for p in parts]
        return "''.join([" + ", ".join(pieces) + "])"

    def ex_name(self, n, env, name):
        if name in env:
            return env[name]
        if name in SPECIAL_PY:
            return SPECIAL_PY[name]
        if name in self.enum_values or name in self.steps:
            return repr(name)
        if name in self.enum_types:
            return self.const(self.enum_types[name])
        return f"G[{name!r}]"

    def ex_it(self, n, env):
        if "$it" not in env:
            raise CodegenError("`it` outside of `where`")
        return env["$it"]

    def ex_attr(self, n, env, obj, name):
        if obj.op == "name" and obj.args[0] == "option" and "option" not in env:
            return f"st.options[{name!r}]"
        if name in self.comp_attrs:
            return f"{self.ex(obj, env)}.{name}"
        if name in self.ent_only:
            return f"EV_{name}[{self.ex(obj, env)}._n]"
        if name in self.ent_columns:
            return f"MEMBER(st, {self.ex(obj, env)}, {name!r})"
        return f"{self.ex(obj, env)}.d[{name!r}]"

    def ex_index(self, n, env, obj, idx):
        found = self._entity_found(obj, idx, env)
        if found is not None:
            return found
        if obj.op == "name" and env.get(obj.args[0]) in self.count_locals:
            return f"{env[obj.args[0]]}.get({self.ex(idx, env)}, 0)"
        if obj.op == "name" and env.get(obj.args[0]) in self.kept_locals:
            return f"st.count_cells[{env[obj.args[0]]}.get({self.ex(idx, env)}, 0)]"
        if ((obj.op == "attr" and obj.args[1] in self.member_seqs)
                or (obj.op == "name" and obj.args[0] not in env and obj.args[0] in self.global_seqs)
                or (obj.op == "index" and obj.args[0].op == "name" and obj.args[0].args[0] not in env
                    and obj.args[0].args[0] in self.per_seat_seqs)):
            return f"{self.ex(obj, env)}[{self.ex(idx, env)}]"
        shape = self.shape(obj, env)
        if shape == "zones" or shape == "list" or shape == "map":
            return f"{self.ex(obj, env)}[{self.ex(idx, env)}]"
        if shape == "zone":
            return f"Z[{self.ex(obj, env)}.idx][{self.ex(idx, env)}]"
        return f"IX(st, {self.ex(obj, env)}, {self.ex(idx, env)})"

    def _entity_found(self, obj: A.Node, idx: A.Node, env: dict[str, str]) -> str | None:
        """`[x for x in SET if x.FIELD == v][0]`, with SET an entity set, FIELD one of
        `fixed_fields` and `v` simple (`_simple`, not reading x): `FIND(...)` (`_find`), no
        comprehension run; else None."""
        if idx.op != "lit" or idx.args[0].__class__ is not int or idx.args[0] != 0 or obj.op != "list_comp":
            return None
        elem, fors = obj.args
        if len(fors) != 1:
            return None
        var, src, cond = fors[0].args
        if (elem.op != "name" or elem.args[0] != var or src.op != "name" or src.args[0] in env
                or src.args[0] not in self.entity_set_names or cond is None or cond.op != "binop" or cond.args[0] != "=="):
            return None
        for a, v in ((cond.args[1], cond.args[2]), (cond.args[2], cond.args[1])):
            if (a.op == "attr" and a.args[0].op == "name" and a.args[0].args[0] == var and a.args[1] in self.fixed_fields
                    and a.args[1] in self.ent_only and _simple(v) and not any(m.op in ("name", "it") and m.args[:1] == (var,) for m in A.walk(v))):
                return f"FIND(st, {self.const(('$find', src.args[0], a.args[1]))}, {self.ex(v, env)})"
        return None

    def numeric(self, n: A.Node, env: dict[str, str]) -> bool:
        """Whether `n` always evaluates to an int (so `+` adds numbers, never joins lists)."""
        op, args = n.op, n.args
        if op == "lit":
            return args[0].__class__ is int
        if op == "neg":
            return True
        if op == "binop":
            return args[0] in ("-", "*", "//", "%") or (args[0] == "+" and (self.numeric(args[1], env) or self.numeric(args[2], env)))
        if op == "call":
            name = args[0]
            if name in self.fns:
                f = self.fns[name]
                return f.returns is not None and _int_type(f.returns)
            if name in ("max", "min") and len(args[1]) >= 2 and not args[2]:  # of its arguments, not of a list
                return all(self.numeric(a, env) for a in args[1])
            return name in ("count", "size", "len", "abs", "remaining", "sum")  # `sum` starts at 0: numbers only
        if op == "gen_call":
            return args[0] in ("count", "sum")
        if op == "attr":
            return args[1] in self.int_attrs and not (args[0].op == "name" and args[0].args[0] == "option")
        if op == "name":
            name = args[0]
            if name in env:  # a local noted as an int, or a value written out (`_unrolled`)
                text = env[name].strip("()")
                return self.local_shapes.get(text) == "int" or text.isdigit()
            return name in self.int_globals or name in ("nseats", "ply")
        if op == "if_expr":
            return all(self.numeric(args[k], env) for k in range(1, len(args) - 1, 2)) and self.numeric(args[-1], env)
        if op == "index":
            t = self._indexed_type(n, env)
            return t is not None and _int_type(t)
        return False

    def _indexed_type(self, n: A.Node, env: dict[str, str]) -> A.TypeRef | None:
        """The declared type of `n`, an index into a variable of the rules: `score[s]` of `var
        score: per seat int` is an int, `stock[s][g]` of `var stock: per seat map<good, int>`
        too. None when `n` indexes anything else (a local, a function's value...)."""
        depth = 0
        while n.op == "index":
            n, depth = n.args[0], depth + 1
        if n.op != "name" or n.args[0] in env:
            return None
        v = self.var_decls.get(n.args[0])
        if v is None:
            return None
        t = v.type
        if v.per_seat or v.per:
            depth -= 1  # the seat's (or the key's) own value
        for _ in range(depth):
            if t.optional:
                return None
            if t.name == "list" and len(t.args) == 1:
                t = t.args[0]
            elif t.name == "map" and len(t.args) == 2:
                t = t.args[1]
            else:
                return None
        return t

    def ex_binop(self, n, env, op, x, y):
        a, b = self.ex(x, env), self.ex(y, env)
        if op == "+" and not (_int_lit(x) or _int_lit(y) or self.numeric(x, env) or self.numeric(y, env)):  # an int: the other side is one too
            return f"ADD(st, {a}, {b})"
        if op == "++":
            if self.shape(x, env) == "list" and self.shape(y, env) == "list":
                return f"({a} + {b})"  # two Python lists: a new list, as CAT makes
            return f"CAT(st, {a}, {b})"
        return f"({a} {op} {b})"

    def ex_and_(self, n, env, x, y):
        return f"({self.ex(x, env)} and {self._guarded(y, env)})"

    def ex_or_(self, n, env, x, y):
        return f"({self.ex(x, env)} or {self._guarded(y, env)})"

    def _guarded(self, n: A.Node, env: dict[str, str]) -> str:
        """`n` evaluated only when an earlier operand allows it."""
        ok, self.hoist_ok = self.hoist_ok, False
        guard_ok, self.guard_ok = self.guard_ok, ok or self.guard_ok  # what only guards keep from hoisting
        try:
            return self.ex(n, env)
        finally:
            self.hoist_ok, self.guard_ok = ok, guard_ok

    def ex_not_(self, n, env, x):
        return f"(not {self.ex(x, env)})"

    def ex_in_(self, n, env, x, y):
        return f"({self.ex(x, env)} in {self.items(y, env)})"

    def ex_not_in(self, n, env, x, y):
        return f"({self.ex(x, env)} not in {self.items(y, env)})"

    def ex_is_(self, n, env, x, name):
        if self.shape(x, env) == "comp":  # a zone's element: a component, whose `kind` is a slot
            return f"({self.ex(x, env)}.kind == {name!r})"
        return f"(getattr({self.ex(x, env)}, 'kind', None) == {name!r})"

    def ex_neg(self, n, env, x):
        return f"(-{self.ex(x, env)})"

    def ex_range(self, n, env, x, y):
        if _int_lit(x) and _int_lit(y) and y.args[0] - x.args[0] < _FOLDED_RANGE:  # a list display of constants
            return repr(list(range(x.args[0], y.args[0] + 1)))
        return f"list(range({self.ex(x, env)}, {self.ex(y, env)} + 1))"

    def ex_where(self, n, env, src, cond):
        v = self.fresh("it")
        self._note_element(v, src, env)
        c = self.ex(cond, {**env, "$it": v})
        return f"[{v} for {v} in {self.iterable(src, env)} if {c}]"

    def ex_if_expr(self, n, env, *parts):
        out = self.ex(parts[-1], env)
        for k in range(len(parts) - 3, -1, -2):
            out = f"({self.ex(parts[k + 1], env)} if {self.ex(parts[k], env)} else {out})"
        return out

    def ex_let_expr(self, n, env, name, value, body):
        v = self.fresh(name)
        text = self._let_value(v, name, value, body, env)
        if self.iterable_depth:
            return f"(lambda {v}: {self.ex(body, {**env, name: v})})({text})"
        # an assignment expression: no function object made and called per evaluation
        return f"(({v} := {text}), {self.ex(body, {**env, name: v})})[1]"

    def _let_value(self, py: str, name: str, value: A.Node, body: A.Node, env: dict[str, str]) -> str:
        """The text of the value of `let name = value` bound to local `py` before `body`;
        notes what `py` holds (`_note_shape`, `count_locals`, `kept_locals`)."""
        counts = self._counts_let(name, value, body, env)
        if counts is not None:
            (self.kept_locals if counts[1] else self.count_locals).add(py)
            return counts[0]
        self._note_shape(py, value, env)
        return self.ex(value, env)

    def _counts_let(self, name: str, value: A.Node, body: A.Node, env: dict[str, str]) -> tuple[str, bool] | None:
        """For `let name = tally(zones, "attr", E)` with `E` an enumeration, whose `body` reads
        `name` only as `name[c]` with `c` ranging over `E`: the text of the zones' counts
        alone (`_counts`: no map of every key made), which `ex_index` reads with 0 for a value
        none has, as the tally would hold, or of where a zone's kept counts are
        (`_kept_counts`), which `ex_index` reads in `State.count_cells`; and whether it is the
        latter. Else None."""
        if value.op != "call" or value.args[0] != "tally" or value.args[0] in self.fns or value.args[2]:
            return None
        pos = value.args[1]
        if len(pos) != 3 or pos[1].op != "lit" or pos[1].args[0] not in self.scalar_attrs:
            return None
        keys = pos[2]
        if keys.op != "name" or keys.args[0] in env or keys.args[0] not in self.enum_types:
            return None
        if not _indexed_by(body, name, keys.args[0], set(self.enum_types) - set(env)):
            return None
        attr = repr(pos[1].args[0])
        if self.shape(pos[0], env) == "zone":
            kept = self._kept_counts(pos[0], pos[1].args[0], env)
            return (kept, True) if kept is not None else (f"COUNTS(st, {self.ex(pos[0], env)}, {attr})", False)
        # (over several zones, from their kept counts summed, measured no faster than this)
        zones = self._zones_of(pos[0], env)
        return None if zones is None else (f"TALLY_ZONES(st, {zones}, {attr}, None)", False)

    def _hashable(self, n: A.Node) -> bool:
        """Whether `n` always evaluates to a hashable scalar: a literal, or an attribute always
        holding an int, bool, str, seat or enum value."""
        return (n.op == "lit" and n.args[0].__class__ in (int, str, bool)) or (n.op == "attr" and n.args[1] in self.scalar_attrs
                                                                                 and not (n.args[0].op == "name" and n.args[0].args[0] == "option"))

    def _note_element(self, py: str, src: A.Node, env: dict[str, str]) -> None:
        """Local `py` iterates `src`: when `src` is a zone or a list of components or entities
        (shape "comps"), it holds a component or an entity (shape "comp": it has a `kind`)."""
        if self.shape(src, env) in ("zone", "comps"):
            self.local_shapes[py] = "comp"
        elif src.op == "range":
            self.local_shapes[py] = "int"

    def _note_param(self, py: str, t: A.TypeRef) -> None:
        """Parameter `py` of type `t`: a map parameter holds a dict; a list of component or
        entity types holds them (a list parameter may be given a zone: shape "comps")."""
        if t.optional:
            return
        if t.name == "map":
            self.local_shapes[py] = "map"
        elif t.name == "list" and len(t.args) == 1 and not t.args[0].optional and set(t.args[0].members) <= self.ctors:
            self.local_shapes[py] = "comps"

    def _note_shape(self, py: str, value: A.Node, env: dict[str, str]) -> None:
        if value.op == "list_comp" and self._hashable(value.args[0]):
            self.scalar_lists.add(py)
        shape = self.shape(value, env)
        if shape in ("list", "map"):
            self.local_shapes[py] = shape  # type: ignore[assignment]
        elif self.numeric(value, env):
            self.local_shapes[py] = "int"

    def ex_list_lit(self, n, env, *items):
        return "[" + ", ".join(self.ex(x, env) for x in items) + "]"

    def ex_map_lit(self, n, env, *pairs):
        return "{" + ", ".join(f"{self.ex(k, env)}: {self.ex(v, env)}" for k, v in pairs) + "}"

    def _fors(self, fors: tuple[A.Node, ...], env: dict[str, str]) -> tuple[str, dict[str, str], list[tuple[str, str]]]:
        """The `for ... if ...` clauses of a comprehension, the env inside it, and the values
        computed once before it: costly parts of a later clause's iterable that read none of
        the comprehension's variables (`bundles(tradeable(s, c), k)` for each k: `tradeable`
        once). Wrap the comprehension with `_pre`."""
        inner = dict(env)
        parts = []
        pre: list[tuple[str, str]] = []
        bound = {f.args[0] for f in fors}
        for k, f in enumerate(fors):
            name, iterable, cond = f.args
            hoisted = self._invariant(iterable, bound) if k > 0 else []
            for node in hoisted:
                py = self.fresh("pre")
                pre.append((py, self.ex(node, env)))
                self.prebound[id(node)] = py
            try:
                it = self.iterable(iterable, inner)
            finally:
                for node in hoisted:
                    del self.prebound[id(node)]
            v = self.fresh(name)
            self._note_element(v, iterable, inner)
            if self.search_keys is not None and self._keyable(iterable, inner):
                self.search_keys.add(v)
                self.search_vars.add(v)
            inner[name] = v
            parts.append(f"for {v} in {it}")
            if cond is not None:
                parts.append(f"if {self.ex(cond, inner)}")
        return " ".join(parts), inner, pre

    def _invariant(self, n: A.Node, bound: set[str]) -> list[A.Node]:
        """The largest costly subexpressions of `n` (calls of ruleset functions, comprehensions)
        that read none of the names in `bound` (nor `it`) and are evaluated whenever `n` is."""
        out: list[A.Node] = []

        def visit(x: Any) -> None:
            if isinstance(x, tuple):
                for y in x:
                    visit(y)
                return
            if not isinstance(x, A.Node):
                return
            if x.op in _LOOPS or (x.op == "call" and x.args[0] in self.fns):
                if not any(m.op == "it" or (m.op == "name" and m.args[0] in bound) for m in A.walk(x)):
                    out.append(x)
                    return
            if x.op in ("and_", "or_"):
                visit(x.args[0])  # the right side is evaluated only sometimes
            elif x.op in _TRANSPARENT:
                for a in x.args:
                    visit(a)

        visit(n)
        return out

    def _pre(self, text: str, pre: list[tuple[str, str]]) -> str:
        if not pre:
            return text
        if self.iterable_depth:
            return f"(lambda {', '.join(py for py, _ in pre)}: {text})({', '.join(t for _, t in pre)})"
        return "(" + "".join(f"({py} := {t}), " for py, t in pre) + f"{text})[-1]"

    def _zones_of(self, n: A.Node, env: dict[str, str]) -> str | None:
        """For `[x for a in as ... for x in ZONE]` (no conditions, `x` itself the element), the
        Python text of the list of those zones, in order; else None."""
        if n.op != "list_comp":
            return None
        elem, fors = n.args
        if not fors or any(f.args[2] is not None for f in fors) or elem.op != "name" or elem.args[0] != fors[-1].args[0]:
            return None
        last = fors[-1].args[1]
        if any(m.op == "name" and m.args[0] == elem.args[0] for m in A.walk(last)):
            return None
        if len(fors) == 1:
            return f"[{self.ex(last, env)}]" if self.shape(last, env) == "zone" else None
        values = self._unrolled(fors[:-1], (last,), env)
        if values is not None:  # a list display of the zones
            name = fors[0].args[0]
            if self.shape(last, {**env, name: values[0]}) != "zone":
                return None
            return "[" + ", ".join(self.ex(last, {**env, name: v}) for v in values) + "]"
        clause, inner, pre = self._fors(fors[:-1], env)
        if self.shape(last, inner) != "zone":
            return None
        return self._pre(f"[{self.ex(last, inner)} {clause}]", pre)

    def ex_list_comp(self, n, env, elem, fors):
        values = self._unrolled(fors, (elem,), env)
        if values is not None:  # a list display: no comprehension run
            name = fors[0].args[0]
            return "[" + ", ".join(self.ex(elem, {**env, name: v}) for v in values) + "]"
        clause, inner, pre = self._fors(fors, env)
        return self._pre(f"[{self.ex(elem, inner)} {clause}]", pre)

    def ex_map_comp(self, n, env, pair, fors):
        values = self._unrolled(fors, (pair[0], pair[1]), env)
        if values is not None:  # a dict display: its keys in the same order, no comprehension run
            name = fors[0].args[0]
            return "{" + ", ".join(f"{self.ex(pair[0], {**env, name: v})}: {self.ex(pair[1], {**env, name: v})}"
                                   for v in values) + "}"
        clause, inner, pre = self._fors(fors, env)
        return self._pre(f"{{{self.ex(pair[0], inner)}: {self.ex(pair[1], inner)} {clause}}}", pre)

    def _unrolled(self, fors: tuple[A.Node, ...], parts: tuple[A.Node, ...], env: dict[str, str]) -> list[str] | None:
        """For a comprehension with one unfiltered `for` over a few values known when the rules
        are compiled (the two seats of a two-seat game, an enumeration, a range with literal
        bounds), whose element `parts` are small and call only ruleset functions inlined in
        place, none in a search (where a call keeps the search's memo by argument value,
        `_search_memo`): the Python text of each value, in order, to write the element out
        once per value; else None."""
        if len(fors) != 1 or fors[0].args[2] is not None:
            return None
        dom = fors[0].args[1]
        if dom.op == "name" and dom.args[0] not in env:
            name = dom.args[0]
            if name == "seats" and self.two_seats:
                values = ["0", "1"]
            elif name in self.enum_types and len(self.enum_types[name]) <= _UNROLLED:
                values = [repr(v) for v in self.enum_types[name]]
            else:
                return None
        elif dom.op == "range" and _int_lit(dom.args[0]) and _int_lit(dom.args[1]):
            lo, hi = dom.args[0].args[0], dom.args[1].args[0]
            if hi - lo >= _UNROLLED:
                return None
            values = [repr(v) for v in range(lo, hi + 1)]
        else:
            return None
        nodes = [m for p in parts for m in A.walk(p)]
        if len(nodes) > _UNROLLED_NODES:
            return None
        for m in nodes:
            if m.op == "call" and m.args[0] in self.fns:
                f = self.fns[m.args[0]]
                if self.search_keys is not None or not self.inlinable(f, list(m.args[1])) or m.args[2]:
                    return None
        return values

    def ex_gen_call(self, n, env, fname, elem, fors):
        values = None
        if fname in ("any", "all", "sum"):
            two = (self.two_seats and len(fors) == 1 and fors[0].args[2] is None and fors[0].args[1].op == "name"
                   and fors[0].args[1].args[0] == "seats" and "seats" not in env)
            values = ["0", "1"] if two else self._unrolled(fors, (elem,), env)
        name = fors[0].args[0]
        if fname == "sum" and values is not None and not self.numeric(elem, {**env, name: values[0]}):
            values = None  # only a sum of ints is the same as its terms added in order on every Python
        if values is not None and len(values) > 1:
            # over a few values known before the game: each test (or term) in place, no generator
            if fname == "sum":  # Python's sum: 0, then each term added in order
                return "(0 + " + " + ".join(f"({self.ex(elem, {**env, name: v})})" for v in values) + ")"
            ok = [self._guarded(elem, {**env, name: v}) for v in values]
            return "(True if " + f" {'and' if fname == 'all' else 'or'} ".join(f"({t})" for t in ok) + " else False)"
        clause, inner, pre = self._fors(fors, env)
        e = self.ex(elem, inner)
        if fname in ("any", "all"):
            return self._pre(f"{fname}({e} {clause})", pre)
        if fname == "sum":  # every element is added: a list comprehension beats a generator on small zones
            return self._pre(f"sum([{e} {clause}])", pre)
        if fname == "count":
            return self._pre(f"len([1 {clause} if {e}])", pre)
        return self._pre(f"BI_{fname}(st, [{e} {clause}])", pre)

    def ex_call(self, n, env, name, pos, kw):
        if name in self.fns:
            f = self.fns[name]
            params = [p.name for p in f.params]
            args: list[Any] = list(pos) + [None] * (len(params) - len(pos))
            for k, v in kw:
                args[params.index(k)] = v
            texts = [self.ex(a, env) for a in args]
            shared = self._shared_call(name, args, env)
            if self.inlinable(f, args):
                # a small pure function with simple arguments: its body in place, no call
                self.depth += 1
                try:
                    text = "(" + self.ex(f.body, dict(zip(params, (f"({t})" for t in texts)))) + ")"
                finally:
                    self.depth -= 1
            else:
                text = f"F_{name}(st" + "".join(", " + t for t in texts) + ")"
            if shared is not None:
                return self._share(shared, text)
            return self._search_memo(name, texts, text, env)
        if name in self.ctors:
            raise CodegenError("constructors run only at game creation")
        if name in ("count", "size", "len") and len(pos) == 1 and pos[0].op == "where":
            src, cond = pos[0].args
            tally = self._tally(src, cond, env)
            if tally is not None:
                return tally
            v = self.fresh("it")
            # a list comprehension's len beats sum() over a generator on the small zones of games
            return f"len([1 for {v} in {self.iterable(src, env)} if {self._guarded(cond, {**env, '$it': v})}])"
        if name in ("size", "count", "len") and len(pos) == 1:
            return f"len({self.items(pos[0], env)})"
        if name == "has_mark" and len(pos) == 2:
            return f"({self.ex(pos[1], env)} in st.marks.get({self.ex(pos[0], env)}.id, ()))"
        if name == "other" and self.two_seats and len(pos) == 1:
            return f"(1 - {self.ex(pos[0], env)})"
        if name in ("max", "min") and len(pos) == 2:  # of two values: Python's own
            return f"{name}({self.ex(pos[0], env)}, {self.ex(pos[1], env)})"
        if name == "tally" and len(pos) in (2, 3) and pos[1].op == "lit" and pos[1].args[0] in self.scalar_attrs:
            # a tally of a hashable attribute over a zone, or over the components of several
            # zones: from the zones' own tallies, kept per zone list
            keys = self.ex(pos[2], env) if len(pos) == 3 else "None"
            if self.shape(pos[0], env) == "zone":
                return f"TALLY_OF(st, {self.ex(pos[0], env)}, {pos[1].args[0]!r}, {keys})"
            zones = self._zones_of(pos[0], env)
            if zones is not None:
                return f"TALLY_ZONES(st, {zones}, {pos[1].args[0]!r}, {keys})"
        if (name in _INLINE_BUILTINS and len(pos) == _INLINE_BUILTINS[name]
                and (name != "distinct" or (pos[0].op == "name" and env.get(pos[0].args[0], "").strip("()") in self.scalar_lists))):
            # what the built-in computes (runtime.builtins), without its call and its ITEMS
            xs = self.items(pos[-1], env)
            if name == "list":
                return f"list({xs})"
            if name == "sum":
                return f"sum({xs})"
            if name in ("max", "min"):
                return f"{name}({xs}, default=None)"
            if name == "distinct":
                return f"list(dict.fromkeys({xs}))"
            if name == "empty":
                return f"(len({xs}) == 0)"
            if name == "top":
                if self.shape(pos[0], env) == "zone" and not _CALL.search(xs):  # cheap to read twice
                    return f"({xs}[0] if {xs} else None)"
                return f"BI_top(st, {self.ex(pos[0], env)})"
            if self.shape(pos[-1], env) in ("list", "zone"):  # first: a new list, as the built-in's slice of a copy
                return f"{xs}[:max(0, {self.ex(pos[0], env)})]"
        if name in B.FUNCS:  # a name bound in the generated module: no look-up in FUNCS per call
            return f"BI_{name}(st" + "".join(", " + self.ex(a, env) for a in pos) + ")"
        raise CodegenError(f"unknown function {name}")

    def _tally(self, src: A.Node, cond: A.Node, env: dict[str, str]) -> str | None:
        """`count(zone where .attr == x)` as a look-up in the zone's counts kept by the state
        (`_kept_counts`), or else in its tally of attribute values (`_count_of`), when `attr`
        always holds a hashable value and `x` does not read `it`."""
        if self.shape(src, env) != "zone" or cond.op != "binop" or cond.args[0] != "==":
            return None
        for a, b in ((cond.args[1], cond.args[2]), (cond.args[2], cond.args[1])):
            if (a.op == "attr" and a.args[0].op == "it" and a.args[1] in self.scalar_attrs
                    and not any(m.op == "it" for m in A.walk(b))):
                kept = self._kept_counts(src, a.args[1], env)
                if kept is not None:
                    return f"st.count_cells[{kept}.get({self.ex(b, env)}, 0)]"
                z, attr, value = self.ex(src, env), repr(a.args[1]), self.ex(b, env)
                if self.iterable_depth:  # no `:=` there
                    return f"COUNT_OF(st, {z}, {attr}, {value})"
                # the zone's tally read in place when it is up to date (see `_counts`), the
                # zone computed once
                t, by = self.fresh("tally"), self.fresh("by")
                zone = z if _LOCAL.fullmatch(z) else self.fresh("zone")
                bind = z if zone == z else f"({zone} := {z})"
                return (f"({by}.get({value}, 0) if (({t} := {bind}.tally) is not None and {t}[0] is Z[{zone}.idx] "
                        f"and ({by} := {t}[1].get({attr})) is not None) else COUNT_OF(st, {zone}, {attr}, {value}))")
        return None

    def _kept_counts(self, src: A.Node, attr: str, env: dict[str, str]) -> str | None:
        """The text of the {value: cell of `State.count_cells`} of `attr` over zone `src`, whose
        counts the state keeps up to date (`State.count_places`; `st.count_cells[cells.get(v, 0)]`
        is the count of v: two look-ups, no staleness check), when `src` names a zone of a
        declaration known here (`_zone_decl`) that is public and holds only component types
        having `attr`; the pair is noted in `counted` (the state then keeps it). Else None.
        Public only: code outside the effects (search's determinisation) rewrites the lists of
        hidden zones directly. None either in rules that make components as they run
        (`makes_components`): a new one may hold a value the kept cells do not cover."""
        decl = self._zone_decl(src, env)
        decls = self.zone_decls.get(decl or "", [])
        if self.makes_components or not decls or any(z.visibility != "public" or any(attr not in self.comp_fields.get(t, ()) for t in z.holds.split("|"))
                            for z in decls):
            return None
        attrs = self.counted.setdefault(decl, [])  # type: ignore[arg-type]
        if attr not in attrs:
            attrs.append(attr)
        k, zone = attrs.index(attr), self.ex(src, env)
        return f"st.count_places[{zone}.idx]" if k == 0 else f"st.count_places[{zone}.idx + {k} * len(st.zones)]"

    def _zone_decl(self, n: A.Node, env: dict[str, str]) -> str | None:
        """The name of the zone declaration a zone expression's zones come from: a global zone
        (indexed by seat or value when it is one per seat or value), or an entity's zone
        member; else None (a local holding a zone, say)."""
        per = n.op == "index"
        if per:
            n = n.args[0]
        if n.op == "name" and n.args[0] not in env and self.global_zones.get(n.args[0]) is per:
            return n.args[0]
        if (n.op == "attr" and self.member_zones.get(n.args[1]) is per
                and not (n.args[0].op == "name" and n.args[0].args[0] == "option" and "option" not in env)):
            return n.args[1]
        return None

    # ---- functions and searches ----
    def fn_source(self, f: A.FnDecl) -> str:
        env = {p.name: self.fresh(p.name) for p in f.params}
        for p in f.params:
            self._note_param(env[p.name], p.type)
        params = "".join(", " + env[p.name] for p in f.params)
        body = self.ex(f.body, env)
        if f.name in self.memoised:
            # rules are pure functions of the state, and every change bumps `st.version`: one
            # legal-moves call (a claim proof per flag, say) computes it once
            # (a new list when the version changed: a clone starts from a shared `(-1, None)`)
            return (f"def F_{f.name}(st):\n    m = st.fn_memo\n    if m[0] != st.version:\n"
                    f"        m = st.fn_memo = [st.version, {{}}]\n    v = m[1].get({f.name!r}, UNSET)\n    if v is UNSET:\n{_prologue(body, 8)}"
                    f"        v = m[1][{f.name!r}] = {body}\n    return v\n")
        if f.name in self.arg_memoised:
            names = [env[p.name] for p in f.params]
            lists = [env[p.name] for p in f.params if p.type.name == "list"]
            key = "(" + ", ".join([repr(f.name)] + [f"tuple({v})" if v in lists else v for v in names]) + ",)"
            test = " and ".join(f"{v}.__class__ is list" for v in lists)  # a zone's contents change: not memoised
            call = f"F_{f.name}_(st{params})"
            text = "\n".join(self.returns(f.body, env, "    "))
            return (f"def F_{f.name}(st{params}):\n    if {test}:\n        m = st.pure_memo\n        k = {key}\n"
                    f"        v = m.get(k, UNSET)\n        if v is UNSET:\n            if len(m) >= PURE_MEMO_MAX:\n"
                    f"                m.clear()\n            v = m[k] = {call}\n        return v\n    return {call}\n\n"
                    f"def F_{f.name}_(st{params}):\n{_prologue(text)}{text}\n")
        # a recursive function takes a step of the execution budget per call (runtime.budget)
        spend = "".join(line + "\n" for line in self.spend("    ", f.span)) if f.name in self.recursive else ""
        text = "\n".join(self.returns(f.body, env, "    "))
        return f"def F_{f.name}(st{params}):\n{spend}{_prologue(text)}{text}\n"

    def returns(self, n: A.Node, env: dict[str, str], ind: str) -> list[str]:
        """Statements returning the value of `n`: a `let` becomes an assignment and an `if`
        expression an `if` statement, so a function body runs as straight-line code."""
        if n.op == "let_expr":
            name, value, body = n.args
            v = self.fresh(name)
            return [f"{ind}{v} = {self._let_value(v, name, value, body, env)}"] + self.returns(body, {**env, name: v}, ind)
        if n.op == "if_expr":
            parts = n.args
            out = []
            for k in range(0, len(parts) - 1, 2):
                out.append(f"{ind}{'if' if k == 0 else 'elif'} {self.ex(parts[k], env)}:")
                out += self.returns(parts[k + 1], env, ind + "    ")
            return out + [f"{ind}else:"] + self.returns(parts[-1], env, ind + "    ")
        return [f"{ind}return {self.ex(n, env)}"]

    def search_source(self, fname: str, binders: tuple[A.Binder, ...], groups: list[list[A.Node]],
                      first_only: bool) -> str:
        """Nested loops over `binders`; `groups[k]` are conditions needing binders[:k]; yields
        the bound tuple of every combination that passes (or only the first).

        When the loops inside some binder read it only through hashable attributes (a card's
        colour: which tiles and sides take it) or not at all, what they find is memoised per
        value of those attributes (`_subtree`), so cards of one colour are searched once."""
        del first_only
        groups = self._necessary_first(binders, groups)
        counts: dict[str, int] = {}
        # a dry run finds the binder, if any, and counts the calls that could be shared
        level = self._search_lines(binders, groups, None, counts)
        self.shared_counts = counts
        try:
            text = self._search_lines(binders, groups, -2 if level is None else level)
        finally:
            self.shared_counts = {}
        return text.replace("def SEARCH(", f"def {fname}(", 1)

    def _search_lines(self, binders: tuple[A.Binder, ...], groups: list[list[A.Node]], memo: int | None,
                      counts: dict[str, int] | None = None) -> Any:
        """With `memo` None: the outermost binder whose inner loops can be memoised (see
        `search_source`), or None. Else the source of `SEARCH`, memoising the loops inside
        binder `memo` (-2: none)."""
        self.search_keys, self.search_vars, self.search_memos = set(), set(), {}
        try:
            return self._search_text(binders, groups, memo, counts)
        finally:
            self.search_keys = None

    def _search_text(self, binders: tuple[A.Binder, ...], groups: list[list[A.Node]], memo: int | None,
                     counts: dict[str, int] | None) -> Any:
        """`_search_lines` while the search's keys are noted (`_search_memo`)."""
        assert self.search_keys is not None
        lines = ["def SEARCH(st, first_only=False):", "    G = st.g", "    Z = st.zones", "    out = []"]
        env: dict[str, str] = {}
        indent = "    "
        hoist = _Hoist()
        hoist.counts = counts
        marks = {-1: (len(lines), indent)}  # where each loop level's memo cells are reset
        uses: list[tuple[int, int, set[str]]] = []  # each require's loop level, first line and names read
        ends: dict[int, int] = {}  # the line after each loop level's requires
        memo_at = -1  # the line where the memoised loops start, and their indent
        memo_ind = ""

        def cond_text(cond: A.Node, cur: int) -> str:
            self.hoist, self.hoist_ok, hoist.cur = hoist, True, cur
            try:
                return self.ex(cond, env)
            finally:
                self.hoist, self.hoist_ok = None, False

        for cond in groups[0]:
            lines.append(f"{indent}if not ({cond_text(cond, -1)}): return out")
        names: list[str] = []
        keyable: list[bool] = []
        caches: list[str] = []
        fill_caches: list[str] = []  # reset for each run of the memoised loops
        doms: list[str] = []
        fulls: list[list[str]] = []  # per level, each condition's text with the memos it uses
        for k, b in enumerate(binders):
            v = self.fresh(b.name)
            dom = self.loop_items(b.domain, env)
            if b.count is not None:  # a pick binder: its one offer (runtime.picks), not each element
                dom = f"PICK_OFFER({self.ex(b.count, env)}, {dom})"
            doms.append(dom)
            fulls.append([])
            keyable.append(self._keyable(b.domain, env) and b.count is None)
            if b.count is None:
                self._note_element(v, b.domain, env)
            env = {**env, b.name: v}
            hoist.levels[v] = k
            hoist.binders.add(v)
            self.search_keys.add(v)
            names.append(v)
            lines.append(f"{indent}for {v} in {dom}:")
            indent += "    "
            marks[k] = (len(lines), indent)
            inner = memo is not None and 0 <= memo < k  # inside the memoised loops
            for cond in groups[k + 1]:
                text = cond_text(cond, k)
                full = text  # with the text of the memos it uses, which read binders too
                texts = {m: t for t, m in hoist.memo.items()}
                for _ in range(len(texts) + 1):
                    more = [texts[t] for t in set(_TOKEN.findall(full)) if t in texts and texts[t] not in full]
                    if not more:
                        break
                    full += " " + " ".join(more)
                fulls[k].append(full)
                tokens = set(_TOKEN.findall(full))
                uses.append((k, len(lines), tokens))
                # inside memoised loops, the binders outside them are the same for one run
                first = memo + 1 if inner else 0  # type: ignore[operator]
                read = sorted(j for j, x in enumerate(names) if x in tokens and j >= first)
                # each binder read is a key part: its value, or the values of the only
                # attributes read of it (a card's colour, not the card)
                parts = [_attr_key(full, names[j], self.scalar_attrs) or (names[j] if keyable[j] else None) for j in read]
                if (read and None not in parts and _COSTLY.search(full)
                        and (len(read) < k + 1 - first or any(p != names[j] for p, j in zip(parts, read)))):
                    # loop-invariant in an outer binder (a flag's openness, the same for every
                    # card): computed once per value of the binders it reads
                    cache = f"c{next(self.counter)}"
                    (fill_caches if inner else caches).append(cache)
                    if len(parts) == 1:
                        key = parts[0]
                    else:  # the tuple built once, whether the memo has it or not
                        lines.append(f"{indent}rk = (" + "".join(f"{p}, " for p in parts) + ")")
                        key = "rk"
                    lines += [f"{indent}r = {cache}.get({key})", f"{indent}if r is None: r = {cache}[{key}] = bool({text})",
                              f"{indent}if not r: continue"]
                elif text in ("True", "(True)"):
                    pass  # a require that always holds (`true`) tests nothing
                else:
                    lines.append(f"{indent}if not ({text}): continue")
            ends[k] = len(lines)
            if k == memo:
                memo_at, memo_ind = len(lines), indent
                indent += "    "
        if memo is None:
            return self._subtree(names, doms, fulls)
        tup = "(" + "".join(x + ", " for x in names) + ")"
        post: list[tuple[int, int, list[str]]] = []  # (position, order, lines) to insert
        if memo >= 0:
            key = _attr_key(" ".join(doms[memo + 1:] + [t for f in fulls[memo + 1:] for t in f]), names[memo], self.scalar_attrs)
            cm = f"c{next(self.counter)}"
            # a tail is the value of the one binder inside the memoised loops, else a tuple of
            # theirs; each move is one tuple built from the binders outside and a tail
            inner_names = names[memo + 1:]
            tail = inner_names[0] if len(inner_names) == 1 else "(" + ", ".join(inner_names) + ")"
            parts = [f"tl{j}" for j in range(len(inner_names))]
            unpack = parts[0] if len(parts) == 1 else ", ".join(parts)
            move = "(" + "".join(x + ", " for x in names[: memo + 1] + parts) + ")"
            lines += [f"{indent}tails.append({tail})", f"{indent}if first_only: return [{tup}]",
                      f"{memo_ind}if tails:", f"{memo_ind}    if first_only: return [{move} for {unpack} in tails[:1]]",
                      f"{memo_ind}    out += [{move} for {unpack} in tails]"]
            head = [f"{memo_ind}tails = {cm}.get({key or 0})", f"{memo_ind}if tails is None:",
                    f"{memo_ind}    tails = {cm}[{key or 0}] = []"] + [f"{memo_ind}    {c} = {{}}" for c in fill_caches]
            post.append((memo_at, 1, head))
            at, ind = marks[memo - 1]
            post.append((at, 1, [f"{ind}{cm} = {{}}"]))
        else:
            lines += [f"{indent}out.append({tup})", f"{indent}if first_only: return out"]
        lines.append("    return out")
        for lvl, cells in hoist.inits.items():
            at, ind = marks[lvl]
            for m in cells:
                # reset just before the first of its loop's requires that reads it (or after
                # them all): a value those before it refuse resets nothing
                if lvl >= 0:
                    at = next((i for j, i, tokens in uses if j == lvl and m in tokens), ends[lvl])
                post.append((at, 0, [f"{ind}{m} = UNSET"]))
        at, ind = marks[-1]
        post.append((at, 0, [f"{ind}{c} = {{}}" for c in caches + list(self.search_memos.values())]))
        for at, _order, more in sorted(post, key=lambda x: (x[0], x[1]), reverse=True):  # from the end: earlier positions hold
            lines[at:at] = more
        text = "\n".join(lines[4:])
        return "\n".join(lines[:1] + _prologue(text).splitlines() + lines[3:]) + "\n"

    def _necessary_first(self, binders: tuple[A.Binder, ...], groups: list[list[A.Node]]) -> list[list[A.Node]]:
        """Conditions with a necessary part that reads fewer binders, tested as soon as those
        are bound: `a - b > x` with `b` a count (never negative) needs `a > x`, so a tile
        with no cube of a card's colour is passed over before its sides are looked at."""
        names = [b.name for b in binders]
        out = [list(g) for g in groups]
        for j in range(2, len(groups)):
            for i, cond in enumerate(groups[j]):
                c = self._expand(cond)
                if c.op != "binop" or c.args[0] not in (">", ">="):
                    continue
                lhs = self._expand(c.args[1])
                if lhs.op != "binop" or lhs.args[0] != "-" or not _nonneg(self._expand(lhs.args[2])):
                    continue
                need = A.Node("binop", (c.args[0], lhs.args[1], c.args[2]), c.span)
                read = {m.args[0] for m in A.walk(need) if m.op == "name"}
                level = max((k + 1 for k, x in enumerate(names) if x in read), default=0)
                if level < j:
                    out[j][i] = A.Node("binop", (c.args[0], lhs, c.args[2]), c.span)
                    out[level].append(need)
        return out

    def _expand(self, n: A.Node) -> A.Node:
        """A call of a small ruleset function as its body with the arguments in place of the
        parameters (when no name inside the body hides a parameter); else `n`."""
        if n.op != "call" or n.args[0] not in self.fns or n.args[0] in self.recursive or n.args[2]:
            return n
        f = self.fns[n.args[0]]
        params = [p.name for p in f.params]
        if len(n.args[1]) != len(params):
            return n
        bound = {m.args[0] for m in A.walk(f.body) if m.op in ("let_expr", "comp_for")}
        if bound & set(params):
            return n
        sub = dict(zip(params, n.args[1]))

        def put(x: Any) -> Any:
            if isinstance(x, A.Node):
                if x.op == "name" and x.args[0] in sub:
                    return sub[x.args[0]]
                return A.Node(x.op, tuple(put(a) for a in x.args), x.span)
            if isinstance(x, tuple):
                return tuple(put(a) for a in x)
            return x

        return put(f.body)

    def _subtree(self, names: list[str], doms: list[str], fulls: list[list[str]]) -> int | None:
        """The outermost binder whose inner loops (their domains and conditions) read it only
        through hashable attributes, or not at all, and test something: what they find is
        the same for every value with those attributes."""
        for m in range(len(names) - 1):
            conds = [t for f in fulls[m + 1:] for t in f if t not in ("True", "(True)")]
            if not conds:
                continue
            inner = " ".join(doms[m + 1:] + conds)
            if names[m] not in set(_TOKEN.findall(inner)) or _attr_key(inner, names[m], self.scalar_attrs) is not None:
                return m
        return None

    def _keyable(self, dom: A.Node, env: dict[str, str]) -> bool:
        """Whether every value of binder domain `dom` is hashable by identity or value (a
        component, an entity, a seat, an enum value, an int), so it can key a memo."""
        if self.shape(dom, env) == "zone" or dom.op == "range":
            return True
        if dom.op == "name" and dom.args[0] not in env:
            return dom.args[0] in self.lists or dom.args[0] in self.enum_types or dom.args[0] == "seats"
        return dom.op == "where" and self._keyable(dom.args[0], env)

    # ---- statements (effects): DSL statement -> Python lines; `env` maps locals to names ----
    def body_source(self, fname: str, params: list[tuple[str, str]], stmts: tuple[A.Node, ...], trig: bool) -> str:
        """`def fname(st[, trig], <params>)`: the statements in order; with `trig`, the triggers
        (`trig()`, `Game._triggers`) are checked after each top-level statement, as the rules say."""
        env = {name: py for name, py in params}
        lines: list[str] = []
        for n in stmts:
            lines += self.stmt(n, env, "    ")
            if trig:  # `Game._triggers` returns at once when nothing changed: skip the call then
                lines.append("    if st.dirty: trig()")
        if trig and not stmts:
            lines.append("    trig()")
        text = "\n".join(lines) or "    pass"
        head = f"def {fname}(st" + (", trig" if trig else "") + "".join(", " + py for _n, py in params) + "):"
        keys = self.owns.get(fname)
        if keys and stmts:  # taken before the prologue binds the columns and before any local reads a root
            k = self.const(keys)
            head += f"\n    if not {k} <= st.owned:\n        st.own({k})"
        return head + "\n" + _prologue(text) + text + "\n"

    def spend(self, ind: str, span: Any) -> list[str]:
        """Lines taking one step of the execution budget for the loop or call at `span`
        (`State.spend`, inline: no call unless the budget is used up)."""
        return [f"{ind}st.steps_left -= 1", f"{ind}if st.steps_left < 0: st.spend({self.const(span)})"]

    def stmt(self, n: A.Node, env: dict[str, str], ind: str) -> list[str]:
        f = getattr(self, "st_" + n.op, None)
        if f is None:
            raise CodegenError(f"no generator for the statement {n.op}")
        return f(n, env, ind, *n.args)

    def block(self, stmts: tuple[A.Node, ...], env: dict[str, str], ind: str) -> list[str]:
        inner = dict(env)  # a `let` inside the block ends with it
        out = [line for s in stmts for line in self.stmt(s, inner, ind)]
        return out or [ind + "pass"]

    def st_call(self, n, env, ind, name, pos, kw):
        if name in self.procs:
            p = self.procs[name]
            params = [x.name for x in p.params]
            args: list[Any] = list(pos) + [None] * (len(params) - len(pos))
            for k, v in kw:
                args[params.index(k)] = v
            texts = "".join(", " + self.ex(a, env) for a in args)
            spend = self.spend(ind, n.span)  # a call takes a step of the budget
            if name in self.generated_procs:
                return [*spend, f"{ind}P_{name}(st{texts})"]
            return [*spend, f"{ind}PROC(st, {name!r}{texts})"]
        return [ind + self.ex_call(n, env, name, pos, kw)]

    def st_move_stmt(self, n, env, ind, what, dest, place):
        mode, at = "end", "None"
        if place is not None:
            mode = place.op
            if mode == "at":
                at = self.ex(place.args[0], env)
        return [f"{ind}st.move_items({self.ex(what, env)}, {self.ex(dest, env)}, {mode!r}, {at})"]

    def st_shuffle_stmt(self, n, env, ind, zone):
        return [f"{ind}st.shuffle({self.ex(zone, env)}, {self.const(n.span)})"]

    def st_draw_stmt(self, n, env, ind, count, src, dest, refill=None):
        r = self.ex(refill, env) if refill is not None else "None"
        return [f"{ind}st.draw({self.ex(count, env)}, {self.ex(src, env)}, {self.ex(dest, env)}, {r}, {self.const(n.span)})"]

    def st_draw_random_stmt(self, n, env, ind, src, dest, name, cond):
        retry, key = "None", ""
        if name is not None:
            v = self.fresh(name)
            text = self.ex(cond, {**env, name: v})
            retry = f"(lambda _st, _env, {v}: {text})"
            attr = re.fullmatch(rf"\(*{v}\)*(?:\.d\['(\w+)'\]|\.(\w+))", _attr_key(text, v, self.scalar_attrs) or "")
            if attr is not None:  # the test reads one hashable attribute of the drawn component: once per its value
                key = f", {(attr.group(1) or attr.group(2))!r}"
        return [f"{ind}st.draw_random({self.ex(src, env)}, {self.ex(dest, env)}, {retry}, None, {self.const(n.span)}{key})"]

    def _target(self, t: A.Node, env: dict[str, str], ind: str) -> tuple[list[str], str, str | None]:
        """Lines computing the container, the Python target text, and the changed state name
        (None for a local)."""
        name, path = t.args
        if not path:
            if name in env:
                return [], env[name], None
            return [], f"G[{name!r}]", name
        base = self.ex(A.Node("name", (name,), t.span), env)
        for k, x in path[:-1]:
            if k != "attr":
                base = f"{base}[{self.ex(x, env)}]"
            elif x in self.ent_columns:  # only an entity's members can be assigned
                base = f"EV_{x}[{base}._n]"
            else:
                base = f"{base}.d[{x!r}]"
        c = self.fresh("c")
        kind, last = path[-1]
        attrs_ = [x for k, x in path if k == "attr"]
        changed = attrs_[-1] if attrs_ else name
        if kind == "attr":
            if last in self.ent_columns:
                return [f"{ind}{c} = {base}"], f"EV_{last}[{c}._n]", changed
            return [f"{ind}{c} = {base}"], f"{c}.d[{last!r}]", changed
        k = self.fresh("k")
        return [f"{ind}{c} = {base}", f"{ind}{k} = {self.ex(last, env)}"], f"{c}[{k}]", changed

    def _assign(self, lines: list[str], target: str, changed: str | None, value: str, ind: str) -> list[str]:
        if changed is None:
            return lines + [f"{ind}{target} = {value}"]
        v = self.fresh("v")
        mark = [] if self.trigger_deps is not None and changed not in self.trigger_deps else [f"{ind}st.dirty.add({changed!r})"]
        return lines + [f"{ind}{v} = {value}", f"{ind}st.version += 1", *mark, f"{ind}{target} = {v}"]

    def st_assign_stmt(self, n, env, ind, target, op, value):
        lines, tgt, changed = self._target(target, env, ind)
        v = self.ex(value, env)
        if op == "+=":
            v = f"{tgt} + {v}"
        elif op != "=":
            v = f"{tgt} - {v}"
        return self._assign(lines, tgt, changed, v, ind)

    def st_flip_stmt(self, n, env, ind, target):
        nxt = {val: e.values[(i + 1) % len(e.values)] for e in self.rs.enums for i, val in enumerate(e.values)}
        lines, tgt, changed = self._target(target, env, ind)
        return self._assign(lines, tgt, changed, f"{self.const(nxt)}[{tgt}]", ind)

    def st_remove_stmt(self, n, env, ind, what):
        return [f"{ind}st.remove_entity({self.ex(what, env)})"]

    def st_if_stmt(self, n, env, ind, *parts):
        out = []
        for k in range(0, len(parts) - 1, 2):
            out.append(f"{ind}{'if' if k == 0 else 'elif'} {self.ex(parts[k], env)}:")
            out += self.block(parts[k + 1], env, ind + "    ")
        if len(parts) % 2 == 1:
            out.append(f"{ind}else:")
            out += self.block(parts[-1], env, ind + "    ")
        return out

    def st_for_stmt(self, n, env, ind, name, iterable, body):
        v = self.fresh(name)
        self._note_element(v, iterable, env)
        # a copy: the body may move what it iterates over
        # each round takes a step of the execution budget (runtime.budget)
        dom = self.loop_items(iterable, env) if iterable.op == "range" else f"list({self.items(iterable, env)})"
        return ([f"{ind}for {v} in {dom}:", *self.spend(ind + "    ", n.span)]
                + self.block(body, {**env, name: v}, ind + "    "))

    def st_while_stmt(self, n, env, ind, cond, body):
        return ([f"{ind}while {self.ex(cond, env)}:", *self.spend(ind + "    ", n.span)]
                + self.block(body, env, ind + "    "))

    def st_let_stmt(self, n, env, ind, name, value):
        v = self.fresh(name)
        self._note_shape(v, value, env)
        text = self.ex(value, env)
        env[name] = v  # visible to the statements after it in this block
        return [f"{ind}{v} = {text}"]

    def st_goto_stmt(self, n, env, ind, step, by):
        b = self.ex(by, env) if by is not None else "None"
        return [f"{ind}st.flow = ('goto', {step!r}, {b})"]

    def st_end_turn_stmt(self, n, env, ind):
        return [f"{ind}st.flow = ('end_turn',)"]

    def st_turn_stmt(self, n, env, ind, seat):
        return [f"{ind}st.flow = ('turn', {self.ex(seat, env)})"]

    def st_end_game_stmt(self, n, env, ind, outcome, reason):
        kind = outcome.op.removeprefix("outcome_")
        r = self.ex(reason, env) if isinstance(reason, A.Node) else repr(reason)
        args = outcome.args
        span = self.const(n.span)
        if kind in ("team", "scores", "rank", "lowest"):
            breaks = "(" + "".join(self.ex(b, env) + ", " for b in (args[1] if len(args) > 1 else ())) + ")"
            ties = args[2] if len(args) > 2 else "win"
            return [f"{ind}END_GAME(st, {kind!r}, {r}, {span}, {self.ex(args[0], env)}, {breaks}, {ties!r})"]
        winner = self.ex(args[0], env) if kind == "win" else "None"
        carried = args[1] if kind == "win" and len(args) > 1 else (args[0] if kind == "draw" and args else None)
        tail = f", carried={self.ex(carried, env)}" if carried is not None else ""
        return [f"{ind}END_GAME(st, {kind!r}, {r}, {span}, {winner}{tail})"]

    def st_reveal_stmt(self, n, env, ind, zone):
        return [f"{ind}st.reveal({self.ex(zone, env)}, {self.const(n.span)})"]

    def st_mark_stmt(self, n, env, ind, what, value):
        if self.trigger_deps is None or not self.trigger_deps.isdisjoint(("marks", "has_mark")):
            return [f"{ind}st.mark({self.ex(what, env)}, {self.ex(value, env)})"]
        # `State.mark` in place, where no trigger reads marks (nothing to mark as changed)
        c, v = self.fresh("c"), self.fresh("v")
        return [f"{ind}{c} = {self.ex(what, env)}", f"{ind}{v} = {self.ex(value, env)}", f"{ind}st.version += 1",
                f"{ind}st.marks[{c}.id] = st.marks.get({c}.id, ()) + ({v},)"]

    def st_unmark_stmt(self, n, env, ind, what):
        return [f"{ind}st.unmark({self.ex(what, env)})"]


class _Hoist:
    """Memoised subexpressions of one search: `levels` maps binder and memo names to the loop
    level that binds them, `cur` is the level of the condition being generated, `inits` the
    memo cells to reset at each level, `memo` the cell of each subexpression text."""

    def __init__(self) -> None:
        self.levels: dict[str, int] = {}
        self.cur = -1
        self.inits: dict[int, list[str]] = {}
        self.memo: dict[str, str] = {}
        self.exprs: set[str] = set()
        self.binders: set[str] = set()  # the binders' Python names
        # shared calls (`Gen._shared_call`): each key's memo cell, and in the dry run the count
        # of each key (None in the real run)
        self.shared: dict[str, str] = {}
        self.shared_exprs: set[str] = set()
        self.counts: dict[str, int] | None = None


# operators whose operands are evaluated whenever they are (`and`/`or` guard their right side)
_TRANSPARENT = frozenset(("binop", "not_", "neg", "in_", "not_in", "is_", "call", "index", "attr", "and_", "or_"))
# what is worth memoising: calls and comprehensions
_HOISTED = frozenset(("call", "gen_call", "list_comp", "map_comp", "where"))
# built-ins (runtime.builtins) whose value is always a Python list
_LIST_BUILTINS = frozenset(("first", "bundles", "sorted", "keys", "values", "marks", "distinct", "list"))
# built-ins generated in place (`ex_call`), by their number of arguments
_INLINE_BUILTINS = {"list": 1, "sum": 1, "max": 1, "min": 1, "first": 2, "empty": 1, "top": 1, "distinct": 1}
# expression operators a function of its arguments alone may use (`Gen._arg_memoised`)
_PURE_OPS = frozenset(("lit", "name", "it", "attr", "index", "binop", "and_", "or_", "not_", "neg", "in_", "not_in",
                       "is_", "range", "where", "if_expr", "let_expr", "list_lit", "map_lit", "list_comp", "map_comp",
                       "comp_for", "gen_call", "call", "fstring"))
_LOOPS = frozenset(("list_comp", "map_comp", "gen_call", "where"))
_COSTLY = re.compile(r"\bfor\b|F_|BI_|ITEMS|IX\(|COUNT_OF\(|FIND\(|len\(|sum\(|any\(|all\(")
_CALL = re.compile(r"\w\s*\(")  # a call in generated text
_LITERAL = re.compile(r"-?\d+|'\w*'")  # an int or a name's string in generated text
_LOCAL = re.compile(r"\(*v\d+_\w+\)*")  # a generated local, maybe in parentheses
_TOKEN = re.compile(r"\b(?:v\d+_\w+|h\d+)\b")
_GROUPED = re.compile(r"(?<![\w\])])\(([#\w.]+)\)")  # parentheses around one name, not a call's

MAX_INLINE_NODES = 40
MAX_INLINE_DEPTH = 3


def _memoised(exprs: set[str], text: str) -> str | None:
    """`text` without its outer parentheses when that is one of the memo cells' `exprs`."""
    inner = text
    while inner.startswith("(") and inner.endswith(")"):
        if inner in exprs:
            return inner
        inner = inner[1:-1]
    return None


def _attr_key(text: str, py: str, scalar: set[str]) -> str | None:
    """When generated `text` reads local `py` only as `py.d['attr']` or `py.attr` for
    attributes in `scalar` (hashable values), Python text of a key holding those values;
    else None."""
    uses = len(re.findall(rf"\b{py}\b", text))
    found = re.findall(rf"\(*\b{py}\b\)*(?:\.d\['(\w+)'\]|\.(\w+)\b(?!\())", text)
    reads = [a or b for a, b in found]
    if not reads or len(reads) != uses or not set(reads) <= scalar:
        return None
    keys = sorted({f"{py}.d[{a!r}]" if a else f"{py}.{b}" for a, b in found})
    if len(keys) == 1:
        return keys[0]
    return "(" + "".join(f"{k}, " for k in keys) + ")"


def _indexed_by(body: A.Node, name: str, enum: str, enums: set[str]) -> bool:
    """Whether `body` reads local `name` only as `name[c]` with `c` a comprehension variable
    ranging over enumeration `enum` (`enums`: the enumeration names not hidden by a local),
    and binds no other `name`."""
    ok = True

    def visit(x: Any, over: dict[str, str | None]) -> None:
        nonlocal ok
        if isinstance(x, tuple):
            for y in x:
                visit(y, over)
            return
        if not isinstance(x, A.Node) or not ok:
            return
        op, args = x.op, x.args
        if op == "name" and args[0] == name:
            ok = False
        elif op == "index" and args[0].op == "name" and args[0].args[0] == name:
            idx = args[1]
            ok = idx.op == "name" and over.get(idx.args[0]) == enum
        elif op == "let_expr":
            visit(args[1], over)
            if args[0] == name:
                ok = False
            visit(args[2], {**over, args[0]: None})
        elif op in ("list_comp", "map_comp", "gen_call"):
            fors = args[2] if op == "gen_call" else args[1]
            inner = dict(over)
            for f in fors:
                var, iterable, cond = f.args
                visit(iterable, inner)
                if var == name:
                    ok = False
                hidden = iterable.op != "name" or iterable.args[0] not in enums or iterable.args[0] in inner
                inner[var] = None if hidden else iterable.args[0]
                visit(cond, inner)
            visit(args[1] if op == "gen_call" else args[0], inner)
        else:
            visit(args, over)

    visit(body, {})
    return ok


def _nonneg(n: A.Node) -> bool:
    """Whether `n` is a count (never negative)."""
    return (n.op == "call" and n.args[0] in ("count", "size", "len", "remaining")) or (n.op == "gen_call" and n.args[0] == "count")


def _every_declaration(rs: Any, field: Callable[[Any], bool], var: Callable[[Any], bool],
                       built_in: tuple[str, ...] = ()) -> set[str]:
    """The member names (component and entity fields, entity variables, entity zones) every
    declaration of which passes its test: `field` for a field, `var` for a variable; a zone never
    does. A name declared by several types counts only when all of them pass; `built_in` names
    pass unless a declaration of the same name fails."""
    ok: dict[str, set[bool]] = {name: {True} for name in built_in}
    for c in rs.component_types:
        for f in c.fields:
            ok.setdefault(f.name, set()).add(field(f))
    for e in rs.entity_types:
        for f in e.fields:
            ok.setdefault(f.name, set()).add(field(f))
        for v in e.vars:
            ok.setdefault(v.name, set()).add(var(v))
        for z in e.zones:
            ok.setdefault(z.name, set()).add(False)
    return {name for name, k in ok.items() if k == {True}}


def _int_type(t: A.TypeRef) -> bool:
    return t.name == "int" and not t.optional and not t.args


# a range with literal bounds and at most this many values is written out as a constant
_FOLDED_RANGE = 32
# a comprehension over at most this many values known before the game, with an element of at
# most this many nodes, is written out once per value (`Gen._unrolled`)
_UNROLLED = 8
_UNROLLED_NODES = 40


def _int_lit(n: A.Node) -> bool:
    return n.op == "lit" and n.args[0].__class__ is int


def _simple(n: A.Node) -> bool:
    """A name, a literal or an attribute read of one: pure and cheap to evaluate twice."""
    if n.op in ("name", "lit", "it"):
        return True
    return n.op == "attr" and _simple(n.args[0])


def recursive_fns(rs: Ruleset) -> set[str]:
    """Functions that can reach themselves through calls."""
    calls = {f.name: {n.args[0] for n in A.walk(f.body) if n.op == "call"} for f in rs.fns}
    out = set()
    for start in calls:
        stack, seen = list(calls[start]), set()
        while stack:
            x = stack.pop()
            if x == start:
                out.add(start)
                break
            if x in seen or x not in calls:
                continue
            seen.add(x)
            stack.extend(calls[x])
    return out


def _prologue(body: str, indent: int = 4) -> str:
    """Local aliases a generated body uses (`G` globals, `Z` zones, `EV_<member>` the column of an
    entity member: a column is replaced by `State.own`, which a unit of execution calls before
    this prologue for every column it or a trigger changes, or by `State.set_member` when the
    closures set a member, never while a generated body holds it), and no others."""
    out = ""
    if "G[" in body:
        out += " " * indent + "G = st.g\n"
    if "Z[" in body:
        out += " " * indent + "Z = st.zones\n"
    for name in sorted(set(re.findall(r"\bEV_(\w+)\[", body))):
        out += " " * indent + f"EV_{name} = st.ev.get({name!r})\n"
    return out


def effects_source(gen: Gen, moves: list[tuple[A.MoveDecl, list[list[A.Node]]]], triggers: list[A.TriggerDecl]) -> list[str]:
    """Source of the effects: `P_<proc>(st, args...)`, `B_<i>(st, trig, params...)` (the i-th
    move's body), `TB_<i>(st, params...)` (the i-th trigger's body) and `SETUP(st, trig)`.
    A body with a statement the generator cannot express is left out: its closures run it."""
    rs = gen.rs

    def attempt(fname: str, params: tuple[A.Binder, ...] | tuple[A.Param, ...], stmts: tuple[A.Node, ...], trig: bool) -> str | None:
        named = [(p.name, gen.fresh(p.name)) for p in params]
        for p, (_n, py) in zip(params, named):
            if isinstance(p, A.Param):
                gen._note_param(py, p.type)
        try:
            return gen.body_source(fname, named, stmts, trig)
        except CodegenError:
            return None

    gen.generated_procs = {p.name for p in rs.procs}
    while True:  # a procedure that cannot be generated is called through its closures
        procs = {p.name: attempt(f"P_{p.name}", p.params, p.body, False) for p in rs.procs}
        ok = {name for name, text in procs.items() if text is not None}
        if ok == gen.generated_procs:
            break
        gen.generated_procs = ok
    out = [text for text in procs.values() if text is not None]
    out += [t for i, (m, _g) in enumerate(moves) if (t := attempt(f"B_{i}", m.params, m.body, True))]
    out += [t for i, tr in enumerate(triggers) if (t := attempt(f"TB_{i}", tr.params, tr.body, False))]
    if rs.setup is not None and (t := attempt("SETUP", (), rs.setup.body, True)):
        out.append(t)
    return out


def step_listers(rs: Ruleset, moves: list[A.MoveDecl], searches: list[str]) -> list[str]:
    """Source of `S_<step>(st) -> (spans, bindings)` for each step without `forced` moves:
    every legal binding of the step's moves in declaration order (its `otherwise` moves' only
    when the others have none), as `Game._legal` lists them, from one call. Each move's search
    (`searches[i]`, the text of `M_<i>`) is written out in place, its results appended to the
    one list, and `spans` gets `(end, MC_<i>)` per move with bindings (`MC_<i>`, the i-th
    move's code, is put in the module by runtime.compile). A budget running out names the
    move whose search was running (`exc.rule`). A step whose searches cannot be written out
    has none."""
    texts = []
    for k, step in enumerate(rs.steps):
        idx = [i for i, m in enumerate(moves) if step.name in m.steps]
        if not idx or any(moves[i].forced for i in idx):
            continue
        prologue: dict[str, None] = {}
        groups: list[list[str]] = [[], []]  # the plain moves' lines, the `otherwise` moves'
        for i in idx:
            block = _inlined_search(searches[i], prologue)
            if block is None:
                break
            groups[bool(moves[i].otherwise)] += [f"        lst_at = {('move ' + moves[i].name)!r}", "        while True:", *block,
                                                 f"        if len(out) != lst_n: lst_spans.append((len(out), MC_{i}))",
                                                 "        lst_n = len(out)"]
        else:
            body = groups[0]
            if groups[1]:
                body += ["        if not out:"] + ["    " + line for line in groups[1]]
            shared = _shared_guards(body)
            head = [f"def S_{k}(st):", *prologue, "    first_only = False", "    out = []", "    lst_spans = []", "    lst_n = 0",
                    "    lst_at = ''", *(f"    {g} = UNSET" for g in shared), "    try:"]
            tail = ["    except BUDGET as lst_exc:", "        lst_exc.rule = lst_at", "        raise", "    return lst_spans, out"]
            texts.append("\n".join(head + body + tail) + "\n")
            texts.append(f"STEP_LISTERS[{step.name!r}] = S_{k}\n")
    return texts


_GUARD = re.compile(r"( {12}| {16})if not \((.*)\): break$")  # a move's test before its first parameter, in a lister


def _shared_guards(body: list[str]) -> list[str]:
    """Rewrite, in place, the tests that several moves of a step lister make before their
    first parameter with the same text (`it is step s and my pawn stands on square q`) to
    compute it once, on first use, in a local of the lister (a search never
    changes the state, so the value holds for every move). Returns the locals' names."""
    seen: dict[str, int] = {}
    for line in body:
        m = _GUARD.fullmatch(line)
        if m:
            seen[m.group(2)] = seen.get(m.group(2), 0) + 1
    names = {text: f"lst_g{j}" for j, text in enumerate(t for t, n in seen.items() if n > 1)}
    for i, line in enumerate(body):
        m = _GUARD.fullmatch(line)
        if m and m.group(2) in names:
            g = names[m.group(2)]
            body[i] = f"{m.group(1)}if not ({g} if {g} is not UNSET else ({g} := ({m.group(2)}))): break"
    return list(names.values())


_PROLOGUE_LINE = re.compile(r"    (G = st\.g|Z = st\.zones|EV_\w+ = st\.ev\.get\('\w+'\))$")
_TOP_RETURN = re.compile(r"    (if not \(.*\): )?return out$")


def _inlined_search(text: str, prologue: dict[str, None]) -> list[str] | None:
    """The lines of a generated search (`Gen.search_source`) for a step lister: inside a
    `while True:` run once (two levels deeper), its prologue noted in `prologue`, its list
    `out` the lister's, its top-level `return out` a `break`, without its `first_only`
    returns. None when it has another shape."""
    lines = text.rstrip("\n").split("\n")
    if not lines[0].startswith("def ") or not lines[0].endswith("(st, first_only=False):"):
        return None
    block = []
    seen_out = False
    for line in lines[1:]:
        if not seen_out and _PROLOGUE_LINE.match(line):
            prologue[line] = None
            continue
        if line == "    out = []" and not seen_out:
            seen_out = True
            continue
        if not seen_out:
            return None
        if line.lstrip().startswith("if first_only: return"):
            continue  # the lister lists every binding
        m = _TOP_RETURN.match(line)
        if m:
            line = f"    {m.group(1) or ''}break"
        elif "return" in line:
            return None
        block.append("        " + line)
    return block


def compile_module(rs: Ruleset, moves: list[tuple[A.MoveDecl, list[list[A.Node]]]],
                   triggers: list[A.TriggerDecl], trigger_deps: frozenset[str] | None = None,
                   owns: dict[str, frozenset[str]] | None = None) -> dict[str, Any]:
    """Generate and exec the module of a ruleset. Returns its namespace: `F_<fn>`, `M_<i>`
    (the i-th move's search, `f(st, first_only) -> [binding tuple]`), `T_<i>` (the i-th
    trigger's search; its last group holds the condition). `owns` gives what each body takes
    as its own first ({"move I" | "trigger I" | "setup": roots}: `State.own`,
    `runtime.compile.Compiler._owned_keys`). Raises CodegenError."""
    gen = Gen(rs)
    gen.trigger_deps = trigger_deps
    gen.owns = {("B_" + b[5:] if b.startswith("move ") else "TB_" + b[8:] if b.startswith("trigger ") else "SETUP"): keys
                for b, keys in (owns or {}).items()}
    src = [gen.fn_source(f) for f in rs.fns]
    searches = [gen.search_source(f"M_{i}", m.params, groups, False) for i, (m, groups) in enumerate(moves)]
    src += searches
    src += step_listers(rs, [m for m, _g in moves], searches)
    for i, t in enumerate(triggers):
        conds: list[list[A.Node]] = [[] for _ in range(len(t.params) + 1)]
        conds[-1].append(t.cond)
        src.append(gen.search_source(f"T_{i}", t.params, conds, True))
    src += effects_source(gen, moves, triggers)
    text = "\n".join(src)
    ns: dict[str, Any] = dict(HELPERS)
    ns["STEP_LISTERS"] = {}
    # zone declaration -> the attributes whose counts over its zones the generated code reads
    # from `State.count_cells` (through `State.count_places`), in slot order (`Gen._kept_counts`): a game's state keeps them
    ns["COUNTED"] = {decl: tuple(attrs) for decl, attrs in gen.counted.items()}
    ns.update({f"BI_{name}": f for name, f in B.FUNCS.items()})
    ns.update(gen.consts)
    code = compile(text, f"<ludex {rs.name}>", "exec")
    exec(code, ns)  # noqa: S102 - source generated from the checked IR, not user input
    ns["__source__"] = text
    return ns
