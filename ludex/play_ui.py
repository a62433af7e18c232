"""`ludex play` in a real terminal UI (Textual): one person plays one seat against bots.

The screen: the turn line (ply, step, seat to act) on top; the board as `ludex.board` draws it
(zones by name and by entity, counts for what the seat cannot see); the seat's legal moves
grouped by move name under the move's own rule text; a line to type a move by hand (an
illegal one is refused with the rule's reason); the event log, each event with the rule that
made it and its file:line. When the game ends the board shows the final state and the
outcome. Keys: enter plays the highlighted move (or the typed one, in the typed line), tab
moves between panes, page up/down scroll the log, q quits. After a typed move the typed line
keeps the focus; a refused one stays there, selected, so that new typing replaces it; ctrl+u
clears the line.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option

from ludex.board import board, outcome_line, turn_line
from runtime import IllegalMove, Move


def _args(args: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v if isinstance(v, (str, int)) else json.dumps(v)}" for k, v in args.items()) or "(no choice)"


def event_line(event: dict[str, Any]) -> str:
    """One event of `Game.event_view` as a log line naming its rule and where it is written."""
    where = f"{event.get('rule')} ({event.get('source')})" if event.get("source") else str(event.get("rule"))
    if event.get("kind") == "move":
        who = f"seat {event['seat']}" if event.get("seat") is not None else "the rules"
        return f"{event.get('ply')}: {who}: {event.get('move')} {_args(event.get('args') or {})} — {where}"
    if event.get("kind") == "chance":
        outcome = event.get("outcome")
        shown = f": {', '.join(outcome)}" if isinstance(outcome, list) and 0 < len(outcome) <= 6 else ""
        return f"{event.get('ply')}: chance: {event.get('node')} {event.get('zone')}{shown} — {where}"
    return f"{event.get('ply')}: {event.get('kind')} — {where}"


def parse_typed_move(text: str) -> dict[str, Any]:
    """`name k=v ...` as `{name, args}`; a value is JSON when it parses, else text."""
    name, *pairs = text.split()
    args: dict[str, Any] = {}
    for p in pairs:
        k, _, v = p.partition("=")
        try:
            args[k] = json.loads(v)
        except ValueError:
            args[k] = v
    return {"name": name, "args": args}


class MoveInput(Input):
    """The typed-move line: ctrl+u clears all of it, wherever the cursor is (Textual's Input
    deletes only what is left of the cursor)."""

    BINDINGS = [Binding("ctrl+u", "clear_line", "clear", show=False)]

    def action_clear_line(self) -> None:
        self.value = ""


class PlayApp(App[None]):
    """Play `seat` of `game` (a `runtime.Game`); every other seat plays `other(game, seat,
    moves)`. `on_move(seat, move_dict)` is called for every move played (to save the game)."""

    CSS = """
    #turn { height: 1; background: $primary; color: $text; padding: 0 1; }
    #board { width: 3fr; border: round $secondary; }
    #side { width: 2fr; }
    #moves { height: 2fr; border: round $accent; }
    #typed { border: round $accent; }
    #message { height: 2; padding: 0 1; color: $warning; }
    #log { height: 1fr; border: round $secondary; }
    """
    BINDINGS = [
        Binding("q", "quit", "quit"),
        Binding("pageup", "log_up", "log up"),
        Binding("pagedown", "log_down", "log down"),
    ]

    def __init__(self, game: Any, seat: int, other: Callable[[Any, int, list[Any]], Any],
                 on_move: Callable[[int, dict[str, Any]], None] | None = None) -> None:
        super().__init__()
        self.game, self.seat, self.other = game, seat, other
        self.on_move = on_move or (lambda seat, move: None)
        self.logged = 0
        self.moves: list[Any] = []
        self.docs = {m.name: m.doc for m in game.ruleset.moves}

    def compose(self) -> ComposeResult:
        yield Static(id="turn")
        with Horizontal():
            with VerticalScroll(id="board"):
                yield Static(id="board_view")
            with Vertical(id="side"):
                yield OptionList(id="moves")
                yield MoveInput(placeholder="or type a move: name arg=value ...", id="typed")
                yield Static(id="message")
                yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#board", VerticalScroll).border_title = f"board (seat {self.seat}'s view)"
        self.query_one("#moves", OptionList).border_title = "your moves"
        self.query_one("#log", RichLog).border_title = "events"
        self.advance()

    # -- the game --------------------------------------------------------------------------

    def play(self, seat: int, move: Any) -> None:
        as_dict = move.to_dict() if isinstance(move, Move) else move
        self.game.apply(seat, move)
        self.on_move(seat, as_dict)

    def advance(self) -> None:
        """Let the other seats play until it is this seat's decision or the game is over."""
        g = self.game
        while not g.terminal:
            d = g.decision()
            if d.stuck or not d.seats:
                self.say("no seat can move: the rules are stuck")
                break
            actor = d.seats[0]
            if actor == self.seat:
                break
            self.play(actor, self.other(g, actor, g.legal_moves(actor)))
        self.refresh_view()

    def refresh_view(self) -> None:
        g = self.game
        view = g.view(self.seat)
        self.query_one("#turn", Static).update(
            turn_line(view) + (" · you" if not g.terminal and view.get("actor") == self.seat else "")
            + (f" · {outcome_line(view.get('outcome'))}" if g.terminal else "")
        )
        self.query_one("#board_view", Static).update(board(view))
        log = self.query_one("#log", RichLog)
        for e in g.events[self.logged:]:
            log.write(Text(event_line(g.event_view(e, self.seat))))
        self.logged = len(g.events)
        options = self.query_one("#moves", OptionList)
        options.clear_options()
        self.moves = [] if g.terminal else g.legal_moves(self.seat)
        groups: dict[str, list[int]] = {}
        for i, m in enumerate(self.moves):
            groups.setdefault(m.name, []).append(i)
        for name, idx in groups.items():
            options.add_option(Option(Text(f"{name} — {self.docs.get(name, '')}", style="bold"), disabled=True))
            for i in idx:
                options.add_option(Option(f"  {_args(self.moves[i].args)}", id=str(i)))
        if g.terminal:
            options.add_option(Option(Text("game over: " + outcome_line(g.outcome) + " — press q", style="bold"),
                                      disabled=True))
        options.border_title = "game over" if g.terminal else f"your moves ({len(self.moves)})"
        first = next((k for k, o in enumerate(options._options) if not o.disabled), None)
        if first is not None:
            options.highlighted = first
        if self.focused is not self.query_one("#typed", Input):  # a typing player goes on typing
            options.focus()

    def say(self, message: str) -> None:
        self.query_one("#message", Static).update(message)

    # -- input ------------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is None or self.game.terminal:
            return
        move = self.moves[int(event.option.id)]
        self.say("")
        self.play(self.seat, move)
        self.advance()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text or self.game.terminal:
            return
        try:
            self.play(self.seat, parse_typed_move(text))
        except IllegalMove as exc:
            where = f" ({exc.rule}, {exc.source})" if exc.rule else ""
            self.say(f"illegal: {exc.reason}{where}")
            event.input.selection = Selection(0, len(event.input.value))  # typing replaces it
            return
        event.input.value = ""
        self.say("")
        self.advance()

    def action_log_up(self) -> None:
        self.query_one("#log", RichLog).scroll_page_up()

    def action_log_down(self) -> None:
        self.query_one("#log", RichLog).scroll_page_down()
