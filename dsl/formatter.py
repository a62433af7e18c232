"""The canonical layout of rule text (`ludex fmt`): one style, idempotent, comments and strings kept.

The formatter works from Lark's parse tree of `grammars/ludex.lark` (all tokens kept, so it knows
which `-` is unary, which `<` opens a type and which `{` opens a map) plus the comments the lexer
hands to a callback. It never moves a token to another line: the author's line breaks, blank lines
and comments stay where they are, so line numbers cited elsewhere keep holding (Ruff's formatter
and gofmt are the anchors; unlike Ruff it does not re-wrap long lines).

The layout, line by line:
- tokens are separated by one space, except: none inside `()`, `[]`, map `{}` and type `<>`;
  none before `,` `;` `:` `?`; none around `.` and `..`; none after a unary `-`; none between a
  name and the `(` or `[` that follows it;
- indentation is two spaces a level: a line inside brackets opened on an earlier line is indented
  one level past that line; a line that closes them lines up with it; a line that continues a
  declaration or statement (not inside an expression's brackets) is indented one level past it, or
  two when its author indented it that far (a hanging `during ...` or doc string);
- a comment-only line takes the indentation of the next line of code;
- a doc string or comment ending a line, which its author set apart by two or more spaces, is
  aligned with the other set-apart ones of its run of lines (consecutive, equally indented lines
  of code), two spaces past the longest code among them; one set apart by a single space stays so;
- trailing spaces go, runs of more than two blank lines are kept (they hold line numbers), the
  file ends with one newline.

Raises `RulesetError` (the parser's syntax diagnostics) on text that does not parse: a layout is
only given to text whose structure is known.
"""

from __future__ import annotations

import attrs

from dsl.parser import parse_text
from dsl.tokens import Tok as _Tok
from dsl.tokens import tokens as _tokens

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}
_NO_SPACE_BEFORE = {",", ";", ":", "?", ")", "]", ".."}
_TIGHT_BRACES = {"map_lit", "map_comp"}
_UNARY = {"neg", "neg_int_bound"}
_TYPE_ANGLES = {"list_type", "map_type"}
_NAMELIKE_END = {"NAME", "INT", "STRING"}

def _space(prev: _Tok, tok: _Tok, tight_close: bool, angle_close: bool) -> str:
    """The gap between two tokens on one line."""
    if tok.kind == "COMMENT":
        return " "
    if prev.value in _OPEN and prev.kind != "STRING":
        if prev.value == "{" and prev.parent not in _TIGHT_BRACES and tok.value != "}":
            return " "
        return ""
    if tok.value in _CLOSE and tok.kind != "STRING":
        if tok.value == "}" and not tight_close and prev.value != "{":
            return " "
        return ""
    if tok.value in _NO_SPACE_BEFORE and tok.kind != "STRING":
        return ""
    if prev.value == ".." or (prev.value == "-" and prev.parent in _UNARY):
        return ""
    if tok.value == "." or prev.value == ".":
        # `.name` after a value is an attribute; after anything else it is `it`'s attribute
        return "" if tok.value != "." or _ends_value(prev) else " "
    if prev.value == "<" and prev.parent in _TYPE_ANGLES:
        return ""
    if tok.value == ">" and angle_close:
        return ""
    if tok.value == "<" and tok.parent in _TYPE_ANGLES:
        return ""
    if tok.value in ("(", "[") and prev.kind == "NAME":
        return ""
    if tok.value == "[" and prev.value in (")", "]"):
        return ""
    return " "


def _ends_value(t: _Tok) -> bool:
    return t.kind in _NAMELIKE_END or t.value in (")", "]", "}", "it")


@attrs.define
class _Line:
    indent: int
    code: str  # the line's text without its set-apart trailing element
    trail: str = ""  # a doc string or comment its author set apart by two or more spaces
    blank: bool = False
    comment_only: bool = False


def format_text(text: str, path: str = "<text>") -> str:
    """`text` in the canonical layout (see the module doc). Idempotent.

    Raises `RulesetError` with the syntax diagnostics when `text` does not parse.
    """
    parse_text(text, path)  # the parser's own diagnostics, with their hints, for broken text
    toks, starts = _tokens(text)
    src_lines = text.split("\n")
    by_line: dict[int, list[_Tok]] = {}
    for t in toks:
        by_line.setdefault(t.line, []).append(t)
    n_lines = len(src_lines)
    while n_lines and not src_lines[n_lines - 1].strip():
        n_lines -= 1
    # stack of open brackets: (bracket token, formatted indent of its line, original indent of its line,
    # whether it closes tightly)
    stack: list[tuple[_Tok, int, int, bool]] = []
    angles = 0
    out: list[_Line] = []
    for ln in range(1, n_lines + 1):
        line_toks = by_line.get(ln, [])
        if not line_toks:
            out.append(_Line(0, "", blank=True))
            continue
        raw = src_lines[ln - 1]
        orig_indent = len(raw) - len(raw.lstrip(" \t"))
        first = line_toks[0]
        indent = _indent(first, stack, starts, orig_indent)
        pieces: list[str] = []
        gaps: list[str] = []
        for i, t in enumerate(line_toks):
            if i:
                tight_close = bool(stack) and stack[-1][3]
                angle_close = angles > 0 and t.value == ">"
                gaps.append(_space(line_toks[i - 1], t, tight_close, angle_close))
            pieces.append(t.value)
            if t.kind == "STRING" or t.kind == "COMMENT":
                continue
            if t.value == "<" and t.parent in _TYPE_ANGLES:
                angles += 1
            elif t.value == ">" and angles and t.parent in _TYPE_ANGLES:
                angles -= 1
            if t.value in _OPEN:
                stack.append((t, indent, orig_indent, t.value == "{" and t.parent in _TIGHT_BRACES))
            elif t.value in _CLOSE and stack:
                stack.pop()
        last = line_toks[-1]
        trail = ""
        if len(line_toks) > 1 and last.kind in ("STRING", "COMMENT"):
            before = line_toks[-2]
            end_prev = before.column - 1 + len(before.value)
            if last.column - 1 - end_prev >= 2 and gaps[-1] == " ":
                trail = pieces.pop()
                gaps.pop()
        code = pieces[0] + "".join(g + p for g, p in zip(gaps, pieces[1:]))
        out.append(_Line(indent, code, trail, comment_only=first.kind == "COMMENT"))
    _indent_comments(out)
    _align(out)
    return "".join(_render(x) + "\n" for x in out)


def _indent(first: _Tok, stack: list, starts: set[tuple[int, int]], orig_indent: int) -> int:
    """The indentation of a line that begins with `first`, given the brackets open before it."""
    if first.value in _CLOSE and first.kind != "STRING" and stack:
        return stack[-1][1]
    if not stack:
        base, orig_base, block = 0, 0, True
    else:
        opener, fmt_indent, raw_indent, _ = stack[-1]
        base, orig_base = fmt_indent + 2, raw_indent + 2
        block = opener.value == "{" and opener.parent not in _TIGHT_BRACES
    if not block or first.kind == "COMMENT" or (first.line, first.column) in starts:
        return base
    if first.value in ("elif", "else") and first.parent == "if_stmt":
        return base
    if first.value == "{" and first.parent not in _TIGHT_BRACES:
        return base  # a block on a line of its own lines up with the declaration it belongs to
    return base + (4 if orig_indent - orig_base >= 4 else 2)


def _indent_comments(lines: list[_Line]) -> None:
    nxt = 0
    for x in reversed(lines):
        if x.comment_only:
            x.indent = nxt
        elif not x.blank:
            nxt = x.indent


def _align(lines: list[_Line]) -> None:
    """Line up set-apart trailing doc strings and comments within each run of lines."""
    i = 0
    while i < len(lines):
        j = i
        while (j < len(lines) and not lines[j].blank and not lines[j].comment_only
               and lines[j].indent == lines[i].indent):
            j += 1
        run = [x for x in lines[i:max(j, i + 1)] if x.trail]
        if run:
            col = max(len(x.code) for x in run) + 2
            for x in run:
                x.code = x.code.ljust(col)
        i = max(j, i + 1)


def _render(x: _Line) -> str:
    if x.blank:
        return ""
    return (" " * x.indent + x.code + x.trail).rstrip()


def is_formatted(text: str, path: str = "<text>") -> bool:
    """Whether `text` is already in the canonical layout. Raises `RulesetError` as `format_text`."""
    return format_text(text, path) == text


__all__ = ["format_text", "is_formatted"]
