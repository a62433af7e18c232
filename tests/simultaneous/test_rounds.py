"""Simultaneous steps in the engine: a 4-seat passing game (Hearts-like, tests/simultaneous/
hearts_mini.ludex) and rock-paper-scissors (docs/examples): every named seat decides at once,
choices are sealed until the last seat has chosen, picks of several cards are one move, and
the fewest points win with true scores."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sim_helpers import hearts, play_randomly, rps

from dsl import load_from_sources
from runtime import Game, IllegalMove, LogMismatch, NotYourTurn, event_to_dict
from runtime import compile as rc

# the deck top first (setup draws five per seat in order): all clubs to seat 0, all diamonds to
# seat 1, four spades and a heart to seat 2, four hearts and a spade to seat 3
HANDS = [[f"clubs-{r}" for r in range(1, 6)], [f"diamonds-{r}" for r in range(1, 6)],
         [f"spades-{r}" for r in range(1, 5)] + ["hearts-5"], [f"hearts-{r}" for r in range(1, 5)] + ["spades-5"]]
STACKED = [c for hand in HANDS for c in hand]


def _dealt() -> Game:
    return Game.new(hearts(), 4, seed=1, outcomes=[STACKED])


def _names(g: Game, zone: str, seat: int) -> list[str]:
    return [c["name"] for c in g.view(seat)["zones"][zone]["components"]]


def test_every_seat_decides_at_once_and_the_listing_is_the_offer_not_every_triple():
    g = _dealt()
    d = g.decision()
    assert (d.step, d.seats) == ("pass", (0, 1, 2, 3))
    for s in range(4):
        moves = [m.to_dict() for m in g.legal_moves(s)]
        assert moves == [{"name": "pass_cards", "args": {"cs": {"pick": 3, "of": HANDS[s]}}}]


def test_wrong_sized_repeated_and_unknown_picks_are_refused_with_the_reason():
    g = _dealt()
    cases = [
        (["clubs-1", "clubs-2"], "cs picks exactly 3, not 2"),
        (["clubs-1", "clubs-1", "clubs-2"], 'cs: "clubs-1" is picked twice; pick 3 different ones'),
        (["clubs-1", "clubs-2", "hearts-1"], "cs: \"hearts-1\" is not one of the choices for 'pass_cards' now"),
        ("clubs-1", 'cs picks 3 at once: send a list of 3 of its choices, not "clubs-1"'),
    ]
    for cs, reason in cases:
        with pytest.raises(IllegalMove) as exc:
            g.apply(0, {"name": "pass_cards", "args": {"cs": cs}})
        assert exc.value.reason == reason
    with pytest.raises(IllegalMove, match="three hearts may not be passed together"):
        g.apply(3, {"name": "pass_cards", "args": {"cs": ["hearts-1", "hearts-2", "hearts-3"]}})
    with pytest.raises(IllegalMove, match="picks 3 at once"):
        g.apply(0, g.legal_moves(0)[0])  # the listed offer itself is not a pick
    assert g.events == _dealt().events  # nothing was recorded


def test_sealed_choices_change_nothing_until_the_last_seat_and_then_apply_in_seat_order():
    g = _dealt()
    before = {s: g.view(s)["zones"] for s in range(4)}
    arrival = [2, 0, 1]
    for s in arrival:
        g.apply(s, {"name": "pass_cards", "args": {"cs": HANDS[s][:3]}})
        assert g.decision().seats == tuple(x for x in range(4) if x not in arrival[: arrival.index(s) + 1])
    assert {s: g.view(s)["zones"] for s in range(4)} == before
    assert g.view(3)["simultaneous"] == {"seats": [0, 1, 2, 3], "chosen": [0, 1, 2], "waiting": [3]}
    # seat 0 changes its mind; the last choice counts
    g.apply(0, {"name": "pass_cards", "args": {"cs": ["clubs-3", "clubs-4", "clubs-5"]}})
    assert g.view(0)["simultaneous"]["mine"] == {"name": "pass_cards", "args": {"cs": ["clubs-3", "clubs-4", "clubs-5"]}}
    new = g.apply(3, {"name": "pass_cards", "args": {"cs": ["spades-5", "hearts-4", "hearts-1"]}})
    assert [(e.kind, e.seat) for e in new] == [("sealed", 3), ("move", 0), ("move", 1), ("move", 2), ("move", 3)]
    assert all(e.node == "sealed" for e in new[1:])
    # the log keeps the order of arrival: 2, 0, 1, 0 again, 3
    assert [e.seat for e in g.events if e.kind == "sealed"] == [2, 0, 1, 0, 3]
    assert sorted(_names(g, "hand[1]", 1)) == ["clubs-3", "clubs-4", "clubs-5", "diamonds-4", "diamonds-5"]
    assert sorted(_names(g, "hand[0]", 0)) == ["clubs-1", "clubs-2", "hearts-1", "hearts-4", "spades-5"]
    assert (g.decision().step, g.decision().seats) == ("play", (0,))
    assert "simultaneous" not in g.view(0)


def test_a_seat_the_round_does_not_name_may_not_choose_and_others_see_only_that_a_seat_chose():
    g = Game.new(rps(), 2, seed=1)
    with pytest.raises(NotYourTurn):
        g.apply(2, {"name": "play", "args": {"s": "rock"}})
    g.apply(1, {"name": "play", "args": {"s": "paper"}})
    seen = g.event_view(g.events[-1], 0)
    assert (seen["kind"], seen["seat"], seen["move"], seen["args"]) == ("sealed", 1, None, {})
    assert g.event_view(g.events[-1], None) == seen
    assert g.event_view(g.events[-1], 1)["args"] == {"s": "paper"}


def test_a_pick_of_numbers_takes_only_numbers():
    """`true` is not the number 1 in a pick either (as for a single argument, issue 23)."""
    picky = load_from_sources((("picky/game.ludex", 'game picky "a pick of numbers"\nvar got: list<int> = []\n'
                                 'step play then end turn\nmove take(ns in 2 of [1, 2, 3]) during play "P1: take two" '
                                 '{ got = ns }\n'),))
    g = Game.new(picky, 2, seed=1)
    with pytest.raises(IllegalMove) as exc:
        g.apply(0, {"name": "take", "args": {"ns": [True, 2]}})
    assert exc.value.reason == "ns: true is not one of the choices for 'take' now"
    g.apply(0, {"name": "take", "args": {"ns": [1, 2]}})
    assert g.view(0)["vars"]["got"] == [1, 2]


def test_the_state_hash_holds_the_sealed_choices_of_an_open_round():
    """Positions that differ only in what a seat has sealed are different states (the state hash
    keys OpenSpiel's information states and checks a fold); the same choices hash alike."""
    def sealed(*shapes: str) -> str:
        g = Game.new(rps(), 2, seed=7)
        for s in shapes:
            g.apply(1, {"name": "play", "args": {"s": s}})
        return g.state_hash()

    assert sealed("rock") == sealed("rock") and sealed("paper", "rock") == sealed("rock")  # the last choice stands
    assert len({sealed(), sealed("rock"), sealed("paper")}) == 3


@settings(max_examples=25, deadline=None)
@given(first=st.integers(0, 2), second=st.integers(0, 2), replace=st.booleans())
def test_before_the_reveal_other_seats_see_the_same_bytes_whatever_the_sealed_seat_chose(first, second, replace):
    shapes = ["rock", "paper", "scissors"]

    def seen(choices: list[str]) -> list[str]:
        g = Game.new(rps(), 2, seed=7)
        for c in choices:
            g.apply(1, {"name": "play", "args": {"s": c}})
        return [json.dumps([g.view(s), [g.event_view(e, s) for e in g.events]], sort_keys=True) for s in (0, None)]

    chosen = [shapes[first]] + ([shapes[second]] if replace else [])
    baseline = ["rock"] + (["rock"] if replace else [])
    assert seen(chosen) == seen(baseline)


def test_the_fewest_points_win_with_the_true_scores():
    outcome = play_randomly(_dealt(), 3).outcome
    assert outcome["kind"] == "scores" and outcome["lowest"] is True
    scores = {int(s): v for s, v in outcome["scores"].items()}
    assert sum(scores.values()) == 5  # five hearts, every one taken: true points, never negated
    assert outcome["winners"] == sorted(s for s, v in scores.items() if v == min(scores.values()))
    assert outcome["ranking"] == sorted(scores, key=lambda s: (scores[s], s))


def test_lowest_scores_keeps_its_ties_and_tie_breakers():
    text = ('game low\nseats 3\nvar pts: per seat int = 0\nstep go then end turn\n'
            'move m() during go { end game lowest scores [2, 1, 1] then [0, 0, 5] "r" }\n')
    g = Game.new(load_from_sources((("low.ludex", text),)), 3, seed=1)
    g.apply(0, {"name": "m", "args": {}})
    assert g.outcome["winners"] == [2] and g.outcome["places"] == {"0": 3, "1": 2, "2": 1}


def test_a_log_replays_and_an_altered_sealed_choice_does_not():
    g = play_randomly(_dealt(), 5)
    assert Game.fold(hearts(), 4, {}, g.events).state_hash() == g.state_hash()
    i = next(i for i, e in enumerate(g.events) if e.kind == "sealed" and e.seat == 2)
    other = next(n for n in (f"spades-{r}" for r in range(1, 6)) if n not in g.events[i].args["cs"])
    reveal_end = next(j for j, e in enumerate(g.events) if e.move == "play_card")
    forged = list(g.events[:reveal_end])  # the round alone: its revealed moves no longer follow from it
    forged[i] = attrs.evolve(forged[i], args={"cs": [*g.events[i].args["cs"][:2], other]})
    with pytest.raises(LogMismatch):
        Game.fold(hearts(), 4, {}, forged)


@pytest.mark.parametrize("which", ["hearts", "rps"])
def test_generated_code_and_closures_agree_on_simultaneous_games(which, monkeypatch):
    rs = hearts() if which == "hearts" else rps()
    seats = 4 if which == "hearts" else 2

    def trace() -> list:
        out = []
        for seed in (1, 2):
            g = play_randomly(Game.new(rs, seats, seed=seed), seed)
            out.append(([event_to_dict(e) for e in g.events], g.state_hash(), g.outcome))
        return out

    generated = rc.program_for(rs)
    assert all(m.search is not None and m.run is not None for m in generated.moves)
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert rc.program_for(rs).moves[0].search is None
    closures = trace()
    monkeypatch.setattr(rc, "_PROGRAMS", {rs.content_hash: generated})
    assert trace() == closures


def _diagnostics(text: str) -> list[str]:
    from dsl.loader import check_text

    return [f"{d.line}:{d.column}: {d.message}" for d in check_text(text, "bad.ludex")]


def test_the_checker_refuses_a_pick_before_the_last_parameter_and_seats_that_are_not_a_list():
    head = "game bad\ncomponent card(n: int)\nzone hand: per seat card owner = []\n"
    assert _diagnostics(head + "step s\nmove m(cs in 2 of hand[actor], k in 1..3) during s { }\n") == [
        "5:8: 'cs in ... of ...' picks several at once: it may only be a move's last parameter"]
    assert _diagnostics(head + "step s simultaneous for 3\nmove m(k in 1..3) during s { }\n") == [
        "4:25: type mismatch: `simultaneous for` names a list of seats, found a number"]
    assert _diagnostics(head + "step s\nmove m(cs in \"two\" of hand[actor]) during s { }\n")[0].startswith(
        "5:14: type mismatch")


def test_a_round_that_names_no_seat_is_a_rule_error_naming_the_step():
    from runtime import RuleError

    text = "game empty\nvar n: int = 0\nstep s simultaneous for [] then stay\nmove m() during s { n += 1 }\n"
    with pytest.raises(RuleError, match="the simultaneous step 's' needs a non-empty list of different seats, got \\[\\]"):
        Game.new(load_from_sources((("empty.ludex", text),)), 2, seed=1)


def test_a_world_sampled_for_a_bot_does_not_know_the_other_seats_sealed_choices():
    import random

    from search.determinise import determinise

    g = Game.new(rps(), 2, seed=1)
    g.apply(1, {"name": "play", "args": {"s": "paper"}})
    world = determinise(g, 0, random.Random(1))
    assert world.decision().seats == (0, 1) and "mine" not in world.view(1)["simultaneous"]
    mine = determinise(g, 1, random.Random(1))
    assert mine.view(1)["simultaneous"]["mine"] == {"name": "play", "args": {"s": "paper"}}
    assert g.decision().seats == (0,)  # the real game is untouched
