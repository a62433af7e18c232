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
from typing import Any

import orjson

from bench.service.load import _cpu_seconds, percentile, temporary_server


class Connection:
    """One keep-alive HTTP/1.1 connection that speaks just what this benchmark needs (JSON
    bodies with Content-Length). A general client (httpx) costs the load generator several
    times the server's CPU per request, which on a small machine measures the client."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        """`(status, decoded JSON body)`; reconnects once if the server closed the connection."""
        data = b"" if body is None else orjson.dumps(body)
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        message = head.encode() + b"\r\n" + data
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            assert self.reader is not None
            try:
                self.writer.write(message)
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed by the server")
                length = 0
                while (line := await self.reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                payload = await self.reader.readexactly(length)
                return int(status_line.split()[1]), orjson.loads(payload) if payload else None
            except (ConnectionError, asyncio.IncompleteReadError):
                self.writer.close()
                self.writer = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


class HttpFace:
    """The moves of the benchmark over HTTP, one `Connection` per game."""

    def __init__(self, base_url: str) -> None:
        host, port = base_url.removeprefix("http://").rsplit(":", 1)
        self.host, self.port = host, int(port)

    async def new_game(self, ruleset: str, conn: Connection | None = None) -> dict:
        conn = conn or Connection(self.host, self.port)
        status, game = await conn.request("POST", "/games", {"ruleset": ruleset})
        assert status == 201, game
        game["conn"] = conn
        game["decision"] = await self.decision(game)
        return game

    async def decision(self, game: dict) -> dict:
        return (await game["conn"].request("GET", f"/games/{game['game_id']}/view"))[1]["decision"]

    async def legal_moves(self, game: dict, token: str) -> tuple[list, int]:
        _, legal = await game["conn"].request("GET", f"/games/{game['game_id']}/legal-moves", token=token)
        return legal["moves"], legal["version"]

    async def submit(self, game: dict, token: str, move: Any, version: int) -> dict:
        status, answer = await game["conn"].request(
            "POST", f"/games/{game['game_id']}/moves", {"move": move, "expected_version": version}, token)
        if status != 200:
            raise RuntimeError(answer)
        return answer["decision"]


class GrpcFace:
    """The same moves over gRPC (one channel per client process)."""

    def __init__(self, target: str) -> None:
        import grpc

        from api.grpc.codegen import load

        self.grpc = grpc
        self.pb2, pb2_grpc = load()
        self.stub = pb2_grpc.LudexStub(grpc.aio.insecure_channel(target))

    async def new_game(self, ruleset: str, conn: Any = None) -> dict:
        created = await self.stub.CreateGame(self.pb2.CreateGameRequest(ruleset=ruleset))
        game = {"game_id": created.game_id, "tokens": list(created.tokens)}
        game["decision"] = await self.decision(game)
        return game

    async def decision(self, game: dict) -> dict:
        view = await self.stub.GetView(self.pb2.GetViewRequest(game_id=game["game_id"]))
        return _decision(view.decision)

    async def legal_moves(self, game: dict, token: str) -> tuple[list, int]:
        legal = await self.stub.GetLegalMoves(self.pb2.GetLegalMovesRequest(game_id=game["game_id"]),
                                              metadata=[("authorization", f"Bearer {token}")])
        return list(legal.moves), legal.version

    async def submit(self, game: dict, token: str, move: Any, version: int) -> dict:
        try:
            answer = await self.stub.SubmitMove(
                self.pb2.SubmitMoveRequest(game_id=game["game_id"], move=move, expected_version=version),
                metadata=[("authorization", f"Bearer {token}")])
        except self.grpc.RpcError as exc:
            raise RuntimeError(str(exc)) from exc
        return _decision(answer.decision)


def _decision(decision: Any) -> dict:
    return {"seats": list(decision.seats), "terminal": decision.terminal}


async def _client(target: str, face_name: str, ruleset: str, rate: float, seconds: float, games: int,
                  seed: int) -> dict:
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"legal-moves": [], "moves": []}
    errors = 0
    face: HttpFace | GrpcFace = HttpFace(target) if face_name == "http" else GrpcFace(target)
    pool: asyncio.Queue[dict] = asyncio.Queue()
    for g in await asyncio.gather(*(face.new_game(ruleset) for _ in range(games))):
        pool.put_nowait(g)

    async def one_move(due: float) -> None:
        nonlocal errors
        game = await pool.get()
        try:
            token = game["tokens"][rng.choice(game["decision"]["seats"])]
            moves, version = await face.legal_moves(game, token)
            times["legal-moves"].append(time.perf_counter() - due)
            sent = time.perf_counter()
            decision = await face.submit(game, token, rng.choice(moves), version)
            times["moves"].append(time.perf_counter() - sent)
            game["decision"] = decision
        except (ConnectionError, RuntimeError):  # counted, and the game re-read
            errors += 1
            game["decision"] = await face.decision(game)
        try:
            if game["decision"]["terminal"]:
                game = await face.new_game(ruleset, game.get("conn"))
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
    return {"times": times, "errors": errors, "moves": len(tasks), "elapsed": elapsed,
            "cpu": time.process_time()}


def _worker(job: tuple) -> dict:
    return asyncio.run(_client(*job))


def run_rate(target: str, face: str, pid: int, ruleset: str, rate: float, seconds: float, procs: int,
             games: int) -> dict:
    """One rate: `procs` processes each offering rate/procs moves/s for `seconds`."""
    jobs = [(target, face, ruleset, rate / procs, seconds, games, 1000 * i + int(rate)) for i in range(procs)]
    cpu0 = _cpu_seconds(pid)
    with multiprocessing.get_context("spawn").Pool(procs) as p:
        parts = p.map(_worker, jobs)
    cpu = _cpu_seconds(pid) - cpu0
    moves = sum(x["moves"] for x in parts)
    result = {"rate": rate, "moves": moves, "errors": sum(x["errors"] for x in parts),
              "achieved": moves / max(x["elapsed"] for x in parts), "server_cpu_ms_per_move": cpu / moves * 1000,
              "client_cpu_ms_per_move": sum(x["cpu"] for x in parts) / moves * 1000}
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
    parser.add_argument("--face", choices=["http", "grpc"], default="http")
    parser.add_argument("--procs", type=int, default=2, help="client processes sharing the schedule")
    parser.add_argument("--games", type=int, default=40, help="games in play per client process")
    args = parser.parse_args()
    with temporary_server(args.db) as (server, label):
        for rate in args.rates:
            target = server.http if args.face == "http" else server.grpc_target
            r = run_rate(target, args.face, server.proc.pid, args.ruleset, rate, args.seconds, args.procs, args.games)
            print(f"{label} {args.face} open loop {rate:.0f} moves/s offered, {r['achieved']:.0f} achieved, {r['moves']} moves, "
                  f"{r['errors']} errors, CPU per move: server {r['server_cpu_ms_per_move']:.2f} ms, "
                  f"load generator {r['client_cpu_ms_per_move']:.2f} ms")
            for endpoint in ("legal-moves", "moves"):
                q = r[f"latency {endpoint}"]
                print(f"  {endpoint:12s} p50 {q['p50']:7.1f} ms  p99 {q['p99']:7.1f} ms  p999 {q['p999']:7.1f} ms")


if __name__ == "__main__":
    main()
