"""What a position is worth to each seat, for search: a finished game by its outcome, an
unfinished one by the ruleset's own estimate (`fn heuristic`, else `fn score`); and the order
in which one seat's moves look best one ply on (`one_ply_order`), for the greedy bot and for
ISMCTS's progressive widening."""

from __future__ import annotations

import random
from typing import Any

from runtime.builtins_search import ruleset_fn


def outcome_value(outcome: dict[str, Any] | None, seat: int) -> float:
    """What an outcome is worth to `seat`: the team score in a team game, else 1 for a win,
    0.5 for a draw, 0 for a loss or an unfinished game."""
    if not outcome:
        return 0.0
    if outcome.get("kind") == "team":
        team = (outcome.get("scores") or {}).get("team")
        return float(team) if isinstance(team, (int, float)) and not isinstance(team, bool) else 0.0
    if seat in outcome.get("winners", []):
        return 1.0
    return 0.5 if outcome.get("kind") == "draw" else 0.0


def outcome_values(outcome: dict[str, Any] | None, seats: int) -> list[float]:
    """`outcome_value` of every seat `0..seats-1`."""
    return [outcome_value(outcome, s) for s in range(seats)]


def estimate_fn(ruleset: Any) -> Any:
    """The ruleset's estimate of an unfinished game: its `fn heuristic`, else its `fn score`
    (a declaration with no parameter, or one seat), else None."""
    fns = {f.name: f for f in ruleset.fns}
    f = fns.get("heuristic") or fns.get("score")
    return f if f is not None and len(f.params) <= 1 else None


def leaf_values(game: Any, seats: int) -> list[float]:
    """Every seat's value of an unfinished game cut short (`estimate_fn`): a team estimate
    (`heuristic()`) is every seat's value; with per-seat estimates (`heuristic(s)`) the seat
    ahead gets 1, seats tied ahead 0.5 and the others 0 (a win-probability proxy on the
    outcome's scale); 0.5 each when the ruleset declares no estimate."""
    f = estimate_fn(game.ruleset)
    if f is None:
        return [0.5] * seats
    fn = ruleset_fn(game.st, f.name)
    if not f.params:
        v = fn()
        return [float(v)] * seats
    per_seat = [fn(s) for s in range(seats)]
    best = max(per_seat)
    leaders = sum(v == best for v in per_seat)
    return [(1.0 if leaders == 1 else 0.5) if v == best else 0.0 for v in per_seat]


def _number(v: Any) -> float:
    """An estimate's value as a float (0 for anything that is not a number)."""
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0.0


def position_value(game: Any, seat: int) -> tuple[float, float]:
    """What `game` is worth to `seat`, as a pair compared in order: `(decided, estimate)`.

    - A finished competitive game: `decided` is 1 for a win, -1 for a loss, 0 for a draw
      (estimate 0: an even position). So a win comes before every unfinished position and a
      loss after, whatever the scale of the rules' estimate (an estimate of a thousand a point
      must not make a win, worth 1 on the outcome's scale, look worse than playing on).
    - An unfinished game: `decided` 0, `estimate` the seat's estimate less the best other
      seat's (`fn heuristic(s)`, else `fn score(s)`): a lead, so a move that weakens an
      opponent counts as much as one that strengthens the seat. With one seat, its estimate.
    - A team game (a team outcome, or an estimate of no seat, `fn heuristic()`): `decided` 0,
      `estimate` the team score or estimate itself (they share the outcome's scale).
    - No estimate declared: `(0, 0)`."""
    if game.terminal:
        outcome = game.outcome or {}
        if outcome.get("kind") == "team":
            return 0.0, outcome_value(outcome, seat)
        won = outcome_value(outcome, seat)
        return (1.0 if won == 1.0 else -1.0 if won == 0.0 else 0.0), 0.0
    f = estimate_fn(game.ruleset)
    if f is None:
        return 0.0, 0.0
    fn = ruleset_fn(game.st, f.name)
    if not f.params:
        return 0.0, _number(fn())
    mine = _number(fn(seat))
    others = [_number(fn(s)) for s in range(game.st.nseats) if s != seat]
    return 0.0, mine - max(others) if others else mine


def one_ply_values(worlds: list[Any], seat: int, moves: list[Any], rng: random.Random) -> list[tuple[float, float]]:
    """`position_value` after each of `moves` (listed in the real game), summed over `worlds`
    (determinised copies of it for `seat`): one `(decided, estimate)` pair a move, in order."""
    out = []
    for m in moves:
        decided = estimate = 0.0
        for w in worlds:
            after = w.clone()
            after.apply(seat, after.pick_at_random(seat, m, rng).to_dict())
            d, e = position_value(after, seat)
            decided += d
            estimate += e
        out.append((decided, estimate))
    return out
