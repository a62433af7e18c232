"""The rules' display hints (`display_decl`, docs/language.md 4.17) as every face that draws a
table reads them: the viewer (`api.viewer`), the play UI and the terminal board (`ludex.board`).

No rule reads a hint; a ruleset without hints is drawn with the defaults (components by name,
zones as rows, colours from attribute values a terminal or browser knows).
"""

from __future__ import annotations

from typing import Any


def display_hints(rules: Any) -> dict[str, Any]:
    """The ruleset's display hints: `{colours: {enum value: CSS colour}, layouts: {zone name:
    row|fan|stack|grid}, labels: {component kind: [attribute...]}}`; `rules` is a compiled
    `dsl.Ruleset` (None: empty maps)."""
    out: dict[str, Any] = {"colours": {}, "layouts": {}, "labels": {}}
    for d in getattr(rules, "display", ()):
        if d.hint == "colours":
            out["colours"].update(dict(d.values))
        elif d.hint == "layout":
            out["layouts"][d.target] = d.values[0]
        else:
            out["labels"][d.target] = list(d.values)
    return out


def zone_name(key: str) -> str:
    """A zone key's declared name, which layout hints are given by: `tile2.side[1]` -> `side`,
    `hand[0]` -> `hand`, `deck` -> `deck`."""
    return key.split(".")[-1].split("[")[0]
