"""Replay a log to any event: the state right after event N, even inside a move.

A move's effects, its triggers and the chance events they cause all run within one
`Game.apply`, so folding a log only ever stops between moves. To show the state right after an
event inside such a cascade (the card played before its replacement is drawn), the fold
observes the event list (`runtime.events.observing`) and takes the view at the moment the next
event is about to be recorded: after event N and everything it caused, before event N+1.
"""

from __future__ import annotations

from typing import Any, Sequence

import attrs

from runtime import simultaneous, views
from runtime.budget import DEFAULT_BUDGET
from runtime.compile import program_for
from runtime.events import Event, observing
from runtime.game import Game
from runtime.sentences import Readers


@attrs.frozen
class ReplayStep:
    """The game right after event `index` (0-based; -1: before the first event).

    `view` is the viewer's view then; `game` is the folded Game when the step ends a move's
    cascade (a decision is pending or the game is over: `decision()`, `legal_moves()` apply),
    None inside a cascade, where the rules are still resolving and no one has a decision."""

    index: int
    view: dict[str, Any]
    game: Game | None


def step_after(ruleset: Any, seats: int, options: dict[str, Any] | None, events: list[Event], index: int,
               viewer: int | str | None, seed: str | None = None) -> ReplayStep:
    """The game right after `events[index]` as `viewer` (None: spectator, "all": everything) sees it.

    `events` is a whole log's runtime events; only the moves up to the one whose cascade holds
    `index` are folded. Raises what `Game.fold` raises (IllegalMove, ImpossibleOutcome), and
    IndexError for an index outside -1..len(events)-1.
    """
    if not -1 <= index < len(events):
        raise IndexError(f"event index {index} is outside -1..{len(events) - 1}")
    end = index + 1
    while end < len(events) and (events[end].kind not in ("move", "sealed") or events[end].node == "sealed"):
        end += 1  # the rest of the cascade (a round's revealed moves too): a fold stops only between choices
    prog = program_for(ruleset)
    seen: dict[str, Any] = {}

    def observe(state: Any, next_index: int) -> None:
        if next_index == index + 1 and "view" not in seen:
            seen["view"] = views.view(_Peek(prog, state), viewer)

    with observing(observe):
        game = Game.fold(ruleset, seats, options, events[:end], seed=seed)
    if "view" in seen and index + 1 < end:
        return ReplayStep(index, seen["view"], None)
    return ReplayStep(index, views.view(game, viewer), game)


def named_in_log(ruleset: Any, seats: int, options: dict[str, Any] | None, events: list[Event],
                 viewers: Sequence[int | None], seed: str | None = None,
                 budget: int = DEFAULT_BUDGET) -> Readers:
    """For each of `viewers` (seats; None: a spectator), the move arguments it saw only as slots
    whose components it could tie to them right after the decision that made them (its whole
    cascade), as `runtime.sentences.Readers` keeps them for a live game decision by decision, for
    a whole log: `.named[viewer]` is `{ply: {argument: component name}}`, and the result goes on
    with the game's next decisions (`.note`).

    The log is folded once, observed (`runtime.events.observing`) at the start of each decision,
    where the state is the one right after the decision before it, and watched through each
    decision (`Readers.watch`: what passes through a reader's zones); `seed` and `budget` as
    `Game.fold` takes them. Raises what `Game.fold` raises.
    """
    prog = program_for(ruleset)
    starts = {e.ply for e in events if simultaneous.decides(e, seats)}
    readers = Readers(viewers)
    done = [0]  # the first event of the decision not yet noted

    def observe(state: Any, next_index: int) -> None:
        if next_index not in starts:
            return
        if next_index > done[0]:  # noted, and the decision starting here watched
            readers.note(_Peek(prog, state), events[done[0]:next_index])
            done[0] = next_index
        else:
            readers.watch(_Peek(prog, state))

    with observing(observe):
        game = Game.fold(ruleset, seats, options, events, seed=seed, budget=budget)
    readers.note(game, events[done[0]:])
    return readers


def named_so_far(game: Game, seat: int | None) -> Readers:
    """`named_in_log` for one seat (None: a spectator) of a game's own events so far: what a
    reader who arrives mid-game (a saved game resumed) may name of the moves before it came,
    kept on as the game goes on (`Readers.note`). Folds the events again (their chance outcomes as given)."""
    return named_in_log(game.ruleset, game.seats, dict(game.st.options), list(game.events), [seat])


@attrs.frozen
class _Peek:
    """What `views.view` reads of a game (its program and state) mid-cascade."""

    prog: Any
    st: Any
