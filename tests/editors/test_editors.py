"""The editor support: the TextMate grammar passes vscode-tmgrammar-test on its annotated samples, covers
every keyword of the language, and the VS Code extension folder is complete and uses the same grammar."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from ludex.lsp.index import keywords

ROOT = Path(__file__).resolve().parents[2]
TM = ROOT / "editors" / "textmate"
VSCODE = ROOT / "editors" / "vscode"
RUNNER = TM / "node_modules" / ".bin" / "vscode-tmgrammar-test"


def test_the_annotated_samples_get_the_scopes_they_assert():
    assert RUNNER.exists(), "vscode-tmgrammar-test is not installed: `make test` runs `npm ci` in editors/textmate"
    r = subprocess.run([str(RUNNER), "-g", "ludex.tmLanguage.json", "tests/declarations_and_statements.ludex",
                        "tests/variant.ludex"], cwd=TM, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("run successfuly") == 2


def test_the_samples_use_every_keyword_and_the_grammar_names_each():
    samples = "\n".join(p.read_text() for p in sorted((TM / "tests").glob("*.ludex")))
    code = "\n".join(ln for ln in samples.splitlines() if not ln.startswith("#"))
    words = set(re.findall(r"[a-z_]+", re.sub(r'"([^"\\]|\\.)*"', "", code)))
    assert [k for k in keywords() if k not in words] == []
    grammar = (TM / "ludex.tmLanguage.json").read_text()
    assert [k for k in keywords() if not re.search(rf"\b{k}\b", grammar)] == []


def test_the_vscode_extension_is_complete_and_uses_the_same_grammar():
    manifest = json.loads((VSCODE / "package.json").read_text())
    [lang] = manifest["contributes"]["languages"]
    [grammar] = manifest["contributes"]["grammars"]
    assert lang["extensions"] == [".ludex"] and grammar["scopeName"] == "source.ludex"
    for rel in (lang["configuration"], grammar["path"], manifest["main"]):
        assert (VSCODE / rel).is_file(), rel
    assert (VSCODE / grammar["path"]).read_text() == (TM / "ludex.tmLanguage.json").read_text()
    assert manifest["contributes"]["configuration"]["properties"]["ludex.server.command"]["default"] == ["ludex", "lsp"]
    assert '"lsp"' in (VSCODE / "extension.js").read_text() or "'lsp'" in (VSCODE / "extension.js").read_text()
    config = json.loads((VSCODE / "language-configuration.json").read_text())
    assert config["comments"]["lineComment"] == "#"
