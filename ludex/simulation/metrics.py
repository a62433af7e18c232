"""The statistics of a run, from its rows (`ludex.simulation.play`): what `ludex simulate`
prints, `--json` holds and `--plot` draws.

A seat **wins** a game when it is among the outcome's winners: a shared win (a tie that the
rules let stand, `ties win`) counts once for every seat that shares it, in `wins_by_seat` and
`win_rates` alike. A draw has no winners, and a team game's outcome is its team score.

Game-evaluation metrics (Browne 2008, "Automatic generation and evaluation of recombination
games", and those Ludii reports), each with a 95% interval (Wilson for rates, bootstrap for
means and medians), under `metrics`:

- `balance`: the spread of the seats' win rates (highest minus lowest; 0 is balanced);
- `first_seat`: seat 0's win rate, the fair share (1/seats) and the advantage (rate - fair),
  with two seats or more;
- `drawishness`: the share of draws;
- `decisiveness`: the mean share of the game played before the winner led for good (by the
  rules' `fn score(s: seat)`; lower settles earlier);
- `lead_changes`: the mean number of changes of the sole leader per game (`fn score`);
- `length`: mean and median plies;
- `branching`: mean legal moves per decision (each game's own mean, averaged);
- `stalls` and `cut_off`: the share of games stuck with no legal move, and cut at `max_plies`.

A metric that does not apply (no `fn score`, no finished game...) is None.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ludex.simulation.intervals import bootstrap, mean_ci, median_ci, quantiles, rate_ci, wilson

# The keys that describe this run on this machine rather than the games: all else is fixed by the seed.
RUN_KEYS = ("seconds", "playouts_per_s", "plies_per_s", "save_seconds", "workers", "runner", "games_played")


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


def winners(row: dict[str, Any]) -> list[int]:
    """The seats that won the game of `row` (several for a shared win; none for a draw, a team
    game, a stuck or cut game)."""
    o = row["outcome"]
    return list(o.get("winners") or ()) if o and o["kind"] not in ("draw", "team") else []


def summarise(rows: list[dict[str, Any]], ruleset: Any, seats: int, bot: str) -> dict[str, Any]:
    """The statistics of `rows` (sorted by game, so that any worker count gives the same dict)
    of a run of `ruleset` (the compiled rules) with `seats` human seats and `bot`.

    Keys: ruleset, variants, seats, games, plies, outcomes ({label: count}), reasons,
    mean/min/max_plies, mean_branching (over all decisions), mean_team_score, mean_scores
    ({seat: mean final score} over the games whose outcome scores every seat with a number;
    None when no game did), wins_by_seat ({seat label: games won}, every seat listed, automata
    included and named), bot, win_rates ({seat: {wins, rate, ci95: [low, high]}}), draws
    ({games, rate, ci95}), length_quantiles and score_quantiles ({"team" or seat: quantiles};
    quantiles are {min, p10, p25, median, p75, p90, max}) and metrics (module docstring).
    """
    rows = sorted(rows, key=lambda r: r["game"])
    games = len(rows)
    automata = {a.name: seats + i for i, a in enumerate(ruleset.automata)}
    won: Counter[int] = Counter(s for r in rows for s in winners(r))
    outcomes: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    team_scores: list[float] = []
    seat_scores: list[dict[str, float]] = []
    for r in rows:
        o = r["outcome"]
        outcomes["stuck (no legal move)" if r["end"] == "stuck" else outcome_key(o, automata)] += 1
        if o:
            reasons[o.get("reason") or o["kind"]] += 1
            if o["kind"] == "team":
                team_scores.append(o["scores"]["team"])
            elif _numeric_seat_scores(o.get("scores") or {}, seats):
                seat_scores.append(o["scores"])
    draws = sum(1 for r in rows if r["outcome"] and r["outcome"]["kind"] == "draw")
    lengths = [r["plies"] for r in rows]
    total = sum(lengths)
    return {
        "ruleset": ruleset.name,
        "variants": list(ruleset.variants),
        "seats": seats,
        "games": games,
        "plies": total,
        "outcomes": dict(sorted(outcomes.items())),
        "reasons": dict(sorted(reasons.items())),
        "mean_plies": total / games if games else 0.0,
        "min_plies": min(lengths) if lengths else 0,
        "max_plies": max(lengths) if lengths else 0,
        "mean_branching": sum(r["legal_moves"] for r in rows) / total if total else 0.0,
        "mean_team_score": sum(team_scores) / len(team_scores) if team_scores else None,
        "mean_scores": {str(s): sum(sc[str(s)] for sc in seat_scores) / len(seat_scores) for s in range(seats)}
        if seat_scores else None,
        "wins_by_seat": {seat_label(s, automata): won[s] for s in range(seats + len(automata))},
        "bot": bot,
        "win_rates": {str(s): {"wins": won[s], "rate": won[s] / games if games else 0.0,
                               "ci95": list(wilson(won[s], games))} for s in range(seats)},
        "draws": {"games": draws, "rate": draws / games if games else 0.0, "ci95": list(wilson(draws, games))},
        "length_quantiles": quantiles(lengths),
        "score_quantiles": {"team": quantiles(team_scores)} if team_scores else
        ({str(s): quantiles([sc[str(s)] for sc in seat_scores]) for s in range(seats)} if seat_scores else {}),
        "metrics": game_metrics(rows, seats),
    }


def game_metrics(rows: list[dict[str, Any]], seats: int) -> dict[str, Any]:
    """The evaluation metrics of the module docstring, from rows sorted by game."""
    import numpy as np

    games = len(rows)
    wins = [[1.0 if s in winners(r) else 0.0 for r in rows] for s in range(seats)]

    def spread(*rates: Any, axis: int = -1) -> Any:
        means = np.stack([np.mean(r, axis=axis) for r in rates])
        return means.max(axis=0) - means.min(axis=0)

    first = rate_ci(int(sum(wins[0])), games) if games and seats > 1 else None  # alone, no seat is first
    if first is not None:
        fair = 1 / seats
        first.update(fair=fair, advantage=first["rate"] - fair, advantage_ci95=[x - fair for x in first["ci95"]])
    settled = [r["settled_at"] for r in rows if r.get("settled_at") is not None]
    leads = [r["lead_changes"] for r in rows if r.get("lead_changes") is not None]
    lengths = [r["plies"] for r in rows]
    branching = [r["legal_moves"] / r["plies"] for r in rows if r["plies"]]
    return {
        "balance": {"spread": float(spread(*wins)), "ci95": bootstrap(wins, spread)} if games and seats > 1 else None,
        "first_seat": first,
        "drawishness": rate_ci(sum(1 for r in rows if r["outcome"] and r["outcome"]["kind"] == "draw"), games),
        "decisiveness": mean_ci(settled),
        "lead_changes": mean_ci(leads),
        "length": {"mean": mean_ci(lengths), "median": median_ci(lengths)} if games else None,
        "branching": mean_ci(branching),
        "stalls": rate_ci(sum(1 for r in rows if r["end"] == "stuck"), games),
        "cut_off": rate_ci(sum(1 for r in rows if r["end"] == "cut"), games),
    }


def _numeric_seat_scores(scores: dict[str, Any], n_seats: int) -> bool:
    """Whether an outcome's scores give every seat a number (bools excluded)."""
    return all(isinstance(scores.get(str(s)), (int, float)) and not isinstance(scores.get(str(s)), bool)
               for s in range(n_seats))
