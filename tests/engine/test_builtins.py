"""The generic built-ins of runtime/builtins.py on lists, maps, generators and unhashable
elements (docs/language.md, "Built-in functions")."""

from runtime.builtins import FUNCS
from runtime.state import State


class _St:
    items = State.items


ST = _St()


def test_distinct_keeps_first_seen_order_for_hashable_and_unhashable_elements():
    d = FUNCS["distinct"]
    assert d(ST, [3, 1, 3, 4, 1, 5]) == [3, 1, 4, 5]
    assert d(ST, (x % 3 for x in range(7))) == [0, 1, 2]
    assert d(ST, [[1], [2], [1], {"a": 1}, {"a": 1}]) == [[1], [2], {"a": 1}]
    assert d(ST, {"b": 1, "a": 2}) == ["b", "a"]
    assert d(ST, []) == []
    xs = [1, 2, 2]
    out = d(ST, xs)
    out.append(9)
    assert xs == [1, 2, 2]  # a new list


def test_min_max_of_a_collection_or_of_two_values():
    assert FUNCS["min"](ST, [4, 2, 7]) == 2 and FUNCS["max"](ST, [4, 2, 7]) == 7
    assert FUNCS["min"](ST, (x for x in [])) is None and FUNCS["max"](ST, []) is None
    assert FUNCS["min"](ST, (x * x for x in [-3, 2])) == 4
    assert FUNCS["min"](ST, 5, 3) == 3 and FUNCS["max"](ST, 5, 3) == 5


def test_first_takes_at_most_n_as_a_new_list():
    xs = [1, 2, 3]
    assert FUNCS["first"](ST, 2, xs) == [1, 2]
    assert FUNCS["first"](ST, 5, (x for x in xs)) == [1, 2, 3]
    assert FUNCS["first"](ST, -1, xs) == []
    assert FUNCS["first"](ST, 3, xs) is not xs


def test_bundles_every_way_to_take_n_units():
    b = FUNCS["bundles"]
    assert b(ST, {"a": 2, "b": 1}, 2) == [{"a": 2}, {"a": 1, "b": 1}]
    assert b(ST, {"a": 2, "b": 1}, 0) == [{}] and b(ST, {}, 0) == [{}]
    assert b(ST, {}, 1) == [] and b(ST, {"a": 1}, 2) == [] and b(ST, {"a": 0}, 1) == []
    first = b(ST, {"a": 2}, 1)
    first[0]["a"] = 9  # a rule may change what it got: the next call is not affected
    assert b(ST, {"a": 2}, 1) == [{"a": 1}]


def test_argmax_and_argmin_give_none_on_a_tie_or_when_empty():
    """docs/language.md, "Built-in functions": the key or index of the unique best, else none."""
    from dsl import load_from_sources
    from runtime import Game

    src = """
game ties
fn hi(xs: list<int>) -> any = argmax(n for n in xs)
fn lo(xs: list<int>) -> any = argmin(xs)
fn hi_key(m: map<int, int>) -> any = argmax(m)
fn lo_key(m: map<int, int>) -> any = argmin(m)
step play then end turn
move pass() during play { }
"""
    g = Game.new(load_from_sources((("ties.ludex", src),)), 2, seed=1)
    assert [g.call("hi", xs) for xs in ([3, 1, 5, 1], [5, 1, 5], [])] == [2, None, None]
    assert [g.call("lo", xs) for xs in ([3, 1, 5], [3, 1, 1], [])] == [1, None, None]
    assert [g.call("hi_key", m) for m in ({1: 5, 2: 7}, {1: 7, 2: 7}, {})] == [2, None, None]
    assert [g.call("lo_key", m) for m in ({1: 7, 2: 7, 3: 2}, {1: 2, 2: 2}, {})] == [3, None, None]
