"""compose.yaml's deployment, run without Docker: its `migrate` command, then its two replicas'
command lines (ports moved to free ones on loopback), with the environment compose sets
(LUDEX_DB on one PostgreSQL store, LUDEX_KEYS one key ring), each as its own `ludex` process.
One game is played across both replicas; both sign with the same key; each writes access logs.
(The image itself needs a Docker daemon to build: tests/packaging/test_deploy.py checks it
against the code statically.)"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import sqlalchemy as sa
import yaml
from service_harness import ROOT, bearer, free_port

COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
LUDEX = str(Path(sys.executable).with_name("ludex"))


def _argv(command: list[str], ports: dict[str, int]) -> list[str]:
    """Compose's command with the container's ports replaced by free ones and its 0.0.0.0 by
    loopback (the test is not a network service)."""
    assert command[0] == "ludex"
    out = [LUDEX]
    for arg in command[1:]:
        out.append("127.0.0.1" if arg == "0.0.0.0" else str(ports.get(arg, arg)))
    return out


def _wait(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"replica did not come up: {log.read_text()[-3000:]}")


def test_compose_migrates_then_two_replicas_serve_one_game(pg_url, tmp_path):
    services = COMPOSE["services"]
    env = {**os.environ, **services["migrate"]["environment"], "LUDEX_DB": pg_url}
    migrated = subprocess.run(_argv(services["migrate"]["command"], {}), env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
    assert migrated.returncode == 0, migrated.stderr
    assert "schema revision" in migrated.stdout
    with sa.create_engine(pg_url, poolclass=sa.NullPool).connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()

    replicas = []
    try:
        for name in ("ludex-1", "ludex-2"):
            service = services[name]
            http_port, grpc_port = free_port(), free_port()
            container = {p.split(":")[1]: p for p in service["ports"]}  # container port -> mapping
            ports = {"8000": http_port, "50051": grpc_port}
            assert set(ports) == set(container)
            env = {**os.environ, **service["environment"], "LUDEX_DB": pg_url, "LUDEX_KEYS": str(tmp_path / "keys")}
            log = tmp_path / f"{name}.log"
            with open(log, "wb") as out:
                proc = subprocess.Popen(_argv(service["command"], ports), env=env, cwd=tmp_path,
                                        stdout=out, stderr=subprocess.STDOUT)
            replicas.append((f"http://127.0.0.1:{http_port}", proc, log))
        for url, proc, log in replicas:
            _wait(url, proc, log)
        (one, _, log_one), (two, _, log_two) = replicas

        game = httpx.post(one + "/games", json={"ruleset": "hanabi", "seats": 2}, timeout=30).json()
        gid = game["game_id"]
        for url in (two, one, two):  # alternate replicas, each move at the version the other wrote
            seat = httpx.get(f"{url}/games/{gid}/view", timeout=30).json()["decision"]["seats"][0]
            token = game["tokens"][seat]
            legal = httpx.get(f"{url}/games/{gid}/legal-moves", headers=bearer(token), timeout=30).json()
            moved = httpx.post(f"{url}/games/{gid}/moves", headers=bearer(token), timeout=30,
                               json={"move": legal["moves"][0], "expected_version": legal["version"]})
            assert moved.status_code == 200, moved.text
        versions = {httpx.get(f"{url}/games/{gid}/view", timeout=30).json()["version"] for url in (one, two)}
        assert versions == {moved.json()["version"]}
        keys = [httpx.get(f"{url}/keys", timeout=30).json()["keys"] for url in (one, two)]
        assert keys[0] == keys[1] and moved.json()["receipt"]["key_id"] == keys[0][0]["key_id"]
        for log in (log_one, log_two):  # --access-log: one JSON line per request
            lines = [json.loads(x) for x in log.read_text().splitlines() if x.startswith("{")]
            assert any(x.get("game") == gid and x.get("status") == 200 for x in lines), log.read_text()[-2000:]
    finally:
        for _, proc, _ in replicas:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def test_every_variable_compose_and_the_image_set_is_read_by_the_command_they_run():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    image_cmd = yaml.safe_load(re.search(r"^CMD (\[.*\])$", dockerfile, re.M).group(1))
    runs = [(set(re.findall(r"^ENV (\w+)=", dockerfile, re.M)), image_cmd)]
    runs += [(set(s["environment"]), s["command"]) for s in COMPOSE["services"].values() if "build" in s]
    assert len(runs) == 4  # the image, migrate and two replicas
    for variables, command in runs:
        shown = subprocess.run([LUDEX, command[1], "--help"], capture_output=True, text=True, timeout=60,
                               env={**os.environ, "COLUMNS": "200"}).stdout
        for variable in variables:  # typer lists the environment variable an option reads
            assert f"env var: {variable}" in shown, (command, variable)
