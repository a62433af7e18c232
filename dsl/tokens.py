"""Rule text as tokens, each with the grammar rule it belongs to, comments included.

Parsed by a second Lark parser of `grammars/ludex.lark` that keeps every token (`keep_all_tokens`)
and hands comments to a lexer callback (Lark's documented way to keep them). Used by the
formatter (`dsl/formatter.py`) and the language server (`ludex/lsp`), which need what the
syntax tree of `dsl.parser` leaves out: punctuation, keywords and comments, with positions.
"""

from __future__ import annotations

import functools
import threading

import attrs
from lark import Lark, Token, Tree

from dsl.shipped import shipped

# Tree nodes that begin a declaration or statement (besides every `*_decl` and `*_stmt`).
_STATEMENT_EDITS = {"game_header", "variant_header", "set_option", "remove_decl", "replace_decl", "add_decl",
                    "display_colours", "display_layout", "display_label", "policy_rule"}

_lock = threading.Lock()
_comments: list[Token] = []


@functools.cache
def _layout_lark() -> Lark:
    """A second parser of the same grammar that keeps every token and hands comments over."""
    text = (shipped("grammars") / "ludex.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, keep_all_tokens=True,
                lexer_callbacks={"COMMENT": _comments.append})


@attrs.define
class Tok:
    """One token: its text, type (NAME, STRING, COMMENT, INT or the literal's own type), the rule
    it belongs to (`parent`, "" for comments) and 1-based position. `node` numbers the tree node
    the token belongs to (-1 for comments) and `nth` counts the NAME tokens before it in that
    node (so the name a declaration declares has `nth == 0`)."""

    value: str
    kind: str
    parent: str
    line: int
    column: int
    node: int = -1
    nth: int = 0


@attrs.frozen
class Extent:
    """Where a tree node starts and ends (1-based; the end column excluded), its rule and the
    node that holds it (-1 at the top)."""

    rule: str
    line: int
    column: int
    end_line: int
    end_column: int
    holder: int


@attrs.frozen
class Layout:
    """`tokens` in order, the (line, column) where each statement begins, each node's extent."""

    tokens: list[Tok]
    starts: set[tuple[int, int]]
    extents: dict[int, Extent]


def is_statement(rule: str) -> bool:
    return rule.endswith("_decl") or rule.endswith("_stmt") or rule in _STATEMENT_EDITS


def layout(text: str) -> Layout:
    """The tokens, statement starts and node extents of `text`.

    Raises Lark's `UnexpectedInput` when `text` does not parse.
    """
    with _lock:
        _comments.clear()
        tree = _layout_lark().parse(text, start="start")
        comments = list(_comments)
    toks: list[Tok] = []
    starts: set[tuple[int, int]] = set()
    extents: dict[int, Extent] = {}

    def visit(t: Tree, holder: int) -> None:
        me = len(extents)
        m = t.meta
        extents[me] = Extent(str(t.data), getattr(m, "line", 0), getattr(m, "column", 0),
                             getattr(m, "end_line", 0), getattr(m, "end_column", 0), holder)
        if is_statement(str(t.data)) and not m.empty:
            starts.add((m.line, m.column))
        names = 0
        for c in t.children:
            if isinstance(c, Tree):
                visit(c, me)
            elif isinstance(c, Token):
                toks.append(Tok(str(c), c.type, str(t.data), c.line or 0, c.column or 0, me, names))
                names += c.type == "NAME"

    visit(tree, -1)
    toks += [Tok(str(c).rstrip(), "COMMENT", "", c.line or 0, c.column or 0) for c in comments]
    toks.sort(key=lambda t: (t.line, t.column))
    return Layout(toks, starts, extents)


def tokens(text: str) -> tuple[list[Tok], set[tuple[int, int]]]:
    """Every token of `text` in order, and the (line, column) where each statement begins."""
    lay = layout(text)
    return lay.tokens, lay.starts
