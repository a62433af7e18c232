"""`ludex play --plain` shows the other seats' moves as the service shows them to the player's
seat: a sealed choice as "chose (sealed)" until its round is revealed (docs/examples); and over
random games of every bundled ruleset (and the two simultaneous test games), each seat is shown in
plain play the view and the move lines the service shows that seat."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from cli_helpers import ludex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.app import GameService, Rules
from api.store import EventStore
from dsl import bundled_rulesets, load_ruleset
from ludex.designer_commands import _compact_view, move_line, new_game

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "rock_paper_scissors.ludex"


def test_plain_play_never_names_a_sealed_choice_before_the_reveal():
    # seat 1 plays "rock" every round (answer 0); seat 0 is the random opponent
    done = ludex("play", str(EXAMPLE), "--seat", "1", "--seed", "4", "--plain", input="0\n" * 20)
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    sealed = [ln for ln in lines if ln.startswith("Seat 0 chose (sealed)")]
    revealed = [ln for ln in lines if re.match(r"Seat 0: play \(s (rock|paper|scissors)\)$", ln)]
    assert sealed and revealed
    for i, ln in enumerate(lines):  # a sealed line of seat 0 never carries its shape
        if ln.startswith("Seat 0 chose"):
            assert ln == "Seat 0 chose (sealed)"
    assert "game over" in done.output


def test_plain_play_heads_each_prompt_with_the_seats_a_simultaneous_step_still_waits_for():
    # seat 0 (random) chooses first each round, sealed; the header over seat 1's prompt names seat 1
    done = ludex("play", str(EXAMPLE), "--seat", "1", "--seed", "4", "--plain", input="0\n" * 20)
    assert done.exit_code == 0, done.output
    heads = re.findall(r"^rock_paper_scissors · ply \d+ · step throw · (.*)$", done.output, re.M)
    assert heads and set(heads) == {"seat 1 to act", "game over"} and heads.count("game over") == 1, heads
    first = ludex("play", str(EXAMPLE), "--seat", "0", "--seed", "4", "--plain", input="0\n" * 20)
    heads = re.findall(r"^rock_paper_scissors · ply \d+ · step throw · (.*)$", first.output, re.M)
    assert heads and set(heads) == {"seats 0, 1 to act", "game over"}, heads  # seat 0 chooses first: both are awaited


# -- what `ludex play --plain` shows each seat is what the service shows that seat ------------------
HEARTS = Path(__file__).parents[1] / "simultaneous" / "hearts_mini.ludex"
GAMES = [b.name for b in bundled_rulesets()] + ["hearts_mini", "rock_paper_scissors"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("rulesets")
    for name, path in (("hearts_mini", HEARTS), ("rock_paper_scissors", EXAMPLE)):
        (root / name).mkdir()
        shutil.copy(path, root / name / "game.ludex")
    store = EventStore(f"sqlite:///{tmp_path_factory.mktemp('db') / 'ludex.db'}")
    yield GameService(store, Rules([root])), root
    store.dispose()


def _plain_lines(shown_events: list[dict], rules) -> list[str]:
    return [line for e in shown_events if (line := move_line(e, rules)) is not None]


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_each_seat_is_shown_in_plain_play_what_the_service_shows_it(served, name, seed):
    service, root = served
    rs = load_ruleset(str(root / name / "game.ludex")) if name in ("hearts_mini", "rock_paper_scissors") else load_ruleset(name)
    seats = rs.seats[0] if name != "hearts_mini" else 4
    game = service.create_game(name, seats=seats, seed=f"plain {seed}")
    local = new_game(rs, seats, {}, seed=f"plain {seed}")  # what `ludex play` plays
    rng = random.Random(seed)
    for _ in range(10):
        if local.terminal:
            break
        actor = rng.choice(local.decision().seats)
        move = local.pick_at_random(actor, rng.choice(local.legal_moves(actor)), rng).to_dict()
        local.apply(actor, move)
        version = service.view(game["game_id"], None)["version"]
        service.submit_move(game["game_id"], game["tokens"][actor], move, version)
        for s in range(seats):
            token = game["tokens"][s]
            assert _compact_view(local.view(s)) == _compact_view(service.view(game["game_id"], token)["view"])
            if not local.terminal:  # once it is over the service shows the whole log, and play ends
                from_service = [e["body"] for e in service.events(game["game_id"], token)["events"]]
                assert _plain_lines([local.event_view(e, s) for e in local.events], rs) == _plain_lines(from_service, rs)
