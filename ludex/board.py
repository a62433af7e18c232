"""The board as a person reads it: a seat's view (`runtime.views`) drawn as text with Rich.

One drawing for every face that shows a game in the terminal (`ludex replay`, `ludex play` and
its `--plain` lines, the learning environments' `render`): the turn line (ply, step, seat to
act), the zones not tied to an entity, the entities as a table (one row each, a column per zone
they own), the variables, and the outcome once the game is over.

Components are drawn from the rules' display hints (`runtime.display`), never as JSON:
- a **card** is its label in brackets, `[red 12]` (the attributes `display KIND label a, b`
  names, else its name), in the colour `display ENUM colours` gives one of its values;
- a **chip** (a kind with one attribute, which is not a number, and no label hint: a cube, a
  token) is a dot before its value, `●red`, and equal chips are counted, `●●●red` (`●×7 red`), so a cube
  `red#12` never reads like a card `red-12`;
- a component the viewer cannot see is `[?]` (with the public marks on its slot), a zone shown
  `as stack` its top and how many lie below, one shown `as grid` its components in aligned
  columns under its name, one whose contents are hidden its count.
"""

from __future__ import annotations

import io
from typing import Any, Iterable, Mapping

from rich.color import Color, ColorParseError
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from runtime.display import display_hints, zone_name
from runtime.sentences import value_text

_META = ("name", "kind", "marks")
_NO_HINTS: dict[str, Any] = display_hints(None)


class Flow:
    """Pieces of text laid out left to right and wrapped between pieces, never inside one (a
    card `[red 12]` is not cut after `[red`). Measures as its widest piece up to all of them."""

    def __init__(self, pieces: Iterable[Text], gap: int = 1, indent: int = 0) -> None:
        self.pieces = [p for p in pieces if p.plain]
        self.gap = gap
        self.indent = indent

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        if not self.pieces:
            return Measurement(0, 0)
        widths = [p.cell_len for p in self.pieces]
        return Measurement(min(max(widths), options.max_width), sum(widths) + self.gap * (len(widths) - 1))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line, started = Text(), False
        for piece in self.pieces:
            if started and line.cell_len + self.gap + piece.cell_len > width:
                yield from _line(console, line, width)
                line = Text(" " * min(self.indent, width // 2))
                started = False
            if started:
                line.append(" " * self.gap)
            line.append_text(piece)
            started = True
        if started or not self.pieces:
            yield from _line(console, line, width)


class Grid:
    """Pieces of text in aligned columns (a zone shown `as grid`): every cell as wide as the
    widest piece, as many columns as the width holds (at least one), filled row by row, each row
    indented by `indent`; the viewer's grid, in the terminal. Measures as one column up to one row."""

    def __init__(self, pieces: Iterable[Text], gap: int = 2, indent: int = 2) -> None:
        self.pieces = [p for p in pieces if p.plain]
        self.gap = gap
        self.indent = indent

    def columns(self, width: int) -> int:
        """How many columns fit `width` cells (at least one)."""
        cell = max((p.cell_len for p in self.pieces), default=1)
        return max(1, min(len(self.pieces), (width - self.indent + self.gap) // (cell + self.gap)))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        if not self.pieces:
            return Measurement(0, 0)
        cell = max(p.cell_len for p in self.pieces)
        n = len(self.pieces)
        return Measurement(min(self.indent + cell, options.max_width), self.indent + n * cell + self.gap * (n - 1))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        cell = max((p.cell_len for p in self.pieces), default=0)
        n = self.columns(width)
        for start in range(0, len(self.pieces), n):
            line = Text(" " * min(self.indent, width // 2))
            for i, piece in enumerate(self.pieces[start:start + n]):
                if i:
                    line.append(" " * self.gap)
                line.append_text(piece)
                if start + i + 1 < min(start + n, len(self.pieces)):
                    line.append(" " * (cell - piece.cell_len))
            yield from _line(console, line, width)


def _line(console: Console, line: Text, width: int) -> Iterable[Segment]:
    """One line of a flow; a piece wider than the flow wraps onto lines of its own."""
    for part in line.wrap(console, max(width, 1), overflow="fold"):
        yield from part.render(console)
        yield Segment.line()


def _colour(value: Any, hints: Mapping[str, Any]) -> str | None:
    """A colour for an attribute value: the rules' hint, else the value when it names a colour."""
    if not isinstance(value, str):
        return None
    hinted = hints.get("colours", {}).get(value)
    if hinted:
        return str(hinted)
    try:
        Color.parse(value)
    except ColorParseError:
        return None
    return value if value.isalpha() else None


def _attrs(c: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in c.items() if k not in _META}


def is_chip(c: Mapping[str, Any], hints: Mapping[str, Any] = _NO_HINTS) -> bool:
    """Whether a component (a view's `{name, kind, ...attributes}`) is drawn as a chip: its kind
    has no label hint and one attribute, which is not a number (a cube's colour)."""
    attrs = _attrs(c)
    return c.get("kind") not in hints.get("labels", {}) and len(attrs) == 1 and isinstance(next(iter(attrs.values())), str)


def label(c: Mapping[str, Any], hints: Mapping[str, Any] = _NO_HINTS) -> str:
    """The words on a component: the attributes its kind's label hint names, a chip's value,
    else its name."""
    attrs = hints.get("labels", {}).get(c.get("kind"))
    if attrs:
        return " ".join(value_text(c.get(a)) for a in attrs)
    if is_chip(c, hints):
        return value_text(next(iter(_attrs(c).values())))
    return str(c.get("name", "?"))


def _marks(marks: Any) -> str:
    """Marks as short words: a mark `[TAG, value, flag]` (three items or more) loses its leading
    tag, and a truth value reads as a tick or a cross: `[rank, 4, true]` -> `4✓`."""
    def one(m: Any) -> str:
        if isinstance(m, (list, tuple)):
            items = list(m[1:]) if len(m) >= 3 and isinstance(m[0], str) else list(m)
            return "".join("✓" if v is True else "✗" if v is False else value_text(v) for v in items)
        return value_text(m)
    return " ".join(one(m) for m in marks or ())


def card_text(c: Mapping[str, Any], hints: Mapping[str, Any] = _NO_HINTS, touched: bool = False) -> Text:
    """A card: `[LABEL]` (with its marks after a bar), coloured by the first attribute value that
    has a colour; underlined and bold when the last move touched it."""
    colour = next((col for v in _attrs(c).values() if (col := _colour(v, hints))), None)
    style = Style(color=colour, bold=True) if colour else Style(bold=True)
    text = Text("[", style=style)
    text.append(label(c, hints), style=style)
    if c.get("marks"):
        text.append("|" + _marks(c["marks"]), style=Style(dim=True))
    text.append("]", style=style)
    if touched:
        text.stylize(Style(underline=True, reverse=True))
    return text


def chips_text(group: list[Mapping[str, Any]], hints: Mapping[str, Any] = _NO_HINTS, touched: bool = False) -> Text:
    """Equal chips as one piece: a dot for each (`●●●red`; past five, `●×12 red`), in their colour."""
    c = group[0]
    colour = _colour(label(c, hints), hints)
    dots = "●" * len(group) if len(group) <= 5 else f"●×{len(group)} "
    text = Text(dots, style=Style(color=colour, bold=True) if colour else Style(bold=True))
    text.append(label(c, hints))
    if touched:
        text.stylize(Style(underline=True, reverse=True))
    return text


def zone_pieces(key: str, zone: Mapping[str, Any], hints: Mapping[str, Any] = _NO_HINTS,
                touched: frozenset[str] = frozenset()) -> list[Text]:
    """A zone's contents as pieces for a `Flow`: its cards and counted chips in order, or what
    the viewer may know of them (a count, face-down cards with their slots' public marks)."""
    layout = hints.get("layouts", {}).get(zone_name(key), "row")
    count = zone.get("count")
    if "components" not in zone:
        if count is None:
            return [Text("secret", style="dim")]
        marks = {s.get("slot"): s.get("marks") for s in zone.get("slots") or ()}
        if layout == "fan" or marks:
            return [Text(f"[?{'|' + _marks(marks[i]) if marks.get(i) else ''}]", style="dim") for i in range(count)]
        return [Text(f"{count} hidden" if count else "empty", style="dim")]
    shown: list[Mapping[str, Any]] = list(zone["components"])
    if not shown:
        return [Text("empty", style="dim")]
    below = len(shown) - 1
    if layout == "stack":
        shown = shown[:1]
    pieces: list[Text] = []
    groups: dict[tuple[Any, str], list[Mapping[str, Any]]] = {}
    for c in shown:
        if is_chip(c, hints):
            if (c.get("kind"), label(c, hints)) not in groups:
                groups[(c.get("kind"), label(c, hints))] = []
                pieces.append(Text())  # its place, filled below
            groups[(c.get("kind"), label(c, hints))].append(c)
            continue
        pieces.append(card_text(c, hints, c.get("name") in touched))
    chip_groups = iter(groups.values())
    pieces = [p if p.plain else chips_text(g, hints, any(x.get("name") in touched for x in g))
              for p, g in ((p, next(chip_groups) if not p.plain else []) for p in pieces)]
    if layout == "stack" and below:
        pieces.append(Text(f"+{below} below", style="dim"))
    return pieces


def zone_line(key: str, zone: Mapping[str, Any], hints: Mapping[str, Any] = _NO_HINTS,
              touched: frozenset[str] = frozenset(), full_key: str | None = None) -> RenderableType:
    """A zone as one flow of pieces: `KEY (COUNT): pieces...`, wrapped between pieces with the
    following lines indented (`full_key`: the zone's key in the view, when `key` is an entity's
    member name); a zone shown `as grid` whose components the viewer sees: `KEY (COUNT):`, then
    its pieces in aligned columns below (`Grid`)."""
    first, *rest = zone_pieces(full_key or key, zone, hints, touched)
    count = zone.get("count")
    told = bool(count) and not first.plain.startswith(f"{count} ")  # `deck: 11 hidden` says it once
    head = Text().append(key, style="bold").append(f" ({count})" if told else "", style="dim").append(":", style="bold")
    if hints.get("layouts", {}).get(zone_name(full_key or key)) == "grid" and zone.get("components"):
        return Group(head, Grid([first, *rest]))
    return Flow([head, first, *rest], indent=2)


def to_act(view: dict[str, Any]) -> list[Any]:
    """The seats a view (`runtime.views.view`'s JSON) waits for: in a simultaneous step those
    yet to choose (`simultaneous.waiting`), else the actor alone; [] once the game is over."""
    if view.get("terminal"):
        return []
    together = view.get("simultaneous")
    return list(together.get("waiting") or ()) if together else [view.get("actor")]


def without_mover(sentence: str, seat: int) -> str:
    """A sentence of a seat's own move as its list shows it: without the leading `Seat N: `
    (a generic sentence) or `Seat N ` (a `say` template's) when N is `seat`."""
    mover = f"Seat {seat}"
    for head in (mover + ": ", mover + " "):
        if sentence.startswith(head) and len(sentence) > len(head):
            return sentence[len(head):]
    return sentence


def turn_line(view: dict[str, Any]) -> str:
    """`ruleset · ply N · step S · seat K to act` (`seats 0, 2 to act` while a simultaneous step
    waits for several; or `game over`)."""
    head = f"{view.get('ruleset', '?')} · ply {view.get('ply', 0)} · step {view.get('step', '?')}"
    if view.get("terminal"):
        return head + " · game over"
    seats = to_act(view)
    return head + (f" · seat {seats[0]} to act" if len(seats) == 1 else
                   f" · seats {', '.join(str(s) for s in seats)} to act")


def outcome_line(outcome: dict[str, Any] | None) -> str:
    """The outcome in words: kind, winners, scores and the rules' reason."""
    if not outcome:
        return ""
    parts = [outcome.get("kind", "?")]
    if outcome.get("winners"):
        parts.append("winners: " + ", ".join(f"seat {w}" for w in outcome["winners"]))
    if outcome.get("scores"):
        parts.append("scores: " + ", ".join(f"{k} {value_text(v)}" for k, v in outcome["scores"].items()))
    if outcome.get("reason"):
        parts.append(f"({outcome['reason']})")
    return " · ".join(parts)


def _entity_fields(fields: Mapping[str, Any]) -> str:
    shown = []
    for k, v in fields.items():
        if k in ("name", "index", "alive") or v is None:
            continue
        shown.append(value_text(v) if isinstance(v, str) else f"{k} {value_text(v)}")
    if fields.get("alive") is False:
        shown.append("removed")
    return " · ".join(shown)


def board(view: dict[str, Any], *, title: str | None = None, hints: Mapping[str, Any] | None = None,
          touched: frozenset[str] = frozenset()) -> RenderableType:
    """A Rich renderable of `view` (the JSON of `Game.view(seat)`), drawn with `hints`
    (`runtime.display.display_hints`; None: the defaults). `touched` names the components the
    last move moved or marked: they are underlined."""
    hints = hints or _NO_HINTS
    zones: dict[str, dict[str, Any]] = view.get("zones", {})
    entities: dict[str, dict[str, Any]] = view.get("entities", {})
    owned: dict[str, dict[str, dict[str, Any]]] = {e: {} for e in entities}
    loose: list[tuple[str, dict[str, Any]]] = []
    for key, z in zones.items():
        entity, dot, member = key.partition(".")
        if dot and entity in owned:
            owned[entity][member] = z
        else:
            loose.append((key, z))
    parts: list[RenderableType] = [Text(turn_line(view) if title is None else title, style="bold")] if title != "" else []
    for key, z in loose:
        parts.append(zone_line(key, z, hints, touched))
    for name, fields in entities.items():
        head = Text(no_wrap=True, overflow="ellipsis").append(name, style="bold")
        if (shown := _entity_fields(fields)):
            head.append(" · " + shown, style="dim")
        parts.append(head)
        for member, z in owned[name].items():
            parts.append(Padding(zone_line(member, z, hints, touched, f"{name}.{member}"), (0, 0, 0, 2), expand=False))
    if view.get("vars"):
        parts.append(Text().append("variables: ", style="bold").append(
            " · ".join(f"{k} {value_text(v)}" for k, v in view["vars"].items())))
    if view.get("terminal"):
        parts.append(Text("outcome: " + outcome_line(view.get("outcome")), style="bold green"))
    return Group(*parts)


def board_text(view: dict[str, Any], width: int = 100, *, title: str | None = None,
               hints: Mapping[str, Any] | None = None) -> str:
    """`board(view)` as plain text `width` columns wide (no colour codes)."""
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False).print(board(view, title=title, hints=hints))
    return out.getvalue()
