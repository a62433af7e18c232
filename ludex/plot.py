"""`ludex simulate --plot FILE.png` and `ludex compare --plot FILE.png`, drawn with matplotlib.

A simulation: five panels: the win rate of each seat (and draws) with its 95% Wilson interval,
the game length distribution, the final scores (team score, or each seat's) as box plots of
their quantiles, the evaluation metrics that are shares (balance, first-seat advantage,
drawishness, decisiveness, stalls, cut-off games), and those counted per game (lead changes,
branching factor), with their 95% intervals. Only the
statistics are needed (`ludex.simulation.simulate`'s dict).

A comparison: each compared ruleset's differences from the base with their 95% intervals, rates
in points on the left, means relative to the base's on the right (`ludex.simulation.compare`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_stats(stats: dict[str, Any], path: Path) -> Path:
    """Draw `stats` to `path` (PNG). Raises OSError when the file cannot be written."""
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 5, figsize=(21, 4))
    rates = [(f"seat {k}", v) for k, v in stats["win_rates"].items()] + [("draws", stats["draws"])]
    names = [n for n, _ in rates]
    values = [v["rate"] for _, v in rates]
    low = [max(0.0, v["rate"] - v["ci95"][0]) for _, v in rates]
    high = [max(0.0, v["ci95"][1] - v["rate"]) for _, v in rates]
    ax = axes[0]
    ax.bar(names, values, yerr=[low, high], capsize=6, color="#4c72b0")
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.set_title("win rate (95% Wilson interval)")

    def box(q: dict[str, float]) -> dict[str, Any]:
        return {"whislo": q["p10"], "q1": q["p25"], "med": q["median"], "q3": q["p75"], "whishi": q["p90"],
                "fliers": [q["min"], q["max"]]}

    ax = axes[1]
    ax.bxp([box(stats["length_quantiles"])], showfliers=True)
    ax.set_xticks([1], ["plies"])
    ax.set_ylabel("moves per game")
    ax.set_xlabel("box: p25-p75, whiskers: p10-p90, dots: min and max")
    ax.set_title("game length")

    ax = axes[2]
    scores = [(k, v) for k, v in stats["score_quantiles"].items() if v]
    if scores:
        ax.bxp([box(v) for _, v in scores], showfliers=True)
        ax.set_xticks(range(1, len(scores) + 1), ["team" if k == "team" else f"seat {k}" for k, _ in scores])
        ax.set_ylabel("final score")
    else:
        ax.text(0.5, 0.5, "the outcomes carry no scores", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    ax.set_title("scores")

    ax = axes[3]
    shares = _metric_shares(stats["metrics"])
    ax.errorbar([v for _, v, _ in shares], range(len(shares)), capsize=4, fmt="o", color="#4c72b0",
                xerr=[[max(0.0, v - lo) for _, v, (lo, _) in shares], [max(0.0, hi - v) for _, v, (_, hi) in shares]])
    ax.set_yticks(range(len(shares)), [n for n, _, _ in shares])
    ax.axvline(0, color="grey", lw=0.8)
    ax.invert_yaxis()
    ax.set_title("evaluation metrics (95% intervals)")

    ax = axes[4]
    means = [(name, m) for name, m in (("lead changes", stats["metrics"].get("lead_changes")),
                                       ("branching factor", stats["metrics"].get("branching"))) if m]
    ax.errorbar([m["mean"] for _, m in means], range(len(means)), capsize=4, fmt="o", color="#dd8452",
                xerr=[[max(0.0, m["mean"] - m["ci95"][0]) for _, m in means],
                      [max(0.0, m["ci95"][1] - m["mean"]) for _, m in means]])
    ax.set_yticks(range(len(means)), [n for n, _ in means])
    ax.set_ylim(-0.5, 1.5)
    ax.invert_yaxis()
    ax.set_title("per game (95% intervals)")
    fig.suptitle(f"{stats['ruleset']}: {stats['games']} games, {stats['seats']} seats, {stats['bot']} bots")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _metric_shares(m: dict[str, Any]) -> list[tuple[str, float, list[float]]]:
    """The metrics that are shares of games (0 to 1), as (name, value, interval)."""
    out = []
    if m.get("balance"):
        out.append(("balance (spread)", m["balance"]["spread"], m["balance"]["ci95"]))
    if m.get("first_seat"):
        out.append(("first-seat advantage", m["first_seat"]["advantage"], m["first_seat"]["advantage_ci95"]))
    out.append(("drawishness", m["drawishness"]["rate"], m["drawishness"]["ci95"]))
    if m.get("decisiveness"):
        out.append(("decisiveness", m["decisiveness"]["mean"], m["decisiveness"]["ci95"]))
    out.append(("stalls", m["stalls"]["rate"], m["stalls"]["ci95"]))
    out.append(("cut-off games", m["cut_off"]["rate"], m["cut_off"]["ci95"]))
    return out


def plot_comparison(result: dict[str, Any], path: Path) -> Path:
    """Draw a comparison (`ludex.simulation.compare.compare_runs`'s dict) to `path` (PNG): per
    compared ruleset, each difference from the base with its 95% interval. Raises OSError when
    the file cannot be written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (rates_ax, means_ax) = plt.subplots(1, 2, figsize=(14, 5))
    colours = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3"]
    for k, arm in enumerate(result["arms"]):
        colour = colours[k % len(colours)]
        offset = (k - (len(result["arms"]) - 1) / 2) * 0.2
        for ax, kinds, scale in ((rates_ax, ("rate", "spread"), None), (means_ax, ("mean",), "relative")):
            rows = [d for d in arm["differences"] if d["kind"] in kinds and (scale is None or d["base"])]
            names = [d["metric"] for d in rows]
            factor = [100.0 if scale is None else 100.0 / abs(d["base"]) for d in rows]
            x = [d["difference"] * f for d, f in zip(rows, factor)]
            lo = [max(0.0, xi - d["ci95"][0] * f) for xi, d, f in zip(x, rows, factor)]
            hi = [max(0.0, d["ci95"][1] * f - xi) for xi, d, f in zip(x, rows, factor)]
            ax.errorbar(x, [i + offset for i in range(len(rows))], xerr=[lo, hi], fmt="o", capsize=4, color=colour,
                        label=arm["label"])
            ax.set_yticks(range(len(rows)), names)
    for ax, title in ((rates_ax, "rates: difference in points"), (means_ax, "means: difference in % of the base")):
        ax.axvline(0, color="grey", lw=0.8)
        ax.invert_yaxis()
        ax.set_title(title)
        ax.legend(loc="lower right", fontsize="small")
    fig.suptitle(f"against {result['base']['label']}: {result['games']} games each, {result['bot']} bots, "
                 f"{result['seats']} seats (95% intervals)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
