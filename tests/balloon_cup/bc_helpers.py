"""Helpers for Balloon Cup scenario tests: stacked decks, zone reading, and (clearly named)
direct position set-up for situations that legal play reaches only after many plies.

Card values are written out here from the rules (shared/rules/balloon_cup.md, B1), not read
from the ruleset, so a wrong card list in the ruleset makes the tests fail.
"""

from __future__ import annotations

import functools
from typing import Any

from dsl import load_ruleset
from runtime import Game, Move

COLOURS = ["red", "yellow", "green", "blue", "gray"]
VALUES = {
    "red": list(range(1, 14)),
    "yellow": [1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13],
    "green": [1, 2, 4, 6, 7, 8, 10, 12, 13],
    "blue": [1, 3, 5, 7, 9, 11, 13],
    "gray": [1, 4, 7, 10, 13],
}
ALL_CARDS = [f"{c}-{v}" for c in COLOURS for v in VALUES[c]]
PRICE = {"gray": 3, "blue": 4, "green": 5, "yellow": 6, "red": 7}


@functools.lru_cache(maxsize=None)
def ruleset(*variants: str):
    return load_ruleset("balloon_cup", list(variants))


class CubeNamer:
    """Hands out cube names in the engine's naming scheme (`red`, `red#2`, ...)."""

    def __init__(self, used: set[str] | None = None) -> None:
        self.used = set(used or ())

    def __call__(self, colour: str) -> str:
        k = 1
        while True:
            name = colour if k == 1 else f"{colour}#{k}"
            if name not in self.used:
                self.used.add(name)
                return name
            k += 1


DEFAULT_TILES = (["red"], ["yellow", "green"], ["blue", "gray", "red"], ["red", "yellow", "green", "blue"])


def setup_outcomes(tiles=DEFAULT_TILES, hand0=(), hand1=(), deck=(), namer: CubeNamer | None = None) -> list[list[str]]:
    """Chance outcomes for setup: the cube draws of tiles 1-4 (colours, in order), then the
    deck shuffle arranged so that seat 0 is dealt `hand0`, seat 1 `hand1` (each padded to 8
    with unused cards) and the supply starts with `deck` (top first)."""
    namer = namer or CubeNamer()
    out: list[list[str]] = []
    for colours in tiles:
        for c in colours:
            out.append([namer(c)])
    named = list(hand0) + list(hand1) + list(deck)
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [c for c in ALL_CARDS if c not in named]
    h0 = list(hand0) + [rest.pop(0) for _ in range(8 - len(hand0))]
    h1 = list(hand1) + [rest.pop(0) for _ in range(8 - len(hand1))]
    out.append(h0 + h1 + list(deck) + rest)
    return out


def new_game(tiles=DEFAULT_TILES, hand0=(), hand1=(), deck=(), more=(), options=None, variants=(), seed=0) -> Game:
    """A game with a stacked deck (see `setup_outcomes`). `more` are later chance outcomes:
    a colour name (`"gray"`) stands for the next unused cube of that colour, a list is raw."""
    namer = CubeNamer()
    outs = setup_outcomes(tiles, hand0, hand1, deck, namer)
    outs += [[namer(o)] if isinstance(o, str) else list(o) for o in more]
    return Game.new(ruleset(*variants), 2, options or {}, seed=seed, outcomes=outs)


# ---- reading state ----
def zref(g: Game, key: str):
    return next(z for z in g.st.zone_refs if z.key == key)


def names(g: Game, key: str) -> list[str]:
    """Component names in a zone (top first), read from the full state (not a view)."""
    return [c.name for c in g.st.zones[zref(g, key).idx]]


def colours(g: Game, key: str) -> list[str]:
    return sorted(c.d["colour"] for c in g.st.zones[zref(g, key).idx])


def tile(g: Game, n: int) -> dict[str, Any]:
    return g.view(None)["entities"][f"tile{n}"]


def place(g: Game, seat: int, card: str, t: int, side: int):
    return g.apply(seat, Move("place", {"card": card, "t": f"tile{t}", "s": side}))


def move(g: Game, seat: int, name: str, **args):
    return g.apply(seat, Move(name, args))


def legal_names(g: Game, seat: int) -> set[str]:
    return {m.name for m in g.legal_moves(seat)}


# ---- direct position set-up (tests only; bypasses the rules) ----
def comp(g: Game, name: str):
    return next(c for c in g.st.comps if c.name == name)


def put(g: Game, comp_names: list[str], key: str) -> None:
    """Move named components into a zone directly, bypassing the rules (test set-up only)."""
    g.st.move_items([comp(g, n) for n in comp_names], zref(g, key))


def total_components(g: Game) -> dict[str, int]:
    counts: dict[str, int] = {}
    for z in g.st.zone_refs:
        for c in g.st.zones[z.idx]:
            counts[c.kind] = counts.get(c.kind, 0) + 1
    return counts


def force_cubes(g: Game, colour: str, n: int, key: str) -> list[str]:
    """Move `n` cubes of `colour` from the bag to zone `key` directly (test set-up only).
    Takes the highest-numbered cubes, so stacked refills (lowest unused names) stay valid."""
    bag = [c for c in g.st.zones[zref(g, "bag").idx] if c.d["colour"] == colour]
    bag.sort(key=lambda c: int(c.name.split("#")[1]) if "#" in c.name else 1)
    chosen = [c.name for c in bag[len(bag) - n:]]
    assert len(chosen) == n, f"the bag holds only {len(bag)} {colour} cubes"
    put(g, chosen, key)
    return chosen


def trophy_name(g: Game, colour: str) -> str:
    return next(c.name for c in g.st.comps if c.kind == "trophy" and c.d["colour"] == colour)


def force_trophy(g: Game, colour: str, seat: int) -> None:
    """Give `seat` the trophy of `colour` directly (test set-up only)."""
    put(g, [trophy_name(g, colour)], f"trophies_won[{seat}]")


def force_remove_tile(g: Game, n: int) -> None:
    """Take tile n out of play directly, its cubes to the box (test set-up only)."""
    put(g, names(g, f"tile{n}.cubes"), "box")
    g.st.remove_entity(next(e for e in g.st.entities if e.name == f"tile{n}"))
