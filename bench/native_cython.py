"""What a Cython build of Ludex buys (issue 27): the runtime modules and each ruleset's generated
module compiled as they are, measured side by side with the pure-Python build.

Builds four copies of this checkout in a temporary folder (never next to the sources: an
extension module beside its .py would shadow every later edit of it):

    pure  the sources as they are
    gen   each ruleset's generated module (the text `runtime/codegen.py` compiles) built with
          Cython, cached by the hash of its text; the runtime stays pure Python
    rt    the runtime modules (`--modules`) built with Cython in pure-Python mode, no type
          annotations added and annotation typing off; generated modules stay pure Python
    all   rt and gen together

then runs `../shared/anchors/side_by_side.py` (hand-written engines, playouts/s and the ratio
hand-written / Ludex) on each copy in turn, `--runs` times, the copies leading in turn, and prints
per game each copy's median playouts/s, median hand/Ludex ratio and speed-up over pure (median of
the per-run ratios pure ratio / copy ratio: the hand-written engine in the same process absorbs
some of the machine's load). `--wm` adds `bench/wm_side_by_side.py` (Weather Machine, copies
against pure; it also checks that every copy plays the same games). Build times are printed
(wall and CPU of the build processes). Needs Cython (`pip install cython`) and a C compiler;
prints only, no assertions.

    .venv/bin/python bench/native_cython.py [--runs 3] [--rounds 3] [--games 20] [--only hanabi2 ...] [--wm] [--keep DIR]

How the generated module is loaded (in the copies only; `runtime/codegen.py` is patched there at
the point it compiles the text): the text is written as a module whose prologue binds every name
of the namespace codegen would exec it in (helpers, builtins, constants; `MC_i` as None, which
`runtime.compile` fills in later), built with Cython, imported, and its module dict used as the
namespace (so names `runtime.compile` adds later are seen by the compiled functions).

Measured 2026-11-28 on the 2-core shared machine (Cython 3.3.1, gcc 12, CPython 3.11.7; load
average 2.6-4.6 throughout, machine reference sum(range(1000)) 15-38 us). Hand/Ludex ratio, the
median of 3 alternating runs of side_by_side --rounds 3 --games 20, lower is better, and in
parentheses the speed-up over pure (median of the per-run pure ratio / copy ratio). Sitting 2 is
this script with --wm; sitting 1 was the same experiment by hand (rt from a separate pass of pure
against rt: pure there 5.64 / 3.88 / 3.95 / 2.46):

    game       sitting  pure   gen          rt           all
    Balloon    1        5.64   5.18 (1.09x) 5.91 (0.95x) 4.81 (1.17x)
               2        5.47   5.33 (1.03x) 5.03 (1.09x) 5.34 (1.00x)
    Battle L.  1        3.61   3.52 (1.03x) 4.19 (0.93x) 3.69 (0.98x)
               2        3.76   3.53 (1.07x) 4.46 (0.84x) 3.90 (0.94x)
    Hanabi-2   1        3.76   3.41 (1.10x) 4.15 (0.95x) 3.84 (0.98x)
               2        4.72   3.51 (1.34x) 4.38 (1.06x) 3.89 (1.04x)
    Hanabi-5   1        2.48   2.41 (1.03x) 2.98 (0.83x) 2.58 (0.96x)
               2        2.91   2.55 (1.14x) 2.99 (0.99x) 2.59 (1.14x)

Sitting 2's Hanabi-2 1.34x comes from one slow pure run (ratio 5.96; the per-run speed-ups of gen
are 1.01, 1.66, 1.34). Weather Machine (wm_side_by_side, 3 rounds, copy / pure in CPU time,
median): 2 seats gen 1.13 rt 0.98 all 1.11; 4 seats 1.02 / 0.94 / 0.98; solo 1.03 / 0.95 / 1.01;
every copy played the same games (same plies). No copy is consistently at or above 1.2x on any
game: the generated modules under Cython give perhaps 1.0-1.1x, the runtime modules nothing. Cython
without type declarations leaves the dict, attribute and call traffic that makes up the flat
profile as it is. Build times (wall / CPU, on the loaded 2 cores): the ten runtime modules
255 s / 243 s; generated modules (lines with the prologue): Hanabi (454) 43 s / 42 s, Balloon Cup
(685) 52 s / 49 s, Battle Line (1,458) 137 s / 105 s, Weather Machine (2,696) 419 s / 345 s, its
solo variant (3,558) 593 s / 459 s: one build per ruleset and variant text, 21 minutes for these
five, so every variant of every ruleset (what bench/fingerprints.py covers) would not fit CI's
90 minutes beside the suite.

What broke, and the workarounds used here:
- Cython with annotation typing on (its default): `env: list` parameters are enforced as exact
  lists and a None passed in raises TypeError in Balloon Cup's setup; built with
  `annotation_typing=False`. (cythonize keeps .c files newer than the .py: force a rebuild when
  directives change.)
- Generated text under Cython: names it reads from the exec namespace are compile errors
  ("undeclared name not builtin"); the prologue above declares them.
- mypyc (mypy 2.4.1, `mypyc runtime/...`): events.py's `EventLog(list)` ("Inheriting from most builtin
  types is unimplemented"); state.py's `State(1, {}, None)` template fails mypyc's runtime type
  check (`chance: ChanceSource` given None, a `# type: ignore` in the source) and native classes
  have no `__dict__`, which `State` counts; values.py's `Comp` sets attributes by name
  (`setattr`), which native classes refuse. mypyc needs source changes to State, Comp and
  EventLog, so it was not measured.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ANCHORS = ROOT.parent / "shared" / "anchors" / "side_by_side.py"
# the runtime modules a playout runs through (compile.py and codegen.py run at load only)
HOT = ["values", "events", "chance", "state", "game", "builtins", "views", "picks", "simultaneous", "outcomes"]
SKIP = shutil.ignore_patterns(".venv", ".git", "node_modules", "__pycache__", "build", "tests", "docs", "editors", "*.so")
COPIES = ["pure", "gen", "rt", "all"]
GAMES = {"balloon": ("balloon_cup", 2), "battle": ("battle_line", 2), "hanabi2": ("hanabi", 2), "hanabi5": ("hanabi", 5)}

# The point runtime/codegen.py compiles the generated text, and what the copies run instead.
COMPILE_POINT = """    code = compile(text, f"<ludex {rs.name}>", "exec")
    exec(code, ns)  # noqa: S102 - source generated from the checked IR, not user input
"""
PATCHED = """    import _native_gen
    ns = _native_gen.namespace(text, ns)
"""

# Written into the 'gen' and 'all' copies: builds a generated module with Cython, cached by the
# hash of its text (prologue included) in gen-cache beside the copies (shared by both).
LOADER = r'''
import builtins, hashlib, importlib.util, os, re, sys, time
CACHE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gen-cache")

def _build(text):
    h = hashlib.sha256(text.encode()).hexdigest()[:16]
    name = f"ludex_gen_{h}"
    os.makedirs(CACHE, exist_ok=True)
    found = [f for f in os.listdir(CACHE) if f.startswith(name + ".") and f.endswith(".so")]
    if not found:
        t, c = time.time(), time.process_time() + os.times().children_user + os.times().children_system
        src = os.path.join(CACHE, name + ".py")
        with open(src, "w") as f:
            f.write(text)
        from Cython.Build import cythonize
        from setuptools import Distribution
        from setuptools.command.build_ext import build_ext
        exts = cythonize([src], compiler_directives={"language_level": 3, "annotation_typing": False}, quiet=True)
        cmd = build_ext(Distribution({"ext_modules": exts}))
        cmd.build_lib, cmd.build_temp = CACHE, os.path.join(CACHE, "tmp")
        cmd.ensure_finalized()
        cmd.run()
        lines = text.count("\n")
        print(f"BUILT generated {name} {lines} lines wall {time.time() - t:.1f}s CPU {time.process_time() + os.times().children_user + os.times().children_system - c:.1f}s", file=sys.stderr)
        found = [f for f in os.listdir(CACHE) if f.startswith(name + ".") and f.endswith(".so")]
    return name, os.path.join(CACHE, found[0])

def namespace(text, ns):
    prologue = "import builtins as _b\n_ns = _b._LUDEX_NS\n"
    prologue += "".join(f"{k} = _ns[{k!r}]\n" for k in sorted(ns))
    prologue += "".join(f"{k} = None\n" for k in sorted(set(re.findall(r"\bMC_\d+\b", text))))
    name, path = _build(prologue + "del _b, _ns\n" + text)
    builtins._LUDEX_NS = ns
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        del builtins._LUDEX_NS
    return mod.__dict__
'''


def machine_ref() -> float:
    """Microseconds for sum(range(1000)), best of 5: the machine's speed beside the figures."""
    return min(timeit.repeat("sum(range(1000))", number=10000, repeat=5)) / 10000 * 1e6


def build_runtime(tree: Path, modules: list[str]) -> None:
    """Cythonize runtime/<m>.py in `tree` into extension modules beside them (a scratch copy)."""
    script = (
        "import sys\nfrom setuptools import setup\nfrom Cython.Build import cythonize\n"
        f"setup(ext_modules=cythonize({[f'runtime/{m}.py' for m in modules]!r}, force=True, quiet=True, nthreads=2,"
        " compiler_directives={'language_level': 3, 'annotation_typing': False}),"
        " script_args=['build_ext', '--inplace', '-j', '2'])\n"
    )
    t, cpu0 = time.time(), os.times().children_user + os.times().children_system
    r = subprocess.run([sys.executable, "-c", script], cwd=tree, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"runtime build failed:\n{r.stderr[-3000:]}")
    cpu = os.times().children_user + os.times().children_system - cpu0
    print(f"built runtime {','.join(modules)}: wall {time.time() - t:.0f}s, CPU {cpu:.0f}s", flush=True)


def make_copies(tmp: Path, modules: list[str]) -> dict[str, Path]:
    """The four copies of this checkout; exits if codegen's compile point moved."""
    codegen = (ROOT / "runtime" / "codegen.py").read_text()
    if codegen.count(COMPILE_POINT) != 1:
        sys.exit("runtime/codegen.py: the compile point this bench patches moved; update COMPILE_POINT")
    trees = {c: tmp / c for c in COPIES}
    shutil.copytree(ROOT, trees["pure"], ignore=SKIP)
    build_copy = tmp / "rt"
    shutil.copytree(ROOT, build_copy, ignore=SKIP)
    build_runtime(build_copy, modules)
    shutil.copytree(build_copy, trees["all"], ignore=shutil.ignore_patterns("build", "*.c"))
    shutil.copytree(ROOT, trees["gen"], ignore=SKIP)
    for c in ("gen", "all"):
        (trees[c] / "runtime" / "codegen.py").write_text(codegen.replace(COMPILE_POINT, PATCHED))
        (trees[c] / "_native_gen.py").write_text(LOADER)
    return trees


def prebuild(trees: dict[str, Path], games: list[str], wm: bool) -> None:
    """Build every generated module the measured games load, before any timing."""
    names = sorted({GAMES[g][0] for g in games} | ({"weather_machine"} if wm else set()))
    variants = [(n, ()) for n in names] + ([("weather_machine", ("solo",))] if wm else [])
    code = ("import sys\nsys.path.insert(0, '.')\nfrom dsl import load_ruleset\nfrom runtime import Game\n"
            f"for n, v in {variants!r}:\n    Game.new(load_ruleset(n, v), 2 if not v else 1, {{}}, seed='0')\n")
    for c in ("gen", "all"):
        t = time.time()
        r = subprocess.run([sys.executable, "-c", code], cwd=trees[c], capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"generated modules of copy {c} failed:\n{r.stderr[-3000:]}")
        for line in r.stderr.splitlines():
            if line.startswith("BUILT"):
                print(f"{c}: {line}", flush=True)
        print(f"{c}: generated modules ready in {time.time() - t:.0f}s", flush=True)


def side_by_side(tree: Path, a: argparse.Namespace) -> dict:
    """One run of the anchors' side_by_side on `tree`: its JSON summary, per game."""
    cmd = [sys.executable, str(ANCHORS), str(tree), "--rounds", str(a.rounds), "--games", str(a.games)]
    for g in a.only:
        cmd += ["--only", g]
    r = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=""))
    if r.returncode:
        sys.exit(f"side_by_side on {tree} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="side_by_side runs per copy, alternating")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--only", nargs="*", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--modules", default=",".join(HOT), help="runtime modules to build (comma-separated)")
    ap.add_argument("--wm", action="store_true", help="also bench/wm_side_by_side.py, copies against pure")
    ap.add_argument("--keep", help="build in this folder and keep it (default: a temporary folder, removed)")
    a = ap.parse_args()
    try:
        import Cython
    except ImportError:
        sys.exit("Cython is not installed: pip install cython")
    if not ANCHORS.exists():
        sys.exit(f"no {ANCHORS}")
    tmp = Path(a.keep or tempfile.mkdtemp(prefix="ludex-native-"))
    tmp.mkdir(parents=True, exist_ok=True)
    print(f"Cython {Cython.__version__}, Python {sys.version.split()[0]}, building in {tmp}", flush=True)
    try:
        trees = make_copies(tmp, a.modules.split(","))
        prebuild(trees, a.only, a.wm)
        res: dict[str, list[dict]] = {c: [] for c in COPIES}
        for r in range(a.runs):
            order = COPIES[r % len(COPIES):] + COPIES[: r % len(COPIES)]
            for c in order:
                ref = machine_ref()
                res[c].append(side_by_side(trees[c], a))
                print(f"run {r + 1} {c:<4} ref {ref:.1f}us " + " ".join(
                    f"{g}:{res[c][-1][g]['ratio_playouts_median']}" for g in a.only), flush=True)
        print(f"\n{'game':<8} {'copy':<5} {'playouts/s':>10} {'hand/Ludex':>10} {'speed-up':>8}  per run (pure ratio / copy ratio)")
        for g in a.only:
            for c in COPIES:
                ratios = [x[g]["ratio_playouts_median"] for x in res[c]]
                ups = [p[g]["ratio_playouts_median"] / x[g]["ratio_playouts_median"] for p, x in zip(res["pure"], res[c])]
                rate = statistics.median(x[g]["ludex_playouts_s"] for x in res[c])
                print(f"{g:<8} {c:<5} {rate:>10,.1f} {statistics.median(ratios):>10.2f} {statistics.median(ups):>8.2f}  "
                      + " ".join(f"{u:.2f}" for u in ups), flush=True)
        if a.wm:
            print(flush=True)
            subprocess.run([sys.executable, str(ROOT / "bench" / "wm_side_by_side.py"), "--base", str(trees["pure"]),
                            "--this", *(str(trees[c]) for c in COPIES[1:]), "--rounds", str(a.rounds)], check=True)
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
