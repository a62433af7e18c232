"""What games of one ruleset share to be created faster (the keyed draws' sorted bag, the seats
that see a zone, the chance events' source strings) never changes an outcome: a game replayed
after others gives the same events, whatever the games between it and its first run did."""

import random

from dsl import load_ruleset
from runtime import Game
from runtime.events import event_to_dict
from runtime.state import State


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


def test_keyed_draws_from_the_shared_bag_are_the_draws_made_afresh(monkeypatch):
    rs = load_ruleset("balloon_cup", ())
    seeds = [f"fresh:{i}" for i in range(6)]
    shared = {s: _playout(rs, s) for s in seeds}
    draw = State._draw_keyed

    def afresh(self, *args, **kw):  # nothing remembered from an earlier draw, of this game or another
        self.draw_memo.clear()
        return draw(self, *args, **kw)

    monkeypatch.setattr(State, "_draw_keyed", afresh)
    assert {s: _playout(rs, s) for s in seeds} == shared
