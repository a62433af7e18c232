"""Work on this machine's cores: one process, or a pool of worker processes.

The runners know nothing of games: they map a picklable `task(batch) -> results` over work
items (game numbers, tournament configs, logs to write) cut into small batches, and hand
each result to `on_result` in this process as its batch finishes (to advance a progress bar
or write a run file). Every game is seeded from the run's seed and its own number, so the
results are the same for any number of workers; only their arrival order differs.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from dsl import Ruleset
from ludex.simulation.spec import prime

Task = Callable[[list[Any]], list[Any]]


def cores() -> int:
    """The CPUs this process may use (the default `--workers`)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def batches(items: Sequence[Any], workers: int, most: int = 32) -> Iterator[list[Any]]:
    """`items` in consecutive batches: about eight per worker, so that the last batches even
    out the workers' loads, and at most `most` items each, so results stream back steadily."""
    size = max(1, min(most, len(items) // (workers * 8) or 1))
    for k in range(0, len(items), size):
        yield list(items[k:k + size])


def each(fn: Callable[[Any], Any], batch: list[Any]) -> list[Any]:
    """`[fn(x) for x in batch]`: a task from a function of one item (`functools.partial(each, fn)`)."""
    return [fn(x) for x in batch]


def run_local(task: Task, items: Sequence[Any], workers: int = 1, on_result: Callable[[Any], None] | None = None,
              rules: Sequence[Ruleset] = ()) -> list[Any]:
    """Run `task` over `items` on `workers` processes (1: in this process) and return the
    results in the order they finished. `task` must be picklable (a module-level function,
    or a `functools.partial` of one); `rules` are compiled rules the workers are given once
    (`ludex.simulation.spec.prime`) instead of compiling them. Errors in a worker are raised
    here."""
    results: list[Any] = []

    def take(batch_results: list[Any]) -> None:
        for r in batch_results:
            results.append(r)
            if on_result is not None:
                on_result(r)

    if workers <= 1 or len(items) <= 1:
        for batch in batches(items, 1, most=1):
            take(task(batch))
        return results
    pool = ProcessPoolExecutor(max_workers=min(workers, len(items)), mp_context=_context(),
                               initializer=_prime_all, initargs=(tuple(rules),))
    try:
        pending = {pool.submit(task, b) for b in batches(items, workers)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                take(f.result())
    except BaseException:  # an error or Ctrl-C: stop now rather than finish every batch first
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def _prime_all(rules: tuple[Ruleset, ...]) -> None:
    for rs in rules:
        prime(rs)


def _context() -> Any:
    """How to start workers: fork, when this process runs no other thread (the workers then
    start at once, with the engine imported); else forkserver, since forking a process with
    threads can leave a lock held forever in the child."""
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["ludex.simulation.play", "runtime", "search.bots"])
    return ctx
