"""Helpers for Battle Line scenario tests: stacked decks, turns played through the API, and an
independent Python model of formations (written from shared/rules/battle_line.md, L6-L8,
L13, L14, not read from the ruleset) used to cross-check the rules text.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from dsl import load_ruleset
from runtime import Game, IllegalMove, Move

COLOURS = ["red", "orange", "yellow", "green", "blue", "purple"]
TROOPS = [f"{c}-{v}" for c in COLOURS for v in range(1, 11)]
TACTICS = ["alexander", "darius", "companion_cavalry", "shield_bearers", "fog", "mud", "scout", "redeploy",
           "deserter", "traitor"]
LEADERS = {"alexander", "darius"}
MORALE = LEADERS | {"companion_cavalry", "shield_bearers"}


@functools.lru_cache(maxsize=None)
def ruleset(*variants: str):
    return load_ruleset("battle_line", list(variants))


def new_game(hand0=(), hand1=(), top=(), tactics=(), variants=(), options=None, avoid=()) -> Game:
    """A game whose troop deck is stacked: seat 0 is dealt `hand0`, seat 1 `hand1` (each padded
    to seven with cards not named anywhere in the scenario), then the deck starts with `top`.
    The tactics deck starts with `tactics`, then the rest in the rulebook's order."""
    named = set(hand0) | set(hand1) | set(top) | set(avoid)
    spare = [c for c in reversed(TROOPS) if c not in named]
    h0 = list(hand0) + [spare.pop() for _ in range(7 - len(hand0))]
    h1 = list(hand1) + [spare.pop() for _ in range(7 - len(hand1))]
    used = set(h0) | set(h1) | set(top)
    order = h0 + h1 + list(top) + [c for c in TROOPS if c not in used]
    outcomes = [order]
    if "no_tactics" not in variants:
        outcomes.append(list(tactics) + [t for t in TACTICS if t not in tactics])
    return Game.new(ruleset(*variants), 2, options=options, seed=0, outcomes=outcomes)


def names(g: Game, key: str) -> list[str]:
    """The component names in a zone, by key (`hand[0]`, `flag3.side[1]`, `troop_deck`)."""
    z = next(z for z in g.st.zone_refs if z.key == key)
    return [c.name for c in g.st.zones[z.idx]]


def flag(g: Game, n: int):
    return g.st.g["flags"][n - 1]


def apply(g: Game, name: str, **args: Any) -> None:
    g.apply(g.st.actor, Move(name, args))


def finish_turn(g: Game, claims=(), draw: str = "troop") -> None:
    """After the card of the turn: claim the given flags (numbers), stop claiming, then draw."""
    for n in claims:
        apply(g, "claim", f=f"flag{n}")
    if g.terminal:
        return
    if g.st.step == "claims":
        apply(g, "end_claims")
    if g.st.step == "draw":
        apply(g, "draw_tactics" if draw == "tactics" and names(g, "tactics_deck") else "draw_troop")


def play(g: Game, card: str, n: int, claims=(), draw: str = "troop") -> None:
    """One whole turn of the seat to act: `card` to flag n (troop or morale tactic), claims, draw."""
    is_troop = card in TROOPS
    apply(g, "play_troop" if is_troop else "play_morale", card=card, f=f"flag{n}")
    finish_turn(g, claims, draw)


def refused(g: Game, name: str, **args: Any) -> str:
    """The reason a move is refused (fails the test when it is accepted)."""
    try:
        apply(g, name, **args)
    except IllegalMove as e:
        return e.reason
    raise AssertionError(f"{name} {args} was accepted")


def claimable(g: Game) -> set[int]:
    """Flag numbers the seat to act may claim now."""
    seat = g.st.actor
    return {int(m.args["f"][4:]) for m in g.legal_moves(seat) if m.name == "claim"}


# ---- an independent model of formations (L6-L8, L13, L14) ----
def parse(name: str) -> tuple[str, int]:
    c, v = name.rsplit("-", 1)
    return c, int(v)


def alternatives(name: str) -> list[tuple[str, int]]:
    if name in LEADERS:
        return [(c, v) for c in COLOURS for v in range(1, 11)]
    if name == "companion_cavalry":
        return [(c, 8) for c in COLOURS]
    if name == "shield_bearers":
        return [(c, v) for c in COLOURS for v in (1, 2, 3)]
    return [parse(name)]


def power(cards: list[tuple[str, int]], fog: bool) -> int:
    vs = sorted(v for _, v in cards)
    total = sum(vs)
    if fog:
        return total
    one_colour = len({c for c, _ in cards}) == 1
    run = all(b == a + 1 for a, b in zip(vs, vs[1:]))
    same = len(set(vs)) == 1
    kind = 5 if one_colour and run else 4 if same else 3 if one_colour else 2 if run else 1
    return 100 * kind + total


def strength(names_: list[str], fog: bool = False) -> int:
    return max(power(list(choice), fog) for choice in itertools.product(*(alternatives(n) for n in names_)))


def could_beat(theirs: list[str], pool: list[str], size: int, mine: int, fog: bool) -> list[str] | None:
    """Brute force: a completion of `theirs` from `pool` that scores more than `mine`, or None."""
    for extra in itertools.combinations(pool, size - len(theirs)):
        if strength(list(theirs) + list(extra), fog) > mine:
            return list(extra)
    return None


# ---- direct position set-up (for positions legal play reaches only after many plies) ----
def comp(g: Game, name: str):
    return next(c for c in g.st.comps if c.name == name)


def zone(g: Game, key: str):
    return next(z for z in g.st.zone_refs if z.key == key)


def put(g: Game, key: str, cards) -> None:
    """Move the named cards (from wherever they are) to the end of zone `key`."""
    g.st.move_items([comp(g, n) for n in cards], zone(g, key))


def side(g: Game, seat: int, n: int, cards, done_at: int | None = None) -> None:
    """Put cards on `seat`'s side of flag n; a complete side gets completion time `done_at`
    (default: now), as the rules' note_completion would record it."""
    put(g, f"flag{n}.side[{seat}]", cards)
    f = flag(g, n)
    need = 4 if any(c.name == "mud" for s in (0, 1) for c in g.st.zones[f.d["env"][s].idx]) else 3
    if len(names(g, f"flag{n}.side[{seat}]")) >= need:
        g.st.member(f, "done_at")[seat] = len(g.st.events) if done_at is None else done_at


def hand(g: Game, seat: int, cards) -> None:
    """Make `cards` part of seat's hand, sending as many of its other cards back to the deck
    bottom so the hand keeps its size (at most seven)."""
    put(g, f"hand[{seat}]", cards)
    extra = [c for c in names(g, f"hand[{seat}]") if c not in cards]
    k = len(names(g, f"hand[{seat}]")) - 7
    if k > 0:
        for c in extra[:k]:
            put(g, "tactics_deck" if c in TACTICS else "troop_deck", [c])
