"""The turn structure of a ruleset as a drawable state machine (Mermaid or Graphviz DOT).

Nodes are steps; an edge S -> T labelled M means move M, allowed at S, can lead to T
(by `goto`, `end turn`/`turn` back to the first step, or the step's `then`). Triggers that
change step are drawn from every step (their condition may hold after any move); `end game`
leads to the terminal node. An arrow along which the turn passes to another seat (`end turn`,
`turn SEAT`, a step's `then end turn`) is marked `(turn passes)`; one that hands the decision to
a seat the rules name (`goto STEP by SEAT`, perhaps the same seat) is marked `(by seat)`. A step where an automaton acts (its moves played by the rules,
not chosen by a person) is drawn distinctly: a dashed hexagon in DOT, the `automaton` class
in Mermaid, its label naming the automaton.
"""

from __future__ import annotations

from typing import Any

from dsl import ast as A
from dsl.ast import walk
from dsl.ir import Ruleset


def _targets(body: Any, rs: Ruleset, first: str, chain: tuple[str, ...] = ()) -> set[tuple[str, tuple[str, ...], str]]:
    """(step, procedures called on the way, seat mark) triples a body can lead to, following
    procedure calls ("END" for the end of the game); the mark is TURN_PASSES, BY_SEAT or "".
    A procedure already on the path is not entered again."""
    procs = {p.name: p for p in rs.procs}
    out: set[tuple[str, tuple[str, ...], str]] = set()
    for n in walk(body):
        if n.op == "goto_stmt":
            out.add((n.args[0], chain, BY_SEAT if n.args[1] is not None else ""))
        elif n.op in ("end_turn_stmt", "turn_stmt"):
            out.add((first, chain, TURN_PASSES))
        elif n.op == "end_game_stmt":
            out.add(("END", chain, ""))
        elif n.op == "call" and n.args[0] in procs and n.args[0] not in chain:
            out |= _targets(procs[n.args[0]].body, rs, first, (*chain, n.args[0]))
    return out


def _always_moves_on(body: tuple[A.Node, ...], rs: Ruleset, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a body changes step on every path (a goto, turn, end turn or end game at top level,
    in every branch of an `if` with an `else`, or in a procedure called at top level)."""
    procs = {p.name: p for p in rs.procs}

    def moves_on(n: A.Node) -> bool:
        if n.op in ("goto_stmt", "turn_stmt", "end_turn_stmt", "end_game_stmt"):
            return True
        if n.op == "if_stmt" and len(n.args) % 2 == 1:
            return all(_always_moves_on(b, rs, seen) for b in n.args[1::2] + (n.args[-1],))
        if n.op == "call" and n.args[0] in procs and n.args[0] not in seen:
            return _always_moves_on(procs[n.args[0]].body, rs, seen | {n.args[0]})
        return False

    return any(moves_on(n) for n in body)


TURN_PASSES = " (turn passes)"
BY_SEAT = " (by seat)"


def _label(move: str, chain: tuple[str, ...], mark: str = "") -> str:
    """A move, and the procedures through which it reaches the step (`done › next_round`),
    with its seat mark (`(turn passes)`, `(by seat)`) if any."""
    return " › ".join((move, *chain)) + mark


def entry(rs: Ruleset) -> list[tuple[str, str]]:
    """(step, label) pairs where the game starts: the steps the setup goes to, else the first."""
    first = rs.steps[0].name if rs.steps else ""
    found = {(t, chain) for t, chain, _ in _targets(rs.setup.body, rs, first)} if rs.setup is not None else set()
    if not found or (rs.setup is not None and not _always_moves_on(rs.setup.body, rs)):
        found.add((first, ()))
    return sorted((t, _label("setup", chain)) for t, chain in found)


def edges(rs: Ruleset) -> list[tuple[str, str, str]]:
    """(from step, to step or "END", label) triples, sorted; a label ends in `(turn passes)` when
    the turn goes to the next seat along that arrow, `(by seat)` when the rules name the seat."""
    first = rs.steps[0].name if rs.steps else ""
    out: set[tuple[str, str, str]] = set()
    for m in rs.moves:
        targets = _targets(m.body, rs, first)
        for s in m.steps:
            step = next(x for x in rs.steps if x.name == s)
            dests = set(targets)
            if not _always_moves_on(m.body, rs):  # some path keeps the step's own `then`
                then = step.then
                if then.op == "then_end_turn":
                    dests.add((first, (), TURN_PASSES))
                elif then.op == "then_goto":
                    dests.add((then.args[0], (), BY_SEAT if len(then.args) > 1 and then.args[1] is not None else ""))
                else:
                    dests.add((s, (), ""))
            for t, chain, mark in dests:
                out.add((s, t, _label(m.name, chain, mark)))
    for tr in rs.triggers:
        for t, chain, mark in _targets(tr.body, rs, first):
            out.add(("*", t, _label(f"trigger {tr.name}", chain, mark)))
    return sorted(out)


def automaton_steps(rs: Ruleset) -> dict[str, list[str]]:
    """Step name -> the automata that act there (only steps with one)."""
    out: dict[str, list[str]] = {}
    for a in rs.automata:
        for s in a.steps:
            out.setdefault(s, []).append(a.name)
    return out


def _merged(es: list[tuple[str, str, str]]) -> list[tuple[str, str, list[str]]]:
    """One arrow per pair of steps, carrying every label that leads along it (sorted)."""
    by: dict[tuple[str, str], list[str]] = {}
    for a, b, label in es:
        by.setdefault((a, b), []).append(label)
    return [(a, b, labels) for (a, b), labels in sorted(by.items())]


def turn_graph(rs: Ruleset, dot: bool = False) -> str:
    """The turn structure as Mermaid `stateDiagram-v2` text, or DOT with `dot=True`: one arrow
    per pair of steps, labelled with the moves (and the procedures they go through) that lead
    along it, one per line; the start arrows follow the setup's `goto`."""
    es = _merged(edges(rs))
    auto = automaton_steps(rs)
    starts = entry(rs)
    if dot:
        lines = [f'digraph "{rs.name}" {{', "  rankdir=LR;", '  start [shape=point]; END [shape=doublecircle label="end"];']
        lines += [f'  start -> "{t}" [label="{_esc(label)}"];' for t, label in starts]
        for s in rs.steps:
            if s.name in auto:
                lines.append(f'  "{s.name}" [shape=hexagon style=dashed label="{s.name}\\n(automaton {", ".join(auto[s.name])})" '
                             f'tooltip="{_esc(s.doc)}"];')
            else:
                lines.append(f'  "{s.name}" [shape=box tooltip="{_esc(s.doc)}"];')
        for a, b, labels in es:
            src = "ANY" if a == "*" else a
            joined = "\\n".join(_esc(x) for x in labels)
            lines.append(f'  "{src}" -> "{b}" [label="{joined}"];')
        if any(a == "*" for a, _, _ in es):
            lines.append('  ANY [shape=plaintext label="any step"];')
        lines.append("}")
        return "\n".join(lines)
    lines = ["stateDiagram-v2"] + [f"  [*] --> {t}: {_esc(label)}" for t, label in starts]
    for s in rs.steps:
        who = f"<br/>(automaton {', '.join(auto[s.name])})" if s.name in auto else ""
        if s.doc or who:
            lines.append(f"  {s.name}: {s.name}{who}" + (f"<br/>{_esc(s.doc)}" if s.doc else ""))
    for a, b, labels in es:
        src = "any_step" if a == "*" else a
        dst = "[*]" if b == "END" else b
        lines.append(f"  {src} --> {dst}: {'<br/>'.join(_esc(x) for x in labels)}")
    if auto:
        lines.append("  classDef automaton stroke-dasharray: 5 5")
        lines.extend(f"  class {name} automaton" for name in auto)
    return "\n".join(lines)


def _esc(s: str) -> str:
    return s.replace('"', "'").replace(":", " -")


__all__ = ["BY_SEAT", "TURN_PASSES", "edges", "entry", "turn_graph"]
