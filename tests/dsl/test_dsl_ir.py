"""The compiled IR: an immutable attrs Ruleset with a stable content hash; a compact summary
of Balloon Cup's IR is kept as a syrupy snapshot."""

from __future__ import annotations

import json

import attrs
import pytest
from dsl_helpers import MINI, edit

from dsl import load_from_sources, load_ruleset
from dsl.ir import content_hash, to_data
from dsl.loader import resolve

# load_from_sources is memoised; the undecorated function compiles afresh every call
compile_fresh = load_from_sources.__wrapped__


def _lit(node):
    return node.args[0] if node is not None and node.op == "lit" else (node.op if node is not None else None)


def summary(rs) -> dict:
    """What a designer declared, in declaration order: enough to notice any change of rules."""
    return {
        "name": rs.name, "title": rs.title, "variants": list(rs.variants), "seats": list(rs.seats),
        "options": [(o.name, str(o.type.name) + ("?" if o.type.optional else ""), _lit(o.default)) for o in rs.options],
        "enums": {e.name: list(e.values) for e in rs.enums},
        "consts": [c.name for c in rs.consts],
        "component_types": [c.name for c in rs.component_types],
        "component_sets": [c.name for c in rs.component_sets],
        "zones": [(z.name, z.holds, z.visibility, z.per_seat, z.ordered) for z in rs.zones],
        "entity_types": [e.name for e in rs.entity_types],
        "entity_sets": [e.name for e in rs.entity_sets],
        "vars": [v.name for v in rs.vars],
        "fns": [f.name for f in rs.fns],
        "procs": [p.name for p in rs.procs],
        "steps": [(s.name, s.then.op if s.then is not None else None) for s in rs.steps],
        "moves": [{"name": m.name, "params": [b.name for b in m.params], "steps": list(m.steps), "forced": m.forced,
                   "otherwise": m.otherwise, "requires": len(m.requires)} for m in rs.moves],
        "triggers": [t.name for t in rs.triggers],
    }


def test_balloon_cup_ir_summary(snapshot):
    s = summary(load_ruleset("balloon_cup"))
    # What ../shared/rules/balloon_cup.md asks of the IR: 2 players (section 1), five colours
    # (B1), cards, cubes and trophies (B1, B2), four two-sided tiles of plains or mountain (B2, B3).
    assert (s["name"], s["seats"]) == ("balloon_cup", [2, 2])
    assert s["enums"] == {"colour": ["red", "yellow", "green", "blue", "gray"], "terrain": ["plains", "mountain"]}
    assert s["component_sets"] == ["cards", "cubes", "trophies"] and s["entity_sets"] == ["tiles"]
    assert {"place", "exchange", "claim"} <= {m["name"] for m in s["moves"]}
    assert s == snapshot


def test_balloon_cup_with_wind_and_no_three_for_one_ir_summary(snapshot):
    rs = load_ruleset("balloon_cup", ["wind", "no_three_for_one"])
    s = summary(rs)
    assert s["variants"] == ["wind", "no_three_for_one"]
    assert ("three_for_one", "bool", False) in s["options"]
    assert [m["name"] for m in s["moves"]][-1] == "wind"
    assert s == snapshot


def test_ir_is_frozen():
    rs = load_ruleset("balloon_cup")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rs.name = "other"  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rs.moves[0].name = "other"  # type: ignore[misc]
    assert isinstance(rs.moves, tuple)


def test_ir_data_is_plain_json():
    rs = load_ruleset("balloon_cup")
    data = to_data(rs.to_data())
    text = json.dumps(data, sort_keys=True)
    assert json.loads(text) == data
    assert rs.content_hash == content_hash(rs.to_data())
    assert len(rs.content_hash) == 64 and int(rs.content_hash, 16) >= 0


def _bc_sources(text=None):
    path = resolve("balloon_cup")
    parts = tuple((f"balloon_cup/{p.name}", p.read_text(encoding="utf-8"))  # policies.ludex: part of the game
                  for p in sorted(path.parent.glob("*.ludex")) if p.name != "game.ludex")
    return (("balloon_cup/game.ludex", text if text is not None else path.read_text(encoding="utf-8")),) + parts


def test_content_hash_is_stable_across_two_compilations():
    a = compile_fresh(_bc_sources())
    b = compile_fresh(_bc_sources())
    assert a is not b
    assert a.content_hash == b.content_hash
    assert a == b
    assert load_ruleset("balloon_cup").content_hash == a.content_hash


def test_content_hash_changes_when_the_rules_change():
    base = compile_fresh(_bc_sources()).content_hash
    text = _bc_sources()[0][1]
    changed = text.replace("option three_for_one: bool = true", "option three_for_one: bool = false")
    assert changed != text
    assert compile_fresh(_bc_sources(changed)).content_hash != base
    reworded = text.replace('"B22: three trophies win at once"', '"B22: three trophies end the game"')
    assert reworded != text
    assert compile_fresh(_bc_sources(reworded)).content_hash != base


def test_content_hash_differs_per_variant_and_for_the_mini_game():
    hashes = {load_ruleset("balloon_cup", v).content_hash for v in ([], ["wind"], ["prevention"], ["no_three_for_one"])}
    assert len(hashes) == 4
    mini = compile_fresh((("mini.ludex", MINI),))
    assert mini.content_hash == compile_fresh((("mini.ludex", MINI),)).content_hash
    assert compile_fresh((("mini.ludex", edit("int = 3", "int = 4")),)).content_hash != mini.content_hash


def test_a_variant_set_option_changes_the_default_in_the_ir():
    rs = load_ruleset("balloon_cup", ["no_three_for_one"])
    assert rs.variants == ("no_three_for_one",)
    assert rs.option("three_for_one").default.args[0] is False
