"""Balloon Cup flights (B12-B16, E-BC3) and the stall rule (decisions table, E-BC1)."""

from __future__ import annotations

import pytest
from bc_helpers import colours, legal_names, move, names, new_game, place, put, tile

from runtime import IllegalMove


def _finish_claims(g, winner):
    """No trophy is payable: the winner stops, the other seat declines."""
    assert g.decision().step == "winner_claims" and g.decision().seats == (winner,)
    assert legal_names(g, winner) == {"done"}
    move(g, winner, "done")
    assert g.decision().step == "other_claims" and g.decision().seats == (1 - winner,)
    assert legal_names(g, 1 - winner) == {"decline"}
    move(g, 1 - winner, "decline")


def test_plains_lowest_sum_wins_cubes_cards_discarded_tile_flipped_and_refilled():
    g = new_game(hand0=["red-3"], hand1=["red-5"], deck=["gray-1", "gray-4"], more=["green"])
    place(g, 0, "red-3", 1, 0)
    assert g.decision().step == "play"
    events = place(g, 1, "red-5", 1, 1)
    assert colours(g, "won[0]") == ["red"] and names(g, "won[1]") == []
    assert sorted(names(g, "discard")) == ["red-3", "red-5"]
    assert names(g, "tile1.side[0]") == [] and names(g, "tile1.side[1]") == []
    assert tile(g, 1)["terrain"] == "mountain"
    assert colours(g, "tile1.cubes") == ["green"]
    refill = [e for e in events if e.kind == "chance"]
    assert len(refill) == 1 and refill[0].zone == "tile1.cubes" and refill[0].rule == "trigger flight"
    assert g.view(None)["vars"]["flight_winner"] == 0
    # the placer drew before the claims (B16)
    assert names(g, "hand[1]")[-1] == "gray-4" and len(names(g, "hand[1]")) == 8
    _finish_claims(g, winner=0)
    # B16: the loser of the flight moves next, even when it has just moved
    assert g.decision().step == "play" and g.decision().seats == (1,)


def test_mountain_highest_sum_wins_and_the_loser_moves_next():
    g = new_game(hand0=["yellow-1", "green-1"], hand1=["yellow-13", "green-12"], more=["blue", "gray"])
    place(g, 0, "yellow-1", 2, 0)
    place(g, 1, "yellow-13", 2, 1)
    place(g, 0, "green-1", 2, 0)
    place(g, 1, "green-12", 2, 1)  # 2 against 25 on a mountain
    assert colours(g, "won[1]") == ["green", "yellow"]
    assert tile(g, 2)["terrain"] == "plains"
    assert colours(g, "tile2.cubes") == ["blue", "gray"]
    _finish_claims(g, winner=1)
    assert g.decision().seats == (0,)


def test_plains_with_the_higher_sum_loses():
    g = new_game(hand0=["red-13"], hand1=["red-12"], more=["green"])
    place(g, 0, "red-13", 1, 0)
    place(g, 1, "red-12", 1, 1)
    assert colours(g, "won[1]") == ["red"] and names(g, "won[0]") == []
    _finish_claims(g, winner=1)
    assert g.decision().seats == (0,)


def test_a_tie_goes_to_the_last_placer_even_on_the_opponents_side():
    # E-BC3: seat 1 completes seat 0's side of a mountain; 11 against 11
    g = new_game(hand0=["yellow-5", "yellow-3"], hand1=["green-8", "green-6"], more=["red", "gray"])
    place(g, 0, "yellow-5", 2, 0)
    place(g, 1, "green-8", 2, 1)
    place(g, 0, "yellow-3", 2, 1)
    place(g, 1, "green-6", 2, 0)
    assert colours(g, "won[1]") == ["green", "yellow"]
    _finish_claims(g, winner=1)
    assert g.decision().seats == (0,)


def test_a_tie_on_plains_goes_to_the_last_placer():
    # tile 3 (plains): side 0 blue-1 + gray-13 + red-5 = 19, side 1 blue-3 + gray-10 + red-6 = 19
    g = new_game(hand0=["red-1", "blue-1", "gray-13", "red-5"], hand1=["blue-3", "gray-10", "red-6"],
                 more=["green", "yellow", "yellow"])
    place(g, 0, "red-1", 4, 0)  # elsewhere, so that seat 0 places the last card
    for seat, card, side in [(1, "blue-3", 1), (0, "blue-1", 0), (1, "gray-10", 1), (0, "gray-13", 0), (1, "red-6", 1)]:
        place(g, seat, card, 3, side)
    assert names(g, "won[0]") == [] and names(g, "won[1]") == []
    place(g, 0, "red-5", 3, 0)
    assert colours(g, "won[0]") == ["blue", "gray", "red"] and names(g, "won[1]") == []
    assert tile(g, 3)["terrain"] == "mountain"
    assert colours(g, "tile3.cubes") == ["green", "yellow", "yellow"]
    _finish_claims(g, winner=0)
    assert g.decision().seats == (1,)


def test_bag_too_small_to_refill_removes_the_tile_and_leaves_the_cubes_in_the_bag():
    g = new_game(hand0=["yellow-1", "green-1"], hand1=["yellow-13", "green-12"])
    bag = names(g, "bag")
    put(g, bag[1:], "box")  # test set-up: one cube left in the bag, tile 2 needs two
    left = names(g, "bag")
    place(g, 0, "yellow-1", 2, 0)
    place(g, 1, "yellow-13", 2, 1)
    place(g, 0, "green-1", 2, 0)
    events = place(g, 1, "green-12", 2, 1)
    assert not any(e.kind == "chance" for e in events)  # no partial refill
    assert names(g, "bag") == left
    assert colours(g, "won[1]") == ["green", "yellow"]
    assert g.view(None)["entities"]["tile2"]["alive"] is False
    _finish_claims(g, winner=1)
    assert all(m.args.get("t") != "tile2" for m in g.legal_moves(0))
    assert {m.args["t"] for m in g.legal_moves(0) if m.name == "place"} <= {"tile1", "tile3", "tile4"}
    assert not g.terminal


def test_stall_draw_when_no_tile_can_be_completed_with_the_free_cards():
    # no colour limit: tile 4 holds four blue cubes (eight blue cards needed, seven exist)
    tiles = (["gray"], ["gray", "gray"], ["gray", "gray", "blue"], ["blue", "blue", "blue", "blue"])
    hand0 = ["gray-1", "gray-4", "blue-1", "blue-3", "blue-5"]
    hand1 = ["gray-7", "gray-10", "blue-7", "blue-9", "blue-11"]
    g = new_game(tiles=tiles, hand0=hand0, hand1=hand1, options={"colour_limit": None})
    plays = [(0, "gray-1", 3, 0), (1, "gray-7", 3, 1), (0, "gray-4", 3, 0), (1, "gray-10", 3, 1),
             (0, "blue-1", 4, 0), (1, "blue-7", 4, 1), (0, "blue-3", 4, 0), (1, "blue-9", 4, 1), (0, "blue-5", 4, 0)]
    for seat, card, t, s in plays:
        place(g, seat, card, t, s)
        assert not g.terminal, card  # tile 3 can still be completed with two free blue cards
    place(g, 1, "blue-11", 4, 1)  # one blue card left free: tile 3 needs two
    assert g.terminal
    assert g.outcome["kind"] == "draw" and g.outcome["winners"] == []
    assert g.outcome["reason"] == "no tile can be completed"
    assert g.legal_moves(0) == [] and g.legal_moves(1) == []
    assert g.decision().terminal
    with pytest.raises(IllegalMove, match="the game is over"):
        place(g, 0, "red-1", 1, 0)


def test_a_tile_the_bag_cannot_fill_within_the_colour_limit_is_removed():
    # found by this suite: the engine used to break the limit (three yellow on tile 3); now B15 applies
    g = new_game(hand0=["blue-1", "gray-1", "red-1"], hand1=["blue-3", "gray-4", "red-2"])
    bag = names(g, "bag")
    yellow = [c for c in bag if c.startswith("yellow")][:3]
    put(g, [c for c in bag if c not in yellow], "box")  # test set-up: only three yellow cubes left in the bag
    for seat, card in [(0, "blue-1"), (1, "blue-3"), (0, "gray-1"), (1, "gray-4"), (0, "red-1")]:
        place(g, seat, card, 3, seat)
    place(g, 1, "red-2", 3, 1)  # tile 3 is scored; the bag cannot fill it with at most two yellow
    assert tile(g, 3)["alive"] is False
    assert sorted(names(g, "bag")) == sorted(yellow)  # the two cubes drawn go back to the bag
    assert names(g, "tile3.cubes") == []
    assert colours(g, "won[0]") == ["blue", "gray", "red"]  # plains: 3 against 9
    assert not g.terminal


def _last_tile_game():
    """Test set-up: tiles 2-4 are gone and the bag is empty, so tile 1 cannot be refilled."""
    from bc_helpers import force_remove_tile

    g = new_game(hand0=["red-3"], hand1=["red-5"])
    for n in (2, 3, 4):
        force_remove_tile(g, n)
    put(g, names(g, "bag"), "box")
    return g


def test_the_last_tile_removed_ends_the_game_as_a_draw():
    g = _last_tile_game()
    place(g, 0, "red-3", 1, 0)
    assert not g.terminal
    place(g, 1, "red-5", 1, 1)
    assert tile(g, 1)["alive"] is False
    assert not g.terminal  # the flight's trophy claims come first (B20)
    winner = g.decision().seats[0]
    g.apply(winner, {"name": "done", "args": {}})
    g.apply(1 - winner, {"name": "decline", "args": {}})
    assert g.terminal and g.outcome["kind"] == "draw" and g.outcome["reason"] == "no tile can be completed"


def test_the_winner_of_the_last_flight_still_claims_before_the_stall_draw():
    from bc_helpers import force_trophy

    g = _last_tile_game()
    force_trophy(g, "gray", 0)
    force_trophy(g, "blue", 0)
    put(g, [c for c in names(g, "box") if c.startswith("red")][:6], "won[0]")  # test set-up: six red cubes won
    place(g, 0, "red-3", 1, 0)
    place(g, 1, "red-5", 1, 1)  # seat 0 wins the seventh red cube: the red trophy is its third
    assert not (g.terminal and g.outcome["kind"] == "draw")
    assert g.decision().step == "winner_claims" and g.decision().seats == (0,)


def test_refill_respects_the_colour_limit_option():
    from runtime import ImpossibleOutcome

    def flight(more, options=None):
        g = new_game(tiles=(["red"], ["yellow", "green"], ["blue", "gray", "red"], ["red", "yellow", "green", "blue"]),
                     hand0=["yellow-1", "green-1"], hand1=["yellow-13", "green-12"], more=more, options=options)
        place(g, 0, "yellow-1", 2, 0)
        place(g, 1, "yellow-13", 2, 1)
        place(g, 0, "green-1", 2, 0)
        return g, place(g, 1, "green-12", 2, 1)

    g, events = flight(["blue", "blue"])  # two of a colour is within the default limit
    assert colours(g, "tile2.cubes") == ["blue", "blue"]
    with pytest.raises(ImpossibleOutcome) as exc:
        flight(["blue", "blue"], {"colour_limit": 1})
    assert exc.value.ply == 16  # the second refill draw: 11 setup events, 4 moves, 1 draw
    g, _ = flight(["blue", "gray"], {"colour_limit": 1})
    assert colours(g, "tile2.cubes") == ["blue", "gray"]
