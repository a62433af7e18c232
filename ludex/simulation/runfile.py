"""Run folders (`ludex simulate --out DIR`): a run that can be kept, extended and replayed.

`DIR/run.json` holds the run's settings (`RunSpec.to_dict`: the rule text itself, seats,
options, bot, seed, ply cap) and `DIR/games.jsonl` one JSON line per game, as
`ludex.simulation.play` describes it (seed, bot, seats, outcome, scores, length, metrics, the
chosen moves), appended as games finish. `--resume` reads both, checks that the settings are
the same, and plays only the games not yet in the file; `ludex replay DIR --game N` rebuilds
game N's log from its row.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from ludex.simulation.spec import RunSpec

FORMAT = "ludex-run/1"


class RunFileError(ValueError):
    """A run folder that cannot be used as asked: the message says what and why."""


def open_run(folder: Path, spec: RunSpec, resume: bool) -> dict[int, dict[str, Any]]:
    """Prepare `folder` for the run `spec`: the rows already there ({game: row}; none for a new
    run). Raises RunFileError when the folder holds another run, or a run while `resume` is
    off, or no run while it is on."""
    settings = folder / "run.json"
    if not settings.exists():
        if resume:
            raise RunFileError(f"{folder} holds no run to resume (no run.json); leave out --resume to start one")
        if folder.exists() and any(folder.iterdir()):
            raise RunFileError(f"{folder} is not empty and holds no run; give a new or empty folder")
        folder.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({"format": FORMAT, **spec.to_dict()}, indent=1), encoding="utf-8")
        (folder / "games.jsonl").touch()
        return {}
    if not resume:
        raise RunFileError(f"{folder} already holds a run; add --resume to extend it, or give another folder")
    kept = read_spec(folder)
    if kept != spec:
        mine, theirs = spec.to_dict(), kept.to_dict()
        differ = ["the rule text" if k == "sources" else k for k in mine if mine[k] != theirs.get(k)]
        raise RunFileError(f"{folder} holds a run with other settings ({', '.join(differ)} differ); "
                           "resume it with the same ruleset, variants, seats, options, bot, seed and --max-plies")
    rows = read_rows(folder)
    _rewrite(folder, rows)  # drops a line cut short by an interrupted run
    return rows


def read_spec(folder: Path) -> RunSpec:
    """The settings of the run in `folder`. Raises RunFileError if missing or malformed."""
    try:
        data = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        if data.pop("format", None) != FORMAT:
            raise ValueError(f"not a {FORMAT} file")
        return RunSpec.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RunFileError(f"{folder / 'run.json'}: not a run's settings ({exc})") from None


def read_rows(folder: Path) -> dict[int, dict[str, Any]]:
    """The game rows of `folder` by game number (the last line for a game wins; a line that is
    not JSON, as an interrupted write leaves, is skipped)."""
    rows: dict[int, dict[str, Any]] = {}
    path = folder / "games.jsonl"
    if not path.exists():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and isinstance(row.get("game"), int):
            rows[row["game"]] = row
    return rows


def _rewrite(folder: Path, rows: dict[int, dict[str, Any]]) -> None:
    with (folder / "games.jsonl").open("w", encoding="utf-8") as out:
        for k in sorted(rows):
            out.write(json.dumps(rows[k], sort_keys=True) + "\n")


class RowWriter:
    """Appends rows to `folder/games.jsonl` as they arrive, one flushed line each (an
    interrupted run keeps every finished game)."""

    def __init__(self, folder: Path) -> None:
        self._out: TextIO = (folder / "games.jsonl").open("a", encoding="utf-8")

    def __call__(self, row: dict[str, Any]) -> None:
        self._out.write(json.dumps(row, sort_keys=True) + "\n")
        self._out.flush()

    def close(self) -> None:
        self._out.close()


def game_entries(folder: Path, game: int) -> list[dict[str, Any]]:
    """The export log (export header first, as `ludex export` prints it) of game `game` of the
    run in `folder`, rebuilt from its row by replaying its moves. Raises RunFileError when the
    folder holds no such game."""
    from ludex.saved_games import game_log

    spec = read_spec(folder)
    rows = read_rows(folder)
    row = rows.get(game)
    if row is None:
        raise RunFileError(f"{folder} holds no game {game}" + (f" (games 0 to {max(rows)})" if rows else ""))
    return game_log(spec.ruleset(), spec.seats, spec.options, row["seed"], chosen_moves(spec, row))


def chosen_moves(spec: RunSpec, row: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """`[(seat, {name, args}), ...]` of the game of `row`, replayed from its seed and move indices
    (a pick of several at once drawn again as `play_game` drew it, from the game's seed)."""
    import random

    from runtime import Game

    g = Game.new(spec.ruleset(), spec.seats, spec.options, seed=row["seed"])
    pick_rng = random.Random(row["seed"])
    played = []
    for k in row["moves"]:
        actor = g.decision().seats[0]
        move = g.pick_at_random(actor, g.legal_moves(actor)[k], pick_rng)
        played.append((actor, move.to_dict()))
        g.apply(actor, move)
    return played
