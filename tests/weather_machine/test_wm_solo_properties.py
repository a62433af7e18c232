"""Weather Machine solo (§12): invariants over random games (Hypothesis, small budgets).

- a solo game always ends, by one of §12's ends, with the human or the Saboteurs winning;
- the human's view never shows the order of the report deck: two games whose decks differ only
  in the order of cards not yet drawn look the same to the human, view and events alike;
- folding the events (what a replay and an audit do) reproduces the state, the Saboteurs'
  moves included.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from wm_helpers import ruleset

from runtime import Game, views

ENDS = {
    "the report deck ran out",
    "two level-3 extreme-weather tiles are out",
    "the human won at the start of a turn",
}
SETTINGS = settings(max_examples=10, deadline=None, derandomize=True)


def drawn_from_top(g: Game, order: list[str]) -> int:
    """How far down the stacked `order` the deck has been drawn: the first index from which
    every card is still in the deck (cards put back on top or at the bottom came from above it)."""
    deck = set(views.full_state(g)["zones"]["report_deck"])
    return next(i for i in range(len(order) + 1) if set(order[i:]) <= deck)


@SETTINGS
@given(seed=st.integers(0, 10_000))
def test_a_solo_game_always_ends_by_the_rules(seed):
    g = Game.new(ruleset("solo"), 1, seed=seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if g.terminal:
            break
        d = g.decision()
        assert not d.stuck and d.seats == (0,), d
        g.apply(0, rng.choice(g.legal_moves(0)))
    assert g.terminal
    assert g.outcome["winners"] in ([0], [1])
    assert g.outcome["reason"] in ENDS or g.outcome["reason"].startswith("final scoring: ")


@SETTINGS
@given(seed=st.integers(0, 10_000), extra=st.integers(1, 6), data=st.data())
def test_the_human_never_sees_the_order_of_the_report_deck(seed, extra, data):
    order = list(Game.new(ruleset("solo"), 1, seed=seed).events[0].outcome)
    a = Game.new(ruleset("solo"), 1, seed=seed, outcomes=[order])
    cut = min(drawn_from_top(a, order) + 4 + extra, len(order) - 2)
    other = order[:cut] + data.draw(st.permutations(order[cut:]).filter(lambda p: p != order[cut:]))
    b = Game.new(ruleset("solo"), 1, seed=seed, outcomes=[other])
    rng = random.Random(seed)
    compared = 0
    # one move draws at most 4 reports (a Saboteur turn: a discard, a new report, a set's discard)
    while not a.terminal and drawn_from_top(a, order) + 4 <= cut:
        assert a.view(0) == b.view(0)
        assert [a.event_view(e, 0) for e in a.events] == [b.event_view(e, 0) for e in b.events]
        move = rng.choice(a.legal_moves(0))
        a.apply(0, move)
        b.apply(0, move.to_dict())
        compared += 1
    assert compared >= 1
    assert views.full_state(a)["zones"]["report_deck"] != views.full_state(b)["zones"]["report_deck"]
    assert "components" not in a.view(0)["zones"]["report_deck"]


@SETTINGS
@given(seed=st.integers(0, 10_000), plies=st.integers(1, 120))
def test_folding_the_events_reproduces_the_state(seed, plies):
    g = Game.new(ruleset("solo"), 1, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if g.terminal:
            break
        g.apply(0, rng.choice(g.legal_moves(0)))
    h = Game.fold(ruleset("solo"), 1, {}, g.events)
    assert h.state_hash() == g.state_hash()
    assert [e for e in h.events if e.seat == 1] == [e for e in g.events if e.seat == 1]
