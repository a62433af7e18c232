"""Simultaneous steps: seats that choose at once, sealed until all have chosen.

A step declared `simultaneous [for SEATS]` (docs/language.md, "Simultaneous steps") opens a
**round** when the turn machine enters it: the seats named (every seat, or the list SEATS
evaluates to, in the order their moves will apply) each choose one move of the step. A choice
is **sealed**: it is recorded as a `sealed` event that only its seat sees, and changes nothing
else. A seat may choose again (the later choice replaces the earlier) until the last named
seat has chosen; that choice **reveals** the round: every seat's move is applied, one after
another in the stated order, each as an ordinary move event marked `node: "sealed"` (a
replay re-derives them from the sealed events), and then the step's `then` (or the flow the
moves set) decides what follows. The round is the OpenSpiel simultaneous node and
boardgame.io's `activePlayers`, with the choices kept hidden until the reveal.
"""

from __future__ import annotations

from typing import Any

import attrs

from runtime.events import NO_ARGS, NO_OUTCOME, Event, new_event

SEALED = "sealed"  # the kind of a sealed choice's event, and the `node` of a revealed move's event


def decides(event: Any, seats: int) -> bool:
    """Whether `event` is a seat's decision, where `Game.fold` applies a move (and a live game
    one `Game.apply`): a human seat's move (`seats` human seats), or its sealed choice. An
    automaton's move and a round's revealed moves belong to the decision before them."""
    if event.kind == SEALED:
        return True
    return event.kind == "move" and not (event.seat is not None and event.seat >= seats) and event.node != SEALED


@attrs.frozen
class Round:
    """An open round of a simultaneous step: `seats` (in the order their moves apply), the
    choices so far as `(seat, move code, binding)` (the latest per seat, in order of first
    arrival) and `actor`, the seat to act when the step was entered (restored after the reveal).
    Immutable: a choice makes a new Round, so a cloned state may share it."""

    seats: tuple[int, ...]
    chosen: tuple[tuple[int, Any, tuple], ...]
    actor: int

    def waiting(self) -> tuple[int, ...]:
        """The named seats that have not chosen yet, in order."""
        done = {s for s, _mc, _b in self.chosen}
        return tuple(s for s in self.seats if s not in done)

    def with_choice(self, seat: int, mc: Any, binding: tuple) -> Round:
        """This round with `seat`'s choice set (replacing its earlier one, if any)."""
        if any(s == seat for s, _mc, _b in self.chosen):
            chosen = tuple((seat, mc, binding) if c[0] == seat else c for c in self.chosen)
        else:
            chosen = (*self.chosen, (seat, mc, binding))
        return Round(self.seats, chosen, self.actor)

    def in_order(self) -> list[tuple[int, Any, tuple]]:
        """The choices in the order their moves apply (the order of `seats`)."""
        by_seat = {s: (s, mc, b) for s, mc, b in self.chosen}
        return [by_seat[s] for s in self.seats]


def open_round(step: str, value: Any, nseats: int, humans: int, actor: int) -> Round:
    """The round of simultaneous step `step` whose `for` expression gave `value`. Raises
    ValueError naming the step when `value` is not a non-empty list of different human seats."""
    seats = list(value) if isinstance(value, (list, tuple)) else None
    if not seats or any(s.__class__ is not int or not 0 <= s < nseats for s in seats) or len(set(seats)) != len(seats):
        raise ValueError(f"the simultaneous step '{step}' needs a non-empty list of different seats, got {value!r}")
    if any(s >= humans for s in seats):
        raise ValueError(f"the simultaneous step '{step}' names an automaton seat: automata act one at a time")
    return Round(tuple(seats), (), actor)


def sealed_event(ply: int, step: str, source: str, seat: int, move: str, args: dict[str, Any]) -> Event:
    """The event of a sealed choice: its seat, move and arguments (components by name). Its rule
    names the step, not the move: `event_view` shows other seats and spectators only that
    `seat` has chosen (`runtime.views`)."""
    return new_event(ply, SEALED, f"step {step}", source, seat, move, args, NO_ARGS, NO_ARGS, None, None, NO_OUTCOME, None)


def round_view(rnd: Round, viewer: int | str | None, encode_move: Any) -> dict[str, Any]:
    """The round as `viewer` sees it: `{seats, chosen, waiting}` (who has chosen, never what),
    plus `mine`, the viewer's own sealed move `{name, args}` when it has chosen one.
    `encode_move(move code, binding)` gives a move's JSON."""
    out: dict[str, Any] = {"seats": list(rnd.seats), "chosen": sorted(s for s, _mc, _b in rnd.chosen),
                           "waiting": list(rnd.waiting())}
    mine = next(((mc, b) for s, mc, b in rnd.chosen if s == viewer), None)
    if mine is not None:
        out["mine"] = encode_move(*mine)
    return out


def blank(d: dict[str, Any]) -> dict[str, Any]:
    """A sealed event's JSON as every seat but its own sees it: who chose, not what."""
    d["move"] = None
    d["args"] = {}
    return d
