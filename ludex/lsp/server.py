"""`ludex lsp`: a Language Server Protocol server for rule files, over standard input and output.

Built on pygls and lsprotocol. Diagnostics come from the same checker as `ludex check`
(`dsl.loader.check_sources`), debounced after each change; their machine-applicable fixes are
offered as quick fixes. Navigation, hovers, completion, rename, outline and semantic tokens come
from `ludex/lsp/index.py`; formatting from `dsl.formatter`. Anchors: Ruff's and rust-analyzer's
servers (one checker for the command line and the editor).

Positions: the protocol counts columns in UTF-16 code units from 0, Ludex in characters from 1;
`_to_lsp` and `_from_lsp` convert.
"""

from __future__ import annotations

import asyncio
import functools
import gc
from collections import OrderedDict
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from dsl import RulesetError
from dsl.diagnostics import Diagnostic, Edit
from dsl.formatter import format_text
from dsl.loader import check_sources
from ludex.lsp.index import FileIndex, RulesetIndex, index_file, namespace_of, ruleset_paths

DEBOUNCE_SECONDS = 0.03
"""Quiet time after an edit before the file is checked: a burst of keystrokes is checked once."""

TOKEN_TYPES = ["keyword", "string", "number", "comment", "operator", "variable", "function", "enum", "enumMember",
               "class", "struct", "parameter", "property", "event", "type", "method"]
_KIND_TOKEN = {"zone": "variable", "var": "variable", "const": "variable", "components": "variable",
               "entities": "variable", "automaton": "variable", "option": "property", "enum": "enum",
               "enum value": "enumMember", "component": "class", "entity": "struct", "fn": "function",
               "proc": "function", "move": "method", "trigger": "event", "step": "type"}
_SYMBOL_KIND = {"zone": T.SymbolKind.Array, "var": T.SymbolKind.Variable, "const": T.SymbolKind.Constant,
                "components": T.SymbolKind.Array, "entities": T.SymbolKind.Array, "option": T.SymbolKind.Property,
                "enum": T.SymbolKind.Enum, "enum value": T.SymbolKind.EnumMember, "component": T.SymbolKind.Class,
                "entity": T.SymbolKind.Struct, "fn": T.SymbolKind.Function, "proc": T.SymbolKind.Function,
                "move": T.SymbolKind.Method, "trigger": T.SymbolKind.Event, "step": T.SymbolKind.Key,
                "automaton": T.SymbolKind.Object}
_COMPLETION_KIND = {"keyword": T.CompletionItemKind.Keyword, "builtin": T.CompletionItemKind.Function,
                    "fn": T.CompletionItemKind.Function, "proc": T.CompletionItemKind.Function,
                    "enum value": T.CompletionItemKind.EnumMember, "enum": T.CompletionItemKind.Enum,
                    "field": T.CompletionItemKind.Field, "component": T.CompletionItemKind.Class,
                    "entity": T.CompletionItemKind.Struct, "option": T.CompletionItemKind.Property}


def _to_lsp(line_text: str, column: int) -> int:
    """A 1-based character column as the protocol's 0-based UTF-16 offset."""
    return len(line_text[: max(column - 1, 0)].encode("utf-16-le")) // 2


def _from_lsp(line_text: str, character: int) -> int:
    """The protocol's 0-based UTF-16 offset as a 1-based character column."""
    units = 0
    for i, ch in enumerate(line_text):
        if units >= character:
            return i + 1
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line_text) + 1


_INDEXED_FILES = 16
_indexed_files: OrderedDict[str, tuple[str, FileIndex]] = OrderedDict()


def _indexed(path: str, text: str) -> FileIndex:
    """The index of `path` holding `text`. One index is kept per file, of its last text, for the
    `_INDEXED_FILES` files used last: an index of Weather Machine's file takes about 2.7 MB, and
    editing a file that has errors indexes each version (for the diagnostics' ranges)."""
    kept = _indexed_files.get(path)
    if kept is None or kept[0] != text:
        kept = _indexed_files[path] = (text, index_file(path, text))
    _indexed_files.move_to_end(path)
    while len(_indexed_files) > _INDEXED_FILES:
        _indexed_files.popitem(last=False)
    return kept[1]


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, without its leak: pygls (2.1.1) files the future of each notification it
    handles (didOpen, didChange...: a generator of its own that calls ours) in `_request_futures`
    under a fresh uuid, and only a request's response ever removes an entry there, so every edit
    left about 2 KB behind (bench/lsp_bench.py's tracemalloc snapshots found it). Here each such
    entry goes once its future is done."""

    def _handle_notification(self, method_name: str, params: Any) -> None:
        before = set(self._request_futures)
        super()._handle_notification(method_name, params)
        for key in set(self._request_futures) - before:
            self._request_futures[key].add_done_callback(functools.partial(self._forget, key))

    def _forget(self, key: Any, _done: Any) -> None:
        self._request_futures.pop(key, None)


class LudexServer(LanguageServer):
    """The Ludex language server: the documents' texts are the workspace's (unsaved edits
    included), other files of a ruleset set are read from disk."""

    def __init__(self) -> None:
        super().__init__("ludex", "1", protocol_cls=_Protocol)
        self.pending: dict[str, asyncio.TimerHandle] = {}

    # ---- documents ----
    def text_of(self, path: Path) -> str:
        doc = self.workspace.text_documents.get(from_fs_path(str(path)) or "")
        if doc is not None:
            return doc.source
        return path.read_text(encoding="utf-8") if path.is_file() else ""

    def ruleset(self, uri: str) -> tuple[str, RulesetIndex]:
        path = Path(to_fs_path(uri) or uri).resolve()
        files = [_indexed(str(p), self.text_of(p)) for p in ruleset_paths(path)]
        return str(path), RulesetIndex(files)

    def line(self, path: str, line: int) -> str:
        lines = self.text_of(Path(path)).split("\n")
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def position(self, path: str, line: int, column: int) -> T.Position:
        return T.Position(line=max(line - 1, 0), character=_to_lsp(self.line(path, line), column))

    def where(self, params: Any) -> tuple[str, RulesetIndex, int, int]:
        path, idx = self.ruleset(params.text_document.uri)
        line = params.position.line + 1
        return path, idx, line, _from_lsp(self.line(path, line), params.position.character)

    def name_range(self, path: str, line: int, column: int, length: int) -> T.Range:
        return T.Range(start=self.position(path, line, column), end=self.position(path, line, column + length))

    # ---- diagnostics ----
    def diagnose(self, uri: str) -> list[T.Diagnostic]:
        """The diagnostics of one open file: checked with its base when it is a variant."""
        path = str(Path(to_fs_path(uri) or uri).resolve())
        paths = ruleset_paths(Path(path))
        sources = [(str(paths[0]), self.text_of(paths[0]))]
        if str(paths[0]) != path:
            sources.append((path, self.text_of(Path(path))))
        seen: list[Diagnostic] = []
        for d in check_sources(tuple(sources), incremental=True):
            if d.file == path and d not in seen:
                seen.append(d)
        if not seen:  # a clean file needs no token positions: skip indexing it
            return []
        idx = self.ruleset(uri)[1]
        return [self.to_lsp_diagnostic(d, idx) for d in seen]

    def to_lsp_diagnostic(self, d: Diagnostic, idx: RulesetIndex) -> T.Diagnostic:
        found = idx.token_at(d.file, d.line, d.column) if d.line else None
        length = len(found[0].value) if found and found[0].column == d.column else 1
        related = [T.DiagnosticRelatedInformation(
            location=T.Location(uri=from_fs_path(e.file) or e.file, range=self.edit_range(e)), message=f.title)
            for f in d.fixes for e in f.edits if (e.file, e.line) != (d.file, d.line)]
        return T.Diagnostic(
            range=self.name_range(d.file, d.line or 1, d.column or 1, length),
            message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
            severity=T.DiagnosticSeverity.Error if d.severity == "error" else T.DiagnosticSeverity.Warning,
            source="ludex", code=d.code or None, related_information=related or None,
            data={"fixes": [{"title": f.title, "edits": [list(_edit_tuple(e)) for e in f.edits]} for f in d.fixes]},
        )

    def edit_range(self, e: Edit) -> T.Range:
        return T.Range(start=self.position(e.file, e.line, e.column), end=self.position(e.file, e.end_line, e.end_column))

    def schedule(self, uri: str) -> None:
        """Check `uri` once the edits have paused for `DEBOUNCE_SECONDS`."""
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(DEBOUNCE_SECONDS, self.publish, uri)

    def publish(self, uri: str) -> None:
        self.pending.pop(uri, None)
        doc = self.workspace.text_documents.get(uri)
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, diagnostics=self.diagnose(uri), version=doc.version if doc else None))


def _edit_tuple(e: Edit) -> tuple:
    return e.file, e.line, e.column, e.end_line, e.end_column, e.text


server = LudexServer()


@server.feature(T.INITIALIZED)
def initialized(ls: LudexServer, params: T.InitializedParams) -> None:
    """Warm up before the first file opens: one check of a tiny game builds the parser and imports
    the checker. What exists then lives as long as the server, so it is moved out of the garbage
    collector's sight (`gc.freeze`): a full collection, which an edit that moves every piece of a
    file (26,000 new nodes) can set off, then takes about 13 ms instead of 95 (Weather Machine)."""
    check_sources((("<warm-up>", "game warm_up\nseats 2\nstep play\n"),))
    gc.collect()
    gc.freeze()


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LudexServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LudexServer, params: T.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LudexServer, params: T.DidSaveTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: LudexServer, params: T.DidCloseTextDocumentParams) -> None:
    pending = ls.pending.pop(params.text_document.uri, None)
    if pending is not None:
        pending.cancel()
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
def code_action(ls: LudexServer, params: T.CodeActionParams) -> list[T.CodeAction]:
    """Each fix a diagnostic carries, as a quick fix (the same edits `ludex check --fix` makes)."""
    out = []
    for d in params.context.diagnostics:
        for f in (d.data or {}).get("fixes", []) if isinstance(d.data, dict) else []:
            changes: dict[str, list[T.TextEdit]] = {}
            for file, line, col, end_line, end_col, text in f["edits"]:
                e = Edit(file, line, col, end_line, end_col, text)
                changes.setdefault(from_fs_path(file) or file, []).append(T.TextEdit(range=ls.edit_range(e), new_text=text))
            out.append(T.CodeAction(title=f["title"], kind=T.CodeActionKind.QuickFix, diagnostics=[d],
                                    is_preferred=True, edit=T.WorkspaceEdit(changes=changes)))
    return out


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: LudexServer, params: T.HoverParams) -> T.Hover | None:
    path, idx, line, column = ls.where(params)
    text = idx.hover(path, line, column)
    if text is None:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls: LudexServer, params: T.DefinitionParams) -> list[T.Location]:
    path, idx, line, column = ls.where(params)
    found = idx.token_at(path, line, column)
    if found is None:
        return []
    return [T.Location(uri=from_fs_path(s.file) or s.file, range=ls.name_range(s.file, s.line, s.column, len(s.name)))
            for s in idx.definitions(found[0].value, found[1])]


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
def references(ls: LudexServer, params: T.ReferenceParams) -> list[T.Location]:
    path, idx, line, column = ls.where(params)
    found = idx.token_at(path, line, column)
    if found is None:
        return []
    name, ns = found[0].value, found[1]
    decls = {(s.file, s.line, s.column) for s in idx.definitions(name, ns)}
    return [T.Location(uri=from_fs_path(f) or f, range=ls.name_range(f, ln, col, len(name)))
            for f, ln, col in idx.references(name, ns)
            if params.context.include_declaration or (f, ln, col) not in decls]


@server.feature(T.TEXT_DOCUMENT_RENAME)
def rename(ls: LudexServer, params: T.RenameParams) -> T.WorkspaceEdit | None:
    """Rename a declared name everywhere it is written, across a variant and its base."""
    from dsl.tokens import layout

    path, idx, line, column = ls.where(params)
    found = idx.token_at(path, line, column)
    if found is None or not idx.definitions(found[0].value, found[1]):
        return None
    try:  # the new name must lex as one name, not a keyword
        toks = layout(f"const {params.new_name} = 1").tokens
    except Exception:
        toks = []
    if len(toks) != 4 or toks[1].kind != "NAME":
        raise ValueError(f"'{params.new_name}' is not a name the language allows here")
    changes: dict[str, list[T.TextEdit]] = {}
    for f, ln, col in idx.references(found[0].value, found[1]):
        changes.setdefault(from_fs_path(f) or f, []).append(
            T.TextEdit(range=ls.name_range(f, ln, col, len(found[0].value)), new_text=params.new_name))
    return T.WorkspaceEdit(changes=changes)


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: LudexServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
    """The outline: every declaration of the file, enum values and entity members inside theirs."""
    path, idx = ls.ruleset(params.text_document.uri)
    f = idx.file(path)
    if f is None:
        return []
    top: list[T.DocumentSymbol] = []
    by_name: dict[str, T.DocumentSymbol] = {}
    for s in f.symbols:
        sym = T.DocumentSymbol(
            name=s.name, kind=_SYMBOL_KIND.get(s.kind, T.SymbolKind.Variable), detail=s.detail,
            range=T.Range(start=ls.position(path, s.line, s.column), end=ls.position(path, s.end_line, s.end_column)),
            selection_range=ls.name_range(path, s.line, s.column, len(s.name)), children=[])
        holder = by_name.get(s.container) if s.container else None
        if holder is not None:
            holder.children.append(sym)  # type: ignore[union-attr]
        else:
            top.append(sym)
        if s.kind in ("enum", "entity"):
            by_name[s.name] = sym
    return top


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
def completion(ls: LudexServer, params: T.CompletionParams) -> T.CompletionList:
    path, idx, line, column = ls.where(params)
    items = [T.CompletionItem(label=label, kind=_COMPLETION_KIND.get(kind, T.CompletionItemKind.Variable), detail=detail)
             for label, kind, detail in idx.completions(path, line, column)]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                T.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=["declaration"]))
def semantic_tokens(ls: LudexServer, params: T.SemanticTokensParams) -> T.SemanticTokens:
    """Every token classified: keywords, strings, numbers, comments, operators, and each name by
    what it names (a zone, an enum value, a function, a step...)."""
    path, idx = ls.ruleset(params.text_document.uri)
    f = idx.file(path)
    data: list[int] = []
    if f is None or f.lay is None:
        return T.SemanticTokens(data=data)
    lines = f.text.split("\n")
    prev_line, prev_char = 0, 0
    toks = f.lay.tokens
    for i, t in enumerate(toks):
        kind = _token_type(t, toks, i, f, idx)
        if kind is None:
            continue
        src = lines[t.line - 1]
        start, end = _to_lsp(src, t.column), _to_lsp(src, t.column + len(t.value))
        line0 = t.line - 1
        data += [line0 - prev_line, start - prev_char if line0 == prev_line else start, end - start,
                 TOKEN_TYPES.index(kind), 1 if (t.parent.endswith("_decl") and t.nth == 0 and t.kind == "NAME") else 0]
        prev_line, prev_char = line0, start
    return T.SemanticTokens(data=data)


def _token_type(t, toks, i, f, idx) -> str | None:
    if t.kind == "COMMENT":
        return "comment"
    if t.kind == "STRING":
        return "string"
    if t.kind == "INT":
        return "number"
    if t.kind == "NAME":
        ns = namespace_of(toks, i, f.lay)
        if ns is None:
            return "parameter" if t.parent in ("binder", "param", "let_stmt", "for_stmt", "comp_for") else "property"
        defs = idx.definitions(t.value, ns)
        return _KIND_TOKEN.get(defs[0].kind, "variable") if defs else "variable"
    if t.value.isalpha() or t.value.replace("_", "").isalpha():
        return "keyword"
    return "operator" if t.value not in "()[]{},;:" else None


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: LudexServer, params: T.DocumentFormattingParams) -> list[T.TextEdit] | None:
    """The whole document in the canonical layout (`ludex fmt`); nothing when it does not parse."""
    path = to_fs_path(params.text_document.uri) or params.text_document.uri
    text = ls.text_of(Path(path))
    try:
        new = format_text(text, path)
    except RulesetError:
        return None
    if new == text:
        return []
    lines = text.split("\n")
    end = T.Position(line=len(lines), character=0)
    return [T.TextEdit(range=T.Range(start=T.Position(line=0, character=0), end=end), new_text=new)]


MEMORY = "ludex/memory"
"""A request of this server's own (not LSP's): its memory, for `bench/lsp_bench.py`."""


@server.feature(MEMORY)
def memory(ls: LudexServer, params: Any) -> dict[str, Any]:
    """The server's memory as Python sees it, after a garbage collection: `{"current": bytes,
    "peak": bytes}` traced by tracemalloc, null until tracing starts. Params (each optional):
    `trace`, a number of frames: start tracing (allocations made before are never counted);
    `snapshot`, a file path: write a tracemalloc snapshot there (`tracemalloc.Snapshot.load`);
    `stop`, true: stop tracing once answered (tracing slows the server several times over)."""
    import tracemalloc

    def arg(name: str) -> Any:
        return params.get(name) if isinstance(params, dict) else getattr(params, name, None)

    if arg("trace") and not tracemalloc.is_tracing():
        tracemalloc.start(int(arg("trace")))
    gc.collect()
    if arg("snapshot") and tracemalloc.is_tracing():
        tracemalloc.take_snapshot().dump(str(arg("snapshot")))
    if not tracemalloc.is_tracing():
        return {"current": None, "peak": None}
    current, peak = tracemalloc.get_traced_memory()
    if arg("stop"):
        tracemalloc.stop()
    return {"current": current, "peak": peak}


def main() -> None:
    """Serve over standard input and output until the client says exit."""
    server.start_io()
