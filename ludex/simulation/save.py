"""`ludex simulate --save DIR`: each game's full log (`DIR/game-NNNN.jsonl`, the `ludex export`
format that `ludex replay` and `ludex audit` read).

A log is rebuilt after the games, from each game's seed and chosen moves, through the service
on an in-memory store (`ludex.saved_games.game_log`): that is far slower than playing a random
game, so it is kept out of the timed games and done on the worker processes afterwards.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from ludex.simulation.local import run_local
from ludex.simulation.runfile import chosen_moves
from ludex.simulation.spec import RunSpec


def log_path(folder: Path, game: int) -> Path:
    """Where game `game` (0-based) is saved: `game-0001.jsonl` for the first."""
    return folder / f"game-{game + 1:04d}.jsonl"


def save_logs(spec: RunSpec, rows: list[dict[str, Any]], folder: Path, workers: int = 1) -> list[Path]:
    """Write the log of every game in `rows` to `folder` on `workers` processes; returns the paths."""
    return run_local(partial(_save_batch, folder, spec), sorted(rows, key=lambda r: r["game"]), workers,
                     rules=(spec.ruleset(),))


def _save_batch(folder: Path, spec: RunSpec, rows: list[dict[str, Any]]) -> list[Path]:
    from ludex.saved_games import game_log, write_log

    return [write_log(log_path(folder, r["game"]), game_log(spec.ruleset(), spec.seats, spec.options, r["seed"],
                                                            chosen_moves(spec, r)))
            for r in rows]
