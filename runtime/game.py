"""The game-agnostic interpreter API, in the field's terms (after OpenSpiel's State).

    g = Game.new(ruleset, seats=2, options={}, seed="s")   # setup runs; chance nodes become events
    g.decision()            # whose decision it is: Decision(step, seats, terminal)
                            # (at a simultaneous step: every seat still to choose, runtime.simultaneous)
    g.legal_moves(seat)     # list[Move] (a pick of several is listed as its offer, runtime.picks)
                            # (automaton seats never decide: the rules play their moves, see _run_automata)
    g.apply(seat, move)     # new events; IllegalMove / NotYourTurn leave the state unchanged
    g.view(seat)            # the seat's information set as JSON (hidden zones redacted)
    g.state_hash()          # sha256 of the canonical state
    g.clone()               # an independent copy for search (moves on it never touch g)
    Game.fold(ruleset, seats, options, events)   # replay a log, re-checking every move

Chance is resolved inline: each shuffle or random draw is taken from the given outcomes
first (a stacked deck or a replayed log), then from the seeded RNG (`runtime.chance`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

import attrs

from dsl.ir import Ruleset
from runtime import picks, simultaneous, views
from runtime.budget import DEFAULT_BUDGET, BudgetExceeded
from runtime.chance import ChanceSource, ImpossibleOutcome
from runtime.compile import MoveCode, Program, program_for
from runtime.errors import RuleError
from runtime.events import NO_ARGS, NO_OUTCOME, Event, Unfrozen, new_log
from runtime.picks import Pick
from runtime.state import GameEnded, State, rule_source
from runtime.values import Comp, Ent, encode

AUTOMATON_LIMIT = 100_000  # automaton moves in a row before the rules are deemed to loop


class IllegalMove(Exception):
    """A move the rules refuse. `reason` is the failing `require`'s text (or why the move
    does not exist here); `rule` and `source` name the rule and its `file:line`."""

    def __init__(self, reason: str, rule: str = "", source: str = "", ply: int | None = None):
        self.reason = reason
        self.rule = rule
        self.source = source
        self.ply = ply
        super().__init__(reason)


class NotYourTurn(IllegalMove):
    """A seat tried to move while another seat (or nobody) is to act."""


class LogMismatch(ImpossibleOutcome):
    """A replayed log differs from what its moves produce (an edited or reordered event)."""


@attrs.frozen
class Decision:
    """Who is to act: the turn machine's `step`, the seats that may move, and whether the
    game is over. `stuck` is true when the seat to act has no legal move (a rules defect)."""

    step: str
    seats: tuple[int, ...]
    terminal: bool
    stuck: bool = False


class Move:
    """A move as clients send it: the move's name and its arguments (JSON values).

    Components are named (`red-7`) when the mover can see them, else referenced by slot
    (`hand[0]@2`); entities by name (`tile2`); seats as numbers; enum values as text.

    Moves listed by `Game.legal_moves` also carry their bound values (`binding`, valid in
    the state `version` of `origin` they were listed in) and encode `args` only when read: a
    random playout never pays for encoding the moves it does not pick. A listed move holds
    only its binding and the pair `(move code, Listing)` of where it was listed (a tuple,
    cheaper to make than an object), so listing many moves stays cheap."""

    __slots__ = ("_lm", "binding", "_args")

    def __init__(self, name: str, args: dict[str, Any] | None = None):
        self._lm: Any = name  # the name itself for a move built by a client, else (move code, Listing)
        self._args: dict[str, Any] = {} if args is None else args
        self.binding: tuple | None = None

    @property
    def name(self) -> str:
        lm = self._lm
        return lm if lm.__class__ is str else lm[0].name

    @property
    def version(self) -> int:
        """The state version the move was listed in (-1 for a move built by a client)."""
        lm = self._lm
        return -1 if lm.__class__ is str else lm[1].version

    @property
    def origin(self) -> State | None:
        """The state the move was listed in (None for a move built by a client)."""
        lm = self._lm
        return None if lm.__class__ is str else lm[1].st

    @property
    def args(self) -> dict[str, Any]:
        """Argument name -> JSON value (encoded on first read for listed moves)."""
        try:
            return self._args
        except AttributeError:
            mc, listing = self._lm
            enc = listing.encode
            a = self._args = {n: enc(v) for n, v in zip(mc.names, self.binding)}  # type: ignore[arg-type]
            return a

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Move:
            return NotImplemented
        return self.name == other.name and self.args == other.args  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable args, as before

    def __repr__(self) -> str:
        return f"Move(name={self.name!r}, args={self.args!r})"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "args": dict(self.args)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Move:
        """Raises `IllegalMove` when `d` is not {"name": str, "args": {...}}."""
        if not isinstance(d, dict) or not isinstance(d.get("name"), str) or not isinstance(d.get("args", {}), dict):
            raise IllegalMove('a move is {"name": "...", "args": {...}}')
        return cls(d["name"], dict(d.get("args", {})))


class _MoveList(list):
    """The list `Game.legal_moves` returns. A random playout reads one move of dozens, so a
    `Move` is made only when read: by index (`moves[i]`, `random.choice`), or all of them at
    the first other use (iteration, comparison, slicing, any change). Until then the list's
    own storage is empty and its `Listing` says what it holds; from then on it is an
    ordinary list. Copies and pickles are plain lists.

    `_made` holds the `Move` of each binding once read, shared by the lists of one listing
    (as copies of a list share its items). It is kept apart from the listing, which each
    move points at: a listing holding its moves would be a reference cycle per ply, left
    for the garbage collector."""

    __slots__ = ("_listing", "_made", "_full")
    _listing: Listing
    _made: list[Move | None]
    _full: bool

    def _fill(self) -> None:
        if not self._full:
            items = [_MoveList.__getitem__(self, i) for i in range(len(self._made))]
            self._full = True
            list.extend(self, items)

    def __len__(self) -> int:
        return list.__len__(self) if self._full else len(self._made)

    def __getitem__(self, i: Any) -> Any:
        if self._full or i.__class__ is not int:
            self._fill()
            return list.__getitem__(self, i)
        made = self._made
        m = made[i]  # out of range: list's own IndexError
        if m is not None:
            return m
        # the `Move` of binding `i`, made on its first read
        if i < 0:
            i += len(made)
        listing = self._listing
        for end, mc in listing.spans:
            if i < end:
                break
        m = made[i] = _new_move(Move)
        m._lm = (mc, listing)
        m.binding = listing.bindings[i]
        return m

    def __radd__(self, other: Any) -> Any:
        return other + list(self) if isinstance(other, list) else NotImplemented

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (list, (list(self),))

    def __copy__(self) -> list[Move]:
        return list(self)


def _filled(name: str) -> Any:
    base = getattr(list, name)

    def method(self: _MoveList, *args: Any, **kw: Any) -> Any:
        self._fill()
        for a in args:  # list's own methods read another list's storage directly
            if a.__class__ is _MoveList:
                a._fill()
        return base(self, *args, **kw)

    method.__name__ = name
    return method


for _name in ("__iter__", "__reversed__", "__contains__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
              "__repr__", "__add__", "__mul__", "__rmul__", "__iadd__", "__imul__", "__setitem__", "__delitem__",
              "append", "extend", "insert", "pop", "remove", "clear", "copy", "count", "index", "reverse", "sort"):
    setattr(_MoveList, _name, _filled(_name))


_new_move = _new_game = _new_listing = _new_event = object.__new__
_new_list = list.__new__


class Listing:
    """The legal moves of the seat to act, found once per state version (`Game._legal`; read
    through `Game.listed`) and shared by every `_MoveList` of that state: `bindings` in order, and `spans` listing `(end,
    move code)` per move declaration that has bindings (the bindings before index `end` not
    claimed by an earlier span are that move's).

    A listed move's arguments are encoded on demand. A component's encoding depends on where
    it lies (a slot reference when the mover cannot see it), so before the game changes
    `Game.apply` keeps the zone lists of that moment in `zones` (zone lists are never changed
    in place, so keeping them is enough)."""

    __slots__ = ("st", "seat", "version", "zones", "spans", "bindings", "decision")
    st: State
    seat: int
    version: int
    zones: list[list[Comp]] | None
    spans: list[tuple[int, MoveCode]]
    bindings: list[tuple]
    decision: Decision | None  # `Game.decision`'s answer in this state version, once asked

    def encode(self, v: Any) -> Any:
        if v.__class__ is Pick:
            return v.encoded(self.encode)
        if v.__class__ is Comp:
            st, zones = self.st, self.zones
            if zones is None:
                i = st.loc[v.id]
                z = st.zone_refs[i] if i is not None else None
                if z is not None and not z.visible_to(self.seat):
                    return f"{z.key}@{st.zones[i].index(v)}"  # type: ignore[index]
                return v.name
            for z in st.zone_refs:  # frozen: where it lay then
                if z.visibility != "public" and v in zones[z.idx] and not z.visible_to(self.seat):
                    return f"{z.key}@{zones[z.idx].index(v)}"
            return v.name
        if v.__class__ is int or v.__class__ is str:
            return v
        return encode(v)


class Game:
    """One game in progress: a compiled program, its state and its events."""

    def __init__(self, prog: Program, st: State):
        self.prog = prog
        self.st = st
        # the legal moves found last (`_legal`; current while its state and version are the
        # game's), frozen and dropped before a change
        self._listing: Listing | None = None
        self._made: list[Move | None] = []  # the moves read of it, shared by its lists (`_MoveList`)
        self._plan = _plan_for(prog)
        self._humans = st.nseats - len(prog.rs.automata)  # the human seats come first
        # at a simultaneous step: seat -> (its listing, its made moves), for the state version listed
        self._sim_lists: dict[int, tuple[Listing, list]] = {}
        st.callables = prog.callables  # ruleset functions by name, for built-ins that call them (runtime.builtins_search)

    # ---- creation ----
    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        seats: int | None = None,
        options: dict[str, Any] | None = None,
        seed: str | int | None = None,
        outcomes: list[Any] | None = None,
        verify: bool = False,
        strict: bool = False,
        budget: int = DEFAULT_BUDGET,
    ) -> Game:
        """Create a game and run its setup.

        `seats` (human seats; the ruleset's automata are added after them) defaults to the fewest allowed; `options` override the declared defaults
        (unknown names or wrong types raise ValueError); `outcomes` are chance outcomes used
        before the seeded RNG, in order: each a list of component names, or a dict
        `{"outcome": [...], "node": ..., "zone": ..., "from": ..., "rule": ..., "source": ...}`
        whose label fields (any of them) must match the chance node the rules reach
        (`runtime.chance`); `verify` also checks each given outcome against the seed. With
        `strict`, the given outcomes must be exactly those the game uses: a chance node with
        none left, or outcomes left when the game ends (or at `check_outcomes_used`), is an
        error. Raises ImpossibleOutcome for an impossible, mislabelled, missing or left-over
        outcome (ValueError for a malformed one). `budget` is the execution budget in steps
        of setup, each move, each trigger cascade and each legal-moves listing (see
        `runtime.budget`); setup running out of it raises BudgetExceeded.
        """
        prog, st = cls._tables(ruleset, seats, options)
        st.chance = ChanceSource(seed, outcomes, verify, strict)
        st.budget = st.steps_left = budget
        g = cls(prog, st)
        try:
            g._setup()
        except (BudgetExceeded, RecursionError) as exc:
            raise g._budget_error(exc) from None
        if st.terminal:
            g.check_outcomes_used()
        return g

    @classmethod
    def from_position(cls, ruleset: Ruleset, position: dict[str, Any], seats: int | None = None,
                      options: dict[str, Any] | None = None, seed: str | int | None = None) -> Game:
        """A game set up at `position` instead of by its `setup` (a scenario test, a teaching
        example, a referee's "what if"). `position` is JSON:

            {"zones": {"deck": ["red-3", ...], "hand[0]": [...], "tile1.cubes": [...]},
             "vars": {"score": [3, 1], ...}, "entities": {"flag2": {"done_at": [1]}},
             "step": "play", "actor": 1, "current": 1}

        Zones are listed by key, top first; every component the ruleset places at the start
        must be in exactly one listed zone. Variables and entity variables not given keep their
        initial values; values are written as in moves (components and entities by name).
        `step` defaults to the first step, `actor` and `current` to 0. Later chance draws on
        `seed`. Raises ValueError saying what is wrong (unknown zone, component, variable or
        step; a component in two zones or in none; a seat out of range).
        """
        prog, st = cls._tables(ruleset, seats, options)
        st.chance = ChanceSource(seed)
        g = cls(prog, st)
        g._place(position)
        if prog.sim_seats:
            g._open_round()
        return g

    def _place(self, position: dict[str, Any]) -> None:
        st, rs = self.st, self.prog.rs
        unknown = set(position) - {"zones", "vars", "entities", "step", "actor", "current"}
        if unknown:
            raise ValueError(f"a position has no {', '.join(sorted(unknown))}; it lists zones, vars, entities, step, actor, current")
        zones = {z.key: z for z in st.zone_refs}
        comps = {c.name: c for c in st.comps}
        placed = {c.name for c in comps.values() if st.loc[c.id] is not None}
        seen: dict[str, str] = {}
        for z in st.zone_refs:
            st.zones[z.idx] = []
        st.loc = [None] * len(st.comps)
        st.loc_shared = False
        for key, names in (position.get("zones") or {}).items():
            z = zones.get(key)
            if z is None:
                raise ValueError(f"position: there is no zone '{key}'" + _close(key, zones))
            for name in names:
                c = comps.get(name)
                if c is None or c.kind not in z.holds.split("|"):
                    held = " or ".join(z.holds.split("|"))
                    raise ValueError(f"position: zone {key} holds {held} components, and there is no {held} named '{name}'")
                if name in seen:
                    raise ValueError(f"position: {name} is in two zones, {seen[name]} and {key}")
                seen[name] = key
                st.zones[z.idx].append(c)
                st.loc[c.id] = z.idx
        st.recount()  # the lists were filled in place
        missing = sorted(placed - set(seen))
        if missing:
            raise ValueError(f"position: every component must be in exactly one zone; {len(missing)} are in none: "
                             f"{', '.join(missing[:5])}{'...' if len(missing) > 5 else ''}")
        decls = {v.name: v for v in rs.vars}
        for name, value in (position.get("vars") or {}).items():
            v = decls.get(name)
            if v is None:
                raise ValueError(f"position: there is no variable '{name}'" + _close(name, decls))
            if v.per_seat:
                if not isinstance(value, list) or len(value) != st.nseats:
                    raise ValueError(f"position: '{name}' is per seat: give a list of {st.nseats} values")
                st.g[name] = [self._decode(x, v.type) for x in value]
            elif v.per:
                st.g[name] = {k: self._decode(x, v.type) for k, x in value.items()}
            else:
                st.g[name] = self._decode(value, v.type)
        ents = {e.name: e for e in st.entities}
        for name, fields in (position.get("entities") or {}).items():
            e = ents.get(name)
            if e is None:
                raise ValueError(f"position: there is no entity '{name}'" + _close(name, ents))
            decl = self.prog.entity_types[e.kind]
            types = {f.name: f.type for f in decl.fields} | {v.name: v.type for v in decl.vars}
            for k, x in fields.items():
                if k not in types:
                    raise ValueError(f"position: entity {name} has no field or variable '{k}'")
                st.set_member(e, k, self._decode(x, types[k]))
        step = position.get("step", self.prog.first_step)
        if step not in self.prog.steps:
            raise ValueError(f"position: there is no step '{step}'" + _close(step, self.prog.steps))
        for k in ("actor", "current"):
            s = position.get(k, 0)
            if not isinstance(s, int) or not 0 <= s < st.nseats:
                raise ValueError(f"position: {k} must be a seat from 0 to {st.nseats - 1}, not {s!r}")
        st.step, st.actor, st.current = step, position.get("actor", 0), position.get("current", 0)
        st.flow, st.rule = None, "position"
        st.version += 1
        st.dirty = {"*"}

    @classmethod
    def _tables(cls, ruleset: Ruleset, seats: int | None, options: dict[str, Any] | None) -> tuple[Program, State]:
        """The compiled rules and a fresh state with its tables built (no setup, no chance yet)."""
        prog = program_for(ruleset)
        # the template of a game with no options given, by its seats (the common call): past
        # resolving and sorting the options
        templates = _plan_for(prog).templates
        if not options and seats.__class__ is int:
            template = templates.get(seats)  # type: ignore[arg-type]
            if template is not None:
                st = template.clone()
                st.events = new_log(st)
                return prog, st
        lo, hi = ruleset.seats
        n = lo if seats is None else seats
        if not lo <= n <= hi:
            raise ValueError(f"{ruleset.name} is for {lo}-{hi} seats, not {n}" if lo != hi else f"{ruleset.name} is for {lo} seats, not {n}")
        given = options or {}
        try:
            okey: tuple | None = (n, tuple(sorted((k, v.__class__, v) for k, v in given.items())))  # True is not 1
            resolved = prog.resolved_options.get(okey)  # type: ignore[arg-type]
        except TypeError:  # an unhashable value: resolving it reports it
            okey = resolved = None
        if resolved is None:
            st = State(n + len(ruleset.automata), {}, None)  # no chance before setup: the game's source comes below
            resolved = _resolve_options(prog, st, given)
            if okey is not None and len(prog.resolved_options) < 256:
                prog.resolved_options[okey] = resolved
        key = (n, tuple(sorted(resolved.items())))
        template = prog.templates.get(key)
        if template is None:
            if len(prog.templates) >= 32:  # options can take many values in a long-lived service
                prog.templates.pop(next(iter(prog.templates)))
            st = State(n + len(ruleset.automata), {}, None)
            st.options = resolved
            cls(prog, st)._build_tables()
            st.base_zones = tuple(st.zones)  # never changed in place from here on: see State.move_items
            template = prog.templates[key] = st
        if not options and seats.__class__ is int and len(templates) < 64:
            templates[seats] = template  # type: ignore[index]
        st = template.clone()
        st.events = new_log(st)  # this game's own events are observable (runtime.replay); a clone's are not
        return prog, st

    def _build_tables(self) -> None:
        """Everything before `setup`: constants, zones, components, entities, variables. None
        of it draws on chance, so it is built once per seats and options (`Program.templates`)
        and each new game starts from a copy."""
        prog, st = self.prog, self.st
        if prog.counted:  # (initialisers may call generated functions reading kept counts)
            st.count_while_building(prog.counted)
        for name, seat in self.automata.items():
            st.g[name] = seat
        for name, f in prog.consts:
            st.g[name] = f(st, [])
        for z in prog.rs.zones:
            if z.per_seat:
                st.g[z.name] = [st.new_zone(f"{z.name}[{s}]", z.holds, z.visibility, s, z.ordered, z.name) for s in st.seat_list]
            elif z.per:
                st.g[z.name] = self._keyed_zones(z, z.name)
            else:
                st.g[z.name] = st.new_zone(z.name, z.holds, z.visibility, None, z.ordered, z.name)
        for name, f in prog.component_sets:
            st.g[name] = list(f(st, []))
        for name, f in prog.entity_sets:
            ents = list(f(st, []))
            st.g[name] = ents
            for e in ents:
                e.set_names.append(name)
                self._build_entity(e)
        for z, init in prog.zone_inits:
            if init is not None and not z.per_seat and not z.per:
                for c in list(st.items(init(st, []))):
                    st.place_initial(c, st.g[z.name])
        for v, init in prog.var_inits:
            if v.per:
                st.g[v.name] = {k: init(st, []) for k in self._enum_values(v.per)}
            else:
                st.g[v.name] = [init(st, []) for _ in st.seat_list] if v.per_seat else init(st, [])
        shown = {name for d in prog.rs.spectators for name in d.zones}
        for zr in st.zone_refs:
            zr.spectators = zr.decl_name in shown
            zr.watched = zr.decl_name in prog.trigger_deps  # else no trigger needs to hear of a change
        st.marks_watched = not prog.trigger_deps.isdisjoint(("marks", "has_mark"))
        # the counts the generated rules read, kept by every write (none under the closures)
        counted = prog.counted
        if counted:
            st.keep_counts({z.idx: counted[z.decl_name] for z in st.zone_refs if z.decl_name in counted})
        # constants, component sets and zones never change: a clone copies only the rest
        fixed = {name for name, _ in prog.consts + prog.component_sets} | {z.name for z in prog.rs.zones}
        st.loose = tuple(name for name in st.g if name not in fixed)
        st.loose_members = {e.name: tuple(f.name for f in e.fields) + tuple(v.name for v in e.vars) for e in prog.rs.entity_types}
        # what a clone may share (scalars) or copy flat (per-seat lists of scalars): State.clone
        atoms = {"int", "bool", "str", "seat"} | {e.name for e in prog.rs.enums}

        def scalar(t: Any) -> bool:
            return t.name in atoms and not t.args

        kinds = [(e.name + ".", e.fields, e.vars) for e in prog.rs.entity_types] + [("", (), prog.rs.vars)]
        st.scalar_members = frozenset(
            [k + f.name for k, fields, _ in kinds for f in fields if scalar(f.type)]
            + [k + v.name for k, _, vars_ in kinds for v in vars_ if scalar(v.type) and not v.per_seat and not v.per])
        def scalars(t: Any) -> bool:  # a list of scalars
            return t.name == "list" and len(t.args) == 1 and scalar(t.args[0])

        st.flat_members = frozenset(
            [k + v.name for k, _, vars_ in kinds for v in vars_
             if (scalar(v.type) and v.per_seat) or (scalars(v.type) and not v.per_seat and not v.per)]
            + [k + f.name for k, fields, _ in kinds for f in fields if scalars(f.type)])

        def shallow(t: Any) -> bool:  # a list or a map of scalars, never none
            if t.optional:
                return False
            return scalars(t) or (t.name == "map" and len(t.args) == 2 and scalar(t.args[0]) and scalar(t.args[1]))

        st.nested_members = frozenset(v.name for v in prog.rs.vars if v.per_seat and not v.per and shallow(v.type))

    def _setup(self) -> None:
        prog, st = self.prog, self.st
        st.rule = "setup"
        env: list = [None] * max(prog.setup_slots, 1)
        try:
            if prog.setup_run is not None:
                prog.setup_run(st, self._triggers)
            else:
                for f, _node in prog.setup:
                    f(st, env)
                    self._triggers()
        except GameEnded:
            pass
        if not st.terminal:
            if st.flow is None:
                st.flow = ("turn", 0)
            self._transition()
            self._open_round()
        self._run_automata()

    def _build_entity(self, e: Ent) -> None:
        st, prog = self.st, self.prog
        decl = prog.entity_types[e.kind]
        fields_env = [st.member(e, f.name) for f in decl.fields]
        for z, init in prog.entity_zone_inits[e.kind]:
            key = f"{e.name}.{z.name}"
            if z.per_seat:
                st.add_member(e, z.name, [st.new_zone(f"{key}[{s}]", z.holds, z.visibility, s, z.ordered, z.name) for s in st.seat_list],
                              zone=True)
            elif z.per:
                st.add_member(e, z.name, self._keyed_zones(z, key), zone=True)
            else:
                st.add_member(e, z.name, st.new_zone(key, z.holds, z.visibility, None, z.ordered, z.name), zone=True)
                if init is not None:
                    for c in list(st.items(init(st, fields_env))):
                        st.place_initial(c, e.d[z.name])
        for name, init in prog.entity_inits[e.kind]:
            st.add_member(e, name, init(st, fields_env))

    def _enum_values(self, name: str) -> tuple[str, ...]:
        return next(e.values for e in self.prog.rs.enums if e.name == name)

    def _keyed_zones(self, z: Any, key: str) -> dict[str, Any]:
        """`zone NAME: per ENUM ...`: one zone per value, keyed `NAME[value]`, owned by no seat."""
        return {v: self.st.new_zone(f"{key}[{v}]", z.holds, z.visibility, None, z.ordered, z.name)
                for v in self._enum_values(z.per)}

    # ---- copying ----
    def clone(self) -> Game:
        """An independent copy of this game for search (e.g. a bot's playouts): moves applied
        to the copy never change this game, and the copy's chance continues from the same RNG
        state. The compiled rules, components and past events are shared (immutable)."""
        new = _new_game(Game)
        d = new.__dict__ = self.__dict__.copy()
        d["st"] = self.st.clone()
        if self._listing is not None:
            d["_listing"] = None
        if self._plan.simultaneous:  # else `_sim_lists` stays the empty dict it was made (no round to list): shared
            d["_sim_lists"] = {}
        return new

    # ---- queries ----
    @property
    def ruleset(self) -> Ruleset:
        return self.prog.rs

    @property
    def events(self) -> list[Event]:
        return self.st.events

    @property
    def terminal(self) -> bool:
        return self.st.terminal

    @property
    def outcome(self) -> dict[str, Any] | None:
        """None while the game runs; else {"kind": "win"|"draw"|"scores"|"team"|"rank",
        "winners": [seat...], "scores": {...}, "reason": str}, plus "ranking", "places" and
        "tiebreaks" for ranked outcomes (see `runtime.outcomes`)."""
        return self.st.outcome

    def ending(self) -> dict[str, Any] | None:
        """Why the game ended, for people (viewer, play UI, `ludex replay --final`, the API):
        None while it runs; else {"rule": the rule that ran `end game` ("trigger NAME",
        "move NAME" or "setup"), "rule_source": that rule's file:line, "citation": its doc string
        (the rulebook section it cites, "" when none), "source": the `end game` statement's
        file:line, "reason": the outcome's reason, "winners" and "scores"} (docs/language.md,
        "end game"). Not part of events or state hashes: it is derived when asked."""
        st = self.st
        if not st.terminal or st.outcome is None:
            return None
        rule, span = st.ended_by or (st.rule, None)
        kind, _, name = rule.partition(" ")
        decls = {"trigger": self.prog.rs.triggers, "move": self.prog.rs.moves}.get(kind, ())
        decl = next((d for d in decls if d.name == name), None)
        if decl is None and kind == "setup":
            decl = self.prog.rs.setup
        outcome = st.outcome
        return {"rule": rule, "rule_source": rule_source(getattr(decl, "span", None)),
                "citation": getattr(decl, "doc", "") or "", "source": rule_source(span),
                "reason": outcome.get("reason", ""), "winners": list(outcome.get("winners", [])),
                "scores": dict(outcome.get("scores", {}))}

    @property
    def seats(self) -> int:
        """The number of human seats (what `Game.new` was given); automata come after them."""
        return self.st.nseats - len(self.prog.rs.automata)

    @property
    def automata(self) -> dict[str, int]:
        """The seats the rules drive: automaton name -> seat number (after the human seats)."""
        return {a.name: self.seats + i for i, a in enumerate(self.prog.rs.automata)}

    @property
    def round_seats(self) -> tuple[int, ...] | None:
        """At a simultaneous step, the seats its open round names (in the order their moves
        apply); None elsewhere (runtime.simultaneous)."""
        rnd = self.st.sim
        return None if rnd is None else rnd.seats

    def forget_choices(self, keep: int | None = None) -> None:
        """Drop the open round's sealed choices but `keep`'s: what a world sampled for that seat
        may know (search.determinise); the other seats of the round are to choose again."""
        rnd = self.st.sim
        if rnd is None:
            return
        self.st.sim = simultaneous.Round(rnd.seats, tuple(c for c in rnd.chosen if c[0] == keep), rnd.actor)
        self.st.version += 1
        self._sim_lists = {}

    def choose_again(self, seats: Any, rng: Any) -> None:
        """Seal a random legal choice for each of `seats`, in order: seats of the open round
        whose sealed choices were dropped (`forget_choices`) after they sealed in this round,
        with at least one other seat still to choose after them. The choice is drawn with
        `rng` among the seat's legal moves, a pick's offer standing for every pick its requires
        accept (`legal_picks`). Each rewrites the seat's `sealed` event of this round in its
        place instead of adding one, so the history reads as before: a world sampled for a seat
        that saw those choices sealed but not what they were (OpenSpiel's
        `resample_from_infostate`). Raises IllegalMove when a seat has no legal choice here,
        ValueError when a seat did not seal in this round or its choice would close it."""
        st = self.st
        rnd = st.sim
        if rnd is None:
            return
        # this round's sealed events: the run of them the log ends with (the round opened before)
        first = len(st.events)
        while first and st.events[first - 1].kind == "sealed":
            first -= 1
        for seat in seats:
            at = next((i for i in range(len(st.events) - 1, first - 1, -1) if st.events[i].seat == seat), None)
            if at is None or seat not in st.sim.waiting() or len(st.sim.waiting()) < 2:
                raise ValueError(f"seat {seat} did not seal a choice in this round, or choosing would close it")
            choices = [p for m in self.legal_moves(seat) for p in self.legal_picks(seat, m)]
            if not choices:
                raise IllegalMove(f"seat {seat} has no legal choice in this round here")
            before = len(st.events)
            self.apply(seat, choices[rng.randrange(len(choices))])
            events = st.events  # (owned by the apply)
            assert len(events) == before + 1 and st.sim is not None, "a sealed choice adds one event"
            events[at] = attrs.evolve(events.pop(), ply=at)

    def decision(self) -> Decision:
        """Who decides now. Never an automaton seat: its moves are played inside `apply`, so a
        decision with an automaton to act is a stuck one (it had no legal move). At a
        simultaneous step, `seats` are the seats of the round that have not chosen yet."""
        st = self.st
        listing = self._listing
        if listing is not None and listing.version == st.version and listing.st is st:
            got = listing.decision  # asked already in this state version
            if got is not None:
                return got
        else:
            listing = None
        if st.terminal:
            return Decision(st.step, (), True)
        if st.sim is not None:
            return self._round_decision()
        actor = st.actor
        if actor >= self._humans:
            return Decision(st.step, (), False, True)
        if listing is None:
            listing = self._legal(actor)
        if not listing.bindings:
            return Decision(st.step, (), False, True)
        key = (st.step, actor)
        got = _DECISIONS.get(key)  # immutable, and the same few recur: shared
        if got is None:
            got = _DECISIONS[key] = Decision(st.step, (actor,), False, False)
        listing.decision = got
        return got

    def legal_moves(self, seat: int) -> list[Move]:
        """Every legal move of `seat` now (empty when it is not that seat's decision; at a
        simultaneous step, the moves of any seat of the round, chosen already or not).

        The moves are found once per state version; each call returns a new list object
        (`_MoveList`: a list whose `Move` objects are made when first read)."""
        st = self.st
        if st.sim is not None and not st.terminal:
            return self._round_moves(seat)
        if st.terminal or seat != st.actor:
            return []
        listing = self._listing
        if listing is None or listing.version != st.version or listing.st is not st:
            listing = self._legal(seat)
        # an empty list made without list.__init__, its fields stored one by one: half the
        # cost of `_MoveList()` and a tuple assignment, on every call
        out = _new_list(_MoveList)
        out._listing = listing
        out._made = self._made
        out._full = False
        return out

    def _legal(self, seat: int) -> Listing:
        """Find the legal moves of `seat`, the seat to act (kept as `_listing` for this state version)."""
        st = self.st
        st.steps_left = st.budget
        lister = self._plan.listers.get(st.step)
        if lister is not None:  # every move of the step, from one generated function
            try:
                found = lister(st)
            except BudgetExceeded as exc:
                raise self._budget_error(exc, exc.rule) from None
            except RecursionError as exc:
                raise self._budget_error(exc, "legal moves") from None
            # the listing, made without a call of `__init__` (as `_listed`, inline: once per ply)
            listing = self._listing = _new_listing(Listing)
            listing.st = st
            listing.seat = seat
            listing.version = st.version
            listing.zones = None
            listing.spans, found_bindings = found
            listing.bindings = found_bindings
            listing.decision = None
            self._made = [None] * len(found_bindings)
            return listing
        plain = self._plan.plain.get(st.step)
        if plain is None:  # a step with `forced` or `otherwise` moves (or not seen yet)
            try:
                listing = self._listing = self._legal_moves(seat)
            except (BudgetExceeded, RecursionError) as exc:
                raise self._budget_error(exc, getattr(exc, "rule", "") or "legal moves") from None
            self._made = [None] * len(listing.bindings)
            return listing
        # every move of the step is listed, in declaration order: `_legal_moves` without ranking
        spans: list[tuple[int, MoveCode]] = []
        bindings: list[tuple] = []
        mc = None
        try:
            for search, mc in plain:
                inst = search(st, False)
                if inst:
                    bindings += inst
                    spans.append((len(bindings), mc))
        except BudgetExceeded as exc:
            raise self._budget_error(exc, mc.rule) from None  # type: ignore[union-attr]
        except RecursionError as exc:
            raise self._budget_error(exc, "legal moves") from None
        listing = self._listing = _listed(st, seat, spans, bindings)
        self._made = [None] * len(bindings)
        return listing

    def _legal_moves(self, seat: int) -> Listing:
        st = self.st
        plain, otherwise, with_forced = self._plan.searches(st.step)
        spans: list[tuple[int, MoveCode]] = []
        bindings: list[tuple] = []
        mc = None
        try:
            for group in (plain, otherwise):
                for search, mc in group:
                    inst = search(st, False)
                    if not inst:
                        continue
                    if with_forced:
                        if mc.decl.forced:
                            if any(not m.decl.forced for _e, m in spans):
                                spans, bindings = _only_forced(spans, bindings)
                        elif any(m.decl.forced for _e, m in spans):
                            continue
                    bindings += inst
                    spans.append((len(bindings), mc))
                if bindings:
                    break
        except BudgetExceeded as exc:
            exc.rule = mc.rule  # type: ignore[union-attr]  # its requires or argument domains
            raise
        return _listed(st, seat, spans, bindings)

    def _encode_for(self, v: Any, viewer: int | None) -> Any:
        if v.__class__ is Comp:
            z = self.st.zone_of(v)
            if z is not None and not z.visible_to(viewer):
                return f"{z.key}@{self.st.zones[z.idx].index(v)}"
        return encode(v)

    # ---- applying ----
    def apply(self, seat: int, move: Move | dict, trusted: bool = False) -> list[Event]:
        """Apply `seat`'s move and return the events it produced (the move, then chance).

        Raises NotYourTurn when `seat` is not to act, IllegalMove with the failing require's
        reason otherwise; the state is unchanged then. At a simultaneous step the move is sealed
        (a `sealed` event) and the last seat's choice reveals the round (`_choose`). `trusted` (replay only) also accepts
        components by name where the mover could not see them. A rule that fails while the
        move runs (RuleError, or BudgetExceeded when it runs out of the execution budget)
        leaves the state as it was before the move too.
        """
        st = self.st
        listing: Any = self._listing
        given: Any = move
        where = given._lm if given.__class__ is Move else None
        if (where.__class__ is tuple and where[1] is listing and listing.version == st.version and listing.st is st
                and seat == st.actor and not st.terminal and st.sim is None and not where[0].picks):
            # the common case, a move listed in this state: legal as bound
            start = self._play(listing, where[0], given.binding, seat)
            return st.events[start:]  # (read after the move: a log shared with a clone is copied when first written)
        if move.__class__ is not Move and not isinstance(move, Move):
            move = Move.from_dict(move)
        if st.terminal:
            raise IllegalMove("the game is over")
        if st.sim is not None:
            return self._choose(seat, move, trusted)
        if seat != st.actor:
            raise NotYourTurn(f"it is seat {st.actor}'s decision, not seat {seat}'s")
        mc, binding = self._checked(move, seat, trusted)
        if listing is not None and (listing.version != st.version or listing.st is not st):
            listing = None  # an older listing: nothing to freeze
        start = self._play(listing, mc, binding, seat)
        return st.events[start:]

    def apply_listed(self, seat: int, index: int) -> None:
        """Apply the `index`-th legal move of `seat` now, `legal_moves(seat)[index]` (the order
        of `listed(seat)`), as `apply` does but without making the move nor returning its
        events (read them from `events`). `index` is an int, 0 <= index < the number of legal
        moves.

        Raises NotYourTurn when `seat` is not to act, IllegalMove when the game is over or
        there is no such legal move now (the state unchanged then), else what `apply` raises
        (RuleError, BudgetExceeded: the state unchanged). At a simultaneous step, or for a
        move with a pick argument (checked as it is sent), it is `apply(seat,
        legal_moves(seat)[index])`."""
        st = self.st
        listing: Any = self._listing
        if (listing is None or listing.version != st.version or listing.st is not st or seat != st.actor
                or st.terminal or st.sim is not None):
            if st.terminal:
                raise IllegalMove("the game is over")
            if st.sim is not None:
                moves = self.legal_moves(seat)  # empty for a seat the round does not name
                if 0 <= index < len(moves):
                    self.apply(seat, moves[index])
                    return
                if seat not in st.sim.seats:
                    raise NotYourTurn(f"seat {seat} does not choose at step '{st.step}'")
                raise _no_listed(seat, index, len(moves))
            if seat != st.actor:
                raise NotYourTurn(f"it is seat {st.actor}'s decision, not seat {seat}'s")
            listing = self._legal(seat)
        bindings = listing.bindings
        if not 0 <= index < len(bindings):
            raise _no_listed(seat, index, len(bindings))
        for end, mc in listing.spans:
            if index < end:
                break
        if mc.picks:  # an offer: the pick is checked as it is sent
            self.apply(seat, self.legal_moves(seat)[index])
            return
        self._play(listing, mc, bindings[index], seat)

    def listed(self, seat: int) -> Listing | None:
        """`seat`'s legal moves now as the engine lists them, without making `Move`s (found
        once per state version, as `legal_moves` finds them); None when it is not that seat's
        decision (the game over, another seat to act, a seat the open round does not name).

        A read-only object (do not change it or its lists): `bindings`, the list of each legal
        move's binding (a tuple of its argument values in declaration order: ints, strs,
        bools, `Comp`, `Ent`, `Pick`, ...), in the order of `legal_moves(seat)`; `spans`, a
        list of `(end, code)` per move declaration with legal moves, in listing order (the
        bindings before index `end` not claimed by an earlier span are that move's; `code.name`
        is the move's name, `code.picks` whether it has a pick argument); `encode(value)`, an
        argument value as a client writes it (a component the seat cannot see as its slot
        reference). It describes this state version only: `listed` returns the same object
        until the state changes (a move), then a new one; a clone lists its own."""
        st = self.st
        if st.terminal:
            return None
        if st.sim is not None:
            return self._round_listing(seat)[0] if seat in st.sim.seats else None
        if seat != st.actor:
            return None
        listing = self._listing
        if listing is None or listing.version != st.version or listing.st is not st:
            listing = self._legal(seat)
        return listing

    def _play(self, listing: Listing | None, mc: MoveCode, binding: tuple, seat: int) -> int:
        """Run `seat`'s legal move (`mc` bound as `binding`) and the automata after it, the
        listing of this state (if any) frozen first, and return the number of events before
        it; a failure puts the state back and raises (RuleError, BudgetExceeded)."""
        st = self.st
        if listing is not None:
            listing.zones = st.zones[:]  # frozen (see Listing): the state is about to change
        self._listing = None
        st.steps_left = st.budget
        start = len(st.events)
        try:
            self._execute(mc, binding, seat)
            if self._plan.automata:
                self._run_automata()
        except (BudgetExceeded, RecursionError, RuleError) as exc:
            failure = exc if isinstance(exc, RuleError) else self._budget_error(exc)
            self._rewind(start)
            raise failure from None
        return start

    def _checked(self, move: Move, seat: int, trusted: bool) -> tuple[MoveCode, tuple]:
        """The move code and binding of `move`, a move not listed in this state: bound again
        from its arguments and checked. Raises IllegalMove when the rules refuse it."""
        st = self.st
        mc = next((m for m in self.prog.moves_by_step.get(st.step, ()) if m.name == move.name), None)
        if mc is None:
            raise IllegalMove(self._no_such_move(move.name))
        st.steps_left = st.budget
        try:
            binding = self._bind(mc, move.args, seat, trusted)
            self._check_priority(mc)
        except (BudgetExceeded, RecursionError) as exc:
            raise self._budget_error(exc, mc.rule) from None
        return mc, binding

    def _budget_error(self, exc: BaseException, rule: str = "") -> BudgetExceeded:
        """`exc` (running out of steps, or Python's recursion limit) as a BudgetExceeded naming
        the rule that was running (`rule`, else the one that took the last step) and its
        file:line."""
        st = self.st
        if not isinstance(exc, BudgetExceeded):
            exc = BudgetExceeded(st.budget, None)
        exc.rule = rule or exc.rule or st.rule
        kind, _, name = exc.rule.partition(" ")
        decl: Any = None
        if kind == "setup":
            decl = self.prog.rs.setup
        elif kind == "move":
            decl = next((m.decl for m in self.prog.moves if m.name == name), None)
        elif kind == "trigger":
            decl = next((t.decl for t in self.prog.triggers if t.decl.name == name), None)
        exc.source = rule_source(decl.span) if decl is not None else ""
        return exc

    def _rewind(self, length: int) -> None:
        """Put the game back as it was when it had `length` events, by replaying them (only
        after a failed move, so the cost is the failure's). The chance source is rebuilt from
        the seed when it can be (the same stream of outcomes), else the replayed game keeps
        drawing from where the failed move left the RNG."""
        st = self.st
        events = st.events[:length]
        seed = st.chance.seed
        try:
            g = Game.fold(self.prog.rs, self.seats, st.options, events, seed=seed, budget=st.budget)
        except ImpossibleOutcome:
            g = Game.fold(self.prog.rs, self.seats, st.options, events, budget=st.budget)
            g.st.chance = st.chance
        if st.passing is not None:  # a reader watching this game watches the rebuilt state
            g.st.passing = []
        self.st = g.st
        self.st.callables = self.prog.callables
        self._listing = None

    def _no_such_move(self, name: str) -> str:
        steps = [s for m in self.prog.moves if m.name == name for s in m.decl.steps]
        if steps:
            return f"'{name}' is not allowed now: the game is at step '{self.st.step}' (it is allowed at {', '.join(steps)})"
        import difflib

        names = [m.name for m in self.prog.moves_by_step.get(self.st.step, ())]
        close = difflib.get_close_matches(name, names, n=1)
        return f"there is no move '{name}' here" + (f"; did you mean '{close[0]}'?" if close else f"; moves now: {', '.join(names)}")

    def _bind(self, mc: MoveCode, args: dict[str, Any], seat: int, trusted: bool) -> tuple:
        st = self.st
        rule, src = f"move {mc.name}", rule_source(mc.decl.span)
        extra = set(args) - {b[0] for b in mc.binders}
        if extra:
            raise IllegalMove(f"'{mc.name}' has no argument {', '.join(sorted(extra))}", rule, src)
        env: list = [None] * mc.nslots
        for cond, reason, r in mc.requires[0]:
            if not cond(st, env):
                raise IllegalMove(str(reason(st, env)), rule, rule_source(r.span) or src)
        for k, (name, slot, dom) in enumerate(mc.binders):
            if name not in args:
                raise IllegalMove(f"'{mc.name}' needs the argument '{name}'", rule, src)
            want = args[name]
            if mc.picks and k == len(mc.binders) - 1:
                env[slot] = self._picked(mc, name, want, dom(st, env), seat, trusted)
                for cond, reason, r in mc.pick_requires:
                    if not cond(st, env):
                        raise IllegalMove(str(reason(st, env)), rule, rule_source(r.span) or src)
                break
            chosen = _missing = object()
            for v in list(st.items(dom(st, env))):
                if _same_json(self._encode_for(v, seat), want) or (trusted and _same_json(encode(v), want)):
                    chosen = v
                    break
            if chosen is _missing:
                raise IllegalMove(f"{name} {json.dumps(want)} is not one of the choices for '{mc.name}' now", rule, src)
            env[slot] = chosen
            for cond, reason, r in mc.requires[k + 1]:
                if not cond(st, env):
                    raise IllegalMove(str(reason(st, env)), rule, rule_source(r.span) or src)
        return tuple(env[s] for _, s, _ in mc.binders)

    def _picked(self, mc: MoveCode, name: str, want: Any, offered: list, seat: int, trusted: bool) -> list:
        """The components (or values) a pick binder's argument `want` names: a list of exactly
        the offer's count of different candidates (runtime.picks). Raises IllegalMove saying
        what is wrong (not a list, the wrong number, a repeat, not a candidate)."""
        rule, src = f"move {mc.name}", rule_source(mc.decl.span)
        if not offered:
            raise IllegalMove(f"'{mc.name}' has too few choices for {name} now", rule, src)
        pick = offered[0]
        if not isinstance(want, list):
            raise IllegalMove(f"{name} picks {pick.count} at once: send a list of {pick.count} of its choices, "
                              f"not {json.dumps(want)}", rule, src)
        if len(want) != pick.count:
            raise IllegalMove(f"{name} picks exactly {pick.count}, not {len(want)}", rule, src)
        chosen: list = []
        for w in want:
            v = next((c for c in pick.candidates if _same_json(self._encode_for(c, seat), w) or (trusted and _same_json(encode(c), w))),
                     None)
            if v is None:
                raise IllegalMove(f"{name}: {json.dumps(w)} is not one of the choices for '{mc.name}' now", rule, src)
            if any(v is c for c in chosen):
                raise IllegalMove(f"{name}: {json.dumps(w)} is picked twice; pick {pick.count} different ones", rule, src)
            chosen.append(v)
        return chosen

    def _check_priority(self, mc: MoveCode) -> None:
        """`forced` moves exclude the others when any is legal; `otherwise` moves exist only
        when nothing else does."""
        others = [m for m in self.prog.moves_by_step.get(self.st.step, ()) if m is not mc]
        rule, src = f"move {mc.name}", rule_source(mc.decl.span)
        if mc.decl.otherwise:
            live = [m.name for m in others if not m.decl.otherwise and _instances(m, self.st, True)]
            if live:
                raise IllegalMove(f"'{mc.name}' is only allowed when no other move is; you can {', '.join(live)}", rule, src)
        elif not mc.decl.forced:
            forced = [m.name for m in others if m.decl.forced and _instances(m, self.st, True)]
            if forced:
                raise IllegalMove(f"you must {forced[0]} when able", rule, src)

    def _execute(self, mc: MoveCode, binding: tuple, seat: int, revealed: bool = False) -> None:
        st = self.st
        # the event's `args`: one shared dict per binding of this move (a live game keeps all its
        # events, and the same arguments recur across plies and games: {"c": "x-1"}), with
        # whether the binding holds a component (whose slot some seat may not see) or a pick
        memo: dict[tuple, Any] = mc.args_memo
        try:
            got = memo.get(binding)
        except TypeError:  # a list or a map among the arguments (a pick): a dict of its own
            got = (_move_args(mc.names, binding), _hideable(mc.names, binding))
        else:
            if got is None:
                got = (_move_args(mc.names, binding), _hideable(mc.names, binding))
                if len(memo) < 10_000:
                    memo[binding] = got
        args, hide = got
        refs = hidden = NO_ARGS  # shared while empty: events are immutable
        if hide:
            loc, zone_refs = st.loc, st.zone_refs
            for name, j in hide:
                v = binding[j]
                if v.__class__ is Comp:
                    i = loc[v.id]
                    if i is None:
                        continue
                    z = zone_refs[i]
                    if z.visibility != "public":
                        # the same few slot references recur: events share their dicts, kept on the zone
                        i = st.zones[i].index(v)
                        got = z.hidden_args.get((name, i))
                        if got is None:
                            got = _hidden_arg(st, z, name, i)
                        if refs is NO_ARGS:
                            refs, hidden = got
                        else:  # a second hidden argument (rare): a dict of its own
                            refs, hidden = {**refs, **got[0]}, {**hidden, **got[1]}
                elif v and any(x.__class__ is Comp for x in v):  # a pick of components
                    got = _hidden_pick(st, name, v)
                    if got is not None:
                        refs, hidden = {**refs, **got[0]}, {**hidden, **got[1]}
        st.version += 1
        plan = self._plan
        if plan.ply_dirty:  # a change no trigger reads is not marked
            st.dirty.update(plan.ply_dirty)
        st.flow = None
        st.rule = mc.rule
        events = st.own_events() if st.events_shared else st.events
        # the move event, built as `runtime.events.new_event` builds one (past attrs' frozen
        # __init__), inline: one per ply
        event = _new_event(Unfrozen)
        event.ply = len(events)
        event.kind = "move"
        event.rule = mc.rule
        event.source = mc.source
        event.seat = seat
        event.move = mc.name
        event.args = args
        event.refs = refs
        event.hidden_from = hidden
        event.node = simultaneous.SEALED if revealed else None
        event.zone = None
        event.outcome = NO_OUTCOME
        event.seen_by = None
        event.__class__ = Event
        events.append(event)
        try:
            run = mc.run
            if run is not None:
                try:
                    run(st, self._triggers, *binding)
                except (LookupError, TypeError, AttributeError, ZeroDivisionError) as exc:
                    # what the closures report as a RuleError with the failing expression's span
                    raise RuleError(f"{mc.rule} failed: {exc!r}", mc.decl.span) from exc
            else:
                env: list = [None] * max(mc.nslots, 1)
                for (_n, slot, _d), v in zip(mc.binders, binding):
                    env[slot] = v
                try:
                    for f, _node in mc.body:
                        f(st, env)
                        self._triggers()
                    if not mc.body:
                        self._triggers()
                except (LookupError, TypeError, AttributeError, ZeroDivisionError) as exc:
                    # an error the closures do not report with a span of their own (`1 // 0`):
                    # a RuleError as the generated body's, so the move is put back (`_play`)
                    raise RuleError(f"{mc.rule} failed: {exc!r}", mc.decl.span) from exc
        except GameEnded:
            pass
        if st.terminal:
            self.check_outcomes_used()
        elif not revealed:
            if st.flow is None and plan.then.get(st.step) is _END_TURN and not plan.flow_dirty:
                # the common follower (as `_transition` takes it), without the call: the next seat's turn
                st.version += 1
                st.current = st.actor = (st.current + 1) % st.nseats
                st.step = plan.first_step
            else:
                self._transition()
            if plan.simultaneous:
                self._open_round()

    def pick_at_random(self, seat: int, move: Move, rng: Any, tries: int = 100) -> Move:
        """`move` (as listed for `seat`) with each pick offer (runtime.picks) replaced by a random
        pick that the move's requires accept; `move` itself when it has no offer. What a random
        player sends. Raises IllegalMove when `tries` random picks all fail the requires."""
        if not move.args or not any(picks.is_offer(v) for v in move.args.values()):
            return move
        tried = (Move(move.name, picks.random_choice(move.args, rng)) for _ in range(tries))
        for chosen in self._accepted(seat, tried):
            return chosen
        raise IllegalMove(f"no random pick for '{move.name}' met its requires in {tries} tries")

    def legal_picks(self, seat: int, move: Move) -> list[Move]:
        """Every move `move` (as listed for `seat`, with one pick offer: runtime.picks) stands
        for: one per ordered choice of the offer's count of different candidates that the
        move's requires accept, choices in the order of `itertools.permutations` over the
        offer's candidates. `[move]` when it has no offer. The requires are run once per
        ordered choice (n!/(n-k)! of them: 72 for 2 of 9), so this is for small offers."""
        if not move.args or not any(picks.is_offer(v) for v in move.args.values()):
            return [move]
        return list(self._accepted(seat, (Move(move.name, args) for args in picks.every_choice(move.args))))

    def _accepted(self, seat: int, moves: Any) -> Any:
        """The moves of `moves` (an iterable of picks made) that their requires accept for
        `seat`, checked as if it were to act (a simultaneous round's seat may not be `actor`):
        a generator, `actor` put back between two moves it yields and when it ends."""
        st = self.st
        saved = st.actor
        for chosen in moves:
            st.actor = seat
            try:
                self._checked(chosen, seat, False)
            except IllegalMove:
                continue
            finally:
                st.actor = saved
            yield chosen

    # ---- simultaneous steps (runtime.simultaneous) ----
    def _open_round(self) -> None:
        """Open the round of the simultaneous step the turn machine is at (none elsewhere).
        Raises RuleError when its `for` expression does not name seats."""
        st = self.st
        f = self.prog.sim_seats.get(st.step)
        if f is None:
            st.sim = None
            return
        try:
            st.sim = simultaneous.open_round(st.step, f(st, []), st.nseats, self._humans, st.actor)
        except ValueError as exc:
            raise RuleError(str(exc), self.prog.steps[st.step].span) from None
        st.version += 1

    def _round_listing(self, seat: int) -> tuple[Listing, list]:
        """`seat`'s legal moves in the open round, found as if it were to act (kept per seat
        for this state version)."""
        st = self.st
        got = self._sim_lists.get(seat)
        if got is not None and got[0].version == st.version and got[0].st is st:
            return got
        saved = st.actor
        st.actor = seat
        try:
            listing = self._legal(seat)
        finally:
            st.actor = saved
            self._listing = None  # not the actor's: never taken for it
        got = self._sim_lists[seat] = (listing, self._made)
        return got

    def _round_decision(self) -> Decision:
        st = self.st
        waiting = st.sim.waiting()
        stuck = any(not self._round_listing(s)[0].bindings for s in waiting)
        return Decision(st.step, () if stuck else waiting, False, stuck)

    def _round_moves(self, seat: int) -> list[Move]:
        """Every legal move of `seat` in the open round (it may replace its choice until the
        last seat has chosen); empty for a seat the round does not name."""
        if seat not in self.st.sim.seats:
            return []
        listing, made = self._round_listing(seat)
        out = _new_list(_MoveList)
        out._listing = listing
        out._made = made
        out._full = False
        return out

    def _choose(self, seat: int, move: Move, trusted: bool) -> list[Event]:
        """Seal `seat`'s choice in the open round; the last seat's choice reveals the round:
        every choice is applied in the round's order (runtime.simultaneous). Returns the
        events: the `sealed` event, then the revealed moves and what they caused."""
        st = self.st
        rnd = st.sim
        if seat not in rnd.seats:
            raise NotYourTurn(f"seat {seat} does not choose at step '{st.step}'; seats {', '.join(map(str, rnd.seats))} do")
        listing, _made = self._round_listing(seat)
        where = move._lm
        saved = st.actor
        st.actor = seat
        try:
            if where.__class__ is tuple and where[1] is listing and not where[0].picks and move.binding is not None:
                mc, binding = where[0], move.binding
            else:
                mc, binding = self._checked(move, seat, trusted)
        finally:
            st.actor = saved
        for lst, _m in self._sim_lists.values():
            lst.zones = st.zones[:]  # frozen (see Listing): the state is about to change
        self._sim_lists = {}
        start = len(st.events)
        args = {n: encode(v) for n, v in zip(mc.names, binding)}
        step = self.prog.steps[st.step]
        events = st.own_events() if st.events_shared else st.events
        events.append(simultaneous.sealed_event(len(events), st.step, rule_source(step.span), seat, mc.name, args))
        st.sim = rnd = rnd.with_choice(seat, mc, binding)
        st.version += 1
        if rnd.waiting():
            return st.events[start:]
        st.steps_left = st.budget
        try:
            self._reveal(rnd)
            if self._plan.automata:
                self._run_automata()
        except (BudgetExceeded, RecursionError, RuleError) as exc:
            failure = exc if isinstance(exc, RuleError) else self._budget_error(exc)
            self._rewind(start)
            raise failure from None
        return st.events[start:]

    def _reveal(self, rnd: simultaneous.Round) -> None:
        """Apply the round's choices in its order, each as a move of its seat; then the flow."""
        st = self.st
        st.sim = None
        flow = None
        for seat, mc, binding in rnd.in_order():
            st.actor = seat
            st.steps_left = st.budget
            self._execute(mc, binding, seat, revealed=True)
            if st.terminal:
                return
            flow = st.flow or flow  # the last flow a move set wins, as within one move
        st.actor = rnd.actor
        st.flow = flow
        self._transition()
        self._open_round()

    def _run_automata(self) -> None:
        """Play the automata's moves until a human seat is to act or the game ends.

        An automaton plays, at each of its decisions, the first legal move: moves in
        declaration order (a legal `forced` move first; `otherwise` moves last), bindings in
        domain order. Each is an ordinary move event citing its rule and file:line, so a
        replay re-derives it. It stops, leaving the decision stuck, when the automaton has
        no legal move. Raises RuleError when an automaton is to act at a step not declared
        for it, or a human seat at an automaton's step."""
        if not self._plan.automata:
            return
        st, plan, humans = self.st, self._plan, self._humans
        driven, names = plan.driven, plan.automaton_names  # (worked out once per program: this runs every ply)
        for _ in range(AUTOMATON_LIMIT):
            if st.terminal or st.sim is not None:
                return
            name = names[st.actor - humans] if st.actor >= humans else None  # automata's seats follow the humans'
            if name is None:
                if driven.get(st.step):
                    raise RuleError(f"seat {st.actor} is to act at step '{st.step}', which only the automaton "
                                    f"{' and '.join(sorted(driven[st.step]))} acts in", None)
                return
            if name not in driven.get(st.step, ()):
                raise RuleError(f"automaton '{name}' is to act at step '{st.step}', which is not one of its steps", None)
            st.steps_left = st.budget  # each automaton move is a move with its own budget
            chosen = self._first_move()
            if chosen is None:
                return
            self._execute(*chosen, st.actor)
        raise RuleError(f"automata played {AUTOMATON_LIMIT} moves in a row: no human seat is ever to act", None)

    def _first_move(self) -> tuple[MoveCode, tuple] | None:
        """The first legal (move, binding) at the current step, by the `forced`/`otherwise`
        ranking, declaration order and domain order; None when there is none."""
        for group in self._plan.ranked(self.st.step):
            for mc in group:
                found = _instances(mc, self.st, True)
                if found:
                    return mc, found[0]
        return None

    def _triggers(self) -> None:
        """Fire triggers whose condition holds, first in declaration order, rescanning after
        each firing. A trigger is evaluated only when something its condition reads changed
        since the last check (`State.dirty`), which keeps per-effect work incremental."""
        st = self.st
        changed = st.dirty
        if not changed:
            return
        if "*" not in changed and self._plan.trigger_deps.isdisjoint(changed):
            changed.clear()  # nothing any trigger reads
            return
        outer = st.steps_left
        st.steps_left = st.budget  # a cascade has a budget of its own
        triggers = self._plan.triggers
        try:
            while True:  # each firing takes a step of the cascade's budget (runtime.budget)
                every = "*" in changed
                dirty: set[str] = set()
                st.dirty = dirty
                for deps, search, run, span, rule in triggers:
                    if not every and deps.isdisjoint(changed):
                        continue
                    found = search(st, True)
                    if not found:
                        continue
                    saved = st.rule
                    st.rule = rule
                    try:
                        st.spend(span)
                        run(st, *found[0])
                    except RecursionError:
                        raise BudgetExceeded(st.budget, None, st.rule) from None
                    finally:
                        st.rule = saved
                    break
                else:
                    if dirty:  # conditions are pure: only a defect would have marked a change
                        dirty.clear()
                    return
                changed = changed | st.dirty
        except RecursionError:
            raise BudgetExceeded(st.budget, None, st.rule) from None
        finally:
            st.steps_left = outer

    def _transition(self) -> None:
        """The turn machine's next step after a move or setup: the flow an effect chose
        (`st.flow`), else what follows the step (`_Plan.then`)."""
        st = self.st
        flow = st.flow
        st.version += 1
        plan = self._plan
        if plan.flow_dirty:
            st.dirty.update(plan.flow_dirty)
        if flow is None:
            flow = plan.then.get(st.step)
            if flow is None:
                return
            if flow is _END_TURN:  # the common follower, without looking at its kind
                st.current = st.actor = (st.current + 1) % st.nseats
                st.step = plan.first_step
                return
            by = flow[2]
            if by is not None:
                flow = ("goto", flow[1], by(st, []))
        else:
            st.flow = None
        kind = flow[0]
        if kind == "end_turn":
            st.current = st.actor = (st.current + 1) % st.nseats
            st.step = plan.first_step
        elif kind == "goto":
            st.step = flow[1]
            if flow[2] is not None:
                st.actor = flow[2]
        elif kind == "turn":
            st.current = st.actor = flow[1]
            st.step = plan.first_step

    def check_outcomes_used(self) -> None:
        """Under strict given outcomes (`Game.new(strict=True)`, every `fold`), raise
        ImpossibleOutcome when some were not used; the game checks this itself when it ends."""
        self.st.chance.check_used(len(self.st.events))

    def call(self, name: str, *args: Any) -> Any:
        """Evaluate the ruleset function `name` on the current state, through the same compiled
        code the moves use, and return its value as JSON (components and entities by name).

        Arguments are JSON values as in moves (a component or entity by name, a seat as a
        number, an enum value as text; lists of them) or run-time values. Raises ValueError for
        an unknown function, a wrong number of arguments or an unknown name; RuleError when
        the function fails at run time.
        """
        from runtime.builtins_search import ruleset_fn

        decl = next((f for f in self.prog.rs.fns if f.name == name), None)
        if decl is None:
            import difflib

            close = difflib.get_close_matches(name, [f.name for f in self.prog.rs.fns], n=1)
            raise ValueError(f"there is no function '{name}' in {self.prog.rs.name}" + (f"; did you mean '{close[0]}'?" if close else ""))
        if len(args) != len(decl.params):
            raise ValueError(f"'{name}' takes {len(decl.params)} argument(s) ({', '.join(p.name for p in decl.params)}), {len(args)} given")
        values = [self._decode(a, p.type) for a, p in zip(args, decl.params)]
        try:
            return encode(ruleset_fn(self.st, name)(*values))
        except (LookupError, TypeError, AttributeError, ZeroDivisionError) as exc:
            # what the closures report as a RuleError with the failing expression's span
            raise RuleError(f"fn {name} failed: {exc!r}", decl.span) from exc

    def _decode(self, v: Any, t: Any) -> Any:
        """A JSON argument for a parameter of type `t`: the name of a component or entity
        becomes it; lists are decoded element by element; anything else is kept as it is."""
        if isinstance(v, list):
            inner = t.args[0] if t.name == "list" and t.args else t
            return [self._decode(x, inner) for x in v]
        if isinstance(v, dict) and t.name == "map" and len(t.args) == 2:
            kt = t.args[0]
            return {self._decode(int(k) if kt.name in ("seat", "int") else k, kt): self._decode(x, t.args[1]) for k, x in v.items()}
        if not isinstance(v, str):
            return v
        if t.name in self.prog.entity_types:
            found: Any = next((e for e in self.st.entities if e.name == v and e.kind == t.name), None)
        elif any(c.name in t.name.split("|") for c in self.prog.rs.component_types):
            found = next((c for c in self.st.comps if c.name == v and c.kind in t.name.split("|")), None)
        else:
            return v
        if found is None:
            raise ValueError(f"there is no {' or '.join(t.name.split('|'))} named '{v}'")
        return found

    # ---- views and hashing ----
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The information set of `seat` (None: a spectator) as JSON; see `runtime.views`."""
        return views.view(self, seat)

    @property
    def _spectator_zones(self) -> frozenset[str]:
        return frozenset(z.key for z in self.st.zone_refs if z.spectators)

    def event_view(self, event: Event, seat: int | None = None) -> dict[str, Any]:
        """`event` as JSON with what `seat` (None: a spectator) may not know removed."""
        return views.event_view(event, seat, self._spectator_zones)

    def state_hash(self) -> str:
        """sha256 (hex) of the canonical state: zones, variables, entities, marks, turn machine."""
        data = views.full_state(self)
        return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    # ---- replay ----
    @classmethod
    def fold(cls, ruleset: Ruleset, seats: int, options: dict[str, Any] | None, events: list[Event],
             seed: str | int | None = None, budget: int = DEFAULT_BUDGET) -> Game:
        """Rebuild a game from its events: chance outcomes come from the chance events, every
        move is re-checked for legality, and the regenerated events must equal the log.

        Outcomes are strict and labelled: each chance event is used for the chance node it
        names (node, zone, rule, source), none may be missing and none left over; play that
        continues after the fold draws from the seed. With `seed`,
        every chance outcome must also be the one the seed draws. Raises IllegalMove,
        ImpossibleOutcome or LogMismatch, each carrying `.ply`.
        """
        given = [{"outcome": list(e.outcome), "node": e.node, "zone": e.zone, "rule": e.rule, "source": e.source}
                 for e in events if e.kind == "chance"]
        g = cls.new(ruleset, seats, options, seed=seed, outcomes=given, verify=seed is not None, strict=True,
                    budget=budget)
        for e in events:
            # a seat's move or sealed choice (choosing again regenerates it, and the reveal); an
            # automaton's move or a revealed one: the rules play it again, and the events are compared below
            if not simultaneous.decides(e, g.seats):
                continue
            if e.ply != len(g.events):
                _mismatch(g.events, events, e.ply)
            try:
                g.apply(e.seat if e.seat is not None else -1, Move(e.move or "", dict(e.args)), trusted=True)
            except IllegalMove as exc:
                exc.ply = e.ply
                raise
        if len(g.events) != len(events) or any(a != b for a, b in zip(g.events, events)):
            _mismatch(g.events, events, None)
        g.check_outcomes_used()
        g.st.chance.strict = False  # the log is used up: a game played on draws from its seed
        return g


def _mismatch(mine: list[Event], theirs: list[Event], at: int | None) -> None:
    for i, (a, b) in enumerate(zip(mine, theirs)):
        if a != b:
            diff = [f.name for f in attrs.fields(Event) if getattr(a, f.name) != getattr(b, f.name)]
            raise LogMismatch(f"the log's event differs from what the rules produce (fields: {', '.join(diff)})", i)
    n = len(mine)
    if (at if at is not None else len(theirs)) > n:
        raise LogMismatch(f"the log has {_describe(theirs[n])} here that the rules do not produce", n)
    i = min(n, len(theirs)) if at is None else at
    raise LogMismatch(f"the rules produce {_describe(mine[i])} here that the log lacks", i)


def _describe(e: Event) -> str:
    if e.kind == "chance":
        return f"a chance event ({e.node} {e.zone}, {e.rule})"
    return f"a {e.kind} event ({e.rule})"


def _same_json(a: Any, b: Any) -> bool:
    """JSON equality: `a == b` with the same JSON type at every depth. Python's `==` alone
    takes `true` for 1 and `1.0` for 1, and a client's `true` is not the seat 1."""
    if a != b:
        return False
    if a.__class__ is not b.__class__:
        return False
    if a.__class__ is list:
        return all(_same_json(x, y) for x, y in zip(a, b))
    if a.__class__ is dict:
        return all(_same_json(x, b[k]) for k, x in a.items())
    return True


class BadOption(ValueError):
    """An option value a game cannot start with (unknown name, wrong type, outside the
    declared range); `option` is the option's name."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


def _resolve_options(prog: Program, st: State, given: dict[str, Any]) -> dict[str, Any]:
    decls = {o.name: o for o, _ in prog.option_defaults}
    for k in given:
        if k not in decls:
            raise BadOption(k, f"unknown option '{k}'; options: {', '.join(decls) or 'none'}")
    out = {}
    enums = {e.name: e.values for e in prog.rs.enums}
    for o, default in prog.option_defaults:
        v = given[o.name] if o.name in given else default(st, [])
        t = o.type
        ok = (v is None and t.optional) or (
            (t.name == "int" and isinstance(v, int) and not isinstance(v, bool))
            or (t.name == "bool" and isinstance(v, bool))
            or (t.name == "str" and isinstance(v, str))
            or (t.name in enums and v in enums[t.name])
        )
        if not ok:
            raise BadOption(o.name, f"option '{o.name}' must be {t}, not {v!r}")
        if o.range is not None and v is not None and not o.range[0] <= v <= o.range[1]:
            raise BadOption(o.name, f"option '{o.name}' must be in {o.range[0]}..{o.range[1]}, not {v!r}")
        out[o.name] = v
    return out


_END_TURN = ("end_turn",)


class _Plan:
    """What a game reads of its program on every ply, worked out once per program
    (`_plan_for`) and shared by its games:

    - `triggers`: per trigger, in declaration order, `(deps, search, run, span, rule)`:
      `search(st, True)` gives `[binding]` when the condition holds for some binding (else
      `[]`), and `run(st, *binding)` runs its body; generated code where there is some
      (`runtime.codegen`), else the closures behind the same two signatures.
    - `then`: step -> what follows it when no effect chose (`_END_TURN`, or `("goto", step,
      by)` with `by(st, env)` the seat to act or None); a step that stays is absent.
      `first_step` is the step a turn starts at.
    - `ply_dirty`, `flow_dirty`: the names a move or a turn change marks as changed.
    - `automata`: whether the rules drive any seat; `automaton_names`: their names, in the
      order of their seats (after the human seats); `driven`: step -> the names of the
      automata that act in it. `simultaneous`: whether any step is one.
    - `trigger_deps`: the names some trigger reads.
    - `searches(step)`: the step's moves as `Program.step_moves` gives them, each move as
      `(search, move code)` with `search(st, first_only)` its bindings."""

    __slots__ = ("prog", "triggers", "then", "first_step", "ply_dirty", "flow_dirty", "automata", "templates", "_searches",
                 "plain", "listers", "trigger_deps", "simultaneous", "automaton_names", "driven", "_ranked")

    def __init__(self, prog: Program):
        self.prog = prog
        self.triggers = [(tc.deps, *_trigger_fns(tc), tc.decl.span, tc.rule) for tc in prog.triggers]
        self.then: dict[str, tuple] = {}
        for name, step in prog.steps.items():
            then = step.then
            if then is None or then.op == "then_stay":
                continue
            self.then[name] = _END_TURN if then.op == "then_end_turn" else ("goto", then.args[0], prog.then.get(name))
        self.first_step = prog.first_step
        self.ply_dirty = prog.ply_dirty
        self.flow_dirty = prog.flow_dirty
        self.automata = bool(prog.rs.automata)
        self.automaton_names = tuple(a.name for a in prog.rs.automata)
        self.driven = {s: frozenset(a.name for a in prog.rs.automata if s in a.steps) for s in prog.steps}
        self.trigger_deps = prog.trigger_deps
        self.simultaneous = bool(prog.sim_seats)
        # seats -> the pre-setup template (`Program.templates`) of a game given no options
        self.templates: dict[int, State] = {}
        self._searches: dict[str, tuple] = {}
        self._ranked: dict[str, tuple[tuple[MoveCode, ...], ...]] = {}
        # step -> its moves as `(search, move code)`, for the steps with neither `forced` nor
        # `otherwise` moves (all listed, in order: `Game._legal`'s short way)
        self.plain: dict[str, tuple[tuple[Any, MoveCode], ...]] = {}
        self.listers: dict[str, Any] = prog.step_listers  # step -> its generated lister (see `Program`)
        for name in prog.steps:
            plain, otherwise, with_forced = self.searches(name)
            if not otherwise and not with_forced:
                self.plain[name] = plain

    def ranked(self, step: str) -> tuple[tuple[MoveCode, ...], ...]:
        """The step's moves as an automaton tries them (`Game._first_move`): its `forced`
        moves, then all but its `otherwise` moves, then its `otherwise` moves, each group in
        declaration order (worked out once per step)."""
        got = self._ranked.get(step)
        if got is None:
            codes = self.prog.moves_by_step.get(step, ())
            got = self._ranked[step] = (tuple(m for m in codes if m.decl.forced), tuple(m for m in codes if not m.decl.otherwise),
                                        tuple(m for m in codes if m.decl.otherwise))
        return got

    def searches(self, step: str) -> tuple[tuple[tuple[Any, MoveCode], ...], tuple[tuple[Any, MoveCode], ...], bool]:
        got = self._searches.get(step)
        if got is None:
            plain, otherwise, with_forced = self.prog.step_moves(step)
            got = self._searches[step] = (_searches(plain), _searches(otherwise), with_forced)
        return got


def _searches(codes: list[MoveCode]) -> tuple[tuple[Any, MoveCode], ...]:
    """`(search, move code)` of each move: its generated search, else the closures' (`_instances`)."""
    return tuple((mc.search if mc.search is not None else functools.partial(_instances, mc), mc) for mc in codes)


def _trigger_fns(tc: Any) -> tuple[Any, Any]:
    """`(search, run)` of a trigger (see `_Plan`)."""
    search, run = tc.search, tc.run
    if search is None:
        def search(st: State, _first_only: bool) -> list[tuple]:
            env: list = [None] * max(tc.nslots, 1)
            if not _bind_trigger(st, tc, env, 0):
                return []
            return [tuple(env[slot] for _n, slot, _d in tc.binders)]
    if run is None:
        def run(st: State, *binding: Any) -> None:
            env: list = [None] * max(tc.nslots, 1)
            for (_n, slot, _d), v in zip(tc.binders, binding):
                env[slot] = v
            for f in tc.body:
                f(st, env)
    return search, run


def _bind_trigger(st: State, tc: Any, env: list, k: int) -> bool:
    """Bind the trigger's parameters from `k` on (closures) so that its condition holds."""
    if k == len(tc.binders):
        return bool(tc.cond(st, env))
    _name, slot, dom = tc.binders[k]
    for v in list(st.items(dom(st, env))):
        env[slot] = v
        if _bind_trigger(st, tc, env, k + 1):
            return True
    return False


_PLANS: dict[int, _Plan] = {}


def _plan_for(prog: Program) -> _Plan:
    """The `_Plan` of `prog` (made on its first game; it keeps `prog` alive, so the id stays its own)."""
    plan = _PLANS.get(id(prog))
    if plan is None or plan.prog is not prog:
        if len(_PLANS) >= 64:  # as many as `program_for` keeps
            _PLANS.pop(next(iter(_PLANS)))
        plan = _PLANS[id(prog)] = _Plan(prog)
    return plan


_SHARED_ARGS: dict[tuple, dict] = {}


_shared = _SHARED_ARGS.get  # one `refs`/`hidden_from` dict per content, shared by the events that have it


def _shared_put(key: tuple, d: dict) -> dict:
    """Keep `d` as the shared dict for `key` (a live game keeps all its events, and these repeat)."""
    if len(_SHARED_ARGS) < 100_000:
        _SHARED_ARGS[key] = d
    return d


def _move_args(names: tuple[str, ...], binding: tuple) -> dict[str, Any]:
    """A move event's `args`: each argument's JSON value by name (components and entities by name)."""
    out: dict[str, Any] = {}
    for name, v in zip(names, binding):
        cls = v.__class__
        out[name] = v.name if cls is Comp else v if cls is int or cls is str else encode(v)
    return out


def _hideable(names: tuple[str, ...], binding: tuple) -> tuple[tuple[str, int], ...]:
    """The arguments of a binding some seat may not see, as `(name, position)`: the components
    (their slot may be hidden) and the lists (a pick of components)."""
    return tuple((name, j) for j, (name, v) in enumerate(zip(names, binding)) if v.__class__ is Comp or v.__class__ is list)


def _hidden_arg(st: State, z: Any, name: str, i: int) -> tuple[dict, dict]:
    """The `refs` and `hidden_from` of a move event whose argument `name` is the component at
    slot `i` of `z`, a zone some seat cannot see (shared dicts, kept on `z.hidden_args`)."""
    one_ref = _shared(("ref", name, z.key, i)) or _shared_put(("ref", name, z.key, i), {name: f"{z.key}@{i}"})
    key = ("blind", name, z.key, st.nseats, z.visibility, z.owner, z.spectators)
    one_blind = _shared(key) or _shared_put(key, {name: st.blind(z)})
    got = z.hidden_args[(name, i)] = (one_ref, one_blind)
    return got


def _instances(mc: MoveCode, st: State, first_only: bool = False) -> list[tuple]:
    """Bindings of `mc`'s parameters that pass its requires; each require is checked as
    soon as the parameters it names are bound, so the search prunes early."""
    if mc.search is not None:
        return mc.search(st, first_only)
    env: list = [None] * mc.nslots
    for cond, _r, _d in mc.requires[0]:
        if not cond(st, env):
            return []
    binders, requires = mc.binders, mc.requires
    n = len(binders)
    out: list[tuple] = []
    if n == 0:
        return [()]

    conds = [[c for c, _r, _d in group] for group in requires]

    def rec(k: int) -> bool:
        _name, slot, dom = binders[k]
        checks = conds[k + 1]
        for v in st.items(dom(st, env)):  # requires are pure: the domain cannot change meanwhile
            env[slot] = v
            ok = True
            for c in checks:
                if not c(st, env):
                    ok = False
                    break
            if not ok:
                continue
            if k + 1 == n:
                out.append(tuple(env[s] for _, s, _ in binders))
                if first_only:
                    return True
            elif rec(k + 1):
                return True
        return False

    rec(0)
    return out


_DECISIONS: dict[tuple[str, int], Decision] = {}  # (step, seat) -> the decision of that seat to act


def _no_listed(seat: int, index: int, count: int) -> IllegalMove:
    """`Game.apply_listed`'s refusal of an index past the legal moves."""
    return IllegalMove(f"seat {seat} has no legal move {index} now ({count} legal moves)")


def _listed(st: State, seat: int, spans: list[tuple[int, MoveCode]], bindings: list[tuple]) -> Listing:
    """The listing of `seat`'s legal moves in `st` at its current version, made without a call
    of `__init__` (once per state version)."""
    listing = _new_listing(Listing)
    listing.st = st
    listing.seat = seat
    listing.version = st.version
    listing.zones = None
    listing.spans = spans
    listing.bindings = bindings
    listing.decision = None
    return listing


def _hidden_pick(st: State, name: str, picked: list) -> tuple[dict, dict] | None:
    """The `refs` and `hidden_from` of a pick argument some seat cannot see: its slot references
    joined by ", ", hidden from every seat blind to a zone a picked component lies in."""
    refs, blind = [], set()
    for c in picked:
        i = st.loc[c.id]
        z = st.zone_refs[i] if i is not None else None
        if z is None or z.visibility == "public":
            refs.append(c.name)
            continue
        refs.append(f"{z.key}@{st.zones[i].index(c)}")
        blind.update(st.blind(z))
    return ({name: ", ".join(refs)}, {name: sorted(blind)}) if blind else None


def _only_forced(spans: list[tuple[int, MoveCode]], bindings: list[tuple]) -> tuple[list[tuple[int, MoveCode]], list[tuple]]:
    """The spans and bindings of the `forced` moves alone (a legal forced move excludes the others)."""
    kept_spans: list[tuple[int, MoveCode]] = []
    kept: list[tuple] = []
    start = 0
    for end, mc in spans:
        if mc.decl.forced:
            kept += bindings[start:end]
            kept_spans.append((len(kept), mc))
        start = end
    return kept_spans, kept


def _close(name: str, names: Any) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(names), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


__all__ = ["BadOption", "Decision", "Game", "IllegalMove", "Listing", "LogMismatch", "Move", "NotYourTurn"]
