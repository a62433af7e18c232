"""`Game.listed(seat)` reads the engine's listing of the legal moves (bindings and spans, one
object per state version) and `Game.apply_listed(seat, index)` plays its `index`-th move: the
same game as `apply(seat, legal_moves(seat)[index])`, the same refusals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dsl import load_ruleset
from runtime import Game, IllegalMove, NotYourTurn

TESTS = Path(__file__).parents[1]


def hearts():
    return load_ruleset(str(TESTS / "simultaneous" / "hearts_mini.ludex"))  # a simultaneous step of picks


def rps():
    return load_ruleset(str(TESTS.parent / "docs" / "examples" / "rock_paper_scissors.ludex"))


def _same_games(rs, seats: int, seed: int, plies: int) -> tuple[Game, Game]:
    """Two games of `rs` played alike, one by `apply_listed`, one by `apply` of `legal_moves`,
    checked ply by ply."""
    rng = random.Random(seed)
    by_index, by_move = Game.new(rs, seats, {}, seed=seed), Game.new(rs, seats, {}, seed=seed)
    for _ in range(plies):
        if by_index.terminal:
            break
        seat = by_index.decision().seats[0]
        listing = by_index.listed(seat)
        moves = by_move.legal_moves(seat)
        assert listing is not None and len(listing.bindings) == len(moves)
        assert [m.binding for m in moves] == listing.bindings
        start = 0
        for end, code in listing.spans:  # each span's bindings are its move's, in order
            assert {m.name for m in moves[start:end]} == {code.name}
            start = end
        assert start == len(moves)
        i = rng.randrange(len(moves))
        by_index.apply_listed(seat, i)
        by_move.apply(seat, moves[i])
        assert by_index.events == by_move.events
        assert by_index.state_hash() == by_move.state_hash()
    return by_index, by_move


@pytest.mark.parametrize(
    ("name", "seats"),
    [("hanabi", 2), ("hanabi", 4), ("battle_line", 2), ("balloon_cup", 2), ("weather_machine", 2)],
)
def test_apply_listed_plays_the_game_apply_plays(name: str, seats: int) -> None:
    by_index, _ = _same_games(load_ruleset(name), seats, 5, 120)
    assert len(by_index.events) > 20


def test_at_a_simultaneous_step_it_is_apply_of_the_listed_move() -> None:
    by_index, by_move = _same_games(rps(), 2, 3, 40)
    assert any(e.kind == "sealed" for e in by_index.events)


def test_the_listing_is_one_object_per_state_version_and_none_off_turn() -> None:
    g = Game.new(load_ruleset("hanabi"), 2, {}, seed=1)
    seat = g.decision().seats[0]
    first = g.listed(seat)
    assert first is not None and first is g.listed(seat)
    assert g.listed(1 - seat) is None
    clone = g.clone()
    assert clone.listed(seat).bindings == first.bindings
    g.apply_listed(seat, 0)
    now = g.decision().seats[0]
    assert g.listed(now) is not first and g.listed(seat if now != seat else 1 - now) is None
    assert g.listed(now) is g.listed(now)


def test_refusals_leave_the_game_unchanged() -> None:
    g = Game.new(load_ruleset("battle_line"), 2, {}, seed=2)
    seat = g.decision().seats[0]
    n = len(g.legal_moves(seat))
    before = (g.state_hash(), len(g.events))
    with pytest.raises(NotYourTurn):
        g.apply_listed(1 - seat, 0)
    for bad in (n, -1, n + 5):
        with pytest.raises(IllegalMove, match=f"has no legal move {bad} now"):
            g.apply_listed(seat, bad)
    assert (g.state_hash(), len(g.events)) == before
    g.apply_listed(seat, n - 1)  # the listing is still good after the refusals
    assert len(g.events) > before[1]


def test_a_pick_is_refused_as_apply_refuses_the_offer() -> None:
    g = Game.new(hearts(), 4, seed=1)
    assert g.listed(0).spans[0][1].picks
    with pytest.raises(IllegalMove, match="picks 3 at once"):
        g.apply_listed(0, 0)
    with pytest.raises(IllegalMove, match="has no legal move 1 now"):
        g.apply_listed(0, 1)
    assert g.listed(4) is None
    with pytest.raises(NotYourTurn):
        g.apply_listed(4, 0)


def test_a_finished_game_lists_nothing() -> None:
    g = Game.new(rps(), 2, seed=4)
    rng = random.Random(4)
    while not g.terminal:
        seat = g.decision().seats[0]
        g.apply_listed(seat, rng.randrange(len(g.listed(seat).bindings)))
    assert g.listed(0) is None and g.listed(1) is None
    with pytest.raises(IllegalMove, match="the game is over"):
        g.apply_listed(0, 0)
