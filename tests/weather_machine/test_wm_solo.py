"""Weather Machine solo (§12, Turczi's Saboteurs): scenario tests with stacked report decks.

The report deck's shuffle is the setup's first chance event, so `outcomes=[order]` stacks it
(top first). The first two cards are the starting reports (one per agent, main locations), the
third is the current report that drives the first Saboteur turn. Cards are found by what they
show (agent, location, weather), not by the placeholder table's order.
"""

from __future__ import annotations

import functools
from pathlib import Path

from wm_helpers import HOOKS, play, ruleset, step, var, zone

from ludex.simulation import simulate
from runtime import Game

HOOK_DIR = Path(__file__).with_name("hooks")
WEATHERS = ["rain", "wind", "sun", "fog", "snow"]


@functools.lru_cache(maxsize=None)
def all_cards() -> tuple[str, ...]:
    g = Game.new(ruleset("solo"), 1, seed=0)
    return tuple(g.events[0].outcome)


def card(agent: str, loc: str, weather: str | None = None, prio: int | None = None) -> str:
    """The first report showing this agent (pink/white), location and, if given, weather and priority."""
    for name in all_cards():
        a, lo, w, p, _n = name.split("-")
        if a == f"{agent}_agent" and lo == f"r_{loc}" and weather in (None, w) and prio in (None, int(p)):
            return name
    raise AssertionError(f"no {agent} {loc} {weather} report in the deck")


def deck(*top: str) -> list[str]:
    return list(top) + [c for c in all_cards() if c not in top]


def solo(*top: str, hooks: tuple[str, ...] = (), options=None, seed: int = 1) -> Game:
    variants = ("solo",) + tuple(str(HOOK_DIR / h) for h in hooks)
    return Game.new(ruleset(*variants), 1, options or {}, seed=seed, outcomes=[deck(*top)])


def site(g: Game, where: str) -> list[int]:
    return next(e["on"] for e in g.view(None)["entities"].values() if e.get("where") == where)


def branch(g: Game, w: str) -> str:
    return next(name for name, e in g.view(None)["entities"].items() if e.get("w") == w)


def kinds_of(tokens: list[str]) -> list[str]:
    """Research token names without their copy number: `lab-rain-2` -> `lab-rain`."""
    return [t.rsplit("-", 1)[0] for t in tokens]


def cp(g: Game) -> list[int]:
    return var(g, "cp")


ARRANGE = "arrange.ludex"  # the base game's test hooks (t_chem, t_display, ...), also in the solo


def arrange(g: Game, chems: tuple[str, ...] = (), shown: tuple[str, ...] = ()) -> None:
    """Before the human's first turn: give the Saboteurs these chemicals (WM-D9: they pay for
    their bots) and put an experiment tile of each weather in `shown` on display (WM-D10)."""
    if step(g) == "supply_round":
        play(g, "supply_done")
    for k in chems:
        play(g, "t_chem", s=1, k=k)
    for w in shown:
        play(g, "t_display", w=w)


def human_turn(g: Game, where: str, space: int) -> None:
    """The human's turn: no subsidy or investment, the scientist to `where`, no action."""
    if step(g) == "supply_round":
        play(g, "supply_done")
    play(g, "skip_start")
    play(g, "go", l=where, i=space)
    play(g, "done_actions")


def sab_moves(g: Game, since: int) -> list[str]:
    return [e.move for e in g.events[since:] if e.kind == "move" and e.seat == 1]


# ---- setup ----
def test_setup_places_the_agents_by_the_starting_reports():
    pink, white, current = card("pink", "lab", "rain"), card("white", "lab", "wind"), card("pink", "supply")
    g = solo(pink, card("white", "supply"), white, current)
    assert g.seats == 1 and g.automata == {"saboteurs": 1}
    assert g.decision().seats == (0,) and step(g) == "supply_round"
    # pink takes the Lab's middle space; white shares it, so the rightmost; the Supply card went to the bottom
    assert site(g, "lab") == [-1, 6, 7]
    assert var(g, "agent_loc") == {"pink_agent": "lab", "white_agent": "lab"}
    assert sorted(kinds_of(zone(g, "held[1]"))) == ["lab-rain", "lab-wind"]
    assert zone(g, "current_report") == [current]
    assert g.view(None)["zones"]["report_deck"]["count"] == 20 - 3
    # the Saboteurs: no vouchers, target 35, two different chemicals; their bots in the Hideout
    assert var(g, "vouchers")[1] == {v: 0 for v in ["supply_v", "government_v", "lab_v", "rnd_v", "science_v"]}
    assert cp(g) == [0, 35]
    kinds = [c.split("#")[0] for c in zone(g, "chems[1]")]
    assert len(kinds) == 2 and kinds[0] != kinds[1]
    assert len(zone(g, "line[1]")) == 12
    # no blocked spaces; two research tokens per type and location
    assert all(5 not in site(g, w) for w in ("supplier", "government", "lab", "rnd"))
    for loc in ("government", "lab", "rnd"):
        for w in WEATHERS:
            assert len([t for t in zone(g, "tokens_at") if t.startswith(f"{loc}-{w}-")]) <= 2
    assert g.view(0)["vars"]["order"] == [0, 1] and var(g, "bids") == [0, 1]
    # two goal tiles per colour
    goals = g.view(None)["zones"]["goal_hand[0]"]["components"]
    assert sorted(x["track"] for x in goals) == ["government", "government", "lab", "lab", "rnd", "rnd"]


def test_publish_or_perish_starts_the_target_at_30():
    g = solo(options={"publish_or_perish": True})
    assert cp(g) == [0, 30]


# ---- the Saboteur turn, by location ----
def test_supply_claims_the_initiative_then_gains_2_and_takes_chemicals():
    g = solo(card("pink", "lab", "rain"), card("white", "rnd", "sun"), card("pink", "supply"), card("white", "supply"))
    human_turn(g, "government", 0)
    # pink went to the Supply's A space (the scientist left it): no raise in the Supply; Lativ moved on
    # the Saboteurs claimed the initiative, so they open round 2 with the second Supply report: +2
    assert var(g, "bids") == [1, 0] and var(g, "order") == [1, 0]
    assert site(g, "supplier")[:2] == [6, 7]
    assert cp(g) == [0, 35 + 2]
    assert len(zone(g, "chems[1]")) == 2 + 2 + 2
    assert var(g, "lativ") == "government"
    assert g.decision().seats == (0,) and step(g) == "turn_start"


def test_government_on_the_a_space_takes_a_chemical_flips_a_subsidy_and_completes_a_pair():
    g = solo(card("pink", "lab", "rain"), card("white", "rnd", "sun"), card("pink", "government", "rain"))
    subsidies = len(zone(g, "subsidy_row"))
    human_turn(g, "lab", 0)
    assert site(g, "government")[0] == 6  # the A space: no raise
    b = g.view(None)["entities"][branch(g, "rain")]
    assert [x["owner"] for x in g.view(None)["zones"][f"{branch(g, 'rain')}.gov_bots"]["components"]] == [1]
    assert len(zone(g, "flipped_subsidies")) == 1 and len(zone(g, "sab_subsidies")) == 1
    assert len(zone(g, "subsidy_row")) == subsidies - 2 and len(zone(g, "gov_parts")) == 1
    # WM-D9: the A space's chemical (rain's) pays for the bot at once
    assert len(zone(g, "chems[1]")) == 2
    assert b["citation_locked"] is True
    # the Government rain token joined the starting Lab rain token: a 2-token set, discarded for +5
    assert kinds_of(zone(g, "held[1]")) == ["rnd-sun"]
    assert cp(g) == [0, 35 + 5]


def test_government_beside_the_scientist_raises_the_target_by_the_pieces_to_its_left():
    g = solo(card("pink", "lab", "rain"), card("white", "rnd", "sun"), card("pink", "government", "sun"),
             hooks=(ARRANGE,))
    arrange(g, chems=("calorium",))
    human_turn(g, "government", 0)
    assert site(g, "government")[:2] == [0, 6]
    assert zone(g, "flipped_subsidies") == []  # not the A space: no extras
    assert len(zone(g, "chems[1]")) == 2
    # +1 for the scientist to its left; the Government sun token and the starting R&D sun token: +5
    assert cp(g) == [0, 35 + 1 + 5]


def test_lab_on_the_a_space_takes_an_award_token_and_places_a_bot():
    g = solo(card("pink", "rnd", "fog"), card("white", "government", "wind"), card("pink", "lab", "rain"),
             hooks=(ARRANGE,))
    arrange(g, chems=("delugium",), shown=("rain",))
    awards = len(zone(g, "award_supply"))
    human_turn(g, "government", 0)
    assert site(g, "lab")[0] == 6
    assert len(zone(g, "awards_held[1]")) == 1 and len(zone(g, "award_supply")) == awards - 1
    owners = [x["owner"] for x in g.view(None)["zones"][f"{branch(g, 'rain')}.lab_bots"]["components"]]
    assert owners == [4, 1]  # Lativ's bot, then the Saboteurs'
    assert cp(g) == [0, 35]


def test_a_full_branch_passes_to_the_next_weather_by_the_report_priority():
    """A top-priority report goes on forward (rain, wind, ...), a bottom one backward (rain, snow, ...)."""
    top, bottom = card("pink", "lab", "rain", prio=0), card("white", "lab", "rain", prio=1)
    g = solo(card("pink", "rnd", "fog"), card("white", "government", "wind"), top, bottom,
             hooks=("solo_lab_slots_2.ludex", ARRANGE))
    arrange(g, chems=("delugium", "radieu", "verdino"), shown=("rain", "snow"))
    human_turn(g, "government", 0)
    assert sab_moves(g, 0)[-2:] == ["sab_lab", "sab_report"]
    assert [x["owner"] for x in g.view(None)["zones"][f"{branch(g, 'rain')}.lab_bots"]["components"]] == [4, 1]
    play(g, "t_display", w="rain")
    play(g, "t_display", w="snow")
    human_turn(g, "rnd", 0)
    assert [x["owner"] for x in g.view(None)["zones"][f"{branch(g, 'snow')}.lab_bots"]["components"]] == [4, 1]
    assert [x["owner"] for x in g.view(None)["zones"][f"{branch(g, 'wind')}.lab_bots"]["components"]] == [4]


def test_no_valid_branch_discards_a_report_and_takes_a_chemical():
    g = solo(card("pink", "rnd", "fog"), card("white", "government", "wind"), card("pink", "lab", "rain"),
             hooks=("solo_lab_slots_1.ludex",))
    discarded = len(zone(g, "report_discard"))
    deck_count = g.view(None)["zones"]["report_deck"]["count"]
    since = len(g.events)
    human_turn(g, "government", 0)
    assert sab_moves(g, since) == ["sab_move", "sab_no_branch", "sab_report"]
    assert len(zone(g, "chems[1]")) == 3
    # one report discarded instead, the current one discarded and a new one drawn
    assert len(zone(g, "report_discard")) == discarded + 2
    assert g.view(None)["zones"]["report_deck"]["count"] == deck_count - 2


def test_rnd_on_the_a_space_places_an_extra_bot_and_takes_a_chemical_and_both_tokens():
    g = solo(card("pink", "lab", "rain"), card("white", "government", "wind"), card("pink", "rnd", "fog"),
             hooks=(ARRANGE,))
    arrange(g, chems=("melgoth",))
    chems = len(zone(g, "chems[1]"))
    human_turn(g, "government", 0)
    assert site(g, "rnd")[0] == 6
    owners = [x["owner"] for x in g.view(None)["zones"][f"{branch(g, 'fog')}.rnd_bots"]["components"]]
    assert owners == [1, 1]
    # WM-D9: the A space's chemical and the one given paid for the two bots, and sit beside them
    assert len(zone(g, "chems[1]")) == chems + 1 - 2
    assert [c.split("#")[0] for c in zone(g, "rnd_chems")] == ["melgoth", "melgoth"]
    fog = [t for t in zone(g, "held[1]") if t.startswith("rnd-fog")]
    assert len(fog) == 2 and cp(g) == [0, 35]


def test_rnd_with_no_token_left_unlocks_the_citation_then_gains_5():
    g = solo(card("pink", "lab", "rain"), card("white", "government", "wind"), card("pink", "rnd", "fog"),
             hooks=("solo_drop_tokens.ludex", ARRANGE))
    arrange(g, chems=("melgoth",))
    play(g, "t_drop", l="rnd", w="fog")
    human_turn(g, "government", 0)
    # the A space's extra token step finds none: the fog citation unlocks; the main step: +5
    assert g.view(None)["entities"][branch(g, "fog")]["citation_locked"] is False
    assert not [t for t in zone(g, "held[1]") if t.startswith("rnd-fog")]
    assert cp(g) == [0, 35 + 5]


# ---- the human's side ----
def test_call_security_keeps_one_report_puts_one_back_and_discards_one():
    g = solo(card("pink", "lab", "rain"), card("white", "rnd", "sun"), card("pink", "supply"),
             card("white", "government", "fog"), card("pink", "lab", "snow"), hooks=(ARRANGE,))
    arrange(g, chems=("radieu",), shown=("snow",))
    vouchers = sum(var(g, "vouchers")[0].values())
    play(g, "call_security")
    looked = g.view(0)["zones"]["looked[0]"]
    assert [c["name"] for c in looked["components"]] == [card("pink", "supply"), card("white", "government", "fog"),
                                                          card("pink", "lab", "snow")]
    assert g.view(None)["zones"]["looked[0]"] == {"count": 3}  # a spectator does not see them
    assert sum(var(g, "vouchers")[0].values()) == vouchers - 1
    keep, back, gone = card("pink", "lab", "snow"), card("white", "government", "fog"), card("pink", "supply")
    play(g, "keep_report", keep=keep, back=back)
    assert zone(g, "current_report") == [keep] and gone in zone(g, "report_discard")
    assert step(g) == "turn_start" and "call_security" not in {m.name for m in g.legal_moves(0)}
    play(g, "skip_start")
    play(g, "go", l="government", i=0)
    play(g, "done_actions")
    assert sab_moves(g, 0)[:2] == ["sab_move", "sab_lab"]  # the kept report drove the turn
    assert zone(g, "current_report") == [back]  # the one put back is the next


def test_the_immediate_win_needs_cp_over_the_target_four_goals_and_two_tracks_at_5():
    g = Game.new(ruleset("solo", HOOKS), 1, {"target_start": 10}, seed=1, outcomes=[deck()])
    play(g, "supply_done")
    play(g, "t_cp", s=0, n=40)
    play(g, "t_fund", s=0, t="government", n=5)
    play(g, "t_papers", s=0, n=2)  # with Government funding 5: both Government goals and both Lab goals
    for tile in [x["name"] for x in g.view(None)["zones"]["goal_hand[0]"]["components"] if x["track"] != "rnd"]:
        play(g, "t_goal", s=0, tile=tile)  # WM-D11: goals count on the goal spaces
    play(g, "skip_start")
    play(g, "go", l="rnd", i=0)
    play(g, "done_actions")
    assert not g.terminal, "one track at 5 is not enough"
    play(g, "t_fund", s=0, t="lab", n=5)
    play(g, "skip_start")
    play(g, "go", l="government", i=0)
    play(g, "done_actions")
    assert g.terminal and g.outcome["winners"] == [0]
    assert g.outcome["reason"] == "the human won at the start of a turn"
    assert cp(g)[0] > cp(g)[1]


def test_final_scoring_adds_30_to_the_target():
    for start, human_wins in ((0, True), (35, False)):
        g = Game.new(ruleset("solo", HOOKS), 1, {"target_start": start}, seed=1, outcomes=[deck()])
        play(g, "supply_done")
        play(g, "t_cp", s=0, n=40)
        target = cp(g)[1]
        play(g, "t_score")
        assert cp(g)[1] == target + 30
        assert g.outcome["winners"] == ([0] if human_wins else [1])
        assert (cp(g)[0] > cp(g)[1]) is human_wins


# ---- the immediate losses ----
def test_the_report_deck_running_out_loses_at_the_start_of_a_saboteur_turn():
    g = solo()
    while not g.terminal:  # the human burns reports with Call Security whenever it can
        names = {m.name for m in g.legal_moves(0)}
        if "call_security" in names:
            play(g, "call_security")
            ms = [m for m in g.legal_moves(0) if m.name == "keep_report"]
            g.apply(0, ms[0])
        elif "keep_report" not in names and step(g) == "turn_start":
            play(g, "skip_start")
        elif step(g) == "place_scientist":
            g.apply(0, next(m for m in g.legal_moves(0) if m.name in ("go", "go_supplier")))
        else:
            g.apply(0, next(m for m in g.legal_moves(0) if m.name in ("done_actions", "supply_done", "final_done")))
    assert g.outcome["winners"] == [1]
    assert g.outcome["reason"] == "the report deck ran out"
    assert g.view(None)["zones"]["report_deck"]["count"] == 0
    assert g.events[-1].seat == 0  # it ended as the Saboteurs' turn began: they made no move


def test_two_level_3_extreme_weather_tiles_out_lose():
    g = solo(hooks=("solo_level3_out.ludex",))
    assert g.terminal and g.outcome["winners"] == [1]
    assert g.outcome["reason"] == "two level-3 extreme-weather tiles are out"
    g = solo()
    assert not g.terminal  # level-1 tiles out at the start lose nothing


def test_simulate_ends_every_game_by_the_rules_and_counts_wins_against_the_saboteurs():
    stats = simulate(ruleset("solo"), 1, {}, 10, 1, 5000)
    assert sum(stats["outcomes"].values()) == 10
    assert set(stats["outcomes"]) <= {"win seat 0", "win seat 1 (automaton saboteurs)"}
    assert list(stats["wins_by_seat"]) == ["seat 0", "seat 1 (automaton saboteurs)"]
    assert sum(stats["wins_by_seat"].values()) == 10
