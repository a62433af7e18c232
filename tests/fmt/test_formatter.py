"""`dsl.formatter`: the canonical layout, kept comments and strings, idempotence, and bundled rules unchanged in meaning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dsl import RulesetError
from dsl.formatter import format_text, is_formatted
from dsl.ir import content_hash
from dsl.loader import bundled_rulesets, load_from_sources, load_ruleset

MESSY = '''\
game toy   "A toy"
seats 2
# the cards
enum colour {red,blue}   "T1: two colours"
component card( colour : colour ,value:int )
components cards = [ card(c,v) for c in colour for v in 1 .. 3 ]      "T2"
zone deck : card hidden ordered = cards "T3: the deck"
zone hand: per seat card owner = []   # each seat's hand
var score: per seat map< colour , int >={red:0,blue: 0}
fn worth(c: card) -> int =
   if c.colour==red then - c.value else c.value * 2
setup {
shuffle deck
  for s in seats {draw 2 from deck to hand[s]}
}
step play
move play(c in hand[actor])
        during play "T4: play a card"
require size( hand[actor] )>0 else "no cards"
{
  score[actor][c.colour] += worth(c)   # T5
  move c to deck  at 0
  if size(deck)>5 { end turn }
   else{end game draw}
}
'''

TIDY = '''\
game toy  "A toy"
seats 2
# the cards
enum colour { red, blue }                                      "T1: two colours"
component card(colour: colour, value: int)
components cards = [card(c, v) for c in colour for v in 1..3]  "T2"
zone deck: card hidden ordered = cards "T3: the deck"
zone hand: per seat card owner = []                            # each seat's hand
var score: per seat map<colour, int> = {red: 0, blue: 0}
fn worth(c: card) -> int =
  if c.colour == red then -c.value else c.value * 2
setup {
  shuffle deck
  for s in seats { draw 2 from deck to hand[s] }
}
step play
move play(c in hand[actor])
    during play "T4: play a card"
  require size(hand[actor]) > 0 else "no cards"
{
  score[actor][c.colour] += worth(c)  # T5
  move c to deck at 0
  if size(deck) > 5 { end turn }
  else { end game draw }
}
'''


def test_messy_rule_text_gets_the_canonical_layout():
    assert format_text(MESSY) == TIDY


def test_the_layout_is_idempotent_and_keeps_every_line():
    once = format_text(MESSY)
    assert format_text(once) == once and is_formatted(once) and not is_formatted(MESSY)
    assert len(once.splitlines()) == len(MESSY.splitlines())


def test_comments_and_citation_strings_are_kept_verbatim():
    text = 'game g\nseats 2\nconst  k = 1   "§4, seed 004 ⓑ:  two  spaces  kept"  # note:   as  written\n'
    assert format_text(text) == 'game g\nseats 2\nconst k = 1 "§4, seed 004 ⓑ:  two  spaces  kept"  # note:   as  written\n'


def test_text_that_does_not_parse_is_refused_with_its_syntax_diagnostic():
    with pytest.raises(RulesetError) as exc:
        format_text("game g\nseats 2\nconst k = = 1\n", "bad.ludex")
    assert exc.value.diagnostics[0].file == "bad.ludex" and exc.value.diagnostics[0].line == 3


def _layout_free(data):
    """The IR's data without span columns: what layout may change (lines must stay)."""
    if isinstance(data, dict):
        return {k: _layout_free(v) for k, v in data.items() if not (data.get("_") == "Span" and k == "column")}
    if isinstance(data, list):
        return [_layout_free(x) for x in data]
    return data


CASES = [(b.name, v) for b in bundled_rulesets() for v in [None, *b.variants]]


@pytest.mark.parametrize("name,variant", CASES, ids=[f"{n}+{v}" if v else n for n, v in CASES])
def test_formatting_a_bundled_ruleset_keeps_its_ir(name, variant):
    rs = load_ruleset(name, [variant] if variant else [])
    formatted = tuple((path, format_text(text, path)) for path, text in rs.sources)
    again = load_from_sources(formatted)
    assert [format_text(t) for _, t in formatted] == [t for _, t in formatted]
    assert content_hash(_layout_free(again.to_data())) == content_hash(_layout_free(rs.to_data()))
    # the strings a rule cites are the same strings after formatting
    assert json.dumps(again.to_data()).count("§") == json.dumps(rs.to_data()).count("§")
    assert Path(rs.sources[0][0]).suffix == ".ludex"
