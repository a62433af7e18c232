"""The claim proof (the ruleset's `provable`, L9, L13, E-BL1) against the hand-written engine's
`Game.provable` (the anchor, `<repo>/../shared/anchors/battle_line.py`) on many seeded random
positions at one flag: Mud or Fog or neither, seat 0's side complete (troops and morale cards),
seat 1's side holding none to all of its cards (morale cards too), some troops face up on a
discard pile and the rest unseen. Where the anchor is absent (as beside CI's checkout), its answers
recorded in `anchor_provable_answers.txt` stand in for it (one 0/1 per position, in order); where
it is present, the record is checked against it too."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from bl_helpers import TROOPS, flag, put, ruleset

from runtime import Game
from runtime.builtins_search import ruleset_fn

ANCHOR = Path(__file__).resolve().parents[2].parent / "shared" / "anchors" / "battle_line.py"
RECORDED = Path(__file__).resolve().parent / "anchor_provable_answers.txt"
POSITIONS = 600

MORALE = ["alexander", "darius", "companion_cavalry", "shield_bearers"]


def _anchor():
    spec = importlib.util.spec_from_file_location("anchor_battle_line", ANCHOR)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _position(rng: random.Random) -> tuple[dict, list[str]]:
    """A flag in the anchor's terms (sides, mud/fog owner, who completed first) and the troops
    on seat 0's discard pile."""
    env = rng.choice(["", "", "mud", "fog"])
    need = 4 if env == "mud" else 3
    # a few colours and a band of values, so that runs, sets and colours are common
    troops = TROOPS[:]
    rng.shuffle(troops)
    morale = MORALE[:]
    rng.shuffle(morale)
    leaders = [m for m in morale if m in ("alexander", "darius")]
    others = [m for m in morale if m not in leaders]
    wild_mine = rng.choice([0, 0, 0, 1])
    wild_theirs = rng.choice([0, 0, 1, 1, 2])
    pick_mine = ([leaders[0]] if rng.random() < 0.5 else [others[0]])[:wild_mine]
    rest_wild = [leaders[1]] + [o for o in others if o not in pick_mine]
    pick_theirs = rng.sample(rest_wild, wild_theirs)
    mine = pick_mine + [troops.pop() for _ in range(need - len(pick_mine))]
    k = rng.randint(len(pick_theirs), need)
    theirs = pick_theirs + [troops.pop() for _ in range(k - len(pick_theirs))]
    rng.shuffle(theirs)
    table = troops[: rng.choice([0, 10, 30, 45, 50])]
    spec: dict = {"sides": [mine, theirs], "first": rng.choice([0, 1])}
    if env:
        spec[env] = rng.choice([0, 1])
    return spec, table


def _ludex(spec: dict, table: list[str]) -> Game:
    g = Game.new(ruleset(), 2, seed=0)
    put(g, "discard[0]", table)
    for s in (0, 1):
        put(g, f"flag1.side[{s}]", spec["sides"][s])
    for env in ("mud", "fog"):
        if env in spec:
            put(g, f"flag1.env[{spec[env]}]", [env])
    need = 4 if "mud" in spec else 3
    first = spec["first"]
    done = [None, None]
    for s in (first, 1 - first):  # the anchor stamps the first seat's side before the other
        if len(spec["sides"][s]) >= need:
            done[s] = 0 if s == first else 1
    g.st.set_member(flag(g, 1), "done_at", done)
    return g


def _positions() -> list[tuple[dict, list[str]]]:
    rng = random.Random(27)
    return [_position(rng) for _ in range(POSITIONS)]


def test_provable_agrees_with_the_anchor_on_random_positions() -> None:
    recorded = [c == "1" for c in RECORDED.read_text().strip()]
    assert len(recorded) == POSITIONS
    hand = _anchor() if ANCHOR.is_file() else None
    for (spec, table), want in zip(_positions(), recorded):
        if hand is not None:  # the record is the anchor's own answer
            assert hand.Game.from_position(flags=[spec], discards=[table, []], seat=0).provable(0, 0) is want, (spec, table)
        g = _ludex(spec, table)
        got = ruleset_fn(g.st, "provable")(flag(g, 1), 0)
        assert got is want, (spec, table)
    assert min(recorded.count(True), recorded.count(False)) > 100  # both answers are common: the positions test something
