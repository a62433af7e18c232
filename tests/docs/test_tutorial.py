"""docs/tutorial.md as a designer follows it: its game checks clean, its misspelling gives the
diagnostic it shows, and its play, replay, audit and simulate commands do what it says."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text()
GAME = re.search(r"```ludex\n(.*?)```", TUTORIAL, re.S).group(1)  # type: ignore[union-attr]
LUDEX = [sys.executable, "-c", "from ludex.cli import main; main()"]


def ludex(cwd: Path, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(LUDEX + list(args), cwd=cwd, capture_output=True, text=True, timeout=300, input=input)


@pytest.fixture
def home(tmp_path):
    (tmp_path / "mygames" / "race").mkdir(parents=True)
    (tmp_path / "mygames" / "race" / "game.ludex").write_text(GAME)
    return tmp_path


def test_the_game_checks_and_the_misspelling_is_reported_as_shown(home):
    done = ludex(home, "check", "mygames/race")
    assert (done.returncode, done.stdout.strip()) == (0, "mygames/race: ok")
    game = home / "mygames" / "race" / "game.ludex"
    game.write_text(GAME.replace("  total += n", "  totl += n"))
    done = ludex(home, "check", "mygames/race")
    shown = re.search(r"```text\n(mygames/race/game.ludex:.*?)```", TUTORIAL, re.S).group(1)  # type: ignore[union-attr]
    assert done.returncode == 1 and done.stdout + done.stderr == shown


def test_play_replay_audit_and_simulate_as_written(home):
    played = ludex(home, "play", "mygames/race", "--save", "mine.jsonl", "--seed", "1", input="0\n" * 10)
    assert played.returncode == 0, played.stderr
    final = ludex(home, "replay", "mine.jsonl", "--final").stdout
    assert " · game over · event " in final.splitlines()[0] and "outcome: win" in final
    assert ludex(home, "replay", "mine.jsonl", "--at", "3").stdout.startswith("race · ply ")
    assert ludex(home, "audit", "mine.jsonl").stdout.startswith("verified")

    done = ludex(home, "simulate", "mygames/race", "--games", "400", "--seed", "1", "--plot", "race.png", "--json")
    stats = json.loads(done.stdout)
    for seat in ("0", "1"):  # random players: no advantage either way
        low, high = stats["win_rates"][seat]["ci95"]
        assert low < 0.5 < high
    assert (home / "race.png").read_bytes()[:4] == b"\x89PNG"

    # "Under --bot mcts seat 0 wins every game."
    done = ludex(home, "simulate", "mygames/race", "--games", "3", "--seed", "1", "--bot", "mcts", "--iterations", "200", "--json")
    assert json.loads(done.stdout)["win_rates"]["0"]["wins"] == 3

    assert ludex(home, "simulate", "mygames/race", "--games", "10", "--save", "logs").returncode == 0
    assert ludex(home, "audit", "logs/game-0001.jsonl").returncode == 0
