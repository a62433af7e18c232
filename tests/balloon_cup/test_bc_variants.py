"""Balloon Cup variants (rulesets/balloon_cup/variants): each switches one decision of the
rules table. Scenario tests with stacked decks, plus random playouts per variant."""

from __future__ import annotations

import pytest
from bc_helpers import (
    colours,
    force_cubes,
    force_trophy,
    move,
    names,
    new_game,
    place,
    ruleset,
    tile,
    trophy_name,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from test_bc_properties import colour_limits, conserved, ended_by_the_rules, playout

from runtime import Game, IllegalMove, ImpossibleOutcome

REFUSED = "you may not play that card to your opponent's side of tile {} now"


def _refused(g, seat, card, t, side):
    before = g.state_hash()
    with pytest.raises(IllegalMove) as exc:
        place(g, seat, card, t, side)
    assert exc.value.reason == REFUSED.format(t)
    assert g.state_hash() == before
    assert not any(m.args == {"card": card, "t": f"tile{t}", "s": side} for m in g.legal_moves(seat))


# ---- no_three_for_one ----
def test_no_three_for_one_offers_no_trade():
    g = new_game(hand0=["red-3"], hand1=["red-5"], more=["green"], variants=("no_three_for_one",))
    force_trophy(g, "gray", 1)
    force_cubes(g, "blue", 2, "won[0]")
    force_cubes(g, "gray", 3, "won[0]")
    place(g, 0, "red-3", 1, 0)
    place(g, 1, "red-5", 1, 1)
    assert g.decision().step == "winner_claims"
    assert [m.name for m in g.legal_moves(0)] == ["done"]
    with pytest.raises(IllegalMove):
        move(g, 0, "claim", tr=trophy_name(g, "blue"), trade={"gray": 1})
    assert g.view(None)["options"]["three_for_one"] is False
    assert g.view(None)["variants"] == ["no_three_for_one"]


def test_no_three_for_one_still_allows_plain_claims():
    g = new_game(hand0=["red-3"], hand1=["red-5"], more=["green"], variants=("no_three_for_one",))
    force_cubes(g, "red", 6, "won[0]")
    place(g, 0, "red-3", 1, 0)
    place(g, 1, "red-5", 1, 1)
    with pytest.raises(IllegalMove, match="you must claim"):
        move(g, 0, "done")
    move(g, 0, "claim", tr=trophy_name(g, "red"), trade={})
    assert names(g, "trophies_won[0]") == [trophy_name(g, "red")]


# ---- opponent_side_a: only once your own side of that tile is full ----
def test_opponent_side_a_needs_your_own_side_full_first():
    g = new_game(hand0=["yellow-1", "green-1", "yellow-2"], hand1=["red-9", "red-10"], variants=("opponent_side_a",))
    _refused(g, 0, "yellow-1", 2, 1)
    place(g, 0, "yellow-1", 2, 0)
    place(g, 1, "red-9", 1, 1)
    _refused(g, 0, "yellow-2", 2, 1)  # own side still lacks its green card
    place(g, 0, "green-1", 2, 0)
    place(g, 1, "red-10", 3, 1)
    place(g, 0, "yellow-2", 2, 1)  # own side of tile 2 is full now
    assert names(g, "tile2.side[1]") == ["yellow-2"]


def test_opponent_side_a_own_side_is_unrestricted():
    g = new_game(hand0=["red-3"], variants=("opponent_side_a",))
    assert {(m.args["t"], m.args["s"]) for m in g.legal_moves(0) if m.args["card"] == "red-3"} == {
        ("tile1", 0), ("tile3", 0), ("tile4", 0)}


# ---- opponent_side_b: a colour only once your side needs no more of it ----
def test_opponent_side_b_needs_your_side_done_with_that_colour():
    g = new_game(hand0=["yellow-1", "yellow-2", "green-1"], hand1=["red-9"], variants=("opponent_side_b",))
    _refused(g, 0, "yellow-1", 2, 1)
    place(g, 0, "yellow-2", 2, 0)
    place(g, 1, "red-9", 1, 1)
    place(g, 0, "yellow-1", 2, 1)  # own side has its yellow, though it still needs green (unlike variant a)
    assert names(g, "tile2.side[1]") == ["yellow-1"]


# ---- opponent_side_c: a colour only while your side holds more of it than theirs ----
def test_opponent_side_c_needs_more_of_that_colour_on_your_side():
    tiles = (["gray"], ["yellow", "green"], ["red", "red", "blue"], ["red", "yellow", "green", "blue"])
    g = new_game(tiles=tiles, hand0=["red-1", "red-2", "red-3"], hand1=["blue-1", "blue-3"], variants=("opponent_side_c",))
    _refused(g, 0, "red-1", 3, 1)  # 0 against 0
    place(g, 0, "red-2", 3, 0)
    place(g, 1, "blue-1", 3, 1)
    place(g, 0, "red-1", 3, 1)  # 1 against 0, though own side still needs a red (unlike variant b)
    place(g, 1, "blue-3", 4, 1)
    _refused(g, 0, "red-3", 3, 1)  # 1 against 1
    place(g, 0, "red-3", 3, 0)
    assert colours(g, "tile3.side[0]") == ["red", "red"]


def test_opponent_side_variants_do_not_limit_the_base_game():
    g = new_game(hand0=["yellow-1"])
    place(g, 0, "yellow-1", 2, 1)
    assert names(g, "tile2.side[1]") == ["yellow-1"]


# ---- wind: a 7 may replace a played card of its colour ----
def test_wind_seven_replaces_a_played_card_of_its_colour():
    g = new_game(hand0=["red-3", "yellow-7"], hand1=["yellow-12", "red-7"], deck=["gray-1", "gray-4", "gray-7"],
                 variants=("wind",))
    place(g, 0, "red-3", 3, 0)
    winds = [m for m in g.legal_moves(1) if m.name == "wind"]
    assert {(m.args["card"], m.args["t"], m.args["s"], m.args["old"]) for m in winds} == {("red-7", "tile3", 0, "red-3")}
    move(g, 1, "wind", card="red-7", t="tile3", s=0, old="red-3")
    assert names(g, "tile3.side[0]") == ["red-7"]
    assert names(g, "discard") == ["red-3"]
    assert "red-7" not in names(g, "hand[1]") and names(g, "hand[1]")[-1] == "gray-4"
    assert tile(g, 3)["last_placer"] == 1
    assert g.decision().seats == (0,)


def test_wind_needs_a_seven_and_a_card_of_its_colour():
    g = new_game(hand0=["red-3", "yellow-7", "red-8"], hand1=["yellow-12"], variants=("wind",))
    assert not [m for m in g.legal_moves(0) if m.name == "wind"]  # nothing played yet
    place(g, 0, "red-3", 3, 0)
    place(g, 1, "yellow-12", 2, 1)
    winds = {(m.args["card"], m.args["old"]) for m in g.legal_moves(0) if m.name == "wind"}
    assert winds == {("yellow-7", "yellow-12")}  # red-8 is no 7; red-3 has no red 7 against it
    with pytest.raises(IllegalMove):
        move(g, 0, "wind", card="red-8", t="tile3", s=0, old="red-3")


def test_wind_is_not_in_the_base_game():
    g = new_game(hand0=["red-3"], hand1=["red-7"])
    place(g, 0, "red-3", 3, 0)
    with pytest.raises(IllegalMove, match="no move 'wind'"):
        move(g, 1, "wind", card="red-7", t="tile3", s=0, old="red-3")


# ---- prevention: cubes of a colour on all tiles stay below its trophy's price ----
def test_prevention_refuses_a_third_gray_cube_across_tiles():
    tiles = (["gray"], ["gray", "yellow"], ["gray", "red", "blue"], ["red", "yellow", "green", "blue"])
    with pytest.raises(ImpossibleOutcome) as exc:
        new_game(tiles=tiles, variants=("prevention",))
    assert exc.value.ply == 3
    g = new_game(tiles=tiles)  # the base game has only the per-tile limit
    assert sum(colours(g, f"tile{n}.cubes").count("gray") for n in (1, 2, 3, 4)) == 3


def test_prevention_allows_up_to_price_minus_one():
    tiles = (["gray"], ["gray", "blue"], ["blue", "red", "blue"], ["red", "yellow", "green", "yellow"])
    g = new_game(tiles=tiles, variants=("prevention",))
    assert colours(g, "tile3.cubes") == ["blue", "blue", "red"]
    with pytest.raises(ImpossibleOutcome):
        new_game(tiles=(["gray"], ["blue", "blue"], ["blue", "red", "blue"], ["red", "yellow", "green", "yellow"]),
                 variants=("prevention",))


# ---- random playouts per variant ----
COMBOS = [("no_three_for_one",), ("opponent_side_a",), ("opponent_side_b",), ("opponent_side_c",), ("wind",),
          ("prevention",), ("wind", "prevention", "opponent_side_c", "no_three_for_one")]


@pytest.mark.parametrize("variants", COMBOS, ids=["+".join(c) for c in COMBOS])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_games_with_variants_end_conserve_and_fold(variants, seed):
    rs = ruleset(*variants)
    prevention = "prevention" in variants

    def check(g):
        conserved(g)
        colour_limits(g, prevention=prevention)

    g = playout(rs, seed, check)
    ended_by_the_rules(g)
    assert Game.fold(rs, 2, {}, g.events, seed=seed).state_hash() == g.state_hash()
