"""docs/client.md is run, not just read: its Python block, its curl block and its gRPC block
each play a whole game against a live `ludex serve`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "client.md").read_text(encoding="utf-8")
PYTHON_BLOCK = re.search(r"^```python\n(.*?)^```", GUIDE, re.M | re.S)
GRPC_BLOCK = re.search(r"^## Over gRPC\n.*?^```python\n(.*?)^```", GUIDE, re.M | re.S)
SHELL_BLOCK = re.search(r"^```sh\n(.*?)^```", GUIDE, re.M | re.S)

sys.path.insert(0, str(ROOT / "tests" / "service"))
from service_harness import Server  # noqa: E402


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("guide")
    server = Server(f"sqlite:///{tmp / 'ludex.db'}", tmp / "server.log").start()
    yield {**os.environ, "LUDEX_URL": server.http, "LUDEX_GRPC": server.grpc_target}
    server.stop()


def test_the_python_walkthrough_plays_a_whole_game(env):
    assert PYTHON_BLOCK, "docs/client.md has no python block"
    done = subprocess.run([sys.executable, "-c", PYTHON_BLOCK.group(1)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("team ")
    assert lines[1].endswith("the last: reveal")
    assert lines[2] == "verified: True"


def test_the_curl_walkthrough_plays_a_whole_game(env):
    assert SHELL_BLOCK, "docs/client.md has no sh block"
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", SHELL_BLOCK.group(1)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    outcome, log, verified = done.stdout.splitlines()
    assert outcome.startswith('{"kind":"team"')
    assert log.startswith("[true,")
    assert verified == "true"


def test_the_grpc_walkthrough_plays_a_whole_game(env):
    assert GRPC_BLOCK, "docs/client.md has no python block under 'Over gRPC'"
    done = subprocess.run([sys.executable, "-c", GRPC_BLOCK.group(1)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    options, error, outcome, verified = done.stdout.splitlines()
    assert "loss_score: int" in options
    assert error == "FAILED_PRECONDITION illegal_move"
    assert outcome.startswith("team ")
    assert verified.startswith("verified: True checks: ")
