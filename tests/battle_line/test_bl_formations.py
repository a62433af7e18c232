"""Formations and their resolution (L6-L8) played out with stacked decks: every pair of
formation types, and every tie rule (type, then sum, then whoever completed first)."""

from __future__ import annotations

import itertools

import pytest
from bl_helpers import finish_turn, flag, names, new_game, play, refused, strength

from runtime import Move

# one example of each type per seat, with disjoint cards; lower types have the larger sums
EXAMPLES = {
    "wedge": (["red-1", "red-2", "red-3"], ["green-2", "green-3", "green-4"]),
    "phalanx": (["orange-9", "yellow-9", "green-9"], ["red-8", "blue-8", "purple-8"]),
    "battalion": (["blue-10", "blue-7", "blue-5"], ["yellow-10", "yellow-7", "yellow-1"]),
    "skirmish": (["purple-10", "red-9", "orange-8"], ["blue-9", "orange-10", "green-8"]),
    "host": (["green-10", "yellow-6", "purple-5"], ["red-10", "orange-4", "blue-6"]),
}
RANK = {"wedge": 5, "phalanx": 4, "battalion": 3, "skirmish": 2, "host": 1}


def test_examples_are_what_they_say() -> None:
    for kind, (a, b) in EXAMPLES.items():
        assert strength(a) // 100 == RANK[kind] and strength(b) // 100 == RANK[kind]
    cards = [c for a, b in EXAMPLES.values() for c in a + b]
    assert len(cards) == len(set(cards))


def duel(a: list[str], b: list[str], first: int = 0):
    """Seat 0 plays `a` and seat 1 `b` at flag 1, one card a turn; the seat `first` completes
    first (the other holds its last card back a turn). Returns the game right after the
    second side is completed, before that seat's claims."""
    g = new_game(hand0=a, hand1=b, avoid=[c for x, y in EXAMPLES.values() for c in x + y])
    order = {0: list(a), 1: list(b)}
    late = 1 - first
    filler_flag = {0: 5, 1: 6}
    for turn in range(7):
        seat = g.st.actor
        cards = order[seat]
        hold = seat == late and len(cards) == 1 and turn < 5
        if cards and not hold:
            card = cards.pop(0)
            g.apply(seat, Move("play_troop", {"card": card, "f": "flag1"}))
            if not order[0] and not order[1]:
                return g
            finish_turn(g)
        else:
            # a card from the hand that is not part of the duel, to a flag of its own
            filler = next(c for c in names(g, f"hand[{seat}]") if c not in a + b)
            play(g, filler, filler_flag[seat])
            filler_flag[seat] += 2
    raise AssertionError("the duel did not complete")


@pytest.mark.parametrize("k0,k1", list(itertools.product(EXAMPLES, EXAMPLES)))
def test_every_formation_pair(k0: str, k1: str) -> None:
    a, b = EXAMPLES[k0][0], EXAMPLES[k1][1]
    g = duel(a, b, first=0)
    assert g.st.actor == 1 and g.st.step == "claims"
    seat1_wins = strength(b) > strength(a)  # a tie goes to seat 0, who completed first
    if seat1_wins:
        finish_turn(g, claims=[1])
        assert g.st.member(flag(g, 1), "owner") == 1
    else:
        assert "does not beat" in refused(g, "claim", f="flag1")
        finish_turn(g)
        seat = g.st.actor
        play(g, next(c for c in names(g, f"hand[{seat}]") if c not in a + b), 9, claims=[1])
        assert g.st.member(flag(g, 1), "owner") == 0


def test_type_beats_sum_and_sum_breaks_a_type_tie() -> None:
    assert strength(["red-1", "red-2", "red-3"]) > strength(["green-10", "yellow-10", "purple-10"]) - 100
    g = duel(["red-1", "red-2", "red-3"], ["green-2", "green-3", "green-4"])
    finish_turn(g, claims=[1])  # 2-3-4 beats 1-2-3: same type, higher sum


@pytest.mark.parametrize("first", [0, 1])
def test_equal_formations_go_to_who_completed_first(first: int) -> None:
    a, b = ["red-4", "red-5", "red-6"], ["blue-4", "blue-5", "blue-6"]
    g = duel(a, b, first=first)
    last = g.st.actor
    assert last == 1 - first
    # a tie the claimant completed last: refused (L7, L9)
    assert "does not beat" in refused(g, "claim", f="flag1")
    finish_turn(g)
    seat = g.st.actor
    assert seat == first
    filler = next(c for c in names(g, f"hand[{seat}]") if c not in a + b)
    play(g, filler, 9, claims=[1])
    assert g.st.member(flag(g, 1), "owner") == first


def test_no_wrap_around() -> None:
    # L8: 9-10-1 is not a run: a battalion order, beaten by a skirmish line? no: by type, battalion beats skirmish
    assert strength(["red-9", "red-10", "red-1"]) // 100 == 3
    g = duel(["red-9", "red-10", "red-1"], ["blue-1", "green-2", "yellow-3"])
    # seat 1's skirmish line (rank 2) loses to seat 0's battalion order (rank 3)
    assert "does not beat" in refused(g, "claim", f="flag1")
