"""Helpers for Weather Machine tests: games with stacked setup chance, moves by name, reading
the view, and random playouts whose policy prefers actions over passing (so short runs reach
the actions; uniform random play mostly passes)."""

from __future__ import annotations

import functools
import random
from typing import Any

from dsl import load_ruleset
from runtime import Game, Move

WEATHERS = ["rain", "wind", "sun", "fog", "snow"]
PASSES = {"skip_start", "done_actions", "supply_done", "final_done"}


@functools.lru_cache(maxsize=None)
def ruleset(*variants: str):
    return load_ruleset("weather_machine", list(variants))


def new_game(seats: int = 2, seed: int = 0, outcomes=None, options=None) -> Game:
    return Game.new(ruleset(), seats, options or {}, seed=seed, outcomes=outcomes or [])


def var(g: Game, name: str) -> Any:
    return g.view(None)["vars"][name]


def zone(g: Game, key: str) -> list[str]:
    return [c["name"] for c in g.view(None)["zones"][key].get("components", [])]


def count(g: Game, key: str) -> int:
    return g.view(None)["zones"][key]["count"]


def moves(g: Game, name: str | None = None) -> list[Move]:
    seat = g.decision().seats[0]
    return [m for m in g.legal_moves(seat) if name is None or m.name == name]


def play(g: Game, name: str, **args: Any) -> None:
    """Apply the legal move `name` whose arguments include `args` (the first such one)."""
    seat = g.decision().seats[0]
    for m in g.legal_moves(seat):
        if m.name == name and all(m.args.get(k) == v for k, v in args.items()):
            g.apply(seat, m)
            return
    legal = sorted({(m.name, str(m.args)) for m in g.legal_moves(seat)})
    raise AssertionError(f"{name} {args} is not legal for seat {seat}; legal: {legal[:40]}")


def step(g: Game) -> str:
    return g.view(None)["step"]


def actor(g: Game) -> int:
    return g.decision().seats[0]


def busy_move(g: Game, rng: random.Random, pass_weight: float = 0.15) -> Move:
    """A random legal move; passing moves are chosen with probability `pass_weight` when an
    action is also legal."""
    ms = g.legal_moves(actor(g))
    acts = [m for m in ms if m.name not in PASSES]
    passes = [m for m in ms if m.name in PASSES]
    if acts and (not passes or rng.random() > pass_weight):
        return rng.choice(acts)
    return rng.choice(passes or ms)


def playout(g: Game, rng: random.Random, max_plies: int = 5000, each=None) -> Game:
    """Play `g` to its end with `busy_move`; `each(g)` runs after every move. Fails when the
    decision is stuck or the game is cut at `max_plies`."""
    plies = 0
    while not g.terminal:
        d = g.decision()
        assert not d.stuck, f"stuck at {step(g)}"
        g.apply(d.seats[0], busy_move(g, rng))
        plies += 1
        assert plies < max_plies, "cut at the ply cap"
        if each is not None:
            each(g)
    return g


HOOKS = str(__import__("pathlib").Path(__file__).with_name("hooks") / "arrange.ludex")


def arranged_game(seats: int = 2, seed: int = 0, outcomes=None) -> Game:
    """A game with the test hooks (hooks/arrange.ludex) at the first seat's first turn: the
    supply round is passed by everyone."""
    g = Game.new(ruleset(HOOKS), seats, {}, seed=seed, outcomes=outcomes or [])
    while step(g) == "supply_round":
        play(g, "supply_done")
    return g


def const(g: Game, name: str) -> Any:
    """A const's evaluated value (placeholders included), so tests follow the ruleset's numbers
    instead of repeating them."""
    return g.st.g[name]
