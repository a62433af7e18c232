"""One seeded game, played by bots, as a row of facts: the unit every runner (one process,
a process pool, Ray tasks) and `ludex tournament` share.

A row is JSON: `{game, seed, bot, seats, end, outcome, plies, legal_moves, lead_changes,
settled_at, moves}`:

- `end`: `finished`, `stuck` (the seat to act had no legal move) or `cut` (`max_plies` reached);
- `outcome`: the engine's outcome dict (`runtime.Game.outcome`), None unless finished;
- `plies`/`legal_moves`: how many moves the bots chose and how many legal moves they had to
  choose from in all (branching factor = legal_moves / plies);
- `lead_changes`, `settled_at`: from the rules' `fn score(s: seat)` after every move (None when
  the rules declare none): how often the sole leader changed (Browne 2008, "lead change"),
  and the share of the game played before the eventual sole winner led for good (Browne's
  "decisiveness": 0 when the winner led from the start, 1 when only the last move settled it;
  None without a sole winner);
- `moves`: the index of each chosen move in `legal_moves` (replayable with the seed).
"""

from __future__ import annotations

import random
from typing import Any

from ludex.simulation.spec import RunSpec


def play_game(spec: RunSpec, i: int) -> dict[str, Any]:
    """Play game `i` of the run `spec` (its seed `spec.game_seed(i)`, its bots seeded by
    `spec.bot_seed(i)`) and return its row (module docstring). Deterministic: the same spec
    and `i` give the same row in any process. Raises ValueError for an unknown bot or option."""
    from runtime import Game
    from search.bots import make_bot

    rs = spec.ruleset()
    g = Game.new(rs, spec.seats, spec.options, seed=spec.game_seed(i))
    rollout: dict[str, Any] = {} if spec.rollout is None else {"rollout": spec.rollout}
    player = make_bot(spec.bot, random.Random(spec.bot_seed(i)), spec.seconds, spec.iterations, **rollout)
    pick_rng = random.Random(spec.game_seed(i))  # picks of several at once (runtime.picks), drawn at random
    scored = _scores_seats(rs)
    leaders = [_leader(g, spec.seats)] if scored else []
    moves: list[int] = []
    legal_total = 0
    end = "cut"
    while len(moves) < spec.max_plies:
        if g.terminal:
            end = "finished"
            break
        d = g.decision()
        if d.stuck:
            end = "stuck"
            break
        actor = d.seats[0]
        legal = g.legal_moves(actor)
        legal_total += len(legal)
        chosen = player.choose(g, actor, legal)
        moves.append(next(k for k, m in enumerate(legal) if m is chosen))
        g.apply(actor, g.pick_at_random(actor, chosen, pick_rng))
        if scored:
            leaders.append(_leader(g, spec.seats))
    else:
        end = "finished" if g.terminal else "cut"
    outcome = g.outcome if end == "finished" else None
    return {
        "game": i, "seed": spec.game_seed(i), "bot": spec.bot, "seats": spec.seats, "end": end,
        "outcome": outcome, "plies": len(moves), "legal_moves": legal_total,
        "lead_changes": lead_changes(leaders) if scored else None,
        "settled_at": settled_at(leaders, outcome) if scored else None,
        "moves": moves,
    }


def play_batch(spec: RunSpec, games: list[int]) -> list[dict[str, Any]]:
    """`play_game` for each of `games`, in order (one task of a pool or of Ray)."""
    return [play_game(spec, i) for i in games]


def _scores_seats(rs: Any) -> bool:
    """Whether the rules declare `fn score(s: seat)`, the score the lead is read from."""
    fn = next((f for f in rs.fns if f.name == "score"), None)
    return fn is not None and len(fn.params) == 1 and fn.params[0].type.name == "seat"


def _leader(g: Any, seats: int) -> int | None:
    """The seat alone in the lead by `fn score`, or None on a tie (or with non-numeric scores)."""
    from runtime.builtins_search import ruleset_fn

    score = ruleset_fn(g.st, "score", 1)  # the compiled function itself: no JSON on the way in or out
    scores = [score(s) for s in range(seats)]
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in scores):
        return None
    top = max(scores)
    return scores.index(top) if scores.count(top) == 1 else None


def lead_changes(leaders: list[int | None]) -> int:
    """How many times the sole leader changed, reading `leaders` (the leader after setup, then
    after each move; None for a tie). A tie in between is no change: A, tie, A counts 0 and
    A, tie, B counts 1; the first leader is no change either."""
    changes, last = 0, None
    for who in leaders:
        if who is None:
            continue
        changes += last is not None and who != last
        last = who
    return changes


def settled_at(leaders: list[int | None], outcome: dict[str, Any] | None) -> float | None:
    """The share of the game (0 to 1) played before the sole winner led alone for good:
    with `leaders` after setup and after each of n moves, the first t from which the winner
    leads at every later point, divided by n. 1.0 when the winner is not in the lead at the
    end (only the last move settled it); None without a sole winner or with no move played."""
    if not outcome or len(outcome.get("winners") or ()) != 1 or len(leaders) < 2:
        return None
    winner = outcome["winners"][0]
    n = len(leaders) - 1
    t = n
    while t >= 0 and leaders[t] == winner:
        t -= 1
    return (t + 1) / n if t < n else 1.0
