"""Placeholders: declarations whose numbers or lists no source states.

A ruleset marks a declaration as a placeholder by starting its doc string with `PLACEHOLDER`,
optionally followed by a kind in parentheses, then `:` and what is known:

    const stall_cost = 2 "PLACEHOLDER(cost): coins to rent a market stall; the rulebook says coins, not how many"

Any declaration with a doc string can be one (a `const` table is the usual shape; an
`option`, `components` list or `fn` works too). A variant that `replace`s the declaration
with a doc string that does not say PLACEHOLDER removes it from the list. `ludex check`
reports the count as a note, `ludex placeholders` lists each with its file:line and text.
"""

from __future__ import annotations

import re
from collections import Counter

import attrs

from dsl import ast as A
from dsl.ir import Ruleset

MARKER = "PLACEHOLDER"
_HEAD = re.compile(r"^PLACEHOLDER(?:\((?P<kind>[^)]*)\))?\s*:?\s*")


@attrs.frozen
class Placeholder:
    """One placeholder: the declaration (`decl` kind and `name`), its `kind` as the doc string
    names it ("" when it names none), where it is (`file`, 1-based `line`), and the `text`
    after the marker (what is known about the missing value)."""

    decl: str
    name: str
    kind: str
    file: str
    line: int
    text: str

    def to_dict(self) -> dict:
        return attrs.asdict(self)

    def __str__(self) -> str:
        kind = f"({self.kind})" if self.kind else ""
        return f"{self.file}:{self.line}: placeholder{kind} {self.decl} {self.name}: {self.text}"


def _decls(rs: Ruleset):
    for f in attrs.fields(Ruleset):
        value = getattr(rs, f.name)
        if isinstance(value, A.Decl):
            yield value
        elif isinstance(value, tuple):
            for d in value:
                if isinstance(d, A.Decl):
                    yield d
                    if isinstance(d, A.EntityDecl):
                        yield from d.zones
                        yield from d.vars


def placeholders(rs: Ruleset) -> list[Placeholder]:
    """Every placeholder declaration of a compiled ruleset, in file then line order."""
    out = []
    for d in _decls(rs):
        m = _HEAD.match(d.doc or "")
        if m is None:
            continue
        span = d.span or A.Span("<rules>", 1, 1)
        out.append(Placeholder(d.kind, d.name, (m.group("kind") or "").strip(), span.file, span.line, d.doc[m.end():].strip()))
    return sorted(out, key=lambda p: (p.file, p.line, p.name))


def count_by_kind(items: list[Placeholder]) -> dict[str, int]:
    """How many placeholders of each kind ("" for those that name none), most frequent first."""
    return dict(Counter(p.kind for p in items).most_common())


__all__ = ["MARKER", "Placeholder", "count_by_kind", "placeholders"]
