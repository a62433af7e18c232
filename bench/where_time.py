"""Where a random playout's time goes, by part of the engine (issue 10's "profile of where the
remaining time goes").

Plays seeded random games of each case of `bench/perf.py` under cProfile and sums each
function's own time (tottime) by the part of Ludex it belongs to: the code generated from the
ruleset (legal-move searches `M_*` and the step listers `S_*` made of them, trigger conditions
`T_*`, move and trigger effects `B_*`/`TB_*`, procedures `P_*`, ruleset functions `F_*`, and
the comprehensions inside them),
each runtime module, and C built-ins called from anywhere (list, dict, len, the RNG). cProfile
is deterministic: it charges a fixed cost per Python call, so parts made of many small calls
look larger than they are; read the shares as a ranking, and speed from `bench/perf.py`.

    .venv/bin/python bench/where_time.py [--games 20] [--only balloon battle ...]

Prints only; no assertions.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import pstats
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.perf import CASES, playout, selected  # noqa: E402
from dsl import load_ruleset  # noqa: E402
from runtime import Game  # noqa: E402

# generated function name prefix -> part (runtime/codegen.py names them so)
GENERATED = {"M": "generated: legal-move searches", "S": "generated: legal-move searches", "T": "generated: trigger conditions",
             "B": "generated: move effects", "TB": "generated: trigger effects",
             "P": "generated: procedures", "F": "generated: ruleset functions", "SETUP": "generated: setup"}
RUNTIME = {"game.py": "runtime/game.py: decisions, listings, apply, events' args, triggers, transitions, new games"}


def part(file: str, func: str) -> str:
    """The engine part a profiled function belongs to (cProfile's file name and function name)."""
    if file.startswith("<ludex"):
        prefix = func.split("_")[0] if "_" in func else func
        return GENERATED.get(prefix, "generated: comprehensions and lambdas")
    if file == "~":
        return "C built-ins (list, dict, len, getrandbits...)"
    path = Path(file)
    if path.parent.name == "runtime":
        return RUNTIME.get(path.name, f"runtime/{path.name}")
    if path.name == "perf.py":
        return "the playout loop (bench/perf.py)"
    if path.name == "random.py":
        return "random.py (the playout's own move choice, and seeding)"
    return "other"


def profile(name: str, seats: int, games: int) -> tuple[int, collections.Counter]:
    """Play `games` seeded random games under cProfile; returns (plies, {part: seconds})."""
    rs = load_ruleset(name, ())
    playout(Game.new(rs, seats, {}, seed="warm"), random.Random(0))  # compile outside the profile
    rng = random.Random(1)
    prof = cProfile.Profile()
    prof.enable()
    plies = sum(playout(Game.new(rs, seats, {}, seed=f"where:{i}"), rng) for i in range(games))
    prof.disable()
    parts: collections.Counter = collections.Counter()
    for (file, _line, func), (_cc, _nc, tottime, _ct, _callers) in pstats.Stats(prof).stats.items():  # type: ignore[attr-defined]
        parts[part(file, func)] += tottime
    return plies, parts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per case (x10 for Hanabi, /4 for Weather Machine)")
    ap.add_argument("--only", nargs="*", default=[], help=f"cases among {', '.join(c[0] for c in CASES)}")
    a = ap.parse_args()
    for label, name, seats, mult, _kind in selected(a.only):
        plies, parts = profile(name, seats, max(1, int(a.games * mult)))
        total = sum(parts.values())
        print(f"{label}: {name}, {seats} seats, {plies} plies (profiled: {total / plies * 1e6:.0f} us a ply)")
        for what, secs in parts.most_common():
            if secs / total >= 0.005:
                print(f"   {100 * secs / total:5.1f}%  {what}")


if __name__ == "__main__":
    main()
