"""Weather Machine plays to an end by the rules at 2, 3 and 4 seats (§9, §10)."""

from __future__ import annotations

import random

import pytest
from wm_helpers import new_game, playout, var


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_busy_random_games_end_in_final_scoring(seats):
    for seed in range(3):
        g = playout(new_game(seats, seed), random.Random(seed))
        assert g.outcome["kind"] == "rank"
        assert g.outcome["reason"].startswith("final scoring (")
        assert var(g, "final_round") is True
        assert sorted(g.outcome["ranking"]) == list(range(seats))
