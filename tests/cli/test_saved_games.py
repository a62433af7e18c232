"""Saved games: `simulate --save DIR` and `play --save FILE` write logs in the `ludex export`
format that `ludex replay` (board or JSON, at an event or the end) and `ludex audit` read."""

from __future__ import annotations

import json

from cli_helpers import TOY, ludex


def _entries(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_simulated_games_are_saved_replayed_and_audited(tmp_path):
    stats = ludex("simulate", str(TOY), "--games", "6", "--seed", "3", "--json", "--save", str(tmp_path / "logs"))
    assert stats.exit_code == 0, stats.output
    logs = sorted((tmp_path / "logs").glob("*.jsonl"))
    assert [p.name for p in logs] == [f"game-000{i}.jsonl" for i in range(1, 7)]

    wins: dict[str, int] = {}
    for log in logs:
        entries = _entries(log)
        assert entries[0]["export"] and entries[1]["kind"] == "header"
        assert entries[1]["body"]["sources"][0][1] == (TOY / "game.ludex").read_text()  # the rules, pinned
        reveal = entries[-1]
        assert reveal["kind"] == "reveal" and reveal["body"]["seed"].startswith("3:")  # the seed, revealed
        winner = f"win seat {reveal['body']['outcome']['winners'][0]}"
        wins[winner] = wins.get(winner, 0) + 1

        audited = ludex("audit", str(log))
        assert audited.exit_code == 0 and audited.stdout.startswith("verified"), audited.stdout

        final = ludex("replay", str(log), "--final", "--json")
        assert final.exit_code == 0, final.output
        shown = json.loads(final.stdout)
        assert shown["terminal"] and shown["outcome"] == reveal["body"]["outcome"]
        assert shown["view"]["zones"]["shown"]["count"] == 1

        board = ludex("replay", str(log), "--final")
        assert board.exit_code == 0, board.output
        lines = board.stdout.splitlines()
        assert lines[0].startswith("toy · ply ") and " · step draw · game over · event " in lines[0]
        drawn = shown["view"]["zones"]["shown"]["components"][0]["name"]
        assert any(line.split() == ["shown", "(1):", f"[{drawn}]"] for line in lines), board.stdout  # a card, by name
        assert any(line.split() == ["deck:", "3", "hidden"] for line in lines), board.stdout
        assert f"outcome: win · winners: {winner.replace('win ', '')} · ({reveal['body']['outcome']['reason']})" in board.stdout

    # The statistics are those of the saved games.
    assert json.loads(stats.stdout)["outcomes"] == wins


def test_replay_at_an_event_shows_the_board_then(tmp_path):
    assert ludex("simulate", str(TOY), "--games", "1", "--save", str(tmp_path)).exit_code == 0
    log = tmp_path / "game-0001.jsonl"
    first = ludex("replay", str(log), "--at", "2")
    assert first.exit_code == 0, first.output
    assert first.stdout.splitlines()[0].startswith("toy · ply ")
    assert "seat 0 to act" in first.stdout.splitlines()[0]
    assert any(line.split() == ["deck:", "4", "hidden"] for line in first.stdout.splitlines()), first.stdout
    both = ludex("replay", str(log), "--at", "2", "--final")
    assert both.exit_code == 2 and "--at and --final" in both.stderr


def test_a_played_game_is_saved(tmp_path):
    log = tmp_path / "mine.jsonl"
    played = ludex("play", str(TOY), "--seed", "5", "--save", str(log), input="0\n")
    assert played.exit_code == 0, played.output
    assert f"saved the game's log to {log}" in played.stdout
    entries = _entries(log)
    moves = [e["body"] for e in entries if e.get("kind") == "move"]
    assert [(m["seat"], m["move"]) for m in moves] == [(0, "draw_card")]
    assert ludex("audit", str(log)).exit_code == 0
    final = json.loads(ludex("replay", str(log), "--json").stdout)
    assert final["terminal"] and final["outcome"]["kind"] == "win"


def test_simulate_save_must_be_a_folder(tmp_path):
    file = tmp_path / "file"
    file.write_text("")
    done = ludex("simulate", str(TOY), "--games", "1", "--save", str(file))
    assert done.exit_code == 2 and done.stderr.startswith(f"error: --save {file}: not a folder")


def test_saving_logs_is_not_timed_with_the_games(tmp_path, monkeypatch):
    # A log is rebuilt through the service, far slower than a toy game: the reported time and
    # playouts/s are the games' alone, and the logs are still all written.
    import time

    from dsl import load_ruleset
    from ludex import saved_games
    from ludex.simulation import simulate

    slow = saved_games.game_log

    def slow_log(*args, **kwargs):
        time.sleep(1.0)
        return slow(*args, **kwargs)

    toy = load_ruleset(str(TOY))
    simulate(toy, None, {}, 1, 1, 100)  # the rules' first game builds their tables: not what is measured here
    monkeypatch.setattr(saved_games, "game_log", slow_log)
    stats = simulate(toy, None, {}, 3, 1, 100, save=tmp_path / "logs")
    assert stats["seconds"] < 1.0 and stats["playouts_per_s"] > 3
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == ["game-0001.jsonl", "game-0002.jsonl", "game-0003.jsonl"]
    assert stats["save_seconds"] >= 3.0
