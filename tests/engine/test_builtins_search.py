"""Search built-ins (runtime/builtins_search.py): completions, any_completion, best_completion,
expand, group_values, top_run, and the one-pass counting built-in tally (runtime/builtins.py), both through a small ruleset and directly with counting functions
(to see the pruning), and against brute force on random inputs (Hypothesis)."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from dsl.loader import load_from_sources
from runtime import Game
from runtime.builtins import tally
from runtime.builtins_search import (
    any_completion,
    best_completion,
    completions,
    expand,
    group_values,
    ruleset_fn,
    top_run,
)

RULES = """
game search_demo "search built-ins"
seats 2
enum parity { even, odd }
component n(v: int, p: parity)
components ns = [n(v, if v % 2 == 0 then even else odd) for v in 1..9]
zone pool: n public = ns
fn total(xs: list<n>) -> int "sum" = sum(x.v for x in xs)
fn reaches(xs: list<n>, t: int) -> bool "pred" = total(xs) >= t
fn could(xs: list<n>, missing: int, t: int) -> bool "viable: nine is the most a missing one adds" = total(xs) + 9 * missing >= t
fn ceiling(xs: list<n>, missing: int) -> int "bound" = total(xs) + 9 * missing
fn choices(x: n) -> list<int> "alternatives" = [x.v, 10 * x.v]
fn firsts(k: int) -> list<n> "the k smallest" = [x for x in ns if x.v <= k]
var all_small: bool = all(total(c) < 24 for c in completions([], pool, 3))   "no three sum to 24 or more? (false: 7 + 8 + 9)"
var n_compl: int = count(true for c in completions(firsts(1), pool, 3))      "pairs added to n(1): C(9,2), n(1) itself included in the pool"
var some_24: bool = any_completion([], pool, 3, "reaches", "could", [24])
var some_25: bool = any_completion([], pool, 3, "reaches", "could", [25])
var some_plain: bool = any_completion(firsts(2), pool, 3, "reaches", none, [12])
var best3: int = best_completion([], pool, 3, "total", "ceiling")
var best_none: any = best_completion([], pool, 12, "total")
var exp_max: int = max(sum(x for x in c) for c in expand(firsts(2), "choices"))
var exp_count: int = count(true for c in expand(firsts(3), "choices"))
var by_parity: map<parity, list<int>> = group_values(pool, "p", "v", parity)
var run3: int = top_run([1, 2, 3, 5, 6, 7], 3)
var run_with_2: int = top_run([1, 3, 4, 7, 8, 9], 3, [2])
var no_run: int = top_run([1, 2, 4], 3)
var wild_run: int = top_run([4, 9], 3, [5], [[1, 2, 3, 6, 7, 8]])
var per_parity: map<parity, int> = tally(pool, "p", parity)
var small_by_parity: map<parity, int> = tally(firsts(1), "p", parity)
step s "the only step"
move stop() during s "end" { end game draw "done" }
"""


@pytest.fixture(scope="module")
def game() -> Game:
    rs = load_from_sources((("search_demo.ludex", RULES),))
    return Game.new(rs, 2, seed=1)


def test_through_the_rule_language(game: Game) -> None:
    g = game.st.g
    assert g["all_small"] is False
    assert g["n_compl"] == 36
    assert g["some_24"] is True and g["some_25"] is False
    assert g["some_plain"] is True  # 1 + 2 + 9
    assert g["best3"] == 24
    assert g["best_none"] is None
    assert g["exp_max"] == 30
    assert g["exp_count"] == 8
    assert g["by_parity"] == {"even": [8, 6, 4, 2], "odd": [9, 7, 5, 3, 1]}
    assert g["run3"] == 7 and g["run_with_2"] == 4 and g["no_run"] is None
    assert g["wild_run"] == 6  # 4, 5 and the wild slot as 6
    assert g["per_parity"] == {"even": 4, "odd": 5}
    assert g["small_by_parity"] == {"even": 0, "odd": 1}  # every key given is there


def test_ruleset_fn_errors(game: Game) -> None:
    with pytest.raises(ValueError, match="no function 'nope'"):
        ruleset_fn(game.st, "nope")
    with pytest.raises(ValueError, match="takes 2 argument"):
        ruleset_fn(game.st, "reaches", 3)


class Fake:
    """A state with Python functions standing in for ruleset functions, counting calls."""

    def __init__(self, **fns):
        self.calls = {k: 0 for k in fns}
        self.callables = {}
        for name, f in fns.items():
            nparams = f.__code__.co_argcount

            def body(st, env, f=f, name=name, nparams=nparams):
                self.calls[name] += 1
                return f(*env[:nparams])

            self.callables[name] = SimpleNamespace(body=body, nslots=nparams, nparams=nparams, is_proc=False)

    def items(self, x):
        return list(x) if x is not None else ()


def test_completions_is_lazy_and_complete() -> None:
    st = Fake()
    it = completions(st, [0], range(1, 6), 3)
    assert next(it) == [0, 1, 2]
    assert len(list(completions(st, [0], range(1, 6), 3))) == 10
    assert list(completions(st, [0, 1], [], 2)) == [[0, 1]]
    assert list(completions(st, [0, 1, 2], [5], 2)) == []


def test_any_completion_prunes_with_viable() -> None:
    pool = list(range(50))
    st = Fake(pred=lambda xs, t: sum(xs) >= t, viable=lambda xs, m, t: sum(xs) + 49 * m >= t)
    # 47 + 48 + 49 = 144: reachable only by the top three; blind search would test 19600 triples
    assert any_completion(st, [], pool, 3, "pred", "viable", [144]) is True
    assert any_completion(st, [], pool, 3, "pred", "viable", [145]) is False
    assert st.calls["pred"] + st.calls["viable"] < 19600 // 4
    blind = Fake(pred=lambda xs, t: sum(xs) >= t)
    assert any_completion(blind, [], pool, 3, "pred", None, [145]) is False
    assert blind.calls["pred"] == 19600


def test_any_completion_agrees_with_brute_force() -> None:
    pool = [3, 8, 1, 9, 4, 4, 7]
    for partial in ([], [5], [2, 6]):
        for t in range(0, 40, 3):
            st = Fake(pred=lambda xs, t: sum(xs) % 5 == 0 and sum(xs) >= t,
                      viable=lambda xs, m, t: sum(xs) + 9 * m >= t)
            want = any(sum(partial + list(c)) % 5 == 0 and sum(partial) + sum(c) >= t
                       for c in itertools.combinations(pool, 3 - len(partial)))
            assert any_completion(st, partial, pool, 3, "pred", "viable", [t]) is want


def test_best_completion_branch_and_bound() -> None:
    pool = list(range(40))
    st = Fake(key=lambda xs: sum(xs), bound=lambda xs, m: sum(xs) + 39 * m)
    assert best_completion(st, [100], pool, 4, "key", "bound") == 100 + 39 + 38 + 37
    assert st.calls["key"] + st.calls["bound"] < 9880 // 4  # C(40,3) leaves without pruning
    assert best_completion(Fake(key=lambda xs: sum(xs)), [], [1, 2], 3, "key") is None
    assert best_completion(Fake(key=lambda xs: -len(xs)), [1, 2], [], 2, "key") == -2


def test_best_completion_agrees_with_brute_force() -> None:
    pool = [5, -3, 8, 2, 2, 7, -1]
    st = Fake(key=lambda xs: (xs[0] * 3 - sum(xs[1:])) if xs else 0, bound=lambda xs, m: 10**6)
    for size in (1, 2, 3, 4):
        want = max(3 * c[0] - sum(c[1:]) for c in itertools.combinations(pool, size))
        assert best_completion(st, [], pool, size, "key", "bound") == want


def test_expand_is_the_cartesian_product() -> None:
    st = Fake(alts=lambda x: [x, -x] if x else [])
    assert list(expand(st, [1, 2], "alts")) == [[1, 2], [1, -2], [-1, 2], [-1, -2]]
    assert list(expand(st, [1, 0], "alts")) == []
    assert list(expand(st, [], "alts")) == [[]]
    st = Fake(scaled=lambda x, k: [x, k * x])
    assert list(expand(st, [1, 2], "scaled", [10])) == [[1, 2], [1, 20], [10, 2], [10, 20]]


def test_group_values_groups_in_one_pass() -> None:
    st = Fake()
    cards = [SimpleNamespace(d={"c": c, "v": v}) for c, v in [("r", 3), ("b", 9), ("r", 7), ("r", 3)]]
    assert group_values(st, cards, "c", "v") == {"r": [7, 3, 3], "b": [9]}
    assert group_values(st, cards, "c", "v", ["g", "b"]) == {"g": [], "b": [9], "r": [7, 3, 3]}
    assert group_values(st, [], "c", "v") == {}
    with pytest.raises(KeyError):
        group_values(st, cards, "colour", "v")


def _brute_top_run(values: list[int], n: int, required: list[int] | None) -> int | None:
    req = required or []
    if len(set(req)) != len(req):
        return None
    have = set(values) | set(req)
    tops = [t for t in have if all(t - k in have for k in range(n)) and all(t - n < r <= t for r in req)]
    return max(tops, default=None)


@given(values=hs.lists(hs.integers(-3, 14) | hs.integers(60, 67), max_size=12), n=hs.integers(1, 5),
       required=hs.none() | hs.lists(hs.integers(-3, 14) | hs.integers(60, 67), max_size=4))
def test_top_run_agrees_with_brute_force(values: list[int], n: int, required: list[int] | None) -> None:
    assert top_run(Fake(), values, n, required) == _brute_top_run(values, n, required)


def test_top_run_examples() -> None:
    st = Fake()
    assert top_run(st, [10, 9, 8, 3, 2, 1], 3) == 10
    assert top_run(st, [9, 8, 8, 7], 3) == 9  # repeats do not matter
    assert top_run(st, [10, 9, 8], 3, [3]) is None  # the run must hold 3
    assert top_run(st, [5, 4], 3, [3]) == 5
    assert top_run(st, [5, 4, 2], 3, [3, 3]) is None  # a repeated required value makes no run
    assert top_run(st, [], 1) is None
    assert top_run(st, [0, 100, 99, 98], 3) == 100  # values beyond the bit table
    assert top_run(st, [-2, -1, 0, 70], 3, [-1]) == 0


def _brute_top_run_wild(values: list[int], n: int, required: list[int], wild: list[list[int]]) -> int | None:
    """Every choice of one value per wild slot, then a run of exactly the required, the chosen
    and some values."""
    best = None
    for chosen in itertools.product(*wild):
        fixed = list(required) + list(chosen)
        if len(set(fixed)) != len(fixed) or len(fixed) > n:
            continue
        for t in set(values) | set(fixed):
            run = set(range(t - n + 1, t + 1))
            if set(fixed) <= run and run - set(fixed) <= set(values) and (best is None or t > best):
                best = t
    return best


_RUN_VALUE = hs.integers(1, 12) | hs.integers(-3, 0) | hs.integers(60, 67)  # and beyond the bit table


@given(values=hs.lists(_RUN_VALUE, max_size=8), n=hs.integers(1, 5),
       required=hs.lists(_RUN_VALUE, max_size=3),
       wild=hs.lists(hs.lists(_RUN_VALUE, max_size=5), min_size=1, max_size=3))
def test_top_run_with_wild_slots_agrees_with_brute_force(values: list[int], n: int, required: list[int],
                                                         wild: list[list[int]]) -> None:
    want = _brute_top_run_wild(values, n, required, wild) if len(set(required)) == len(required) else None
    assert top_run(Fake(), values, n, required, wild) == want


def test_top_run_with_wild_slots_examples() -> None:
    st = Fake()
    any_value = list(range(1, 11))
    assert top_run(st, [], 3, [], [any_value, [8]]) is None  # two slots cannot make three
    assert top_run(st, [7], 3, [], [any_value, [8]]) == 9  # 7, 8 (the second slot) and 9 (the first)
    assert top_run(st, [10, 9], 3, [], [[1, 2, 3]]) is None  # the slot must be used, and 8 is not allowed
    assert top_run(st, [4], 3, [], [[1, 2, 3], [1, 2, 3]]) == 4  # 2-3-4 or 3-4 with 2: the highest
    assert top_run(st, [5, 6], 3, [7], [[7]]) is None  # a slot cannot repeat a required value
    assert top_run(st, [5, 6, 7], 3, [], []) == 7  # no slots: as without


def test_tally_counts_in_one_pass() -> None:
    st = Fake()
    cards = [SimpleNamespace(d={"c": c}) for c in ["r", "b", "r", "r"]]
    assert tally(st, cards, "c") == {"r": 3, "b": 1}
    assert tally(st, cards, "c", ["g", "b"]) == {"g": 0, "b": 1, "r": 3}
    assert tally(st, [], "c") == {}
    with pytest.raises(KeyError):
        tally(st, cards, "colour")
