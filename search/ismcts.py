"""Information-set Monte Carlo tree search (ISMCTS), single observer, with re-determinisation.

Cowling, Powley & Whitehouse (2012), "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2):
each iteration samples one world the searching seat could be in (`search.determinise`, which
respects what the marks say), walks one tree whose edges are moves as their mover sees them (a
component the mover cannot see is its slot, `hand[0]@2`, so "play my third card" is one edge
in every world), and selects with UCB1 over availability counts (a child's exploration term
counts the iterations in which its move was legal, not the parent's visits).

At a node where another seat acts, the world is determinised again for that seat before it
chooses, and the iteration continues in that world (Goodman 2019, "Re-determinizing MCTS in
Hanabi", IEEE CoG): its move is chosen and valued where its own hidden cards are what it could
imagine, so the search never lets a seat act on its true hidden cards, which it cannot see.

Progressive widening (Coulom 2007; Chaslot et al. 2008) bounds the children of a node to
`widen * visits ** 0.5` (at least one), so a step with hundreds of legal moves is still searched
below its first ply. At the root the moves are widened best first (progressive unpruning,
Chaslot et al. 2008): ranked once a decision by their value one ply on in one determinisation
(`search.values.one_ply_values`, the greedy bot's valuation: a win first, then the seat's lead
on the rules' estimate); below the root, in random order. Measured at 100 iterations a decision
against random (loaded machine): Weather Machine mean CP 24 -> 64 over 10 games. Under a team
estimate (`fn heuristic()`) the root is widened in random order: Hanabi at 150 iterations, 8
games, scored 11.1 so, 9.9 ordered on one world and 9.6 on four (within noise, but no gain). Playouts follow a rule-text policy (`rollout`, search.policy) or random
moves, and are cut after `rollout_plies` plies (by default 50 with a policy; with random moves 0
when the ruleset declares a team estimate `fn heuristic()`, else 10: in a cooperative game
random moves mostly destroy what the team built, so the estimate of the position itself is worth
more, while in a competitive one a few random moves still tell who is ahead; measured: Balloon
Cup at 0.1 s a move won 8 of 10 games against random with 10 random plies, 6 of 10 with none);
a cut playout is valued by the ruleset's
`fn heuristic` (per seat `heuristic(s)`, or `heuristic()` for the team), else its `fn score`:
in a team game the value itself, in a competitive one 1 for the leading seat, 0.5 for a tie and
0 behind. A finished game is valued by its outcome (`search.bots.outcome_value`).

The budget is `seconds` of wall-clock per decision. Iterations start until the deadline; the
clock is read at every step of an iteration (each ply of the tree walk and of the playout), and
an iteration still running at the deadline is dropped at its next step, nothing backed up (the
first iteration always completes). So a decision ends one step, the leaf's valuation and the
final choice past its deadline; the median of the last 16 decisions' overshoot past their own
deadlines is taken off the next one's (at most half the budget), so decisions centre on the
budget. A median, not a mean: a loaded machine's scheduler adds rare long overruns, which a
mean would answer by ending every other decision early. Or exactly `iterations` iterations:
then the same seed plays the same games on any machine.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import deque
from typing import Any

from search.determinise import determinise
from search.policy import choose as policy_choose
from search.values import leaf_values, one_ply_values, outcome_values


class _Node:
    __slots__ = ("avail", "children", "order", "totals", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * seats
        self.order: dict[Any, int] | None = None  # the root's: each edge's rank one ply on (best first)


def edge(move: Any) -> Any:
    """The tree edge of a listed move: its name and arguments as the mover sees them (a tuple;
    the arguments' text when one of them is a list)."""
    key = (move.name, *move.args.values())
    try:
        hash(key)
    except TypeError:
        return repr(key)
    return key


def _team_heuristic(game: Any) -> bool:
    """Whether the ruleset declares a team estimate, `fn heuristic()` (no seat)."""
    return any(f.name == "heuristic" and not f.params for f in game.ruleset.fns)


def _order(worlds: list[Any], seat: int, moves: list[Any], rng: random.Random) -> dict[Any, int]:
    """Each of `moves`' edges ranked by its value one ply on, summed over `worlds`
    (determinisations for `seat`; `search.values.one_ply_values`), best first, equals in random
    order."""
    shuffled = list(moves)
    rng.shuffle(shuffled)
    values = one_ply_values(worlds, seat, shuffled, rng)
    ranked = sorted(range(len(shuffled)), key=lambda i: values[i], reverse=True)
    return {edge(shuffled[i]): r for r, i in enumerate(ranked)}


class IsmctsBot:
    """Single-observer ISMCTS with re-determinisation at other seats' nodes (module docstring).

    `c` is UCB1's exploration constant, on rewards scaled to the largest seen; `widen` the
    progressive widening factor; `ordered` the number of determinisations the root's moves are
    valued on one ply on, to be widened best first (0: in random order; None: 1, or 0 under a
    team estimate, module docstring); `rollout` the name of a ruleset policy for playouts (None: random
    moves). Reproducible under `rng`'s seed when `iterations` is given."""

    def __init__(self, rng: random.Random, seconds: float = 0.2, iterations: int | None = None, c: float = 0.7,
                 rollout: str | None = None, rollout_plies: int | None = None, widen: float = 2.0,
                 redeterminise: bool = True, ordered: int | None = None) -> None:
        self.rng, self.seconds, self.iterations, self.c, self.ordered = rng, seconds, iterations, c, ordered
        self.rollout, self.rollout_plies, self.widen, self.redeterminise = rollout, rollout_plies, widen, redeterminise
        self.last_iterations = 0
        self._overshoot: deque[float] = deque(maxlen=16)  # seconds recent decisions ran past their deadlines

    def choose(self, game: Any, seat: int, moves: list[Any]) -> Any:
        if len(moves) == 1:
            return moves[0]
        n = game.st.nseats
        root = _Node(n)
        self._plies = self.rollout_plies
        if self._plies is None:  # a policy's playouts are worth playing on; random ones only without an estimate
            self._plies = 50 if self.rollout is not None else (0 if _team_heuristic(game) else 10)
        scale = [1e-9]  # the largest reward seen: UCB's exploration term is scaled to it
        start = time.perf_counter()
        # aim before the budget by what recent decisions ran past their deadlines (module docstring)
        early = min(statistics.median(self._overshoot), self.seconds / 2) if self._overshoot else 0.0
        deadline = start + self.seconds - early
        done = 0
        now = start
        self._deadline = math.inf  # the first iteration always completes
        worlds = self.ordered if self.ordered is not None else (0 if _team_heuristic(game) else 1)
        if worlds:
            root.order = _order([determinise(game, seat, self.rng) for _ in range(worlds)], seat, moves, self.rng)
        while done < self.iterations if self.iterations is not None else (done < 1 or now < deadline):
            if self._iterate(determinise(game, seat, self.rng), seat, root, n, scale):
                done += 1
            now = time.perf_counter()
            if self.iterations is None:
                self._deadline = deadline
        self.last_iterations = done
        keys = {edge(m): m for m in moves}
        ranked = [(child.visits, child.totals[seat] / max(child.visits, 1), k) for k, child in root.children.items() if k in keys]
        move = keys[max(ranked, key=lambda r: (r[0], r[1]))[2]] if ranked else moves[self.rng.randrange(len(moves))]
        if self.iterations is None:
            self._overshoot.append(time.perf_counter() - deadline)
        return move

    def _select(self, world: Any, actor: int, node: _Node) -> tuple[Any, _Node]:
        """The move `actor` plays at `node` in `world` (UCB1 on availability counts, progressive
        widening), and its child (made when new)."""
        options = [(edge(m), m) for m in world.legal_moves(actor)]
        limit = max(1, int(self.widen * math.sqrt(node.visits + 1)))
        untried = [(k, m) for k, m in options if k not in node.children]
        if untried and len(node.children) < limit:
            order = node.order
            if order is not None:  # the root: the best untried move one ply on
                k, m = min(untried, key=lambda km: order.get(km[0], len(order)))
            else:
                k, m = untried[self.rng.randrange(len(untried))]
            child = node.children[k] = _Node(len(node.totals))
            for k2, _m in options:
                ch = node.children.get(k2)
                if ch is not None:
                    ch.avail += 1
            return m, child
        best, best_value = None, -math.inf
        scale = self._scale[0]
        for k, m in options:
            ch = node.children.get(k)
            if ch is None:
                continue
            ch.avail += 1
            v = ch.totals[actor] / ch.visits / scale + self.c * math.sqrt(math.log(ch.avail) / ch.visits)
            if v > best_value:
                best, best_value = (m, ch), v
        if best is None:  # widening closed, and none of the tried moves is legal here
            k, m = untried[self.rng.randrange(len(untried))]
            child = node.children[k] = _Node(len(node.totals))
            child.avail += 1
            return m, child
        return best

    def _iterate(self, world: Any, seat: int, root: _Node, n: int, scale: list[float]) -> bool:
        """One iteration from `world`; False when it was dropped at the deadline (nothing backed up)."""
        self._scale = scale
        path = [root]
        node = root
        clock = time.perf_counter
        while not world.terminal:
            if clock() > self._deadline:
                return False
            d = world.decision()
            if d.stuck or not d.seats:
                break
            actor = d.seats[0]
            if self.redeterminise and actor != seat:
                # the seat to act chooses, and the iteration goes on, in a world of its own
                # information set: it never acts on its true hidden cards (Goodman 2019)
                world = determinise(world, actor, self.rng)
            move, child = self._select(world, actor, node)
            world.apply(actor, move)
            path.append(child)
            if child.visits == 0:
                break
            node = child
        plies = 0
        while not world.terminal and plies < (self._plies or 0):
            if clock() > self._deadline:
                return False
            d = world.decision()
            if d.stuck or not d.seats:
                break
            legal = world.legal_moves(d.seats[0])
            move = policy_choose(world, legal, self.rollout) if self.rollout is not None else legal[self.rng.randrange(len(legal))]
            world.apply(d.seats[0], move)
            plies += 1
        rewards = outcome_values(world.outcome, n) if world.terminal else leaf_values(world, n)
        scale[0] = max(scale[0], *rewards)
        for nd in path:
            nd.visits += 1
            for s in range(n):
                nd.totals[s] += rewards[s]
        return True
