"""Invariants of `ludex fmt` under any spacing an author might type (Hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dsl.formatter import format_text
from dsl.tokens import tokens

# every kind of line the layout treats differently: blocks, continuations, brackets, doc strings, comments
SAMPLE = '''game toy "A toy"
seats 2..3
enum colour { red, blue }  "T1"
component card(colour: colour, value: int)
components cards = [card(c, v) for c in colour for v in 1..3]
zone deck: card hidden ordered = cards  "T2"
zone hand: per seat card owner = []     # hands
var score: per seat map<colour, int> = {red: 0, blue: -1}
fn worth(c: card) -> int =
  if c.colour == red then -c.value else c.value * 2
step play then end turn
move lay(c in hand[actor]) during play
    "T3: lay a card"
  require size(hand[actor]) > 0 else "no card"
{
  # score it
  score[actor][c.colour] += worth(c)
  move c to deck at 0
  if count(deck where .value > 1) > 2 { end game scores {s: score[s][red] for s in seats} }
  else { draw 1 from deck to hand[actor] }
}
'''


def _values(text: str) -> list[str]:
    return [t.value for t in tokens(text)[0]]


def _respaced(gaps: list[int], indents: list[int]) -> str:
    """SAMPLE with each gap between two tokens of a line made 0-3 spaces (at least 1 where there
    was one) and each line's indentation made 0-6 spaces."""
    toks, _ = tokens(SAMPLE)
    lines = SAMPLE.split("\n")
    out, g = [], 0
    for n, src in enumerate(lines, start=1):
        line_toks = [t for t in toks if t.line == n]
        if not line_toks:
            out.append("")
            continue
        text = " " * indents[(n - 1) % len(indents)]
        for i, t in enumerate(line_toks):
            if i:
                prev = line_toks[i - 1]
                had = t.column - (prev.column + len(prev.value))
                gap = gaps[g % len(gaps)]
                g += 1
                text += " " * (max(gap, 1) if had else gap)
            text += t.value
        out.append(text)
    return "\n".join(out)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=50), st.lists(st.integers(0, 6), min_size=1, max_size=20))
def test_formatting_any_spacing_keeps_tokens_and_lines_and_is_idempotent(gaps, indents):
    text = _respaced(gaps, indents)
    once = format_text(text)
    assert format_text(once) == once
    assert _values(once) == _values(SAMPLE)
    assert once.count("\n") == SAMPLE.count("\n")
