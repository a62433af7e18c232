"""The per-call floor of each face's server machinery, without Ludex: an echo of 300 bytes.

Each face's server runs in its own process and answers every call with the same 300 bytes:
uvicorn with a bare ASGI app (what the HTTP face's front door stands on), grpcio's synchronous
server with a thread pool (the gRPC face), and grpc.aio on an event loop. The client offers
calls at a fixed rate (open loop, as openloop.py) and the server's CPU and context switches per
call are read from /proc. What a face costs per call here it costs per call in `ludex serve`
too, before any Ludex work: the gap between the faces' floors bounds how close gRPC's CPU per
move can come to HTTP's (bench/service/README.md, "gRPC floor").

    python -m bench.service.grpc_floor --rate 1000 --seconds 4 --rounds 2

Not part of the test suite; run it under `flock /work/bench.lock` on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Awaitable, Callable

from bench.service.load import _cpu_seconds, percentile
from bench.service.openloop import Connection
from tests.service.service_harness import free_port

FACES = ("http", "grpc", "grpc-aio")
PAYLOAD = b'{"x":"' + b"x" * 292 + b'"}'  # 300 bytes, JSON for the HTTP client
METHOD = "/floor.Echo/Echo"


def _context_switches(pid: int) -> int:
    """Voluntary plus involuntary context switches of all of a process's threads so far."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for line in (task / "status").read_text().splitlines():
            if "ctxt_switches:" in line:
                total += int(line.split()[1])
    return total


def serve(face: str, port: int) -> None:
    """Answer every call with PAYLOAD until killed; prints "ready" once listening."""
    import grpc

    handler = grpc.method_handlers_generic_handler("floor.Echo", {
        "Echo": grpc.unary_unary_rpc_method_handler(
            (lambda request, context: PAYLOAD) if face == "grpc" else _aio_echo)})
    options = [("grpc.so_reuseport", 0)]
    if face == "grpc":
        server = grpc.server(ThreadPoolExecutor(max_workers=1000), options=options)
        server.add_generic_rpc_handlers((handler,))
        server.add_insecure_port(f"127.0.0.1:{port}")
        server.start()
        print("ready", flush=True)
        server.wait_for_termination()
    elif face == "grpc-aio":
        async def main() -> None:
            server = grpc.aio.server(options=options)
            server.add_generic_rpc_handlers((handler,))
            server.add_insecure_port(f"127.0.0.1:{port}")
            await server.start()
            print("ready", flush=True)
            await server.wait_for_termination()
        asyncio.run(main())
    else:
        import uvicorn

        async def app(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                return
            await receive()
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-length", str(len(PAYLOAD)).encode()), (b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": PAYLOAD})

        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
        server = uvicorn.Server(config)
        asyncio.run(_serve_http(server))


async def _serve_http(server: Any) -> None:
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    print("ready", flush=True)
    await task


async def _aio_echo(request: bytes, context: Any) -> bytes:
    return PAYLOAD


async def _caller(face: str, port: int) -> Callable[[], Awaitable[None]]:
    if face == "http":
        idle: asyncio.Queue[Connection] = asyncio.Queue()
        for _ in range(64):
            idle.put_nowait(Connection("127.0.0.1", port))

        async def call() -> None:
            conn = await idle.get()
            try:
                await conn.request("POST", "/echo", {"x": "hello" * 20})
            finally:
                idle.put_nowait(conn)
        return call
    import grpc

    stub = grpc.aio.insecure_channel(f"127.0.0.1:{port}").unary_unary(METHOD)

    async def grpc_call() -> None:
        await stub(b"hello" * 20)
    return grpc_call


async def offer(face: str, port: int, rate: float, seconds: float) -> list[float]:
    """Calls at `rate` per second for `seconds`; their latencies in ms (from their due time)."""
    call = await _caller(face, port)
    await call()
    latencies: list[float] = []

    async def one(due: float) -> None:
        await call()
        latencies.append((time.perf_counter() - due) * 1000)

    tasks = []
    start = time.perf_counter()
    for i in range(int(rate * seconds)):
        due = start + i / rate
        if (delay := due - time.perf_counter()) > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(due)))
    await asyncio.gather(*tasks)
    return latencies


def measure(face: str, rate: float, seconds: float) -> dict[str, float]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "bench.service.grpc_floor", "--serve", face, str(port)],
                              stdout=subprocess.PIPE, cwd=Path(__file__).resolve().parents[2])
    try:
        if server.stdout is None or server.stdout.readline().strip() != b"ready":  # not `assert`: -O skips it
            raise RuntimeError(f"the {face} echo server did not start (exit code {server.poll()})")
        asyncio.run(offer(face, port, 50, 1))  # warm up: connections, threads
        cpu, switches, client = _cpu_seconds(server.pid), _context_switches(server.pid), time.process_time()
        latencies = asyncio.run(offer(face, port, rate, seconds))
        n = len(latencies)
        return {"server_us": (_cpu_seconds(server.pid) - cpu) / n * 1e6,
                "switches": (_context_switches(server.pid) - switches) / n,
                "client_us": (time.process_time() - client) / n * 1e6,
                "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99)}
    finally:
        server.kill()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=1000, help="offered calls/s")
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds over the faces")
    parser.add_argument("--faces", nargs="+", choices=FACES, default=list(FACES))
    parser.add_argument("--serve", nargs=2, metavar=("FACE", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return
    for _ in range(args.rounds):
        for face in args.faces:
            r = measure(face, args.rate, args.seconds)
            print(f"{face:9s} {args.rate:.0f} calls/s: server CPU {r['server_us']:4.0f} us/call, "
                  f"{r['switches']:4.1f} context switches/call, client CPU {r['client_us']:4.0f} us/call, "
                  f"latency p50 {r['p50']:.2f} ms p99 {r['p99']:.2f} ms (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
