"""How a game ends: the outcome of `end game`, as the JSON `Game.outcome` returns.

Every outcome is `{"kind", "winners", "scores", "reason"}`; `scores` maps each seat (as text)
to its score, or is `{}` when the rule gave none. Ranked outcomes (`scores ...`, `rank by ...`)
also carry `"ranking"` (seats, best first), `"places"` (seat -> 1-based place; seats that stay
equal after every tie-breaker share a place) and, when tie-breakers were given, `"tiebreaks"`
(one seat -> value map per tie-breaker, in order). A tie for first that the tie-breakers do
not break is a shared win (`ties win`, the default) or a draw (`ties draw`: kind `draw`, no
winners, the scores kept). See docs/language.md, "end game".
"""

from __future__ import annotations

from typing import Any

from runtime.values import encode


def per_seat(value: Any, seats: list[int]) -> dict[int, Any]:
    """A seat -> value map from a per-seat variable (a list indexed by seat) or a map keyed by
    seat. Raises KeyError naming the first seat it has no value for."""
    out = {}
    for s in seats:
        try:
            out[s] = value[s]
        except (KeyError, IndexError, TypeError):
            raise KeyError(f"no score for seat {s} in {encode(value)!r}") from None
    return out


def _text_keys(by_seat: dict[int, Any]) -> dict[str, Any]:
    return {str(s): encode(v) for s, v in by_seat.items()}


def plain(kind: str, reason: str, winner: int | None = None,
          scores: dict[int, Any] | None = None) -> dict[str, Any]:
    """A `win` (one winner) or `draw` outcome, carrying `scores` when the rule gave them."""
    return {"kind": kind, "winners": [winner] if winner is not None else [],
            "scores": _text_keys(scores) if scores is not None else {}, "reason": reason}


def ranked(kind: str, seats: list[int], reason: str, keys: dict[int, Any],
           breaks: list[dict[int, Any]], ties: str) -> dict[str, Any]:
    """Seats ranked by `keys`, then by each tie-breaker in `breaks`, highest first.

    `kind` is `scores`, `rank` or `lowest` (`end game lowest scores`: the lowest score ranks
    first, tie-breakers still highest first; the outcome is kind `scores` with `"lowest": true`
    and the true scores); `ties` is `win` (seats still equal for first all win) or
    `draw` (they draw: kind becomes `draw` with no winners). Python's ordering decides between
    values (numbers and truth values; lists compare element by element)."""
    lowest = kind == "lowest"
    if lowest:
        kind = "scores"

    def key(s: int) -> tuple:
        return (-keys[s] if lowest else keys[s], *(b[s] for b in breaks))

    ranking = sorted(seats, key=key, reverse=True)
    places = {s: 1 + sum(1 for t in seats if key(t) > key(s)) for s in seats}
    first = [s for s in ranking if places[s] == 1]
    out: dict[str, Any] = {"kind": kind, "winners": first, "scores": _text_keys(keys), "reason": reason,
                           "ranking": ranking, "places": {str(s): p for s, p in places.items()}}
    if breaks:
        out["tiebreaks"] = [_text_keys(b) for b in breaks]
    if lowest:
        out["lowest"] = True
    if ties == "draw" and len(first) > 1:
        out["kind"], out["winners"] = "draw", []
    return out
