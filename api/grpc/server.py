"""The gRPC face (package `ludex.v1`): a thin translation of RPCs to `GameService` calls.

Also serves the standard `grpc.health.v1.Health` and server reflection (v1 and v1alpha, with
the .proto's comments: api/grpc/reflection.py). The seat token travels as call metadata
`authorization: Bearer <token>`. A `ServiceError` aborts the call with the status in
`STATUS_BY_KIND` and a `google.rpc.Status` with `ErrorInfo` details (`grpc-status-details-bin`).
Every message is typed (see the .proto; api/grpc/messages.py translates): nothing travels as
JSON text.

The server is grpcio's synchronous one: each call runs in one of its pool threads, which calls
the service directly. Measured against grpc.aio on the same event loop as the HTTP face (which
answered each call on the loop, and hopped to a worker thread and back for anything that
touches the store), it costs about 13% fewer instructions per move (a GetLegalMoves plus a
SubmitMove: 4.92 M -> 4.28 M, serial, callgrind) and less CPU and latency under load
(bench/service/README.md, "gRPC"). `StreamEvents` still waits on the event loop, where the
service's streams live (`GameService.stream`): its pool thread only blocks on a queue between
events, and each open stream holds one thread (`MAX_WORKERS` bounds streams and calls together).
"""

from __future__ import annotations

import asyncio
import queue
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterator, NoReturn

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from api.app import GameService, InvalidRequest, ServiceError, Unauthenticated
from api.app.inputs import MAX_JSON_DEPTH
from api.grpc.codegen import load
from api.grpc.decoding import Undecodable, guarded, request_deserializer
from api.grpc.messages import (
    audit_to_pb,
    decision_to_pb,
    diagnostic_to_pb,
    ending_to_pb,
    error_details_to_pb,
    event_to_pb,
    legal_moves_to_bytes,
    move_to_dict,
    move_to_pb,
    outcome_to_pb,
    receipt_to_pb,
    ruleset_to_pb,
    values_from_pb,
    view_to_pb,
)
from api.grpc.reflection import enable_reflection

# Generated at build or first use, so invisible to type checkers: typed as Any.
pb2: Any
pb2_grpc: Any
pb2, pb2_grpc = load()

SERVICE_NAME = pb2.DESCRIPTOR.services_by_name["Ludex"].full_name
MAX_MESSAGE_BYTES = 1 << 20
# Pool threads: concurrent calls plus open event streams (each holds one while it lasts). A
# thread is made only when every other is busy, so a quiet server keeps few.
MAX_WORKERS = 1000
_VALUE_RULE = f"a ludex.v1.Value sets exactly one field (null is `none`) and nests at most {MAX_JSON_DEPTH} levels"

STATUS_BY_KIND = {
    "not_found": grpc.StatusCode.NOT_FOUND,
    "invalid": grpc.StatusCode.INVALID_ARGUMENT,
    "unauthenticated": grpc.StatusCode.UNAUTHENTICATED,
    "forbidden": grpc.StatusCode.PERMISSION_DENIED,
    "conflict": grpc.StatusCode.ABORTED,
    "unprocessable": grpc.StatusCode.FAILED_PRECONDITION,
    "too_large": grpc.StatusCode.RESOURCE_EXHAUSTED,
}


def _token(context: grpc.ServicerContext) -> str | None:
    found: str | None = None
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            if found is not None:  # one reader would take the first, another the last
                raise Unauthenticated("bad_token", "send one authorization metadata entry, not several",
                                      reason="a proxy may read the first and the service the last")
            scheme, _, token = value.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise Unauthenticated("bad_token", "authorization metadata must be 'Bearer <token>'")
            found = token.strip()
    return found


def error_status(error: ServiceError) -> tuple[grpc.StatusCode, str, Any]:
    """`(code, message, google.rpc.Status)` for `error`: the Status carries one
    google.rpc.ErrorInfo with `reason` = the error code, `domain` "ludex.v1" and the error's
    other text and number fields (message, reason, details) in `metadata` (numbers in decimal),
    then, when the error has details of other shapes, one `ludex.v1.ErrorDetails`."""
    code = STATUS_BY_KIND.get(error.kind, grpc.StatusCode.INVALID_ARGUMENT)
    message = f"{error.code}: {error.message}" + (f" ({error.reason})" if error.reason else "")
    fields = {k: v for k, v in error.to_dict().items() if k != "code" and v is not None}
    scalar = {k: v if isinstance(v, str) else str(v) for k, v in fields.items()
              if isinstance(v, (str, int, float)) and not isinstance(v, bool)}
    info = any_pb2.Any()
    info.Pack(error_details_pb2.ErrorInfo(reason=error.code, domain="ludex.v1", metadata=scalar))
    details = [info]
    other = {k: v for k, v in fields.items() if k not in scalar}
    if other:
        typed = any_pb2.Any()
        typed.Pack(error_details_to_pb(other))
        details.append(typed)
    return code, message, status_pb2.Status(code=code.value[0], message=message, details=details)


def _abort(context: grpc.ServicerContext, error: ServiceError) -> NoReturn:
    """End the call with `error`'s status (`error_status`), its google.rpc.Status in the
    `grpc-status-details-bin` trailer. Raises, as `ServicerContext.abort_with_status` does."""
    context.abort_with_status(rpc_status.to_status(error_status(error)[2]))
    raise AssertionError("abort_with_status returned")  # it raises; this tells type checkers


def _abort_undecodable(context: grpc.ServicerContext, request: Undecodable) -> NoReturn:
    _abort(context, request.error)


_END = object()  # the end of an event stream, on its queue


class LudexServicer(pb2_grpc.LudexServicer):
    """Implements `ludex.v1.Ludex`: each RPC runs in a server pool thread and calls the
    GameService there. `loop` is the event loop of the service's streams (`StreamEvents`)."""

    def __init__(self, service: GameService, loop: asyncio.AbstractEventLoop) -> None:
        self.service = service
        self.loop = loop

    def _call(self, context: grpc.ServicerContext, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except ServiceError as error:
            _abort(context, error)

    def _with_token(self, context: grpc.ServicerContext, fn: Callable[..., Any], game_id: str, *args: Any) -> Any:
        try:
            token = _token(context)
        except ServiceError as error:
            _abort(context, error)
        return self._call(context, fn, game_id, token, *args)

    def ListRulesets(self, request: Any, context: grpc.ServicerContext) -> Any:
        entries = self._call(context, self.service.rulesets)
        return pb2.ListRulesetsResponse(rulesets=[ruleset_to_pb(r) for r in entries])

    def CheckRuleset(self, request: Any, context: grpc.ServicerContext) -> Any:
        result = self._call(context, self.service.check_ruleset, request.text, request.filename or "<text>")
        return pb2.CheckRulesetResponse(ok=result["ok"], diagnostics=[diagnostic_to_pb(d) for d in result["diagnostics"]])

    def CreateGame(self, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            options = values_from_pb(request.options)
        except ValueError as exc:
            _abort(context, InvalidRequest("bad_options", f"options{exc}", reason=_VALUE_RULE, field="options"))
        created = self._call(
            context,
            self.service.create_game,
            request.ruleset,
            list(request.variants),
            options,
            request.seats or None,
            request.seed if request.HasField("seed") else None,
        )
        return pb2.CreateGameResponse(**created)

    def GetView(self, request: Any, context: grpc.ServicerContext) -> Any:
        v = self._with_token(context, self.service.view, request.game_id)
        return pb2.GetViewResponse(
            game_id=v["game_id"],
            version=v["version"],
            seat=v["seat"],
            terminal=v["terminal"],
            decision=decision_to_pb(v["decision"]),
            outcome=outcome_to_pb(v["outcome"]),
            view=view_to_pb(v["view"]),
            ending=ending_to_pb(v["ending"]),
        )

    def GetLegalMoves(self, request: Any, context: grpc.ServicerContext) -> Any:
        return legal_moves_to_bytes(self._with_token(context, self.service.legal_moves, request.game_id))

    def SubmitMove(self, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            move = move_to_dict(request.move)
        except ValueError as exc:
            _abort(context, InvalidRequest("bad_move", f"move args{exc}", reason=_VALUE_RULE, field="move args"))
        result = self._with_token(
            context,
            self.service.submit_move,
            request.game_id,
            move,
            request.expected_version,
            request.seat if request.HasField("seat") else None,
        )
        return pb2.SubmitMoveResponse(
            game_id=result["game_id"],
            version=result["version"],
            events=[event_to_pb(e, t) for e, t in zip(result["events"], result["texts"])],
            terminal=result["terminal"],
            decision=decision_to_pb(result["decision"]),
            outcome=outcome_to_pb(result["outcome"]),
            receipt=receipt_to_pb(result["receipt"]),
            sealed=pb2.SealedMove(**result["sealed"]) if result.get("sealed") else None,
            ending=ending_to_pb(result["ending"]),
        )

    def GetReceipt(self, request: Any, context: grpc.ServicerContext) -> Any:
        receipt = self._call(context, self.service.receipt, request.game_id)
        return pb2.GetReceiptResponse(receipt=receipt_to_pb(receipt))

    def GetPublicKeys(self, request: Any, context: grpc.ServicerContext) -> Any:
        published = self._call(context, self.service.public_keys)
        return pb2.GetPublicKeysResponse(keys=[pb2.PublicKey(**k) for k in published["keys"]])

    def ListEvents(self, request: Any, context: grpc.ServicerContext) -> Any:
        page = self._with_token(context, self.service.events, request.game_id, request.after)
        return pb2.ListEventsResponse(
            game_id=page["game_id"],
            version=page["version"],
            finished=page["finished"],
            events=[event_to_pb(e, t) for e, t in zip(page["events"], page["texts"])],
        )

    def Replay(self, request: Any, context: grpc.ServicerContext) -> Any:
        r = self._with_token(context, self.service.replay, request.game_id, request.at)
        return pb2.ReplayResponse(
            at=r["at"],
            state_after=r["state_after"],
            seat=r["seat"],
            terminal=r["terminal"],
            view=view_to_pb(r["view"]),
            outcome=outcome_to_pb(r["outcome"]),
            decision=decision_to_pb(r["decision"]) if r["decision"] is not None else None,
            legal_moves=[move_to_pb(m, t) for m, t in zip(r["legal_moves"], r["legal_texts"])],
            ending=ending_to_pb(r["ending"]),
        )

    def Audit(self, request: Any, context: grpc.ServicerContext) -> Any:
        report = self._call(context, self.service.audit, request.game_id)
        return audit_to_pb(report)

    def StreamEvents(self, request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
        """The service's stream (`GameService.stream`), run on the event loop, handed to this
        pool thread through a queue; the call ending (the client cancels, the server stops)
        cancels it there."""
        # Validate first so a bad game or token fails with a status before any message.
        self._with_token(context, self.service.events, request.game_id, request.after)
        token = _token(context)
        events: queue.SimpleQueue[Any] = queue.SimpleQueue()

        async def follow() -> None:
            try:
                async for told in self.service.stream_told(request.game_id, token, request.after):
                    events.put(told)
            except Exception as exc:  # ServiceError becomes the call's status, others UNKNOWN
                events.put(exc)
            finally:
                events.put(_END)

        following = asyncio.run_coroutine_threadsafe(follow(), self.loop)
        if not context.add_callback(following.cancel):  # the call has already ended
            following.cancel()
        try:
            while (item := events.get()) is not _END:
                if isinstance(item, ServiceError):
                    _abort(context, item)
                if isinstance(item, Exception):
                    raise item
                yield event_to_pb(*item)
        finally:
            following.cancel()


def _serialize(response: Any) -> bytes:
    """A response's bytes: a message serialized, bytes (already serialized) as they are."""
    return response if type(response) is bytes else response.SerializeToString()


def _method_handlers(servicer: LudexServicer) -> dict[str, grpc.RpcMethodHandler]:
    """The handlers of `ludex.v1.Ludex`'s RPCs, by name, as the generated
    `add_LudexServicer_to_server` makes them, except that a servicer method may answer with
    the response's bytes (`_serialize`), and that a request grpcio cannot decode (a malformed
    message, invalid UTF-8 in a string, a Value nested past protobuf's limit) is refused with
    INVALID_ARGUMENT and the code of the field's other refusals (api/grpc/decoding.py), not
    grpcio's INTERNAL."""
    handlers = {}
    for method in pb2.DESCRIPTOR.services_by_name["Ludex"].methods:
        assert not method.client_streaming, method.full_name
        make = grpc.unary_stream_rpc_method_handler if method.server_streaming else grpc.unary_unary_rpc_method_handler
        behavior = guarded(getattr(servicer, method.name), _abort_undecodable)
        handlers[method.name] = make(behavior,
                                     request_deserializer=request_deserializer(method.name, getattr(pb2, method.input_type.name)),
                                     response_serializer=_serialize)
    return handlers


class GrpcServer:
    """The running gRPC server, stopped from the event loop with `await server.stop(grace)`."""

    def __init__(self, server: grpc.Server) -> None:
        self.server = server

    async def stop(self, grace: float | None) -> None:
        """Refuse new calls, give running ones `grace` seconds, then cancel what is left (open
        event streams end). Waits in a thread: the streams need the loop until they end."""
        stopped = self.server.stop(grace)
        await asyncio.to_thread(stopped.wait)


async def start_grpc_server(service: GameService, host: str = "127.0.0.1", port: int = 50051) -> tuple[GrpcServer, int]:
    """Start the Ludex, health and reflection services on a pool of `MAX_WORKERS` threads;
    returns `(server, bound_port)` (pass port 0 for any free port). Call it from the event loop
    that serves the service's streams. Stop with `await server.stop(grace)`."""
    server = grpc.server(
        ThreadPoolExecutor(max_workers=MAX_WORKERS, thread_name_prefix="ludex-grpc"),
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.so_reuseport", 0),
        ],
    )
    handlers = _method_handlers(LudexServicer(service, asyncio.get_running_loop()))
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    enable_reflection(server, (SERVICE_NAME, health.SERVICE_NAME))
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise OSError(f"cannot bind gRPC to {host}:{port}")
    server.start()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    return GrpcServer(server), bound
