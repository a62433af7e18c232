"""Designers' rulesets served beside the bundled ones (`ludex serve --rulesets DIR`).

A rulesets folder DIR holds rulesets the way `rulesets/` does: each subfolder with a
`game.ludex` is a ruleset named after the folder (its variants in `variants/*.ludex`), and
each `*.ludex` file directly in DIR is a ruleset named after the file, without variants. DIR
itself may be a ruleset folder (it holds `game.ludex`): it is then served under its own name.

The files are read again on every request, so a designer's edit is what the next new game
uses; a game already started keeps the text it pinned in its header (see `api.app.rules`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import attrs


@attrs.frozen
class DesignerRuleset:
    """One ruleset found in a rulesets folder.

    `name` is what clients pass as `ruleset`; `game` the path of its game file; `variants`
    maps variant names to their files; `root` is the folder the file names in diagnostics and
    pinned sources are relative to (so a game's log never records where the server keeps it).
    """

    name: str
    game: Path
    variants: dict[str, Path]
    root: Path

    @property
    def origin(self) -> str:
        """Where the ruleset lives, as the catalogue shows it: `DIR/relative/path`."""
        return str(self.game.parent if self.game.name == "game.ludex" else self.game)

    def sources(self, variants: Iterable[str]) -> tuple[tuple[str, str], ...]:
        """`((file name, text), ...)`: the game file then each variant in order, read now.

        Raises KeyError for a variant the folder does not have and OSError for an unreadable
        file.
        """
        files = [self.game] + [self.variants[v] for v in variants]
        return tuple((self._display(p), p.read_text(encoding="utf-8")) for p in files)

    def _display(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return path.name


def scan(dirs: Iterable[Path]) -> list[DesignerRuleset]:
    """Every ruleset in `dirs`, in the order the folders are given, sorted by name within
    each. Folders that do not exist contribute nothing (the CLI checks them at start)."""
    found: list[DesignerRuleset] = []
    for d in dirs:
        d = Path(d)
        if (d / "game.ludex").is_file():
            found.append(_folder(d.resolve().name, d, d.parent))
            continue
        if not d.is_dir():
            continue
        for entry in sorted(d.iterdir(), key=lambda p: p.name):
            if entry.is_dir() and (entry / "game.ludex").is_file():
                found.append(_folder(entry.name, entry, d))
            elif entry.is_file() and entry.suffix == ".ludex":
                found.append(DesignerRuleset(entry.stem, entry, {}, d))
    return found


def _folder(name: str, folder: Path, root: Path) -> DesignerRuleset:
    vdir = folder / "variants"
    variants = {p.stem: p for p in sorted(vdir.glob("*.ludex"))} if vdir.is_dir() else {}
    return DesignerRuleset(name, folder / "game.ludex", variants, root)
