"""Diagnostics: what is wrong with rule text, where (file:line:column) and how to fix it."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import attrs

from dsl.ast import Span


@attrs.frozen
class Edit:
    """Replace the text of `file` from (`line`, `column`) up to, not including, (`end_line`,
    `end_column`) with `text`; positions are 1-based, as in diagnostics. An insertion has
    start == end."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@attrs.frozen
class Fix:
    """A hint a machine can apply: `title` says what it does, `edits` do it (`ludex check --fix`,
    the language server's quick fixes). Edits of one fix never overlap."""

    title: str
    edits: tuple[Edit, ...]


@attrs.frozen
class Diagnostic:
    """One finding of the parser or checker.

    `severity` is "error" or "warning"; `line` and `column` are 1-based, or 0 when the
    finding is about a name rather than a place in a file (an unknown ruleset or variant);
    `snippet` is the offending source line followed by a caret line; `hint` is a fix
    suggestion or "".
    """

    severity: str
    message: str
    file: str
    line: int
    column: int
    snippet: str = ""
    hint: str = ""
    fixes: tuple[Fix, ...] = ()  # the hint's machine-applicable form, when it has one
    code: str = ""  # the rule's name for a rule a language version tightened (docs/language.md)

    def to_dict(self) -> dict:
        # `fixes` and `code` appear only when present, so diagnostics without them read as before
        return attrs.asdict(self, filter=lambda a, v: a.name not in ("fixes", "code") or bool(v))

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}: " if self.line else ""
        out = f"{where}{self.severity}: {self.message}"
        if self.snippet:
            out += "\n" + self.snippet
        if self.hint:
            out += f"\n  hint: {self.hint}"
        return out


class RulesetError(Exception):
    """Rule text that does not parse or check; `diagnostics` lists every finding."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__(diagnostics)

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self.diagnostics)


class UnknownRuleset(RulesetError):
    """A ruleset or variant name that names nothing (the hint lists the names that exist):
    a mistake in a command, not in rule text."""


def names_hint(name: str, names: list[str], what: str) -> str:
    """`did you mean 'x'? <what>: a, b, c` for an unknown name, listing every known name."""
    known = f"{what}: {', '.join(names)}" if names else f"there are no {what}"
    close = did_you_mean(name, names)
    return f"{close} {known}" if close else known


def by_position(items: list[Diagnostic], files: list[str]) -> list[Diagnostic]:
    """Diagnostics in reading order: by file (in the order given), then line and column."""
    order = {f: i for i, f in enumerate(files)}
    return sorted(items, key=lambda d: (order.get(d.file, len(order)), d.line, d.column))


def snippet(text: str, line: int, column: int) -> str:
    """The source line `line` of `text` with a caret under `column`."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    src = lines[line - 1]
    return f"  {src}\n  {' ' * (column - 1)}^"


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A "did you mean ..." hint for an unknown name, or "" when nothing is close."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


class Reporter:
    """Collects diagnostics for a set of source files, so one run reports several errors."""

    def __init__(self, texts: dict[str, str]):
        self.texts = texts
        self.items: list[Diagnostic] = []
        self.targets: dict[str, int] = {}  # file -> the language version it targets (dsl/language.py)

    def error(self, span: Span | None, message: str, hint: str = "", severity: str = "error",
              fixes: tuple[Fix, ...] = (), code: str = "") -> None:
        if span is None:
            span = Span("<rules>", 1, 1)
        text = self.texts.get(span.file, "")
        self.items.append(
            Diagnostic(severity, message, span.file, span.line, span.column, snippet(text, span.line, span.column), hint,
                       fixes, code)
        )

    def tightened(self, code: str, span: Span | None, message: str, hint: str, fixes: tuple[Fix, ...] = ()) -> None:
        """A finding of a rule that a language version tightened (`dsl.language.TIGHTENED[code]`):
        an error in a file that targets that version or a later one, else a warning that says
        so, with the same hint and fixes."""
        from dsl.language import CURRENT, TIGHTENED

        since = TIGHTENED[code]
        target = self.targets.get(span.file, CURRENT) if span else CURRENT
        if target >= since:
            self.error(span, message, hint, fixes=fixes, code=code)
        else:
            self.error(span, f"{message} (an error from language {since} on; this file targets language {target})",
                       hint, severity="warning", fixes=fixes, code=code)

    def warning(self, span: Span | None, message: str, hint: str = "") -> None:
        self.error(span, message, hint, severity="warning")

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]
