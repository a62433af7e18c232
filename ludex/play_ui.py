"""`ludex play` in a real terminal UI (Textual): one person plays one seat against bots.

The screen, usable from 80x24 up: the turn line (ply, step, seat to act) on top; the board as
`ludex.board` draws it from the rules' display hints (cards `[red 12]` and chips `●●red` in
their colours, zones in their layouts, what the last moves moved or marked underlined); the
seat's legal moves as sentences (`runtime.sentences`, the viewer's), grouped under each move's
own rule text; a line to type a move by hand (`ludex.typed_moves`: unique prefixes of the
move, argument names and values; an ambiguous text names its candidates, an illegal one the
rule's reason); the event log, each event as the same sentence (a component the seat saw only
as a slot, `hand[1]@3`, named once the move put it face up; the whole log once the game is
over, as the service then shows it), with its rule and file:line on a wide screen. When the game ends the moves pane says why (`runtime.Game.ending`: the ending
rule, its file:line and citation, the winners and the scores).

Keys: enter plays the highlighted move (or the typed one, in the typed line), tab moves between
panes, page up/down scroll the log, q quits (in the list). After a typed move the typed line
keeps the focus; a refused one stays there, selected, so that new typing replaces it; ctrl+u
clears the line.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option

from ludex.board import board, outcome_line, to_act, turn_line, without_mover
from ludex.typed_moves import TypedMoveError, parse_typed_move, resolve
from runtime import IllegalMove, Move
from runtime.display import display_hints
from runtime.events import event_to_dict
from runtime.picks import is_offer
from runtime.replay import named_so_far
from runtime.sentences import (
    ending_sentence,
    event_sentence,
    move_sentence,
    name_public,
    seat_text,
    value_text,
)

__all__ = ["PlayApp", "parse_typed_move", "event_line", "final_scores"]

WIDE = 120  # from this many columns the log names each event's rule and file:line


def event_line(rules: Any, shown: dict[str, Any], wide: bool = True) -> Text:
    """One event as the log shows it: its sentence (`runtime.sentences.event_sentence`), and on a
    wide screen the rule that made it with its file:line, dimmed."""
    line = Text(f"{shown.get('ply')}: {event_sentence(rules, shown)}")
    if wide and shown.get("rule"):
        line.append(f" — {shown['rule']}" + (f" ({shown['source']})" if shown.get("source") else ""), style="dim")
    return line


def move_text(rules: Any, seat: int, move: Move) -> str:
    """A legal move as the list shows it: its sentence, without the mover when the sentence
    starts with it (every move listed is the player's own): `place (card red-3, ...)` for the
    generic `Seat 0: place (...)`, `places red-3 on ...` for a template's `Seat 0 places ...`."""
    return without_mover(move_sentence(rules, seat, move.name, move.args), seat)


def final_scores(game: Any) -> dict[int, Any]:
    """Each seat's score by the ruleset's `fn score(s: seat)` when it declares one (the lead
    `ludex simulate` reads), for an ending that gives no scores; {} otherwise."""
    fn = next((f for f in game.ruleset.fns if f.name == "score"), None)
    if fn is None or len(getattr(fn, "params", ())) != 1:
        return {}
    try:
        return {s: game.call("score", s) for s in range(game.seats)}
    except Exception:  # a score the rules cannot compute now: the ending says what it has
        return {}


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
    #turn { height: 1; text-wrap: nowrap; text-overflow: ellipsis; background: $primary; color: $text; padding: 0 1; }
    #board { width: 1fr; border: round $secondary; padding: 0 1; }
    #side { width: 1fr; min-width: 44; }
    #moves { height: 3fr; border: round $accent; text-wrap: nowrap; text-overflow: ellipsis; scrollbar-size-vertical: 1; }
    #ending { height: 3fr; border: round $success; padding: 0 1; display: none; }
    #typed { height: 1; border: none; padding: 0 1; background: $boost; }
    #typed:focus { background: $accent 30%; }
    #message { height: auto; max-height: 4; padding: 0 1; color: $warning; }
    #log { height: 2fr; border: round $secondary; scrollbar-size-vertical: 1; }
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
        self.hints = display_hints(game.ruleset)
        # what the seat may name once public, of the moves made before it opened too
        self.readers = named_so_far(game, seat)
        self.named = self.readers.named[seat]  # ply -> the arguments it names
        self.places: dict[str, str] = {}  # component -> its zone and marks, on the board last drawn
        self.whole_log = False  # the log told in full, once the game is over

    def compose(self) -> ComposeResult:
        yield Static(id="turn", markup=False)
        with Horizontal():
            with VerticalScroll(id="board"):
                yield Static(id="board_view")
            with Vertical(id="side"):
                yield OptionList(id="moves")
                yield VerticalScroll(Static(id="ending_text"), id="ending")
                yield MoveInput(placeholder="type a move: name arg=value (prefixes do)", id="typed", select_on_focus=False)
                yield Static(id="message", markup=False)
                yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#board", VerticalScroll).border_title = f"board · seat {self.seat}'s view"
        self.query_one("#moves", OptionList).border_title = "your moves"
        self.query_one("#log", RichLog).border_title = "events"
        self.query_one("#ending", VerticalScroll).border_title = "game over"
        self.advance()

    # -- the game --------------------------------------------------------------------------

    def play(self, seat: int, move: Any) -> None:
        as_dict = move.to_dict() if isinstance(move, Move) else move
        before = len(self.game.events)
        self.game.apply(seat, move)
        self.on_move(seat, as_dict)
        self.readers.note(self.game, self.game.events[before:])

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

    def _touched(self, view: dict[str, Any]) -> frozenset[str]:
        places = {str(c["name"]): f"{key}|{value_text(c.get('marks'))}"
                  for key, z in view.get("zones", {}).items() for c in z.get("components") or ()}
        touched = frozenset(n for n, where in places.items() if self.places and self.places.get(n) != where)
        self.places = places
        return touched

    def refresh_view(self) -> None:
        g = self.game
        rules = g.ruleset
        view = g.view(self.seat)
        turn = turn_line(view) + (" · you" if self.seat in to_act(view) else "") + (
            f" · {outcome_line(view.get('outcome'))}" if g.terminal else "")
        self.query_one("#turn", Static).update(turn)
        self.query_one("#board_view", Static).update(board(view, title="", hints=self.hints, touched=self._touched(view)))
        log = self.query_one("#log", RichLog)
        wide = self.size.width >= WIDE
        if g.terminal and not self.whole_log:  # the game is over: the whole log is public, as the service shows it
            log.clear()
            self.logged, self.whole_log = 0, True
        for e in g.events[self.logged:]:
            if self.whole_log:
                shown = {k: v for k, v in event_to_dict(e).items() if k not in ("refs", "hidden_from")}
            else:
                shown = g.event_view(e, self.seat)
                if e.ply in self.named:
                    shown = name_public(shown, self.named[e.ply], set(self.named[e.ply].values()))
            log.write(event_line(rules, shown, wide))
        self.logged = len(g.events)
        options = self.query_one("#moves", OptionList)
        options.clear_options()
        self.moves = [] if g.terminal else g.legal_moves(self.seat)
        groups: dict[str, list[int]] = {}
        for i, m in enumerate(self.moves):
            groups.setdefault(m.name, []).append(i)
        for name, idx in groups.items():
            options.add_option(Option(Text(f"{name} — {self.docs.get(name, '')}", style="bold", no_wrap=True,
                                           overflow="ellipsis"), disabled=True))
            for i in idx:
                options.add_option(Option(Text(" " + move_text(rules, self.seat, self.moves[i]), no_wrap=True,
                                               overflow="ellipsis"), id=str(i)))
        if g.terminal:
            self.query_one("#ending_text", Static).update(Text(self.ending_text() + " Press q to quit."))
            self.query_one("#ending").display = True
            options.display = False
        options.border_title = "game over" if g.terminal else f"your moves ({len(self.moves)})"
        first = next((k for k in range(options.option_count) if not options.get_option_at_index(k).disabled), None)
        if first is not None:
            options.highlighted = first
        if self.focused is not self.query_one("#typed", Input):  # a typing player goes on typing
            options.focus()

    def ending_text(self) -> str:
        """Why the game ended, as the viewer says it, with the final scores of `fn score` when
        the ending gives none."""
        ending = self.game.ending()
        text = ending_sentence(self.game.ruleset, ending) if ending else "The game is over."
        scores = final_scores(self.game) if ending and not ending.get("scores") else {}
        if scores:
            text += " Final scores (fn score): " + ", ".join(f"{seat_text(s)} {value_text(v)}" for s, v in scores.items()) + "."
        return text

    def say(self, message: str) -> None:
        self.query_one("#message", Static).update(message)

    # -- input ------------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is None or self.game.terminal:
            return
        move = self.moves[int(event.option.id)]
        offers = {k: v for k, v in move.args.items() if is_offer(v)}
        if offers:  # a pick: its candidates are typed, separated by commas
            typed = self.query_one("#typed", Input)
            fixed = " ".join(f"{k}={value_text(v)}" for k, v in move.args.items() if k not in offers)
            typed.value = f"{move.name} {fixed} " + " ".join(f"{k}=" for k in offers)
            typed.focus()
            self.say("; ".join(f"{k}: pick {v['pick']} of {value_text(v['of'])}, separated by commas" for k, v in offers.items()))
            return
        self.say("")
        try:
            self.play(self.seat, move)
        except IllegalMove as exc:  # a listed move the rules refuse when played (a require on the whole move)
            self.say(f"illegal: {exc.reason}" + (f" ({exc.rule}, {exc.source})" if exc.rule else ""))
            return
        self.advance()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text or self.game.terminal:
            return
        try:
            move = resolve(text, self.moves, lambda m: move_text(self.game.ruleset, self.seat, m))
            self.play(self.seat, move)
        except TypedMoveError as exc:
            self.say(exc.message)
            event.input.selection = Selection(0, len(event.input.value))  # typing replaces it
            return
        except IllegalMove as exc:
            where = f" ({exc.rule}, {exc.source})" if exc.rule else ""
            self.say(f"illegal: {exc.reason}{where}")
            event.input.selection = Selection(0, len(event.input.value))
            return
        event.input.value = ""
        self.say("")
        self.advance()

    def action_log_up(self) -> None:
        self.query_one("#log", RichLog).scroll_page_up()

    def action_log_down(self) -> None:
        self.query_one("#log", RichLog).scroll_page_down()
