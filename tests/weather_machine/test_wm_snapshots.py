"""Weather Machine's compiled IR (a declaration summary, as for Balloon Cup in tests/dsl) and its
labelled placeholders (§1-§10 numbers no source states) as syrupy snapshots: a change of rules
or of a placeholder shows in review."""

from __future__ import annotations

import sys
from pathlib import Path

from wm_helpers import ruleset

from dsl.placeholders import count_by_kind, placeholders

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dsl"))
from test_dsl_ir import summary  # noqa: E402


def test_weather_machine_ir_summary(snapshot):
    rs = ruleset()
    s = summary(rs)
    assert s["seats"] == [2, 4]
    assert s == snapshot


def test_weather_machine_placeholders(snapshot):
    items = placeholders(ruleset())
    assert len(items) == 39
    assert all(p.file == "weather_machine/game.ludex" for p in items)
    lines = [p.line for p in items]
    assert max(lines) - min(lines) < 60  # one section, so a designer replaces them in one place
    assert count_by_kind(items) == snapshot
    assert [p.to_dict() for p in items] == snapshot
