"""Language versions: a file states `language N`; a rule a later version tightened warns older files, with its fix."""

from __future__ import annotations

from dsl.diagnostics import Edit
from dsl.fixes import apply_edits
from dsl.loader import check_text, load_from_sources

# a designer's file from before `ordered` was required: it states no language version
OLD = """game pile_up "Pile up"
seats 2
component card(n: int)
components cards = [card(i) for i in 1..6]
zone deck: card hidden = cards
zone pile: card public = []
step play
move put(c in deck) during play {
  move c to pile top
  end turn
}
"""


def test_an_old_file_gets_a_warning_with_its_fix_not_an_error():
    [d] = check_text(OLD, "old.ludex")
    assert (d.severity, d.line, d.column) == ("warning", 9, 13)
    assert d.message == ("zone 'pile' is not `ordered`, and a place in it (`top`, `at N`) means something "
                         "(an error from language 2 on; this file targets language 1)")
    assert d.code == "ordered-zone"
    assert [(f.title, f.edits) for f in d.fixes] == [
        ("declare zone 'pile' `ordered`", (Edit("old.ludex", 6, 23, 6, 23, " ordered"),))]
    # it still loads and plays: a warning never stops a game
    assert load_from_sources((("old.ludex", OLD),)).name == "pile_up"


def test_the_fix_applied_makes_the_file_clean():
    [d] = check_text(OLD, "old.ludex")
    fixed, applied = apply_edits(OLD, d.fixes[0].edits)
    assert "zone pile: card public ordered = []\n" in fixed and len(applied) == 1
    assert check_text(fixed, "old.ludex") == []


def test_a_file_that_targets_the_new_version_gets_the_error():
    text = OLD.replace("seats 2\n", "seats 2\nlanguage 2\n")
    [d] = check_text(text, "new.ludex")
    assert (d.severity, d.line) == ("error", 10)
    assert d.message == "zone 'pile' is not `ordered`, and a place in it (`top`, `at N`) means something"
    assert d.fixes[0].edits == (Edit("new.ludex", 7, 23, 7, 23, " ordered"),)


def test_stating_language_1_is_the_same_as_stating_none():
    [d] = check_text(OLD.replace("seats 2\n", "seats 2\nlanguage 1\n"), "one.ludex")
    assert d.severity == "warning" and d.message.endswith("this file targets language 1)")


def test_a_version_this_ludex_does_not_know_is_an_error_saying_so():
    [d] = check_text(OLD.replace("seats 2\n", "seats 2\nlanguage 7\n"), "future.ludex")[:1]
    assert (d.severity, d.line, d.column) == ("error", 3, 1)
    assert d.message == "this file targets language 7, and this Ludex knows languages 1 to 2"
    assert d.hint == "upgrade Ludex"


def test_stating_the_version_twice_is_an_error_at_the_second():
    [d] = check_text(OLD.replace("seats 2\n", "language 2\nseats 2\nlanguage 2\n"), "twice.ludex")
    assert (d.severity, d.line, d.message) == ("error", 4, "the file states its language version twice")


def test_a_variant_targets_its_own_version():
    base = OLD.replace("move c to pile top", "move c to pile")
    variant = "variant on_top extends pile_up\nlanguage 2\nreplace move put(c in deck) during play {\n  move c to pile top\n  end turn\n}\n"
    from dsl.loader import check_sources

    [d] = check_sources((("game.ludex", base), ("on_top.ludex", variant)))
    assert (d.severity, d.file, d.line) == ("error", "on_top.ludex", 4)
    # the fix edits the base, where the zone is declared
    assert d.fixes[0].edits[0].file == "game.ludex"
