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


# Every flow of docs/language.md 5.11 and "then" of a step, on a 3-seat game: which step comes
# next and who decides there.
FLOWS = """
game flows
seats 3
var last: int = 0
step one then goto two
step two then goto three by next(actor)
step three
step four then end turn
move a() during one "to two, same seat" { last = 1 }
move b() during two "to three, the next seat decides" { last = 2 }
move c(n in 1..4) during three "each n picks a flow" {
  if n == 1 { goto four }
  if n == 2 { goto one by 0 }
  if n == 3 { turn 2 }
  if n == 4 { end turn }
}
move d() during four "ends the turn (the step's then)" { }
"""


def _flows() -> Game:
    return Game.new(load_from_sources((("flows.ludex", FLOWS),)), 3, seed=1)


def _at(g: Game) -> tuple[str, tuple[int, ...], int]:
    d = g.decision()
    return d.step, d.seats, g.view()["current"]


def _play(g: Game, n: int | None = None) -> None:
    seat = g.decision().seats[0]
    moves = g.legal_moves(seat)
    g.apply(seat, moves[0] if n is None else next(m for m in moves if m.args.get("n") == n))


@pytest.mark.parametrize("n,expected", [
    (1, [("four", (1,), 0), ("one", (1,), 1)]),  # goto: the same seat (1) goes on; end turn: after current 0
    (2, [("one", (0,), 0), ("two", (0,), 0)]),   # goto by 0: seat 0 decides, still seat 0's turn
    (3, [("one", (2,), 2), ("two", (2,), 2)]),   # turn 2: seat 2's turn, at the first step
    (4, [("one", (1,), 1), ("two", (1,), 1)]),   # end turn: the seat after current 0
])
def test_each_flow_sends_the_game_where_the_reference_says(n, expected):
    g = _flows()
    assert _at(g) == ("one", (0,), 0)
    _play(g)
    assert _at(g) == ("two", (0,), 0)  # then goto two
    _play(g)
    assert _at(g) == ("three", (1,), 0)  # then goto three by next(actor)
    _play(g, n)
    assert _at(g) == expected[0]
    _play(g)
    assert _at(g) == expected[1]


# A function of the turn alone (no variable changes with the move): its value must follow the
# turn, so a move it allows for one seat is not offered to the next (the rules' functions are
# remembered per state version, and a turn change is a change of state).
WHOSE = """
game whose
seats 2
fn turn_of() -> int = current
fn starters_turn() -> bool = turn_of() == 0
step play then end turn
move lead() during play require starters_turn() else "only the starting seat leads" { }
move follow() during play otherwise "the others follow" { }
var handed: int = 0
trigger handover when current == 1 and handed == 0 "the second seat's first turn is noted" { handed = 1 }
"""


def test_a_rule_that_reads_the_turn_sees_the_new_turn():
    g = Game.new(load_from_sources((("whose.ludex", WHOSE),)), 2, seed=1)
    for seat, move in [(0, "lead"), (1, "follow"), (0, "lead"), (1, "follow")]:
        assert g.decision().seats == (seat,)
        assert [m.name for m in g.legal_moves(seat)] == [move]
        g.apply(seat, g.legal_moves(seat)[0])
        # triggers are checked after each move: the turn change is seen once seat 1 has moved
        assert g.view()["vars"]["handed"] == (0 if len(g.events) == 1 else 1)
