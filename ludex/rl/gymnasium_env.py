"""A ruleset as a single-agent Gymnasium `Env`: the agent plays one seat, a Ludex bot
(`search.bots`: `random`, `greedy`, `mcts`, or any object with their `choose(game, seat,
moves)`) plays every other human seat, and the rules play the automata.

Observations and actions are the AEC environment's (`ludex.rl.aec`): a dict of the seat's
observation vector and its action mask, and a number of the fixed action space; `info`
also carries the mask as `action_mask` and `action_masks()` returns it (the convention of
masked-action learners). The reward is the agent's: its outcome reward when the game ends,
plus, with `shaped=True`, the change of its `fn score` over its own move and the bots'
replies. An illegal action raises `runtime.IllegalMove`, or, with `illegal="lose"`, ends the
episode with reward -1 and `info["illegal"]` saying why (for learners that ignore masks); a
legal action the rules refuse as it runs raises either way.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from ludex.rl.aec import _spaces, action_mask, render_text
from ludex.rl.spec import Spec, outcome_rewards, score_of
from runtime import Game, IllegalMove
from search.bots import make_bot


class LudexGym(gymnasium.Env):
    """One seat of a `Spec` against bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, spec: Spec, seat: int = 0, opponent: Any = "random", shaped: bool = False,
                 max_steps: int | None = None, render_mode: str | None = None, illegal: str = "raise"):
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal={illegal!r}: 'raise' (an IllegalMove error) or 'lose' (the episode ends, reward -1)")
        self.illegal = illegal
        if not 0 <= seat < spec.seats:
            raise ValueError(f"seat {seat}: {spec.rs.name} has seats 0..{spec.seats - 1} here")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: Ludex environments render 'ansi' text only")
        self.rules = spec  # (`spec` is Gymnasium's EnvSpec)
        self.seat = seat
        self.opponent = opponent
        self.shaped = shaped
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(spec)
        self._rng = random.Random()
        # a bot's name (ValueError for an unknown one), or any object with the bots' `choose`
        self._bot = make_bot(opponent, self._rng) if isinstance(opponent, str) else opponent
        self.game: Game | None = None
        self.steps = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        self.game = self.rules.new_game(seed=self._rng.getrandbits(64))
        self.steps = 0
        self._score = score_of(self.game, self.seat) if self.shaped else 0.0
        reward = self._others()
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"], "reward_before_first_move": reward}

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        g = self.game
        assert g is not None, "reset() the environment first"
        try:
            self.rules.table.apply(g, self.seat, action)
        except IllegalMove as exc:
            # a legal action the rules refused as it ran is no agent's mistake
            if self.illegal == "raise" or int(action) in self.rules.table.actions(g, self.seat):
                raise
            obs = self._obs()
            return obs, -1.0, True, False, {"action_mask": obs["action_mask"], "illegal": str(exc)}
        self.steps += 1
        reward = self._others()
        obs = self._obs()
        terminated = g.terminal or self.rules.table.stuck(g)
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        info: dict[str, Any] = {"action_mask": obs["action_mask"]}
        if g.terminal:
            info["outcome"] = g.outcome
        return obs, reward, terminated, truncated, info

    def _others(self) -> float:
        """Let the bots play until the agent's seat is to act or the game ends; the agent's
        reward since its last move."""
        g = self.game
        assert g is not None
        table = self.rules.table
        picks = table.has_picks
        while not g.terminal:
            d = g.decision()
            if d.stuck or d.seats[0] == self.seat or (picks and table.stuck(g)):
                break
            s = d.seats[0]
            moves = g.legal_moves(s)
            if picks:  # a bot chooses among whole moves: each offer stands for the picks its requires accept
                moves = [p for m in moves for p in g.legal_picks(s, m)]
            g.apply(s, self._bot.choose(g, s, moves))
        reward = 0.0
        if self.shaped:
            now = score_of(g, self.seat)
            reward += now - self._score
            self._score = now
        if g.terminal:
            reward += outcome_rewards(g.outcome, self.rules.seats)[self.seat]
        return reward

    def _obs(self) -> dict[str, np.ndarray]:
        g = self.game
        assert g is not None
        return {"observation": self.rules.encoder.encode(g, self.seat), "action_mask": action_mask(self.rules, g, self.seat)}

    def action_masks(self) -> np.ndarray:
        """The legal actions now (1 = legal), for masked-action learners."""
        assert self.game is not None, "reset() the environment first"
        return action_mask(self.rules, self.game, self.seat)

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        return render_text(self.game, self.seat)
