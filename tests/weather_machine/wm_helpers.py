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


def play(game: Game, name: str, **args: Any) -> None:
    """Apply the legal move `name` whose arguments include `args` (the first such one)."""
    seat = game.decision().seats[0]
    for m in game.legal_moves(seat):
        if m.name == name and all(m.args.get(k) == v for k, v in args.items()):
            game.apply(seat, m)
            return
    legal = sorted({(m.name, str(m.args)) for m in game.legal_moves(seat) if not m.name.startswith("t_")})
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


def playout(g: Game, rng: random.Random, max_plies: int = 5000, each=None, pass_weight: float = 0.15) -> Game:
    """Play `g` to its end with `busy_move`; `each(g)` runs after every move. Fails when the
    decision is stuck or the game is cut at `max_plies`."""
    plies = 0
    while not g.terminal:
        d = g.decision()
        assert not d.stuck, f"stuck at {step(g)}"
        g.apply(d.seats[0], busy_move(g, rng, pass_weight))
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


PLACES = ["supplier", "government", "lab", "rnd"]


def vouchers(g: Game, s: int) -> dict[str, int]:
    return dict(var(g, "vouchers")[s])


def site_on(g: Game, place: str) -> list[int]:
    """Who is on each action space of a location, left (A) to right: a seat, -1 (free), 4
    (Lativ), 5 (the 2-seat blocking marker)."""
    return g.view(None)["entities"][f"site{PLACES.index(place) + 1}"]["on"]


def branch(g: Game, w: str) -> dict[str, Any]:
    return g.view(None)["entities"][f"branch{WEATHERS.index(w) + 1}"]


def bzone(g: Game, w: str, z: str) -> list[dict[str, Any]]:
    return g.view(None)["zones"][f"branch{WEATHERS.index(w) + 1}.{z}"].get("components", [])


def comps(g: Game, key: str) -> list[dict[str, Any]]:
    return g.view(None)["zones"][key].get("components", [])


def end_turn(g: Game) -> None:
    """Finish the acting seat's turn with the least it may do: skip step 1, go to the first free
    space anywhere, end the turn."""
    if step(g) == "turn_start":
        play(g, "skip_start")
    if step(g) == "place_scientist":
        g.apply(actor(g), moves(g, "go")[0] if moves(g, "go") else moves(g, "go_supplier")[0])
    if step(g) == "act":
        play(g, "done_actions")


def end_round(g: Game) -> None:
    """Every seat that has not played this round ends its turn (phases B and C follow)."""
    r = var(g, "round")
    while var(g, "round") == r and not g.terminal and step(g) != "final_actions":
        end_turn(g)


def finish(g: Game) -> None:
    """Play passing turns and final actions to the end of the game."""
    while not g.terminal:
        if step(g) == "final_actions":
            play(g, "final_done")
        else:
            end_turn(g)
