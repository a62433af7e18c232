"""Weather Machine: every action of seed 004 and its costs, played through the public API. States
the rules reach only after many turns are arranged with the test hooks (hooks/arrange.ludex);
numbers come from the ruleset's own consts (most are placeholders)."""

from __future__ import annotations

import pytest
from wm_helpers import (
    actor,
    arranged_game,
    bzone,
    comps,
    const,
    count,
    moves,
    new_game,
    play,
    step,
    var,
    vouchers,
    zone,
)

WAREHOUSE_OF_SLOT = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3}  # §4 [BH]: A = slots 1-2, B = 3-4, C = 5


def names(g, name):
    return {m.name for m in moves(g)} & {name}


def at(g, place, i=0):
    """The acting seat skips step 1 and goes to `place` (space i)."""
    play(g, "skip_start")
    play(g, "go", l=place, i=i)
    return actor(g)


# ---- the Supplier (played in the supply round, where every seat is at the Supplier) ----

def test_take_chemical_pays_by_warehouse_and_needs_room():
    g = new_game(2, 0)
    s = actor(g)
    take_cost, room = const(g, "take_cost"), const(g, "start_slots")["chem"]
    room += sum(t["chem_slots"] for t in comps(g, f"wtiles[{s}]"))
    spent = []
    for k in range(min(room, 3)):
        before = vouchers(g, s)
        left = len([c for c in comps(g, "market") if c["sort"] == "radieu"])
        play(g, "take_chemical", k="radieu")
        after = vouchers(g, s)
        spent.append(sum(before.values()) - sum(after.values()))
        assert spent[-1] == take_cost[WAREHOUSE_OF_SLOT[6 - left]] or after["supply_v"] == 0
    assert [c["sort"] for c in comps(g, f"chems[{s}]")] == ["radieu"] * len(spent)
    assert spent[0] == take_cost[1]


def test_no_room_no_chemical():
    g = arranged_game(2)
    s = actor(g)
    room = const(g, "start_slots")["chem"] + sum(t["chem_slots"] for t in comps(g, f"wtiles[{s}]"))
    for _ in range(room):
        play(g, "t_chem", s=s, k="melgoth")
    play(g, "t_vouchers", s=s, v="supply_v", n=9)
    play(g, "skip_start")
    # the Supplier is where everyone starts; a second round is needed to go there
    play(g, "go", l="lab", i=0)
    play(g, "done_actions")
    while actor(g) != s or step(g) != "place_scientist":
        if step(g) == "turn_start":
            play(g, "skip_start")
        elif step(g) == "place_scientist":
            play(g, "go", l="rnd", i=0)
        else:
            play(g, "done_actions")
    play(g, "go_supplier", i=0, pick="supply_v")
    assert "take_chemical" not in {m.name for m in moves(g)}
    play(g, "return_chemical", k="melgoth")
    assert "take_chemical" in {m.name for m in moves(g)}


def test_return_chemical_refills_the_rightmost_free_slot_and_pays_its_warehouse():
    g = new_game(2, 0)
    s = actor(g)
    gain = const(g, "return_gain")
    play(g, "take_chemical", k="verdino")
    play(g, "take_chemical", k="verdino")  # slots 1 and 2 are free now
    before = vouchers(g, s)["supply_v"]
    play(g, "return_chemical", k="verdino")  # back to slot 2, warehouse A
    assert vouchers(g, s)["supply_v"] == before + gain[1]
    assert len([c for c in comps(g, "market") if c["sort"] == "verdino"]) == 4


def test_build_a_bot_pays_and_fills_the_bottom_slots():
    g = new_game(2, 0)
    s = actor(g)
    cost = const(g, "bot_cost")
    before, line = vouchers(g, s)["supply_v"], count(g, f"line[{s}]")
    play(g, "build_a_bot")
    assert vouchers(g, s)["supply_v"] == before - cost
    assert count(g, f"wbots[{s}]") == 1 and count(g, f"line[{s}]") == line - 1


def test_bots_need_room_in_the_workshop():
    g = arranged_game(2)
    s = actor(g)
    room = const(g, "start_slots")["bot"] + sum(t["slots"] for t in comps(g, f"wtiles[{s}]"))
    parts = count(g, f"wparts[{s}]") + const(g, "rnd_part_cost")[0]
    room -= max(0, parts - const(g, "start_slots")["part"])
    for _ in range(room):
        play(g, "t_bot", s=s)
    play(g, "t_vouchers", s=s, v="rnd_v", n=5)
    play(g, "t_chem", s=s, k=const(g, "chem_of")["wind"])
    for _ in range(const(g, "rnd_part_cost")[0]):
        play(g, "t_part", s=s, c=const(g, "part_of")["wind"])
    at(g, "rnd")
    # research builds a bot free "if it has room": it places one (room frees) and builds one
    play(g, "research", w="wind")
    assert count(g, f"wbots[{s}]") == room


def test_extend_workshop_takes_a_board_tile_and_refills_from_the_face_up_pile():
    g = new_game(2, 0)
    s = actor(g)
    row, up = zone(g, "workshop_row"), zone(g, "workshop_up")
    before = vouchers(g, s)["supply_v"]
    play(g, "extend_workshop", t=row[1])
    assert vouchers(g, s)["supply_v"] == before - const(g, "extend_cost")
    assert row[1] in zone(g, f"wtiles[{s}]")
    assert zone(g, "workshop_up") == up[1:]
    assert up[0] in zone(g, "workshop_row") and len(zone(g, "workshop_row")) == 4


def test_gain_action_value_moves_the_marker_and_sets_turn_order_after_the_supply_round():
    g = new_game(3, 1)
    order = var(g, "order")
    play(g, "supply_done")
    last = actor(g)
    assert last == order[1]
    play(g, "gain_action_value", p=0)
    assert var(g, "bids") == [order[1], order[0], order[2]]
    assert var(g, "order") == order  # only at the end of the supply phase
    play(g, "supply_done")
    play(g, "supply_done")
    assert var(g, "order") == [order[1], order[0], order[2]]
    assert actor(g) == order[1]


# ---- Government ----

def test_sell_part_advances_funding_and_a_full_weather_activates():
    g = arranged_game(3)
    s = actor(g)
    other = var(g, "order")[1]
    part = const(g, "part_of")["sun"]
    for _ in range(const(g, "gov_slots") - 1):
        play(g, "t_gov_bot", s=other, w="sun")
    play(g, "t_bot", s=s)
    play(g, "t_part", s=s, c=part)
    play(g, "t_vouchers", s=s, v="government_v", n=1)
    play(g, "t_vouchers", s=s, v="science_v", n=0)
    cps = var(g, "cp")
    at(g, "government", 1)
    play(g, "sell_part", w="sun")
    assert vouchers(g, s)["government_v"] == 0
    assert var(g, "funding")[s]["government"] == 1
    assert [b["owner"] for b in bzone(g, "sun", "gov_bots")].count(s) == 1
    assert part not in [p["colour"] for p in comps(g, f"wparts[{s}]")]
    b = g.view(None)["entities"]["branch3"]
    assert b["activated"] and b["gov_marker"]
    act = const(g, "activation_cp")
    assert var(g, "cp")[s] == cps[s] + const(g, "gov_sell_cp") + act
    assert var(g, "cp")[other] == cps[other] + act * (const(g, "gov_slots") - 1)
    assert "secure_subsidy" not in {m.name for m in moves(g)}  # a space other than A: one action


def test_secure_subsidy_takes_a_tile_a_part_to_its_slot_and_a_research_token():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_vouchers", s=s, v="government_v", n=3)
    tile = comps(g, "subsidy_row")[0]
    play(g, "t_part", s=s, c=tile["colour"])
    at(g, "government", 0)
    reserve = len([p for p in comps(g, "reserve") if p["colour"] == tile["colour"]])
    mine = len([p for p in comps(g, f"wparts[{s}]") if p["colour"] == tile["colour"]])
    play(g, "secure_subsidy", t=tile["name"], w="fog")
    assert vouchers(g, s)["government_v"] == 1
    assert tile["name"] in zone(g, f"my_subsidies[{s}]")
    assert [p["colour"] for p in comps(g, "gov_parts")] == [tile["colour"]]
    # WM-D3: the part comes from the seat's workshop, not the reserve
    assert len([p for p in comps(g, "reserve") if p["colour"] == tile["colour"]]) == reserve
    assert len([p for p in comps(g, f"wparts[{s}]") if p["colour"] == tile["colour"]]) == mine - 1
    assert [(t["loc"], t["weather"]) for t in comps(g, f"held[{s}]")] == [("government", "fog")]
    play(g, "done_actions")  # §3 step 4: the token goes to its office space
    assert [(t["loc"], t["weather"]) for t in comps(g, f"office_tokens[{s}]")] == [("government", "fog")]
    assert not comps(g, f"held[{s}]")


def test_the_a_space_gives_both_actions_each_once():
    g = arranged_game(2)
    s = actor(g)
    part = const(g, "part_of")["rain"]
    play(g, "t_vouchers", s=s, v="government_v", n=9)
    for _ in range(2):
        play(g, "t_bot", s=s)
        play(g, "t_part", s=s, c=part)
    at(g, "government", 0)
    play(g, "sell_part", w="rain")
    assert "sell_part" not in {m.name for m in moves(g)}  # once a turn
    play(g, "secure_subsidy", w="rain")
    assert {m.name for m in moves(g)} & {"sell_part", "secure_subsidy"} == set()


# ---- Lativ's Lab ----

def test_run_experiment_puts_a_bot_on_a_branch_with_a_matching_tile():
    g = arranged_game(3)
    s = actor(g)
    w = comps(g, "display")[0]["weather"]
    off = next(x for x in ["rain", "wind", "sun", "fog", "snow"] if x not in [t["weather"] for t in comps(g, "display")])
    chem = const(g, "chem_of")
    play(g, "t_bot", s=s)
    play(g, "t_chem", s=s, k=chem[w])
    play(g, "t_chem", s=s, k=chem[off])
    play(g, "t_vouchers", s=s, v="lab_v", n=1)
    at(g, "lab", 1)
    assert {m.args["w"] for m in moves(g, "run_experiment") if m.args["c"] == chem[m.args["w"]]} == {w}  # §4: a matching display tile
    market = len([c for c in comps(g, "market") if c["sort"] == chem[w]])
    play(g, "run_experiment", w=w, c=chem[w])
    assert [b["owner"] for b in bzone(g, w, "lab_bots")] == [s]
    assert var(g, "funding")[s]["lab"] == 1 and vouchers(g, s)["lab_v"] == 0
    assert len([c for c in comps(g, "market") if c["sort"] == chem[w]]) == market + 1


def test_publish_needs_a_complete_row_and_unlocks_the_citation():
    g = arranged_game(3)
    a, b, _ = var(g, "order")
    play(g, "t_row", s=a, w="sun")
    play(g, "t_office", s=b, l="government", w="sun")
    play(g, "t_office", s=b, l="rnd", w="sun")  # two of three: needs the unlocked citation
    for x in (a, b):
        play(g, "t_vouchers", s=x, v="lab_v", n=2)
    cp = var(g, "cp")[a]
    at(g, "lab", 0)
    assert {m.args["w"] for m in moves(g, "publish")} == {"sun"}
    science = vouchers(g, a)["science_v"]
    play(g, "publish", w="sun", unlock=True)
    assert var(g, "papers")[a] == 1 and var(g, "published")[a] == ["sun"]
    assert not g.view(None)["entities"]["branch3"]["citation_locked"]
    assert var(g, "cp")[a] >= cp + const(g, "citation_cp")
    assert vouchers(g, a)["science_v"] == science - const(g, "citation_cost")  # WM-D6
    play(g, "done_actions")
    cp_b = var(g, "cp")[b]
    at(g, "lab", 1)
    assert {m.args["unlock"] for m in moves(g, "publish")} == {False}  # unlocked already
    citations = count(g, "citation_supply")
    play(g, "publish", w="sun")  # a row of 2 completed by a citation token
    assert var(g, "papers")[b] == 1
    assert count(g, "citation_supply") == citations - 1 and len(zone(g, f"cited[{b}]")) == 1
    assert var(g, "cp")[b] - cp_b < const(g, "citation_cp") or const(g, "paper_boon")[0] == "b_cp"


# ---- R&D ----

def test_research_pays_chemical_and_parts_takes_the_slot_benefit_a_free_bot_and_a_token():
    g = arranged_game(2)
    s = actor(g)
    w = "fog"
    chem, part, parts = const(g, "chem_of")[w], const(g, "part_of")[w], const(g, "rnd_part_cost")[0]
    play(g, "t_bot", s=s)
    play(g, "t_chem", s=s, k=chem)
    for _ in range(parts):
        play(g, "t_part", s=s, c=part)
    play(g, "t_vouchers", s=s, v="rnd_v", n=1)
    line = count(g, f"line[{s}]")
    at(g, "rnd", 0)
    play(g, "research", w=w)
    assert [b["owner"] for b in bzone(g, w, "rnd_bots")] == [s]
    assert not [c for c in comps(g, f"chems[{s}]") if c["sort"] == chem]
    assert var(g, "funding")[s]["rnd"] == 1 + (const(g, "rnd_slot_boon")[0] == "b_fund")
    assert count(g, f"line[{s}]") == line - 1 and count(g, f"wbots[{s}]") == 1  # placed one, built one
    assert [(t["loc"], t["weather"]) for t in comps(g, f"held[{s}]")] == [("rnd", w)]


def test_major_research_builds_a_prototype_of_a_published_weather_and_can_win_the_nobel_prize():
    g = arranged_game(2)
    s = actor(g)
    need = const(g, "nobel_prototypes")
    done = ["rain", "wind", "sun", "fog", "snow"][: need - 1]
    for w in done:
        play(g, "t_proto", s=s, w=w)
    play(g, "t_publish", s=s, w="snow")
    part = const(g, "part_of")["snow"]
    for _ in range(const(g, "prototype_parts")):
        play(g, "t_part", s=s, c=part)
    play(g, "t_vouchers", s=s, v="rnd_v", n=2)
    cp = var(g, "cp")[s]
    at(g, "rnd", 0)
    assert {m.args["w"] for m in moves(g, "major_research")} == {"snow"}
    play(g, "major_research", w="snow")
    assert var(g, "prototypes")[s] == [*done, "snow"]
    assert var(g, "cp")[s] == cp + const(g, "prototype_cp")
    assert count(g, f"awards_held[{s}]") == 1
    assert var(g, "nobel") == s and var(g, "ending")
    assert var(g, "end_reason") == "the Nobel Prize was won"


# ---- administrative exchanges (seed 004): only when a cost needs what the seat lacks ----

def test_science_exchange_pays_a_missing_voucher_with_three_others():
    g = arranged_game(2)
    s = actor(g)
    w = comps(g, "display")[0]["weather"]
    for v in ("lab_v", "science_v", "government_v", "rnd_v"):
        play(g, "t_vouchers", s=s, v=v, n=0)
    play(g, "t_vouchers", s=s, v="supply_v", n=3)
    play(g, "t_bot", s=s)
    play(g, "t_chem", s=s, k=const(g, "chem_of")[w])
    at(g, "lab", 1)
    paid = const(g, "space_voucher")["lab"]
    play(g, "run_experiment", w=w)
    assert sum(vouchers(g, s).values()) == 1  # 3 Supply + 1 from the space, minus 3 for the Lab voucher
    assert vouchers(g, s)[paid] == 1


def lacking_chemical():
    """A game where the acting seat has a bot and one chemical, not the one the first display
    tile's weather needs: (game, seat, weather, needed chemical, the chemical held)."""
    g = arranged_game(2)
    s = actor(g)
    w = comps(g, "display")[0]["weather"]
    need = const(g, "chem_of")[w]
    other = next(k for k in ["verdino", "melgoth", "delugium", "calorium", "radieu"] if k != need)
    play(g, "t_chem", s=s, k=other)
    play(g, "t_bot", s=s)
    return g, s, w, need, other


def test_chemical_exchange_is_part_of_paying_and_only_when_the_seat_lacks_the_chemical():
    """WM-D7: the exchange swaps an own chemical for the needed one, which is paid at once."""
    g, s, w, need, other = lacking_chemical()
    play(g, "t_vouchers", s=s, v="supply_v", n=2)
    at(g, "lab", 1)
    assert "exchange_chemical" not in {m.name for m in moves(g)}  # never a move of its own
    assert [m.args["c"] for m in moves(g, "run_experiment") if m.args["w"] == w] == [other]
    before = sum(vouchers(g, s).values())
    market = {k: len([c for c in comps(g, "market") if c["sort"] == k]) for k in (need, other)}
    play(g, "run_experiment", w=w, c=other)
    assert comps(g, f"chems[{s}]") == []
    assert sum(vouchers(g, s).values()) == before - 1 - 2  # the Lab voucher, then 2 for the exchange
    assert len([c for c in comps(g, "market") if c["sort"] == other]) == market[other] + 1
    assert len([c for c in comps(g, "market") if c["sort"] == need]) == market[need]


def test_chemical_exchange_needs_two_vouchers_beyond_the_cost():
    g, s, w, need, other = lacking_chemical()
    at(g, "lab", 1)
    for v in ("government_v", "rnd_v", "science_v"):
        play(g, "t_vouchers", s=s, v=v, n=0)
    play(g, "t_vouchers", s=s, v="lab_v", n=1)
    play(g, "t_vouchers", s=s, v="supply_v", n=1)
    assert not [m for m in moves(g, "run_experiment") if m.args["w"] == w]  # 1 spare voucher: no exchange
    play(g, "t_vouchers", s=s, v="supply_v", n=2)
    assert [m.args["c"] for m in moves(g, "run_experiment") if m.args["w"] == w] == [other]


def test_part_exchange_swaps_with_the_reserve():
    g = arranged_game(2)
    s = actor(g)
    have = comps(g, f"wparts[{s}]")[0]["colour"]
    w = next(x for x, c in const(g, "part_of").items() if c != have)
    play(g, "t_vouchers", s=s, v="supply_v", n=2)
    at(g, "government", 1)
    play(g, "exchange_part", c=const(g, "part_of")[w])
    assert [p["colour"] for p in comps(g, f"wparts[{s}]")] == [const(g, "part_of")[w]]


# ---- §3 step 1 and award tokens ----

def test_step_one_is_one_subsidy_or_one_investment():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_invest", s=s)
    play(g, "t_invest", s=s)
    hand = comps(g, f"goal_hand[{s}]")
    play(g, "set_goal", g=hand[0]["name"])
    assert step(g) == "place_scientist" and zone(g, f"goal_set[{s}]") == [hand[0]["name"]]
    assert count(g, f"my_investments[{s}]") == 1  # one tile per turn


@pytest.mark.parametrize("track", ["government", "lab", "rnd"])
def test_get_funding_flips_a_goal_for_its_track_benefit(track):
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_invest", s=s)
    tile = next(c for c in comps(g, f"goal_hand[{s}]") if c["track"] == track)
    before = (vouchers(g, s), var(g, "cp")[s], count(g, f"awards_held[{s}]"), count(g, f"chems[{s}]"),
              count(g, f"wparts[{s}]"), var(g, "funding")[s])
    play(g, "get_funding", g=tile["name"], pick=0)
    after = (vouchers(g, s), var(g, "cp")[s], count(g, f"awards_held[{s}]"), count(g, f"chems[{s}]"),
             count(g, f"wparts[{s}]"), var(g, "funding")[s])
    assert tile["name"] in zone(g, f"goal_flipped[{s}]")
    if track == "lab":
        assert after[0]["science_v"] == before[0]["science_v"] + const(g, "lab_funding")[0][0]
    assert after != before  # every space of every track gives something


def test_award_tokens_go_on_an_empty_office_space_at_any_time_in_ones_turn():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_award", s=s)
    play(g, "t_award", s=s)
    play(g, "place_award", w="rain", c="lab")
    assert not [m for m in moves(g, "place_award") if m.args == {"w": "rain", "c": "lab"}]
    play(g, "skip_start")
    play(g, "place_award", w="rain", c="rnd")  # also after step 1
    assert count(g, f"office_awards[{s}]") == 2
