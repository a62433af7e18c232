"""Playouts with statistics (`ludex simulate`, bench/).

Plays `games` games, every seat choosing with one bot (`search.bots`: random by default) from a
seeded RNG, and reports outcomes by seat with 95% Wilson intervals, draws, game length and
score quantiles, branching factor and speed.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dsl import Ruleset
from runtime import Game


def seat_label(seat: int, automata: dict[str, int] | None = None) -> str:
    """`seat 0`, or `seat 1 (automaton NAME)` for a seat the rules drive."""
    name = next((n for n, s in (automata or {}).items() if s == seat), None)
    return f"seat {seat}" if name is None else f"seat {seat} (automaton {name})"


def outcome_key(outcome: dict[str, Any] | None, automata: dict[str, int] | None = None) -> str:
    """A label for an outcome: `win seat 0` (an automaton's seat named), `draw`, `team`, or
    `cut at ply cap` / `stuck`."""
    if outcome is None:
        return "cut at ply cap"
    kind = outcome["kind"]
    if kind == "win" or (kind in ("scores", "rank") and len(outcome["winners"]) == 1):
        return f"win {seat_label(outcome['winners'][0], automata)}"
    if kind == "team":
        return "team score"
    if kind == "draw":
        return f"draw ({outcome['reason']})" if outcome.get("reason") else "draw"
    return f"{kind} {outcome['winners']}"


def simulate(rs: Ruleset, seats: int | None, options: dict[str, Any], games: int, seed: int, max_plies: int,
             on_game: Callable[[], None] | None = None, save: Path | None = None, bot: str = "random",
             seconds: float = 0.2, iterations: int | None = None, rollout: str | None = None) -> dict[str, Any]:
    """Play `games` games with `bot` at every seat (`search.bots.make_bot`: `rollout` names ismcts's
    playout policy; `seconds` of thinking per move for mcts and ismcts, or
    exactly `iterations` iterations per move when given: the same seed then plays the same games);
    returns a JSON-able dict of statistics.

    With `save`, each game's complete log is written to `save/game-NNNN.jsonl` in the format
    of `ludex export` (see `ludex.saved_games`), its seed revealed once it ended.

    Keys: ruleset, variants, seats, games, plies, seconds, playouts_per_s, plies_per_s,
    outcomes ({label: count}), reasons, mean/min/max_plies, mean_branching, mean_team_score,
    mean_scores ({seat: mean final score} over the games whose outcome scores every seat with a
    number; None when no game did), wins_by_seat ({seat label: games won alone}, every seat
    listed, automata included and named), bot, win_rates ({seat: {wins, rate, ci95: [low, high]}}),
    draws ({games, rate, ci95}), length_quantiles and score_quantiles ({"team" or seat:
    quantiles}; quantiles are {min, p10, p25, median, p75, p90, max}).
    """
    from search.bots import make_bot

    rng = random.Random(seed)
    player = make_bot(bot, rng, seconds, iterations, rollout)
    won: Counter[int] = Counter()  # games each seat won, alone or shared
    draws = 0
    outcomes: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    lengths = []
    branching_sum = 0
    decisions = 0
    team_scores = []
    seat_scores: list[dict[str, float]] = []
    n_seats = seats or rs.seats[0]
    automata = {a.name: n_seats + i for i, a in enumerate(rs.automata)}
    wins: Counter[int] = Counter()
    t0 = time.perf_counter()
    for i in range(games):
        g = Game.new(rs, n_seats, options, seed=f"{seed}:{i}")
        pick_rng = random.Random(f"{seed}:{i}")  # picks several at once (runtime.picks) drawn at random
        plies = 0
        stuck = False
        played: list[tuple[int, dict[str, Any]]] = []
        while not g.terminal and plies < max_plies:
            d = g.decision()
            if d.stuck:
                stuck = True
                break
            actor = d.seats[0]
            moves = g.legal_moves(actor)
            branching_sum += len(moves)
            decisions += 1
            move = g.pick_at_random(actor, player.choose(g, actor, moves), pick_rng)
            if save is not None:
                played.append((actor, move.to_dict()))
            g.apply(actor, move)
            plies += 1
        lengths.append(plies)
        if save is not None:
            from ludex.saved_games import game_log, write_log

            write_log(save / f"game-{i + 1:04d}.jsonl", game_log(rs, n_seats, options, f"{seed}:{i}", played))
        if stuck:
            outcomes["stuck (no legal move)"] += 1
        else:
            outcomes[outcome_key(g.outcome, automata)] += 1
            if g.outcome and len(g.outcome.get("winners") or ()) == 1 and g.outcome["kind"] != "draw":
                wins[g.outcome["winners"][0]] += 1
        if g.outcome:
            reasons[g.outcome.get("reason") or g.outcome["kind"]] += 1
            draws += g.outcome["kind"] == "draw"
            if g.outcome["kind"] != "team":
                won.update(g.outcome.get("winners", []))
            if g.outcome["kind"] == "team":
                team_scores.append(g.outcome["scores"]["team"])
            elif _numeric_seat_scores(g.outcome.get("scores") or {}, n_seats):
                seat_scores.append(g.outcome["scores"])
        if on_game:
            on_game()
    dt = time.perf_counter() - t0
    total = sum(lengths)
    return {
        "ruleset": rs.name,
        "variants": list(rs.variants),
        "seats": n_seats,
        "games": games,
        "plies": total,
        "seconds": dt,
        "playouts_per_s": games / dt if dt else 0.0,
        "plies_per_s": total / dt if dt else 0.0,
        "outcomes": dict(sorted(outcomes.items())),
        "reasons": dict(sorted(reasons.items())),
        "mean_plies": total / games if games else 0.0,
        "min_plies": min(lengths) if lengths else 0,
        "max_plies": max(lengths) if lengths else 0,
        "mean_branching": branching_sum / decisions if decisions else 0.0,
        "mean_team_score": sum(team_scores) / len(team_scores) if team_scores else None,
        "mean_scores": {str(s): sum(sc[str(s)] for sc in seat_scores) / len(seat_scores) for s in range(n_seats)}
        if seat_scores else None,
        "wins_by_seat": {seat_label(s, automata): wins[s] for s in range(n_seats + len(automata))},
        "bot": bot,
        "win_rates": {str(s): {"wins": won[s], "rate": won[s] / games if games else 0.0, "ci95": list(wilson(won[s], games))}
                      for s in range(n_seats)},
        "draws": {"games": draws, "rate": draws / games if games else 0.0, "ci95": list(wilson(draws, games))},
        "length_quantiles": quantiles(lengths),
        "score_quantiles": {"team": quantiles(team_scores)} if team_scores else
        ({str(s): quantiles([sc[str(s)] for sc in seat_scores]) for s in range(n_seats)} if seat_scores else {}),
    }


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default `z`): `(low, high)`,
    `(0.0, 1.0)` with no trials. Wilson, E. B. (1927), "Probable inference, the law of
    succession, and statistical inference", JASA 22(158)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, round(centre - half, 12)), min(1.0, round(centre + half, 12)))  # no 1e-17 crumbs


def quantiles(values: list[float] | list[int]) -> dict[str, float] | None:
    """`{min, p10, p25, median, p75, p90, max}` of `values` (inclusive method); None when empty."""
    if not values:
        return None
    cuts = statistics.quantiles(values, n=20, method="inclusive") if len(values) > 1 else [float(values[0])] * 19
    return {"min": float(min(values)), "p10": cuts[1], "p25": cuts[4], "median": cuts[9], "p75": cuts[14],
            "p90": cuts[17], "max": float(max(values))}


def _numeric_seat_scores(scores: dict[str, Any], n_seats: int) -> bool:
    """Whether an outcome's scores give every seat a number (bools excluded)."""
    return all(isinstance(scores.get(str(s)), (int, float)) and not isinstance(scores.get(str(s)), bool)
               for s in range(n_seats))
