"""Checker and parser diagnostics: file:line:column, the line with a caret, fix hints, and
several findings in one run. Snapshots hold the full text a designer sees."""

from __future__ import annotations

import pytest
from dsl_helpers import MINI, diagnostics, edit, rendered

from dsl import check, check_text

VARIANT = 'variant v1 extends mini "a test variant"\n'


def test_the_mini_game_is_clean():
    assert diagnostics(MINI) == []
    assert check_text(MINI, "mini.ludex") == []


def _one(text, *variants):
    diags = diagnostics(text, *variants)
    assert len(diags) == 1, rendered(diags)
    return diags[0]


def test_unknown_function_points_at_the_call_with_did_you_mean(snapshot):
    d = _one(edit("points(c)\n", "point(c)\n"))
    assert (d.file, d.line, d.column, d.severity) == ("mini.ludex", 30, 19, "error")
    assert d.message == "unknown function 'point'"
    assert d.hint == "did you mean 'points'?"
    assert d.snippet.splitlines()[0].strip() == "score[actor] += point(c)"
    caret = d.snippet.splitlines()[1]
    assert caret.index("^") == d.snippet.splitlines()[0].index("point(")
    assert str(d) == snapshot


def test_unknown_zone_name_with_did_you_mean(snapshot):
    d = _one(edit("move c to pile\n", "move c to piles\n"))
    assert (d.line, d.column, d.hint) == (29, 13, "did you mean 'pile'?")
    assert str(d) == snapshot


def test_unknown_name_without_a_close_match_says_how_to_declare_it():
    d = _one(edit("= c.value\n", "= zzzqqq\n"))
    assert d.message == "unknown name 'zzzqqq'" and d.hint == "declare it (`var`, `const`, `let`) or take it as a parameter"


def test_unknown_attribute_of_a_component(snapshot):
    d = _one(edit("require c.value > 0", "require c.valeu > 0"))
    assert "has no attribute 'valeu'" in d.message and "value" in d.hint
    assert str(d) == snapshot


def test_unknown_option_read_by_the_rules(snapshot):
    d = _one(edit("option.target", "option.targte"))
    assert d.message == "unknown option 'targte'" and d.hint == "did you mean 'target'?"
    assert str(d) == snapshot


@pytest.mark.parametrize("old,new,message", [
    ("require c.value > 0", "require c.value > red", "type mismatch: expected a number, found a colour"),
    ("require c.value > 0", "require c.value", "type mismatch: expected a truth value, found a number"),
    ("turn 0", "turn red", "type mismatch: expected a seat, found a colour"),
    ("draw 2 from", 'draw "two" from', "type mismatch: expected a number, found text"),
    ("= c.value\n", "= c.value > 1\n", "function 'points' returns a truth value but declares int"),
], ids=["compare_number_with_enum", "require_not_bool", "turn_not_seat", "draw_count_text", "fn_return_type"])
def test_type_mismatches(old, new, message, snapshot):
    d = _one(edit(old, new))
    assert d.message == message
    assert d.snippet.count("^") == 1
    assert str(d) == snapshot


def test_assigning_text_to_an_int_variable_is_a_type_mismatch(snapshot):
    # was a checker gap (found by this suite): it checked clean and failed at run time with a TypeError
    d = _one(edit("score[actor] += points(c)", 'score[actor] += "ten"'))
    assert (d.line, d.column) == (30, 19)
    assert d.message == "type mismatch: assigning text to a number"
    assert str(d) == snapshot


def test_a_var_initialised_with_the_wrong_type_is_a_type_mismatch(snapshot):
    d = _one(edit("var score: per seat int = 0", 'var score: per seat int = "zero"'))
    assert (d.line, d.column) == (14, 27)
    assert d.message == "type mismatch: 'score' is a number but starts as text"
    assert str(d) == snapshot


def test_unreachable_step(snapshot):
    d = _one(MINI + '\nstep bonus "never reached"\nmove take() during bonus "x" { end turn }\n')
    assert d.message == "step 'bonus' can never be reached"
    assert "goto" in d.hint
    assert str(d) == snapshot


def test_step_with_no_move(snapshot):
    d = _one(edit("move c to pile\n", "move c to pile\n  goto idle\n") + '\nstep idle "a dead end"\n')
    assert d.message == "step 'idle' has no move: a seat there could never act"
    assert str(d) == snapshot


def test_unknown_step_in_goto(snapshot):
    d = _one(edit("move c to pile\n", "move c to pile\n  goto plya\n"))
    assert d.message == "unknown step 'plya'" and d.hint == "did you mean 'play'?"
    assert str(d) == snapshot


def test_several_errors_are_reported_in_one_run(snapshot):
    text = edit("move c to pile\n", "move c to piles\n  goto idle\n")
    text = edit("require c.value > 0", "require c.value > red", text)
    text += '\nstep idle "a dead end"\nstep bonus "never"\nmove take() during bonus "x" { end turn }\nfn f() -> int = unknownthing\n'
    diags = diagnostics(text)
    assert {d.message for d in diags} >= {
        "unknown name 'piles'", "type mismatch: expected a number, found a colour", "step 'idle' has no move: a seat there could never act",
        "step 'bonus' can never be reached", "unknown name 'unknownthing'"}
    assert len({(d.line, d.column) for d in diags}) == len(diags)
    assert rendered(diags) == snapshot


# ---- syntax errors ----
@pytest.mark.parametrize("name,old,new", [
    ("unclosed_block", "shuffle deck\n", "shuffle deck\n  if true {\n"),
    ("missing_then_target", 'step play "play a card" then end turn', 'step play "play a card" then then end turn'),
    ("stray_character", "zone pile: card public", "zone pile: card public $"),
    ("unterminated_string", '"points needed to win"', '"points needed to win'),
], ids=lambda x: x if "_" in str(x) and " " not in str(x) else "")
def test_syntax_errors_name_the_position_and_what_was_expected(name, old, new, snapshot):
    diags = diagnostics(edit(old, new))
    assert diags and all(d.file == "mini.ludex" for d in diags)
    assert diags[0].message.startswith("syntax error")
    assert diags[0].snippet.count("^") == 1
    assert rendered(diags) == snapshot


def test_a_syntax_error_at_a_word_that_starts_like_a_keyword_names_the_whole_word():
    """`wins` is a name, not the keyword `win` followed by `s`."""
    d = diagnostics(edit("seats 2\n", "seats 2 wins\n"))[0]
    assert (d.line, d.column, d.message) == (2, 9, "syntax error: unexpected 'wins'")
    assert d.snippet.splitlines()[1].index("^") == d.snippet.splitlines()[0].index("wins")
    d = diagnostics(edit('end game win s "reached the target"', 'end game scores score ties wins "at ten"'))[0]
    assert (d.line, d.column, d.message) == (37, 30, "syntax error: unexpected 'wins'")
    assert d.hint == "expected 'win' or 'draw'"
    assert diagnostics(edit('end game win s "reached the target"', 'end game scores score ties win "at ten"')) == []


def test_syntax_errors_in_two_files_are_both_reported():
    bad_variant = ("v1.ludex", VARIANT + "set target = \n}")
    diags = diagnostics(edit("shuffle deck\n", "shuffle deck\n  if true {\n"), bad_variant)
    assert {d.file for d in diags} == {"mini.ludex", "v1.ludex"}


def test_a_game_file_must_start_with_game():
    diags = diagnostics(VARIANT + "set target = 4\n")
    assert diags[0].message == "a ruleset file must start with `game NAME`"


# ---- variants ----
def test_variant_sets_an_option_that_does_not_exist(snapshot):
    d = _one(MINI, ("v1.ludex", VARIANT + "set targt = 4\n"))
    assert (d.file, d.line, d.column) == ("v1.ludex", 2, 5)
    assert d.message == "variant 'v1' sets option 'targt' that does not exist"
    assert d.hint == "did you mean 'target'? options: target"
    assert str(d) == snapshot


def test_variant_removes_or_replaces_a_rule_that_does_not_exist(snapshot):
    diags = diagnostics(MINI, ("v1.ludex", VARIANT + "remove move pas\nreplace fn pints(c: card) -> int \"x\" = 1\n"))
    assert [d.message for d in diags] == ["variant 'v1' removes move 'pas' that does not exist",
                                          "variant 'v1' replaces fn 'pints' that does not exist"]
    assert [d.hint for d in diags] == ["did you mean 'pass'?", "did you mean 'points'?"]
    assert rendered(diags) == snapshot


def test_variant_adding_an_existing_rule_suggests_replace():
    d = _one(MINI, ("v1.ludex", VARIANT + 'add fn points(c: card) -> int "x" = 1\n'))
    assert "already exists" in d.message and "replace" in d.hint


def test_variant_extending_another_game():
    d = _one(MINI, ("v1.ludex", 'variant v1 extends other "x"\nset target = 4\n'))
    assert d.message == "variant 'v1' extends 'other', not 'mini'"


def test_two_variants_changing_the_same_rule_conflict(snapshot):
    v1 = ("v1.ludex", VARIANT + 'replace fn points(c: card) -> int "a" = 2\n')
    v2 = ("v2.ludex", 'variant v2 extends mini "b"\nreplace fn points(c: card) -> int "b" = 3\n')
    d = _one(MINI, v1, v2)
    assert (d.file, d.line) == ("v2.ludex", 2)
    assert d.message == "variants 'v1' and 'v2' both change fn 'points'"
    assert d.hint == "these variants cannot be combined"
    assert str(d) == snapshot
    assert diagnostics(MINI, v1) == [] and diagnostics(MINI, v2) == []


def test_variant_edits_are_checked_like_the_game():
    d = _one(MINI, ("v1.ludex", VARIANT + 'replace fn points(c: card) -> int "a" = c.vale\n'))
    assert d.file == "v1.ludex" and "has no attribute 'vale'" in d.message


# ---- bundled Balloon Cup ----
VARIANTS = ["no_three_for_one", "opponent_side_a", "opponent_side_b", "opponent_side_c", "prevention", "wind"]


@pytest.mark.parametrize("variant", [None] + VARIANTS)
def test_bundled_balloon_cup_and_each_variant_check_clean(variant):
    assert check("balloon_cup", [variant] if variant else []) == []


def test_compatible_balloon_cup_variants_combine():
    assert check("balloon_cup", ["no_three_for_one", "wind", "prevention", "opponent_side_b"]) == []


def test_opponent_side_variants_conflict_with_each_other(snapshot):
    diags = check("balloon_cup", ["opponent_side_a", "opponent_side_c"])
    assert len(diags) == 1
    d = diags[0]
    assert d.file == "balloon_cup/variants/opponent_side_c.ludex"
    assert d.message == "variants 'opponent_side_a' and 'opponent_side_c' both change fn 'may_play_side'"
    assert str(d) == snapshot


def test_unknown_variant_and_ruleset_names_get_hints():
    d = check("balloon_cup", ["wnd"])[0]
    assert d.message == "no variant named 'wnd'" and d.hint.startswith("did you mean 'wind'? variants: ")
    d = check("baloon_cup")[0]
    assert d.message == "no ruleset named 'baloon_cup'" and d.hint.startswith("did you mean 'balloon_cup'? bundled rulesets: ")


# ---- checker gaps found by this suite (each once checked clean and misbehaved at run time) ----

@pytest.mark.parametrize("text", [
    pytest.param(MINI.replace('move pass() during play otherwise "nothing to play" { }',
                              'move pass() during play otherwise "nothing to play" { }\nmove pass() during play "again" { }'),
                 id="duplicate_move"),
    pytest.param(MINI + '\nfn points(c: card) -> int = 100\n',
                 id="duplicate_fn"),
    pytest.param(edit('end game win s "reached the target"', 'end game win red "x"'),
                 id="win_not_a_seat"),
    pytest.param(edit("for s in seats", "for s in 3"),
                 id="for_over_a_number"),
    pytest.param(edit("option target: int = 3", 'option target: int = "x"'),
                 id="option_default_type"),
    pytest.param(MINI.replace("zone pile: card public = []", "zone pile: card public = [1, 2]"),
                 id="zone_init_not_components"),
])
def test_checker_reports_what_would_fail_at_run_time(text):
    assert diagnostics(text), "checks clean"


@pytest.mark.parametrize("text,where,message,hint", [
    (edit("score[actor] += points(c)", "score[actor] += points(c, c)"), (30, 19), "'points' takes 1 argument(s), 2 given",
     "it is declared `points(c: card)`"),
    (edit("move c to pile\n", "move c to hand\n"), (29, 13),
     "this zone has one part per seat: index it with a seat", "`hand[actor]` for the seat acting, `hand[s]` for a seat s"),
    (MINI + '\nmove take() during plya "x" { }\n', (40, 6), "unknown step 'plya'", "did you mean 'play'?"),
    (edit("shuffle deck", "shuffle 3"), (19, 11), "type mismatch: expected a zone, found a number",
     "the zones are deck, hand, pile"),
    (edit("var score: per seat int", "var score: per seat integer"), (14, 5), "unknown type 'integer'", "did you mean 'int'?"),
    (MINI + "\nenum other { red, green }\n", (40, 6), "enum value 'red' is already a value of enum 'colour'",
     "enum values share one namespace: rename one of them"),
    (edit("when score[s] >= option.target", "when score[s]"), (36, 30), "type mismatch: expected a truth value, found a number",
     "compare it: `score[s] > 0`, `score[s] == 1`"),
    (edit('"card {c} has no value"', '"card {cc} has no value"'), (27, 35), "unknown name 'cc'", "did you mean 'c'?"),
    (edit("then end turn", "then goto nowhere"), (24, 30), "unknown step 'nowhere'", "the steps are play"),
    (edit("move c to pile\n", "move c to pile\n  goto play by red\n"), (30, 16), "type mismatch: expected a seat, found a colour",
     "a seat is `actor`, `current`, `next(s)`, `other(s)`, one of `seats`, or a number"),
], ids=["arity", "per_seat_zone_unindexed", "move_during_unknown_step", "shuffle_a_number", "unknown_type",
        "enum_value_twice", "trigger_condition_not_bool", "unknown_name_in_reason_text", "then_goto_unknown_step",
        "goto_by_non_seat"])
def test_more_checker_findings(text, where, message, hint):
    d = _one(text)
    assert ((d.line, d.column), d.message, d.hint) == (where, message, hint)
    assert d.snippet.splitlines()[1].index("^") == d.column + 1  # two spaces of indent, then the caret column


# ---- precedence that misleads (issue 12) ----

def test_a_range_after_a_join_gets_a_parenthesise_hint(snapshot):
    d = _one(MINI + "\nconst xs = [0, 0] ++ 2..10\n")
    assert (d.line, d.column, d.message) == (40, 12, "type mismatch: expected a number, found a list")
    assert "`[0, 0] ++ (2..10)`" in d.hint
    assert str(d) == snapshot
    assert diagnostics(MINI + "\nconst xs = [0, 0] ++ (2..10)\n") == []


def test_joining_a_single_item_says_to_wrap_it(snapshot):
    d = _one(MINI + "\nconst xs = [0, 0] ++ 2\n")
    assert (d.message, d.hint) == ("type mismatch: `++` joins two lists, found a number", "to add one item, write `xs ++ [x]`")
    assert str(d) == snapshot
    assert diagnostics(MINI + "\nconst xs = [0, 0] ++ [2]\n") == []


# ---- `other(s)` and `ordered` (issue 12) ----

def test_other_in_a_game_of_more_than_two_seats_is_a_diagnostic(snapshot):
    d = _one(edit("seats 2", "seats 2..4", edit("score[actor] += points(c)", "score[other(actor)] += points(c)")))
    assert d.message == "`other(s)` needs a game of exactly two seats, but this one may have 4"
    assert "next(s)" in d.hint
    assert str(d) == snapshot
    assert diagnostics(edit("score[actor] += points(c)", "score[other(actor)] += points(c)")) == []


@pytest.mark.parametrize("seats", ["seats 3", "seats 2..3"])
def test_other_in_a_game_of_three_seats_is_a_diagnostic(seats):
    d = _one(edit("seats 2", seats, edit("score[actor] += points(c)", "score[other(actor)] += points(c)")))
    assert d.message == "`other(s)` needs a game of exactly two seats, but this one may have 3"


LANGUAGE_2 = edit("seats 2\n\n", "seats 2\nlanguage 2\n")  # the blank line 3 takes it: line numbers hold


def test_draws_and_places_need_an_ordered_zone(snapshot):
    # an error from language 2 on (a file that targets language 1 gets a warning: tests/dsl/test_language_versions.py)
    found = diagnostics(edit("zone deck: card hidden ordered", "zone deck: card hidden", LANGUAGE_2))
    assert [(d.line, d.message) for d in found] == [(n, "zone 'deck' is not `ordered`, and `draw` takes from the top") for n in (20, 31)]
    assert str(found[0]) == snapshot
    d = _one(edit("move c to pile\n", "move c to pile top\n", LANGUAGE_2))
    assert d.message == "zone 'pile' is not `ordered`, and a place in it (`top`, `at N`) means something"
    assert diagnostics(edit("move c to pile\n", "move c to deck top\n")) == []  # deck is ordered
    assert diagnostics(edit("move c to pile\n", "move c to pile\n  move top(pile) to deck\n")) == []  # top() picks one
