"""Playing policies that work on any ruleset with no game knowledge (`ludex simulate --bot`).

- `random`: a uniformly random legal move.
- `greedy`: one-ply lookahead. Each legal move is tried on `samples` determinised copies of
  the game (`search.determinise.determinise`: hidden cards dealt again as the seat could imagine
  them) and valued by `search.values.position_value`: a won game before any unfinished one and a lost one
  after, then the rules' own estimate (`fn heuristic`, else `fn score`:
  `search.values.estimate_fn`) as the seat's lead over the best other seat; in a team game
  (a team outcome, an estimate of no seat) the team score or estimate itself. The best sum
  over the copies wins, ties broken at random.
- `ismcts`: information-set MCTS with re-determinisation (`search.ismcts`).
- `policy`, `policy:NAME`: a policy the ruleset writes as rule text (`search.policy`).
- `mcts`: plain UCT (UCB1, exploration `c`) over the engine's legal moves within a time budget
  per move; each iteration samples one determinisation for the seat to act, walks the tree by
  move (an information-set tree: a child exists only where its move is legal in the sampled
  world), expands one move, plays randomly to the end and backs up every seat's outcome.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Protocol

from search.determinise import determinise
from search.values import one_ply_values, outcome_value, position_value

BOTS = ("random", "greedy", "mcts", "ismcts", "policy")


def rules_score(game: Any, seat: int) -> float | None:
    """The rules' own running score of `seat`: `fn score(s: seat)`, else `fn score()` (a
    team's); None when the rules declare neither (or it is not a number)."""
    for args in ((seat,), ()):
        try:
            score = game.call("score", *args)
        except ValueError:  # no such function, or not with these parameters
            continue
        if isinstance(score, (int, float)) and not isinstance(score, bool):
            return float(score)
    return None


class Bot(Protocol):
    def choose(self, game: Any, seat: int, moves: list[Any]) -> Any:
        """One of `moves` (the legal moves of `seat` in `game`); never changes `game`."""


class RandomBot:
    """A uniformly random legal move."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Any, seat: int, moves: list[Any]) -> Any:
        return moves[self.rng.randrange(len(moves))]


class GreedyBot:
    """One-ply lookahead on `samples` determinisations (see the module docstring)."""

    def __init__(self, rng: random.Random, samples: int = 4) -> None:
        self.rng = rng
        self.samples = samples

    def value(self, game: Any, seat: int) -> tuple[float, float]:
        """What `game` (after one move) is worth to `seat`: `search.values.position_value`."""
        return position_value(game, seat)

    def choose(self, game: Any, seat: int, moves: list[Any]) -> Any:
        if len(moves) == 1:
            return moves[0]
        worlds = [determinise(game, seat, self.rng) for _ in range(self.samples)]
        best: list[Any] = []
        best_value = (-math.inf, -math.inf)
        for m, (decided, estimate) in zip(moves, one_ply_values(worlds, seat, moves, self.rng)):
            if decided != best_value[0]:
                better, equal = decided > best_value[0], False
            else:  # the same decided games: the estimates, equal within rounding
                tol = 1e-9 * max(1.0, abs(best_value[1]))
                better, equal = estimate > best_value[1] + tol, abs(estimate - best_value[1]) <= tol
            if better:
                best, best_value = [m], (decided, estimate)
            elif equal:
                best.append(m)
        return best[self.rng.randrange(len(best))]


class _Node:
    __slots__ = ("children", "visits", "totals")

    def __init__(self, seats: int) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.totals = [0.0] * seats


def _key(move: Any) -> str:
    return f"{move.name} {sorted(move.args.items())!r}"


class MctsBot:
    """Plain UCT with determinisation, `seconds` of thinking per move (at least `min_iterations`
    iterations), playouts cut after `max_plies` moves. With `iterations` set it runs exactly that
    many iterations per move and never reads the clock, so the same seed plays the same games on
    any machine, however loaded."""

    def __init__(self, rng: random.Random, seconds: float = 0.2, c: float = 1.4, min_iterations: int = 2,
                 max_plies: int = 500, iterations: int | None = None) -> None:
        self.rng, self.seconds, self.c = rng, seconds, c
        self.min_iterations, self.max_plies, self.iterations = min_iterations, max_plies, iterations

    def choose(self, game: Any, seat: int, moves: list[Any]) -> Any:
        if len(moves) == 1:
            return moves[0]
        n = game.st.nseats
        root = _Node(n)
        scale = [1e-9]  # largest reward seen: UCB's exploration term is scaled to it
        deadline = time.perf_counter() + self.seconds
        iterations = 0
        while (iterations < self.iterations if self.iterations is not None
               else iterations < self.min_iterations or time.perf_counter() < deadline):
            self._iterate(determinise(game, seat, self.rng), root, n, scale)
            iterations += 1
        keys = {_key(m): m for m in moves}
        ranked = [(child.visits, k) for k, child in root.children.items() if k in keys]
        return keys[max(ranked)[1]] if ranked else moves[self.rng.randrange(len(moves))]

    def _iterate(self, world: Any, root: _Node, n: int, scale: list[float]) -> None:
        path = [root]
        node = root
        plies = 0
        while not world.terminal and plies < self.max_plies:
            d = world.decision()
            if d.stuck or not d.seats:
                break
            actor = d.seats[0]
            legal = world.legal_moves(actor)
            untried = [m for m in legal if _key(m) not in node.children]
            if untried:
                move = untried[self.rng.randrange(len(untried))]
                child = node.children[_key(move)] = _Node(n)
                world.apply(actor, world.pick_at_random(actor, move, self.rng))
                path.append(child)
                plies += 1
                break
            log_n = math.log(max(node.visits, 1))

            def ucb(m: Any, parent: _Node = node, who: int = actor, log_n: float = log_n) -> float:
                ch = parent.children[_key(m)]
                return ch.totals[who] / ch.visits / scale[0] + self.c * math.sqrt(log_n / ch.visits)

            move = max(legal, key=ucb)
            node = node.children[_key(move)]
            world.apply(actor, world.pick_at_random(actor, move, self.rng))
            path.append(node)
            plies += 1
        while not world.terminal and plies < self.max_plies:  # random playout
            d = world.decision()
            if d.stuck or not d.seats:
                break
            legal = world.legal_moves(d.seats[0])
            world.apply(d.seats[0], world.pick_at_random(d.seats[0], legal[self.rng.randrange(len(legal))], self.rng))
            plies += 1
        rewards = [outcome_value(world.outcome if world.terminal else None, s) for s in range(n)]
        scale[0] = max(scale[0], *rewards)
        for nd in path:
            nd.visits += 1
            for s in range(n):
                nd.totals[s] += rewards[s]


def make_bot(name: str, rng: random.Random, seconds: float = 0.2, iterations: int | None = None,
             rollout: str | None = None) -> Bot:
    """The bot called `name`: `random`, `greedy`, `mcts`, `ismcts` (search.ismcts), `policy` (the
    ruleset's first policy) or `policy:NAME` (search.policy). `seconds` is a searching bot's
    thinking time per move, or `iterations` its fixed number of iterations per move
    (reproducible); `rollout` names the policy ISMCTS plays its playouts with.

    A bot is built from these plain values alone, so a worker process can build its own.
    Raises ValueError for an unknown name."""
    if name == "random":
        return RandomBot(rng)
    if name == "greedy":
        return GreedyBot(rng)
    if name == "mcts":
        return MctsBot(rng, seconds=seconds, iterations=iterations)
    if name == "ismcts":
        from search.ismcts import IsmctsBot

        return IsmctsBot(rng, seconds=seconds, iterations=iterations, rollout=rollout)
    if name == "policy" or name.startswith("policy:"):
        from search.policy import PolicyBot

        return PolicyBot(rng, name.partition(":")[2] or None)
    raise ValueError(f"no bot named {name!r}; bots: {', '.join(BOTS)}, policy:NAME")
