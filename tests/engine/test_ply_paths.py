"""`Game.apply` takes a move listed in the current state as bound, and binds any other move
again from its arguments (a client's move, a dict, a move of an older listing). Both ways give
the same events (hidden slot references included) and the same states."""

from __future__ import annotations

import random

import attrs
import pytest

from dsl import load_ruleset
from runtime import Game, Move, NotYourTurn
from runtime.events import Event


@pytest.mark.parametrize("name", ["hanabi", "balloon_cup", "battle_line"])
def test_listed_and_client_moves_make_the_same_game(name: str) -> None:
    rs = load_ruleset(name)
    rng = random.Random(7)
    listed, client, plain = (Game.new(rs, 2, {}, seed=7) for _ in range(3))
    for _ in range(40):
        if listed.terminal:
            break
        seat = listed.decision().seats[0]
        moves = listed.legal_moves(seat)
        move = moves[rng.randrange(len(moves))]
        sent = move.to_dict()
        assert listed.apply(seat, move) == client.apply(seat, Move(sent["name"], dict(sent["args"])))
        plain.apply(seat, sent)
        assert listed.events == client.events == plain.events
        assert listed.state_hash() == client.state_hash() == plain.state_hash()
    assert any(e.refs for e in listed.events) or name == "battle_line"


def test_a_move_of_an_older_listing_is_checked_again() -> None:
    g = Game.new(load_ruleset("hanabi"), 2, {}, seed=3)
    old = g.legal_moves(0)
    plays = [m for m in old if m.name == "play"]  # the mover's own cards: by slot, hidden from it
    g.apply(0, plays[0])
    with pytest.raises(NotYourTurn):
        g.apply(0, old[0])  # listed for seat 0, which is no longer to act
    g.apply(1, g.legal_moves(1)[0])
    before = g.state_hash()
    changed = 0
    for m in plays[1:]:  # listed in an older state: bound again from its arguments (the slots now)
        stale, sent = g.clone(), g.clone()
        assert stale.apply(0, m) == sent.apply(0, Move(m.name, dict(m.args)))
        assert stale.state_hash() == sent.state_hash()
        old_card = m.binding[0]  # what the older listing had bound: another card now, at that slot
        changed += old_card.name not in str(stale.events[-1].args)
    assert changed  # the older binding would have played other cards
    assert g.state_hash() == before


def test_a_move_event_built_in_place_has_every_field_of_an_event() -> None:
    # `Game._execute` stores a move event's fields one by one (runtime.events.Unfrozen): a field
    # added to Event and not stored there would be unset, and reading it would raise
    g = Game.new(load_ruleset("hanabi"), 2, {}, seed=5)
    seat = g.decision().seats[0]
    g.apply(seat, g.legal_moves(seat)[0])
    event = next(e for e in g.events if e.kind == "move")
    assert set(attrs.asdict(event)) == {a.name for a in attrs.fields(type(event))}
    assert event == Event(**attrs.asdict(event, recurse=False))
