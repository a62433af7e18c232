"""Entities named by a key field (issue 12): `entity lane(colour: colour) key colour` is named
`lane[white]` in views, events and move arguments, not `lane3`."""

from __future__ import annotations

import pytest

from dsl import load_from_sources
from dsl.diagnostics import RulesetError
from runtime import Game

LANES = """
game lanes
enum colour { white, black }
entity lane(colour: colour, key: int) key colour "one lane per colour" {
  var height: int = 0
}
entities lanes = [lane(c, 0) for c in colour]

step play then end turn
move raise_lane(l in lanes) during play {
  l.height += 1
  if l.height == 2 { end game win actor "a lane reached 2" }
}
"""


def test_keyed_entities_are_named_by_their_key_in_views_and_moves():
    g = Game.new(load_from_sources((("lanes.ludex", LANES),)), 2, seed=1)
    assert set(g.view(None)["entities"]) == {"lane[white]", "lane[black]"}
    assert [m.args["l"] for m in g.legal_moves(0)] == ["lane[white]", "lane[black]"]
    (event,) = g.apply(0, {"name": "raise_lane", "args": {"l": "lane[black]"}})
    assert event.args == {"l": "lane[black]"}
    assert g.view(None)["entities"]["lane[black]"]["height"] == 1


def test_the_key_must_be_a_field_and_tell_entities_apart(snapshot):
    with pytest.raises(RulesetError) as exc:
        load_from_sources((("lanes.ludex", LANES.replace("key colour", "key color")),))
    (d,) = exc.value.diagnostics
    assert d.message == "entity 'lane' is keyed by 'color', which is not one of its fields"
    assert str(d) == snapshot
    same = load_from_sources((("lanes.ludex", LANES.replace("[lane(c, 0) for c in colour]", "[lane(white, 0), lane(white, 1)]")),))
    with pytest.raises(ValueError, match=r"two lane entities have the key lane\[white\]"):
        Game.new(same, 2)
