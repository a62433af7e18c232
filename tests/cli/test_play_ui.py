"""The `ludex play` terminal UI, driven headlessly with Textual's Pilot: the board, the moves
grouped by name in the rules' words, the reason for an illegal typed move, the event log with
rule names, and the final board with the outcome."""

from __future__ import annotations

import asyncio
import io
import random
from concurrent.futures import ThreadPoolExecutor

from rich.console import Console
from textual.widgets import Input, OptionList, RichLog, Static

from dsl import load_from_sources
from ludex.play_ui import PlayApp, parse_typed_move
from runtime import Game

RACE = """\
game race "Race"
seats 2
var sum: int = 0 "what both seats added so far"
var mover: int = 0 "who added last"
setup "seat 0 begins" { turn 0 }
step play "add to the sum" then end turn
move add(n in 1..2) during play "add 1 or 2 to the total"
  require sum + n <= 10 else "the total may not pass ten"
{
  mover = actor
  sum += n
}
trigger reached when sum >= 10 "whoever reaches ten wins" { end game win mover "reached ten" }
"""


def _text(app: PlayApp, selector: str) -> str:
    """What a Static shows, as plain text (a Rich renderable drawn 80 columns wide)."""
    content = app.query_one(selector, Static).content
    if isinstance(content, str):
        return content
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(content)
    return out.getvalue()


def _options(app: PlayApp) -> list[str]:
    ol = app.query_one("#moves", OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


def _log(app: PlayApp) -> list[str]:
    return [line.text for line in app.query_one("#log", RichLog).lines]


def test_play_a_game_through_the_screen(snapshot):
    async def run() -> tuple[list[str], ...]:
        g = Game.new(load_from_sources((("race.ludex", RACE),)), seed="ui")
        played: list[tuple[int, dict]] = []
        rng = random.Random(1)
        app = PlayApp(g, 0, lambda game, seat, moves: moves[-1], lambda s, m: played.append((s, m)))
        async with app.run_test(size=(120, 40)) as pilot:
            first = _options(app)
            assert first == ["add — add 1 or 2 to the total", " add (n 1)", " add (n 2)"]
            assert _text(app, "#turn").startswith("race · ply ") and _text(app, "#turn").endswith("seat 0 to act · you")
            board_before = _text(app, "#board_view")

            # An illegal typed move is refused with the rule's reason; nothing is played.
            app.query_one("#typed", Input).value = "add n=7"
            app.query_one("#typed", Input).focus()
            await pilot.press("enter")
            assert _text(app, "#message") == ("illegal: n 7 is not one of the choices for 'add' now "
                                              "(move add, race.ludex:7)")
            assert played == []

            # Enter on the highlighted move plays it; the other seat answers (it adds 2).
            app.query_one("#moves", OptionList).focus()
            await pilot.press("down", "enter")
            assert played[:2] == [(0, {"name": "add", "args": {"n": 2}}), (1, {"name": "add", "args": {"n": 2}})]
            while not g.terminal:
                await pilot.press("enter")
            await pilot.pause()
            final = (_text(app, "#turn"), [" ".join(_text(app, "#ending_text").split())], _log(app))
            assert "game over" in final[0] and "outcome: win" in _text(app, "#board_view")
            assert final[1][0].startswith("Reached ten (trigger reached at race.ludex:13: whoever reaches ten wins). "
                                          "Winners: seat ")
            await pilot.press("pageup", "pagedown", "q")
        del rng
        return (first, board_before.splitlines(), final[0].splitlines(), final[1], final[2])

    # a thread of its own: another test in this worker may have left an event loop running here
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(asyncio.run, run()).result()
    assert result == snapshot


def test_typed_moves_parse_json_values_or_text():
    assert parse_typed_move("place card=red-3 t=tile1 s=0") == {"name": "place", "args": {"card": "red-3", "t": "tile1", "s": 0}}
    assert parse_typed_move("pass") == {"name": "pass", "args": {}}


def _drive(script) -> list[tuple[int, dict]]:
    """Run `script(app, pilot, played)` on a race game where seat 0 plays by typing; returns
    the moves played."""
    played: list[tuple[int, dict]] = []

    async def run() -> None:
        g = Game.new(load_from_sources((("race.ludex", RACE),)), seed="ui")
        app = PlayApp(g, 0, lambda game, seat, moves: moves[0], lambda s, m: played.append((s, m)))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.click("#typed")
            await script(app, pilot, played)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()
    return played


def test_after_a_typed_move_the_next_typed_move_is_the_one_played():
    """Focus stays in the typed line: the next text goes there, and Enter plays it, not the
    highlighted move of the list (which would be `add n 1`)."""
    async def script(app, pilot, played):
        await pilot.press(*"add n=2", "enter")
        assert app.focused is app.query_one("#typed", Input)
        await pilot.press(*"add n=2", "enter")
        assert app.query_one("#typed", Input).value == ""

    assert _drive(script) == [(0, {"name": "add", "args": {"n": 2}}), (1, {"name": "add", "args": {"n": 1}}),
                              (0, {"name": "add", "args": {"n": 2}}), (1, {"name": "add", "args": {"n": 1}})]


def test_after_an_illegal_typed_move_new_typing_replaces_the_text():
    async def script(app, pilot, played):
        typed = app.query_one("#typed", Input)
        await pilot.press(*"add n=7", "enter")
        assert _text(app, "#message").startswith("illegal: n 7 is not one of the choices")
        assert typed.value == "add n=7" and played == []  # kept, to be edited or typed over
        await pilot.press(*"add n=2")
        assert typed.value == "add n=2"
        await pilot.press("enter")
        assert typed.value == "" and _text(app, "#message") == ""

    assert _drive(script)[0] == (0, {"name": "add", "args": {"n": 2}})


def test_ctrl_u_clears_the_typed_line_wherever_the_cursor_is():
    async def script(app, pilot, played):
        typed = app.query_one("#typed", Input)
        await pilot.press(*"add n=7", "enter", "right", "left", "left", "ctrl+u")
        assert typed.value == ""
        await pilot.press(*"add n=1", "left", "ctrl+u")
        assert typed.value == ""
        await pilot.press(*"add n=1", "enter")

    assert _drive(script)[0] == (0, {"name": "add", "args": {"n": 1}})
