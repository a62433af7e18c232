"""Playouts with statistics (`ludex simulate`, `ludex compare`, bench/).

The parts, in the order a run uses them:

- `spec`: what a run plays (`RunSpec`: the rule text, seats, options, bot, seed);
- `play`: one seeded game played by bots, as a row of facts (`play_game`, `play_batch`);
- `local` and `ray_runner`: the runners, on this machine's cores or as Ray tasks;
- `runfile`: a run kept in a folder (`--out`), extended (`--resume`) and replayed;
- `save`: each game's full log (`--save`);
- `metrics` and `intervals`: the statistics, with 95% intervals;
- `compare`: two runs side by side, with tests and the games needed (power).

Game i of a run is seeded from the run's seed and i alone (`RunSpec.game_seed`), so the same
seed gives the same games, and the same statistics, on any number of workers or on Ray.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from dsl import Ruleset
from ludex.simulation.intervals import quantiles, wilson
from ludex.simulation.metrics import RUN_KEYS, outcome_key, seat_label, summarise
from ludex.simulation.spec import RunSpec

__all__ = ["RUN_KEYS", "RunSpec", "map_games", "outcome_key", "quantiles", "run_games", "seat_label", "simulate", "simulate_rows",
           "wilson"]


def map_games(task: Callable[[list[Any]], list[Any]], items: list[Any], workers: int = 1, ray: str | None = None,
              on_result: Callable[[Any], None] | None = None, rules: list[Ruleset] | tuple[Ruleset, ...] = ()) -> list[Any]:
    """Run `task` (a picklable function of a batch of items) over `items` on `workers` local
    processes, or on Ray at the address `ray` (`local`, `auto`, or a cluster's; see
    `ludex.simulation.ray_runner`). Returns the results in the order they finished;
    `on_result` sees each as it arrives. `rules` are compiled rules the workers are given once
    rather than compile. With `functools.partial(ludex.simulation.local.each, fn)` as the task,
    `fn` is called on each item (a tournament's games, say)."""
    if ray is not None:
        from ludex.simulation.ray_runner import run_ray

        return run_ray(task, items, ray, on_result, rules)
    from ludex.simulation.local import run_local

    return run_local(task, items, workers, on_result, rules)


def run_games(spec: RunSpec, games: list[int], workers: int = 1, ray: str | None = None,
              on_row: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Play `games` (game numbers) of `spec` with `map_games`; returns the rows in the order
    they finished (`ludex.simulation.play`)."""
    from ludex.simulation.play import play_batch

    return map_games(partial(play_batch, spec), games, workers, ray, on_row, (spec.ruleset(),))


def simulate(rs: Ruleset, seats: int | None, options: dict[str, Any], games: int, seed: int, max_plies: int,
             on_game: Callable[[], None] | None = None, save: Path | None = None, bot: str = "random",
             seconds: float = 0.2, iterations: int | None = None, workers: int = 1, ray: str | None = None,
             out: Path | None = None, resume: bool = False, rollout: str | None = None) -> dict[str, Any]:
    """The statistics of a run: `simulate_rows`'s first half (see there)."""
    return simulate_rows(rs, seats, options, games, seed, max_plies, on_game, save, bot, seconds, iterations,
                         workers, ray, out, resume, rollout)[0]


def simulate_rows(rs: Ruleset, seats: int | None, options: dict[str, Any], games: int, seed: int, max_plies: int,
                  on_game: Callable[[], None] | None = None, save: Path | None = None, bot: str = "random",
                  seconds: float = 0.2, iterations: int | None = None, workers: int = 1, ray: str | None = None,
                  out: Path | None = None, resume: bool = False,
                  rollout: str | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play games 0 to `games`-1 of `rs` with `bot` at every seat (`seconds` of thinking per
    move for mcts, or exactly `iterations` iterations per move when given; `rollout` as
    `search.bots.make_bot` takes it) on `workers` processes or on Ray (`ray`: an address, see
    `map_games`). Returns `(stats, rows)`: a JSON-able dict of statistics
    (`ludex.simulation.metrics.summarise`) with the run's own figures (RUN_KEYS: `seconds` of
    playing alone, `playouts_per_s`, `plies_per_s`, `save_seconds`, `workers`, `runner`,
    `games_played`, fewer than `games` when resuming), and the games' rows sorted by game
    (`ludex.simulation.play`).

    With `out`, every game's row is appended to `out/games.jsonl` (`ludex.simulation.runfile`);
    with `resume` too, the games already there are kept and only the others are played. With
    `save`, each game's complete log is written to `save/game-NNNN.jsonl` after the games (not
    timed). `on_game()` is called as each game finishes. Raises RunFileError for a run folder
    that does not fit, ValueError for an unknown bot.
    """
    spec = RunSpec.of(rs, seats, options=dict(options), bot=bot, seed=seed, max_plies=max_plies, seconds=seconds,
                      iterations=iterations, rollout=rollout)
    kept: dict[int, dict[str, Any]] = {}
    writer = None
    if out is not None:
        from ludex.simulation.runfile import RowWriter, open_run

        kept = open_run(out, spec, resume)
        writer = RowWriter(out)
    todo = [i for i in range(games) if i not in kept]

    def arrived(row: dict[str, Any]) -> None:
        if writer is not None:
            writer(row)
        if on_game is not None:
            on_game()

    if on_game is not None:
        for _ in range(games - len(todo)):
            on_game()
    from ludex.simulation.ray_runner import ray_session

    try:
        with ray_session(ray):  # a cluster's start is not the games' time
            t0 = time.perf_counter()
            played = run_games(spec, todo, workers, ray, arrived)
            dt = time.perf_counter() - t0
    finally:
        if writer is not None:
            writer.close()
    rows = [kept[i] for i in range(games) if i in kept] + played
    stats = summarise(rows, rs, spec.seats, bot)
    new_plies = sum(r["plies"] for r in played)
    stats.update(seconds=dt, playouts_per_s=len(played) / dt if dt else 0.0, plies_per_s=new_plies / dt if dt else 0.0,
                 workers=max(1, workers) if ray is None else None, runner="ray" if ray is not None else "local",
                 games_played=len(played), save_seconds=None)
    if save is not None:
        from ludex.simulation.save import save_logs

        t1 = time.perf_counter()
        save_logs(spec, rows, save, workers if ray is None else _cores())
        stats["save_seconds"] = time.perf_counter() - t1
    return stats, sorted(rows, key=lambda r: r["game"])


def _cores() -> int:
    from ludex.simulation.local import cores

    return cores()
