"""What a position is worth to each seat, for search: a finished game by its outcome, an
unfinished one by the ruleset's own estimate (`fn heuristic`, else `fn score`)."""

from __future__ import annotations

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
