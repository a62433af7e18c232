"""`end game` with scores, tie-breakers and what a remaining tie means (issue 12).

A scoring game in the shape of Weather Machine's end: climate points, then the Nobel Prize,
then papers, then completed rows; seats still equal share the win (`ties win`) or draw
(`ties draw`). Moves set each seat's numbers so a test can stack any final position.
"""

from __future__ import annotations

import pytest

from dsl import RulesetError, load_from_sources
from dsl.ir import to_data
from runtime import Game
from runtime.compile import RuleError

SCORING = """
game scoring "Scoring with tie-breakers"
seats 2..4
var climate: per seat int = 0
var papers: per seat int = 0
var rows: per seat int = 0
var nobel: seat? = none

step play then end turn

move gain(c in 0..3, p in 0..2, r in 0..1) during play {
  climate[actor] += c
  papers[actor] += p
  rows[actor] += r
}
move prize() during play require nobel == none else "the prize is taken" { nobel = actor }
move finish() during play {
  end game scores climate then {s: nobel == s for s in seats} then papers then rows ties TIES "final scoring"
}
move agree() during play { end game draw scores climate "agreed" }
move resign() during play { end game win next(actor) scores climate "resigned" }
"""


def _game(seats: int = 2, ties: str = "win") -> Game:
    rs = load_from_sources((("scoring.ludex", SCORING.replace("TIES", ties)),))
    return Game.new(rs, seats, seed=1)


def _play(g: Game, *turns: tuple) -> Game:
    """Each turn is ("gain", climate, papers, rows), ("prize",) or an ending move's name."""
    for t in turns:
        seat = g.decision().seats[0]
        if t[0] == "gain":
            g.apply(seat, {"name": "gain", "args": {"c": t[1], "p": t[2], "r": t[3]}})
        else:
            g.apply(seat, {"name": t[0], "args": {}})
    return g


def test_the_highest_score_wins_and_the_outcome_carries_every_score_and_tie_breaker():
    g = _play(_game(), ("gain", 3, 0, 0), ("gain", 2, 2, 1), ("finish",))
    assert g.outcome == {
        "kind": "scores", "winners": [0], "reason": "final scoring",
        "scores": {"0": 3, "1": 2}, "ranking": [0, 1], "places": {"0": 1, "1": 2},
        "tiebreaks": [{"0": False, "1": False}, {"0": 0, "1": 2}, {"0": 0, "1": 1}],
    }


def test_equal_scores_go_to_the_first_tie_breaker_that_differs():
    # equal climate, nobody has the prize, equal papers: completed rows decide
    g = _play(_game(), ("gain", 3, 1, 0), ("gain", 3, 1, 1), ("finish",))
    assert g.outcome["winners"] == [1] and g.outcome["places"] == {"0": 2, "1": 1}
    # the Nobel Prize outranks papers and rows
    g = _play(_game(), ("prize",), ("gain", 0, 2, 1), ("gain", 0, 0, 0), ("finish",))
    assert g.outcome["scores"] == {"0": 0, "1": 0}
    assert g.outcome["winners"] == [0] and g.outcome["ranking"] == [0, 1]


@pytest.mark.parametrize("ties,kind,winners", [("win", "scores", [0, 1]), ("draw", "draw", [])])
def test_a_tie_no_breaker_settles_is_a_shared_win_or_a_draw_and_keeps_the_scores(ties, kind, winners):
    g = _play(_game(ties=ties), ("gain", 2, 1, 1), ("gain", 2, 1, 1), ("finish",))
    assert g.outcome["kind"] == kind and g.outcome["winners"] == winners
    assert g.outcome["scores"] == {"0": 2, "1": 2} and g.outcome["places"] == {"0": 1, "1": 1}


def test_with_three_seats_a_lone_leader_wins_even_under_ties_draw_and_tied_seats_share_a_place():
    g = _play(_game(3, "draw"), ("gain", 1, 0, 0), ("gain", 1, 0, 0), ("gain", 3, 0, 0), ("finish",))
    assert g.outcome["kind"] == "scores" and g.outcome["winners"] == [2]
    assert g.outcome["places"] == {"0": 2, "1": 2, "2": 1} and g.outcome["ranking"] == [2, 0, 1]


def test_draws_and_wins_carry_the_scores_they_are_given():
    g = _play(_game(), ("gain", 3, 0, 0), ("agree",))
    assert g.outcome == {"kind": "draw", "winners": [], "scores": {"0": 3, "1": 0}, "reason": "agreed"}
    g = _play(_game(), ("gain", 3, 0, 0), ("resign",))
    assert g.outcome == {"kind": "win", "winners": [0], "scores": {"0": 3, "1": 0}, "reason": "resigned"}


def test_a_score_map_missing_a_seat_is_a_rule_error_naming_the_rule():
    text = SCORING.replace("TIES", "win").replace("end game draw scores climate", "end game draw scores {0: 1}")
    g = Game.new(load_from_sources((("scoring.ludex", text),)), 2, seed=1)
    with pytest.raises(RuleError, match=r"scoring.ludex:\d+:\d+: end game: no score for seat 1"):
        g.apply(0, {"name": "agree", "args": {}})


def test_rank_by_takes_tie_breakers_and_ties_too():
    text = SCORING.replace("end game scores climate", "end game rank by climate").replace("TIES", "draw")
    g = Game.new(load_from_sources((("scoring.ludex", text),)), 2, seed=1)
    _play(g, ("gain", 1, 0, 0), ("gain", 1, 0, 1), ("finish",))
    assert g.outcome["kind"] == "rank" and g.outcome["ranking"] == [1, 0] and g.outcome["winners"] == [1]


def test_the_outcome_clauses_compile_to_this_ir(snapshot):
    rs = load_from_sources((("scoring.ludex", SCORING.replace("TIES", "draw")),))
    ends = {m.name: _sexpr(m.body[0].args[0]) for m in rs.moves if m.name in ("finish", "agree", "resign")}
    assert ends == snapshot


def _sexpr(x) -> str:
    """An IR node as a one-line s-expression (no spans)."""
    data = to_data(x)

    def go(d):
        if isinstance(d, dict) and d.get("_") == "Node":
            return "(" + " ".join([d["op"], *(go(a) for a in d["args"])]) + ")"
        if isinstance(d, list):
            return "[" + " ".join(go(a) for a in d) + "]"
        return repr(d)

    return go(data)


@pytest.mark.parametrize("old,new", [
    ("end game scores climate then", "end game scores nobel then"),
    ("then papers then rows", 'then papers then {"rows": 1}'),
    ("end game draw scores climate", "end game draw scores [str(s) for s in seats]"),
    ("end game win next(actor) scores climate", "end game win climate scores climate"),
], ids=["scores_not_per_seat", "tie_breaker_keyed_by_text", "scores_not_numbers", "winner_not_a_seat"])
def test_outcome_diagnostics(old, new, snapshot):
    text = SCORING.replace("TIES", "win")
    assert text.count(old) == 1
    with pytest.raises(RulesetError) as exc:
        load_from_sources((("scoring.ludex", text.replace(old, new)),))
    assert [str(d) for d in exc.value.diagnostics] == snapshot
