"""Weather Machine: one scenario per defect of issue 24, each following a row of the rules
reference's decisions table (WM-D1 .. WM-D14). States the rules reach only after many turns are
arranged with the test hooks (hooks/arrange.ludex); numbers come from the ruleset's own consts."""

from __future__ import annotations

from test_wm_solo import ARRANGE, arrange, card, human_turn, solo
from wm_helpers import (
    HOOKS,
    actor,
    arranged_game,
    branch,
    bzone,
    comps,
    const,
    end_round,
    moves,
    play,
    ruleset,
    step,
    var,
    vouchers,
    zone,
)

from runtime import Game

WEATHERS = ["rain", "wind", "sun", "fog", "snow"]


def at(g, place, i=0):
    play(g, "skip_start")
    play(g, "go", l=place, i=i)
    return actor(g)


def lativ_bots(g, w):
    return [b for b in bzone(g, w, "lab_bots") if b["owner"] == 4]


# ---- D1 (WM-D1): every move of Lativ puts one of his bots into the Lab ----
def test_lativ_moving_puts_his_bot_in_the_active_branch_then_the_next_that_can_take_one():
    g = arranged_game(3)  # 3 seats: his 5 bots start beside the Lab
    assert len(comps(g, "lativ_side")) == 5
    play(g, "t_assistant", w="fog")
    play(g, "t_lativ", l="government")
    at(g, "government", 1)  # Lativ is there: he moves on to the Lab
    assert var(g, "lativ") == "lab"
    assert len(lativ_bots(g, "fog")) == 1 and len(comps(g, "lativ_side")) == 4
    play(g, "done_actions")
    at(g, "lab", 2)  # he moves on to R&D; fog holds his bot already: the next branch, snow
    assert var(g, "lativ") == "rnd"
    assert len(lativ_bots(g, "fog")) == 1 and len(lativ_bots(g, "snow")) == 1
    assert len(comps(g, "lativ_side")) == 3


def test_lativ_bot_skips_a_full_branch_and_none_goes_when_no_branch_can_take_one():
    g = arranged_game(3)
    play(g, "t_assistant", w="rain")
    s = actor(g)
    for _ in range(const(g, "lab_slots")):
        play(g, "t_lab_bot", s=s, w="rain")  # rain full
    play(g, "t_lativ", l="government")
    at(g, "government", 1)
    assert lativ_bots(g, "rain") == [] and len(lativ_bots(g, "wind")) == 1


# ---- D2 (WM-D9): the Saboteurs pay chemicals; a placement they cannot pay is not made ----
def test_saboteur_bot_at_government_spends_its_chemical_back_to_the_market():
    g = solo(card("pink", "lab", "rain"), card("white", "rnd", "sun"), card("pink", "government", "sun"),
             hooks=(ARRANGE,))
    arrange(g)
    play(g, "t_no_chems", s=1)
    play(g, "t_chem", s=1, k="calorium")
    market = len([c for c in zone(g, "market") if c.startswith("calorium")])
    human_turn(g, "government", 0)
    assert [x["owner"] for x in g.view(None)["zones"][f"{branch_key(g, 'sun')}.gov_bots"]["components"]] == [1]
    assert zone(g, "chems[1]") == []
    assert len([c for c in zone(g, "market") if c.startswith("calorium")]) == market + 1


def test_saboteurs_without_the_chemical_place_no_bot_and_take_a_chemical_instead():
    g = solo(card("pink", "lab", "rain"), card("white", "rnd", "sun"), card("pink", "government", "sun"),
             hooks=(ARRANGE,))
    arrange(g)
    play(g, "t_no_chems", s=1)
    since = len(g.events)
    human_turn(g, "government", 0)
    sab = [e.move for e in g.events[since:] if e.kind == "move" and e.seat == 1]
    assert sab == ["sab_move", "sab_no_branch", "sab_report"]
    assert all(not g.view(None)["zones"][f"{branch_key(g, w)}.gov_bots"].get("components") for w in WEATHERS)
    assert len(zone(g, "chems[1]")) == 1


def branch_key(g, w):
    return next(name for name, e in g.view(None)["entities"].items() if e.get("w") == w)


# ---- D4 (WM-D10): the Saboteurs place in the Lab only where a matching tile is on display ----
def test_saboteur_lab_placement_needs_a_matching_experiment_tile():
    g = solo(card("pink", "rnd", "fog"), card("white", "government", "wind"), card("pink", "lab", "rain", prio=0),
             hooks=(ARRANGE,))
    arrange(g, chems=("delugium", "radieu"))
    play(g, "t_display_only", w="snow")  # no rain tile on display, a snow one
    human_turn(g, "government", 0)
    rain = [x["owner"] for x in g.view(None)["zones"][f"{branch_key(g, 'rain')}.lab_bots"]["components"]]
    snow = [x["owner"] for x in g.view(None)["zones"][f"{branch_key(g, 'snow')}.lab_bots"]["components"]]
    assert 1 not in rain and snow.count(1) == 1


# ---- D5 (WM-D2): after phase B the Assistant follows the experiment stack's top tile ----
def test_the_assistant_goes_to_the_weather_of_the_stacks_top_tile():
    g = arranged_game(2)
    nxt = g.call("t_deck_weather", 1)  # phase B's refill draws the top tile below the stack
    start = next(w for w in WEATHERS if WEATHERS[(WEATHERS.index(w) + 1) % 5] != nxt)
    play(g, "t_assistant", w=start)
    end_round(g)
    assert var(g, "assistant") == nxt == g.call("t_deck_weather", 0)


# ---- D6 (WM-D3): securing a subsidy puts the seat's own part in the slot ----
def test_securing_a_subsidy_needs_a_part_of_its_colour_in_the_workshop():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_vouchers", s=s, v="government_v", n=3)
    mine = {p["colour"] for p in comps(g, f"wparts[{s}]")}
    at(g, "government", 0)
    offered = {m.args["t"] for m in moves(g, "secure_subsidy")}
    tiles = {t["name"]: t["colour"] for t in comps(g, "subsidy_row")}
    assert offered and {tiles[t] for t in offered} <= mine
    assert {t for t, c in tiles.items() if c not in mine}.isdisjoint(offered)


# ---- D7 (WM-D14): fn score, and every ending reports scores ----
def test_score_is_what_final_scoring_would_give_now():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_cp", s=s, n=7)
    play(g, "t_fund", s=s, t="government", n=5)
    play(g, "t_fund", s=s, t="rnd", n=2)
    play(g, "t_nobel", s=s)
    track_cp = const(g, "track_cp")
    assert g.call("score", s) == 7 + track_cp[5] + track_cp[2] + track_cp[0] + const(g, "nobel_cp")
    gov_goal = next(x for x in comps(g, f"goal_hand[{s}]") if x["track"] == "government" and x["n"] == 1)
    play(g, "t_goal", s=s, tile=gov_goal["name"])  # funding 5 meets the first Government goal
    assert g.call("score", s) == 7 + track_cp[5] + track_cp[2] + const(g, "nobel_cp") + const(g, "goal_cp")
    play(g, "t_score")
    assert g.outcome["scores"][str(s)] == 7 + track_cp[5] + track_cp[2] + const(g, "nobel_cp") + const(g, "goal_cp")


def test_a_solo_loss_by_the_report_deck_reports_both_scores():
    g = Game.new(ruleset("solo", HOOKS), 1, {}, seed=1)
    play(g, "supply_done")
    play(g, "t_cp", s=0, n=12)
    target = var(g, "cp")[1]
    while not g.terminal:  # the human burns reports with Call Security until the deck runs out
        names = {m.name for m in g.legal_moves(0)}
        if "call_security" in names:
            play(g, "call_security")
            g.apply(0, next(m for m in g.legal_moves(0) if m.name == "keep_report"))
        elif step(g) == "turn_start":
            play(g, "skip_start")
        elif step(g) == "place_scientist":
            g.apply(0, next(m for m in g.legal_moves(0) if m.name in ("go", "go_supplier")))
        else:
            g.apply(0, next(m for m in g.legal_moves(0) if m.name in ("done_actions", "final_done")))
    assert g.outcome["reason"] == "the report deck ran out"
    scores = g.outcome["scores"]
    assert scores["0"] >= 12 and scores["1"] >= target + 30
    assert scores["0"] == g.call("score", 0) and scores["1"] == var(g, "cp")[1] + 30


# ---- D8 (WM-D6): unlocking a citation costs a Science voucher ----
def test_unlocking_a_citation_needs_a_science_voucher_and_is_the_seats_choice():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_row", s=s, w="rain")
    at(g, "lab", 0)
    for v in ("supply_v", "government_v", "rnd_v", "science_v"):
        play(g, "t_vouchers", s=s, v=v, n=0)
    play(g, "t_vouchers", s=s, v="lab_v", n=2)
    assert {m.args["unlock"] for m in moves(g, "publish")} == {False}  # nothing left to pay the citation with
    cp = var(g, "cp")[s]
    play(g, "publish", w="rain", unlock=False)
    assert branch(g, "rain")["citation_locked"] is True
    assert var(g, "cp")[s] - cp != const(g, "citation_cp") or const(g, "paper_boon")[0] == "b_cp"


# ---- D10 (WM-D4): the Lab track's imaginary marker goes on the Government or R&D track ----
def test_lab_funding_can_advance_an_imaginary_marker_on_the_rnd_track():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_invest", s=s)
    play(g, "t_fund", s=s, t="rnd", n=2)
    lab_goal = next(x for x in comps(g, f"goal_hand[{s}]") if x["track"] == "lab")
    assert {m.args["via"] for m in moves(g, "get_funding") if m.args["g"] == lab_goal["name"]} == {"government", "rnd"}
    science = vouchers(g, s)["science_v"]
    sci, plus = const(g, "lab_funding")[0]
    icon = const(g, "rnd_funding")[2 + plus][1]
    assert icon == "b_award"  # the placeholder track: the icon left of space 2 + N
    play(g, "get_funding", g=lab_goal["name"], via="rnd", pick=1)
    assert vouchers(g, s)["science_v"] == science + sci
    assert len(comps(g, f"awards_held[{s}]")) == 1
    assert var(g, "funding")[s]["rnd"] == 2  # the marker itself stays


# ---- D11 (WM-D5): exactly 3 Government markers ----
def complete_government_weather(g, w):
    """The acting seat sells a part that fills the last Government slot of weather w."""
    s = actor(g)
    for _ in range(const(g, "gov_slots") - 1):
        play(g, "t_gov_bot", s=s, w=w)
    play(g, "t_bot", s=s)
    play(g, "t_part", s=s, c=const(g, "part_of")[w])
    at(g, "government", 0)
    play(g, "sell_part", w=w)


def test_an_activation_with_no_government_marker_left_places_none():
    g = arranged_game(2)
    assert var(g, "gov_markers_left") == 3
    play(g, "t_gov_markers", n=0)
    complete_government_weather(g, "rain")
    assert branch(g, "rain")["activated"] is True and branch(g, "rain")["gov_marker"] is False
    assert var(g, "gov_markers_left") == 0


def test_an_activation_takes_one_of_the_markers():
    g = arranged_game(2)
    complete_government_weather(g, "sun")
    assert branch(g, "sun")["gov_marker"] is True and var(g, "gov_markers_left") == 2


# ---- D12 (WM-D8): R&D bots provide a prototype's parts and score 2 CP to their owners ----
def test_a_prototype_uses_the_rnd_bots_parts_and_pays_their_owners():
    g = arranged_game(2)
    a = actor(g)
    b = 1 - a
    w = "wind"
    play(g, "t_rnd_bot", s=b, w=w)
    play(g, "t_publish", s=a, w=w)
    play(g, "t_part", s=a, c=const(g, "part_of")[w])
    parts = len(comps(g, f"wparts[{a}]"))
    play(g, "t_vouchers", s=a, v="rnd_v", n=2)
    cp_b = var(g, "cp")[b]
    at(g, "rnd", 0)
    play(g, "major_research", w=w)
    assert var(g, "cp")[b] == cp_b + const(g, "rnd_bot_cp")
    # the bot provided the part of any colour: only the weather's colour came from the workshop
    assert const(g, "prototype_parts") == 2
    assert len(comps(g, f"wparts[{a}]")) == parts - 1


# ---- D13 (WM-D11): the solo immediate win counts goals met on the goal spaces ----
def test_goals_in_hand_do_not_count_for_the_immediate_win():
    g = Game.new(ruleset("solo", HOOKS), 1, {"target_start": 10}, seed=1)
    play(g, "supply_done")
    play(g, "t_cp", s=0, n=40)
    play(g, "t_fund", s=0, t="government", n=5)
    play(g, "t_fund", s=0, t="lab", n=5)
    play(g, "t_papers", s=0, n=2)  # every Government and Lab goal in hand is met
    play(g, "skip_start")
    play(g, "go", l="rnd", i=0)
    play(g, "done_actions")
    assert not g.terminal, "met goals still in hand are not goals on the goal spaces"


def test_four_goal_spaces_allow_the_four_goals_the_immediate_win_needs():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_invest", s=s)
    for tile in [x["name"] for x in comps(g, f"goal_hand[{s}]")][:3]:
        play(g, "t_goal", s=s, tile=tile)
    play(g, "set_goal")  # a fourth goal space
    assert len(comps(g, f"goal_set[{s}]")) == 4


# ---- D14 (WM-D13): taking from an empty supply is never silent ----
def test_an_award_from_an_empty_supply_is_recorded_as_a_shortfall():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_empty", what="awards")
    assert const(g, "office_boon")["lab"][0] == "b_award"  # the Lab space of the rain row gives an award
    play(g, "t_held", s=s, l="lab", w="rain")
    at(g, "government", 1)
    play(g, "done_actions")
    assert "no award token is left" in var(g, "shortfalls")
    assert comps(g, f"awards_held[{s}]") == []
    shown = [e for e in g.events if e.kind == "show" and e.zone == "award_supply"]
    assert len(shown) == 1 and shown[0].outcome == [] and shown[0].rule == "move done_actions"
    assert shown[0].source.startswith("weather_machine/game.ludex:")


def test_an_investment_from_an_empty_supply_is_recorded_as_a_shortfall():
    g = arranged_game(2)
    s = actor(g)
    play(g, "t_empty", what="investments")
    assert const(g, "office_boon")["lab"][2] == "b_invest"
    play(g, "t_held", s=s, l="lab", w="sun")
    at(g, "government", 1)
    play(g, "done_actions")
    assert var(g, "shortfalls") == ["no investment tile is left"]
    assert [(e.zone, e.outcome) for e in g.events if e.kind == "show"] == [("investment_supply", [])]
