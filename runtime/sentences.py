"""Moves, events and endings as sentences people read: the viewer's timeline, the play UI's
log and move list, `ludex replay` and the API's `text` fields all take them from here.

A move or trigger may carry a template in rule text, `say "{actor} hints {target}: {colour}"`
(grammar rule `say_clause`): `{actor}` is the acting seat, every other `{NAME}` one of the
rule's arguments. Without one, the sentence is generic: the seat, the rule's name in words
and its arguments (`seat 0 plays card: red-3`, `seat 1 place: card red-12, t tile3, s 0`).

Every function works on the JSON one viewer may see (`runtime.views.event_view`, a listed
`runtime.Move`), so an argument hidden from that viewer reads as its slot (`a hidden component at
hand[1]@3`) and the sentence never tells more than the event does.
"""

from __future__ import annotations

import re
import string
from typing import Any, Mapping

from runtime.views import passed_by, seen_by, told

_FORMAT = string.Formatter()
# an argument the reader may not see is listed as its slot, `ZONE@INDEX` (`hand[1]@3`)
_SLOT = re.compile(r"^\S+@\d+$")


def words(name: str) -> str:
    """A rule or argument name as words: `play_card` -> `play card`."""
    return name.replace("_", " ")


def value_text(value: Any) -> str:
    """An argument's value as text: names and numbers as they are, lists joined by commas,
    truth values as yes/no, none as `none`, an empty list or map as `nothing`."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v) for v in value) or "nothing"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {value_text(v)}" for k, v in value.items()) or "nothing"
    return str(value)


def seat_text(seat: Any) -> str:
    """`seat 2`; `nobody` for no seat."""
    return "nobody" if seat is None else f"seat {seat}"


def _shown(arg: str, value: Any, hidden: frozenset[str]) -> str:
    return f"a hidden component at {value}" if arg in hidden else value_text(value)


def is_slot(value: Any) -> bool:
    """Whether an argument's value is a slot reference (`hand[1]@3`): a component the reader may not see."""
    return isinstance(value, str) and _SLOT.match(value) is not None


def fill(template: str, fields: Mapping[str, str]) -> str:
    """`template` with each `{NAME}` replaced by `fields[NAME]`; an unknown name is kept as
    `{NAME}`, a lone brace as it is (never an error: the checker reports bad names)."""
    out = []
    try:
        parsed = list(_FORMAT.parse(template))
    except ValueError:
        return template
    for literal, name, _spec, _conv in parsed:
        out.append(literal)
        if name is not None:
            out.append(fields[name] if name in fields else "{" + name + "}")
    return "".join(out)


def _names(template: str) -> list[str]:
    """The fields a template names (`{actor}`, `{c}`); none for a malformed one."""
    try:
        return [n for _lit, n, _spec, _conv in _FORMAT.parse(template) if n is not None]
    except ValueError:
        return []


def move_sentence(rules: Any, seat: Any, name: str, args: Mapping[str, Any],
                  hidden: frozenset[str] = frozenset()) -> str:
    """A move as a sentence, its first letter a capital. `rules` is the compiled `dsl.Ruleset`
    (its `say` templates; None: the generic sentence),
    `seat` the mover, `args` the arguments as the reader sees them, `hidden` the arguments the
    reader sees only as a slot reference."""
    decl = next((m for m in rules.moves if m.name == name), None) if rules is not None else None
    template = getattr(decl, "say", None)
    if template:
        fields = {k: _shown(k, v, hidden) for k, v in args.items()}
        fields["actor"] = seat_text(seat)
        said = fill(template, fields)
        return said[:1].upper() + said[1:]  # a sentence: `seat 0 takes ...` -> `Seat 0 takes ...`
    order = [b.name for b in decl.params] if decl is not None else []  # the rule's own order, not the record's
    named = sorted(args, key=lambda k: order.index(k) if k in order else len(order))
    told = ", ".join(f"{words(k)} {_shown(k, args[k], hidden)}" for k in named)
    return f"{seat_text(seat).capitalize()}: {words(name)}" + (f" ({told})" if told else "")


def event_sentence(rules: Any, event: Mapping[str, Any]) -> str:
    """An event (`runtime.views.event_view`'s JSON for one reader) as a sentence: a move by
    its template or generically, a shuffle, a draw (its components, or how many are hidden)
    and a reveal."""
    kind = event.get("kind")
    if kind == "move":
        args = dict(event.get("args") or {})
        hidden = frozenset(k for k, v in args.items() if is_slot(v))
        return move_sentence(rules, event.get("seat"), str(event.get("move")), args, hidden)
    zone = event.get("zone") or "?"
    shown = list(event.get("outcome") or [])
    if kind == "chance":
        if event.get("node") == "shuffle":
            return f"{zone} is shuffled" + ("" if shown else " (its order is hidden)")
        if shown:
            return f"Drawn into {zone}: {value_text(shown)}"
        n = event.get("hidden") or 0
        return f"Drawn into {zone}: {n} hidden component{'s' if n != 1 else ''}"
    if kind == "show":
        return f"{zone} is revealed: {value_text(shown)}"
    return words(str(kind))


def ending_sentence(rules: Any, ending: Mapping[str, Any] | None) -> str:
    """Why the game ended (`runtime.Game.ending`) as a sentence: the ending trigger's `say`
    template when it has one naming no field (the ending keeps no trigger's arguments, and a
    move's template tells the move, not the end), else the `end game` reason; then the rule,
    where it stands and the rulebook section it cites; then the winners and the scores."""
    if not ending:
        return ""
    rule = str(ending.get("rule", ""))
    kind, _, name = rule.partition(" ")
    decls = rules.triggers if rules is not None and kind == "trigger" else ()
    decl = next((d for d in decls if d.name == name), None)
    template = getattr(decl, "say", None)
    head = (fill(template, {}) if template and not _names(template) else "") or str(
        ending.get("reason") or "the game ended")
    where = f"{rule} at {ending['rule_source']}" if ending.get("rule_source") else rule
    cite = f": {ending['citation']}" if ending.get("citation") else ""
    winners = list(ending.get("winners") or [])
    who = ("Winners: " + ", ".join(seat_text(s) for s in winners)) if winners else "No winner"
    scores = ending.get("scores") or {}
    told = "; scores: " + ", ".join(
        (f"team {v}" if k == "team" else f"{seat_text(k)} {value_text(v)}") for k, v in scores.items()) if scores else ""
    return f"{head[:1].upper()}{head[1:]} ({where}{cite}). {who}{told}."


def name_public(shown: Mapping[str, Any], args: Mapping[str, Any], public: set[str]) -> dict[str, Any]:
    """An event as one reader was shown it (`runtime.views.event_view`) with each argument it saw
    only as a slot (`hand[1]@3`) named after all, when that component (`args`, the event's own
    arguments) is among `public`, the names the reader sees once the move is over (a card played
    face up). Other arguments stay as they were shown."""
    out = dict(shown)
    out["args"] = {k: (args[k] if is_slot(v) and isinstance(args.get(k), str) and args[k] in public else v)
                   for k, v in (shown.get("args") or {}).items()}
    return out


def named_after_move(game: Any, seat: int | None, events: Any, before: set[str],
                     now: set[str], passed: set[str] | frozenset[str] = frozenset()) -> dict[int, dict[str, Any]]:
    """For `events`, what one decision just made in `game` (a `runtime.Game`, or anything with
    the `st` of a game right after the decision: a replay asks between two moves of a log, where
    there is no `Game`), the arguments `seat` (None: a spectator) saw only as slots whose
    components it can now tie to them: `{ply: {argument: component name}}`, for `name_public`.
    `before` is the names the seat saw before the decision (`runtime.views.seen_by` then), `now`
    those it sees after it, `passed` those it saw pass through a zone it
    sees during the decision (`runtime.views.passed_by`), even if they lie hidden from it again
    once the decision is over.

    A component is tied when the decision's one hidden argument that the seat saw (now, or
    passing) is also the one component that became visible to it and that no event told it
    openly (a card played face up, a draw into a public place being told by its chance event).
    Otherwise every slot stays: several cards turned face up at once (which was played?), a
    component that only moved between zones hidden from the seat, or one the seat sees only
    later; so does a pick (a list)."""
    who = -1 if seat is None else seat
    hidden = [(e, k) for e in events if e.hidden_from for k, blind in e.hidden_from.items()
              if who in blind and isinstance(e.args.get(k), str)]
    if not hidden:
        return {}
    shown = now | passed if passed else now
    public = [(e, k) for e, k in hidden if e.args[k] in shown]
    if len(public) != 1:
        return {}
    (e, k), = public
    if (shown - before) - told(game, seat, events) != {e.args[k]}:
        return {}
    return {e.ply: {k: e.args[k]}}


class Readers:
    """What each reader of one game may name, kept decision by decision (`note` after each):
    `named[viewer]` is `{ply: {argument: component name}}` (`named_after_move`), for the seats and
    the spectator (None) given as `viewers`; `before[viewer]` the names it saw after the last
    decision noted (empty before the game's setup). The components a decision moves are noted
    on the game's state while it is watched (`watch`; `note` watches the next decision)."""

    def __init__(self, viewers: Any) -> None:
        self.named: dict[int | None, dict[int, dict[str, Any]]] = {v: {} for v in viewers}
        self.before: dict[int | None, set[str]] = {v: set() for v in viewers}

    @staticmethod
    def watch(game: Any) -> None:
        """Note from now on each component `game` (a `Game`, or anything with its `st`) moves
        and where to (`State.passing`), until the next `note`: the readers see what passes
        through their zones. A game nobody watches notes nothing (its clones never do)."""
        game.st.passing = []

    def note(self, game: Any, events: Any) -> None:
        """After `events`, one decision's (`game` right after it): name what each reader may, then
        watch the next decision (`watch`)."""
        now = seen_by(game, self.named)
        passed = passed_by(game, self.named, game.st.passing or ())
        for v, named in self.named.items():
            named.update(named_after_move(game, v, events, self.before[v], now[v], passed[v]))
        self.before = now
        self.watch(game)
