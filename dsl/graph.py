"""The turn structure of a ruleset as a drawable state machine (Mermaid or Graphviz DOT).

Nodes are steps; an edge S -> T labelled M means move M, allowed at S, can lead to T
(by `goto`, `end turn`/`turn` back to the first step, or the step's `then`). Triggers that
change step are drawn from every step (their condition may hold after any move); `end game`
leads to the terminal node. A step where an automaton acts (its moves played by the rules,
not chosen by a person) is drawn distinctly: a dashed hexagon in DOT, the `automaton` class
in Mermaid, its label naming the automaton.
"""

from __future__ import annotations

from typing import Any

from dsl import ast as A
from dsl.ast import walk
from dsl.ir import Ruleset


def _targets(body: Any, rs: Ruleset, first: str, seen: set[str] | None = None) -> set[str]:
    """Steps a body can lead to, following procedure calls ("END" for the end of the game)."""
    seen = set() if seen is None else seen
    procs = {p.name: p for p in rs.procs}
    out: set[str] = set()
    for n in walk(body):
        if n.op == "goto_stmt":
            out.add(n.args[0])
        elif n.op in ("end_turn_stmt", "turn_stmt"):
            out.add(first)
        elif n.op == "end_game_stmt":
            out.add("END")
        elif n.op == "call" and n.args[0] in procs and n.args[0] not in seen:
            seen.add(n.args[0])
            out |= _targets(procs[n.args[0]].body, rs, first, seen)
    return out


def _always_moves_on(body: tuple[A.Node, ...]) -> bool:
    """Whether a body changes step on every path (a top-level goto, turn, end turn or end game)."""
    return any(n.op in ("goto_stmt", "turn_stmt", "end_turn_stmt", "end_game_stmt") for n in body) or any(
        n.op == "if_stmt" and len(n.args) % 2 == 1 and all(_always_moves_on(b) for b in n.args[1::2] + (n.args[-1],))
        for n in body
    )


def edges(rs: Ruleset) -> list[tuple[str, str, str]]:
    """(from step, to step or "END", label) triples, sorted."""
    first = rs.steps[0].name if rs.steps else ""
    out: set[tuple[str, str, str]] = set()
    for m in rs.moves:
        targets = _targets(m.body, rs, first)
        for s in m.steps:
            step = next(x for x in rs.steps if x.name == s)
            dests = set(targets)
            if not _always_moves_on(m.body):  # some path keeps the step's own `then`
                then = step.then
                if then.op == "then_end_turn":
                    dests.add(first)
                elif then.op == "then_goto":
                    dests.add(then.args[0])
                else:
                    dests.add(s)
            for t in dests:
                out.add((s, t, m.name))
    for tr in rs.triggers:
        for t in _targets(tr.body, rs, first):
            out.add(("*", t, f"trigger {tr.name}"))
    return sorted(out)


def automaton_steps(rs: Ruleset) -> dict[str, list[str]]:
    """Step name -> the automata that act there (only steps with one)."""
    out: dict[str, list[str]] = {}
    for a in rs.automata:
        for s in a.steps:
            out.setdefault(s, []).append(a.name)
    return out


def turn_graph(rs: Ruleset, dot: bool = False) -> str:
    """The turn structure as Mermaid `stateDiagram-v2` text, or DOT with `dot=True`."""
    es = edges(rs)
    auto = automaton_steps(rs)
    first = rs.steps[0].name if rs.steps else ""
    if dot:
        lines = [f'digraph "{rs.name}" {{', "  rankdir=LR;", '  start [shape=point]; END [shape=doublecircle label="end"];',
                 f'  start -> "{first}" [label="setup"];']
        for s in rs.steps:
            if s.name in auto:
                lines.append(f'  "{s.name}" [shape=hexagon style=dashed label="{s.name}\\n(automaton {", ".join(auto[s.name])})" '
                             f'tooltip="{_esc(s.doc)}"];')
            else:
                lines.append(f'  "{s.name}" [shape=box tooltip="{_esc(s.doc)}"];')
        for a, b, label in es:
            src = "ANY" if a == "*" else a
            lines.append(f'  "{src}" -> "{b}" [label="{_esc(label)}"];')
        if any(a == "*" for a, _, _ in es):
            lines.append('  ANY [shape=plaintext label="any step"];')
        lines.append("}")
        return "\n".join(lines)
    lines = ["stateDiagram-v2", f"  [*] --> {first}: setup"]
    for s in rs.steps:
        who = f"\\n(automaton {', '.join(auto[s.name])})" if s.name in auto else ""
        if s.doc or who:
            lines.append(f"  {s.name}: {s.name}{who}" + (f"\\n{_esc(s.doc)}" if s.doc else ""))
    for a, b, label in es:
        src = "any_step" if a == "*" else a
        dst = "[*]" if b == "END" else b
        lines.append(f"  {src} --> {dst}: {label}")
    if auto:
        lines.append("  classDef automaton stroke-dasharray: 5 5")
        lines.extend(f"  class {name} automaton" for name in auto)
    return "\n".join(lines)


def _esc(s: str) -> str:
    return s.replace('"', "'").replace(":", " -")


__all__ = ["edges", "turn_graph"]
