"""Weather Machine random playouts, this checkout side by side with another (issue 27's target
"Weather Machine playouts/s >= 3x today's, measured side by side against today's build").

One worker process per checkout, each importing only its own checkout's code (its folder first
on sys.path) and loading the ruleset once. The parent then alternates batches between them
(base, this, base, this ... with each checkout leading in turn, so none always runs last on a
warm machine): each batch plays G seeded games of uniform random legal moves, game
creation included, and reports the CPU time (process_time) the worker spent in them. Cases:
2 and 4 seats, and the solo variant (1 seat against the automaton). Prints each side's median
playouts/s and plies/s, and the median of the per-round ratios checkout / base. Both sides play the
same seeds with the same choice stream, so equal plies say the two engines played the same
games (a difference is reported: it means the rules' behaviour changed between checkouts).

    .venv/bin/python bench/wm_side_by_side.py --base ../wm-base [--this DIR ...] [--rounds 5] [--games 10] [--only 2 4 solo]

Several `--this` checkouts (today's main and a branch, say) are measured in the same rounds.

The base checkout needs only its source tree (it runs under this checkout's interpreter).
Prints only; no assertions. The machine is shared: read the ratios, and the load printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# label -> (variants, seats, games per batch as a multiple of --games)
CASES = {"2": ((), 2, 1.0), "4": ((), 4, 0.5), "solo": (("solo",), 1, 1.0)}


def worker(checkout: str) -> None:
    """Serve batches on stdin/stdout: a line `label games seed` -> a JSON line
    {"cpu": seconds, "plies": n}. Imports only the given checkout's code."""
    sys.path.insert(0, os.path.abspath(checkout))
    import random
    import time

    from dsl import load_ruleset
    from runtime import Game

    rulesets = {}

    def play(label: str, games: int, seed: int) -> tuple[float, int]:
        variants, seats, _ = CASES[label]
        if label not in rulesets:
            rulesets[label] = load_ruleset("weather_machine", variants)
        rs = rulesets[label]
        rng = random.Random(seed)
        plies = 0
        t0 = time.process_time()
        for i in range(games):
            g = Game.new(rs, seats, {}, seed=f"{seed}:{i}")
            while not g.terminal:
                seat = g.decision().seats[0]
                moves = g.legal_moves(seat)
                g.apply(seat, moves[rng.randrange(len(moves))])
                plies += 1
        return time.process_time() - t0, plies

    for line in sys.stdin:
        label, games, seed = line.split()
        cpu, plies = play(label, int(games), int(seed))
        print(json.dumps({"cpu": cpu, "plies": plies}), flush=True)


class Worker:
    """A worker process for one checkout (this file, run with --worker CHECKOUT)."""

    def __init__(self, checkout: Path) -> None:
        env = dict(os.environ, PYTHONPATH="")
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker", str(checkout)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=str(checkout))

    def run(self, label: str, games: int, seed: int) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{label} {games} {seed}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"worker exited ({self.proc.wait()})")
        return json.loads(line)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default=str(ROOT.parent / "wm-base"), help="the checkout to compare against")
    ap.add_argument("--this", nargs="+", default=[str(ROOT)], help="the checkouts measured (default: this one)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=10, help="games per batch (4 seats: half)")
    ap.add_argument("--only", nargs="*", default=list(CASES), choices=list(CASES))
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.worker)
        return
    paths = {"base": Path(a.base).resolve()} | {f"this{i}" if len(a.this) > 1 else "this": Path(p).resolve()
                                                 for i, p in enumerate(a.this, 1)}
    sides = {name: Worker(path) for name, path in paths.items()}
    names = list(sides)
    for name, path in paths.items():
        print(f"{name}: {path}")
    print(f"load before: {open('/proc/loadavg').read().split()[:3]}")
    head = f"{'case':<6} {'checkout':<8} {'playouts/s':>11} {'plies/s':>9} {'ratio':>6}  per round (checkout / base)"
    print(head)
    try:
        for label in a.only:
            games = max(1, round(a.games * CASES[label][2]))
            for side in sides.values():
                side.run(label, 1, 999)  # warm-up: ruleset load and first game out of the timing
            res: dict[str, list[dict]] = {n: [] for n in names}
            for r in range(a.rounds):
                k = r % len(names)
                for name in names[k:] + names[:k]:  # each checkout leads in turn
                    res[name].append(sides[name].run(label, games, 100 + r))
            for name in names:
                v = res[name]
                ratios = [b["cpu"] / t["cpu"] for b, t in zip(res["base"], v)]
                same = all(b["plies"] == t["plies"] for b, t in zip(res["base"], v))
                rate = statistics.median(games / x["cpu"] for x in v)
                plies = statistics.median(x["plies"] / x["cpu"] for x in v)
                tail = "" if name == "base" else f"{statistics.median(ratios):>6.2f}  {' '.join(f'{x:.2f}' for x in ratios)}"
                print(f"{label:<6} {name:<8} {rate:>11,.1f} {plies:>9,.0f} {tail}"
                      + ("" if same else "  (plies differ: not the same games)"), flush=True)
    finally:
        for side in sides.values():
            side.close()
    print(f"load after: {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()
