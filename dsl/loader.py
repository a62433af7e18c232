"""Find, parse, merge (variants), check and compile rulesets into `dsl.ir.Ruleset`.

A ruleset is a folder `NAME/` holding `game.ludex` and `variants/VARIANT.ludex`; the bundled
ones live in the `rulesets` package. A variant file says `variant V extends NAME`, then
`set OPTION = value`, `replace DECL`, `add DECL` or `remove KIND NAME`. Variants apply in
the order given; two variants that change the same rule conflict, and that is a diagnostic.
"""

from __future__ import annotations

import functools
import os
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from dsl import ast as A
from dsl.checker import Checker
from dsl.diagnostics import (
    Diagnostic,
    Reporter,
    RulesetError,
    UnknownRuleset,
    by_position,
    did_you_mean,
    names_hint,
)
from dsl.ir import Ruleset, content_hash, to_data
from dsl.parser import parse_text

_FIELDS = {
    "automaton": "automata", "spectators": "spectators", "option": "options", "enum": "enums", "const": "consts", "component": "component_types",
    "components": "component_sets", "zone": "zones", "entity": "entity_types", "entities": "entity_sets",
    "var": "vars", "fn": "fns", "proc": "procs", "step": "steps", "move": "moves", "trigger": "triggers", "display": "display",
}


@attrs.frozen
class BundledInfo:
    """A ruleset shipped with Ludex: its name, folder and variant names."""

    name: str
    path: str
    variants: list[str]


def rulesets_root() -> Path:
    return Path(str(resources.files("rulesets")))


def bundled_rulesets() -> list[BundledInfo]:
    """Every bundled ruleset, sorted by name."""
    out = []
    for d in sorted(rulesets_root().iterdir()):
        if (d / "game.ludex").is_file():
            vdir = d / "variants"
            variants = sorted(p.stem for p in vdir.glob("*.ludex")) if vdir.is_dir() else []
            out.append(BundledInfo(d.name, str(d), variants))
    return out


def resolve(ruleset: str) -> Path:
    """The `game.ludex` of a ruleset given as a bundled name, a folder or a file.

    Raises `UnknownRuleset` when nothing matches, with the bundled names as a hint.
    """
    p = Path(ruleset)
    if p.is_dir() and (p / "game.ludex").is_file():
        return p / "game.ludex"
    if p.is_file():
        return p
    bundled = rulesets_root() / ruleset / "game.ludex"
    if bundled.is_file():
        return bundled
    names = [b.name for b in bundled_rulesets()]
    raise UnknownRuleset([Diagnostic("error", f"no ruleset named '{ruleset}'", ruleset, 0, 0, "",
                                     names_hint(ruleset, names, "bundled rulesets"))])


def _display_name(path: Path) -> str:
    """A stable file name for spans: the path inside the bundled root when bundled."""
    inside = os.path.relpath(path.resolve(), rulesets_root().resolve())
    return str(path) if inside.startswith("..") else inside


def _variant_path(game: Path, variant: str) -> Path:
    p = Path(variant)
    if p.suffix == ".ludex" and p.is_file():
        return p
    cand = game.parent / "variants" / f"{variant}.ludex"
    if cand.is_file():
        return cand
    vdir = game.parent / "variants"
    names = sorted(x.stem for x in vdir.glob("*.ludex")) if vdir.is_dir() else []
    raise UnknownRuleset([Diagnostic("error", f"no variant named '{variant}'", _display_name(game), 0, 0, "",
                                     names_hint(variant, names, "variants"))])


def load_ruleset(ruleset: str, variants: tuple[str, ...] | list[str] = ()) -> Ruleset:
    """Compile a ruleset (bundled name, folder or file) with variants applied in order.

    Returns the frozen IR. Raises `RulesetError` listing every diagnostic found.
    """
    game = resolve(ruleset)
    sources = [(_display_name(game), game.read_text(encoding="utf-8"))]
    for v in variants:
        vp = _variant_path(game, v)
        sources.append((_display_name(vp), vp.read_text(encoding="utf-8")))
    return load_from_sources(tuple(sources))


@functools.lru_cache(maxsize=64)
def load_from_sources(sources: tuple[tuple[str, str], ...], variants: tuple[str, ...] | None = None) -> Ruleset:
    """Compile from (file name, text) pairs: the game first, then its variants in order.

    This is how a stored game is recompiled from its pinned text. `variants` is accepted for
    symmetry with `Ruleset.variants` and ignored: the variant files themselves say their names.
    """
    texts = dict(sources)
    try:
        return _compile(sources, texts)
    except RulesetError as exc:
        exc.diagnostics[:] = by_position(exc.diagnostics, list(texts))
        raise


def _compile(sources: tuple[tuple[str, str], ...], texts: dict[str, str]) -> Ruleset:
    rep = Reporter(texts)
    files = []
    for path, text in sources:
        try:
            files.append(parse_text(text, path))
        except RulesetError as exc:
            rep.items.extend(exc.diagnostics)
    if rep.errors:
        raise RulesetError(rep.items)
    base, extra = files[0], files[1:]
    if base.header != "game":
        rep.error(A.Span(base.path, 1, 1), "a ruleset file must start with `game NAME`",
                  "begin it with `game NAME \"Title\"`; a variant file (`variant NAME extends BASE`) goes in the game's variants/")
        raise RulesetError(rep.items)
    decls = list(base.decls)
    for e in base.edits:
        rep.error(e.span, f"`{e.action}` belongs in a variant file, not in the game file",
                  f"move it to variants/NAME.ludex, after `variant NAME extends {base.name}`")
    touched: dict[tuple[str, str], str] = {}
    applied = []
    for f in extra:
        if f.header != "variant":
            rep.error(A.Span(f.path, 1, 1), "a variant file must start with `variant NAME extends BASE`",
                      f"begin it with `variant {f.name} extends {base.name}`")
            continue
        if f.extends != base.name:
            rep.error(A.Span(f.path, 1, 1), f"variant '{f.name}' extends '{f.extends}', not '{base.name}'",
                      f"write `variant {f.name} extends {base.name}`")
            continue
        applied.append(f.name)
        decls = _apply_variant(decls, f, rep, touched)
    Checker(decls, rep).run()
    if rep.errors:
        raise RulesetError(rep.items)
    return _build(base, tuple(applied), decls, sources)


def _apply_variant(decls_in: list[A.Decl], f: A.SourceFile, rep: Reporter, touched: dict) -> list[A.Decl]:
    decls: list[Any] = list(decls_in)
    index = {d.key: i for i, d in enumerate(decls)}
    plain = [A.VariantEdit("replace" if d.kind == "seats" else "add", d.key, d, None, d.span) for d in f.decls]
    for e in list(f.edits) + plain:
        key = e.target
        other = touched.get(key)
        if other is not None and other != f.name:
            rep.error(e.span, f"variants '{other}' and '{f.name}' both change {key[0]} '{key[1]}'",
                      "these variants cannot be combined")
            continue
        touched[key] = f.name
        i = index.get(key)
        if e.action == "set":
            if i is None:
                opts = [d.name for d in decls if d.kind == "option"]
                rep.error(e.span, f"variant '{f.name}' sets option '{key[1]}' that does not exist", names_hint(key[1], opts, "options"))
                continue
            decls[i] = attrs.evolve(decls[i], default=e.value)  # type: ignore[call-arg]
        elif e.action in ("replace", "remove"):
            if i is None:
                same = [d.name for d in decls if d.kind == key[0]]
                rep.error(e.span, f"variant '{f.name}' {e.action}s {key[0]} '{key[1]}' that does not exist",
                          did_you_mean(key[1], same) or ("use `add` to declare it" if e.action == "replace" else ""))
                continue
            if e.action == "replace":
                decls[i] = e.decl
            else:
                decls[i] = None  # type: ignore[call-overload]
        elif e.action == "add":
            if i is not None:
                rep.error(e.span, f"variant '{f.name}' adds {key[0]} '{key[1]}' that already exists", "use `replace` to change it")
                continue
            decls.append(e.decl)
        decls = [d for d in decls if d is not None]
        index = {d.key: j for j, d in enumerate(decls)}
    return decls


def _build(base: A.SourceFile, variants: tuple[str, ...], decls: list[A.Decl], sources) -> Ruleset:
    groups: dict[str, list] = {k: [] for k in _FIELDS.values()}
    seats = (2, 2)
    setup = None
    for d in decls:
        if isinstance(d, A.SeatsDecl):
            seats = (d.low, d.high)
        elif isinstance(d, A.SetupDecl):
            setup = d
        else:
            groups[_FIELDS[d.kind]].append(d)
    rs = Ruleset(base.name, base.title, variants, seats, setup=setup, sources=tuple(sources),
                 **{k: tuple(v) for k, v in groups.items()})  # type: ignore[arg-type]
    return attrs.evolve(rs, content_hash=content_hash(rs.to_data()))


def check_text(text: str, filename: str = "<text>") -> list[Diagnostic]:
    """Diagnostics for one game file given as text (empty when it is clean)."""
    try:
        load_from_sources(((filename, text),))
    except RulesetError as exc:
        return exc.diagnostics
    return []


def check(ruleset: str, variants: tuple[str, ...] | list[str] = ()) -> list[Diagnostic]:
    """Diagnostics for a ruleset with variants (empty when it is clean)."""
    try:
        load_ruleset(ruleset, variants)
    except RulesetError as exc:
        return exc.diagnostics
    return []


__all__ = ["BundledInfo", "bundled_rulesets", "check", "check_text", "load_from_sources", "load_ruleset", "resolve", "to_data"]
