"""Interpreter benchmark (issue 2, "Tests and benchmark"): Ludex against a hand-written engine.

Random playouts (seeded, uniform choice among the legal moves) of Balloon Cup with the Ludex
interpreter and with the straightforward hand-written engine in bench/handwritten/balloon_cup.py,
timing legal-move generation plus apply. Prints games, plies, seconds, plies/s and playouts/s
for each and the ratio hand-written plies/s / Ludex plies/s (the target is at most 2); CPU
seconds too, since wall time on a shared machine includes other work.
Then the same Ludex figures for every bundled ruleset with its default seat count.

    .venv/bin/python bench/interpreter_bench.py [--games 200] [--other-games 50] [--seed 1]

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

from bench.handwritten import balloon_cup as hw  # noqa: E402
from dsl import bundled_rulesets, load_ruleset  # noqa: E402
from ludex.simulation import outcome_key  # noqa: E402
from runtime import Game  # noqa: E402

MAX_PLIES = 100_000


def run_ludex(rs, seats: int, games: int, seed: int) -> dict:
    rng = random.Random(seed)
    plies = 0
    outcomes: Counter[str] = Counter()
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        g = Game.new(rs, seats, {}, seed=f"{seed}:{i}")
        n = 0
        while not g.terminal and n < MAX_PLIES:
            d = g.decision()
            if d.stuck:
                break
            actor = d.seats[0]
            moves = g.legal_moves(actor)
            g.apply(actor, moves[rng.randrange(len(moves))])
            n += 1
        plies += n
        outcomes[outcome_key(g.outcome)] += 1
    return _figures(games, plies, time.perf_counter() - t0, time.process_time() - c0, outcomes)


def run_handwritten(games: int, seed: int) -> dict:
    rng = random.Random(seed)
    plies = 0
    outcomes: Counter[str] = Counter()
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        state = hw.new_game(f"{seed}:{i}")
        n = 0
        while not hw.is_terminal(state) and n < MAX_PLIES:
            moves = hw.legal_moves(state)
            hw.apply(state, moves[rng.randrange(len(moves))])
            n += 1
        plies += n
        outcomes[hw.outcome(state) or "cut at ply cap"] += 1
    return _figures(games, plies, time.perf_counter() - t0, time.process_time() - c0, outcomes)


def _figures(games: int, plies: int, seconds: float, cpu: float, outcomes: Counter) -> dict:
    return {
        "games": games,
        "plies": plies,
        "seconds": seconds,
        "plies_per_s": plies / seconds if seconds else 0.0,
        "playouts_per_s": games / seconds if seconds else 0.0,
        "cpu_seconds": cpu,
        "cpu_plies_per_s": plies / cpu if cpu else 0.0,
        "outcomes": dict(sorted(outcomes.items())),
    }


def show(label: str, f: dict) -> None:
    print(f"{label:<28} games {f['games']:>5}  plies {f['plies']:>8}  seconds {f['seconds']:>8.2f}  "
          f"plies/s {f['plies_per_s']:>9.0f}  playouts/s {f['playouts_per_s']:>7.2f}")
    print(f"{'':<28} cpu seconds {f['cpu_seconds']:.2f}  plies per cpu-s {f['cpu_plies_per_s']:.0f}  "
          f"outcomes {f['outcomes']}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="Balloon Cup games per engine")
    ap.add_argument("--other-games", type=int, default=50, help="games per bundled ruleset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3, help="alternating runs per engine; the best is shown")
    args = ap.parse_args(argv)

    print(f"Balloon Cup, {args.games} random playouts per engine, seed {args.seed}, "
          f"best of {args.repeats} alternating runs")
    rs = load_ruleset("balloon_cup")
    runs_lx, runs_hw = [], []
    for _ in range(args.repeats):  # alternate, and keep each engine's fastest run (least disturbed)
        runs_lx.append(run_ludex(rs, rs.seats[0], args.games, args.seed))
        runs_hw.append(run_handwritten(args.games, args.seed))
    lx = min(runs_lx, key=lambda f: f["cpu_seconds"])
    hf = min(runs_hw, key=lambda f: f["cpu_seconds"])
    show("Ludex interpreter", lx)
    show("hand-written Python", hf)
    ratio = hf["plies_per_s"] / lx["plies_per_s"] if lx["plies_per_s"] else float("inf")
    print(f"ratio hand-written plies/s / Ludex plies/s: {ratio:.2f}  (target <= 2)")
    if lx["cpu_plies_per_s"]:
        print(f"same ratio in CPU time (less sensitive to a busy machine): "
              f"{hf['cpu_plies_per_s'] / lx['cpu_plies_per_s']:.2f}")
    print()

    print(f"Ludex, every bundled ruleset, {args.other_games} random playouts each, seed {args.seed}")
    for info in bundled_rulesets():
        try:
            r = load_ruleset(info.path)
            f = run_ludex(r, r.seats[0], args.other_games, args.seed)
            show(f"{info.name} ({r.seats[0]} seats)", f)
        except Exception as e:  # a broken ruleset must not stop the bench
            print(f"{info.name:<28} failed: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
