"""Zones and variables keyed by an enum (issue 12): `zone discard: per colour card public`,
`var height: per colour int = 0`, indexed `discard[red]`, named `discard[red]` in views and events."""

from __future__ import annotations

import pytest

from dsl import load_from_sources
from dsl.diagnostics import RulesetError
from runtime import Game

KEYED = """
game keyed
enum colour { red, blue }
component card(colour: colour, n: int)
components cards = [card(c, n) for c in colour for n in 1..3]
zone deck: card hidden ordered = cards
zone discard: per colour card public = [] "one discard pile per colour"
var height: per colour int = 0 "the sum of each pile"

entity lane(n: int) {
  zone cubes: per colour card public = []
}
entities lanes = [lane(1)]

setup { shuffle deck }

step play then end turn

move discard_top() during play {
  let c = top(deck)
  move c to discard[c.colour]
  height[c.colour] += c.n
  if c.n == 1 { move c to lanes[0].cubes[c.colour] }
  if empty(deck) { end game draw "the deck is empty" }
}
"""
ORDER = ["red-1", "blue-2", "blue-1", "red-3", "red-2", "blue-3"]


def keyed():
    return Game.new(load_from_sources((("keyed.ludex", KEYED),)), 2, seed=1, outcomes=[ORDER])


def test_keyed_zones_and_variables_are_named_by_key_in_views():
    g = keyed()
    for seat in (0, 1, 0):
        g.apply(seat, {"name": "discard_top", "args": {}})
    v = g.view(None)
    assert [c["name"] for c in v["zones"]["discard[blue]"]["components"]] == ["blue-2"]
    assert [c["name"] for c in v["zones"]["lane1.cubes[blue]"]["components"]] == ["blue-1"]
    assert [c["name"] for c in v["zones"]["lane1.cubes[red]"]["components"]] == ["red-1"]
    assert v["zones"]["discard[red]"]["count"] == 0
    assert v["vars"]["height"] == {"red": 1, "blue": 3}


def test_a_keyed_game_plays_to_its_end_and_replays():
    g = keyed()
    while not g.terminal:
        g.apply(g.decision().seats[0], {"name": "discard_top", "args": {}})
    assert g.view(None)["vars"]["height"] == {"red": 6, "blue": 6}
    assert Game.fold(g.ruleset, 2, {}, g.events).state_hash() == g.state_hash()


@pytest.mark.parametrize("old,new,message", [
    ("move c to discard[c.colour]", "move c to discard", "this zone has one part per colour: index it with a colour, e.g. `discard[...]`"),
    ("move c to discard[c.colour]", "move c to discard[c.n]", "type mismatch: a per-colour zone is indexed by a colour, found a number"),
    ("zone discard: per colour", "zone discard: per color", "'zone discard: per color': 'color' is not `seat` or an enum"),
    ("per colour card public = [] \"one", "per colour card public = cards \"one", "per-colour zone 'discard' starts empty"),
    ("height[c.colour] += c.n", "height[c.colour] += c", "type mismatch: assigning a card to a number"),
], ids=["unindexed", "index_not_the_enum", "unknown_enum", "initial_contents", "value_type"])
def test_keyed_declarations_are_checked(old, new, message, snapshot):
    assert old in KEYED
    with pytest.raises(RulesetError) as exc:
        load_from_sources((("keyed.ludex", KEYED.replace(old, new)),))
    assert [d.message for d in exc.value.diagnostics] == [message]
    assert str(exc.value.diagnostics[0]) == snapshot
