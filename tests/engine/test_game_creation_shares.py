"""What games of one ruleset share to be created faster (the keyed draws' sorted bag, the seats
that see a zone, the chance events' source strings) never changes an outcome: a game replayed
after others gives the same events, whatever the games between it and its first run did."""

import random

from test_kept_counts import MAKING_RULES

from dsl import load_from_sources, load_ruleset
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


def test_components_made_as_a_game_runs_stay_in_that_game():
    """A constructor in setup or a move (run by the closures) makes a component in that game
    only: the next game starts from the ruleset's own components and names its made ones alike
    (they used to join the template every game is copied from, and the next game's setup failed)."""
    rs = load_from_sources((("making/game.ludex", MAKING_RULES),))
    made = []
    for _ in range(3):
        g = Game.new(rs, seed=1)
        clone = g.clone()
        g.apply(0, next(m for m in g.legal_moves(0) if m.name == "make"))
        made.append([c.name for c in g.st.comps])
        assert [c.name for c in clone.st.comps] == ["red", "blue", "white"]  # the clone made none
        assert len(g.st.loc) == len(g.st.comps) and g.call("whites") == 2
    assert made == [["red", "blue", "white", "white#2"]] * 3
