"""Balloon Cup components and setup (rules B1-B6, decisions table: per-tile colour limit)."""

from __future__ import annotations

from collections import Counter

import pytest
from bc_helpers import (
    ALL_CARDS,
    DEFAULT_TILES,
    PRICE,
    colours,
    names,
    new_game,
    ruleset,
    tile,
    total_components,
)

from runtime import Game, ImpossibleOutcome


def test_card_list_is_the_45_cards_of_b1():
    g = Game.new(ruleset(), 2, seed=1)
    cards = sorted(c.name for c in g.st.comps if c.kind == "card")
    assert cards == sorted(ALL_CARDS)
    assert len(cards) == 45
    by_colour = Counter(c.d["colour"] for c in g.st.comps if c.kind == "card")
    assert by_colour == {"red": 13, "yellow": 11, "green": 9, "blue": 7, "gray": 5}


def test_45_cubes_in_the_colour_split_and_five_trophies():
    g = Game.new(ruleset(), 2, seed=1)
    cubes = Counter(c.d["colour"] for c in g.st.comps if c.kind == "cube")
    assert cubes == {"red": 13, "yellow": 11, "green": 9, "blue": 7, "gray": 5}
    assert total_components(g) == {"card": 45, "cube": 45, "trophy": 5}
    assert sorted(c.d["colour"] for c in g.st.comps if c.kind == "trophy") == sorted(PRICE)


def test_tiles_start_plains_mountain_plains_mountain():
    g = Game.new(ruleset(), 2, seed=3)
    assert [tile(g, n)["terrain"] for n in (1, 2, 3, 4)] == ["plains", "mountain", "plains", "mountain"]
    assert [tile(g, n)["number"] for n in (1, 2, 3, 4)] == [1, 2, 3, 4]


def test_setup_draws_n_cubes_onto_tile_n_from_the_bag_in_stacked_order():
    g = new_game()
    for n, want in enumerate(DEFAULT_TILES, start=1):
        assert colours(g, f"tile{n}.cubes") == sorted(want)
    assert len(names(g, "bag")) == 45 - 10
    draws = [e for e in g.events if e.kind == "chance" and e.node == "draw"]
    assert [e.zone for e in draws] == ["tile1.cubes"] + ["tile2.cubes"] * 2 + ["tile3.cubes"] * 3 + ["tile4.cubes"] * 4
    assert all(e.rule == "setup" and e.source.startswith("balloon_cup/game.ludex:") for e in draws)


def test_deal_eight_cards_each_rest_is_the_supply():
    hand0 = ["red-1", "red-2", "gray-13", "blue-7", "green-10", "yellow-12", "red-13", "gray-1"]
    hand1 = ["yellow-1", "yellow-2", "yellow-3", "green-1", "green-2", "blue-1", "blue-3", "blue-5"]
    g = new_game(hand0=hand0, hand1=hand1, deck=["red-7", "gray-4"])
    assert names(g, "hand[0]") == hand0
    assert names(g, "hand[1]") == hand1
    assert names(g, "deck")[:2] == ["red-7", "gray-4"]
    assert len(names(g, "deck")) == 45 - 16
    assert names(g, "discard") == []
    assert g.decision().seats == (0,) and g.decision().step == "play"


@pytest.mark.parametrize("seed", range(25))
def test_seeded_setup_respects_the_per_tile_colour_limit(seed):
    g = Game.new(ruleset(), 2, seed=seed)
    for n in (1, 2, 3, 4):
        assert max(Counter(colours(g, f"tile{n}.cubes")).values()) <= 2


def test_a_third_cube_of_one_colour_on_a_tile_cannot_be_drawn():
    # tile 3 already holds two red cubes: a third red is returned, so a stacked third red is impossible
    with pytest.raises(ImpossibleOutcome) as exc:
        new_game(tiles=(["gray"], ["yellow", "green"], ["red", "red", "red"], ["blue", "blue", "green", "yellow"]))
    assert exc.value.ply == 5
    assert "red#3" in str(exc.value)


def test_colour_limit_none_allows_any_number_of_one_colour():
    g = new_game(tiles=(["gray"], ["yellow", "green"], ["red", "red", "red"], ["blue", "blue", "blue", "blue"]),
                 options={"colour_limit": None})
    assert colours(g, "tile3.cubes") == ["red", "red", "red"]
    assert colours(g, "tile4.cubes") == ["blue"] * 4


def test_colour_limit_option_can_be_lowered_to_one():
    with pytest.raises(ImpossibleOutcome):
        new_game(tiles=(["gray"], ["yellow", "yellow"], ["red", "green", "blue"], ["red", "yellow", "green", "blue"]),
                 options={"colour_limit": 1})
    g = new_game(tiles=(["gray"], ["yellow", "green"], ["red", "green", "blue"], ["red", "yellow", "green", "blue"]),
                 options={"colour_limit": 1})
    assert colours(g, "tile2.cubes") == ["green", "yellow"]


def test_unknown_option_and_wrong_type_are_refused():
    with pytest.raises(ValueError, match="unknown option 'colour_limits'"):
        Game.new(ruleset(), 2, {"colour_limits": 1}, seed=0)
    with pytest.raises(ValueError, match="three_for_one"):
        Game.new(ruleset(), 2, {"three_for_one": 3}, seed=0)


def test_balloon_cup_is_for_two_seats_only():
    with pytest.raises(ValueError, match="2 seats"):
        Game.new(ruleset(), 3, seed=0)


def test_a_shuffle_outcome_that_is_not_a_permutation_is_impossible():
    from bc_helpers import setup_outcomes

    outs = setup_outcomes()
    outs[10] = outs[10][:-1] + [outs[10][0]]  # a duplicated card instead of the last one
    with pytest.raises(ImpossibleOutcome) as exc:
        Game.new(ruleset(), 2, seed=0, outcomes=outs)
    assert exc.value.ply == 10


def test_the_deck_shuffle_is_hidden_from_both_seats():
    g = new_game()
    shuffle = next(e for e in g.events if e.node == "shuffle")
    assert shuffle.zone == "deck" and len(shuffle.outcome) == 45
    for seat in (0, 1, None):
        assert g.event_view(shuffle, seat)["outcome"] == []
    cube = next(e for e in g.events if e.node == "draw")
    assert g.event_view(cube, 1)["outcome"] == cube.outcome  # cubes on tiles are public
