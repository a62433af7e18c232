"""Balloon Cup trophies (B17-B22, E-BC4, decisions table: compulsory plain claims)."""

from __future__ import annotations

import pytest
from bc_helpers import (
    colours,
    force_cubes,
    force_trophy,
    legal_names,
    move,
    names,
    new_game,
    place,
    trophy_name,
)

from runtime import IllegalMove


def _tile1_flight(g):
    """Seat 0 places red-3, seat 1 red-5 on plains tile 1: seat 0 wins one red cube."""
    place(g, 0, "red-3", 1, 0)
    place(g, 1, "red-5", 1, 1)
    assert g.decision().step == "winner_claims" and g.decision().seats == (0,)


NO_BLUE = (["red"], ["yellow", "green"], ["gray", "red", "yellow"], ["red", "yellow", "green", "gray"])


def _game(tiles=NO_BLUE):
    return new_game(tiles=tiles, hand0=["red-3"], hand1=["red-5"], more=["green"])


def claims(g, seat):
    return sorted((m.args["tr"], tuple(sorted(m.args["trade"].items()))) for m in g.legal_moves(seat) if m.name == "claim")


def test_a_claim_payable_without_trades_is_compulsory_for_the_winner():
    g = _game()
    force_cubes(g, "red", 6, "won[0]")  # test set-up: six red cubes already won
    _tile1_flight(g)
    red = trophy_name(g, "red")
    assert claims(g, 0) == [(red, ())]
    before = g.state_hash()
    with pytest.raises(IllegalMove) as exc:
        move(g, 0, "done")
    assert exc.value.reason == "you must claim a trophy you can pay for without trades"
    assert g.state_hash() == before
    move(g, 0, "claim", tr=red, trade={})
    assert names(g, "trophies_won[0]") == [red]
    assert colours(g, "box") == ["red"] * 7  # B17: paid cubes go to the box, not the bag
    assert names(g, "won[0]") == []
    assert red not in names(g, "trophy_row")
    assert legal_names(g, 0) == {"done"}


def test_surplus_cubes_are_kept():
    g = _game()
    force_cubes(g, "red", 8, "won[0]")
    _tile1_flight(g)
    move(g, 0, "claim", tr=trophy_name(g, "red"), trade={})
    assert colours(g, "won[0]") == ["red", "red"]


def test_the_winner_claims_as_many_as_it_can():
    g = _game()
    force_cubes(g, "gray", 3, "won[0]")
    force_cubes(g, "blue", 4, "won[0]")
    _tile1_flight(g)
    gray, blue = trophy_name(g, "gray"), trophy_name(g, "blue")
    assert {c[0] for c in claims(g, 0)} == {gray, blue}
    move(g, 0, "claim", tr=gray, trade={})
    with pytest.raises(IllegalMove, match="you must claim"):
        move(g, 0, "done")
    move(g, 0, "claim", tr=blue, trade={})
    move(g, 0, "done")
    assert sorted(names(g, "trophies_won[0]")) == sorted([gray, blue])


def test_three_for_one_with_an_awarded_colour_is_optional():
    g = _game()
    force_trophy(g, "gray", 1)  # test set-up: seat 1 already holds the gray trophy
    force_cubes(g, "blue", 3, "won[0]")
    force_cubes(g, "gray", 3, "won[0]")
    _tile1_flight(g)
    blue = trophy_name(g, "blue")
    assert claims(g, 0) == [(blue, (("gray", 1),))]
    assert "done" in legal_names(g, 0)  # B19: the trade may be held back
    move(g, 0, "claim", tr=blue, trade={"gray": 1})
    assert names(g, "trophies_won[0]") == [blue]
    assert colours(g, "box") == ["blue"] * 3 + ["gray"] * 3
    assert colours(g, "won[0]") == ["red"]


def test_holding_back_a_trade_keeps_the_cubes():
    g = _game()
    force_trophy(g, "gray", 1)
    force_cubes(g, "blue", 3, "won[0]")
    force_cubes(g, "gray", 3, "won[0]")
    _tile1_flight(g)
    move(g, 0, "done")
    assert colours(g, "won[0]") == ["blue"] * 3 + ["gray"] * 3 + ["red"]
    assert names(g, "trophies_won[0]") == []


def test_trades_need_a_colour_whose_trophy_is_awarded_and_three_of_one_colour():
    g = _game()
    force_cubes(g, "blue", 3, "won[0]")
    force_cubes(g, "green", 3, "won[0]")  # green is not awarded: no set
    _tile1_flight(g)
    assert claims(g, 0) == []
    g = _game()
    force_trophy(g, "gray", 1)
    force_trophy(g, "yellow", 1)
    force_cubes(g, "blue", 3, "won[0]")
    force_cubes(g, "gray", 2, "won[0]")
    force_cubes(g, "yellow", 1, "won[0]")  # two gray and one yellow are not a set
    _tile1_flight(g)
    assert claims(g, 0) == []


def test_several_sets_may_be_used_at_once():
    g = _game()
    force_trophy(g, "gray", 1)
    force_trophy(g, "yellow", 1)
    force_cubes(g, "blue", 2, "won[0]")
    force_cubes(g, "gray", 3, "won[0]")
    force_cubes(g, "yellow", 3, "won[0]")
    _tile1_flight(g)
    blue = trophy_name(g, "blue")
    assert claims(g, 0) == [(blue, (("gray", 1), ("yellow", 1)))]
    move(g, 0, "claim", tr=blue, trade={"gray": 1, "yellow": 1})
    assert colours(g, "won[0]") == ["red"]


def test_option_three_for_one_off_allows_no_trades():
    g = new_game(hand0=["red-3"], hand1=["red-5"], more=["green"], options={"three_for_one": False})
    force_trophy(g, "gray", 1)
    force_cubes(g, "blue", 3, "won[0]")
    force_cubes(g, "gray", 3, "won[0]")
    _tile1_flight(g)
    assert claims(g, 0) == []
    with pytest.raises(IllegalMove):
        move(g, 0, "claim", tr=trophy_name(g, "blue"), trade={"gray": 1})


def test_claim_order_winner_other_winner_and_a_trade_with_the_colour_just_claimed():
    # B18/B20 official example: the other seat takes the blue trophy, then the winner trades blue cubes
    g = _game()
    force_cubes(g, "blue", 3, "won[0]")
    force_cubes(g, "green", 4, "won[0]")
    force_cubes(g, "blue", 4, "won[1]")
    _tile1_flight(g)
    blue, green = trophy_name(g, "blue"), trophy_name(g, "green")
    assert claims(g, 0) == []  # no colour awarded yet, nothing payable
    move(g, 0, "done")
    assert g.decision().step == "other_claims" and g.decision().seats == (1,)
    assert claims(g, 1) == [(blue, ())]
    assert "decline" in legal_names(g, 1)  # the other seat may claim; it need not
    move(g, 1, "claim", tr=blue, trade={})
    assert g.decision().step == "winner_claims" and g.decision().seats == (0,)
    assert claims(g, 0) == [(green, (("blue", 1),))]
    move(g, 0, "claim", tr=green, trade={"blue": 1})
    assert names(g, "trophies_won[0]") == [green] and names(g, "trophies_won[1]") == [blue]
    assert colours(g, "won[0]") == ["red"]
    move(g, 0, "done")
    assert g.decision().step == "other_claims" and g.decision().seats == (1,)
    move(g, 1, "decline")
    assert g.decision().step == "play" and g.decision().seats == (1,)  # the loser of the flight moves


def test_the_other_seat_claims_only_one_per_round():
    g = _game()
    force_cubes(g, "blue", 4, "won[1]")
    force_cubes(g, "gray", 3, "won[1]")
    _tile1_flight(g)
    move(g, 0, "done")
    move(g, 1, "claim", tr=trophy_name(g, "blue"), trade={})
    assert g.decision().seats == (0,) and g.decision().step == "winner_claims"
    move(g, 0, "done")
    assert g.decision().seats == (1,) and g.decision().step == "other_claims"
    move(g, 1, "claim", tr=trophy_name(g, "gray"), trade={})
    assert g.decision().seats == (0,)
    assert len(names(g, "trophies_won[1]")) == 2


def test_three_trophies_end_the_game_at_once():
    g = _game()
    force_trophy(g, "gray", 0)
    force_trophy(g, "blue", 0)
    force_cubes(g, "red", 6, "won[0]")
    _tile1_flight(g)
    move(g, 0, "claim", tr=trophy_name(g, "red"), trade={})
    assert g.terminal
    assert g.outcome["kind"] == "win" and g.outcome["winners"] == [0]
    assert g.outcome["reason"] == "three trophies"
    assert g.legal_moves(0) == [] and g.legal_moves(1) == []
    with pytest.raises(IllegalMove, match="the game is over"):
        move(g, 0, "done")


def test_a_claim_cascade_can_make_the_flight_loser_win():
    # E-BC4: the other seat's one claim is its third trophy
    g = _game()
    force_trophy(g, "gray", 1)
    force_trophy(g, "blue", 1)
    force_cubes(g, "green", 5, "won[1]")
    _tile1_flight(g)
    move(g, 0, "done")
    move(g, 1, "claim", tr=trophy_name(g, "green"), trade={})
    assert g.terminal and g.outcome["winners"] == [1]


def test_each_way_to_pay_with_sets_is_a_separate_choice():
    g = _game()
    force_trophy(g, "gray", 1)
    force_trophy(g, "yellow", 1)
    force_cubes(g, "blue", 3, "won[0]")
    force_cubes(g, "gray", 3, "won[0]")
    force_cubes(g, "yellow", 3, "won[0]")
    _tile1_flight(g)
    blue = trophy_name(g, "blue")
    # one set pays the missing cube; both sets may pay two cubes of the price (decisions table)
    assert claims(g, 0) == [(blue, (("gray", 1),)), (blue, (("gray", 1), ("yellow", 1))), (blue, (("yellow", 1),))]
    move(g, 0, "claim", tr=blue, trade={"yellow": 1})
    assert colours(g, "won[0]") == ["gray"] * 3 + ["red"]


def test_sets_may_pay_part_of_the_price_even_with_enough_cubes_of_the_colour():
    """Decisions table, seed 001: "an unlimited number of the required cubes may be replaced by
    sets of three of other colours", never more sets than the price."""
    g = _game()
    force_trophy(g, "red", 1)
    force_trophy(g, "yellow", 1)
    force_cubes(g, "gray", 3, "won[0]")  # enough for the gray trophy (3) with cubes alone
    force_cubes(g, "red", 8, "won[0]")  # with the flight's red cube: three sets of red
    force_cubes(g, "yellow", 6, "won[0]")  # two sets of yellow: five sets, more than the price
    _tile1_flight(g)
    gray = trophy_name(g, "gray")
    ways = [dict(t) for tr, t in claims(g, 0) if tr == gray]
    assert sorted(ways, key=lambda w: (sum(w.values()), sorted(w.items()))) == [
        {}, {"red": 1}, {"yellow": 1}, {"red": 1, "yellow": 1}, {"red": 2}, {"yellow": 2},
        {"red": 1, "yellow": 2}, {"red": 2, "yellow": 1}, {"red": 3},
    ]
    with pytest.raises(IllegalMove, match="you must claim"):
        move(g, 0, "done")  # payable without trades: a claim stays compulsory
    move(g, 0, "claim", tr=gray, trade={"red": 2})
    assert colours(g, "won[0]") == ["gray"] * 2 + ["red"] * 3 + ["yellow"] * 6
    assert colours(g, "box") == ["gray"] + ["red"] * 6


def test_a_trade_map_that_is_not_offered_is_refused():
    g = _game()
    force_trophy(g, "gray", 1)
    force_cubes(g, "blue", 3, "won[0]")
    force_cubes(g, "gray", 3, "won[0]")
    _tile1_flight(g)
    before = g.state_hash()
    for trade in ({}, {"gray": 2}, {"red": 1}):
        with pytest.raises(IllegalMove, match="not one of the choices"):
            move(g, 0, "claim", tr=trophy_name(g, "blue"), trade=trade)
    assert g.state_hash() == before
