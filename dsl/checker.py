"""Static checks over a merged set of declarations: names, types, arity and reachability.

Each finding becomes a `Diagnostic` with file:line:column, the source line with a caret and,
where one exists, a fix hint ("did you mean ..."). The checker keeps going after an error,
so one run reports every problem it can find (Crafting Interpreters, "Resolving and Binding").

Types are strings: `int`, `bool`, `str`, `seat`, `step`, `none`, `any`, `enum:E`, `comp:C`,
`ent:E`, `zone:C`, `zones:C` (a per-seat zone, indexed by seat), `list:T`, `map:K:V`,
`seatmap:T` (a per-seat variable), `options`. A union of component types is `comp:C1/C2`
(a zone of them `zone:C1/C2`); `x is C` narrows it, in the branch, the filter or the rest
of the condition where the test holds (`narrowed`).
"""

from __future__ import annotations

import re
import string
from typing import Any

from dsl import ast as A
from dsl.ast import walk
from dsl.diagnostics import Reporter, did_you_mean
from dsl.fixes import insert_after_token, rename_fix

# a CSS colour as a display hint may give it: a name, or #rgb / #rrggbb
_CSS_COLOUR = re.compile(r"^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-z]+)$")

# name -> (min args, max args, result type or None = depends on arguments)
BUILTINS: dict[str, tuple[int, int, str | None]] = {
    "size": (1, 1, "int"), "count": (1, 1, "int"), "sum": (1, 1, "int"), "min": (1, 2, None), "max": (1, 2, None),
    "any": (1, 1, "bool"), "all": (1, 1, "bool"), "other": (1, 1, "seat"), "next": (1, 1, "seat"),
    "first": (2, 2, None), "top": (1, 1, None), "bottom": (1, 1, None), "abs": (1, 1, "int"),
    "bundles": (2, 2, "list:map:any|int"), "sorted": (1, 1, None), "argmax": (1, 1, "any"), "argmin": (1, 1, "any"),
    "keys": (1, 1, "list:any"), "values": (1, 1, "list:any"), "empty": (1, 1, "bool"), "marks": (1, 1, "list:any"),
    "position": (1, 1, "int"), "distinct": (1, 1, None), "list": (1, 1, None), "has_mark": (2, 2, "bool"),
    "owner": (1, 1, "seat"), "str": (1, 1, "str"), "len": (1, 1, "int"), "remaining": (1, 1, "int"),
    "completions": (3, 3, "list:list:any"),
    "any_completion": (4, 6, "bool"),
    "best_completion": (4, 6, "any"),
    "expand": (2, 3, "list:list:any"),
    "group_values": (3, 4, "map:any|list:any"),
    "top_run": (2, 4, "int"),
    "best_combination": (7, 8, "int"),
    "tally": (2, 3, "map:any|int"),
}
GEN_BUILTINS = {"any": "bool", "all": "bool", "sum": "int", "count": "int", "min": "any", "max": "any", "list": "list:any",
                "distinct": "list:any", "argmax": "any", "argmin": "any"}
SPECIAL_NAMES = {"actor": "seat", "current": "seat", "step": "step", "seats": "list:seat", "option": "options",
                 "nseats": "int", "ply": "int"}
PRECEDENCE_HINT = ("`..` binds more loosely than `++` and `+`: `[0, 0] ++ 2..10` reads `([0, 0] ++ 2)..10`; "
                   "parenthesise the range: `[0, 0] ++ (2..10)`")
PRIMITIVES = {"int", "bool", "str", "seat", "step", "any"}
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def elem(t: str) -> str:
    """The element type of a collection type (`any` when unknown)."""
    if t.startswith("list:"):
        return t[5:]
    if t.startswith("zone:"):
        return "comp:" + t[5:]
    if t.startswith("map:"):
        return t[4:].split("|")[0]
    return "any"


class Checker:
    """Walks declarations and expressions; `run()` fills the reporter with diagnostics."""

    def __init__(self, decls: list[A.Decl], rep: Reporter):
        self.rep = rep
        self.decls = decls
        self.by_kind: dict[str, dict[str, Any]] = {}
        for d in decls:
            kind = self.by_kind.setdefault(d.kind, {})
            if d.name in kind and d.kind not in ("seats", "setup"):
                first = kind[d.name].span
                rep.error(d.span, f"{d.kind} '{d.name}' is declared twice", f"the first is at {first}" if first else "")
            kind.setdefault(d.name, d)
        self.enum_values: dict[str, str] = {}
        for e in self.of("enum"):
            for v in e.values:
                if v in self.enum_values:
                    rep.error(e.span, f"enum value '{v}' is already a value of enum '{self.enum_values[v]}'",
                          "enum values share one namespace: rename one of them")
                self.enum_values[v] = e.name
        self.global_types: dict[str, str] = {}
        self._global_names()

    def of(self, kind: str) -> list[Any]:
        return list(self.by_kind.get(kind, {}).values())

    # ---- names ----
    def _global_names(self) -> None:
        g = self.global_types
        for e in self.of("enum"):
            g[e.name] = f"list:enum:{e.name}"
        for v, e in self.enum_values.items():
            g[v] = f"enum:{e}"
        for c in self.of("components"):
            g[c.name] = "list:" + self._set_type(c.value)
        for z in self.of("zone"):
            g[z.name] = zone_type(z)
        for e in self.of("entities"):
            g[e.name] = "list:" + self._set_type(e.value)
        for v in self.of("var"):
            t = self.type_of(v.type)
            g[v.name] = f"seatmap:{t}" if v.per_seat else (f"map:enum:{v.per}|{t}" if v.per else t)
        for c in self.of("const"):
            g[c.name] = "any"
        for s in self.of("step"):
            g[s.name] = "step"
        for a in self.of("automaton"):
            g.setdefault(a.name, "seat")

    def _set_type(self, value: A.Node) -> str:
        if value.op == "list_comp" and value.args[0].op == "call":
            return self._ctor_type(value.args[0].args[0])
        if value.op == "list_lit" and value.args and value.args[0].op == "call":
            return self._ctor_type(value.args[0].args[0])
        return "any"

    def _ctor_type(self, name: str) -> str:
        if name in self.by_kind.get("component", {}):
            return f"comp:{name}"
        if name in self.by_kind.get("entity", {}):
            return f"ent:{name}"
        return "any"

    def type_of(self, t: A.TypeRef) -> str:
        if len(t.members) > 1:
            known = all(m in self.by_kind.get("component", {}) for m in t.members)
            return "comp:" + "/".join(t.members) if known else "any"  # an unknown member is reported once
        if t.name == "list":
            return "list:" + (self.type_of(t.args[0]) if t.args else "any")
        if t.name == "map":
            return "map:" + "|".join(self.type_of(a) for a in t.args) if len(t.args) == 2 else "map:any|any"
        if t.name in PRIMITIVES:
            return t.name
        if t.name in self.by_kind.get("enum", {}):
            return f"enum:{t.name}"
        if t.name in self.by_kind.get("component", {}):
            return f"comp:{t.name}"
        if t.name in self.by_kind.get("entity", {}):
            return f"ent:{t.name}"
        return "any"

    def check_type_ref(self, t: A.TypeRef, span: A.Span | None) -> None:
        known = PRIMITIVES | {"list", "map"} | set(self.by_kind.get("enum", {})) | set(self.by_kind.get("component", {})) | set(
            self.by_kind.get("entity", {})
        )
        if len(t.members) > 1:
            self.check_union(t.members, span)
        elif t.name not in known:
            self.rep.error(span, f"unknown type '{t.name}'", suggest(t.name, known - {"list", "map"} | {"list<T>", "map<K, V>"}, "types"))
        for a in t.args:
            self.check_type_ref(a, span)

    def check_union(self, members: tuple[str, ...], span: A.Span | None) -> None:
        """`A | B`: every member is a component type, named once."""
        comps = self.by_kind.get("component", {})
        for m in members:
            if m not in comps:
                what = "an entity" if m in self.by_kind.get("entity", {}) else "not a component type"
                self.rep.error(span, f"'{' | '.join(members)}': '{m}' is {what}; a union joins component types",
                               did_you_mean(m, comps) or f"the component types are {', '.join(comps) or 'none'}")
        if len(set(members)) < len(members):
            self.rep.error(span, f"'{' | '.join(members)}' names a type twice", "name each component type once")

    # ---- declarations ----
    def run(self) -> None:
        steps = self.by_kind.get("step", {})
        if not steps:
            self.rep.error(None, "the ruleset declares no step: a turn structure needs at least one `step`",
                           "declare `step play then end turn` and a `move NAME() during play { ... }`")
        for d in self.decls:
            getattr(self, f"_decl_{d.kind}", lambda d: None)(d)
        self._reachability()

    def _decl_option(self, d: A.OptionDecl) -> None:
        self.check_type_ref(d.type, d.span)
        t = self.expr(d.default, {})
        want = self.type_of(d.type)
        if not compatible(want, t) or (t == "none" and not d.type.optional):
            self.rep.error(d.default.span or d.span, f"type mismatch: option '{d.name}' is {d.type} but defaults to {pretty(t)}",
                           self.fix(want, t, d.default) or (f"make it optional: `{d.type}?`" if t == "none"
                                                            else f"default to {pretty(want)}, or declare `option {d.name}: {written(t)}`"))
        if d.range is not None:
            self._option_range(d)

    def _option_range(self, d: A.OptionDecl) -> None:
        assert d.range is not None
        low, high = d.range
        if d.type.name != "int":
            self.rep.error(d.span, f"option '{d.name}' is {d.type}: only an int option can declare a range",
                           "remove `in LOW..HIGH`, or make the option an int")
        elif low > high:
            self.rep.error(d.span, f"option '{d.name}' has an empty range {low}..{high}", "write the lower bound first")
        else:
            value = _int_literal(d.default)
            if value is not None and not low <= value <= high:
                self.rep.error(d.default.span or d.span,
                               f"option '{d.name}' defaults to {value}, outside its range {low}..{high}",
                               f"give a default from {low} to {high}, or widen the range")

    def _decl_const(self, d: A.ConstDecl) -> None:
        self.expr(d.value, {})

    def _decl_component(self, d: A.ComponentDecl) -> None:
        for f in d.fields:
            self.check_type_ref(f.type, f.span)

    def _decl_components(self, d: A.ComponentsDecl) -> None:
        self.expr(d.value, {})

    _decl_entities = _decl_components

    def _decl_zone(self, d: A.ZoneDecl, scope: dict | None = None) -> None:
        members = tuple(d.holds.split("|"))
        if len(members) > 1:
            self.check_union(members, d.span)
        elif d.holds not in self.by_kind.get("component", {}):
            self.rep.error(d.span, f"zone '{d.name}' holds unknown component type '{d.holds}'",
                           suggest(d.holds, self.by_kind.get("component", {}), "component types"))
        if d.init is not None:
            t = self.expr(d.init, scope or {})
            if not compatible(f"list:comp:{'/'.join(members)}", t):
                self.rep.error(d.init.span or d.span, f"type mismatch: zone '{d.name}' holds {' or '.join(members)} components, found {pretty(t)}",
                               f"start it with {' or '.join(members)} components: a `components` set, or `[]`")
            if (d.per_seat or d.per) and not (d.init.op == "list_lit" and not d.init.args):
                self.rep.error(d.init.span or d.span, f"per-{d.per or 'seat'} zone '{d.name}' starts empty",
                               "write `= []` and deal to it in `setup`")
        self.check_per(d)

    def check_per(self, d: A.ZoneDecl | A.VarDecl) -> None:
        """`per ENUM` names an enum (`per seat` is the seats)."""
        if d.per and d.per not in self.by_kind.get("enum", {}):
            self.rep.error(d.span, f"'{d.kind} {d.name}: per {d.per}': '{d.per}' is not `seat` or an enum",
                           suggest(d.per, ["seat", *self.by_kind.get("enum", {})], "choices"))

    def _decl_entity(self, d: A.EntityDecl) -> None:
        scope = {f.name: self.type_of(f.type) for f in d.fields}
        if d.keyed_by and d.keyed_by not in scope:
            self.rep.error(d.span, f"entity '{d.name}' is keyed by '{d.keyed_by}', which is not one of its fields",
                           suggest(d.keyed_by, scope, "fields"))
        for f in d.fields:
            self.check_type_ref(f.type, f.span)
        for z in d.zones:
            self._decl_zone(z, scope)
        for v in d.vars:
            self._decl_var(v, scope)

    def _decl_var(self, d: A.VarDecl, scope: dict[str, str] | None = None) -> None:
        self.check_type_ref(d.type, d.span)
        t = self.expr(d.init, scope or {})
        want = self.type_of(d.type)
        per = "per seat " if d.per_seat else f"per {d.per} " if d.per else ""
        if not compatible(want, t) or (t == "none" and not d.type.optional and want != "any"):
            self.rep.error(d.init.span or d.span, f"type mismatch: '{d.name}' is {pretty(want)} but starts as {pretty(t)}",
                           self.fix(want, t, d.init) or f"start it with {pretty(want)}, or declare `var {d.name}: {per}{written(t)}`")
        self.check_per(d)

    def _params(self, params: tuple[A.Param, ...]) -> dict[str, str]:
        for p in params:
            self.check_type_ref(p.type, p.span)
        return {p.name: self.type_of(p.type) for p in params}

    def _decl_fn(self, d: A.FnDecl) -> None:
        scope = self._params(d.params)
        t = self.expr(d.body, scope)
        if d.returns is not None:
            want = self.type_of(d.returns)
            if not compatible(want, t) and not (d.returns.optional and t == "none"):
                self.rep.error(d.body.span or d.span, f"function '{d.name}' returns {pretty(t)} but declares {d.returns}",
                               self.fix(want, t, d.body) if d.body.op != "if_expr" else narrow_hint(want, t))

    def _decl_proc(self, d: A.ProcDecl) -> None:
        self.block(d.body, self._params(d.params))

    def _decl_setup(self, d: A.SetupDecl) -> None:
        self.block(d.body, {})

    def _decl_step(self, d: A.StepDecl) -> None:
        if d.then.op == "then_goto":
            self._step_ref(d.then.args[0], d.then.span or d.span)
            if d.then.args[1] is not None:
                self.expect(d.then.args[1], {}, "seat")
        if d.simultaneous is not None:
            self._simultaneous_seats(d)

    def _simultaneous_seats(self, d: A.StepDecl) -> None:
        """`simultaneous for SEATS`: a list of seats (docs/language.md, "Simultaneous steps")."""
        assert d.simultaneous is not None
        t = self.expr(d.simultaneous, {})
        if t not in ("list:seat", "list:any", "list:int", "any"):
            self.rep.error(d.simultaneous.span or d.span, f"type mismatch: `simultaneous for` names a list of seats, found {pretty(t)}",
                           "write `simultaneous` for every seat, or e.g. `simultaneous for [s for s in seats where score[s] > 0]`")

    def _most_seats(self) -> int:
        """The most seats a game of these rules can have, automata included."""
        high = max((d.high for d in self.of("seats")), default=2)
        return high + len(self.by_kind.get("automaton", {}))

    def _decl_spectators(self, d: A.SpectatorsDecl) -> None:
        """`spectators see` names zones (global, or members of an entity type)."""
        known = set(self.by_kind.get("zone", {})) | {z.name for e in self.of("entity") for z in e.zones}
        for name in d.zones:
            if name not in known:
                self.rep.error(d.span, f"spectators see unknown zone '{name}'", suggest(name, known, "zones"))
            elif self.by_kind.get("zone", {}).get(name) is not None and self.by_kind["zone"][name].visibility == "public":
                self.rep.warning(d.span, f"zone '{name}' is public: every spectator sees it anyway",
                                 f"remove '{name}' from `spectators see`")

    def _decl_automaton(self, d: A.AutomatonDecl) -> None:
        """An automaton needs a human seat beside it, a name of its own and steps that exist;
        `goto S by NAME` and `turn NAME` must lead it to one of its steps."""
        for kind, names in self.by_kind.items():
            if kind != "automaton" and d.name in names:
                self.rep.error(d.span, f"automaton '{d.name}' has the name of a {kind}", "give the automaton a name of its own")
        for seats in self.of("seats"):
            if seats.low < 1:
                self.rep.error(d.span, f"automaton '{d.name}' needs a human seat beside it, but `seats` allows {seats.low}",
                               "an automaton plays against people: write `seats 1` or more")
        for s in d.steps:
            self._step_ref(s, d.span)
        if any(s not in self.by_kind.get("step", {}) for s in d.steps):
            return  # a misspelt step is reported once, not again at every goto
        first = next(iter(self.by_kind.get("step", {})), None)
        for decl in self.decls:
            for node in walk(decl):
                if not isinstance(node, A.Node):
                    continue
                if node.op in ("goto_stmt", "then_goto"):
                    target, by = node.args[0], node.args[1]
                elif node.op == "turn_stmt":
                    target, by = first, node.args[0]
                else:
                    continue
                if by is not None and by.op == "name" and by.args[0] == d.name and target not in d.steps:
                    self.rep.error(node.span or decl.span, f"automaton '{d.name}' is sent to step '{target}', where it does not act",
                                   f"it acts during {', '.join(d.steps)}; add the step to `automaton {d.name} during ...`")

    def iterable(self, e: A.Node, scope: dict[str, str]) -> str:
        """Checks that `e` is a collection (list, zone or map); returns its type."""
        t = self.expr(e, scope)
        if t in ("int", "bool", "str", "seat", "step") or t.startswith(("enum:", "comp:", "ent:")):
            self.rep.error(e.span, f"type mismatch: expected a list, a zone or a map to go through, found {pretty(t)}",
                           f"go through a range: `1..{_source(e)}`" if t == "int" else "")
        return t

    def _binders(self, binders: tuple[A.Binder, ...], scope: dict[str, str]) -> dict[str, str]:
        scope = dict(scope)
        for b in binders:
            t = self.iterable(b.domain, scope)
            scope[b.name] = elem(t)
            if b.count is not None:  # `NAME in N of DOMAIN`: a list of N of the domain's elements
                self.expect(b.count, scope, "int")
                scope[b.name] = "list:" + elem(t)
        return scope

    def _decl_move(self, d: A.MoveDecl) -> None:
        for s in d.steps:
            self._step_ref(s, d.span)
        self._pick_binders(d.params, "a move's last parameter")
        scope = self._binders(d.params, {})
        for r in d.requires:
            self.expect(r.cond, scope, "bool")
            self.expr(r.reason, scope)
            scope = self.narrowed(r.cond, scope, True)
        self.block(d.body, scope)
        self._say(d)

    def _decl_trigger(self, d: A.TriggerDecl) -> None:
        self._pick_binders(d.params + (A.Binder("", A.Node("lit", (0,))),), "a move's last parameter, not a trigger's")
        scope = self._binders(d.params, {})
        self.expect(d.cond, scope, "bool")
        self.block(d.body, self.narrowed(d.cond, scope, True))
        self._say(d)

    def _say(self, d: A.MoveDecl | A.TriggerDecl) -> None:
        """A `say` template names only `{actor}` and the rule's arguments (runtime/sentences.py)."""
        if not d.say:
            return
        known = ["actor", *(b.name for b in d.params)]
        try:
            names = [n for _lit, n, _spec, _conv in string.Formatter().parse(d.say) if n is not None]
        except ValueError as exc:
            self.rep.error(d.span, f"{d.kind} '{d.name}': its say template is malformed ({exc})",
                           "write a name between braces, `{actor}`, and `{{` for a brace")
            return
        for n in names:
            if n not in known:
                self.rep.error(d.span, f"{d.kind} '{d.name}': its say template names '{{{n}}}', which is not one of its arguments",
                               did_you_mean(n, known) or f"it may name {', '.join('{' + k + '}' for k in known)}")

    def _decl_display(self, d: A.DisplayDecl) -> None:
        """A display hint names a declared enum and its values (with CSS colours), a declared
        zone, or a component type and its attributes (docs/language.md 4.17)."""
        if d.hint == "colours":
            enum = self.by_kind.get("enum", {}).get(d.target)
            if enum is None:
                self.rep.error(d.span, f"display colours: '{d.target}' is not an enum",
                               suggest(d.target, self.by_kind.get("enum", {}), "enums"))
                return
            for value, colour in d.values:
                if value not in enum.values:
                    self.rep.error(d.span, f"display colours: '{value}' is not a value of enum '{d.target}'",
                                   did_you_mean(value, enum.values) or f"its values are {', '.join(enum.values)}")
                if not _CSS_COLOUR.match(colour):
                    self.rep.error(d.span, f"display colours: '{colour}' (for {value}) is not a colour",
                                   "write a CSS colour: a name such as \"crimson\" or \"#c62828\"")
        elif d.hint == "layout":
            if d.target not in self.by_kind.get("zone", {}):
                self.rep.error(d.span, f"display zone: '{d.target}' is not a zone", suggest(d.target, self.by_kind.get("zone", {}), "zones"))
        else:
            comp = self.by_kind.get("component", {}).get(d.target)
            if comp is None:
                self.rep.error(d.span, f"display label: '{d.target}' is not a component type",
                               suggest(d.target, self.by_kind.get("component", {}), "component types"))
                return
            fields = [f.name for f in comp.fields]
            for name in d.values:
                if name not in fields and name != "name":
                    self.rep.error(d.span, f"display label: '{name}' is not an attribute of {d.target}",
                                   did_you_mean(name, fields) or f"its attributes are {', '.join(fields) or 'none'}")

    def _pick_binders(self, binders: tuple[A.Binder, ...], where: str) -> None:
        """`NAME in N of DOMAIN` is a move's choice of several at once: only its last parameter,
        so the listing can stop at the candidates (docs/language.md, "Picking several at once")."""
        for b in binders[:-1]:
            if b.count is not None:
                self.rep.error(b.span, f"'{b.name} in ... of ...' picks several at once: it may only be {where}",
                               "move the parameter last")

    def _decl_knowledge(self, d: A.KnowledgeDecl) -> None:
        """`knowledge FN`: FN is `fn FN(c: COMPONENT, m: T) -> bool` (docs/language.md, "Knowledge")."""
        fn = self.by_kind.get("fn", {}).get(d.name)
        if fn is None:
            self.rep.error(d.span, f"knowledge '{d.name}' names no function",
                           did_you_mean(d.name, self.by_kind.get("fn", {})) or f"declare `fn {d.name}(c: COMPONENT, m: any) -> bool = ...`")
            return
        comps = self.by_kind.get("component", {})
        if len(fn.params) != 2 or not set(fn.params[0].type.members) <= set(comps) or (fn.returns is not None and fn.returns.name != "bool"):
            self.rep.error(d.span, f"knowledge '{d.name}': the function must be `fn {d.name}(c: COMPONENT, m: T) -> bool`",
                           "its first parameter is the hidden component, its second one of the component's marks")
            return
        state = self._state_read(fn, set())
        if state:
            self.rep.error(d.span, f"knowledge '{d.name}' reads the game's state ({state}): it may read only the component and the mark",
                           "a mark's meaning is the same in every position; search keeps its answers per component and mark")

    def _state_read(self, fn: A.FnDecl, seen: set[str]) -> str:
        """The first zone, variable or changing special name `fn` (or a function it calls) reads, or ''."""
        seen.add(fn.name)
        stateful = set(self.by_kind.get("zone", {})) | set(self.by_kind.get("var", {})) | {"actor", "current", "ply", "step"}
        local = {p.name for p in fn.params} | {n.args[0] for n in walk(fn.body) if n.op in ("let_expr", "comp_for")}
        for n in walk(fn.body):
            if n.op == "name" and n.args[0] in stateful and n.args[0] not in local:
                return n.args[0]
            if n.op in ("call", "gen_call") and n.args[0] in self.by_kind.get("fn", {}) and n.args[0] not in seen:
                got = self._state_read(self.by_kind["fn"][n.args[0]], seen)
                if got:
                    return got
        return ""

    def _decl_policy(self, d: A.PolicyDecl) -> None:
        """Each rule names a move; `when` is a condition and `by` a number over the move's
        parameters; none reads what the seat to act cannot see (`dsl.policy_check`)."""
        from dsl.policy_check import PolicyReads, binder_sources

        moves = self.by_kind.get("move", {})
        zones = dict(self.by_kind.get("zone", {}))
        for e in self.of("entity"):
            zones.update({z.name: z for z in e.zones})
        reads = PolicyReads(zones, self.by_kind.get("fn", {}))
        for r in d.rules:
            move = moves.get(r.move)
            if move is None:
                # a warning: a policy written for a game still plays a variant that removes a move
                self.rep.warning(r.span, f"policy '{d.name}' names move '{r.move}' that does not exist: the rule is skipped",
                                 suggest(r.move, moves, "moves"))
                continue
            rep, self.rep = self.rep, Reporter(self.rep.texts)  # the move's domains are reported at the move
            scope = self._binders(move.params, {})
            self.rep = rep
            hidden = binder_sources(reads, move)
            for part, want in (("when", "bool"), ("by", "int")):
                expr = getattr(r, part)
                if expr is None:
                    continue
                self.expect(expr, scope, want)
                found = reads.first_hidden_read(expr, hidden)
                if found is not None:
                    self.rep.error(found.node.span or r.span, f"policy '{d.name}' reads hidden information: {found.why}",
                                   "a policy plays with what its seat sees: public zones, sizes, marks (`marks(k)`), "
                                   "and the cards of others it is shown")

    def _step_ref(self, name: str, span: A.Span | None) -> None:
        steps = self.by_kind.get("step", {})
        if name not in steps:
            self.rep.error(span, f"unknown step '{name}'", did_you_mean(name, steps) or f"the steps are {', '.join(steps)}",
                           fixes=self.rename(span, name, steps))

    def _reachability(self) -> None:
        steps = list(self.by_kind.get("step", {}))
        if not steps:
            return
        reached = {steps[0]}
        for d in self.decls:
            for node in walk(d):
                if isinstance(node, A.Node) and node.op in ("goto_stmt", "then_goto"):
                    reached.add(node.args[0])
        for name in steps:
            if name not in reached:
                self.rep.error(self.by_kind["step"][name].span, f"step '{name}' can never be reached",
                               "no `goto` or `then goto` leads to it, and it is not the first step")
        moves_in = {s for m in self.of("move") for s in m.steps}
        for name in steps:
            if name not in moves_in:
                self.rep.error(self.by_kind["step"][name].span, f"step '{name}' has no move: a seat there could never act",
                               f"add `move NAME(...) during {name} {{ ... }}`, or name {name} in an existing move's `during`")

    # ---- statements ----
    def block(self, stmts: tuple[A.Node, ...], scope: dict[str, str]) -> None:
        scope = dict(scope)
        for s in stmts:
            self.stmt(s, scope)

    def stmt(self, s: A.Node, scope: dict[str, str]) -> None:
        op, a = s.op, s.args
        if op == "move_stmt":
            self.fits(a[0], self.expr(a[0], scope), self.expect_zone(a[1], scope))
            if a[2] is not None and a[2].op in ("top", "at"):
                self.require_ordered(a[1], scope, "a place in it (`top`, `at N`) means something")
            if a[2] is not None and a[2].op == "at":
                self.expect(a[2].args[0], scope, "int")
        elif op == "shuffle_stmt":
            self.expect_zone(a[0], scope)
        elif op == "draw_stmt":
            self.expect(a[0], scope, "int")
            src = self.expect_zone(a[1], scope)
            self.require_ordered(a[1], scope, "`draw` takes from the top")
            self.fits(a[1], src, self.expect_zone(a[2], scope))
            if len(a) > 3 and a[3] is not None:
                self.fits(a[3], self.expect_zone(a[3], scope), src)  # the reshuffled pile refills the source
        elif op == "draw_random_stmt":
            src = self.expect_zone(a[0], scope)
            self.fits(a[0], src, self.expect_zone(a[1], scope))
            if a[2] is not None:
                self.expect(a[3], {**scope, a[2]: elem(src)}, "bool")
        elif op == "assign_stmt":
            want = self.target(a[0], scope)
            got = self.expr(a[2], scope)
            if a[1] in ("+=", "-="):
                want = "int" if want in ("any", "int", "seat") else want
            if not compatible(want, got):
                self.rep.error(a[2].span, f"type mismatch: assigning {pretty(got)} to {pretty(want)}", self.fix(want, got, a[2]))
        elif op == "flip_stmt":
            self.target(a[0], scope)
        elif op == "remove_stmt":
            self.expr(a[0], scope)
        elif op == "if_stmt":
            parts, cur = list(a), scope
            while parts:
                if len(parts) == 1:
                    self.block(parts[0], cur)
                    break
                self.expect(parts[0], cur, "bool")
                self.block(parts[1], self.narrowed(parts[0], cur, True))
                cur = self.narrowed(parts[0], cur, False)
                parts = parts[2:]
        elif op == "for_stmt":
            t = self.iterable(a[1], scope)
            self.block(a[2], {**scope, a[0]: elem(t)})
        elif op == "while_stmt":
            self.expect(a[0], scope, "bool")
            self.block(a[1], self.narrowed(a[0], scope, True))
        elif op == "let_stmt":
            scope[a[0]] = self.expr(a[1], scope)
        elif op == "call":
            self.call(s, scope, statement=True)
        elif op == "goto_stmt":
            self._step_ref(a[0], s.span)
            if a[1] is not None:
                self.expect(a[1], scope, "seat")
        elif op == "turn_stmt":
            self.expect(a[0], scope, "seat")
        elif op == "end_game_stmt":
            self.outcome(a[0], scope)
            self.expr(a[1], scope)
        elif op in ("reveal_stmt",):
            self.expect_zone(a[0], scope)
        elif op == "mark_stmt":
            self.expr(a[0], scope)
            self.expr(a[1], scope)
        elif op == "unmark_stmt":
            self.expr(a[0], scope)

    def outcome(self, oc: A.Node, scope: dict[str, str]) -> None:
        """`end game ...`: a winner is a seat, a team result a number, and scores and
        tie-breakers give one value per seat."""
        a = oc.args
        if oc.op == "outcome_team":
            self.expect(a[0], scope, "int")
        elif oc.op == "outcome_win":
            t = self.expr(a[0], scope)
            if not compatible("seat", t):
                self.rep.error(a[0].span, f"type mismatch: the winner is a seat, found {pretty(t)}",
                               "to rank seats by a value per seat, write `end game scores ...`")
            if len(a) > 1:
                self.per_seat_values(a[1], scope, "the scores")
        elif oc.op == "outcome_draw":
            if a:
                self.per_seat_values(a[0], scope, "the scores")
        else:
            what = "the ranking keys" if oc.op == "outcome_rank" else "the scores"
            self.per_seat_values(a[0], scope, what, numbers=oc.op != "outcome_rank")
            for b in a[1] if len(a) > 1 else ():
                self.per_seat_values(b, scope, "a tie-breaker")

    def per_seat_values(self, e: A.Node, scope: dict[str, str], what: str, numbers: bool = True) -> None:
        """Checks that `e` gives a value per seat: a per-seat variable, a map keyed by seat or
        a list indexed by seat (of numbers or truth values when `numbers`)."""
        t = self.expr(e, scope)
        if t.startswith("seatmap:"):
            key, val = "seat", t[8:]
        elif t.startswith("map:"):
            key, _, val = t[4:].partition("|")
        elif t.startswith("list:"):
            key, val = "seat", t[5:]
        elif t == "any":
            return
        else:
            self.rep.error(e.span, f"type mismatch: {what} must give one value per seat, found {pretty(t)}",
                           "give a per-seat variable or a map from seat, e.g. `{s: points[s] for s in seats}`")
            return
        if not compatible("seat", key or "any"):
            self.rep.error(e.span, f"type mismatch: {what} must give one value per seat, found a map keyed by {pretty(key)}",
                           "key the map by seat, e.g. `{s: points[s] for s in seats}`")
        elif numbers and not (compatible("int", val or "any") or val == "bool"):
            self.rep.error(e.span, f"type mismatch: {what} must be numbers or truth values, found {pretty(val)}",
                           "count something per seat, e.g. `{s: size(won[s]) for s in seats}`")

    def target(self, t: A.Node, scope: dict[str, str]) -> str:
        """Checks an assignment target; returns the type it holds."""
        name, path = t.args
        if name not in scope and name not in self.global_types:
            self.unknown(name, t.span, scope)
            return "any"
        if not path and name in self.global_types and self.global_types[name] not in ("any",) and name not in self.by_kind.get("var", {}):
            self.rep.error(t.span, f"'{name}' cannot be assigned: only variables and entity fields change",
                           f"a zone changes by moves: `move X to {name}`" if self.global_types[name].startswith(("zone", "keyed"))
                           else "declare a `var` for what changes")
        cur = scope.get(name) or self.global_types[name]
        if name in self.by_kind.get("const", {}) and name not in scope:
            self.rep.error(t.span, f"'{name}' is a constant and cannot be assigned", f"declare it `var {name}: TYPE = ...` to change it")
        for kind, x in path:
            if kind == "attr" and cur.startswith("comp:"):
                self.rep.error(t.span, f"components never change: '{x}' of {pretty(cur)} cannot be assigned",
                               "keep changing state in a variable or an entity")
            if kind == "attr":
                cur = self.attr_type(cur, x, t.span)
            else:
                self.expr(x, scope)
                cur = cur[8:] if cur.startswith("seatmap:") else (cur[5:] if cur.startswith("list:") else "any")
        return cur

    # ---- expressions ----
    def expect(self, e: A.Node, scope: dict[str, str], want: str) -> str:
        t = self.expr(e, scope)
        if not compatible(want, t):
            self.rep.error(e.span, f"type mismatch: expected {pretty(want)}, found {pretty(t)}", self.fix(want, t, e))
        return t

    def fix(self, want: str, got: str, e: A.Node | None = None) -> str:
        """What would turn a value of type `got` (the expression `e`) into the `want` expected:
        a literal unquoted, a count, a comparison, a field to read, a narrowing; "" when
        nothing likely."""
        x = _source(e)
        if e is not None and e.op == "lit" and isinstance(e.args[0], str):
            v = e.args[0]
            if want in ("int", "seat") and v.lstrip("-").isdigit():
                return f"write the number without quotes: `{v}`"
            if want in ("int", "seat") and v.lower() in NUMBER_WORDS:
                return f"write the number in digits, without quotes: `{NUMBER_WORDS.index(v.lower())}`"
            if want == "bool" and v in ("true", "false"):
                return f"write `{v}` without quotes"
            if want.startswith("enum:") and self.enum_values.get(v) == want[5:]:
                return f"write the value without quotes: `{v}`"
        narrow = narrow_hint(want, got, e)
        if narrow:
            return narrow
        collection = got.startswith(("list:", "zone:", "map:"))
        if want.startswith(("zone:", "zones:", "keyed:")):
            return "a zone changes by `move`, `draw` and `shuffle`, not by assignment"
        if want == "int" and got == "bool":
            return f"a truth value is not a number: write `if {x} then 1 else 0`"
        if want == "int" and collection:
            return f"count it: `size({x})`"
        if want == "int" and got.startswith(("comp:", "ent:")):
            numbers = self.number_fields(got)
            return f"read one of its numbers: {', '.join(f'`{x}.{f}`' for f in numbers)}" if numbers else ""
        if want == "int" and got.startswith("enum:"):
            return (f"{got[5:]} values have no order or number: compare them with `==`, "
                    f"or give each a number with a `map<{got[5:]}, int>`")
        if want == "bool" and got in ("int", "seat"):
            return f"compare it: `{x} > 0`, `{x} == 1`"
        if want == "bool" and collection:
            return f"test it: `not empty({x})`, or `any(...)` over it"
        if want == "str":
            return f"make it text: `str({x})`, or interpolate it in a string: `\"{{{x}}}\"`"
        if want == "seat":
            return "a seat is `actor`, `current`, `next(s)`, `other(s)`, one of `seats`, or a number"
        if want.startswith("list:") and compatible(elem(want), got):
            return f"make it a list of one: `[{x}]`"
        if want.startswith(("comp:", "ent:")) and got.startswith(("list:", "zone:")) and compatible(want, elem(got)):
            return f"take one of them: `top({x})` or `{x}[0]`"
        if want.startswith("enum:") and want[5:] in self.by_kind.get("enum", {}):
            return f"a {want[5:]} is one of {', '.join(self.by_kind['enum'][want[5:]].values)}"
        return ""

    def number_fields(self, t: str) -> list[str]:
        """The number-typed fields of a component or entity type (`comp:C`, `ent:E`)."""
        kind, name = t.split(":", 1)
        d = self.by_kind.get("component" if kind == "comp" else "entity", {}).get(name)
        return [f.name for f in d.fields if self.type_of(f.type) == "int"] if d is not None else []

    def expect_zone(self, e: A.Node, scope: dict[str, str]) -> str:
        t = self.expr(e, scope)
        if t.startswith("zones:"):
            zone = _source(e) if e.op in ("name", "attr") else "hand"
            self.rep.error(e.span, "this zone has one part per seat: index it with a seat",
                           f"`{zone}[actor]` for the seat acting, `{zone}[s]` for a seat s")
        elif t.startswith("keyed:"):
            key = t[6:].split("|", 1)[0]
            self.rep.error(e.span, f"this zone has one part per {key}: index it with a {key}, e.g. `{e.args[0] if e.op == 'name' else 'zone'}[...]`",
                           self.fix(f"enum:{key}", "any"))  # the message says how; the hint lists the values
        elif not (t.startswith("zone:") or t == "any"):
            zones = sorted(set(self.by_kind.get("zone", {})))
            self.rep.error(e.span, f"type mismatch: expected a zone, found {pretty(t)}",
                           f"the zones are {', '.join(zones)}" if zones else "declare one with `zone NAME: ...`")
        return t

    def require_ordered(self, e: A.Node, scope: dict[str, str], why: str) -> None:
        """`ordered` means the order of a zone is part of the rules: only such a zone is drawn
        from (`draw N from`) or given a place (`move ... top | at N`)."""
        base = e
        while base.op == "index":
            base = base.args[0]
        decls: list[A.ZoneDecl] = []
        if base.op == "name" and base.args[0] not in scope:
            z = self.by_kind.get("zone", {}).get(base.args[0])
            decls = [z] if z is not None else []
        elif base.op == "attr":  # an entity's member zone: every member zone of that name
            decls = [z for ent in self.of("entity") for z in ent.zones if z.name == base.args[1]]
        if decls and not any(z.ordered for z in decls):
            fixes = [insert_after_token(self.rep.texts.get(z.span.file, ""), z.span, "VISIBILITY", " ordered",
                                        f"declare zone '{z.name}' `ordered`") for z in decls if z.span]
            self.rep.tightened("ordered-zone", e.span, f"zone '{decls[0].name}' is not `ordered`, and {why}",
                               f"declare it `zone {decls[0].name}: ... ordered`: its order matters to the rules",
                               tuple(f for f in fixes if f))

    def rename(self, span: A.Span | None, name: str, candidates) -> tuple:
        """The machine-applicable form of a "did you mean" hint (`dsl.fixes.rename_fix`)."""
        return rename_fix(self.rep.texts.get(span.file, ""), span, name, candidates) if span else ()

    def unknown(self, name: str, span: A.Span | None, scope: dict[str, str]) -> str:
        cands = {n for n in set(scope) | set(self.global_types) | set(SPECIAL_NAMES) | set(self.by_kind.get("fn", {})) if n != "$it"}
        self.rep.error(span, f"unknown name '{name}'",
                       did_you_mean(name, cands) or "declare it (`var`, `const`, `let`) or take it as a parameter",
                       fixes=self.rename(span, name, cands))
        return "any"

    def expr(self, e: A.Node, scope: dict[str, str]) -> str:
        op, a = e.op, e.args
        if op == "lit":
            v = a[0]
            return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "str" if isinstance(v, str) else "none"
        if op == "fstring":
            for p in a:
                if isinstance(p, A.Node):
                    self.expr(p, scope)
            return "str"
        if op == "name":
            n = a[0]
            if n in scope:
                return scope[n]
            if n in SPECIAL_NAMES:
                return SPECIAL_NAMES[n]
            if n in self.global_types:
                return self.global_types[n]
            return self.unknown(n, e.span, scope)
        if op == "it":
            return scope.get("$it", "any")
        if op == "attr":
            obj = a[0]
            if obj.op == "name" and obj.args[0] == "option" and "option" not in scope:
                opts = self.by_kind.get("option", {})
                if a[1] not in opts:
                    self.rep.error(e.span, f"unknown option '{a[1]}'",
                                   suggest(a[1], opts, "options") if opts else f"declare it: `option {a[1]}: TYPE = DEFAULT`")
                    return "any"
                return self.type_of(opts[a[1]].type)
            return self.attr_type(self.expr(obj, scope), a[1], e.span, obj)
        if op == "index":
            t = self.expr(a[0], scope)
            it = self.expr(a[1], scope)
            if t.startswith("zones:"):
                if not compatible("seat", it):
                    self.rep.error(a[1].span, f"type mismatch: a per-seat zone is indexed by a seat, found {pretty(it)}",
                                   self.fix("seat", it, a[1]))
                return "zone:" + t[6:]
            if t.startswith("seatmap:"):
                return t[8:]
            if t.startswith("keyed:"):
                key, inner = t[6:].split("|", 1)
                if key in self.by_kind.get("enum", {}) and not compatible(f"enum:{key}", it):
                    self.rep.error(a[1].span, f"type mismatch: a per-{key} zone is indexed by a {key}, found {pretty(it)}",
                                   self.fix(f"enum:{key}", it, a[1]))
                return inner
            if t.startswith("map:"):
                return t[4:].split("|", 1)[1] if "|" in t else "any"
            return elem(t) if t.startswith(("list:", "zone:")) else "any"
        if op == "binop":
            sym, x, y = a
            tx, ty = self.expr(x, scope), self.expr(y, scope)
            if sym in ("==", "!="):
                if not comparable(tx, ty):
                    self.rep.error(e.span, f"type mismatch: comparing {pretty(tx)} with {pretty(ty)} is always {sym == '!='}".lower(),
                                   self.fix(tx, ty, y) or self.fix(ty, tx, x))
                return "bool"
            if sym in ("<", "<=", ">", ">="):
                for t, n in ((tx, x), (ty, y)):
                    if not compatible("int", t) and t != "seat":
                        self.rep.error(n.span, f"type mismatch: expected a number, found {pretty(t)}", self.fix("int", t, n))
                return "bool"
            if sym == "++":
                for t, n in ((tx, x), (ty, y)):
                    if not (t == "any" or t.startswith(("list:", "zone:"))):
                        self.rep.error(n.span, f"type mismatch: `++` joins two lists, found {pretty(t)}",
                                       "to add one item, write `xs ++ [x]`")
                return tx if tx.startswith("list:") else "list:any"
            if sym == "+" and (tx.startswith("list:") or tx.startswith("zone:")):
                return "list:" + elem(tx)
            for t, n in ((tx, x), (ty, y)):
                if not compatible("int", t):
                    self.rep.error(n.span, f"type mismatch: expected a number, found {pretty(t)}", self.fix("int", t, n))
            return "int"
        if op in ("and_", "or_"):
            self.expect(a[0], scope, "bool")
            self.expect(a[1], self.narrowed(a[0], scope, op == "and_"), "bool")
            return "bool"
        if op == "is_":
            return self.is_test(e, scope)
        if op == "not_":
            self.expect(a[0], scope, "bool")
            return "bool"
        if op in ("in_", "not_in"):
            self.expr(a[0], scope)
            self.expr(a[1], scope)
            return "bool"
        if op == "neg":
            return self.expect(a[0], scope, "int")
        if op == "range":
            for n in a:
                if n.op == "binop" and n.args[0] == "++":  # `[0, 0] ++ 2..10` is `([0, 0] ++ 2)..10`
                    self.expr(n.args[1], scope)
                    self.expr(n.args[2], scope)
                    self.rep.error(n.span, "type mismatch: expected a number, found a list", PRECEDENCE_HINT)
                    continue
                t = self.expr(n, scope)
                if not compatible("int", t):
                    loose = n.op == "binop" and n.args[0] == "+"
                    self.rep.error(n.span, f"type mismatch: expected a number, found {pretty(t)}", PRECEDENCE_HINT if loose else "")
            return "list:int"
        if op == "where":
            t = self.expr(a[0], scope)
            inner = {**scope, "$it": elem(t)}
            self.expect(a[1], inner, "bool")
            return "list:" + self.narrowed(a[1], inner, True)["$it"]
        if op == "if_expr":
            parts, cur = list(a), scope
            types = []
            while len(parts) > 1:
                self.expect(parts[0], cur, "bool")
                types.append(self.expr(parts[1], self.narrowed(parts[0], cur, True)))
                cur = self.narrowed(parts[0], cur, False)
                parts = parts[2:]
            types.append(self.expr(parts[0], cur))
            concrete = [t for t in types if t not in ("any", "none")]
            return concrete[0] if concrete and all(t == concrete[0] for t in concrete) else "any"
        if op == "let_expr":
            return self.expr(a[2], {**scope, a[0]: self.expr(a[1], scope)})
        if op == "list_lit":
            ts = [self.expr(x, scope) for x in a]
            return "list:" + (ts[0] if ts and all(t == ts[0] for t in ts) else "any")
        if op == "map_lit":
            kt = vt = "any"
            for k, v in a:
                kt = self.map_key(k, scope)
                vt = self.expr(v, scope)
            return f"map:{kt}|{vt}"
        if op in ("list_comp", "map_comp", "gen_call"):
            inner = dict(scope)
            fors = a[2] if op == "gen_call" else a[1]
            for f in fors:
                name, iterable, cond = f.args
                inner[name] = elem(self.iterable(iterable, inner))
                if cond is not None:
                    self.expect(cond, inner, "bool")
                    inner = self.narrowed(cond, inner, True)
            if op == "list_comp":
                return "list:" + self.expr(a[0], inner)
            if op == "map_comp":
                k, v = a[0]
                return f"map:{self.expr(k, inner)}|{self.expr(v, inner)}"
            fname = a[0]
            et = self.expr(a[1], inner)
            if fname not in GEN_BUILTINS:
                self.rep.error(e.span, f"'{fname}' does not take a generator", did_you_mean(fname, GEN_BUILTINS))
                return "any"
            if fname in ("any", "all"):
                if not compatible("bool", et):
                    self.rep.error(a[1].span, f"type mismatch: expected bool, found {pretty(et)}", self.fix("bool", et, a[1]))
            if fname in ("min", "max"):
                return et
            return GEN_BUILTINS[fname]
        if op == "call":
            return self.call(e, scope)
        return "any"

    def map_key(self, k: A.Node, scope: dict[str, str]) -> str:
        return self.expr(k, scope)

    def call(self, e: A.Node, scope: dict[str, str], statement: bool = False) -> str:
        name, pos, kw = e.args
        argt = [self.expr(x, scope) for x in pos] + [self.expr(v, scope) for _, v in kw]
        procs, fns = self.by_kind.get("proc", {}), self.by_kind.get("fn", {})
        ctors = {**self.by_kind.get("component", {}), **self.by_kind.get("entity", {})}
        if statement and name not in procs:
            hint = (f"'{name}' is a function; only procedures are statements" if name in fns
                    else did_you_mean(name, procs) or f"declare it: `proc {name}(...) {{ ... }}`")
            self.rep.error(e.span, f"unknown procedure '{name}'", hint)
            return "any"
        target = procs.get(name) or fns.get(name)
        if target is not None:
            params = target.params
            for k, v in kw:
                if k not in [p.name for p in params]:
                    self.rep.error(v.span or e.span, f"'{name}' has no parameter '{k}'", suggest(k, [p.name for p in params], "parameters"))
            if kw:
                by_name = dict(kw)
                ordered = list(pos) + [by_name.get(p.name) for p in params[len(pos):]]
                argt = [self.expr(x, scope) if x is not None else "any" for x in ordered]
                pos, kw = tuple(x for x in ordered if x is not None), ()
            if len(argt) != len(params):
                self.rep.error(e.span, f"'{name}' takes {len(params)} argument(s), {len(argt)} given",
                               f"it is declared `{name}({', '.join(f'{p.name}: {p.type}' for p in params)})`")
            for p, t, n in zip(params, argt, list(pos) + [v for _, v in kw]):
                want = self.type_of(p.type)
                if not compatible(want, t) and not (p.type.optional and t == "none"):
                    self.rep.error(n.span, f"type mismatch: argument '{p.name}' of '{name}' expects {pretty(want)}, found {pretty(t)}",
                                   self.fix(want, t, n))
            if isinstance(target, A.FnDecl) and target.returns is not None:
                return self.type_of(target.returns)
            return "any"
        if name in ctors:
            return self._ctor_type(name)
        if name == "other" and self._most_seats() > 2:
            self.rep.error(e.span, f"`other(s)` needs a game of exactly two seats, but this one may have {self._most_seats()}",
                           "write `next(s)` for the seat after s, or `seats where it != s` for every other seat")
        if name in BUILTINS:
            lo, hi, res = BUILTINS[name]
            if not lo <= len(argt) <= hi:
                self.rep.error(e.span, f"'{name}' takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), {len(argt)} given",
                               "docs/language.md, \"Built-in functions\", shows how it is called")
            if res is None:
                if name in ("top", "bottom"):
                    return elem(argt[0]) if argt else "any"
                if name in ("min", "max"):
                    return "int" if len(argt) == 2 else (elem(argt[0]) if argt else "any")
                if name in ("first", "sorted", "distinct", "list"):
                    t = argt[-1] if argt else "any"
                    return "list:" + elem(t)
                return "any"
            return res
        self.rep.error(e.span, f"unknown function '{name}'",
                       did_you_mean(name, set(fns) | set(BUILTINS) | set(ctors)) or f"declare it: `fn {name}(...) -> TYPE = ...`",
                       fixes=self.rename(e.span, name, set(fns) | set(BUILTINS) | set(ctors)))
        return "any"

    def is_test(self, e: A.Node, scope: dict[str, str]) -> str:
        """`x is C`: C is a component or entity type that x may be."""
        x, name = e.args
        t = self.expr(x, scope)
        types = {**self.by_kind.get("component", {}), **self.by_kind.get("entity", {})}
        if name not in types:
            self.rep.error(e.span, f"unknown type '{name}' after `is`: `is` tests a component or entity type",
                           did_you_mean(name, types) or f"the types are {', '.join(types) or 'none'}")
        elif t.startswith(("comp:", "ent:")) and name not in t.split(":", 1)[1].split("/"):
            self.rep.error(e.span, f"`is {name}` is never true: the value is {pretty(t)}",
                           f"test one of its types: {', '.join(t.split(':', 1)[1].split('/'))}")
        elif not (t == "any" or t.startswith(("comp:", "ent:"))):
            self.rep.error(e.span, f"type mismatch: `is` tests a component or an entity, found {pretty(t)}")
        return "bool"

    def narrowed(self, cond: A.Node, scope: dict[str, str], truth: bool) -> dict[str, str]:
        """The scope where `cond` is known to be `truth`: `x is C` (through `and`, `or` and
        `not`) makes the local x (or `it`) a C where it holds, and the union's other types
        where it does not."""
        op, a = cond.op, cond.args
        if op == "not_":
            return self.narrowed(a[0], scope, not truth)
        if (op == "and_" and truth) or (op == "or_" and not truth):
            return self.narrowed(a[1], self.narrowed(a[0], scope, truth), truth)
        if op != "is_":
            return scope
        x, name = a
        key = "$it" if x.op == "it" else (x.args[0] if x.op == "name" else "")
        if key not in scope:
            return scope
        cur = scope[key]
        if truth:
            kind = "ent" if name in self.by_kind.get("entity", {}) else "comp" if name in self.by_kind.get("component", {}) else ""
            never = cur.startswith(("comp:", "ent:")) and name not in cur.split(":", 1)[1].split("/")
            if never or not kind:
                return scope  # reported by `is_test`
            return {**scope, key: f"{kind}:{name}"}
        if cur.startswith("comp:"):
            rest = [m for m in cur[5:].split("/") if m != name]
            if rest:
                return {**scope, key: "comp:" + "/".join(rest)}
        return scope

    def fits(self, what: A.Node, t: str, zone: str) -> None:
        """A component moved (or drawn) to a zone is one of the types the zone holds; `t` is the
        type of what moves: a component, a list or a zone of them."""
        if t.startswith(("list:", "zone:")):
            t = elem(t)
        if not (zone.startswith("zone:") and t.startswith("comp:")) or compatible("comp:" + zone[5:], t):
            return
        held = zone[5:].split("/")
        may = [m for m in t[5:].split("/") if m in held]
        who = "it" if what.op == "it" else what.args[0] if what.op == "name" else ""
        if what.op in ("name", "index", "attr") and self.is_zone(what):
            hint = f"declare the zone `{' | '.join(held + [m for m in t[5:].split('/') if m not in held])}`, or move only the {may[0]}s" if may else ""
            self.rep.error(what.span, f"type mismatch: this zone's {' or '.join(t[5:].split('/'))} components go to a zone of "
                           f"{' or '.join(held)} only", hint)
            return
        elif may and who:
            hint = f"narrow with `if {who} is {may[0]}`"
        else:
            hint = f"move it to a zone that holds {' or '.join(t[5:].split('/'))}"
        self.rep.error(what.span, f"type mismatch: the zone holds {' or '.join(held)} components, found {pretty(t)}", hint)

    def is_zone(self, e: A.Node) -> bool:
        """Whether `e` names a zone (`deck`, `hand[s]`, `f.side[s]`), not a component."""
        base = e
        while base.op == "index":
            base = base.args[0]
        if base.op == "name":
            return base.args[0] in self.by_kind.get("zone", {})
        return base.op == "attr" and any(z.name == base.args[1] for ent in self.of("entity") for z in ent.zones)

    def union_attr(self, members: list[str], attr: str, span: A.Span | None, obj: A.Node | None) -> str:
        """An attribute of a value of several component types: one every type has (with one
        type), or a diagnostic that says which test narrows the value to a type that has it."""
        comps = self.by_kind.get("component", {})
        fields = [{f.name: self.type_of(f.type) for f in comps[m].fields} if m in comps else {} for m in members]
        if attr in ("name", "kind"):
            return "str"
        types = {f.get(attr, "") for f in fields}
        if "" not in types:
            return types.pop() if len(types) == 1 else "any"
        owners = [m for m, f in zip(members, fields) if attr in f]
        what = " or ".join(members)
        if not owners:
            self.rep.error(span, f"no component of {what} has an attribute '{attr}'",
                           did_you_mean(attr, {k for f in fields for k in f}))
            return "any"
        who = "it" if obj is not None and obj.op == "it" else obj.args[0] if obj is not None and obj.op == "name" else ""
        test = f"`if {who} is {owners[0]}`" if who and who != "it" else f"`it is {owners[0]} and ...`" if who else f"`is {owners[0]}`"
        self.rep.error(span, f"'{attr}' is an attribute of {' and '.join(owners)} only, and "
                       f"{f'{who!r}' if who else 'this value'} may be {pretty('comp:' + '/'.join(members))}",
                       f"narrow with {test}")
        return fields[members.index(owners[0])][attr]

    def attr_type(self, t: str, attr: str, span: A.Span | None, obj: A.Node | None = None) -> str:
        if t.startswith("comp:") and "/" in t:
            return self.union_attr(t[5:].split("/"), attr, span, obj)
        if t.startswith("comp:"):
            d = self.by_kind.get("component", {}).get(t[5:])
            if d is not None:
                fields = {f.name: self.type_of(f.type) for f in d.fields}
                if attr in fields:
                    return fields[attr]
                if attr in ("name", "kind"):
                    return "str"
                self.rep.error(span, f"component '{d.name}' has no attribute '{attr}'", suggest(attr, [*fields, "name", "kind"], "attributes"))
                return "any"
        if t.startswith("ent:"):
            d = self.by_kind.get("entity", {}).get(t[4:])
            if d is not None:
                members = {f.name: self.type_of(f.type) for f in d.fields}
                members.update({z.name: zone_type(z) for z in d.zones})
                members.update({v.name: self.type_of(v.type) for v in d.vars})
                if attr in members:
                    return members[attr]
                if attr in ("name", "index"):
                    return "str" if attr == "name" else "int"
                self.rep.error(span, f"entity '{d.name}' has no member '{attr}'", suggest(attr, [*members, "name", "index"], "members"))
                return "any"
        return "any"


def zone_type(z: A.ZoneDecl) -> str:
    """The checker's type of a zone name: `zone:C`, `zones:C` (per seat) or `keyed:E|zone:C`
    (per enum E); C is `C1/C2` for a zone of several component types."""
    holds = z.holds.replace("|", "/")
    if z.per:
        return f"keyed:{z.per}|zone:{holds}"
    return f"zones:{holds}" if z.per_seat else f"zone:{holds}"


def narrow_hint(want: str, got: str, who: A.Node | None = None) -> str:
    """A fix for a value of several component types where fewer are wanted: filter the list
    (`where it is C`) or test the value (`if x is C`)."""
    lists = want.startswith("list:") and got.startswith("list:")
    w, g = (want[5:], got[5:]) if lists else (want, got)
    if not (w.startswith("comp:") and g.startswith("comp:")):
        return ""
    keep = [m for m in g[5:].split("/") if m in w[5:].split("/")]
    if not keep:
        return ""
    if lists:
        return f"keep only the {keep[0]}s: `... where it is {keep[0]}`"
    name = who.args[0] if who is not None and who.op == "name" else "it" if who is not None and who.op == "it" else "..."
    return f"narrow with `if {name} is {keep[0]}`"


def compatible(want: str, got: str) -> bool:
    """Whether a value of type `got` may stand where `want` is expected."""
    if "any" in (want, got) or want == got or got == "none":
        return True
    if want == "seat" and got == "int" or want == "int" and got == "seat":
        return True
    if want.startswith("list:") and (got.startswith("list:") or got.startswith("zone:")):
        return compatible(elem(want), elem(got))
    if want.startswith("map:") and got.startswith("map:"):
        return True
    if want.startswith("comp:") and got.startswith("comp:"):  # a union accepts each of its types
        return set(got[5:].split("/")) <= set(want[5:].split("/"))
    return False


def comparable(a: str, b: str) -> bool:
    if "any" in (a, b) or "none" in (a, b) or a == b:
        return True
    if {a, b} <= {"int", "seat"}:
        return True
    if a.startswith("enum:") and b.startswith("enum:"):
        return False
    return compatible(a, b) or compatible(b, a)


def pretty(t: str) -> str:
    if t.startswith("enum:"):
        return f"a {t[5:]}"
    if t.startswith("comp:") or t.startswith("ent:"):
        return f"a {' or '.join(t.split(':', 1)[1].split('/'))}"
    if t.startswith("list:"):
        return f"a list of {pretty(t[5:])}"
    if t.startswith("zone:"):
        return f"a zone of {' or '.join(t[5:].split('/'))}"
    if t.startswith("seatmap:"):
        return f"{pretty(t[8:])} per seat"
    if t.startswith("keyed:"):
        k, v = t[6:].split("|", 1)
        return f"{pretty(v)} per {k}"
    if t.startswith("map:") and "|" in t:
        k, v = t[4:].split("|", 1)
        return f"a map from {pretty(k).removeprefix('a ')} to {pretty(v).removeprefix('a ')}"
    return {"int": "a number", "bool": "a truth value", "str": "text", "seat": "a seat", "none": "none"}.get(t, t)


def suggest(name: str, candidates: Any, what: str) -> str:
    """"did you mean ..." for a close name, else the names there are (the first twelve)."""
    names = sorted(set(candidates))
    close = did_you_mean(name, names)
    if close or not names:
        return close
    return f"the {what} are {', '.join(names[:12])}{', ...' if len(names) > 12 else ''}"


def written(t: str) -> str:
    """A checker type as rule text writes it: `int`, `colour`, `list<card>`, `troop | tactic`."""
    if t.startswith("list:"):
        return f"list<{written(t[5:])}>"
    if t.startswith("map:") and "|" in t:
        k, v = t[4:].split("|", 1)
        return f"map<{written(k)}, {written(v)}>"
    if t.startswith(("enum:", "comp:", "ent:")):
        return " | ".join(t.split(":", 1)[1].split("/"))
    return "int" if t == "none" else t


def _source(e: A.Node | None) -> str:
    """Short rule text for a simple expression (a name, `a.b`, `it`), else `...`: used in hints."""
    if e is None:
        return "..."
    if e.op == "name":
        return e.args[0]
    if e.op == "it":
        return "it"
    if e.op == "attr" and e.args[0].op in ("name", "it"):
        return f"{_source(e.args[0])}.{e.args[1]}"
    if e.op == "index" and e.args[0].op == "name" and e.args[1].op in ("name", "lit", "attr"):
        return f"{e.args[0].args[0]}[{_source(e.args[1])}]"
    if e.op == "lit":
        return f'"{e.args[0]}"' if isinstance(e.args[0], str) else str(e.args[0]).lower()
    return "..."


def _int_literal(node: A.Node) -> int | None:
    """The value of an integer literal (`3`, `-3`), None for anything else."""
    if node.op == "lit" and isinstance(node.args[0], int) and not isinstance(node.args[0], bool):
        return node.args[0]
    if node.op == "neg" and node.args and isinstance(node.args[0], A.Node):
        inner = _int_literal(node.args[0])
        return None if inner is None else -inner
    return None

