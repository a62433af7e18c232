"""Instructions per ply of random playouts, counted by valgrind: figures that do not move with
the machine's load, for comparing two checkouts when timings cannot tell a few percent apart
(issue 27's rounds of tuning gain 1.05-1.1x each; this shared machine's timings swing +-20%).

    .venv/bin/python bench/instructions.py [--against OTHER_CHECKOUT ...] [--only hanabi2 ...] [--games-scale 1.0]

For each case (ruleset, seats, games) and each checkout (this one first, then each `--against`),
two child processes run under `valgrind --tool=cachegrind --cache-sim=no` with
`PYTHONHASHSEED=0`, each importing only that checkout's code: one plays the case's seeded
random games (uniform random legal moves, game creation included, as `side_by_side.py` plays
them), the other plays none. The difference of their instruction counts divided by the plies
played is the figure: what a ply costs, game creation spread over it, without loading the rules
(each child reads the checkout's IR from a pickle the parent had that checkout make, so Lark's
parse is not counted). Prints per case each checkout's instructions per ply and its ratio to
this checkout's (below 1: fewer instructions than this checkout).

The count is the same run after run for the same code and inputs (Python's hash seed fixed);
time is not exactly proportional to it (cache misses, branch mispredictions), so confirm a
large difference with timings. Needs valgrind (Debian's package `valgrind`); about a minute
per case and checkout. Prints only; no assertions.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (label, ruleset, seats, games)
CASES = [
    ("balloon", "balloon_cup", 2, 20),
    ("battle", "battle_line", 2, 10),
    ("hanabi2", "hanabi", 2, 100),
    ("hanabi5", "hanabi", 5, 100),
    ("weather2", "weather_machine", 2, 8),
]

# the child: pickle a checkout's IR (`dump`), or play seeded random games of one (`play`)
CHILD = r"""
import pickle, random, sys
checkout, verb, name, path = sys.argv[1:5]
sys.path.insert(0, checkout)
if verb == "dump":
    from dsl import load_ruleset
    with open(path, "wb") as f:
        pickle.dump(load_ruleset(name), f)
    sys.exit(0)
from runtime import Game
seats, games = int(sys.argv[5]), int(sys.argv[6])
with open(path, "rb") as f:
    rs = pickle.load(f)
Game.new(rs, seats, {}, seed="warm")  # (compiling the rules: in both runs, not per ply)
rng, plies = random.Random(7), 0
for i in range(games):
    g = Game.new(rs, seats, {}, seed=f"bench:{i}")
    while not g.terminal:
        seat = g.decision().seats
        if not seat:
            break
        moves = g.legal_moves(seat[0])
        g.apply(seat[0], moves[rng.randrange(len(moves))])
        plies += 1
print("plies", plies)
"""

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _run(checkout: Path, args: list[str], count: bool) -> tuple[int, str]:
    """Run the child on `checkout` (under valgrind when `count`): (instructions, stdout)."""
    cmd = [sys.executable, "-c", CHILD, str(checkout), *args]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if count:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    m = _REFS.search(done.stderr)
    return (int(m.group(1).replace(",", "")) if m else 0), done.stdout


def per_ply(checkout: Path, name: str, seats: int, games: int, ir: Path) -> float:
    """Instructions per ply of `games` random games of `name` at `seats`, in `checkout` (its IR
    pickled at `ir`, made first if missing)."""
    if not ir.exists():
        _run(checkout, ["dump", name, str(ir)], count=False)
    base, _ = _run(checkout, ["play", name, str(ir), str(seats), "0"], count=True)
    total, out = _run(checkout, ["play", name, str(ir), str(seats), str(games)], count=True)
    plies = int(out.split()[-1])
    return (total - base) / plies


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", nargs="*", default=[], help="other checkouts to count beside this one")
    ap.add_argument("--only", nargs="*", default=[], help="cases among " + ", ".join(c[0] for c in CASES))
    ap.add_argument("--games-scale", type=float, default=1.0, help="multiply each case's games")
    a = ap.parse_args()
    checkouts = [ROOT, *(Path(p).resolve() for p in a.against)]
    with tempfile.TemporaryDirectory() as tmp:
        for label, name, seats, games in CASES:
            if a.only and label not in a.only:
                continue
            n = max(1, round(games * a.games_scale))
            figures = [per_ply(c, name, seats, n, Path(tmp) / f"{k}-{name}.pkl") for k, c in enumerate(checkouts)]
            line = "  ".join(f"{c.name}: {f:,.0f} ({f / figures[0]:.3f})" for c, f in zip(checkouts, figures))
            print(f"{label:<9} {n:>4} games  instructions per ply  {line}", flush=True)


if __name__ == "__main__":
    main()
