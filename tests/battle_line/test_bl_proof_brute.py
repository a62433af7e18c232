"""The claim proof (the ruleset's `provable`, L9) against brute force on random positions
(Hypothesis): the independent model of formations in bl_helpers tries every completion of the
opponent's side with the unseen troops, and every choice for every morale card (L13); the
ruleset answers with its direct formation search. Most troops lie face up on a discard pile, so
the brute force stays small; the positions need not be reachable in play, only well formed."""

from __future__ import annotations

from bl_helpers import COLOURS, MORALE, TROOPS, could_beat, flag, parse, put, ruleset, strength
from hypothesis import example, given, settings
from hypothesis import strategies as st

from runtime import Game
from runtime.builtins_search import ruleset_fn

WILD = sorted(MORALE)


@st.composite
def positions(draw: st.DrawFn, one_wild_opposite: bool = False, wild_opposite: int = 0) -> dict:
    """Flag 1: seat 0's complete side, seat 1's side (complete or not), Mud and Fog, the unseen
    troops (the rest lie on seat 0's discard pile). `one_wild_opposite`: seat 1's side is
    incomplete and holds exactly one morale card, seat 0's none. `wild_opposite` (2 or 3): seat
    1's side holds that many morale cards (complete or not; a side of three needs Mud to be
    incomplete), seat 0's at most one; fewer unseen troops, so that brute force over every
    choice of every card stays small."""
    mud, fog = draw(st.booleans()), draw(st.booleans())
    if wild_opposite == 3:
        mud = draw(st.booleans()) or draw(st.booleans())  # mostly Mud: three morale cards and a free slot
    need = 4 if mud else 3
    # a few colours and a band of values, so that runs, sets and colours are common among the few
    # unseen troops; the troops outside the band lie on the table
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=4, unique=True))
    low = draw(st.integers(1, 8))
    band = [t for t in TROOPS if parse(t)[0] in colours and low <= parse(t)[1] <= low + draw(st.integers(2, 9))]
    troops = draw(st.permutations(band)) + [t for t in TROOPS if t not in band]
    wild = draw(st.lists(st.sampled_from(WILD), max_size=2, unique=True))
    mine_wild = wild[: draw(st.integers(0, len(wild)))]
    theirs_wild = [w for w in wild if w not in mine_wild]
    if one_wild_opposite:
        mine_wild, theirs_wild = [], [draw(st.sampled_from(WILD))]
    if wild_opposite:
        theirs_wild = draw(st.lists(st.sampled_from(WILD), min_size=wild_opposite, max_size=wild_opposite, unique=True))
        mine_wild = [w for w in WILD if w not in theirs_wild][: draw(st.integers(0, 1))]
    mine = mine_wild[:need] + troops[: need - len(mine_wild[:need])]
    rest = troops[need - len(mine_wild[:need]):]
    k = (draw(st.integers(1, need - 1)) if one_wild_opposite
         else draw(st.integers(wild_opposite, need)) if wild_opposite else draw(st.integers(0, need)))
    theirs_wild = theirs_wild[:k]
    theirs = theirs_wild + rest[: k - len(theirs_wild)]
    rest = rest[k - len(theirs_wild):]
    most = 7 if wild_opposite else 12 if need - k < 3 else 9
    unseen = [t for t in rest[: draw(st.integers(0, most))] if t in band]
    return {"mud": mud, "fog": fog, "need": need, "mine": mine, "theirs": theirs, "unseen": unseen,
            "table": [c for c in rest if c not in unseen], "first": draw(st.sampled_from([0, 1]))}


def build(p: dict) -> Game:
    g = Game.new(ruleset(), 2, seed=0)
    for c in ("troop_deck", "hand[0]", "hand[1]"):
        put(g, "discard[0]", [x.name for x in g.st.zones[next(z for z in g.st.zone_refs if z.key == c).idx]])
    put(g, "hand[1]", p["unseen"][:7])
    put(g, "troop_deck", p["unseen"][7:])
    put(g, "flag1.side[0]", p["mine"])
    put(g, "flag1.side[1]", p["theirs"])
    if p["mud"]:
        put(g, "flag1.env[0]", ["mud"])
    if p["fog"]:
        put(g, "flag1.env[1]", ["fog"])
    f = flag(g, 1)
    g.st.set_member(f, "done_at", [0, 1] if p["first"] == 0 else [1, 0])
    if len(p["theirs"]) < p["need"]:
        g.st.member(f, "done_at")[1] = None
    return g


def brute_provable(p: dict) -> bool:
    mine = strength(p["mine"], p["fog"])
    if len(p["theirs"]) == p["need"]:
        theirs = strength(p["theirs"], p["fog"])
        return mine > theirs or (mine == theirs and p["first"] == 0)
    return could_beat(p["theirs"], p["unseen"], p["need"], mine, p["fog"]) is None


@settings(max_examples=150, deadline=None)
@given(p=positions())
def test_provable_agrees_with_brute_force(p: dict) -> None:
    g = build(p)
    assert ruleset_fn(g.st, "provable")(flag(g, 1), 0) is brute_provable(p)


@settings(max_examples=150, deadline=None)
@given(p=positions())
def test_strength_agrees_with_every_choice_of_the_morale_cards(p: dict) -> None:
    g = build(p)
    comps = {c.name: c for c in g.st.comps}
    for cards in (p["mine"], p["theirs"]):
        if cards:
            got = ruleset_fn(g.st, "strength")([comps[c] for c in cards], p["fog"])
            assert got == strength(cards, p["fog"]), cards


@settings(max_examples=150, deadline=None)
@given(p=positions(one_wild_opposite=True))
# a Leader beside blue-5 with blue-6 unseen is a blue wedge: the card takes the troop's colour
@example(p={"mud": False, "fog": False, "need": 3, "mine": ["red-1", "red-2", "red-4"], "theirs": ["alexander", "blue-5"],
            "unseen": ["blue-6"], "table": [t for t in TROOPS if t not in ("red-1", "red-2", "red-4", "blue-5", "blue-6")],
            "first": 0})
def test_provable_against_one_morale_card_agrees_with_brute_force(p: dict) -> None:
    g = build(p)
    assert ruleset_fn(g.st, "provable")(flag(g, 1), 0) is brute_provable(p)


@settings(max_examples=60, deadline=None)
@given(p=positions(wild_opposite=2))
# Alexander and Cavalry alone, red-7 unseen: red 7-8-9 (the Leader as red-9) beats blue 5-6-7
@example(p={"mud": False, "fog": False, "need": 3, "mine": ["blue-5", "blue-6", "blue-7"],
            "theirs": ["alexander", "companion_cavalry"], "unseen": ["red-7", "green-1"],
            "table": [t for t in TROOPS if t not in ("blue-5", "blue-6", "blue-7", "red-7", "green-1")], "first": 0})
def test_provable_against_two_morale_cards_agrees_with_brute_force(p: dict) -> None:
    g = build(p)
    assert ruleset_fn(g.st, "provable")(flag(g, 1), 0) is brute_provable(p)


@settings(max_examples=30, deadline=None)
@given(p=positions(wild_opposite=3))
def test_provable_against_three_morale_cards_agrees_with_brute_force(p: dict) -> None:
    g = build(p)
    assert ruleset_fn(g.st, "provable")(flag(g, 1), 0) is brute_provable(p)
