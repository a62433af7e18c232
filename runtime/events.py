"""Events: every applied move and every chance outcome, as immutable attrs values.

The state of a game is the fold of its events (`runtime.Game.fold`). Each event names the
rule that produced it (`move place`, `trigger flight`, `setup`) and the source position of
the rule text (`my_game/game.ludex:118`), so an audit can point at it. JSON goes through
one cattrs converter, registered here and nowhere else.
"""

from __future__ import annotations

from typing import Any

import attrs
import cattrs


@attrs.frozen
class Event:
    """One step of a game's history.

    - `ply`: the event's 0-based position in the game's event list.
    - `kind`: "move" (a seat's decision), "chance" (a chance node's outcome) or "show"
      (a `reveal` effect showed `zone`'s components, `outcome`, to everyone).
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
