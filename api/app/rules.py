"""Compiled rulesets for the service: the bundled catalogue, and pinned rules of stored games.

A game's header event pins the exact rule text it was compiled from (`sources`) and the
compiled rules' `content_hash`. Old games are recompiled from that pinned text, never from the
current files, so editing a ruleset never changes a game already running; the hash check makes
sure the recompiled rules are the very rules the game started with.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any, Iterable, Sequence

import dsl
from api.app.errors import InvalidRequest, NotFound
from api.app.ruleset_dirs import DesignerRuleset, scan


class PinnedRulesMismatch(Exception):
    """Recompiling a game's pinned sources gave a different content hash."""


class Rules:
    """Compiles and caches rulesets (thread-safe). Games start from bundled rulesets and from
    the designers' rulesets folders given as `ruleset_dirs` (see `api.app.ruleset_dirs`),
    always by name: a client never names a file path on the server."""

    def __init__(self, ruleset_dirs: Iterable[str | Path] = ()) -> None:
        self.ruleset_dirs = tuple(Path(d) for d in ruleset_dirs)
        self._lock = threading.Lock()
        self._compile_lock = threading.Lock()
        self._bundled: dict[tuple[str, tuple[str, ...]], Any] = {}
        self._pinned: dict[tuple[str, tuple[str, ...]], Any] = {}
        self._catalogue: list[dict[str, Any]] | None = None

    def catalogue(self) -> list[dict[str, Any]]:
        """Every ruleset that can be asked for: `[{name, variants, seats: {min, max}, options:
        [...], content_hash, origin, ok, diagnostics}]` (options and hash of the base rules,
        without variants). Bundled ones first (`origin` "bundled"), then the designers'
        (`origin` their folder or file), read from disk now. A designer's ruleset that fails
        its check has `ok` false, its `diagnostics`, and null `seats` and `content_hash`."""
        with self._lock:
            bundled = self._catalogue
        if bundled is None:
            bundled = [
                _entry(info.name, list(info.variants), self.bundled(info.name, ()), "bundled")
                for info in dsl.bundled_rulesets()
            ]
            with self._lock:
                self._catalogue = bundled
        return bundled + [self._designer_entry(d, problem) for d, problem in self._designers()]

    def ruleset(self, name: str, variants: Sequence[str]) -> Any:
        """The compiled ruleset `name` (a designer's, read from disk now, or a bundled one)
        with `variants`. Raises NotFound (`ruleset_not_found`, listing the names served) and
        InvalidRequest (`bad_variant`; `bad_ruleset` with the `diagnostics` when the rules
        fail their check)."""
        for d, problem in self._designers():
            if d.name == name and problem is None:
                return self._compile_designer(d, variants)
        known = sorted({b.name for b in dsl.bundled_rulesets()} | {d.name for d, _ in self._designers()})
        if name not in {b.name for b in dsl.bundled_rulesets()}:
            raise NotFound("ruleset_not_found", f"no ruleset named {name!r}", known=known)
        return self.bundled(name, variants)

    def _designers(self) -> list[tuple[DesignerRuleset, str | None]]:
        """The designers' rulesets, each with why it cannot be served under its name (a name
        already taken by a bundled or an earlier ruleset) or None."""
        taken = {b.name: "bundled" for b in dsl.bundled_rulesets()}
        out: list[tuple[DesignerRuleset, str | None]] = []
        for d in scan(self.ruleset_dirs):
            other = taken.get(d.name)
            out.append((d, None if other is None else f"the name {d.name!r} is already served ({other}): rename the folder or file"))
            taken.setdefault(d.name, d.origin)
        return out

    def _compile_designer(self, d: DesignerRuleset, variants: Sequence[str]) -> Any:
        unknown = [v for v in variants if v not in d.variants]
        if unknown:
            raise InvalidRequest(
                "bad_variant", f"ruleset {d.name!r} has no variant {unknown[0]!r}", variants=sorted(d.variants)
            )
        try:
            sources = d.sources(variants)
        except OSError as exc:
            raise InvalidRequest("bad_ruleset", f"cannot read ruleset {d.name!r}: {exc}") from exc
        try:
            rs = dsl.load_from_sources(sources)
        except dsl.RulesetError as exc:
            first = str(exc.diagnostics[0]).splitlines()[0] if exc.diagnostics else ""
            raise InvalidRequest(
                "bad_ruleset",
                f"ruleset {d.name!r} does not check ({len(exc.diagnostics)} diagnostics; first: {first})",
                diagnostics=[x.to_dict() for x in exc.diagnostics],
            ) from exc
        with self._lock:
            self._pinned[_sources_key(rs.sources, rs.variants)] = rs
        return rs

    def _designer_entry(self, d: DesignerRuleset, problem: str | None) -> dict[str, Any]:
        if problem is None:
            try:
                return _entry(d.name, sorted(d.variants), self._compile_designer(d, ()), d.origin)
            except InvalidRequest as exc:
                diagnostics = exc.details.get("diagnostics") or [_name_diagnostic(d, exc.message)]
        else:
            diagnostics = [_name_diagnostic(d, problem)]
        return {
            "name": d.name, "variants": sorted(d.variants), "seats": None, "options": [], "content_hash": None,
            "origin": d.origin, "ok": False, "diagnostics": diagnostics,
        }

    def bundled(self, name: str, variants: Sequence[str]) -> Any:
        """The compiled bundled ruleset `name` with `variants`.

        Raises NotFound (`ruleset_not_found`) for a name that is not bundled and InvalidRequest
        (`bad_ruleset`) when the rules or variants do not compile.
        """
        key = (name, tuple(variants))
        with self._lock:
            if key in self._bundled:
                return self._bundled[key]
        # One compile at a time: concurrent first requests wait for it instead of all
        # compiling the same rules at once.
        with self._compile_lock:
            with self._lock:
                if key in self._bundled:
                    return self._bundled[key]
            return self._compile_bundled(name, variants, key)

    def _compile_bundled(self, name: str, variants: Sequence[str], key: tuple[str, tuple[str, ...]]) -> Any:
        known = {info.name: info for info in dsl.bundled_rulesets()}
        if name not in known:
            raise NotFound("ruleset_not_found", f"no bundled ruleset named {name!r}", known=sorted(known))
        unknown = [v for v in variants if v not in known[name].variants]
        if unknown:
            raise InvalidRequest(
                "bad_variant",
                f"ruleset {name!r} has no variant {unknown[0]!r}",
                variants=list(known[name].variants),
            )
        try:
            rs = dsl.load_ruleset(name, variants=list(variants))
        except dsl.RulesetError as exc:
            raise InvalidRequest("bad_ruleset", f"ruleset {name!r} does not compile: {exc}") from exc
        with self._lock:
            self._bundled[key] = rs
            self._pinned[_sources_key(rs.sources, rs.variants)] = rs
        return rs

    def pinned(
        self,
        sources: Sequence[Sequence[str]],
        variants: Sequence[str],
        content_hash: str,
        text_hash: str | None = None,
    ) -> Any:
        """Recompile a game's pinned rule text; raises PinnedRulesMismatch if the compiled hash
        differs from `content_hash`. With the header's `text_hash` (`sources_hash`) the error
        says whether the text was edited or this version of Ludex compiles it differently."""
        if text_hash is not None and sources_hash(sources) != text_hash:
            raise PinnedRulesMismatch("the pinned rule text was edited (its hash differs from the header's)")
        # Keyed by the text itself, not by the hash it claims: a log whose text was swapped
        # must be recompiled, and then fails the hash check below.
        try:
            key = _sources_key(sources, variants)
        except (TypeError, ValueError) as exc:
            raise PinnedRulesMismatch(f"pinned sources are not [[file, text], ...]: {exc}") from exc
        with self._lock:
            rs = self._pinned.get(key)
        if rs is not None:
            _check_hash(rs, content_hash, text_hash)
            return rs
        try:
            rs = dsl.load_from_sources(tuple((f, t) for f, t in sources), variants=tuple(variants))
        except dsl.RulesetError as exc:
            raise PinnedRulesMismatch(f"pinned rule text no longer compiles: {exc}") from exc
        except (TypeError, ValueError) as exc:
            raise PinnedRulesMismatch(f"pinned sources are not [[file, text], ...]: {exc}") from exc
        _check_hash(rs, content_hash, text_hash)
        with self._lock:
            self._pinned[key] = rs
        return rs

    @staticmethod
    def check(text: str, filename: str = "<text>") -> list[dict[str, Any]]:
        """Diagnostics for a ruleset text (empty when it compiles cleanly)."""
        return [d.to_dict() for d in dsl.check_text(text, filename)]


def _entry(name: str, variants: list[str], rs: Any, origin: str) -> dict[str, Any]:
    return {
        "name": name,
        "variants": variants,
        "seats": {"min": rs.seats[0], "max": rs.seats[1]},
        "options": [
            {
                            "name": o.name,
                            "type": str(o.type),
                            "default": _json_default(o.default),
                            "doc": o.doc,
                            "range": {"min": o.range[0], "max": o.range[1]} if o.range else None,
                        } for o in rs.options
        ],
        "content_hash": rs.content_hash,
        "origin": origin,
        "ok": True,
        "diagnostics": [],
    }


def _name_diagnostic(d: DesignerRuleset, message: str) -> dict[str, Any]:
    return dsl.Diagnostic("error", message, d.origin, 0, 0).to_dict()


def _check_hash(rs: Any, content_hash: str, text_hash: str | None) -> None:
    if rs.content_hash == content_hash:
        return
    got, want = rs.content_hash[:12], content_hash[:12]
    if text_hash is not None:  # the text matched its hash, so the compiler changed
        raise PinnedRulesMismatch(
            f"the pinned rule text is unchanged but this version of Ludex compiles it to {got}..., "
            f"not {want}...: the game was played under a different compiler"
        )
    raise PinnedRulesMismatch(f"pinned rule text compiles to {got}..., header says {want}...")


def _json_default(default: Any) -> Any:
    """An option's default as JSON. The IR keeps defaults as expressions; a literal is shown
    as its value, anything computed as its source text."""
    if default is None or isinstance(default, (str, int, float, bool, list, dict)):
        return default
    if getattr(default, "op", None) == "lit" and getattr(default, "args", None):
        return default.args[0]
    return str(default)


def sources_hash(sources: Sequence[Sequence[str]]) -> str:
    """Hex SHA-256 of the rule text `[[file, text], ...]` (JSON, as pinned in a header)."""
    return hashlib.sha256(json.dumps([list(s) for s in sources]).encode("utf-8")).hexdigest()


def _sources_key(sources: Sequence[Sequence[str]], variants: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    return sources_hash(sources), tuple(variants)
