"""best_combination (runtime/builtins_search.py) over a pool of zones while cards leave the pool,
join it and move within it: the pool is changed rather than read again, and what was known of
the strongest sets carries over while it still holds (the cards a strongest set is made of are
all still there, or a bound); every answer still agrees with brute force."""

from __future__ import annotations

import random
import sys
import threading
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as hs
from test_best_combination import CARD, KINDS, _brute, _cards

from runtime import builtins_search
from runtime.builtins_search import best_combination
from runtime.values import ZoneRef

QUERY = hs.tuples(
    hs.lists(CARD, max_size=2),
    hs.lists(hs.lists(hs.integers(0, 7), min_size=1, max_size=3), max_size=1),
    hs.integers(1, 4),
    hs.none() | hs.integers(-1, 80),
)
# a move: from zone, to zone (2 is outside the pool), which card (top, end or another), to the top or the end
STEP = hs.tuples(
    hs.integers(0, 2), hs.integers(0, 2), hs.sampled_from(["top", "end", "any"]), hs.integers(0, 99)
)


def _refs(n: int) -> list[ZoneRef]:
    return [ZoneRef(i, f"z{i}", "card", "public", None, False, f"z{i}") for i in range(n)]


@settings(max_examples=200, deadline=None)
@given(
    cards=hs.lists(CARD, min_size=3, max_size=14),
    steps=hs.lists(STEP, max_size=10),
    queries=hs.lists(QUERY, min_size=1, max_size=5),
    kinds=hs.dictionaries(hs.sampled_from(KINDS), hs.integers(0, 60), min_size=1),
)
def test_pools_of_zones_that_change_agree_with_brute_force(cards, steps, queries, kinds) -> None:
    """Between the same questions, asked again after each move, a card leaves the pool (to the
    zone outside it), joins it or moves within it; cards may repeat a suit and rank."""
    comps = _cards(cards)
    third = len(comps) // 3
    zones = [comps[:third], comps[third : 2 * third], comps[2 * third :]]
    st = SimpleNamespace(items=lambda x: list(x) if x is not None else (), zones=zones)
    refs = _refs(2)  # the pool: zones 0 and 1
    held_cards = {i: _cards(h, 100) for i, (h, _w, _s, _a) in enumerate(queries)}
    for src, dest, where, k in [(0, 0, "top", 0), *steps]:
        if zones[src] and src != dest:
            i = 0 if where == "top" else len(zones[src]) - 1 if where == "end" else k % len(zones[src])
            card = zones[src][i]
            zones[src] = zones[src][:i] + zones[src][i + 1 :]  # copy-on-write, as runtime.state does
            zones[dest] = [card] + zones[dest] if k % 2 else zones[dest] + [card]
        pool = [(c.d["suit"], c.d["rank"]) for c in zones[0] + zones[1]]
        for i, (held, wild, size, above) in enumerate(queries):
            got = best_combination(st, held_cards[i], wild, refs, size, "suit", "rank", kinds, above)
            assert got == _brute(held, wild, pool, size, kinds, above)


def test_a_strongest_set_known_outlives_cards_leaving_that_it_does_not_use() -> None:
    kinds = {"suited_run": 500, "same_rank": 400, "suited": 300, "run": 200, "any": 100}
    deck = _cards([("a", 7), ("a", 8), ("a", 9), ("b", 1), ("c", 2), ("b", 9), ("c", 9)])
    st = SimpleNamespace(items=lambda x: list(x) if x is not None else (), zones=[deck, []])
    pool = _refs(1)
    strongest = builtins_search._strongest
    asked = []

    def counting(*args):
        asked.append(args)
        return strongest(*args)

    builtins_search._strongest = counting
    try:
        assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, 100) == 524  # a 7-8-9
        st.zones[0] = deck[:3] + deck[4:]  # b-1 leaves: the wedge is still there
        assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, 100) == 524
        assert len(asked) == 1  # known, not searched again
        st.zones[0] = deck[1:3] + deck[4:]  # a-7 leaves: three 9s
        assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, 100) == 427
        assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, 600) is None
        st.zones[0] = deck[1:3] + deck[4:6]  # c-9 leaves: a-8, a-9, c-2, b-9: no formation but the sum
        assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, 100) == 100 + 8 + 9 + 9
        assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, 300) is None
        st.zones[0] = [*st.zones[0], deck[0]]  # a-7 comes back: the wedge again
        assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, 100) == 524
    finally:
        builtins_search._strongest = strongest


def test_a_changed_pool_reads_a_suit_highest_first() -> None:
    """A suit's ranks are summed highest first in a pool changed from another, whether or not
    the other had put them in order."""
    deck = _cards([("a", 1), ("a", 5), ("a", 3), ("a", 7), ("b", 2), ("b", 4)])
    st = SimpleNamespace(items=lambda x: list(x) if x is not None else (), zones=[deck])
    pool = _refs(1)
    assert (
        best_combination(st, [], [], pool, 2, "suit", "rank", {"any": 0}) == 12
    )  # the ranks of a, not in order
    st.zones[0] = deck[:5]  # b-4 leaves
    assert best_combination(st, [], [], pool, 2, "suit", "rank", {"suited": 0}) == 12  # a-7 and a-5
    st.zones[0] = [*deck[:3], deck[4]]  # a-7 leaves (after a's ranks were put in order)
    assert best_combination(st, [], [], pool, 2, "suit", "rank", {"suited": 0}) == 8
    st.zones[0] = [*st.zones[0], deck[3], deck[5]]  # both come back
    assert best_combination(st, [], [], pool, 3, "suit", "rank", {"suited": 0}) == 15


def test_games_in_threads_share_the_pools_and_agree_with_brute_force() -> None:
    """Games in threads (as the service runs them) ask about their own zones while the others
    change theirs: the pools and answers the built-in keeps are shared, and each answer is still
    its own zones' (threads switched as often as the interpreter allows)."""
    kinds = {"suited_run": 500, "same_rank": 400, "suited": 300, "run": 200, "any": 100}
    errors: list[str] = []

    def play(seed: int) -> None:
        rng = random.Random(seed)
        comps = _cards([(s, r) for s in "abc" for r in range(1, 7)], 1000 * seed)
        rng.shuffle(comps)
        zones = [comps[:8], comps[8:12], comps[12:]]
        st = SimpleNamespace(items=lambda x: list(x) if x is not None else (), zones=zones)
        held = _cards([("a", 2)], 1000 * seed + 500)
        for _ in range(60):
            src, dest = rng.sample(range(3), 2)
            if zones[src]:
                i = rng.randrange(len(zones[src]))
                card = zones[src][i]
                zones[src] = zones[src][:i] + zones[src][i + 1 :]
                zones[dest] = zones[dest] + [card]
            pool = [(c.d["suit"], c.d["rank"]) for c in zones[0] + zones[1]]
            for h, above in (([], None), ([], 500), (held, 300)):
                got = best_combination(st, h, [], _refs(2), 3, "suit", "rank", kinds, above)
                want = _brute([(c.d["suit"], c.d["rank"]) for c in h], [], pool, 3, kinds, above)
                if got != want:
                    errors.append(f"seed {seed}: {got} != {want}")

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=play, args=(seed,)) for seed in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
