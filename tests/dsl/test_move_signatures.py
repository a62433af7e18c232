"""The static type of every move argument (dsl/signatures.py): what a client must send."""

from __future__ import annotations

from dsl_helpers import MINI, edit

from dsl import load_from_sources
from dsl.signatures import move_signatures


def _signatures(text: str) -> dict:
    return move_signatures(load_from_sources((("mini.ludex", text),)))


def test_each_argument_has_the_element_type_of_its_domain():
    text = edit('move pass() during play otherwise "nothing to play" { }',
                'move pass() during play otherwise "nothing to play" { }\n'
                'move bid(n in 0..3, to in seats, c in colour, flag in [true, false], pair in [[1, 2]]) during play "bid" { }')
    assert _signatures(text) == {
        "play_card": (("c", "comp:card"),),
        "pass": (),
        "bid": (("n", "int"), ("to", "seat"), ("c", "enum:colour"), ("flag", "bool"), ("pair", "list:int")),
    }


def test_an_argument_drawn_from_a_constant_is_typed_by_the_constants_value():
    text = edit('var score', 'const warm = [red] "the warm colours"\nconst warmer = warm "the same"\nvar score')
    text = edit('move pass() during play otherwise "nothing to play" { }',
                'move pass() during play otherwise "nothing to play" { }\n'
                'move name_colour(c in warmer) during play "name a warm colour" { }', text)
    assert _signatures(text)["name_colour"] == (("c", "enum:colour"),)


def test_a_later_argument_may_depend_on_an_earlier_one():
    text = edit('move pass() during play otherwise "nothing to play" { }',
                'move pass() during play otherwise "nothing to play" { }\n'
                'move give(s in seats, c in hand[s]) during play "give a card" { }')
    assert _signatures(MINI) == {"play_card": (("c", "comp:card"),), "pass": ()}
    assert _signatures(text)["give"] == (("s", "seat"), ("c", "comp:card"))
