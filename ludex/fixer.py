"""`ludex check --fix`: apply the machine-applicable hints of diagnostics to the files they name.

One fix per finding (its first), edits grouped by file and applied from the end of the file
backwards (`dsl.fixes.apply_edits`); what changed is returned as printable lines.
"""

from __future__ import annotations

from pathlib import Path

from dsl.diagnostics import Diagnostic, Edit
from dsl.fixes import apply_edits, fixable
from dsl.loader import rulesets_root


def file_of(name: str) -> Path:
    """The file a diagnostic's `file` names: a path, or a bundled ruleset's file (its display name)."""
    p = Path(name)
    return p if p.is_file() else rulesets_root() / name


def apply_fixes(diagnostics: list[Diagnostic]) -> list[str]:
    """Apply the first fix of each diagnostic that has one; returns `FILE:LINE:COL: fixed: TITLE` lines.

    Diagnostics repeated (a base finding seen again with a variant) are fixed once.
    """
    by_file: dict[str, list[tuple[Edit, str]]] = {}
    seen: set[tuple] = set()
    for d, fix in fixable(diagnostics):
        key = (d.file, d.line, d.column, d.message)
        if key in seen:
            continue
        seen.add(key)
        for e in fix.edits:
            by_file.setdefault(e.file, []).append((e, f"{d.file}:{d.line}:{d.column}: fixed: {fix.title}"))
    out = []
    for name, edits in by_file.items():
        path = file_of(name)
        text = path.read_text(encoding="utf-8")
        new, applied = apply_edits(text, [e for e, _ in edits])
        if new != text:
            path.write_text(new, encoding="utf-8")
        said = {id(e) for e in applied}
        out += sorted({line for e, line in edits if id(e) in said})
    return out
