"""Zones of several component types (issue 12): `zone hand: per seat troop | tactic owner`,
`troop | tactic` as a type, and `x is T` narrowing a value of such a type for the checker."""

from __future__ import annotations

import random

import pytest

import dsl
from dsl import load_from_sources
from dsl.diagnostics import RulesetError
from runtime import Game, event_to_dict
from runtime import compile as rc

MIXED = """
game mixed
enum colour { red, blue }
enum tname { feint, rally }
component troop(colour: colour, value: int)
component tactic(tname: tname, bonus: int)
components troops = [troop(c, v) for c in colour for v in 1..3]
components tactics = [tactic(t, 2) for t in tname]

zone deck: troop | tactic hidden ordered = troops ++ tactics
zone hand: per seat troop | tactic owner = []
zone line: per seat troop public = []
zone used: tactic public = []
var score: per seat int = 0

fn worth(c: troop | tactic) -> int = if c is troop then c.value elif c.tname == rally then c.bonus + 1 else c.bonus
fn troops_in(cs: list<troop | tactic>) -> list<troop> = [c for c in cs if c is troop]
fn strongest(cs: list<troop | tactic>) -> int = max([c.value for c in troops_in(cs)] ++ [0])

setup {
  shuffle deck
  for s in seats { draw 3 from deck to hand[s] }
}

step play then end turn

move field(c in hand[actor] where it is troop) during play {
  move c to line[actor]
  score[actor] += c.value
  refill()
}
move boost(c in hand[actor] where it is tactic and .bonus > 0) during play
  require c.tname != feint or strongest(list(hand[actor])) > 0 else "a feint needs a troop beside it"
{
  move c to used
  score[actor] += worth(c)
  refill()
}
move give(c in hand[actor]) during play {
  if c is troop { move c to line[other(actor)] } else { move c to used }
  refill()
}
proc refill() {
  if empty(deck) { end game scores {s: score[s] + sum(worth(c) for c in hand[s]) for s in seats} "the deck is empty" }
  else { draw 1 from deck to hand[actor] }
}
"""
POSITION = {
    "zones": {"hand[0]": ["red-3", "feint-2"], "hand[1]": ["blue-1", "rally-2"],
              "deck": ["red-1", "red-2", "blue-2", "blue-3"]},
    "step": "play",
}


def rules(text: str = MIXED):
    return load_from_sources((("mixed.ludex", text),))


def test_a_union_ruleset_checks_clean_and_keeps_its_types(snapshot):
    rs = rules()
    assert dsl.check_text(MIXED, "mixed.ludex") == []
    zones = {z.name: z.holds for z in rs.zones}
    params = {f.name: [str(p.type) for p in f.params] for f in rs.fns}
    assert zones["hand"] == "troop|tactic" and params["worth"] == ["troop | tactic"]
    assert (zones, params) == snapshot


@pytest.mark.parametrize("extra", [
    'move spend(c in hand[actor]) during play require c is tactic else "only tactics" { move c to used }',
    "move spend(c in hand[actor]) during play { if not (c is troop) { move c to used } }",
    "move spend(c in hand[actor]) during play { if c is troop and c.value > 2 { move c to line[actor] } elif c is troop { } else { move c to used } }",
    "fn low(cs: list<troop | tactic>) -> list<troop> = cs where it is troop and .value < 2",
    "fn bonus(c: troop | tactic) -> int = if not (c is tactic) or c.bonus == 0 then 0 else c.bonus",
    "fn bonuses(cs: list<troop | tactic>) -> int = sum(c.bonus for c in cs if c is tactic)",
    "trigger spent when any(c is tactic for c in used) and top(used) is tactic { }",
], ids=["require", "not", "elif_and", "where", "or_else", "generator", "trigger"])
def test_narrowing_reaches_each_place_a_test_can_stand(extra):
    assert dsl.check_text(MIXED + extra + "\n", "mixed.ludex") == []


def test_moves_drawn_from_a_mixed_hand_by_type():
    g = Game.from_position(rules(), POSITION)
    moves = {(m.name, m.args["c"]) for m in g.legal_moves(0)}
    assert moves == {("field", "red-3"), ("boost", "feint-2"), ("give", "red-3"), ("give", "feint-2")}
    assert g.call("worth", "red-3") == 3 and g.call("worth", "rally-2") == 3
    assert g.call("troops_in", ["red-3", "feint-2"]) == ["red-3"]
    before = g.state_hash()
    g.apply(0, {"name": "boost", "args": {"c": "feint-2"}})
    assert g.view(None)["vars"]["score"] == [2, 0] and g.state_hash() != before
    g.apply(1, {"name": "give", "args": {"c": "blue-1"}})  # a troop given goes to the other line
    g.apply(0, {"name": "give", "args": {"c": "red-3"}})
    v0, v1 = g.view(0), g.view(1)
    assert [c["name"] for c in v1["zones"]["line[0]"]["components"]] == ["blue-1"]
    assert [c["name"] for c in v0["zones"]["line[1]"]["components"]] == ["red-3"]
    hand1 = v1["zones"]["hand[1]"]["components"]  # its owner sees troops and tactics with their fields
    assert {c["name"]: c.get("kind") for c in hand1}["rally-2"] == "tactic"
    assert "components" not in v0["zones"]["hand[1]"] and v0["zones"]["hand[1]"]["count"] == 2
    assert Game.from_position(rules(), POSITION).state_hash() != g.state_hash()


def test_a_mixed_game_plays_to_its_end_and_replays():
    for seed in range(5):
        g = Game.new(rules(), 2, seed=seed)
        rng = random.Random(seed)
        while not g.terminal:
            seat = g.decision().seats[0]
            moves = g.legal_moves(seat)
            g.apply(seat, moves[rng.randrange(len(moves))])
        assert g.outcome["reason"] == "the deck is empty"
        assert Game.fold(g.ruleset, 2, {}, g.events).state_hash() == g.state_hash()


def _trace(rs) -> list:
    g = Game.new(rs, 2, seed=3)
    rng, out = random.Random(3), []
    while not g.terminal:
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        out.append([m.to_dict() for m in moves])
        g.apply(seat, moves[rng.randrange(len(moves))])
    return [out, [event_to_dict(e) for e in g.events], g.state_hash()]


def test_generated_code_and_closures_agree_on_is(monkeypatch):
    rs = rules()
    generated = rc.program_for(rs)
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    closures = rc.program_for(rs)
    assert all(m.search is None for m in closures.moves)
    by_closures = _trace(rs)
    monkeypatch.setattr(rc, "_PROGRAMS", {rs.content_hash: generated})
    assert _trace(rs) == by_closures


@pytest.mark.parametrize("old,new,message", [
    ("[c.value for c in troops_in(cs)]", "[c.value for c in cs]",
     "'value' is an attribute of troop only, and 'c' may be a troop or tactic"),
    ("where it is tactic and .bonus > 0", "where .bonus > 0",
     "'bonus' is an attribute of tactic only, and 'it' may be a troop or tactic"),
    ("if c is troop { move c to line[other(actor)] }", "if c is tactic { move c to line[other(actor)] }",
     "type mismatch: the zone holds troop components, found a tactic"),
    ("{ move c to used }", "{ move c to line[actor] }",
     "type mismatch: the zone holds troop components, found a tactic"),
    ("else { draw 1 from deck to hand[actor] }", "else { draw 1 from deck to line[actor] }",
     "type mismatch: this zone's troop or tactic components go to a zone of troop only"),
    ("[c for c in cs if c is troop]", "[c for c in cs]",
     "function 'troops_in' returns a list of a troop or tactic but declares list<troop>"),
    ("c is troop then", "c is trop then", "unknown type 'trop' after `is`: `is` tests a component or entity type"),
    ("where it is troop)", "where it is troop and it is tactic)", "`is tactic` is never true: the value is a troop"),
    ("zone used: tactic public", "zone used: tactic | tactic public", "'tactic | tactic' names a type twice"),
    ("zone used: tactic public", "zone used: tactic | colour public",
     "'tactic | colour': 'colour' is not a component type; a union joins component types"),
    ("fn strongest(cs: list<troop | tactic>)", "fn strongest(cs: list<troop | tatic>)",
     "'troop | tatic': 'tatic' is not a component type; a union joins component types"),
], ids=["attr_unnarrowed", "where_unnarrowed", "wrong_zone_narrowed", "else_branch", "draw_into_a_narrower_zone",
        "comprehension_unfiltered",
        "unknown_type", "never_true", "twice", "not_a_component", "misspelt_member"])
def test_unions_are_checked(old, new, message, snapshot):
    """The first diagnostic is the mistake (what follows from it may be reported too)."""
    assert old in MIXED
    with pytest.raises(RulesetError) as exc:
        rules(MIXED.replace(old, new))
    assert exc.value.diagnostics[0].message == message
    assert str(exc.value.diagnostics[0]) == snapshot
