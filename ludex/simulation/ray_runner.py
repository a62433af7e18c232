"""Games as Ray tasks (`ludex simulate --ray [ADDRESS]`, `pip install 'ludex[ray]'`).

Ray does the distribution: the run's spec is put in Ray's object store once, each batch of
games is one task (`ray.remote` over `play_batch`, one CPU each), and rows stream back with
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

from ludex.simulation.local import batches
from ludex.simulation.play import play_batch
from ludex.simulation.spec import RunSpec, prime, primed


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


def run_ray(spec: RunSpec, games: Sequence[int], address: str = "local",
            on_row: Callable[[dict[str, Any]], None] | None = None,
            task: Callable[[RunSpec, list[int]], list[Any]] = play_batch) -> list[Any]:
    """Play `games` of `spec` as Ray tasks on the cluster at `address` (module docstring) and
    return their rows in the order they finished, calling `on_row` for each as it arrives.
    Raises RayMissing without Ray, ConnectionError when no cluster answers at `address`."""
    with ray_session(address):
        import ray

        remote = ray.remote(num_cpus=1)(_primed)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        spec_ref, rules = ray.put(spec), [ray.put(spec.ruleset())]  # in a list: fetched only by a worker without it
        pending = [remote.remote(task, spec_ref, rules, b) for b in batches(games, cpus)]
        rows: list[Any] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for row in ray.get(done[0]):
                rows.append(row)
                if on_row is not None:
                    on_row(row)
        return rows


def _primed(task: Callable[[RunSpec, list[Any]], list[Any]], spec: RunSpec, rules: list[Any], batch: list[Any]) -> list[Any]:
    """`task(spec, batch)` in a Ray worker, given the compiled rules the first time it runs one."""
    if not primed(spec.sources):
        import ray

        prime(ray.get(rules[0]))
    return task(spec, batch)
