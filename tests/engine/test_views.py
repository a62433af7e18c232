"""What each viewer sees (docs/language.md, 9 "Visibility and views"): a seat, a spectator and a
referee (`"all"`) on one position with a zone of every visibility, slot marks, an entity, a reveal;
the state hash's contents; and events as each viewer sees them. The deck is stacked through the
shuffle's chance event, so every value below follows from the rules text alone."""

from __future__ import annotations

from dsl import load_from_sources
from runtime import Game
from runtime.views import event_view, full_state

PEEK = """
game peek
option goal: int = 3 "points to win"
component chip(n: int)
components chips = [chip(n) for n in 1..6]
zone supply: chip hidden ordered = chips "face down"
zone table: chip public = [] "face up"
zone hand: per seat chip owner = [] "own chips"
zone forehead: per seat chip others = [] "seen by the others"
zone box: chip secret = [] "nobody sees"
entity tray(label: str) { zone on: chip public = [] "on the tray"  var uses: int = 0 }
entities trays = [tray("a")]
var score: per seat int = 0 "points"
var notes: map<int, int> = {1: 2}
setup "deal" {
  shuffle supply
  for s in seats { draw 1 from supply to hand[s]  draw 1 from supply to forehead[s] }
  draw 1 from supply to box
  mark top(supply) with "next"
  turn 0
}
step play then end turn
move show(c in hand[actor]) during play "show a chip" {
  mark c with ["shown", actor]
  move c to table
  reveal forehead[actor]
  score[actor] += 1
}
move pass() during play otherwise { }
"""
# The shuffle puts the chips in this order: hand[0] gets 5, forehead[0] 1, hand[1] 6,
# forehead[1] 4, the box 2, and 3 stays in the supply.
STACKED = [["5", "1", "6", "4", "2", "3"]]


def _game() -> Game:
    return Game.new(load_from_sources((("peek.ludex", PEEK),)), 2, outcomes=STACKED)


def _chip(n: int, **more) -> dict:
    return {"n": n, "name": str(n), "kind": "chip", **more}


COMMON = {"ruleset": "peek", "variants": [], "step": "play", "actor": 0, "current": 0, "terminal": False,
          "outcome": None, "options": {"goal": 3},
          "entities": {"tray1": {"label": "a", "name": "tray1", "index": 0, "uses": 0, "alive": True}},
          "vars": {"score": [0, 0], "notes": {"1": 2}}, "revealed": [], "ply": 1}
SUPPLY_MARKED = {"count": 1, "slots": [{"slot": 0, "marks": ["next"]}]}
EMPTY = {"count": 0, "components": []}


def test_each_viewer_sees_what_the_visibility_table_says():
    g = _game()
    assert g.view(0) == {**COMMON, "seat": 0, "zones": {
        "supply": SUPPLY_MARKED, "table": EMPTY,
        "hand[0]": {"count": 1, "components": [_chip(5)]}, "hand[1]": {"count": 1},
        "forehead[0]": {"count": 1}, "forehead[1]": {"count": 1, "components": [_chip(4)]},
        "box": {"count": None}, "tray1.on": EMPTY}}
    assert g.view(1)["zones"] == {
        "supply": SUPPLY_MARKED, "table": EMPTY,
        "hand[0]": {"count": 1}, "hand[1]": {"count": 1, "components": [_chip(6)]},
        "forehead[0]": {"count": 1, "components": [_chip(1)]}, "forehead[1]": {"count": 1},
        "box": {"count": None}, "tray1.on": EMPTY}
    assert g.view(None) == {**COMMON, "seat": None, "zones": {
        "supply": SUPPLY_MARKED, "table": EMPTY, "hand[0]": {"count": 1}, "hand[1]": {"count": 1},
        "forehead[0]": {"count": 1}, "forehead[1]": {"count": 1}, "box": {"count": None}, "tray1.on": EMPTY}}
    assert g.view("all")["zones"] == {
        "supply": {"count": 1, "components": [_chip(3, marks=["next"])]}, "table": EMPTY,
        "hand[0]": {"count": 1, "components": [_chip(5)]}, "hand[1]": {"count": 1, "components": [_chip(6)]},
        "forehead[0]": {"count": 1, "components": [_chip(1)]}, "forehead[1]": {"count": 1, "components": [_chip(4)]},
        "box": {"count": 1, "components": [_chip(2)]}, "tray1.on": EMPTY}


def test_after_a_move_marks_reveals_and_variables_show():
    g = _game()
    g.apply(0, {"name": "show", "args": {"c": "5"}})
    view = g.view(1)
    assert (view["ply"], view["actor"], view["current"], view["vars"]["score"]) == (3, 1, 1, [1, 0])
    assert view["zones"]["table"] == {"count": 1, "components": [_chip(5, marks=[["shown", 0]])]}
    assert view["zones"]["hand[0]"] == {"count": 0}
    assert view["revealed"] == [{"zone": "forehead[0]", "by": 0, "ply": 2, "components": ["1"]}]
    assert full_state(g) == {
        "options": {"goal": 3},
        "zones": {"supply": ["3"], "table": ["5"], "hand[0]": [], "hand[1]": ["6"], "forehead[0]": ["1"],
                  "forehead[1]": ["4"], "box": ["2"], "tray1.on": []},
        "vars": {"score": [1, 0], "notes": {"1": 2}},
        "entities": {"tray1": [True, {"label": "a", "name": "tray1", "index": 0, "uses": 0}]},
        "marks": {"3": ["next"], "5": [["shown", 0]]},
        "turn": ["play", 1, 1, False], "outcome": None,
        "reveals": [{"zone": "forehead[0]", "by": 0, "ply": 2, "components": ["1"]}]}


def test_events_as_each_viewer_sees_them():
    g = _game()
    g.apply(0, {"name": "show", "args": {"c": "5"}})
    shuffle, move, show = g.events
    base = {"ply": 0, "kind": "chance", "rule": "setup", "source": "peek.ludex:16", "seat": None, "move": None,
            "args": {}, "node": "shuffle", "zone": "supply", "outcome": [], "seen_by": [], "hidden": 6}
    assert [g.event_view(shuffle, s) for s in (0, 1, None)] == [base] * 3
    played = {"ply": 1, "kind": "move", "rule": "move show", "source": "peek.ludex:23", "seat": 0, "move": "show",
              "node": None, "zone": None, "outcome": [], "seen_by": None}
    assert g.event_view(move, 0) == {**played, "args": {"c": "5"}}  # the mover saw the chip it played
    assert g.event_view(move, 1) == g.event_view(move, None) == {**played, "args": {"c": "hand[0]@0"}}
    shown = {"ply": 2, "kind": "show", "rule": "move show", "source": "peek.ludex:26", "seat": 0, "move": None,
             "args": {}, "node": None, "zone": "forehead[0]", "outcome": ["1"], "seen_by": None}
    assert [g.event_view(show, s) for s in (0, 1, None)] == [shown] * 3


# More of the same game: a bag drawn from at random into the drawer's hand, an entity whose
# zones are one per side (listed among the zones, never among the entity's fields), an ending.
MORE = PEEK + """
enum side { left, right }
entity stand() { zone flank: per side chip public = [] "each side" }
entities stands = [stand()]
zone bag: chip hidden = [] "a bag"
move give() during play "put the supply's top chip in the bag" { move top(supply) to bag }
move pull() during play "draw from the bag" { draw random from bag to hand[actor] }
move stop() during play "end the game" { end game draw "stopped" }
"""


def _more() -> Game:
    return Game.new(load_from_sources((("peek.ludex", MORE),)), 2, outcomes=STACKED)


def test_an_entitys_zones_per_side_are_zones_not_fields():
    view = _more().view(0)
    assert view["entities"]["stand1"] == {"name": "stand1", "index": 0, "alive": True}
    assert view["zones"]["stand1.flank[left]"] == view["zones"]["stand1.flank[right]"] == EMPTY


def test_a_random_draw_is_seen_by_the_drawer_alone():
    g = _more()
    g.apply(0, {"name": "give", "args": {}})
    g.apply(1, {"name": "pull", "args": {}})  # the bag holds only chip 3
    drawn = g.events[-1]
    seen = {"ply": 3, "kind": "chance", "rule": "move pull", "source": "peek.ludex:36", "seat": None, "move": None,
            "args": {}, "node": "draw", "zone": "hand[1]", "outcome": ["3"], "seen_by": [1]}
    hidden = {**seen, "outcome": [], "hidden": 1}
    assert [g.event_view(drawn, s) for s in (1, 0, None)] == [seen, hidden, hidden]
    # a spectator sees the chance outcomes of the zones the rules show spectators
    assert event_view(drawn, None, frozenset({"hand[1]"})) == seen
    assert event_view(drawn, None, frozenset({"hand[0]"})) == hidden
    assert event_view(drawn, 1, frozenset({"hand[0]"})) == seen


def test_a_finished_game_has_no_actor():
    g = _more()
    g.apply(0, {"name": "stop", "args": {}})
    view = g.view(1)
    assert (view["terminal"], view["actor"], view["current"]) == (True, None, 0)
    assert view["outcome"]["kind"] == "draw" and view["outcome"]["reason"] == "stopped"
