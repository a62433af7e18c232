"""`ludex simulate`'s game-evaluation metrics on rulesets whose answers are known by
construction: `shared` (the first seat wins alone with the ace, any other card is a tie that
both seats win; or, with `stuck`, no seat can ever move), `lead` (a six-move script whose
leader by `fn score` goes none, 0, 1, 0, tie, 1, 1) and `toy` (the first seat wins with
probability aces/4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import TOY, ludex

from dsl import load_ruleset
from ludex.simulation import simulate
from ludex.simulation.intervals import mean_ci, median_ci
from ludex.simulation.play import lead_changes, settled_at

HERE = Path(__file__).parent
SHARED, LEAD = HERE / "shared", HERE / "lead"


def _stats(*args: str) -> dict:
    done = ludex("simulate", *args, "--json", "--workers", "1")
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def test_a_shared_win_counts_once_for_each_winner_in_wins_by_seat_and_win_rates():
    stats = _stats(str(SHARED), "--games", "40", "--seed", "2")
    ties = stats["outcomes"]["scores [0, 1]"]
    assert 0 < ties < 40 and stats["outcomes"]["win seat 0"] == 40 - ties
    # The first seat wins every game, alone or shared; the second only the ties.
    assert stats["wins_by_seat"] == {"seat 0": 40, "seat 1": ties}
    assert stats["win_rates"]["0"]["wins"] == 40 and stats["win_rates"]["0"]["rate"] == 1.0
    assert stats["win_rates"]["1"]["wins"] == ties


def test_lead_changes_and_decisiveness_follow_the_scripted_scores():
    stats = _stats(str(LEAD), "--games", "3")
    m = stats["metrics"]
    assert stats["outcomes"] == {"win seat 1": 3}
    assert m["lead_changes"] == {"mean": 3.0, "ci95": [3.0, 3.0], "games": 3}
    # Seat 1 leads for good from the fifth of six moves on: 5/6 of the game was played before.
    assert m["decisiveness"]["mean"] == pytest.approx(5 / 6)
    assert m["length"]["mean"]["mean"] == 6.0 and m["branching"]["mean"] == 1.0


def test_lead_changes_and_settling_read_a_sequence_of_leaders():
    assert lead_changes([None, 0, 1, 0, None, 1, 1]) == 3
    assert lead_changes([0, None, 0, 0]) == 0  # a tie in between is no change
    assert lead_changes([None, None]) == 0
    won_by_1 = {"kind": "scores", "winners": [1]}
    assert settled_at([None, 0, 1, 0, None, 1, 1], won_by_1) == pytest.approx(5 / 6)
    assert settled_at([1, 1, 1, 1], won_by_1) == 0.0  # led from the start
    assert settled_at([None, 1, 1, 0], won_by_1) == 1.0  # not in the lead at the end
    assert settled_at([None, 1], {"kind": "scores", "winners": [0, 1]}) is None  # shared
    assert settled_at([None, 1], {"kind": "draw", "winners": []}) is None


def test_rules_without_a_seat_score_have_no_lead_metrics():
    m = _stats(str(TOY), "--games", "5")["metrics"]
    assert m["lead_changes"] is None and m["decisiveness"] is None


def test_stuck_and_cut_off_games_are_counted_with_intervals():
    stuck = _stats(str(SHARED), "-o", "stuck=true", "--games", "4")
    assert stuck["outcomes"] == {"stuck (no legal move)": 4}
    assert stuck["metrics"]["stalls"]["count"] == 4 and stuck["metrics"]["stalls"]["rate"] == 1.0
    assert stuck["metrics"]["stalls"]["ci95"] == pytest.approx([0.5101, 1.0], abs=1e-4)  # Wilson, 4 of 4
    cut = _stats(str(LEAD), "--games", "3", "--max-plies", "2")
    assert cut["outcomes"] == {"cut at ply cap": 3}
    assert cut["metrics"]["cut_off"]["rate"] == 1.0 and cut["metrics"]["stalls"]["rate"] == 0.0
    assert cut["metrics"]["decisiveness"] is None  # no winner


def test_first_seat_advantage_and_balance_find_the_known_imbalance():
    # One ace in four: seat 0 wins a quarter of the games, seat 1 three quarters.
    m = _stats(str(TOY), "-o", "aces=1", "--games", "400", "--seed", "3")["metrics"]
    first = m["first_seat"]
    assert first["fair"] == 0.5
    low, high = first["advantage_ci95"]
    assert low < -0.25 < high and high < 0  # a disadvantage, and the interval says so
    low, high = m["balance"]["ci95"]
    assert low < 0.5 < high and low > 0.3
    assert m["drawishness"]["rate"] == 0.0 and m["length"]["median"]["median"] == 1.0


def test_the_text_report_shows_the_metrics():
    done = ludex("simulate", str(LEAD), "--games", "3", "--workers", "1")
    assert done.exit_code == 0, done.output
    for words in ("first-seat advantage", "balance", "drawishness", "decisiveness", "lead changes", "branching factor",
                  "stalls", "cut-off games", "95% interval"):
        assert words in done.stdout, words


def test_bootstrap_intervals_match_the_normal_approximation_on_a_large_sample():
    values = list(range(100))  # mean 49.5, standard error 29.01 / 10
    got = mean_ci(values)
    assert got is not None and got["mean"] == 49.5
    assert got["ci95"] == pytest.approx([49.5 - 1.96 * 2.901, 49.5 + 1.96 * 2.901], abs=0.8)
    assert mean_ci(values) == got  # seeded: the same data, the same interval
    assert mean_ci([]) is None and mean_ci([4.0]) == {"mean": 4.0, "ci95": [4.0, 4.0], "games": 1}
    med = median_ci(values)
    assert med is not None and med["median"] == 49.5 and med["ci95"][0] < 49.5 < med["ci95"][1]


def test_the_plot_draws_the_metrics(tmp_path):
    png = tmp_path / "lead.png"
    done = ludex("simulate", str(LEAD), "--games", "3", "--workers", "1", "--plot", str(png))
    assert done.exit_code == 0, done.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_called_from_python_keeps_its_signature():
    stats = simulate(load_ruleset(str(SHARED)), None, {}, 4, 1, 100)
    assert stats["games"] == 4 and stats["workers"] == 1 and stats["runner"] == "local"
