"""A move that picks several at once (`cs in 2 of hand[actor]`, runtime.picks) in the fixed
action space: one action per ordered choice of the pick, the legal ones those the move's
requires accept, played by the environments and checked by PettingZoo's and OpenSpiel's own
conformance tests."""

from __future__ import annotations

import itertools
import math
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from rl_cases import PASS_LEFT  # noqa: E402

from dsl import load_from_sources  # noqa: E402
from ludex import rl  # noqa: E402
from ludex.rl.spec import Spec  # noqa: E402
from runtime import IllegalMove  # noqa: E402

HEARTS = str(Path(__file__).parents[1] / "simultaneous" / "hearts_mini.ludex")  # 3 of a hand, 4 seats


def _expected_actions(spec, game, seat):
    """The actions of the ordered pairs of `seat`'s cards that pass_left's require accepts
    (the first card's n is not the second's + 1), each the rank of the pair of component
    indices among all ordered pairs of the 9 cards (`itertools.permutations` order)."""
    names = [c.name for c in game.st.comps if c.kind == "card"]
    rank = {p: k for k, p in enumerate(itertools.permutations(range(len(names)), 2))}
    hand = game.view(seat)["zones"][f"hand[{seat}]"]["components"]
    cards = [(names.index(c["name"]), c["n"]) for c in hand]
    return {rank[(a, b)] for (a, na), (b, nb) in itertools.permutations(cards, 2) if na != nb + 1}


def test_a_pick_takes_one_action_per_ordered_choice():
    spec = Spec(PASS_LEFT, 3)
    block = spec.table.by_name["pass"]
    assert block.size == math.perm(9, 2) == 72
    assert spec.table.describe(block.offset + 1) == "pass(cs=[1,3])"


@pytest.mark.parametrize("seed", range(6))
def test_the_legal_pick_actions_are_the_ordered_choices_the_requires_accept(seed):
    spec = Spec(PASS_LEFT, 3)
    g = spec.new_game(seed=seed)
    for seat in range(3):
        acts = spec.table.actions(g, seat)
        assert len(acts) == len(set(acts))
        assert set(acts) == _expected_actions(spec, g, seat)
        assert set(spec.table.mask(g, seat).nonzero()[0]) == set(acts)


def test_a_pick_action_plays_the_pick_it_names_and_a_refused_one_is_illegal():
    spec = Spec(PASS_LEFT, 3)
    table = spec.table
    g = spec.new_game(seed=3)
    seat = g.decision().seats[0]
    legal = table.actions(g, seat)
    refused = set(range(table.by_name["pass"].size)) - set(legal)
    hand = {c["name"] for c in g.view(seat)["zones"][f"hand[{seat}]"]["components"]}
    # an ordered pair of the seat's own cards that the require refuses (a card, then the card below it)
    own_refused = [a for a in refused if set(table.describe(a)[len("pass(cs=["):-2].split(",")) <= hand]
    assert own_refused, "seed 3 deals a seat two cards in a row"
    before = g.state_hash()
    with pytest.raises(IllegalMove):
        table.apply(g, seat, own_refused[0])
    assert g.state_hash() == before
    action = legal[0]
    move = table.to_move(g, seat, action)
    assert table.to_action(g, seat, move.to_dict()) == action
    assert table.describe(action) == f"pass(cs=[{','.join(move.args['cs'])}])"
    table.apply(g, seat, action)
    assert seat not in g.decision().seats  # its choice is sealed; the round waits for the others


def test_pick_environments_pass_pettingzoo_and_openspiel_conformance_tests():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rl.aec_env(PASS_LEFT, seats=3), num_cycles=6)
        seed_test(lambda: rl.aec_env(PASS_LEFT, seats=3), num_cycles=4)
    pyspiel.random_sim_test(rl.openspiel_game(PASS_LEFT, seats=3), num_sims=5, serialize=False, verbose=False)


def test_random_pick_episodes_end_with_rewards():
    env = rl.aec_env(PASS_LEFT, seats=3)
    rng = random.Random(0)
    for episode in range(5):
        env.reset(seed=episode)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _info = env.last()
            total[agent] += reward
            if term or trunc:
                assert term and not trunc
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
        assert sorted(total.values())[-1] == 1.0  # someone won


@pytest.mark.parametrize(("path", "seats"), [(PASS_LEFT, 3), (HEARTS, 4)], ids=["pass_left", "hearts_mini"])
def test_every_pick_action_is_the_move_it_describes_and_plays_it(path, seats):
    spec = Spec(path, seats)
    table = spec.table
    rng = random.Random(1)
    checked = 0
    for seed in range(2):
        g = spec.new_game(seed=seed)
        for _ply in range(8):
            if g.terminal:
                break
            seat = g.decision().seats[0]
            for a in table.actions(g, seat):
                move = table.to_move(g, seat, a)
                if move.name == "pass" or move.name == "pass_cards":
                    (arg,) = move.args
                    assert table.describe(a) == f"{move.name}({arg}=[{','.join(move.args[arg])}])"
                assert table.to_action(g, seat, move.to_dict()) == a
                by_action, by_move = g.clone(), g.clone()
                table.apply(by_action, seat, a)
                by_move.apply(seat, move)
                assert by_action.state_hash() == by_move.state_hash()
                checked += 1
            acts = table.actions(g, seat)
            table.apply(g, seat, acts[rng.randrange(len(acts))])
    assert checked > 30


NEVER = Path(PASS_LEFT).read_text().replace(
    'require cs[0].n != cs[1].n + 1 else "P1: two cards in a row may not be passed together"',
    'require cs[0].n + cs[1].n > 100 else "no two cards add up to more than 100"')


def test_an_offer_no_pick_satisfies_ends_the_episode_as_stuck():
    rs = load_from_sources((("never.ludex", NEVER),))
    assert "> 100" in NEVER
    spec = Spec(rs, 3)
    g = spec.new_game(seed=0)
    assert not g.decision().stuck and spec.table.actions(g, 0) == [] and spec.table.stuck(g)
    env = rl.aec_env(rs, seats=3)
    env.reset(seed=0)
    _obs, _r, term, trunc, info = env.last()
    assert trunc and "stuck" in info["truncated"]
    with pytest.raises(IllegalMove):
        g.pick_at_random(1, g.legal_moves(1)[0], random.Random(0))  # (what a bot sending the offer would meet)
    gym = rl.gym_env(rs, seats=3, seat=1)  # seat 0, a bot, is stuck before the agent acts
    _obs, info = gym.reset(seed=0)
    assert gym.rules.table.stuck(gym.game)
    state = rl.openspiel_game(rs, seats=3).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_terminal()


def test_the_gymnasium_environment_plays_picking_opponents():
    env = rl.gym_env(PASS_LEFT, seats=3, seat=1)
    rng = random.Random(2)
    for episode in range(3):
        obs, _info = env.reset(seed=episode)
        over = False
        while not over:
            legal = obs["action_mask"].nonzero()[0]
            obs, _r, term, trunc, _info = env.step(int(legal[rng.randrange(len(legal))]))
            over = term or trunc
        assert term and env.game.terminal



@pytest.mark.parametrize("chosen", [1, 2])
def test_openspiel_resamples_a_simultaneous_round_with_its_choices_sealed_and_ismcts_plays_it(chosen):
    game = rl.openspiel_game(HEARTS, seats=4)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for _ in range(chosen):  # seats 0.. pass (sealed)
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    assert player == chosen
    for k in range(3):
        again = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert again.information_state_string(player) == state.information_state_string(player), k
        assert again.current_player() == player
        assert len(again.game.events) == len(state.game.events)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 1.4, 20,
                           random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions(player)


HIGH_PAIRS = Path(PASS_LEFT).read_text().replace(
    'require cs[0].n != cs[1].n + 1 else "P1: two cards in a row may not be passed together"',
    'require cs[0].n + cs[1].n > 12 else "only a pair adding up to more than 12 may be passed"')


def test_a_resampled_round_deals_again_until_the_seats_that_chose_could_choose():
    # a world dealt again may leave seat 0, which sealed, no pair over 12: that world is dealt again
    game = rl.openspiel_game(load_from_sources((("high_pairs.ludex", HIGH_PAIRS),)), seats=3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])  # (the highest cards first: seat 0 holds 9, 8, 7)
    assert state.legal_actions()
    state.apply_action(state.legal_actions()[0])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(20):
        again = state.resample_from_infostate(1, sampler)
        assert again.information_state_string(1) == state.information_state_string(1)


def test_choose_again_refuses_a_seat_that_did_not_seal_in_this_round():
    g = Spec(PASS_LEFT, 3).new_game(seed=3)
    g.apply(0, g.legal_picks(0, g.legal_moves(0)[0])[0])
    g.forget_choices()
    with pytest.raises(ValueError):
        g.choose_again([1], random.Random(0))  # seat 1 has not sealed
    g.choose_again([0], random.Random(0))
    assert g.round_seats == (0, 1, 2) and len([e for e in g.events if e.kind == "sealed"]) == 1
