"""A designer's own `rulesets/` and `grammars/` folders beside their script do not hide the
bundled games or the grammar (`dsl.shipped`): Python puts the script's folder first on
`sys.path`, and under the editable install `make test` makes, such a folder used to be imported
as the `rulesets` package (a namespace package) in place of Ludex's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """\
from dsl.loader import bundled_rulesets, load_ruleset
from api.http.models import CREATE_EXAMPLE
print(sorted(b.name for b in bundled_rulesets()))
print(load_ruleset("hanabi").name, CREATE_EXAMPLE["ruleset"])
"""


def test_a_designers_own_rulesets_folder_does_not_hide_the_bundled_games(tmp_path):
    (tmp_path / "rulesets" / "my_game").mkdir(parents=True)
    (tmp_path / "rulesets" / "my_game" / "game.ludex").write_text('game my_game "Mine"\n', encoding="utf-8")
    (tmp_path / "grammars").mkdir()
    script = tmp_path / "simulate_mine.py"
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    names, loaded = done.stdout.splitlines()
    bundled = sorted(d.name for d in (ROOT / "rulesets").iterdir() if (d / "game.ludex").is_file())
    assert names == str(bundled) and "my_game" not in names
    assert loaded.split() == ["hanabi", *[n for n in bundled if n == loaded.split()[1]]]  # the API's example game is bundled
