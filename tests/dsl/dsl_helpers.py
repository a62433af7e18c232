"""Helpers for the rule-language tests: a small clean game (mini.ludex) and ways to break it."""

from __future__ import annotations

from pathlib import Path

from dsl import RulesetError, load_from_sources

HERE = Path(__file__).parent
MINI = (HERE / "mini.ludex").read_text(encoding="utf-8")


def edit(old: str, new: str, text: str = MINI) -> str:
    """`text` with `old` (which must occur exactly once) replaced by `new`."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


def diagnostics(text: str, *variants: tuple[str, str]):
    """Diagnostics for mini.ludex given as `text` plus (file, text) variant files; [] when clean."""
    try:
        load_from_sources((("mini.ludex", text),) + tuple(variants))
    except RulesetError as exc:
        return exc.diagnostics
    return []


def rendered(diags) -> list[str]:
    return [str(d) for d in diags]
