"""The counts the generated rules read are kept on write (issue 27): `count(z where .a == v)`
over a public zone reads `State.count_cells` (through `State.count_places`), which every write of the zone keeps up to date (moves
of one component or of several, draws, setup, a position, clones, a failed move put back).
Each check recounts every kept count from the zone's list: a write that misses its update fails
it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dsl import load_from_sources, load_ruleset
from runtime import Game, RuleError
from runtime import compile as rc

RULES = """\
game kept "Kept counts"
seats 2

enum colour { red, blue, green, white }
component cube(colour: colour, big: bool)
components cubes = [cube(c, i > 2) for c in colour if c != white for i in 1..4]

zone bag: cube hidden ordered = cubes
zone pool: cube public = []
zone pile: per seat cube public = []
entity tile(n: int) { zone on: cube public = [] }
entities tiles = [tile(1), tile(2)]
var boom: int = 0

fn in_pool(k: colour) -> int = count(pool where .colour == k)
fn big_in_pool(b: bool) -> int = count(pool where .big == b)
fn on_tile(t: tile, k: colour) -> int = count(t.on where .colour == k)
fn piled(s: seat, k: colour) -> int = count(pile[s] where .colour == k)

setup {
  shuffle bag
  draw 5 from bag to pool
  turn 0
}

step play then end turn

move take(c in pool) during play
  require in_pool(c.colour) > 0 and big_in_pool(c.big) > 0 else "none left"
{ move c to pile[actor] }
move put(c in pile[actor], t in tiles) during play
  require piled(actor, c.colour) > on_tile(t, c.colour) else "enough there"
{ move c to t.on }
move sweep(t in tiles) during play
  require size(t.on) > 0 else "nothing on it"
{ move t.on to pool }
move refill() during play
  require size(bag) >= 2 else "the bag is empty"
{ draw 2 from bag to pool }
move deal() during play
  require size(pool) >= 2 else "the pool is short"
{ draw 2 from pool to pile[actor] }
move gather(k in colour) during play
  require in_pool(k) > 1 else "too few of that colour"
{ move (pool where .colour == k) to pile[actor] }
move fail(k in colour) during play
  require in_pool(k) > 0 else "none of that colour"
{
  move (pool where .colour == k) to pile[actor]
  boom = 1 // (piled(actor, k) - piled(actor, k))
}
"""


def _agree(g: Game) -> None:
    """Every kept count equals a recount of its zone, where generated code reads it
    (`count_cells[count_places[idx + k * len(zones)].get(v, 0)]`), each in a place of its own, and a
    value no component has reads 0."""
    st = g.st
    assert st.count_slots, "no count is kept: nothing is checked"
    n, places = len(st.zones), []
    for i, slots in enumerate(st.count_slots):
        for k, (by, a) in enumerate(slots or ()):
            assert st.count_places[i + k * n] is by  # where generated code reads it (`Gen._kept_counts`)
            want = Counter(c.d[a] for c in st.zones[i])
            assert {v: st.count_cells[s] for v, s in by.items() if st.count_cells[s]} == dict(want), f"counts of {a} over {st.zone_refs[i].key}"
            places += by.values()
    assert len(set(places)) == len(places) and 0 not in places and st.count_cells[0] == 0
    assert sum(x is not None for x in st.count_places) == sum(len(slots or ()) for slots in st.count_slots)


@pytest.fixture
def generated(monkeypatch):
    """Programs compiled afresh with generated code (which reads the kept counts)."""
    monkeypatch.delenv("LUDEX_NO_CODEGEN", raising=False)
    monkeypatch.setattr(rc, "_PROGRAMS", {})


def _copied(counts: list) -> list:
    """The kept counts as they are now."""
    return list(counts)


def _rules():
    return load_from_sources((("kept/game.ludex", RULES),))


def _moves(g: Game, name: str) -> list:
    return [m for m in g.legal_moves(g.decision().seats[0]) if m.name == name]


def test_the_generated_rules_read_the_kept_counts_of_public_zones_only(generated):
    prog = rc.program_for(_rules())
    assert prog.counted == {"pool": ("colour", "big"), "on": ("colour",), "pile": ("colour",)}
    g = Game.new(_rules(), seed=1)
    kept = {z.key for z in g.st.zone_refs if g.st.count_slots[z.idx]}
    assert kept == {"pool", "pile[0]", "pile[1]", "tile1.on", "tile2.on"}
    assert "bag" not in kept  # hidden: search's determinisation rewrites such lists directly


def test_counts_agree_after_setup_moves_draws_and_clones(generated):
    g = Game.new(_rules(), seed=2)
    _agree(g)
    rng = random.Random(2)
    clones = []
    for ply in range(60):
        seat = g.decision().seats[0]
        moves = [m for m in g.legal_moves(seat) if m.name != "fail"]
        if not moves:
            break
        if ply % 4 == 1:
            c = g.clone()
            before = _copied(g.st.count_cells)
            c.apply(seat, moves[rng.randrange(len(moves))])
            _agree(c)
            assert _copied(g.st.count_cells) == before, "a clone's move reached the original"
            clones.append(c)
        g.apply(seat, moves[rng.randrange(len(moves))])
        _agree(g)
    for c in clones:  # each plays on from where it was, unchanged by the original's moves
        _agree(c)
        for _ in range(5):
            moves = [m for m in c.legal_moves(c.decision().seats[0]) if m.name != "fail"]
            if moves:
                c.apply(c.decision().seats[0], moves[0])
                _agree(c)
    assert {e.move for e in g.events if e.kind == "move"} >= {"take", "put", "sweep", "refill", "deal", "gather"}


def test_a_failed_move_puts_the_counts_back(generated):
    g = Game.new(_rules(), seed=3)
    before = _copied(g.st.count_cells)
    fail = _moves(g, "fail")[0]
    with pytest.raises(RuleError):
        g.apply(g.decision().seats[0], fail)
    _agree(g)
    assert _copied(g.st.count_cells) == before
    g.apply(g.decision().seats[0], _moves(g, "take")[0])  # and the game plays on
    _agree(g)


def test_counts_agree_at_a_position(generated):
    template = Game.new(_rules(), seed=4)
    names = {c.d["colour"]: [] for c in template.st.comps}
    for c in template.st.comps:
        names[c.d["colour"]].append(c.name)
    tile = template.st.g["tiles"][0].d["on"].key
    position = {"zones": {"pool": names["red"][:3], "pile[1]": names["blue"][:2], tile: names["green"][:1],
                          "bag": names["red"][3:] + names["blue"][2:] + names["green"][1:]}}
    g = Game.from_position(_rules(), position)
    _agree(g)
    assert g.call("in_pool", "red") == 3 and g.call("piled", 1, "blue") == 2 and g.call("in_pool", "blue") == 0
    assert g.call("in_pool", "white") == 0 and g.call("piled", 1, "white") == 0  # no cube is white
    assert g.call("big_in_pool", True) == 1 and g.call("big_in_pool", False) == 2  # red 3 of red 1..4 is big


@pytest.mark.parametrize(("name", "seats"), [("balloon_cup", 2), ("battle_line", 2), ("weather_machine", 2), ("hanabi", 3)])
def test_counts_agree_through_bundled_games(generated, name, seats):
    """Random plies of a bundled game (its setup's shuffles and draws included), and a clone
    every few plies that moves on its own."""
    rs = load_ruleset(name)
    g = Game.new(rs, seats, {}, seed=5)
    _agree(g)
    rng = random.Random(5)
    for ply in range(120):
        if g.terminal:
            break
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        if ply % 6 == 2:
            c = g.clone()
            c.apply(seat, moves[rng.randrange(len(moves))])
            _agree(c)
        g.apply(seat, moves[rng.randrange(len(moves))])
        _agree(g)


INIT_RULES = """\
game kept_init "Counts read while the tables are built"
seats 2
enum colour { red, blue }
component cube(colour: colour)
components cubes = [cube(c) for c in colour for i in 1..3]
zone pool: cube public = cubes
zone spare: cube public = if reds() > 2 then [] else cubes
fn reds() -> int = count(pool where .colour == red)
var total: int = reds()
var each: per seat int = reds() + 1
entity tile(n: int) { zone on: cube public = []  var k: int = reds() + n }
entities tiles = [tile(1), tile(2)]
setup { turn 0 }
step play then end turn
move take(c in pool) during play require reds() > 0 else "no red left" { move c to spare }
"""


@pytest.mark.parametrize("closures", [False, True])
def test_initialisers_read_the_counts_of_zones_filled_before_them(closures, monkeypatch):
    """A variable's or a zone's initialiser calling a function that counts a zone reads the
    zone as filled so far (the counts are kept only once the tables are built): the same values
    under the generated code as under the closures, and the kept counts right afterwards."""
    if closures:
        monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    else:
        monkeypatch.delenv("LUDEX_NO_CODEGEN", raising=False)
    monkeypatch.setattr(rc, "_PROGRAMS", {})  # (compiled afresh in the mode asked for)
    g = Game.new(load_from_sources((("kept_init/game.ludex", INIT_RULES),)), seed=1)
    st = g.st
    assert st.g["total"] == 3 and st.g["each"] == [4, 4]
    assert [st.member(e, "k") for e in st.g["tiles"]] == [1, 2]  # (entities are built before zones fill)
    assert not st.zones[st.g["spare"].idx]  # the initialiser saw the three red cubes in the pool
    if not closures:
        _agree(g)
        assert {v: st.count_cells[s] for v, s in st.count_places[st.g["pool"].idx].items()} == {"red": 3, "blue": 3}


MAKING_RULES = """\
game making "Components made as the rules run"
seats 2
enum colour { red, blue, white }
component cube(colour: colour)
components cubes = [cube(c) for c in colour if c != white]
zone pool: cube public = cubes
zone out: cube public = []
fn whites() -> int = count(pool where .colour == white)
setup { move cube(white) to pool  turn 0 }
step play then end turn
move make() during play { let c = cube(white)  move c to pool }
"""


def test_rules_that_make_components_as_they_run_count_them_without_kept_counts(generated):
    """A constructor in setup or a move makes a component after the tables are built, with a
    value (white) no component had then: those rules keep no counts (the kept cells cover only
    the values there were), and the generated count still sees each white cube."""
    rs = load_from_sources((("making/game.ludex", MAKING_RULES),))
    assert rc.program_for(rs).counted == {}
    g = Game.new(rs, seed=1)
    assert g.call("whites") == 1
    g.apply(0, _moves(g, "make")[0])
    assert g.call("whites") == 2


@pytest.mark.parametrize("closures", [False, True])
def test_a_move_failing_on_a_division_by_zero_is_put_back_in_either_mode(closures, monkeypatch):
    """`fail` moves cubes, then divides by zero: a RuleError naming the move and its line, and
    the game as it was, whether the generated code or the closures run the body (the closures
    let the ZeroDivisionError out, the move's cubes moved and its event kept)."""
    if closures:
        monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    else:
        monkeypatch.delenv("LUDEX_NO_CODEGEN", raising=False)
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    g = Game.new(_rules(), seed=3)
    zones, events = [list(z) for z in g.st.zones], len(g.events)
    with pytest.raises(RuleError, match=r"kept/game\.ludex:\d+:\d+: move fail failed: ZeroDivisionError"):
        g.apply(g.decision().seats[0], _moves(g, "fail")[0])
    assert [list(z) for z in g.st.zones] == zones and len(g.events) == events
