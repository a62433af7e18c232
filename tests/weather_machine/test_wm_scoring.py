"""Weather Machine final scoring (§10) and the winner with its tie-breakers (seed 004: most
climate points; ties broken by the Nobel Prize, then papers published, then completed office
rows; a remaining tie is shared). States are arranged with the test hooks, then the ruleset's
own `score_game` runs."""

from __future__ import annotations

import pytest
from wm_helpers import arranged_game, const, play, var


def scored(g):
    play(g, "t_score")
    assert g.terminal
    return g.outcome


def test_most_climate_points_wins_alone():
    g = arranged_game(2)
    play(g, "t_cp", s=0, n=10)
    play(g, "t_cp", s=1, n=7)
    o = scored(g)
    assert o["kind"] == "scores"
    assert o["winners"] == [0]
    assert o["scores"] == {"0": 10, "1": 7}
    assert o["places"] == {"0": 1, "1": 2}


def test_nobel_prize_scores_and_breaks_a_tie():
    g = arranged_game(2)
    bonus = 5  # ../shared/rules/weather_machine.md section 8: the Nobel Prize scores 5 CP
    play(g, "t_cp", s=0, n=10 + bonus)
    play(g, "t_cp", s=1, n=10)
    play(g, "t_papers", s=0, n=3)  # a later tie-breaker must not matter
    play(g, "t_nobel", s=1)
    o = scored(g)
    assert o["scores"] == {"0": 10 + bonus, "1": 10 + bonus}
    assert o["winners"] == [1]
    assert o["tiebreaks"][0] == {"0": False, "1": True}


def test_papers_break_a_tie_without_the_nobel_prize():
    g = arranged_game(3)
    for s in range(3):
        play(g, "t_cp", s=s, n=8)
    play(g, "t_papers", s=0, n=1)
    play(g, "t_papers", s=2, n=2)
    o = scored(g)
    assert o["winners"] == [2]
    assert o["ranking"] == [2, 0, 1]
    assert o["tiebreaks"][1] == {"0": 1, "1": 0, "2": 2}


def test_completed_office_rows_break_a_tie_of_papers():
    g = arranged_game(2)
    for s in range(2):
        play(g, "t_cp", s=s, n=6)
        play(g, "t_papers", s=s, n=1)
    play(g, "t_row", s=1, w="fog")
    o = scored(g)
    assert o["winners"] == [1]
    assert o["tiebreaks"][2] == {"0": 0, "1": 1}


@pytest.mark.parametrize("seats", [2, 4])
def test_a_tie_on_everything_is_a_shared_win(seats):
    g = arranged_game(seats)
    for s in range(seats):
        play(g, "t_cp", s=s, n=5)
    play(g, "t_papers", s=0, n=1)  # seat 0 alone ahead on papers
    o = scored(g)
    assert o["winners"] == [0]
    g = arranged_game(seats)
    for s in range(seats):
        play(g, "t_cp", s=s, n=5)
        play(g, "t_papers", s=s, n=1)
        play(g, "t_row", s=s, w=["rain", "wind", "sun", "fog"][s])
    o = scored(g)
    assert o["kind"] == "scores"
    assert o["winners"] == list(range(seats))
    assert set(o["places"].values()) == {1}


def test_final_score_adds_funding_tracks_goals_met_and_the_nobel_prize():
    g = arranged_game(2)
    track_cp, targets = const(g, "track_cp"), const(g, "goal_targets")
    hand = [c for c in g.view(None)["zones"]["goal_hand[0]"]["components"]]
    gov_goal = next(c for c in hand if c["track"] == "government" and c["n"] == 1)
    lab_goal = next(c for c in hand if c["track"] == "lab" and c["n"] == 1)
    play(g, "t_cp", s=0, n=3)
    play(g, "t_fund", s=0, t="government", n=targets["government"][0])  # meets the government goal
    play(g, "t_fund", s=0, t="rnd", n=4)
    play(g, "t_goal", s=0, tile=gov_goal["name"])
    play(g, "t_goal", s=0, tile=lab_goal["name"])  # no paper: not met
    play(g, "t_nobel", s=0)
    o = scored(g)
    tracks = max(track_cp[: targets["government"][0] + 1]) + max(track_cp[:5]) + track_cp[0]
    # weather_machine.md section 10: 5 CP for the goal met, 5 CP for the Nobel Prize
    assert o["scores"]["0"] == 3 + tracks + 5 + 5
    assert o["scores"]["1"] == 3 * track_cp[0]
    assert var(g, "cp") == [o["scores"]["0"], o["scores"]["1"]]
