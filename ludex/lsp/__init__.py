"""The Ludex language server (`ludex lsp`): `server.py` speaks the protocol, `index.py` knows the files."""
