// The Ludex extension's client: starts `ludex lsp` (setting `ludex.server.command`) over stdio
// for .ludex files. Highlighting comes from syntaxes/ludex.tmLanguage.json (a copy of
// editors/textmate/ludex.tmLanguage.json, kept identical by tests/editors/test_editors.py).
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("ludex").get("server.command", ["ludex", "lsp"]);
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "ludex" }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.ludex") },
  };
  client = new LanguageClient("ludex", "Ludex", serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
