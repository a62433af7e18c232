"""The gRPC contract, checked against a running service: reflection (v1 and v1alpha) serves
exactly the repository's .proto, comments included, with a comment on every RPC, message and
field; errors are google.rpc.Status with ErrorInfo details; seat 0 and `terminal: false` are
present, not dropped."""

from __future__ import annotations

import json
import random
from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha import reflection_pb2
from grpc_status import rpc_status
from grpc_tools import protoc
from service_harness import ROOT, grpc_auth, grpc_stub, play_grpc

PROTO = "api/proto/ludex/v1/ludex.proto"
PACKAGES = ("grpc.reflection.v1", "grpc.reflection.v1alpha")


@pytest.fixture
def grpc_service(serve_sqlite):
    pb2, stub, channel = grpc_stub(serve_sqlite.grpc_target)
    yield pb2, stub, channel
    channel.close()


def _reflect(channel, package: str, **request) -> reflection_pb2.ServerReflectionResponse:
    call = channel.stream_stream(
        f"/{package}.ServerReflection/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    return next(iter(call(iter([reflection_pb2.ServerReflectionRequest(**request)]), timeout=10)))


def _repository_proto(tmp_path: Path) -> descriptor_pb2.FileDescriptorProto:
    out = tmp_path / "ludex.desc"
    include = Path(protoc.__file__).parent / "_proto"
    assert protoc.main(["protoc", f"-I{ROOT}", f"-I{include}", "--include_source_info",
                        f"--descriptor_set_out={out}", str(ROOT / PROTO)]) == 0
    return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file[0]


@pytest.mark.parametrize("package", PACKAGES)
def test_reflection_serves_the_repository_proto_with_its_comments(grpc_service, package, tmp_path):
    _, _, channel = grpc_service
    listed = {s.name for s in _reflect(channel, package, list_services="").list_services_response.service}
    assert {"ludex.v1.Ludex", "grpc.health.v1.Health", *(f"{p}.ServerReflection" for p in PACKAGES)} <= listed
    served = _reflect(channel, package, file_containing_symbol="ludex.v1.Ludex")
    files = [descriptor_pb2.FileDescriptorProto.FromString(raw)
             for raw in served.file_descriptor_response.file_descriptor_proto]
    assert files[0] == _repository_proto(tmp_path), "the running service does not serve the repository's .proto"


def test_every_rpc_message_and_field_has_a_comment(tmp_path):
    proto = _repository_proto(tmp_path)
    commented = {tuple(loc.path) for loc in proto.source_code_info.location if loc.leading_comments.strip()}
    missing = [f"rpc {m.name}" for i, m in enumerate(proto.service[0].method) if (6, 0, 2, i) not in commented]
    for i, message in enumerate(proto.message_type):
        if (4, i) not in commented:
            missing.append(f"message {message.name}")
        missing += [f"{message.name}.{f.name}" for j, f in enumerate(message.field) if (4, i, 2, j) not in commented]
    assert (6, 0) in commented and not missing, missing


def test_errors_are_google_rpc_status_with_error_info(grpc_service):
    pb2, stub, _ = grpc_service
    with pytest.raises(grpc.RpcError) as missing:
        stub.GetView(pb2.GetViewRequest(game_id="0" * 32))
    status = rpc_status.from_call(missing.value)
    assert status is not None and status.code == grpc.StatusCode.NOT_FOUND.value[0]
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert (info.reason, info.domain) == ("game_not_found", "ludex.v1")

    game = stub.CreateGame(pb2.CreateGameRequest(ruleset="balloon_cup", seed="example"))
    legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game.game_id), metadata=grpc_auth(game.tokens[0]))
    with pytest.raises(grpc.RpcError) as stale:
        stub.SubmitMove(pb2.SubmitMoveRequest(game_id=game.game_id, move=legal.moves[0], expected_version=3),
                        metadata=grpc_auth(game.tokens[0]))
    assert stale.value.code() == grpc.StatusCode.ABORTED
    status = rpc_status.from_call(stale.value)
    assert status.details[0].Unpack(info) and info.reason == "stale_version"
    assert json.loads(info.metadata["current_version"]) == legal.version


def test_zero_values_that_mean_something_are_present(grpc_service):
    pb2, stub, _ = grpc_service
    game = stub.CreateGame(pb2.CreateGameRequest(ruleset="balloon_cup", seed="example"))
    legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game.game_id), metadata=grpc_auth(game.tokens[0]))
    assert legal.HasField("seat") and legal.seat == 0
    view = stub.GetView(pb2.GetViewRequest(game_id=game.game_id), metadata=grpc_auth(game.tokens[0]))
    assert view.HasField("seat") and view.seat == 0
    assert view.HasField("terminal") and view.terminal is False
    page = stub.ListEvents(pb2.ListEventsRequest(game_id=game.game_id))
    assert page.HasField("finished") and not page.finished


def test_decisions_outcomes_receipts_are_typed_and_documents_are_structs(grpc_service):
    pb2, stub, _ = grpc_service
    game = stub.CreateGame(pb2.CreateGameRequest(ruleset="balloon_cup", seed="example"))
    auth = grpc_auth(game.tokens[0])
    view = stub.GetView(pb2.GetViewRequest(game_id=game.game_id), metadata=auth)
    assert list(view.decision.seats) == [0] and view.decision.step and not view.HasField("outcome")
    assert view.view["zones"]["hand[0]"]["count"] == 8.0
    assert json.loads(view.view_json)["zones"]["hand[0]"]["count"] == 8  # exact integers in the JSON twin
    legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game.game_id), metadata=auth)
    done = stub.SubmitMove(pb2.SubmitMoveRequest(game_id=game.game_id, move=legal.moves[0],
                                                 expected_version=legal.version), metadata=auth)
    assert list(done.decision.seats) == [1]
    assert done.receipt.game_id == game.game_id and done.receipt.sealed and done.receipt.signature
    assert done.receipt == stub.GetReceipt(pb2.GetReceiptRequest(game_id=game.game_id)).receipt
    assert done.events[0].body["move"] == legal.moves[0].name


def test_a_finished_game_has_a_typed_outcome(grpc_service):
    pb2, stub, _ = grpc_service
    game = stub.CreateGame(pb2.CreateGameRequest(ruleset="hanabi", seats=2, seed="typed"))
    play_grpc(pb2, stub, game.game_id, list(game.tokens), random.Random(3))
    view = stub.GetView(pb2.GetViewRequest(game_id=game.game_id))
    outcome = json.loads(view.outcome_json)
    assert view.HasField("outcome") and view.outcome.kind == outcome["kind"] and view.outcome.reason == outcome["reason"]
    assert list(view.outcome.winners) == outcome["winners"]
    assert {k: int(v) for k, v in view.outcome.scores.items()} == outcome["scores"]
    assert view.decision.terminal and not view.decision.seats
