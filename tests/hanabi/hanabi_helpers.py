"""Helpers for Hanabi tests: stacked decks, moves by slot, reading state, random playouts.

The deck is written out here from the rules (shared/rules/hanabi.md, H1, H15-H18), not read
from the ruleset, so a wrong card list in the ruleset makes the tests fail. Cards are given
as short codes (`R1`, `Y5`, `M3` multicolour sixth suit, `X2` rainbow) and become component
names (`red-1`, `red-1#2`, ...): the k-th copy of a code used gets the k-th name.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from typing import Any

from dsl import load_ruleset
from runtime import Game, Move

COLOURS = {"R": "red", "Y": "yellow", "G": "green", "W": "white", "B": "blue", "M": "multi", "X": "rainbow"}
LETTERS = {v: k for k, v in COLOURS.items()}
COPIES = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}
SIXTH = {
    "sixth_suit": ("M", False),
    "single_sixth_suit": ("M", True),
    "rainbow": ("X", False),
    "single_rainbow": ("X", True),
}


@functools.lru_cache(maxsize=None)
def ruleset(*variants: str):
    return load_ruleset("hanabi", list(variants))


def all_codes(variants: tuple[str, ...] = ()) -> list[str]:
    """Every card of the deck as codes, in a fixed order (H1; H15-H18 add a sixth suit)."""
    suits = [("R", False), ("Y", False), ("G", False), ("W", False), ("B", False)]
    suits += [SIXTH[v] for v in variants if v in SIXTH]
    return [f"{s}{r}" for s, single in suits for r in range(1, 6) for _ in range(1 if single else COPIES[r])]


def to_names(codes: list[str]) -> list[str]:
    seen: Counter[str] = Counter()
    out = []
    for code in codes:
        base = f"{COLOURS[code[0]]}-{code[1:]}"
        seen[base] += 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return out


def code(name: str) -> str:
    colour, rank = name.split("#")[0].split("-")
    return LETTERS[colour] + rank


def deck_order(hands: list[list[str]], then: list[str] = (), variants: tuple[str, ...] = ()) -> list[str]:
    """The setup shuffle's outcome: each seat's hand (whole hands are dealt from the top, seat 0
    first; each padded with unused cards), then `then` (the next draws, top first), then the rest."""
    size = 5 if len(hands) <= 3 else 4
    rest = all_codes(variants)
    for c in [c for h in hands for c in h] + list(then):
        rest.remove(c)  # raises when a code is used more often than the deck holds
    order = []
    for h in hands:
        order += list(h) + [rest.pop() for _ in range(size - len(h))]
    return to_names(order + list(then) + rest)


def new_game(
    hands: list[list[str]], then: list[str] = (), variants: tuple[str, ...] = (), options=None
) -> Game:
    """A game of len(hands) seats whose deck is stacked as `deck_order` says."""
    return Game.new(
        ruleset(*variants), len(hands), options or {}, seed=0, outcomes=[deck_order(hands, then, variants)]
    )


# ---- moves ----
def hint_colour(g: Game, target: int, colour: str):
    return g.apply(g.decision().seats[0], Move("hint_colour", {"target": target, "colour": colour}))


def hint_rank(g: Game, target: int, rank: int):
    return g.apply(g.decision().seats[0], Move("hint_rank", {"target": target, "rank": rank}))


def play(g: Game, slot: int):
    s = g.decision().seats[0]
    return g.apply(s, Move("play", {"k": f"hand[{s}]@{slot}"}))


def discard(g: Game, slot: int):
    s = g.decision().seats[0]
    return g.apply(s, Move("discard", {"k": f"hand[{s}]@{slot}"}))


# ---- reading state (full state, not a view) ----
def zref(g: Game, key: str):
    return next(z for z in g.st.zone_refs if z.key == key)


def codes(g: Game, key: str) -> list[str]:
    return [code(c.name) for c in g.st.zones[zref(g, key).idx]]


def var(g: Game, name: str) -> Any:
    return g.st.g[name]


def heights(g: Game) -> dict[str, int]:
    out: Counter[str] = Counter()
    for c in codes(g, "fireworks"):
        out[c[0]] += 1
    return dict(out)


def marks(g: Game, seat: int) -> list[list]:
    return [list(g.st.marks.get(c.id, ())) for c in g.st.zones[zref(g, f"hand[{seat}]").idx]]


# ---- direct position set-up (tests only; bypasses the rules) ----
def put(g: Game, names_: list[str], key: str) -> None:
    comps = {c.name: c for c in g.st.comps}
    g.st.move_items([comps[n] for n in names_], zref(g, key))


# ---- playouts ----
def strings(obj: Any) -> set[str]:
    """Every string anywhere in a JSON value (keys and values)."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            out.update(k for k in x if isinstance(k, str))
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out


def careful_move(g: Game, rng: random.Random, care: float = 1.0) -> Move:
    """A random legal move; with probability `care` it is not a misplay, so that random games
    also reach the last round (the policy reads the true state; it only steers)."""
    s = g.decision().seats[0]
    moves = g.legal_moves(s)
    if rng.random() < care:
        hand = g.st.zones[zref(g, f"hand[{s}]").idx]
        h = heights(g)

        def bad(m: Move) -> bool:
            if m.name != "play":
                return False
            k = hand[int(m.args["k"].rsplit("@", 1)[1])]
            return k.d["rank"] != h.get(LETTERS[k.d["colour"]], 0) + 1

        safe = [m for m in moves if not bad(m)]
        moves = safe or moves
    return moves[rng.randrange(len(moves))]


def dump(v: Any) -> str:
    return json.dumps(v, sort_keys=True)
