"""Hanabi agrees with DeepMind's Hanabi Learning Environment on the 40 recorded games.

The recordings live beside the repository (`<repo>/../shared/oracles/hanabi/games.jsonl`,
as in CI's checkout); the test is skipped only when that file is absent.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import hanabi_hle
import pytest

GAMES = Path(__file__).resolve().parents[2].parent / "shared" / "oracles" / "hanabi" / "games.jsonl"

pytestmark = pytest.mark.skipif(not GAMES.is_file(), reason=f"no HLE recordings at {GAMES}")


def test_every_recorded_game_agrees_step_by_step_under_official():
    r = hanabi_hle.run(GAMES, ("official",), quiet=True)
    assert r["games"] == 40
    assert r["first_disagreement"] is None
    assert (r["games_agree"], r["steps_agree"]) == (r["games"], r["steps"])


def test_the_recordings_cover_every_end_and_seat_count():
    recs = [json.loads(line) for line in GAMES.read_text().splitlines() if line.strip()]
    assert Counter(r["players"] for r in recs) == {2: 10, 3: 10, 4: 10, 5: 10}
    assert {r["end_reason"] for r in recs} == {"OUT_OF_CARDS", "OUT_OF_LIFE_TOKENS", "COMPLETED_FIREWORKS"}


def test_base_ruleset_only_adds_empty_hints():
    """Under the base ruleset (empty hints allowed) the oracle's moves are a subset of Ludex's
    and the extras are only hints touching no card."""
    r = hanabi_hle.run(GAMES, (), quiet=True)
    assert r["first_disagreement"] is None


def test_a_disagreement_is_reported(tmp_path):
    rec = json.loads(GAMES.read_text().splitlines()[0])
    rec["steps"][3]["hint_tokens"] += 1
    f = tmp_path / "one.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    r = hanabi_hle.run(f, ("official",), quiet=True)
    assert (r["games"], r["games_agree"], r["steps_agree"]) == (1, 0, 3)
    assert "turn 3" in r["first_disagreement"] and "hint_tokens" in r["first_disagreement"]
