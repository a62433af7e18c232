"""The search built-in best_combination (runtime/builtins_search.py): the strongest set of cards
made of held cards, wild slots and a pool, scored by the kinds of sets it is. Through a small
ruleset (a pool of zones, whose summary must follow the zones as cards move), directly, and
against brute force over every completion and every choice of every wild slot (Hypothesis)."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from dsl.loader import load_from_sources
from runtime import Game
from runtime.builtins_search import KINDS, best_combination, ruleset_fn
from runtime.values import Comp, ZoneRef

RULES = """
game sets_demo "best_combination"
seats 2
enum suit { hearts, spades, clubs }
component card(suit: suit, rank: int)
component token(worth: int)
components cards = [card(s, r) for s in suit for r in 1..6]
components tokens = [token(w) for w in 1..3]
zone deck: card | token public = cards ++ tokens
zone hand: per seat card | token public = []
zone table: card public = []
const kinds = {"suited_run": 500, "same_rank": 400, "suited": 300, "run": 200, "any": 100}
fn where() -> list<any> "the deck and both hands" = [deck] ++ [hand[s] for s in seats]
fn best(held: list<card>, wild: list<list<int>>, n: int, above: int) -> any =
  best_combination(held, wild, where(), n, "suit", "rank", kinds, above)
var top3: any = best_combination([], [], deck, 3, "suit", "rank", kinds)
var beats_515: any = best_combination([], [], deck, 3, "suit", "rank", kinds, 515)
var sum_only: any = best_combination([], [[9]], deck, 3, "suit", "rank", {"any": 0})
var too_many: any = best_combination([], [], deck, 19, "suit", "rank", kinds)
step s "the only step"
move stop() during s "end" { end game draw "done" }
"""


@pytest.fixture()
def game() -> Game:
    rs = load_from_sources((("sets_demo.ludex", RULES),))
    return Game.new(rs, 2, seed=1)


def _card(st, suit: str, rank: int) -> Comp:
    return next(c for c in st.comps if c.d.get("suit") == suit and c.d.get("rank") == rank)


def _zone(st, key: str):
    return next(z for z in st.zone_refs if z.key == key)


def test_through_the_rule_language(game: Game) -> None:
    g = game.st.g
    assert g["top3"] == 515  # 4-5-6 of one suit
    assert g["beats_515"] is None
    assert g["sum_only"] == 9 + 6 + 6  # the tokens have no suit nor rank: not cards
    assert g["too_many"] is None  # 18 cards: no set of 19


def test_a_pool_of_zones_follows_the_cards_as_they_move(game: Game) -> None:
    st = game.st
    best = ruleset_fn(st, "best")
    assert best([], [], 3, -1) == 515
    table = _zone(st, "table")
    for s in ("hearts", "spades", "clubs"):  # every 6 leaves the deck: the best run of one suit is 3-4-5
        st.move_items(_card(st, s, 6), table)
    assert best([], [], 3, -1) == 512
    st.move_items(_card(st, "hearts", 6), _zone(st, "hand[1]"))
    assert best([], [], 3, -1) == 515  # a hand counts as the deck does
    assert best([], [], 3, 515) is None
    held = [_card(st, "spades", 1), _card(st, "spades", 2)]
    assert best(held, [], 3, -1) == 506  # spades 1-2-3
    assert best(held, [[6]], 3, -1) == 300 + 1 + 2 + 6  # one suit (the wild slot takes any), no run
    clone = game.clone()
    st.move_items(_card(st, "hearts", 6), table)
    assert best([], [], 3, -1) == 512
    assert ruleset_fn(clone.st, "best")([], [], 3, -1) == 515  # the clone's zones did not change


def _fake():
    return SimpleNamespace(items=lambda x: list(x) if x is not None else (), zones=[])


def _cards(spec: list[tuple[str, int]], start: int = 0) -> list[Comp]:
    return [Comp(start + i, "card", f"{s}{r}#{start + i}", {"suit": s, "rank": r}) for i, (s, r) in enumerate(spec)]


def test_direct_answers_and_errors() -> None:
    st = _fake()
    kinds = {"suited_run": 500, "same_rank": 400, "suited": 300, "run": 200, "any": 100}
    pool = _cards([("a", 7), ("b", 7), ("c", 7), ("a", 1), ("b", 2)])
    assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds) == 421  # three 7s
    assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, 421) is None
    assert best_combination(st, _cards([("a", 8)], 10), [[9, 10]], pool, 3, "suit", "rank", kinds) == 500 + 24  # 7-8-9
    assert best_combination(st, [], [[4], [4]], [], 2, "suit", "rank", {"run": 0}) is None  # slots take distinct ranks in a run
    assert best_combination(st, [], [[4], [4]], [], 2, "suit", "rank", {"same_rank": 0}) == 8
    assert best_combination(st, [], [[]], pool, 2, "suit", "rank", kinds) is None  # a slot with no rank
    assert best_combination(st, [], [], pool, 2, "suit", "rank", {"suited": 0, "same_rank": 50}) == 50 + 14
    with pytest.raises(ValueError, match="unknown kind of set 'flush'"):
        best_combination(st, [], [], pool, 3, "suit", "rank", {"flush": 1})
    with pytest.raises(ValueError, match="a rank is an int"):
        best_combination(st, [], [], _cards([("a", -1)]), 1, "suit", "rank", kinds)
    assert KINDS == ("suited_run", "same_rank", "suited", "run", "any")


def _is_run(ranks: list[int]) -> bool:
    return len(set(ranks)) == len(ranks) and max(ranks) - min(ranks) == len(ranks) - 1


def _brute(held: list[tuple[str, int]], wild: list[list[int]], pool: list[tuple[str, int]], size: int,
           kinds: dict[str, int], above: int | None) -> int | None:
    """Every completion, every choice of every wild slot, every kind the set is."""
    best = None
    m = size - len(held) - len(wild)
    if m < 0:
        return None
    for combo in itertools.combinations(pool, m):
        fixed = held + list(combo)
        suits = {s for s, _r in fixed}
        for choice in itertools.product(*wild):
            ranks = [r for _s, r in fixed] + list(choice)
            total = sum(ranks)
            is_kind = {"suited_run": len(suits) <= 1 and _is_run(ranks), "same_rank": len(set(ranks)) <= 1,
                       "suited": len(suits) <= 1, "run": _is_run(ranks), "any": True}
            for kind, base in kinds.items():
                if is_kind[kind] and (best is None or base + total > best):
                    best = base + total
    return best if best is not None and (above is None or best > above) else None


CARD = hs.tuples(hs.sampled_from("abc"), hs.integers(0, 7))


@settings(max_examples=400, deadline=None)
@given(held=hs.lists(CARD, max_size=2), pool=hs.lists(CARD, max_size=9),
       wild=hs.lists(hs.lists(hs.integers(0, 7), min_size=1, max_size=4, unique=True), max_size=2),
       size=hs.integers(1, 5), kinds=hs.dictionaries(hs.sampled_from(KINDS), hs.integers(0, 60), min_size=1),
       above=hs.none() | hs.integers(-1, 90))
def test_agrees_with_brute_force(held, pool, wild, size, kinds, above) -> None:
    st = _fake()
    got = best_combination(st, _cards(held, 100), wild, _cards(pool), size, "suit", "rank", kinds, above)
    assert got == _brute(held, wild, pool, size, kinds, above)


QUERY = hs.tuples(hs.lists(CARD, max_size=2), hs.lists(hs.lists(hs.integers(0, 7), min_size=1, max_size=3), max_size=2),
                  hs.integers(1, 4), hs.none() | hs.integers(-1, 80))


@settings(max_examples=150, deadline=None)
@given(first=hs.lists(CARD, max_size=6), second=hs.lists(CARD, max_size=6), queries=hs.lists(QUERY, min_size=1, max_size=8),
       kinds=hs.dictionaries(hs.sampled_from(KINDS), hs.integers(0, 60), min_size=1))
def test_questions_about_one_pool_of_zones_agree_with_brute_force(first, second, queries, kinds) -> None:
    """What one answer tells of a pool of zones is kept for the next questions (another `above`,
    the same or other held cards): each still agrees with brute force."""
    zones = [_cards(first), _cards(second, 50)]
    st = SimpleNamespace(items=lambda x: list(x) if x is not None else (), zones=zones)
    refs = [ZoneRef(i, f"z{i}", "card", "public", None, False, f"z{i}") for i in range(2)]
    for held, wild, size, above in queries * 2:
        got = best_combination(st, _cards(held, 100), wild, refs, size, "suit", "rank", kinds, above)
        assert got == _brute(held, wild, first + second, size, kinds, above)


def test_a_bound_learnt_from_one_answer_settles_only_what_it_says() -> None:
    kinds = {"suited_run": 500, "same_rank": 400, "suited": 300, "run": 200, "any": 100}
    spec = [("a", 3), ("a", 4), ("a", 5), ("b", 5), ("c", 1)]
    want = _brute([], [], spec, 3, kinds, None)
    assert want == 512
    st = SimpleNamespace(items=lambda x: list(x) if x is not None else (), zones=[_cards(spec)])
    pool = [ZoneRef(0, "z", "card", "public", None, False, "z")]
    assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, want) is None  # learnt: no more than 512
    assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, want + 7) is None  # settled by it
    assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, want - 1) == want  # not settled: asked again
    assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds, 0) == want  # now known exactly
    st.zones[0] = st.zones[0][:4]  # a zone that changed is read again: a-3, a-4, a-5, b-5
    assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds) == 512
    st.zones[0] = st.zones[0][1:]  # a-4, a-5, b-5: neither one suit nor a run
    assert best_combination(st, [], [], pool, 3, "suit", "rank", kinds) == 100 + 14


@settings(max_examples=60, deadline=None)
@given(cards=hs.lists(CARD, min_size=4, max_size=16, unique=True),
       steps=hs.lists(hs.tuples(hs.integers(0, 1), hs.sampled_from(["top", "end", "any"]), hs.integers(0, 99)), max_size=12),
       kinds=hs.dictionaries(hs.sampled_from(KINDS), hs.integers(0, 60), min_size=1))
def test_zones_changed_a_card_at_a_time_agree_with_their_cards(cards, steps, kinds) -> None:
    """Cards move one at a time between two zones (from the top, the end or the middle, to the
    top or the end, as draws and plays do): what is known of the zones follows them."""
    comps = _cards(cards)
    zones = [comps[: len(comps) // 2], comps[len(comps) // 2:]]
    st = SimpleNamespace(items=lambda x: list(x) if x is not None else (), zones=zones)
    refs = [ZoneRef(i, f"z{i}", "card", "public", None, False, f"z{i}") for i in range(2)]
    for src, where, k in steps:
        if not zones[src]:
            continue
        i = 0 if where == "top" else len(zones[src]) - 1 if where == "end" else k % len(zones[src])
        card = zones[src][i]
        zones[src] = zones[src][:i] + zones[src][i + 1:]  # copy-on-write, as runtime.state does
        zones[1 - src] = [card] + zones[1 - src] if k % 2 else zones[1 - src] + [card]
        for size in (2, 3):
            got = best_combination(st, [], [], refs, size, "suit", "rank", kinds)
            assert got == best_combination(st, [], [], zones[0] + zones[1], size, "suit", "rank", kinds)
            assert got == _brute([], [], [(c.d["suit"], c.d["rank"]) for c in zones[0] + zones[1]], size, kinds, None)
