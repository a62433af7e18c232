"""Hanabi views (decisions table: a seat sees the marks of its own hand, never the cards) and
the variants: official (H7), sixth suits (H15, H16), rainbows (H17, H18, E-HA5), all or
nothing (H19)."""

from __future__ import annotations

import pytest
from hanabi_helpers import (
    all_codes,
    codes,
    discard,
    heights,
    hint_colour,
    hint_rank,
    marks,
    new_game,
    play,
    put,
    ruleset,
    strings,
    to_names,
    var,
)

from runtime import Game, IllegalMove, Move

HAND0 = ["R1", "R2", "Y1", "G1", "B1"]
HAND1 = ["Y1", "R1", "G2", "R3", "B4"]


# ---- views ----
def _hinted_game() -> Game:
    g = new_game([HAND0, HAND1, ["W1", "W2", "W3", "W4", "W5"]])
    hint_colour(g, 1, "red")
    hint_rank(g, 0, 1)
    hint_rank(g, 1, 3)
    return g


def test_own_hand_shows_count_and_marks_per_slot_never_cards():
    g = _hinted_game()
    own = g.view(0)["zones"]["hand[0]"]
    assert "components" not in own
    assert own["count"] == 5
    assert own["slots"] == [
        {"slot": i, "marks": [["rank", 1, t]]} for i, t in enumerate([True, False, True, True, True])
    ]
    names = set(to_names(HAND0))
    for seat in range(3):
        hand = {c.name for c in g.st.zones[g.st.g["hand"][seat].idx]}
        assert not hand & strings(g.view(seat))
        assert not hand & strings([m.to_dict() for m in g.legal_moves(seat)])
    assert names  # (the names were really in hand[0])


def test_others_hands_show_cards_and_marks():
    g = _hinted_game()
    for seat in (0, 2):
        h1 = g.view(seat)["zones"]["hand[1]"]["components"]
        assert [(c["colour"], c["rank"]) for c in h1] == [
            ("yellow", 1),
            ("red", 1),
            ("green", 2),
            ("red", 3),
            ("blue", 4),
        ]
        assert [c["marks"] for c in h1] == [
            [["colour", "red", t], ["rank", 3, r]]
            for t, r in zip((False, True, False, True, False), (False, False, False, True, False))
        ]
    h0 = g.view(1)["zones"]["hand[0]"]["components"]
    assert [c["name"] for c in h0] == to_names(HAND0)


def test_spectator_sees_every_hand_and_nobody_sees_the_deck():
    g = _hinted_game()
    spec = g.view(None)["zones"]
    assert all("components" in spec[f"hand[{s}]"] for s in range(3))
    for seat in (None, 0, 1, 2):
        assert g.view(seat)["zones"]["deck"] == {"count": 35}
    assert g.view(1)["vars"] == {"tokens": 5, "fuses": 3, "final_turns": None}


def test_moves_on_own_cards_are_by_slot_and_events_hide_them_from_the_mover():
    g = _hinted_game()
    plays = [m.args["k"] for m in g.legal_moves(0) if m.name == "play"]
    assert plays == [f"hand[0]@{i}" for i in range(5)]
    ev = play(g, 2)[0]  # Y1
    assert g.event_view(ev, 0)["args"] == {"k": "hand[0]@2"}
    assert g.event_view(ev, 1)["args"] == {"k": "yellow-1"}
    assert g.event_view(ev, 2)["args"] == {"k": "yellow-1"}
    assert g.event_view(ev, None)["args"] == {"k": "yellow-1"}  # spectators see every hand
    shuffle = g.events[0]
    assert all(g.event_view(shuffle, s)["outcome"] == [] for s in (None, 0, 1, 2))


def test_view_of_seat_zero_snapshot(snapshot):
    g = _hinted_game()
    play(g, 2)
    discard(g, 0)
    assert g.view(0) == snapshot
    assert g.view(1)["zones"]["hand[0]"] == snapshot


# ---- official ----
def test_official_keeps_everything_else():
    g = new_game([HAND0, HAND1], variants=("official",))
    assert var(g, "tokens") == 8 and g.ruleset.variants == ("official",)
    hint_colour(g, 1, "red")
    assert marks(g, 1)[1] == [["colour", "red", True]]


# ---- sixth suits ----
@pytest.mark.parametrize("variant,size,multi", [("sixth_suit", 60, 10), ("single_sixth_suit", 55, 5)])
def test_sixth_suit_decks(variant, size, multi):
    g = Game.new(ruleset(variant), 2, seed=1)
    assert len(g.st.comps) == size
    assert sum(c.d["colour"] == "multi" for c in g.st.comps) == multi
    assert sorted(c.name for c in g.st.comps) == sorted(to_names(all_codes((variant,))))


def test_sixth_suit_is_named_in_hints_and_touched_only_by_its_own_colour():
    g = new_game([HAND0, ["M1", "R1", "M2", "Y3", "B4"]], variants=("sixth_suit",))
    assert {m.args["colour"] for m in g.legal_moves(0) if m.name == "hint_colour"} == {
        "red",
        "yellow",
        "green",
        "white",
        "blue",
        "multi",
    }
    hint_colour(g, 1, "red")
    assert [m[0][2] for m in marks(g, 1)] == [False, True, False, False, False]
    hint_colour(g, 0, "blue")
    hint_colour(g, 1, "multi")
    assert [m[1][2] for m in marks(g, 1)] == [True, False, True, False, False]


def test_sixth_suit_is_a_sixth_firework_and_the_maximum_is_30():
    g = new_game([["M1", "M2", "M3", "M4", "M5"], HAND1], variants=("single_sixth_suit",))
    for _ in range(4):
        play(g, 0)
        hint_rank(g, 0, 1)
    play(g, 0)
    assert heights(g) == {"M": 5} and not g.terminal


# ---- rainbow ----
@pytest.mark.parametrize("variant", ["rainbow", "single_rainbow"])
def test_rainbow_is_touched_by_every_colour_hint_and_never_named(variant):
    g = new_game([HAND0, ["X1", "R1", "X2", "Y3", "B4"]], variants=(variant,))
    names = {m.args["colour"] for m in g.legal_moves(0) if m.name == "hint_colour"}
    assert names == {"red", "yellow", "green", "white", "blue"}
    with pytest.raises(IllegalMove):
        g.apply(0, Move("hint_colour", {"target": 1, "colour": "rainbow"}))
    hint_colour(g, 1, "red")
    assert [m[0] for m in marks(g, 1)] == [["colour", "red", t] for t in (True, True, True, False, False)]
    hint_rank(g, 0, 2)
    hint_colour(g, 1, "green")  # touches only the rainbow cards
    assert [m[-1][2] for m in marks(g, 1)] == [True, False, True, False, False]


def test_rainbow_decks():
    assert len(Game.new(ruleset("rainbow"), 2, seed=0).st.comps) == 60
    g = Game.new(ruleset("single_rainbow"), 2, seed=0)
    assert len(g.st.comps) == 55 and sum(c.d["colour"] == "rainbow" for c in g.st.comps) == 5


def test_colour_hint_touching_only_rainbows_is_not_empty_under_official():
    g = new_game([HAND0, ["X1", "R1", "X2", "Y3", "B4"]], variants=("official", "rainbow"))
    hint_colour(g, 1, "white")  # E-HA5: touches the two rainbow cards only
    assert [m[0][2] for m in marks(g, 1)] == [True, False, True, False, False]
    hint_rank(g, 0, 1)
    with pytest.raises(IllegalMove, match="at least one card"):
        hint_rank(g, 1, 5)


def test_rainbow_builds_its_own_firework():
    g = new_game([["X1", "X2", "R1", "X3", "X4"], HAND1], variants=("rainbow",))
    play(g, 0)
    hint_rank(g, 0, 1)
    play(g, 0)
    assert heights(g) == {"X": 2}


# ---- all or nothing ----
@pytest.mark.parametrize("variants,last_round", [((), True), (("all_or_nothing",), False)])
def test_all_or_nothing_has_no_last_round(variants, last_round):
    g = new_game([HAND0, HAND1], then=["G3"], variants=variants)
    put(g, [c.name for c in g.st.zones[g.st.g["deck"].idx]][1:], "discard")  # direct set-up: one card left
    hint_rank(g, 1, 1)
    discard(g, 0)  # seat 1 discards a spare Y1 and draws the last card
    assert codes(g, "deck") == [] and codes(g, "hand[1]")[-1] == "G3"
    assert var(g, "final_turns") == (2 if last_round else None)
    for _ in range(4):
        if g.terminal:
            break
        hint_rank(g, 1 - g.decision().seats[0], 1)
    assert g.terminal == last_round
    if last_round:
        assert g.outcome["reason"] == "the last round after the deck ran out is over"
    else:
        play(g, 0)  # hands shrink (E-HA3)
        assert len(codes(g, "hand[0]")) == 4


def test_all_or_nothing_discarding_an_indispensable_card_loses():
    g = new_game([HAND0, ["Y5", "R1", "G2", "R3", "B4"]], variants=("all_or_nothing",))
    hint_rank(g, 1, 5)
    discard(g, 0)  # Y5, the only one
    assert g.terminal and g.outcome["scores"] == {"team": 0}
    assert g.outcome["reason"] == "an indispensable card was discarded"


def test_all_or_nothing_discarding_a_spare_copy_is_fine():
    g = new_game([HAND0, ["Y2", "R1", "G2", "R3", "B4"]], variants=("all_or_nothing",))
    hint_rank(g, 1, 5)
    discard(g, 0)  # one Y2 of two
    assert not g.terminal


def test_all_or_nothing_seat_without_cards_or_tokens_loses():
    g = new_game([HAND0, HAND1], variants=("all_or_nothing",))
    put(g, [c.name for c in g.st.zones[g.st.g["hand"][1].idx]], "fireworks")  # direct set-up
    g.st.g["tokens"] = 1
    hint_rank(g, 1, 1)  # the last token goes; seat 1 has no card and no hint
    assert g.terminal and g.outcome["reason"] == "the seat to act has no card and cannot hint"
    assert g.outcome["scores"] == {"team": 0}


def test_all_or_nothing_win_scores_the_maximum():
    g = new_game([HAND0, HAND1], variants=("all_or_nothing",))
    put(
        g,
        [n for n in to_names(all_codes()) if n.split("-")[1] in ("1", "2", "3", "4") and "#" not in n]
        + ["red-5", "yellow-5", "green-5", "white-5"],
        "fireworks",
    )  # direct set-up: 24 cards up
    put(g, ["blue-5"], "hand[0]")
    g.st.zones[g.st.g["hand"][0].idx].insert(0, g.st.zones[g.st.g["hand"][0].idx].pop())
    play(g, 0)
    assert g.terminal and g.outcome["scores"] == {"team": 25}


def test_all_or_nothing_combines_with_one_other_variant_but_not_rival_suits():
    from dsl import RulesetError

    for other in ("official", "sixth_suit", "single_sixth_suit", "rainbow", "single_rainbow"):
        assert ruleset("all_or_nothing", other)
    with pytest.raises(RulesetError, match="both change enum 'colour'"):
        ruleset("sixth_suit", "rainbow")
