"""The generated Python (runtime.codegen) and the closures it replaces agree move for move.

The hot paths (functions, legal-move searches, trigger conditions, effects) run as generated source;
with LUDEX_NO_CODEGEN=1 the same rules run through closures only. Both must give the same
legal moves and the same events on every bundled ruleset.
"""

from __future__ import annotations

import random

import pytest

from dsl import bundled_rulesets, load_ruleset
from runtime import Game, event_to_dict
from runtime import compile as rc


def _trace(rs, seats: int, seed: int, plies: int = 150) -> list:
    g = Game.new(rs, seats, {}, seed=seed)
    rng = random.Random(seed)
    out = []
    while not g.terminal and len(out) < plies:
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        out.append([m.to_dict() for m in moves])
        g.apply(seat, moves[rng.randrange(len(moves))])
    out.append([event_to_dict(e) for e in g.events])
    out.append(g.state_hash())
    return out


@pytest.mark.parametrize("name", [b.name for b in bundled_rulesets()])
def test_generated_code_and_closures_agree(name, monkeypatch):
    rs = load_ruleset(name)
    seats = rs.seats[1] if name == "hanabi" else rs.seats[0]
    generated = rc.program_for(rs)
    assert all(m.search is not None for m in generated.moves), "every move search is generated"
    assert all(m.run is not None for m in generated.moves), "every move body is generated"
    assert all(t.run is not None for t in generated.triggers) and generated.setup_run is not None
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    closures = rc.program_for(rs)
    assert all(m.search is None for m in closures.moves)
    closure_traces = [_trace(rs, seats, s) for s in (1, 2)]
    monkeypatch.setattr(rc, "_PROGRAMS", {rs.content_hash: generated})
    assert [_trace(rs, seats, s) for s in (1, 2)] == closure_traces
