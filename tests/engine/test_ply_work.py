"""The lists of legal moves a game hands out belong to the caller: each call gives a new list,
changing one changes neither the game nor another list, and a list kept from before a move
still lists the moves of then. (Reference cycles a ply leaves are measured in bench/ply_cycles.py.)"""

from __future__ import annotations

from dsl import load_ruleset
from runtime import Game


def test_a_list_of_legal_moves_is_the_callers_own() -> None:
    g = Game.new(load_ruleset("hanabi"), 2, {}, seed=1)
    assert g.decision().seats == (0,)
    first, second = g.legal_moves(0), g.legal_moves(0)
    assert first == second and len(first) > 0
    before = [m.to_dict() for m in first]
    first.clear()
    assert len(first) == 0 and [m.to_dict() for m in second] == before
    assert [m.to_dict() for m in g.legal_moves(0)] == before  # the game's own moves are untouched
    listed = g.legal_moves(0)
    g.apply(0, listed[0])
    assert g.legal_moves(0) == [] and [m.to_dict() for m in listed] == before
