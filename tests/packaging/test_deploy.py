"""The Dockerfile and compose.yaml agree with the code: every package the wheel needs is copied,
every command and flag they run exists, and compose runs two replicas on one PostgreSQL store
after migrating it. (Building the image needs a Docker daemon; these checks do not.)"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def _help(command: str) -> str:
    done = subprocess.run([sys.executable, "-m", "ludex.service_commands", command, "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def _check_command(argv: list[str]) -> None:
    assert argv[0] == "ludex", argv
    text = _help(argv[1])
    for flag in (a for a in argv[2:] if a.startswith("--")):
        assert flag in text, f"`ludex {argv[1]}` has no {flag}"


def test_the_image_copies_every_package_and_runs_real_flags():
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    copied = set(re.findall(r"^COPY (\w+) \./\1$", DOCKERFILE, re.M))
    assert {p.rstrip("*") for p in packages} <= copied
    assert all((ROOT / name).is_dir() for name in copied)
    cmd = re.search(r"^CMD (\[.*\])$", DOCKERFILE, re.M)
    assert cmd is not None
    _check_command(yaml.safe_load(cmd.group(1)))


def test_compose_runs_two_replicas_on_one_migrated_postgresql_store():
    services = COMPOSE["services"]
    replicas = [s for name, s in services.items() if name.startswith("ludex-")]
    assert len(replicas) == 2
    db_urls = {s["environment"]["LUDEX_DB"] for s in [*replicas, services["migrate"]]}
    assert len(db_urls) == 1 and next(iter(db_urls)).startswith("postgresql+psycopg://")
    assert len({s["environment"]["LUDEX_KEYS"] for s in replicas}) == 1  # one key ring signs for both
    for s in replicas:
        assert s["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        _check_command(s["command"])
    _check_command(services["migrate"]["command"])
    host_ports = [p.split(":")[0] for s in replicas for p in s["ports"]]
    assert len(host_ports) == len(set(host_ports))
    assert shlex.join(services["db"]["healthcheck"]["test"]).startswith("CMD pg_isready")
