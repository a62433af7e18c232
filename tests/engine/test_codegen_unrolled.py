"""Comprehensions over values known when the rules are compiled, and literal ranges, in the
generated Python (runtime.codegen): written out per value or as constants, the same moves as
the closures (`LUDEX_NO_CODEGEN=1`)."""

from __future__ import annotations

import random

from dsl import load_from_sources
from runtime import Game
from runtime import compile as rc

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

step play then end turn
move put(k in bag, t in tiles, n in 1..2) during play
  require balanced(t) and not any_pair(t) else "full"
  require spread(t)[k.colour] + n < 5 and climbing() else "too many"
  require sum(kept_all()) + size(steps()) < 12 else "enough kept"
{
  move k to t.on
  for i in 1..n { rounds += i }
  for i in 1..(n - 1) { move first(1, t.on) to kept[actor] }
}
"""


def _moves_seen(rs, seed: int) -> list:
    g = Game.new(rs, 2, {}, seed=seed)
    rng, out = random.Random(seed), []
    while g.decision().seats and (moves := g.legal_moves(g.decision().seats[0])):
        out.append([m.to_dict() for m in moves])
        g.apply(g.decision().seats[0], moves[rng.randrange(len(moves))])
    out.append(g.state_hash())
    return out


def test_comprehensions_over_known_values_are_written_out(monkeypatch):
    """`all`/`any` over an enumeration, the two seats or a literal range, and a map or list
    comprehension over one, are written out per value (no generator); a literal range
    iterated is a tuple constant, a range value a new list; the moves are the closures'."""
    rs = load_from_sources((("unrolled.ludex", UNROLLED),))
    c = rc.Compiler(rs)
    c.program()
    fns = {text.split("(")[0]: text.split("\n\n")[0] for text in c.source.split("def F_")[1:]}
    assert " for " not in fns["balanced"] and "'green'" in fns["balanced"]
    assert " for " not in fns["any_pair"] and " for " not in fns["spread"] and " for " not in fns["kept_all"]
    assert "[1, 2, 3]" in fns["steps"]
    assert " for " not in fns["climbing"] and "ADD(" not in fns["climbing"]
    search = c.source[c.source.index("def M_0("):].split("\n\n")[0]
    assert "in (1, 2):" in search
    body = c.source[c.source.index("def B_0("):].split("\n\n")[0]
    assert "list(range" not in body and "in range(1, " in body

    seen = [_moves_seen(rs, s) for s in range(4)]
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert [_moves_seen(rs, s) for s in range(4)] == seen
