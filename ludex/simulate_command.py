"""The body of `ludex simulate` (declared in `ludex/designer_commands.py`): checks its options,
plays the games with a progress bar, and prints the report, the JSON or the plot."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from ludex.cli import fail
from ludex.run_options import check_bot, worker_count


@contextlib.contextmanager
def run_errors() -> Iterator[None]:
    """Bad run folders, a missing Ray and an unreachable cluster as command errors (exit 2)."""
    from ludex.simulation.ray_runner import RayMissing
    from ludex.simulation.runfile import RunFileError

    try:
        yield
    except RunFileError as exc:
        fail(str(exc))
    except RayMissing as exc:
        fail(str(exc), "or play on this machine's cores with --workers")
    except ConnectionError as exc:
        fail(str(exc), "start one with `ray start --head`, or give --ray alone for a local Ray")


def run_simulate(rs: Any, seats: int, opts: dict[str, Any], *, games: int, seed: int, max_plies: int, as_json: bool,
                 save: Path | None, bot: str, seconds: float, iterations: int | None, plot: Path | None,
                 workers: int | None, ray: str | None, out: Path | None, resume: bool, rollout: str | None = None) -> None:
    """Run `ludex simulate` with checked rules, options and seats (see its help)."""
    from ludex.simulation import simulate
    from ludex.simulation.report import games_progress, print_stats, ticker

    check_bot(bot, rs, rollout)
    n_workers = worker_count(workers, ray)
    if save is not None and save.exists() and not save.is_dir():
        fail(f"--save {save}: not a folder", "give a folder for the game logs (it is created if missing)")
    if out is not None and out.exists() and not out.is_dir():
        fail(f"--out {out}: not a folder", "give a folder for the run (it is created if missing)")
    if resume and out is None:
        fail("--resume needs --out DIR", "give the folder of the run to extend")
    with run_errors(), games_progress(Console(stderr=True)) as progress:
        task = progress.add_task(f"{rs.name} ({bot})", total=games)
        stats = simulate(rs, seats, opts, games, seed, max_plies, on_game=ticker(progress, task), save=save,
                         bot=bot, seconds=seconds, iterations=iterations, workers=n_workers, ray=ray, out=out,
                         resume=resume, rollout=rollout)
    if as_json:
        print(json.dumps(stats, indent=2))
    else:
        print_stats(stats)
    if plot is not None:
        draw(stats, plot)
        typer.echo(f"plot written to {plot}", err=True)
    if save is not None:
        typer.echo(f"saved {games} game logs in {save}/ (ludex replay {save}/game-0001.jsonl --final)", err=True)
    if out is not None:
        typer.echo(f"the run is in {out}/ ({stats['games_played']} games played now; ludex replay {out} --game 0)", err=True)


def draw(data: dict[str, Any], path: Path, kind: str = "stats") -> None:
    """Plot `data` (a simulation's statistics, or with `kind="comparison"` a comparison) to
    `path`; an unwritable path stops the command."""
    from ludex.plot import plot_comparison, plot_stats

    try:
        (plot_stats if kind == "stats" else plot_comparison)(data, path)
    except OSError as exc:
        fail(f"cannot write the plot to {path}: {exc.strerror or exc}", "give a writable FILE.png")
