"""The `ludex` command line: designer tools (check, graph, simulate, play) and service tools.

Service commands (serve, replay, audit, export) live in `api/service_commands.py` and are
registered onto the same Typer app, so one `ludex` binary carries both.
"""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Ludex: a rules engine for tabletop games.")


def _register_all() -> None:
    from api import designer_commands, service_commands

    designer_commands.register(app)
    service_commands.register(app)


def main() -> None:
    """Console entry point (`ludex`)."""
    _register_all()
    app()
