"""Shared by the simultaneous-step tests: the two games and a random player that picks."""

from __future__ import annotations

import random
from pathlib import Path

from dsl import load_ruleset
from runtime import Game

HERE = Path(__file__).parent
HEARTS = HERE / "hearts_mini.ludex"
RPS = HERE.parent.parent / "docs" / "examples" / "rock_paper_scissors.ludex"


def hearts():
    return load_ruleset(str(HEARTS))


def rps():
    return load_ruleset(str(RPS))


def play_randomly(g: Game, seed: int, max_plies: int = 400) -> Game:
    """Random legal moves (a random pick for an offer) by the first waiting seat, to the end."""
    rng = random.Random(seed)
    for _ in range(max_plies):
        if g.terminal:
            break
        d = g.decision()
        assert not d.stuck, f"stuck at {d.step}"
        seat = d.seats[rng.randrange(len(d.seats))]
        moves = g.legal_moves(seat)
        g.apply(seat, g.pick_at_random(seat, rng.choice(moves), rng))
    return g
