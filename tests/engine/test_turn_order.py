"""Whose turn comes next after another seat answered within a turn (docs/language.md 5.11:
`end turn` passes the turn to the seat after `current`, not after `actor`)."""

from __future__ import annotations

import pytest

from dsl import load_from_sources
from runtime import Game

# Seat 0 asks, seat 2 answers within seat 0's turn; then the turn ends. The seat after the
# turn's owner (0) is 1; the seat after the one who answered (2) would be 0 again.
RELAY = """
game relay
seats 3
step ask
step answer{then}
move question() during ask "ask the last seat" {{ goto answer by 2 }}
move reply() during answer "answer" {{ {body} }}
"""

ENDINGS = {
    "the step's `then end turn`": (" then end turn", ""),
    "the move's `end turn`": ("", "end turn"),
}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_the_turn_passes_to_the_seat_after_its_owner_not_after_the_answerer(ending):
    then, body = ENDINGS[ending]
    g = Game.new(load_from_sources((("relay.ludex", RELAY.format(then=then, body=body)),)), 3, seed=1)
    assert g.decision().seats == (0,)
    g.apply(0, g.legal_moves(0)[0])
    assert (g.decision().step, g.decision().seats) == ("answer", (2,))
    g.apply(2, g.legal_moves(2)[0])
    assert (g.decision().step, g.decision().seats) == ("ask", (1,))
    g.apply(1, g.legal_moves(1)[0])
    g.apply(2, g.legal_moves(2)[0])
    assert g.decision().seats == (2,)  # seat 1's turn ends: seat 2 asks next
