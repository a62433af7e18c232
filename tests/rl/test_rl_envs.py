"""The environments as a learner meets them: agents and rewards, shaped rewards, rendering,
the Gymnasium seat against bots, a small agent that learns, and imports only when used."""

from __future__ import annotations

import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

from rl_cases import KUHN  # noqa: E402

from ludex import rl  # noqa: E402
from ludex.board import board_text, turn_line  # noqa: E402


def play_out(env, seed, choose=lambda legal: legal[0]):
    """Play an AEC episode; the total reward of each agent."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else choose(np.flatnonzero(obs["action_mask"]).tolist()))
    return totals


def test_agents_are_the_human_seats_and_automata_are_not_agents():
    assert rl.aec_env("hanabi", seats=4).possible_agents == ["seat_0", "seat_1", "seat_2", "seat_3"]
    solo = rl.aec_env("weather_machine", variants=("solo",))
    assert solo.possible_agents == ["seat_0"]  # the Saboteurs are an automaton seat
    solo.reset(seed=1)
    assert solo.agent_selection == "seat_0"


def test_a_won_game_pays_plus_one_and_minus_one():
    env = rl.aec_env(KUHN)
    # both seats always bet: a call, and the higher card wins
    totals = play_out(env, seed=4, choose=lambda legal: legal[-1])
    assert sorted(totals.values()) == [-1.0, 1.0]
    assert env.infos == {} and env.agents == []


def test_a_team_game_pays_every_seat_the_team_score_and_shaped_rewards_add_up_to_it():
    plain = play_out(rl.aec_env("hanabi", seats=2), seed=9, choose=lambda legal: legal[-1])
    env = rl.aec_env("hanabi", seats=2, shaped=True)
    shaped = play_out(env, seed=9, choose=lambda legal: legal[-1])
    assert plain["seat_0"] == plain["seat_1"]
    # the shaped rewards (each step's change of `fn score()`) sum to the final score, on top of the outcome
    assert shaped["seat_0"] == shaped["seat_1"] == plain["seat_0"] + float(env.game.call("score"))


def test_render_is_the_play_screen_text():
    env = rl.aec_env("hanabi", seats=2, render_mode="ansi")
    env.reset(seed=2)
    view = env.game.view(None)
    assert env.render() == board_text(view, title=turn_line(view))
    assert "hand[0]" in env.render()


def test_the_gymnasium_seat_plays_against_bots_and_refuses_illegal_actions_clearly():
    env = rl.gym_env(KUHN, seat=1, opponent="greedy")
    obs, info = env.reset(seed=3)
    assert env.game.decision().seats == (1,)  # the bot played seat 0 first
    assert np.array_equal(info["action_mask"], env.action_masks())
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert terminated and reward in (1.0, -1.0) and info["outcome"]["kind"] == "win"
    with pytest.raises(ValueError, match="no bot named 'nobody'"):
        rl.gym_env(KUHN, opponent="nobody")


def test_an_illegal_action_raises_or_loses_the_episode():
    from runtime import IllegalMove

    env = rl.gym_env("hanabi", seats=2)
    env.reset(seed=1)
    hint_self = 0  # hint_colour(target=0, colour=red): seat 0 cannot hint itself
    with pytest.raises(IllegalMove, match=r'hint_colour\(target=0, colour="red"\) is not legal for seat 0 now'):
        env.step(hint_self)
    env = rl.gym_env("hanabi", seats=2, illegal="lose")
    env.reset(seed=1)
    _obs, reward, terminated, _trunc, info = env.step(hint_self)
    assert (reward, terminated) == (-1.0, True) and "not legal" in info["illegal"]


def test_tabular_q_learning_beats_random_play_by_a_clear_margin():
    from ludex.rl.examples.q_learning import run

    r = run(episodes=1500, eval_games=1000, seed=1)
    assert r["margin"] > 0.2 and r["margin"] > 4 * r["stderr"]


def test_importing_ludex_needs_none_of_the_learning_libraries():
    # (numpy is not among them: matplotlib, a core dependency, brings it anyway)
    code = ("import sys, ludex.cli, ludex.rl; "
            "print(sorted(m for m in ('gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_opponent_may_be_any_object_that_chooses_a_move():
    class AlwaysBet:
        def choose(self, game, seat, moves):
            return next(m for m in moves if m.name == "bet")

    env = rl.gym_env(KUHN, seat=1, opponent=AlwaysBet())
    env.reset(seed=1)
    assert env.game.view(1)["vars"]["bet_by"] == 0  # seat 0 bet before the agent's first decision
