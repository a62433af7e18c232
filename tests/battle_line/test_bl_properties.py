"""Random games (Hypothesis): cards are conserved, every game ends by the rules, no seat learns
the other hand or the deck order, and no claim is accepted that a brute-force search over the
unseen troops shows the opponent could still beat (L9)."""

from __future__ import annotations

import json
import random

from bl_helpers import TACTICS, TROOPS, could_beat, names, new_game, ruleset, strength
from hypothesis import given, settings
from hypothesis import strategies as st

from runtime import Game

ENDINGS = {"breakthrough", "envelopment", "stalemate"}


def strings(obj) -> set[str]:
    """Every text value in a JSON-able object (keys included)."""
    out: set[str] = set()
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.add(str(k))
            out |= strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= strings(v)
    return out


def check_claim(g: Game, seat: int, n: int) -> None:
    """The claim of flag n by `seat`, about to be applied, must be certain (brute force)."""
    other = 1 - seat
    mine = names(g, f"flag{n}.side[{seat}]")
    theirs = names(g, f"flag{n}.side[{other}]")
    env = names(g, f"flag{n}.env[0]") + names(g, f"flag{n}.env[1]")
    fog, need = "fog" in env, 4 if "mud" in env else 3
    assert len(mine) == need
    score = strength(mine, fog)
    if len(theirs) == need:
        done = g.st.member(g.st.g["flags"][n - 1], "done_at")
        theirs_score = strength(theirs, fog)
        assert score > theirs_score or (score == theirs_score and done[seat] < done[other])
    else:
        pool = [c for key in ("troop_deck", "hand[0]", "hand[1]") for c in names(g, key) if c in TROOPS]
        beat = could_beat(theirs, pool, need, score, fog)
        assert beat is None, f"claim of flag {n} by seat {seat} ({mine}) accepted, but {theirs} + {beat} beats it"


def check_secrecy(g: Game) -> None:
    for seat in (0, 1):
        secret = set(names(g, f"hand[{1 - seat}]")) | set(names(g, "troop_deck")) | set(names(g, "tactics_deck"))
        view = g.view(seat)
        assert "components" not in view["zones"][f"hand[{1 - seat}]"]
        assert "components" not in view["zones"]["troop_deck"] and "components" not in view["zones"]["tactics_deck"]
        assert not (strings(view) & secret)
        moves = [m.to_dict() for m in g.legal_moves(seat)]
        assert not (strings(moves) & secret)


def play_random(seed: int, variants=(), check_every: int = 1) -> Game:
    rng = random.Random(seed)
    g = Game.new(ruleset(*variants), 2, seed=seed)
    plies = 0
    while not g.terminal:
        plies += 1
        assert plies < 3000, "the game did not end"
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        assert moves, "stuck: no legal move"
        m = moves[rng.randrange(len(moves))]
        if m.name == "claim":
            check_claim(g, seat, int(m.args["f"][4:]))
        g.apply(seat, m)
        total = sum(len(z) for z in g.st.zones)
        assert total == 70 - (10 if "no_tactics" in variants else 0)
        if plies % check_every == 0 and not g.terminal:
            check_secrecy(g)
    assert g.outcome["reason"] in ENDINGS
    # the event log, as each seat sees it, never names a card that seat never saw (it knows the
    # cards it put back on a deck with Scout)
    for seat in (0, 1):
        secret = set(names(g, f"hand[{1 - seat}]")) | set(names(g, "troop_deck")) | set(names(g, "tactics_deck"))
        secret -= {e.args["card"] for e in g.events if e.kind == "move" and e.move == "scout_put_back" and e.seat == seat}
        assert not (strings([g.event_view(e, seat) for e in g.events]) & secret)
    return g


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_random_games(seed: int) -> None:
    play_random(seed, check_every=3)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["advanced_claims", "no_tactics"]))
def test_random_games_variants(seed: int, variant: str) -> None:
    play_random(seed, (variant,), check_every=7)


def test_cards_are_seventy_and_named_by_the_rules() -> None:
    g = new_game()
    assert sorted(c.name for c in g.st.comps) == sorted(TROOPS + TACTICS)
    assert json.dumps(g.view(0))  # views are JSON
