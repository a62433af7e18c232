"""The text reports of `ludex simulate` and `ludex compare` (Rich tables), and their progress bar."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text


class _GamesPerSecond(ProgressColumn):
    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:.1f} games/s")


def games_progress(console: Console) -> Progress:
    """A progress bar for games: name, bar, games done of all, games/s and the time left.

    It draws only when `ticker`'s callbacks say so, with no thread of its own: the process
    then has no thread besides the main one, and the local runner may fork its workers."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                    _GamesPerSecond(), TimeRemainingColumn(), console=console, transient=True, auto_refresh=False)


def ticker(progress: Progress, task: Any, every: float = 0.1) -> Callable[[], None]:
    """A callback that counts one game done on `task` and redraws at most once per `every` seconds."""
    last = [0.0]

    def tick() -> None:
        progress.advance(task)
        now = time.monotonic()
        if now - last[0] >= every:
            last[0] = now
            progress.refresh()

    return tick


def _ci(ci: list[float] | None, fmt: str = "{:.3f}") -> str:
    return "" if not ci else f"{fmt.format(ci[0])} – {fmt.format(ci[1])}"


def _counts_table(title: str, key: str, count: str, counts: dict[str, int]) -> Table:
    """A two-column table of counts (`key` | `count`, right-aligned), one row per entry."""
    t = Table(title=title)
    t.add_column(key)
    t.add_column(count, justify="right")
    for k, v in counts.items():
        t.add_row(k, str(v))
    return t


def metrics_table(m: dict[str, Any], seats: int) -> Table:
    """The evaluation metrics (`ludex.simulation.metrics`) with their 95% intervals."""
    t = Table(title="game evaluation (95% intervals: Wilson for rates, bootstrap for means)")
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_column("95% interval", justify="right")
    t.add_column("reads as")
    if m.get("balance"):
        b = m["balance"]
        t.add_row("balance", f"{b['spread']:.3f}", _ci(b["ci95"]), "spread of the seats' win rates (0: balanced)")
    if m.get("first_seat"):
        f = m["first_seat"]
        t.add_row("first-seat advantage", f"{f['advantage']:+.3f}", _ci(f["advantage_ci95"], "{:+.3f}"),
                  f"seat 0 wins {f['rate']:.3f} against a fair {f['fair']:.3f}")
    d = m["drawishness"]
    t.add_row("drawishness", f"{d['rate']:.3f}", _ci(d["ci95"]), f"{d['count']} games drawn")
    for key, label, note in (("decisiveness", "decisiveness", "share of the game played before the winner led for good"),
                             ("lead_changes", "lead changes", "changes of the sole leader per game")):
        v = m.get(key)
        if v:
            t.add_row(label, f"{v['mean']:.3f}", _ci(v["ci95"]), f"{note} ({v['games']} games)")
        else:
            t.add_row(label, "–", "", "needs the rules' fn score(s: seat)" + ("" if key == "lead_changes" else ", and a sole winner"))
    if m.get("length"):
        mean, median = m["length"]["mean"], m["length"]["median"]
        t.add_row("length: mean", f"{mean['mean']:.1f}", _ci(mean["ci95"], "{:.1f}"), "plies per game")
        t.add_row("length: median", f"{median['median']:.1f}", _ci(median["ci95"], "{:.1f}"), "plies per game")
    if m.get("branching"):
        b = m["branching"]
        t.add_row("branching factor", f"{b['mean']:.2f}", _ci(b["ci95"], "{:.2f}"), "legal moves per decision")
    for key, label, note in (("stalls", "stalls", "games stuck with no legal move"),
                             ("cut_off", "cut-off games", "games cut at --max-plies")):
        v = m[key]
        t.add_row(label, f"{v['rate']:.3f}", _ci(v["ci95"]), f"{v['count']} {note}")
    return t


def print_stats(s: dict[str, Any], console: Console | None = None) -> None:
    """`ludex simulate`'s report of the statistics `s` (`ludex.simulation.simulate`)."""
    c = console or Console()
    w = Table(title=f"win rate by seat ({s['bot']} bots; 95% Wilson interval; a shared win counts for each winner)")
    w.add_column("seat", justify="right")
    w.add_column("wins", justify="right")
    w.add_column("rate", justify="right")
    w.add_column("95% interval", justify="right")
    for seat, r in s["win_rates"].items():
        w.add_row(seat, str(r["wins"]), f"{r['rate']:.3f}", _ci(r["ci95"]))
    d = s["draws"]
    w.add_row("draws", str(d["games"]), f"{d['rate']:.3f}", _ci(d["ci95"]))
    c.print(w)
    c.print(metrics_table(s["metrics"], s["seats"]))
    q = Table(title="quantiles")
    q.add_column("")
    for k in ("min", "p10", "p25", "median", "p75", "p90", "max"):
        q.add_column(k, justify="right")
    rows = [("plies", s["length_quantiles"])] + [
        (f"score {k}" if k == "team" else f"score seat {k}", v) for k, v in s["score_quantiles"].items()
    ]
    for label, v in rows:
        if v:
            q.add_row(label, *(f"{v[k]:g}" for k in ("min", "p10", "p25", "median", "p75", "p90", "max")))
    c.print(q)
    c.print(_counts_table(f"{s['ruleset']} — {s['games']} games, {s['seats']} seats", "outcome", "games", s["outcomes"]))
    if len(s.get("wins_by_seat", {})) > s["seats"]:  # with automata: every seat's wins, zeros included
        c.print(_counts_table("wins by seat", "seat", "wins", s["wins_by_seat"]))
    c.print(_counts_table("how games ended", "reason", "games", s["reasons"]))
    m = Table(show_header=False)
    for k in ("plies", "mean_plies", "min_plies", "max_plies", "mean_branching", "seconds", "playouts_per_s", "plies_per_s"):
        m.add_row(k, f"{s[k]:.2f}" if isinstance(s[k], float) else str(s[k]))
    m.add_row("workers", "Ray" if s["runner"] == "ray" else str(s["workers"]))
    if s.get("save_seconds") is not None:
        m.add_row("save_seconds", f"{s['save_seconds']:.2f}")
    if s.get("mean_team_score") is not None:
        m.add_row("mean_team_score", f"{s['mean_team_score']:.2f}")
    c.print(m)
    if s.get("mean_scores"):
        sc = Table(title="mean final score by seat")
        sc.add_column("seat", justify="right")
        sc.add_column("mean score", justify="right")
        for seat, mean in s["mean_scores"].items():
            sc.add_row(seat, f"{mean:.2f}")
        c.print(sc)


def _num(kind: str, v: float | None) -> str:
    """A rate or spread to three places, a mean to two; `–` for none."""
    if v is None:
        return "–"
    return f"{v:.3f}" if kind in ("rate", "spread") else f"{v:.2f}"


def print_comparison(result: dict[str, Any], console: Console | None = None) -> None:
    """`ludex compare`'s report (`ludex.simulation.compare.compare_runs`'s dict): per compared
    ruleset, a table of every metric, then how to read it."""
    c = console or Console()
    base = result["base"]["label"]
    effect = result["effect"]
    c.print(f"[bold]{result['games']} games each, seed {result['seed']}, {result['bot']} bots at every seat, "
            f"{result['seats']} seats[/bold] (the same seeds for every ruleset)")
    for arm in result["arms"]:
        t = Table(title=f"B = {arm['label']} against A = {base}")
        for col, just in (("metric", "left"), ("A", "right"), ("B", "right"), ("B − A [95% interval]", "right"),
                          ("p", "right"), ("changed?", "left"), ("games to detect", "right")):
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        for d in arm["differences"]:
            p = "" if d["p_value"] is None else (f"{d['p_value']:.3g}" if d["p_value"] >= 0.001 else "<0.001")
            fmt = "{:+.3f}" if d["kind"] in ("rate", "spread") else "{:+.2f}"
            t.add_row(d["metric"], _num(d["kind"], d["base"]), _num(d["kind"], d["other"]),
                      f"{fmt.format(d['difference'])} [{_ci(d['ci95'], fmt)}]", p,
                      "[bold]yes[/bold]" if d["significant"] else "no evidence",
                      "" if d["games_needed"] is None else str(d["games_needed"]))
        c.print(t)
    metrics = len(result["arms"][0]["differences"]) if result["arms"] else 0
    c.print("balance: the spread of the seats' win rates; decisiveness: the share of a game played before its "
            "winner led for good (by fn score); lead changes: per game.")
    c.print(f"p: Fisher's exact test for rates, Mann-Whitney U for means; balance by its bootstrap interval. "
            f"changed?: yes when p < 0.05 (balance: when 0 is outside the interval). p-values are not adjusted "
            f"for the {metrics} metrics compared: expect about one in twenty under 0.05 by chance alone.")
    c.print(f"games to detect: games per ruleset for a two-sided test at 5% with 80% power to detect a change of "
            f"{effect * 100:g} points in a rate, or of {effect * 100:g}% of A's value in a mean (--effect {effect:g}).")
