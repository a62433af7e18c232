"""Games on this machine's cores: one process, or a pool of worker processes.

Games go out in small batches and their rows come back as each batch finishes (`on_row` is
called in this process, e.g. to advance a progress bar or write a run file). Every game is
seeded from the run's seed and its number alone, so the rows are the same for any number of
workers; only their arrival order differs.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from ludex.simulation.play import play_batch
from ludex.simulation.spec import RunSpec, prime


def cores() -> int:
    """The CPUs this process may use (the default `--workers`)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def batches(games: Sequence[Any], workers: int, most: int = 32) -> Iterator[list[Any]]:
    """`games` (game numbers, or any work items) in consecutive batches: about eight per worker, so that the last batches even
    out the workers' loads, and at most `most` games each, so rows stream back steadily."""
    size = max(1, min(most, len(games) // (workers * 8) or 1))
    for k in range(0, len(games), size):
        yield list(games[k:k + size])


def run_local(spec: RunSpec, games: Sequence[Any], workers: int = 1, on_row: Callable[[Any], None] | None = None,
              task: Callable[[RunSpec, list[Any]], list[Any]] = play_batch) -> list[Any]:
    """Play `games` (game numbers) of `spec` on `workers` processes (1: in this process) and
    return their rows, in the order they finished. `task(spec, batch)` does a batch (default
    `play_batch`; any picklable function of a batch of work items works, e.g. writing logs). Errors in
    a worker are raised here."""
    rows: list[Any] = []

    def take(batch_rows: list[Any]) -> None:
        for row in batch_rows:
            rows.append(row)
            if on_row is not None:
                on_row(row)

    if workers <= 1 or len(games) <= 1:
        for batch in batches(games, 1, most=1):
            take(task(spec, batch))
        return rows
    with ProcessPoolExecutor(max_workers=min(workers, len(games)), mp_context=_context(),
                             initializer=prime, initargs=(spec.ruleset(),)) as pool:
        pending = {pool.submit(task, spec, b) for b in batches(games, workers)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                take(f.result())
    return rows


def _context() -> Any:
    """How to start workers: fork, when this process runs no other thread (the workers then
    start at once, with the engine imported); else forkserver, since forking a process with
    threads can leave a lock held forever in the child."""
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["ludex.simulation.play", "runtime", "search.bots"])
    return ctx
