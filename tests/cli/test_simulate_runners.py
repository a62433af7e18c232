"""Where games run does not change them: the same seed gives the same games, rows and
statistics on one process, two worker processes, or Ray; a run kept with --out can be
extended with --resume and any of its games replayed."""

from __future__ import annotations

import io
import json

import pytest
from cli_helpers import TOY, ludex
from rich.console import Console

from dsl import load_ruleset
from ludex.simulation import RUN_KEYS, simulate
from ludex.simulation.report import games_progress, ticker


def _games(stats: dict) -> dict:
    """The statistics fixed by the seed (the run's timing and place left out)."""
    return {k: v for k, v in stats.items() if k not in RUN_KEYS}


def _simulate(*args: str) -> dict:
    done = ludex("simulate", *args, "--json")
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def test_one_worker_and_two_workers_play_the_same_games(tmp_path):
    one = _simulate("balloon_cup", "--games", "12", "--seed", "4", "--workers", "1", "--out", str(tmp_path / "one"))
    two = _simulate("balloon_cup", "--games", "12", "--seed", "4", "--workers", "2", "--out", str(tmp_path / "two"))
    assert one["workers"] == 1 and two["workers"] == 2
    assert _games(one) == _games(two)
    assert len(one["outcomes"]) > 1 and one["metrics"]["length"]["mean"]["ci95"][0] < one["mean_plies"]
    rows = [sorted((tmp_path / run / "games.jsonl").read_text().splitlines()) for run in ("one", "two")]
    assert rows[0] == rows[1] and len(rows[0]) == 12  # the same rows, arrived in any order
    other_seed = _simulate("balloon_cup", "--games", "12", "--seed", "5", "--workers", "2")
    assert _games(other_seed) != _games(one)


def test_ray_plays_the_same_games_as_one_local_process():
    ray = pytest.importorskip("ray")
    rs = load_ruleset("balloon_cup")
    local = simulate(rs, None, {}, 10, 6, 5000, workers=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        arrived = []
        on_ray = simulate(rs, None, {}, 10, 6, 5000, ray="local", on_game=lambda: arrived.append(1))
    finally:
        ray.shutdown()
    assert on_ray["runner"] == "ray" and len(arrived) == 10  # every row streamed back
    assert _games(on_ray) == _games(local)


def test_a_kept_run_is_resumed_to_more_games_without_replaying_those_done(tmp_path):
    run = tmp_path / "run"
    first = _simulate(str(TOY), "--games", "6", "--seed", "8", "--workers", "1", "--out", str(run))
    assert first["games_played"] == 6
    more = _simulate(str(TOY), "--games", "10", "--seed", "8", "--workers", "2", "--out", str(run), "--resume")
    assert more["games_played"] == 4 and more["games"] == 10
    fresh = _simulate(str(TOY), "--games", "10", "--seed", "8", "--workers", "1")
    assert _games(more) == _games(fresh)
    lines = (run / "games.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["game"] for line in lines) == list(range(10))
    row = json.loads(lines[3])
    assert set(row) >= {"game", "seed", "bot", "seats", "end", "outcome", "plies", "legal_moves", "lead_changes",
                        "settled_at", "moves"}
    assert row["seed"] == f"8:{row['game']}" and row["bot"] == "random" and row["seats"] == 2
    again = _simulate(str(TOY), "--games", "10", "--seed", "8", "--out", str(run), "--resume")
    assert again["games_played"] == 0


def test_a_run_folder_refuses_what_does_not_fit(tmp_path):
    run = tmp_path / "run"
    _simulate(str(TOY), "--games", "2", "--seed", "1", "--workers", "1", "--out", str(run))
    done = ludex("simulate", str(TOY), "--games", "3", "--seed", "1", "--out", str(run))
    assert done.exit_code == 2 and "already holds a run; add --resume to extend it" in done.stderr
    done = ludex("simulate", str(TOY), "--games", "3", "--seed", "2", "--out", str(run), "--resume")
    assert done.exit_code == 2 and "holds a run with other settings (seed differ)" in done.stderr
    done = ludex("simulate", str(TOY), "--games", "3", "--resume")
    assert done.exit_code == 2 and "--resume needs --out DIR" in done.stderr
    done = ludex("simulate", str(TOY), "--games", "3", "--out", str(tmp_path / "new"), "--resume")
    assert done.exit_code == 2 and "holds no run to resume" in done.stderr
    done = ludex("simulate", str(TOY), "--workers", "2", "--ray", "auto")
    assert done.exit_code == 2 and "--workers and --ray both say where to play" in done.stderr


def test_any_game_of_a_run_is_replayed_from_its_row(tmp_path):
    run = tmp_path / "run"
    _simulate("balloon_cup", "--games", "3", "--seed", "2", "--workers", "1", "--out", str(run))
    rows = {json.loads(line)["game"]: json.loads(line) for line in (run / "games.jsonl").read_text().splitlines()}
    done = ludex("replay", str(run), "--game", "2", "--json")
    assert done.exit_code == 0, done.output
    shown = json.loads(done.stdout)
    assert shown["terminal"] and shown["outcome"] == rows[2]["outcome"]
    missing = ludex("replay", str(run), "--game", "7")
    assert missing.exit_code == 2 and "holds no game 7 (games 0 to 2)" in missing.stderr
    no_game = ludex("replay", str(run))
    assert no_game.exit_code == 2 and "give --game N" in no_game.stderr


def test_the_progress_bar_shows_games_done_the_rate_and_the_time_left():
    out = io.StringIO()
    with games_progress(Console(file=out, force_terminal=True, color_system=None, width=120)) as progress:
        tick = ticker(progress, progress.add_task("toy (random)", total=4), every=0.0)
        tick()
        tick()
        progress.refresh()
    shown = out.getvalue()
    assert "toy (random)" in shown and "2/4 games" in shown and "games/s" in shown
    assert "0:00:" in shown or "-:--:--" in shown  # the time left


def test_without_ray_installed_the_command_says_how_to_get_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed: importing it fails
    done = ludex("simulate", str(TOY), "--games", "2", "--ray")
    assert done.exit_code == 2
    assert done.stderr.strip() == ("error: Ray is not installed: pip install 'ludex[ray]' "
                                   "(or play on this machine's cores with --workers)")
