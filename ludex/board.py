"""The board as a person reads it: a seat's view (`runtime.views`) drawn as text with Rich.

One drawing for every face that shows a game in the terminal (`ludex replay`, `ludex play`):
the turn line (ply, step, seat to act), the zones not tied to an entity, each entity with its
fields and its own zones, the variables, and the outcome once the game is over. A zone the
viewer cannot see shows its count only.
"""

from __future__ import annotations

import io
import json
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text


def _value(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (str, int, float)):
        return str(v)
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def _contents(zone: dict[str, Any]) -> str:
    count = zone.get("count", 0)
    if "components" not in zone:
        return f"{count} hidden" if count else "empty"
    shown = zone["components"]
    names = [c.get("name", "?") if isinstance(c, dict) else _value(c) for c in shown]
    hidden = count - len(shown)
    text = ", ".join(names) if names else ("empty" if not hidden else "")
    return f"{text} (+{hidden} hidden)" if hidden > 0 and names else (f"{hidden} hidden" if hidden > 0 else text)


def _zone_table(title: str, zones: list[tuple[str, dict[str, Any]]]) -> Table:
    t = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 1))
    t.add_column("zone", style="bold")
    t.add_column("n", justify="right")
    t.add_column("contents", overflow="fold")
    for name, z in zones:
        t.add_row(name, str(z.get("count", 0)), _contents(z))
    return t


def turn_line(view: dict[str, Any]) -> str:
    """`ruleset · ply N · step S · seat K to act` (or `game over`)."""
    head = f"{view.get('ruleset', '?')} · ply {view.get('ply', 0)} · step {view.get('step', '?')}"
    if view.get("terminal"):
        return head + " · game over"
    return head + f" · seat {view.get('actor')} to act"


def outcome_line(outcome: dict[str, Any] | None) -> str:
    """The outcome in words: kind, winners, scores and the rules' reason."""
    if not outcome:
        return ""
    parts = [outcome.get("kind", "?")]
    if outcome.get("winners"):
        parts.append("winners: " + ", ".join(f"seat {w}" for w in outcome["winners"]))
    if outcome.get("scores"):
        parts.append("scores: " + ", ".join(f"{k} {_value(v)}" for k, v in outcome["scores"].items()))
    if outcome.get("reason"):
        parts.append(f"({outcome['reason']})")
    return " · ".join(parts)


def board(view: dict[str, Any], *, title: str | None = None) -> RenderableType:
    """A Rich renderable of `view` (the JSON of `Game.view(seat)`)."""
    zones: dict[str, dict[str, Any]] = view.get("zones", {})
    entities: dict[str, dict[str, Any]] = view.get("entities", {})
    owned: dict[str, list[tuple[str, dict[str, Any]]]] = {e: [] for e in entities}
    loose: list[tuple[str, dict[str, Any]]] = []
    for key, z in zones.items():
        entity, dot, member = key.partition(".")
        if dot and entity in owned:
            owned[entity].append((member, z))
        else:
            loose.append((key, z))
    parts: list[RenderableType] = [Text(title or turn_line(view), style="bold")]
    if loose:
        parts.append(_zone_table("zones", loose))
    for name, fields in entities.items():
        shown = ", ".join(f"{k} {_value(v)}" for k, v in fields.items() if k not in ("name", "index", "alive"))
        t = _zone_table(f"{name}: {shown}" if shown else name, owned[name])
        parts.append(t)
    if view.get("vars"):
        v = Table(title="variables", title_justify="left", show_header=False, box=None, padding=(0, 1))
        v.add_column("name", style="bold")
        v.add_column("value", overflow="fold")
        for k, val in view["vars"].items():
            v.add_row(k, _value(val))
        parts.append(v)
    if view.get("terminal"):
        parts.append(Text("outcome: " + outcome_line(view.get("outcome")), style="bold green"))
    return Group(*parts)


def board_text(view: dict[str, Any], width: int = 100, *, title: str | None = None) -> str:
    """`board(view)` as plain text `width` columns wide (no colour codes)."""
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False).print(board(view, title=title))
    return out.getvalue()
