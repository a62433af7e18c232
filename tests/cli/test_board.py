"""The terminal board (`ludex.board`) drawn from a view and the rules' display hints: cards in
brackets by their label, chips as counted dots, a stack as its top, a face-down fan as `[?]`
with its slots' marks, colours from `display ENUM colours`."""

from __future__ import annotations

import io

from rich.console import Console

from ludex.board import board, board_text

HINTS = {"colours": {"red": "#c62828"}, "layouts": {"hand": "fan", "pile": "stack"}, "labels": {"card": ["colour", "value"]}}
VIEW = {
    "ruleset": "toy", "ply": 3, "step": "play", "actor": 0, "seat": 0, "terminal": False,
    "zones": {
        "pile": {"count": 3, "components": [{"name": "red-12", "kind": "card", "colour": "red", "value": 12},
                                             {"name": "red-2", "kind": "card", "colour": "red", "value": 2},
                                             {"name": "blue-1", "kind": "card", "colour": "blue", "value": 1}]},
        "hand[1]": {"count": 3, "slots": [{"slot": 1, "marks": [["colour", "red", True]]}]},
        "bag": {"count": 3, "components": [{"name": "red#12", "kind": "cube", "colour": "red"},
                                            {"name": "red#2", "kind": "cube", "colour": "red"},
                                            {"name": "blue#1", "kind": "cube", "colour": "blue"}]},
        "deck": {"count": 9},
        "tile1.side[0]": {"count": 1, "components": [{"name": "red-12", "kind": "card", "colour": "red", "value": 12}]},
    },
    "entities": {"tile1": {"name": "tile1", "index": 0, "alive": True, "number": 1, "terrain": "plains", "last": None}},
    "vars": {"score": 2},
}


def test_cards_chips_stacks_and_fans_read_apart():
    text = board_text(VIEW, width=60, hints=HINTS)
    assert text.splitlines() == [
        "toy · ply 3 · step play · seat 0 to act",
        "pile (3): [red 12] +2 below",  # a stack: its top, then how many lie below
        "hand[1] (3): [?] [?|red✓] [?]",  # face down, with the public marks of its slots
        "bag (3): ●●red ●blue",  # chips counted by value: a cube red#12 never reads as a card
        "deck: 9 hidden",
        "tile1 · number 1 · plains",
        "  side[0] (1): [red 12]",
        "variables: score 2",
    ]
    plain = board_text(VIEW, width=60)  # without hints: cards by name, every zone a row
    assert "pile (3): [red-12] [red-2] [blue-1]" in plain and "bag (3): ●●red ●blue" in plain


def test_a_hinted_colour_colours_its_cards_and_chips():
    out = io.StringIO()
    Console(file=out, width=60, color_system="truecolor", force_terminal=True).print(board(VIEW, hints=HINTS))
    drawn = out.getvalue()
    assert "38;2;198;40;40" in drawn  # #c62828, the rules' red
    out = io.StringIO()
    Console(file=out, width=60, color_system="truecolor", force_terminal=True).print(board(VIEW))
    assert "38;2;198;40;40" not in out.getvalue()  # without the hint, the terminal's own red


def test_a_zone_shown_as_grid_is_drawn_in_aligned_columns_as_wide_as_the_board():
    laid = [{"name": f"{c}-{v}", "kind": "card", "colour": c, "value": v}
            for c, v in (("red", 1), ("blue", 12), ("red", 3), ("blue", 4), ("red", 10), ("blue", 6), ("red", 7))]
    view = {"ruleset": "toy", "ply": 7, "step": "play", "actor": 0, "seat": 0, "terminal": False,
            "zones": {"table": {"count": 7, "components": laid}, "hand[0]": {"count": 2, "components": laid[:2]},
                      "hand[1]": {"count": 2}},
            "entities": {}, "vars": {}}
    hints = dict(HINTS, layouts={"table": "grid", "hand": "grid"})
    assert board_text(view, width=40, hints=hints).splitlines()[1:] == [
        "table (7):",  # its name, then the cards in columns as wide as the widest card
        "  [red 1]    [blue 12]  [red 3]",
        "  [blue 4]   [red 10]   [blue 6]",
        "  [red 7]",
        "hand[0] (2):",
        "  [red 1]    [blue 12]",
        "hand[1]: 2 hidden",  # a grid the viewer cannot see: its count, as a row says it
    ]
    assert board_text(view, width=80, hints=hints).splitlines()[2] == (
        "  [red 1]    [blue 12]  [red 3]    [blue 4]   [red 10]   [blue 6]   [red 7]")
    narrow = board_text(view, width=12, hints=hints).splitlines()
    assert narrow[narrow.index("table (7):") + 1:][:7] == ["  " + p for p in
                                                           ("[red 1]", "[blue 12]", "[red 3]", "[blue 4]", "[red 10]", "[blue 6]", "[red 7]")]
    assert "table (7): [red 1] [blue 12]" in board_text(view, width=80, hints=HINTS)  # without the hint: a row

