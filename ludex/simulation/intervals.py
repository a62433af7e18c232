"""95% intervals for simulation statistics: Wilson's for rates, the bootstrap for means,
quantiles and any other statistic of the games (scipy.stats.bootstrap, a fixed seed so the
same games give the same interval)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import Any

Z95 = 1.959963984540054
RESAMPLES = 2000


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
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


def quantiles(values: Sequence[float]) -> dict[str, float] | None:
    """`{min, p10, p25, median, p75, p90, max}` of `values` (inclusive method); None when empty."""
    if not values:
        return None
    cuts = statistics.quantiles(values, n=20, method="inclusive") if len(values) > 1 else [float(values[0])] * 19
    return {"min": float(min(values)), "p10": cuts[1], "p25": cuts[4], "median": cuts[9], "p75": cuts[14],
            "p90": cuts[17], "max": float(max(values))}


def bootstrap(samples: Sequence[Sequence[float]], statistic: Callable[..., Any], paired: bool = True) -> list[float]:
    """The 95% percentile-bootstrap interval `[low, high]` of `statistic(*samples, axis=-1)`
    (vectorised, numpy) over resampled games: `paired` resamples the samples together (one
    value per game in each), else each on its own (independent groups, e.g. two rulesets).
    The resampling is seeded, so the same data give the same interval. A statistic that
    cannot vary (fewer than two values, or all equal) gets the point interval."""
    import numpy as np
    from scipy.stats import bootstrap as scipy_bootstrap

    arrays = [np.asarray(s, dtype=float) for s in samples]
    point = float(statistic(*arrays, axis=-1))
    if any(len(a) < 2 for a in arrays) or all(np.all(a == a[0]) for a in arrays):
        return [point, point]
    res = scipy_bootstrap(tuple(arrays), statistic, paired=paired, vectorized=True, n_resamples=RESAMPLES,
                          confidence_level=0.95, method="percentile", rng=np.random.default_rng(0))
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return [round(min(low, point), 12), round(max(high, point), 12)]


def mean_ci(values: Sequence[float]) -> dict[str, Any] | None:
    """`{mean, ci95, games}` of `values` (bootstrap interval); None when empty."""
    import numpy as np

    if not values:
        return None
    return {"mean": float(np.mean(values)), "ci95": bootstrap([values], np.mean), "games": len(values)}


def median_ci(values: Sequence[float]) -> dict[str, Any] | None:
    """`{median, ci95, games}` of `values` (bootstrap interval); None when empty."""
    import numpy as np

    if not values:
        return None
    return {"median": float(np.median(values)), "ci95": bootstrap([values], np.median), "games": len(values)}


def rate_ci(successes: int, trials: int) -> dict[str, Any]:
    """`{count, rate, ci95}` with Wilson's interval."""
    return {"count": successes, "rate": successes / trials if trials else 0.0, "ci95": list(wilson(successes, trials))}
