"""Where Ludex's own data packages are: `grammars` (the Lark grammar) and `rulesets` (the
bundled games).

Both are top-level packages installed beside `dsl` (`pyproject.toml`'s package list), and are
found there by path, not by import. A folder of the same name in the current directory, such
as a designer's own `rulesets/`, comes first on `sys.path` under `python script.py`,
`python -c` or a notebook. Under an editable install (what `make run` and `make test` make),
Python then imports that folder as a namespace package in place of the shipped one, and
`importlib.resources.files("rulesets")` names the designer's folder.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_HOME = Path(__file__).resolve().parent.parent  # the folder holding `dsl` and its sibling packages


def shipped(package: str) -> Path:
    """The folder of Ludex's data package `package` ("grammars" or "rulesets"): the package
    beside `dsl` (a folder with an `__init__.py`), else what `importlib.resources` finds for
    the name (an installation that put it elsewhere). Reading a file of it that is missing
    raises FileNotFoundError, as any path does."""
    beside = _HOME / package
    if (beside / "__init__.py").is_file():
        return beside
    return Path(str(resources.files(package)))
