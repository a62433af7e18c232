"""Policies as rule text (`policy NAME { MOVE when COND by KEY ... }`): the checker refuses one that
reads what its seat cannot see, the runner plays the first rule that applies, both back ends agree,
and every bundled game ships a policy that plays it."""

from __future__ import annotations

import random

import pytest

from dsl import RulesetError, bundled_rulesets, check_text, load_from_sources, load_ruleset
from runtime import Game
from runtime import compile as rc
from search.bots import make_bot
from search.policy import choose

TOY = """
game toy
component card(n: int)
components cards = [card(n) for n in 1..6]
zone deck: card hidden ordered = cards
zone hand: per seat card others ordered = [] "held facing away: the others see it"
zone pile: card public = []
var total: int = 0
setup { shuffle deck  for s in seats { draw 2 from deck to hand[s] } }
step turn then end turn
move play(k in hand[actor]) during turn { move k to pile  total += 1  if total == 4 { end game draw "done" } }
move poke(t in seats, k in hand[t]) during turn require t != actor else "not yourself" { mark k with "poked" }
"""


def _diags(policy: str) -> list:
    return check_text(TOY + policy, "toy.ludex")


def test_a_policy_reading_its_own_hidden_card_is_a_diagnostic():
    [d] = _diags('policy peek { play when k.n > 3 "the high card" }')
    assert d.severity == "error" and d.line == 13
    assert d.message == "policy 'peek' reads hidden information: `k.n` reads a component of hand[actor], which the seat to act cannot see"
    assert "marks" in d.hint


def test_a_hidden_read_through_a_function_is_found_in_the_function():
    [d] = _diags('fn high(c: card) -> bool = c.n > 3\npolicy peek { play when high(k) }')
    assert "`high(k)` calls high, where `c.n` reads a component of hand[actor]" in d.message


def test_reading_the_deck_is_a_diagnostic_and_counting_it_is_not():
    [d] = _diags("policy peek { play when any(c.n == 6 for c in deck) }")
    assert "`c.n` reads a component of deck" in d.message
    assert _diags("policy count { play when size(deck) > 2 and has_mark(k, \"poked\") }") == []


def test_what_the_seat_sees_may_be_read():
    assert _diags("policy look { poke when k.n == 6 by k.n \"the others' cards are in view\"\n play by size(pile) }") == []


def test_a_policy_naming_an_unknown_move_is_a_warning_and_the_rule_is_skipped():
    [warn, err] = _diags("policy typo { plya }\nfn broken() -> int = nope")
    assert warn.severity == "warning" and "play" in warn.hint and err.severity == "error"
    assert warn.message == "policy 'typo' names move 'plya' that does not exist: the rule is skipped"
    rs = load_ruleset("battle_line", ["advanced_claims"])  # the variant removes end_claims, which the policy names
    g = Game.new(rs, 2, {}, seed=1)
    assert choose(g, g.legal_moves(0)).name in {m.name for m in g.legal_moves(0)}


def test_the_runner_plays_the_first_rule_that_applies_and_the_best_by_its_key():
    rs = load_from_sources((("toy.ludex", TOY + "policy p { poke when k.n >= 5 by 0 - k.n\n play }"),))
    g = Game.from_position(rs, {"zones": {"hand[0]": ["2", "4"], "hand[1]": ["5", "6"], "deck": ["1", "3"]}})
    first = choose(g, g.legal_moves(0))
    assert first.to_dict() == {"name": "poke", "args": {"t": 1, "k": "5"}}  # by -n: the lowest that qualifies
    g2 = Game.from_position(rs, {"zones": {"hand[0]": ["5", "6"], "hand[1]": ["2", "4"], "deck": ["1", "3"]}})
    assert choose(g2, g2.legal_moves(0)).to_dict() == {"name": "play", "args": {"k": "hand[0]@0"}}


def test_an_unknown_policy_name_says_which_there_are():
    rs = load_ruleset("hanabi")
    with pytest.raises(ValueError, match="hanabi declares no policy named 'nope'; its policies: iggi"):
        make_bot("policy:nope", random.Random(0)).choose(Game.new(rs, 2, {}, seed=1), 0, [])


@pytest.mark.parametrize("name", [b.name for b in bundled_rulesets()])
def test_every_bundled_game_has_a_policy_that_both_back_ends_play_alike(name, monkeypatch):
    rs = load_ruleset(name)
    assert rs.policies, f"{name} ships no policy"
    seats = rs.seats[0]

    def trace() -> list:
        out = []
        for seed in (1, 2):
            g = Game.new(rs, seats, {}, seed=seed)
            while not g.terminal and len(out) < 300:
                d = g.decision()
                if d.stuck:
                    break
                move = choose(g, g.legal_moves(d.seats[0]))
                out.append(move.to_dict())
                g.apply(d.seats[0], move)
        return out

    generated = trace()
    monkeypatch.setattr(rc, "_PROGRAMS", {})
    monkeypatch.setenv("LUDEX_NO_CODEGEN", "1")
    assert trace() == generated


def test_hanabi_iggi_policy_scores_like_a_rule_based_player():
    """Walton-Rivers et al. (2017) report rule-based agents from the mid-teens to about 20 at two
    seats; six games of the policy stay well above what random play scores (0)."""
    rs = load_ruleset("hanabi")
    scores = []
    for seed in range(6):
        g = Game.new(rs, 2, {}, seed=seed)
        while not g.terminal:
            seat = g.decision().seats[0]
            g.apply(seat, choose(g, g.legal_moves(seat)))
        scores.append(g.outcome["scores"]["team"])
    assert sum(scores) / len(scores) >= 13, scores


def test_a_policy_file_beside_the_game_is_part_of_it():
    rs = load_ruleset("hanabi")
    assert ("hanabi/policies.ludex" in dict(rs.sources)) and rs.policy().name == "iggi"
    with pytest.raises(RulesetError):
        load_from_sources((("toy.ludex", TOY), ("part.ludex", "policy broken { play when k.n > 1 }")))
