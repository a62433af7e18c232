"""The claim proof's formation search: the ruleset's `best_formation` (the strongest formation
completing a side's troops and morale cards from a pool: the built-in `best_combination`) equals the
largest strength over every completion: `best_completion` with the ruleset's own `strength` for
troops only (also against an empty side with most troops unseen), and the independent model of
bl_helpers, which tries every choice of every morale card (L13), when morale cards are there."""

from __future__ import annotations

import itertools

from bl_helpers import MORALE, TROOPS, ruleset, strength
from hypothesis import given, settings
from hypothesis import strategies as st

from runtime import Game
from runtime.builtins_search import best_completion, ruleset_fn


def _game() -> Game:
    return Game.new(ruleset(), 2, seed=0)


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.sampled_from(TROOPS), min_size=2, max_size=16, unique=True),
       placed=st.integers(min_value=0, max_value=2), n=st.sampled_from([3, 4]), fog=st.booleans())
def test_best_formation_is_the_best_completion(names: list[str], placed: int, n: int, fog: bool) -> None:
    g = _game()
    comps = {c.name: c for c in g.st.comps}
    theirs, pool = [comps[x] for x in names[:placed]], [comps[x] for x in names[placed:]]
    best = ruleset_fn(g.st, "best_formation")(theirs, [], pool, n, fog, -1)
    brute = best_completion(g.st, theirs, pool, n, "strength", None, [fog])
    assert best == (-1 if brute is None else brute)


@settings(max_examples=10, deadline=None)
@given(table=st.lists(st.sampled_from(TROOPS), min_size=20, max_size=40, unique=True),
       mine=st.integers(min_value=100, max_value=540), n=st.sampled_from([3, 4]), fog=st.booleans())
def test_threatened_against_an_empty_side_agrees_with_the_search(table: list[str], mine: int, n: int, fog: bool) -> None:
    g = _game()
    pool = [c for c in g.st.comps if c.kind == "troop" and c.name not in table]
    quick = ruleset_fn(g.st, "best_formation")([], [], pool, n, fog, mine)
    brute = best_completion(g.st, [], pool, n, "strength", None, [fog])
    assert quick == (brute if brute > mine else -1)


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.sampled_from(TROOPS), min_size=1, max_size=9, unique=True),
       wild=st.lists(st.sampled_from(sorted(MORALE)), min_size=1, max_size=3, unique=True),
       placed=st.integers(min_value=0, max_value=2), n=st.sampled_from([3, 4]), fog=st.booleans(),
       above=st.integers(min_value=-1, max_value=540))
def test_best_formation_with_morale_cards_is_the_best_choice(names: list[str], wild: list[str], placed: int, n: int,
                                                           fog: bool, above: int) -> None:
    g = _game()
    comps = {c.name: c for c in g.st.comps}
    placed = min(placed, n - len(wild))
    theirs, pool = names[:placed], names[placed:]
    choices = [ruleset_fn(g.st, "choice_values")(comps[w]) for w in wild]
    pool_comps = [comps[x] for x in pool]
    best = ruleset_fn(g.st, "best_formation")
    brute = max((strength(theirs + wild + list(c), fog) for c in itertools.combinations(pool, n - len(theirs) - len(wild))),
                default=-1)
    assert best([comps[x] for x in theirs], choices, pool_comps, n, fog, -1) == brute
    assert best([comps[x] for x in theirs], choices, pool_comps, n, fog, above) == (brute if brute > above else -1)
