"""Generate the Python gRPC modules from `api/proto/ludex/v1/ludex.proto` with grpcio-tools.

The generated `ludex_pb2*.py` files (and `ludex.desc`, the descriptor set with comments) are build products (gitignored, never edited): `setup.py`
runs `generate()` when the package is built, and `load()` runs it on first use in a source
checkout where they are missing or older than the .proto. Only the standard library and
grpc_tools are imported here, so the build can call it before anything else is installed.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
PROTO = Path("api/proto/ludex/v1/ludex.proto")
GENERATED = ("ludex_pb2.py", "ludex_pb2_grpc.py", "ludex.desc")
DESCRIPTOR_SET = ROOT / PROTO.parent / "ludex.desc"  # the .proto with its comments, for reflection
MODULES = ("api.proto.ludex.v1.ludex_pb2", "api.proto.ludex.v1.ludex_pb2_grpc")


def generate(root: Path = ROOT) -> None:
    """Run protoc (from grpcio-tools) on the .proto, writing the modules next to it.

    Output goes to a temporary directory first and is moved into place with `os.replace`, so
    parallel processes generating at once never see a half-written module.
    """
    from grpc_tools import protoc

    include = Path(protoc.__file__).parent / "_proto"  # well-known types shipped with grpcio-tools
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / PROTO.parent).mkdir(parents=True)
        # The include root is the project root, so generated modules import each other as
        # `api.proto.ludex.v1...`, the package they actually live in.
        args = [
            "grpc_tools.protoc",
            f"-I{root}",
            f"-I{include}",
            f"--python_out={tmp}",
            f"--grpc_python_out={tmp}",
            # Also a descriptor set that keeps the comments (the modules drop them), which
            # server reflection serves (api/grpc/reflection.py).
            "--include_source_info",
            f"--descriptor_set_out={Path(tmp) / PROTO.parent / 'ludex.desc'}",
            str(root / PROTO),
        ]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed on {root / PROTO}")
        for name in GENERATED:
            os.replace(Path(tmp) / PROTO.parent / name, root / PROTO.parent / name)


def _stale() -> bool:
    proto = ROOT / PROTO
    if not proto.exists():  # an installed package: the build generated the modules
        return False
    for name in GENERATED:
        path = ROOT / PROTO.parent / name
        if not path.exists() or path.stat().st_mtime < proto.stat().st_mtime:
            return True
    return False


def load() -> tuple[ModuleType, ModuleType]:
    """`(ludex_pb2, ludex_pb2_grpc)`, generating them first if missing or stale."""
    if _stale():
        generate()
        for name in MODULES:
            sys.modules.pop(name, None)
        importlib.invalidate_caches()
    pb2, pb2_grpc = (importlib.import_module(name) for name in MODULES)
    return pb2, pb2_grpc
