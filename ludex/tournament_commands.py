"""`ludex tournament RULESET --bots A,B,...`: a round robin between bots, seats rotated, with win
rates (95% Wilson intervals) and Bradley-Terry ratings.

The match logic is `search.tournament` (schedule, one game, ratings); this module runs the games
in this process and draws the tables. `summarise` folds the per-game results of any runner.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Optional

import typer

from ludex import run_options
from ludex.simulation import wilson


def summarise(bots: list[str], results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Statistics of a tournament from `search.tournament.play_game` results.

    Returns `{"bots": {bot: {games, wins, draws, losses, unfinished, rate, ci95: [low, high],
    mean_score, seconds_per_decision}}, "pairings": [{a, b, games, a_wins, draws, b_wins}],
    "ratings": {bot: Bradley-Terry rating, Elo scale}}`. A win is a game the bot won (alone or
    shared with the other bot's seats counting as its opponent's); a game whose winners include
    seats of both bots counts as a draw. `mean_score` is the mean of its seats' numeric scores,
    or the team score in a team game (None when no game scored)."""
    from search.tournament import bradley_terry

    per: dict[str, dict[str, Any]] = {b: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "unfinished": 0, "scores": [], "think": [0.0, 0]} for b in bots}
    pairs: dict[tuple[str, str], dict[str, int]] = {}
    beat: dict[tuple[str, str], float] = {}
    for r in results:
        lineup, outcome = r["lineup"], r["outcome"]
        a, b = sorted(set(lineup), key=bots.index)
        pair = pairs.setdefault((a, b), {"games": 0, "a_wins": 0, "draws": 0, "b_wins": 0})
        pair["games"] += 1
        for name, (secs, n) in r["think"].items():
            per[name]["think"][0] += secs
            per[name]["think"][1] += n
        for name in (a, b):
            per[name]["games"] += 1
            if outcome is not None:
                per[name]["scores"] += _scores(outcome, [s for s, x in enumerate(lineup) if x == name])
        if outcome is None:
            per[a]["unfinished"] += 1
            per[b]["unfinished"] += 1
            continue
        won = {lineup[s] for s in outcome.get("winners", []) if s < len(lineup)} if outcome["kind"] not in ("draw", "team") else set()
        if len(won) == 1:
            (w,) = won
            loser = b if w == a else a
            per[w]["wins"] += 1
            per[loser]["losses"] += 1
            pair["a_wins" if w == a else "b_wins"] += 1
            beat[(w, loser)] = beat.get((w, loser), 0.0) + 1
        else:
            per[a]["draws"] += 1
            per[b]["draws"] += 1
            pair["draws"] += 1
            beat[(a, b)] = beat.get((a, b), 0.0) + 0.5
            beat[(b, a)] = beat.get((b, a), 0.0) + 0.5
    out_bots = {}
    for name, p in per.items():
        scores, (secs, n) = p.pop("scores"), p.pop("think")
        out_bots[name] = {**p, "rate": p["wins"] / p["games"] if p["games"] else 0.0, "ci95": list(wilson(p["wins"], p["games"])),
                          "mean_score": sum(scores) / len(scores) if scores else None,
                          "seconds_per_decision": secs / n if n else None}
    return {"bots": out_bots, "pairings": [{"a": a, "b": b, **v} for (a, b), v in pairs.items()],
            "ratings": bradley_terry(bots, beat)}


def _scores(outcome: dict[str, Any], seats: list[int]) -> list[float]:
    scores = outcome.get("scores") or {}
    if outcome["kind"] == "team":
        team = scores.get("team")
        return [float(team)] if isinstance(team, (int, float)) else []
    got = [scores.get(str(s)) for s in seats]
    return [float(v) for v in got if isinstance(v, (int, float)) and not isinstance(v, bool)]


def run(configs: list[dict[str, Any]], on_game: Callable[[], None] | None = None, workers: int = 1,
        ray: str | None = None) -> list[dict[str, Any]]:
    """Play every game of `configs` on the simulation's runners (`ludex.simulation.map_games`:
    `workers` local processes, or Ray at `ray`); results in the order they finish (each game is
    seeded by its config, so the statistics do not depend on where it ran)."""
    from functools import partial

    from ludex.simulation import map_games
    from ludex.simulation.local import each
    from search.tournament import play_game

    return map_games(partial(each, play_game), configs, workers, ray, on_result=(lambda _r: on_game()) if on_game else None)


def register(app: typer.Typer) -> None:
    """Add `ludex tournament` to the CLI."""
    from ludex.designer_commands import OptionOpt, RulesetArg, SeatsOpt, VariantOpt

    @app.command("tournament", cls=run_options.RayCommand)
    def tournament_cmd(
        ruleset: str = RulesetArg,
        bots: str = typer.Option(..., "--bots", help="comma-separated bots: random, greedy, mcts, ismcts, policy, policy:NAME"),
        games: int = typer.Option(20, "--games", "-n", min=1, help="games per pairing (seats rotated)"),
        seconds: float = typer.Option(0.2, "--seconds", min=0.001, help="mcts, ismcts: thinking time per move, in seconds"),
        iterations: Optional[int] = typer.Option(None, "--iterations", min=1,
                                                 help="mcts, ismcts: exactly this many iterations per move (reproducible)"),
        rollout: Optional[str] = typer.Option(None, "--rollout", help="ismcts: play the playouts with the ruleset's policy NAME"),
        seed: int = typer.Option(0, "--seed", help="seed of the whole tournament"),
        variant: list[str] = VariantOpt,
        seats: int = SeatsOpt,
        option: list[str] = OptionOpt,
        max_plies: int = typer.Option(5000, "--max-plies", min=1, help="cut a game after this many moves"),
        as_json: bool = typer.Option(False, "--json", help="print the results as JSON"),
        workers: Optional[int] = run_options.WorkersOpt,
        ray: Optional[str] = run_options.RayOpt,
    ) -> None:
        """Round robin between bots, seats rotated: win rates with 95% intervals, Bradley-Terry ratings."""
        from rich.console import Console
        from rich.progress import Progress
        from rich.table import Table

        from dsl.diagnostics import names_hint
        from ludex.cli import fail
        from ludex.designer_commands import _load, parse_options, seat_count
        from search.bots import BOTS
        from search.tournament import schedule

        rs = _load(ruleset, variant)
        names = [b.strip() for b in bots.split(",") if b.strip()]
        for name in names:
            if name not in BOTS and not name.startswith("policy:"):
                fail(f"there is no bot {name!r}", names_hint(name, list(BOTS) + ["policy:NAME"], "bots"))
            if name.startswith("policy") or (name == "ismcts" and rollout):
                try:
                    rs.policy(name.partition(":")[2] or None if name.startswith("policy") else rollout)
                except ValueError as exc:
                    fail(str(exc), "declare one: `policy NAME { MOVE when COND ... }` (docs/language.md, Policies)")
        if len(names) < 2 or len(set(names)) < len(names):
            fail(f"--bots {bots}: a tournament needs two different bots or more", "e.g. --bots policy,random")
        configs = schedule(ruleset, names, games, seed, seat_count(rs, seats), tuple(variant), parse_options(rs, option),
                           seconds, iterations, rollout, max_plies)
        n_workers = run_options.worker_count(workers, ray)
        if as_json:
            print(json.dumps(summarise(names, run(configs, workers=n_workers, ray=ray)), indent=2))
            return
        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task(f"tournament on {rs.name}", total=len(configs))
            stats = summarise(names, run(configs, on_game=lambda: progress.advance(task), workers=n_workers, ray=ray))
        t = Table(title=f"{rs.name}: {games} games per pairing, seats rotated (95% Wilson intervals)")
        for col in ("bot", "games", "W", "D", "L", "win rate", "95% CI", "score", "BT", "s/move"):
            t.add_column(col)
        for name, b in sorted(stats["bots"].items(), key=lambda kv: -stats["ratings"][kv[0]]):
            t.add_row(name, str(b["games"]), str(b["wins"]), str(b["draws"]), str(b["losses"]), f"{b['rate']:.3f}",
                      f"{b['ci95'][0]:.2f}-{b['ci95'][1]:.2f}", "-" if b["mean_score"] is None else f"{b['mean_score']:.2f}",
                      f"{stats['ratings'][name]:+.0f}", "-" if b["seconds_per_decision"] is None else f"{b['seconds_per_decision']:.3f}")
        Console().print(t)
        typer.echo("W/D/L: wins, draws (or no single winner), losses; BT: Bradley-Terry rating, Elo scale; s/move: thinking time")
