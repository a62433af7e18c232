"""The static type of every move argument: what a client must send for each parameter.

A move's parameters are binders (`move place(card in hand[actor], s in seats)`): their types
are the element types of their domains, as the checker infers them (`dsl/checker.py`'s type
strings: `int`, `seat`, `bool`, `str`, `enum:E`, `comp:C`, `ent:E`, `list:T`, `map:K|V`, `any`).
A constant's type, which the checker leaves as `any` (its value is checked where it is
declared), is inferred here from its value, so a parameter drawn from a constant list of enum
values is typed too.

Example (a neutral toy game): `move take(n in 1..3, colour in colours)` with `enum colours {red,
blue}` has the signature `{"take": (("n", "int"), ("colour", "enum:colours"))}`.
"""

from __future__ import annotations

import attrs

from dsl import ast as A
from dsl.checker import Checker, elem
from dsl.diagnostics import Reporter
from dsl.ir import Ruleset


def _decls(rs: Ruleset) -> list[A.Decl]:
    """Every declaration of a compiled ruleset, as the checker takes them."""
    decls: list[A.Decl] = []
    for field in attrs.fields(Ruleset):
        value = getattr(rs, field.name)
        if isinstance(value, tuple) and all(isinstance(d, A.Decl) for d in value):
            decls.extend(value)
    if rs.setup is not None:
        decls.append(rs.setup)
    return decls


def move_signatures(rs: Ruleset) -> dict[str, tuple[tuple[str, str], ...]]:
    """`{move name: ((parameter, checker type string), ...)}` in declaration order, for every
    move of `rs` (a checked ruleset: its diagnostics were reported when it was compiled, so
    none are collected here). A parameter whose type cannot be known statically is `any`."""
    checker = Checker(_decls(rs), Reporter({}))
    for const in rs.consts:  # in order: a constant may use the ones before it
        checker.global_types[const.name] = checker.expr(const.value, {})
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    for move in rs.moves:
        scope: dict[str, str] = {}
        params = []
        for binder in move.params:
            scope[binder.name] = elem(checker.expr(binder.domain, scope))
            params.append((binder.name, scope[binder.name]))
        out[move.name] = tuple(params)
    return out
