"""Parse rule text into the syntax tree of `dsl.ast`, with Lark (grammar: grammars/ludex.lark).

Syntax errors become `Diagnostic`s built from Lark's `UnexpectedInput`, which already knows
the line, the column and the tokens that would have been accepted.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import Any

import attrs
from lark import (
    Lark,
    Token,
    Transformer,
    Tree,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    v_args,
)
from lark.exceptions import VisitError

from dsl import ast as A
from dsl.diagnostics import Diagnostic, RulesetError, snippet
from dsl.shipped import shipped


@functools.cache
def _lark() -> Lark:
    text = (shipped("grammars") / "ludex.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, start=["start", "expr"], maybe_placeholders=True)


def _unquote(tok: str) -> str:
    return bytes(tok[1:-1], "utf-8").decode("unicode_escape") if "\\" in tok else tok[1:-1]


@v_args(meta=True, inline=True)
class _Build(Transformer):
    """Parse tree to AST; every node gets the span of its first token."""

    def __init__(self, path: str, line: int = 0, column: int = 0, source: str = ""):
        super().__init__()
        self.path = path
        self.source = source  # the whole file's text, for diagnostics inside string interpolations
        # offsets for expressions parsed out of a string's `{...}` (single-line strings)
        self.line_off = line
        self.col_off = column

    def _span(self, meta: Any) -> A.Span | None:
        if getattr(meta, "empty", True):
            return None
        return A.Span(self.path, meta.line + self.line_off, meta.column + self.col_off)

    def _tspan(self, tok: Token) -> A.Span:
        return A.Span(self.path, (tok.line or 0) + self.line_off, (tok.column or 0) + self.col_off)

    def _n(self, op: str, meta: Any, *args: Any) -> A.Node:
        return A.Node(op, tuple(args), self._span(meta))

    # ---- file ----
    def start(self, meta, *items):
        header = items[0] if items and isinstance(items[0], tuple) and items[0][0] in ("game", "variant") else None
        rest = items[1:] if header else items
        decls = tuple(x for x in rest if isinstance(x, A.Decl))
        edits = tuple(x for x in rest if isinstance(x, A.VariantEdit))
        languages = [x for x in rest if isinstance(x, tuple) and x and x[0] == "language"]
        return header, decls, edits, languages

    def language_decl(self, meta, version):
        return ("language", int(version), self._span(meta))

    def game_header(self, meta, name, title=None):
        return ("game", str(name), _unquote(title) if title else str(name), None)

    def variant_header(self, meta, name, base, title=None):
        return ("variant", str(name), _unquote(title) if title else str(name), str(base))

    # ---- declarations ----
    def seats_decl(self, meta, low, high=None):
        return A.SeatsDecl("seats", "", self._span(meta), int(low), int(high if high is not None else low))

    def automaton_decl(self, meta, name, *rest):
        doc = rest[-1] if rest and rest[-1].type == "STRING" else None
        steps = tuple(str(x) for x in rest if x.type == "NAME")
        return A.AutomatonDecl(str(name), _doc(doc), self._tspan(name), steps)

    def spectators_decl(self, meta, *rest):
        doc = rest[-1] if rest and rest[-1].type == "STRING" else None
        zones = tuple(str(x) for x in rest if x.type == "NAME")
        return A.SpectatorsDecl("spectators", _doc(doc), self._span(meta), zones)

    def option_decl(self, meta, name, typ, bounds, default, doc=None):
        return A.OptionDecl(str(name), _doc(doc), self._tspan(name), typ, default, bounds)

    def option_range(self, meta, low, high):
        return (low, high)

    def int_bound(self, meta, tok):
        return int(tok)

    def neg_int_bound(self, meta, tok):
        return -int(tok)

    def enum_decl(self, meta, name, *rest):
        doc = rest[-1] if rest and rest[-1] is not None and rest[-1].type == "STRING" else None
        values = tuple(str(v) for v in rest if v is not None and v.type == "NAME")
        return A.EnumDecl(str(name), _doc(doc), self._tspan(name), values)

    def const_decl(self, meta, name, value, doc=None):
        return A.ConstDecl(str(name), _doc(doc), self._tspan(name), value)

    def field(self, meta, name, typ):
        return A.Param(str(name), typ, self._tspan(name))

    param = field

    def component_decl(self, meta, name, *rest):
        fields, doc = _fields_and_doc(rest)
        return A.ComponentDecl(str(name), _doc(doc), self._tspan(name), fields)

    def components_decl(self, meta, name, value, doc=None):
        return A.ComponentsDecl(str(name), _doc(doc), self._tspan(name), value)

    def per_seat(self, meta, key):
        return ("per", str(key))

    def visibility(self, meta, tok):
        return ("visibility", str(tok))

    def ordered(self, meta):
        return "ordered"

    def zone_decl(self, meta, name, *rest):
        per = next((x[1] for x in rest if isinstance(x, tuple) and x[0] == "per"), "")
        holds = next(x for x in rest if isinstance(x, A.TypeRef)).name
        vis = next(x[1] for x in rest if isinstance(x, tuple) and x[0] == "visibility")
        init = next((x for x in rest if isinstance(x, A.Node)), None)
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        return A.ZoneDecl(str(name), _doc(doc), self._tspan(name), holds, vis, per == "seat", "ordered" in rest, init,
                          "" if per == "seat" else per)

    def entity_key(self, meta, name):
        return ("key", str(name))

    def entity_decl(self, meta, name, *rest):
        fields = tuple(x for x in rest if isinstance(x, A.Param))
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        zones = tuple(x for x in rest if isinstance(x, A.ZoneDecl))
        vars_ = tuple(x for x in rest if isinstance(x, A.VarDecl))
        key = next((x[1] for x in rest if isinstance(x, tuple) and x[0] == "key"), "")
        return A.EntityDecl(str(name), _doc(doc), self._tspan(name), fields, zones, vars_, key)

    def entities_decl(self, meta, name, value, doc=None):
        return A.EntitiesDecl(str(name), _doc(doc), self._tspan(name), value)

    def var_decl(self, meta, name, *rest):
        per = next((x[1] for x in rest if isinstance(x, tuple) and x[0] == "per"), "")
        typ = next(x for x in rest if isinstance(x, A.TypeRef))
        init = next(x for x in rest if isinstance(x, A.Node))
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        return A.VarDecl(str(name), _doc(doc), self._tspan(name), typ, per == "seat", init, "" if per == "seat" else per)

    def fn_decl(self, meta, name, *rest):
        params = tuple(x for x in rest if isinstance(x, A.Param))
        returns = next((x for x in rest if isinstance(x, A.TypeRef)), None)
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        return A.FnDecl(str(name), _doc(doc), self._tspan(name), params, returns, rest[-1])

    def proc_decl(self, meta, name, *rest):
        params = tuple(x for x in rest if isinstance(x, A.Param))
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        return A.ProcDecl(str(name), _doc(doc), self._tspan(name), params, rest[-1])

    def setup_decl(self, meta, *rest):
        doc = rest[0] if len(rest) > 1 else None
        return A.SetupDecl("setup", _doc(doc), self._span(meta), rest[-1])

    def step_decl(self, meta, name, *rest):
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        then = next((x for x in rest if isinstance(x, A.Node) and x.op != "step_sim"), None)
        sim = next((x.args[0] for x in rest if isinstance(x, A.Node) and x.op == "step_sim"), None)
        step = A.StepDecl(str(name), _doc(doc), self._tspan(name), then or A.Node("then_stay", ()))
        return step if sim is None else attrs.evolve(step, simultaneous=sim)

    def step_sim(self, meta, seats=None):
        # without `for`, every seat: the expression `seats`, at the keyword's position
        return self._n("step_sim", meta, seats if seats is not None else self._n("name", meta, "seats"))

    def step_then(self, meta, target):
        return target

    def then_end_turn(self, meta):
        return self._n("then_end_turn", meta)

    def then_stay(self, meta):
        return self._n("then_stay", meta)

    def then_goto(self, meta, name, by=None):
        return self._n("then_goto", meta, str(name), by)

    def binder(self, meta, name, domain):
        return A.Binder(str(name), domain, self._tspan(name))

    def pick_binder(self, meta, name, count, domain):
        return A.Binder(str(name), domain, self._tspan(name), count)

    def forced(self, meta):
        return "forced"

    def otherwise(self, meta):
        return "otherwise"

    def require(self, meta, cond, reason):
        return A.Require(cond, _message(reason, self), self._span(meta))

    def move_decl(self, meta, name, *rest):
        params = tuple(x for x in rest if isinstance(x, A.Binder))
        steps = tuple(str(x) for x in rest if isinstance(x, Token) and x.type == "NAME")
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        requires = tuple(x for x in rest if isinstance(x, A.Require))
        return A.MoveDecl(
            str(name), _doc(doc), self._tspan(name), params, steps, "forced" in rest, "otherwise" in rest, requires, rest[-1],
            say=_said(rest),
        )

    def trigger_decl(self, meta, name, *rest):
        params = tuple(x for x in rest if isinstance(x, A.Binder))
        nodes = [x for x in rest if isinstance(x, A.Node)]
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        return A.TriggerDecl(str(name), _doc(doc), self._tspan(name), params, nodes[0], rest[-1], say=_said(rest))

    def say_clause(self, meta, template):
        return _Say(_unquote(template))

    # ---- display hints ----
    def display_colours(self, meta, enum, *rest):
        pairs = tuple(x for x in rest if isinstance(x, tuple))
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        return A.DisplayDecl(f"colours {enum}", _doc(doc), self._tspan(enum), "colours", str(enum), pairs)

    def colour_pair(self, meta, value, colour):
        return (str(value), _unquote(colour))

    def display_layout(self, meta, zone, layout, doc=None):
        return A.DisplayDecl(f"layout {zone}", _doc(doc), self._tspan(zone), "layout", str(zone), (str(layout),))

    def display_label(self, meta, kind, *rest):
        names = tuple(str(x) for x in rest if isinstance(x, Token) and x.type == "NAME")
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        return A.DisplayDecl(f"label {kind}", _doc(doc), self._tspan(kind), "label", str(kind), names)

    def knowledge_decl(self, meta, name, doc=None):
        return A.KnowledgeDecl(str(name), _doc(doc), self._tspan(name))

    def policy_decl(self, meta, name, *rest):
        doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
        rules = tuple(x for x in rest if isinstance(x, A.PolicyRule))
        return A.PolicyDecl(str(name), _doc(doc), self._tspan(name), rules)

    def policy_rule(self, meta, name, when, by, doc=None):
        return A.PolicyRule(str(name), when, by, _doc(doc), self._tspan(name))

    def policy_when(self, meta, cond):
        return cond

    def policy_by(self, meta, key):
        return key

    # ---- variant edits ----
    def set_option(self, meta, name, value):
        return A.VariantEdit("set", ("option", str(name)), None, value, self._tspan(name))

    def remove_decl(self, meta, kind, name):
        return A.VariantEdit("remove", (str(kind), str(name)), None, None, self._tspan(name))

    def replace_decl(self, meta, decl):
        return A.VariantEdit("replace", decl.key, decl, None, decl.span)

    def add_decl(self, meta, decl):
        return A.VariantEdit("add", decl.key, decl, None, decl.span)

    def decl_kind(self, meta, tok):
        return tok

    # ---- types ----
    def simple_type(self, meta, name, q=None):
        return A.TypeRef(str(name), (), q is not None)

    def union_type(self, meta, *names):
        return A.TypeRef("|".join(str(n) for n in names))

    def holds(self, meta, *names):
        return A.TypeRef("|".join(str(n) for n in names))

    def list_type(self, meta, inner):
        return A.TypeRef("list", (inner,))

    def map_type(self, meta, k, v):
        return A.TypeRef("map", (k, v))

    # ---- statements ----
    def block(self, meta, *stmts):
        # a lone `;` is an empty statement (`?stmt: ... | ";"` leaves a childless `stmt` node): nothing to run
        return tuple(s for s in stmts if isinstance(s, A.Node) and not (s.op == "stmt" and not s.args))

    def move_stmt(self, meta, what, dest, place=None):
        return self._n("move_stmt", meta, what, dest, place)

    def place_top(self, meta):
        return self._n("top", meta)

    def place_bottom(self, meta):
        return self._n("bottom", meta)

    def place_at(self, meta, pos):
        return self._n("at", meta, pos)

    def draw_random_stmt(self, meta, src, dest, name=None, cond=None):
        return self._n("draw_random_stmt", meta, src, dest, str(name) if name else None, cond)

    def assign_stmt(self, meta, target, op, value):
        return self._n("assign_stmt", meta, target, str(op), value)

    def target(self, meta, name, *path):
        steps = tuple(("attr", str(p)) if isinstance(p, Token) else ("index", p) for p in path)
        return self._n("target", meta, str(name), steps)

    def for_stmt(self, meta, name, iterable, body):
        return self._n("for_stmt", meta, str(name), iterable, body)

    def let_stmt(self, meta, name, value):
        return self._n("let_stmt", meta, str(name), value)

    def call_stmt(self, meta, name, *args):
        return self._n("call", meta, str(name), tuple(a for a in args if a is not None), ())

    def goto_stmt(self, meta, name, by=None):
        return self._n("goto_stmt", meta, str(name), by)

    def end_game_stmt(self, meta, outcome, reason=None):
        return self._n("end_game_stmt", meta, outcome, _message(reason, self) if reason else A.Node("lit", ("",)))

    # An outcome's node keeps its old shape when the newer clauses are absent, so rule text
    # written before them compiles to the same IR (and content hash) as before.
    def outcome_win(self, meta, seat, carried=None):
        return self._n("outcome_win", meta, seat, *((carried,) if carried is not None else ()))

    def outcome_draw(self, meta, carried=None):
        return self._n("outcome_draw", meta, *((carried,) if carried is not None else ()))

    def outcome_scores(self, meta, keys, *rest):
        return self._ranked("outcome_scores", meta, keys, rest)

    def outcome_rank(self, meta, keys, *rest):
        return self._ranked("outcome_rank", meta, keys, rest)

    def outcome_lowest(self, meta, keys, *rest):
        return self._ranked("outcome_lowest", meta, keys, rest)

    def _ranked(self, op, meta, keys, rest):
        breaks = tuple(x.args[0] for x in rest if isinstance(x, A.Node) and x.op == "tiebreak")
        ties = next((str(x) for x in rest if isinstance(x, str)), None)
        return self._n(op, meta, keys, breaks, ties or "win") if breaks or ties else self._n(op, meta, keys)

    def carried_scores(self, meta, keys):
        return keys

    def tie_rule(self, meta, means):
        return str(means)

    def if_stmt(self, meta, *parts):
        return self._n("if_stmt", meta, *parts)

    def __default__(self, data, children, meta):
        return A.Node(str(data), tuple(children), self._span(meta))

    # ---- expressions ----
    def int_lit(self, meta, tok):
        return self._n("lit", meta, int(tok))

    def str_lit(self, meta, tok):
        return _message(tok, self)

    def true_lit(self, meta):
        return self._n("lit", meta, True)

    def false_lit(self, meta):
        return self._n("lit", meta, False)

    def none_lit(self, meta):
        return self._n("lit", meta, None)

    def name(self, meta, tok):
        return A.Node("name", (str(tok),), self._tspan(tok))

    def it_attr(self, meta, tok):
        return self._n("attr", meta, self._n("it", meta), str(tok))

    def attr(self, meta, obj, tok):
        return self._n("attr", meta, obj, str(tok))

    def compare(self, meta, a, op, b):
        return self._n("binop", meta, str(op), a, b)

    def is_(self, meta, value, name):
        return self._n("is_", meta, value, str(name))

    def binop(self, meta, a, op, b):
        return self._n("binop", meta, str(op), a, b)

    def call(self, meta, name, *args):
        pos = tuple(a for a in args if isinstance(a, A.Node) and a.op != "kwarg")
        kw = tuple((a.args[0], a.args[1]) for a in args if isinstance(a, A.Node) and a.op == "kwarg")
        return A.Node("call", (str(name), pos, kw), self._tspan(name))

    def kwarg(self, meta, name, value):
        return self._n("kwarg", meta, str(name), value)

    def gen_call(self, meta, name, elem, *fors):
        return A.Node("gen_call", (str(name), elem, fors), self._tspan(name))

    def comp_for(self, meta, name, iterable, cond=None):
        return self._n("comp_for", meta, str(name), iterable, cond)

    def list_lit(self, meta, *items):
        return self._n("list_lit", meta, *(i for i in items if i is not None))

    def list_comp(self, meta, elem, *fors):
        return self._n("list_comp", meta, elem, fors)

    def map_lit(self, meta, *pairs):
        return self._n("map_lit", meta, *(p for p in pairs if p is not None))

    def map_comp(self, meta, pair, *fors):
        return self._n("map_comp", meta, pair, fors)

    def pair(self, meta, k, v):
        return (k, v)

    def if_expr(self, meta, *parts):
        return self._n("if_expr", meta, *parts)

    def let_expr(self, meta, name, value, body):
        return self._n("let_expr", meta, str(name), value, body)


class _Say(str):
    """A `say_clause`'s template, told apart from the doc string beside it."""


def _said(rest: tuple) -> str | None:
    return next((str(x) for x in rest if isinstance(x, _Say)), None)


def _doc(tok: Any) -> str:
    return _unquote(tok) if tok is not None else ""


def _fields_and_doc(rest: tuple) -> tuple[tuple[A.Param, ...], Any]:
    fields = tuple(x for x in rest if isinstance(x, A.Param))
    doc = next((x for x in rest if isinstance(x, Token) and x.type == "STRING"), None)
    return fields, doc


def _message(tok: Token, builder: _Build) -> A.Node:
    """A string literal; `{expr}` parts are parsed as expressions (interpolation)."""
    text = _unquote(tok)
    span = builder._tspan(tok)
    if "{" not in text:
        return A.Node("lit", (text,), span)
    parts: list[Any] = []
    i = 0
    while i < len(text):
        j = text.find("{", i)
        if j < 0:
            parts.append(text[i:])
            break
        k = text.find("}", j)
        if k < 0:
            parts.append(text[i:])
            break
        if j > i:
            parts.append(text[i:j])
        # the char at unquoted index i sits at column span.column + 1 + i
        line_off, col_off = span.line - 1, span.column + j + 1
        try:
            tree = _lark().parse(text[j + 1 : k], start="expr")
        except UnexpectedInput as exc:
            d = _syntax_diagnostic(exc, text[j + 1 : k], builder.path)
            line, column = d.line + line_off, d.column + col_off
            raise RulesetError([attrs.evolve(d, line=line, column=column, snippet=snippet(builder.source, line, column),
                                             message=d.message + " (in a string's {...})")]) from None
        _check_nesting(tree, builder.source, builder.path, line_off, col_off)
        parts.append(_Build(builder.path, line_off, col_off, builder.source).transform(tree))
        i = k + 1
    return A.Node("fstring", tuple(parts), span)


MAX_SYNTAX_ERRORS = 10
_DECL_START = re.compile(
    r"^(game|variant|seats|automaton|spectators|option|enum|const|component|components|zone|entity|entities|var|fn|proc|setup|step|move"
    r"|trigger|display|set|replace|add|remove)\b"
)


def _blank_declaration(text: str, line: int) -> str | None:
    """`text` with the top-level declaration around `line` blanked out (line numbers kept),
    so parsing can resume at the next declaration and report its errors too; None when no
    declaration follows."""
    lines = text.split("\n")
    i = min(line, len(lines)) - 1
    start = i
    while start > 0 and not _DECL_START.match(lines[start]):
        start -= 1
    end = i + 1
    while end < len(lines) and not _DECL_START.match(lines[end]):
        end += 1
    if end >= len(lines):
        return None
    for k in range(start, end):
        lines[k] = ""
    return "\n".join(lines)


def parse_text(text: str, path: str = "<text>") -> A.SourceFile:
    """Parse one ruleset or variant file.

    Raises `RulesetError` with a diagnostic at the offending line and column when the text
    does not follow `grammars/ludex.lark`.
    """
    errors: list[Diagnostic] = []
    current = text
    while True:
        try:
            tree = _lark().parse(current, start="start")
            break
        except UnexpectedInput as exc:
            errors.append(_syntax_diagnostic(exc, text, path))
            nxt = _blank_declaration(current, exc.line or 1)
            if nxt is None or len(errors) >= MAX_SYNTAX_ERRORS:
                break
            current = nxt
    if errors:
        unclosed = _unclosed_brace(text, path)
        raise RulesetError([unclosed] if unclosed else errors)
    _check_nesting(tree, text, path)
    header, decls, edits, languages = _transform(_Build(path, source=text), tree)
    if header is None:
        header = ("game", "", "", None)
    kind, name, title, base = header
    language, language_span = (languages[0][1], languages[0][2]) if languages else (0, None)
    if len(languages) > 1:
        raise RulesetError([Diagnostic("error", "the file states its language version twice", path,
                                       languages[1][2].line, languages[1][2].column,
                                       snippet(text, languages[1][2].line, languages[1][2].column),
                                       f"keep one `language N`; the first is at {languages[0][2]}")])
    return A.SourceFile(path, kind, name, title, base, decls, edits, language, language_span)


_BRACE_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[{}]')


def _unclosed_brace(text: str, path: str) -> Diagnostic | None:
    """One diagnostic at the `{` that is never closed, or None when braces balance.

    A missing `}` makes the parser report errors at every later declaration; the real
    mistake is where the block was opened. Braces inside strings and comments do not count.
    When a `}` is indented less than the innermost open `{`'s line but like an outer one,
    the inner block is taken as the unclosed one (rule text is indented by block).
    """
    lines = text.split("\n")

    def indent(line: int) -> int:
        src = lines[line - 1]
        return len(src) - len(src.lstrip())

    stack: list[tuple[int, int]] = []
    unclosed: list[tuple[int, int]] = []
    line_starts = [0]
    for src in lines[:-1]:
        line_starts.append(line_starts[-1] + len(src) + 1)

    for m in _BRACE_TOKENS.finditer(text):
        tok = m.group()
        if tok not in "{}":
            continue
        line = bisect.bisect_right(line_starts, m.start())
        column = m.start() - line_starts[line - 1] + 1
        if tok == "{":
            stack.append((line, column))
            continue
        if not stack:
            return None  # an extra `}`: the parser's own message says where
        here = indent(line)
        if here < indent(stack[-1][0]) and any(indent(o[0]) == here for o in stack):
            while indent(stack[-1][0]) != here:
                unclosed.append(stack.pop())
        stack.pop()
    unclosed += stack
    if not unclosed:
        return None
    line, column = min(unclosed)
    return Diagnostic("error", "syntax error: this '{' is never closed", path, line, column,
                      snippet(text, line, column), "add the missing '}' where this block ends")


def parse_expr(text: str, path: str = "<expr>") -> A.Node:
    """Parse a single expression (used for `--option K=V` values and string interpolation)."""
    try:
        tree = _lark().parse(text, start="expr")
    except UnexpectedInput as exc:
        raise RulesetError([_syntax_diagnostic(exc, text, path)]) from None
    _check_nesting(tree, text, path)
    return _transform(_Build(path, source=text), tree)


def _transform(builder: _Build, tree: Tree) -> Any:
    """`builder.transform(tree)`, letting a `RulesetError` raised inside (a string
    interpolation's syntax error) through as itself rather than wrapped in Lark's VisitError."""
    try:
        return builder.transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulesetError):
            raise exc.orig_exc from None
        raise


MAX_NESTING = 100  # levels of the parse tree; the bundled rulesets need 16


def _check_nesting(tree: Tree, text: str, path: str, line_off: int = 0, col_off: int = 0) -> None:
    """Raise `RulesetError` at the first construct nested deeper than `MAX_NESTING` levels.

    Later passes (building the AST, checking, compiling) walk the tree recursively; a hostile
    text (50,000 unary minus signs) would exhaust Python's stack there. The walk here is
    iterative, and the limit is far beyond what rules need.
    """
    stack: list[tuple[Tree | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Tree):
            continue
        if depth > MAX_NESTING:
            meta = node.meta
            line = (getattr(meta, "line", None) or 1) + line_off
            column = (getattr(meta, "column", None) or 1) + col_off
            raise RulesetError([Diagnostic(
                "error", f"syntax error: nested more than {MAX_NESTING} levels deep", path, line, column,
                snippet(text, line, column), "split the expression, e.g. into a `const` or a `fn`",
            )])
        stack.extend((child, depth + 1) for child in node.children)


_NICE = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('",
    "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "COLON": "':'", "EQUAL": "'='", "$END": "end of file",
    "TIE_MEANS": "'win' or 'draw'",
}


def _nice_terminal(name: str) -> str:
    """A terminal as a reader knows it: `'else'`, `'{'`, `a name`."""
    if name in _NICE:
        return _NICE[name]
    try:
        pattern = _lark().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


_KEYWORD_HINTS = {  # what a lone expected keyword means, in the words of the declaration that wants it
    "'during'": "a move names the steps where it is played, `move NAME(...) during STEP { ... }`",
    "'else'": 'a requirement gives the reason it refuses, `require COND else "reason"`',
}
_CHAR_HINTS = {
    '"': 'close the string with `"` on the same line (a string does not span lines; write `\\n` for a line break)',
    "'": 'strings are written in double quotes: `"text"`',
    "&": "write `and`", "|": "write `or` (`|` only joins component types: `troop | tactic`)", "!": "write `not` (or `!=`)",
    "$": "interpolate with braces inside a string: `\"{x}\"`",
}


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    line, column = exc.line, exc.column
    if isinstance(exc, UnexpectedToken):
        got = "end of file" if exc.token.type == "$END" else f"'{exc.token}'"
        expected = sorted({_nice_terminal(t) for t in exc.expected})
        msg = f"unexpected {got}"
        hint = "expected " + ", ".join(expected[:8]) + (" ..." if len(expected) > 8 else "")
        if len(expected) == 1 and expected[0] in _KEYWORD_HINTS:
            hint += f": {_KEYWORD_HINTS[expected[0]]}"
    elif isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        ch = text[pos] if pos < len(text) else ""
        msg = f"unexpected character {ch!r}" if ch else "unexpected character"
        hint = _CHAR_HINTS.get(ch, "names are letters, digits and `_`; a comment starts with `#`")
    elif isinstance(exc, UnexpectedEOF):
        msg, hint = "unexpected end of file", "a block or declaration is not closed"
    else:
        msg, hint = str(exc), ""
    if line is None or line < 1:
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    return Diagnostic("error", f"syntax error: {msg}", path, line, column, snippet(text, line, column), hint)
