"""`dsl.incremental.parse_incremental`: the same syntax tree and diagnostics as parsing the whole file."""

from __future__ import annotations

import attrs
import pytest

from dsl import RulesetError, incremental
from dsl.ast import Span
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


def test_lines_inserted_and_deleted_above_move_the_kept_pieces_to_the_whole_parses_lines():
    src = open(bundled_rulesets()[0].path + "/game.ludex", encoding="utf-8").read()
    head, rest = src.split("\n", 1)
    for text in (src, f"{head}\n# one\n# two\n{rest}", f"{head}\n# one\n{rest}", src, f"{head}\n\n\n\n{rest}"):
        moved, whole = parse_incremental(text, "moved.ludex"), parse_text(text, "moved.ludex")
        assert moved == whole
        assert _spans(moved) == _spans(whole)  # a node's span takes no part in `==`: compared here


def _spans(tree) -> list:
    """Every span in a syntax tree, in order."""
    if isinstance(tree, Span):
        return [tree]
    if isinstance(tree, tuple):
        return [s for x in tree for s in _spans(x)]
    if attrs.has(type(tree)):
        return [s for f in attrs.fields(type(tree)) for s in _spans(getattr(tree, f.name))]
    return []


def test_an_editing_session_keeps_the_pieces_of_the_last_version_only():
    # the language server's memory stays flat (issue 28): 300 different versions leave one version's pieces
    src = open(bundled_rulesets()[0].path + "/game.ludex", encoding="utf-8").read()
    for i in range(300):
        text = src + f"# edit {i}\n"
        parse_incremental(text, "session.ludex")
    kept = incremental._kept["session.ludex"]
    assert sorted(kept) == sorted(piece for _, piece in incremental._pieces(text))
    assert sum("# edit" in piece for piece in kept) == 1
    for i in range(incremental._FILES + 5):  # and a bounded number of files
        parse_incremental(src, f"other{i}.ludex")
    assert len(incremental._kept) == incremental._FILES and "session.ludex" not in incremental._kept
