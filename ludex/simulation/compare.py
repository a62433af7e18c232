"""Two runs side by side (`ludex compare`): for every metric, the difference with its 95%
interval, a test of "no difference", and the games needed to detect a change of a given size.

- Rates (each seat's win rate, draws, stalls, cut-off games): the difference of proportions
  with Newcombe's hybrid score interval (Newcombe 1998, "Interval estimation for the
  difference between independent proportions", Statistics in Medicine 17, method 10), Fisher's
  exact test, and the games per ruleset for a two-sided test at 5% with 80% power to detect a
  change of `effect` (absolute: 0.05 is five points) from the base rate (Fleiss, Levin and Paik
  2003, "Statistical Methods for Rates and Proportions", eq. 4.14, no continuity correction).
- Means (game length, branching, lead changes, decisiveness, final scores): the difference of
  means with a bootstrap interval (the two runs resampled independently), the Mann-Whitney U
  test, and the games per ruleset to detect a change of `effect` times the base mean (relative:
  0.05 is 5%) with the pooled standard deviation (normal approximation).
- Balance (the spread of the seats' win rates): the difference with a bootstrap interval, and a
  bootstrap test (is 0 inside the interval?); no power figure.

p-values are not adjusted for the number of metrics compared: with twenty metrics, one is
expected under 0.05 by chance alone.
"""

from __future__ import annotations

import math
from typing import Any

from ludex.simulation.intervals import bootstrap, wilson
from ludex.simulation.metrics import winners

ALPHA = 0.05
POWER = 0.8


def compare_rows(base: list[dict[str, Any]], other: list[dict[str, Any]], seats: int,
                 effect: float = 0.05) -> list[dict[str, Any]]:
    """The metric-by-metric comparison of `other` against `base` (rows of two runs with the
    same seats, bots and seeds): a list of `{metric, kind, base, other, difference, ci95, test,
    p_value, games_needed}` (kind `rate`, `mean` or `spread`; `games_needed` per ruleset for
    `effect`, None where it does not apply). Metrics missing from either run are left out."""
    out: list[dict[str, Any]] = []
    for s in range(seats):
        out.append(_rates(f"win rate seat {s}", base, other, lambda r, s=s: s in winners(r), effect))
    out.append(_rates("draws", base, other, _drawn, effect))
    out.append(_rates("stalls", base, other, lambda r: r["end"] == "stuck", effect))
    out.append(_rates("cut-off games", base, other, lambda r: r["end"] == "cut", effect))
    if seats > 1:
        out.append(_spread(base, other, seats))
    means = [("length (plies)", lambda r: r["plies"]),
             ("branching", lambda r: r["legal_moves"] / r["plies"] if r["plies"] else None),
             ("lead changes", lambda r: r.get("lead_changes")),
             ("decisiveness", lambda r: r.get("settled_at"))]
    for label, key in [*means, *_score_keys(base, other, seats)]:
        got = _means(label, base, other, key, effect)
        if got is not None:
            out.append(got)
    for d in out:
        if d["p_value"] is not None:
            d["significant"] = d["p_value"] < ALPHA
    return out


def compare_runs(arms: list[tuple[str, Any]], seats: int, options: dict[str, Any], games: int, seed: int,
                 max_plies: int, bot: str = "random", seconds: float = 0.2, iterations: int | None = None,
                 workers: int = 1, ray: str | None = None, effect: float = 0.05,
                 on_game: Any = None) -> dict[str, Any]:
    """Run `games` games of each `(label, ruleset)` of `arms` with the same seats, options, bots
    and seeds, and compare every arm after the first against the first (`compare_rows`).
    `on_game(label)` is called as each game finishes. Returns `{games, seed, bot, seats, effect,
    base: {label, stats}, arms: [{label, stats, differences}]}` (stats as `simulate` gives them)."""
    from ludex.simulation import simulate_rows
    from ludex.simulation.ray_runner import ray_session

    runs = []
    with ray_session(ray):
        for label, rs in arms:
            tick = None if on_game is None else (lambda label=label: on_game(label))
            stats, rows = simulate_rows(rs, seats, options, games, seed, max_plies, tick, None, bot, seconds, iterations,
                                        workers, ray)
            runs.append((label, stats, rows))
    (base_label, base_stats, base_rows), rest = runs[0], runs[1:]
    return {"games": games, "seed": seed, "bot": bot, "seats": seats, "effect": effect,
            "base": {"label": base_label, "stats": base_stats},
            "arms": [{"label": label, "stats": stats, "differences": compare_rows(base_rows, rows, seats, effect)}
                     for label, stats, rows in rest]}


def _drawn(r: dict[str, Any]) -> bool:
    return bool(r["outcome"]) and r["outcome"]["kind"] == "draw"


def _rates(label: str, base: list[dict[str, Any]], other: list[dict[str, Any]], hit: Any, effect: float) -> dict[str, Any]:
    from scipy.stats import fisher_exact

    x1, n1 = sum(1 for r in base if hit(r)), len(base)
    x2, n2 = sum(1 for r in other if hit(r)), len(other)
    p1, p2 = x1 / n1, x2 / n2
    (l1, u1), (l2, u2) = wilson(x1, n1), wilson(x2, n2)
    d = p2 - p1
    ci = [d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)]
    p_value = 1.0 if x1 + x2 in (0, n1 + n2) else float(fisher_exact([[x2, n2 - x2], [x1, n1 - x1]]).pvalue)
    return {"metric": label, "kind": "rate", "base": p1, "other": p2, "difference": d, "ci95": _tidy(ci),
            "test": "Fisher's exact", "p_value": p_value, "games_needed": games_for_rate(p1, effect)}


def _spread(base: list[dict[str, Any]], other: list[dict[str, Any]], seats: int) -> dict[str, Any]:
    import numpy as np

    def masks(rows: list[dict[str, Any]]) -> list[float]:
        return [float(sum(1 << s for s in winners(r))) for r in rows]

    def spread_of(m: Any, axis: int = -1) -> Any:
        rates = np.stack([np.mean((m.astype(np.int64) >> s) & 1, axis=axis) for s in range(seats)])
        return rates.max(axis=0) - rates.min(axis=0)

    def difference(a: Any, b: Any, axis: int = -1) -> Any:
        return spread_of(b, axis) - spread_of(a, axis)

    a, b = masks(base), masks(other)
    ci = bootstrap([a, b], difference, paired=False)
    base_spread, other_spread = float(spread_of(np.asarray(a))), float(spread_of(np.asarray(b)))
    return {"metric": "balance (spread)", "kind": "spread", "base": base_spread, "other": other_spread,
            "difference": other_spread - base_spread, "ci95": ci, "test": "bootstrap interval",
            "p_value": None, "significant": not ci[0] <= 0.0 <= ci[1], "games_needed": None}


def _means(label: str, base: list[dict[str, Any]], other: list[dict[str, Any]], key: Any,
           effect: float) -> dict[str, Any] | None:
    import numpy as np
    from scipy.stats import mannwhitneyu

    a = [float(v) for v in map(key, base) if v is not None]
    b = [float(v) for v in map(key, other) if v is not None]
    if not a or not b:
        return None
    m1, m2 = float(np.mean(a)), float(np.mean(b))
    ci = bootstrap([a, b], lambda x, y, axis=-1: np.mean(y, axis=axis) - np.mean(x, axis=axis), paired=False)
    same = len(set(a) | set(b)) == 1
    p_value = 1.0 if same else float(mannwhitneyu(b, a, alternative="two-sided").pvalue)
    pooled = math.sqrt(((len(a) - 1) * _var(a) + (len(b) - 1) * _var(b)) / max(1, len(a) + len(b) - 2))
    return {"metric": label, "kind": "mean", "base": m1, "other": m2, "difference": m2 - m1, "ci95": ci,
            "test": "Mann-Whitney U", "p_value": p_value, "games_needed": games_for_mean(m1, pooled, effect)}


def _var(x: list[float]) -> float:
    return float(sum((v - sum(x) / len(x)) ** 2 for v in x) / (len(x) - 1)) if len(x) > 1 else 0.0


def _score_keys(base: list[dict[str, Any]], other: list[dict[str, Any]], seats: int) -> list[tuple[str, Any]]:
    """Final-score metrics both runs have: the team score, or each seat's numeric score."""
    def score(r: dict[str, Any], k: str) -> Any:
        v = ((r["outcome"] or {}).get("scores") or {}).get(k)
        return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None

    keys = ["team"] + [str(s) for s in range(seats)]
    return [(f"final score {'team' if k == 'team' else 'seat ' + k}", lambda r, k=k: score(r, k)) for k in keys
            if any(score(r, k) is not None for r in base) and any(score(r, k) is not None for r in other)]


def _z(q: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(q))


def games_for_rate(p1: float, effect: float, alpha: float = ALPHA, power: float = POWER) -> int | None:
    """Games per ruleset for a two-sided two-proportion test at `alpha` with `power` to detect a
    change of `effect` (absolute) from the rate `p1` (towards 0.5 where the rate cannot move
    the other way). Fleiss, Levin and Paik (2003), eq. 4.14 without continuity correction:
    n = (z_a sqrt(2 p q) + z_b sqrt(p1 q1 + p2 q2))^2 / effect^2, p the mean rate."""
    if effect <= 0:
        return None
    p2 = p1 + effect if p1 + effect <= 1 else p1 - effect
    if not 0 <= p2 <= 1:
        return None
    p = (p1 + p2) / 2
    za, zb = _z(1 - alpha / 2), _z(power)
    n = (za * math.sqrt(2 * p * (1 - p)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / effect ** 2
    return math.ceil(n)


def games_for_mean(m1: float, sd: float, effect: float, alpha: float = ALPHA, power: float = POWER) -> int | None:
    """Games per ruleset for a two-sided two-sample test at `alpha` with `power` to detect a
    change of `effect` x |m1| in a mean whose standard deviation is `sd` (normal approximation:
    n = 2 (z_a + z_b)^2 sd^2 / delta^2); None when the base mean is 0."""
    delta = effect * abs(m1)
    if delta <= 0:
        return None
    za, zb = _z(1 - alpha / 2), _z(power)
    return max(2, math.ceil(2 * (za + zb) ** 2 * sd * sd / (delta * delta)))


def _tidy(ci: list[float]) -> list[float]:
    return [round(max(-1.0, ci[0]), 12), round(min(1.0, ci[1]), 12)]
