"""A ruleset as a PettingZoo `AECEnv` (agent-environment cycle: one seat acts at a time).

Agents are the human seats, `seat_0`, `seat_1`...; automaton seats are played by the rules
inside each step. Each agent observes `{"observation": float32 vector, "action_mask": int8
vector}` (`ludex.rl.observations`, `ludex.rl.actions`); the action is a number of the
ruleset's fixed action space. Rewards come when the game ends (`spec.outcome_rewards`): +1
a win, -1 a loss, 0 a draw, or the team score in a team game; with `shaped=True` each step
also pays every seat the change in the rules' `fn score` (`spec.score_of`). A decision with
no legal move (a rules defect) or `max_steps` steps truncate the episode.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ludex.rl.spec import Spec, outcome_rewards, score_of
from runtime import Game


def _spaces(spec: Spec) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict({
        "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(spec.encoder.size,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(spec.table.n,), dtype=np.int8),
    })
    return obs, spaces.Discrete(spec.table.n)


def action_mask(spec: Spec, game: Game, seat: int) -> np.ndarray:
    """1 at each legal action of `seat` now, else 0 (int8, length `spec.table.n`; a new array)."""
    return spec.table.mask(game, seat)


def render_text(game: Game, seat: int | None = None) -> str:
    """The board as `ludex play` shows it (the seat's view; None: a spectator's), as plain text."""
    from ludex.board import board_text, turn_line

    view = game.view(seat)
    return board_text(view, title=turn_line(view))


class LudexAEC(AECEnv):
    """The AEC environment of one `Spec` (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "ludex", "is_parallelizable": False}
    agent_selection: str

    def __init__(self, spec: Spec, shaped: bool = False, max_steps: int | None = None, render_mode: str | None = None,
                 render_seat: int | None = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: Ludex environments render 'ansi' text only")
        self.spec = spec
        self.shaped = shaped
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.metadata = {**self.metadata, "name": spec.name}
        self.possible_agents = [f"seat_{s}" for s in range(spec.seats)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs, act = _spaces(spec)
        self._obs_space = {a: obs for a in self.possible_agents}
        self._act_space = {a: act for a in self.possible_agents}
        self._rng = random.Random()
        self._apply = spec.table.apply
        self._picks = spec.table.has_picks  # (a listed offer may have no legal pick: `ActionTable.stuck`)
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. `seed` seeds its chance (and the seeds of the games after it)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = self.spec.new_game(seed=self._rng.getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = 0
        self._paid = False  # whether some reward of the last step is not 0
        self._scores = [score_of(self.game, s) for s in range(self.spec.seats)] if self.shaped else None
        self._settle()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        g = self.game
        assert g is not None, "reset() the environment first"
        return {"observation": self.spec.encoder.encode(g, seat), "action_mask": action_mask(self.spec, g, seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        assert g is not None, "reset() the environment first"
        self._apply(g, self._seat[agent], action)
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self._paid:  # the last step paid rewards: this step's start from 0 (else they are 0)
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._paid = False
        if self._scores is not None:
            for s, a in enumerate(self.possible_agents):
                now = score_of(g, s)
                if now != self._scores[s]:
                    self.rewards[a] += now - self._scores[s]
                    self._scores[s] = now
                    self._paid = True
        seats = g.decision().seats  # (none when the game is over or stuck)
        if seats and self.max_steps is None and not self._picks:  # (`_settle`'s answer then)
            self.agent_selection = self.possible_agents[seats[0]]
        else:
            self._settle()
        if self._paid:  # (adding rewards of 0 changes nothing)
            self._accumulate_rewards()

    def _settle(self) -> None:
        """After a reset or a step: the next agent, or the end (outcome, stuck, step limit)."""
        g = self.game
        assert g is not None
        if g.terminal:
            for a, r in zip(self.possible_agents, outcome_rewards(g.outcome, self.spec.seats)):
                self.rewards[a] += r
                self._paid = True
                self.terminations[a] = True
                self.infos[a] = {"outcome": g.outcome}
            self.agent_selection = self.agents[0]
            return
        d = g.decision()
        stuck = d.stuck or (self._picks and self.spec.table.stuck(g))
        if stuck or (self.max_steps is not None and self.steps >= self.max_steps):
            why = "stuck: the seat to act has no legal move" if stuck else f"{self.max_steps} steps"
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"truncated": why}
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[d.seats[0]]

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        return render_text(self.game, self.render_seat)

    def close(self) -> None:
        self.game = None
