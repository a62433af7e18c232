"""Hanabi benchmark (issue 5, "Tests and benchmark"): random playouts/s and plies/s.

Seeded random playouts of `rulesets/hanabi` for 2 and 5 seats, timing game creation (setup
and the deal), legal-move generation and apply:

- `uniform`: a uniformly random legal move, as `ludex simulate` plays (these games mostly end
  on the third fuse after ~50 plies);
- `careful`: uniform among the moves that are not misplays, so games run to the last round
  (~100-150 plies), which is the length of real games.

Prints games, plies, wall and CPU seconds, playouts/s and plies/s (CPU time too, since wall
time on a shared machine includes other work). No assertions.

    .venv/bin/python bench/hanabi_bench.py [--games 300] [--seed 1] [--variant official]

Not part of the test suite; CI does not run it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dsl import load_ruleset  # noqa: E402
from runtime import Game  # noqa: E402


def _not_misplay(g: Game, seat: int, moves: list) -> list:
    """Moves of `seat` that are not plays of an unplayable card (reads the true state)."""
    hand = g.st.zones[g.st.g["hand"][seat].idx]
    height = Counter(c.d["colour"] for c in g.st.zones[g.st.g["fireworks"].idx])
    out = []
    for m in moves:
        if m.name == "play":
            k = hand[int(m.args["k"].rsplit("@", 1)[1])]
            if k.d["rank"] != height[k.d["colour"]] + 1:
                continue
        out.append(m)
    return out or moves


def run(rs, seats: int, games: int, seed: int, policy: str) -> dict:
    rng = random.Random(seed)
    plies = 0
    reasons: Counter[str] = Counter()
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        g = Game.new(rs, seats, {}, seed=f"{seed}:{i}")
        while not g.terminal:
            actor = g.decision().seats[0]
            moves = g.legal_moves(actor)
            if policy == "careful":
                moves = _not_misplay(g, actor, moves)
            g.apply(actor, moves[rng.randrange(len(moves))])
            plies += 1
        reasons[g.outcome["reason"]] += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"games": games, "plies": plies, "wall": wall, "cpu": cpu, "reasons": dict(reasons)}


def main() -> None:
    ap = argparse.ArgumentParser(description="Hanabi random playouts/s and plies/s")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", "-v", action="append", default=[])
    a = ap.parse_args()
    rs = load_ruleset("hanabi", a.variant)
    Game.new(rs, 2, seed=0)  # compile once outside the timing
    print(f"hanabi {' '.join('+' + v for v in a.variant)}  ({a.games} games each)")
    print(
        f"{'seats':>5} {'policy':>8} {'plies':>7} {'wall s':>7} {'playouts/s':>11} {'plies/s':>9} "
        f"{'cpu playouts/s':>15} {'cpu plies/s':>12}  ends"
    )
    for seats in (2, 5):
        for policy in ("uniform", "careful"):
            r = run(rs, seats, a.games, a.seed, policy)
            print(
                f"{seats:>5} {policy:>8} {r['plies']:>7} {r['wall']:>7.2f} {r['games'] / r['wall']:>11.1f} "
                f"{r['plies'] / r['wall']:>9.0f} {r['games'] / r['cpu']:>15.1f} {r['plies'] / r['cpu']:>12.0f}  "
                f"{r['reasons']}"
            )


if __name__ == "__main__":
    main()
