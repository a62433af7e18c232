"""`State.draw_random` with a `retry` keyed by one attribute (`_draw_keyed`) draws exactly what
the test of every component draws: the same retry calls, RNG calls, outcomes and events."""

from __future__ import annotations

import random

import pytest

from dsl import load_from_sources
from runtime import Game

BAG = """
game bag
enum colour { red, blue, green, gray }
component cube(colour: colour)
components cubes = [cube(c) for c in colour for i in 1..5]
zone bag: cube hidden = cubes
zone tray: cube public = []

setup { turn 0 }

step play then end turn

move pull() during play "take a cube" {
  draw random from bag to tray
}
"""


def _state(seed, **kw):
    g = Game.new(load_from_sources((("bag.ludex", BAG),)), 2, seed=seed, **kw)
    return g.st


def _draws(st, key, limit, n):
    """n draws from bag to tray, a colour being put back once `limit` of it are in the tray;
    the components each retry call was shown, and what was drawn."""
    bag, tray = st.g["bag"], st.g["tray"]
    shown = []

    def retry(s, env, k):
        shown.append(k.d["colour"])
        return sum(1 for c in s.zones[tray.idx] if c.d["colour"] == k.d["colour"]) >= limit

    for _ in range(n):
        st.draw_random(bag, tray, retry, [], None, key)
    return shown, [c.name for c in st.zones[tray.idx]], [c.name for c in st.zones[bag.idx]]


@pytest.mark.parametrize("limit", [1, 2, 5])
@pytest.mark.parametrize("seed", range(6))
def test_keyed_draws_are_the_draws_of_a_test_of_every_component(seed, limit):
    a, b = _state(seed), _state(seed)
    shown_a, tray_a, bag_a = _draws(a, "colour", limit, 22)
    shown_b, tray_b, bag_b = _draws(b, None, limit, 22)
    assert (tray_a, bag_a) == (tray_b, bag_b)
    assert a.chance.rng.getstate() == b.chance.rng.getstate()
    assert [(e.kind, e.outcome) for e in a.events] == [(e.kind, e.outcome) for e in b.events]
    # the keyed test sees each colour once per draw, in the order the full test first meets it
    assert len(shown_a) <= 4 * 22 and set(shown_a) == set(shown_b)


def test_keyed_draws_accept_a_given_sequence_with_returned_cubes():
    # limit 1: once a red is in the tray, a red drawn is put back
    for key in ("colour", None):
        st = _state(1, outcomes=[["red"], ["red#2", "blue"]], strict=True)
        _draws(st, key, 1, 2)
        assert [c.name for c in st.zones[st.g["tray"].idx]] == ["red", "blue"]


def test_a_bag_refilled_between_draws_is_sorted_again():
    a, b = _state(3), _state(3)
    for st, key in ((a, "colour"), (b, None)):
        _draws(st, key, 9, 5)
        st.move_items(st.g["tray"], st.g["bag"])  # the drawn cubes go back: a new list
        _draws(st, key, 9, 5)
    assert a.zones[a.g["tray"].idx] == b.zones[b.g["tray"].idx]
    assert a.chance.rng.getstate() == b.chance.rng.getstate()
    assert random.Random(0)  # nothing else drew from the module RNG
