"""`ludex fmt`: rewrite, `--check` for CI, `--diff`, and refusal of text that does not parse."""

from __future__ import annotations

from typer.testing import CliRunner

from ludex import cli as ludex_cli

if not ludex_cli.app.registered_commands:  # main() registers lazily
    ludex_cli._register_all()


def ludex(*args: str):
    return CliRunner().invoke(ludex_cli.app, list(args))


UGLY = 'game toy\nseats 2\nconst  k = [1,2]   "T1"\n'
PRETTY = 'game toy\nseats 2\nconst k = [1, 2]  "T1"\n'


def test_fmt_rewrites_a_file_and_check_then_passes(tmp_path):
    f = tmp_path / "game.ludex"
    f.write_text(UGLY)
    r = ludex("fmt", "--check", str(tmp_path))
    assert r.exit_code == 1 and f"would reformat {f}" in r.stdout and f.read_text() == UGLY
    r = ludex("fmt", str(f))
    assert r.exit_code == 0 and f"formatted {f}" in r.stdout and f.read_text() == PRETTY
    r = ludex("fmt", "--check", str(f))
    assert r.exit_code == 0 and "0 file(s) would be reformatted, 1 left unchanged" in r.stderr


def test_fmt_diff_shows_the_change_without_writing(tmp_path):
    f = tmp_path / "game.ludex"
    f.write_text(UGLY)
    r = ludex("fmt", "--diff", str(f))
    assert r.exit_code == 1 and '-const  k = [1,2]   "T1"' in r.stdout and '+const k = [1, 2]  "T1"' in r.stdout
    assert f.read_text() == UGLY


def test_fmt_leaves_a_broken_file_alone_and_says_where(tmp_path):
    f = tmp_path / "game.ludex"
    f.write_text("game toy\nseats 2\nconst k = = 1\n")
    r = ludex("fmt", str(f))
    assert r.exit_code == 1 and f"{f}:3:" in r.stderr and "1 not parsed" in r.stderr
    assert f.read_text() == "game toy\nseats 2\nconst k = = 1\n"


def test_fmt_on_a_missing_path_is_a_usage_error():
    r = ludex("fmt", "no/such/place")
    assert r.exit_code == 2 and "no file or folder named 'no/such/place'" in r.stderr
