"""`Game.legal_picks(seat, move)`: every pick a listed offer stands for that the move's requires
accept, what an agent choosing among whole picks (ludex.rl's action table) is offered."""

from __future__ import annotations

import itertools
from pathlib import Path

from dsl import load_ruleset
from runtime import Game, IllegalMove

TESTS = Path(__file__).parents[1]
PASS_LEFT = TESTS / "rl" / "extra_rulesets" / "pass_left.ludex"  # `cs in 2 of hand[actor]`, refusing two cards in a row


def test_legal_picks_are_the_ordered_choices_apply_accepts() -> None:
    g = Game.new(load_ruleset(str(PASS_LEFT)), 3, seed=3)
    for seat in range(3):
        (offer,) = g.legal_moves(seat)
        picks = g.legal_picks(seat, offer)
        every = [list(p) for p in itertools.permutations(offer.args["cs"]["of"], 2)]
        chosen = [m.args["cs"] for m in picks]
        assert chosen == [p for p in every if p in chosen]  # in permutations order
        for cs in every:
            trial = g.clone()
            try:
                trial.apply(seat, {"name": "pass", "args": {"cs": cs}})
                accepted = True
            except IllegalMove:
                accepted = False
            assert accepted == (cs in chosen)
    assert any(len(g.legal_picks(s, g.legal_moves(s)[0])) < 6 for s in range(3))  # some pick is refused


def test_a_move_without_an_offer_stands_for_itself() -> None:
    g = Game.new(load_ruleset(str(PASS_LEFT)), 3, seed=3)
    for seat in range(3):
        g.apply(seat, g.legal_picks(seat, g.legal_moves(seat)[0])[0])
    (count,) = g.legal_moves(g.decision().seats[0])
    assert g.legal_picks(g.decision().seats[0], count) == [count]
