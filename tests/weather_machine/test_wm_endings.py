"""Weather Machine plays to an end by the rules at 2, 3 and 4 seats (§9, §10)."""

from __future__ import annotations

import random

import pytest
from wm_helpers import new_game, playout, ruleset, var

from ludex.simulation import simulate


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_busy_random_games_end_in_final_scoring(seats):
    for seed in range(3):
        g = playout(new_game(seats, seed), random.Random(seed))
        assert g.outcome["kind"] == "scores"
        assert g.outcome["reason"].startswith("final scoring (")
        assert var(g, "final_round") is True
        assert sorted(g.outcome["ranking"]) == list(range(seats))


@pytest.mark.parametrize("seats", [2, 4])
def test_a_trigger_gives_exactly_one_more_round(seats):
    """§9, seed 004: after the round in which a trigger occurs, one more round, then scoring. The
    last experiment tile enters the display in phase B, at the end of a round: that round counts."""
    for seed in range(2):
        seen = {"round": 0, "ending": False, "trigger_round": None}

        def watch(g, seen=seen):
            if var(g, "ending") and not seen["ending"]:
                seen["trigger_round"] = seen["round"]
            seen["round"], seen["ending"] = var(g, "round"), var(g, "ending")

        g = playout(new_game(seats, seed), random.Random(seed), each=watch)
        assert seen["trigger_round"] is not None
        assert var(g, "round") == seen["trigger_round"] + 1


def test_simulate_reports_how_games_ended_and_mean_scores_by_seat():
    stats = simulate(ruleset(), 3, {}, games=3, seed=5, max_plies=5000)
    assert sum(stats["outcomes"].values()) == 3
    assert not any(k.startswith(("stuck", "cut")) for k in stats["outcomes"])
    assert all(r.startswith("final scoring (") for r in stats["reasons"])
    assert set(stats["mean_scores"]) == {"0", "1", "2"}
    assert all(v >= 0 for v in stats["mean_scores"].values())
