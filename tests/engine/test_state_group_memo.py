"""`group_values` memoised by the components of its pool (`State.pure_memo`): the same map for
the same components in the same order, a new one when a component joins or leaves."""

from __future__ import annotations

from types import SimpleNamespace

from runtime.builtins_search import group_values
from runtime.values import Comp


def test_group_values_of_components_is_memoised_by_the_components():
    cards = [Comp(i, "card", f"c{i}", {"c": c, "v": v}) for i, (c, v) in enumerate([("r", 3), ("b", 9), ("r", 7), ("r", 3)])]
    st = SimpleNamespace(pure_memo={}, items=lambda x: x)
    first = group_values(st, cards, "c", "v", ["g", "b"])
    assert first == {"g": [], "b": [9], "r": [7, 3, 3]}
    assert group_values(st, list(cards), "c", "v", ["g", "b"]) is first  # another list, the same components
    assert group_values(st, cards[1:], "c", "v", ["g", "b"]) == {"g": [], "b": [9], "r": [7, 3]}
    assert group_values(st, cards, "c", "v") == {"r": [7, 3, 3], "b": [9]}  # other keys: another map
    assert group_values(st, [], "c", "v") == {}
