"""The compiled ruleset: an immutable IR (frozen attrs) with a stable content hash.

The IR is the checked declarations of a game with its variants merged in. The runtime
consumes only this module's `Ruleset`; it never sees the parser or the checker.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs

from dsl import ast as A


@attrs.frozen
class Ruleset:
    """A game's rules after variants: what `runtime.Game` runs.

    `seats` is (fewest, most) human seats; `automata` are the seats the rules drive, numbered
    after the human seats (docs/language.md, "Automaton seats"); `sources` holds (file name, text) of the base file and each
    variant file in order, so a stored game can be recompiled from its own text;
    `content_hash` is the sha256 (hex) of the canonical form of everything else.
    """

    name: str
    title: str
    variants: tuple[str, ...]
    seats: tuple[int, int]
    options: tuple[A.OptionDecl, ...]
    enums: tuple[A.EnumDecl, ...]
    consts: tuple[A.ConstDecl, ...]
    component_types: tuple[A.ComponentDecl, ...]
    component_sets: tuple[A.ComponentsDecl, ...]
    zones: tuple[A.ZoneDecl, ...]
    entity_types: tuple[A.EntityDecl, ...]
    entity_sets: tuple[A.EntitiesDecl, ...]
    vars: tuple[A.VarDecl, ...]
    fns: tuple[A.FnDecl, ...]
    procs: tuple[A.ProcDecl, ...]
    setup: A.SetupDecl | None
    steps: tuple[A.StepDecl, ...]
    moves: tuple[A.MoveDecl, ...]
    triggers: tuple[A.TriggerDecl, ...]
    sources: tuple[tuple[str, str], ...] = attrs.field(eq=False, repr=False)
    content_hash: str = attrs.field(default="", eq=False)
    automata: tuple[A.AutomatonDecl, ...] = ()
    spectators: tuple[A.SpectatorsDecl, ...] = ()
    display: tuple[A.DisplayDecl, ...] = ()  # the viewer's hints (docs/language.md 4.17): no rule reads them

    def option(self, name: str) -> A.OptionDecl | None:
        return next((o for o in self.options if o.name == name), None)

    def to_data(self) -> dict:
        """Canonical JSON-able form (spans included), used for the hash and IR snapshots."""
        # automata, spectators and display hints appear only when declared, so a ruleset without them keeps its hash
        return {f.name: to_data(getattr(self, f.name)) for f in attrs.fields(Ruleset)
                if f.name not in ("sources", "content_hash")
                and not (f.name in ("automata", "spectators", "display") and not getattr(self, f.name))}


def to_data(obj: Any) -> Any:
    """Canonical plain data for IR objects: attrs classes become dicts tagged with their class."""
    if attrs.has(type(obj)):
        out: dict[str, Any] = {"_": type(obj).__name__}
        for f in attrs.fields(type(obj)):
            value = getattr(obj, f.name)
            # A field added after rulesets were pinned says so (`hash_if_default: False`), so
            # rules that do not use it keep their content hash.
            if f.metadata.get("hash_if_default", True) or value != f.default:
                out[f.name] = to_data(value)
        return out
    if isinstance(obj, (tuple, list)):
        return [to_data(x) for x in obj]
    return obj


def content_hash(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
