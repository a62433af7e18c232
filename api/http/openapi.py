"""The published OpenAPI document, docs/openapi.json: `python -m api.http.openapi` (or `make
openapi`) writes it from the HTTP face; tests/service/test_openapi.py checks that a running
service serves exactly it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PUBLISHED = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


def document() -> dict[str, Any]:
    """The HTTP face's OpenAPI document (built over a throwaway in-memory store)."""
    from api.app import GameService
    from api.http import create_app
    from api.store import EventStore

    store = EventStore("sqlite://")
    try:
        return create_app(GameService(store)).openapi()
    finally:
        store.dispose()


def render(doc: dict[str, Any]) -> str:
    """The document as published: indented JSON, keys in FastAPI's order, final newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    """Write docs/openapi.json (or the path given as the only argument)."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else PUBLISHED
    target.write_text(render(document()), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
