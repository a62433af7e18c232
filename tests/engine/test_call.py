"""`Game.call`: a ruleset function evaluated on a game through the compiled code the moves use."""

from __future__ import annotations

import pytest

from dsl import load_from_sources
from runtime import Game, RuleError

CALLS = """
game calls_demo
enum colour { red, blue }
component cube(colour: colour)
components cubes = [cube(c) for c in colour for i in 1..2]
zone bag: cube public = cubes
entity tile(n: int) { zone on: cube public = [] }
entities tiles = [tile(1), tile(2)]
var moved: int = 0

fn load(t: tile) -> int = size(t.on)
fn holds(t: tile, c: cube) -> bool = c in t.on
fn of_colour(k: colour) -> list<cube> = bag where .colour == k
fn total(ns: list<int>) -> int = sum(n for n in ns) + moved
fn nth(i: int) -> cube = cubes[i]

step play then end turn
move put(c in bag, t in tiles) during play {
  move c to t.on
  moved += 1
}
"""


def calls():
    return Game.new(load_from_sources((("calls.ludex", CALLS),)), 2, seed=1)


def test_functions_read_the_current_state():
    g = calls()
    assert g.call("load", "tile1") == 0
    g.apply(0, {"name": "put", "args": {"c": "red", "t": "tile1"}})
    assert g.call("load", "tile1") == 1 and g.call("load", "tile2") == 0
    assert g.call("holds", "tile1", "red") is True  # a component by name; `red` is also an enum value
    assert g.call("of_colour", "red") == ["red#2"]  # enum value in, components out by name
    assert g.call("total", [1, 2]) == 4


def test_bad_calls_say_what_is_wrong():
    g = calls()
    with pytest.raises(ValueError, match="there is no function 'lod' in calls_demo; did you mean 'load'"):
        g.call("lod", "tile1")
    with pytest.raises(ValueError, match=r"'holds' takes 2 argument\(s\) \(t, c\), 1 given"):
        g.call("holds", "tile1")
    with pytest.raises(ValueError, match="there is no tile named 'tile9'"):
        g.call("load", "tile9")
    with pytest.raises(RuleError):
        g.call("nth", 99)
