"""Build hook: generate the gRPC modules from api/proto with grpcio-tools at build time.

All metadata lives in pyproject.toml; this file only adds code generation to `build_py`
(grpcio-tools is in the build-system requirements).
"""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithProtos(build_py):
    """`build_py` that first writes api/proto/ludex/v1/ludex_pb2*.py."""

    def run(self):
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from api.grpc.codegen import generate

        generate()
        super().run()


setup(cmdclass={"build_py": BuildPyWithProtos})
