"""Finished games for the audit tests: played through a real `GameService` on a SQLite file.
Also makes the service tests' harness (`run_cli`, `write_log`, `play_service`) importable."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from api.app import GameService
from api.store import EventStore

sys.path.append(str(Path(__file__).resolve().parents[1] / "service"))
from service_harness import play_service  # noqa: E402


def play_to_end(service: GameService, ruleset: str, seed: str, rng: random.Random,
                seats: int | None = None, moves: int | None = None) -> dict[str, Any]:
    """Create a game and play random legal moves until it ends (or `moves` were made);
    returns the created game (`game_id`, `tokens`) plus the last move response as `last`."""
    game = service.create_game(ruleset, seats=seats, seed=seed)
    return {**game, "last": play_service(service, game, rng, moves)}


def new_service(tmp_path: Path) -> tuple[GameService, EventStore]:
    """A GameService over a fresh SQLite file in `tmp_path`, and its store (dispose it)."""
    store = EventStore(f"sqlite:///{tmp_path / 'ludex.db'}")
    return GameService(store), store
