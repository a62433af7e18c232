"""Option ranges (`option NAME: int in LOW..HIGH = default`) and the parser's nesting limit:
hostile text gets a diagnostic, never a crash (issue 14)."""

from __future__ import annotations

import pytest
from dsl_helpers import MINI, diagnostics, edit, rendered

from dsl import check_text, load_from_sources
from dsl.parser import MAX_NESTING
from runtime import BadOption, Game

TARGET = 'option target: int = 3 "points needed to win"'


def _mini(option_line: str) -> str:
    return edit(TARGET, option_line)


def test_a_declared_range_reaches_the_ir_and_bounds_may_be_negative():
    rs = load_from_sources((("mini.ludex", _mini('option target: int in -2..9 = 3 "points"')),))
    assert rs.option("target").range == (-2, 9)
    assert load_from_sources((("mini.ludex", MINI),)).option("target").range is None


def test_values_outside_the_range_are_refused_at_game_creation_with_the_option_name():
    rs = load_from_sources((("mini.ludex", _mini('option target: int in 1..9 = 3 "points"')),))
    for bad in (0, -1, 10, 1 << 70):
        with pytest.raises(BadOption, match=r"option 'target' must be in 1\.\.9") as info:
            Game.new(rs, seats=2, options={"target": bad}, seed="s")
        assert info.value.option == "target"
    for good in (1, 9):
        assert Game.new(rs, seats=2, options={"target": good}, seed="s").st.options["target"] == good


def test_an_optional_int_with_a_range_still_accepts_none():
    rs = load_from_sources((("mini.ludex", edit(">= option.target", ">= (if option.target == none then 3 else option.target)",
                                                _mini('option target: int? in 1..9 = none "points"'))),))
    assert Game.new(rs, seats=2, options={"target": None}, seed="s").st.options["target"] is None


@pytest.mark.parametrize("line,message", [
    ('option target: bool in 1..9 = true "x"', "option 'target' is bool: only an int option can declare a range"),
    ('option target: int in 5..1 = 3 "x"', "option 'target' has an empty range 5..1"),
    ('option target: int in 1..9 = 12 "x"', "option 'target' defaults to 12, outside its range 1..9"),
    ('option target: int in 1..9 = -3 "x"', "option 'target' defaults to -3, outside its range 1..9"),
])
def test_the_checker_reports_bad_ranges(line, message):
    text = _mini(line)
    if "bool" in line:
        text = edit(">= option.target", ">= (if option.target then 3 else 2)", text)
    diags = diagnostics(text)
    assert [d.message for d in diags] == [message], rendered(diags)
    assert diags[0].line == 4


def test_a_variant_setting_a_default_outside_the_range_is_reported():
    variant = ("v1.ludex", 'variant v1 extends mini "x"\nset target = 42\n')
    diags = diagnostics(_mini('option target: int in 1..9 = 3 "points"'), variant)
    assert [d.message for d in diags] == ["option 'target' defaults to 42, outside its range 1..9"]


def _deep(n: int) -> str:
    return MINI + "\nconst deep = " + "-" * n + "1\n"


def test_nesting_up_to_the_limit_checks_clean():
    assert diagnostics(_deep(MAX_NESTING - 10)) == []


@pytest.mark.parametrize("n", [MAX_NESTING + 1, 50_000])
def test_deeper_nesting_is_one_diagnostic_not_a_crash(n):
    diags = check_text(_deep(n), "deep.ludex")
    assert len(diags) == 1, rendered(diags)
    d = diags[0]
    assert d.message == f"syntax error: nested more than {MAX_NESTING} levels deep"
    assert (d.file, d.line) == ("deep.ludex", MINI.count("\n") + 2)
    assert d.snippet.startswith("  const deep = ---")


@pytest.mark.parametrize("inner,message", [
    ("(", "syntax error: unexpected end of file (in a string's {...})"),
    ("-" * 5000 + "1", f"syntax error: nested more than {MAX_NESTING} levels deep"),
])
def test_bad_interpolations_in_strings_are_diagnostics(inner, message):
    text = MINI + '\nconst msg = "a {' + inner + '} b"\n'
    diags = check_text(text, "interp.ludex")
    assert [d.message for d in diags] == [message], rendered(diags)
    assert diags[0].line == MINI.count("\n") + 2 and diags[0].column > len('const msg = "a {')
