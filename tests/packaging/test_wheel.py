"""`pip install .` (not only an editable install) finds the grammar and the bundled rulesets."""

from __future__ import annotations

import glob
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_built_wheel_runs_bundled_rulesets_from_site_packages(tmp_path):
    wheel_dir, target = tmp_path / "wheel", tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheel_dir), str(ROOT)],
                   check=True, capture_output=True)
    wheel = glob.glob(str(wheel_dir / "ludex-*.whl"))[0]
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), wheel],
                   check=True, capture_output=True)
    probe = (
        "import dsl, runtime, grammars;"
        "from dsl import bundled_rulesets, load_ruleset;"
        "from runtime import Game;"
        "names = [b.name for b in bundled_rulesets()];"
        "rs = load_ruleset('balloon_cup', ['wind']);"
        "g = Game.new(rs, 2, seed=1);"
        "print(dsl.__file__); print(names); print(len(g.legal_moves(0)) > 0);"
        "from api.store import EventStore, migrate;"
        "print(migrate.current(EventStore('sqlite://').engine) == migrate.head());"
        "from api.grpc.reflection import commented_files;"
        "print(any(f.endswith('ludex.proto') for f in commented_files()))"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, check=True, capture_output=True, text=True)
    lines = out.stdout.splitlines()
    assert lines[0].startswith(str(target)), "the installed copy, not the source tree, was imported"
    assert "balloon_cup" in lines[1]
    assert lines[2] == "True"
    assert lines[3] == "True", "the store's migrations ship in the wheel"
    assert lines[4] == "True", "the commented descriptor set for reflection ships in the wheel"
