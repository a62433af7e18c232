"""The `ludex` command line: designer tools (check, graph, simulate, play) and service tools.

Service commands (serve, replay, audit, export) live in `ludex/service_commands.py` and are
registered onto the same Typer app, so one `ludex` binary carries both.

Bad input never shows a traceback: a command calls `fail(message, hint)`, which prints one
line to stderr and exits 2 (Click's own usage errors also exit 2). Anything unexpected is
reported in one line too, exit 1; `LUDEX_DEBUG=1` shows the traceback.
"""

from __future__ import annotations

import os
import sys
from importlib import metadata
from typing import Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup


def fail(message: str, hint: str = "") -> NoReturn:
    """Stop the command for bad input: `error: MESSAGE (HINT)` as one line on stderr, exit 2."""
    typer.echo(f"error: {message} ({hint})" if hint else f"error: {message}", err=True)
    raise typer.Exit(2)


def _hide_flag_types(params: list[Any]) -> list[Any]:
    # A flag takes no value: showing `<bool>` beside it in the help reads as if it did.
    for p in params:
        if getattr(p, "is_flag", False):
            p.metavar = ""
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _hide_flag_types(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _hide_flag_types(super().get_params(ctx))


app = typer.Typer(
    cls=_Group,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    help="Ludex: a rules engine for tabletop games.",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"ludex {metadata.version('ludex')}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print Ludex's version and exit."),
) -> None:
    """Ludex: a rules engine for tabletop games."""


def _register_all() -> None:
    from ludex import designer_commands, fmt_commands, lsp_commands, service_commands, tournament_commands

    __import__("ludex.compare_commands", fromlist=["register"]).register(app)
    designer_commands.register(app)
    service_commands.register(app)
    fmt_commands.register(app)
    lsp_commands.register(app)
    tournament_commands.register(app)
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = _Command


def main() -> None:
    """Console entry point (`ludex`)."""
    _register_all()
    try:
        app()
    except Exception as exc:  # a defect, not bad input: still one line unless debugging
        if os.environ.get("LUDEX_DEBUG"):
            raise
        print(f"ludex: internal error: {type(exc).__name__}: {exc} (LUDEX_DEBUG=1 shows the traceback)", file=sys.stderr)
        sys.exit(1)
