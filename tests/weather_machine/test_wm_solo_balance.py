"""Weather Machine solo balance (issue 24 D3, WM-D12): the solo can be won.

The scripted planner of bench/wm_solo_planner.py (a one-ply lookahead on `fn score` that also
values the bots, chemicals, parts and vouchers in hand) plays one seeded game against the
Saboteurs. With the placeholders before calibration it scored 8-15 CP against a final target of
80-95, so this game could not be won; the source numbers (target 35, +30 at the end) are
unchanged, only placeholder rewards were calibrated. The bench prints the win share over many
games (7 of seeds 100-119 at the time of calibration)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from wm_helpers import ruleset

from runtime import Game

BENCH = Path(__file__).resolve().parents[2] / "bench" / "wm_solo_planner.py"


def planner():
    spec = importlib.util.spec_from_file_location("wm_solo_planner", BENCH)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_competent_player_beats_the_target_at_final_scoring():
    choose = planner().choose
    seed = 113
    rng = random.Random(seed)
    g = Game.new(ruleset("solo"), 1, {}, seed=seed)
    while not g.terminal:
        s = g.decision().seats[0]
        g.apply(s, choose(g, s, g.legal_moves(s), rng))
    assert g.outcome["winners"] == [0]
    assert g.outcome["reason"].startswith("final scoring: the human beat the target value")
    human, target = g.outcome["scores"]["0"], g.outcome["scores"]["1"]
    assert target >= 35 + 30 and human > target
