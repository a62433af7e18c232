"""The OpenSpiel game: chance nodes from the rules' own shuffles and draws, information
states that hide what a seat cannot see, and OpenSpiel's algorithms (CFR, ISMCTS) on it."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, exploitability, ismcts, mcts  # noqa: E402
from rl_cases import KUHN  # noqa: E402

from ludex import rl  # noqa: E402


def kuhn():
    return rl.openspiel_game(KUHN)


def dealt(game, *cards):
    """A state after the shuffle, its order chosen card by card (top first: seat 0's card, then seat 1's)."""
    s = game.new_initial_state()
    for c in cards:
        assert s.is_chance_node()
        s.apply_action(c)
    assert not s.is_chance_node()
    return s


def test_a_shuffle_is_a_chance_node_per_card_each_equally_likely():
    s = kuhn().new_initial_state()
    assert s.current_player() == pyspiel.PlayerId.CHANCE
    assert s.chance_outcomes() == [(0, pytest.approx(1 / 3)), (1, pytest.approx(1 / 3)), (2, pytest.approx(1 / 3))]
    s.apply_action(2)
    assert s.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # the third card is then forced
    s.apply_action(0)
    assert s.current_player() == 0 and [s.action_to_string(0, a) for a in s.legal_actions()] == ["pass()", "bet()"]


@pytest.mark.parametrize("cards, moves, returns", [
    ((2, 0), ["pass()", "pass()"], [1.0, -1.0]),  # showdown: the king beats the jack
    ((0, 2), ["pass()", "bet()", "bet()"], [-1.0, 1.0]),  # a call, the king wins
    ((2, 0), ["bet()", "pass()"], [1.0, -1.0]),  # a fold
    ((0, 1), ["pass()", "bet()", "pass()"], [-1.0, 1.0]),  # seat 0 folds to a bet
])
def test_a_stacked_deal_plays_out_as_the_rules_say(cards, moves, returns):
    s = dealt(kuhn(), *cards)
    for m in moves:
        by_name = {s.action_to_string(s.current_player(), a): a for a in s.legal_actions()}
        s.apply_action(by_name[m])
    assert s.is_terminal() and s.returns() == returns


def test_an_information_state_shows_a_seats_own_card_and_hides_the_other():
    game = kuhn()
    a, b, c = dealt(game, 2, 0), dealt(game, 1, 0), dealt(game, 2, 1)  # seat 0 holds king, queen, king
    assert a.information_state_string(1) == b.information_state_string(1)  # seat 1 holds the jack in both
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_string(0) == c.information_state_string(0)
    assert a.observation_string(1) == b.observation_string(1)
    hand = json.loads(a.observation_string(0))["zones"]["hand[0]"]["components"]
    assert [x["rank"] for x in hand] == [3]
    assert a.observation_tensor(1) == b.observation_tensor(1)
    assert a.observation_tensor(0) != b.observation_tensor(0)


def test_the_game_is_registered_under_its_ruleset_and_variant_names():
    rl.openspiel_game("hanabi", seats=3, variants=("rainbow",))
    g = pyspiel.load_game("ludex_hanabi__rainbow", {"players": 4})
    assert g.num_players() == 4
    assert g.get_type().short_name == "ludex_hanabi__rainbow"
    assert g.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert g.max_chance_outcomes() == 60  # one chance action per card


def test_cfr_finds_the_equilibrium_of_a_small_ludex_ruleset():
    game = kuhn()
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.nash_conv(game, solver.average_policy())
    for _ in range(19):
        solver.evaluate_and_update_policy()
    assert len(solver.average_policy().state_lookup) == 12  # 3 cards x 2 histories x 2 seats
    assert first > 0.5
    assert exploitability.nash_conv(game, solver.average_policy()) < 0.05


@pytest.mark.parametrize("ruleset", [KUHN, "hanabi"])
def test_ismcts_searches_resampled_worlds_of_a_ludex_game(ruleset):
    import numpy as np

    game = rl.openspiel_game(ruleset, seats=2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=40, random_state=np.random.RandomState(1))
    s = game.new_initial_state()
    rng = np.random.RandomState(2)
    while s.is_chance_node():
        outcomes, probs = zip(*s.chance_outcomes())
        s.apply_action(int(rng.choice(outcomes, p=probs)))
    # each simulation asserts its resampled world has the seat's information state
    assert bot.step(s) in s.legal_actions()
    world = s.resample_from_infostate(s.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string() == s.information_state_string()


def test_games_and_states_pickle_even_at_a_chance_node():
    import pickle

    game = rl.openspiel_game("hanabi", seats=2)
    s = game.new_initial_state()
    for a in (3, 17, 42):  # three cards of the setup's shuffle chosen: still inside it
        s.apply_action(a)
    at_chance = pickle.loads(pickle.dumps(s))
    assert at_chance.is_chance_node() and at_chance.history() == [3, 17, 42]
    assert at_chance.chance_outcomes() == s.chance_outcomes()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    s.apply_action(s.legal_actions()[-1])
    copy = pickle.loads(pickle.dumps(s))
    assert str(copy) == str(s) and copy.history() == s.history()
    assert copy.information_state_string(1) == s.information_state_string(1)
    assert pickle.loads(pickle.dumps(game)).num_players() == 2


def test_the_openspiel_example_converges_and_its_search_beats_random_play():
    from ludex.rl.examples.openspiel_kuhn import cfr_nash_conv, ismcts_against_random

    game = kuhn()
    conv = cfr_nash_conv(game, 20)
    assert list(conv) == [1, 10, 20] and conv[1] > 0.5 and conv[20] < conv[10] < conv[1]
    r = ismcts_against_random(game, 60, 20, seed=1)
    assert r["margin"] > 2 * r["stderr"], r
