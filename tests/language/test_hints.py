"""Fix hints (issue 12): a diagnostic with a likely fix says it: a close name ("did you mean"),
the names there are, what converts a value to the type wanted, the declaration to add."""

from __future__ import annotations

import pytest

import dsl
from dsl import load_from_sources
from dsl.diagnostics import RulesetError

BASE = """
game hints
enum colour { red, blue }
component card(colour: colour, value: int)
components cards = [card(c, v) for c in colour for v in 1..3]
zone deck: card hidden ordered = cards
zone hand: per seat card owner = []
zone pile: card public = []
option target: int in 1..9 = 5
var score: per seat int = 0
var last: card? = none

fn points(c: card) -> int = c.value

setup { for s in seats { draw 2 from deck to hand[s] } }

step play then end turn

move lay(c in hand[actor]) during play {
  move c to pile
  score[actor] += points(c)
  if score[actor] >= option.target { end game win actor "reached the target" }
}
"""

CASES = [
    ("score[actor] += points(c)", 'score[actor] += "2"', "write the number without quotes: `2`"),
    ("score[actor] += points(c)", "score[actor] += c", "read one of its numbers: `c.value`"),
    ("score[actor] += points(c)", "score[actor] += hand[actor]", "count it: `size(hand[actor])`"),
    ("score[actor] += points(c)", "score[actor] += points(hand[actor])", "take one of them: `top(hand[actor])` or `hand[actor][0]`"),
    ("score[actor] += points(c)", "score[actor] += c.colour",
     "colour values have no order or number: compare them with `==`, or give each a number with a `map<colour, int>`"),
    ("score[actor] += points(c)", "score[actor] += points(c) > 1", "a truth value is not a number: write `if ... then 1 else 0`"),
    ("if score[actor] >= option.target", "if hand[actor]", "test it: `not empty(hand[actor])`, or `any(...)` over it"),
    ("if score[actor] >= option.target", "if score[actor]", "compare it: `score[actor] > 0`, `score[actor] == 1`"),
    ("option target: int in 1..9 = 5", "option target: int in 1..9 = 12", "give a default from 1 to 9, or widen the range"),
    ("option target: int in 1..9 = 5", 'option target: int in 1..9 = "5"', "write the number without quotes: `5`"),
    ("var last: card? = none", "var last: card? = 3", "start it with a card, or declare `var last: int`"),
    ("score[actor] += points(c)", "score[actor] += points(c, c)", "it is declared `points(c: card)`"),
    ("move c to pile", "move c to pyle", "did you mean 'pile'?"),
    ("move c to pile", "move c to 3", "the zones are deck, hand, pile"),
    ("move c to pile", "move c to pile\n  goto nowhere", "the steps are play"),
    ("move c to pile", "move c to pile\n  tidy()", "declare it: `proc tidy(...) { ... }`"),
    ("score[actor] += points(c)", "score[actor] += bonus(c)", "declare it: `fn bonus(...) -> TYPE = ...`"),
    ("score[actor] += points(c)", "score[actor] += c.valeu", "did you mean 'value'?"),
    ("score[actor] += points(c)", "score[actor] += c.worth", "the attributes are colour, kind, name, value"),
    ("score[actor] += points(c)", "score[actor] += zzz", "declare it (`var`, `const`, `let`) or take it as a parameter"),
    ("var score: per seat int = 0", "var score: per seat count = 0", "the types are any, bool, card, colour, int, list<T>, map<K, V>, seat, step, str"),
    ("move c to pile", "cards = []", "declare a `var` for what changes"),
    ("move c to pile", "pile = []", "a zone changes by moves: `move X to pile`"),
    ("end game win actor", "end game win red", "to rank seats by a value per seat, write `end game scores ...`"),
    ("move c to pile", "move c to pile\n  turn red", "a seat is `actor`, `current`, `next(s)`, `other(s)`, one of `seats`, or a number"),
    ("move c to pile", "move c to pile\n  for i in option.target { }", "go through a range: `1..option.target`"),
    ("var last: card? = none", "var last: card? = none\nenum shade { red }", "enum values share one namespace: rename one of them"),
    ("zone pile: card public", "zone pile: per seat card public", "`pile[actor]` for the seat acting, `pile[s]` for a seat s"),
]


@pytest.mark.parametrize("old,new,hint", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_a_diagnostic_with_a_likely_fix_says_it(old, new, hint, snapshot):
    assert old in BASE
    with pytest.raises(RulesetError) as exc:
        load_from_sources((("hints.ludex", BASE.replace(old, new, 1)),))
    d = exc.value.diagnostics[0]
    assert d.hint == hint, str(d)
    assert str(d) == snapshot


def test_the_base_checks_clean():
    assert dsl.check_text(BASE, "hints.ludex") == []


@pytest.mark.parametrize("text,hint", [
    ("game g\nvar x: int = $y\n", "interpolate with braces inside a string: `\"{x}\"`"),
    ('game g\nconst s = "open\n', 'close the string with `"` on the same line (a string does not span lines; write `\\n` for a line break)'),
    ("game g\nconst b = 1 & 2\n", "write `and`"),
    ("game g\nconst b = 'x'\n", 'strings are written in double quotes: `"text"`'),
    ("game g\nstep play\nmove go() { end turn }\n",
     "expected 'during': a move names the steps where it is played, `move NAME(...) during STEP { ... }`"),
    ("game g\nstep play\nmove go() during play\n  require 1 > 0\n{ end turn }\n",
     "expected 'else': a requirement gives the reason it refuses, `require COND else \"reason\"`"),
])
def test_syntax_errors_at_a_character_say_what_to_write(text, hint):
    d = dsl.check_text(text, "g.ludex")[0]
    assert d.hint == hint, str(d)
