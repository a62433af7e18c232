"""A clone shares its original's dicts of globals and of entity columns, its marks and the list
of which entities are alive until one of the two assigns a global or an entity's member, marks,
unmarks or removes an entity (`State.own`, `State.own_marks`, `State.remove_entity`): these
tests change each copy, through generated code and through closures alone, and check that the
others never see it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import runtime.compile as rc
from dsl import load_from_sources, load_ruleset
from runtime import Game
from search.determinise import determinise

RULES = """\
game markdemo
seats 2

component card(n: int)
components cards = [card(n) for n in 1..6]
zone deck: card hidden ordered = cards
zone hand: per seat card others = [] "everyone but its owner sees a hand"

entity tile(number: int) "a tile that can leave play" {
  var visits: int = 0
}
entities tiles = [tile(1), tile(2), tile(3)] "three tiles"

var hints: int = 0 "hints given"
var cleared: per seat int = 0 "hints each seat cleared"

setup { for s in seats { draw 3 from deck to hand[s] } }

step play then end turn

proc note(c: card) "a mark made by a procedure" { mark c with ["value", c.n] }

move hint(c in hand[other(actor)]) during play require not has_mark(c, "hinted") else "{c} is already hinted" {
  mark c with "hinted"
  note(c)
  hints += 1
}
move clear(c in hand[other(actor)]) during play require has_mark(c, "hinted") else "{c} has no hint" {
  unmark c
  cleared[actor] += 1
}
move retire(t in tiles) during play "a tile leaves play" {
  t.visits += 1
  remove t
}
"""


@pytest.fixture(params=["generated", "closures"])
def rules(request, monkeypatch):
    """The ruleset, its program compiled with generated code or with closures alone."""
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    if request.param == "closures":
        monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    rs = load_from_sources((("markdemo/game.ludex", RULES),))
    assert rc.program_for(rs).callables.shares  # clones share containers (else they copy the marks)
    return rs


def _do(g: Game, name: str, pick: int = 0) -> None:
    seat = g.decision().seats[0]
    moves = [m for m in g.legal_moves(seat) if m.name == name]
    g.apply(seat, moves[pick % len(moves)])


def _look(g: Game) -> tuple:
    return g.state_hash(), g.view(None), g.view(0), g.view(1), dict(g.st.marks), list(g.st.ent_alive)


def test_marks_made_on_a_clone_never_reach_the_original_nor_the_reverse(rules) -> None:
    g = Game.new(rules, 2, {}, seed=1)
    _do(g, "hint")
    assert g.st.marks
    mine = _look(g)
    c = g.clone()
    assert c.st.marks is g.st.marks  # shared until one of the two marks
    _do(c, "hint", 1)  # the clone marks (a move, then a procedure)
    assert _look(g) == mine, "a mark on the clone reached the original"
    theirs = _look(c)
    assert theirs != mine
    _do(g, "hint", 1)
    _do(g, "clear")  # the original unmarks
    assert _look(c) == theirs, "an unmark on the original reached the clone"
    cc = c.clone()
    _do(cc, "clear")
    assert _look(c) == theirs, "an unmark on the clone's clone reached the clone"


def test_an_entity_removed_on_a_clone_stays_in_play_in_the_original(rules) -> None:
    g = Game.new(rules, 2, {}, seed=2)
    c = g.clone()
    assert c.st.ent_alive is g.st.ent_alive  # shared until one of the two removes an entity
    _do(c, "retire")
    assert g.st.ent_alive == [True, True, True] and len(g.st.g["tiles"]) == 3
    assert c.st.ent_alive == [False, True, True] and len(c.st.g["tiles"]) == 2
    mine = _look(c)
    _do(g, "retire", 2)
    assert _look(c) == mine, "a removal on the original reached the clone"
    assert g.st.ent_alive == [True, True, False]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), plies=st.lists(st.tuples(st.sampled_from(["hint", "clear", "retire"]), st.integers(0, 5)), max_size=12))
def test_any_moves_on_a_clone_leave_the_original_as_it_was_and_play_as_it_would(rules, seed: int, plies: list) -> None:
    g = Game.new(rules, 2, {}, seed=seed)
    _do(g, "hint", seed)
    mine = _look(g)
    c, twin = g.clone(), g.clone()
    played = []
    for name, pick in plies:
        seat = c.decision().seats[0]
        moves = [m for m in c.legal_moves(seat) if m.name == name]
        if moves:
            move = moves[pick % len(moves)]
            played.append((seat, move.to_dict()))
            c.apply(seat, move)
    assert _look(g) == mine and _look(twin) == mine
    for seat, move in played:  # the original follows: it ends where the clone did
        g.apply(seat, move)
    assert _look(g) == _look(c)
    assert _look(twin) == mine


def test_a_determinised_clone_deals_its_own_marks_and_leaves_the_game_s_alone() -> None:
    rs = load_ruleset("hanabi")
    g = Game.new(rs, 2, {}, seed=6)
    rng = random.Random(6)
    while not g.st.marks or sum(map(len, g.st.marks.values())) < 3:  # hints given: marks on hidden cards
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        g.apply(seat, moves[rng.randrange(len(moves))])
    before = dict(g.st.marks), g.state_hash()
    for k in range(5):
        d = determinise(g, 0, random.Random(k))
        assert d.st.marks is not g.st.marks
        assert dict(g.st.marks) == before[0] and g.state_hash() == before[1]


def test_a_clone_shares_the_globals_until_a_move_of_either_assigns_one(rules) -> None:
    g = Game.new(rules, 2, {}, seed=3)
    _do(g, "hint")
    c = g.clone()
    assert c.st.g is g.st.g  # no copy yet
    mine = _look(g)
    _do(c, "hint", 1)  # `hints += 1`: the clone takes a dict of its own first
    assert c.st.g is not g.st.g and c.st.g["hints"] == 2
    assert _look(g) == mine and g.st.g["hints"] == 1
    theirs = _look(c)
    cc = c.clone()
    _do(cc, "clear")  # `cleared[actor] += 1`, in place: the dict and the list taken first
    assert sum(cc.st.g["cleared"]) == 1 and c.st.g["cleared"] == [0, 0]
    assert _look(c) == theirs


@pytest.mark.parametrize("first", [True, False])
def test_a_position_written_into_a_new_game_leaves_the_next_new_game_as_declared(rules, first: bool) -> None:
    names = [f"{n}" for n in range(1, 7)]
    if not first:  # else the position's game is the first copy of the table template
        assert [c.name for c in Game.new(rules, 2, {}, seed=4).st.comps] == names
    position = {"zones": {"deck": names}, "vars": {"hints": 5, "cleared": [1, 2]}, "entities": {"tile1": {"visits": 7}}}
    placed = Game.from_position(rules, position, seed=4)
    assert placed.st.g["hints"] == 5 and placed.st.g["cleared"] == [1, 2]
    assert placed.st.member(placed.st.entities[0], "visits") == 7
    fresh = Game.new(rules, 2, {}, seed=4)  # the same table template as the position's
    assert fresh.st.g["hints"] == 0 and fresh.st.g["cleared"] == [0, 0]
    assert fresh.st.member(fresh.st.entities[0], "visits") == 0


def test_a_clone_shares_the_entity_columns_until_a_move_of_either_sets_a_member(rules) -> None:
    g = Game.new(rules, 2, {}, seed=5)
    c = g.clone()
    assert c.st.ev is g.st.ev  # no copy yet
    _do(c, "retire")  # `t.visits += 1`: the clone takes a dict and a column of its own first
    assert c.st.ev is not g.st.ev and c.st.ev["visits"] is not g.st.ev["visits"]
    assert c.st.member(c.st.entities[0], "visits") == 1 and g.st.member(g.st.entities[0], "visits") == 0
    _do(g, "retire", 1)
    assert c.st.member(c.st.entities[1], "visits") == 0 and g.st.member(g.st.entities[1], "visits") == 1


LIST_MEMBERS = """\
game listmembers
seats 2

entity tile(number: int) "a tile" {
  var cubes: list<int> = [0, 0]
}
entities tiles = [tile(1), tile(2)] "two tiles"

setup { turn 0 }
step play then end turn
move add(t in tiles) during play "a cube of the seat's on a tile" { t.cubes[actor] += 1 }
"""


@pytest.fixture(params=["generated", "closures"])
def list_members(request, monkeypatch):
    """A ruleset whose entity member holds a list changed in place, compiled either way."""
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    if request.param == "closures":
        monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    return load_from_sources((("listmembers/game.ludex", LIST_MEMBERS),))


def _cubes(g: Game, tile: int) -> list[int]:
    return list(g.st.member(g.st.entities[tile], "cubes"))


def _add(g: Game, tile: str) -> None:
    g.apply(0, next(m for m in g.legal_moves(0) if m.to_dict()["args"]["t"] == tile))


def test_a_list_member_set_from_outside_a_rule_is_copied_whole_before_a_move_writes_into_it(list_members) -> None:
    """A member set outside any rule (a position, or code holding a clone) takes its column as the
    state's own; a later move writing into another entity's list must not reach the table template
    nor the clone's original (the column's lists were copied with it)."""
    Game.new(list_members, 2, {}, seed=0)  # the table template exists and has been copied once
    placed = Game.from_position(list_members, {"entities": {"tile1": {"cubes": [5, 5]}}}, seed=1)
    _add(placed, "tile2")
    assert _cubes(placed, 0) == [5, 5] and _cubes(placed, 1) == [1, 0]
    fresh = Game.new(list_members, 2, {}, seed=0)
    assert _cubes(fresh, 0) == [0, 0] and _cubes(fresh, 1) == [0, 0]  # as declared
    twin = fresh.clone()
    twin.st.set_member(twin.st.entities[0], "cubes", [3, 3])
    _add(twin, "tile2")
    assert _cubes(twin, 1) == [1, 0] and _cubes(fresh, 0) == [0, 0] and _cubes(fresh, 1) == [0, 0]
