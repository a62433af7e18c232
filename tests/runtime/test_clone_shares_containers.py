"""A clone shares the containers of its original (lists and maps held by variables and entity
members) until a rule of either changes one in place: that rule takes its roots as its own
first (`State.own`). These tests change copies through moves of every bundled ruleset and
check that the others never see it, and that a copy on write changes no rule's meaning."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl import bundled_rulesets, load_from_sources, load_ruleset
from runtime import Game

CASES = [(b.name, v) for b in bundled_rulesets() for v in ["", *b.variants]]


def _play(g: Game, rng: random.Random, plies: int) -> int:
    n = 0
    while not g.terminal and n < plies:
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        g.apply(seat, moves[rng.randrange(len(moves))])
        n += 1
    return n


def _look(g: Game) -> tuple:
    return g.state_hash(), g.view(None), g.view(0)


@pytest.mark.parametrize(("name", "variant"), CASES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), before=st.integers(0, 60), after=st.integers(1, 40))
def test_moves_on_a_clone_never_reach_the_original_nor_the_reverse(
    name: str, variant: str, seed: int, before: int, after: int
) -> None:
    rs = load_ruleset(name, [variant] if variant else [])
    g = Game.new(rs, rs.seats[1], {}, seed=seed)
    rng = random.Random(seed)
    _play(g, rng, before)
    mine = _look(g)
    c = g.clone()
    theirs = _look(c)
    assert theirs == mine
    _play(c, rng, after)  # the clone changes its containers in place
    assert _look(g) == mine, "a move on the clone reached the original"
    changed = _look(c)
    cc = c.clone()
    _play(g, rng, after)  # and the original changes its own
    assert _look(c) == changed, "a move on the original reached the clone"
    _play(cc, rng, after)
    assert _look(c) == changed, "a move on the clone's clone reached the clone"


def test_containers_are_shared_until_a_move_changes_them_in_place() -> None:
    rs = load_ruleset("weather_machine")
    g = Game.new(rs, 2, {}, seed=4)
    rng = random.Random(4)
    _play(g, rng, 30)
    c = g.clone()
    assert g.st.callables.shares
    assert all(c.st.g[n] is g.st.g[n] for n in g.st.loose)  # no copy yet
    before = {n: repr(g.st.g[n]) for n in g.st.loose} | {m: repr(col) for m, col in g.st.ev.items()}
    _play(
        c, rng, 40
    )  # per-seat lists (`cp[s] += ..`), maps in lists (`vouchers[s][v] -= ..`), members (`x.on[i] = ..`)
    assert {n: repr(g.st.g[n]) for n in g.st.loose} | {m: repr(col) for m, col in g.st.ev.items()} == before
    assert any(c.st.g[n] is not g.st.g[n] for n in g.st.loose)


SHARES = """\
game shares "Shares"
seats 2

var score: per seat int = 0 "points"
var seen: int = 0 "what a local read of score saw"
var copied: per seat int = 0 "a list assigned whole"

setup "the first seat starts" { turn 0 }

step play "play" then end turn

move bump() during play "a local holds score; score then changes in place" {
  let mine = score
  score[actor] += 1
  seen = mine[actor]
}
"""

# rules after which clones copy every container at once: a copy on write would part what the
# rules hold as one list
KEEP = (
    SHARES.replace("game shares", "game keep")
    + """
move keep() during play "copied becomes score itself" { copied = score }
"""
)
ALIAS = (
    SHARES.replace("game shares", "game alias")
    + """
move alias() during play "copied becomes score itself, then changes in place" {
  copied = score
  copied[0] += 10
}
"""
)
LOCAL = (
    SHARES.replace("game shares", "game local")
    + """
move local() during play "a local's list changed in place" {
  let xs = score
  xs[1] += 100
}
"""
)

BINDER = (
    SHARES.replace("game shares", "game binder")
    + """
var rows: list<list<int>> = [[0, 0], [0, 0]] "lists in a list"

move poke(r in rows) during play "a parameter holds a list of rows; rows then changes in place" {
  rows[0][0] += 1
  seen = r[0]
}
"""
)


def _game(text: str) -> Game:
    return Game.new(load_from_sources(((f"{text.split()[1]}/game.ludex", text),)), seed=1)


def _do(g: Game, name: str) -> None:
    seat = g.decision().seats[0]
    g.apply(seat, next(m for m in g.legal_moves(seat) if m.name == name))


@pytest.mark.parametrize(
    ("text", "shares"), [(SHARES, True), (KEEP, False), (ALIAS, False), (LOCAL, False), (BINDER, False)]
)
def test_a_rule_reads_what_it_changed_in_place_in_a_clone_as_in_the_original(text: str, shares: bool) -> None:
    g = _game(text)
    assert g.st.callables.shares == shares
    _do(g, "bump")
    c = g.clone()
    for x in (c, g):  # the clone first: the original's containers are shared when it moves
        _do(x, "bump")
        assert x.st.g["seen"] == 1 and x.st.g["score"] == [1, 1]
    assert g.state_hash() == c.state_hash()


@pytest.mark.parametrize("move", ["keep", "alias"])
def test_two_roots_holding_one_list_stay_one_in_the_original_after_a_clone(move: str) -> None:
    g = _game(KEEP if move == "keep" else ALIAS)
    _do(g, move)  # seat 0: copied is score
    c = g.clone()
    _do(g, "bump")  # seat 1, in the original: both names still hold one list
    assert g.st.g["copied"] is g.st.g["score"] and g.st.g["score"][1] == 1
    _do(c, "bump")
    assert c.st.g["score"][1] == 1 and c.st.g["copied"][1] == 0  # a clone's copy parts them, as it always has


def test_a_local_list_changed_in_place_makes_clones_copy_every_container() -> None:
    g = _game(LOCAL)
    _do(g, "bump")
    c = g.clone()
    assert c.st.g["score"] is not g.st.g["score"]
    _do(c, "local")
    assert c.st.g["score"] == [1, 100] and g.st.g["score"] == [1, 0]


BINDER_BY_FUNCTION = BINDER.replace("game binder", "game binderfn").replace("poke(r in rows)", "poke(r in all_rows())") + """
fn all_rows() -> list<list<int>> "the rows, through a function" = rows
"""


@pytest.mark.parametrize("text", [BINDER, BINDER_BY_FUNCTION])
def test_a_parameter_sees_what_the_move_changed_in_place_in_a_clone_as_in_the_original(text: str) -> None:
    g = _game(text)
    assert not g.st.callables.shares
    _do(g, "poke")  # the first row: the parameter is that very list
    c = g.clone()
    for x in (c, g):
        _do(x, "poke")
        assert x.st.g["seen"] == 2
    assert g.state_hash() == c.state_hash()
