"""The greedy bot (one ply on the rules' estimate, search.bots.GreedyBot): a move that wins the game
comes before any that does not, whatever the scale of the estimate; the estimate counts as the
seat's lead over the others; and Battle Line games between greedy and random end with a winner."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from dsl import load_from_sources
from runtime import Game
from search.bots import GreedyBot
from search.tournament import play_game, schedule

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "battle_line"))
from bl_helpers import flag, new_game, side  # noqa: E402

# An estimate on a scale far above the outcome's (1 for a win): a thousand a point.
RACE = """
game race
seats 2
var points: per seat int = 0
fn heuristic(s: seat) -> int "a thousand a point" = 1000 * points[s]
setup { turn 0 }
step turn then end turn
move gain() during turn "a point for the actor" { points[actor] += 1 }
move raid() during turn "three points off the other seat" { points[other(actor)] -= 3 }
move finish() during turn "the actor wins at once" { end game win actor "finished" }
move concede() during turn "the other seat wins at once" { end game win other(actor) "conceded" }
"""


def _race() -> Game:
    rs = load_from_sources((("race.ludex", RACE),))
    return Game.new(rs, 2, {}, seed=0)


def _moves(g: Game, names: set[str]) -> list:
    return [m for m in g.legal_moves(0) if m.name in names]


def test_a_winning_move_comes_before_any_estimate():
    g = _race()
    for seed in range(5):
        assert GreedyBot(random.Random(seed)).choose(g, 0, g.legal_moves(0)).name == "finish"


def test_a_losing_move_comes_after_any_estimate():
    g = _race()
    g.st.own(frozenset({"points"}))  # the list is the table template's too until taken
    g.st.g["points"][0] = -50  # far behind: every unfinished position is still better than a loss
    for seed in range(5):
        assert GreedyBot(random.Random(seed)).choose(g, 0, _moves(g, {"gain", "concede"})).name == "gain"


def test_the_estimate_is_the_lead_over_the_other_seat():
    g = _race()
    # gain: +1 point for the seat; raid: -3 for the other; the lead grows more by the raid
    for seed in range(5):
        assert GreedyBot(random.Random(seed)).choose(g, 0, _moves(g, {"gain", "raid"})).name == "raid"


def test_greedy_claims_the_flag_that_wins_battle_line():
    g = new_game(hand0=["red-8", "red-9", "red-10"])
    for n in (1, 2):
        flag(g, n).d["owner"] = 0
    side(g, 0, 3, ["red-8", "red-9"])
    side(g, 1, 3, ["blue-1", "green-2", "yellow-4"], done_at=0)
    g.apply(0, {"name": "play_troop", "args": {"card": "red-10", "f": "flag3"}})
    moves = g.legal_moves(0)
    assert {m.name for m in moves} == {"claim", "end_claims"}
    assert GreedyBot(random.Random(0)).choose(g, 0, moves).to_dict() == {"name": "claim", "args": {"f": "flag3"}}


def test_battle_line_games_between_greedy_and_random_end_with_a_winner():
    """Greedy once valued a won game at 1 and a flag at a thousand: it never claimed the winning
    flag and games ran to the ply cap, or it never drew a tactic and left random holding only
    tactics it may not play (L12), a stalemate."""
    results = [play_game(c) for c in schedule("battle_line", ["greedy", "random"], 4, seed=7, max_plies=1000)]
    assert all(r["outcome"] is not None for r in results), [r["plies"] for r in results]
    wins = sum(r["lineup"][w] == "greedy" for r in results for w in r["outcome"]["winners"])
    assert wins >= 3, [r["outcome"] for r in results]
