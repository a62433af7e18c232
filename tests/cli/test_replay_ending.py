"""`ludex replay --final` says why the game ended: the rule that ran `end game`, where it
stands in the rule file, what it cites, and who won (issue: games people can read)."""

from __future__ import annotations

import json
import re

from cli_helpers import TOY, ludex


def test_the_final_board_says_which_rule_ended_the_game_and_why(tmp_path):
    assert ludex("simulate", str(TOY), "--games", "1", "--seed", "5", "--save", str(tmp_path)).exit_code == 0
    log = tmp_path / "game-0001.jsonl"
    shown = json.loads(ludex("replay", str(log), "--final", "--json").stdout)
    winner = shown["outcome"]["winners"][0]
    reason = {0: "drew an ace", 1: "no ace"}[winner]
    # the toy's only `end game` statements: in `move draw_card` (line 19), at lines 23 and 25
    assert shown["ending"]["rule"] == "move draw_card"
    file = TOY / "game.ludex"
    assert shown["ending"]["rule_source"] == f"{file}:19"
    assert shown["ending"]["source"] == {0: f"{file}:23", 1: f"{file}:25"}[winner]
    assert shown["ending"]["citation"].startswith("draw the top card: an ace wins")
    board = ludex("replay", str(log), "--final")
    assert board.exit_code == 0, board.output
    last = board.stdout.strip().splitlines()[-1]
    assert last == (f"Game over: {reason[0].upper()}{reason[1:]} (move draw_card at {file}:19: draw the top "
                    f"card: an ace wins for the first seat, anything else for the second). Winners: seat {winner}.")


def test_a_running_game_has_no_ending(tmp_path):
    assert ludex("simulate", str(TOY), "--games", "1", "--seed", "5", "--save", str(tmp_path)).exit_code == 0
    at_start = json.loads(ludex("replay", str(tmp_path / "game-0001.jsonl"), "--at", "2", "--json").stdout)
    assert at_start["ending"] is None
    assert "Game over" not in ludex("replay", str(tmp_path / "game-0001.jsonl"), "--at", "2").stdout


def test_the_replayed_board_is_drawn_from_the_rules_display_hints(tmp_path):
    assert ludex("simulate", "balloon_cup", "--games", "1", "--seed", "5", "--save", str(tmp_path)).exit_code == 0
    board = ludex("replay", str(tmp_path / "game-0001.jsonl"), "--at", "20", "--seat", "0")
    assert board.exit_code == 0, board.output
    hand = next(line for line in board.stdout.splitlines() if line.startswith("hand[0] (8): "))
    assert re.fullmatch(r"hand\[0\] \(8\): (\[(red|yellow|green|blue|gray) \d+\] ?)+", hand.strip()), hand  # `display card label colour, value`
    assert "trophy_row (5): ●red ●yellow ●green ●blue ●gray" in board.stdout  # chips, not names
