"""Parsing a file that is being edited, one top-level declaration at a time, so an edit re-parses
only the declarations it touched (the language server's diagnostics, `ludex/lsp`).

The file is cut where a line begins with a declaration keyword at its first column (the cut the
parser's error recovery already uses, `dsl.parser._DECL_START`); each piece is parsed by the one
grammar. What is kept between calls is the last parse's pieces of each file, by their text (and
the line each sat at): a piece whose text is unchanged is re-used, moved by the lines inserted or
deleted above it, and everything else is dropped, so a long editing session holds one version of
each file however many edits it makes (issue 28: the memory of `ludex lsp` stays flat). When a
piece does not parse on its own (a cut in the wrong place, or a real error), the whole file is
parsed as `parse_text` would, so the result and its diagnostics are always the whole-file
parse's. The anchor: rust-analyzer and tree-sitter re-parse only what an edit touched.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any

import attrs

from dsl import ast as A
from dsl.diagnostics import RulesetError
from dsl.parser import _DECL_START, parse_text

_LANGUAGE = re.compile(r"^language\b")


def _pieces(text: str) -> list[tuple[int, str]]:
    """(0-based first line, text) of each top-level piece of `text`."""
    lines = text.split("\n")
    cuts = [i for i, ln in enumerate(lines) if i == 0 or _DECL_START.match(ln) or _LANGUAGE.match(ln)]
    cuts.append(len(lines))
    return [(a, "\n".join(lines[a:b])) for a, b in zip(cuts, cuts[1:])]


_FILES = 32
"""Files whose pieces are kept (the most recently parsed): an editor's open files and their bases."""
_kept: OrderedDict[str, dict[str, tuple[int, A.SourceFile]]] = OrderedDict()
"""file -> {piece text: (0-based first line, its syntax tree)}, the file's last successful parse."""


def _piece(path: str, first: int, text: str, old: dict[str, tuple[int, A.SourceFile]]) -> A.SourceFile:
    """The tree of one piece at line `first`: the last parse's, moved, or parsed now (raises
    `RulesetError` when it does not parse on its own)."""
    was = old.get(text)
    if was is None:
        tree = parse_text(text, path)
        return _shift(tree, first) if first else tree
    return _shift(was[1], first - was[0]) if first != was[0] else was[1]


_LEAVES = frozenset({str, int, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...] | None] = {}
"""Each class met in a syntax tree: its attrs fields' names, or None for a class that is not attrs."""


def _shift(obj: Any, lines: int) -> Any:
    """`obj` (a syntax tree) with every span `lines` further down.

    Every piece below a line inserted near the top of a file is moved (the largest bundled
    ruleset, 828 lines: 278 pieces, 26,000 nodes), so this builds each node directly
    (`object.__new__`, its fields set as attrs' own `__init__` sets them; the AST classes have no
    validators or converters) rather than through `attrs.evolve`: 33 ms instead of 85 for that
    file (a loaded machine)."""
    cls = type(obj)
    if cls in _LEAVES:
        return obj
    if cls is A.Span:
        return A.Span(obj.file, obj.line + lines, obj.column)
    if cls is A.Node:  # most of a tree: its op is a string
        node = object.__new__(A.Node)
        object.__setattr__(node, "op", obj.op)
        object.__setattr__(node, "args", _shift(obj.args, lines))
        object.__setattr__(node, "span", _shift(obj.span, lines))
        return node
    if isinstance(obj, tuple):
        return tuple([_shift(x, lines) for x in obj]) if obj else obj
    names = _FIELDS.get(cls, ())
    if names == ():
        names = _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else None
    if names is None:
        return obj
    new = object.__new__(cls)
    for name in names:
        object.__setattr__(new, name, _shift(getattr(obj, name), lines))
    return new


def parse_incremental(text: str, path: str = "<text>") -> A.SourceFile:
    """What `parse_text(text, path)` returns, re-using the pieces parsed before.

    Raises `RulesetError` exactly as `parse_text` does.
    """
    old = _kept.get(path, {})
    pieces = _pieces(text)
    try:
        parts = [_piece(path, first, piece, old) for first, piece in pieces]
    except RulesetError:
        return parse_text(text, path)  # the pieces kept stay the last good parse's
    _kept[path] = {piece: (first, tree) for (first, piece), tree in zip(pieces, parts)}
    _kept.move_to_end(path)
    while len(_kept) > _FILES:
        _kept.popitem(last=False)
    stated = [i for i, p in enumerate(parts) if p.name or p.header == "variant"]
    # one header, before any declaration, and one `language`: anything else is the whole parse's to report
    if len(stated) > 1 or (stated and any(p.decls or p.edits for p in parts[:stated[0]])) \
            or sum(bool(p.language) for p in parts) > 1:
        return parse_text(text, path)
    head = parts[stated[0]] if stated else parts[0]
    language = next((p for p in parts if p.language), None)
    return A.SourceFile(path, head.header, head.name, head.title, head.extends,
                        tuple(d for p in parts for d in p.decls), tuple(e for p in parts for e in p.edits),
                        language.language if language else 0, language.language_span if language else None)
