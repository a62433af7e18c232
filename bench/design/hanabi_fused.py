"""Design study for issue 10: how fast can Ludex's contract be, with the compiler's output at its best?

This file is a hand-made sample of what the code generator would emit for Hanabi (the bundled
ruleset, 2-5 seats, base rules) under the design the issue asks about: a typed state layout
(components as small ints with their attributes in tuples, zones as lists of ints, variables
as slots) and one generated function per step (list the legal moves, apply one). It is not a
second engine and nothing in Ludex uses it: it answers "what share of the hand-written anchor
can an engine that keeps Ludex's per-ply contract reach at all?".

The contract it keeps, per ply, as Ludex does:
- every move is recorded as a `runtime.events.Event` with the same fields (rule, source, seat,
  move name, arguments by name, and for a card its mover cannot see the slot reference and
  `hidden_from`), the opening shuffle as a chance event;
- legal moves are listed in Ludex's order (hint_colour, hint_rank, discard, play) as tuples,
  and a move object is made only for the move picked;
- every card of a hinted hand keeps a public mark of the hint, touched or not (`record_hint`);
- the triggers (third fuse, all fireworks) are checked after each effect that changes what
  they read, and a state version counts every change.

It leaves out what a compiled Ludex would still do: the `Decision` object, the legal-move
cache per version, the execution budget, the option table, views. So its ratio is an upper
bound for that design.

    .venv/bin/python bench/design/hanabi_fused.py [--rounds 5] [--games 400] [--without marks|events ...]

Prints, per seat count, the sample's and the anchor's median playouts/s over alternating rounds
(CPU time, game creation included, uniform random legal moves) and the ratio sample / anchor.
`--without` drops parts of the contract to show what each costs. Prints only; not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
for anchors in (ROOT.parent / "shared" / "anchors", ROOT.parents[1] / "shared" / "anchors"):
    if anchors.is_dir():
        sys.path.insert(0, str(anchors))
        break

import hanabi as anchor  # noqa: E402  # ../shared/anchors/hanabi.py

from runtime.events import NO_ARGS, NO_OUTCOME, new_event  # noqa: E402

COLOURS = ("red", "yellow", "green", "white", "blue")
COPIES = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}
CARDS = [(c, r) for c in range(5) for r in range(1, 6) for _k in range(COPIES[r])]
COLOUR = tuple(c for c, _r in CARDS)  # card id -> colour index
RANK = tuple(r for _c, r in CARDS)  # card id -> rank


def _names() -> tuple[str, ...]:
    """Ludex's component names: `red-1`, `red-1#2`, `red-1#3` ..."""
    seen: dict[str, int] = {}
    out = []
    for c, r in CARDS:
        base = f"{COLOURS[c]}-{r}"
        k = seen[base] = seen.get(base, 0) + 1
        out.append(base if k == 1 else f"{base}#{k}")
    return tuple(out)


NAME = _names()
RULES = {0: ("move hint_colour", "hint_colour"), 1: ("move hint_rank", "hint_rank"),
         2: ("move discard", "discard"), 3: ("move play", "play")}
SOURCE = "rulesets/hanabi/game.ludex"


class State:
    """The typed layout: zones as lists of card ids, variables as slots."""

    __slots__ = ("deck", "hands", "fireworks", "height", "discard", "tokens", "fuses", "final_turns", "marks",
                 "actor", "version", "events", "terminal", "seats", "refs", "record_marks", "record_events")


class PickedMove:
    """The one move object a random playout makes per ply: its binding and the version it was listed in."""

    __slots__ = ("binding", "version")


def new_game(seats: int, rng: random.Random, marks: bool, events: bool) -> State:
    st = State()
    deck = list(range(len(CARDS)))
    rng.shuffle(deck)
    st.events = [new_event(0, "chance", "setup", SOURCE, None, None, NO_ARGS, NO_ARGS, NO_ARGS, "shuffle", "deck",
                           [NAME[i] for i in deck], None)]
    size = 5 if seats <= 3 else 4
    st.hands = [deck[s * size:(s + 1) * size] for s in range(seats)]
    st.deck = deck[seats * size:]
    st.fireworks, st.discard, st.height = [], [], [0] * len(COLOURS)
    st.tokens, st.fuses, st.final_turns = 8, 3, None
    st.marks, st.actor, st.version, st.terminal, st.seats = {}, 0, 1, False, seats
    # a hidden argument's slot reference and blind seats, one shared pair per slot (as Ludex keeps them)
    st.refs = [[({"k": f"hand[{s}]@{i}"}, {"k": [s]}) for i in range(6)] for s in range(seats)]
    st.record_marks, st.record_events = marks, events
    return st


def legal_moves(st: State) -> list[tuple]:
    """Step `turn`: hint_colour, hint_rank (H6, H7), discard (H8), play (H9), in declaration order."""
    out: list[tuple] = []
    actor = st.actor
    if st.tokens > 0:
        for t in range(st.seats):
            if t != actor:
                out += [(0, t, c) for c in range(len(COLOURS))]
        for t in range(st.seats):
            if t != actor:
                out += [(1, t, r) for r in range(1, 6)]
    hand = st.hands[actor]
    if st.tokens < 8:
        out += [(2, k) for k in hand]
    out += [(3, k) for k in hand]
    return out


def record_hint(st: State, target: int, kind: str, value: Any, touched: list[int]) -> None:
    marks = st.marks
    for k in st.hands[target]:
        m = (kind, value, k in touched)
        got = marks.get(k, ())
        if m not in got:
            st.version += 1
            marks[k] = got + (m,)


def triggers(st: State) -> None:
    if st.fuses == 0 or len(st.fireworks) == 5 * len(COLOURS):
        st.terminal = True


def finish_turn(st: State) -> None:
    if st.final_turns is not None:
        st.final_turns -= 1
        st.version += 1
        if st.final_turns == 0:
            st.terminal = True
    elif not st.deck:
        st.final_turns = st.seats
        st.version += 1


def record(st: State, op: int, args: dict, refs: dict, hidden: dict) -> None:
    if st.record_events:
        ev = st.events
        rule, name = RULES[op]
        ev.append(new_event(len(ev), "move", rule, SOURCE, st.actor, name, args, refs, hidden, None, None, NO_OUTCOME, None))


def apply(st: State, move: PickedMove) -> None:
    b = move.binding
    op, actor = b[0], st.actor
    st.version += 1
    if op < 2:  # a hint
        target, value = b[1], b[2]
        record(st, op, {"target": target, "colour" if op == 0 else "rank": COLOURS[value] if op == 0 else value},
               NO_ARGS, NO_ARGS)
        st.tokens -= 1
        st.version += 1
        attr = COLOUR if op == 0 else RANK
        if st.record_marks:
            record_hint(st, target, "colour" if op == 0 else "rank", value, [k for k in st.hands[target] if attr[k] == value])
    else:
        k = b[1]
        hand = st.hands[actor]
        i = hand.index(k)
        refs, hidden = st.refs[actor][i]
        record(st, op, {"k": NAME[k]}, refs, hidden)
        if op == 2:
            st.tokens += 1
            st.marks.pop(k, None)
            del hand[i]
            st.discard.append(k)
        else:
            c = COLOUR[k]
            if RANK[k] == st.height[c] + 1:
                st.marks.pop(k, None)
                del hand[i]
                st.fireworks.append(k)
                st.height[c] += 1
                if RANK[k] == 5 and st.tokens < 8:
                    st.tokens += 1
            else:
                st.fuses -= 1
                triggers(st)
                if st.terminal:
                    return
                st.marks.pop(k, None)
                del hand[i]
                st.discard.append(k)
            st.version += 2
            triggers(st)
            if st.terminal:
                return
        if st.deck:
            hand.append(st.deck.pop(0))
            st.version += 1
    finish_turn(st)
    if not st.terminal:
        triggers(st)
        st.actor = (actor + 1) % st.seats
        st.version += 1


def sample_playouts(seats: int, games: int, seed: int, marks: bool = True, events: bool = True) -> int:
    """`games` random playouts of the sample; returns the plies played."""
    rng = random.Random(seed)
    plies = 0
    for i in range(games):
        st = new_game(seats, random.Random(f"{seed}:{i}"), marks, events)
        while not st.terminal:
            moves = legal_moves(st)
            picked = PickedMove()
            picked.binding, picked.version = moves[rng.randrange(len(moves))], st.version
            apply(st, picked)
            plies += 1
    return plies


def anchor_playouts(seats: int, games: int, seed: int) -> int:
    rng = random.Random(seed)
    return sum(anchor.playout(seats, rng)[1] for _ in range(games))


def _timed(fn: Any, *args: Any, **kw: Any) -> float:
    t = time.process_time()
    fn(*args, **kw)
    return args[1] / (time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--without", action="append", default=[], choices=["marks", "events"])
    a = ap.parse_args()
    keep = {"marks": "marks" not in a.without, "events": "events" not in a.without}
    print(f"contract kept: {', '.join(k for k, v in keep.items() if v) or 'none'} (moves listed, one move object per ply, versions, triggers)")
    for seats in (2, 5):
        mine, theirs = [], []
        for r in range(a.rounds):
            mine.append(_timed(sample_playouts, seats, a.games, 100 + r, **keep))
            theirs.append(_timed(anchor_playouts, seats, a.games, 100 + r))
        m, t = statistics.median(mine), statistics.median(theirs)
        ratios = sorted(x / y for x, y in zip(mine, theirs))
        print(f"hanabi {seats} seats: sample {m:,.0f} playouts/s, anchor {t:,.0f}; sample / anchor {m / t:.2f} "
              f"(rounds {ratios[0]:.2f}-{ratios[-1]:.2f})")


if __name__ == "__main__":
    main()
