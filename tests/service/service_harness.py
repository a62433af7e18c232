"""Helpers for end-to-end tests: real `ludex serve` processes on loopback, and random players."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `ludex serve` subprocess (HTTP + gRPC) on loopback ports."""

    def __init__(self, db_url: str, log_path: Path, extra_args: tuple[str, ...] = ()) -> None:
        self.db_url = db_url
        self.extra_args = extra_args
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.http_port = self.grpc_port = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def grpc_target(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    def start(self, timeout: float = 30.0) -> "Server":
        self.http_port, self.grpc_port = free_port(), free_port()
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "ludex.service_commands", "serve",
                "--db", self.db_url,
                "--http-port", str(self.http_port),
                "--grpc-port", str(self.grpc_port),
                *self.extra_args,
            ],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(self.http + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not come up: {self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers run."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def run_cli(*args: str, input_text: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run `python -m ludex.service_commands ARGS` and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "ludex.service_commands", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, input=input_text,
    )


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_http_game(client: httpx.Client, ruleset: str, seats: int | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"ruleset": ruleset, **extra}
    if seats is not None:
        body["seats"] = seats
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def play_http(
    client: httpx.Client, game_id: str, tokens: list[str], rng: random.Random, max_moves: int = 5000
) -> int:
    """Play random legal moves until the game ends, through `ludex.client` (the service's own
    client, so it cannot drift from the API); returns the number of moves made."""
    from ludex.client import Client

    ludex = Client(http=client)
    moves = 0
    while moves < max_moves:
        view = ludex.view(game_id)
        if view.terminal:
            return moves
        seat = rng.choice(view.decision.seats)
        legal = ludex.legal_moves(game_id, tokens[seat])
        assert legal.moves, f"seat {seat} must move but has no legal move: {view}"
        ludex.submit(game_id, tokens[seat], rng.choice(legal.moves), legal.version)
        moves += 1
    raise AssertionError(f"game {game_id} did not end within {max_moves} moves")


def play_service(service: Any, game: dict[str, Any], rng: random.Random, moves: int | None = None) -> Any:
    """Random legal moves through a `GameService` in-process until the game ends (or `moves`
    were made); returns the last move response (None if none was made)."""
    made, last = 0, None
    while moves is None or made < moves:
        view = service.view(game["game_id"], None)
        if view["terminal"]:
            break
        seat = rng.choice(view["decision"]["seats"])
        legal = service.legal_moves(game["game_id"], game["tokens"][seat])
        last = service.submit_move(game["game_id"], game["tokens"][seat], rng.choice(legal["moves"]), legal["version"])
        made += 1
    return last


def write_log(path: Path, entries: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return path


def grpc_stub(target: str):
    """`(pb2, stub, channel)` for a server's gRPC port."""
    import grpc

    from api.grpc.codegen import load

    pb2, pb2_grpc = load()
    channel = grpc.insecure_channel(target)
    return pb2, pb2_grpc.LudexStub(channel), channel


def grpc_auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def grpc_error(error: Any) -> dict[str, Any]:
    """The typed error of a failed call (`grpc.RpcError`), read from its google.rpc.Status
    details: `{code, message, ...}` with the ErrorInfo's metadata as sent (all text), and under
    `details` the `ludex.v1.ErrorDetails` when there is one (else None)."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    from api.grpc.codegen import load

    pb2, _ = load()
    status = rpc_status.from_call(error)
    assert status is not None, "the error carries no google.rpc.Status"
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info) and info.domain == "ludex.v1", status
    details = None
    if len(status.details) > 1:
        details = pb2.ErrorDetails()
        assert status.details[1].Unpack(details), status
    return {"code": info.reason, **info.metadata, "details": details}


def play_grpc(pb2: Any, stub: Any, game_id: str, tokens: list[str], rng: random.Random, max_moves: int = 5000) -> int:
    """Like play_http, over gRPC."""
    moves = 0
    while moves < max_moves:
        view = stub.GetView(pb2.GetViewRequest(game_id=game_id))
        if view.terminal:
            return moves
        seat = rng.choice(list(view.decision.seats))
        legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game_id), metadata=grpc_auth(tokens[seat]))
        assert legal.moves, f"seat {seat} must move but has no legal move"
        move = rng.choice(list(legal.moves))
        stub.SubmitMove(
            pb2.SubmitMoveRequest(game_id=game_id, move=move, expected_version=legal.version),
            metadata=grpc_auth(tokens[seat]),
        )
        moves += 1
    raise AssertionError(f"game {game_id} did not end within {max_moves} moves")


_ENGINES: dict[str, Any] = {}


def store_rows(server: Server) -> tuple:
    """Everything `server`'s store holds, row for row: (games rows, events rows). The engine
    (one connection, no pool) is kept per store for the test process."""
    import sqlalchemy as sa

    engine = _ENGINES.get(server.db_url)
    if engine is None:
        engine = _ENGINES[server.db_url] = sa.create_engine(server.db_url, poolclass=sa.StaticPool)
    with engine.connect() as conn:
        games = conn.execute(sa.text("SELECT * FROM ludex_games ORDER BY game_id")).all()
        events = conn.execute(sa.text("SELECT * FROM ludex_events ORDER BY game_id, version")).all()
        conn.rollback()  # end the read, so the next one sees new commits
    return games, events


def rehash(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute the chain after an edit, as a careful forger would (each record's prev_hash and
    hash, with the store's own `event_hash`)."""
    from api.store import event_hash

    out, prev = [], "0" * 64
    for e in entries:
        e = dict(e, prev_hash=prev)
        e["hash"] = prev = event_hash(e["game_id"], e["version"], e["kind"], e["body"], prev)
        out.append(e)
    return out
