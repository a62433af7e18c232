"""gRPC `StreamEvents` against a real server: the events a seat follows over gRPC are the ones
its SSE stream carries (same versions, kinds and redacted bodies), resuming after a version
works, a bad game or token is a typed status before any message, and streams a client gives up
leave the server serving (each open stream holds a server thread: api/grpc/server.py)."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import grpc
import httpx
import pytest
from service_harness import bearer, create_http_game, grpc_auth, grpc_error, grpc_stub, play_http

from api.grpc.messages import entry_from_pb
from api.grpc.server import MAX_WORKERS


@pytest.fixture
def rpc(server):
    pb2, stub, channel = grpc_stub(server.grpc_target)
    yield pb2, stub
    channel.close()


def _comparable(entry: dict[str, Any]) -> tuple:
    """`(version, kind, body)` of a streamed entry; a field that is absent, None or empty reads
    the same (a message has no "absent" for a map or a repeated field)."""
    body = {k: v for k, v in entry["body"].items() if v is not None and v != {} and v != []}
    return entry["version"], entry["kind"], json.dumps(body, sort_keys=True)


def test_a_seat_follows_the_same_events_over_grpc_as_over_sse(server, client, rpc):
    pb2, stub = rpc
    game = create_http_game(client, "balloon_cup")
    token = game["tokens"][0]
    over_grpc: list[dict] = []
    over_sse: list[dict] = []

    def follow_grpc():
        for event in stub.StreamEvents(pb2.StreamEventsRequest(game_id=game["game_id"]), metadata=grpc_auth(token)):
            over_grpc.append(entry_from_pb(event))

    def follow_sse():
        with httpx.Client(base_url=server.http, timeout=60) as c:
            with c.stream("GET", f"/games/{game['game_id']}/stream", headers=bearer(token)) as r:
                for line in r.iter_lines():
                    if line.startswith("data:"):
                        over_sse.append(json.loads(line[5:]))

    followers = [threading.Thread(target=follow_grpc), threading.Thread(target=follow_sse)]
    for f in followers:
        f.start()
    play_http(client, game["game_id"], game["tokens"], random.Random("grpc-stream"))
    for f in followers:
        f.join(30)
        assert not f.is_alive(), "a stream did not end with the game"
    assert over_grpc[-1]["kind"] == "reveal"
    assert [_comparable(e) for e in over_grpc] == [_comparable(e) for e in over_sse]


def test_a_stream_resumes_after_a_version_and_refuses_bad_games_and_tokens(server, client, rpc):
    pb2, stub = rpc
    game = create_http_game(client, "balloon_cup")
    with pytest.raises(AssertionError, match="did not end"):  # six moves, and the game goes on
        play_http(client, game["game_id"], game["tokens"], random.Random("resume"), max_moves=6)
    listed = client.get(f"/games/{game['game_id']}/events", headers=bearer(game["tokens"][1])).json()
    last = listed["version"]

    # A stream of a running game never ends by itself: read what is there, then cancel it.
    stream = stub.StreamEvents(pb2.StreamEventsRequest(game_id=game["game_id"], after=last - 2),
                               metadata=grpc_auth(game["tokens"][1]))
    resumed = [entry_from_pb(next(stream)) for _ in range(2)]
    stream.cancel()
    assert [_comparable(e) for e in resumed] == [_comparable(e) for e in listed["events"][-2:]]

    for request, metadata, code, error in (
        (pb2.StreamEventsRequest(game_id="nope"), (), grpc.StatusCode.NOT_FOUND, "game_not_found"),
        (pb2.StreamEventsRequest(game_id=game["game_id"]), grpc_auth("forged"), grpc.StatusCode.UNAUTHENTICATED,
         "bad_token"),
    ):
        with pytest.raises(grpc.RpcError) as info:
            next(stub.StreamEvents(request, metadata=metadata))
        assert info.value.code() == code
        assert grpc_error(info.value)["code"] == error


def test_streams_a_client_gives_up_leave_the_server_serving(client, rpc):
    pb2, stub = rpc
    game = create_http_game(client, "balloon_cup")
    # Each stream reads the game's last event, then waits for the next (its server thread too).
    request = pb2.StreamEventsRequest(game_id=game["game_id"], after=game["version"] - 1)
    # More streams, one batch after another, than the server has threads: each cancelled stream
    # must give its thread back, or the later ones (and the call after them) would wait forever.
    for _ in range(2):
        streams = [stub.StreamEvents(request, timeout=60) for _ in range(MAX_WORKERS // 2 + 10)]
        for stream in streams:
            assert next(stream).version == game["version"]
        for stream in streams:
            stream.cancel()
    view = stub.GetView(pb2.GetViewRequest(game_id=game["game_id"]), timeout=20)
    assert view.version == game["version"]
