"""The gRPC face against a real server: health, reflection, status codes and typed errors."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from service_harness import grpc_auth, grpc_error, grpc_stub

RULESET = "balloon_cup"


@pytest.fixture
def rpc(server):
    pb2, stub, channel = grpc_stub(server.grpc_target)
    yield pb2, stub, channel
    channel.close()


def _fails(call, code: grpc.StatusCode, error_code: str) -> dict:
    with pytest.raises(grpc.RpcError) as info:
        call()
    assert info.value.code() == code, info.value.details()
    assert "ludex-error-bin" not in dict(info.value.trailing_metadata() or ())  # only google.rpc.Status
    body = grpc_error(info.value)
    assert body["code"] == error_code, body
    return body


def test_health_and_reflection(rpc):
    _, _, channel = rpc
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "ludex.v1.Ludex"):
        assert health.Check(health_pb2.HealthCheckRequest(service=service)).status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    replies = reflection.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
    names = {s.name for s in next(replies).list_services_response.service}
    assert {"ludex.v1.Ludex", "grpc.health.v1.Health"} <= names


def test_status_codes_and_typed_errors(rpc):
    pb2, stub, _ = rpc
    _fails(lambda: stub.GetView(pb2.GetViewRequest(game_id="nope")), grpc.StatusCode.NOT_FOUND, "game_not_found")
    unknown = _fails(lambda: stub.CreateGame(pb2.CreateGameRequest(ruleset="nope")), grpc.StatusCode.NOT_FOUND,
                     "ruleset_not_found")
    assert RULESET in [v.text for v in unknown["details"].values["known"].list.items]
    _fails(lambda: stub.CreateGame(pb2.CreateGameRequest(ruleset=RULESET, options={"nope": pb2.Value(number=1)})),
           grpc.StatusCode.INVALID_ARGUMENT, "bad_options")
    game = stub.CreateGame(pb2.CreateGameRequest(ruleset=RULESET))
    view = stub.GetView(pb2.GetViewRequest(game_id=game.game_id))
    assert not view.HasField("seat")
    seat = view.decision.seats[0]
    other = 1 - seat
    legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game.game_id), metadata=grpc_auth(game.tokens[seat]))
    move = legal.moves[0]

    def submit(token, version=legal.version, m=move, **kw):
        return lambda: stub.SubmitMove(
            pb2.SubmitMoveRequest(game_id=game.game_id, move=m, expected_version=version, **kw),
            metadata=grpc_auth(token) if token else None,
        )

    _fails(submit(None), grpc.StatusCode.UNAUTHENTICATED, "token_required")
    _fails(submit("forged"), grpc.StatusCode.UNAUTHENTICATED, "bad_token")
    basic = (("authorization", f"Basic {game.tokens[seat]}"),)  # a valid token, in the wrong scheme
    _fails(lambda: stub.SubmitMove(pb2.SubmitMoveRequest(game_id=game.game_id, move=move, expected_version=legal.version),
                                   metadata=basic), grpc.StatusCode.UNAUTHENTICATED, "bad_token")
    _fails(submit(game.tokens[other]), grpc.StatusCode.PERMISSION_DENIED, "not_your_turn")
    _fails(submit(game.tokens[seat], seat=other), grpc.StatusCode.PERMISSION_DENIED, "wrong_seat")
    stale = _fails(submit(game.tokens[seat], version=legal.version - 1), grpc.StatusCode.ABORTED, "stale_version")
    assert int(stale["current_version"]) == legal.version
    illegal = _fails(submit(game.tokens[seat], m=pb2.Move(name="no_such_move")),
                     grpc.StatusCode.FAILED_PRECONDITION, "illegal_move")
    assert illegal["reason"]
    assert stub.ListEvents(pb2.ListEventsRequest(game_id=game.game_id)).version == legal.version

    done = stub.SubmitMove(pb2.SubmitMoveRequest(game_id=game.game_id, move=move, expected_version=legal.version),
                           metadata=grpc_auth(game.tokens[seat]))
    assert done.version > legal.version and done.events[0].kind == "move"
    assert done.events[0].hash == ""  # hashes are published only once the game is over
    replay = stub.Replay(pb2.ReplayRequest(game_id=game.game_id, at=done.version))
    assert replay.view == stub.GetView(pb2.GetViewRequest(game_id=game.game_id)).view
    report = stub.Audit(pb2.AuditRequest(game_id=game.game_id))
    assert report.ok and "seed_commitment" in report.skipped


def test_move_args_round_trip_every_json_type(rpc):
    from api.grpc.messages import move_to_dict, move_to_pb

    move = {"name": "claim", "args": {"t": "tile1", "n": 3, "trade": {"yellow": 1}, "flag": True, "none": None}}
    assert move_to_dict(move_to_pb(move)) == move


def test_a_listing_made_from_cached_move_bytes_is_the_message_itself(rpc):
    from api.grpc.messages import legal_moves_to_bytes, move_to_pb

    pb2 = rpc[0]
    moves = [{"name": "play", "args": {"n": 1}}, {"name": "play", "args": {"n": True}},
             {"name": "play", "args": {"n": "1"}}, {"name": "trade", "args": {"cubes": [1, {"red": 2}], "x": None}},
             {"name": "pass", "args": {}}, {"name": "big", "args": {"n": -(2**63)}}]
    listing = {"game_id": "g", "version": 7, "seat": 0, "moves": moves}
    for _ in range(2):  # the second time from the cache: 1, True and "1" stay apart
        sent = pb2.GetLegalMovesResponse.FromString(legal_moves_to_bytes(listing))
        assert sent == pb2.GetLegalMovesResponse(game_id="g", version=7, seat=0, moves=[move_to_pb(m) for m in moves])
        assert sent.HasField("seat")
