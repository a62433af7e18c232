"""Weather Machine phase B (§6: testing the weather machine), extreme weather (§7), the end
triggers with their one more round and the final phase B (§9, seed 004)."""

from __future__ import annotations

import pytest
from wm_helpers import (
    WEATHERS,
    arranged_game,
    branch,
    bzone,
    comps,
    const,
    count,
    end_round,
    finish,
    play,
    step,
    var,
    vouchers,
    zone,
)


def fill_branch(g, w, owners):
    for s in owners:
        play(g, "t_lab_bot", s=s, w=w)


def broke(g, s):
    for v in ("supply_v", "government_v", "lab_v", "rnd_v", "science_v"):
        play(g, "t_vouchers", s=s, v=v, n=0)


def rightmost_of(g, w):
    return [t for t in comps(g, "display") if t["weather"] == w][-1]


def test_a_full_branch_with_a_matching_tile_runs():
    g = arranged_game(2)
    a, b = var(g, "order")
    w = comps(g, "display")[0]["weather"]
    tile = rightmost_of(g, w)
    play(g, "t_assistant", w=w)
    fill_branch(g, w, [a, a])  # with Lativ's bot (2 seats) the three spaces are full
    assert len(bzone(g, w, "lab_bots")) == const(g, "lab_slots")
    play(g, "t_vouchers", s=a, v="science_v", n=tile["cost"])
    broke(g, b)
    cp, line_a = var(g, "cp"), count(g, f"line[{a}]")
    end_round(g)
    loss = const(g, "extreme_cp_loss")[2]
    assert count(g, f"line[{a}]") == line_a + 2  # owners take their bots back
    office = const(g, "office_boon")["lab"][WEATHERS.index(w)]  # the Lab token's office space
    boon = const(g, "boon_cp") * ((tile["boon1"] == "b_cp") + (office == "b_cp"))
    assert var(g, "cp")[a] == max(0, cp[a] + 2 * tile["cp"] + boon - loss)  # CP per bot, then the extreme tile
    assert var(g, "cp")[b] == max(0, cp[b] - loss)
    assert ("lab", w) in [(t["loc"], t["weather"]) for t in comps(g, f"office_tokens[{a}]")]
    assert not bzone(g, w, "lab_bots")
    assert count(g, "lativ_side") == 1  # Lativ's bot back beside the Lab
    assert [t["level"] for t in bzone(g, w, "extreme_out")][0] == 2  # §7: level 2 covers level 1
    assert tile["name"] in zone(g, "exp_done") and count(g, "display") == 3
    assert var(g, "assistant") == WEATHERS[(WEATHERS.index(w) + 1) % 5]


def test_an_owner_who_cannot_pay_takes_the_bots_back_without_the_reward():
    g = arranged_game(3)
    a, b, c = var(g, "order")
    w = comps(g, "display")[1]["weather"]
    play(g, "t_assistant", w=w)
    fill_branch(g, w, [a, b, c])
    broke(g, b)
    cp_b, line_b = var(g, "cp")[b], count(g, f"line[{b}]")
    end_round(g)
    assert count(g, f"line[{b}]") == line_b + 1
    assert var(g, "cp")[b] == max(0, cp_b - const(g, "extreme_cp_loss")[2])
    assert not [t for t in comps(g, f"office_tokens[{b}]") if t["loc"] == "lab"]


def test_a_branch_that_is_not_full_does_not_run_but_the_display_and_assistant_move_on():
    g = arranged_game(3)
    a = var(g, "order")[0]
    w = comps(g, "display")[0]["weather"]
    tile = rightmost_of(g, w)
    play(g, "t_assistant", w=w)
    fill_branch(g, w, [a])
    below = zone(g, "exp_below")
    end_round(g)
    assert [x["owner"] for x in bzone(g, w, "lab_bots")] == [a]  # decision: the bots stay
    assert [t["level"] for t in bzone(g, w, "extreme_out")] == [1]
    assert tile["name"] in zone(g, "exp_done")
    assert below[0] in zone(g, "display")  # the tile below the stack refills the display
    assert var(g, "assistant") == WEATHERS[(WEATHERS.index(w) + 1) % 5]


def test_without_a_matching_tile_the_rightmost_display_tile_goes():
    g = arranged_game(2)
    w = var(g, "assistant")
    assert w not in [t["weather"] for t in comps(g, "display")]  # stage I has one tile a weather
    last = zone(g, "display")[-1]
    end_round(g)
    assert last in zone(g, "exp_done")


def test_extreme_weather_escalates_level_by_level_and_clears_the_markers():
    g = arranged_game(2)
    a = var(g, "order")[0]
    w = comps(g, "display")[0]["weather"]
    levels = []
    for _ in range(3):
        for _ in range(12):  # wait for a tile of this weather in the display
            if w in [t["weather"] for t in comps(g, "display")] or var(g, "final_round"):
                break
            end_round(g)
        if var(g, "final_round"):
            break
        play(g, "t_assistant", w=w)
        fill_branch(g, w, [a] * (const(g, "lab_slots") - len(bzone(g, w, "lab_bots"))))
        play(g, "t_vouchers", s=a, v="science_v", n=9)
        end_round(g)
        levels.append([t["level"] for t in bzone(g, w, "extreme_out")][0])
        assert not branch(g, w)["gov_marker"] and branch(g, w)["breakthroughs"] == []
    assert levels[:2] == [2, 3]
    assert all(x == 3 for x in levels[2:])  # nothing beyond level 3


@pytest.mark.parametrize("trigger", ["nobel", "government", "research"])
def test_each_trigger_gives_one_more_round_then_final_actions_and_scoring(trigger):
    g = arranged_game(3)
    s, others = var(g, "order")[0], var(g, "order")[1:]
    w = "wind"
    if trigger == "nobel":
        play(g, "t_nobel", s=s)
        reason = "the Nobel Prize was won"
    else:
        # every slot but one of wind is taken, then the seat's own action takes the last one
        hook, slots, place, action, reason = {
            "government": ("t_gov_bot", "gov_slots", "government", "sell_part", "the Government machine was completed"),
            "research": ("t_rnd_bot", "rnd_slots", "rnd", "research", "every R&D research space was full"),
        }[trigger]
        for x in WEATHERS:
            for i in range(const(g, slots) - (x == w)):
                play(g, hook, s=others[i % 2], w=x)
        play(g, "t_bot", s=s)
        play(g, "t_chem", s=s, k=const(g, "chem_of")[w])
        for _ in range(max(const(g, "rnd_part_cost"))):
            play(g, "t_part", s=s, c=const(g, "part_of")[w])
        play(g, "t_vouchers", s=s, v="government_v" if place == "government" else "rnd_v", n=1)
        play(g, "skip_start")
        play(g, "go", l=place, i=0)
        play(g, action, w=w)
    assert var(g, "ending") and var(g, "end_reason") == reason
    r = var(g, "round")
    end_round(g)
    assert var(g, "final_round") and var(g, "round") == r + 1
    end_round(g)
    assert step(g) == "final_actions" and var(g, "round") == r + 1
    order = var(g, "order")
    seen = []
    while not g.terminal:
        seen.append(g.decision().seats[0])
        play(g, "final_done")
    assert seen == order  # each seat's final actions, in turn order
    assert g.outcome["reason"] == f"final scoring ({reason})"


def test_the_final_phase_b_runs_every_full_branch_with_a_tile_and_places_no_extreme_weather():
    g = arranged_game(2)
    a = var(g, "order")[0]
    play(g, "t_nobel", s=a)
    end_round(g)
    assert var(g, "final_round")
    shown = [t["weather"] for t in comps(g, "display")]
    for w in shown[:2]:
        fill_branch(g, w, [a] * (const(g, "lab_slots") - len(bzone(g, w, "lab_bots"))))
    play(g, "t_vouchers", s=a, v="science_v", n=9)
    science = vouchers(g, a)["science_v"]
    end_round(g)
    assert step(g) == "final_actions"
    for w in shown[:2]:
        assert not bzone(g, w, "lab_bots")
        assert [t["level"] for t in bzone(g, w, "extreme_out")] == [1]
    tiles = [rightmost_of(g, w) for w in shown[:2]]
    gained = sum(t["boon1"] == "b_science" for t in tiles)  # the tile's first benefit (decision)
    assert vouchers(g, a)["science_v"] == science - sum(t["cost"] for t in tiles) + gained
    finish(g)
    assert g.terminal
