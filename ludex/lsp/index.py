"""What the language server knows about a ruleset's files: symbols, references, hovers, completions.

A *ruleset set* is a game file and its variants (`NAME/game.ludex`, `NAME/variants/*.ludex`): names
resolve across them, so definition, references and rename work from a variant into its base and
back. Each file is read with `dsl.tokens.layout` (every token with its grammar rule) and
`dsl.parser.parse_text` (declarations with doc strings); nothing here parses text by hand.

A name token is looked up in a *namespace* given by where it stands: `during play` and `goto play`
name a step, `move play(...)` a move, `play(...)` a function, procedure or constructor, `option.x`
an option, a type position a component, entity or enum, anything else a value (zone, var, const,
enum, enum value, component or entity set). So a move and a step may share a name, as they often do.
Limits: a local (`let`, a binder, a parameter) that shadows a global name counts as the global.

Positions are 1-based (line, column) in characters, as in diagnostics; `ludex/lsp/server.py`
converts them to the protocol's.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import attrs
from lark.exceptions import LarkError

from dsl import ast as A
from dsl.checker import BUILTINS, SPECIAL_NAMES, Checker, pretty
from dsl.diagnostics import Reporter, RulesetError
from dsl.incremental import parse_incremental
from dsl.parser import _lark
from dsl.tokens import Layout, Tok, layout

DECL_KINDS = {
    "zone_decl": "zone", "enum_decl": "enum", "component_decl": "component", "components_decl": "components",
    "entity_decl": "entity", "entities_decl": "entities", "fn_decl": "fn", "proc_decl": "proc", "move_decl": "move",
    "step_decl": "step", "trigger_decl": "trigger", "option_decl": "option", "const_decl": "const", "var_decl": "var",
    "automaton_decl": "automaton",
}
NAMESPACES = {
    "step": {"step"}, "move": {"move"}, "trigger": {"trigger"}, "option": {"option"},
    "fn": {"call"}, "proc": {"call"}, "component": {"call", "type"}, "entity": {"call", "type"},
    "enum": {"type", "value"}, "zone": {"value"}, "var": {"value"}, "const": {"value"}, "enum value": {"value"},
    "components": {"value"}, "entities": {"value"}, "automaton": {"value"},
}
_TYPE_RULES = {"simple_type", "union_type", "holds", "is_", "list_type", "map_type"}
_CALL_RULES = {"call", "gen_call", "call_stmt"}
_STEP_RULES = {"goto_stmt", "then_goto"}
_LOCAL_RULES = {"binder", "param", "let_stmt", "let_expr", "for_stmt", "comp_for", "kwarg", "field"}


@attrs.define
class Symbol:
    """A declared name: `kind` (zone, enum, enum value, move, ...), where its name is written, the
    extent of its declaration, its doc string (a rule's citation) and a one-line `detail`."""

    name: str
    kind: str
    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    doc: str = ""
    detail: str = ""
    container: str = ""  # the entity an entity's member zone or var belongs to


@attrs.define
class FileIndex:
    """One file's layout, declarations and symbols; `error` is set when the file does not parse."""

    path: str
    text: str
    lay: Layout | None
    decls: tuple = ()
    symbols: list[Symbol] = attrs.Factory(list)
    error: bool = False


def namespace_of(toks: list[Tok], i: int, lay: Layout) -> str | None:
    """The namespace a NAME token at `toks[i]` is looked up in, or None for a local or attribute."""
    t = toks[i]
    prev = toks[i - 1] if i else None
    if t.parent in DECL_KINDS and t.nth == 0:
        return next(iter(NAMESPACES[DECL_KINDS[t.parent]]))
    if t.parent == "enum_decl":
        return "value"
    if t.parent in ("move_decl", "automaton_decl") or t.parent in _STEP_RULES:
        return "step"
    if t.parent == "set_option":
        return "option"
    if t.parent == "remove_decl":
        kind = prev.value if prev else ""
        return next(iter(NAMESPACES.get(kind, {"value"})))
    if prev is not None and prev.value == ".":
        before = toks[i - 2] if i >= 2 else None
        return "option" if before is not None and before.value == "option" and before.kind != "STRING" else None
    if t.parent == "target" and t.nth > 0:
        return None
    if t.parent in _LOCAL_RULES and t.nth == 0:
        return None
    if t.parent in _CALL_RULES and t.nth == 0:
        return "call"
    if t.parent in _TYPE_RULES:
        return "type"
    return "value"


def index_file(path: str, text: str) -> FileIndex:
    """Parse one file into its symbols; a file that does not parse gives an index with `error` set."""
    try:
        lay = layout(text)
        parsed = parse_incremental(text, path)
    except (LarkError, RulesetError):
        return FileIndex(path, text, None, error=True)
    by_pos: dict[tuple[int, int], object] = {}
    for d in list(parsed.decls) + [e.decl for e in parsed.edits if e.decl is not None]:
        if d.span:
            by_pos[(d.span.line, d.span.column)] = d
        for member in getattr(d, "zones", ()) + getattr(d, "vars", ()):
            if member.span:
                by_pos[(member.span.line, member.span.column)] = (member, d.name)
    out = FileIndex(path, text, lay, parsed.decls + tuple(e.decl for e in parsed.edits if e.decl is not None))
    for t in lay.tokens:
        if t.kind != "NAME":
            continue
        ext = lay.extents.get(t.node)
        if t.parent in DECL_KINDS and t.nth == 0:
            found = by_pos.get((t.line, t.column))
            decl, container = found if isinstance(found, tuple) else (found, "")
            kind = DECL_KINDS[t.parent]
            out.symbols.append(Symbol(t.value, kind, path, t.line, t.column, ext.end_line if ext else t.line,
                                      ext.end_column if ext else t.column, getattr(decl, "doc", "") or "",
                                      _detail(kind, decl, container), container))
        elif t.parent == "enum_decl":
            owner = next((s.name for s in reversed(out.symbols) if s.kind == "enum"), "")
            out.symbols.append(Symbol(t.value, "enum value", path, t.line, t.column, t.line, t.column + len(t.value),
                                      "", f"a value of enum {owner}", owner))
    return out


def _detail(kind: str, decl, container: str) -> str:
    """A one-line description of a declaration for hovers and outlines."""
    if decl is None:
        return kind
    if isinstance(decl, A.ZoneDecl):
        per = " per seat" if decl.per_seat else (f" per {decl.per}" if decl.per else "")
        order = ", ordered" if decl.ordered else ""
        where = f" of entity {container}" if container else ""
        return f"zone {decl.name}{where}:{per} of {' or '.join(decl.holds.split('|'))} components, {decl.visibility}{order}"
    if isinstance(decl, (A.ComponentDecl, A.EntityDecl)):
        return f"{kind} {decl.name}({', '.join(f'{f.name}: {_type(f.type)}' for f in decl.fields)})"
    if isinstance(decl, (A.FnDecl, A.ProcDecl)):
        ret = f" -> {_type(decl.returns)}" if isinstance(decl, A.FnDecl) and decl.returns else ""
        return f"{kind} {decl.name}({', '.join(f'{p.name}: {_type(p.type)}' for p in decl.params)}){ret}"
    if isinstance(decl, A.MoveDecl):
        return f"move {decl.name}({', '.join(b.name for b in decl.params)}) during {', '.join(decl.steps)}"
    if isinstance(decl, A.EnumDecl):
        return f"enum {decl.name} {{ {', '.join(decl.values)} }}"
    if isinstance(decl, A.OptionDecl):
        return f"option {decl.name}: {_type(decl.type)}"
    if isinstance(decl, A.VarDecl):
        per = "per seat " if decl.per_seat else (f"per {decl.per} " if decl.per else "")
        return f"var {decl.name}: {per}{_type(decl.type)}"
    return f"{kind} {decl.name}"


def _type(t) -> str:
    if t is None:
        return "?"
    if t.args:
        return f"{t.name}<{', '.join(_type(a) for a in t.args)}>"
    return t.name + ("?" if getattr(t, "optional", False) else "")


@attrs.define
class RulesetIndex:
    """The files of one ruleset set, base first, and what is declared across them."""

    files: list[FileIndex]

    @property
    def symbols(self) -> list[Symbol]:
        return [s for f in self.files for s in f.symbols]

    def file(self, path: str) -> FileIndex | None:
        return next((f for f in self.files if f.path == path), None)

    def token_at(self, path: str, line: int, column: int) -> tuple[Tok, str | None] | None:
        """The token under (line, column), with the namespace a NAME is looked up in."""
        f = self.file(path)
        if f is None or f.lay is None:
            return None
        toks = f.lay.tokens
        for i, t in enumerate(toks):
            if t.line == line and t.column <= column <= t.column + len(t.value):
                return t, (namespace_of(toks, i, f.lay) if t.kind == "NAME" else None)
        return None

    def definitions(self, name: str, namespace: str | None) -> list[Symbol]:
        """Every declaration of `name` that a name in `namespace` can mean (base and variants)."""
        if namespace is None:
            return []
        return [s for s in self.symbols if s.name == name and namespace in NAMESPACES.get(s.kind, set())]

    def references(self, name: str, namespace: str | None) -> list[tuple[str, int, int]]:
        """Every place (file, line, column) the name is written in that namespace, declarations included."""
        if not self.definitions(name, namespace):
            return []
        spaces = set().union(*(NAMESPACES[s.kind] for s in self.definitions(name, namespace)))
        out = []
        for f in self.files:
            if f.lay is None:
                continue
            toks = f.lay.tokens
            for i, t in enumerate(toks):
                if t.kind == "NAME" and t.value == name and namespace_of(toks, i, f.lay) in spaces:
                    out.append((f.path, t.line, t.column))
        return out

    def global_types(self) -> dict[str, str]:
        """The checker's type of every global name (variants' declarations replacing the base's)."""
        merged: dict = {}
        for f in self.files:
            for d in f.decls:
                merged[d.key] = d
        try:
            return Checker(list(merged.values()), Reporter({})).global_types
        except Exception:  # a half-written file: hovers go on without types
            return {}

    def hover(self, path: str, line: int, column: int) -> str | None:
        """Markdown for what is under the cursor: a declaration's kind, type, detail and citation,
        or a built-in's documentation."""
        found = self.token_at(path, line, column)
        if found is None or found[0].kind != "NAME":
            return None
        tok, ns = found
        defs = self.definitions(tok.value, ns)
        if defs:
            # the declaration under the cursor, else the one that holds (a variant's replaces the base's)
            s = next((d for d in defs if (d.file, d.line, d.column) == (path, tok.line, tok.column)), defs[-1])
            out = [f"```ludex\n{s.detail}\n```"]
            t = self.global_types().get(s.name)
            if t and s.kind in ("var", "const", "enum value", "components", "entities", "zone", "enum"):
                out.append(f"type: {pretty(t)}")
            if s.doc:
                out.append(f"*{s.doc}*")
            where = sorted({Path(d.file).name for d in defs})
            if len(defs) > 1:
                out.append("declared in " + ", ".join(where))
            return "\n\n".join(out)
        if ns == "call" and tok.value in BUILTINS:
            return builtin_doc(tok.value)
        if tok.value in SPECIAL_NAMES:
            return f"`{tok.value}`: {pretty(SPECIAL_NAMES[tok.value])} (a special name, docs/language.md 6.9)"
        return None

    def completions(self, path: str, line: int, column: int) -> list[tuple[str, str, str]]:
        """(label, kind, detail) for the cursor: attributes after `.`, else names in scope,
        keywords and built-ins."""
        f = self.file(path)
        text = f.text if f else ""
        src = text.split("\n")[line - 1] if f and 0 < line <= len(text.split("\n")) else ""
        before = src[: column - 1].rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
        if before.endswith("."):
            if before[:-1].endswith("option"):
                return [(s.name, "option", s.detail) for s in self.symbols if s.kind == "option"]
            return sorted(set(self._attributes()))
        out = [(s.name, s.kind, s.detail) for s in self.symbols]
        out += [(k, "keyword", "") for k in keywords()]
        out += [(b, "builtin", _signature(b)) for b in BUILTINS]
        out += [(n, "special", pretty(t)) for n, t in SPECIAL_NAMES.items()]
        seen: set[str] = set()
        return [x for x in out if not (x[0] in seen or seen.add(x[0]))]  # type: ignore[func-returns-value]

    def _attributes(self) -> list[tuple[str, str, str]]:
        out = []
        for f in self.files:
            for d in f.decls:
                if isinstance(d, (A.ComponentDecl, A.EntityDecl)):
                    out += [(p.name, "field", f"{d.name}.{p.name}: {_type(p.type)}") for p in d.fields]
                if isinstance(d, A.EntityDecl):
                    out += [(z.name, "zone", f"{d.name}.{z.name}") for z in d.zones]
                    out += [(v.name, "var", f"{d.name}.{v.name}") for v in d.vars]
        return out


def ruleset_paths(path: Path) -> list[Path]:
    """The files of the ruleset set `path` belongs to, game file first: `game.ludex` and its
    `variants/*.ludex` when it is laid out as a ruleset folder, else `path` alone."""
    path = path.resolve()
    if path.parent.name == "variants" and (path.parent.parent / "game.ludex").is_file():
        root = path.parent.parent
    elif path.name == "game.ludex":
        root = path.parent
    else:
        return [path]
    vdir = root / "variants"
    return [root / "game.ludex"] + (sorted(vdir.glob("*.ludex")) if vdir.is_dir() else [])


@functools.cache
def keywords() -> list[str]:
    """The language's keywords: the grammar's literal words."""
    words = set()
    for term in _lark().terminals:
        pattern = term.pattern
        if pattern.type == "str" and re.fullmatch(r"[a-z_]+", pattern.value):
            words.add(pattern.value)
        elif pattern.type == "re":
            # the alternatives of a keyword terminal (`(win|draw)(?![a-zA-Z0-9_])`), not its character classes
            words |= set(re.findall(r"[a-z]{2,}", pattern.value)) if term.name in ("VISIBILITY", "TIE_MEANS") else set()
    return sorted(words)


def _signature(name: str) -> str:
    low, high, result = BUILTINS[name]
    arity = f"{low}" if low == high else f"{low} to {high}"
    return f"built-in {name}: {arity} argument{'s' if high != 1 else ''}" + (f", gives {pretty(result)}" if result else "")


@functools.cache
def _builtin_table() -> dict[str, str]:
    """Built-ins' documentation from docs/language.md section 7, when the docs are beside the code."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "language.md"
    if not doc.is_file():
        return {}
    text = doc.read_text(encoding="utf-8")
    section = text.split("## 7. Built-in functions", 1)[-1].split("\n## 8.", 1)[0]
    out: dict[str, str] = {}
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`"):
            continue
        for call in re.findall(r"`([a-z_]+)\(", cells[0]):
            out.setdefault(call, f"{cells[0]}: {cells[1]}")
    return out


def builtin_doc(name: str) -> str:
    """Markdown documentation of a built-in function (docs/language.md section 7, else its arity)."""
    return f"{_builtin_table().get(name, '')}\n\n{_signature(name)}".strip()
