"""`ludex compare`: does a variant (or another rule file) change the game, and by how much?

The base ruleset and each variant (or each other rule file) play the same number of games
with the same bots and the same seeds; every metric of `ludex simulate` is compared with its
difference, a 95% interval, a test and the games needed to detect a change of `--effect`
(`ludex.simulation.compare`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from ludex import run_options
from ludex.cli import fail


def register(app: typer.Typer) -> None:
    @app.command("compare", cls=run_options.RayCommand)
    def compare_cmd(
        rulesets: list[str] = typer.Argument(
            ..., help="the base ruleset (bundled name, folder or .ludex file), then any other rule files to compare with it"
        ),
        variant: list[str] = typer.Option(
            [], "--variant", "-v", help="a variant of the base to compare with it, on its own (repeatable: one comparison each)"
        ),
        seats: Optional[int] = typer.Option(None, "--seats", help="number of seats (default: the fewest every ruleset allows)"),
        option: list[str] = typer.Option([], "--option", "-o", help="K=V rule option for every ruleset (repeatable)"),
        games: int = run_options.GamesOpt,
        seed: int = run_options.SeedOpt,
        max_plies: int = run_options.MaxPliesOpt,
        bot: str = run_options.BotOpt,
        seconds: float = run_options.SecondsOpt,
        iterations: Optional[int] = run_options.IterationsOpt,
        workers: Optional[int] = run_options.WorkersOpt,
        ray: Optional[str] = run_options.RayOpt,
        effect: float = typer.Option(
            0.05, "--effect", min=0.001, max=1.0,
            help="the smallest change worth detecting, for the games-needed column: in a rate, absolute (0.05 = 5 points); "
                 "in a mean, relative to the base (0.05 = 5%)",
        ),
        as_json: bool = typer.Option(False, "--json", help="print the comparison as JSON"),
        plot: Optional[Path] = typer.Option(None, "--plot", help="draw every difference with its 95% interval to FILE.png"),
    ) -> None:
        """Compare a ruleset with its variants (-v) or with other rule files: the same bots and
        seeds for each, every metric's difference with a 95% interval and a test, and the games
        needed to detect a change of --effect."""
        from ludex.designer_commands import _load, new_game, parse_options
        from ludex.run_options import check_bot, worker_count
        from ludex.simulate_command import draw, run_errors
        from ludex.simulation.compare import compare_runs
        from ludex.simulation.report import games_progress, print_comparison, ticker

        if len(rulesets) == 1 and not variant:
            fail("nothing to compare the ruleset with", "give a variant (-v NAME) or a second rule file")
        base = _load(rulesets[0], [])
        arms = [(_label(rulesets[0], []), base)]
        arms += [(_label(rulesets[0], [v]), _load(rulesets[0], [v])) for v in variant]
        arms += [(_label(r, []), _load(r, [])) for r in rulesets[1:]]
        check_bot(bot)
        n_workers = worker_count(workers, ray)
        low = max(rs.seats[0] for _, rs in arms)
        high = min(rs.seats[1] for _, rs in arms)
        n_seats = seats if seats is not None else low
        if not low <= n_seats <= high:
            fail(f"the rulesets compared are all played by {low} to {high} seats, not {n_seats}" if low <= high
                 else "the rulesets compared have no number of seats in common", f"use --seats {low}" if low <= high else "")
        opts = parse_options(base, option)
        for _, rs in arms:
            new_game(rs, n_seats, opts, seed="check")
        with run_errors(), games_progress(Console(stderr=True)) as progress:
            ticks = {label: ticker(progress, progress.add_task(label, total=games)) for label, _ in arms}
            result = compare_runs(arms, n_seats, opts, games, seed, max_plies, bot, seconds, iterations, n_workers, ray,
                                  effect, on_game=lambda label: ticks[label]())
        if as_json:
            print(json.dumps(result, indent=2))
        else:
            print_comparison(result)
        if plot is not None:
            draw(result, plot, kind="comparison")
            typer.echo(f"plot written to {plot}", err=True)


def _label(ruleset: str, variants: list[str]) -> str:
    """How a compared ruleset is named in the report: `NAME`, `NAME -v VARIANT`, or a file's path."""
    return ruleset + "".join(f" -v {v}" for v in variants)

