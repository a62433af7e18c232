"""Issue 27, levels (b) and (c): `hanabi_fused.py`'s sample with the Cython annotations a code
generator could emit.

The same steps, the same contract and the same games as `hanabi_fused.py` (same events, marks,
versions, plies for the same seeds: `hanabi_fused_native.py` checks it), written in Cython's
pure-Python mode with only what a generator can derive mechanically from the IR's types:

- the state is a `cython.cclass` whose fields carry the IR's types (readable from Python):
  counters and seats as `cython.int`, flags as `cython.bint`, zones as `list`, marks as `dict`;
  an optional int (`final_turns`) becomes a C int with -1 for none;
- component ids, seats and move kinds are `cython.int` locals; the attribute columns stay tuples
  indexed by a C int; sizes known from the ruleset (5 colours, ranks 1-5, 8 tokens) are literals;
- the steps a caller uses (`new_game`, `legal_moves`, `apply`, `sample_playouts`) are
  `cython.ccall` (C calls inside the module, still callable from Python), the helpers `cython.cfunc`.

Events are still `runtime.events.Event` objects built by `new_event`, the random generator still
`random.Random`. Marks are a dict of tuples as in the sample (level b); with `MARK_BITS` set to
True (level c, the issue's "marks as bitsets") they are one bitset per card in an int array,
read back as the same tuples by `marks_of`.

Imported as plain Python it runs too (the typed fallback; needs the `cython` package for its
decorators), so it is measured both ways by `hanabi_fused_native.py`, which also builds it. Prints
nothing itself; not used by Ludex.
"""

from __future__ import annotations

import array
import random

import cython
import hanabi_fused as sample  # bench/design/hanabi_fused.py: puts the repo root and anchors on sys.path

from runtime.events import NO_ARGS, NO_OUTCOME, new_event

COLOURS = sample.COLOURS
COLOUR = sample.COLOUR  # card id -> colour index
RANK = sample.RANK  # card id -> rank
NAME = sample.NAME
RULES = sample.RULES
SOURCE = sample.SOURCE
NCARDS = cython.declare(cython.int, len(sample.CARDS))
# Level (c): marks as one bitset per card (bit kind * 10 + value index * 2 + touched) instead of a
# dict of tuples. hanabi_fused_native.py builds a copy with this set to True.
MARK_BITS = cython.declare(cython.bint, False)


@cython.cclass
class State:
    """The typed layout: zones as lists of card ids, variables as C ints."""

    deck = cython.declare(list, visibility="readonly")
    hands = cython.declare(list, visibility="readonly")
    fireworks = cython.declare(list, visibility="readonly")
    height = cython.declare(list, visibility="readonly")
    discard = cython.declare(list, visibility="readonly")
    tokens = cython.declare(cython.int, visibility="readonly")
    fuses = cython.declare(cython.int, visibility="readonly")
    final_turns = cython.declare(cython.int, visibility="readonly")  # -1: the last round has not started
    marks = cython.declare(dict, visibility="readonly")
    bits: cython.int[:]  # MARK_BITS: card id -> its marks as bits
    actor = cython.declare(cython.int, visibility="readonly")
    version = cython.declare(cython.long, visibility="readonly")
    events = cython.declare(list, visibility="readonly")
    terminal = cython.declare(cython.bint, visibility="readonly")
    seats = cython.declare(cython.int, visibility="readonly")
    refs = cython.declare(list, visibility="readonly")
    record_marks = cython.declare(cython.bint, visibility="readonly")
    record_events = cython.declare(cython.bint, visibility="readonly")


@cython.cclass
class PickedMove:
    """The one move object a random playout makes per ply: its binding and the version it was listed in."""

    binding = cython.declare(tuple, visibility="public")
    version = cython.declare(cython.long, visibility="public")


@cython.ccall
@cython.locals(seats=cython.int, marks=cython.bint, events=cython.bint, size=cython.int, s=cython.int)
def new_game(seats, rng, marks, events) -> State:
    st: State = State()
    deck: list = list(range(NCARDS))
    rng.shuffle(deck)
    st.events = [new_event(0, "chance", "setup", SOURCE, None, None, NO_ARGS, NO_ARGS, NO_ARGS, "shuffle", "deck",
                           [NAME[i] for i in deck], None)]
    size = 5 if seats <= 3 else 4
    st.hands = [deck[s * size:(s + 1) * size] for s in range(seats)]
    st.deck = deck[seats * size:]
    st.fireworks, st.discard, st.height = [], [], [0] * 5
    st.tokens, st.fuses, st.final_turns = 8, 3, -1
    if MARK_BITS:
        st.bits = array.array("i", bytes(4 * NCARDS))
    st.marks, st.actor, st.version, st.terminal, st.seats = {}, 0, 1, False, seats
    st.refs = [[({"k": f"hand[{s}]@{i}"}, {"k": [s]}) for i in range(6)] for s in range(seats)]
    st.record_marks, st.record_events = marks, events
    return st


@cython.ccall
@cython.locals(actor=cython.int, t=cython.int, c=cython.int, hand=list, out=list)
def legal_moves(st: State) -> list:
    """Step `turn`: hint_colour, hint_rank (H6, H7), discard (H8), play (H9), in declaration order."""
    out = []
    actor = st.actor
    if st.tokens > 0:
        for t in range(st.seats):
            if t != actor:
                for c in range(5):
                    out.append((0, t, c))
        for t in range(st.seats):
            if t != actor:
                for c in range(1, 6):
                    out.append((1, t, c))
    hand = st.hands[actor]
    if st.tokens < 8:
        for k in hand:
            out.append((2, k))
    for k in hand:
        out.append((3, k))
    return out


@cython.cfunc
@cython.locals(target=cython.int, marks=dict, got=tuple)
def record_hint(st: State, target, kind: str, value, touched: list) -> cython.void:
    marks = st.marks
    for k in st.hands[target]:
        m = (kind, value, k in touched)
        got = marks.get(k, ())
        if m not in got:
            st.version += 1
            marks[k] = got + (m,)


@cython.cfunc
@cython.locals(op=cython.int, target=cython.int, value=cython.int, attr=tuple, k=cython.int, base=cython.int,
               touched=cython.int, bit=cython.int)
def record_hint_bits(st: State, op, target, value, attr) -> cython.void:
    """record_hint with MARK_BITS: the same marks and version steps, as bits."""
    base = op * 10 + (value - op) * 2  # colours count from 0, ranks from 1
    for k in st.hands[target]:
        touched = attr[k] == value
        bit = 1 << (base + touched)
        if not st.bits[k] & bit:
            st.version += 1
            st.bits[k] |= bit


@cython.cfunc
@cython.inline
@cython.locals(k=cython.int)
def unmark(st: State, k) -> cython.void:
    if MARK_BITS:
        st.bits[k] = 0
    else:
        st.marks.pop(k, None)


@cython.ccall
@cython.locals(k=cython.int, b=cython.int, kind=cython.int, v=cython.int)
def marks_of(st: State) -> dict:
    """The marks as sets: card id -> {(kind, value, touched)}, whichever way they are kept."""
    if not MARK_BITS:
        return {k: set(got) for k, got in st.marks.items()}
    out: dict = {}
    for k in range(NCARDS):
        for b in range(20):
            if st.bits[k] >> b & 1:
                kind, v = b // 10, b % 10 // 2
                out.setdefault(k, set()).add(("colour" if kind == 0 else "rank", v + kind, bool(b & 1)))
    return out


@cython.cfunc
@cython.inline
def triggers(st: State) -> cython.void:
    if st.fuses == 0 or len(st.fireworks) == 25:
        st.terminal = True


@cython.cfunc
def finish_turn(st: State) -> cython.void:
    if st.final_turns >= 0:
        st.final_turns -= 1
        st.version += 1
        if st.final_turns == 0:
            st.terminal = True
    elif not st.deck:
        st.final_turns = st.seats
        st.version += 1


@cython.cfunc
@cython.locals(op=cython.int, ev=list)
def record(st: State, op, args: dict, refs: dict, hidden: dict) -> cython.void:
    if st.record_events:
        ev = st.events
        rule, name = RULES[op]
        ev.append(new_event(len(ev), "move", rule, SOURCE, st.actor, name, args, refs, hidden, None, None, NO_OUTCOME, None))


@cython.ccall
@cython.locals(b=tuple, op=cython.int, actor=cython.int, target=cython.int, value=cython.int, attr=tuple,
               k=cython.int, c=cython.int, i=cython.Py_ssize_t, hand=list, pair=tuple)
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
        if st.record_marks and MARK_BITS:
            record_hint_bits(st, op, target, value, attr)
        elif st.record_marks:
            record_hint(st, target, "colour" if op == 0 else "rank", value,
                        [x for x in st.hands[target] if attr[x] == value])
    else:
        k = b[1]
        hand = st.hands[actor]
        i = hand.index(k)
        pair = st.refs[actor][i]
        record(st, op, {"k": NAME[k]}, pair[0], pair[1])
        if op == 2:
            st.tokens += 1
            unmark(st, k)
            del hand[i]
            st.discard.append(k)
        else:
            c = COLOUR[k]
            if RANK[k] == st.height[c] + 1:
                unmark(st, k)
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
                unmark(st, k)
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


@cython.ccall
@cython.locals(seats=cython.int, games=cython.int, seed=cython.int, marks=cython.bint, events=cython.bint,
               plies=cython.long, i=cython.int, moves=list)
def sample_playouts(seats, games, seed, marks=True, events=True) -> cython.long:
    """`games` random playouts of the sample; returns the plies played."""
    rng = random.Random(seed)
    plies = 0
    for i in range(games):
        st: State = new_game(seats, random.Random(f"{seed}:{i}"), marks, events)
        while not st.terminal:
            moves = legal_moves(st)
            picked: PickedMove = PickedMove()
            picked.binding, picked.version = moves[rng.randrange(len(moves))], st.version
            apply(st, picked)
            plies += 1
    return plies
