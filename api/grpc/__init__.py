"""gRPC face of the game service (`ludex.v1`); see `api.grpc.server.start_grpc_server`.

Kept import-free so the build can use `api.grpc.codegen` before dependencies are installed.
"""
