"""The mutable state of one game and the effect primitives the compiled rules call.

Every change of a game goes through these methods: moving components between zones,
shuffles and random draws (chance nodes, recorded as events by `runtime.chance`), flow
changes of the turn machine, marks, reveals and the end of the game.
"""

from __future__ import annotations

import operator
from itertools import compress
from typing import Any

from runtime.budget import DEFAULT_BUDGET, BudgetExceeded
from runtime.chance import INLINE as _INLINE
from runtime.chance import ChanceNode, ChanceSource, shuffle_list
from runtime.events import NO_ARGS, Event, EventLog, about_to_record, new_event
from runtime.values import Comp, Ent, ZoneRef

# `count_elements(by, items)`: adds 1 to `by[x]` for each x of `items` (runtime.codegen's tallies
# too). Counter's own counting loop, in C; a private name, so Counter.update (the same loop in
# Python) where it is gone
try:
    from collections import _count_elements as count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - CPython has it
    from collections import Counter

    def count_elements(by: dict, items: Any) -> None:
        Counter.update(by, items)  # type: ignore[call-overload]

_new = object.__new__
_NOT_OWNED: frozenset[str] = frozenset()  # `State.owned` of a state that has taken nothing yet
_NO_MEMO = (-1, None)  # `State.fn_memo` of a clone: no version yet (runtime.codegen makes a list at the first use)
# the keys of `State.owned` (beside global names and ".member") for the dicts of globals `g`
# and of entity columns `ev`, the marks and the entities' `ent_alive`: never a name of the language
# (`runtime.compile.Compiler._owned_keys`)
G_KEY = "#g"
EV_KEY = "#ev"
MARKS_KEY = "#marks"
ALIVE_KEY = "#alive"
_MARKS, _EV, _ALIVE = frozenset((MARKS_KEY,)), frozenset((EV_KEY,)), frozenset((ALIVE_KEY,))  # `own`'s keys for one of them


class GameEnded(Exception):
    """Raised by `end game` to stop the running rule at once."""


class State:
    """Zones (lists of components, index 0 = top), globals `g`, entities, turn machine.

    `g` maps global names to values: zones (a `ZoneRef`, or a list of them per seat),
    variables (per-seat ones as lists), constants, component and entity sets.
    """

    def __init__(self, nseats: int, options: dict[str, Any], chance: ChanceSource | None):
        self.nseats = nseats
        self.seat_list = list(range(nseats))
        self.options = options
        self.chance: ChanceSource = chance  # type: ignore[assignment]  # None only in a pre-setup template
        self.zones: list[list[Comp]] = []  # never changed in place once built: see move_items
        self.zone_refs: list[ZoneRef] = []
        # the counts of attribute values over zones that generated rules read (`count(z where
        # .a == v)`, runtime.codegen), kept by every write of a zone (`keep_counts`) in one flat
        # list of ints, `count_cells`: `count_cells[count_places[idx + k * len(zones)].get(v, 0)]` is
        # how many of zone idx's components have v as the zone's k-th counted attribute (cell 0
        # stays 0: a value no component has). `count_cells` is copied by the first write after
        # a clone (`own_count_cells`); `count_places` (slot -> {value: its cell}, None for no kept
        # count), `count_slots` (zone index -> its ({value: cell}, attribute) pairs, None: none
        # kept) and `count_clear` (zone index -> the slice of `count_cells` its cells fill, and
        # as many zeros) are made once per game's tables and shared. All empty: none kept
        self.count_cells: list[int] = []
        self.cells_shared = False
        self.count_places: list[dict[Any, int] | None] = []
        self.count_slots: list[tuple[tuple[dict[Any, int], str], ...] | None] = []
        self.count_clear: list[tuple[slice, tuple[int, ...]] | None] = []
        # component id -> index of the zone it lies in (None: in no zone); ids are 0, 1, 2...
        self.loc: list[int | None] = []
        self.loc_shared = False  # `loc` is another state's list too: copied before a change (`own_loc`)
        self.comps: list[Comp] = []
        self.entities: list[Ent] = []  # shared by clones (entities never change: see Ent)
        # member name -> its value for each entity (`e._n`), ABSENT for an entity without it: the
        # entities' fields and variables (`make`, `add_member`); read them with `member`
        self.ev: dict[str, list[Any]] = {}
        self.ent_alive: list[bool] = []  # by `e._n`: still in play (`remove_entity`); shared with a clone till one removes
        self.g: dict[str, Any] = {}
        self.step = ""
        self.actor = 0
        self.current = 0
        self.flow: tuple | None = None
        self.terminal = False
        self.outcome: dict[str, Any] | None = None
        self.ended_by: tuple[str, Any] | None = None  # (rule, span of its `end game`): why the game ended
        self.events: list[Event] = []  # a game's own is observable when made under `runtime.events.observing`
        self.events_shared = False  # `events` is another state's list too: see `own_events`
        # component id -> its marks, a tuple; shared with a clone till one of the two marks
        # (`own_marks`), unless the ruleset's clones copy their containers (see `clone`)
        self.marks: dict[int, tuple[Any, ...]] = {}
        self.reveals: list[dict[str, Any]] = []
        # (component name, index of the zone it entered) for each move of a component while a
        # reader watches (`runtime.sentences.Readers.watch`); None: nobody watches (clones never do)
        self.passing: list[tuple[str, int]] | None = None
        self.sim: Any = None  # the open round of a simultaneous step (runtime.simultaneous.Round, immutable), or None
        self.rule = "setup"
        self.version = 0
        # steps left to the running unit of execution (see runtime.budget); Game resets it
        self.budget = DEFAULT_BUDGET
        self.steps_left = DEFAULT_BUDGET
        self._names: dict[str, int] = {}
        self._kinds: dict[str, str] = {}
        # names changed since triggers were last checked ("*" = everything): see Game._triggers
        self.dirty: set[str] = {"*"}
        self.marks_watched = True  # some trigger reads marks: a change is marked in `dirty`
        self.callables: dict[str, Any] = {}  # ruleset functions by name, for built-ins that call them
        # [version, {name: value}]: memoised functions of the state alone (runtime.codegen), valid
        # while the version stays; replaced by a new list when the version changed
        self.fn_memo: Any = _NO_MEMO
        # {(function, arguments...): value} of ruleset functions of their arguments alone
        # (runtime.codegen's `arg_memoised`), shared by the games of a template and their clones
        self.pure_memo: dict[tuple, Any] = {}
        # {(zone index, attribute[, 0]): (the zone's list, its components sorted by name, their values
        # of the attribute, `_firsts` of those)}: `_draw_keyed`, shared like `pure_memo` (valid while
        # the list is the same object)
        self.draw_memo: dict[tuple, tuple[list, list, list, dict]] = {}
        # the zones' lists as the tables left them, before setup (`Game._tables`; empty for a
        # state built otherwise), shared by the games: `_draw_keyed` keeps their entries
        self.base_zones: tuple[list[Comp], ...] = ()
        # the names in `g` that can change (not constants, component sets or zones): a clone copies
        # their values, and shares the others
        self.loose: tuple[str, ...] = ()
        self.loose_members: dict[str, tuple[str, ...]] = {}  # entity kind -> its fields and variables
        # how `clone` copies `g` and the entities' columns (`_plan`), made at the first clone
        # and shared by the copies; `scalar_members` names the members always holding an int,
        # bool, str or enum value, `flat_members` those holding a list of such (per-seat scalar
        # variables), both as global names and as "kind.member"
        self.clone_plan: tuple | None = None
        self.scalar_members: frozenset[str] = frozenset()
        self.flat_members: frozenset[str] = frozenset()
        self.nested_members: frozenset[str] = frozenset()  # globals holding per-seat lists or maps of scalars
        # the roots (global names, ".member" for an entity member's column and its entries,
        # G_KEY, EV_KEY, MARKS_KEY, ALIVE_KEY) whose containers are this state's alone, not shared with a clone:
        # what a rule changes in place it takes first (`own`); a clone's and its original's are empty
        self.owned: set[str] | frozenset[str] = _NOT_OWNED
        self.own_plans: dict[frozenset[str], Any] = {}  # keys -> how `own` copies them (`_owner`), shared by clones

    def own_loc(self) -> list[int | None]:
        """`loc`, to change: a copy of its own first when it is shared with a clone."""
        if self.loc_shared:
            self.loc = self.loc[:]
            self.loc_shared = False
        return self.loc

    def own_count_cells(self) -> list[int]:
        """`count_cells`, to change: a copy of its own first when it is shared with a clone."""
        if self.cells_shared:
            self.count_cells = self.count_cells[:]
            self.cells_shared = False
        return self.count_cells

    def own_marks(self) -> dict[int, tuple[Any, ...]]:
        """`marks`, to change: a copy of its own first when it may be shared with a clone (`own`)."""
        if MARKS_KEY not in self.owned:
            self.own(_MARKS)
        return self.marks

    def spend(self, span: Any) -> None:
        """Take one step of the execution budget for the loop or call at `span`; raises
        `BudgetExceeded` when none is left. (Generated code takes the step inline and calls
        this only once the budget is used up: one more step below zero changes nothing.)"""
        self.steps_left -= 1
        if self.steps_left < 0:
            raise BudgetExceeded(self.budget, span, self.rule)

    def own_events(self) -> list[Event]:
        """`events`, to append to: a copy of its own first when it is shared with a clone (a
        clone's copy is a plain list, the copy of an observed game's log is observed too)."""
        ev = self.events
        if self.events_shared:
            self.events_shared = False
            if ev.__class__ is EventLog and ev.state is self:  # type: ignore[attr-defined]
                ev = ev.copy_for(self)  # type: ignore[attr-defined]
            else:
                ev = ev[:]
            self.events = ev
        return ev

    def own(self, keys: frozenset[str]) -> None:
        """Take the containers under `keys` (global names, ".member", G_KEY, EV_KEY, MARKS_KEY,
        ALIVE_KEY) as this state's alone: each shared with a clone is copied (as deeply as it
        may be changed; entities, components and other immutable values shared). Called by a unit of execution
        before it runs (`runtime.compile.Compiler._owned_keys`), so that it changes them in
        place safely. How each set of keys is copied is generated once (`_owner`). Memoised
        function answers are forgotten when one may hold a container just copied. Raises
        KeyError for a key naming no variable."""
        f = self.own_plans.get(keys)
        if f is None:
            f = self.own_plans[keys] = _owner(self, keys)
        owned = self.owned
        if owned is _NOT_OWNED:
            owned = self.owned = set()
        f(self, owned)
        memo = self.fn_memo[1]
        if memo and any(v.__class__ not in _ATOMS for v in memo.values()):
            self.fn_memo = _NO_MEMO  # a memoised container may be one just copied: the copy is read from now on

    # ---- copying ----
    def clone(self) -> State:
        """An independent copy for search: the list of zones is copied, and the chance source's
        RNG by the first of the two to draw (`ChanceSource.own`); components, entities, zone references and compiled rules are shared
        (immutable). Events are immutable, so only the list holding them is copied, by the
        first of the two to record one (`own_events`); the components' locations likewise
        (`own_loc`), the marks (`own_marks`), which entities are alive (`remove_entity`), the
        dicts of variables and of entity columns and the containers variables and entity
        members hold (lists, maps, the columns): each rule takes those it changes first
        (`own`), so both copies start owning none. (A table template's copy, the state of a
        new game, takes its own dict of variables at once: the game's position is written
        into it directly, `Game.from_position`.)

        What a copy takes is planned once per game's tables (`clone_plan`): when the rules
        could tell a copy on write from a copy (the ruleset's `callables.shares` is false: a
        local's container changed in place, say; see `Compiler._owned_keys`), the containers
        are copied here instead: the dicts of variables and of columns, per-seat scalar lists
        flat, the rest deeply, and the marks.

        Code outside the rules that changes a state that may have a clone (or be one) goes
        through `set_member`, `own_marks` or `own` (a global's name, or G_KEY before assigning
        one) first: writing `st.g`, `st.ev` or `st.marks` directly would reach the other copy."""
        plan = self.clone_plan
        if plan is None:  # planned before the copy, which then knows it may share (see `set_member`)
            plan = self.clone_plan = _plan(self)
        new = _new(State)
        d = new.__dict__ = self.__dict__.copy()  # the shared and the immutable (atoms, tuples, outcome...)
        if len(d) != _STATE_FIELDS:  # something this method does not know: copy it all, slowly
            return self._clone_all(new)
        copy_g, columns, marks = plan
        chance = self.chance
        if chance is not None:  # `chance.share()`, inline: copied by whichever of the two draws first (`ChanceSource.own`)
            chance.shares += 1
        d["zones"] = self.zones.copy()  # zone lists are never changed in place: see move_items
        if self.count_cells:  # the kept counts, copied by the first of the two to write (`own_count_cells`)
            self.cells_shared = d["cells_shared"] = True
        if self.events:  # events are immutable: the list is copied by the first to append (`own_events`)
            self.events_shared = d["events_shared"] = True
        else:
            d["events"] = []
        d["dirty"] = self.dirty.copy()
        self.loc_shared = d["loc_shared"] = True  # `loc` is copied by the first of the two to move a component
        if marks:  # a rule may change them in place without `own` (its values are tuples: shared)
            d["marks"] = self.marks.copy()
        d["fn_memo"] = _NO_MEMO  # no version: the first memoised function call makes its own
        if self.passing is not None:  # what a reader watches is the game's own state's moves
            d["passing"] = None
        if columns is not None:  # the entities are shared; their columns are copied
            d["ev"] = columns(self.ev)
        if copy_g is not None:
            d["g"] = copy_g(self.g)
        elif chance is None:  # a table template's copy (see above)
            d["g"] = self.g.copy()
        self.owned = d["owned"] = _NOT_OWNED  # the containers a rule took are shared from now on
        return new

    def _clone_all(self, new: State) -> State:
        memo: dict[int, Any] = {}
        d = new.__dict__
        for k, v in self.__dict__.items():
            if k in _SHARED:
                d[k] = v
            elif k == "chance":
                d[k] = v.share() if v is not None else None
            elif k == "events_shared":
                d[k] = False
            elif k in ("zones", "events", "dirty", "loc", "marks", "ent_alive", "count_cells"):  # their items are never changed in place
                d[k] = v.copy()
            elif k == "ev":
                d[k] = {name: _copy(col, memo) for name, col in v.items()}
            elif k == "fn_memo":
                d[k] = _NO_MEMO
            elif k == "owned":
                d[k] = _NOT_OWNED
            elif k == "passing":
                d[k] = None
            elif k == "g":
                g = d[k] = v.copy()
                for n in self.loose:
                    x = g[n]
                    if x.__class__ not in _ATOMS:
                        g[n] = _copy(x, memo)
            elif k == "entities":
                d[k] = v  # entities never change (see Ent)
            else:
                d[k] = _copy(v, memo)
        return new

    # ---- building ----
    def new_zone(self, key: str, holds: str, visibility: str, owner: int | None, ordered: bool, decl: str) -> ZoneRef:
        z = ZoneRef(len(self.zones), key, holds, visibility, owner, ordered, decl)
        self.zones.append([])
        self.zone_refs.append(z)
        return z

    def make(self, kind: str, decl: Any, vals: dict[str, Any]) -> Comp | Ent:
        """A new component or entity: a constructor call in a `components`/`entities` set, or in
        the rules as they run (the closures run those: `runtime.codegen` generates none)."""
        if kind == "comp":
            if self.clone_plan is not None:
                # a game's rules making one as they run: the components and their names are
                # shared with the template (`_SHARED`), so the game takes its own copies first,
                # or the component would reach every later game
                self.comps, self._names, self._kinds = [*self.comps], {**self._names}, {**self._kinds}
            base = "-".join(_name_part(v) for v in vals.values()) or decl.name
            if self._kinds.setdefault(base, decl.name) != decl.name:
                base = f"{decl.name}-{base}"  # `trophy-gray` beside the cube `gray`: names stay unique
            n = self._names.get(base, 0) + 1
            self._names[base] = n
            c = Comp(len(self.comps), decl.name, base if n == 1 else f"{base}#{n}", vals)
            self.comps.append(c)
            self.own_loc().append(None)
            return c
        index = sum(1 for e in self.entities if e.kind == decl.name)
        name = f"{decl.name}[{_name_part(vals[decl.keyed_by])}]" if decl.keyed_by else f"{decl.name}{index + 1}"
        if decl.keyed_by and any(x.name == name for x in self.entities):
            raise ValueError(f"two {decl.name} entities have the key {name}: a `key` field must tell them apart")
        e = Ent(decl.name, index, name, {})
        e._n = len(self.entities)
        e.keys = (*vals, "name", "index")
        # new lists: once the tables are built, a game shares them with its clones
        self.entities = [*self.entities, e]
        self.ent_alive = [*self.ent_alive, True]
        if self.clone_plan is not None:  # perhaps a clone's too: a dict of its own
            self._own_ev()
        for name, col in self.ev.items():
            if self.clone_plan is None:  # no clone yet to share the columns with
                col.append(ABSENT)
            else:
                self.ev[name] = [*col, ABSENT]
        for k, v in vals.items():
            self._column(k)[e._n] = v
        return e

    def _column(self, name: str) -> list[Any]:
        col = self.ev.get(name)
        if col is None:
            if self.clone_plan is not None:  # perhaps a clone's too: a dict of its own
                self._own_ev()
            col = self.ev[name] = [ABSENT] * len(self.entities)
        elif self.clone_plan is not None and "." + name not in self.owned:  # perhaps a clone's too: a list of its own
            col = self._own_column(name)
        return col

    def _own_column(self, name: str) -> list[Any]:
        """Entity member `name`'s column, copied as this state's own (and kept so: `owned`),
        entries that are containers included (`own`): a later rule's in-place write into one
        trusts `owned` and must not reach a clone or a table template."""
        self.own(frozenset(("." + name,)))
        return self.ev[name]

    def _own_ev(self) -> dict[str, list[Any]]:
        """`ev`, to change: a copy of its own first when it may be shared with a clone (`own`)."""
        if EV_KEY not in self.owned:
            self.own(_EV)
        return self.ev

    def add_member(self, e: Ent, name: str, value: Any, zone: bool = False) -> None:
        """Give entity `e` (while the tables are built) its zone (in `e.d`) or variable (in its
        column) `name`, after its other members."""
        e.keys = (*e.keys, name)
        if zone:
            e.d[name] = value
        else:
            self._column(name)[e._n] = value

    def member(self, x: Any, name: str) -> Any:
        """`x.name` of a component or entity: an entity's field or variable from its column,
        anything else from `x.d` (KeyError when `x` has no such member; AttributeError when
        `x` is no component or entity)."""
        if x.__class__ is Ent:
            col = self.ev.get(name)
            if col is not None:
                v = col[x._n]
                if v is not ABSENT:
                    return v
        return x.d[name]

    def set_member(self, e: Ent, name: str, value: Any) -> None:
        """Set entity `e`'s field or variable `name` (KeyError when no entity kind has one)."""
        col = self.ev[name]
        if self.clone_plan is not None and "." + name not in self.owned:  # perhaps a clone's too (`own`)
            col = self._own_column(name)
        elif ("$found", name) in self.pure_memo:  # a table of entities by this field was made from this list (codegen's `_find`): a new list
            col = self._own_ev()[name] = col[:]
        col[e._n] = value

    def entity_members(self, e: Ent) -> dict[str, Any]:
        """Every member of entity `e` in declaration order: its fields, `name`, `index`, its
        zones and its variables, with their values now."""
        return {k: self.member(e, k) for k in e.keys}

    def place_initial(self, comp: Comp, z: ZoneRef) -> None:
        if self.loc[comp.id] is not None:
            raise ValueError(f"{comp.name} is placed in two zones at the start")
        # in place (as `Game.from_position` fills a fresh list): forget what was counted (the kept
        # counts, `keep_counts`, are made once the tables are built)
        self.zones[z.idx].append(comp)
        z.tally = z.by_name = None
        # the state's version does not count this change: a function memoised at this version
        # (runtime.codegen's `fn_memo`, an initialiser's call) may have read the zone before
        self.fn_memo = _NO_MEMO
        for k in [k for k in self.draw_memo if k[0] == z.idx]:
            del self.draw_memo[k]
        self.own_loc()[comp.id] = z.idx

    def count_while_building(self, counted: dict[str, tuple[str, ...]]) -> None:
        """While the tables are built (`Game._build_tables`, before `keep_counts`): let generated
        code read the counts of `counted` (zone declaration -> attributes, in slot order) all
        the same, each counted from its zone's list when read. Initialisers run then, and a
        function they call may read a kept count (`var n: int = f()`, `f` counting a zone)."""
        self.count_cells = self.count_places = _CountsWhileBuilding(self, counted)  # type: ignore[assignment]

    def keep_counts(self, attrs: dict[int, tuple[str, ...]]) -> None:
        """Keep, from now on, the counts of each attribute's values over each zone of `attrs`
        (zone index -> attribute names, each held by every component the zone may hold), in
        `count_cells`: counted now (`recount`), then changed with every write of those zones.
        Each (zone, attribute) has a cell per value the attribute has among the components,
        all made by now (rules that make components as they run keep no counts:
        `runtime.codegen.Gen.makes_components`). Called once the tables are built, before any
        clone; an empty `attrs` keeps none."""
        if not attrs:
            self.count_cells, self.cells_shared, self.count_places, self.count_slots, self.count_clear = [], False, [], [], []
            return
        n = len(self.zones)  # a zone's k-th attribute at `count_places[idx + k * n]`, where generated code reads it
        # attribute -> its values among the components, in the components' order
        having = {a: dict.fromkeys(c.d[a] for c in self.comps if a in c.d) for names in attrs.values() for a in names}
        at: list[dict[Any, int] | None] = [None] * (n * max(len(names) for names in attrs.values()))
        slots: list[tuple[tuple[dict[Any, int], str], ...] | None] = [None] * n
        clear: list[tuple[slice, tuple[int, ...]] | None] = [None] * n
        size = 1  # cell 0: the count of a value no component has, always 0
        for i, names in attrs.items():
            pairs, start = [], size
            for k, a in enumerate(names):
                by = at[i + k * n] = {v: size + j for j, v in enumerate(having[a])}
                size += len(by)
                pairs.append((by, a))
            slots[i], clear[i] = tuple(pairs), (slice(start, size), (0,) * (size - start))
        self.count_places, self.count_slots, self.count_clear = at, slots, clear
        self.count_cells, self.cells_shared = [0] * size, False
        self.recount()

    def recount(self) -> None:
        """Count every kept count (`keep_counts`) again from the zones' lists: after code outside
        the effect primitives filled them (table building, `Game.from_position`)."""
        for i, slots in enumerate(self.count_slots):
            if slots is not None:
                self._recount(i)

    def _recount(self, i: int) -> None:
        """Count zone `i`'s kept attributes again from its list."""
        lst, counts = self.zones[i], self.own_count_cells()
        places, zeros = self.count_clear[i]  # type: ignore[misc]
        counts[places] = zeros
        for by, a in self.count_slots[i]:  # type: ignore[union-attr]
            for c in lst:
                counts[by[c.d[a]]] += 1

    def _count_moves(self, items: list[Comp], src: int, d: int) -> None:
        """Keep the counts as `items`, components of zone `src`, go to zone `d` (another)."""
        kept = self.count_slots
        counts = self.count_cells if not self.cells_shared else self.own_count_cells()
        for slots, step in ((kept[src], -1), (kept[d], 1)):
            for by, a in slots or ():
                for c in items:
                    counts[by[c.d[a]]] += step

    # ---- reading ----
    def items(self, x: Any) -> Any:
        """The elements of a collection value: a zone's contents, a list, or a map's keys."""
        if x.__class__ is list:
            return x
        if x.__class__ is ZoneRef:
            return self.zones[x.idx]
        if x.__class__ is dict:
            return list(x)
        if x is None:
            return ()
        return x

    def zone_of(self, c: Comp) -> ZoneRef | None:
        i = self.loc[c.id]
        return self.zone_refs[i] if i is not None else None

    def position(self, c: Comp) -> int:
        z = self.zone_of(c)
        return self.zones[z.idx].index(c) if z else -1

    # ---- effects ----
    def move_items(self, what: Any, dest: ZoneRef, mode: str = "end", at: int | None = None) -> None:
        # Zone lists are never changed in place (copy-on-write): clones, the pre-setup template
        # and frozen legal-move listings share them. Each zone touched is copied once here.
        if what is None:
            return
        zones, loc = self.zones, self.loc if not self.loc_shared else self.own_loc()
        if what.__class__ is Comp:
            d, src = dest.idx, loc[what.id]
            if mode == "end" and src != d:  # the common case, one component to the end of another zone
                self.version += 1
                dirty = self.dirty
                if dest.watched:
                    dirty.add(dest.decl_name)
                if src is not None:
                    rest = zones[src][:]
                    rest.remove(what)
                    zones[src] = rest
                    z = self.zone_refs[src]
                    if z.watched:
                        dirty.add(z.decl_name)
                zones[d] = zones[d] + [what]
                loc[what.id] = d
                kept = self.count_slots
                if kept and (kept[d] is not None or (src is not None and kept[src] is not None)):
                    # one component moved, the commonest write: its counts changed here
                    counts = self.count_cells if not self.cells_shared else self.own_count_cells()
                    if src is not None and (slots := kept[src]) is not None:
                        for by, a in slots:
                            counts[by[what.d[a]]] -= 1
                    if (slots := kept[d]) is not None:
                        for by, a in slots:
                            counts[by[what.d[a]]] += 1
                if self.passing is not None:
                    self.passing.append((what.name, d))
                return
            items: Any = (what,)
        elif what.__class__ is ZoneRef:
            items = zones[what.idx]
        else:
            items = list(what)
        self.version += 1  # every change bumps the version: cached legal moves go stale
        dirty = self.dirty
        if dest.watched:
            dirty.add(dest.decl_name)
        d = dest.idx
        if self.passing is not None:
            self.passing.extend((c.name, d) for c in items)
        target = zones[d] = zones[d][:]
        copied = [d]
        for k, c in enumerate(items):
            src = loc[c.id]
            if src is not None:
                if src not in copied:
                    zones[src] = zones[src][:]
                    copied.append(src)
                    if self.zone_refs[src].watched:
                        dirty.add(self.zone_refs[src].decl_name)
                zones[src].remove(c)
            if mode == "top":
                target.insert(k, c)
            elif mode == "at":
                target.insert(min(max(0, (at or 0) + k), len(target)), c)
            else:
                target.append(c)
            loc[c.id] = d
        kept = self.count_slots
        if kept:
            if what.__class__ is ZoneRef:  # every component of one zone to another: counted out and in
                if items and what.idx != d and (kept[what.idx] is not None or kept[d] is not None):
                    self._count_moves(items, what.idx, d)
            else:  # from zones of all sorts: the kept counts of those touched counted again
                for i in copied:
                    if kept[i] is not None:
                        self._recount(i)

    def shuffle(self, z: ZoneRef, span: Any) -> None:
        items = self.zones[z.idx]
        if len(items) < 2:
            return
        about_to_record(self)
        chance = self.chance
        if chance.shares:
            chance = self.chance = chance.own()
        if chance.free:  # the components shuffled as `ChanceSource.shuffle` shuffles their names
            self.zones[z.idx] = items = items[:]
            shuffle_list(chance.rng, items)
            order = list(map(_NAME, items))
        else:
            order = chance.shuffle([c.name for c in items], self._node("shuffle", z, z, span), len(self.events))
            by_name = {c.name: c for c in items}
            self.zones[z.idx] = [by_name[n] for n in order]
        self.version += 1
        if z.watched:
            self.dirty.add(z.decl_name)
        self.record_chance("shuffle", z, order, span)

    def draw(self, n: int, src: ZoneRef, dest: ZoneRef, refill: ZoneRef | None, span: Any) -> None:
        have = self.zones[src.idx]
        if len(have) >= n or refill is None:  # no reshuffle on the way: the top n in one move
            if not have or n <= 0:
                return
            if n == 1 or src is dest:
                self.move_items(have[:n] if n > 1 else have[0], dest)
                return
            # the top n to the end of another zone: two list operations, not n removals
            taken, d = have[:n], dest.idx
            zones, loc = self.zones, self.loc if not self.loc_shared else self.own_loc()
            self.version += 1
            zones[src.idx] = have[n:]
            zones[d] = zones[d] + taken
            for c in taken:
                loc[c.id] = d
            kept = self.count_slots
            if kept and (kept[src.idx] is not None or kept[d] is not None):
                self._count_moves(taken, src.idx, d)
            if self.passing is not None:
                self.passing.extend((c.name, d) for c in taken)
            if src.watched:
                self.dirty.add(src.decl_name)
            if dest.watched:
                self.dirty.add(dest.decl_name)
            return
        for _ in range(n):
            if not self.zones[src.idx] and refill is not None and self.zones[refill.idx]:
                self.move_items(refill, src)
                self.shuffle(src, span)
            if not self.zones[src.idx]:
                return
            self.move_items(self.zones[src.idx][0], dest)

    def draw_random(self, src: ZoneRef, dest: ZoneRef, retry: Any, env: list, span: Any, key: str | None = None) -> None:
        """Draw one component at random; one that `retry` rejects is put back and drawn again,
        which is a uniform draw among the components it accepts. If it rejects them all,
        nothing is drawn (redrawing could never end); the rules can test for that afterwards.
        The chance event's outcome is the kept component, preceded by the ones put back when
        a given outcome listed them (`ChanceSource.pick`).

        The candidates are taken in name order (the order the chance source draws among them,
        component names being unique) from the zone's name-sorted contents, kept on its
        `ZoneRef` while the zone's list stays the same object (`ZoneRef.by_name`). `key` names
        the only attribute `retry` reads of a component (say, its colour), when there is one:
        see `_draw_keyed`."""
        if key is not None and retry is not None:
            self._draw_keyed(src, dest, retry, env, span, key)
            return
        items = self.zones[src.idx]
        s = src.by_name
        if s is None or s[0] is not items:
            s = src.by_name = (items, sorted(items, key=_NAME))
        ordered = s[1]
        rejected: list[str] = []
        if retry is None:
            cands = ordered
        else:
            cands = []
            for c in ordered:
                if retry(self, env, c):
                    rejected.append(c.name)
                else:
                    cands.append(c)
        if not cands:
            return
        comp, drawn = self._pick(cands, lambda: rejected, src, dest, span)
        self.move_items(comp, dest)
        after = self.zones[src.idx]
        if src is not dest and after is not items:  # the same contents but `comp`, still in name order
            rest = ordered[:]
            rest.remove(comp)
            src.by_name = (after, rest)
        self.record_chance("draw", dest, drawn, span)

    def _draw_keyed(self, src: ZoneRef, dest: ZoneRef, retry: Any, env: list, span: Any, key: str) -> None:
        """`draw_random` with a `retry` that reads only the attribute `key` of a component: the
        test runs once per value of it present, on the first component in name order having
        it (the calls a test of every component makes when it skips the values already
        tested), and the candidates are the components whose value it accepts, in name order,
        chosen without a loop over the zone. The zone's name-sorted contents and their values
        of `key` are kept in `draw_memo` while the zone's list stays the same object, with the
        first of them having each value (`_firsts`), and carried to the list the draw leaves: a
        bag drawn from again and again is sorted once."""
        items = self.zones[src.idx]
        memo = self.draw_memo
        s = memo.get((src.idx, key))
        if s is None or s[0] is not items:
            # the zone as the tables left it (every game's first draw from it): its entry is kept
            # apart, as the latest entry follows one game's draws
            s = memo.get((src.idx, key, 0))
            if s is None or s[0] is not items:
                ordered = sorted(items, key=_NAME)
                keys = [c.d[key] for c in ordered]
                s = (items, ordered, keys, _firsts(ordered, keys))
                base = self.base_zones
                if src.idx < len(base) and base[src.idx] is items:
                    memo[(src.idx, key, 0)] = s
            memo[(src.idx, key)] = s
        ordered, keys = s[1], s[2]
        accepted = None  # the values of `key` accepted, once some value is not
        for k, first in s[3].items():
            if retry(self, env, first):
                if accepted is None:
                    accepted = set(keys)
                accepted.discard(k)
        if accepted is None:
            cands = ordered
        else:
            cands = list(compress(ordered, map(accepted.__contains__, keys)))
        if not cands:
            return
        comp, drawn = self._pick(cands, lambda: [] if accepted is None else [c.name for c, k in zip(ordered, keys) if k not in accepted],
                                 src, dest, span)
        self.move_items(comp, dest)
        after = self.zones[src.idx]
        if src is not dest and after is not items:  # the same contents but `comp`, still in name order
            i = ordered.index(comp)
            rest, rest_keys = ordered.copy(), keys.copy()  # one copy each, not two slices and a join
            del rest[i], rest_keys[i]
            firsts = s[3]  # the same unless `comp` was the first of its value
            memo[(src.idx, key)] = (after, rest, rest_keys, firsts if firsts[keys[i]] is not comp else _firsts(rest, rest_keys))
        self.record_chance("draw", dest, drawn, span)

    def _pick(self, cands: list[Comp], rejected: Any, src: ZoneRef, dest: ZoneRef, span: Any) -> tuple[Comp, list[str]]:
        """The component a random draw keeps among `cands` (name order), and the draw's outcome:
        from the seeded RNG, or from a given outcome, which may list put-back components
        first (`rejected()` names the ones the retry refuses, asked only then)."""
        about_to_record(self)
        chance = self.chance
        if chance.shares:
            chance = self.chance = chance.own()
        if chance.free:  # as `ChanceSource.pick` draws
            n = len(cands)
            if _INLINE:  # `rng.randrange(n)`, inline (`runtime.chance.below_inline`)
                getrandbits = chance._rng.getrandbits
                k = n.bit_length()
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
            else:
                r = chance.rng.randrange(n)
            comp = cands[r]
            return comp, [comp.name]
        names = [c.name for c in cands]
        drawn = chance.pick(names, self._node("draw", dest, src, span), len(self.events), rejected())
        return cands[names.index(drawn[-1])], drawn

    def _node(self, node: str, z: ZoneRef, src: ZoneRef, span: Any) -> ChanceNode:
        return ChanceNode(node, z.key, src.key, self.rule, rule_source(span))

    def record_chance(self, node: str, z: ZoneRef, outcome: list[str], span: Any) -> None:
        """Append the chance event of `node` ("shuffle" or "draw") into `z` with `outcome`
        (component names, a list of the caller's own: the event keeps it) for the statement at
        `span`."""
        seen = None if z.visibility == "public" else z.seen if z.seen is not None else self.seen(z)
        events = self.own_events() if self.events_shared else self.events
        src = _SRCS.get(id(span))  # `rule_source(span)`, inline
        src = src[1] if src is not None and src[0] is span else rule_source(span)
        if len(outcome) == 1:  # `_outcome(outcome)`, inline for a draw's one name
            got = _ONE.get(outcome[0])
            outcome = got if got is not None else _outcome(outcome)
        events.append(new_event(len(events), "chance", self.rule, src, None, None, NO_ARGS, NO_ARGS,
                                NO_ARGS, node, z.key, outcome, seen))

    def seen(self, z: ZoneRef) -> list[int]:
        """The seats that see `z`'s contents (one shared list per zone: events keep it; kept
        on `z` too, whose seats are this state's: a zone reference belongs to one table)."""
        got = _SEEN.get((z.key, self.nseats, z.visibility, z.owner))
        if got is None:
            got = _SEEN[(z.key, self.nseats, z.visibility, z.owner)] = [s for s in self.seat_list if z.visible_to(s)]
        z.seen = got
        return got

    def blind(self, z: ZoneRef) -> list[int]:
        """The seats that cannot see `z`'s contents, and -1 when spectators cannot (shared)."""
        key = ("blind", z.key, self.nseats, z.visibility, z.owner, z.spectators)
        got = _SEEN.get(key)
        if got is None:
            got = _SEEN[key] = [s for s in self.seat_list if not z.visible_to(s)] + ([] if z.visible_to(None) else [-1])
        return got

    def remove_entity(self, e: Ent) -> None:
        if ALIVE_KEY not in self.owned:  # perhaps a clone's too: a list of its own
            self.own(_ALIVE)
        self.ent_alive[e._n] = False
        self.version += 1
        self.dirty.update(e.set_names)
        for name in e.set_names:
            lst = self.g[name]
            if e in lst:
                lst.remove(e)

    def set_flow(self, flow: tuple) -> None:
        self.flow = flow

    def end_game(self, outcome: dict[str, Any], span: Any = None) -> None:
        """End the game with `outcome` (built by `runtime.outcomes`) and stop the running rule.
        `span` is the `end game` statement's; with the running rule it is kept in `ended_by`."""
        self.terminal = True
        self.outcome = outcome
        self.ended_by = (self.rule, span)
        raise GameEnded()

    def reveal(self, z: ZoneRef, span: Any = None) -> None:
        """Show a zone's contents to everyone: a public `reveal` event, and the latest reveal of
        each zone stays in every view (with the event's ply) until the zone is revealed again."""
        about_to_record(self)
        self.dirty.add("reveals")
        self.version += 1
        names = [c.name for c in self.zones[z.idx]]
        ply = len(self.events)
        self.reveals = [r for r in self.reveals if r["zone"] != z.key]
        self.reveals.append({"zone": z.key, "by": self.actor, "ply": ply, "components": names})
        self.own_events().append(Event(ply, "show", self.rule, rule_source(span), seat=self.actor, zone=z.key, outcome=names))

    def mark(self, c: Comp, value: Any) -> None:
        self.version += 1
        if self.marks_watched:
            self.dirty.update(("marks", "has_mark"))
        marks = self.own_marks()
        marks[c.id] = marks.get(c.id, ()) + (value,)  # tuples: a clone shares them

    def unmark(self, c: Comp) -> None:
        self.version += 1
        if self.marks_watched:
            self.dirty.update(("marks", "has_mark"))
        self.own_marks().pop(c.id, None)


# never changed once setup has run (components are immutable; zone references are fixed)
_SHARED = frozenset(("seat_list", "options", "comps", "zone_refs", "count_places", "count_slots", "count_clear", "callables", "_names", "_kinds", "loose", "loose_members",
                     "clone_plan", "own_plans", "scalar_members", "flat_members", "nested_members", "pure_memo",
                     "draw_memo", "base_zones"))
_STATE_FIELDS = len(State(1, {}, None).__dict__)


def _plan(st: State) -> tuple:
    """How to copy `st`'s globals, entity columns and marks: (`copy_g(g) -> copy of g` or None
    when `g` is shared, `columns(ev) -> copy of ev` or None when there are no entities,
    whether the marks are copied), the first two generated for the ruleset. When every rule
    changing `g`, `ev` or a container in place takes it first (`own`, the ruleset's
    `callables.shares`), all are shared, the marks too."""
    if getattr(st.callables, "shares", False):
        return None, None, False
    flat, scalar, nested = st.flat_members, st.scalar_members, st.nested_members
    sets = {n for e in st.entities for n in e.set_names}  # every entity is in `entities`
    g_flat = tuple(n for n in st.loose if n in flat)
    g_ents = tuple(n for n in st.loose if n in sets)
    g_nested = tuple(n for n in st.loose if n in nested and n not in sets)
    g_deep = tuple(n for n in st.loose if n not in flat and n not in scalar and n not in sets and n not in nested)
    kinds: dict[str, list[str]] = {}  # member -> the "kind.member" of each entity kind having it
    for kind, members in st.loose_members.items():
        for m in members:
            kinds.setdefault(m, []).append(f"{kind}.{m}")
    how = {}
    for name in st.ev:
        of = kinds.get(name, [name])
        how[name] = ("share" if all(k in scalar for k in of) else
                     "flat" if all(k in scalar or k in flat for k in of) else "deep")
    # the entities having each member (by their kinds' declarations): the only non-ABSENT places of its column
    having = {name: tuple(e._n for e in st.entities if name in st.loose_members.get(e.kind, ())) for name in st.ev}
    return (_globals_copier(g_flat + g_ents, g_nested, g_deep, st.nseats),
            _column_copier(how, having) if st.entities else None, True)


def _globals_copier(flat: tuple[str, ...], nested: tuple[str, ...], deep: tuple[str, ...], nseats: int) -> Any:
    """`copy_g(g) -> copy`, generated: `g` copied, and in the copy the lists of `flat` (lists of
    scalars, and entity sets, which `remove_entity` changes) copied, those of `nested` (per-seat
    lists or maps of scalars, `nseats` of them: written out) copied two levels deep, those of
    `deep` copied deeply (entities shared); all else (scalars, constants, zones, component
    sets) shared."""
    lines = ["def copy_g(g):", "    g = g.copy()"]
    lines += [f"    g[{n!r}] = g[{n!r}][:]" for n in flat]
    each = "[" + ", ".join(f"x[{s}].copy()" for s in range(nseats)) + "]"
    for n in nested:
        lines += [f"    x = g[{n!r}]", f"    g[{n!r}] = {each} if len(x) == {nseats} else [y.copy() for y in x]"]
    for n in deep:
        lines += [f"    x = g[{n!r}]", "    if x.__class__ not in ATOMS:", f"        g[{n!r}] = COPY(x, {{}})"]
    lines.append("    return g")
    ns: dict[str, Any] = {"ATOMS": _ATOMS, "COPY": _copy}
    exec("\n".join(lines), ns)  # noqa: S102 - built from the ruleset's global names
    return ns["copy_g"]


def _column_copier(how: dict[str, str], having: dict[str, tuple[int, ...]]) -> Any:
    """`columns(ev) -> copy`, generated for the entity columns' plans ({member: "share" (every
    value a scalar: the column list is copied), "flat" (scalars or lists of scalars: each list
    copied too, at the places of the entities `having` the member, written out) or "deep"
    (anything: copied deeply, entities shared)})."""
    lines = ["def columns(ev):"]
    parts = []
    for k, (name, kind) in enumerate(how.items()):
        col = f"ev[{name!r}]"
        if kind == "share":
            parts.append(f"{name!r}: {col}[:]")
        elif kind == "flat":
            lines.append(f"    c{k} = {col}[:]")
            for i in having[name]:
                lines += [f"    x = c{k}[{i}]", f"    if x.__class__ is list: c{k}[{i}] = x[:]"]
            parts.append(f"{name!r}: c{k}")
        else:
            parts.append(f"{name!r}: [x if x.__class__ in ATOMS else COPY(x, {{}}) for x in {col}]")
    text = "\n".join(lines) + "\n    return {" + ", ".join(parts) + "}"
    ns: dict[str, Any] = {"ATOMS": _ATOMS, "COPY": _copy}
    exec(text, ns)  # noqa: S102 - built from the ruleset's member names above
    return ns["columns"]


def _owner(st: State, keys: frozenset[str]) -> Any:
    """`own(st, owned)`, generated for `keys` (`State.own`): each key not in `owned` copied
    and added to it. The dict of globals `g` (G_KEY) is taken first whenever a key names a
    global, and the dict of entity columns `ev` (EV_KEY) whenever one names an entity member
    (".name"): it is the copy that is changed. The marks (MARKS_KEY), `ent_alive` (ALIVE_KEY)
    and a list of scalars or of entities are copied flat, a per-seat list of lists or maps of
    scalars two levels deep, an entity member's column entries holding lists of scalars flat;
    anything else deeply."""
    flat, scalar, nested = st.flat_members, st.scalar_members, st.nested_members
    sets = {n for e in st.entities for n in e.set_names}
    kinds: dict[str, list[str]] = {}
    for kind, members in st.loose_members.items():
        for m in members:
            kinds.setdefault(m, []).append(f"{kind}.{m}")
    lines = ["def own(st, owned):", "    g = st.g", "    ev = st.ev"]
    if G_KEY in keys or any(k[0] not in ".#" for k in keys):
        keys = keys | {G_KEY}
        lines += [f"    if {G_KEY!r} not in owned:", "        g = st.g = g.copy()"]
    if EV_KEY in keys or any(k[0] == "." for k in keys):
        keys = keys | {EV_KEY}
        lines += [f"    if {EV_KEY!r} not in owned:", "        ev = st.ev = ev.copy()"]
    for k in sorted(keys):
        if k in scalar or k in (G_KEY, EV_KEY):
            continue
        lines.append(f"    if {k!r} not in owned:")
        if k == MARKS_KEY:
            lines.append("        st.marks = st.marks.copy()")
        elif k == ALIVE_KEY:
            lines.append("        st.ent_alive = st.ent_alive[:]")
        elif k[0] == ".":
            m = k[1:]
            lines += [f"        col = ev.get({m!r})", "        if col is not None:", f"            col = ev[{m!r}] = col[:]",
                      "            for i, x in enumerate(col):"]
            if all(x in scalar for x in kinds.get(m, [m])):
                lines.pop()
            elif all(x in scalar or x in flat for x in kinds.get(m, [m])):
                having = [e._n for e in st.entities if m in st.loose_members.get(e.kind, ())]
                lines[-1:] = [f"            for i in {having!r}:", "                x = col[i]", "                if x.__class__ is list: col[i] = x[:]"]
            else:
                lines.append("                if x.__class__ not in ATOMS: col[i] = COPY(x, {})")
        elif k in flat or k in sets:
            lines.append(f"        g[{k!r}] = g[{k!r}][:]")
        elif k in nested:
            lines.append(f"        g[{k!r}] = [y.copy() for y in g[{k!r}]]")
        else:
            lines += [f"        x = g[{k!r}]", f"        if x.__class__ not in ATOMS: g[{k!r}] = COPY(x, {{}})"]
    lines.append("    owned.update(KEYS)")
    ns: dict[str, Any] = {"ATOMS": _ATOMS, "COPY": _copy, "KEYS": keys}
    exec("\n".join(lines), ns)  # noqa: S102 - built from the ruleset's global and member names
    return ns["own"]


class _CountsWhileBuilding:
    """`State.count_places` and `State.count_cells` both, before `State.keep_counts` keeps the
    counts (`State.count_while_building`): read the way generated code reads kept counts
    (`count_cells[count_places[idx + k * len(zones)].get(v, 0)]`, with the number of zones there
    are when it reads), each count is counted afresh from the zone's list."""

    __slots__ = ("st", "counted")

    def __init__(self, st: State, counted: dict[str, tuple[str, ...]]):
        self.st, self.counted = st, counted

    def __getitem__(self, key: Any) -> Any:
        st = self.st
        if key.__class__ is tuple:  # `count_cells[...]`: the key `_SlotWhileBuilding.get` gave
            i, a, v = key
            return _counted(st.zones[i], a).get(v, 0)
        n = len(st.zones)  # `count_places[slot]`
        i, k = key % n, key // n
        return _SlotWhileBuilding(i, self.counted[st.zone_refs[i].decl_name][k])


class _SlotWhileBuilding:
    """`State.count_places[slot]` while the tables are built (`_CountsWhileBuilding`): `get(v, 0)`
    gives the key of `count_cells` that counts `v` in zone `i`'s attribute `a`."""

    __slots__ = ("i", "a")

    def __init__(self, i: int, a: str):
        self.i, self.a = i, a

    def get(self, v: Any, _default: int) -> tuple[int, str, Any]:
        return self.i, self.a, v


def _counted(lst: list[Comp], attr: str) -> dict[Any, int]:
    """{value: how many components of `lst` have it as `attr`}, in first-seen order."""
    by: dict[Any, int] = {}
    count_elements(by, [c.d[attr] for c in lst])
    return by


class _Absent:
    """The value in an entity column for an entity without that member (`State.ev`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()
# values a copy shares: immutable, or entities (which never change, see Ent)
_ATOMS = frozenset((int, str, bool, float, type(None), Comp, ZoneRef, frozenset, Event, Ent, _Absent))


def _copy(v: Any, memo: dict[int, Any]) -> Any:
    """A copy of `v` sharing immutable values and entities (`memo` is unused: kept for callers)."""
    cls = v.__class__
    if cls in _ATOMS:
        return v
    if cls is list:
        return [x if x.__class__ in _ATOMS else _copy(x, memo) for x in v]
    if cls is dict:
        return {k: x if x.__class__ in _ATOMS else _copy(x, memo) for k, x in v.items()}
    if cls is tuple:
        return tuple(_copy(x, memo) for x in v)
    if cls is set:
        return {_copy(x, memo) for x in v}
    raise TypeError(f"cannot copy a {cls.__name__} in a game state")


def _name_part(v: Any) -> str:
    if isinstance(v, (Comp, Ent)):
        return v.name
    return str(v)


_SEEN: dict[tuple, list[int]] = {}
_ONE: dict[str, list[str]] = {}  # component name -> the outcome list of a draw of it alone, shared


def _outcome(names: list[str]) -> list[str]:
    """A chance event's `outcome` list: a copy of `names`, or for a single component (a random
    draw, the common case) one list per name shared by the events that have it (events never
    change their lists; a live game keeps all of them)."""
    if len(names) != 1:
        return list(names)
    got = _ONE.get(names[0])
    if got is None:
        got = [names[0]]
        if len(_ONE) < 100_000:
            _ONE[names[0]] = got
    return got
_NAME = operator.attrgetter("name")


def _firsts(ordered: list[Comp], keys: list[Any]) -> dict[Any, Comp]:
    """{value: the first component of `ordered` whose value (in `keys`, the same order) it is},
    in the order of the values' first places (never changed: entries of `draw_memo` share it)."""
    return {k: ordered[keys.index(k)] for k in dict.fromkeys(keys)}


# id(span) -> (span, its `file:line`): a span's attrs `__hash__` is a Python call hashing its
# fields, dearer than the string it looks up; the span is kept so that its id is not reused
_SRCS: dict[int, tuple[Any, str]] = {}


def rule_source(span: Any) -> str:
    """`file:line` of a rule's span (one string per rule, shared by its events and errors; ""
    for None)."""
    got = _SRCS.get(id(span))
    if got is not None and got[0] is span:
        return got[1]
    text = f"{span.file}:{span.line}" if span is not None else ""
    if len(_SRCS) >= 65536:  # rulesets loaded again and again (a long-lived service): start afresh
        _SRCS.clear()
    _SRCS[id(span)] = (span, text)
    return text
