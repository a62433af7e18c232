"""Every bundled ruleset, each variant alone, at every seat count it allows (the conformance cases)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from dsl.loader import bundled_rulesets, load_ruleset

KUHN = str(Path(__file__).parents[2] / "ludex" / "rl" / "examples" / "kuhn_poker.ludex")


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
    rng = random.Random(seed)
    g = spec.new_game(seed=seed)
    out = []
    while len(out) < n:
        if g.terminal or g.decision().stuck:
            g = spec.new_game(seed=rng.getrandbits(32))
            continue
        out.append(g.clone())
        moves = g.legal_moves(g.st.actor)
        g.apply(g.st.actor, moves[rng.randrange(len(moves))])
    return out
