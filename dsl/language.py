"""Language versions: which version of the rule language a file targets, and which rules tightened when.

A file may state `language N` (grammars/ludex.lark, `language_decl`); one that states none
targets language 1, the language as it was before versions were stated, so a designer's old
file keeps checking. A rule that a later version tightens (`TIGHTENED`) is an error in files
that target that version or a later one, and a warning with its fix in older ones
(`Reporter.tightened`): never a sudden error. docs/language.md, "Language versions", is the
changelog. The anchor is Rust's editions: old code keeps its meaning, the migration is a fix.
"""

from __future__ import annotations

CURRENT = 2
"""The newest language version this Ludex knows."""

UNSTATED = 1
"""The version a file that states none targets."""

TIGHTENED: dict[str, int] = {
    # a zone drawn from, or given a place (`top`, `bottom`, `at N`), must be declared `ordered`
    "ordered-zone": 2,
}
"""Rule code -> the language version from which breaking it is an error."""


def target_of(stated: int) -> int:
    """The version a file targets, given the `language N` it states (0: none)."""
    return stated or UNSTATED
