"""Every bundled ruleset, each variant alone, at every seat count it allows (the conformance cases)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dsl.loader import bundled_rulesets, load_ruleset
from ludex.rl.spec import random_positions

KUHN = str(Path(__file__).parents[2] / "ludex" / "rl" / "examples" / "kuhn_poker.ludex")
# a ruleset whose move picks two cards at once, at a simultaneous step (docs/language.md, "Picking several at once")
PASS_LEFT = str(Path(__file__).parent / "extra_rulesets" / "pass_left.ludex")


def cases() -> list[tuple[str, tuple[str, ...], int]]:
    out = []
    for b in bundled_rulesets():
        for variants in [(), *((v,) for v in b.variants)]:
            lo, hi = load_ruleset(b.name, variants).seats
            out.extend((b.name, variants, n) for n in range(lo, hi + 1))
    return out


def case_id(case: tuple[str, tuple[str, ...], int]) -> str:
    name, variants, n = case
    return "+".join((name, *variants)) + f"-{n}"


def positions(spec: Any, n: int, seed: int) -> list:
    """`n` positions of random games of `spec` (clones, each with a seat to act)."""
    return random_positions(spec, n, seed)


def random_plies(spec: Any, games: int, plies: int, rng: random.Random) -> Iterator[tuple[Any, int]]:
    """`(game, seat to act)` at every ply of `games` random games of `spec` (seeds 0, 1...,
    at most `plies` plies each, until one ends or sticks); once the caller has looked, a
    legal move of that seat chosen with `rng` is applied."""
    for k in range(games):
        g = spec.new_game(seed=k)
        for _ply in range(plies):
            if g.terminal or g.decision().stuck:
                break
            seat = g.decision().seats[0]
            yield g, seat
            moves = g.legal_moves(seat)
            g.apply(seat, g.pick_at_random(seat, moves[rng.randrange(len(moves))], rng))  # (a pick's offer: a pick)
