"""Variants advanced_claims (L17) and no_tactics (L18), and the match option (L16, seed 002)."""

from __future__ import annotations

from bl_helpers import TROOPS, apply, claimable, finish_turn, flag, names, new_game, play, refused, side

from runtime import Move


def test_base_claims_come_after_the_card_and_before_the_draw() -> None:
    g = new_game(hand0=["red-8", "red-9", "red-10"])
    side(g, 0, 1, ["red-8", "red-9", "red-10"])
    assert "not allowed now" in refused(g, "claim", f="flag1")
    apply(g, "play_troop", card=names(g, "hand[0]")[3], f="flag2")
    assert g.st.step == "claims" and 1 in claimable(g)


def test_advanced_claims_only_at_the_start_of_the_turn() -> None:
    g = new_game(hand0=["red-8", "red-9", "red-10"], variants=("advanced_claims",))
    side(g, 0, 1, ["red-8", "red-9", "red-10"])
    assert g.st.step == "play" and 1 in claimable(g)
    apply(g, "play_troop", card=names(g, "hand[0]")[3], f="flag2")
    assert g.st.step == "draw"  # no claims after the card
    apply(g, "draw_troop")
    play_seat1 = names(g, "hand[1]")[0]
    g.apply(1, Move("play_troop", {"card": play_seat1, "f": "flag2"}))
    apply(g, "draw_troop")
    apply(g, "claim", f="flag1")  # the next turn of seat 0, before its card
    assert g.st.member(flag(g, 1), "owner") == 0 and g.st.step == "play"


def test_no_tactics_has_no_tactics_deck() -> None:
    g = new_game(variants=("no_tactics",))
    assert names(g, "tactics_deck") == []
    assert len([c for c in g.st.comps]) == 70  # the components exist, but stay out of the game
    apply(g, "play_troop", card=names(g, "hand[0]")[0], f="flag1")
    apply(g, "end_claims")
    assert [m.name for m in g.legal_moves(0)] == ["draw_troop"]


def test_match_scores_and_the_winner_starts_the_next_game() -> None:
    g = new_game(hand1=["blue-8", "blue-9", "blue-10"], options={"match_games": 2})
    g.st.set_member(flag(g, 9), "owner", 0)
    for n in (1, 2):
        g.st.set_member(flag(g, n), "owner", 1)
    side(g, 1, 3, ["blue-8", "blue-9"])
    side(g, 0, 3, ["red-1", "green-2", "yellow-4"], done_at=0)
    play(g, names(g, "hand[0]")[0], 5)
    play(g, "blue-10", 3, claims=[3])  # seat 1: breakthrough at flags 1-2-3
    assert not g.terminal
    assert g.st.g["points"] == [1, 5] and g.st.g["games_done"] == 1
    assert g.st.actor == 1 and g.st.step == "play"  # the winner starts the next game
    assert all(g.st.member(f, "owner") is None for f in g.st.g["flags"])
    assert len(names(g, "hand[0]")) == len(names(g, "hand[1]")) == 7
    assert len(names(g, "troop_deck")) == 46 and len(names(g, "tactics_deck")) == 10
    # the second game: seat 0 wins by envelopment
    for n in (1, 3, 5, 7):
        g.st.set_member(flag(g, n), "owner", 0)
    play(g, names(g, "hand[1]")[0], 2)
    side(g, 1, 9, ["blue-1", "green-2", "yellow-4"], done_at=0)
    side(g, 0, 9, ["purple-10", "purple-9", "purple-8"])
    apply(g, "play_troop", card=next(x for x in names(g, "hand[0]") if x in TROOPS), f="flag8")
    finish_turn(g, claims=[9])
    assert g.terminal and g.outcome["kind"] == "scores"
    assert g.outcome["scores"] == {"0": 1 + 5, "1": 5 + 0}
    assert g.outcome["reason"] == "match over (last game by envelopment)"
