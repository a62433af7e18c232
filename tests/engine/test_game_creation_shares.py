"""What games of one ruleset share to be created faster (the keyed draws' sorted bag, the seats
that see a zone, the chance events' source strings) never changes an outcome: a game replayed
after others gives the same events, whatever the games between it and its first run did."""

import random

from dsl import load_ruleset
from runtime import Game
from runtime.events import event_to_dict


def _playout(rs, seed: str, plies: int = 60) -> list[dict]:
    g = Game.new(rs, 2, {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if g.terminal:
            break
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        g.apply(seat, moves[rng.randrange(len(moves))])
    return [event_to_dict(e) for e in g.events]


def test_a_game_replayed_after_others_gives_the_same_events():
    rs = load_ruleset("balloon_cup", ())
    first = _playout(rs, "again")
    for i in range(3):
        _playout(rs, f"between:{i}")
        clone = Game.new(rs, 2, {}, seed=f"clone:{i}").clone()  # a clone drawing from the shared bag too
        while not clone.terminal and len(clone.events) < 40:
            seat = clone.decision().seats[0]
            clone.apply(seat, clone.legal_moves(seat)[0])
    assert _playout(rs, "again") == first
    assert any(e["node"] == "draw" for e in first)  # the keyed draws were reached
