"""The syntax tree of the rule language, with source spans.

Declarations are typed frozen attrs classes; expressions and statements share one node
shape, `Node(op, args, span)`, whose `op` is the grammar rule's alias in
`grammars/ludex.lark` (for example `compare`, `call`, `move_stmt`). After checking and
variant merging, the same frozen classes form the compiled IR (`dsl.ir.Ruleset`).
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Span:
    """A source position: file, 1-based line and column of the first character."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@attrs.frozen
class Node:
    """An expression or statement: `op` names the construct, `args` are nodes or literals."""

    op: str
    args: tuple[Any, ...]
    span: Span | None = attrs.field(default=None, eq=False)


@attrs.frozen
class TypeRef:
    """A type as written: `int`, `seat?`, `list<card>`, `map<colour, int>`, or a union of
    component types `card | chip`, whose `name` is the members joined by `|` (`card|chip`)."""

    name: str
    args: tuple[TypeRef, ...] = ()
    optional: bool = False

    @property
    def members(self) -> tuple[str, ...]:
        """The component types of a union (one name for any other type)."""
        return tuple(self.name.split("|"))

    def __str__(self) -> str:
        inner = f"<{', '.join(map(str, self.args))}>" if self.args else ""
        return f"{' | '.join(self.members)}{inner}{'?' if self.optional else ''}"


@attrs.frozen
class Param:
    name: str
    type: TypeRef
    span: Span | None = attrs.field(default=None, eq=False)


@attrs.frozen
class Binder:
    """`NAME in DOMAIN`: a move or trigger parameter drawn from a domain expression."""

    name: str
    domain: Node
    span: Span | None = attrs.field(default=None, eq=False)
    # `NAME in COUNT of DOMAIN`: COUNT different elements of the domain at once, bound as a list
    count: Node | None = attrs.field(default=None, metadata={"hash_if_default": False})


@attrs.frozen
class Require:
    """`require COND else "reason"`: the reason is shown when the move is refused."""

    cond: Node
    reason: Node
    span: Span | None = attrs.field(default=None, eq=False)


# ---- declarations: every one has a kind, a name, a doc line and a span ----


@attrs.frozen
class Decl:
    name: str
    doc: str
    span: Span | None = attrs.field(eq=False)

    kind: str = attrs.field(default="decl", init=False)

    @property
    def key(self) -> tuple[str, str]:
        """What a variant names to replace or remove this declaration."""
        return (self.kind, self.name)


@attrs.frozen
class SeatsDecl(Decl):
    low: int = 2
    high: int = 2
    kind: str = attrs.field(default="seats", init=False)


@attrs.frozen
class SpectatorsDecl(Decl):
    """`spectators see ZONE, ...`: spectators see the contents of those zones (every instance,
    whatever their visibility); other than that a spectator sees only public zones."""

    zones: tuple[str, ...] = ()
    kind: str = attrs.field(default="spectators", init=False)


@attrs.frozen
class AutomatonDecl(Decl):
    """A seat the rules drive (an automaton), numbered after the human seats in declaration
    order; its name is that seat. `steps` are the steps where it acts: there the engine plays
    its first legal move (docs/language.md, "Automaton seats")."""

    steps: tuple[str, ...] = ()
    kind: str = attrs.field(default="automaton", init=False)


@attrs.frozen
class OptionDecl(Decl):
    """`option NAME: TYPE [in LOW..HIGH] = default "doc"`; `range` is (LOW, HIGH), both
    included, for an `int` option that declares one."""

    type: TypeRef = TypeRef("int")
    default: Node = Node("none_lit", ())
    range: tuple[int, int] | None = attrs.field(default=None, metadata={"hash_if_default": False})
    kind: str = attrs.field(default="option", init=False)


@attrs.frozen
class EnumDecl(Decl):
    values: tuple[str, ...] = ()
    kind: str = attrs.field(default="enum", init=False)


@attrs.frozen
class ConstDecl(Decl):
    value: Node = Node("none_lit", ())
    kind: str = attrs.field(default="const", init=False)


@attrs.frozen
class ComponentDecl(Decl):
    fields: tuple[Param, ...] = ()
    kind: str = attrs.field(default="component", init=False)


@attrs.frozen
class ComponentsDecl(Decl):
    value: Node = Node("list_lit", ())
    kind: str = attrs.field(default="components", init=False)


@attrs.frozen
class ZoneDecl(Decl):
    """`zone NAME: [per seat|per ENUM] TYPES VISIBILITY [ordered] [= init]`; `holds` names the
    component type, or several joined by `|` (`card|chip`) for a zone of several types."""

    holds: str = ""
    visibility: str = "public"
    per_seat: bool = False
    ordered: bool = False
    init: Node | None = None
    per: str = attrs.field(default="", metadata={"hash_if_default": False})  # `per ENUM`: one zone per value (`discard[red]`)
    kind: str = attrs.field(default="zone", init=False)


@attrs.frozen
class VarDecl(Decl):
    type: TypeRef = TypeRef("int")
    per_seat: bool = False
    init: Node = Node("none_lit", ())
    per: str = attrs.field(default="", metadata={"hash_if_default": False})  # `per ENUM`: a map, one value per enum value
    kind: str = attrs.field(default="var", init=False)


@attrs.frozen
class EntityDecl(Decl):
    fields: tuple[Param, ...] = ()
    zones: tuple[ZoneDecl, ...] = ()
    vars: tuple[VarDecl, ...] = ()
    # `key FIELD`: entities are named by that field's value (`lane[white]`), not by position (`lane3`)
    keyed_by: str = attrs.field(default="", metadata={"hash_if_default": False})
    kind: str = attrs.field(default="entity", init=False)


@attrs.frozen
class EntitiesDecl(Decl):
    value: Node = Node("list_lit", ())
    kind: str = attrs.field(default="entities", init=False)


@attrs.frozen
class FnDecl(Decl):
    params: tuple[Param, ...] = ()
    returns: TypeRef | None = None
    body: Node = Node("none_lit", ())
    kind: str = attrs.field(default="fn", init=False)


@attrs.frozen
class ProcDecl(Decl):
    params: tuple[Param, ...] = ()
    body: tuple[Node, ...] = ()
    kind: str = attrs.field(default="proc", init=False)


@attrs.frozen
class SetupDecl(Decl):
    body: tuple[Node, ...] = ()
    kind: str = attrs.field(default="setup", init=False)


@attrs.frozen
class StepDecl(Decl):
    """A state of the turn machine; `then` is what follows a move that names no transition."""

    then: Node = Node("then_stay", ())
    kind: str = attrs.field(default="step", init=False)
    # `simultaneous [for SEATS]`: the seats (a list, in the order their moves apply) that choose at
    # once; None for an ordinary step (docs/language.md, "Simultaneous steps")
    simultaneous: Node | None = attrs.field(default=None, metadata={"hash_if_default": False})


@attrs.frozen
class MoveDecl(Decl):
    params: tuple[Binder, ...] = ()
    steps: tuple[str, ...] = ()
    forced: bool = False
    otherwise: bool = False
    requires: tuple[Require, ...] = ()
    body: tuple[Node, ...] = ()
    kind: str = attrs.field(default="move", init=False)
    # `say "..."`: the move as a sentence (runtime/sentences.py); rules without one keep their hash
    say: str | None = attrs.field(default=None, kw_only=True, metadata={"hash_if_default": False})


@attrs.frozen
class TriggerDecl(Decl):
    params: tuple[Binder, ...] = ()
    cond: Node = Node("true_lit", ())
    body: tuple[Node, ...] = ()
    kind: str = attrs.field(default="trigger", init=False)
    say: str | None = attrs.field(default=None, kw_only=True, metadata={"hash_if_default": False})


@attrs.frozen
class DisplayDecl(Decl):
    """A display hint (grammar rule `display_decl`), named `HINT TARGET` (`colours colour`,
    `layout hand`, `label card`): `hint` is colours, layout or label; `target` the enum, zone or
    component type; `values` the (value, CSS colour) pairs, the layout (row, fan, stack or grid),
    or the attribute names that label a component, in order."""

    hint: str = "colours"
    target: str = ""
    values: tuple[Any, ...] = ()
    kind: str = attrs.field(default="display", init=False)


@attrs.frozen
class KnowledgeDecl(Decl):
    """`knowledge FN "doc"`: the function `fn FN(c: COMPONENT, m: T) -> bool` states what a mark m
    on a component c tells every seat; a world a seat imagines puts in a marked place only a
    component for which it holds for each of the place's marks (docs/language.md, "Knowledge").
    `name` is the function's name."""

    kind: str = attrs.field(default="knowledge", init=False)


@attrs.frozen
class PolicyRule:
    """One line of a policy: the legal moves called `move` whose `when` holds (all when none),
    the first of them in listing order, or the one with the largest `by` (the first of equals).
    `when_fn`/`by_fn` name the functions the IR compiles the two expressions into (the move's
    parameters are their parameters)."""

    move: str
    when: Node | None = None
    by: Node | None = None
    doc: str = ""
    span: Span | None = attrs.field(default=None, eq=False)
    when_fn: str = ""
    by_fn: str = ""


@attrs.frozen
class PolicyDecl(Decl):
    """`policy NAME "doc" { MOVE [when COND] [by KEY] "doc" ... }`: a way to play written as rule
    text, a priority list read top down (docs/language.md, "Policies")."""

    rules: tuple[PolicyRule, ...] = ()
    kind: str = attrs.field(default="policy", init=False)


# ---- variant edits ----


@attrs.frozen
class VariantEdit:
    """One line of a variant: `set`, `replace`, `add` or `remove`."""

    action: str
    target: tuple[str, str]
    decl: Decl | None = None
    value: Node | None = None
    span: Span | None = attrs.field(default=None, eq=False)


@attrs.frozen
class SourceFile:
    """A parsed file: a game (`header == "game"`) or a variant (`header == "variant"`)."""

    path: str
    header: str
    name: str
    title: str
    extends: str | None
    decls: tuple[Decl, ...]
    edits: tuple[VariantEdit, ...]
    language: int = 0  # the `language N` the file states; 0 when it states none
    language_span: Span | None = None


def walk(obj: Any):
    """Every Node inside a node, a declaration or a tuple of them (depth first, pre-order)."""
    if isinstance(obj, Node):
        yield obj
        for x in obj.args:
            yield from walk(x)
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            yield from walk(x)
    elif hasattr(obj, "__attrs_attrs__") and not isinstance(obj, Span):
        for f in obj.__attrs_attrs__:
            yield from walk(getattr(obj, f.name))
