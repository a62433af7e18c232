"""`Game.clone()`: an independent copy for search. Moves applied to a copy never change the
original, and a copy continues exactly as the original would (same chance outcomes)."""

from __future__ import annotations

import random

import pytest

from dsl import bundled_rulesets, load_ruleset
from runtime import Game, event_to_dict


def _play(g: Game, rng: random.Random, plies: int | None = None) -> list[dict]:
    """Random moves until the end (or `plies` moves); returns them as client dicts."""
    out: list[dict] = []
    while not g.terminal and (plies is None or len(out) < plies):
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        move = moves[rng.randrange(len(moves))]
        out.append((seat, move.to_dict()))
        g.apply(seat, move)
    return out


def _snapshot(g: Game) -> tuple:
    return g.state_hash(), [event_to_dict(e) for e in g.events], g.view(0), g.decision()


@pytest.mark.parametrize("name", [b.name for b in bundled_rulesets()])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_clone_is_independent_and_plays_on_like_the_original(name: str, seed: int) -> None:
    rs = load_ruleset(name)
    g = Game.new(rs, rs.seats[0], {}, seed=seed)
    rng = random.Random(seed)
    _play(g, rng, plies=rng.randrange(5, 30))
    before = _snapshot(g)
    first, second = g.clone(), g.clone()

    played = _play(first, rng)  # to the end: every chance node after the clone included
    assert _snapshot(g) == before, "playing the clone changed the original"

    for seat, move in played:  # the original, then a second clone, follow the same moves
        g.apply(seat, move)
    assert _snapshot(g) == _snapshot(first)
    for seat, move in played:
        second.apply(seat, move)
    assert _snapshot(second) == _snapshot(first)


def test_a_clone_of_a_finished_game_is_finished() -> None:
    rs = load_ruleset("hanabi")
    g = Game.new(rs, 2, {}, seed=3)
    _play(g, random.Random(3))
    c = g.clone()
    assert c.terminal and c.outcome == g.outcome and c.legal_moves(0) == []


@pytest.mark.parametrize("first", ["original", "clone", "clone of the clone"])
def test_whichever_copy_moves_first_the_others_play_on_unchanged(first: str) -> None:
    # a copy shares the RNG and the event list with the original until one of them draws or
    # records an event: each of the three then still plays exactly what the original would
    rs = load_ruleset("hanabi")
    g = Game.new(rs, 2, {}, seed=5)
    rng = random.Random(5)
    _play(g, rng, plies=4)
    c1 = g.clone()
    c2 = c1.clone()
    games = {"original": g, "clone": c1, "clone of the clone": c2}
    before = _snapshot(g)
    played = _play(games[first], rng)  # discards and plays draw from the deck
    assert played and games[first].terminal
    for name, other in games.items():
        if name == first:
            continue
        assert _snapshot(other) == before, f"the {first}'s moves reached the {name}"
        for seat, move in played:
            other.apply(seat, move)
        assert _snapshot(other) == _snapshot(games[first])
