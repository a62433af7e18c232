"""Instructions per ply of random playouts, counted by valgrind: figures that do not move with
the machine's load, for comparing two checkouts when timings cannot tell a few percent apart
(issue 27's rounds of tuning gain 1.05-1.1x each; this shared machine's timings swing +-20%).

    .venv/bin/python bench/instructions.py [--against OTHER_CHECKOUT ...] [--only hanabi2 ...] [--games-scale 1.0]
    .venv/bin/python bench/instructions.py --anchors [DIR] [--only ...]   # against the hand-written engines

For each case (ruleset, seats, games) and each checkout (this one first, then each `--against`),
two child processes run under `valgrind --tool=cachegrind --cache-sim=no` with
`PYTHONHASHSEED=0`, each importing only that checkout's code: one plays the case's seeded
random games (uniform random legal moves, game creation included, as `side_by_side.py` plays
them), the other plays none. The difference of their instruction counts divided by the plies
played is the figure: what a ply costs, game creation spread over it, without loading the rules
(each child reads the checkout's IR from a pickle the parent had that checkout make, so Lark's
parse is not counted). Prints per case each checkout's instructions per ply and its ratio to
this checkout's (below 1: fewer instructions than this checkout).

With `--anchors` (default `../shared/anchors`), the cases that have a hand-written anchor engine
(Balloon Cup, Battle Line, Hanabi) are also counted on the anchor, played as
`../shared/anchors/side_by_side.py` plays it (its own seeds: other games of the same rules, as
there), and each checkout's instructions per game are printed beside the anchor's, with the ratio
Ludex / anchor: the load-free counterpart of side_by_side's hand/Ludex playouts/s ratio (issue
27's target is 1.0 or less).

The count moves little from run to run for the same code and inputs (Python's hash seed fixed;
differences of up to ~0.4% were seen, so read none under ~0.5%), whatever the machine's load;
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

# the anchor child: play seeded random games of a hand-written engine as side_by_side.py does
ANCHOR_CHILD = r"""
import random, sys
anchors, kind, seats, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, anchors)
rng, plies, seed = random.Random(100), 0, 100
if kind == "balloon":
    import balloon_cup as bc
    for i in range(games):
        g = bc.Game.new(seed * 1_000_003 + i, {}, record=True)
        while g.current_seat() is not None:
            g.apply(rng.choice(g.legal_moves()))
            plies += 1
elif kind == "battle":
    import battle_line as bl
    for i in range(games):
        plies += bl.random_playout(bl.Game.new(seed + i, {}), rng)
else:
    import hanabi as hh
    for _ in range(games):
        plies += hh.playout(seats, rng)[1]
print("plies", plies)
"""

# case label -> the anchor engine that plays it (side_by_side.py's kinds)
ANCHOR_KIND = {"balloon": "balloon", "battle": "battle", "hanabi2": "hanabi", "hanabi5": "hanabi"}

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _run(checkout: Path, args: list[str], count: bool, child: str = CHILD) -> tuple[int, str]:
    """Run `child` with `checkout` and `args` (under valgrind when `count`): (instructions, stdout)."""
    cmd = [sys.executable, "-c", child, str(checkout), *args]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if count:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    m = _REFS.search(done.stderr)
    return (int(m.group(1).replace(",", "")) if m else 0), done.stdout


def counted(checkout: Path, name: str, seats: int, games: int, ir: Path) -> tuple[float, float]:
    """(instructions per ply, per game) of `games` random games of `name` at `seats`, in
    `checkout` (its IR pickled at `ir`, made first if missing)."""
    if not ir.exists():
        _run(checkout, ["dump", name, str(ir)], count=False)
    base, _ = _run(checkout, ["play", name, str(ir), str(seats), "0"], count=True)
    total, out = _run(checkout, ["play", name, str(ir), str(seats), str(games)], count=True)
    plies = int(out.split()[-1])
    return (total - base) / plies, (total - base) / games


def anchor_counted(anchors: Path, kind: str, seats: int, games: int) -> tuple[float, float]:
    """(instructions per ply, per game) of `games` random playouts of the hand-written engine
    `kind` (side_by_side.py's: balloon, battle, hanabi) at `seats`, from `anchors`."""
    base, _ = _run(anchors, [kind, str(seats), "0"], count=True, child=ANCHOR_CHILD)
    total, out = _run(anchors, [kind, str(seats), str(games)], count=True, child=ANCHOR_CHILD)
    plies = int(out.split()[-1])
    return (total - base) / plies, (total - base) / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", nargs="*", default=[], help="other checkouts to count beside this one")
    ap.add_argument("--only", nargs="*", default=[], help="cases among " + ", ".join(c[0] for c in CASES))
    ap.add_argument("--games-scale", type=float, default=1.0, help="multiply each case's games")
    ap.add_argument("--anchors", nargs="?", const=str(ROOT.parent / "shared" / "anchors"), default=None,
                    help="count the hand-written anchor engines too (default folder ../shared/anchors)")
    a = ap.parse_args()
    checkouts = [ROOT, *(Path(p).resolve() for p in a.against)]
    anchors = Path(a.anchors).resolve() if a.anchors else None
    if anchors is not None and not (anchors / "hanabi.py").exists():
        ap.error(f"no anchor engines in {anchors}")
    with tempfile.TemporaryDirectory() as tmp:
        for label, name, seats, games in CASES:
            if a.only and label not in a.only:
                continue
            n = max(1, round(games * a.games_scale))
            figures = [counted(c, name, seats, n, Path(tmp) / f"{k}-{name}.pkl") for k, c in enumerate(checkouts)]
            line = "  ".join(f"{c.name}: {f:,.0f} ({f / figures[0][0]:.3f})" for c, (f, _g) in zip(checkouts, figures))
            print(f"{label:<9} {n:>4} games  instructions per ply  {line}", flush=True)
            kind = ANCHOR_KIND.get(label)
            if anchors is not None and kind is not None:
                hand_ply, hand_game = anchor_counted(anchors, kind, seats, n)
                line = "  ".join(f"{c.name}: {g:,.0f} ({g / hand_game:.2f})" for c, (_f, g) in zip(checkouts, figures))
                print(f"{'':<9} {n:>4} games  instructions per game  anchor: {hand_game:,.0f} "
                      f"({hand_ply:,.0f} a ply)  {line}  (in parentheses: Ludex / anchor)", flush=True)


if __name__ == "__main__":
    main()
