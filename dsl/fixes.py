"""Machine-applicable fixes: building the edits of a hint, and applying them to rule text.

Positions are found with Lark's lexer of `grammars/ludex.lark`, never by pattern-matching
rule text. Used by the checker (fixes attached to diagnostics), `ludex check --fix` and the
language server's quick fixes.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from lark.exceptions import LarkError

from dsl.ast import Span
from dsl.diagnostics import Diagnostic, Edit, Fix


def offset(text: str, line: int, column: int) -> int:
    """The 0-based character offset of the 1-based (`line`, `column`) in `text`."""
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: line - 1]) + column - 1


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate `did_you_mean` would suggest for `name`, or None (same cutoff)."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return close[0] if close else None


def rename_fix(text: str, span: Span | None, name: str, candidates: Iterable[str]) -> tuple[Fix, ...]:
    """A fix replacing the unknown `name` written at `span` by its closest candidate, if any.

    Empty when nothing is close or `span` does not point at `name` in `text`.
    """
    new = closest(name, candidates)
    if span is None or new is None:
        return ()
    at = offset(text, span.line, span.column)
    if text[at:at + len(name)] != name:
        return ()
    edit = Edit(span.file, span.line, span.column, span.line, span.column + len(name), new)
    return (Fix(f"replace '{name}' with '{new}'", (edit,)),)


def insert_after_token(text: str, span: Span, token_type: str, insert: str, title: str) -> Fix | None:
    """A fix inserting `insert` right after the first token of type `token_type` at or after `span`
    (lexed with the grammar's terminals), or None when there is none before the text ends."""
    from dsl.parser import _lark

    start = offset(text, span.line, span.column)
    try:
        for tok in _lark().lex(text[start:]):
            if tok.type == token_type:
                line = span.line + (tok.end_line or 1) - 1
                column = (tok.end_column or 1) + (span.column - 1 if tok.end_line == 1 else 0)
                return Fix(title, (Edit(span.file, line, column, line, column, insert),))
    except LarkError:
        return None
    return None


def apply_edits(text: str, edits: Iterable[Edit]) -> tuple[str, list[Edit]]:
    """`text` with `edits` (all of one file) applied; returns the new text and the edits applied.

    An edit that overlaps one applied before it is skipped (run the fixer again for it).
    """
    chosen: list[tuple[int, int, Edit]] = []
    for e in edits:
        a, b = offset(text, e.line, e.column), offset(text, e.end_line, e.end_column)
        if any(a < y and x < b or (a == b == x == y) for x, y, _ in chosen):
            continue
        chosen.append((a, b, e))
    for a, b, e in sorted(chosen, key=lambda c: (c[0], c[1]), reverse=True):
        text = text[:a] + e.text + text[b:]
    return text, [e for _, _, e in sorted(chosen, key=lambda c: (c[0], c[1]))]


def fixable(diagnostics: Iterable[Diagnostic]) -> list[tuple[Diagnostic, Fix]]:
    """Each diagnostic with its first fix, for those that have one (one fix a finding)."""
    return [(d, d.fixes[0]) for d in diagnostics if d.fixes]
