"""Weather Machine properties over random games of 2-4 seats (Hypothesis):

- every component (chemicals, parts, bots, research and award tokens, tiles) is in exactly one
  place after every move, so resources are conserved;
- no count goes negative (vouchers, CP, funding within its track, papers);
- every game ends by the rules, never stuck or cut;
- no seat's view, and no event as a seat sees it, shows a face-down tile: the face-down
  workshop pile, the experiment stack and its stages, the removed stage III tiles;
- folding the events reproduces the state hash.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from wm_helpers import const, new_game, playout, ruleset, var

from runtime import Game

FACE_DOWN = ("workshop_down", "exp_stage", "exp_deck", "stage_ii", "stage_iii", "box")


def _places(g: Game) -> Counter:
    """How many times each component id sits in a zone (read from the state)."""
    return Counter(c.id for z in g.st.zones for c in z)


def _check(g: Game, ids: set[int], track_len: int) -> None:
    places = _places(g)
    assert set(places) == ids and max(places.values()) == 1
    vs = var(g, "vouchers")
    assert all(n >= 0 for v in vs for n in v.values())
    assert all(c >= 0 for c in var(g, "cp")) and all(p >= 0 for p in var(g, "papers"))
    assert all(0 <= n <= track_len for f in var(g, "funding") for n in f.values())
    if len(g.events) % 7:  # views change only by what moves do: sample them
        return
    for seat in [None, *range(g.seats)]:
        zones = g.view(seat)["zones"]
        for z in FACE_DOWN:
            assert "components" not in zones[z], (seat, z)


def _check_events(g: Game) -> None:
    for e in g.events:
        if e.kind == "chance" and e.zone in FACE_DOWN:
            for seat in range(g.seats):
                assert g.event_view(e, seat)["outcome"] == []


@settings(max_examples=8, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 10**6), pass_weight=st.sampled_from([0.05, 0.15, 0.5]))
def test_random_games_conserve_hide_and_replay(seats, seed, pass_weight):
    g = new_game(seats, seed)
    ids = {c.id for c in g.st.comps}
    track_len = const(g, "track_len")
    _check(g, ids, track_len)
    g = playout(g, random.Random(seed), each=lambda g: _check(g, ids, track_len), pass_weight=pass_weight)
    assert g.outcome["reason"].startswith("final scoring (")
    _check_events(g)
    folded = Game.fold(ruleset(), seats, {}, g.events)
    assert folded.state_hash() == g.state_hash()
