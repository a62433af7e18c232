"""The designer command line: `ludex check` (text and --json), `ludex graph` (Mermaid, DOT)
and `ludex ir`, run through Typer's CliRunner against `ludex.cli.app`."""

from __future__ import annotations

import json

import pytest
from dsl_helpers import HERE, edit
from typer.testing import CliRunner

from dsl import load_ruleset
from dsl.graph import BY_SEAT, TURN_PASSES, edges, entry
from ludex import cli as ludex_cli

if not ludex_cli.app.registered_commands:  # main() registers lazily; other test modules may have done it
    ludex_cli._register_all()
runner = CliRunner()


def ludex(*args: str):
    return runner.invoke(ludex_cli.app, list(args))


@pytest.fixture
def broken(tmp_path):
    text = edit("move c to pile\n", "move c to piles\n")
    text = edit("require c.value > 0", "require c.value > red", text)
    p = tmp_path / "broken.ludex"
    p.write_text(text, encoding="utf-8")
    return p


def test_check_clean_exits_0():
    r = ludex("check", "balloon_cup")
    assert r.exit_code == 0, r.output
    assert "balloon_cup: ok" in r.stdout
    r = ludex("check", str(HERE / "mini.ludex"))
    assert r.exit_code == 0


def test_check_all_variants_of_balloon_cup_exits_0():
    r = ludex("check", "balloon_cup", "--all-variants")
    assert r.exit_code == 0, r.output


def test_check_all_variants_of_a_folder_checks_its_own_variants(tmp_path):
    """A designer's folder: `--all-variants` checks each file of its variants/ alone."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "game.ludex").write_text((HERE / "mini.ludex").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "variants" / "fine.ludex").write_text("variant fine extends mini\n", encoding="utf-8")
    r = ludex("check", str(tmp_path), "--all-variants")
    assert r.exit_code == 0, r.output
    (tmp_path / "variants" / "broken.ludex").write_text("variant broken extends mini\nset nosuch = 3\n", encoding="utf-8")
    r = ludex("check", str(tmp_path), "--all-variants")
    assert r.exit_code == 1
    assert "broken.ludex:2:5: error: variant 'broken' sets option 'nosuch' that does not exist" in r.stderr
    assert ludex("check", str(tmp_path)).exit_code == 0  # without the flag only the game file is checked


def test_check_with_errors_exits_1_and_prints_each_with_position(broken):
    r = ludex("check", str(broken))
    assert r.exit_code == 1
    err = r.stderr
    assert f"{broken}:27:21: error: type mismatch: expected a number, found a colour" in err
    assert f"{broken}:29:13: error: unknown name 'piles'" in err
    assert "hint: did you mean 'pile'?" in err


def test_check_json_lists_every_diagnostic_for_editors(broken, snapshot):
    r = ludex("check", str(broken), "--json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data["ok"] is False
    assert [(d["line"], d["column"], d["severity"]) for d in data["diagnostics"]] == [(27, 21, "error"), (29, 13, "error")]
    for d in data["diagnostics"]:
        assert set(d) - {"fixes"} == {"severity", "message", "file", "line", "column", "snippet", "hint"}
        assert d["file"] == str(broken)
        d["file"] = "broken.ludex"
        for f in d.get("fixes", []):
            for e in f["edits"]:
                e["file"] = "broken.ludex"
    # a "did you mean" hint carries its machine-applicable fix
    assert data["diagnostics"][1]["fixes"] == [{"title": "replace 'piles' with 'pile'", "edits": [
        {"file": "broken.ludex", "line": 29, "column": 13, "end_line": 29, "end_column": 18, "text": "pile"}]}]
    assert data == snapshot


def test_check_json_clean():
    r = ludex("check", "balloon_cup", "--json", "-v", "wind")
    assert r.exit_code == 0
    assert json.loads(r.stdout) == {"ok": True, "diagnostics": []}


def test_check_json_conflicting_variants():
    r = ludex("check", "balloon_cup", "--json", "-v", "opponent_side_a", "-v", "opponent_side_b")
    assert r.exit_code == 1
    diags = json.loads(r.stdout)["diagnostics"]
    assert [d["message"] for d in diags] == ["variants 'opponent_side_a' and 'opponent_side_b' both change fn 'may_play_side'"]
    assert diags[0]["file"] == "balloon_cup/variants/opponent_side_b.ludex"


def test_check_unknown_ruleset_exits_2_with_a_hint():
    r = ludex("check", "hanabbi")
    assert r.exit_code == 2
    assert "no ruleset named 'hanabbi'" in r.stderr and "did you mean 'hanabi'?" in r.stderr


def unmarked(label: str) -> str:
    return label.removesuffix(TURN_PASSES).removesuffix(BY_SEAT)


def arrows(out: str) -> set[tuple[str, str, str]]:
    """(from, to, move) for every move named on an arrow of Mermaid or DOT output (one arrow per
    pair of steps carries its moves one per line, each `move › procedure...`, perhaps marked
    `(turn passes)` or `(by seat)`)."""
    found = set()
    for line in out.splitlines():
        if " --> " in line:
            pair, _, labels = line.strip().partition(": ")
            a, b = pair.split(" --> ")
            found |= {(a, b, unmarked(x.split(" › ")[0])) for x in labels.split("<br/>")}
        elif " -> " in line and "[label=" in line:
            pair, _, labels = line.strip().partition(" [label=")
            a, b = (x.strip('"') for x in pair.split(" -> "))
            found |= {(a, b, unmarked(x.split(" › ")[0]))
                      for x in labels.rstrip('"];').strip('"').split("\\n")}
    return found


def test_graph_mermaid_of_the_mini_game(snapshot):
    r = ludex("graph", str(HERE / "mini.ludex"))
    assert r.exit_code == 0
    assert r.stdout.startswith("stateDiagram-v2\n  [*] --> play: setup")
    assert {("play", "play", "play_card"), ("any_step", "[*]", "trigger won")} <= arrows(r.stdout)
    assert r.stdout == snapshot


def test_graph_mermaid_of_balloon_cup(snapshot):
    r = ludex("graph", "balloon_cup")
    assert r.exit_code == 0
    out = r.stdout
    assert {("[*]", "play", "setup"), ("play", "exchange_discard", "exchange"), ("play", "after_exchange", "exchange"),
            ("exchange_discard", "after_exchange", "discard_card"), ("winner_claims", "other_claims", "done"),
            ("other_claims", "winner_claims", "claim"), ("other_claims", "play", "decline"),
            ("any_step", "winner_claims", "trigger flight"), ("any_step", "[*]", "trigger third_trophy"),
            ("any_step", "[*]", "trigger stalled")} <= arrows(out)
    assert len(out.splitlines()) == len(set(out.splitlines()))  # one arrow per pair of steps
    assert out == snapshot


def test_graph_dot_of_balloon_cup(snapshot):
    r = ludex("graph", "balloon_cup", "--dot")
    assert r.exit_code == 0
    out = r.stdout
    assert out.startswith('digraph "balloon_cup" {') and out.rstrip().endswith("}")
    assert {("play", "exchange_discard", "exchange"), ("ANY", "END", "trigger third_trophy")} <= arrows(out)
    assert out == snapshot


def test_graph_with_a_variant_adds_its_moves():
    r = ludex("graph", "balloon_cup", "-v", "wind")
    assert {("play", "play", "wind"), ("after_exchange", "play", "wind")} <= arrows(r.stdout)
    assert not [a for a in arrows(ludex("graph", "balloon_cup").stdout) if a[2] == "wind"]


def test_graph_starts_where_the_setup_goes_and_names_the_procedures_on_the_way():
    """Weather Machine's setup goes to its supply round; the end of a round (phases B and C) is a
    procedure that `done_actions` reaches through `next_turn`; no self-loop is drawn for a move
    whose procedures always change step."""
    rs = load_ruleset("weather_machine")
    assert entry(rs) == [("supply_round", "setup")]
    es = edges(rs)
    assert ("act", "turn_start", "done_actions › next_turn › end_round › begin_turn" + BY_SEAT) in es
    assert ("act", "final_actions", "done_actions › next_turn › end_round" + BY_SEAT) in es
    assert not [e for e in es if e[0] == e[1] and e[2].startswith(("go", "done_actions"))]
    out = ludex("graph", "weather_machine").stdout
    assert out.startswith("stateDiagram-v2\n  [*] --> supply_round: setup\n")
    assert "\\n" not in out  # Mermaid breaks lines with <br/>


def test_graph_marks_where_the_turn_passes_to_another_seat():
    """`end turn` (Balloon Cup's place, Hanabi's actions) is marked `(turn passes)`, `goto STEP by
    SEAT` (Weather Machine's next seat in turn order) `(by seat)`; a move that keeps the seat is not."""
    bc = edges(load_ruleset("balloon_cup"))
    assert ("play", "play", "place" + TURN_PASSES) in bc
    assert ("play", "exchange_discard", "exchange") in bc
    assert ("act", "turn_start", "done_actions › next_turn › begin_turn" + BY_SEAT) in edges(load_ruleset("weather_machine"))
    out = ludex("graph", "hanabi").stdout
    assert "turn --> turn: discard (turn passes)<br/>" in out


def test_graph_shows_that_discard_card_can_stay_in_exchange_discard():
    es = edges(load_ruleset("balloon_cup"))
    assert ("exchange_discard", "exchange_discard", "discard_card") in es


def test_graph_of_a_broken_ruleset_exits_1(broken):
    r = ludex("graph", str(broken))
    assert r.exit_code == 1 and "unknown name 'piles'" in r.stderr


def test_ir_command_prints_the_content_hash_and_ir():
    r = ludex("ir", "balloon_cup")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["content_hash"] == load_ruleset("balloon_cup").content_hash
    assert data["ir"]["name"] == "balloon_cup"
    assert [s["name"] for s in data["ir"]["steps"]] == ["play", "exchange_discard", "after_exchange", "winner_claims", "other_claims"]
