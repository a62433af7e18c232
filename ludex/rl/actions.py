"""A ruleset's moves as one fixed, numbered action space (`Discrete(n)`), derived from the IR.

Every move declaration, in declaration order, takes a block of action numbers: the product of
its arguments' universes, the first argument varying slowest. An argument's universe is what
its domain expression (`NAME in DOMAIN`) can ever yield, found once from the IR and the
game's tables (for the given seats and options), never from a running game:

- `seats` -> the seats 0..n-1; an enum's name -> its values; a constant, a range or a list
  whose ends and items are constants (`1..5`, `[0, 1]`, `hint_colours`) -> its values, in
  order (`Values`).
- a component set -> its components; a zone (`hand[actor]`, `f.side[s]`, `deck`) -> the
  components of the kinds it holds, in the game's component order, where the mover can
  see them, and the zone's slots 0..S-1 (S: how many such components exist) where the mover
  cannot (a card in one's own hand held facing away is chosen by its place, as
  `runtime.Move` names it: `hand[0]@2`). A `where` filter that reads only the component and
  constants (`where it is tactic and .tname == scout`) narrows the components
  (`Components`).
- an entity set -> its entities (`Entities`).
- anything else (a function's result, a filtered list of maps) -> ordinals 0..cap-1: the
  k-th distinct legal value of that argument given the arguments before it, in the order
  the engine lists the legal moves (`Ordinal`). A legal move past the cap raises
  `ActionSpaceTooSmall` naming the move: raise `ordinal_cap`.

So action numbers are fixed by the rules text, the seats and the options: `ActionTable.version`
(the ruleset's content hash with the seats and options) names the numbering, and a policy
trained on one version reads actions of that version only.
"""

from __future__ import annotations

import json
from operator import itemgetter
from typing import Any

import attrs
import numpy as np

from dsl import ast as A
from runtime import Game, IllegalMove, Move
from runtime.values import Comp, Ent

DEFAULT_ORDINAL_CAP = 32
_UNKNOWN = object()


class ActionSpaceTooSmall(ValueError):
    """A legal move has an argument value beyond its universe (an ordinal past the cap)."""


@attrs.frozen
class Values:
    """Constant values, in domain order (JSON form: ints, enum values as text, seats)."""

    values: tuple[Any, ...]

    @property
    def size(self) -> int:
        return len(self.values)

    def labels(self) -> list[str]:
        return [json.dumps(v) for v in self.values]


@attrs.frozen
class Components:
    """Components by name (`names`), then `slots` places in a zone the mover cannot see."""

    names: tuple[str, ...]
    slots: int

    @property
    def size(self) -> int:
        return len(self.names) + self.slots

    def labels(self) -> list[str]:
        return list(self.names) + [f"@{i}" for i in range(self.slots)]


@attrs.frozen
class Entities:
    names: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.names)

    def labels(self) -> list[str]:
        return list(self.names)


@attrs.frozen
class Ordinal:
    """The k-th distinct legal value (given the earlier arguments), k < cap."""

    cap: int

    @property
    def size(self) -> int:
        return self.cap

    def labels(self) -> list[str]:
        return [f"#{k}" for k in range(self.cap)]


Universe = Values | Components | Entities | Ordinal


@attrs.frozen
class MoveBlock:
    """One move declaration's block of actions: numbers `offset`..`offset + size - 1`."""

    name: str
    args: tuple[str, ...]
    universes: tuple[Universe, ...]
    offset: int
    size: int
    radix: tuple[int, ...]  # the stride of each argument's index within the block


class ActionTable:
    """The action numbering of a ruleset at given seats and options (see the module docstring).

    `n` is the number of actions; `blocks` the moves' blocks in declaration order;
    `version` names the numbering. Raises ValueError when the action space would exceed
    `max_actions` (a move whose arguments' product is too large to enumerate)."""

    def __init__(self, game: Game, ordinal_cap: int = DEFAULT_ORDINAL_CAP, max_actions: int = 1_000_000):
        rs, st = game.ruleset, game.st
        self.ordinal_cap = ordinal_cap
        self._st = st
        self._rs = rs
        self._zone_decls = {z.name: z for z in rs.zones}  # global zones, named alone
        self._entity_zones = {z.name: z for et in rs.entity_types for z in et.zones}  # named after `e.`
        self._consts = {c.name for c in rs.consts} | {c.name for c in rs.component_sets} | {e.name for e in rs.entity_sets}
        self._enums = {e.name: e.values for e in rs.enums}
        blocks: list[MoveBlock] = []
        offset = 0
        for m in rs.moves:
            us = tuple(self._universe(b.domain) for b in m.params)
            radix: list[int] = []
            stride = 1
            for u in reversed(us):
                radix.append(stride)
                stride *= u.size
            size = stride
            blocks.append(MoveBlock(m.name, tuple(b.name for b in m.params), us, offset, size, tuple(reversed(radix))))
            offset += size
            if offset > max_actions:
                raise ValueError(f"the action space of {rs.name} passes {max_actions} actions at move '{m.name}' "
                                 f"({' x '.join(str(u.size) for u in us)}); narrow its argument domains")
        self.blocks = tuple(blocks)
        self.by_name = {b.name: b for b in blocks}
        self._block_no = {b.name: k for k, b in enumerate(blocks)}
        self.n = offset
        self.version = f"{rs.content_hash[:16]}/seats={game.seats}/options={json.dumps(game.st.options, sort_keys=True)}"
        # per block and argument: value -> index (names for components, values otherwise)
        self._index: list[list[dict[Any, int]]] = [
            [{_key(v): i for i, v in enumerate(_members(u))} for u in b.universes] for b in blocks]
        # (state version, seat, actions, state, legal moves): `actions`' last answer
        self._listing: tuple[int, int, list[int], Any, list[Move]] | None = None
        self._seen_by: dict[int, tuple[list[bool], Any]] = {}
        # per block: "values" (every argument a constant value: its numbers are remembered by
        # binding in `_memo`), "ordinal" (numbered from encoded moves), "one component" (a
        # single component argument), else "bound"
        self._kinds = ["ordinal" if any(u.__class__ is Ordinal for u in b.universes)
                       else "values" if all(u.__class__ is Values for u in b.universes)
                       else "one component" if len(b.universes) == 1 and b.universes[0].__class__ is Components
                       else "bound" for b in blocks]
        self._memo: list[dict[tuple, int]] = [{} for _ in blocks]
        # move name -> (block number, block, kind, the lookup of its remembered numbers)
        self._block_of = {b.name: (k, b, kind, memo.__getitem__)
                          for k, (b, kind, memo) in enumerate(zip(blocks, self._kinds, self._memo))}
        # per block: the positions of its component arguments (a "bound" block's binding is
        # remembered only while they lie in zones the seat sees: then they count by name)
        self._comp_args = [tuple(j for j, u in enumerate(b.universes) if u.__class__ is Components) for b in blocks]
        # per block and argument: (components named, universe size)
        self._sizes = [[(len(u.names) if isinstance(u, Components) else 0, u.size) for u in b.universes] for b in blocks]

    # ---- the universes ----
    def _universe(self, node: A.Node) -> Universe:
        op = node.op
        if op == "where":
            u = self._universe(node.args[0])
            if isinstance(u, Components):
                comps = {c.name: c for c in self._st.comps}
                kept = tuple(n for n in u.names if _static_test(node.args[1], comps[n], self) is not False)
                return Components(kept, u.slots)
            return u
        zone = self._zone(node)
        if zone is not None:
            return self._zone_universe(zone, node)
        if op == "name":
            name = node.args[0]
            if name == "seats":
                return Values(tuple(range(self._st.nseats)))
            if name in self._enums:
                return Values(tuple(self._enums[name]))
        v = self._static(node, None)
        if v is not _UNKNOWN and isinstance(v, (list, tuple)):
            if v and all(x.__class__ is Comp for x in v):
                return Components(tuple(c.name for c in v), 0)
            if v and all(x.__class__ is Ent for x in v):
                return Entities(tuple(e.name for e in v))
            if all(isinstance(x, (int, str, bool)) for x in v):
                return Values(tuple(dict.fromkeys(v)))
        return Ordinal(self.ordinal_cap)

    def _zone(self, node: A.Node) -> Any:
        """The zone declaration `node` names (`Z`, `Z[i]`, `e.Z`, `e.Z[i]`), or None."""
        if node.op == "index":
            node = node.args[0]
        if node.op == "name":
            return self._zone_decls.get(node.args[0])
        if node.op == "attr":
            return self._entity_zones.get(node.args[1])
        return None

    def _zone_universe(self, z: Any, node: A.Node) -> Components:
        kinds = set(z.holds.split("|"))
        comps = tuple(c.name for c in self._st.comps if c.kind in kinds)
        by_actor = node.op == "index" and node.args[1].op == "name" and node.args[1].args[0] == "actor"
        vis = z.visibility
        if vis == "public":
            return Components(comps, 0)
        if vis == "owner" and by_actor:
            return Components(comps, 0)
        if vis == "others" and by_actor:
            return Components((), len(comps))
        if vis in ("hidden", "secret"):
            return Components((), len(comps))
        return Components(comps, len(comps))

    def _static(self, node: A.Node, it: Any) -> Any:
        """The value of a constant expression (constants, literals, ranges, lists, options,
        enum values, `nseats`; `it` and its attributes when `it` is given), else _UNKNOWN."""
        op, a = node.op, node.args
        if op == "lit":
            return a[0]
        if op == "it":
            return it if it is not None else _UNKNOWN
        if op == "name":
            n = a[0]
            if n == "nseats":
                return self._st.nseats
            if n in self._consts:
                return self._st.g.get(n, _UNKNOWN)
            for values in self._enums.values():
                if n in values:
                    return n
            return _UNKNOWN
        if op == "attr":
            if a[0].op == "name" and a[0].args[0] == "option":
                return self._st.options.get(a[1], _UNKNOWN)
            obj = self._static(a[0], it)
            if obj is _UNKNOWN or not hasattr(obj, "d"):
                return _UNKNOWN
            try:
                return self._st.member(obj, a[1])
            except KeyError:
                return _UNKNOWN
        if op == "range":
            lo, hi = self._static(a[0], it), self._static(a[1], it)
            if isinstance(lo, int) and isinstance(hi, int):
                return list(range(lo, hi + 1))
            return _UNKNOWN
        if op == "list_lit":
            items = [self._static(x, it) for x in a]
            return _UNKNOWN if any(x is _UNKNOWN for x in items) else items
        if op == "neg":
            v = self._static(a[0], it)
            return -v if isinstance(v, int) else _UNKNOWN
        if op == "binop":
            x, y = self._static(a[1], it), self._static(a[2], it)
            if x is _UNKNOWN or y is _UNKNOWN:
                return _UNKNOWN
            try:
                return _BINOPS[a[0]](x, y)
            except (KeyError, TypeError):
                return _UNKNOWN
        return _UNKNOWN

    # ---- numbering ----
    def describe(self, action: int) -> str:
        """`action` as text: `move(arg=label, ...)`; a label is a value, a component name,
        `@k` (the k-th place of a zone the mover cannot see) or `#k` (the k-th legal choice)."""
        b, idx = self.decode(action)
        labels = [u.labels()[i] for u, i in zip(b.universes, idx)]
        return f"{b.name}(" + ", ".join(f"{n}={v}" for n, v in zip(b.args, labels)) + ")"

    def decode(self, action: int) -> tuple[MoveBlock, tuple[int, ...]]:
        """The move block of `action` and each argument's index in its universe; raises
        ValueError for a number outside 0..n-1."""
        if not 0 <= action < self.n:
            raise ValueError(f"action {action} is outside this ruleset's actions 0..{self.n - 1}")
        for b in self.blocks:
            if action < b.offset + b.size:
                rest = action - b.offset
                return b, tuple((rest // r) % u.size for r, u in zip(b.radix, b.universes))
        raise AssertionError("unreachable")

    def legal(self, game: Game, seat: int) -> dict[int, int]:
        """`seat`'s legal actions now: action -> index in `game.legal_moves(seat)` (a new dict).
        Raises ActionSpaceTooSmall when a legal move has no action."""
        acts = self.actions(game, seat)
        return dict(zip(acts, range(len(acts))))

    def actions(self, game: Game, seat: int) -> list[int]:
        """The action number of each legal move of `seat` now, in the order of
        `game.legal_moves(seat)` (empty when it is not that seat's decision). Found once per
        state version and kept: the list is the table's, read it but do not change it.
        Raises ActionSpaceTooSmall when a legal move has no action."""
        st = game.st
        got = self._listing
        if got is not None and got[0] == st.version and got[1] == seat and got[3] is st:
            return got[2]
        moves = game.legal_moves(seat)
        listing = getattr(moves, "_listing", None)
        if listing is None or moves._full:  # type: ignore[attr-defined]
            acts = self._legal_slow(moves)
        else:
            acts = self._legal_fast(st, seat, listing)
        self._listing = (st.version, seat, acts, st, moves)
        return acts

    def mask(self, game: Game, seat: int) -> Any:
        """1 at each legal action of `seat` now, else 0 (all 0 when it is not `seat`'s decision):
        a new int8 numpy array of length `n` (the caller's to keep or change)."""
        mask = _zeros(self.n, _INT8)
        if not game.terminal and game.st.actor == seat:
            mv = mask.data  # item by item through the memoryview: cheaper than numpy's fancy indexing from a list
            for a in self.actions(game, seat):
                mv[a] = 1
        return mask

    def _legal_slow(self, moves: list[Move]) -> list[int]:
        """Numbers from each move's encoded arguments (what a client would send)."""
        ordinals: dict[tuple, dict[str, int]] = {}
        return [self._number(m, ordinals) for m in moves]

    def _legal_fast(self, st: Any, seat: int, listing: Any) -> list[int]:
        """Numbers from the listing's bound values, without encoding the moves: a component
        counts by name where the seat sees its zone, else by its place, as `Move.args` says.

        A move's bindings are numbered together, in C where the numbers follow from the
        bindings alone: a binding of constants, or of components lying where the seat sees
        them, has one number for good (remembered per block in `_memo`); a one-component
        move whose bindings are a hidden zone's whole contents in order numbers its places
        0..k-1. Anything else is numbered binding by binding (`_bound`)."""
        out: list[int] = []
        bindings = listing.bindings
        visible, vis_of = self._visible(st, seat)
        loc, zones = st.loc, st.zones
        start = 0
        for end, mc in listing.spans:
            k_b, b, kind, remembered = self._block_of[mc.name]
            chunk = bindings[start:end]
            start = end
            if kind == "values":  # the action of a binding never changes: remembered
                had = len(out)
                try:
                    out += map(remembered, chunk)
                    continue
                except KeyError:  # one first met: numbered below, then remembered
                    del out[had:]
            elif kind == "one component" and (places := _hidden_run(chunk, loc, zones, visible)) is not None:
                named, size = self._sizes[k_b][0]  # a hidden zone's places, in order
                if named + places > size:
                    raise ActionSpaceTooSmall(f"move '{mc.name}': place {places - 1} is not in its argument's "
                                              f"universe ({size} values)")
                first = b.offset + named
                out += range(first, first + places)
                continue
            elif kind == "ordinal":
                ordinals: dict[tuple, dict[str, int]] = {}
                enc = listing.encode
                out += [self._number(Move(mc.name, dict(zip(mc.names, map(enc, bd)))), ordinals) for bd in chunk]
                continue
            elif _all_seen(chunk, self._comp_args[k_b], loc, vis_of):
                had = len(out)
                try:
                    out += map(remembered, chunk)
                    continue
                except KeyError:
                    del out[had:]
            else:  # components where the seat does not see them: binding by binding, not remembered
                index = self._index[k_b]
                out += [self._bound(b, index, bd, visible, loc, zones, mc.name) for bd in chunk]
                continue
            # constants, or components the seat sees: numbered once and remembered
            memo, index = self._memo[k_b], self._index[k_b]
            if len(memo) > 100_000:
                memo.clear()
            for bd in chunk:
                a = memo.get(bd)
                if a is None:
                    a = memo[bd] = self._bound(b, index, bd, visible, loc, zones, mc.name)
                out.append(a)
        return out

    def _bound(self, b: MoveBlock, index: list[dict[Any, int]], binding: tuple, visible: list[bool], loc: list,
               zones: list, name: str) -> int:
        """The action number of one binding (a component by name where the seat sees its zone, else by place)."""
        action = b.offset
        for v, ix, r, (named, size) in zip(binding, index, b.radix, self._sizes[self._block_no[name]]):
            cls = v.__class__
            if cls is Comp:
                zi = loc[v.id]
                if zi is None or visible[zi]:
                    k = ix.get(v.name)
                else:
                    k = named + zones[zi].index(v)
                    if k >= size:
                        k = None
            elif cls is Ent:
                k = ix.get(v.name)
            else:
                k = ix.get(("b", v) if cls is bool else v)
            if k is None:
                raise ActionSpaceTooSmall(f"move '{name}': a value {v!r} is not in its argument's universe ({size} values)")
            action += k * r
        return action

    def _number(self, m: Move, ordinals: dict[tuple, dict[str, int]]) -> int:
        k_b = self._block_no[m.name]
        b, index = self.blocks[k_b], self._index[k_b]
        args = m.args
        action = b.offset
        prefix: tuple = (m.name,)
        for j, (name, u, r) in enumerate(zip(b.args, b.universes, b.radix)):
            v = args[name]
            if u.__class__ is Ordinal:
                key = json.dumps(v, sort_keys=True)
                seen = ordinals.setdefault(prefix, {})
                k = seen.get(key)
                if k is None:
                    k = seen[key] = len(seen)
                if k >= u.cap:  # type: ignore[union-attr]
                    raise ActionSpaceTooSmall(f"move '{m.name}' has more than {u.cap} legal choices of '{name}' "  # type: ignore[union-attr]
                                              f"here; raise ordinal_cap")
                prefix = prefix + (key,)
            else:
                k = index[j].get(_key(v))
                if k is None and u.__class__ is Components and isinstance(v, str) and "@" in v:
                    k = len(u.names) + int(v.rsplit("@", 1)[1])  # type: ignore[union-attr]
                if k is None or k >= u.size:
                    raise ActionSpaceTooSmall(f"move '{m.name}': {name}={json.dumps(v)} is not in its universe "
                                              f"({u.__class__.__name__}, {u.size} values)")
                prefix = prefix + (k,)
            action += k * r
        return action

    def _visible(self, st: Any, seat: int) -> tuple[list[bool], Any]:
        """Per zone index, whether `seat` sees its contents (fixed: visibility and owner never
        change), as a list and as a lookup function that also answers True for None (a
        component lying in no zone)."""
        got = self._seen_by.get(seat)
        if got is None or len(got[0]) != len(st.zone_refs):
            seen = [z.visible_to(seat) for z in st.zone_refs]
            by_zone: dict[int | None, bool] = {**dict(enumerate(seen)), None: True}
            got = self._seen_by[seat] = (seen, by_zone.__getitem__)
        return got

    def to_move(self, game: Game, seat: int, action: int) -> Move:
        """The legal move `action` stands for now. Raises IllegalMove when it is not legal
        (or not `seat`'s decision), naming the move it decodes to."""
        acts = self.actions(game, seat)
        action = int(action)  # (a numpy integer compares slowly)
        try:
            i = acts.index(action)
        except ValueError:
            what = self.describe(action) if 0 <= action < self.n else f"action {action}"
            raise IllegalMove(f"{what} is not legal for seat {seat} now") from None
        return self._listing[4][i]  # type: ignore[index]  # the moves `actions` numbered

    def to_action(self, game: Game, seat: int, move: Move | dict) -> int:
        """The action number of `move` (a legal move of `seat` now, as listed or as a client
        writes it). Raises IllegalMove when it is not legal now."""
        m = move if isinstance(move, Move) else Move.from_dict(move)
        acts = self.actions(game, seat)
        moves = game.legal_moves(seat)
        for a, i in zip(acts, range(len(acts))):
            if moves[i] == m:
                return a
        raise IllegalMove(f"{m.name}({json.dumps(m.args)}) is not a legal move of seat {seat} now")

    def layout(self) -> list[dict[str, Any]]:
        """The numbering as data: per move its first action, size, arguments and their labels."""
        return [{"move": b.name, "offset": b.offset, "size": b.size,
                 "args": [{"name": n, "kind": u.__class__.__name__, "labels": u.labels()} for n, u in zip(b.args, b.universes)]}
                for b in self.blocks]


def _hidden_run(chunk: list[tuple], loc: list, zones: list, visible: list[bool]) -> int | None:
    """For one-component bindings: their number when they are, in order, the whole contents of
    one zone the seat does not see (places 0..k-1), else None."""
    try:
        comps = list(map(_first, chunk))
        zi = loc[comps[0].id]
    except (AttributeError, IndexError):
        return None
    if zi is None or visible[zi] or comps != zones[zi]:  # (== on lists of components: identity, in C)
        return None
    return len(comps)


def _all_seen(chunk: list[tuple], comp_args: tuple[int, ...], loc: list, vis_of: Any) -> bool:
    """Whether every component argument of these bindings is a component lying nowhere or where
    the seat sees it (then each binding's action number depends on the binding alone). Each
    distinct component is looked at once (bindings repeat a component across its targets)."""
    try:
        for j in comp_args:
            for c in {*map(itemgetter(j), chunk)}:
                if not vis_of(loc[c.id]):
                    return False
    except (AttributeError, TypeError):  # not a component (a pick's offer)
        return False
    return True


_first = itemgetter(0)
_zeros, _INT8 = np.zeros, np.dtype(np.int8)


def _members(u: Universe) -> tuple[Any, ...]:
    if isinstance(u, Values):
        return u.values
    if isinstance(u, (Components, Entities)):
        return u.names
    return ()


def _key(v: Any) -> Any:
    # True == 1 in a dict: keep bools apart from ints
    return ("b", v) if v.__class__ is bool else v


_BINOPS = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
           "==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
           "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}


def _static_test(cond: A.Node, comp: Any, table: ActionTable) -> bool | None:
    """Whether a `where` condition holds of `comp` when it reads only the component and
    constants (True/False), else None (it depends on the game: keep the component)."""
    op, a = cond.op, cond.args
    if op == "and_":
        x, y = _static_test(a[0], comp, table), _static_test(a[1], comp, table)
        return False if x is False or y is False else (True if x and y else None)
    if op == "or_":
        x, y = _static_test(a[0], comp, table), _static_test(a[1], comp, table)
        return True if x is True or y is True else (False if x is False and y is False else None)
    if op == "not_":
        x = _static_test(a[0], comp, table)
        return None if x is None else not x
    if op == "is_":
        if a[0].op != "it":
            return None
        return comp.kind in str(a[1]).split("|")
    if op in ("in_", "not_in"):
        x, y = table._static(a[0], comp), table._static(a[1], comp)
        if x is _UNKNOWN or y is _UNKNOWN or not isinstance(y, (list, tuple, dict)):
            return None
        return (x in y) == (op == "in_")
    if op == "binop" and a[0] in ("==", "!=", "<", "<=", ">", ">="):
        v = table._static(cond, comp)
        return None if v is _UNKNOWN else bool(v)
    return None
