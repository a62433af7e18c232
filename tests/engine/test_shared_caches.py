"""Games of one ruleset share what is compiled once per template: zone tallies and name-sorted
bags cached on its `ZoneRef`s, and the values of memoised pure functions. A game must play
exactly as it would alone while other games of its template, and their clones, move between
its plies: same legal moves, same events, same final state."""

from __future__ import annotations

import random

import pytest

from dsl import bundled_rulesets, load_ruleset
from runtime import Game, event_to_dict


def _step(g: Game, rng: random.Random) -> list[str] | None:
    """One uniform random ply; the legal moves it chose from (None once the game is over)."""
    if g.terminal:
        return None
    seat = g.decision().seats[0]
    moves = g.legal_moves(seat)
    g.apply(seat, moves[rng.randrange(len(moves))])
    return [repr(m.to_dict()) for m in moves]


def _record(g: Game, rng: random.Random, between=lambda: None) -> tuple:
    """Play `g` to the end, calling `between()` after each ply; its listings, events and state hash."""
    listings = []
    while (listing := _step(g, rng)) is not None:
        listings.append(listing)
        between()
    return listings, [event_to_dict(e) for e in g.events], g.state_hash()


@pytest.mark.parametrize("name", [b.name for b in bundled_rulesets()])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_plays_the_same_while_others_of_its_template_move(name: str, seed: int) -> None:
    rs = load_ruleset(name)
    seats = rs.seats[0]
    alone = _record(Game.new(rs, seats, {}, seed=seed), random.Random(seed))

    others = [Game.new(rs, seats, {}, seed=seed + 100), Game.new(rs, seats, {}, seed=seed + 200)]
    others.append(others[0].clone())  # a clone shares its original's state until one writes
    other_rng = random.Random(-seed)

    def move_the_others() -> None:
        for i, o in enumerate(others):
            if _step(o, other_rng) is None:  # finished: a new game of the template takes its place
                others[i] = Game.new(rs, seats, {}, seed=other_rng.randrange(10**6))

    crowded = _record(Game.new(rs, seats, {}, seed=seed), random.Random(seed), move_the_others)
    assert crowded == alone
