"""Bounded load generator for the HTTP service, on loopback only.

Starts `ludex serve` on a fresh store (a temporary SQLite file, or a throwaway schema in the
PostgreSQL database given by --db), then runs N concurrent clients, each playing whole games
with random legal moves (legal-moves -> move; the move's answer says who acts next), until a total move budget or a time
budget runs out. Prints moves/s and p50/p99 latency of legal-move queries and move
submissions.

    python -m bench.service.load                          # SQLite
    python -m bench.service.load --db postgresql+psycopg://postgres@127.0.0.1:5432/test

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Iterator

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.service.service_harness import Server  # noqa: E402


def _cpu_seconds(pid: int) -> float:
    """User+system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class Budget:
    def __init__(self, moves: int, seconds: float) -> None:
        self.moves_left = moves
        self.deadline = time.monotonic() + seconds

    def take(self) -> bool:
        if self.moves_left <= 0 or time.monotonic() > self.deadline:
            return False
        self.moves_left -= 1
        return True


async def player(client: httpx.AsyncClient, ruleset: str, budget: Budget, rng: random.Random,
                 legal_ms: list[float], move_ms: list[float], stats: dict[str, int]) -> None:
    while True:
        r = await client.post("/games", json={"ruleset": ruleset})
        r.raise_for_status()
        game = r.json()
        gid, tokens = game["game_id"], game["tokens"]
        stats["games"] += 1
        decision = (await client.get(f"/games/{gid}/view")).json()["decision"]
        while True:
            if decision["terminal"]:
                stats["finished"] += 1
                break
            if not budget.take():
                return
            seat = rng.choice(decision["seats"])
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            t0 = time.perf_counter()
            legal = (await client.get(f"/games/{gid}/legal-moves", headers=auth)).json()
            legal_ms.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            r = await client.post(f"/games/{gid}/moves", headers=auth,
                                  json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
            move_ms.append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200:
                stats["errors"] += 1
                decision = (await client.get(f"/games/{gid}/view")).json()["decision"]
            else:
                stats["moves"] += 1
                decision = r.json()["decision"]


async def run_clients(base_url: str, first: int, clients: int, ruleset: str, max_moves: int,
                      max_seconds: float) -> dict:
    """One load-generator process: `clients` concurrent players sharing a move budget."""
    legal_ms: list[float] = []
    move_ms: list[float] = []
    stats = {"games": 0, "finished": 0, "moves": 0, "errors": 0}
    budget = Budget(max_moves, max_seconds)
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as client:
        await asyncio.gather(*(player(client, ruleset, budget, random.Random(first + i), legal_ms, move_ms, stats)
                               for i in range(clients)))
    return {**stats, "legal_ms": legal_ms, "move_ms": move_ms, "cpu": sum(os.times()[:2])}


def _worker(job: tuple) -> dict:
    return asyncio.run(run_clients(*job))


def run(base_url: str, clients: int, procs: int, ruleset: str, max_moves: int, max_seconds: float) -> dict:
    """Split the clients over `procs` processes (a Python client is slower than the server)."""
    shares = [clients // procs + (1 if i < clients % procs else 0) for i in range(procs)]
    budgets = [max_moves // procs + (1 if i < max_moves % procs else 0) for i in range(procs)]
    jobs = [(base_url, sum(shares[:i]), shares[i], ruleset, budgets[i], max_seconds) for i in range(procs)]
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        parts = pool.map(_worker, jobs)
    elapsed = time.perf_counter() - start
    totals = {k: sum(p[k] for p in parts) for k in ("games", "finished", "moves", "errors", "cpu")}
    legal_ms = [x for p in parts for x in p["legal_ms"]]
    move_ms = [x for p in parts for x in p["move_ms"]]
    return {
        **totals,
        "seconds": elapsed,
        "moves_per_s": totals["moves"] / elapsed,
        "legal_p50": percentile(legal_ms, 0.50), "legal_p99": percentile(legal_ms, 0.99),
        "move_p50": percentile(move_ms, 0.50), "move_p99": percentile(move_ms, 0.99),
        "move_mean": statistics.fmean(move_ms) if move_ms else float("nan"),
    }


@contextlib.contextmanager
def temporary_db(db: str | None) -> Iterator[tuple[str, str]]:
    """`(url, label)`: a temporary SQLite file (db None) or a throwaway schema of the
    PostgreSQL database `db`, dropped afterwards."""
    with tempfile.TemporaryDirectory() as tmp:
        if db is None:
            yield f"sqlite:///{Path(tmp) / 'bench.db'}", "sqlite"
            return
        import sqlalchemy as sa

        schema = f"ludex_bench_{uuid.uuid4().hex[:8]}"
        engine = sa.create_engine(db, poolclass=sa.NullPool)
        with engine.begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        sep = "&" if "?" in db else "?"
        try:
            yield f"{db}{sep}options=-csearch_path%3D{schema}", "postgresql"
        finally:
            with engine.begin() as conn:
                conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))


@contextlib.contextmanager
def temporary_server(db: str | None) -> Iterator[tuple[Server, str]]:
    """`(server, label)`: `ludex serve` over `temporary_db(db)`."""
    with temporary_db(db) as (db_url, label):
        server_log = Path(tempfile.gettempdir()) / f"ludex-bench-{label}.log"
        server_log.unlink(missing_ok=True)
        server = Server(db_url, server_log).start()
        try:
            yield server, label
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, help="PostgreSQL URL (default: a temporary SQLite file)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--ruleset", default="balloon_cup")
    parser.add_argument("--max-moves", type=int, default=5000)
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--procs", type=int, default=2, help="load-generator processes sharing the clients")
    args = parser.parse_args()

    with temporary_server(args.db) as (server, label):
        server_cpu = _cpu_seconds(server.proc.pid)
        result = run(server.http, args.clients, args.procs, args.ruleset, args.max_moves, args.max_seconds)
        result["server_cpu"] = _cpu_seconds(server.proc.pid) - server_cpu
    print(
        f"{label}: {args.clients} clients, {result['moves']} moves in {result['seconds']:.1f}s "
        f"({result['games']} games started, {result['finished']} finished, {result['errors']} errors)\n"
        f"  throughput: {result['moves_per_s']:.0f} moves/s\n"
        f"  legal-moves latency: p50 {result['legal_p50']:.1f} ms, p99 {result['legal_p99']:.1f} ms\n"
        f"  move submit latency: p50 {result['move_p50']:.1f} ms, p99 {result['move_p99']:.1f} ms\n"
        f"  CPU: server {result['server_cpu']:.1f}s ({result['server_cpu'] / max(result['moves'], 1) * 1000:.1f} ms/move),"
        f" load generator {result['cpu']:.1f}s in {args.procs} processes; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    main()
