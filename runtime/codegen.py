"""Generate Python source for the hot paths of a ruleset, compiled once per ruleset.

Ruleset functions become Python functions, each move's legal-move search becomes nested
`for` loops with its requires inlined, and each trigger's condition becomes a search
function. Rule-language locals become Python locals, so the interpreter does per ply about
what a hand-written engine does (issue 2's speed target). Statements (effects) stay
closures (`runtime.compile`): they run once per applied move, not once per candidate.

Every generated function takes the game's `State` first. Names in the generated module:
`F_<fn>` functions, `M_<i>` move searches, `T_<i>` trigger searches, and helpers below.
"""

from __future__ import annotations

import itertools
from typing import Any

from dsl import ast as A
from dsl.ir import Ruleset
from runtime import builtins as B
from runtime.state import State
from runtime.values import ZoneRef

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


HELPERS = {"ITEMS": State.items, "IX": _index, "ADD": _add, "CAT": _concat, "DISPLAY": B.display, "FUNCS": B.FUNCS}


class Gen:
    """Source generation for one ruleset; `module()` returns the namespace with every function."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.fns = {f.name: f for f in rs.fns}
        self.enum_values = {v for e in rs.enums for v in e.values}
        self.enum_types = {e.name: list(e.values) for e in rs.enums}
        self.steps = {s.name for s in rs.steps}
        self.ctors = {c.name for c in rs.component_types} | {e.name for e in rs.entity_types}
        self.counter = itertools.count()
        self.consts: dict[str, Any] = {}
        self.depth = 0
        self.recursive = recursive_fns(rs)
        # static shapes, so zones are read as `Z[ref.idx]` without a helper call
        self.global_zones = {z.name: z.per_seat for z in rs.zones}
        members: dict[str, set[bool]] = {}
        others: set[str] = set()
        for e in rs.entity_types:
            for z in e.zones:
                members.setdefault(z.name, set()).add(z.per_seat)
            others |= {f.name for f in e.fields} | {v.name for v in e.vars}
        for c in rs.component_types:
            others |= {f.name for f in c.fields}
        self.member_zones = {m: next(iter(k)) for m, k in members.items() if len(k) == 1 and m not in others}
        self.lists = {c.name for c in rs.component_sets} | {e.name for e in rs.entity_sets}

    def inlinable(self, f: A.FnDecl, args: list[Any]) -> bool:
        """Inline calls to small, non-recursive functions whose arguments are cheap and pure
        (names, literals, attribute reads): repeating them costs less than a Python call."""
        if f.name in self.recursive or self.depth >= MAX_INLINE_DEPTH:
            return False
        if sum(1 for _ in A.walk(f.body)) > MAX_INLINE_NODES:
            return False
        return all(a is not None and _simple(a) for a in args)

    def fresh(self, name: str) -> str:
        return f"v{next(self.counter)}_{name}"

    def const(self, value: Any) -> str:
        key = f"K{len(self.consts)}"
        self.consts[key] = value
        return key

    def shape(self, n: A.Node, env: dict[str, str]) -> str | None:
        """"zone" (a ZoneRef), "zones" (a per-seat list of them), "list" (a Python list) or None."""
        if n.op == "name" and n.args[0] not in env:
            name = n.args[0]
            if name in self.global_zones:
                return "zones" if self.global_zones[name] else "zone"
            if name in self.lists or name in self.enum_types or name == "seats":
                return "list"
            return None
        if n.op == "attr" and n.args[1] in self.member_zones:
            return "zones" if self.member_zones[n.args[1]] else "zone"
        if n.op == "index" and self.shape(n.args[0], env) == "zones":
            return "zone"
        if n.op in ("where", "range", "list_lit", "list_comp"):
            return "list"
        return None

    def items(self, n: A.Node, env: dict[str, str]) -> str:
        """Python text iterating the elements of collection `n`."""
        shape = self.shape(n, env)
        if shape == "zone":
            return f"Z[{self.ex(n, env)}.idx]"
        if shape == "list":
            return self.ex(n, env)
        return f"ITEMS(st, {self.ex(n, env)})"

    # ---- expressions: DSL node -> Python expression text; `env` maps DSL locals to Python names ----
    def ex(self, n: A.Node, env: dict[str, str]) -> str:
        f = getattr(self, "ex_" + n.op, None)
        if f is None:
            raise CodegenError(f"no generator for {n.op}")
        return f(n, env, *n.args)

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
        return f"{self.ex(obj, env)}.d[{name!r}]"

    def ex_index(self, n, env, obj, idx):
        shape = self.shape(obj, env)
        if shape == "zones" or shape == "list":
            return f"{self.ex(obj, env)}[{self.ex(idx, env)}]"
        if shape == "zone":
            return f"Z[{self.ex(obj, env)}.idx][{self.ex(idx, env)}]"
        return f"IX(st, {self.ex(obj, env)}, {self.ex(idx, env)})"

    def ex_binop(self, n, env, op, x, y):
        a, b = self.ex(x, env), self.ex(y, env)
        if op == "+" and not (_int_lit(x) or _int_lit(y)):  # an int literal: the other side is an int too
            return f"ADD(st, {a}, {b})"
        if op == "++":
            return f"CAT(st, {a}, {b})"
        return f"({a} {op} {b})"

    def ex_and_(self, n, env, x, y):
        return f"({self.ex(x, env)} and {self.ex(y, env)})"

    def ex_or_(self, n, env, x, y):
        return f"({self.ex(x, env)} or {self.ex(y, env)})"

    def ex_not_(self, n, env, x):
        return f"(not {self.ex(x, env)})"

    def ex_in_(self, n, env, x, y):
        return f"({self.ex(x, env)} in {self.items(y, env)})"

    def ex_not_in(self, n, env, x, y):
        return f"({self.ex(x, env)} not in {self.items(y, env)})"

    def ex_neg(self, n, env, x):
        return f"(-{self.ex(x, env)})"

    def ex_range(self, n, env, x, y):
        return f"list(range({self.ex(x, env)}, {self.ex(y, env)} + 1))"

    def ex_where(self, n, env, src, cond):
        v = self.fresh("it")
        c = self.ex(cond, {**env, "$it": v})
        return f"[{v} for {v} in {self.items(src, env)} if {c}]"

    def ex_if_expr(self, n, env, *parts):
        out = self.ex(parts[-1], env)
        for k in range(len(parts) - 3, -1, -2):
            out = f"({self.ex(parts[k + 1], env)} if {self.ex(parts[k], env)} else {out})"
        return out

    def ex_let_expr(self, n, env, name, value, body):
        v = self.fresh(name)
        return f"(lambda {v}: {self.ex(body, {**env, name: v})})({self.ex(value, env)})"

    def ex_list_lit(self, n, env, *items):
        return "[" + ", ".join(self.ex(x, env) for x in items) + "]"

    def ex_map_lit(self, n, env, *pairs):
        return "{" + ", ".join(f"{self.ex(k, env)}: {self.ex(v, env)}" for k, v in pairs) + "}"

    def _fors(self, fors: tuple[A.Node, ...], env: dict[str, str]) -> tuple[str, dict[str, str]]:
        inner = dict(env)
        parts = []
        for f in fors:
            name, iterable, cond = f.args
            it = self.items(iterable, inner)
            v = self.fresh(name)
            inner[name] = v
            parts.append(f"for {v} in {it}")
            if cond is not None:
                parts.append(f"if {self.ex(cond, inner)}")
        return " ".join(parts), inner

    def ex_list_comp(self, n, env, elem, fors):
        clause, inner = self._fors(fors, env)
        return f"[{self.ex(elem, inner)} {clause}]"

    def ex_map_comp(self, n, env, pair, fors):
        clause, inner = self._fors(fors, env)
        return f"{{{self.ex(pair[0], inner)}: {self.ex(pair[1], inner)} {clause}}}"

    def ex_gen_call(self, n, env, fname, elem, fors):
        clause, inner = self._fors(fors, env)
        e = self.ex(elem, inner)
        if fname in ("any", "all", "sum"):
            return f"{fname}({e} {clause})"
        if fname == "count":
            return f"len([1 {clause} if {e}])"
        return f"FUNCS[{fname!r}](st, [{e} {clause}])"

    def ex_call(self, n, env, name, pos, kw):
        if name in self.fns:
            f = self.fns[name]
            params = [p.name for p in f.params]
            args: list[Any] = list(pos) + [None] * (len(params) - len(pos))
            for k, v in kw:
                args[params.index(k)] = v
            texts = [self.ex(a, env) for a in args]
            if self.inlinable(f, args):
                # a small pure function with simple arguments: its body in place, no call
                self.depth += 1
                try:
                    return "(" + self.ex(f.body, dict(zip(params, (f"({t})" for t in texts)))) + ")"
                finally:
                    self.depth -= 1
            return f"F_{name}(st" + "".join(", " + t for t in texts) + ")"
        if name in self.ctors:
            raise CodegenError("constructors run only at game creation")
        if name in ("count", "size", "len") and len(pos) == 1 and pos[0].op == "where":
            src, cond = pos[0].args
            v = self.fresh("it")
            # a list comprehension's len beats sum() over a generator on the small zones of games
            return f"len([1 for {v} in {self.items(src, env)} if {self.ex(cond, {**env, '$it': v})}])"
        if name in ("size", "count", "len") and len(pos) == 1:
            return f"len({self.items(pos[0], env)})"
        if name in B.FUNCS:
            return f"FUNCS[{name!r}](st" + "".join(", " + self.ex(a, env) for a in pos) + ")"
        raise CodegenError(f"unknown function {name}")

    # ---- functions and searches ----
    def fn_source(self, f: A.FnDecl) -> str:
        env = {p.name: self.fresh(p.name) for p in f.params}
        params = "".join(", " + env[p.name] for p in f.params)
        body = self.ex(f.body, env)
        return f"def F_{f.name}(st{params}):\n{_prologue(body)}    return {body}\n"

    def search_source(self, fname: str, binders: tuple[A.Binder, ...], groups: list[list[A.Node]],
                      first_only: bool) -> str:
        """Nested loops over `binders`; `groups[k]` are conditions needing binders[:k]; yields
        the bound tuple of every combination that passes (or only the first)."""
        lines = [f"def {fname}(st, first_only=False):", "    G = st.g", "    Z = st.zones", "    out = []"]
        env: dict[str, str] = {}
        indent = "    "
        for cond in groups[0]:
            lines.append(f"{indent}if not ({self.ex(cond, env)}): return out")
        names = []
        for k, b in enumerate(binders):
            v = self.fresh(b.name)
            dom = self.items(b.domain, env)
            env = {**env, b.name: v}
            names.append(v)
            lines.append(f"{indent}for {v} in {dom}:")
            indent += "    "
            for cond in groups[k + 1]:
                lines.append(f"{indent}if not ({self.ex(cond, env)}): continue")
        tup = "(" + "".join(x + ", " for x in names) + ")"
        lines.append(f"{indent}out.append({tup})")
        lines.append(f"{indent}if first_only: return out")
        lines.append("    return out")
        del first_only
        text = "\n".join(lines[4:])
        return "\n".join(lines[:1] + _prologue(text).splitlines() + lines[3:]) + "\n"


MAX_INLINE_NODES = 40
MAX_INLINE_DEPTH = 3


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


def _prologue(body: str) -> str:
    """Local aliases a generated body uses (`G` globals, `Z` zones), and no others."""
    out = ""
    if "G[" in body:
        out += "    G = st.g\n"
    if "Z[" in body:
        out += "    Z = st.zones\n"
    return out


def compile_module(rs: Ruleset, moves: list[tuple[A.MoveDecl, list[list[A.Node]]]],
                   triggers: list[A.TriggerDecl]) -> dict[str, Any]:
    """Generate and exec the module of a ruleset. Returns its namespace: `F_<fn>`, `M_<i>`
    (the i-th move's search, `f(st, first_only) -> [binding tuple]`), `T_<i>` (the i-th
    trigger's search; its last group holds the condition). Raises CodegenError."""
    gen = Gen(rs)
    src = [gen.fn_source(f) for f in rs.fns]
    for i, (m, groups) in enumerate(moves):
        src.append(gen.search_source(f"M_{i}", m.params, groups, False))
    for i, t in enumerate(triggers):
        conds: list[list[A.Node]] = [[] for _ in range(len(t.params) + 1)]
        conds[-1].append(t.cond)
        src.append(gen.search_source(f"T_{i}", t.params, conds, True))
    text = "\n".join(src)
    ns: dict[str, Any] = dict(HELPERS)
    ns.update(gen.consts)
    code = compile(text, f"<ludex {rs.name}>", "exec")
    exec(code, ns)  # noqa: S102 - source generated from the checked IR, not user input
    ns["__source__"] = text
    return ns
