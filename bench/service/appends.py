"""Event-store append throughput: W concurrent writers, each appending to its own game, one
move's worth of events per transaction (optimistic concurrency on the stream version, hash
chain, commit), straight on `api.store.EventStore` (no HTTP, no rules).

    python -m bench.service.appends --db postgresql+psycopg://postgres@127.0.0.1:5432/test --writers 50
    python -m bench.service.appends --db ... --writers 50 --procs 4   # the writers over 4 processes
    python -m bench.service.appends --writers 1                       # SQLite, one writer

The writers are threads of one process unless `--procs` spreads them over several (each with
its own store and connection pool), which shows how far one interpreter's GIL limits them.
Prints events/s, appends/s and the writers' CPU time per append (the client side: Python,
psycopg, hashing; the database server's own CPU is not in it). Not part of the test suite;
run it under `flock /work/bench.lock` on a shared machine.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import threading
import time
import uuid
from typing import Any

from api.store import EventStore
from bench.service.load import temporary_db

EVENT = {"seat": 0, "move": "place", "args": {"card": "red-7", "tile": 2, "side": 0}}


def writer(store: EventStore, seconds: float, per_append: int, counts: list[int], i: int,
           start: threading.Barrier) -> None:
    game_id = uuid.uuid4().hex
    stored = store.create_game(game_id, [("header", {"game_id": game_id})], seed="s", token_hashes=["x"])
    version, prev = stored[-1].version, stored[-1].hash
    start.wait()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        new = store.append(game_id, version, [("move", EVENT)] * per_append, prev_hash=prev)
        version, prev = new[-1].version, new[-1].hash
        counts[i] += per_append


def run_writers(url: str, writers: int, seconds: float, per_append: int, ready: Any = None) -> tuple[int, float]:
    """Run `writers` threads on one store; returns (events appended, CPU seconds of this
    process while they ran). `ready`, a multiprocessing barrier, lines several processes up."""
    store = EventStore(url, create=False)
    counts = [0] * writers
    barrier = threading.Barrier(writers + 1)
    threads = [threading.Thread(target=writer, args=(store, seconds, per_append, counts, i, barrier))
               for i in range(writers)]
    for t in threads:
        t.start()
    barrier.wait()
    if ready is not None:
        ready.wait()
    cpu = time.process_time()
    for t in threads:
        t.join()
    cpu = time.process_time() - cpu
    store.dispose()
    return sum(counts), cpu


def _process(url: str, writers: int, seconds: float, per_append: int, ready: Any, results: Any) -> None:
    results.put(run_writers(url, writers, seconds, per_append, ready))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, help="PostgreSQL URL (default: a temporary SQLite file)")
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--procs", type=int, default=1, help="processes the writers are spread over")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--events-per-append", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with temporary_db(args.db) as (url, label):
        EventStore(url).dispose()  # the schema, once
        if args.procs == 1:
            t0 = time.perf_counter()
            total, cpu = run_writers(url, args.writers, args.seconds, args.events_per_append)
            elapsed = time.perf_counter() - t0
        else:
            ctx = mp.get_context("spawn")
            ready, results = ctx.Barrier(args.procs + 1), ctx.Queue()
            shares = [args.writers // args.procs + (k < args.writers % args.procs) for k in range(args.procs)]
            procs = [ctx.Process(target=_process, args=(url, n, args.seconds, args.events_per_append, ready, results))
                     for n in shares]
            for p in procs:
                p.start()
            ready.wait()
            t0 = time.perf_counter()
            done = [results.get() for _ in procs]
            elapsed = time.perf_counter() - t0
            for p in procs:
                p.join()
            total, cpu = sum(n for n, _ in done), sum(c for _, c in done)
    appends = total / args.events_per_append
    print(f"{label}: {args.writers} writers in {args.procs} process(es), {args.events_per_append} event(s) per "
          f"append: {total} events in {elapsed:.1f}s = {total / elapsed:.0f} events/s ({appends / elapsed:.0f} "
          f"appends/s), writers' CPU {cpu / max(appends, 1) * 1e3:.2f} ms per append, load average {load:.1f}")


if __name__ == "__main__":
    main()
