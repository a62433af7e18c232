"""`ludex check --all-variants`: each variant checked is listed, and each diagnostic is printed once."""

from __future__ import annotations

from cli_helpers import ludex

GAME = """game race "A race"
seats 2
option target: int = 3
var pos: per seat int = 0
step go
move run() during go {
  pos[actor] += 1
  if pos[actor] >= option.target { end game win actor }
  end turn
}
"""


def _folder(tmp_path, game: str):
    (tmp_path / "variants").mkdir()
    (tmp_path / "game.ludex").write_text(game)
    (tmp_path / "variants" / "long.ludex").write_text("variant long extends race\nset target = 5\n")
    (tmp_path / "variants" / "short.ludex").write_text("variant short extends race\nset target = 2\n")
    return tmp_path


def test_all_variants_lists_each_variant_it_checked(tmp_path):
    r = ludex("check", str(_folder(tmp_path, GAME)), "--all-variants")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert f"{tmp_path}: ok" in lines
    assert f"{tmp_path} +long: ok" in lines and f"{tmp_path} +short: ok" in lines


def test_all_variants_reports_a_base_diagnostic_once(tmp_path):
    broken = GAME.replace("pos[actor] += 1", "pos[actor] += nosuch")
    r = ludex("check", str(_folder(tmp_path, broken)), "--all-variants")
    assert r.exit_code == 1
    assert r.stderr.count("unknown name 'nosuch'") == 1, r.stderr


def test_all_variants_json_names_the_checked_combinations(tmp_path):
    import json

    r = ludex("check", str(_folder(tmp_path, GAME)), "--all-variants", "--json")
    assert json.loads(r.stdout)["checked"] == [[], ["long"], ["short"]]
