"""`ludex check --fix`: applies the machine-applicable hints, prints what it changed, then checks again."""

from __future__ import annotations

from cli_helpers import ludex

OLD = """game pile_up "Pile up"
seats 2
component card(n: int)
components cards = [card(i) for i in 1..6]
zone deck: card hidden = cards
zone pile: card public = []
var moved: int = 0
step play
move put(c in deck) during play {
  move c to pile top
  moved += 1
  mvoed += 1
  end turn
}
"""


def test_check_fix_applies_each_fix_and_reports_it(tmp_path):
    game = tmp_path / "game.ludex"
    game.write_text(OLD)
    r = ludex("check", str(tmp_path))
    assert r.exit_code == 1 and "unknown name 'mvoed'" in r.stderr and "warning: zone 'pile' is not `ordered`" in r.stderr
    r = ludex("check", str(tmp_path), "--fix")
    assert r.exit_code == 0, r.output
    assert f"{game}:10:13: fixed: declare zone 'pile' `ordered`" in r.stdout
    assert f"{game}:12:3: fixed: replace 'mvoed' with 'moved'" in r.stdout
    assert f"{tmp_path}: ok" in r.stdout and r.stderr == ""
    text = game.read_text()
    assert "zone pile: card public ordered = []\n" in text and "  moved += 1\n  moved += 1\n" in text
    assert len(text.splitlines()) == len(OLD.splitlines())


def test_check_fix_leaves_what_it_cannot_fix_and_still_fails(tmp_path):
    game = tmp_path / "game.ludex"
    broken = OLD.replace("mvoed += 1", "zzzzzz += 1")
    game.write_text(broken)
    r = ludex("check", str(tmp_path), "--fix")
    assert r.exit_code == 1 and "unknown name 'zzzzzz'" in r.stderr
    assert "fixed: declare zone 'pile' `ordered`" in r.stdout
    assert "zzzzzz += 1" in game.read_text()
