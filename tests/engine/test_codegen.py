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


def test_functions_of_their_arguments_alone_are_memoised_by_argument_values():
    """`strength(cards, fog)` reads only its arguments and constants: its calls are memoised per
    game template (State.pure_memo); a function reading the state (a zone, an entity's
    variable) never is, and a memoised value equals a fresh computation."""
    from runtime import codegen

    rs = load_ruleset("battle_line")
    memoised = codegen.Gen(rs).arg_memoised
    assert "strength" in memoised
    assert not memoised & {"need", "complete", "unseen", "provable"}  # zones, entity variables, hands
    g = Game.new(rs, 2, {}, seed=3)
    rng = random.Random(3)
    while not g.terminal and not g.st.pure_memo:
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        g.apply(seat, moves[rng.randrange(len(moves))])
    key, value = next((k, v) for k, v in g.st.pure_memo.items() if k[0] == "strength")
    fresh = rc.program_for(rs).callables["strength"].py.__globals__["F_strength_"](g.st, list(key[1]), key[2])
    assert value == fresh
    assert g.clone().st.pure_memo is g.st.pure_memo  # shared by the games of a template
