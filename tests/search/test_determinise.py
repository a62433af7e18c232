"""Belief-consistent determinisation (search.determinise): a sampled world never contradicts what
a hint mark says (Hanabi declares it with `knowledge hint_says`), and the worlds are uniform over
the consistent deals (their marginals match exact enumeration, chi-square).

The meaning of a mark is written out here from the rules (shared/rules/hanabi.md, H6), not read
from the ruleset, so a wrong knowledge function makes these tests fail.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from dsl import check_text, load_from_sources, load_ruleset
from runtime import Game
from search.determinise import Inconsistent, determinise, sample_filling


def _says(card, mark) -> bool:
    """H6: a colour hint touches the cards of its colour, a rank hint those of its rank."""
    kind, value, touched = mark
    shown = card.d["colour"] == value if kind == "colour" else card.d["rank"] == value
    return shown == touched


def _hidden(game, seat):
    """(zone index, slot, component) of every place `seat` cannot see."""
    st = game.st
    return [(z.idx, k, c) for z in st.zone_refs if not z.visible_to(seat) for k, c in enumerate(st.zones[z.idx])]


def _position(seed: int, seats: int, plies: int, hint_share: float):
    """A Hanabi position after `plies` moves of random play that hints with probability `hint_share`
    (None when the game ended before)."""
    rng = random.Random(seed)
    g = Game.new(load_ruleset("hanabi"), seats, {}, seed=seed)
    for _ in range(plies):
        if g.terminal:
            return None
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        hints = [m for m in moves if m.name.startswith("hint")]
        pick = hints if hints and rng.random() < hint_share else moves
        g.apply(seat, pick[rng.randrange(len(pick))])
    return None if g.terminal else g


@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), seats=st.sampled_from([2, 3]), plies=st.integers(4, 40), hint_share=st.floats(0.3, 0.9))
def test_sampled_worlds_never_contradict_a_mark(seed, seats, plies, hint_share):
    """100 positions x 100 worlds: 10,000 sampled worlds, each checked place by place."""
    g = _position(seed, seats, plies, hint_share)
    assume(g is not None)
    seat = g.decision().seats[0]
    before = _hidden(g, seat)
    marks_at = {(i, k): g.st.marks.get(c.id, ()) for i, k, c in before}
    seen = {z.key: list(g.st.zones[z.idx]) for z in g.st.zone_refs if z.visible_to(seat)}
    rng = random.Random(seed)
    for _ in range(100):
        w = determinise(g, seat, rng)
        after = _hidden(w, seat)
        assert sorted(c.name for *_p, c in after) == sorted(c.name for *_p, c in before), "the same cards, dealt again"
        for i, k, c in after:
            marks = w.st.marks.get(c.id, ())
            assert marks == marks_at[(i, k)], "a place keeps its marks"
            assert all(_says(c, m) for m in marks), f"{c.name} at {w.st.zone_refs[i].key}@{k} contradicts {marks}"
        assert {z.key: list(w.st.zones[z.idx]) for z in w.st.zone_refs if z.visible_to(seat)} == seen


def test_the_positions_carry_marks_on_hidden_cards():
    g = _position(1, 2, 30, 0.9)
    seat = g.decision().seats[0]
    assert sum(bool(g.st.marks.get(c.id)) for *_p, c in _hidden(g, seat)) >= 3


def _small_position():
    """Seat 0 holds R1 R2 G1 B3 W4 (it does not know), the deck holds R3 G2 Y1, every other card is
    public; seat 1 hints red to seat 0. Eight hidden cards, 2160 consistent deals."""
    rs = load_ruleset("hanabi")
    names = [c for c in _all_names()]
    hand0 = ["red-1", "red-2", "green-1", "blue-3", "white-4"]
    deck = ["red-3", "green-2", "yellow-1"]
    hand1 = ["yellow-2", "yellow-3", "white-1", "white-2", "blue-1"]
    rest = [n for n in names if n not in hand0 + deck + hand1]
    g = Game.from_position(rs, {"zones": {"hand[0]": hand0, "hand[1]": hand1, "deck": deck, "discard": rest}, "actor": 1},
                           seats=2)
    g.apply(1, {"name": "hint_colour", "args": {"target": 0, "colour": "red"}})
    return g


def _all_names() -> list[str]:
    out = []
    for colour in ("red", "yellow", "green", "white", "blue"):
        for rank, copies in ((1, 3), (2, 2), (3, 2), (4, 2), (5, 1)):
            out += [f"{colour}-{rank}" + (f"#{k}" if k > 1 else "") for k in range(1, copies + 1)]
    return out


def test_sampled_marginals_match_exact_enumeration():
    g = _small_position()
    places = [(i, k) for i, k, _c in _hidden(g, 0)]
    cards = [c for *_p, c in _hidden(g, 0)]
    marks = [g.st.marks.get(c.id, ()) for c in cards]
    exact = [Counter() for _ in places]
    deals = 0
    for perm in itertools.permutations(cards):
        if all(_says(c, m) for c, ms in zip(perm, marks) for m in ms):
            deals += 1
            for p, c in enumerate(perm):
                exact[p][c.name] += 1
    assert deals == 2160
    rng = random.Random(11)
    n = 4000
    seen = [Counter() for _ in places]
    for _ in range(n):
        w = determinise(g, 0, rng)
        for p, (i, k) in enumerate(places):
            seen[p][w.st.zones[i][k].name] += 1
    for p in range(len(places)):
        assert set(seen[p]) <= set(exact[p]), "a card where no consistent deal puts it"
        names = sorted(exact[p])
        observed = [seen[p][x] for x in names]
        expected = [n * exact[p][x] / deals for x in names]
        assert chisquare(observed, expected).pvalue > 1e-3, (places[p], dict(seen[p]), dict(exact[p]))


def test_a_filling_is_uniform_over_the_fillings_it_may_choose():
    # three components, two places: component 0 fits only place 0, the others fit both
    ok = [[True, False], [True, True], [True, True]]
    fillings = Counter(tuple(sample_filling(ok, random.Random(s))) for s in range(3000))
    assert set(fillings) == {(0, 1), (0, 2), (1, 2), (2, 1)}
    assert chisquare(list(fillings.values())).pvalue > 1e-3


def test_no_consistent_deal_is_an_error_that_says_so():
    with pytest.raises(Inconsistent, match="no deal of the hidden components fits every mark"):
        sample_filling([[True, False], [True, False]], random.Random(0))


KNOWS = """
game knows
component chip(n: int)
components chips = [chip(n) for n in 1..4]
zone bag: chip hidden ordered = chips
zone mine: per seat chip others = []
fn tagged(c: chip, m: any) -> bool "a mark is the chip's parity" = c.n % 2 == m
knowledge tagged "every seat knows what a parity mark means"
setup { draw 1 from bag to mine[0] }
step play then end turn
move tag(c in mine[0]) during play { mark c with c.n % 2 }
move wait() during play { }
"""


def test_a_toy_game_declares_its_knowledge_and_worlds_respect_it():
    rs = load_from_sources((("knows.ludex", KNOWS),))
    assert [k.name for k in rs.knowledge] == ["tagged"]
    g = Game.new(rs, 2, {}, seed=1)
    g.apply(0, g.legal_moves(0)[0])  # seat 0 marks its own chip with its parity
    mine = g.st.zones[next(z.idx for z in g.st.zone_refs if z.key == "mine[0]")][0]
    rng = random.Random(0)
    got = {determinise(g, 0, rng).st.zones[next(z.idx for z in g.st.zone_refs if z.key == "mine[0]")][0].d["n"] % 2
           for _ in range(50)}
    assert got == {mine.d["n"] % 2}


SHOWS = """
game shows
component chip(n: int)
components chips = [chip(n) for n in 1..8]
zone bag: chip hidden ordered = chips
zone hand: per seat chip owner ordered = [] "only its owner sees it"
setup { shuffle bag  for s in seats { draw 3 from bag to hand[s] } }
step play then stay
move show() during play { reveal hand[actor]  goto other_step }
step other_step then stay
move wait() during other_step { }
"""


def test_cards_a_reveal_showed_stay_where_they_are():
    rs = load_from_sources((("shows.ludex", SHOWS),))
    g = Game.new(rs, 2, {}, seed=3)
    g.apply(0, g.legal_moves(0)[0])  # seat 0 shows its hand to everyone
    hand0 = next(z.idx for z in g.st.zone_refs if z.key == "hand[0]")
    bag = next(z.idx for z in g.st.zone_refs if z.key == "bag")
    rng = random.Random(0)
    worlds = [determinise(g, 1, rng) for _ in range(30)]
    assert all(w.st.zones[hand0] == g.st.zones[hand0] for w in worlds), "a revealed hand is a fact"
    assert len({tuple(c.name for c in w.st.zones[bag]) for w in worlds}) > 1, "the bag is still dealt again"


def test_knowledge_that_reads_the_state_is_refused():
    text = KNOWS.replace("= c.n % 2 == m", "= c.n % 2 == m and size(bag) > 0")
    [d] = check_text(text, "knows.ludex")
    assert d.message == "knowledge 'tagged' reads the game's state (bag): it may read only the component and the mark"
