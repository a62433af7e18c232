"""Games as Ray tasks (`ludex simulate --ray [ADDRESS]`, `pip install 'ludex[ray]'`).

Ray does the distribution: the task and the compiled rules are put in Ray's object store
once, each batch of games is one Ray task (one CPU each), and results stream back with
`ray.wait` as tasks finish. Games are seeded from the run's seed and their numbers alone, so a
cluster plays exactly the games a local run plays.

ADDRESS: `local` starts a Ray on this machine for the run (and stops it after); `auto` joins
the cluster this machine belongs to (`ray start --head` on one machine, `ray start
--address=HEAD:6379` on the others, with Ludex installed on every one); any other address is
given to `ray.init` as it is (`ray://HEAD:10001` for Ray Client). A Ray already started in this
process (`ray.init(...)` by the caller) is used as it is.

Source: Ray Core's tasks and `ray.wait` (docs.ray.io, "Ray Core: Tasks", "Pattern: Using
ray.wait to limit the number of pending tasks").
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ludex.simulation.local import Task, batches
from ludex.simulation.spec import prime, primed


class RayMissing(RuntimeError):
    """Ray is not installed (`pip install 'ludex[ray]'`)."""


@contextlib.contextmanager
def ray_session(address: str | None) -> Iterator[None]:
    """Ray connected for the `with` block: started (`local`) or joined (any other address) when
    this process has no Ray yet, and shut down after; a Ray already running in this process
    is used as it is; `None` does nothing (a local run). Raises RayMissing without Ray,
    ConnectionError when no cluster answers at `address`."""
    if address is None:
        yield
        return
    try:
        import ray
    except ImportError:
        raise RayMissing("Ray is not installed: pip install 'ludex[ray]'") from None
    if ray.is_initialized():
        yield
        return
    try:
        ray.init(address=None if address == "local" else address, include_dashboard=False,
                 logging_level=logging.WARNING, log_to_driver=False)
    except ConnectionError:
        raise
    except Exception as exc:  # Ray reports an unreachable cluster in several ways
        raise ConnectionError(f"no Ray cluster at {address!r}: {exc}") from exc
    try:
        yield
    finally:
        ray.shutdown()


def run_ray(task: Task, items: Sequence[Any], address: str = "local", on_result: Callable[[Any], None] | None = None,
            rules: Sequence[Any] = ()) -> list[Any]:
    """Run `task` (a picklable function of a batch of items, as for `run_local`) over `items`
    as Ray tasks on the cluster at `address` (module docstring); returns the results in the
    order they finished, calling `on_result` for each as it arrives. `rules` (compiled) are put
    in Ray's object store once and given to each worker process the first time it needs them.
    Raises RayMissing without Ray, ConnectionError when no cluster answers at `address`."""
    with ray_session(address):
        import ray

        remote = ray.remote(num_cpus=1)(_primed)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task_ref = ray.put(task)
        refs = [[ray.put(rs)] for rs in rules]  # each in a list: fetched only by a worker without it
        pending = [remote.remote(task_ref, [tuple(rs.sources) for rs in rules], refs, b) for b in batches(items, cpus)]
        results: list[Any] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for r in ray.get(done[0]):
                results.append(r)
                if on_result is not None:
                    on_result(r)
        return results


def _primed(task: Task, sources: list[tuple[Any, ...]], rules: list[list[Any]], batch: list[Any]) -> list[Any]:
    """`task(batch)` in a Ray worker, given the compiled rules the first time it needs them."""
    for src, box in zip(sources, rules):
        if not primed(tuple(tuple(s) for s in src)):
            import ray

            prime(ray.get(box[0]))
    return task(batch)
