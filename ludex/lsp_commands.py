"""`ludex lsp`: start the language server over standard input and output (docs/editors.md).

pygls and lsprotocol are the optional extra `ludex[lsp]`; they are imported only here, when the
command runs, so `ludex` starts without them.
"""

from __future__ import annotations

import typer

from ludex.cli import fail


def register(app: typer.Typer) -> None:
    @app.command("lsp")
    def lsp_cmd(
        stdio: bool = typer.Option(True, "--stdio", help="talk over standard input and output (the only transport)"),
    ) -> None:
        """Run the Ludex language server for editors (diagnostics, hover, go to definition, rename, format...)."""
        try:
            from ludex.lsp.server import main
        except ImportError as exc:
            fail(f"the language server needs pygls ({exc.name} is missing)", "pip install 'ludex[lsp]'")
        main()
