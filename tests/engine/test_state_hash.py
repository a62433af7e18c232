"""The state hash covers every part of the state, and views show every variable (issue 12).

Each move of KINDS changes exactly one kind of state (and stays at its step), so a move
that leaves the hash unchanged names a part of the state the hash misses.
"""

from __future__ import annotations

import pytest

from dsl import load_from_sources
from runtime import Game

KINDS = """
game kinds
seats 2
option bonus: int = 1
enum colour { red, blue }
component chip(n: int)
components chips = [chip(n) for n in 1..4]
zone pool: chip public = chips
zone stack: chip hidden ordered = []
zone hand: per seat chip owner = []

entity flag(colour: colour) {
  zone side: per seat chip public = []
  var done_at: list<seat> = []
  var claimed: bool = false
  var tally: map<seat, int> = {}
}
entities flags = [flag(red), flag(blue)]

var count: int = 0
var tags: list<str> = []
var table: map<str, int> = {}
var best: chip? = none
var leader: seat? = none
var score: per seat int = 0
var mood: colour = red

step main then stay
step other then stay

move zone_move() during main { move top(pool) to hand[0] }
move zone_order() during main { move pool to stack  move top(stack) to stack at 2 }
move entity_zone() during main { move top(pool) to flags[0].side[1] }
move int_var() during main { count += 1 }
move list_var() during main { tags = tags ++ ["x"] }
move map_var() during main { table["a"] = 1 }
move comp_var() during main { best = top(pool) }
move seat_var() during main { leader = 1 }
move per_seat_var() during main { score[1] += 1 }
move enum_var() during main { mood = blue }
move entity_field() during main { flip flags[0].colour }
move entity_list_var() during main { flags[0].done_at = flags[0].done_at ++ [actor] }
move entity_bool_var() during main { flags[1].claimed = true }
move entity_map_var() during main { flags[1].tally[0] = 2 }
move entity_removed() during main { remove flags[1] }
move marked() during main { mark top(pool) with 1 }
move revealed() during main { reveal stack }
move step_changed() during main { goto other }
move back() during other { goto main }
move actor_changed() during main { goto main by 1 }
move turn_changed() during main { turn 1 }
move ended() during main { end game draw "over" }
move hand_to(s in seats) during main { goto main by s }
"""

MOVES = [
    "zone_move",
    "zone_order",
    "entity_zone",
    "int_var",
    "list_var",
    "map_var",
    "comp_var",
    "seat_var",
    "per_seat_var",
    "enum_var",
    "entity_field",
    "entity_list_var",
    "entity_bool_var",
    "entity_map_var",
    "entity_removed",
    "marked",
    "revealed",
    "step_changed",
    "actor_changed",
    "turn_changed",
    "ended",
]


def kinds(**kw):
    return Game.new(load_from_sources((("kinds.ludex", KINDS),)), 2, seed=1, **kw)


def test_every_move_of_the_ruleset_is_tested():
    assert {m.name for m in kinds().legal_moves(0)} - {"hand_to"} == set(MOVES)


@pytest.mark.parametrize("name", MOVES)
def test_each_kind_of_change_changes_the_hash(name):
    g = kinds()
    before = g.state_hash()
    g.apply(0, {"name": name, "args": {}})
    assert g.state_hash() != before


def test_options_are_part_of_the_state():
    assert kinds().state_hash() != kinds(options={"bonus": 2}).state_hash()


def test_the_order_in_which_flags_were_completed_changes_the_hash():
    """Two games that differ only in the order of a list-valued entity variable (Battle
    Line's `flag.done_at`, which decides ties)."""
    a, b = kinds(), kinds()
    for g, seats in ((a, [0, 1]), (b, [1, 0])):
        for s in seats:
            g.apply(g.decision().seats[0], {"name": "hand_to", "args": {"s": s}})
            g.apply(s, {"name": "entity_list_var", "args": {}})
        g.apply(g.decision().seats[0], {"name": "hand_to", "args": {"s": 1}})
    assert a.view(None)["entities"]["flag1"]["done_at"] == [0, 1]
    assert b.view(None)["entities"]["flag1"]["done_at"] == [1, 0]
    assert a.state_hash() != b.state_hash()


def test_views_show_every_variable_and_entity_variable():
    g = kinds()
    for name in ("entity_list_var", "entity_map_var", "list_var", "map_var", "comp_var"):
        g.apply(0, {"name": name, "args": {}})
    v = g.view(1)
    assert v["entities"]["flag1"] == {
        "colour": "red",
        "name": "flag1",
        "index": 0,
        "done_at": [0],
        "claimed": False,
        "tally": {},
        "alive": True,
    }
    assert v["entities"]["flag2"]["tally"] == {"0": 2}
    assert set(v["vars"]) == {"count", "tags", "table", "best", "leader", "score", "mood"}
    assert (v["vars"]["tags"], v["vars"]["table"], v["vars"]["best"]) == (["x"], {"a": 1}, "1")
