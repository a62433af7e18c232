"""Weather Machine solo calibration (issue 24, WM-D12): how often a scripted player beats the
Saboteurs' target.

The player is a one-ply lookahead, like `ludex simulate --bot greedy`, on the rules' own
`fn score(s)` plus a small value for the means to score later: bots in the workshop (1.5 CP
each, up to 3), chemicals (0.8, up to 3), machine parts (0.6, up to 3) and vouchers (0.3, up to
8). It never calls security (which only burns reports), and it looks at the real next state (no
determinisation: it may see hidden tiles; a calibration yardstick, not a fair bot). Greedy's
plain lookahead builds almost no bots, so it rarely has anything to score with; this player is
the "competent player" WM-D12 asks the placeholders to be calibrated against.

Prints wins, endings, the player's mean and best final CP, the final target's mean, and the
player's moves per game. No assertions.

    .venv/bin/python bench/wm_solo_planner.py [--games 20] [--seed 100]

Not part of the test suite; CI does not run it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dsl import load_ruleset  # noqa: E402
from runtime import Game  # noqa: E402

HUMAN = 0


def value(g: Game, s: int) -> float:
    """The seat's score now plus what its workshop and vouchers promise (see the docstring)."""
    if g.terminal:
        return 1000.0 if s in g.outcome["winners"] else -1000.0
    v = g.view(s)

    def held(key: str) -> int:
        return min(len(v["zones"][key].get("components", [])), 3)

    vouchers = sum(v["vars"]["vouchers"][s].values())
    return (g.call("score", s) + 1.5 * held(f"wbots[{s}]") + 0.8 * held(f"chems[{s}]")
            + 0.6 * held(f"wparts[{s}]") + 0.3 * min(vouchers, 8))


def choose(g: Game, s: int, moves: list[Any], rng: random.Random) -> Any:
    """The move of highest `value` after it (ties at random), never Call Security."""
    best: list[Any] = []
    best_value = -1e18
    for m in moves:
        if m.name == "call_security":
            continue
        after = g.clone()
        after.apply(s, m.to_dict())
        x = value(after, s)
        if x > best_value + 1e-9:
            best, best_value = [m], x
        elif abs(x - best_value) <= 1e-9:
            best.append(m)
    return rng.choice(best) if best else moves[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=100, help="game i uses seed SEED + i")
    a = ap.parse_args()
    rs = load_ruleset("weather_machine", ["solo"])
    wins = 0
    finals: list[tuple[int, int]] = []
    endings: Counter[str] = Counter()
    moves: Counter[str] = Counter()
    for i in range(a.games):
        rng = random.Random(a.seed + i)  # the planner's tie-breaks: game i is the same game alone or in a run
        g = Game.new(rs, 1, {}, seed=a.seed + i)
        while not g.terminal:
            s = g.decision().seats[0]
            g.apply(s, choose(g, s, g.legal_moves(s), rng))
        moves.update(e.move for e in g.events if e.kind == "move" and e.seat == HUMAN)
        o = g.outcome
        endings[o["reason"]] += 1
        wins += o["winners"] == [HUMAN]
        finals.append((o["scores"]["0"], o["scores"]["1"]))
    print(f"games {a.games}: the planner won {wins} ({100 * wins / a.games:.0f}%)")
    for reason, n in endings.most_common():
        print(f"  {n:4d}  {reason}")
    print(f"planner CP: mean {statistics.mean(x for x, _ in finals):.1f}, best {max(x for x, _ in finals)}; "
          f"final target: mean {statistics.mean(y for _, y in finals):.1f}")
    print("planner moves per game:", ", ".join(f"{k} {v / a.games:.1f}" for k, v in moves.most_common(12)))


if __name__ == "__main__":
    main()
