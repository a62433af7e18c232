"""Open-loop latency benchmark for the HTTP service: moves arrive at a fixed rate, whether or
not earlier ones have been answered, and each endpoint's p50/p99/p999 is reported.

A closed loop (load.py) slows its clients down when the server slows, which hides queueing;
here move i is due at `start + i / rate`, and the legal-moves latency is measured from that
due time (so time spent waiting for a free game or a late client counts too: no coordinated
omission). Each due move takes an idle game from a pool, asks its legal moves, submits one and
returns the game to the pool (a finished game is replaced by a new one). The schedule is split
over `--procs` client processes.

    python -m bench.service.openloop --rates 200 500           # SQLite, 20 s per rate
    python -m bench.service.openloop --db postgresql+psycopg://postgres@127.0.0.1:5432/test

Not part of the test suite; run it under `flock /work/bench.lock` on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import time

import httpx

from bench.service.load import _cpu_seconds, percentile, temporary_server


async def _new_game(client: httpx.AsyncClient, ruleset: str) -> dict:
    r = await client.post("/games", json={"ruleset": ruleset})
    r.raise_for_status()
    game = r.json()
    game["decision"] = (await client.get(f"/games/{game['game_id']}/view")).json()["decision"]
    return game


async def _client(base_url: str, ruleset: str, rate: float, seconds: float, games: int, seed: int) -> dict:
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"legal-moves": [], "moves": []}
    errors = 0
    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as client:
        pool: asyncio.Queue[dict] = asyncio.Queue()
        for g in await asyncio.gather(*(_new_game(client, ruleset) for _ in range(games))):
            pool.put_nowait(g)

        async def one_move(due: float) -> None:
            nonlocal errors
            game = await pool.get()
            try:
                seat = rng.choice(game["decision"]["seats"])
                auth = {"Authorization": f"Bearer {game['tokens'][seat]}"}
                legal = (await client.get(f"/games/{game['game_id']}/legal-moves", headers=auth)).json()
                times["legal-moves"].append(time.perf_counter() - due)
                sent = time.perf_counter()
                r = await client.post(f"/games/{game['game_id']}/moves", headers=auth,
                                      json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
                times["moves"].append(time.perf_counter() - sent)
                if r.status_code != 200:
                    raise RuntimeError(r.text)
                game["decision"] = r.json()["decision"]
            except (httpx.TransportError, RuntimeError):  # counted, and the game re-read
                errors += 1
                game["decision"] = (await client.get(f"/games/{game['game_id']}/view")).json()["decision"]
            try:
                if game["decision"]["terminal"]:
                    game = await _new_game(client, ruleset)
            finally:
                pool.put_nowait(game)

        tasks = []
        start = time.perf_counter()
        for i in range(int(rate * seconds)):
            due = start + i / rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one_move(due)))
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - start
    return {"times": times, "errors": errors, "moves": len(tasks), "elapsed": elapsed}


def _worker(job: tuple) -> dict:
    return asyncio.run(_client(*job))


def run_rate(base_url: str, pid: int, ruleset: str, rate: float, seconds: float, procs: int, games: int) -> dict:
    """One rate: `procs` processes each offering rate/procs moves/s for `seconds`."""
    jobs = [(base_url, ruleset, rate / procs, seconds, games, 1000 * i + int(rate)) for i in range(procs)]
    cpu0 = _cpu_seconds(pid)
    with multiprocessing.get_context("spawn").Pool(procs) as p:
        parts = p.map(_worker, jobs)
    cpu = _cpu_seconds(pid) - cpu0
    moves = sum(x["moves"] for x in parts)
    result = {"rate": rate, "moves": moves, "errors": sum(x["errors"] for x in parts),
              "achieved": moves / max(x["elapsed"] for x in parts), "server_cpu_ms_per_move": cpu / moves * 1000}
    for endpoint in ("legal-moves", "moves"):
        ms = [t * 1000 for x in parts for t in x["times"][endpoint]]
        result[f"latency {endpoint}"] = {q: percentile(ms, v) for q, v in (("p50", 0.5), ("p99", 0.99), ("p999", 0.999))}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, help="PostgreSQL URL (default: a temporary SQLite file)")
    parser.add_argument("--rates", type=float, nargs="+", default=[200, 500], help="offered moves/s")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each rate's schedule")
    parser.add_argument("--ruleset", default="balloon_cup")
    parser.add_argument("--procs", type=int, default=2, help="client processes sharing the schedule")
    parser.add_argument("--games", type=int, default=40, help="games in play per client process")
    args = parser.parse_args()
    with temporary_server(args.db) as (server, label):
        for rate in args.rates:
            r = run_rate(server.http, server.proc.pid, args.ruleset, rate, args.seconds, args.procs, args.games)
            print(f"{label} open loop {rate:.0f} moves/s offered, {r['achieved']:.0f} achieved, {r['moves']} moves, "
                  f"{r['errors']} errors, server CPU {r['server_cpu_ms_per_move']:.2f} ms/move")
            for endpoint in ("legal-moves", "moves"):
                q = r[f"latency {endpoint}"]
                print(f"  {endpoint:12s} p50 {q['p50']:7.1f} ms  p99 {q['p99']:7.1f} ms  p999 {q['p999']:7.1f} ms")


if __name__ == "__main__":
    main()
