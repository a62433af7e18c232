"""Replay at=N is the state right after event N, also inside a move's cascade of triggers and
chance events (Balloon Cup: a card completes a flight, the cubes are won, then new cubes are
drawn onto the tile; each step is its own state)."""

from __future__ import annotations

import json
import random

import pytest
from audit_helpers import new_service, play_to_end
from service_harness import run_cli, write_log

from api.app import Rules, replay_view


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    service, store = new_service(tmp_path_factory.mktemp("replay"))
    game = play_to_end(service, "balloon_cup", "replay steps", random.Random(1), seats=2, moves=40)
    yield service.export(game["game_id"])
    store.dispose()


def _counts(view):
    return {k: z["count"] for k, z in view["zones"].items() if z.get("count") is not None}


def test_each_event_of_a_cascade_has_its_own_state(log):
    rules = Rules()
    # A move followed, in the same cascade, by a chance event (the flight's refill draw).
    i = next(i for i, e in enumerate(log[:-1]) if e["kind"] == "move" and log[i + 1]["kind"] == "chance")
    move, draw = log[i], log[i + 1]
    at_move = replay_view(rules, log, move["version"], 0)
    at_draw = replay_view(rules, log, draw["version"], 0)
    assert at_move["state_after"] == move["version"] and at_move["view"]["ply"] == move["body"]["ply"] + 1
    assert at_move["decision"] is None and at_move["legal_moves"] == []  # the rules are still resolving
    zone = draw["body"]["zone"]
    drawn = draw["body"]["outcome"][-1]
    assert _counts(at_draw["view"])[zone] == _counts(at_move["view"])[zone] + 1
    assert drawn in [c["name"] for c in at_draw["view"]["zones"][zone]["components"]]
    assert drawn not in [c["name"] for c in at_move["view"]["zones"][zone]["components"]]
    # Before the cascade: the state the move was chosen in, with the mover's legal moves.
    before = replay_view(rules, log, move["version"] - 1, move["body"]["seat"])
    assert before["decision"]["seats"] == [move["body"]["seat"]]
    assert {"name": move["body"]["move"], "args": move["body"]["args"]} in before["legal_moves"]
    # The header: the game is built, nothing of its setup has happened.
    first = replay_view(rules, log, 1, None)
    assert first["view"]["ply"] == 0 and first["decision"] is None
    setup_draw = replay_view(rules, log, 2, None)
    assert sum(_counts(setup_draw["view"]).values()) == sum(_counts(first["view"]).values())  # moved, not made
    assert _counts(setup_draw["view"]) != _counts(first["view"])


def test_cli_replay_shows_the_step(log, tmp_path):
    path = write_log(tmp_path / "log.jsonl", log)
    i = next(i for i, e in enumerate(log[:-1]) if e["kind"] == "move" and log[i + 1]["kind"] == "chance")
    done = run_cli("replay", str(path), "--at", str(log[i]["version"]), "--json")
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["state_after"] == log[i]["version"] and shown["decision"] is None
