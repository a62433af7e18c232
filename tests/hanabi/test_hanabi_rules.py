"""Hanabi scenarios with stacked decks: setup (H1-H4), each action (H5-H10), token limits
(E-HA1, E-HA2), each end (H12, E-HA4), the last round, and the fuse-out score (H14)."""

from __future__ import annotations

import pytest
from hanabi_helpers import (
    all_codes,
    codes,
    deck_order,
    discard,
    heights,
    hint_colour,
    hint_rank,
    marks,
    new_game,
    play,
    ruleset,
    var,
)

from runtime import Game, IllegalMove, Move, NotYourTurn

REDS = ["R1", "R2", "R3", "R4", "R5"]
YELLOWS = ["Y1", "Y2", "Y3", "Y4", "Y5"]


# ---- setup ----
def test_deck_has_50_cards_of_five_colours():
    g = Game.new(ruleset(), 2, seed=1)
    names = sorted(c.name for c in g.st.comps)
    assert len(names) == 50
    assert sorted(f"{c.d['colour']}-{c.d['rank']}" for c in g.st.comps) == sorted(
        f"{dict(R='red', Y='yellow', G='green', W='white', B='blue')[c[0]]}-{c[1]}" for c in all_codes()
    )


@pytest.mark.parametrize("seats,size", [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_hand_size_and_deal_from_the_top_one_seat_at_a_time(seats, size):
    order = deck_order([[] for _ in range(seats)])
    g = Game.new(ruleset(), seats, seed=0, outcomes=[order])
    for s in range(seats):
        assert [c.name for c in g.st.zones[g.st.g["hand"][s].idx]] == order[s * size : (s + 1) * size]
    assert len(codes(g, "deck")) == 50 - seats * size
    assert (var(g, "tokens"), var(g, "fuses"), var(g, "final_turns")) == (8, 3, None)
    assert g.decision().seats == (0,) and g.decision().step == "turn"


def test_seat_counts_outside_two_to_five_are_refused():
    for n in (1, 6):
        with pytest.raises(ValueError):
            Game.new(ruleset(), n)


# ---- hints ----
def test_colour_hint_costs_a_token_and_marks_touched_and_untouched_cards():
    g = new_game([REDS, ["Y1", "R1", "G2", "R3", "B4"]])
    events = hint_colour(g, 1, "red")
    assert var(g, "tokens") == 7
    assert marks(g, 1) == [
        [["colour", "red", False]],
        [["colour", "red", True]],
        [["colour", "red", False]],
        [["colour", "red", True]],
        [["colour", "red", False]],
    ]
    assert marks(g, 0) == [[]] * 5
    assert len(codes(g, "hand[1]")) == 5 and len(codes(g, "deck")) == 40  # a hint draws nothing
    assert [e.kind for e in events] == ["move"] and events[0].args == {"target": 1, "colour": "red"}
    assert g.decision().seats == (1,)


def test_rank_hint_marks_and_repeated_hints_do_not_duplicate_marks():
    g = new_game([REDS, ["Y1", "R1", "G2", "R3", "B1"]])
    hint_rank(g, 1, 1)
    hint_colour(g, 0, "red")
    hint_rank(g, 1, 1)
    assert [m for m in marks(g, 1)] == [
        [["rank", 1, True]],
        [["rank", 1, True]],
        [["rank", 1, False]],
        [["rank", 1, False]],
        [["rank", 1, True]],
    ]
    assert var(g, "tokens") == 5


def test_hints_go_to_teammates_only_and_cover_every_colour_and_rank():
    g = new_game([REDS, YELLOWS, ["G1"]])
    hints = [(m.name, m.args) for m in g.legal_moves(0) if m.name.startswith("hint")]
    assert len(hints) == 2 * (5 + 5)
    assert all(a["target"] in (1, 2) for _, a in hints)
    with pytest.raises(IllegalMove, match="teammate"):
        g.apply(0, Move("hint_rank", {"target": 0, "rank": 1}))


def test_empty_hints_are_allowed_in_the_base_ruleset_and_refused_by_official():
    g = new_game([REDS, YELLOWS])
    hint_colour(g, 1, "blue")  # touches nothing (H7, seed 003)
    assert marks(g, 1) == [[["colour", "blue", False]]] * 5
    g = new_game([REDS, YELLOWS], variants=("official",))
    with pytest.raises(IllegalMove, match="at least one card"):
        hint_colour(g, 1, "blue")
    legal = {(m.name, tuple(sorted(m.args.items()))) for m in g.legal_moves(0)}
    assert ("hint_colour", (("colour", "yellow"), ("target", 1))) in legal
    assert not any(n == "hint_colour" and dict(a)["colour"] != "yellow" for n, a in legal)
    assert sorted(dict(a)["rank"] for n, a in legal if n == "hint_rank") == [1, 2, 3, 4, 5]


def test_no_hint_without_tokens():
    g = new_game([REDS, YELLOWS])
    for _ in range(8):
        hint_rank(g, 1 - g.decision().seats[0], 1)
    assert var(g, "tokens") == 0
    assert not any(m.name.startswith("hint") for m in g.legal_moves(0))
    with pytest.raises(IllegalMove, match="no hint token"):
        hint_rank(g, 1, 1)
    assert {m.name for m in g.legal_moves(0)} == {"play", "discard"}  # E-HA1


# ---- discard ----
def test_discard_is_refused_at_eight_tokens():
    g = new_game([REDS, YELLOWS])
    assert not any(m.name == "discard" for m in g.legal_moves(0))
    with pytest.raises(IllegalMove, match="all 8 hint tokens"):
        discard(g, 0)
    assert {m.name for m in g.legal_moves(0)} == {"play", "hint_colour", "hint_rank"}  # E-HA1


def test_discard_regains_a_token_shifts_the_hand_and_appends_the_drawn_card():
    g = new_game([REDS, YELLOWS], then=["G4", "B2"])
    hint_rank(g, 1, 2)
    hint_rank(g, 0, 2)
    assert var(g, "tokens") == 6
    discard(g, 1)
    assert var(g, "tokens") == 7
    assert codes(g, "discard") == ["R2"]
    assert codes(g, "hand[0]") == ["R1", "R3", "R4", "R5", "G4"]
    assert marks(g, 0)[0] == [["rank", 2, False]] and marks(g, 0)[4] == []  # marks travel with their cards
    assert codes(g, "deck")[0] == "B2"


# ---- play ----
def test_play_builds_fireworks_in_order_and_draws():
    g = new_game([["R1", "Y1", "R2", "G3", "R1"], ["W1", "B3", "B1", "B2", "W4"]], then=["Y2", "G1"])
    play(g, 0)  # R1
    play(g, 2)  # B1
    play(g, 1)  # R2 (hand is now Y1 R2 G3 R1 Y2)
    assert heights(g) == {"R": 2, "B": 1}
    assert codes(g, "fireworks") == ["R1", "B1", "R2"]
    assert var(g, "fuses") == 3 and var(g, "tokens") == 8
    assert codes(g, "hand[0]") == ["Y1", "G3", "R1", "Y2", codes(g, "hand[0]")[4]]


def test_misplay_burns_a_fuse_discards_and_gains_nothing():
    g = new_game([["R2", "R1", "R1", "G1", "G1"], YELLOWS])
    hint_rank(g, 1, 1)
    hint_rank(g, 0, 1)
    play(g, 0)  # R2 on nothing
    assert (var(g, "fuses"), var(g, "tokens"), codes(g, "discard"), heights(g)) == (2, 6, ["R2"], {})
    play(g, 0)  # Y1
    play(g, 0)  # R1
    play(g, 0)  # Y2
    play(g, 0)  # R1 again: a duplicate is a misplay (E-HA6)
    assert (var(g, "fuses"), codes(g, "discard"), heights(g)) == (1, ["R2", "R1"], {"R": 1, "Y": 2})


def test_playing_a_five_regains_a_token_below_eight_only():
    g = new_game([REDS, ["Y1", "Y2", "Y3", "Y4", "Y5"]])
    for _ in range(4):
        play(g, 0)
        play(g, 0)
    assert var(g, "tokens") == 8
    play(g, 0)  # R5 at 8 tokens: nothing gained (E-HA2)
    assert var(g, "tokens") == 8 and heights(g)["R"] == 5
    # seat 1 plays Y5 below 8: one token back (H10)
    g2 = new_game([REDS, YELLOWS])
    for _ in range(4):
        play(g2, 0)
        play(g2, 0)
    hint_rank(g2, 1, 1)
    assert var(g2, "tokens") == 7
    play(g2, 0)  # Y5
    assert var(g2, "tokens") == 8 and heights(g2)["Y"] == 5


def test_moves_of_another_seat_are_refused():
    g = new_game([REDS, YELLOWS])
    with pytest.raises(NotYourTurn):
        g.apply(1, Move("play", {"k": "hand[1]@0"}))
    with pytest.raises(IllegalMove):
        g.apply(0, Move("play", {"k": "hand[1]@0"}))


# ---- ends ----
def test_third_fuse_ends_the_game_at_once_with_score_zero():
    g = new_game([["R2", "R3", "R4", "R1", "Y1"], ["G2", "G3", "G4", "B1", "B2"]])
    play(g, 3)  # R1
    play(g, 0)  # G2 misplay
    play(g, 0)  # R2
    play(g, 0)  # G3 misplay
    assert heights(g) == {"R": 2} and var(g, "fuses") == 1
    play(g, 0)  # R3
    play(g, 0)  # G4 misplay: third fuse
    assert g.terminal
    assert g.outcome["kind"] == "team" and g.outcome["scores"] == {"team": 0}
    assert g.outcome["reason"] == "the third fuse burnt" and g.outcome["winners"] == [0, 1]
    assert len(codes(g, "hand[1]")) == 4  # ends at once: no draw after the third fuse


def test_fuse_out_score_is_an_option():
    g = new_game([["R2", "R2", "R3", "R3", "R4"], YELLOWS], options={"loss_score": -10})
    for _ in range(3):
        play(g, 0)
        if not g.terminal:
            hint_rank(g, 0, 1)
    assert g.terminal and g.outcome["scores"] == {"team": -10}


def test_completing_every_firework_ends_at_once_with_25():
    # seat 0 plays reds then greens then whites, seat 1 yellows then blues, each from slot 0
    draws = []
    for g_, b in zip(["G1", "G2", "G3", "G4", "G5"], ["B1", "B2", "B3", "B4", "B5"]):
        draws += [g_, b]
    draws += ["W1", "R1", "W2", "R1", "W3", "Y1", "W4", "Y1", "W5"]
    g = new_game([REDS, YELLOWS], then=draws)
    for _ in range(20):
        play(g, 0)
    assert sum(heights(g).values()) == 20 and var(g, "tokens") == 8
    for _ in range(4):
        play(g, 0)  # seat 0: W1..W4
        hint_rank(g, 0, 5)  # seat 1 waits
    assert not g.terminal
    play(g, 0)  # W5
    assert g.terminal and g.outcome["scores"] == {"team": 25}
    assert g.outcome["reason"] == "all fireworks are complete"
    assert heights(g) == {c: 5 for c in "RYGWB"}


def _run_deck_out(g: Game) -> int:
    """Discard (or hint at 8 tokens) until the deck is empty; returns the drawer's seat."""
    while codes(g, "deck"):
        s = g.decision().seats[0]
        if var(g, "tokens") == 8:
            hint_rank(g, (s + 1) % g.seats, 1)
        else:
            discard(g, 0)
    return s


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_last_round_every_seat_including_the_drawer_takes_one_more_turn(seats):
    hands = [["R1"]] + [[] for _ in range(seats - 1)]
    g = new_game(hands, then=[])
    drawer = _run_deck_out(g)
    size = 5 if seats <= 3 else 4
    assert var(g, "final_turns") == seats
    assert g.decision().seats == ((drawer + 1) % seats,)
    for k in range(seats):
        assert not g.terminal
        s = g.decision().seats[0]
        assert s == (drawer + 1 + k) % seats
        if var(g, "tokens") < 8:
            discard(g, 0)
        else:
            hint_rank(g, (s + 1) % seats, 1)
        assert len(codes(g, f"hand[{s}]")) in (size - 1, size)  # nobody draws any more
    assert g.terminal
    assert g.outcome["reason"] == "the last round after the deck ran out is over"
    assert g.outcome["scores"] == {"team": sum(heights(g).values())}
    assert g.decision().terminal and g.legal_moves(drawer) == []


def test_last_round_ends_early_on_the_third_fuse():
    g = new_game([["R3", "R4", "R5", "R2", "Y5"], ["G3", "G4", "G5", "B5", "B4"]])
    play(g, 0)  # R3 misplay
    play(g, 0)  # G3 misplay
    drawer = _run_deck_out(g)
    assert var(g, "final_turns") == 2 and not g.terminal
    s = g.decision().seats[0]
    assert s == 1 - drawer
    h = g.st.zones[g.st.g["hand"][s].idx]
    bad = next(i for i, c in enumerate(h) if c.d["rank"] != heights(g).get(c.name[0].upper(), 0) + 1)
    play(g, bad)
    assert g.terminal and g.outcome["reason"] == "the third fuse burnt" and g.outcome["scores"] == {"team": 0}


def test_game_ends_only_by_the_rules_over_many_random_games():
    import random

    from hanabi_helpers import careful_move

    ends = set()
    for seats in (2, 3, 4, 5):
        for i in range(15):
            g = Game.new(ruleset(), seats, seed=f"r{i}")
            rng = random.Random(i)
            plies = 0
            while not g.terminal:
                assert not g.decision().stuck
                g.apply(g.decision().seats[0], careful_move(g, rng, care=1.0 if i % 2 else 0.8))
                plies += 1
                assert plies < 200
            ends.add(g.outcome["reason"])
    assert "the last round after the deck ran out is over" in ends and "the third fuse burnt" in ends
