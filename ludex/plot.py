"""`ludex simulate --plot FILE.png`: the statistics of a simulation drawn with matplotlib.

Three panels: the win rate of each seat (and draws) with its 95% Wilson interval, the game
length distribution, and the final scores (team score, or each seat's) as box plots of their
quantiles. Only the statistics are needed (`ludex.simulation.simulate`'s dict).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_stats(stats: dict[str, Any], path: Path) -> Path:
    """Draw `stats` to `path` (PNG). Raises OSError when the file cannot be written."""
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
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
    fig.suptitle(f"{stats['ruleset']}: {stats['games']} games, {stats['seats']} seats, {stats['bot']} bots")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
