"""`ludex.lsp.index` without the protocol: names resolve by where they stand, across a variant and its base."""

from __future__ import annotations

from ludex.lsp.index import RulesetIndex, builtin_doc, index_file, keywords

GAME = """game duel "Duel"
seats 2
option rounds: int = 3 "D1: rounds in a match"
zone pile: card public = []
component card(value: int)
step play then end turn
move play(c in pile) during play "D2: play a card" {
  goto play
}
fn best(xs: list<card>) -> int = max([c.value for c in xs])
"""
VARIANT = """variant quick extends duel
set rounds = 1
replace move play(c in pile) during play {
  end turn
}
"""


def _index() -> RulesetIndex:
    return RulesetIndex([index_file("game.ludex", GAME), index_file("v.ludex", VARIANT)])


def test_a_move_and_a_step_of_one_name_are_told_apart_by_where_the_name_stands():
    idx = _index()
    tok, ns = idx.token_at("game.ludex", 7, 6)  # move play(
    assert (tok.value, ns) == ("play", "move")
    assert [(s.file, s.line, s.kind) for s in idx.definitions("play", ns)] == [("game.ludex", 7, "move"), ("v.ludex", 3, "move")]
    tok, ns = idx.token_at("game.ludex", 7, 30)  # during play
    assert ns == "step" and [(s.line, s.kind) for s in idx.definitions("play", ns)] == [(6, "step")]
    assert idx.references("play", "step") == [("game.ludex", 6, 6), ("game.ludex", 7, 29), ("game.ludex", 8, 8),
                                               ("v.ludex", 3, 37)]
    assert idx.references("play", "move") == [("game.ludex", 7, 6), ("v.ludex", 3, 14)]


def test_an_option_is_found_from_a_variants_set():
    idx = _index()
    tok, ns = idx.token_at("v.ludex", 2, 6)
    assert ns == "option" and idx.definitions("rounds", ns)[0].doc == "D1: rounds in a match"


def test_hovers_give_kind_signature_citation_and_builtin_docs():
    idx = _index()
    assert idx.hover("game.ludex", 10, 5) == "```ludex\nfn best(xs: list<card>) -> int\n```"
    assert "*D2: play a card*" in idx.hover("game.ludex", 7, 6) and "declared in game.ludex, v.ludex" in idx.hover("game.ludex", 7, 6)
    assert idx.hover("game.ludex", 10, 36).startswith("`min(xs)`, `max(xs)`: smallest / largest element")
    assert idx.hover("game.ludex", 10, 42) is None  # `value` after `.`: an attribute, not a global


def test_completion_offers_fields_after_a_dot_and_names_keywords_builtins_elsewhere():
    idx = _index()
    assert ("value", "field", "card.value: int") in idx.completions("game.ludex", 10, 41)
    labels = {c[0] for c in idx.completions("game.ludex", 8, 3)}
    assert {"pile", "rounds", "play", "best", "tally", "zone", "actor"} <= labels
    assert "language" in keywords() and "ordered" in keywords() and "public" in keywords()
    assert builtin_doc("tally").startswith("`tally(xs, \"field\" [, keys])`")


def test_a_file_that_does_not_parse_has_no_symbols_and_no_crash():
    idx = RulesetIndex([index_file("bad.ludex", "game x\nzone = =\n")])
    assert idx.symbols == [] and idx.hover("bad.ludex", 2, 1) is None and idx.token_at("bad.ludex", 2, 1) is None
