"""The generated Python (runtime.codegen) and the closures it replaces agree move for move.

The hot paths (functions, legal-move searches, trigger conditions, effects) run as generated source;
with LUDEX_NO_CODEGEN=1 the same rules run through closures only. Both must give the same
legal moves and the same events on every bundled ruleset.
"""

from __future__ import annotations

import random
import re

import pytest

from dsl import bundled_rulesets, load_from_sources, load_ruleset
from runtime import Game, event_to_dict
from runtime import compile as rc


def _trace(rs, seats: int, seed: int, plies: int = 150) -> list:
    g = Game.new(rs, seats, {}, seed=seed)
    rng = random.Random(seed)
    out = []
    while not g.terminal and len(out) < plies:
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        out.append([m.to_dict() for m in moves])
        g.apply(seat, moves[rng.randrange(len(moves))])
    out.append([event_to_dict(e) for e in g.events])
    out.append(g.state_hash())
    return out


@pytest.mark.parametrize("name", [b.name for b in bundled_rulesets()])
def test_generated_code_and_closures_agree(name, monkeypatch):
    rs = load_ruleset(name)
    seats = rs.seats[1] if name == "hanabi" else rs.seats[0]
    generated = rc.program_for(rs)
    assert all(m.search is not None for m in generated.moves), "every move search is generated"
    assert all(m.run is not None for m in generated.moves), "every move body is generated"
    assert all(t.run is not None for t in generated.triggers) and generated.setup_run is not None
    unforced = {s for s, ms in generated.moves_by_step.items() if ms and not any(m.decl.forced for m in ms)}
    assert set(generated.step_listers) == unforced, "every step without forced moves is listed by one generated function"
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    closures = rc.program_for(rs)
    assert all(m.search is None for m in closures.moves)
    closure_traces = [_trace(rs, seats, s) for s in (1, 2)]
    monkeypatch.setattr(rc, "_PROGRAMS", {rs.content_hash: generated})
    assert [_trace(rs, seats, s) for s in (1, 2)] == closure_traces


def test_functions_of_their_arguments_alone_are_memoised_by_argument_values():
    """`strength(cards, fog)` reads only its arguments and constants: its calls are memoised per
    game template (State.pure_memo); a function reading the state (a zone, an entity's
    variable) never is, and a memoised value equals a fresh computation."""
    from runtime import codegen

    rs = load_ruleset("battle_line")
    memoised = codegen.Gen(rs).arg_memoised
    assert "strength" in memoised
    assert not memoised & {"need", "complete", "unseen", "provable"}  # zones, entity variables, hands
    g = Game.new(rs, 2, {}, seed=3)
    rng = random.Random(3)
    while not g.terminal and not g.st.pure_memo:
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        g.apply(seat, moves[rng.randrange(len(moves))])
    key, value = next((k, v) for k, v in g.st.pure_memo.items() if k[0] == "strength")
    fresh = rc.program_for(rs).callables["strength"].py.__globals__["F_strength_"](g.st, list(key[1]), key[2])
    assert value == fresh
    assert g.clone().st.pure_memo is g.st.pure_memo  # shared by the games of a template


SHARED = """
game shared_demo
enum colour { red, blue }
component cube(colour: colour)
components cubes = [cube(c) for c in colour for i in 1..3]
zone bag: cube public = cubes
entity tile(n: int) { zone on: cube public = [] }
entities tiles = [tile(1), tile(2), tile(3)]

fn reds(t: tile) -> int = count(t.on where .colour == red)
fn room(t: tile) -> bool = reds(t) + size(t.on) < 4
fn fits(t: tile, c: cube) -> bool = reds(t) < 2 or c.colour != red

step play then end turn
move put(t in tiles, c in bag) during play
  require room(t) else "no room"
  require fits(t, c) else "two reds already"
  require reds(t) < 3 and all(reds(u) <= reds(t) + 2 for u in tiles) else "too many reds"
{
  move c to t.on
}
"""


def test_calls_asked_again_in_one_search_are_computed_once_per_binder_value(monkeypatch):
    """Within one legal-moves search the state does not change: `reds(t)`, asked by three
    requires, is computed once per tile (a memo cell reset in the tile's loop), while
    `reds(u)` of a comprehension's own variable is never shared; the moves found are those of
    the closures."""
    rs = load_from_sources((("shared.ludex", SHARED),))
    c = rc.Compiler(rs)
    c.program()
    search = c.source[c.source.index("def M_0("):].split("\n\n")[0]
    requires = [line for line in search.splitlines() if "if not ((" in line or "bool(" in line]
    cells = {line.split()[0] for line in search.splitlines() if line.strip().endswith("= UNSET")}
    assert any(all(f"{h} if {h} is not UNSET" in r for r in requires) for h in cells)  # reds(t) in all three

    def filled(h: str, text: str) -> list[str]:  # what each `(h := ...)` of the search computes
        out = []
        for at in [m.end() for m in re.finditer(rf"\({h} := ", text)]:
            depth, end = 1, at
            while depth:
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                end += 1
            out.append(text[at:end - 1])
        return out

    u = re.search(r"for (v\d+_u) in", search).group(1)
    assert not any(re.search(rf"\b{u}\b", t) for h in cells for t in filled(h, search))  # reds(u): per u, never shared

    generated = rc.program_for(rs)
    seen = [_moves_seen(rs, s) for s in range(6)]
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert rc.program_for(rs) is not generated
    assert [_moves_seen(rs, s) for s in range(6)] == seen


def _moves_seen(rs, seed: int, final_state: bool = False) -> list:
    """Every legal-move list of a seeded random game of `rs` until none is left (then, with
    `final_state`, the state hash it ends in)."""
    g = Game.new(rs, 2, {}, seed=seed)
    rng, out = random.Random(seed), []
    while g.decision().seats and (moves := g.legal_moves(g.decision().seats[0])):
        out.append([m.to_dict() for m in moves])
        g.apply(g.decision().seats[0], moves[rng.randrange(len(moves))])
    if final_state:
        out.append(g.state_hash())
    return out


# three colours of cubes in a bag, for the small rulesets below
CUBES = """
enum colour { red, blue, green }
component cube(colour: colour)
components cubes = [cube(c) for c in colour for i in 1..3]
zone bag: cube public = cubes
"""

COUNTED = "game counted_demo\n" + CUBES + """
zone a: cube public = []
zone b: per seat cube public = []

fn spread() -> map<colour, int> = let n = tally(a, "colour", colour); {c: 2 * n[c] for c in colour}
fn both(c: colour) -> int = let n = tally([x for s in seats for x in b[s]], "colour", colour); n[c]
fn whole() -> map<colour, int> = let n = tally(b[0], "colour", colour); n

step play then end turn
move put(k in bag, to in [a, b[0], b[1]]) during play
  require spread()[k.colour] + both(k.colour) + whole()[k.colour] < 5 else "enough of that colour"
{
  move k to to
}
"""


def test_a_tally_read_only_at_its_keys_is_the_zones_counts(monkeypatch):
    """`let n = tally(zone, "attr", E)` read only as `n[c]` for `c` in enumeration `E` is the
    zones' own counts (their kept counts, `State.count_cells`, no map of every key made); read at another key (a parameter)
    or as a whole map, it is the tally; the legal moves are those of the closures."""
    rs = load_from_sources((("counted.ludex", COUNTED),))
    c = rc.Compiler(rs)
    c.program()
    fns = {text.split("(")[0]: text for text in c.source.split("def F_")[1:]}
    assert "st.count_places[G['a'].idx]" in fns["spread"] and "TALLY" not in fns["spread"]
    assert "TALLY_ZONES(st" in fns["both"] and "None)" not in fns["both"]  # n[c] with c a parameter
    assert "TALLY_OF(st" in fns["whole"]

    seen = [_moves_seen(rs, s) for s in range(4)]
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert [_moves_seen(rs, s) for s in range(4)] == seen


ASKED = "game asked_demo\n" + CUBES + """
zone kept: cube public = []

fn held(c: colour) -> int = count(kept where .colour == c) + size(kept) - size(kept)

step play then end turn
move take(k in bag, e in [d for d in colour if d != k.colour and held(d) < 2]) during play {
  move k to kept
}
"""


def test_a_call_asked_again_with_the_same_arguments_in_a_search_is_computed_once(monkeypatch):
    """`held(d)` for every colour `d`, asked again for each cube `k`, is kept in a memo of the
    search by colour (a search never changes the state); the legal moves are the closures'."""
    rs = load_from_sources((("asked.ludex", ASKED),))
    c = rc.Compiler(rs)
    c.program()
    search = c.source[c.source.index("def M_0("):].split("\n\n")[0]
    memo = re.search(r"(m\d+) = \{\}", search).group(1)
    d = re.search(r"for (v\d+_d) in", search).group(1)
    assert f"{memo}[{d}] if {d} in {memo} else {memo}.setdefault({d}, " in search
    seen = [_moves_seen(rs, s) for s in range(4)]
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert [_moves_seen(rs, s) for s in range(4)] == seen


# Comprehensions over values known when the rules are compiled, and literal ranges, in the
# generated Python: written out per value or as constants, the same moves as the closures.
UNROLLED = """
game unrolled_demo
enum colour { red, blue, green }
component cube(colour: colour)
components cubes = [cube(c) for c in colour for i in 1..3]
zone bag: cube public = cubes
zone kept: per seat cube public = []
entity tile(n: int) { zone on: cube public = [] }
entities tiles = [tile(1), tile(2), tile(3)]
var rounds: int = 0

fn on(t: tile, c: colour) -> int = count(t.on where .colour == c)
fn balanced(t: tile) -> bool = all(on(t, c) < 3 for c in colour)
fn any_pair(t: tile) -> bool = any(count(t.on where .colour == c) >= 2 for c in colour)
fn spread(t: tile) -> map<colour, int> = {c: 2 * count(t.on where .colour == c) for c in colour}
fn kept_all() -> list<int> = [size(kept[s]) for s in seats]
fn steps() -> list<int> = 1..3
fn climbing() -> bool = any(all(tiles[i + k].n > k for k in 0..1) for i in 0..1)
fn weight() -> int = sum(size(kept[s]) for s in seats)
fn on_all(t: tile) -> int = sum(on(t, c) for c in colour)

step play then end turn
move put(k in bag, t in tiles, n in 1..2) during play
  require balanced(t) and not any_pair(t) else "full"
  require spread(t)[k.colour] + n < 5 and climbing() else "too many"
  require sum(kept_all()) + size(steps()) < 12 else "enough kept"
  require weight() < 2 or on_all(t) < 2 else "heavy"
{
  move k to t.on
  for i in 1..n { rounds += i }
  for i in 1..(n - 1) { move first(1, t.on) to kept[actor] }
}
"""


def test_comprehensions_over_known_values_are_written_out(monkeypatch):
    """`all`/`any`/`sum` over an enumeration, the two seats or a literal range, and a map or list
    comprehension over one, are written out per value (no generator); a literal range
    iterated is a tuple constant, a range value a new list; the moves are the closures'."""
    rs = load_from_sources((("unrolled.ludex", UNROLLED),))
    c = rc.Compiler(rs)
    c.program()
    fns = {text.split("(")[0]: text.split("\n\n")[0] for text in c.source.split("def F_")[1:]}
    assert " for " not in fns["balanced"] and "'green'" in fns["balanced"]
    assert " for " not in fns["any_pair"] and " for " not in fns["spread"] and " for " not in fns["kept_all"]
    assert "sum(" not in fns["weight"] and "sum(" not in fns["on_all"] and "'blue'" in fns["on_all"]
    assert "[1, 2, 3]" in fns["steps"]
    assert " for " not in fns["climbing"] and "ADD(" not in fns["climbing"]
    search = c.source[c.source.index("def M_0("):].split("\n\n")[0]
    assert "in (1, 2):" in search
    body = c.source[c.source.index("def B_0("):].split("\n\n")[0]
    assert "list(range" not in body and "in range(1, " in body

    seen = [_moves_seen(rs, s, final_state=True) for s in range(4)]
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert [_moves_seen(rs, s, final_state=True) for s in range(4)] == seen


NAMED = "game named_demo\n" + CUBES + """
zone held: per seat cube public = []
var named: int = 0

fn shows(k: cube, c: colour) -> bool = k.colour == c

step play then end turn
move take(k in bag) during play { move k to held[actor] }
move name(s in seats, c in colour) during play
  require named < 4 else "named enough"
  require s != actor and (size(bag) < 5 or any(shows(k, c) for k in held[s])) else "no such cube there"
{
  named += 1
}
move rename(c in colour) during play
  require named < 4 else "named enough"
{
  named += 2
}
"""


def test_a_test_for_a_value_among_a_zones_attributes_is_one_list_per_zone(monkeypatch):
    """`any(k.colour == c for k in held[s])` (here through a small function) asked for every
    colour `c` is `c in [k.colour for k in held[s]]`, the list made once per seat `s` where
    the guard before it lets the test run, none when it never does; the legal moves are the
    closures'."""
    rs = load_from_sources((("named.ludex", NAMED),))
    c = rc.Compiler(rs)
    c.program()
    search = c.source[c.source.index("def M_1("):].split("\n\n")[0]
    assert "any(" not in search and re.search(r" in \(h\d+ if h\d+ is not UNSET else \(h\d+ := \[\w+\.colour for ", search)
    # the step's lister tests `named < 4`, asked by two moves before their parameters, once
    lister = c.source[c.source.index("def S_0("):].split("\n\n")[0]
    assert lister.count("lst_g0 := ((G['named'] < 4))") == 2 and "    lst_g0 = UNSET" in lister

    seen = [_moves_seen(rs, s, final_state=True) for s in range(4)]
    # while the bag holds 5 cubes or more, a seat is named only for the colours it holds
    tested = [[m["args"]["c"] for m in moves if m["name"] == "name"] for game in seen for moves in game[:-1]
              if sum(m["name"] == "take" for m in moves) >= 5]
    assert any(0 < len(named) < 3 for named in tested) and any(not named for named in tested)
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert [_moves_seen(rs, s, final_state=True) for s in range(4)] == seen


ADDED = "game added_demo\n" + CUBES + """
zone held: per seat cube public = []
var cp: per seat int = 0
var worth: per seat map<colour, int> = {red: 1, blue: 2, green: 3}
var trail: list<int> = []

step play then end turn
move take(k in bag) during play
  require cp[actor] + worth[actor][k.colour] + max(0, size(held[actor]) - 1) < 12 else "worth enough"
  require size(trail + [cp[actor]]) < 20 else "long enough"
{
  move k to held[actor]
  cp[actor] += worth[actor][k.colour]
  trail = trail + [cp[actor]]
}
"""


def test_sums_of_the_rules_int_variables_are_python_additions(monkeypatch):
    """An element of a per-seat int, of a map of ints by seat, and `max` of ints are ints:
    their sum is Python's `+` (no `ADD` helper testing for lists), while `trail + [...]`
    still joins lists; the moves and the final state are the closures'."""
    rs = load_from_sources((("added.ludex", ADDED),))
    c = rc.Compiler(rs)
    c.program()
    search = c.source[c.source.index("def M_0("):].split("\n\n")[0]
    summed = next(line for line in search.split("\n") if "< 12" in line)
    joined = next(line for line in search.split("\n") if "< 20" in line)
    assert "ADD(" not in summed and "max(0, " in summed and "ADD(" in joined
    seen = [_moves_seen(rs, s, final_state=True) for s in range(3)]
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert [_moves_seen(rs, s, final_state=True) for s in range(3)] == seen


IN_PLACE = "game in_place_demo\n" + CUBES + """
const room = {"held": 3}
zone held: per seat cube public = []
var seen: list<colour> = []
var kept: per seat list<colour> = []

step play then end turn
move take(k in bag) during play
  require k.colour not in kept[actor] or size(seen) < 2 else "kept already"
  require size(held[actor]) < room["held"] + sum(1 for c in seen) - count(c == k.colour for c in kept[actor]) else "full"
{
  move k to held[actor]
  seen = seen + [k.colour]
  kept[actor] = kept[actor] + [k.colour]
}
"""


def test_list_variables_are_read_in_place_and_int_sums_added(monkeypatch):
    """A list variable of values (global, or a per-seat one's element) is tested and counted in
    place while it holds a list, with no `ITEMS` call; `room["held"] + sum(...)` is Python's `+` because its right side
    is an int (no `ADD`), and the sum adds a list comprehension; the moves and the final state
    are the closures'."""
    rs = load_from_sources((("in_place.ludex", IN_PLACE),))
    c = rc.Compiler(rs)
    c.program()
    search = c.source[c.source.index("def M_0("):].split("\n\n")[0]
    assert ".__class__ is list else ITEMS(" in search and "ADD(" not in search and "sum([" in search
    seen = [_moves_seen(rs, s, final_state=True) for s in range(3)]
    assert any(len(moves) < 9 for game in seen for moves in game[:-1])  # the requires refuse some takes
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert [_moves_seen(rs, s, final_state=True) for s in range(3)] == seen


FOUND = "game found_demo\n" + CUBES + """
entity pile(hue: colour, rank: int) {
  zone cubes: cube public = []
  var hits: int = 0
}
entities piles = [pile(c, i) for c in colour for i in 1..2]

fn pile_of(c: colour) -> pile = [p for p in piles if p.hue == c][0]
fn by_rank(r: int) -> pile = [p for p in piles if r == p.rank][0]

step play then end turn
move sort(k in bag) during play
  require size(pile_of(k.colour).cubes) < 2 else "that pile is full"
{
  move k to pile_of(k.colour).cubes
  let p = by_rank(piles[size(piles[0].cubes) % 6].rank)
  p.hits += 1
}
"""


def _fn_source(rs, name: str) -> str:
    c = rc.Compiler(rs)
    c.program()
    return c.source[c.source.index(f"def F_{name}("):].split("\n\n")[0]


def test_an_entity_found_by_a_field_no_rule_assigns_is_looked_up(monkeypatch):
    """`[p for p in piles if p.hue == c][0]` reads a field no rule assigns: the first pile of
    that colour comes from a table kept per template (`FIND`), not a comprehension per call; the
    moves and the final state (with the `hits` counted on the first pile of a rank) are the
    closures'. A field a rule assigns (a pile's rank flips), or a ruleset that removes entities,
    keeps the comprehension, and the closures' hits."""
    rs = load_from_sources((("found.ludex", FOUND),))
    assert "FIND(" in _fn_source(rs, "pile_of") and "FIND(" in _fn_source(rs, "by_rank")
    seen = [_moves_seen(rs, s, final_state=True) for s in range(3)]
    assert any(len(moves) < 9 for game in seen for moves in game[:-1])  # full piles refuse cubes
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert [_moves_seen(rs, s, final_state=True) for s in range(3)] == seen
    monkeypatch.delenv("LUDEX_NO_CODEGEN")
    assigned = load_from_sources((("assigned.ludex", FOUND.replace("p.hits += 1", "p.hits += 1\n  p.rank = 3 - p.rank")),))
    assert "FIND(" in _fn_source(assigned, "pile_of") and "FIND(" not in _fn_source(assigned, "by_rank")
    seen = [_moves_seen(assigned, s, final_state=True) for s in range(3)]
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert [_moves_seen(assigned, s, final_state=True) for s in range(3)] == seen
    monkeypatch.delenv("LUDEX_NO_CODEGEN")
    removed = load_from_sources((("removed.ludex", FOUND.replace("p.hits += 1", "remove p")),))
    assert "FIND(" not in _fn_source(removed, "pile_of")


NOT_A_LIST_NOW = "game not_a_list_now\n" + CUBES + """
zone held: per seat cube public = []
entity pile(hue: colour) {
  var tags: list<colour> = []
}
entities piles = [pile(red), pile(blue)]
var seen: list<colour> = []
var anything: list<any> = []

step play then end turn
move take(k in bag) during play
  require k.colour not in seen else "seen"
  require k not in anything else "held"
  require k.colour not in piles[0].tags else "tagged"
{
  move k to held[actor]
  seen = if size(held[actor]) > 1 then none else seen ++ [k.colour]
  anything = held[actor]
  piles[0].tags = if size(held[actor]) > 1 then none else [k.colour]
}
"""


@pytest.mark.parametrize("seed", range(3))
def test_a_list_variable_that_holds_none_or_a_zone_is_read_as_the_closures_read_it(monkeypatch, seed: int):
    """The checker lets a list variable hold none, and a list<any> one a zone: the generated
    search reads such a variable in place only while it holds a list (none is no element, a
    zone its components), so the legal moves and the final state are the closures'."""
    rs = load_from_sources((("not_a_list_now.ludex", NOT_A_LIST_NOW),))
    seen = _moves_seen(rs, seed, final_state=True)
    assert len(seen) > 4  # the game goes on past the plies that set none and a zone
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert _moves_seen(rs, seed, final_state=True) == seen


def _sort_with_hues_set(rs) -> list:
    """Piles' hues set from outside the rules between moves (as a position or code holding a
    game may): the number of cubes on each pile after each blue cube is sorted."""
    g = Game.new(rs, 2, {}, seed=0)
    st, seat, out = g.st, 0, []
    piles = st.g["piles"]
    for pile, hue in ((0, "blue"), (0, "green"), (2, "red")):
        st.set_member(piles[pile], "hue", hue)
        blue = next(m for m in g.legal_moves(seat) if m.to_dict()["args"]["k"].startswith("blue"))
        g.apply(seat, blue)
        seat = 1 - seat
        out.append([len(st.items(st.member(p, "cubes"))) for p in piles])
    return [*out, g.state_hash()]


def test_a_found_field_set_from_outside_the_rules_is_found_anew(monkeypatch):
    """A field no rule assigns may still be set from outside the rules (a position, a test,
    code holding a game): the table `FIND` made of it is made again, so each cube goes to the
    pile the comprehension finds, as with the closures."""
    rs = load_from_sources((("found.ludex", FOUND),))
    assert "FIND(" in _fn_source(rs, "pile_of")
    seen = _sort_with_hues_set(rs)
    assert seen[:3] == [[1, 0, 0, 0, 0, 0], [1, 0, 1, 0, 0, 0], [1, 0, 1, 1, 0, 0]]  # each to the first blue pile then
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert _sort_with_hues_set(rs) == seen
