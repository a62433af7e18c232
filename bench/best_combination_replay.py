"""The built-in `best_combination` alone, as Battle Line's random playouts call it (issue 27).

Plays seeded random games of `rulesets/battle_line` and records every call of the built-in with
the zones as they were then (zone lists are copy-on-write, so keeping the lists keeps what they
held), then replays the calls in order, in rounds, timing CPU: this checkout's built-in, and each
`--against` checkout's `runtime/builtins_search.py` loaded beside it (it reads this checkout's
`runtime.values`), alternating, each with its caches emptied before a round. The rest of a
playout (legal moves, the ruleset's functions around the call) is left out, so the figure is
much steadier than a playout's on a loaded machine. The answers of every implementation are
checked to be the same.

    .venv/bin/python bench/best_combination_replay.py [--games 40] [--seed 5] [--rounds 5] [--against DIR ...]

Not part of the test suite. Prints only; no assertions.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dsl import load_ruleset  # noqa: E402
from runtime import Game, builtins, builtins_search  # noqa: E402


def record(games: int, seed: int) -> list[tuple[list[Any], tuple[Any, ...]]]:
    """Every call of `best_combination` in `games` seeded random playouts: (the zone lists then,
    the arguments after the state)."""
    calls: list[tuple[list[Any], tuple[Any, ...]]] = []
    real = builtins.FUNCS["best_combination"]

    def recording(st: Any, *args: Any) -> Any:
        calls.append((list(st.zones), args))
        return real(st, *args)

    builtins.FUNCS["best_combination"] = recording  # before the ruleset is compiled: it binds the built-in
    try:
        rs = load_ruleset("battle_line", ())
        rng = random.Random(seed)
        for i in range(games):
            g = Game.new(rs, 2, {}, seed=f"replay:{seed}:{i}")
            while not g.terminal:
                actor = g.decision().seats[0]
                moves = g.legal_moves(actor)
                g.apply(actor, moves[rng.randrange(len(moves))])
    finally:
        builtins.FUNCS["best_combination"] = real
    return calls


class _State:
    """What the built-in reads of a state: its zone lists and `items`."""

    __slots__ = ("zones",)

    def __init__(self) -> None:
        self.zones: list[Any] = []

    def items(self, x: Any) -> Any:
        if x.__class__ is list:
            return x
        idx = getattr(x, "idx", None)
        if idx is not None:
            return self.zones[idx]
        return list(x) if x.__class__ is dict else () if x is None else x


def load_other(checkout: Path, n: int) -> ModuleType:
    """Another checkout's `runtime/builtins_search.py`, as a module of its own."""
    spec = importlib.util.spec_from_file_location(
        f"_other_builtins_search_{n}", checkout / "runtime" / "builtins_search.py"
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no runtime/builtins_search.py in {checkout}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _reset(mod: ModuleType) -> None:
    for name in ("_POOLS", "_KINDS_SEEN"):
        cache = getattr(mod, name, None)
        if cache is not None:
            cache.clear()
    if hasattr(mod, "_LAST_POOL"):
        mod._LAST_POOL[0] = mod._NO_POOL


def replay(mod: ModuleType, calls: list[tuple[list[Any], tuple[Any, ...]]]) -> tuple[float, list[Any]]:
    """CPU seconds to make every call in order (caches emptied first), and the answers."""
    _reset(mod)
    fn = mod.best_combination
    st = _State()
    out = []
    t0 = time.process_time()
    for zones, args in calls:
        st.zones = zones
        out.append(fn(st, *args))
    return time.process_time() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument(
        "--against", nargs="*", default=[], help="other checkouts whose built-in to time the same way"
    )
    a = ap.parse_args()
    calls = record(a.games, a.seed)
    impls = [("this checkout", builtins_search)] + [
        (str(p), load_other(Path(p), i)) for i, p in enumerate(a.against)
    ]
    times: dict[str, list[float]] = {label: [] for label, _ in impls}
    answers: dict[str, list[Any]] = {}
    for r in range(a.rounds):
        for label, mod in impls if r % 2 == 0 else impls[::-1]:
            t, out = replay(mod, calls)
            times[label].append(t)
            answers.setdefault(label, out)
    print(
        f"best_combination: {len(calls)} calls recorded in {a.games} random Battle Line playouts (seed {a.seed});"
        f" replayed {a.rounds} times each (CPU; us per call)"
    )
    first = statistics.median(times[impls[0][0]])
    for label, _ in impls:
        med = statistics.median(times[label])
        same = "same answers" if answers[label] == answers[impls[0][0]] else "ANSWERS DIFFER"
        print(
            f"   {label[:40]:<40} median {1e6 * med / len(calls):6.2f}  best {1e6 * min(times[label]) / len(calls):6.2f}"
            f"  (this checkout / it: {first / med:.2f})  {same}"
        )


if __name__ == "__main__":
    main()
