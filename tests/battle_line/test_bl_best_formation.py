"""The claim proof against a side of troops only: the ruleset's `best_formation` (the strongest
formation completing those troops from a pool, computed type by type) equals the largest
strength over every completion (`best_completion` with the ruleset's own `strength`), and
against an empty side the `threatened` it gives equals the plain search (`any_completion`)."""

from __future__ import annotations

from bl_helpers import TROOPS, ruleset
from hypothesis import given, settings
from hypothesis import strategies as st

from runtime import Game
from runtime.builtins_search import any_completion, best_completion, ruleset_fn


def _game() -> Game:
    return Game.new(ruleset(), 2, seed=0)


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.sampled_from(TROOPS), min_size=2, max_size=16, unique=True),
       placed=st.integers(min_value=0, max_value=2), n=st.sampled_from([3, 4]), fog=st.booleans())
def test_best_formation_is_the_best_completion(names: list[str], placed: int, n: int, fog: bool) -> None:
    g = _game()
    comps = {c.name: c for c in g.st.comps}
    theirs, pool = [comps[x] for x in names[:placed]], [comps[x] for x in names[placed:]]
    best = ruleset_fn(g.st, "best_formation")(theirs, pool, ruleset_fn(g.st, "values_by_colour")(pool), n, fog)
    brute = best_completion(g.st, theirs, pool, n, "strength", None, [fog])
    assert best == (-1 if brute is None else brute)


@settings(max_examples=10, deadline=None)
@given(table=st.lists(st.sampled_from(TROOPS), max_size=30, unique=True),
       mine=st.integers(min_value=100, max_value=540), n=st.sampled_from([3, 4]), fog=st.booleans())
def test_threatened_against_an_empty_side_agrees_with_the_search(table: list[str], mine: int, n: int, fog: bool) -> None:
    g = _game()
    pool = [c for c in g.st.comps if c.kind == "troop" and c.name not in table]
    quick = ruleset_fn(g.st, "best_formation")([], pool, ruleset_fn(g.st, "values_by_colour")(pool), n, fog) > mine
    assert quick == any_completion(g.st, [], pool, n, "beats_claim", "could_beat", [mine, fog])
