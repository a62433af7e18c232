"""Seeded fingerprints of every bundled ruleset, variant and seat count: what a back-end change
must leave identical (issue 27: "seeded fingerprints over every ruleset, variant and seat
count, covering legal moves, events, views, state hashes and clones").

For each ruleset, with no variant and with each of its variants alone, and each seat count it
allows, three seeded random games (at most 400 plies) are hashed (sha256, first 16 hex digits):
every legal-move list, every ply's events, the mover's view and the state hash every 5th ply,
a clone's state hash and last events after it moves every 7th ply, then the whole log, every
seat's and a spectator's views and event views, the outcome, and the state of a replay of the
log (`Game.fold`). Run it before and after a change, and with `LUDEX_NO_CODEGEN=1` (the
closures): the figures must be the same.

    .venv/bin/python bench/fingerprints.py [--out FILE] [--against FILE]

Prints one line per case (and, with --against, the cases that differ from FILE); no assertions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dsl import bundled_rulesets, load_ruleset  # noqa: E402
from runtime import Game, event_to_dict  # noqa: E402


def _put(h: Any, value: Any) -> None:
    h.update(json.dumps(value, sort_keys=True, default=str).encode())


def trace(rs: Any, seats: int, seed: int, h: Any) -> None:
    """Hash one seeded random game of `rs` into `h` (see the module's docstring)."""
    g = Game.new(rs, seats, {}, seed=seed)
    rng = random.Random(seed)
    ply = 0
    while not g.terminal and ply < 400:
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        _put(h, [m.to_dict() for m in moves])
        move = moves[rng.randrange(len(moves))]
        if ply % 7 == 3:
            c = g.clone()
            c.apply(seat, move)
            h.update(c.state_hash().encode())
            _put(h, [event_to_dict(e) for e in c.events[-3:]])
        _put(h, [event_to_dict(e) for e in g.apply(seat, move)])
        if ply % 5 == 0:
            _put(h, g.view(seat))
            h.update(g.state_hash().encode())
        ply += 1
    _put(h, [event_to_dict(e) for e in g.events])
    for s in [*range(g.seats), None]:
        _put(h, g.view(s))
        _put(h, [g.event_view(e, s) for e in g.events])
    h.update(g.state_hash().encode())
    _put(h, g.outcome)
    h.update(Game.fold(rs, g.seats, {}, g.events).state_hash().encode())


def fingerprints() -> dict[str, str]:
    out = {}
    for b in bundled_rulesets():
        variants = [()] + [(v.stem,) for v in sorted((ROOT / "rulesets" / b.name / "variants").glob("*.ludex"))]
        for variant in variants:
            rs = load_ruleset(b.name, variant)
            lo, hi = rs.seats
            for seats in range(lo, hi + 1):
                h = hashlib.sha256()
                for seed in (1, 2, 3):
                    try:
                        trace(rs, seats, seed, h)
                    except Exception as exc:  # noqa: BLE001 - a failure is part of the fingerprint
                        h.update(repr(exc).encode())
                key = f"{b.name}{'+' + variant[0] if variant else ''}:{seats}"
                out[key] = h.hexdigest()[:16]
                print(key, out[key], flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="write the fingerprints to this JSON file")
    ap.add_argument("--against", type=Path, help="a file --out wrote: print the cases that differ")
    a = ap.parse_args()
    got = fingerprints()
    if a.out:
        a.out.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    if a.against:
        before = json.loads(a.against.read_text())
        differ = sorted(k for k in before.keys() | got.keys() if before.get(k) != got.get(k))
        print(f"{len(differ)} of {len(got)} cases differ from {a.against}" + "".join(f"\n   {k}" for k in differ))


if __name__ == "__main__":
    main()
