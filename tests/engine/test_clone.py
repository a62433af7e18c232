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
