"""Server reflection, v1 and v1alpha, serving the .proto with its comments.

grpcio-reflection implements `grpc.reflection.v1alpha` only, and serves descriptors from the
generated modules, which drop the .proto's comments. Here the same servicer also answers as
`grpc.reflection.v1` (the two protocols are the same messages under another package name, so
the bytes on the wire are identical), and every file it returns is replaced by its copy from
`ludex.desc`, the descriptor set protoc wrote with the comments (`api/grpc/codegen.py`).
"""

from __future__ import annotations

from typing import Any, Iterable

import grpc
from google.protobuf import descriptor_pb2
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc
from grpc_reflection.v1alpha.reflection import ReflectionServicer

from api.grpc.codegen import DESCRIPTOR_SET

V1_SERVICE_NAME = "grpc.reflection.v1.ServerReflection"
V1ALPHA_SERVICE_NAME = reflection.SERVICE_NAME


def commented_files() -> dict[str, bytes]:
    """Serialized FileDescriptorProtos with source info (comments), by file name."""
    files = descriptor_pb2.FileDescriptorSet.FromString(DESCRIPTOR_SET.read_bytes()).file
    return {f.name: f.SerializeToString() for f in files}


class CommentedReflection(ReflectionServicer):
    """grpcio-reflection's servicer, answering with the commented file descriptors."""

    def __init__(self, service_names: Iterable[str]) -> None:
        super().__init__(tuple(service_names))
        self._commented = commented_files()

    def _with_comments(self, response: Any) -> Any:
        if response.HasField("file_descriptor_response"):
            protos = response.file_descriptor_response.file_descriptor_proto
            for i, raw in enumerate(protos):
                name = descriptor_pb2.FileDescriptorProto.FromString(raw).name
                protos[i] = self._commented.get(name, raw)
        return response

    def _file_by_filename(self, request: Any, filename: str) -> Any:
        return self._with_comments(super()._file_by_filename(request, filename))

    def _file_containing_symbol(self, request: Any, fully_qualified_name: str) -> Any:
        return self._with_comments(super()._file_containing_symbol(request, fully_qualified_name))


def enable_reflection(server: grpc.Server, service_names: Iterable[str]) -> None:
    """Serve reflection v1 and v1alpha on `server`, listing `service_names` and both
    reflection services."""
    servicer = CommentedReflection((*service_names, V1_SERVICE_NAME, V1ALPHA_SERVICE_NAME))
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.method_handlers_generic_handler(V1_SERVICE_NAME, {
        "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo,
            request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
            response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
        )
    })
    server.add_generic_rpc_handlers((v1,))
