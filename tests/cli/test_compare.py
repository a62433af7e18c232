"""`ludex compare`: the toy with one ace against a copy with three (the first seat's win rate
goes from 1/4 to 3/4, nothing else changes); the scripted `lead` game against its variant
`seat_zero_wins` (the last move gives seat 0 the lead back and the win); and the power figures
against published sample sizes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import TOY, ludex

from ludex.simulation.compare import games_for_mean, games_for_rate

LEAD = Path(__file__).parent / "lead"


def _by_metric(result: dict) -> dict:
    (arm,) = result["arms"]
    return {d["metric"]: d for d in arm["differences"]}


@pytest.fixture
def three_aces(tmp_path) -> Path:
    other = tmp_path / "three_aces.ludex"
    other.write_text((TOY / "game.ludex").read_text().replace("option aces: int = 1", "option aces: int = 3"))
    return other


def test_a_change_of_win_rate_is_found_and_an_unchanged_length_is_not(three_aces):
    done = ludex("compare", str(TOY), str(three_aces), "--games", "200", "--seed", "1", "--workers", "1", "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result["base"]["label"] == str(TOY) and result["arms"][0]["label"] == str(three_aces)
    d = _by_metric(result)
    win = d["win rate seat 0"]
    assert win["test"] == "Fisher's exact" and win["p_value"] < 1e-12 and win["significant"]
    low, high = win["ci95"]
    assert low < 0.5 < high and low > 0.35
    assert d["win rate seat 1"]["difference"] == -win["difference"]
    length = d["length (plies)"]
    assert length["difference"] == 0 and length["p_value"] == 1.0 and not length["significant"]
    assert d["draws"]["p_value"] == 1.0 and not d["draws"]["significant"]
    assert "lead changes" not in d  # the toy declares no fn score(s: seat)


def test_a_variant_against_its_base_with_the_lead_metrics():
    done = ludex("compare", str(LEAD), "-v", "seat_zero_wins", "--games", "20", "--workers", "1", "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result["arms"][0]["label"] == f"{LEAD} -v seat_zero_wins"
    assert result["arms"][0]["stats"]["variants"] == ["seat_zero_wins"] and result["base"]["stats"]["variants"] == []
    d = _by_metric(result)
    assert (d["win rate seat 0"]["base"], d["win rate seat 0"]["other"]) == (0.0, 1.0)
    # Leaders none, 0, 1, 0, tie, 1 then 0: four changes instead of three; seat 0 settles it only at the end.
    assert (d["lead changes"]["base"], d["lead changes"]["other"], d["lead changes"]["difference"]) == (3.0, 4.0, 1.0)
    decisive = d["decisiveness"]
    assert decisive["base"] == pytest.approx(5 / 6) and decisive["other"] == 1.0
    assert d["balance (spread)"]["difference"] == 0.0  # one seat always wins, in both
    assert d["final score seat 0"]["difference"] == 2.0


def test_the_report_reads_as_a_designer_would_and_the_plot_is_drawn(tmp_path, monkeypatch, three_aces):
    monkeypatch.setenv("COLUMNS", "160")  # a wide terminal: one line per metric
    png = tmp_path / "cmp.png"
    done = ludex("compare", str(TOY), str(three_aces), "--games", "60", "--workers", "1", "--plot", str(png))
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    win = next(line for line in lines if "win rate seat 0" in line)
    assert " yes " in win and "<0.001" in win
    length = next(line for line in lines if "length (plies)" in line)
    assert "no evidence" in length and "+0.00 [+0.00 – +0.00]" in length
    text = " ".join(done.stdout.split())
    assert "games to detect" in text and "80% power" in text and "Fisher's exact" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_nothing_to_compare_is_an_error():
    done = ludex("compare", str(TOY))
    assert done.exit_code == 2
    assert done.stderr.strip() == "error: nothing to compare the ruleset with (give a variant (-v NAME) or a second rule file)"
    done = ludex("compare", str(LEAD), "-v", "seat_one_wins")
    assert done.exit_code == 2 and "no variant named 'seat_one_wins'" in done.stderr


def test_games_needed_match_published_sample_sizes():
    # Two proportions, 5% two-sided, 80% power, no continuity correction (Fleiss et al. 2003).
    assert games_for_rate(0.5, 0.05) == 1565
    assert games_for_rate(0.25, 0.05) == 1251
    assert games_for_rate(0.3, 0.1) == 356
    # Two means, Cohen's d = 0.2 (a change of 10% of 10 with sd 5): 393 per group.
    assert games_for_mean(10.0, 5.0, 0.1) == 393
    assert games_for_mean(0.0, 5.0, 0.1) is None
