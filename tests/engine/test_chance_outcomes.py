"""Chance a referee can trust (issue 12): strict given outcomes, labelled outcomes, and bag
draws given as the physical sequence of draws, returned cubes included."""

from __future__ import annotations

import attrs
import pytest

from dsl import load_from_sources
from runtime import Game, ImpossibleOutcome

BAG = """
game bag
enum colour { red, blue }
component cube(colour: colour)
components cubes = [cube(c) for c in colour for i in 1..2]
zone deck: cube hidden ordered = cubes
zone bag: cube hidden = []
zone tray: cube public = []

setup {
  shuffle deck
  move deck to bag
}

step play then end turn

move pull() during play "take a cube; a colour already in the tray goes back" {
  draw random from bag to tray retry if k => count(tray where .colour == k.colour) >= 1
  if count(tray) == 2 { end game draw "one of each" }
}
"""
DECK = ["red", "blue", "red#2", "blue#2"]


def bag(**kw):
    return Game.new(load_from_sources((("bag.ludex", BAG),)), 2, seed=kw.pop("seed", 1), **kw)


def pull(g, seat):
    return g.apply(seat, {"name": "pull", "args": {}})


def test_without_strict_missing_outcomes_come_from_the_seed():
    g = bag(outcomes=[DECK])
    pull(g, 0)
    assert [e.node for e in g.events if e.kind == "chance"] == ["shuffle", "draw"]


def test_strict_outcomes_that_run_out_are_an_error_naming_the_chance_node():
    g = bag(outcomes=[DECK], strict=True)
    with pytest.raises(
        ImpossibleOutcome,
        match=r"ran out after 1: the rules reach a draw from bag to tray \(move pull, bag.ludex:18\)",
    ):
        pull(g, 0)


def test_strict_outcomes_left_over_when_the_game_ends_are_an_error():
    g = bag(outcomes=[DECK, ["red"], ["blue"], ["red#2"]], strict=True)
    pull(g, 0)
    with pytest.raises(ImpossibleOutcome, match=r"1 given outcome\(s\) left over, the first \['red#2'\]"):
        pull(g, 1)
    assert g.terminal


def test_check_outcomes_used_reports_left_overs_while_the_game_runs():
    g = bag(outcomes=[DECK, ["red"], ["blue"]], strict=True)
    with pytest.raises(ImpossibleOutcome, match="2 given outcome"):
        g.check_outcomes_used()
    bag(outcomes=[DECK], strict=True).check_outcomes_used()  # all used: no error


def test_a_labelled_outcome_must_match_the_chance_node_reached():
    shuffle = {"outcome": DECK, "node": "shuffle", "zone": "deck", "rule": "setup", "source": "bag.ludex:11"}
    g = bag(
        outcomes=[shuffle, {"outcome": ["blue"], "node": "draw", "from": "bag", "zone": "tray"}], strict=True
    )
    pull(g, 0)
    assert g.view(None)["zones"]["tray"]["components"][0]["name"] == "blue"
    with pytest.raises(
        ImpossibleOutcome, match=r"labelled for another chance node: zone 'bag' \(the rules reach 'deck'\)"
    ):
        bag(outcomes=[dict(shuffle, zone="bag")])
    with pytest.raises(ImpossibleOutcome, match=r"node 'draw' \(the rules reach 'shuffle'\)"):
        bag(outcomes=[{"outcome": ["red"], "node": "draw"}])
    with pytest.raises(ImpossibleOutcome, match=r"source 'bag.ludex:99'"):
        bag(outcomes=[dict(shuffle, source="bag.ludex:99")])


def test_malformed_given_outcomes_say_what_is_wrong():
    with pytest.raises(ValueError, match="unknown field"):
        bag(outcomes=[{"outcome": DECK, "zon": "deck"}])
    with pytest.raises(ValueError, match="a list of component names"):
        bag(outcomes=["red"])


def test_a_bag_draw_accepts_the_physical_sequence_with_returned_cubes():
    g = bag(outcomes=[DECK, ["red"], ["red#2", "red#2", "blue#2"]], strict=True)
    pull(g, 0)
    events = pull(g, 1)
    assert events[-1].outcome == ["red#2", "red#2", "blue#2"]  # the record keeps what the table saw
    assert [c["name"] for c in g.view(None)["zones"]["tray"]["components"]] == ["red", "blue#2"]
    again = Game.fold(g.ruleset, 2, {}, g.events)
    assert again.state_hash() == g.state_hash()


def test_a_returned_cube_the_retry_would_keep_is_impossible():
    g = bag(outcomes=[DECK, ["red"], ["blue", "blue#2"]], strict=True)
    pull(g, 0)
    with pytest.raises(
        ImpossibleOutcome,
        match=r"cannot be drawn from bag now \(possible: blue, blue#2, after any put back of red#2\)",
    ):
        pull(g, 1)


def test_a_replayed_log_with_a_chance_event_removed_added_or_relabelled_fails():
    g = bag(outcomes=[DECK, ["red"], ["blue"]])
    pull(g, 0)
    pull(g, 1)
    log = g.events
    chance = [i for i, e in enumerate(log) if e.kind == "chance"]
    removed = [e for i, e in enumerate(log) if i != chance[1]]
    with pytest.raises(ImpossibleOutcome, match="draw from bag"):
        Game.fold(g.ruleset, 2, {}, removed)
    added = [*log, log[chance[-1]]]
    with pytest.raises(ImpossibleOutcome):
        Game.fold(g.ruleset, 2, {}, added)

    moved = [attrs.evolve(e, rule="setup") if i == chance[1] else e for i, e in enumerate(log)]
    with pytest.raises(ImpossibleOutcome, match="labelled for another chance node: rule 'setup'"):
        Game.fold(g.ruleset, 2, {}, moved)
