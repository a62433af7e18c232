"""Find, parse, merge (variants), check and compile rulesets into `dsl.ir.Ruleset`.

A ruleset is a folder `NAME/` holding `game.ludex` and `variants/VARIANT.ludex`; the bundled
ones live in the `rulesets` package. A variant file says `variant V extends NAME`, then
`set OPTION = value`, `replace DECL`, `add DECL` or `remove KIND NAME`. Variants apply in
the order given; two variants that change the same rule conflict, and that is a diagnostic.
"""

from __future__ import annotations

import functools
import os
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
from dsl.incremental import parse_incremental
from dsl.ir import Ruleset, content_hash, to_data
from dsl.language import CURRENT, target_of
from dsl.parser import parse_text
from dsl.shipped import shipped

_FIELDS = {
    "automaton": "automata", "spectators": "spectators", "knowledge": "knowledge", "policy": "policies", "option": "options", "enum": "enums", "const": "consts", "component": "component_types",
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
    """The folder of the bundled rulesets (`dsl.shipped`: never a folder of the same name in the
    current directory)."""
    return shipped("rulesets")


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


def _parts(game: Path) -> list[Path]:
    """The other files of a game folder (`policies.ludex`...), in name order: a `game.ludex` may
    be continued by header-less `*.ludex` files beside it, read as if appended to it."""
    if game.name != "game.ludex":
        return []
    return sorted(p for p in game.parent.glob("*.ludex") if p.name != "game.ludex")


def load_ruleset(ruleset: str, variants: tuple[str, ...] | list[str] = ()) -> Ruleset:
    """Compile a ruleset (bundled name, folder or file) with variants applied in order.

    Returns the frozen IR. Raises `RulesetError` listing every diagnostic found.
    """
    return load_from_sources(ruleset_sources(ruleset, variants))


def ruleset_sources(ruleset: str, variants: tuple[str, ...] | list[str] = ()) -> tuple[tuple[str, str], ...]:
    """The (file name, text) pairs of a ruleset and its variants, game first. Raises `UnknownRuleset`."""
    game = resolve(ruleset)
    sources = [(_display_name(game), game.read_text(encoding="utf-8"))]
    sources += [(_display_name(p), p.read_text(encoding="utf-8")) for p in _parts(game)]
    for v in variants:
        vp = _variant_path(game, v)
        sources.append((_display_name(vp), vp.read_text(encoding="utf-8")))
    return tuple(sources)


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


def check_sources(sources: tuple[tuple[str, str], ...], incremental: bool = False) -> list[Diagnostic]:
    """Every finding, errors and warnings, for (file name, text) pairs (game first), in reading order.

    Warnings (a rule a later language version tightened, say) do not stop a ruleset from
    loading; this is where they are seen: `ludex check`, the language server. `incremental`
    re-parses only the declarations that changed since the last call (`dsl.incremental`), for
    a file being edited; the findings are the same.
    """
    texts = dict(sources)
    rep = Reporter(texts)
    try:
        _compile(sources, texts, rep, build=False, incremental=incremental)
    except RulesetError:
        pass
    return by_position(rep.items, list(texts))


@functools.lru_cache(maxsize=32)
def _parse(text: str, path: str) -> A.SourceFile:
    # parsing is most of a check's time; an editor re-checks a variant with its unchanged base
    return parse_text(text, path)


def _compile(sources: tuple[tuple[str, str], ...], texts: dict[str, str], rep: Reporter | None = None,
             build: bool = True, incremental: bool = False) -> Ruleset:
    rep = rep or Reporter(texts)
    files = []
    for path, text in sources:
        try:
            files.append(parse_incremental(text, path) if incremental else _parse(text, path))
        except RulesetError as exc:
            rep.items.extend(exc.diagnostics)
    if rep.errors:
        raise RulesetError(rep.items)
    for f in files:
        rep.targets[f.path] = target_of(f.language)
        if f.language > CURRENT or (f.language_span and f.language < 1):
            rep.error(f.language_span, f"this file targets language {f.language}, and this Ludex knows languages 1 to {CURRENT}",
                      "upgrade Ludex" if f.language > CURRENT else f"write `language {CURRENT}`")
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
    while extra and extra[0].header == "game" and not extra[0].name:  # a part of the game file (`_parts`)
        decls += extra[0].decls
        for e in extra[0].edits:
            rep.error(e.span, f"`{e.action}` belongs in a variant file, not in a part of the game",
                      f"move it to variants/NAME.ludex, after `variant NAME extends {base.name}`")
        extra = extra[1:]
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
    if not build:  # a check alone: the IR and its content hash are not needed
        return None  # type: ignore[return-value]
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
    _compile_policies(groups)
    rs = Ruleset(base.name, base.title, variants, seats, setup=setup, sources=tuple(sources),
                 **{k: tuple(v) for k, v in groups.items()})  # type: ignore[arg-type]
    return attrs.evolve(rs, content_hash=content_hash(rs.to_data()))


def _compile_policies(groups: dict[str, list]) -> None:
    """Each policy rule's `when` and `by` become functions of the move's parameters
    (`_policy_NAME_I_when`, `_policy_NAME_I_by`), so both back ends compile them as any function."""
    moves = {m.name: m for m in groups["moves"]}
    for i, p in enumerate(groups["policies"]):
        rules = []
        for k, r in enumerate(p.rules):
            if r.move not in moves:  # skipped (a warning): a variant removed the move
                rules.append(r)
                continue
            params = tuple(A.Param(b.name, A.TypeRef("any"), b.span) for b in moves[r.move].params)
            names = {}
            for part in ("when", "by"):
                expr = getattr(r, part)
                if expr is not None:
                    names[f"{part}_fn"] = f"_policy_{p.name}_{k}_{part}"
                    groups["fns"].append(A.FnDecl(names[f"{part}_fn"], r.doc, r.span, params, None, expr))
            rules.append(attrs.evolve(r, **names))
        groups["policies"][i] = attrs.evolve(p, rules=tuple(rules))


def check_text(text: str, filename: str = "<text>") -> list[Diagnostic]:
    """Diagnostics, errors and warnings, for one game file given as text (empty when it is clean)."""
    return check_sources(((filename, text),))


def check(ruleset: str, variants: tuple[str, ...] | list[str] = ()) -> list[Diagnostic]:
    """Diagnostics, errors and warnings, for a ruleset with variants (empty when it is clean).

    An unknown ruleset or variant name gives its one diagnostic, at line 0.
    """
    try:
        return check_sources(ruleset_sources(ruleset, variants))
    except RulesetError as exc:
        return exc.diagnostics


__all__ = ["BundledInfo", "bundled_rulesets", "check", "check_sources", "check_text", "ruleset_sources", "load_from_sources", "load_ruleset", "resolve", "to_data"]
