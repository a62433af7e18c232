"""`dsl.incremental.parse_incremental`: the same syntax tree and diagnostics as parsing the whole file."""

from __future__ import annotations

import pytest

from dsl import RulesetError
from dsl.incremental import parse_incremental
from dsl.loader import bundled_rulesets, check_sources
from dsl.parser import parse_text

FILES = [(b.name, p) for b in bundled_rulesets() for p in sorted(__import__("pathlib").Path(b.path).rglob("*.ludex"))]


@pytest.mark.parametrize("name,path", FILES, ids=[str(p.relative_to(p.parents[1])) for _, p in FILES])
def test_a_bundled_file_parses_to_the_same_tree_piece_by_piece(name, path):
    text = path.read_text(encoding="utf-8")
    assert parse_incremental(text, "f.ludex") == parse_text(text, "f.ludex")


def test_an_edit_gives_the_tree_of_the_edited_text_and_errors_are_the_whole_parses():
    text = (bundled_rulesets()[0].path + "/game.ludex")
    src = open(text, encoding="utf-8").read()
    parse_incremental(src, "g.ludex")  # the pieces are cached now
    edited = src.replace("seats 2", "seats 2..3", 1)
    assert parse_incremental(edited, "g.ludex") == parse_text(edited, "g.ludex")
    broken = src.replace("seats 2", "seats = 2", 1)
    with pytest.raises(RulesetError) as a:
        parse_incremental(broken, "g.ludex")
    with pytest.raises(RulesetError) as b:
        parse_text(broken, "g.ludex")
    assert a.value.diagnostics == b.value.diagnostics
    assert check_sources((("g.ludex", broken),), incremental=True) == check_sources((("g.ludex", broken),))


def test_a_second_header_or_language_falls_back_to_the_whole_parse():
    twice = "game a\nseats 2\ngame b\n"
    with pytest.raises(RulesetError):
        parse_text(twice)
    with pytest.raises(RulesetError):
        parse_incremental(twice)
    lang = "# a comment first\ngame a\nlanguage 2\nseats 2\nlanguage 2\n"
    with pytest.raises(RulesetError) as exc:
        parse_incremental(lang)
    assert exc.value.diagnostics[0].message == "the file states its language version twice"
    assert parse_incremental(lang.rsplit("language 2\n", 1)[0]).language == 2
    assert parse_incremental(lang.rsplit("language 2\n", 1)[0]).name == "a"
