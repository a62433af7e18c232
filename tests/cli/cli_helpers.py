"""Helpers for the command-line tests: run `ludex` in-process (Typer's CliRunner) or as a
real process, and the toy ruleset folder next to this file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from ludex import cli as ludex_cli

TOY = Path(__file__).parent / "toy"
LUDEX = [sys.executable, "-c", "from ludex.cli import main; main()"]

if not ludex_cli.app.registered_commands:  # main() registers lazily; other test modules may have done it
    ludex_cli._register_all()
runner = CliRunner()


def ludex(*args: str, input: str | None = None):
    """Run `ludex ARGS` in this process; returns Click's Result (exit_code, stdout, stderr)."""
    return runner.invoke(ludex_cli.app, list(args), input=input)


def ludex_process(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run `ludex ARGS` as its own process, as a user would."""
    return subprocess.run(LUDEX + list(args), capture_output=True, text=True, timeout=timeout)
