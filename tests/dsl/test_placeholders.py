"""Placeholders (docs/language.md 4.15): declarations whose doc string starts with PLACEHOLDER
are counted by `ludex check` as a note, listed by `ludex placeholders` with file:line, and a
variant that replaces one with a stated value takes it off the list."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dsl import load_ruleset
from dsl.placeholders import count_by_kind, placeholders
from ludex import cli as ludex_cli

if not ludex_cli.app.registered_commands:
    ludex_cli._register_all()
runner = CliRunner()

GAME = '''game shop_demo
const prices = {1: 2, 2: 3} "PLACEHOLDER(cost): price of a good by its tier"
const reward = 5 "PLACEHOLDER(reward): points per good; no source"
option start: int = 6 "PLACEHOLDER: starting coins"
const goods_to_win = 5 "stated by the rules"
var coins: per seat int = option.start
var goods: per seat int = 0
step shop then end turn
move buy(tier in keys(prices)) during shop require coins[actor] >= prices[tier] else "not enough coins" {
  coins[actor] -= prices[tier]
  goods[actor] += 1
  if goods[actor] == goods_to_win { end game scores {s: goods[s] * reward for s in seats} "five goods" }
}
move earn() during shop otherwise { coins[actor] += 3 }
'''
PRINTED = '''variant printed extends shop_demo
replace const prices = {1: 1, 2: 4} "the printed price list"
'''
STILL = '''variant guess extends shop_demo
replace const reward = 4 "PLACEHOLDER(reward): a better guess"
'''


@pytest.fixture
def shop(tmp_path):
    root = tmp_path / "shop_demo"
    (root / "variants").mkdir(parents=True)
    (root / "game.ludex").write_text(GAME, encoding="utf-8")
    (root / "variants" / "printed.ludex").write_text(PRINTED, encoding="utf-8")
    (root / "variants" / "guess.ludex").write_text(STILL, encoding="utf-8")
    return root


def ludex(*args: str):
    return runner.invoke(ludex_cli.app, list(args))


def test_each_placeholder_has_its_line_kind_and_text(shop):
    items = placeholders(load_ruleset(str(shop)))
    assert [(p.decl, p.name, p.kind, p.line) for p in items] == [
        ("const", "prices", "cost", 2), ("const", "reward", "reward", 3), ("option", "start", "", 4)]
    assert items[0].text == "price of a good by its tier"
    assert items[0].file.endswith("game.ludex")
    assert count_by_kind(items) == {"cost": 1, "reward": 1, "": 1}


def test_a_variant_stating_the_value_removes_the_placeholder(shop):
    names = [p.name for p in placeholders(load_ruleset(str(shop), ["printed"]))]
    assert names == ["reward", "start"]


def test_a_variant_replacing_it_with_another_guess_keeps_it_at_the_variants_line(shop):
    items = placeholders(load_ruleset(str(shop), ["guess"]))
    reward = next(p for p in items if p.name == "reward")
    assert reward.file.endswith("guess.ludex") and reward.line == 2 and reward.text == "a better guess"


def test_check_reports_the_count_as_a_note_and_exits_0(shop):
    r = ludex("check", str(shop))
    assert r.exit_code == 0, r.output
    assert ": ok" in r.stdout
    assert "note: " in r.stdout and "has 3 placeholders (1 cost, 1 reward, 1 unkinded)" in r.stdout
    assert "error" not in r.output


def test_check_json_counts_by_kind_and_stays_ok(shop):
    r = ludex("check", str(shop), "--json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["ok"] is True and data["diagnostics"] == []
    assert data["placeholders"] == {"count": 3, "by_kind": {"cost": 1, "reward": 1, "": 1}}


def test_placeholders_command_and_check_flag_list_file_line_and_text(shop):
    r = ludex("placeholders", str(shop))
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[0].endswith("game.ludex:2: placeholder(cost) const prices: price of a good by its tier")
    assert lines[2].endswith("game.ludex:4: placeholder option start: starting coins")
    r2 = ludex("check", str(shop), "--placeholders")
    assert all(line in r2.stdout for line in lines[:3])
    data = json.loads(ludex("placeholders", str(shop), "--json").stdout)
    assert data["count"] == 3 and data["items"][1]["name"] == "reward"


def test_a_ruleset_without_placeholders_gets_no_note():
    r = ludex("check", "hanabi")
    assert r.exit_code == 0 and "placeholder" not in r.stdout
    assert placeholders(load_ruleset("hanabi")) == []
