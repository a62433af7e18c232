"""Claims with proof (L9, E-BL1, decisions), the end of the game (L11) and the stalemate rule."""

from __future__ import annotations

from bl_helpers import (
    COLOURS,
    TROOPS,
    apply,
    claimable,
    could_beat,
    finish_turn,
    flag,
    names,
    new_game,
    play,
    put,
    refused,
    side,
    strength,
)


def unseen(g) -> list[str]:
    """Troops not on the table: the deck and both hands."""
    return [c for key in ("troop_deck", "hand[0]", "hand[1]") for c in names(g, key) if c in TROOPS]


def test_claim_refused_while_an_unseen_card_could_beat() -> None:
    g = new_game(hand0=["red-1", "red-2", "red-3"])
    play(g, "red-1", 1)
    play(g, "orange-1", 2) if "orange-1" in names(g, "hand[1]") else play(g, names(g, "hand[1]")[0], 2)
    play(g, "red-2", 1)
    play(g, names(g, "hand[1]")[0], 3)
    apply(g, "play_troop", card="red-3", f="flag1")
    # a wedge 1-2-3 against an empty side: 2-3-4 of any colour is still unseen
    assert could_beat([], unseen(g), 3, strength(["red-1", "red-2", "red-3"]), False) is not None
    assert "could still complete" in refused(g, "claim", f="flag1")


def test_claim_allowed_once_every_beating_card_is_on_the_table() -> None:
    # seat 0 holds red 7-8-9 (524); only x-8-9-10 wedges (527) beat it. With a 10 of every
    # other colour on the table (seat 1 plays them), no completion of seat 1's side beats it.
    tens = [f"{c}-10" for c in COLOURS if c != "red"]
    g = new_game(hand0=["red-7", "red-8", "red-9"], hand1=tens[:4], top=["purple-1", tens[4]])
    play(g, "red-7", 1)
    play(g, tens[0], 2)
    play(g, "red-8", 1)
    play(g, tens[1], 3)
    apply(g, "play_troop", card="red-9", f="flag1")
    assert 1 not in claimable(g)  # three 10s are still unseen
    finish_turn(g)
    play(g, tens[2], 4)
    play(g, names(g, "hand[0]")[0], 5)
    play(g, tens[3], 6)
    play(g, names(g, "hand[0]")[0], 7)
    assert tens[4] in names(g, "hand[1]")
    play(g, tens[4], 8)
    # every other 10 is on the table now: a tie at best (another colour's 7-8-9), and seat 1 would complete last
    assert could_beat([], unseen(g), 3, strength(["red-7", "red-8", "red-9"]), False) is None
    seat0_filler = next(c for c in names(g, "hand[0]") if c in TROOPS)
    play(g, seat0_filler, 9, claims=[1])
    assert g.st.member(flag(g, 1), "owner") == 0


def test_claim_uses_the_claimants_own_hand_as_unseen() -> None:
    # seat 0 holds green-2 and green-3: the proof may not use that knowledge (L9)
    g = new_game(hand0=["red-8", "red-9", "red-10", "green-2"], hand1=["blue-9"])
    side(g, 1, 1, ["green-1", "green-4"])
    put(g, "discard[0]", [f"{c}-{v}" for c in COLOURS for v in (5, 6, 7) if f"{c}-{v}" in names(g, "troop_deck")])
    side(g, 0, 1, ["red-8", "red-9", "red-10"])
    # the only completions of green-1 + green-4 beating red 8-9-10 would need a wedge: impossible (1 and 4
    # are 3 apart), so the claim is allowed even though green cards are unseen
    apply(g, "play_troop", card="green-2", f="flag2")
    assert 1 in claimable(g)
    g2 = new_game(hand0=["red-7", "red-8", "red-9", "green-3"])
    side(g2, 1, 1, ["green-1", "green-2"])
    side(g2, 0, 1, ["red-7", "red-8", "red-9"])
    # green-3 (in the claimant's own hand) would make a wedge 1-2-3: 506 < 524, no threat
    apply(g2, "play_troop", card="green-3", f="flag2")
    assert 1 in claimable(g2)


def test_a_tie_the_opponent_could_reach_is_not_enough_for_them() -> None:
    # L9, decisions: seat 1 could at best tie red 8-9-10 with another 8-9-10: seat 0 completed first
    g = new_game(hand0=["red-8", "red-9", "red-10", "blue-1"])
    side(g, 0, 1, ["red-8", "red-9"])
    apply(g, "play_troop", card="red-10", f="flag1")
    assert 1 in claimable(g)


def test_morale_cards_on_the_opponents_side_count_with_their_full_range() -> None:
    # E-BL1: seat 1's Alexander could be anything: with it and a blue-9, a blue 8-9-10 is possible
    g = new_game(hand0=["red-7", "red-8", "red-9", "blue-1"])
    side(g, 1, 1, ["alexander", "blue-9"])
    side(g, 0, 1, ["red-7", "red-8"])
    apply(g, "play_troop", card="red-9", f="flag1")
    assert 1 not in claimable(g)
    assert "could still complete" in refused(g, "claim", f="flag1")


def test_claim_refused_when_incomplete_or_claimed() -> None:
    g = new_game(hand0=["red-1", "red-2"])
    apply(g, "play_troop", card="red-1", f="flag1")
    assert "not complete" in refused(g, "claim", f="flag1")


def test_breakthrough_ends_the_game_at_once() -> None:
    g = new_game(hand0=["red-8", "red-9", "red-10"])
    for n in (1, 2):
        g.st.set_member(flag(g, n), "owner", 0)
    side(g, 0, 3, ["red-8", "red-9"])
    side(g, 1, 3, ["blue-1", "green-2", "yellow-4"], done_at=0)
    play(g, "red-10", 3, claims=[3])
    assert g.terminal and g.outcome["winners"] == [0] and g.outcome["reason"] == "breakthrough"


def test_envelopment_ends_the_game_at_once() -> None:
    g = new_game(hand0=["red-8", "red-9", "red-10"])
    for n in (1, 3, 5, 7):
        g.st.set_member(flag(g, n), "owner", 0)
    side(g, 0, 9, ["red-8", "red-9"])
    side(g, 1, 9, ["blue-1", "green-2", "yellow-4"], done_at=0)
    play(g, "red-10", 9, claims=[9])
    assert g.terminal and g.outcome["winners"] == [0] and g.outcome["reason"] == "envelopment"


def test_four_flags_not_adjacent_do_not_end_the_game() -> None:
    g = new_game(hand0=["red-8", "red-9", "red-10"])
    for n in (1, 3, 5):
        g.st.set_member(flag(g, n), "owner", 0)
    side(g, 0, 7, ["red-8", "red-9"])
    side(g, 1, 7, ["blue-1", "green-2", "yellow-4"], done_at=0)
    play(g, "red-10", 7, claims=[7])
    assert not g.terminal


def test_stalemate_when_both_can_only_pass_and_nothing_is_provable() -> None:
    g = new_game(variants=("no_tactics",))
    # every troop off the hands and the deck: one card a side at some flags, the rest discarded
    for n in range(1, 10):
        side(g, 0, n, [f"{COLOURS[n % 6]}-{n}"])
    rest = [c for c in TROOPS if c not in {f"{COLOURS[n % 6]}-{n}" for n in range(1, 10)}]
    put(g, "discard[1]", rest)
    assert names(g, "hand[0]") == names(g, "hand[1]") == names(g, "troop_deck") == []
    apply(g, "pass")
    finish_turn(g)
    assert not g.terminal
    apply(g, "pass")
    assert g.terminal and g.outcome["kind"] == "draw" and g.outcome["reason"] == "stalemate"


def test_no_stalemate_while_a_flag_is_provable() -> None:
    g = new_game(variants=("no_tactics",))
    side(g, 0, 1, ["red-1", "red-2", "red-3"])
    rest = [c for c in TROOPS if c not in {"red-1", "red-2", "red-3"}]
    put(g, "discard[1]", rest)
    apply(g, "pass")
    assert claimable(g) == {1}  # nothing unseen: nobody can ever beat it
    finish_turn(g)
    apply(g, "pass")
    assert not g.terminal
    finish_turn(g)
    apply(g, "pass")
    finish_turn(g, claims=[1])
    assert g.st.member(flag(g, 1), "owner") == 0


def test_pass_only_when_no_troop_can_be_played() -> None:
    g = new_game()
    assert "still play a troop" in refused(g, "pass")
