"""`Game.from_position`: a game set up at a given position, checked against the ruleset (issue 12)."""

from __future__ import annotations

import pytest

from dsl import load_from_sources
from runtime import Game

RULES = """
game positions
enum colour { red, blue }
component cube(colour: colour)
components cubes = [cube(c) for c in [red, blue, red, blue]]
zone bag: cube public = cubes
zone hand: per seat cube owner = []
entity tile(n: int) {
  zone on: cube public = []
  var done_at: list<seat> = []
}
entities tiles = [tile(1), tile(2)]
var score: per seat int = 0
var height: per colour int = 0
var best: cube? = none

fn load(t: tile) -> int = size(t.on)

setup { turn 0 }
step play then end turn
step bonus then end turn
move put(c in bag, t in tiles) during play {
  move c to t.on
  score[actor] += 1
  if empty(bag) { end game scores score "the bag is empty" }
  if c.colour == blue { goto bonus }
}
move extra() during bonus { score[actor] += 5 }
"""
ALL = {"bag": ["red", "blue#2"], "tile1.on": ["red#2"], "hand[1]": ["blue"]}


def rules():
    return load_from_sources((("positions.ludex", RULES),))


def test_a_position_sets_zones_variables_entities_and_the_turn():
    g = Game.from_position(rules(), {
        "zones": ALL, "vars": {"score": [2, 3], "height": {"red": 1, "blue": 0}, "best": "blue#2"},
        "entities": {"tile1": {"done_at": [1]}}, "step": "play", "actor": 1, "current": 1,
    })
    v = g.view(1)
    assert v["zones"]["tile1.on"]["components"][0]["name"] == "red#2"
    assert [c["name"] for c in v["zones"]["hand[1]"]["components"]] == ["blue"]
    assert v["vars"] == {"score": [2, 3], "height": {"red": 1, "blue": 0}, "best": "blue#2"}
    assert v["entities"]["tile1"]["done_at"] == [1]
    assert g.decision().seats == (1,) and g.call("load", "tile1") == 1
    g.apply(1, {"name": "put", "args": {"c": "red", "t": "tile2"}})
    assert g.view(None)["vars"]["score"] == [2, 4] and g.decision().seats == (0,)
    g.apply(0, {"name": "put", "args": {"c": "blue#2", "t": "tile2"}})
    assert g.terminal and g.outcome["winners"] == [1]


def test_a_position_at_another_step():
    g = Game.from_position(rules(), {"zones": ALL, "step": "bonus"})
    assert [m.name for m in g.legal_moves(0)] == ["extra"]


@pytest.mark.parametrize("position,message", [
    ({"zones": {**ALL, "bag": ["red"]}}, "every component must be in exactly one zone; 1 are in none: blue#2"),
    ({"zones": {**ALL, "hand[0]": ["red"]}}, "red is in two zones, bag and hand[0]"),
    ({"zones": {**ALL, "bags": []}}, "there is no zone 'bags'; did you mean 'bag'?"),
    ({"zones": {**ALL, "bag": ["red", "blue#2", "green"]}}, "there is no cube named 'green'"),
    ({"zones": ALL, "vars": {"scores": [0, 0]}}, "there is no variable 'scores'; did you mean 'score'?"),
    ({"zones": ALL, "vars": {"score": [1]}}, "'score' is per seat: give a list of 2 values"),
    ({"zones": ALL, "step": "plya"}, "there is no step 'plya'; did you mean 'play'?"),
    ({"zones": ALL, "actor": 2}, "actor must be a seat from 0 to 1, not 2"),
    ({"zones": ALL, "entities": {"tile1": {"don_at": []}}}, "entity tile1 has no field or variable 'don_at'"),
    ({"zone": ALL}, "a position has no zone"),
], ids=["missing", "twice", "unknown_zone", "unknown_component", "unknown_var", "per_seat_shape", "unknown_step",
        "actor_out_of_range", "unknown_entity_var", "unknown_key"])
def test_a_position_is_checked_against_the_ruleset(position, message):
    with pytest.raises(ValueError) as exc:
        Game.from_position(rules(), position)
    assert message in str(exc.value)
