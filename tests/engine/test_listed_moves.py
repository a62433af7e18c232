"""Listed moves encode their arguments when first read; what they read is the encoding of the
state they were listed in, even after the game has moved on (a hidden card's slot reference
names the slot it had then)."""

from __future__ import annotations

import random

import pytest

from dsl import load_ruleset
from runtime import Game, Move


@pytest.mark.parametrize("name", ["hanabi", "balloon_cup"])
def test_args_read_late_are_those_of_the_listing_state(name: str) -> None:
    rs = load_ruleset(name)
    rng = random.Random(4)
    late, early = Game.new(rs, 2, {}, seed=4), Game.new(rs, 2, {}, seed=4)
    for _ in range(12):
        seat = late.decision().seats[0]
        unread = late.legal_moves(seat)
        read = early.legal_moves(seat)
        expected = [m.to_dict() for m in read]  # read at once
        k = rng.randrange(len(unread))
        late.apply(seat, unread[k])  # changes the state before `unread` is encoded
        early.apply(seat, read[k])
        assert [m.to_dict() for m in unread] == expected
        if late.terminal:
            break
    assert late.state_hash() == early.state_hash()


def test_a_listed_move_equals_the_same_move_built_by_a_client() -> None:
    g = Game.new(load_ruleset("hanabi"), 2, {}, seed=1)
    listed = g.legal_moves(0)
    rebuilt = [Move(m.name, dict(m.args)) for m in listed]
    assert rebuilt == listed
    g.apply(0, rebuilt[-1])  # bound again from its arguments
    assert g.events[-1].move == listed[-1].name
