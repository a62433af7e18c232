"""Battle Line benchmark (issues 4, 10 and 27): random playouts/s, and the time of one claim proof
(the ruleset's `provable(flag, seat)`: the formation search, the built-in `best_combination`).

- playouts: seeded random legal games of `rulesets/battle_line` (and each variant), as
  `ludex simulate` plays them; wall and CPU seconds, playouts/s and plies/s.
- claim proof, per position: the anchor's bench cases (`../shared/anchors/battle_line_bench.py`:
  an empty opposing side with almost every troop unseen, Mud, Fog) and positions whose opposing
  side holds one to three morale cards (MORALE_CASES), each answer checked against the anchor's
  engine; `--proof-reps` calls per position in rounds over the positions (so a burst of load falls
  on all alike), half of them the first proof in a state (nothing memoised); per position the
  median, p99 and slowest call in CPU time (thread_time, which preemption does not inflate), the
  anchor's median measured call for call in the same rounds and the ratio of the two medians
  (issue 27: 2 at most), and apart ("changed") the median of the first proof after a troop moved
  from one hand to the other (the unseen troops the same, their zones changed, as in play).
- claim proof, many positions: for many complete formations of seat 0 at flag 1 (every wedge,
  every phalanx, random others; with and without Mud and Fog; with a Leader) against an empty
  side, the slowest and the mean, and for the slowest provable three-card case the time of a
  blind enumeration (every completion's strength) for comparison.

    .venv/bin/python bench/battle_line_bench.py [--games 100] [--seed 1] [--samples 300] [--proof-reps 1000]
    .venv/bin/python bench/battle_line_bench.py --games 0      # the claim proof alone

Not part of the test suite. Prints only; no assertions.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
ANCHORS = [ROOT.parent / "shared" / "anchors", ROOT.parents[1] / "shared" / "anchors"]

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
    st.member(f, "done_at")[0] = 0
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
    unseen, score, fog, need, strength = (ruleset_fn(st, n) for n in ("unseen", "score", "fog_at", "need", "strength"))
    mine = score(f, 0)
    fogged = fog(f)
    t0 = time.perf_counter()
    ok = not any(strength(c, fogged) > mine for c in completions(st, [], unseen(), need(f)))
    del ok
    return time.perf_counter() - t0


# Positions beyond the anchor's cases: the opposing side holds morale cards, each of which may
# stand for any troop of its values (L13, E-BL1): (label, flag spec as the anchor's, table troops).
MORALE_CASES = [
    ("top wedge red 8-9-10 vs Alexander alone", {"sides": [["red-8", "red-9", "red-10"], ["alexander"]]}, []),
    ("phalanx of 10s vs Cavalry + yellow-8", {"sides": [["red-10", "blue-10", "green-10"], ["companion_cavalry", "yellow-8"]]}, []),
    ("wedge red 7-8-9 vs Darius + blue-6", {"sides": [["red-7", "red-8", "red-9"], ["darius", "blue-6"]]}, []),
    ("top wedge red 8-9-10 vs Shield Bearers", {"sides": [["red-8", "red-9", "red-10"], ["shield_bearers"]]}, []),
    ("top wedge red 8-9-10 vs Alexander + Cavalry", {"sides": [["red-8", "red-9", "red-10"], ["alexander", "companion_cavalry"]]}, []),
    ("wedge red 7-8-9 vs Cavalry + Shield Bearers", {"sides": [["red-7", "red-8", "red-9"], ["companion_cavalry", "shield_bearers"]]}, []),
    ("Mud: wedge red 7-10 vs Darius + Cavalry + Shield", {"sides": [["red-7", "red-8", "red-9", "red-10"], ["darius", "companion_cavalry", "shield_bearers"]], "mud": 1}, []),
    ("Mud: phalanx of 9s vs Alexander + Shield Bearers", {"sides": [["red-9", "blue-9", "green-9", "yellow-9"], ["alexander", "shield_bearers"]], "mud": 1}, []),
]


def anchor_module(name: str):
    anchors = next((p for p in ANCHORS if p.is_dir()), None)
    if anchors is None:
        return None
    if str(anchors) not in sys.path:
        sys.path.insert(0, str(anchors))
    return importlib.import_module(name)


def spec_position(rs, spec: dict, table: list[str]) -> Game:
    """A position in the anchor's terms: flag 1's two sides (seat 0's complete), Mud or Fog
    beside it, `table` troops face up on seat 0's discard pile; every other troop is unseen."""
    env = ["mud"] * bool(spec.get("mud")) + ["fog"] * bool(spec.get("fog"))
    g = proof_position(rs, spec["sides"][0], env)
    comps = {c.name: c for c in g.st.comps}
    zones = {z.key: z for z in g.st.zone_refs}
    g.st.move_items([comps[n] for n in spec["sides"][1]], zones["flag1.side[1]"])
    g.st.move_items([comps[n] for n in table], zones["discard[0]"])
    return g


def _hand_swap(g: Game):
    """A step that moves one unseen troop from one hand to the other (and back the next time):
    the unseen troops stay the same, the zones holding them change, as a troop played from a
    hand changes that hand between one claim step and the next."""
    st = g.st
    zones = {z.key: z for z in st.zone_refs}
    h0, h1 = zones["hand[0]"], zones["hand[1]"]
    troop = next(c for c in st.zones[h0.idx] + st.zones[h1.idx] if c.kind == "troop")

    def step() -> None:
        st.move_items(troop, h1 if st.zone_of(troop) is h0 else h0)
    return step


def proof_table(reps: int, rounds: int = 20) -> None:
    """Per position: median, p99 and slowest call of `provable(flag1, 0)` in CPU microseconds,
    the anchor's median measured in the same rounds and the ratio of the medians, and the median
    of the first proof after the unseen troops' zones changed (`_hand_swap`)."""
    abench, hand = anchor_module("battle_line_bench"), anchor_module("battle_line")
    if abench is None:
        print("(no anchor cases found beside the project: ../shared/anchors)")
        return
    rs = load_ruleset("battle_line")
    rows = []
    for label, spec, table, *expected in list(abench.PROOF_CASES) + MORALE_CASES:
        anchor_game = hand.Game.from_position(flags=[spec], discards=[table, []], seat=0)
        want = expected[0] if expected else anchor_game.provable(0, 0)
        g = spec_position(rs, spec, table)
        f, provable = g.st.g["flags"][0], ruleset_fn(g.st, "provable")
        rows.append([label, want, bool(provable(f, 0)), g, f, provable, [], anchor_game.provable, [], _hand_swap(g), []])
    clock = time.thread_time_ns
    per_round = max(2, reps // rounds)
    for _ in range(rounds):
        for _label, _want, _got, g, f, provable, samples, anchor, anchor_samples, swap, changed in rows:
            for _ in range(5):
                provable(f, 0)
                anchor(0, 0)
            gc.disable()
            try:
                for i in range(per_round):
                    if i % 2:  # the first proof in a state: nothing memoised for it
                        g.st.version += 1
                    t0 = clock()
                    provable(f, 0)
                    samples.append((clock() - t0) / 1000)
                    t0 = clock()
                    anchor(0, 0)
                    anchor_samples.append((clock() - t0) / 1000)
                    if i % 4 == 0:
                        swap()
                        t0 = clock()
                        provable(f, 0)
                        changed.append((clock() - t0) / 1000)
            finally:
                gc.enable()
    print(f"   {'position':<50} {'result':<6} {'median':>7} {'p99':>7} {'max':>7} {'anchor':>7} {'ratio':>6} {'changed':>8}  (us CPU)")
    stats = []
    for label, want, got, _g, _f, _p, samples, _a, anchor_samples, _s, changed in rows:
        samples.sort()
        med, p99, top = statistics.median(samples), samples[int(0.99 * (len(samples) - 1))], samples[-1]
        amed, cmed = statistics.median(anchor_samples), statistics.median(changed)
        stats.append((med, p99, top, med / amed))
        flagged = "" if got == want else f"  ANCHOR SAYS {want}"
        print(f"   {label[:50]:<50} {str(got):<6} {med:>7.1f} {p99:>7.1f} {top:>7.1f} {amed:>7.1f} {med / amed:>6.2f} {cmed:>8.1f}{flagged}",
              flush=True)
    k = len(abench.PROOF_CASES)
    for name, part in (("the anchor's cases", stats[:k]), ("every position", stats)):
        print(f"   {name}: worst median {max(x[0] for x in part):.1f} us, worst p99 {max(x[1] for x in part):.1f} us,"
              f" slowest call {max(x[2] for x in part):.1f} us (CPU; target: median 40, none over 200);"
              f" median/anchor's: worst {max(x[3] for x in part):.2f}, median {statistics.median(x[3] for x in part):.2f} (issue 27: 2 at most)")


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
    ap.add_argument("--proof-reps", type=int, default=1000, help="calls per position in the per-position table")
    a = ap.parse_args()

    print("== random playouts ==")
    for variants in ((), ("advanced_claims",), ("no_tactics",)) if a.games else ():
        r = playouts(variants, a.games, a.seed)
        print(f"{'+'.join(r['variants']):16s} {r['games']} games, {r['plies']} plies, {r['wall']:.1f} s wall "
              f"({r['cpu']:.1f} s CPU): {r['playouts_per_s']:.1f} playouts/s, {r['plies_per_s']:.0f} plies/s; {r['reasons']}")

    print("== claim proof per position (the anchor's cases, then morale cards on the opposing side) ==")
    proof_table(a.proof_reps)
    print("== claim proof against an empty side (most troops unseen) ==")
    rs = load_ruleset("battle_line")
    times = []
    for mine, env in cases(a.samples, a.seed):
        g = proof_position(rs, mine, env)
        dt, ok = time_proof(g, repeat=2)
        times.append((dt, mine, env, ok))
    times.sort(reverse=True)
    mean = sum(t for t, *_ in times) / len(times)
    print(f"{len(times)} proofs: mean {mean * 1e6:.1f} us, median {times[len(times) // 2][0] * 1e6:.1f} us (wall)")
    print("slowest (best of 2 runs each):")
    for dt, mine, env, ok in times[:5]:
        print(f"  {dt * 1e6:8.1f} us  {'+'.join(mine)} {'with ' + '+'.join(env) if env else ''} -> "
              f"{'provable' if ok else 'not provable'}")
    print(f"WORST-CASE CLAIM PROOF: {times[0][0] * 1e6:.1f} us")
    three = next((t for t in times if not t[2] and t[3]), None)
    if three is not None:
        dt, mine, env, ok = three
        g = proof_position(rs, mine, env)
        print(f"slowest provable three-card case ({'+'.join(mine)}): {dt * 1e6:.1f} us by the formation search, "
              f"{blind_time(g) * 1000:.0f} ms by blind enumeration of every completion")


if __name__ == "__main__":
    main()
