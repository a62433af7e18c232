"""What a policy may read: only what its seat sees (docs/language.md, "Policies").

A policy plays for the seat to act (`actor`). Its conditions are checked here for reading a
component the seat cannot see: an attribute of a component that lies in a zone hidden from
`actor` (a `hidden` or `secret` zone, an `owner` zone not indexed by `actor`, an `others` zone
indexed by `actor`, a shared `owner`/`others` zone), or of a move parameter drawn from one.
Counting such a zone (`size`, `count`, `empty`) and reading the public marks of its components
(`marks`, `has_mark`) are allowed: every seat sees them. A ruleset function called with such a
component, or one that reads such a zone itself, is followed into its body.

The analysis is a taint pass over the syntax tree (Denning 1976, "A lattice model of secure
information flow"): a value is *hidden* when it holds components of a hidden zone. It is
conservative for `owner` zones indexed by an expression it cannot prove to be `actor`, and
takes an `others` zone indexed by anything but `actor` (`hand[target]`) to be another seat's,
as a move's requires usually guarantee.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dsl import ast as A

# built-ins that read only what every seat sees of a collection: its size and its marks
_COUNTING = {"size", "count", "empty", "len", "marks", "has_mark", "position", "owner"}


class HiddenRead(Exception):
    """A read of hidden information at `node`, explained by `why`."""

    def __init__(self, node: A.Node, why: str):
        super().__init__(why)
        self.node = node
        self.why = why


class PolicyReads:
    """Finds the first hidden read of an expression evaluated for the seat `actor`.

    `zones` maps a zone name (global or entity member) to its declaration, `fns` a function
    name to its declaration."""

    def __init__(self, zones: dict[str, A.ZoneDecl], fns: dict[str, A.FnDecl]):
        self.zones = zones
        self.fns = fns
        self._seen: set[tuple[str, tuple[bool, ...]]] = set()

    def first_hidden_read(self, e: A.Node, hidden_names: dict[str, str]) -> HiddenRead | None:
        """The first hidden read in `e`, whose free names in `hidden_names` (name -> the zone it
        comes from) hold hidden components; None when `e` reads only what `actor` sees."""
        try:
            self.taint(e, dict(hidden_names))
        except HiddenRead as found:
            return found
        return None

    def _zone_hidden(self, z: A.ZoneDecl, index: A.Node | None) -> bool:
        vis = z.visibility
        if vis == "public":
            return False
        if vis in ("hidden", "secret") or not z.per_seat:
            return True
        by_actor = index is not None and index.op == "name" and index.args[0] == "actor"
        return not by_actor if vis == "owner" else by_actor

    def taint(self, e: Any, env: dict[str, str]) -> str | None:
        """Where the hidden components of `e`'s value come from (a zone's text), or None."""
        if not isinstance(e, A.Node):
            return None
        op, a = e.op, e.args
        if op == "name":
            n = a[0]
            if n in env:
                return env[n]
            z = self.zones.get(n)
            return n if z is not None and not z.per_seat and self._zone_hidden(z, None) else None
        if op == "it":
            return env.get("$it")
        if op == "index":
            base = a[0]
            self.taint(a[1], env)
            if base.op == "name" and base.args[0] not in env and base.args[0] in self.zones:
                z = self.zones[base.args[0]]
                return _text(e) if self._zone_hidden(z, a[1]) else None
            return self.taint(base, env)
        if op == "attr":
            src = self.taint(a[0], env)
            if a[1] in self.zones and a[0].op != "it":  # an entity's member zone: `t.on`
                return _text(e) if self._zone_hidden(self.zones[a[1]], None) else None
            if src is not None:
                raise HiddenRead(e, f"`{_text(e)}` reads a component of {src}, which the seat to act cannot see")
            return None
        if op == "where":
            src = self.taint(a[0], env)
            self.taint(a[1], {**env, "$it": src} if src else env)
            return src
        if op in ("list_comp", "map_comp", "gen_call"):
            fors = a[2] if op == "gen_call" else a[1]
            inner = dict(env)
            src = None
            for f in fors:
                name, iterable, cond = f.args
                got = self.taint(iterable, inner)
                if got:
                    inner[name] = got
                    src = src or got
                else:
                    inner.pop(name, None)
                self.taint(cond, inner)
            body = a[1] if op == "gen_call" else a[0]
            if isinstance(body, tuple):
                return self.taint(body[0], inner) or self.taint(body[1], inner)
            got = self.taint(body, inner)
            return got if op != "gen_call" else (got if a[0] in ("min", "max", "list", "distinct", "argmax", "argmin") else None)
        if op == "let_expr":
            name, value, body = a
            got = self.taint(value, env)
            inner = {**env, name: got} if got else {k: v for k, v in env.items() if k != name}
            return self.taint(body, inner)
        if op == "call":
            return self._call(e, env)
        found = None
        for x in a:
            for y in (x if isinstance(x, tuple) else (x,)):
                found = self.taint(y, env) or found
        return found

    def _call(self, e: A.Node, env: dict[str, str]) -> str | None:
        name, pos, kw = e.args
        srcs = [self.taint(x, env) for x in pos] + [self.taint(v, env) for _k, v in kw]
        fn = self.fns.get(name)
        if fn is None:
            if name in _COUNTING:
                return None
            return next((s for s in srcs if s), None)
        key = (name, tuple(bool(s) for s in srcs[: len(fn.params)]))
        if key in self._seen:  # a recursive function already being followed with these arguments
            return None
        self._seen.add(key)
        inner = {p.name: s for p, s in zip(fn.params, srcs) if s}
        try:
            return self.taint(fn.body, inner)
        except HiddenRead as found:
            if found.node is not e:
                raise HiddenRead(e, f"`{_text(e)}` calls {name}, where {found.why}") from None
            raise
        finally:
            self._seen.discard(key)


def _text(e: Any) -> str:
    """A short source-like rendering of an expression for messages."""
    if not isinstance(e, A.Node):
        return str(e)
    op, a = e.op, e.args
    render: dict[str, Callable[[], str]] = {
        "name": lambda: a[0],
        "it": lambda: "it",
        "lit": lambda: repr(a[0]),
        "attr": lambda: f"{'' if a[0].op == 'it' else _text(a[0])}.{a[1]}",
        "index": lambda: f"{_text(a[0])}[{_text(a[1])}]",
        "call": lambda: f"{a[0]}({', '.join(_text(x) for x in a[1])})",
        "binop": lambda: f"{_text(a[1])} {a[0]} {_text(a[2])}",
    }
    return render[op]() if op in render else op


def binder_sources(reads: PolicyReads, move: A.MoveDecl) -> dict[str, str]:
    """The parameters of `move` drawn from a zone hidden from the seat to act (name -> zone text)."""
    env: dict[str, str] = {}
    for b in move.params:
        try:
            src = reads.taint(b.domain, env)
        except HiddenRead:  # the rules may read anything to list a move; its parameter is then hidden
            src = _text(b.domain)
        if src:
            env[b.name] = src
    return env
