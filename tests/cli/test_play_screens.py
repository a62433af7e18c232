"""`ludex play`'s screen at 80x24 and 160x50, driven by Textual's Pilot at seeded positions of
Balloon Cup and Hanabi: each screen is kept as a picture (SVG, `app.export_screenshot()`,
`__snapshots__/test_play_screens/*.svg`) and as text (`test_play_screens.ambr`), both compared
with syrupy (`--snapshot-update` rewrites them; look at the pictures before committing). Beside
the snapshots, what a player must be able to read at 80x24 is asserted: more than three moves,
the typed line, the event log, cards and chips drawn apart, no JSON, and why the game ended."""

from __future__ import annotations

import asyncio
import io
import random
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from rich.console import Console
from syrupy.extensions.image import SVGImageSnapshotExtension

from dsl import bundled_rulesets, load_ruleset
from ludex.play_ui import PlayApp
from runtime import Game

SIZES = {"80x24": (80, 24), "160x50": (160, 50)}
# (ruleset, seed, plies played before the screen opens: "end" plays the game out)
POSITIONS = {"balloon_cup-mid": ("balloon_cup", "7", 20), "hanabi-mid": ("hanabi", "11", 10),
             "hanabi-end": ("hanabi", "3", "end"), "balloon_cup-end": ("balloon_cup", "7", "end")}


def _position(ruleset: str, seed: str, plies: int | str) -> Game:
    """A seeded game after `plies` random moves (a fixed generator), at a decision of seat 0;
    "end": played to its end."""
    g = Game.new(load_ruleset(ruleset), 2, seed=seed)
    rng = random.Random(seed)
    played = 0
    while not g.terminal and (plies == "end" or played < int(plies) or g.decision().seats[0] != 0):
        actor = g.decision().seats[0]
        g.apply(actor, g.pick_at_random(actor, rng.choice(g.legal_moves(actor)), rng))
        played += 1
    return g


def _screen_text(app: PlayApp) -> str:
    """The screen as plain text, one line a row (the characters of the SVG, without colour)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, color_system=None,
                      legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def shoot(g: Game, size: tuple[int, int], script: Any = None) -> tuple[str, str]:
    """Open the play screen on `g` for seat 0 at `size` (columns, rows); the other seat plays its
    first listed move. Returns (SVG picture, text)."""
    async def run() -> tuple[str, str]:
        app = PlayApp(g, 0, lambda game, seat, moves: moves[0])
        async with app.run_test(size=size) as pilot:
            if script is not None:
                await script(app, pilot)
            for _ in range(3):  # let the log render what it was given before it had a size, on a loaded machine too
                await pilot.wait_for_scheduled_animations()
                await pilot.pause(0.05)
            return app.export_screenshot(title="ludex play"), _screen_text(app)

    # a thread of its own: another test in this worker may have left an event loop running here
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


@pytest.fixture
def svg_snapshot(snapshot):
    return snapshot.use_extension(SVGImageSnapshotExtension)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("position", list(POSITIONS))
def test_the_play_screen(position, size, snapshot, svg_snapshot):
    g = _position(*POSITIONS[position])
    svg, text = shoot(g, SIZES[size])
    assert text == snapshot(name="text")
    assert svg == svg_snapshot(name="picture")


def _lines_between(text: str, top: str) -> list[str]:
    """The rows inside the right-hand pane whose border title starts with `top`."""
    rows = text.splitlines()
    start = next(i for i, r in enumerate(rows) if f"╭─ {top}" in r)
    column = rows[start].index(f"╭─ {top}")
    inside = []
    for r in rows[start + 1:]:
        cell = r[column:]
        if cell.startswith("╰"):
            break
        inside.append(cell.strip("│ "))
    return inside


def test_at_80x24_a_player_reads_the_board_the_moves_the_typed_line_and_the_log():
    g = _position("balloon_cup", "7", 20)
    assert g.decision().step == "play"  # a placement: many moves to choose from
    _, text = shoot(g, (80, 24))
    moves = [r for r in _lines_between(text, "your moves") if r.startswith("places ")]  # the rules' `say`
    assert len(moves) > 3 and all(re.fullmatch(r"places \w+-\d+ on seat [01]'s side of tile\d", m) for m in moves), moves
    assert "type a move: name arg=value" in text
    log = " ".join(_lines_between(text, "events"))
    assert re.search(r"\d+: Seat 1 places \w+-\d+ on ", log), log  # the last events, as sentences
    board = [r.split("│")[1] for r in text.splitlines()[2:-2] if r.count("│") >= 2]
    assert any(re.search(r"hand\[0\] \(8\): (\[\w+ \d+\] ?)+", r) for r in board), board  # cards, by colour and value
    assert any(re.search(r"cubes \(\d\): ●+\w+", r) for r in board), board  # cubes, as counted chips
    assert not re.search(r"\w+#\d+", "\n".join(board)), "a cube on the board reads as its name (red#12)"
    assert "{" not in text and '"' not in text  # no JSON anywhere
    headers = [i for i, r in enumerate(board) if r.startswith(" tile")]  # each tile's header on one line
    assert headers and all(re.match(r" tile(\d) · number \1 · (plains|mountain)", board[i]) for i in headers), board
    assert all(board[i + 1].startswith("   cubes") for i in headers if i + 1 < len(board)), board


def test_a_finished_game_says_why_it_ended():
    g = _position("hanabi", "3", "end")
    ending = g.ending()
    assert ending is not None
    _, text = shoot(g, (160, 50))
    said = " ".join(" ".join(_lines_between(text, "game over")).split())
    assert ending["rule"] == "trigger burnt_out"  # its `say` heads the sentence
    assert said.startswith(f"The third fuse burnt: the fireworks are lost ({ending['rule']} at "
                           f"{ending['rule_source']}: {ending['citation']}). Winners: seat 0, seat 1; scores: team ")
    assert said.endswith("Press q to quit.")
    log = " ".join(_lines_between(text, "events"))
    last_own = [e for e in g.events if e.kind == "move" and e.seat == 0 and e.hidden_from][-1]
    assert "a hidden component" not in log and f"{last_own.ply}: Seat 0 " in log  # the whole log, once over
    assert f"Seat 0 {last_own.move}s {last_own.args['k']}" in log  # the card seat 0 played unseen, named


def test_a_balloon_cup_ending_without_scores_gives_the_rules_score():
    g = _position("balloon_cup", "7", "end")
    ending = g.ending()
    assert ending is not None and not ending["scores"]
    _, text = shoot(g, (160, 50))
    said = " ".join(" ".join(_lines_between(text, "game over")).split())
    scores = ", ".join(f"seat {s} {g.call('score', s)}" for s in range(2))
    assert f"Final scores (fn score): {scores}." in said
    assert f"at {ending['rule_source']}: {ending['citation']})" in said


@pytest.mark.parametrize("ruleset", [b.name for b in bundled_rulesets()])
def test_every_bundled_game_plays_at_80x24_without_json(ruleset):
    """Ten moves of seat 0 by Enter (the other seats answer), at 80x24: the screen never shows
    JSON, and while the game runs the moves pane lists moves."""
    rules = load_ruleset(ruleset)
    g = Game.new(rules, rules.seats[0], seed="smoke")

    async def script(app, pilot):
        for _ in range(10):
            if g.terminal:
                break
            await pilot.press("enter")
            text = _screen_text(app)
            assert "{" not in text and '"' not in text, text
            assert g.terminal or re.search(r"your moves \(\d+\)", text), text

    _, text = shoot(g, (80, 24), script)
    assert len(g.events) > 10


GRID_RULES = """\
game gridded "cards laid in a grid"
seats 2
enum colour { red, blue }
component card(colour: colour, value: int)
components cards = [card(c, v) for c in colour for v in 1..6]
zone deck: card hidden ordered = cards "the deck"
zone hand: per seat card owner = [] "a hand"
zone table: card public = [] "cards laid"
display zone table as grid
display zone hand as fan
display card label colour, value
setup "deal five each" {
  shuffle deck
  for s in seats { draw 5 from deck to hand[s] }
  turn 0
}
step play "lay a card" then end turn
move lay(c in hand[actor]) during play "lay a card on the table" { move c to table }
trigger out when size(table) == 10 "every card is laid" { end game draw "every card is laid" }
"""


@pytest.mark.parametrize("size", list(SIZES))
def test_a_zone_shown_as_grid_is_drawn_in_columns(size, snapshot, svg_snapshot):
    from dsl import load_from_sources

    g = Game.new(load_from_sources((("gridded.ludex", GRID_RULES),)), 2, seed="grid")
    for _ in range(6):  # each seat lays its first card: six on the table, seat 0 to act
        actor = g.decision().seats[0]
        g.apply(actor, g.legal_moves(actor)[0])
    svg, text = shoot(g, SIZES[size])
    laid = [f"[{c['colour']} {c['value']}]" for c in g.view(0)["zones"]["table"]["components"]]
    rows = text.splitlines()
    top = next(i for i, r in enumerate(rows) if "table (" in r)
    column = rows[top].index("table (") + 2
    cells = []
    for r in rows[top + 1:top + 1 + len(laid)]:  # the cards under the zone's name, in aligned columns
        line = r[column:].split("│")[0].rstrip()
        if not line.startswith("["):
            break
        cells.append([m.start() for m in re.finditer(r"\[", line)])
        assert re.findall(r"\[[^]]*\]", line) == laid[sum(len(c) for c in cells) - len(cells[-1]):][:len(cells[-1])]
    assert sum(len(c) for c in cells) == len(laid) and len(cells) >= 1
    assert all(c == cells[0][:len(c)] for c in cells)  # every row's cards start at the same columns
    if size == "80x24":  # the board's pane is narrow there: more than one row
        assert len(cells) > 1
    assert text == snapshot(name="text")
    assert svg == svg_snapshot(name="picture")
