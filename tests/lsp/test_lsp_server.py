"""`ludex lsp` driven over stdio by a real LSP client (pytest-lsp, on pygls's client), as an editor would."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

GAME = """game race "A race"
seats 2
option target: int = 3 "R1: squares to the finish"
enum colour { red, blue }
component pawn(colour: colour)
components pawns = [pawn(c) for c in colour]
zone track: pawn public = pawns "R2: the track, start first"
var pos: per seat int = 0
var moved: int = 0
step go
move run() during go {
  pos[actor] += 1
  mvoed += 1
  if pos[actor] >= option.target { end game win actor }
  end turn
}
"""

VARIANT = """variant long extends race
set target = 5
replace move run() during go {
  pos[actor] += 2
  move top(track) to track top
  if pos[actor] >= option.target { end game win actor }
  end turn
}
"""

@pytest_lsp.fixture(scope="module",
                    config=ClientServerConfig(server_command=[sys.executable, "-c", "from ludex.cli import main; main()", "lsp"]))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    # one server for the module (it takes seconds to start); each test works in a ruleset folder of its own
    root = tmp_path_factory.mktemp("lsp")
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[T.WorkspaceFolder(uri=root.as_uri(), name="rulesets")]))
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def _project(client: LanguageClient, name: str) -> Path:
    """A ruleset folder `name` (GAME and its variant `long`) for one test."""
    folder = client.root / name  # type: ignore[attr-defined]
    (folder / "variants").mkdir(parents=True)
    (folder / "game.ludex").write_text(GAME)
    (folder / "variants" / "long.ludex").write_text(VARIANT)
    return folder


def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
        uri=uri, language_id="ludex", version=1, text=path.read_text() if text is None else text)))
    return uri


async def _diagnostics(client: LanguageClient, uri: str) -> list[T.Diagnostic]:
    """The next diagnostics published for `uri`."""
    while uri not in client.diagnostics:
        await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics.pop(uri))


def _at(line: int, character: int) -> T.Position:
    return T.Position(line=line, character=character)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_broken_file_gets_its_diagnostic_with_the_right_range_and_a_quick_fix(client: LanguageClient):
    uri = _open(client, _project(client, "broken") / "game.ludex")
    [d] = await _diagnostics(client, uri)
    assert d.severity == T.DiagnosticSeverity.Error and d.source == "ludex"
    assert d.message == "unknown name 'mvoed'\nhint: did you mean 'moved'?"
    assert d.range == T.Range(start=_at(12, 2), end=_at(12, 7))  # `mvoed`, line 13 column 3
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), range=d.range,
        context=T.CodeActionContext(diagnostics=[d])))
    [fix] = actions
    assert fix.title == "replace 'mvoed' with 'moved'" and fix.kind == T.CodeActionKind.QuickFix
    [edit] = fix.edit.changes[uri]
    assert edit.range == d.range and edit.new_text == "moved"
    # the editor applies it; the server re-checks the edited text and the file is clean
    fixed = GAME.replace("mvoed += 1", "moved += 1")
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=fixed)]))
    assert await _diagnostics(client, uri) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_a_variant_is_checked_with_its_base_and_its_warning_carries_the_fix_into_the_base(client: LanguageClient):
    root = _project(client, "variant")
    uri = _open(client, root / "variants" / "long.ludex")
    [d] = [x for x in await _diagnostics(client, uri)]
    assert d.severity == T.DiagnosticSeverity.Warning and d.code == "ordered-zone"
    assert d.range.start == _at(4, 21)  # `track` in `... to track top`
    assert d.related_information[0].location.uri == (root / "game.ludex").as_uri()
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), range=d.range, context=T.CodeActionContext(diagnostics=[d])))
    [edit] = actions[0].edit.changes[(root / "game.ludex").as_uri()]
    assert edit.new_text == " ordered" and edit.range.start == _at(6, 23)  # after `public` of `zone track`


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_a_zones_visibility_types_and_citation(client: LanguageClient):
    uri = _open(client, _project(client, "hover") / "game.ludex")
    h = await client.text_document_hover_async(T.HoverParams(text_document=T.TextDocumentIdentifier(uri=uri), position=_at(6, 6)))
    assert "zone track: of pawn components, public" in h.contents.value
    assert "R2: the track, start first" in h.contents.value
    h = await client.text_document_hover_async(T.HoverParams(text_document=T.TextDocumentIdentifier(uri=uri), position=_at(7, 5)))
    assert h.contents.value == "```ludex\nvar pos: per seat int\n```\n\ntype: a number per seat"
    h = await client.text_document_hover_async(T.HoverParams(text_document=T.TextDocumentIdentifier(uri=uri), position=_at(13, 30)))
    assert "R1: squares to the finish" in h.contents.value  # `option.target` shows the option's citation


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_references_and_rename_cross_the_variant_and_its_base(client: LanguageClient):
    root = _project(client, "navigate")
    game, variant = (root / "game.ludex").as_uri(), (root / "variants" / "long.ludex").as_uri()
    _open(client, root / "game.ludex")
    _open(client, root / "variants" / "long.ludex")
    doc = T.TextDocumentIdentifier(uri=variant)
    [loc] = await client.text_document_definition_async(T.DefinitionParams(text_document=doc, position=_at(3, 4)))
    assert loc.uri == game and loc.range.start == _at(7, 4)  # `pos` in the variant -> `var pos` in the base
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=doc, position=_at(1, 5), context=T.ReferenceContext(include_declaration=True)))
    assert sorted((r.uri == variant, r.range.start.line) for r in refs) == [(False, 2), (False, 13), (True, 1), (True, 5)]
    edit = await client.text_document_rename_async(T.RenameParams(text_document=doc, position=_at(3, 4), new_name="square"))
    assert sorted((u == variant, e.range.start.line, e.range.start.character) for u, es in edit.changes.items() for e in es) == [
        (False, 7, 4), (False, 11, 2), (False, 13, 5), (True, 3, 2), (True, 5, 5)]
    assert {e.new_text for es in edit.changes.values() for e in es} == {"square"}


@pytest.mark.asyncio(loop_scope="module")
async def test_formatting_gives_the_canonical_layout(client: LanguageClient):
    messy = GAME.replace("seats 2", "seats   2").replace("pos[actor] += 1", "pos[ actor ]+=1")
    uri = _open(client, _project(client, "format") / "game.ludex", messy)
    [edit] = await client.text_document_formatting_async(T.DocumentFormattingParams(
        text_document=T.TextDocumentIdentifier(uri=uri), options=T.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edit.new_text == GAME and edit.range.start == _at(0, 0)


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_outline_and_semantic_tokens(client: LanguageClient):
    uri = _open(client, _project(client, "complete") / "game.ludex")
    doc = T.TextDocumentIdentifier(uri=uri)
    items = await client.text_document_completion_async(T.CompletionParams(text_document=doc, position=_at(13, 26)))
    labels = {i.label for i in items.items}
    assert "target" in labels and "track" not in labels  # after `option.`: the options only
    items = await client.text_document_completion_async(T.CompletionParams(text_document=doc, position=_at(11, 2)))
    labels = {i.label for i in items.items}
    assert {"pos", "track", "red", "size", "move", "actor"} <= labels
    symbols = await client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc))
    assert [s.name for s in symbols] == ["target", "colour", "pawn", "pawns", "track", "pos", "moved", "go", "run"]
    assert [c.name for c in symbols[1].children] == ["red", "blue"]
    tokens = await client.text_document_semantic_tokens_full_async(T.SemanticTokensParams(text_document=doc))
    from ludex.lsp.server import TOKEN_TYPES

    decoded, line, char = [], 0, 0
    for i in range(0, len(tokens.data), 5):
        dl, dc, length, kind, _ = tokens.data[i:i + 5]
        line, char = line + dl, (char + dc if dl == 0 else dc)
        decoded.append((line, char, length, TOKEN_TYPES[kind]))
    assert (0, 0, 4, "keyword") in decoded and (3, 14, 3, "enumMember") in decoded
    assert (6, 5, 5, "variable") in decoded and (2, 23, 27, "string") in decoded


@pytest.mark.asyncio(loop_scope="module")
async def test_the_servers_memory_stays_flat_over_many_edits(client: LanguageClient):
    # issue 28: a thousand edits leave the server holding what one version needs, not something per edit.
    # Python memory grew 1.9 MB over them while pygls kept each notification's future, 0.7 MB while the
    # server kept the index of the last 16 versions of any file, 0.16 MB since
    from ludex.lsp.server import MEMORY

    game = GAME  # with its error: each version is indexed for the diagnostic's range
    uri = _open(client, _project(client, "flat") / "game.ludex", game)
    assert len(await _diagnostics(client, uri)) == 1
    start = await client.protocol.send_request_async(MEMORY, {"trace": 1})
    for version in range(2, 1002):
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=f"{game}# edit {version}\n")]))
        if version % 10 == 1:  # in bursts, as typing sends them, each checked before the next
            while (await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)).version != version:
                pass
    end = await client.protocol.send_request_async(MEMORY, {"stop": True})
    assert start.current is not None and end.current - start.current < 400_000, end.current - start.current
