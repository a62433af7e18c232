"""Saved games: a game played outside the service (`ludex simulate --save`, `ludex play
--save`) written as the same JSON-lines log `ludex export` prints, so `ludex replay` and
`ludex audit` read it like any served game's.

The moves are played again through a `GameService` on an in-memory store with the game's
seed: the log is then exactly what the service would have stored (header pinning the rule
text, every event hash-chained, the seed revealed at the end, the export header with a signed
receipt) and never a second implementation of the format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from api.app import GameService, Rules
from api.store import EventStore


class _Only(Rules):
    """Rules that serve one compiled ruleset, whatever name is asked for."""

    def __init__(self, rs: Any) -> None:
        super().__init__()
        self._rs = rs

    def ruleset(self, name: str, variants: Sequence[str]) -> Any:
        return self._rs


def game_log(
    rs: Any, seats: int, options: dict[str, Any], seed: str, moves: Sequence[tuple[int, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The export log (export header line first) of a game of `rs` with `seats`, `options` and
    `seed` in which `moves` `[(seat, {name, args}), ...]` were played, in order.

    Raises `api.app.ServiceError` if a move is not legal where it is played (the moves must be
    those of a game created with the same settings and seed).
    """
    store = EventStore("sqlite://")
    try:
        service = GameService(store, _Only(rs))
        created = service.create_game(rs.name, list(rs.variants), options, seats, seed)
        game_id, tokens, version = created["game_id"], created["tokens"], created["version"]
        for seat, move in moves:
            version = service.submit_move(game_id, tokens[seat], move, version)["version"]
        return [service.export_header(game_id), *service.export(game_id)]
    finally:
        store.dispose()


def write_log(path: Path, entries: Sequence[dict[str, Any]]) -> Path:
    """Write `entries` as JSON lines, as `ludex export` prints them."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for entry in entries:
            out.write(json.dumps(entry, sort_keys=True, ensure_ascii=False) + "\n")
    return path
