"""Battle Line benchmark (issue 4, "Tests and benchmark"): random playouts/s, and the time of
one claim proof in the worst case (the opponent has placed nothing at the flag, so the proof
ranges over completions with three of the ~57 unseen troops, or four with Mud).

- playouts: seeded random legal games of `rulesets/battle_line` (and each variant), as
  `ludex simulate` plays them; wall and CPU seconds, playouts/s and plies/s.
- claim proof: for many complete formations of seat 0 at flag 1 (every wedge, every phalanx,
  random others; with and without Mud and Fog; with a Leader) against an empty side (and a
  few against a side holding only a Leader or Companion Cavalry), times
  the ruleset's `provable(flag1, 0)`, i.e. `any_completion(...)` with the ruleset's pruning
  function, and reports the slowest, the mean, and for the slowest case the time of a blind
  enumeration (`all(... for c in completions(...))` evaluated without pruning) for comparison.

    .venv/bin/python bench/battle_line_bench.py [--games 100] [--seed 1] [--samples 300]

Not part of the test suite. Prints only; no assertions.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dsl import load_ruleset  # noqa: E402
from runtime import Game  # noqa: E402
from runtime.builtins_search import completions, ruleset_fn  # noqa: E402

COLOURS = ["red", "orange", "yellow", "green", "blue", "purple"]


def playouts(variants: tuple[str, ...], games: int, seed: int) -> dict:
    rs = load_ruleset("battle_line", list(variants))
    rng = random.Random(seed)
    plies = 0
    reasons: dict[str, int] = {}
    w0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        g = Game.new(rs, 2, seed=f"{seed}:{i}")
        while not g.terminal:
            seat = g.decision().seats[0]
            moves = g.legal_moves(seat)
            g.apply(seat, moves[rng.randrange(len(moves))])
            plies += 1
        reasons[g.outcome["reason"]] = reasons.get(g.outcome["reason"], 0) + 1
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return {"variants": variants or ("base",), "games": games, "plies": plies, "wall": wall, "cpu": cpu,
            "playouts_per_s": games / wall, "plies_per_s": plies / wall, "reasons": reasons}


def proof_position(rs, mine: list[str], env: list[str]) -> Game:
    """Seat 0 has `mine` at flag 1 (with `env` beside it), seat 1 nothing there; every other
    troop is unseen (deck or hands)."""
    g = Game.new(rs, 2, seed=0)
    st = g.st
    comps = {c.name: c for c in st.comps}
    zones = {z.key: z for z in st.zone_refs}
    st.move_items([comps[n] for n in env], zones["flag1.env[1]"])
    st.move_items([comps[n] for n in mine], zones["flag1.side[0]"])
    f = st.g["flags"][0]
    f.d["done_at"][0] = 0
    return g


def time_proof(g: Game, repeat: int = 1) -> tuple[float, bool]:
    provable = ruleset_fn(g.st, "provable")
    f = g.st.g["flags"][0]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        ok = provable(f, 0)
        best = min(best, time.perf_counter() - t0)
    return best, bool(ok)


def blind_time(g: Game) -> float:
    """The same proof by blind enumeration of every completion (no pruning)."""
    st = g.st
    f = st.g["flags"][0]
    unseen, score, fog, need, beats = (ruleset_fn(st, n) for n in ("unseen", "score", "fog_at", "need", "beats_claim"))
    mine = score(f, 0)
    fogged = fog(f)
    t0 = time.perf_counter()
    ok = not any(beats(c, mine, fogged) for c in completions(st, [], unseen(), need(f)))
    del ok
    return time.perf_counter() - t0


def cases(samples: int, seed: int) -> list[tuple[list[str], list[str]]]:
    rng = random.Random(seed)
    out = []
    for c in COLOURS:
        for v in range(1, 9):
            out.append(([f"{c}-{v}", f"{c}-{v + 1}", f"{c}-{v + 2}"], []))
    for v in range(1, 11):
        for cs in itertools.combinations(COLOURS, 3):
            out.append(([f"{x}-{v}" for x in cs], []))
    troops = [f"{c}-{v}" for c in COLOURS for v in range(1, 11)]
    for _ in range(samples):
        out.append((rng.sample(troops, 3), []))
        out.append((rng.sample(troops, 3), ["fog"]))
        out.append((rng.sample(troops, 4), ["mud"]))
        out.append((rng.sample(troops, 2) + ["alexander"], []))
    for c in COLOURS:
        for v in range(1, 8):
            out.append(([f"{c}-{v + k}" for k in range(4)], ["mud"]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=200)
    a = ap.parse_args()

    print("== random playouts ==")
    for variants in ((), ("advanced_claims",), ("no_tactics",)):
        r = playouts(variants, a.games, a.seed)
        print(f"{'+'.join(r['variants']):16s} {r['games']} games, {r['plies']} plies, {r['wall']:.1f} s wall "
              f"({r['cpu']:.1f} s CPU): {r['playouts_per_s']:.1f} playouts/s, {r['plies_per_s']:.0f} plies/s; {r['reasons']}")

    print("== claim proof against an empty side (most troops unseen) ==")
    rs = load_ruleset("battle_line")
    times = []
    for mine, env in cases(a.samples, a.seed):
        g = proof_position(rs, mine, env)
        dt, ok = time_proof(g, repeat=2)
        times.append((dt, mine, env, ok))
    times.sort(reverse=True)
    mean = sum(t for t, *_ in times) / len(times)
    print(f"{len(times)} proofs: mean {mean * 1000:.2f} ms, median {times[len(times) // 2][0] * 1000:.2f} ms")
    print("slowest (best of 2 runs each):")
    for dt, mine, env, ok in times[:5]:
        print(f"  {dt * 1000:8.2f} ms  {'+'.join(mine)} {'with ' + '+'.join(env) if env else ''} -> "
              f"{'provable' if ok else 'not provable'}")
    print(f"WORST-CASE CLAIM PROOF: {times[0][0] * 1000:.1f} ms")
    print("against a side holding only morale tactics (E-BL1: they count with their full range):")
    for mine, theirs in ((["red-8", "red-9", "red-10"], ["alexander"]), (["red-8", "red-9", "red-10"], ["companion_cavalry"]),
                         (["red-5", "red-6", "red-7"], ["alexander"])):
        g = proof_position(rs, mine, [])
        comps = {c.name: c for c in g.st.comps}
        g.st.move_items([comps[n] for n in theirs], next(z for z in g.st.zone_refs if z.key == "flag1.side[1]"))
        dt, ok = time_proof(g, repeat=2)
        print(f"  {dt * 1000:8.2f} ms  {'+'.join(mine)} against {'+'.join(theirs)} -> {'provable' if ok else 'not provable'}")
    three = next((t for t in times if not t[2] and t[3]), None)
    if three is not None:
        dt, mine, env, ok = three
        g = proof_position(rs, mine, env)
        print(f"slowest provable three-card case ({'+'.join(mine)}): {dt * 1000:.2f} ms pruned, "
              f"{blind_time(g) * 1000:.0f} ms by blind enumeration of every completion")

if __name__ == "__main__":
    main()
