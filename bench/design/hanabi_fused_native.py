"""Issue 27: the typed design's Hanabi sample built with Cython, against the hand-written anchor.

Builds, in a temporary folder under /tmp (never beside the sources: an extension module beside
its .py would shadow it), with Cython in pure-Python mode and the C compiler setuptools picks
(CPython's own flags: -O3 -fwrapv):

    anchor-cy   ../shared/anchors/hanabi.py as it is (what the anchor gains compiled untyped)
    sample-cy   level (a): bench/design/hanabi_fused.py as it is (Cython's defaults: its
                annotations typed where Cython understands them)
    typed-cy    level (b): bench/design/hanabi_fused_typed.py, the same sample with the Cython
                annotations a code generator could emit (cclass state, C int locals, cfunc steps)
    bits-cy     level (c): (b) with its hint marks kept as one bitset per card (the issue's
                "marks as bitsets"; the copy built has MARK_BITS set to True)

checks that every sample copy plays the same games as the pure sample (same events, marks as
sets, versions, zones, for seeds of every seat count 2-5) and every anchor copy the same plies
and scores, then measures playouts/s (CPU time, game creation included, uniform random legal
moves) of these and of the pure modules (anchor, sample-py = hanabi_fused.py, typed-py and
bits-py = the (b) and (c) text imported as Python) over `--rounds` rounds, the order rotating.

    .venv/bin/python bench/design/hanabi_fused_native.py [--rounds 5] [--games 2000] [--seats 2 5]
        [--without marks|events ...] [--keep DIR]

Prints the Cython and Python versions, each build's wall and CPU time (the Cython pass and the C
compiler together), the check's result, one line per round, then per seat count each copy's
median playouts/s, the median (and range) of its per-round ratio to the pure anchor of the same
round, and the same against anchor-cy. `--without` drops parts of the contract from the samples,
as in hanabi_fused.py. Needs Cython in the venv (`pip install cython`) and a C compiler. Prints
only; not a test.

Measured 2026-11-28 (Cython 3.3.1, gcc 12.2, CPython 3.11.7, the shared 2-core machine, load
1-2; its speed drifted between rounds, so single rounds range widely). Median of 5 alternating
rounds, copy / pure anchor, the range over the sittings (6 sittings of 1,000-3,000 games; bits
in the 5 after it was added), and against anchor-cy in the 3 sittings that printed it:

                 2 seats      5 seats      / anchor-cy: 2 seats, 5 seats
    anchor-cy    1.59-1.70    1.70-1.90    1
    sample-py    0.57-0.62    0.59-0.67
    sample-cy    0.74-0.93    0.87-1.04    0.43-0.48, 0.52-0.54    level (a)
    typed-py     0.56-0.69    0.72-0.84                            (b) run as Python
    typed-cy     1.06-1.15    1.31-1.59    0.65-0.71, 0.76-0.85    level (b)
    bits-py      0.63-0.67    0.77-0.88                            (c) run as Python
    bits-cy      1.24-1.33    1.57-1.78    0.75-0.86, 0.85-0.95    level (c)

Without parts of the contract (one sitting each; copy / anchor at 2 / 5 seats, in parentheses
copy / anchor-cy): without marks typed-cy 1.37 / 1.78 (0.80 / 0.95); without events typed-cy
1.25 / 1.64, bits-cy 1.47 / 1.87 (0.99 / 1.07); without either typed-cy 1.58 / 2.03 (0.98 /
1.07). So the typed layout itself, compiled, runs as fast as the compiled anchor; what keeps it
below that is the contract's Python objects (an `Event` per ply, the marks, the per-game seeded
`Random`).

Build times (wall; CPU within 1.2 s of it; one module at a time): anchor 6-8 s (87 lines),
sample 11-15 s (259), typed and bits 13-19 s each (277; the memoryview for the bits adds C).
`perf` on bits-cy at 2 seats: 80% of the time in libpython (object allocation, the eval loop
running random.py's shuffle and randrange and `new_event`, 17%), 8% in the module's own code,
7% in _random, `random_seed` (the per-game `Random("seed:i")` of Ludex's seeded chance, which the
anchor does not pay) 5.6%; on anchor-cy 85% libpython, 10% its own code. Further typing of the
module (C arrays for zones and attribute columns) can act only on its 8%: bits-cy built with
boundscheck, wraparound and initializedcheck off ran 1.01x bits-cy (7 alternating rounds).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hanabi_fused as sample  # noqa: E402  # puts the repo root and ../shared/anchors on sys.path

anchor = sample.anchor
TYPED = HERE / "hanabi_fused_typed.py"
BUILDS = {"anchor-cy": Path(anchor.__file__), "sample-cy": HERE / "hanabi_fused.py", "typed-cy": TYPED, "bits-cy": TYPED}
MODULE = {"anchor-cy": "hanabi_anchor_cy", "sample-cy": "hanabi_fused_cy", "typed-cy": "hanabi_fused_typed_cy",
          "bits-cy": "hanabi_fused_bits_cy"}
# level (c) is level (b) with its marks kept as bitsets: the typed sample with this line changed
BITS_OFF, BITS_ON = "MARK_BITS = cython.declare(cython.bint, False)", "MARK_BITS = cython.declare(cython.bint, True)"


def source(name: str, src: Path) -> str:
    """The text built as `name`: `src`, with MARK_BITS on for the bits copies."""
    text = src.read_text()
    if name.startswith("bits"):
        if text.count(BITS_OFF) != 1:
            sys.exit(f"{src.name}: no line {BITS_OFF!r} to turn level (c) on")
        text = text.replace(BITS_OFF, BITS_ON)
    return text


def build(name: str, src: Path, folder: Path) -> str:
    """Cythonize and compile `src` as module MODULE[name] in `folder`; returns a line of build times."""
    mod = MODULE[name]
    text = source(name, src)
    (folder / f"{mod}.py").write_text(text)
    script = ("from setuptools import setup\nfrom Cython.Build import cythonize\n"
              f"setup(ext_modules=cythonize([{mod + '.py'!r}], force=True, quiet=True,"
              " compiler_directives={'language_level': 3}), script_args=['build_ext', '--inplace'])\n")
    t, cpu0 = time.time(), os.times().children_user + os.times().children_system
    r = subprocess.run([sys.executable, "-c", script], cwd=folder, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"build of {src} failed:\n{r.stderr[-3000:]}")
    cpu = os.times().children_user + os.times().children_system - cpu0
    lines = text.count("\n")
    return f"built {name} ({src.name}, {lines} lines): wall {time.time() - t:.1f}s, CPU {cpu:.1f}s"


def play(mod: Any, seats: int, seed: int, i: int) -> tuple:
    """One game of a sample copy, its moves picked as sample_playouts picks them; what two copies
    playing it must agree on."""
    rng = random.Random(seed)
    st = mod.new_game(seats, random.Random(f"{seed}:{i}"), True, True)
    while not st.terminal:
        moves = mod.legal_moves(st)
        picked = mod.PickedMove()
        picked.binding, picked.version = moves[rng.randrange(len(moves))], st.version
        mod.apply(st, picked)
    marks = mod.marks_of(st) if hasattr(mod, "marks_of") else {k: set(got) for k, got in st.marks.items()}
    return (st.events, marks, st.version, st.tokens, st.fuses, st.fireworks, st.discard, st.hands, st.terminal)


def check(samples: dict[str, Any], anchors: dict[str, Any]) -> str:
    """Every copy plays the same games as its pure module; exits on the first difference."""
    n = 0
    for seats in (2, 3, 4, 5):
        for i in range(10):
            want = play(samples["sample-py"], seats, 9, i)
            for name, mod in samples.items():
                if play(mod, seats, 9, i) != want:
                    sys.exit(f"{name} plays game {i} at {seats} seats differently from the pure sample")
            n += 1
        want = [anchor.playout(seats, random.Random(s)) for s in range(20)]
        for name, mod in anchors.items():
            if [mod.playout(seats, random.Random(s)) for s in range(20)] != want:
                sys.exit(f"{name} plays differently from the pure anchor at {seats} seats")
    return f"check: {len(samples)} sample copies agree on {n} games (events, marks, versions, zones); " \
           f"{len(anchors)} anchor copies on 80 (score, plies)"


def rate(fn: Callable[[int, int, int], Any], seats: int, games: int, seed: int) -> float:
    """Playouts/s of `games` playouts by fn(seats, games, seed), CPU time."""
    t = time.process_time()
    fn(seats, games, seed)
    return games / (time.process_time() - t)


def anchor_runner(mod: Any) -> Callable[[int, int, int], int]:
    def run(seats: int, games: int, seed: int) -> int:
        rng = random.Random(seed)
        return sum(mod.playout(seats, rng)[1] for _ in range(games))
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seats", type=int, nargs="*", default=[2, 5])
    ap.add_argument("--without", action="append", default=[], choices=["marks", "events"],
                    help="the samples drop this part of the contract (as hanabi_fused.py --without)")
    ap.add_argument("--keep", help="build in this folder and keep it (default: a temporary folder, removed)")
    a = ap.parse_args()
    try:
        import Cython
    except ImportError:
        sys.exit("Cython is not installed: pip install cython")
    folder = Path(a.keep or tempfile.mkdtemp(prefix="ludex-fused-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"Cython {Cython.__version__}, Python {sys.version.split()[0]}, building in {folder}", flush=True)
    try:
        # hanabi_fused.py finds the repo two folders above its own: built here, that is `folder`
        # (the repo root and anchors are on sys.path already)
        where = folder / "bench" / "design"
        where.mkdir(parents=True, exist_ok=True)
        for name, src in BUILDS.items():
            print(build(name, src, where), flush=True)
        sys.path.insert(0, str(where))
        mods = {name: importlib.import_module(m) for name, m in MODULE.items()}
        for name, mod in mods.items():
            assert mod.__file__ and not mod.__file__.endswith(".py"), f"{name} did not load the built module"
        import hanabi_fused_typed as typed

        (where / "hanabi_fused_bits_py.py").write_text(source("bits-py", TYPED))
        import hanabi_fused_bits_py as bits  # the level (c) copy as Python

        samples = {"sample-py": sample, "sample-cy": mods["sample-cy"], "typed-py": typed, "typed-cy": mods["typed-cy"],
                   "bits-py": bits, "bits-cy": mods["bits-cy"]}
        print(check(samples, {"anchor-cy": mods["anchor-cy"]}), flush=True)
        runners = {"anchor": anchor_runner(anchor), "anchor-cy": anchor_runner(mods["anchor-cy"])}
        keep = {"marks": "marks" not in a.without, "events": "events" not in a.without}
        print(f"samples keep: {', '.join(k for k, v in keep.items() if v) or 'neither marks nor events'}", flush=True)
        runners.update({name: functools.partial(mod.sample_playouts, **keep) for name, mod in samples.items()})
        names = list(runners)
        for seats in a.seats:
            got: dict[str, list[float]] = {n: [] for n in names}
            for r in range(a.rounds):
                for n in names[r % len(names):] + names[:r % len(names)]:
                    got[n].append(rate(runners[n], seats, a.games, 100 + r))
                print(f"{seats} seats round {r + 1}: " + " ".join(f"{n} {got[n][-1]:,.0f}" for n in names), flush=True)
            print(f"\nhanabi {seats} seats, {a.games} games x {a.rounds} rounds: playouts/s, copy / anchor (range),"
                  " copy / anchor-cy (range)")
            for n in names:
                line = f"  {n:<10} {statistics.median(got[n]):>9,.0f}"
                for base in ("anchor", "anchor-cy"):
                    ratios = sorted(x / y for x, y in zip(got[n], got[base]))
                    line += f"  {statistics.median(ratios):5.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})"
                print(line)
            print(flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
