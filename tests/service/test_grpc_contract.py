"""The gRPC contract, checked against a running service: reflection (v1 and v1alpha) serves
exactly the repository's .proto, comments included, with a comment on every RPC, message and
field; errors are google.rpc.Status with ErrorInfo details; seat 0 and `terminal: false` are
present, not dropped."""

from __future__ import annotations

import random
from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha import reflection_pb2
from grpc_status import rpc_status
from grpc_tools import protoc
from service_harness import ROOT, grpc_auth, grpc_error, grpc_stub, play_grpc

from api.grpc.messages import outcome_from_pb, value_from_pb, values_from_pb
from dsl import bundled_rulesets

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
    assert int(info.metadata["current_version"]) == legal.version


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
    mine, theirs = view.view.zones["hand[0]"], view.view.zones["hand[1]"]
    assert (mine.count, mine.visible, len(mine.components)) == (8, True, 8) and view.view.seat == 0
    assert (theirs.count, theirs.visible, len(theirs.components)) == (8, False, 0)
    assert all(c.name and c.kind and c.fields["value"].WhichOneof("value") == "number" for c in mine.components)
    legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game.game_id), metadata=auth)
    done = stub.SubmitMove(pb2.SubmitMoveRequest(game_id=game.game_id, move=legal.moves[0],
                                                 expected_version=legal.version), metadata=auth)
    assert list(done.decision.seats) == [1]
    assert done.receipt.game_id == game.game_id and done.receipt.sealed and done.receipt.signature
    assert done.receipt == stub.GetReceipt(pb2.GetReceiptRequest(game_id=game.game_id)).receipt
    assert done.events[0].runtime.move == legal.moves[0].name
    assert done.events[0].runtime.args == legal.moves[0].args


def test_a_finished_game_has_a_typed_outcome(grpc_service, http):
    pb2, stub, _ = grpc_service
    game = stub.CreateGame(pb2.CreateGameRequest(ruleset="hanabi", seats=2, seed="typed"))
    play_grpc(pb2, stub, game.game_id, list(game.tokens), random.Random(3))
    view = stub.GetView(pb2.GetViewRequest(game_id=game.game_id))
    outcome = http.get(f"/games/{game.game_id}/view").json()["outcome"]
    assert view.HasField("outcome") and outcome_from_pb(view.outcome) == outcome
    assert view.view.outcome == view.outcome and view.view.terminal
    assert view.decision.terminal and not view.decision.seats


def test_no_message_carries_json_text():
    from api.grpc.codegen import load

    pb2, _ = load()

    def fields(message):
        for field in message.fields:
            yield f"{message.full_name}.{field.name}"
        for nested in message.nested_types:
            yield from fields(nested)

    every = [f for m in pb2.DESCRIPTOR.message_types_by_name.values() for f in fields(m)]
    assert every and not [f for f in every if f.endswith("_json") or f.endswith(".json")]


def test_rulesets_are_described_with_typed_options(grpc_service):
    pb2, stub, _ = grpc_service
    listed = {r.name: r for r in stub.ListRulesets(pb2.ListRulesetsRequest()).rulesets}
    options = {o.name: o for o in listed["battle_line"].options}
    games = options["match_games"]
    assert (games.type, games.default.number, games.range.min, games.range.max) == ("int", 1, 1, 9)
    assert games.doc and games.default.WhichOneof("value") == "number"
    tactics = options["tactics_cards"]
    assert tactics.type == "bool" and tactics.default.WhichOneof("value") == "flag" and tactics.default.flag
    assert not tactics.HasField("range")
    assert "no_tactics" in listed["battle_line"].variants and listed["battle_line"].ok
    assert not listed["battle_line"].diagnostics

    game = stub.CreateGame(pb2.CreateGameRequest(ruleset="battle_line", options={"match_games": pb2.Value(number=3)}))
    view = stub.GetView(pb2.GetViewRequest(game_id=game.game_id))
    assert view.view.options["match_games"].number == 3


def test_a_broken_ruleset_gets_typed_diagnostics_with_positions(grpc_service):
    pb2, stub, _ = grpc_service
    text = 'game broken "Broken"\nseats 2\nstep play "x" then end turn\nmove m() during play "m" { nope += 1 }\n'
    checked = stub.CheckRuleset(pb2.CheckRulesetRequest(text=text, filename="broken.ludex"))
    assert not checked.ok
    [only] = checked.diagnostics
    assert (only.severity, only.message, only.file, only.line, only.column) == (
        "error", "unknown name 'nope'", "broken.ludex", 4, 28)
    assert only.snippet.endswith("^")
    assert stub.CheckRuleset(pb2.CheckRulesetRequest(text=text.replace("nope += 1", ""))).ok


def test_an_illegal_move_is_a_status_with_the_rules_reason(grpc_service):
    pb2, stub, _ = grpc_service
    game = stub.CreateGame(pb2.CreateGameRequest(ruleset="balloon_cup", seed="example"))
    legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game.game_id), metadata=grpc_auth(game.tokens[0]))
    move = pb2.Move()
    move.CopyFrom(legal.moves[0])
    # a name no component has, in a text argument (a text in a number's place is a type error)
    move.args[next(k for k, v in move.args.items() if v.WhichOneof("value") == "text")].text = "no-such-component"
    with pytest.raises(grpc.RpcError) as refused:
        stub.SubmitMove(pb2.SubmitMoveRequest(game_id=game.game_id, move=move, expected_version=legal.version),
                        metadata=grpc_auth(game.tokens[0]))
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "ludex-error-bin" not in dict(refused.value.trailing_metadata() or ())
    error = grpc_error(refused.value)
    assert error["code"] == "illegal_move" and error["reason"] and error["message"]


def test_an_audit_of_a_finished_game_is_typed(grpc_service):
    pb2, stub, _ = grpc_service
    game = stub.CreateGame(pb2.CreateGameRequest(ruleset="hanabi", seats=2, seed="audited"))
    running = stub.Audit(pb2.AuditRequest(game_id=game.game_id))
    assert running.HasField("ok") and running.ok and not running.verified and not running.finished
    assert "seed_commitment" in running.skipped
    assert {c.name: c.status for c in running.checks}["seed_commitment"] == "skipped"
    play_grpc(pb2, stub, game.game_id, list(game.tokens), random.Random(5))
    report = stub.Audit(pb2.AuditRequest(game_id=game.game_id))
    events = stub.ListEvents(pb2.ListEventsRequest(game_id=game.game_id)).version
    assert report.ok and report.verified and report.finished and not report.skipped
    assert (report.game_id, report.events) == (game.game_id, events)
    assert not report.HasField("failure") and report.outcome.kind
    assert [c.status for c in report.checks] == ["passed"] * len(report.checks)
    assert set(report.passed) == {c.name for c in report.checks}


def test_replay_has_a_typed_decision_and_legal_moves(grpc_service):
    pb2, stub, _ = grpc_service
    game = stub.CreateGame(pb2.CreateGameRequest(ruleset="balloon_cup", seed="example"))
    auth = grpc_auth(game.tokens[0])
    legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game.game_id), metadata=auth)
    replay = stub.Replay(pb2.ReplayRequest(game_id=game.game_id, at=legal.version), metadata=auth)
    assert list(replay.decision.seats) == [0] and list(replay.legal_moves) == list(legal.moves)


def _view_dict(view) -> dict:
    """A typed GameView back to the HTTP API's JSON view (for comparison)."""
    def zone(z):
        out = {"count": z.count if z.HasField("count") else None}
        if z.visible:
            out["components"] = [{"name": c.name, "kind": c.kind, **values_from_pb(c.fields),
                                  **({"marks": [value_from_pb(m) for m in c.marks]} if c.marks else {})}
                                 for c in z.components]
        if z.slots:
            out["slots"] = [{"slot": s.slot, "marks": [value_from_pb(m) for m in s.marks]} for s in z.slots]
        return out

    return {
        "ruleset": view.ruleset, "variants": list(view.variants), "seat": view.seat if view.HasField("seat") else None,
        "ply": view.ply, "step": view.step, "actor": view.actor if view.HasField("actor") else None,
        "current": view.current, "terminal": view.terminal,
        "outcome": outcome_from_pb(view.outcome) if view.HasField("outcome") else None,
        "options": values_from_pb(view.options), "zones": {k: zone(z) for k, z in view.zones.items()},
        "entities": {k: {"name": e.name, "alive": e.alive, **values_from_pb(e.fields)} for k, e in view.entities.items()},
        "vars": values_from_pb(view.vars),
        "revealed": [{"zone": r.zone, "by": r.by if r.HasField("by") else None, "ply": r.ply,
                      "components": list(r.components)} for r in view.revealed],
    }


@pytest.mark.parametrize("ruleset", sorted(info.name for info in bundled_rulesets()))
def test_the_typed_view_carries_exactly_the_http_view(grpc_service, http, ruleset):
    pb2, stub, _ = grpc_service
    game = stub.CreateGame(pb2.CreateGameRequest(ruleset=ruleset, seed="typed-view"))
    rng = random.Random(7)
    for _ in range(12):
        view = stub.GetView(pb2.GetViewRequest(game_id=game.game_id))
        if view.terminal:
            break
        seat = view.decision.seats[0]
        legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game.game_id), metadata=grpc_auth(game.tokens[seat]))
        stub.SubmitMove(pb2.SubmitMoveRequest(game_id=game.game_id, move=rng.choice(list(legal.moves)),
                                              expected_version=legal.version), metadata=grpc_auth(game.tokens[seat]))
    for token in (None, game.tokens[0]):
        typed = stub.GetView(pb2.GetViewRequest(game_id=game.game_id), metadata=grpc_auth(token) if token else None)
        over_http = http.get(f"/games/{game.game_id}/view",
                             headers={"Authorization": f"Bearer {token}"} if token else {}).json()
        assert _view_dict(typed.view) == over_http["view"]
