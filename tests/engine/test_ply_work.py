"""The fixed work of a ply: what the engine does around the generated code of the rules must
leave nothing for the garbage collector, and the lists of one state share their moves."""

from __future__ import annotations

import gc
import random

import pytest

from dsl import load_ruleset
from runtime import Game


@pytest.mark.parametrize("name", ["hanabi", "balloon_cup", "battle_line"])
def test_random_plies_leave_no_reference_cycles(name: str) -> None:
    g = Game.new(load_ruleset(name), 2, {}, seed=3)
    rng = random.Random(1)
    gc.collect()
    gc.disable()
    try:
        for _ in range(40):
            if g.terminal:
                break
            seat = g.decision().seats[0]
            moves = g.legal_moves(seat)
            g.apply(seat, moves[rng.randrange(len(moves))])
        assert gc.collect() == 0  # every object a ply made was freed by its reference count
    finally:
        gc.enable()


def test_the_lists_of_one_state_share_their_moves_and_stay_apart() -> None:
    g = Game.new(load_ruleset("hanabi"), 2, {}, seed=1)
    assert g.decision().seats == (0,)
    first, second = g.legal_moves(0), g.legal_moves(0)
    assert first is not second
    assert first[-1] is second[-1]  # read from either list: one Move, as in copies of a list
    first.clear()
    assert len(first) == 0 and len(second) == len(g.legal_moves(0)) > 0
    listed = g.legal_moves(0)
    g.apply(0, listed[0])
    assert g.legal_moves(0) == [] and len(listed) == len(second)
