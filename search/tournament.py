"""Tournaments between bots: round robin with seats rotated, win rates with 95% intervals and
Bradley-Terry ratings (`ludex tournament`; its tables and intervals are drawn in
`ludex.tournament_commands`).

The work is split so that any runner can spread it: `schedule` lists one plain, picklable
`dict` per game, `play_game` plays one of them (a plain function a process pool or a Ray task
can map), and `bradley_terry` rates the bots from the results. A game's bots are built from their names in the
worker (`search.bots.make_bot`), each from its own seed, so the same schedule gives the same
games wherever it runs (with `iterations`; a time budget depends on the machine).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from typing import Any


def schedule(ruleset: str, bots: list[str], games: int, seed: int = 0, seats: int = 2, variants: tuple[str, ...] = (),
             options: dict[str, Any] | None = None, seconds: float = 0.2, iterations: int | None = None,
             rollout: str | None = None, max_plies: int = 5000) -> list[dict[str, Any]]:
    """One config per game: every pair of `bots` plays `games` games, the seats rotated between
    them game by game (with two seats, each bot moves first in half of them; with more, the two
    bots alternate round the table and the lineup turns by one seat each game).

    Raises ValueError with fewer than two bots or fewer than one game."""
    if len(bots) < 2:
        raise ValueError(f"a tournament needs two bots or more, {len(bots)} given")
    if games < 1:
        raise ValueError("a tournament needs at least one game per pairing")
    out = []
    for a, b in itertools.combinations(range(len(bots)), 2):
        for k in range(games):
            lineup = [bots[(a, b)[(k + s) % 2]] for s in range(seats)]
            out.append({"ruleset": ruleset, "variants": list(variants), "options": dict(options or {}), "seats": seats,
                        "lineup": lineup, "seed": f"{seed}:{a}:{b}:{k}", "seconds": seconds, "iterations": iterations,
                        "rollout": rollout, "max_plies": max_plies})
    return out


def play_game(config: dict[str, Any]) -> dict[str, Any]:
    """Play the game `config` describes (a dict from `schedule`); returns `{"lineup", "outcome",
    "plies", "think": {bot: [seconds, decisions]}, "decisions": {bot: [[seconds, iterations], ...]}}`
    (the outcome None when cut at `max_plies` or stuck). The decisions timed are those with more
    than one legal move; `iterations` is what a searching bot ran for that decision
    (`last_iterations`), None for a bot that does not search."""
    from dsl import load_ruleset
    from runtime import Game
    from search.bots import make_bot

    rs = load_ruleset(config["ruleset"], tuple(config["variants"]))
    rng = random.Random(config["seed"])
    players = [make_bot(name, random.Random(rng.getrandbits(64)), config["seconds"], config["iterations"], config["rollout"])
               for name in config["lineup"]]
    g = Game.new(rs, config["seats"], config["options"], seed=config["seed"])
    think: dict[str, list[float]] = {}
    decisions: dict[str, list[list[float | None]]] = {}
    plies = 0
    while not g.terminal and plies < config["max_plies"]:
        d = g.decision()
        if d.stuck:
            break
        seat = d.seats[0]
        moves = g.legal_moves(seat)
        t0 = time.perf_counter()
        move = players[seat].choose(g, seat, moves)
        if len(moves) > 1:
            took = time.perf_counter() - t0
            spent = think.setdefault(config["lineup"][seat], [0.0, 0])
            spent[0] += took
            spent[1] += 1
            decisions.setdefault(config["lineup"][seat], []).append([took, getattr(players[seat], "last_iterations", None)])
        g.apply(seat, move)
        plies += 1
    return {"lineup": config["lineup"], "outcome": g.outcome, "plies": plies, "think": think, "decisions": decisions}


def bradley_terry(bots: list[str], wins: dict[tuple[str, str], float], iterations: int = 200) -> dict[str, float]:
    """Bradley-Terry strengths fitted by the MM algorithm (Hunter 2004, "MM algorithms for
    generalized Bradley-Terry models", Ann. Statist. 32(1)), on the Elo scale: `400 log10(p)`,
    centred so the mean rating is 0. `wins[(a, b)]` is how often `a` beat `b` (draws as halves).

    A bot that never won, or never lost, has no finite maximum-likelihood strength; every pair
    gets a prior of half a win each way (a standard regularisation), so ratings stay finite."""
    w = {(a, b): wins.get((a, b), 0.0) + 0.5 for a in bots for b in bots if a != b}
    p = {a: 1.0 for a in bots}
    for _ in range(iterations):
        new = {}
        for a in bots:
            won = sum(w[(a, b)] for b in bots if b != a)
            denom = sum((w[(a, b)] + w[(b, a)]) / (p[a] + p[b]) for b in bots if b != a)
            new[a] = won / denom
        norm = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        p = {a: v / norm for a, v in new.items()}
    return {a: 400 * math.log10(p[a]) for a in bots}
