"""Every bundled ruleset, each variant alone, at every seat count it allows (the conformance cases)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dsl.loader import bundled_rulesets, load_ruleset
from ludex.rl.spec import random_positions

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
    return random_positions(spec, n, seed)
