"""The README is run, not just read (issue 15): its quickstart shell block plays a move against
a live `make run` server, and every rule-language block it quotes is in the ruleset it names."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SERVICE_SECTION = README[README.index("## Playing through the service"):README.index("## For designers")]
SHELL_BLOCK = re.search(r"^```sh\n(.*?)^```", SERVICE_SECTION, re.M | re.S)
LUDEX_BLOCKS = re.findall(r"^```ludex\n(.*?)^```", README, re.M | re.S)

sys.path.insert(0, str(ROOT / "tests" / "service"))
from service_harness import free_port  # noqa: E402


def test_every_quoted_rule_block_is_text_of_the_bundled_file():
    source = (ROOT / "rulesets" / "balloon_cup" / "game.ludex").read_text(encoding="utf-8")
    assert len(LUDEX_BLOCKS) >= 5
    for block in LUDEX_BLOCKS:
        assert block in source, f"README quotes text that is not in rulesets/balloon_cup/game.ludex:\n{block}"


@pytest.fixture
def make_run(tmp_path):
    """`make run` on free ports with its store in tmp_path, as the README says to start it."""
    http_port, grpc_port = free_port(), free_port()
    env = {**os.environ, "LUDEX_DB": f"sqlite:///{tmp_path / 'ludex.db'}"}
    log = open(tmp_path / "server.log", "wb")
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"HTTP_PORT={http_port}", f"GRPC_PORT={grpc_port}"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{http_port}"
    try:
        for _ in range(300):
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            subprocess.run(["sleep", "0.1"])
        else:
            raise AssertionError("make run did not serve: " + (tmp_path / "server.log").read_text())
        yield url, env
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)
        log.close()


def test_quickstart_runs_verbatim_against_make_run(make_run, tmp_path):
    url, env = make_run
    assert SHELL_BLOCK, "the README's service section has no ```sh block"
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))  # the block calls .venv/bin/ludex
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", SHELL_BLOCK.group(1)],
        cwd=tmp_path, env={**env, "LUDEX_URL": url}, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "balloon_cup" in out.splitlines()[:3]
    # the move listed, then accepted: the decision moved on, and the log audits
    assert '{"name":"place"' in out
    assert '"step":' in out
    assert re.search(r"^\[\d+,\"move\"\]$", out, re.M), out
    assert "verified:" in out, out
