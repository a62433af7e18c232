"""docs/learning.md is run, not just read: its quick start plays as written, and its RLlib
sketch (Ray is not installed here) at least compiles."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

DOC = (Path(__file__).parents[2] / "docs" / "learning.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, re.S)


def test_the_quick_start_runs_a_game_to_its_end():
    assert len(BLOCKS) == 2, "docs/learning.md: a quick start and an RLlib block"
    scope: dict = {}
    exec(compile(BLOCKS[0], "docs/learning.md (quick start)", "exec"), scope)
    env = scope["env"]
    assert env.agents == [] and env.game.terminal  # every agent played out and left
    assert scope["game"].get_type().short_name == "ludex_hanabi__rainbow"


def test_the_rllib_sketch_compiles():
    compile(BLOCKS[1], "docs/learning.md (RLlib)", "exec")
