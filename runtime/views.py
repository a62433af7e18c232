"""Information sets: what a seat (or a spectator) sees of a game, and of each event.

This is the single place where hidden information is removed (boardgame.io's `playerView`).
A zone's visibility decides: `public` (everyone sees the components), `owner` (its seat
sees them, others the count), `others` (everyone but its seat sees them; its seat sees the
count and each slot's public marks), `hidden` (only the count), `secret` (nothing).
"""

from __future__ import annotations

from typing import Any, Iterable

from runtime import simultaneous
from runtime.events import Event
from runtime.values import Comp, ZoneRef, encode


def _comp(st: Any, c: Comp) -> dict[str, Any]:
    d = {k: encode(v) for k, v in c.d.items() if k != "kind"}
    d["kind"] = c.kind
    marks = st.marks.get(c.id)
    if marks:
        d["marks"] = encode(marks)
    return d


EVERYTHING = "all"
"""The viewer that sees every zone's contents (a referee after the game: `view(game, "all")`)."""


def zone_view(st: Any, z: ZoneRef, viewer: int | str | None) -> dict[str, Any]:
    """One zone as `viewer` sees it: `{count, components}` when it sees the contents, else the
    count (or None) and the public marks of its slots."""
    items = st.zones[z.idx]
    if viewer == EVERYTHING or z.visible_to(viewer):  # type: ignore[arg-type]
        return {"count": len(items), "components": [_comp(st, c) for c in items]}
    if not z.count_visible():
        return {"count": None}
    out: dict[str, Any] = {"count": len(items)}
    slots = [{"slot": i, "marks": encode(st.marks[c.id])} for i, c in enumerate(items) if c.id in st.marks]
    if slots:
        out["slots"] = slots
    return out


def view(game: Any, viewer: int | str | None) -> dict[str, Any]:
    """The view of `viewer` (a seat, None for a spectator, EVERYTHING for all) as JSON: turn
    machine, zones by key, entities, variables, reveals."""
    st = game.st
    rs = game.prog.rs
    var_names = [v.name for v in rs.vars]
    ents = {}
    for e in st.entities:
        fields = entity_fields(st, e)
        fields["alive"] = st.ent_alive[e._n]
        ents[e.name] = fields
    out = {
        "ruleset": rs.name,
        "variants": list(rs.variants),
        "seat": viewer,
        "ply": len(st.events),
        "step": st.step,
        "actor": None if st.terminal else st.actor,
        "current": st.current,
        "terminal": st.terminal,
        "outcome": st.outcome,
        "options": encode(st.options),
        "zones": {z.key: zone_view(st, z, viewer) for z in st.zone_refs},
        "entities": ents,
        "vars": {n: encode(st.g[n]) for n in var_names},
        "revealed": [dict(r) for r in st.reveals],
    }
    if st.sim is not None:  # a simultaneous step's round: who has chosen, and the viewer's own choice
        out["simultaneous"] = simultaneous.round_view(st.sim, viewer, _move_json)
    return out


def seen_by(game: Any, viewers: Iterable[int | None]) -> dict[int | None, set[str]]:
    """`{viewer: the names of the components it sees now}` for each of `viewers` (None: a
    spectator), as `view` would show them by name (in a zone whose contents it sees), in one pass
    over the zones and without drawing a view. `game` is a `Game`, or anything with its `st`."""
    st = game.st
    return _sorted_by_sight(viewers, ((z, [c.name for c in st.zones[z.idx]]) for z in st.zone_refs))


def passed_by(game: Any, viewers: Iterable[int | None], passing: Iterable[tuple[str, int]]) -> dict[int | None, set[str]]:
    """For each of `viewers`, the names of the components of `passing` it saw pass: `(component
    name, index of the zone it entered)` pairs (`State.passing`, the moves of one decision), those
    into a zone whose contents the viewer sees, as `seen` would have named them there, however
    briefly they lay in it (a card laid face up that the same move's effects turn face down)."""
    into: dict[int, list[str]] = {}
    for name, i in passing:
        into.setdefault(i, []).append(name)
    refs = game.st.zone_refs
    return _sorted_by_sight(viewers, ((refs[i], names) for i, names in into.items()))


def _sorted_by_sight(viewers: Iterable[int | None],
                     contents: Iterable[tuple[ZoneRef, list[str]]]) -> dict[int | None, set[str]]:
    """`{viewer: names}`: the names listed with each zone of `contents` go to the viewers that see
    the zone's contents."""
    out: dict[int | None, set[str]] = {v: set() for v in viewers}
    for z, names in contents:
        if not names:
            continue
        for v, named in out.items():
            if z.visible_to(v):
                named.update(names)
    return out


def told(game: Any, viewer: int | None, events: Iterable[Event]) -> set[str]:
    """The component names `events` tell `viewer` openly, as `event_view` shows them to it: the
    chance outcomes and reveals it sees, and the move arguments it is not shown as slots (a
    sealed choice only to its own seat)."""
    who = -1 if viewer is None else viewer
    spectator_zones: frozenset[str] | None = None
    out: set[str] = set()
    for e in events:
        if e.kind == "chance" and e.seen_by is not None:
            if viewer is None:
                if spectator_zones is None:
                    spectator_zones = frozenset(z.key for z in game.st.zone_refs if z.spectators)
                if e.zone not in spectator_zones:
                    continue
            elif viewer not in e.seen_by:
                continue
        if e.kind == simultaneous.SEALED and viewer != e.seat:
            continue
        out.update(e.outcome)
        out.update(v for k, v in e.args.items() if isinstance(v, str) and who not in e.hidden_from.get(k, ()))
    return out


def _move_json(mc: Any, binding: tuple) -> dict[str, Any]:
    return {"name": mc.name, "args": {n: encode(v) for n, v in zip(mc.names, binding)}}


def entity_fields(st: Any, e: Any) -> dict[str, Any]:
    """Entity `e`'s fields and variables in state `st` as JSON (lists and maps included); its
    zones are left out, as they appear among the zones under their own keys (`tile2.side[0]`)."""
    return {k: encode(v) for k, v in st.entity_members(e).items() if not _is_zone(v)}


def _is_zone(v: Any) -> bool:
    if v.__class__ is ZoneRef:
        return True
    if v.__class__ is dict:
        v = list(v.values())
    return v.__class__ is list and bool(v) and all(x.__class__ is ZoneRef for x in v)


def full_state(game: Any) -> dict[str, Any]:
    """Everything that makes the state, canonically (used for the state hash): options,
    every zone's contents in order, every variable, every entity's fields, variables and
    `alive`, marks, the turn machine, the outcome and the standing reveals. Not part of it:
    the seed's generator and the log (two games reaching one position hash alike)."""
    st = game.st
    return {
        "options": encode(st.options),
        "zones": {z.key: [c.name for c in st.zones[z.idx]] for z in st.zone_refs},
        "vars": {v.name: encode(st.g[v.name]) for v in game.prog.rs.vars},
        "entities": {e.name: [st.ent_alive[e._n], entity_fields(st, e)] for e in st.entities},
        "marks": {st.comps[i].name: encode(m) for i, m in sorted(st.marks.items())},
        "turn": [st.step, st.actor, st.current, st.terminal],
        "outcome": st.outcome,
        "reveals": st.reveals,
    } | ({} if st.sim is None else {"round": [list(st.sim.seats), [[seat, mc.name, encode(list(b))] for seat, mc, b in st.sim.chosen]]})


def event_view(e: Event, viewer: int | None, spectator_zones: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The event as JSON for `viewer`: hidden chance outcomes become a count, component
    arguments the viewer could not see become slot references. A spectator sees the chance
    outcomes of `spectator_zones` (the zones the ruleset shows spectators, by key)."""
    from runtime.events import event_to_dict

    d = event_to_dict(e)
    who = -1 if viewer is None else viewer
    blind = (e.zone not in spectator_zones) if viewer is None else (viewer not in (e.seen_by or ()))
    if e.kind == "chance" and e.seen_by is not None and blind:
        d["outcome"] = []
        d["hidden"] = len(e.outcome)
    for name, blind in e.hidden_from.items():
        if who in blind:
            d["args"][name] = e.refs[name]
    d.pop("refs", None)
    d.pop("hidden_from", None)
    if e.kind == simultaneous.SEALED and viewer != e.seat:
        simultaneous.blank(d)
    return d
