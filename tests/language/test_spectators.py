"""The spectators' view is declared by the ruleset (issue 12): by default a spectator sees only
what every seat sees; `spectators see ZONE` shows it more (Hanabi: every hand)."""

from __future__ import annotations

import pytest

from dsl import load_from_sources, load_ruleset
from dsl.diagnostics import RulesetError
from runtime import Game

CHIPS = """
game chips
component chip(n: int)
components chips = [chip(n) for n in 1..4]
zone supply: chip hidden ordered = chips
zone forehead: per seat chip others = []
zone hand: per seat chip owner = []
SPECTATORS
setup {
  shuffle supply
  for s in seats { draw 1 from supply to forehead[s] }
}

step play then end turn
move pass_on(c in forehead[actor]) during play { move c to hand[actor] }
"""


def chips(spectators=""):
    rs = load_from_sources((("chips.ludex", CHIPS.replace("SPECTATORS", spectators)),))
    return Game.new(rs, 2, seed=1, outcomes=[["1", "2", "3", "4"]])


def test_by_default_a_spectator_sees_only_what_every_seat_sees():
    g = chips()
    assert g.view(None)["zones"]["forehead[0]"] == {"count": 1}
    assert g.view(1)["zones"]["forehead[0]"]["components"][0]["name"] == "1"  # seat 1 sees it
    shuffle = g.events[0]
    assert g.event_view(shuffle, None)["outcome"] == [] and g.event_view(shuffle, None)["hidden"] == 4
    (move,) = g.apply(0, {"name": "pass_on", "args": {"c": "forehead[0]@0"}})
    assert g.event_view(move, None)["args"]["c"] == "forehead[0]@0"  # a slot, not the chip
    assert g.event_view(move, 1)["args"]["c"] == "1"


def test_spectators_see_the_zones_the_ruleset_shows_them():
    g = chips('spectators see forehead "every forehead"')
    assert g.view(None)["zones"]["forehead[0]"]["components"][0]["name"] == "1"
    assert g.view(None)["zones"]["hand[0]"] == {"count": 0}  # not shown: owner only
    assert g.view(0)["zones"]["forehead[0]"] == {"count": 1}  # the owner still does not see it
    (move,) = g.apply(0, {"name": "pass_on", "args": {"c": "forehead[0]@0"}})
    assert g.event_view(move, None)["args"]["c"] == "1"


def test_hanabi_spectators_see_every_hand():
    g = Game.new(load_ruleset("hanabi"), 2, seed=3)
    for s in (0, 1):
        assert len(g.view(None)["zones"][f"hand[{s}]"]["components"]) == 5
        assert "components" not in g.view(s)["zones"][f"hand[{s}]"]


@pytest.mark.parametrize("decl,message", [
    ("spectators see foreheads", "spectators see unknown zone 'foreheads'"),
])
def test_spectators_declaration_is_checked(decl, message, snapshot):
    with pytest.raises(RulesetError) as exc:
        chips(decl)
    assert [d.message for d in exc.value.diagnostics] == [message]
    assert str(exc.value.diagnostics[0]) == snapshot
