"""Events: every applied move and every chance outcome, as immutable attrs values.

The state of a game is the fold of its events (`runtime.Game.fold`). Each event names the
rule that produced it (`move place`, `trigger flight`, `setup`) and the source position of
the rule text (`my_game/game.ludex:118`), so an audit can point at it. JSON goes through
one cattrs converter, registered here and nowhere else.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Callable, Iterator

import attrs
import cattrs


@attrs.frozen(weakref_slot=False)  # no `__weakref__` slot: see `_positional_builder`
class Event:
    """One step of a game's history.

    - `ply`: the event's 0-based position in the game's event list.
    - `kind`: "move" (a seat's decision), "chance" (a chance node's outcome), "show"
      (a `reveal` effect showed `zone`'s components, `outcome`, to everyone) or "sealed" (a
      seat's choice at a simultaneous step, hidden from the others: runtime.simultaneous). A move
      revealed from sealed choices has `node` "sealed".
    - `rule`, `source`: the rule that produced it and its `file:line`.
    - move events: `seat`, `move` (name), `args` (canonical: components by name),
      `refs` (for component arguments some seat could not see: their slot reference, e.g.
      `hand[2]#3`), `hidden_from` (argument -> seats that could not see it; -1 = spectators).
    - chance events: `node` ("shuffle" or "draw"), `zone` (key of the zone shuffled or drawn
      into), `outcome` (component names: a shuffle's resulting order top first, or the one drawn,
      preceded by any put back when a given outcome listed them), `rule` and `source` (the
      chance node's label, `runtime.chance.ChanceNode`),
      `seen_by` (seats that see the outcome; None = everyone).
    """

    ply: int
    kind: str
    rule: str
    source: str
    seat: int | None = None
    move: str | None = None
    args: dict[str, Any] = attrs.field(factory=dict)
    refs: dict[str, str] = attrs.field(factory=dict)
    hidden_from: dict[str, list[int]] = attrs.field(factory=dict)
    node: str | None = None
    zone: str | None = None
    outcome: list[str] = attrs.field(factory=list)
    seen_by: list[int] | None = None


def _unfrozen() -> type:
    """A class of `Event`'s slots in the same layout, without attrs' frozen `__setattr__`: an
    instance of it, its fields stored by plain attribute stores, becomes an `Event` by
    `__class__` assignment (allowed between classes of identical layout; Event has no
    `__weakref__` slot for this). The result is an ordinary `Event`, equal to the one
    `Event(...)` builds from the same values; only the engine's hot paths build events so,
    every field stored before the class changes."""
    names = [a.name for a in attrs.fields(Event)]
    slots = tuple(Event.__slots__)  # type: ignore[attr-defined]
    assert list(slots) == names, "Event's slots are its fields, in order"
    doc = "An `Event` in the making: its fields stored one by one, then its class set to `Event`."
    return type("Unfrozen", (), {"__slots__": slots, "__doc__": doc})


Unfrozen: Any = _unfrozen()


def _positional_builder() -> Callable[..., Event]:
    """`Event(...)` with all thirteen fields given positionally, in field order, without going
    through attrs' frozen `__init__` (one `object.__setattr__` call per field): the fields are
    stored into an instance of `Unfrozen` and the instance then becomes an `Event`. About
    0.26 us against 0.69 us through the slot descriptors."""
    unfrozen = Unfrozen
    new = object.__new__

    def build(ply: int, kind: str, rule: str, source: str, seat: int | None, move: str | None, args: dict[str, Any],
              refs: dict[str, str], hidden_from: dict[str, list[int]], node: str | None, zone: str | None,
              outcome: list[str], seen_by: list[int] | None) -> Event:
        e: Any = new(unfrozen)
        e.ply = ply
        e.kind = kind
        e.rule = rule
        e.source = source
        e.seat = seat
        e.move = move
        e.args = args
        e.refs = refs
        e.hidden_from = hidden_from
        e.node = node
        e.zone = zone
        e.outcome = outcome
        e.seen_by = seen_by
        e.__class__ = Event
        return e

    return build


new_event = _positional_builder()

# The empty `args`/`refs`/`hidden_from` of most events, shared (events are never changed):
# a service keeps every live game's events, and thousands of empty dicts add up.
NO_ARGS: dict[str, Any] = {}
NO_OUTCOME: list[str] = []  # a move event's outcome

_converter = cattrs.Converter()


def event_to_dict(e: Event) -> dict[str, Any]:
    """The event as a JSON-able dict (cattrs)."""
    return _converter.unstructure(e)


def event_from_dict(d: dict[str, Any]) -> Event:
    """Rebuild an event from `event_to_dict` output. Raises cattrs errors on malformed input."""
    return _converter.structure(d, Event)


_observer: contextvars.ContextVar[Callable[[Any, int], None] | None] = contextvars.ContextVar(
    "ludex_event_observer", default=None
)


class EventLog(list):
    """A game's event list (`State.events`). Inside `observing(fn)`, `fn(state, index)` is
    called once per event, with the state as it is just before event `index` takes effect,
    that is right after event `index - 1` and everything it caused: how a replay shows the
    intermediate states of a move's trigger cascade. A move is recorded before its effects, so
    its append announces it; a chance outcome is recorded after it took effect, so the state
    announces it first (`about_to_record`). Only games made inside `observing` have one
    (`new_log`); a clone's own event list is a plain list: unobserved."""

    def __init__(self, state: Any) -> None:
        super().__init__()
        self.state = state
        self.announced = -1

    def announce(self) -> None:
        """Report the state before event `len(self)` to the observer, once."""
        if self.announced == len(self):
            return
        self.announced = len(self)
        observe = _observer.get()
        if observe is not None:
            observe(self.state, len(self))

    def copy_for(self, state: Any) -> EventLog:
        """A copy of this log for `state`, observed as this one is."""
        new = EventLog(state)
        new.extend(self)
        new.announced = self.announced
        return new

    def append(self, event: Event) -> None:  # type: ignore[override]
        self.announce()
        super().append(event)


def about_to_record(state: Any) -> None:
    """Called by a state before a chance node changes it: announces the coming event (when
    the state's events are its own observed log)."""
    events = state.events
    if events.__class__ is EventLog and events.state is state:
        events.announce()


def new_log(state: Any) -> list[Event]:
    """The event list of a new game's `state`: an `EventLog` inside `observing`, else a
    plain list (nothing to announce to)."""
    return EventLog(state) if _observer.get() is not None else []


@contextlib.contextmanager
def observing(fn: Callable[[Any, int], None]) -> Iterator[None]:
    """Call `fn(state, index)` before each event is appended to the events of a game made in
    this context (thread and task local; a game made before it is not observed)."""
    token = _observer.set(fn)
    try:
        yield
    finally:
        _observer.reset(token)
