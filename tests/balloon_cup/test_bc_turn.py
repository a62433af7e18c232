"""Balloon Cup turns: placing a card (B7, B8), refusals, drawing and the supply (B11),
and the no-placement exchange (B10)."""

from __future__ import annotations

import pytest
from bc_helpers import ALL_CARDS, legal_names, move, names, new_game, place, put, setup_outcomes, tile

from runtime import IllegalMove, Move, NotYourTurn

# tiles whose cubes are red and yellow only: green, blue and gray cards can never be placed
RED_YELLOW = (["red"], ["red", "yellow"], ["red", "red", "yellow"], ["red", "red", "yellow", "yellow"])
UNPLAYABLE = ["green-1", "green-2", "green-4", "blue-1", "blue-3", "gray-1", "gray-4", "gray-7"]


def test_place_on_own_or_opponent_side_then_draw_the_top_card():
    g = new_game(hand0=["red-3", "yellow-5"], hand1=["red-9"], deck=["gray-10", "blue-13"])
    events = place(g, 0, "red-3", 1, 1)  # the opponent's side of tile 1
    assert names(g, "tile1.side[1]") == ["red-3"]
    assert "red-3" not in names(g, "hand[0]")
    assert names(g, "hand[0]")[-1] == "gray-10" and len(names(g, "hand[0]")) == 8
    assert names(g, "deck")[0] == "blue-13"
    assert tile(g, 1)["last_placer"] == 0
    assert [e.kind for e in events] == ["move"]
    assert events[0].rule == "move place" and events[0].source.startswith("balloon_cup/game.ludex:")
    assert g.decision().seats == (1,)
    place(g, 1, "red-9", 3, 1)
    assert names(g, "hand[1]")[-1] == "blue-13"
    assert g.decision().seats == (0,)


def test_legal_placements_are_exactly_where_a_side_still_needs_the_colour():
    hand0 = ["red-3", "yellow-5", "green-6", "blue-7", "gray-10", "red-4", "yellow-6", "green-7"]
    g = new_game(tiles=(["red"], ["yellow", "green"], ["blue", "red", "red"], ["red", "yellow", "green", "blue"]), hand0=hand0)
    got = {(m.args["card"], m.args["t"], m.args["s"]) for m in g.legal_moves(0)}
    need = {"tile1": {"red"}, "tile2": {"yellow", "green"}, "tile3": {"blue", "red"}, "tile4": {"red", "yellow", "green", "blue"}}
    want = {(c, t, s) for c in hand0 for t, cs in need.items() if c.split("-")[0] in cs for s in (0, 1)}
    assert got == want
    assert not any(c.startswith("gray") for c, _, _ in got)


def test_a_side_that_has_its_colour_refuses_another_card_of_it_with_the_reason():
    g = new_game(hand0=["red-3", "red-4"], hand1=["red-9"])
    place(g, 0, "red-3", 1, 0)
    place(g, 1, "red-9", 3, 0)
    before = g.state_hash()
    n_events = len(g.events)
    with pytest.raises(IllegalMove) as exc:
        place(g, 0, "red-4", 1, 0)
    assert exc.value.reason == "side 0 of tile 1 needs no more red cards"
    assert exc.value.rule == "move place"
    assert g.state_hash() == before and len(g.events) == n_events
    assert not any(m.args == {"card": "red-4", "t": "tile1", "s": 0} for m in g.legal_moves(0))


def test_a_colour_the_tile_lacks_is_refused_and_nothing_changes():
    g = new_game(hand0=["gray-13"])
    before = g.state_hash()
    with pytest.raises(IllegalMove) as exc:
        place(g, 0, "gray-13", 2, 0)  # tile 2 holds yellow and green
    assert exc.value.reason == "side 0 of tile 2 needs no more gray cards"
    assert g.state_hash() == before


def test_not_your_turn_and_cards_you_do_not_hold_are_refused():
    g = new_game(hand0=["red-3"], hand1=["red-9"])
    before = g.state_hash()
    with pytest.raises(NotYourTurn):
        place(g, 1, "red-9", 1, 1)
    with pytest.raises(IllegalMove, match="is not one of the choices"):
        place(g, 0, "red-9", 1, 1)
    with pytest.raises(IllegalMove, match="no move 'pass'"):
        move(g, 0, "pass")
    with pytest.raises(IllegalMove, match="only allowed when no other move is"):
        move(g, 0, "exchange", n=2)
    assert g.state_hash() == before


def test_the_opponents_hand_is_hidden_in_views_and_in_move_events():
    g = new_game(hand0=["red-3"], hand1=["red-9"])
    v1 = g.view(1)
    assert v1["zones"]["hand[0]"] == {"count": 8}
    assert [c["name"] for c in v1["zones"]["hand[1]"]["components"]][0] == "red-9"
    assert v1["zones"]["deck"] == {"count": 29}
    assert "red-3" not in str(v1)
    moves = g.legal_moves(0)
    assert all(m.args["card"] in names(g, "hand[0]") for m in moves)
    ev = place(g, 0, "red-3", 1, 0)[0]
    # red-3 was hidden from seat 1 while in hand: seat 1 sees the slot reference in the event
    assert g.event_view(ev, 1)["args"]["card"] == "hand[0]@0"
    assert g.event_view(ev, 0)["args"]["card"] == "red-3"


def test_supply_runs_out_and_the_discard_stack_is_reshuffled():
    outs = setup_outcomes(hand0=["red-3"])
    supply = outs[10][16:]
    # test set-up: every supply card goes to the discard stack except none; the next draw reshuffles
    new_order = list(reversed(supply))
    from bc_helpers import ruleset

    from runtime import Game

    g = Game.new(ruleset(), 2, seed=0, outcomes=outs + [new_order])
    put(g, names(g, "deck"), "discard")
    assert names(g, "deck") == []
    events = place(g, 0, "red-3", 1, 0)
    assert [e.kind for e in events] == ["move", "chance"]
    shuffle = events[1]
    assert shuffle.node == "shuffle" and shuffle.zone == "deck" and shuffle.rule == "move place"
    assert sorted(shuffle.outcome) == sorted(supply)
    assert names(g, "hand[0]")[-1] == new_order[0]
    assert names(g, "deck") == new_order[1:]
    assert names(g, "discard") == []


def _stuck_game(deck=(), more=()):
    return new_game(tiles=RED_YELLOW, hand0=UNPLAYABLE, hand1=["red-9", "red-10"], deck=deck, more=more)


def test_no_placement_offers_only_the_exchange_of_zero_to_four_cards():
    g = _stuck_game()
    moves = g.legal_moves(0)
    assert {m.name for m in moves} == {"exchange"}
    assert sorted(m.args["n"] for m in moves) == [0, 1, 2, 3, 4]
    with pytest.raises(IllegalMove, match="not one of the choices"):
        move(g, 0, "exchange", n=5)


def test_exchange_reveals_the_hand_discards_draws_and_must_place_if_now_able():
    g = _stuck_game(deck=["red-1", "gray-10", "blue-5"])
    move(g, 0, "exchange", n=2)
    revealed = g.view(1)["revealed"]
    assert revealed == [{"zone": "hand[0]", "by": 0, "ply": revealed[0]["ply"], "components": UNPLAYABLE}]
    assert g.events[revealed[0]["ply"]].kind == "show" and g.events[revealed[0]["ply"]].outcome == UNPLAYABLE
    assert g.decision().step == "exchange_discard" and legal_names(g, 0) == {"discard_card"}
    move(g, 0, "discard_card", card="gray-7")
    assert g.decision().step == "exchange_discard"
    assert len(names(g, "hand[0]")) == 7  # nothing drawn until the declared number is discarded
    move(g, 0, "discard_card", card="gray-4")
    assert names(g, "discard") == ["gray-7", "gray-4"]
    assert names(g, "hand[0]")[-2:] == ["red-1", "gray-10"]
    assert g.decision().step == "after_exchange" and g.decision().seats == (0,)
    # B10.4: red-1 can now be placed, so it must be; there is no second exchange
    assert legal_names(g, 0) == {"place"}
    with pytest.raises(IllegalMove, match="only allowed when no other move is"):
        move(g, 0, "cannot_place")
    place(g, 0, "red-1", 1, 0)
    assert names(g, "hand[0]")[-1] == "blue-5" and len(names(g, "hand[0]")) == 8
    assert g.decision().seats == (1,) and g.decision().step == "play"
    # the latest showing of each hand stays in the views, with the ply of its `show` event
    assert [r["zone"] for r in g.view(1)["revealed"]] == ["hand[0]"]


def test_exchange_that_still_cannot_place_ends_the_turn_without_a_draw():
    g = _stuck_game(deck=["blue-9", "red-13"])
    move(g, 0, "exchange", n=1)
    move(g, 0, "discard_card", card="green-1")
    assert legal_names(g, 0) == {"cannot_place"}
    move(g, 0, "cannot_place")
    hand = names(g, "hand[0]")
    assert len(hand) == 8 and hand[-1] == "blue-9"
    assert names(g, "deck")[0] == "red-13"  # no draw after a turn without a placement
    assert g.decision().seats == (1,) and g.decision().step == "play"


def test_exchange_of_zero_cards_goes_straight_to_the_second_look():
    g = _stuck_game()
    move(g, 0, "exchange", n=0)
    assert g.decision().step == "after_exchange"
    assert legal_names(g, 0) == {"cannot_place"}
    assert names(g, "discard") == []


def test_an_exchange_that_empties_the_supply_reshuffles_the_discards():
    outs = setup_outcomes(tiles=RED_YELLOW, hand0=UNPLAYABLE)
    supply = outs[10][16:]
    from bc_helpers import ruleset

    from runtime import Game

    # test set-up: leave one card in the supply; exchanging two needs the discards (E-BC5)
    g0 = Game.new(ruleset(), 2, seed=0, outcomes=outs)
    keep = supply[0]
    reshuffled = [c for c in supply[1:]] + ["green-1", "green-2"]
    g = Game.new(ruleset(), 2, seed=0, outcomes=outs + [list(reversed(reshuffled))])
    assert names(g0, "deck") == names(g, "deck")
    put(g, supply[1:], "discard")
    move(g, 0, "exchange", n=2)
    move(g, 0, "discard_card", card="green-1")
    events = move(g, 0, "discard_card", card="green-2")
    assert [e.node for e in events if e.kind == "chance"] == ["shuffle"]
    assert names(g, "hand[0]")[-2:] == [keep, list(reversed(reshuffled))[0]]
    assert len(names(g, "deck")) == len(reshuffled) - 1
    assert all(c in ALL_CARDS for c in names(g, "deck"))


def test_a_wrong_argument_name_is_refused():
    g = new_game(hand0=["red-3"])
    with pytest.raises(IllegalMove, match="has no argument"):
        g.apply(0, Move("place", {"card": "red-3", "t": "tile1", "s": 0, "x": 1}))


def test_the_hand_shown_again_after_a_failed_exchange_reaches_the_opponent():
    import json

    g = _stuck_game(deck=["blue-9", "red-13"])
    move(g, 0, "exchange", n=1)
    move(g, 0, "discard_card", card="green-1")
    events = move(g, 0, "cannot_place")
    seen = json.dumps(g.view(1)) + json.dumps([g.event_view(e, 1) for e in events])
    assert '"blue-9"' in seen  # the card drawn in the exchange, shown with the hand (B10.5)
