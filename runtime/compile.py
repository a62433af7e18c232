"""Compile the IR's expressions and statements into Python closures, once per ruleset.

Every expression becomes `f(st, env) -> value` and every statement `f(st, env) -> None`,
where `st` is the game's `State` and `env` a list of local slots resolved at compile time.
Nothing re-walks the syntax tree while a game runs (the interpreter's speed target in issue 2).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import attrs

from dsl import ast as A
from dsl.ir import Ruleset
from runtime import builtins as B
from runtime import codegen, outcomes, picks
from runtime.errors import RuleError
from runtime.state import G_KEY, MARKS_KEY
from runtime.values import ZoneRef

Fn = Callable[[Any, list], Any]

SPECIAL = {
    "actor": lambda st, env: st.actor,
    "current": lambda st, env: st.current,
    "step": lambda st, env: st.step,
    "seats": lambda st, env: st.seat_list,
    "nseats": lambda st, env: st.nseats,
    "option": lambda st, env: st.options,
    "ply": lambda st, env: len(st.events),
}


class Scope:
    """Local names of one callable body mapped to slots in its `env` list."""

    def __init__(self, parent: Scope | None = None):
        self.parent = parent
        self.names: dict[str, int] = {}
        self.counter: list[int] = parent.counter if parent else [0]

    def add(self, name: str) -> int:
        i = self.counter[0]
        self.counter[0] += 1
        self.names[name] = i
        return i

    def lookup(self, name: str) -> int | None:
        s: Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def child(self) -> Scope:
        return Scope(self)

    @property
    def size(self) -> int:
        return self.counter[0]


@attrs.define
class Callable_:
    """A compiled fn or proc: parameter count, slots needed, and the body."""

    name: str
    nparams: int
    nslots: int
    body: Any  # expression closure for fn, list of statement closures for proc
    is_proc: bool
    span: A.Span | None
    py: Any = None  # the generated Python function `f(st, *args)` of a fn (runtime.codegen)


@attrs.define
class MoveCode:
    """A compiled move: binders (slot, domain), requires grouped by the binder after which
    they can first be evaluated (so legal-move search prunes early), and body statements."""

    decl: A.MoveDecl
    binders: list[tuple[str, int, Fn]]
    requires: list[list[tuple[Fn, Fn, A.Require]]]  # index k: requires needing binders[:k]
    body: list[tuple[Fn, A.Node]]
    nslots: int
    # generated legal-move search `f(st, first_only) -> [bound tuple]` (runtime.codegen), or None
    search: Any = None
    run: Any = None  # generated body `f(st, trig, *binding)` (runtime.codegen), or None: the closures
    # with a pick binder (`cs in 3 of D`, always last): the requires that read the picked list,
    # checked when a pick is sent, never while listing the offer (runtime.picks)
    pick_requires: list[tuple[Fn, Fn, A.Require]] = attrs.field(factory=list)
    name: str = attrs.field(init=False)  # the move's name
    names: tuple[str, ...] = attrs.field(init=False)  # the parameters' names, in order
    rule: str = attrs.field(init=False)  # "move <name>", as events name it
    source: str = attrs.field(init=False)  # "file:line" of the declaration
    picks: bool = attrs.field(init=False)  # its last parameter is a pick binder: listed as an offer
    # binding -> (its move events' `args`, shared by them; the (name, position in the binding)
    # of each argument some seat may not see: a component, whose slot may be hidden, or a list,
    # a pick of them; empty when there is none) (runtime.game's `_execute`, `_hideable`)
    args_memo: dict[tuple, tuple[dict[str, Any], tuple[tuple[str, int], ...]]] = attrs.field(init=False, factory=dict)

    def __attrs_post_init__(self) -> None:
        self.picks = bool(self.decl.params) and self.decl.params[-1].count is not None
        self.name = self.decl.name
        self.names = tuple(b[0] for b in self.binders)
        self.rule = f"move {self.decl.name}"
        span = self.decl.span
        self.source = f"{span.file}:{span.line}" if span is not None else ""


@attrs.define
class TriggerCode:
    """A compiled trigger; `deps` names everything its condition reads (through function
    calls), so the interpreter re-checks it only after an effect changed one of them."""

    decl: A.TriggerDecl
    binders: list[tuple[str, int, Fn]]
    cond: Fn
    body: list[Fn]
    nslots: int
    deps: frozenset[str]
    search: Any = None  # generated `f(st, True) -> [first bound tuple]` or None
    run: Any = None  # generated body `f(st, *binding)`, or None: the closures
    rule: str = attrs.field(init=False)  # "trigger <name>", as events name it

    def __attrs_post_init__(self) -> None:
        self.rule = f"trigger {self.decl.name}"


@attrs.define
class Program:
    """A ruleset compiled to closures; shared by every game of that ruleset."""

    rs: Ruleset
    consts: list[tuple[str, Fn]]
    component_sets: list[tuple[str, Fn]]
    entity_sets: list[tuple[str, Fn]]
    zone_inits: list[tuple[A.ZoneDecl, Fn | None]]
    var_inits: list[tuple[A.VarDecl, Fn]]
    entity_types: dict[str, A.EntityDecl]
    entity_inits: dict[str, list[tuple[str, Fn]]]
    entity_zone_inits: dict[str, list[tuple[A.ZoneDecl, Fn | None]]]
    callables: dict[str, Callable_]
    moves: list[MoveCode]
    moves_by_step: dict[str, list[MoveCode]]
    triggers: list[TriggerCode]
    setup: list[tuple[Fn, A.Node]]
    steps: dict[str, A.StepDecl]
    then: dict[str, Fn]
    first_step: str
    enum_next: dict[str, str]
    option_defaults: list[tuple[A.OptionDecl, Fn]]
    setup_slots: int
    setup_run: Any  # generated `f(st, trig)` running the setup block (runtime.codegen), or None
    # step -> generated `f(st) -> (spans, bindings)` listing every legal move of a step whose
    # moves are all plain (runtime.codegen's `step_listers`); empty under the closures
    step_listers: dict[str, Any]
    # zone declaration -> the attributes whose counts over its zones the generated code reads
    # from `State.count_cells` (runtime.codegen's `Gen._kept_counts`; `State.keep_counts` keeps
    # them); empty under the closures
    counted: dict[str, tuple[str, ...]]
    # the state before `setup` by (seats, options), built once: `Game.new` starts from a copy
    templates: dict[tuple, Any] = attrs.field(factory=dict)
    # step -> `f(st, [])` giving the seats of a `simultaneous` step, in the order their moves apply
    sim_seats: dict[str, Fn] = attrs.field(factory=dict)
    _step_moves: dict[str, tuple] = attrs.field(factory=dict)
    # (seats, given options) -> every option resolved (`Game.new` of the same options again)
    resolved_options: dict[tuple, dict[str, Any]] = attrs.field(factory=dict)
    trigger_deps: frozenset[str] = attrs.field(init=False)  # everything some trigger reads

    # of the names a move or a turn change marks as changed, those some trigger reads
    ply_dirty: tuple[str, ...] = attrs.field(init=False)
    flow_dirty: tuple[str, ...] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.trigger_deps = frozenset().union(*(t.deps for t in self.triggers))
        self.ply_dirty = tuple(n for n in ("ply",) if n in self.trigger_deps)
        self.flow_dirty = tuple(n for n in ("step", "actor", "current") if n in self.trigger_deps)

    def step_moves(self, step: str) -> tuple[list[MoveCode], list[MoveCode], bool]:
        """The moves of `step`: the plain ones (`forced` included), the `otherwise` ones (legal
        only when no plain move is), and whether any plain one is `forced` (it then excludes
        the others)."""
        got = self._step_moves.get(step)
        if got is None:
            ms = self.moves_by_step.get(step, [])
            plain = [m for m in ms if not m.decl.otherwise]
            got = self._step_moves[step] = (plain, [m for m in ms if m.decl.otherwise], any(m.decl.forced for m in plain))
        return got


_PROGRAMS: dict[str, Program] = {}


def program_for(rs: Ruleset) -> Program:
    """The compiled program of a ruleset, compiled once per IR and cached by its content hash
    (hashing the frozen IR itself on every new game would walk the whole tree)."""
    key = rs.content_hash or str(hash(rs))
    prog = _PROGRAMS.get(key)
    if prog is None:
        if len(_PROGRAMS) >= 64:
            _PROGRAMS.pop(next(iter(_PROGRAMS)))
        prog = _PROGRAMS[key] = Compiler(rs).program()
    return prog


class Callables(dict):
    """Ruleset functions and procedures by name (`State.callables`), and whether clones may
    share containers (`shares`): every change of one in place is a rule's that takes its root
    first (`State.own`), and no rule could tell (`Compiler._owned_keys`)."""

    def __init__(self, items: dict[str, Callable_], shares: bool):
        super().__init__(items)
        self.shares = shares


@attrs.define
class _Writes:
    """What one body changes in place (`Compiler._record`)."""

    keys: set[str] = attrs.field(factory=set)  # roots of the containers it writes into
    # for each value it stores that may be a container: the root stored into and the roots it
    # may come from ("?": a local's or a function's)
    unsafe: list[set[str]] = attrs.field(factory=list)
    calls: set[str] = attrs.field(factory=set)  # the procedures it calls


class Compiler:
    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.callables: dict[str, Callable_] = {}
        self.fn_decls = {f.name: f for f in rs.fns}
        self.pyfns: dict[str, Any] = {}
        self.setup_run: Any = None
        self.step_listers: dict[str, Any] = {}
        self.counted: dict[str, tuple[str, ...]] = {}
        self.source = ""
        self.proc_decls = {p.name: p for p in rs.procs}
        self.recursive = codegen.recursive_fns(rs)
        self.enum_values = {v: e.name for e in rs.enums for v in e.values}
        self.enum_types = {e.name: list(e.values) for e in rs.enums}
        self.steps = {s.name for s in rs.steps}
        self.ctors: dict[str, tuple[str, Any]] = {c.name: ("comp", c) for c in rs.component_types}
        self.ctors.update({e.name: ("ent", e) for e in rs.entity_types})
        # what the body being compiled changes in place (`_record`), by body ("proc NAME",
        # "move I", "trigger I", "setup"): see `_owned_keys`
        self._writes = _Writes()
        self.writes: dict[str, _Writes] = {}
        # some rule changes a container reached from a local in place, or makes two roots hold one (`_owned_keys`)
        self.local_writes = False
        self.var_decls = {v.name: v for v in rs.vars}
        self.member_types: dict[str, set[A.TypeRef]] = {}
        for e in rs.entity_types:
            members: list[A.Param | A.VarDecl] = [*e.fields, *e.vars]
            for m in members:
                self.member_types.setdefault(m.name, set()).add(m.type)
        self.atoms = ({"int", "bool", "str", "seat"} | {e.name for e in rs.enums} | {c.name for c in rs.component_types}
                      | {e.name for e in rs.entity_types})

    def program(self) -> Program:
        rs = self.rs
        for f in rs.fns:
            sc = Scope()
            for p in f.params:
                sc.add(p.name)
            self.callables[f.name] = Callable_(f.name, len(f.params), 0, None, False, f.span)
            self.callables[f.name].body = self.ex(f.body, sc)
            self.callables[f.name].nslots = sc.size
        for proc in rs.procs:
            sc = Scope()
            for prm in proc.params:
                sc.add(prm.name)
            c = Callable_(proc.name, len(proc.params), 0, None, True, proc.span)
            self.callables[proc.name] = c
            self._writes = self.writes[f"proc {proc.name}"] = _Writes()
            c.body = [self.stmt(s, sc) for s in proc.body]
            c.nslots = sc.size
        moves = []
        for i, m in enumerate(rs.moves):
            self._writes = self.writes[f"move {i}"] = _Writes()
            moves.append(self.move(m))
        by_step: dict[str, list[MoveCode]] = {s.name: [] for s in rs.steps}
        for m in moves:
            for s in m.decl.steps:
                by_step[s].append(m)
        then = {}
        for step in rs.steps:
            t = step.then
            if t.op == "then_goto" and t.args[1] is not None:
                then[step.name] = self.closed(t.args[1])
        enum_next = {}
        for e in rs.enums:
            for i, v in enumerate(e.values):
                enum_next[v] = e.values[(i + 1) % len(e.values)]
        ent_inits = {}
        ent_zone_inits = {}
        for ent in rs.entity_types:
            params = [f.name for f in ent.fields]
            ent_inits[ent.name] = [(v.name, self.closed(v.init, params)) for v in ent.vars]
            ent_zone_inits[ent.name] = [(z, self.closed(z.init, params) if z.init is not None else None) for z in ent.zones]
        setup_sc = Scope()
        self._writes = self.writes["setup"] = _Writes()
        setup = [(self.stmt(s, setup_sc), s) for s in rs.setup.body] if rs.setup else []
        triggers = []
        for i, t in enumerate(rs.triggers):
            self._writes = self.writes[f"trigger {i}"] = _Writes()
            triggers.append(self.trigger(t))
        self._writes = _Writes()  # expressions compiled from here on change nothing
        owns = self._owned_keys()
        self._own_first(moves, triggers, setup, owns)
        self._generate(moves, triggers, owns)
        return Program(
            rs=rs,
            consts=[(c.name, self.closed(c.value)) for c in rs.consts],
            component_sets=[(c.name, self.closed(c.value)) for c in rs.component_sets],
            entity_sets=[(c.name, self.closed(c.value)) for c in rs.entity_sets],
            zone_inits=[(z, self.closed(z.init) if z.init is not None else None) for z in rs.zones],
            var_inits=[(v, self.closed(v.init)) for v in rs.vars],
            entity_types={e.name: e for e in rs.entity_types},
            entity_inits=ent_inits,
            entity_zone_inits=ent_zone_inits,
            callables=Callables(self.callables, shares=not self.local_writes),
            moves=moves,
            moves_by_step=by_step,
            triggers=triggers,
            setup=setup,
            steps={s.name: s for s in rs.steps},
            then=then,
            first_step=rs.steps[0].name if rs.steps else "",
            enum_next=enum_next,
            option_defaults=[(o, self.closed(o.default)) for o in rs.options],
            setup_slots=setup_sc.size,
            setup_run=self.setup_run,
            step_listers=self.step_listers,
            counted=self.counted,
            sim_seats={s.name: self.closed(s.simultaneous) for s in rs.steps if s.simultaneous is not None},
        )

    def _owned_keys(self) -> dict[str, frozenset[str]]:
        """What each unit of execution takes as its own before it runs (`State.own`), by body
        ("move I", "trigger I", "setup"): the roots (global names, ".member" for an entity
        member's column, MARKS_KEY for the marks) of the containers it or a procedure it calls
        changes in place, and G_KEY when it assigns a global (the dict `g` changes), with
        those of every trigger (a trigger runs in the middle of a move or of the setup). Taken
        at the start, a local read of a root later changed sees the change, as it would with
        no copy on write.

        Empty, and clones copy every container at once instead (`State.clone`, `shares`
        false), when some rule changes a local's container in place, or stores a value that
        may be another root's container into a root changed in place (two roots holding one
        list: a copy on write of one would part them where a clone's copy does not), or a
        move or trigger parameter may be bound to a container of such a root."""
        rooted = set().union(*(w.keys for w in self.writes.values()))
        if any("?" in u or not u.isdisjoint(rooted) for w in self.writes.values() for u in w.unsafe):
            self.local_writes = True
        # a parameter bound (before the move takes its roots) to a container of a root changed in
        # place would keep the shared one: a domain naming such a root (but for an entity set)
        sets = {s.name for s in self.rs.entity_sets}
        binders: list[A.Binder] = [b for m in self.rs.moves for b in m.params] + [b for t in self.rs.triggers for b in t.params]
        for b in binders:
            named = {x.args[0] for x in A.walk(b.domain) if x.op == "name"} | {"." + x.args[1] for x in A.walk(b.domain) if x.op == "attr"}
            if b.domain.op != "range" and not (named & rooted) <= sets:
                self.local_writes = True
            # a function's answer may hold such a container too (`r in all_rows()`), unless it
            # declares scalars (or lists and maps of them) only, or reads no such root
            calls = [x.args[0] for x in A.walk(b.domain) if x.op == "call" and x.args[0] in self.fn_decls]
            if any(not self._of_scalars(self.fn_decls[f].returns) and not (self._fn_reads(f) & rooted) <= sets for f in calls):
                self.local_writes = True
        if self.local_writes:
            return {}
        whole = {body: set(w.keys) for body, w in self.writes.items()}
        changed = True
        while changed:  # through procedure calls, to a fixed point
            changed = False
            for body, w in self.writes.items():
                got = whole[body].union(*(whole.get(f"proc {c}", set()) for c in w.calls))
                if got != whole[body]:
                    whole[body], changed = got, True
        trig = set().union(*(k for b, k in whole.items() if b.startswith("trigger ")))
        return {b: frozenset(k | trig) for b, k in whole.items() if not b.startswith("proc ") and (k or trig)}

    def _own_first(self, moves: list[MoveCode], triggers: list[TriggerCode], setup: list[tuple[Fn, A.Node]],
                   owns: dict[str, frozenset[str]]) -> None:
        """The first statement of each body (closures) takes what `owns` says first."""
        def first(f: Fn, keys: frozenset[str]) -> Fn:
            def own_then(st, env):
                if not keys <= st.owned:
                    st.own(keys)
                f(st, env)
            return own_then

        for i, m in enumerate(moves):
            keys = owns.get(f"move {i}")
            if keys and m.body:
                m.body[0] = (first(m.body[0][0], keys), m.body[0][1])
        for i, t in enumerate(triggers):
            keys = owns.get(f"trigger {i}")
            if keys and t.body:
                t.body[0] = first(t.body[0], keys)
        keys = owns.get("setup")
        if keys and setup:
            setup[0] = (first(setup[0][0], keys), setup[0][1])

    def _record(self, target: A.Node, sc: Scope, op: str, value: A.Node | None) -> None:
        """Note what assignment `target op value` changes in place (`_owned_keys`): the root of
        the container written into (an entity member's column for `x.m = v`), and, unless the
        value is a scalar or a fresh list or map of scalars, where it may come from."""
        name, path = target.args
        local = sc.lookup(name) is not None
        w = self._writes
        at = [x for k, x in path[:-1] if k == "attr"]  # entities' members on the way to the container
        if not path:  # a variable replaced whole (a local's is nobody else's), in the dict `g`
            key = None if local else name
            if not local:
                w.keys.add(G_KEY)
        elif path[-1][0] == "attr":  # an entity's member replaced in its column, changed in place
            key = "." + path[-1][1]
            w.keys.add(key)
        else:  # written into a container in place: its root is taken first
            if at:
                key = "." + at[-1]
            elif local:
                self.local_writes = True
                return
            else:
                key = name
            w.keys.add(key)
        if key is None:
            return
        t = self._type_of(None if local else name, path)
        fresh = value is None or op in ("+=", "-=") or value.op in ("lit", "list_lit", "map_lit", "list_comp", "map_comp", "binop", "fstring")
        if not (self._scalar(t) or (fresh and t is not None and t.name in ("list", "map") and all(self._scalar(a) for a in t.args))):
            # what the value may be a container of: the roots it names, "?" for a local's or a function's
            sources = {key}
            for x in A.walk(value):
                if x.op == "name":
                    sources.add("?" if sc.lookup(x.args[0]) is not None else x.args[0])
                elif x.op == "attr":
                    sources.add("." + x.args[1])
                elif x.op == "call" and (x.args[0] in self.fn_decls or x.args[0] in self.proc_decls):
                    sources.add("?")
            w.unsafe.append(sources)

    def _type_of(self, name: str | None, path: tuple) -> A.TypeRef | None:
        """The declared type of what target `name` (None: a local) + `path` holds (None when
        not known)."""
        t: A.TypeRef | None = None
        v = self.var_decls.get(name) if name is not None else None
        if v is not None:
            t = v.type
            if v.per_seat:
                t = A.TypeRef("list", (t,))
            elif v.per:
                t = A.TypeRef("map", (A.TypeRef(v.per), t))
        for k, x in path:
            if k == "attr":
                ts = self.member_types.get(x, set())
                t = next(iter(ts)) if len(ts) == 1 else None
            elif t is not None and t.name == "list" and len(t.args) == 1:
                t = t.args[0]
            elif t is not None and t.name == "map" and len(t.args) == 2:
                t = t.args[1]
            else:
                t = None
        return t

    def _scalar(self, t: A.TypeRef | None) -> bool:
        return t is not None and not t.args and all(m in self.atoms for m in t.members)

    def _fn_reads(self, name: str) -> set[str]:
        """The roots (global names, ".member") ruleset function `name` reads, through the
        functions it calls."""
        seen, todo, roots = {name}, [name], set()
        while todo:
            for x in A.walk(self.fn_decls[todo.pop()].body):
                if x.op == "name":
                    roots.add(x.args[0])
                elif x.op == "attr":
                    roots.add("." + x.args[1])
                elif x.op == "call" and x.args[0] in self.fn_decls and x.args[0] not in seen:
                    seen.add(x.args[0])
                    todo.append(x.args[0])
        return roots

    def _of_scalars(self, t: A.TypeRef | None) -> bool:
        """Whether a value of type `t` is a scalar, or a list or map of scalars (no container
        inside it can be some variable's)."""
        return self._scalar(t) or (t is not None and t.name in ("list", "map") and all(self._scalar(a) for a in t.args))

    def _generate(self, moves: list[MoveCode], triggers: list[TriggerCode], owns: dict[str, frozenset[str]]) -> None:
        """Python source for functions, legal-move searches and trigger searches (the hot
        paths); if some construct cannot be generated, the closures stay in charge."""
        if os.environ.get("LUDEX_NO_CODEGEN"):  # closures only: for comparisons and benchmarks
            return
        try:
            ns = codegen.compile_module(
                self.rs, [(m.decl, [[r.cond for _c, _r, r in g] for g in m.requires]) for m in moves], [t.decl for t in triggers],
                frozenset().union(*(t.deps for t in triggers)), owns,
            )
        except codegen.CodegenError:
            return
        for i, m in enumerate(moves):
            m.search = ns[f"M_{i}"]
            m.run = ns.get(f"B_{i}")
            ns[f"MC_{i}"] = m  # what the step listers' spans name (runtime.codegen's `step_listers`)
        self.step_listers = ns["STEP_LISTERS"]
        self.counted = ns["COUNTED"]
        for i, t in enumerate(triggers):
            t.search = ns[f"T_{i}"]
            t.run = ns.get(f"TB_{i}")
        for p in self.rs.procs:
            self.callables[p.name].py = ns.get(f"P_{p.name}")
        self.setup_run = ns.get("SETUP")
        for f in self.rs.fns:
            py = ns[f"F_{f.name}"]
            self.pyfns[f.name] = py
            self.callables[f.name].py = py
        self.source = ns["__source__"]

    def closed(self, node: A.Node, params: list[str] = ()) -> Fn:  # type: ignore[assignment]
        """A top-level expression: `f(st, args)` with its own env (args fill the first slots)."""
        sc = Scope()
        for p in params:
            sc.add(p)
        f = self.ex(node, sc)

        def run(st, args):
            env = [None] * max(sc.size, 1)
            env[: len(args)] = args[: len(env)]
            return f(st, env)

        return run

    # ---- rules ----
    def _binders(self, binders: tuple[A.Binder, ...], sc: Scope) -> list[tuple[str, int, Fn]]:
        out = []
        for b in binders:
            dom = self.ex(b.domain, sc)
            if b.count is not None:
                dom = _pick_domain(self.ex(b.count, sc), dom)
            out.append((b.name, sc.add(b.name), dom))
        return out

    def move(self, m: A.MoveDecl) -> MoveCode:
        sc = Scope()
        binders = self._binders(m.params, sc)
        slot_of = {name: slot for name, slot, _ in binders}
        requires: list[list] = [[] for _ in range(len(binders) + 1)]
        for r in m.requires:
            used = {n.args[0] for n in A.walk(r.cond) if n.op == "name"}
            need = max([i + 1 for i, (name, _, _) in enumerate(binders) if name in used], default=0)
            requires[need].append((self.ex(r.cond, sc), self.ex(r.reason, sc), r))
        del slot_of
        body_sc = sc.child()
        body = [(self.stmt(s, body_sc), s) for s in m.body]
        picked: list = []
        if m.params and m.params[-1].count is not None:
            picked, requires[-1] = requires[-1], []
        return MoveCode(m, binders, requires, body, sc.size, pick_requires=picked)

    def trigger(self, t: A.TriggerDecl) -> TriggerCode:
        sc = Scope()
        binders = self._binders(t.params, sc)
        cond = self.ex(t.cond, sc)
        body_sc = sc.child()
        body = [self.stmt(s, body_sc) for s in t.body]
        deps = self.reads(t)
        return TriggerCode(t, binders, cond, body, sc.size, frozenset(deps))

    def reads(self, t: A.TriggerDecl) -> set[str]:
        """Names and member names trigger `t`'s binder domains and condition read, following
        calls to ruleset functions; a local (a binder, a parameter, a `let`, a comprehension
        variable) is no name of the state, and is left out where it is bound."""
        fns = {f.name: f for f in self.rs.fns}
        out: set[str] = set()
        seen: set[str] = set()

        def visit(x: Any, bound: frozenset[str]) -> None:
            if isinstance(x, tuple):
                for y in x:
                    visit(y, bound)
                return
            if not isinstance(x, A.Node):
                return
            op, args = x.op, x.args
            if op == "name":
                if args[0] not in bound:
                    out.add(args[0])
            elif op == "attr":
                out.add(args[1])
                visit(args[0], bound)
            elif op == "let_expr":
                visit(args[1], bound)
                visit(args[2], bound | {args[0]})
            elif op in ("list_comp", "map_comp", "gen_call"):
                fors = args[2] if op == "gen_call" else args[1]
                inner = bound
                for f in fors:
                    name, iterable, cond = f.args
                    visit(iterable, inner)
                    inner = inner | {name}
                    visit(cond, inner)
                visit(args[1] if op == "gen_call" else args[0], inner)
            else:
                if op in ("call", "gen_call"):
                    out.add(args[0])
                    follow(args[0])
                elif op == "lit" and isinstance(args[0], str) and args[0] in fns:
                    follow(args[0])  # a function passed by name to a search built-in
                visit(args, bound)

        def follow(name: str) -> None:
            f = fns.get(name)
            if f is not None and name not in seen:
                seen.add(name)
                visit(f.body, frozenset(p.name for p in f.params))

        bound: frozenset[str] = frozenset()
        for b in t.params:
            visit(b.domain, bound)
            bound = bound | {b.name}
        visit(t.cond, bound)
        return out

    # ---- expressions ----
    def ex(self, n: A.Node, sc: Scope) -> Fn:
        f = getattr(self, "ex_" + n.op)
        return f(n, sc, *n.args)

    def ex_lit(self, n, sc, v):
        return lambda st, env: v

    def ex_fstring(self, n, sc, *parts):
        fs = [self.ex(p, sc) if isinstance(p, A.Node) else (lambda st, env, p=p: p) for p in parts]
        return lambda st, env: "".join(B.display(f(st, env)) for f in fs)

    def ex_name(self, n, sc, name):
        i = sc.lookup(name)
        if i is not None:
            return lambda st, env: env[i]
        if name in SPECIAL:
            return SPECIAL[name]
        if name in self.enum_values or name in self.steps:
            return lambda st, env: name
        if name in self.enum_types:
            vals = self.enum_types[name]
            return lambda st, env: vals
        return lambda st, env: st.g[name]

    def ex_it(self, n, sc):
        i = sc.lookup("$it")
        if i is None:
            raise RuleError("`it` or `.attr` used outside of `where`", n.span)
        return lambda st, env: env[i]

    def ex_attr(self, n, sc, obj, name):
        if obj.op == "name" and obj.args[0] == "option" and sc.lookup("option") is None:
            return lambda st, env: st.options[name]
        if obj.op in ("name", "it"):
            slot = sc.lookup("$it" if obj.op == "it" else obj.args[0])
            if slot is not None:
                def local_attr(st, env):
                    try:
                        return st.member(env[slot], name)
                    except (AttributeError, KeyError):
                        raise RuleError(f"{B.display(env[slot])} has no attribute '{name}'", n.span) from None

                return local_attr
        o = self.ex(obj, sc)

        def attr(st, env):
            v = o(st, env)
            try:
                return st.member(v, name)
            except (AttributeError, KeyError):
                raise RuleError(f"{B.display(v)} has no attribute '{name}'", n.span) from None

        return attr

    def ex_index(self, n, sc, obj, idx):
        o, i = self.ex(obj, sc), self.ex(idx, sc)

        def index(st, env):
            c, k = o(st, env), i(st, env)
            try:
                if c.__class__ is ZoneRef:
                    return st.zones[c.idx][k]
                return c[k]
            except (IndexError, KeyError, TypeError):
                raise RuleError(f"cannot index {B.display(c)} with {B.display(k)}", n.span) from None

        return index

    def ex_binop(self, n, sc, op, x, y):
        if y.op == "lit" and op in _CONST_OPS and isinstance(y.args[0], (int, str)) and not isinstance(y.args[0], bool):
            return _CONST_OPS[op](self.ex(x, sc), y.args[0])
        a, b = self.ex(x, sc), self.ex(y, sc)
        if op == "==":
            return lambda st, env: a(st, env) == b(st, env)
        if op == "!=":
            return lambda st, env: a(st, env) != b(st, env)
        if op == "<":
            return lambda st, env: a(st, env) < b(st, env)
        if op == "<=":
            return lambda st, env: a(st, env) <= b(st, env)
        if op == ">":
            return lambda st, env: a(st, env) > b(st, env)
        if op == ">=":
            return lambda st, env: a(st, env) >= b(st, env)
        if op == "-":
            return lambda st, env: a(st, env) - b(st, env)
        if op == "*":
            return lambda st, env: a(st, env) * b(st, env)
        if op == "//":
            return lambda st, env: a(st, env) // b(st, env)
        if op == "%":
            return lambda st, env: a(st, env) % b(st, env)
        if op == "++":
            return lambda st, env: list(st.items(a(st, env))) + list(st.items(b(st, env)))

        def plus(st, env):
            u, v = a(st, env), b(st, env)
            if isinstance(u, int) and isinstance(v, int):
                return u + v
            return list(st.items(u)) + list(st.items(v))

        return plus

    def ex_and_(self, n, sc, x, y):
        a, b = self.ex(x, sc), self.ex(y, sc)
        return lambda st, env: bool(a(st, env)) and bool(b(st, env))

    def ex_or_(self, n, sc, x, y):
        a, b = self.ex(x, sc), self.ex(y, sc)
        return lambda st, env: bool(a(st, env)) or bool(b(st, env))

    def ex_not_(self, n, sc, x):
        a = self.ex(x, sc)
        return lambda st, env: not a(st, env)

    def ex_in_(self, n, sc, x, y):
        a, b = self.ex(x, sc), self.ex(y, sc)
        return lambda st, env: a(st, env) in st.items(b(st, env))

    def ex_not_in(self, n, sc, x, y):
        f = self.ex_in_(n, sc, x, y)
        return lambda st, env: not f(st, env)

    def ex_is_(self, n, sc, x, name):
        a = self.ex(x, sc)
        return lambda st, env: getattr(a(st, env), "kind", None) == name

    def ex_neg(self, n, sc, x):
        a = self.ex(x, sc)
        return lambda st, env: -a(st, env)

    def ex_range(self, n, sc, x, y):
        a, b = self.ex(x, sc), self.ex(y, sc)
        return lambda st, env: list(range(a(st, env), b(st, env) + 1))

    def ex_where(self, n, sc, src, cond):
        s = self.ex(src, sc)
        inner = sc.child()
        i = inner.add("$it")
        c = self.ex(cond, inner)

        def where(st, env):
            out = []
            for x in st.items(s(st, env)):
                env[i] = x
                if c(st, env):
                    out.append(x)
            return out

        return where

    def _inline(self, f: A.FnDecl, args: list[Fn], sc: Scope) -> Fn:
        """A call to a pure, non-recursive ruleset function compiled in place: its parameters
        get slots in the caller's env (a fresh scope sharing the caller's slot counter, so the
        body sees only its parameters), and no env list is allocated per call."""
        inner = Scope()
        inner.counter = sc.counter
        slots = [inner.add(p.name) for p in f.params]
        body = self.ex(f.body, inner)
        if len(slots) == 1:
            (s0,), (a0,) = slots, args

            def call1(st, env):
                env[s0] = a0(st, env)
                return body(st, env)

            return call1
        if len(slots) == 2:
            (s0, s1), (a0, a1) = slots, args

            def call2(st, env):
                x0 = a0(st, env)
                env[s1] = a1(st, env)
                env[s0] = x0
                return body(st, env)

            return call2
        if len(slots) == 3:
            (s0, s1, s2), (a0, a1, a2) = slots, args

            def call3(st, env):
                x0 = a0(st, env)
                x1 = a1(st, env)
                env[s2] = a2(st, env)
                env[s0] = x0
                env[s1] = x1
                return body(st, env)

            return call3
        pairs = list(zip(slots, args))

        def calln(st, env):
            vals = [a(st, env) for _, a in pairs]
            for (slot, _), v in zip(pairs, vals):
                env[slot] = v
            return body(st, env)

        return calln

    def _count_where(self, n: A.Node, sc: Scope) -> Fn:
        """`count(xs where c)` without building the filtered list."""
        src, cond = n.args
        s = self.ex(src, sc)
        inner = sc.child()
        i = inner.add("$it")
        c = self.ex(cond, inner)

        def count_where(st, env):
            k = 0
            src = s(st, env)
            for x in (st.zones[src.idx] if src.__class__ is ZoneRef else st.items(src)):
                env[i] = x
                if c(st, env):
                    k += 1
            return k

        return count_where

    def ex_if_expr(self, n, sc, *parts):
        pairs = [(self.ex(parts[k], sc), self.ex(parts[k + 1], sc)) for k in range(0, len(parts) - 1, 2)]
        other = self.ex(parts[-1], sc)

        def if_expr(st, env):
            for c, v in pairs:
                if c(st, env):
                    return v(st, env)
            return other(st, env)

        return if_expr

    def ex_let_expr(self, n, sc, name, value, body):
        v = self.ex(value, sc)
        inner = sc.child()
        i = inner.add(name)
        b = self.ex(body, inner)

        def let(st, env):
            env[i] = v(st, env)
            return b(st, env)

        return let

    def ex_list_lit(self, n, sc, *items):
        fs = [self.ex(x, sc) for x in items]
        return lambda st, env: [f(st, env) for f in fs]

    def ex_map_lit(self, n, sc, *pairs):
        fs = [(self._key(k, sc), self.ex(v, sc)) for k, v in pairs]
        return lambda st, env: {k(st, env): v(st, env) for k, v in fs}

    def _key(self, k: A.Node, sc: Scope) -> Fn:
        return self.ex(k, sc)

    def _gen(self, fors: tuple[A.Node, ...], sc: Scope) -> tuple[Callable[[Any, list], Any], Scope]:
        """Nested `for x in xs if c` clauses: a function yielding once per binding (env filled in)."""
        inner = sc.child()
        clauses = []
        for f in fors:
            name, iterable, cond = f.args
            it = self.ex(iterable, inner)
            slot = inner.add(name)
            c = self.ex(cond, inner) if cond is not None else None
            clauses.append((it, slot, c))

        def gen(st, env, k=0):
            it, slot, c = clauses[k]
            last = k == len(clauses) - 1
            for x in st.items(it(st, env)):  # expressions are pure: no copy needed
                env[slot] = x
                if c is not None and not c(st, env):
                    continue
                if last:
                    yield None
                else:
                    yield from gen(st, env, k + 1)

        return gen, inner

    def ex_list_comp(self, n, sc, elem, fors):
        gen, inner = self._gen(fors, sc)
        e = self.ex(elem, inner)
        return lambda st, env: [e(st, env) for _ in gen(st, env)]

    def ex_map_comp(self, n, sc, pair, fors):
        gen, inner = self._gen(fors, sc)
        k, v = self._key(pair[0], inner), self.ex(pair[1], inner)
        return lambda st, env: {k(st, env): v(st, env) for _ in gen(st, env)}

    def ex_gen_call(self, n, sc, fname, elem, fors):
        gen, inner = self._gen(fors, sc)
        e = self.ex(elem, inner)
        if fname == "any":
            return lambda st, env: any(e(st, env) for _ in gen(st, env))
        if fname == "all":
            return lambda st, env: all(e(st, env) for _ in gen(st, env))
        if fname == "sum":
            return lambda st, env: sum(e(st, env) for _ in gen(st, env))
        if fname == "count":
            return lambda st, env: sum(1 for _ in gen(st, env) if e(st, env))
        values = lambda st, env: [e(st, env) for _ in gen(st, env)]  # noqa: E731
        fn = B.FUNCS[fname]
        return lambda st, env: fn(st, values(st, env))

    def ex_call(self, n, sc, name, pos, kw):
        user = self.fn_decls.get(name) or self.proc_decls.get(name)
        if user is None and name in ("count", "size", "len") and len(pos) == 1 and pos[0].op == "where":
            return self._count_where(pos[0], sc)
        if user is not None and kw:
            # keyword arguments go to the parameter of that name, whatever their order
            params = [p.name for p in user.params]
            slots: list[Any] = list(pos) + [None] * (len(params) - len(pos))
            for k, v in kw:
                if k not in params:
                    raise RuleError(f"'{name}' has no parameter '{k}'", n.span)
                slots[params.index(k)] = v
            pos, kw = tuple(slots), ()
        args = [self.ex(a, sc) for a in pos]
        kwargs = [(k, self.ex(v, sc)) for k, v in kw]
        if name in self.ctors and user is None:
            kind, decl = self.ctors[name]
            fields = [f.name for f in decl.fields]

            def ctor(st, env):
                vals = dict(zip(fields, (a(st, env) for a in args)))
                vals.update({k: v(st, env) for k, v in kwargs})
                # declared field order, so `card(value: 7, colour: red)` is still named red-7
                return st.make(kind, decl, {f: vals[f] for f in fields if f in vals})

            return ctor
        if name in B.FUNCS and user is None:
            fn = B.FUNCS[name]
            if len(args) == 1:
                a0 = args[0]
                return lambda st, env: fn(st, a0(st, env))
            return lambda st, env: fn(st, *(a(st, env) for a in args))
        callables = self.callables
        allargs = args + [v for _, v in kwargs]
        fdecl = self.fn_decls.get(name)
        if fdecl is not None and name not in self.recursive and len(allargs) == len(fdecl.params):
            inline = self._inline(fdecl, allargs, sc)
            pyfns = self.pyfns

            def call_fn(st, env):
                py = pyfns.get(name)  # the generated function, once codegen has run
                if py is None:
                    return inline(st, env)
                return py(st, *[a(st, env) for a in allargs])

            return call_fn

        span = n.span
        if name in self.proc_decls:
            self._writes.calls.add(name)

        def call(st, env):
            st.spend(span)
            c = callables[name]
            if c.py is not None and c.is_proc:  # the generated procedure (runtime.codegen)
                c.py(st, *[a(st, env) for a in allargs])
                return None
            new = [None] * c.nslots
            for k, a in enumerate(allargs):
                new[k] = a(st, env)
            if c.is_proc:
                for s in c.body:
                    s(st, new)
                return None
            return c.body(st, new)

        return call

    # ---- statements ----
    def stmt(self, n: A.Node, sc: Scope) -> Fn:
        f = getattr(self, "st_" + n.op)
        return f(n, sc, *n.args)

    def block(self, stmts: tuple[A.Node, ...], sc: Scope) -> Fn:
        inner = sc.child()
        fs = [self.stmt(s, inner) for s in stmts]

        def block(st, env):
            for f in fs:
                f(st, env)

        return block

    def st_call(self, n, sc, name, pos, kw):
        return self.ex_call(n, sc, name, pos, kw)

    def st_move_stmt(self, n, sc, what, dest, place):
        w, d = self.ex(what, sc), self.ex(dest, sc)
        mode, at = "end", None
        if place is not None:
            mode = place.op
            if mode == "at":
                at = self.ex(place.args[0], sc)
        return lambda st, env: st.move_items(w(st, env), d(st, env), mode, at(st, env) if at else None)

    def st_shuffle_stmt(self, n, sc, zone):
        z = self.ex(zone, sc)
        return lambda st, env: st.shuffle(z(st, env), n.span)

    def st_draw_stmt(self, n, sc, count, src, dest, refill=None):
        c, s, d = self.ex(count, sc), self.ex(src, sc), self.ex(dest, sc)
        r = self.ex(refill, sc) if refill is not None else None
        return lambda st, env: st.draw(c(st, env), s(st, env), d(st, env), r(st, env) if r else None, n.span)

    def st_draw_random_stmt(self, n, sc, src, dest, name, cond):
        s, d = self.ex(src, sc), self.ex(dest, sc)
        retry = None
        if name is not None:
            inner = sc.child()
            slot = inner.add(name)
            c = self.ex(cond, inner)

            def retry(st, env, item):
                env[slot] = item
                return c(st, env)

        return lambda st, env: st.draw_random(s(st, env), d(st, env), retry, env, n.span)

    def _target(self, t: A.Node, sc: Scope) -> tuple[Fn, Callable[[Any, list, Any], None]]:
        """A (getter, setter) pair for an assignment target."""
        name, path = t.args
        slot = sc.lookup(name)
        if not path:
            if slot is not None:
                def get(st, env):
                    return env[slot]

                def put(st, env, v):
                    env[slot] = v
            else:
                def get(st, env):
                    return st.g[name]

                def put(st, env, v):
                    st.g[name] = v
            return get, put
        base = self.ex(A.Node("name", (name,), t.span), sc)
        steps = [(k, x if k == "attr" else self.ex(x, sc)) for k, x in path]

        def container(st, env):
            c = base(st, env)
            for k, x in steps[:-1]:
                c = st.member(c, x) if k == "attr" else c[x(st, env)]
            return c

        kind, last = steps[-1]
        if kind == "attr":
            def get(st, env):
                return st.member(container(st, env), last)

            def put(st, env, v):
                st.set_member(container(st, env), last, v)
        else:
            def get(st, env):
                return container(st, env)[last(st, env)]

            def put(st, env, v):
                container(st, env)[last(st, env)] = v
        return get, put

    @staticmethod
    def _changed_name(target: A.Node) -> str:
        """The name an assignment changes, for trigger dependencies (`t.x = ..` changes `x`)."""
        name, path = target.args
        attrs_ = [x for k, x in path if k == "attr"]
        return attrs_[-1] if attrs_ else name

    def st_assign_stmt(self, n, sc, target, op, value):
        self._record(target, sc, op, value)
        get, put0 = self._target(target, sc)
        changed = self._changed_name(target)

        def put(st, env, v):
            st.version += 1
            st.dirty.add(changed)
            put0(st, env, v)

        v = self.ex(value, sc)
        if op == "=":
            return lambda st, env: put(st, env, v(st, env))
        if op == "+=":
            return lambda st, env: put(st, env, get(st, env) + v(st, env))
        return lambda st, env: put(st, env, get(st, env) - v(st, env))

    def st_flip_stmt(self, n, sc, target):
        self._record(target, sc, "flip", None)
        get, put0 = self._target(target, sc)
        changed = self._changed_name(target)

        def put(st, env, v):
            st.version += 1
            st.dirty.add(changed)
            put0(st, env, v)

        nxt = {}
        for e in self.rs.enums:
            for i, val in enumerate(e.values):
                nxt[val] = e.values[(i + 1) % len(e.values)]
        return lambda st, env: put(st, env, nxt[get(st, env)])

    def st_remove_stmt(self, n, sc, what):
        self._writes.keys.update(s.name for s in self.rs.entity_sets)  # the sets that held it lose it in place
        w = self.ex(what, sc)
        return lambda st, env: st.remove_entity(w(st, env))

    def st_if_stmt(self, n, sc, *parts):
        pairs = [(self.ex(parts[k], sc), self.block(parts[k + 1], sc)) for k in range(0, len(parts) - 1, 2)]
        other = self.block(parts[-1], sc) if len(parts) % 2 == 1 else None

        def if_stmt(st, env):
            for c, b in pairs:
                if c(st, env):
                    b(st, env)
                    return
            if other is not None:
                other(st, env)

        return if_stmt

    def st_for_stmt(self, n, sc, name, iterable, body):
        it = self.ex(iterable, sc)
        inner = sc.child()
        slot = inner.add(name)
        b = self.block(body, inner)

        span = n.span

        def for_stmt(st, env):
            for x in list(st.items(it(st, env))):
                st.spend(span)
                env[slot] = x
                b(st, env)

        return for_stmt

    def st_while_stmt(self, n, sc, cond, body):
        c, b = self.ex(cond, sc), self.block(body, sc)

        span = n.span

        def while_stmt(st, env):
            while c(st, env):
                st.spend(span)
                b(st, env)

        return while_stmt

    def st_let_stmt(self, n, sc, name, value):
        v = self.ex(value, sc)
        slot = sc.add(name)

        def let(st, env):
            env[slot] = v(st, env)

        return let

    def st_goto_stmt(self, n, sc, step, by):
        b = self.ex(by, sc) if by is not None else None
        return lambda st, env: st.set_flow(("goto", step, b(st, env) if b else None))

    def st_end_turn_stmt(self, n, sc):
        return lambda st, env: st.set_flow(("end_turn",))

    def st_turn_stmt(self, n, sc, seat):
        s = self.ex(seat, sc)
        return lambda st, env: st.set_flow(("turn", s(st, env)))

    def st_end_game_stmt(self, n, sc, outcome, reason):
        kind = outcome.op.removeprefix("outcome_")
        r = self.ex(reason, sc) if isinstance(reason, A.Node) else (lambda st, env: reason)
        args = outcome.args
        if kind == "team":
            v = self.ex(args[0], sc)
            return lambda st, env: st.end_game(
                {"kind": "team", "winners": list(st.seat_list), "scores": {"team": v(st, env)}, "reason": r(st, env)},
                n.span)

        def seat_values(f: Fn, st: Any, env: list) -> dict[int, Any]:
            try:
                return outcomes.per_seat(f(st, env), st.seat_list)
            except KeyError as exc:
                raise RuleError(f"end game: {exc.args[0]}", n.span) from None

        if kind in ("scores", "rank", "lowest"):
            keys = self.ex(args[0], sc)
            breaks = [self.ex(b, sc) for b in (args[1] if len(args) > 1 else ())]
            ties = args[2] if len(args) > 2 else "win"
            return lambda st, env: st.end_game(outcomes.ranked(
                kind, st.seat_list, r(st, env), seat_values(keys, st, env), [seat_values(b, st, env) for b in breaks], ties),
                n.span)
        winner = self.ex(args[0], sc) if kind == "win" else None
        carried_node = args[1] if kind == "win" and len(args) > 1 else (args[0] if kind == "draw" and args else None)
        carried = self.ex(carried_node, sc) if carried_node is not None else None
        return lambda st, env: st.end_game(outcomes.plain(
            kind, r(st, env), winner(st, env) if winner else None,
            seat_values(carried, st, env) if carried else None), n.span)

    def st_reveal_stmt(self, n, sc, zone):
        z = self.ex(zone, sc)
        return lambda st, env: st.reveal(z(st, env), n.span)

    def st_mark_stmt(self, n, sc, what, value):
        self._writes.keys.add(MARKS_KEY)  # the marks change in place (`_owned_keys`)
        w, v = self.ex(what, sc), self.ex(value, sc)
        return lambda st, env: st.mark(w(st, env), v(st, env))

    def st_unmark_stmt(self, n, sc, what):
        self._writes.keys.add(MARKS_KEY)
        w = self.ex(what, sc)
        return lambda st, env: st.unmark(w(st, env))


# comparisons and arithmetic with a literal right operand: one closure call fewer
_CONST_OPS: dict[str, Callable[[Fn, Any], Fn]] = {
    "==": lambda a, k: lambda st, env: a(st, env) == k,
    "!=": lambda a, k: lambda st, env: a(st, env) != k,
    "<": lambda a, k: lambda st, env: a(st, env) < k,
    "<=": lambda a, k: lambda st, env: a(st, env) <= k,
    ">": lambda a, k: lambda st, env: a(st, env) > k,
    ">=": lambda a, k: lambda st, env: a(st, env) >= k,
    "*": lambda a, k: lambda st, env: a(st, env) * k,
    "//": lambda a, k: lambda st, env: a(st, env) // k,
    "%": lambda a, k: lambda st, env: a(st, env) % k,
}


__all__ = ["Program", "RuleError", "program_for"]


def _pick_domain(count: Fn, dom: Fn) -> Fn:
    """A pick binder's domain (`NAME in COUNT of DOMAIN`): the one offer `runtime.picks.Pick`
    of the domain's elements, or nothing when there are too few."""
    return lambda st, env: picks.offer(count(st, env), st.items(dom(st, env)))
