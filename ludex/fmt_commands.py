"""`ludex fmt`: put rule files in the canonical layout of `dsl.formatter` (Ruff's `format`, one style).

`ludex fmt PATH...` rewrites each `.ludex` file (a folder means every `.ludex` file under it; a
bundled ruleset's name means its folder) and lists the files it changed. `--check` changes
nothing and exits 1 when a file is not formatted (for CI); `--diff` prints what would change.
A file that does not parse is reported with its diagnostics and left alone (exit 1).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import typer

from dsl import RulesetError
from dsl.formatter import format_text
from dsl.loader import rulesets_root
from ludex.cli import fail


def rule_files(paths: list[str]) -> list[Path]:
    """The `.ludex` files named by `paths` (files, folders searched recursively, bundled names), sorted.

    Stops the command (`fail`, exit 2) on a path that names nothing.
    """
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists() and (rulesets_root() / raw).is_dir():
            p = rulesets_root() / raw
        if p.is_dir():
            out += sorted(p.rglob("*.ludex"))
        elif p.is_file():
            out.append(p)
        else:
            fail(f"no file or folder named '{raw}'", "give .ludex files, folders holding them, or a bundled ruleset's name")
    return out


def register(app: typer.Typer) -> None:
    @app.command("fmt")
    def fmt_cmd(
        paths: list[str] = typer.Argument(..., help="`.ludex` files, folders, or bundled ruleset names"),
        check: bool = typer.Option(False, "--check", help="change nothing; exit 1 if a file is not formatted"),
        diff: bool = typer.Option(False, "--diff", help="change nothing; print the changes as a unified diff"),
    ) -> None:
        """Format rule files in Ludex's one canonical layout (comments, doc strings and line breaks kept)."""
        changed, broken = [], 0
        files = rule_files(paths)
        for path in files:
            text = path.read_text(encoding="utf-8")
            try:
                new = format_text(text, str(path))
            except RulesetError as exc:
                print(exc, file=sys.stderr)
                broken += 1
                continue
            if new == text:
                continue
            changed.append(path)
            if diff:
                sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                           str(path), f"{path} (formatted)"))
            elif check:
                print(f"would reformat {path}")
            else:
                path.write_text(new, encoding="utf-8")
                print(f"formatted {path}")
        kept = len(files) - len(changed) - broken
        verb = "would be reformatted" if check or diff else "reformatted"
        print(f"{len(changed)} file(s) {verb}, {kept} left unchanged" + (f", {broken} not parsed" if broken else ""),
              file=sys.stderr)
        raise typer.Exit(1 if broken or ((check or diff) and changed) else 0)
