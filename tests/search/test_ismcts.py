"""Information-set MCTS (search.ismcts): reproducible under a seed with an iteration budget, acts on
what the seat knows (a card a hint made known to be playable is played), and re-determinises at
the other seats' nodes."""

from __future__ import annotations

import random

from dsl import load_from_sources, load_ruleset
from runtime import Game
from search import ismcts
from search.ismcts import IsmctsBot


def _names(colour_ranks: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in colour_ranks:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def _all_cards() -> list[str]:
    return _names([f"{c}-{r}" for c in ("red", "yellow", "green", "white", "blue")
                   for r, k in ((1, 3), (2, 2), (3, 2), (4, 2), (5, 1)) for _ in range(k)])


def _hinted_one():
    """Seat 1 tells seat 0 which of its cards is a 1 (H6): slot 2, red-1, playable on empty fireworks."""
    rs = load_ruleset("hanabi")
    hand0 = ["white-4", "blue-3", "red-1", "green-5", "yellow-4"]
    hand1 = ["red-2", "blue-2", "white-3", "green-4", "yellow-5"]
    deck = [n for n in _all_cards() if n not in hand0 + hand1]
    g = Game.from_position(rs, {"zones": {"hand[0]": hand0, "hand[1]": hand1, "deck": deck}, "actor": 1, "current": 1}, seats=2)
    g.apply(1, {"name": "hint_rank", "args": {"target": 0, "rank": 1}})
    return g


def test_a_card_known_to_be_playable_is_played():
    """At 300 iterations the search's choice here was a coin flip (seeds 0-9: the card played
    from 4, or 6 with the root ordered); at 1000 every one of those seeds plays it."""
    g = _hinted_one()
    move = IsmctsBot(random.Random(3), iterations=1000).choose(g, 0, g.legal_moves(0))
    assert move.to_dict() == {"name": "play", "args": {"k": "hand[0]@2"}}


def test_the_same_seed_and_iterations_choose_the_same_moves():
    rs = load_ruleset("balloon_cup")

    def moves(seed: int) -> list:
        g = Game.new(rs, 2, {}, seed=4)
        bot = IsmctsBot(random.Random(seed), iterations=20)
        out = []
        for _ in range(6):
            seat = g.decision().seats[0]
            m = bot.choose(g, seat, g.legal_moves(seat))
            out.append(m.to_dict())
            g.apply(seat, m)
        return out

    assert moves(1) == moves(1)


def test_other_seats_choose_in_worlds_of_their_own(monkeypatch):
    """At seat 1's nodes the search determinises for seat 1, so seat 1 never sees its true hand."""
    g = _hinted_one()
    seen: list[int] = []
    real = ismcts.determinise

    def spy(game, seat, rng):
        seen.append(seat)
        return real(game, seat, rng)

    monkeypatch.setattr(ismcts, "determinise", spy)
    IsmctsBot(random.Random(0), iterations=50).choose(g, 0, g.legal_moves(0))
    assert seen.count(0) == 50 and seen.count(1) > 0  # one an iteration (a team estimate: the root is not ordered)
    seen.clear()
    IsmctsBot(random.Random(0), iterations=50, redeterminise=False).choose(g, 0, g.legal_moves(0))
    assert set(seen) == {0}


class _Clock:
    """A fake `time.perf_counter`: each read advances `step` seconds (the work between two reads);
    `stall(seconds, after)` makes the read `after` reads from now jump `seconds` further (a
    scheduler that took the core away in the middle of a decision)."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.jump, self.countdown = 0.0, step, 0.0, -1

    def perf_counter(self) -> float:
        self.now += self.step
        self.countdown -= 1
        if self.countdown == 0:
            self.now += self.jump
        return self.now

    def stall(self, seconds: float, after: int) -> None:
        self.jump, self.countdown = seconds, after


def test_a_time_budget_ends_each_decision_near_it_after_a_stall(monkeypatch):
    """Decisions end within 10% of the budget; one decision stalled far past it (a loaded
    machine) does not make the next ones end early."""
    clock = _Clock(step=0.0005)
    monkeypatch.setattr(ismcts, "time", clock)
    rs = load_ruleset("balloon_cup")
    g = Game.new(rs, 2, {}, seed=4)
    bot = IsmctsBot(random.Random(0), seconds=0.1)
    took = []
    for k in range(8):
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        while len(moves) == 1:
            g.apply(seat, moves[0])
            seat = g.decision().seats[0]
            moves = g.legal_moves(seat)
        start = clock.now
        if k == 3:
            clock.stall(0.06, after=150)  # the fourth decision loses the core for 60 ms, late in its search
        g.apply(seat, bot.choose(g, seat, moves))
        took.append(clock.now - start)
    assert took[3] > 0.13
    assert all(0.09 <= t <= 0.11 for t in took[:3] + took[4:]), took


MANY = """
game many
seats 2
var points: per seat int = 0
fn heuristic(s: seat) -> int "a point a step" = points[s]
setup { turn 0 }
step turn then end turn
move step(k in 1..20) during turn "a point for the actor" { points[actor] += 1 }
move finish() during turn "the actor wins at once" { end game win actor "finished" }
"""


def test_the_root_widens_the_best_move_one_ply_on_first():
    """Twenty-one moves, two iterations: progressive widening tries two root moves; the winning
    one is among them because the root's moves are widened best first."""
    rs = load_from_sources((("many.ludex", MANY),))
    g = Game.new(rs, 2, {}, seed=0)
    for seed in range(5):
        assert IsmctsBot(random.Random(seed), iterations=2).choose(g, 0, g.legal_moves(0)).name == "finish"
    picks = {IsmctsBot(random.Random(seed), iterations=2, ordered=0).choose(g, 0, g.legal_moves(0)).name for seed in range(5)}
    assert picks != {"finish"}, "in random order the winning move is mostly not tried"
