"""Fresh Hanabi games from OpenSpiel (HLE's rules, dev-only `open-spiel` wheel) agree with
Ludex's `official` variant step by step. Skipped when pyspiel is not installed."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the dev-only oracle needs `pip install open-spiel==2.0.2`")

import hanabi_hle  # noqa: E402
import hanabi_openspiel  # noqa: E402


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fresh_openspiel_games_agree(players, tmp_path):
    f = tmp_path / "fresh.jsonl"
    with f.open("w") as out:
        for i, care in enumerate((0.0, 0.8, 1.0)):
            out.write(
                json.dumps(hanabi_openspiel.record_game(players, 1000 * players + i, care, game_id=i)) + "\n"
            )
    r = hanabi_hle.run(f, ("official",), quiet=True)
    assert r["first_disagreement"] is None
    assert r["games_agree"] == r["games"] == 3
