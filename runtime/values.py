"""Run-time values of a game: components, entities and zone references.

Components are created once per game and never change; an entity's fields and variables,
which do, live in the state (`State.ev`), as does its `alive` flag (an entity removed from
play leaves every entity set). A zone is
a plain Python list in `State.zones`, addressed by a `ZoneRef`; index 0 is the top.
"""

from __future__ import annotations

from typing import Any

# names a component's attribute cannot also take as a Python attribute
RESERVED = frozenset(("id", "kind", "name", "d", "_n", "__dict__", "__class__"))


class Comp:
    """A component (card, cube, tile...): `d` maps attribute name to value, plus `name` and `kind`.

    Each attribute is also a Python attribute of the component (`card.colour`), which generated
    code reads (runtime.codegen) faster than `card.d["colour"]`; the names in `RESERVED` are
    read from `d` only."""

    __slots__ = ("id", "kind", "name", "d", "__dict__")

    def __init__(self, id: int, kind: str, name: str, attrs: dict[str, Any]):
        self.id = id
        self.kind = kind
        self.name = name
        self.d = {**attrs, "name": name, "kind": kind}
        for k, v in attrs.items():
            if k not in RESERVED:
                setattr(self, k, v)

    def __repr__(self) -> str:
        return f"<{self.kind} {self.name}>"


class Ent:
    """An entity (a tile with a terrain that flips). The object never changes once the tables
    are built, and a game and its clones share it: `d` holds what never changes (`name`,
    `index`, its zones), while its fields and variables, which rules may assign, live in the
    state's columns (`State.ev[member][e._n]`, read with `State.member`), as does whether it
    is still in play (`State.ent_alive[e._n]`). `_n` is its position in `State.entities`;
    `keys` names its members in declaration order (what views list). `State.make` builds one."""

    __slots__ = ("kind", "index", "name", "d", "set_names", "_n", "keys")

    def __init__(self, kind: str, index: int, name: str, fields: dict[str, Any]):
        self.kind = kind
        self.index = index
        self.name = name
        self.d: dict[str, Any] = {**fields, "name": name, "index": index}
        self.set_names: list[str] = []
        self._n = -1
        self.keys: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"<{self.kind} {self.name}>"


class ZoneRef:
    """One zone instance: `idx` into `State.zones`, its display `key` (e.g. `hand[1]`,
    `tile2.side[0]`), the component type it holds, its visibility and owning seat (or None)."""

    __slots__ = ("idx", "key", "holds", "visibility", "owner", "ordered", "decl_name", "spectators", "watched", "tally",
                 "by_name", "hidden_args", "seen")

    def __init__(self, idx: int, key: str, holds: str, visibility: str, owner: int | None, ordered: bool, decl_name: str):
        self.idx = idx
        self.key = key
        self.holds = holds
        self.visibility = visibility
        self.owner = owner
        self.ordered = ordered
        self.decl_name = decl_name
        self.spectators = False  # `spectators see` this zone's declaration
        self.watched = True  # some trigger reads it: a change is marked in `State.dirty`
        # (the zone's list, {attr: {value: count}}): runtime.codegen's `_count_of`
        self.tally: tuple[list, dict[str, dict[Any, int]]] | None = None
        # (the zone's list, its components sorted by name): `State.draw_random`
        self.by_name: tuple[list, list] | None = None
        # (move argument name, slot) -> the `refs` and `hidden_from` of a move event taking the
        # component at that slot (runtime.game's `_hidden_arg`)
        self.hidden_args: dict[tuple[str, int], tuple[dict, dict]] = {}
        # the seats that see the contents, once asked (`State.seen`: a zone reference belongs
        # to the tables of one number of seats)
        self.seen: list[int] | None = None

    def visible_to(self, viewer: int | None) -> bool:
        """Whether `viewer` (a seat, or None for a spectator) sees the contents, not just the count.
        A spectator sees public zones and those the ruleset shows spectators (`spectators see`),
        nothing else: by default only what every seat sees."""
        v = self.visibility
        if v == "public":
            return True
        if viewer is None:
            return self.spectators
        if v == "owner":
            return viewer is not None and viewer == self.owner
        if v == "others":
            return self.owner is not None and viewer != self.owner
        return False

    def count_visible(self) -> bool:
        return self.visibility != "secret"

    def __repr__(self) -> str:
        return f"<zone {self.key}>"


def encode(v: Any) -> Any:
    """A run-time value as canonical JSON: components and entities by name, maps with string keys."""
    if isinstance(v, (Comp, Ent)):
        return v.name
    if isinstance(v, ZoneRef):
        return v.key
    if isinstance(v, dict):
        return {str(encode(k)): encode(x) for k, x in sorted(v.items(), key=lambda kv: str(encode(kv[0])))}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    return v
