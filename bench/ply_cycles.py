"""Reference cycles a ply leaves for the garbage collector (the fixed work around the generated
code of the rules should leave none: every object a ply makes is freed by its reference count).

Plays 40 seeded random plies of each ruleset with the cyclic collector off, then prints how many
objects `gc.collect()` finds unreachable. 0 is the expected figure; more means some engine object
(a listing, a move, an event) points back at its holder and costs a collector pass per ply.
Moved here from tests/engine/test_ply_work.py (issue 32: a test of internals only).

    .venv/bin/python bench/ply_cycles.py [--plies 40] [--seed 3]

Not part of the test suite; CI does not run it.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dsl import load_ruleset  # noqa: E402
from runtime import Game  # noqa: E402


def cycles(name: str, plies: int, seed: int) -> tuple[int, int]:
    """`(plies played, objects the cyclic collector freed)` for `plies` random plies of `name`."""
    g = Game.new(load_ruleset(name), 2, {}, seed=seed)
    rng = random.Random(1)
    gc.collect()
    gc.disable()
    played = 0
    try:
        for _ in range(plies):
            if g.terminal:
                break
            seat = g.decision().seats[0]
            moves = g.legal_moves(seat)
            g.apply(seat, moves[rng.randrange(len(moves))])
            played += 1
        return played, gc.collect()
    finally:
        gc.enable()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    print(f"{'ruleset':12} {'plies':>5} {'freed by gc':>11}")
    for name in ("hanabi", "balloon_cup", "battle_line"):
        played, freed = cycles(name, args.plies, args.seed)
        print(f"{name:12} {played:5} {freed:11}")


if __name__ == "__main__":
    main()
