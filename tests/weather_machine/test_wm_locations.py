"""Weather Machine: placing the scientist (seed 004: the space's voucher plus one per scientist
already there and one for Lativ; at the Supplier one voucher of any type, a Science voucher from
Lativ, one voucher paid per scientist to the left), Lativ's loop and the 2-seat changes (§2,
§5, seed 004)."""

from __future__ import annotations

import random

import pytest
from wm_helpers import (
    actor,
    arranged_game,
    busy_move,
    comps,
    const,
    end_round,
    new_game,
    play,
    site_on,
    step,
    var,
    vouchers,
)

SEAT_MARKS = range(4)


def scientists(on):
    return sum(1 for x in on if x in SEAT_MARKS)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_placement_pays_by_the_scientists_there_and_lativ(seats):
    """Checked on every placement of random games: the arithmetic of each location."""
    placements = {"government": 0, "lab": 0, "rnd": 0, "supplier": 0}
    for seed in range(2):
        g, rng = new_game(seats, seed), random.Random(seed)
        while not g.terminal:
            m = busy_move(g, rng)
            s = actor(g)
            if m.name not in ("go", "go_supplier"):
                g.apply(s, m)
                continue
            place = m.args.get("l", "supplier")
            on, lativ, before = site_on(g, place), var(g, "lativ"), vouchers(g, s)
            g.apply(s, m)
            after = vouchers(g, s)
            diff = {v: after[v] - before[v] for v in after}
            if place == "supplier":
                left = scientists(on[: m.args["i"]])
                assert sum(diff.values()) == 1 + (lativ == "supplier") - left
            else:
                paid = const(g, "space_voucher")[place]
                assert diff == {v: (1 + scientists(on) + (lativ == place) if v == paid else 0) for v in diff}
                assert site_on(g, place)[m.args["i"]] == s
            placements[place] += 1
    assert all(placements.values()), placements


def test_a_second_scientist_gains_one_more_and_a_taken_space_is_refused():
    g = arranged_game(3)
    first, second = var(g, "order")[0], var(g, "order")[1]
    paid = const(g, "space_voucher")["lab"]
    play(g, "skip_start")
    before = vouchers(g, first)[paid]
    play(g, "go", l="lab", i=1)
    assert vouchers(g, first)[paid] == before + 1
    play(g, "done_actions")
    play(g, "skip_start")
    assert not any(m for m in g.legal_moves(second) if m.name == "go" and m.args == {"l": "lab", "i": 1})
    before = vouchers(g, second)[paid]
    play(g, "go", l="lab", i=2)
    assert vouchers(g, second)[paid] == before + 2


def test_the_scientist_must_move_to_another_location():
    g = arranged_game(2)
    play(g, "skip_start")
    assert not [m for m in g.legal_moves(actor(g)) if m.name == "go_supplier"]  # everyone starts there
    play(g, "go", l="rnd", i=0)
    play(g, "done_actions")
    end_round(g)
    while step(g) != "place_scientist":
        play(g, "skip_start") if step(g) == "turn_start" else play(g, "done_actions")
    here = var(g, "sci_at")[actor(g)]
    legal = {m.args.get("l", "supplier") for m in g.legal_moves(actor(g)) if m.name in ("go", "go_supplier")}
    assert here not in legal and legal


def test_two_seats_block_the_rightmost_main_spaces():
    g = arranged_game(2)
    for place in ("government", "lab", "rnd"):
        assert site_on(g, place)[-1] == 5
    g3 = arranged_game(3)
    for place in ("government", "lab", "rnd"):
        assert site_on(g3, place) == [-1, -1, -1]


def turn(g, place, i, pick="supply_v"):
    play(g, "skip_start")
    if place == "supplier":
        play(g, "go_supplier", i=i, pick=pick)
    else:
        play(g, "go", l=place, i=i)
    play(g, "done_actions")


def test_lativ_walks_his_loop_and_pays_income_from_his_office():
    """§5, seed 004: Supplier -> Government -> Lab -> R&D -> Office; a seat entering his location
    moves him to the leftmost free space of the next; in phase C he pays income and returns."""
    g = arranged_game(3, seed=2)
    a, b, c = var(g, "order")
    turn(g, "government", 1)
    turn(g, "lab", 0)
    turn(g, "rnd", 0)
    assert var(g, "lativ") == "supplier"
    assert var(g, "order") == [a, b, c]
    # round 2: entering the Supplier, where Lativ is, gives the chosen voucher and a Science voucher
    before = vouchers(g, a)
    turn(g, "supplier", 0, pick="lab_v")
    assert vouchers(g, a)["lab_v"] == before["lab_v"] + 1
    assert vouchers(g, a)["science_v"] == before["science_v"] + 1
    assert var(g, "lativ") == "government"
    assert site_on(g, "government") == [4, -1, -1]  # the leftmost free space
    paid = const(g, "space_voucher")
    before = vouchers(g, b)
    turn(g, "government", 1)  # the space, Lativ
    assert vouchers(g, b)[paid["government"]] == before[paid["government"]] + 2
    assert var(g, "lativ") == "lab"
    assert site_on(g, "lab") == [4, -1, -1]
    before = vouchers(g, c)
    turn(g, "lab", 2)
    assert vouchers(g, c)[paid["lab"]] == before[paid["lab"]] + 2
    assert var(g, "lativ") == "rnd"
    assert site_on(g, "lab") == [-1, -1, c]
    # round 3: entering R&D sends him to his office; phase C pays income by the funding tracks
    for t, n in (("government", 2), ("lab", 5), ("rnd", 9)):
        play(g, "t_fund", s=b, t=t, n=n)
    turn(g, "rnd", 1)
    assert var(g, "lativ") == "office"
    assert 4 not in site_on(g, "rnd")
    income = const(g, "track_income")
    before = vouchers(g, b)
    turn(g, "supplier", 1, pick="supply_v")  # nobody to the left: pays nothing
    turn(g, "government", 0)
    assert var(g, "lativ") == "supplier"
    after = vouchers(g, b)
    assert after["supply_v"] == before["supply_v"] + 1
    for t, n, v in (("government", 2, "government_v"), ("lab", 5, "lab_v"), ("rnd", 9, "rnd_v")):
        assert after[v] == before[v] + income[n]


@pytest.mark.parametrize("seats", [2, 3])
def test_with_two_seats_lativ_discards_a_research_token_at_government_and_rnd(seats):
    g = arranged_game(seats)
    lab_tokens = [t for t in comps(g, "tokens_at") if t["loc"] == "lab"]
    assert len(lab_tokens) == (10 if seats == 2 else 15)  # §2: 2 Lab tokens a weather with 2 seats
    for _ in range(seats):
        play(g, "skip_start")
        play(g, "go", l="rnd", i=[i for i, x in enumerate(site_on(g, "rnd")) if x == -1][0])
        play(g, "done_actions")
    w = var(g, "assistant")
    discarded = len(comps(g, "discarded"))
    gov_w = len([t for t in comps(g, "tokens_at") if t["loc"] == "government" and t["weather"] == w])
    play(g, "skip_start")
    play(g, "go_supplier", i=0, pick="supply_v")
    assert var(g, "lativ") == "government"
    lost = 1 if seats == 2 else 0
    assert len(comps(g, "discarded")) == discarded + lost
    assert len([t for t in comps(g, "tokens_at") if t["loc"] == "government" and t["weather"] == w]) == gov_w - lost
