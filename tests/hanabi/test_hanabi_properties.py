"""Hanabi properties over random games of 2-5 seats (Hypothesis):

- cards are conserved: every card is in exactly one of deck, hands, fireworks, discard;
- no seat's view, legal moves or events (as `event_view` shows them to it) ever name a card
  in its own hand while the card is there;
- fireworks grow 1, 2, 3... per colour, and the score is the sum of their heights (or the
  loss score after the third fuse);
- every game ends by a rule, never stuck.
"""

from __future__ import annotations

import random

from hanabi_helpers import careful_move, heights, ruleset, strings, var
from hypothesis import given, settings
from hypothesis import strategies as st

from runtime import Game

VARIANTS = [
    (),
    ("official",),
    ("rainbow",),
    ("sixth_suit", "official"),
    ("single_rainbow",),
    ("all_or_nothing",),
]
ZONES = ("deck", "fireworks", "discard")


def _hand(g: Game, s: int) -> list:
    return g.st.zones[g.st.g["hand"][s].idx]


def _check_conserved(g: Game, total: set[str]) -> None:
    seen = [c.name for z in ZONES for c in g.st.zones[g.st.g[z].idx]]
    seen += [c.name for s in range(g.seats) for c in _hand(g, s)]
    assert len(seen) == len(total) and set(seen) == total


def _check_fireworks(g: Game) -> None:
    for colour in {c.d["colour"] for c in g.st.comps}:
        ranks = [c.d["rank"] for c in g.st.zones[g.st.g["fireworks"].idx] if c.d["colour"] == colour]
        assert ranks == list(range(1, len(ranks) + 1))


@settings(max_examples=30, deadline=None)
@given(
    seats=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    care=st.sampled_from([0.0, 0.7, 1.0]),
    variants=st.sampled_from(VARIANTS),
)
def test_random_games_keep_cards_secrets_and_score(seats, seed, care, variants):
    g = Game.new(ruleset(*variants), seats, seed=seed)
    rng = random.Random(seed)
    total = {c.name for c in g.st.comps}
    heard: list[set[str]] = [set() for _ in range(seats)]  # strings each seat has seen in events
    n_events = 0
    plies = 0
    while True:
        _check_conserved(g, total)
        _check_fireworks(g)
        for e in g.events[n_events:]:
            for s in range(seats):
                heard[s] |= strings(g.event_view(e, s))
        n_events = len(g.events)
        for s in range(seats):
            own = {c.name for c in _hand(g, s)}
            assert not own & heard[s], "an event named a card to its holder"
            assert not own & strings(g.view(s)), "a view named a card to its holder"
            assert not own & strings([m.to_dict() for m in g.legal_moves(s)])
        if g.terminal:
            break
        d = g.decision()
        assert not d.stuck
        g.apply(d.seats[0], careful_move(g, rng, care))
        plies += 1
        assert plies < 400
    score = g.outcome["scores"]["team"]
    reason = g.outcome["reason"]
    if var(g, "fuses") == 0 or reason.startswith("an indispensable") or reason.endswith("cannot hint"):
        assert score == 0
    elif "all_or_nothing" in variants:
        assert score == 5 * len({c.d["colour"] for c in g.st.comps})
    else:
        assert score == sum(heights(g).values())


@settings(max_examples=25, deadline=None)
@given(seats=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_replaying_the_log_rebuilds_the_same_game(seats, seed):
    g = Game.new(ruleset(), seats, seed=seed)
    rng = random.Random(seed)
    while not g.terminal:
        g.apply(g.decision().seats[0], careful_move(g, rng, 0.9))
    h = Game.fold(ruleset(), seats, {}, list(g.events), seed=seed)
    assert h.state_hash() == g.state_hash() and h.outcome == g.outcome
