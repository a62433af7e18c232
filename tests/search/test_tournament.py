"""Tournaments (`ludex tournament`, search.tournament): seats rotated, win rates with intervals,
Bradley-Terry ratings; and `ludex simulate --bot policy|ismcts`."""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
from cli_helpers import ludex  # noqa: E402

from search.tournament import bradley_terry, play_game, schedule  # noqa: E402


def test_every_pair_plays_with_the_seats_rotated():
    games = schedule("balloon_cup", ["a", "b", "c"], 4)
    assert len(games) == 3 * 4
    first_seat = Counter((tuple(sorted(set(g["lineup"]))), g["lineup"][0]) for g in games)
    assert all(n == 2 for n in first_seat.values()) and len(first_seat) == 6
    assert len({g["seed"] for g in games}) == len(games)


def test_a_game_config_is_plain_data_and_plays_the_same_game_again():
    [cfg] = schedule("balloon_cup", ["policy", "random"], 1, seed=5)
    assert json.loads(json.dumps(cfg)) == cfg, "a worker receives it as plain data"
    one, two = play_game(cfg), play_game(cfg)
    assert one["outcome"] == two["outcome"] and one["plies"] == two["plies"]


def test_bradley_terry_gives_the_odds_of_the_wins_on_the_elo_scale():
    r = bradley_terry(["a", "b"], {("a", "b"): 9.0, ("b", "a"): 1.0})
    # two players: p_a / p_b = (9 + 0.5) / (1 + 0.5) with the half-win prior each way
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(9.5 / 1.5), abs=0.01)
    assert r["a"] + r["b"] == pytest.approx(0.0, abs=1e-9)


def test_the_tournament_command_reports_rates_intervals_and_ratings():
    res = ludex("tournament", "balloon_cup", "--bots", "policy,random", "-n", "4", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    pol, rnd = out["bots"]["policy"], out["bots"]["random"]
    assert pol["games"] == rnd["games"] == 4
    assert pol["wins"] + pol["draws"] + pol["losses"] + pol["unfinished"] == 4
    assert pol["ci95"][0] <= pol["rate"] <= pol["ci95"][1]
    assert pol["wins"] >= 3 and out["ratings"]["policy"] > out["ratings"]["random"]
    assert out["pairings"] == [{"a": "policy", "b": "random", "games": 4, "a_wins": pol["wins"], "draws": pol["draws"],
                                "b_wins": rnd["wins"]}]


def test_the_tournament_command_refuses_unknown_bots_and_policies():
    res = ludex("tournament", "balloon_cup", "--bots", "policy,randon")
    assert res.exit_code != 0 and "there is no bot 'randon'" in res.output and "random" in res.output
    res = ludex("tournament", "balloon_cup", "--bots", "policy:nope,random")
    assert res.exit_code != 0 and "balloon_cup declares no policy named 'nope'; its policies: pilot" in res.output


def test_simulate_plays_a_policy_and_ismcts():
    res = ludex("simulate", "hanabi", "--bot", "policy:iggi", "-n", "3", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["mean_team_score"] >= 10
    res = ludex("simulate", "balloon_cup", "--bot", "ismcts", "--iterations", "5", "--rollout", "pilot", "-n", "1", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["bot"] == "ismcts"


def test_a_tournament_on_two_workers_gives_the_results_of_one():
    """`ludex tournament` plays on the simulation's runners (issue 26): each game is seeded by
    its own config, so the numbers do not depend on how many processes played them."""
    runs = [ludex("tournament", "balloon_cup", "--bots", "policy,random", "-n", "4", "--seed", "3", "--json",
                  "--workers", str(n)) for n in (1, 2)]
    assert all(r.exit_code == 0 for r in runs), [r.output for r in runs]
    one, two = (json.loads(r.stdout) for r in runs)
    for stats in (one, two):  # think times differ between runs: compare what the games decided
        for b in stats["bots"].values():
            b.pop("seconds_per_decision")
    assert one == two
