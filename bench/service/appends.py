"""Event-store append throughput: W concurrent writers, each appending to its own game, one
move's worth of events per transaction (optimistic concurrency on the stream version, hash
chain, commit), straight on `api.store.EventStore` (no HTTP, no rules).

    python -m bench.service.appends --db postgresql+psycopg://postgres@127.0.0.1:5432/test --writers 50
    python -m bench.service.appends --writers 1                  # SQLite, one writer

Not part of the test suite; run it under `flock /work/bench.lock` on a shared machine.
"""

from __future__ import annotations

import argparse
import threading
import time
import uuid

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, help="PostgreSQL URL (default: a temporary SQLite file)")
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--events-per-append", type=int, default=1)
    args = parser.parse_args()
    with temporary_db(args.db) as (url, label):
        store = EventStore(url)
        counts = [0] * args.writers
        barrier = threading.Barrier(args.writers + 1)
        threads = [threading.Thread(target=writer, args=(store, args.seconds, args.events_per_append, counts, i, barrier))
                   for i in range(args.writers)]
        for t in threads:
            t.start()
        barrier.wait()
        t0 = time.perf_counter()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
        store.engine.dispose()
    total = sum(counts)
    print(f"{label}: {args.writers} writers, {args.events_per_append} event(s) per append: {total} events in "
          f"{elapsed:.1f}s = {total / elapsed:.0f} events/s ({total / args.events_per_append / elapsed:.0f} appends/s)")


if __name__ == "__main__":
    main()
