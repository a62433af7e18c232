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
- a pick of several at once (`NAME in COUNT of DOMAIN`, COUNT a constant) -> every ordered
  choice of COUNT different values of the domain's universe, in `itertools.permutations` order
  (`Picks`); the legal ones are the choices the move's requires accept (`Game.legal_picks`).
- anything else (a function's result, a filtered list of maps) -> ordinals 0..cap-1: the
  k-th distinct legal value of that argument given the arguments before it, in the order
  the engine lists the legal moves (`Ordinal`). A legal move past the cap raises
  `ActionSpaceTooSmall` naming the move: raise `ordinal_cap`.

So action numbers are fixed by the rules text, the seats and the options: `ActionTable.version`
(the ruleset's content hash with the seats and options) names the numbering, and a policy
trained on one version reads actions of that version only.
"""

from __future__ import annotations

import itertools
import json
import math
from operator import itemgetter
from typing import Any, NamedTuple

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


@attrs.frozen
class Picks:
    """`count` different elements of `base` at once, in order (a move's `NAME in COUNT of
    DOMAIN`, runtime.picks): every ordered choice of `count` distinct indices of `base`,
    numbered in lexicographic order (`_perm_rank`); size n!/(n-count)! for a base of n."""

    base: Values | Components | Entities
    count: int

    @property
    def size(self) -> int:
        return math.perm(self.base.size, self.count)

    def label(self, k: int) -> str:
        """The `k`-th ordered choice, as `[label, label...]` of the base's labels."""
        names = self.base.labels()
        return "[" + ",".join(names[i] for i in _perm_unrank(k, self.base.size, self.count)) + "]"

    def labels(self) -> list[str]:
        names = self.base.labels()
        return ["[" + ",".join(names[i] for i in p) + "]" for p in itertools.permutations(range(self.base.size), self.count)]


Universe = Values | Components | Entities | Ordinal | Picks


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

    `game` names the ruleset, the seats and the options (any game of them, at any point of
    play); `n` is the number of actions; `blocks` the moves' blocks in declaration order;
    `version` names the numbering. Raises ValueError when the action space would exceed
    `max_actions` (a move whose arguments' product is too large to enumerate)."""

    def __init__(self, game: Game, ordinal_cap: int = DEFAULT_ORDINAL_CAP, max_actions: int = 1_000_000):
        # the numbering follows from the rules, the seats and the options alone: the universes
        # are read from a new game of them, not from `game`, where play may have removed
        # entities that an entity set names (a table made then would number otherwise)
        game = Game.new(game.ruleset, game.seats, dict(game.st.options), seed=0)
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
            us = tuple(self._param_universe(b, m.name) for b in m.params)
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
        self._single = {b.name: b.offset for b in blocks if not b.args}  # the action of each move with no argument
        # the moves with a pick argument (`Picks`): a listing holding one is numbered by `_with_picks`
        self._pick_moves = frozenset(b.name for b in blocks if any(u.__class__ is Picks for u in b.universes))
        self.n = offset
        self.version = f"{rs.content_hash[:16]}/seats={game.seats}/options={json.dumps(game.st.options, sort_keys=True)}"
        # per block and argument: value -> index (names for components, values otherwise)
        self._index: list[list[dict[Any, int]]] = [
            [{_key(v): i for i, v in enumerate(_members(u))} for u in b.universes] for b in blocks]
        # per block and argument: (components named, universe size)
        self._sizes = [[(len(u.names) if isinstance(u, Components) else 0, u.size) for u in b.universes] for b in blocks]
        # per block: the positions of its component arguments
        self._comp_args = [tuple(j for j, u in enumerate(b.universes) if u.__class__ is Components) for b in blocks]
        # `actions`' last answer: (state, version, seat, actions, [actions, mask or None]), the
        # state kept alive here (so `is` cannot mistake a new one for it): a state version has
        # one listing per seat (`Game.listed`)
        self._last: tuple[Any, int, int, list[int], list] | None = None
        # per seat: the listings it met last that `actions` recognises, newest first (`_seen`)
        self._recent: dict[int, list[tuple]] = {}
        self._found = self._missed = 0  # in `actions`' window: listings recognised, not recognised
        # the moves numbered by place in a hidden zone that is one zone for a given mover (`Z`, `Z[actor]`)
        self._one_zone = {m.name for m in rs.moves if len(m.params) == 1 and _one_zone(m.params[0].domain, self)}
        self._masks_max = min(_MASKS_MAX, max(16, _MASK_BYTES // max(self.n, 1)))
        self._templates = self.n <= _TEMPLATE_MAX  # whether `mask` may keep masks (see there)
        # what the numbering remembers depends on the numbering alone: the tables of one
        # numbering (the environments of a vector of them, say) share it
        shared_key = (rs.content_hash, game.seats, json.dumps(game.st.options, sort_keys=True), ordinal_cap)
        shared = _SHARED.pop(shared_key, None) if rs.content_hash else None
        if shared is not None:
            _SHARED[shared_key] = shared  # the newest again: the least recently used go first
        if shared is None:
            # per block and argument: where a component bound to it lies for the mover ("seen",
            # "unseen", "either"; None: not a component), from its domain (see `_sight`)
            sights = [tuple(self._sight(p.domain) if u.__class__ is Components else None for p, u in zip(m.params, b.universes))
                      for m, b in zip(rs.moves, blocks)]
            shared = _Remembered(
                # move name -> (what a run of its bindings' numbers follow from, the function numbering it): `_numberer`
                {b.name: self._numberer(k, sights[k]) for k, b in enumerate(blocks)},
                {},  # the mask of each list of actions met (`mask`), up to `_MASK_BYTES` bytes of masks
                {},  # per seat: whether it sees each zone (`_visible`)
                # [whether `actions` recognises recent listings]: while at least 3 in 4 of a
                # window of them are recognised (Hanabi's, 99.8%: less, the comparisons cost more
                # than they save); a property of the numbering's listings, so the first table to
                # find it does not pay decides for the others (a new environment starts judged)
                [True],
                # the names of the components by id and of the entities by position that the
                # numbering functions' tables were made from (`_same_tables`)
                ([c.name for c in st.comps], [e.name for e in st.entities]))
            if rs.content_hash:
                if len(_SHARED) >= _SHARED_MAX:  # a long-lived process trying many option sets
                    _SHARED.pop(next(iter(_SHARED), ()), None)  # the least recently used (none: another thread took it)
                _SHARED[shared_key] = shared
        self._numberers, self._masks, self._seen_by, self._recalls, self._names = shared
        # the components' and entities' lists of the last state found to have those names (its
        # clones share them): `actions` numbers a state whose lists are these from the tables
        self._comps: list | None = None
        self._ents: list | None = None

    def _sight(self, node: A.Node) -> str:
        """Where a component bound to an argument of domain `node` lies for the mover when the
        move is listed: "seen" (a zone every seat sees, or the mover's own zone its owner
        sees: numbered by name), "unseen" (a zone the mover never sees: by place), else
        "either" (asked of the zone it lies in)."""
        while node.op == "where":
            node = node.args[0]
        z = self._zone(node)
        if z is None:
            return "either"
        # `Z[actor]` of a zone per seat: the mover's own (its owner)
        by_actor = node.op == "index" and node.args[1].op == "name" and node.args[1].args[0] == "actor" and z.per_seat
        vis = z.visibility
        if vis == "public" or (vis == "owner" and by_actor):
            return "seen"
        if vis in ("hidden", "secret") or (vis == "others" and by_actor):
            return "unseen"
        return "either"

    # ---- the universes ----
    def _param_universe(self, b: A.Binder, move: str) -> Universe:
        """A move parameter's universe: its domain's (`_universe`), or `Picks` of it for a
        pick binder (`NAME in COUNT of DOMAIN`, whose COUNT must be a constant). Raises
        ValueError for a pick whose count is not a constant or whose domain has no fixed
        universe."""
        u = self._universe(b.domain)
        if b.count is None:
            return u
        k = self._static(b.count, None)
        if k.__class__ is not int or k < 0:
            raise ValueError(f"move '{move}': '{b.name}' picks a number of elements that is not a constant; "
                             "a fixed action space needs one")
        if u.__class__ is Ordinal or u.__class__ is Picks:
            raise ValueError(f"move '{move}': '{b.name}' picks from a domain whose values are not known before play")
        return Picks(u, k)  # type: ignore[arg-type]

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
                return Values(tuple({_key(x): x for x in v}.values()))  # (by `_key`: True and 1 stay two values)
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
        labels = [u.label(i) if u.__class__ is Picks else u.labels()[i] for u, i in zip(b.universes, idx)]
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
        made = self._picks_made()
        if made is not None:  # several actions may stand for one listed offer
            return {a: i for a, (i, _m) in zip(acts, made)}
        return dict(zip(acts, range(len(acts))))

    def actions(self, game: Game, seat: int) -> list[int]:
        """The action number of each legal move of `seat` now, in the order of
        `game.legal_moves(seat)`, a pick's offer standing for one action per legal pick
        (`_with_picks`) (empty when it is not that seat's decision). Found once per
        state version and kept: the list is the table's, read it but do not change it.
        Raises ActionSpaceTooSmall when a legal move has no action.

        The numbers come from the engine's listing of the legal moves (`Game.listed`: their
        bindings, found once per state version), read without making the moves: each move's
        run of bindings is numbered by that move's function (`_numberer`: mostly one
        comprehension over small tables per move; a move with no argument here). A state whose
        components are not those the tables were made from (`_same_tables`) is numbered from
        its moves written out (`_legal_slow`). A listing the seat
        met among its last `_RECENT` (the same moves with as many bindings each, the same
        bindings where their values give the numbers, hidden zones of the same sizes where
        their places do) is recognised by comparing, not written out and hashed: Hanabi's
        recur so (a seat's hints and hand change slowly); where few recur (fewer than 3
        recognised for each one not, judged each time `_WINDOW` listings went unrecognised),
        every table of the numbering stops comparing, for as long as the numbering is
        remembered (`_SHARED`)."""
        st = game.st
        last = self._last
        if last is not None and last[0] is st and last[1] == st.version and last[2] == seat:
            return last[3]  # numbered in this state version
        listing = game.listed(seat)
        if listing is None:
            acts: list[int] = []
            self._last = (st, st.version, seat, acts, [acts, None])
            return acts
        spans = listing.spans
        bindings = listing.bindings
        if self._pick_moves and any(mc.name in self._pick_moves for _end, mc in spans):
            return self._with_picks(game, seat)
        if self._recalls[0]:
            # a listing the seat met lately, again? (compared in C, not hashed; `spans ==`
            # compares the moves by identity first, field by field when they differ: the count
            # of bindings and the first and last moves go first)
            nb = len(bindings)
            first, final = (spans[0][1], spans[-1][1]) if spans else (None, None)
            recent: Any = self._recent.get(seat, ())  # (read once: another thread's switch-off may clear the dict)
            for i, r in enumerate(recent):
                if r[0] == nb and r[1] is first and r[2] is final and r[3] == spans \
                        and (bindings if r[4] is None else r[4](bindings)) == r[5]:
                    zones = st.zones
                    for zi, k in r[6]:  # each hidden zone's whole contents still
                        if len(zones[zi]) != k:
                            break
                    else:
                        if i:  # (by place: `remove` would compare the moves field by field)
                            del recent[i]
                            recent.insert(0, r)
                        self._found += 1
                        entry: Any = r[7]  # [actions, mask or None]
                        acts = entry[0]
                        self._last = (st, st.version, seat, acts, entry)
                        return acts
            self._missed += 1
            if self._missed >= _WINDOW:  # (the listings of a window: recognising them pays?)
                if self._found < 3 * self._missed:
                    self._recalls[0] = False  # (for good, and for every table of the numbering)
                    self._recent.clear()
                self._found = self._missed = 0
        visible = self._seen_by.get(seat)
        if visible is None or len(visible) != len(st.zones):
            visible = self._visible(st, seat)
        numberers = self._numberers
        recall = self._recalls[0]
        if recall:
            seen = True  # whether `recent` can recognise it: every run numbered by its bindings or by place in one hidden zone
            places: list[tuple[int, int, int]] = []  # (start, zone index, length) of the runs numbered by place
            start = 0
            for end, mc in spans:
                name = mc.name
                kind = numberers[name][0]
                if kind == _PLACES and (zi := st.loc[bindings[start][0].id]) is not None and not visible[zi] \
                        and end - start == len(st.zones[zi]):
                    places.append((start, zi, end - start))
                    seen = seen and name in self._one_zone
                elif kind != _RUNS and kind != _BOUND:
                    seen = False
                    break
                start = end
        if st.comps is not self._comps or st.entities is not self._ents:
            self._same_tables(st)
        if self._comps is not st.comps or self._ents is not st.entities:  # not the tables' components: from the moves
            acts = self._legal_slow(game.legal_moves(seat))
        else:
            # a move with no argument (one binding, one action) is numbered here, not called:
            # such moves (pass, draw, done...) are often a listing's only ones
            single = self._single
            if len(spans) == 1:  # (one move: its run is the whole listing)
                name = spans[0][1].name
                a = single.get(name)
                acts = [a] if a is not None and len(bindings) == 1 else numberers[name][1](bindings, st, visible, listing)
            else:
                acts = []
                start = 0
                for end, mc in spans:
                    a = single.get(mc.name)
                    if a is not None and end - start == 1:
                        acts.append(a)
                    else:
                        acts += numberers[mc.name][1](bindings[start:end], st, visible, listing)
                    start = end
        entry = [acts, None]  # the actions, their mask once made
        if recall and seen:
            recent = self._recent.get(seat)
            if recent is None:
                recent = self._recent[seat] = []
            recent.insert(0, _seen(spans, bindings, places, entry))
            if len(recent) > _RECENT:
                recent.pop()
        self._last = (st, st.version, seat, acts, entry)
        return acts

    def _same_tables(self, st: Any) -> None:
        """Take `st`'s lists of components and entities as `actions`' (`_comps`, `_ents`) when
        their names by id and by position are those the numbering functions' tables were made
        from (`_names`): a game and its clones share those lists, and the games of one ruleset,
        seats and options build them alike. Components or entities made later than the tables
        (ids past them) are numbered by name (`_numberer`'s fallback)."""
        comps, ents = self._names
        if len(st.comps) >= len(comps) and len(st.entities) >= len(ents) \
                and [c.name for c in st.comps[:len(comps)]] == comps and [e.name for e in st.entities[:len(ents)]] == ents:
            self._comps, self._ents = st.comps, st.entities

    @property
    def has_picks(self) -> bool:
        """Whether a move of the ruleset picks several at once (then `stuck` may say so of a
        decision the engine does not call stuck)."""
        return bool(self._pick_moves)

    def stuck(self, game: Game) -> bool:
        """Whether the game is at a decision with no legal action: the engine's stuck decision,
        or, in a ruleset with picks, one whose listed moves are offers with no pick their
        requires accept (listed, so the engine does not call it stuck)."""
        d = game.decision()
        if d.stuck:
            return True
        return bool(self._pick_moves) and bool(d.seats) and not self.actions(game, d.seats[0])

    def forget(self) -> None:
        """Drop `actions`' last answer (its numbers are found again from the listing; what the
        numbering functions remember stays): for benchmarks and tests."""
        self._last = None

    def mask(self, game: Game, seat: int) -> Any:
        """1 at each legal action of `seat` now, else 0 (all 0 when it is not `seat`'s decision):
        a new int8 numpy array of length `n` (the caller's to keep or change).

        Where `actions` recognises recent listings (they recur, and so do their lists of
        actions) and there are at most `_TEMPLATE_MAX` actions, each distinct list has its mask
        made once and kept (up to `_MASK_BYTES` bytes of them), and the answer is a copy. Else
        the mask is made anew, a zeroed buffer with its 1s set one by one: a kept mask would be
        found through a dict seldom in the processor's cache (a third of the overhead of
        Balloon Cup's step), and numpy turning a list of actions into positions costs more
        than the loop."""
        st = game.st
        last = self._last
        if last is None or last[0] is not st or last[1] != st.version or last[2] != seat:
            self.actions(game, seat)  # (none when it is not the seat's decision)
            last = self._last
        entry = last[4]  # type: ignore[index]  # [actions, mask]: `actions`' answer
        kept = entry[1]
        if kept is None:
            acts = entry[0]
            if not (self._recalls[0] and self._templates):
                return _ones(self.n, acts)
            key = tuple(acts)
            kept = self._masks.get(key)
            if kept is None:
                masks = self._masks
                if len(masks) >= self._masks_max:
                    masks.clear()
                kept = masks[key] = _ones(self.n, acts)
            entry[1] = kept
        return kept.copy()

    def _legal_slow(self, moves: list[Move]) -> list[int]:
        """Numbers from each move's encoded arguments (what a client would send)."""
        ordinals: dict[tuple, dict[str, int]] = {}
        return [self._number(m, ordinals) for m in moves]

    def _numberer(self, k_b: int, sights: tuple[str | None, ...]) -> tuple[int, Any]:
        """How `actions` numbers a run of block `k_b`'s bindings of one listing: `(kind,
        number)`, where `number(bindings, state, visible, listing) -> list of actions` (a new
        list; `visible` says per zone index whether the seat sees it) numbers any run, and
        `kind` says what the run's numbers follow from: `_RUNS`, the bindings alone
        (constants); `_BOUND`, each binding alone (components by name, entities, constants);
        `_PLACES`, its length alone when the run is a hidden zone's whole contents (a move's
        bindings over a zone follow the zone's order and bind each component once); `_CALL`,
        more. Built once per move, from what its arguments' domains say (`sights`):

        - ordinals: binding by binding, in listing order (`_ranked`);
        - else by the move's tables (`_tabled`: per argument, its value's share of the
          number), where every component lies where the seat sees it (always, when the
          domains say so; else checked per run, `_all_seen`), the whole contents of a hidden
          zone by place (`_PLACES`), else binding by binding (`_bound`: a component by name
          where the seat sees it, else by place). A value the tables do not know (outside its
          universe, or made after them) is numbered by `_bound`, which raises
          ActionSpaceTooSmall for a value outside its universe."""
        b, index = self.blocks[k_b], self._index[k_b]
        name = b.name
        if any(u.__class__ is Picks for u in b.universes):
            def number_picks(run: list[tuple], st: Any, visible: list[bool], listing: Any) -> list[int]:
                raise AssertionError("a listing with a pick is numbered by `_with_picks`")
            return _CALL, number_picks
        if any(u.__class__ is Ordinal for u in b.universes):
            def number_ordinals(run: list[tuple], st: Any, visible: list[bool], listing: Any) -> list[int]:
                ordinals: dict[tuple, dict[Any, int]] = {}
                loc, zones, ranked = st.loc, st.zones, self._ranked
                return [ranked(b, index, bd, visible, loc, zones, listing, ordinals) for bd in run]
            return _CALL, number_ordinals

        tabled = self._tabled(k_b)
        bound = self._bound

        def number_bound(run: list[tuple], st: Any, visible: list[bool], listing: Any = None) -> list[int]:
            if tabled is not None:
                try:
                    return tabled(run)
                except (LookupError, AttributeError, TypeError):  # a value the tables do not know
                    pass
            loc, zones = st.loc, st.zones
            return [bound(b, index, bd, visible, loc, zones, name) for bd in run]

        if all(s in (None, "seen") for s in sights):
            return (_RUNS if all(u.__class__ is Values for u in b.universes) else _BOUND), number_bound
        comp_args = self._comp_args[k_b]

        def number_each(run: list[tuple], st: Any, visible: list[bool], listing: Any) -> list[int]:
            if _all_seen(run, comp_args, st.loc, visible):
                return number_bound(run, st, visible)
            loc, zones = st.loc, st.zones  # components where the seat does not see them
            return [bound(b, index, bd, visible, loc, zones, name) for bd in run]
        if sights != ("unseen",):
            return _CALL, number_each
        # one argument, in a zone the mover never sees: a run that is the zone's whole
        # contents, in order, is numbered by its length alone
        named, size = self._sizes[k_b][0]
        r = b.radix[0]
        by_length = [list(range(b.offset + named * r, b.offset + (named + k) * r, r)) for k in range(size - named + 1)]

        def number_places(run: list[tuple], st: Any, visible: list[bool], listing: Any) -> list[int]:
            try:
                zi = st.loc[run[0][0].id]
                if zi is not None and not visible[zi]:
                    zone = st.zones[zi]
                    if len(zone) == len(run) < len(by_length) and list(map(_first, run)) == zone:
                        return by_length[len(run)][:]
            except (AttributeError, TypeError):  # not a component: numbered below
                pass
            return number_each(run, st, visible, listing)
        return _PLACES, number_places

    def _tabled(self, k_b: int) -> Any:
        """Block `k_b`'s numbering by tables, `number(bindings) -> list of actions`, or None
        when an argument is an ordinal or a constant universe holds a bool (True == 1 as a
        key). The number of a binding is the block's offset plus, per argument, its value's
        index times its radix, read from a table per argument that stays small: a dict by
        value (constants), a list by component id or by entity position (every component by
        name: the caller knows the seat sees it). A value outside its table raises
        LookupError, AttributeError or TypeError (a component with no entry is None there).
        The tables are of the components and entities of the table's state (`_names`)."""
        b, index, st = self.blocks[k_b], self._index[k_b], self._st
        env: dict[str, Any] = {}
        terms = []
        for j, (u, r) in enumerate(zip(b.universes, b.radix)):
            ix = index[j]
            if u.__class__ is Values:
                if any(v.__class__ is bool for v in u.values):  # type: ignore[union-attr]
                    return None
                env[f"t{j}"] = {v: i * r for v, i in ix.items()}
                terms.append(f"t{j}[a{j}]")
            elif u.__class__ is Components:
                env[f"t{j}"] = [None if (i := ix.get(c.name)) is None else i * r for c in st.comps]
                terms.append(f"t{j}[a{j}.id]")
            elif u.__class__ is Entities:
                env[f"t{j}"] = [None if (i := ix.get(e.name)) is None else i * r for e in st.entities]
                terms.append(f"t{j}[a{j}._n]")
            else:
                return None
        if not terms:  # no argument: one binding, ()
            return lambda run: [b.offset] * len(run)
        # one comprehension per move, its tables the generated function's globals (the loop and
        # the additions in the interpreter's fast paths, no call per binding)
        names = "".join(f"a{j}, " for j in range(len(terms)))
        return eval(f"lambda run: [{b.offset} + {' + '.join(terms)} for {names}in run]", env)  # noqa: S307

    def _bound(self, b: MoveBlock, index: list[dict[Any, int]], binding: tuple, visible: list[bool], loc: list,
               zones: list, name: str) -> int:
        """The action number of one binding (a component by name where the seat sees its zone, else by place)."""
        action = b.offset
        for v, ix, r, (named, size) in zip(binding, index, b.radix, self._sizes[self._block_no[name]]):
            action += _place(v, ix, named, size, visible, loc, zones, name) * r
        return action

    def _ranked(self, b: MoveBlock, index: list[dict[Any, int]], binding: tuple, visible: list[bool], loc: list,
                zones: list, listing: Any, ordinals: dict[tuple, dict[Any, int]]) -> int:
        """The action number of one binding of a block with ordinal arguments, the run's
        bindings numbered in listing order with `ordinals` (the distinct values of each ordinal
        argument met so far after the same earlier arguments) shared: as `_number` numbers the
        move written out, without writing it (a value is told apart from the others as its
        encoding is: ints, strings, components and entities by themselves, other values by
        their JSON)."""
        action = b.offset
        prefix: tuple = ()
        name = b.name
        for arg, v, u, ix, r, (named, size) in zip(b.args, binding, b.universes, index, b.radix,
                                                   self._sizes[self._block_no[name]]):
            if u.__class__ is Ordinal:
                cls = v.__class__
                if cls is int or cls is str or cls is Comp or cls is Ent:
                    key = v
                else:
                    key = ("b", v) if cls is bool else ("j", json.dumps(listing.encode(v), sort_keys=True))
                k = _rank(ordinals, prefix, key, u.cap, name, arg)  # type: ignore[union-attr]
                prefix = prefix + (key,)
            else:
                k = _place(v, ix, named, size, visible, loc, zones, name)
                prefix = prefix + (k,)
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
                k = _rank(ordinals, prefix, key, u.cap, m.name, name)  # type: ignore[union-attr]
                prefix = prefix + (key,)
            elif u.__class__ is Picks:  # a list of different base values, ranked as an ordered choice
                base = u.base  # type: ignore[union-attr]
                idx = [self._base_index(index[j], base, x, m.name, name) for x in v] if isinstance(v, list) else []
                if len(idx) != u.count or len(set(idx)) != len(idx):  # type: ignore[union-attr]
                    raise ActionSpaceTooSmall(f"move '{m.name}': {name}={json.dumps(v)} is not a pick of "
                                              f"{u.count} different values")  # type: ignore[union-attr]
                k = _perm_rank(idx, base.size)
                prefix = prefix + (k,)
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

    def _with_picks(self, game: Game, seat: int) -> list[int]:
        """`actions` of a listing holding a move with a pick argument (runtime.picks): each
        listed offer stands for one action per ordered choice its requires accept
        (`Game.legal_picks`), the other moves for one each, all numbered from their moves
        written out (`_number`), in listing order. Kept as `_last` with, per action, (its
        move's index in the listing, the move it stands for): `apply` sends that move."""
        st = game.st
        moves = game.legal_moves(seat)
        made: list[tuple[int, Move]] = []
        for i, m in enumerate(moves):
            made.extend((i, chosen) for chosen in game.legal_picks(seat, m))
        ordinals: dict[tuple, dict[str, int]] = {}
        acts = [self._number(m, ordinals) for _i, m in made]
        self._last = (st, st.version, seat, acts, [acts, None, made])
        return acts

    def _picks_made(self) -> list[tuple[int, Move]] | None:
        """For `actions`' last answer, when its listing held a pick (`_with_picks`): per action,
        (its move's index in the listing, the move it stands for); else None."""
        entry = self._last[4]  # type: ignore[index]
        return entry[2] if len(entry) > 2 else None

    @staticmethod
    def _base_index(index: dict[Any, int], base: Universe, v: Any, move: str, arg: str) -> int:
        """The index of one picked value `v` (as encoded) in a pick's base universe. Raises
        ActionSpaceTooSmall for a value outside it."""
        k = index.get(_key(v))
        if k is None and base.__class__ is Components and isinstance(v, str) and "@" in v:
            k = len(base.names) + int(v.rsplit("@", 1)[1])  # type: ignore[union-attr]
        if k is None or k >= base.size:
            raise ActionSpaceTooSmall(f"move '{move}': {arg} holds {json.dumps(v)}, not in its universe "
                                      f"({base.__class__.__name__}, {base.size} values)")
        return k

    def _visible(self, st: Any, seat: int) -> list[bool]:
        """Per zone index, whether `seat` sees its contents (fixed: visibility and owner never
        change)."""
        got = self._seen_by.get(seat)
        if got is None or len(got) != len(st.zone_refs):
            got = self._seen_by[seat] = [z.visible_to(seat) for z in st.zone_refs]
        return got

    def to_move(self, game: Game, seat: int, action: int) -> Move:
        """The legal move `action` stands for now (for a pick, the move with its choice made).
        Raises IllegalMove when it is not legal (or not `seat`'s decision), naming the move
        it decodes to."""
        i = self._index_of(game, seat, action)
        made = self._picks_made()
        if made is not None:
            return made[i][1]
        return game.legal_moves(seat)[i]

    def apply(self, game: Game, seat: int, action: int) -> None:
        """Apply the legal move `action` stands for now, as `game.apply(seat, self.to_move(game,
        seat, action))` does, without making the move (nor returning its events:
        `Game.apply_listed`). Raises IllegalMove when it is not legal (or not `seat`'s
        decision), naming the move it decodes to; else what `Game.apply` raises (RuleError,
        BudgetExceeded: the game unchanged)."""
        st = game.st
        last = self._last
        if last is not None and last[0] is st and last[1] == st.version and last[2] == seat:
            try:  # (as `_index_of` does, with `actions`' answer found in this state version)
                i = last[3].index(action if action.__class__ is int else int(action))
            except ValueError:
                i = self._index_of(game, seat, action)  # raises
        else:
            i = self._index_of(game, seat, action)
        if self._pick_moves:
            made = self._picks_made()
            if made is not None:
                game.apply(seat, made[i][1])
                return
        game.apply_listed(seat, i)

    def _index_of(self, game: Game, seat: int, action: int) -> int:
        """The index of `action` among `seat`'s legal actions now (`actions`, which sets
        `_last`). Raises IllegalMove when it is not one of them."""
        try:
            return self.actions(game, seat).index(int(action))  # (int: a numpy integer compares slowly)
        except ValueError:
            action = int(action)
            what = self.describe(action) if 0 <= action < self.n else f"action {action}"
            raise IllegalMove(f"{what} is not legal for seat {seat} now") from None

    def to_action(self, game: Game, seat: int, move: Move | dict) -> int:
        """The action number of `move` (a legal move of `seat` now, as listed or as a client
        writes it). Raises IllegalMove when it is not legal now."""
        m = move if isinstance(move, Move) else Move.from_dict(move)
        acts = self.actions(game, seat)
        made = self._picks_made()
        if made is not None:
            for a, (_i, listed) in zip(acts, made):
                if listed == m:
                    return a
        else:
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


class _Remembered(NamedTuple):
    """What the numbering of one ruleset at given seats, options and ordinal cap remembers
    (see `ActionTable.__init__`)."""

    numberers: dict[str, tuple[int, Any]]
    masks: dict[tuple[int, ...], Any]  # `mask`'s: a list of actions -> its mask
    seen_by: dict[int, list[bool]]
    recalls: list[bool]
    names: tuple[list[str], list[str]]


# What each numbering (ruleset, seats, options, ordinal cap) remembers, for the tables of it;
# the `_SHARED_MAX` numberings used last (each holds masks up to `_MASK_BYTES` and the first table's
# functions, hence that table and the last state it numbered)
_SHARED: dict[tuple, _Remembered] = {}
_SHARED_MAX = 8


def _rank(ordinals: dict[tuple, dict[Any, int]], prefix: tuple, key: Any, cap: int, move: str, arg: str) -> int:
    """The rank of an ordinal argument's value (`key`) among the distinct values met after the
    same earlier arguments (`prefix`), numbered in the order met (kept in `ordinals`). Raises
    ActionSpaceTooSmall past `cap` values."""
    seen = ordinals.get(prefix)
    if seen is None:
        seen = ordinals[prefix] = {}
    k = seen.get(key)
    if k is None:
        k = seen[key] = len(seen)
        if k >= cap:
            raise ActionSpaceTooSmall(f"move '{move}' has more than {cap} legal choices of '{arg}' here; raise ordinal_cap")
    return k


def _place(v: Any, ix: dict[Any, int], named: int, size: int, visible: list[bool], loc: list, zones: list,
           name: str) -> int:
    """The index of value `v` in its argument's universe (`ix`: value or name -> index; `named`
    components by name, then places up to `size`): a component by name where the seat sees its
    zone (`visible`, per zone index), else by its place in the zone. Raises
    ActionSpaceTooSmall for a value outside the universe (of move `name`)."""
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
    return k


def _all_seen(run: list[tuple], comp_args: tuple[int, ...], loc: list, visible: list[bool]) -> bool:
    """Whether every component argument of these bindings is a component lying nowhere or where
    the seat sees it (then each binding's action number depends on the binding alone). Each
    distinct component is looked at once (bindings repeat a component across its targets)."""
    try:
        for j in comp_args:
            for c in {*map(itemgetter(j), run)}:
                zi = loc[c.id]
                if zi is not None and not visible[zi]:
                    return False
    except (AttributeError, TypeError):  # not a component (a pick's offer)
        return False
    return True


_frombuffer, _INT8 = np.frombuffer, np.dtype(np.int8)
_RUNS, _PLACES, _CALL, _BOUND = 0, 1, 2, 3  # `ActionTable._numberer`'s kinds
_NO_RUNS = itemgetter(slice(0, 0))  # no run of bindings to compare: []
_first = itemgetter(0)
_WINDOW = 256  # `ActionTable.actions`' window of listings not recognised, to judge whether recognising pays
_RECENT = 4  # listings `actions` recognises per seat (Hanabi's recur within the last 4: 99.8%)
_MASKS_MAX = 100_000  # `ActionTable.mask`'s kept masks, at most (however small)
_MASK_BYTES = 32 << 20  # `ActionTable.mask`'s kept masks, at most
_TEMPLATE_MAX = 4096  # `ActionTable.mask` keeps whole masks of this many actions at most


def _ones(n: int, actions: list[int]) -> Any:
    """An int8 array of `n` zeros but at `actions` (a bytearray's buffer: written in C one
    item at a time, no list turned into an array)."""
    ones = bytearray(n)
    for a in actions:
        ones[a] = 1
    return _frombuffer(ones, _INT8)


def _members(u: Universe) -> tuple[Any, ...]:
    if isinstance(u, Picks):  # a pick's values are its base's, each indexed in the base
        u = u.base
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


def _seen(spans: list, bindings: list, places: list[tuple[int, int, int]], entry: list) -> tuple:
    """What `ActionTable.actions` keeps of a listing to recognise it: (the count of its
    bindings, its first and last moves, its spans, an itemgetter of the runs of bindings
    numbered by their values (None: all of them), those runs, ((zone index, length), ...) of
    the runs numbered by place (each a hidden zone's whole contents: the same length, the same
    numbers), its answer [actions, mask or None]). The listing's lists are kept, not copied:
    they are never changed."""
    nb = len(bindings)
    first, final = (spans[0][1], spans[-1][1]) if spans else (None, None)
    if not places:
        return (nb, first, final, spans, None, bindings, (), entry)
    runs = []
    start = 0
    for a, _zi, k in places:
        if a > start:
            runs.append(slice(start, a))
        start = a + k
    if start < nb:
        runs.append(slice(start, nb))
    getter = itemgetter(*runs) if runs else _NO_RUNS
    return (nb, first, final, spans, getter, getter(bindings), tuple(dict.fromkeys((zi, k) for _a, zi, k in places)), entry)


def _one_zone(node: A.Node, table: ActionTable) -> bool:
    """Whether the domain `node` is one zone for a given mover: `Z` (a zone not per seat) or
    `Z[actor]`, filtered or not."""
    while node.op == "where":
        node = node.args[0]
    z = table._zone(node)
    if z is None:
        return False
    if node.op == "name":
        return not z.per_seat
    return node.op == "index" and node.args[0].op == "name" and node.args[1].op == "name" and node.args[1].args[0] == "actor"


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


def _perm_rank(idx: list[int], n: int) -> int:
    """The rank of the ordered choice `idx` (k different ints of 0..n-1) among all such
    choices in lexicographic order (those of `itertools.permutations(range(n), k)`)."""
    k = len(idx)
    rank = 0
    for j, i in enumerate(idx):
        smaller = i - sum(1 for u in idx[:j] if u < i)  # the unused indices below i
        rank += smaller * math.perm(n - j - 1, k - j - 1)
    return rank


def _perm_unrank(rank: int, n: int, k: int) -> list[int]:
    """The ordered choice of k different ints of 0..n-1 whose `_perm_rank` is `rank`."""
    free = list(range(n))
    out = []
    for j in range(k):
        q, rank = divmod(rank, math.perm(n - j - 1, k - j - 1))
        out.append(free.pop(q))
    return out
