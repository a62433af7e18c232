"""Tabular Q-learning on a Ludex ruleset through `ludex.rl.gym_env`, measured against random play.

    python -m ludex.rl.examples.q_learning            # Kuhn poker, seat 0 against a random bot
    python -m ludex.rl.examples.q_learning --ruleset PATH --episodes 20000

The agent keys its table by the observation vector's bytes (a small ruleset's observations
are few), picks among the legal actions only (the mask), explores epsilon-greedily, and
learns by one-step Q-learning (Watkins, 1989). It is then scored by its mean reward over
`eval_games` games against the same random bot, next to the mean reward of a random agent
in that seat: the margin is what it learned.
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path
from typing import Any

import numpy as np

from ludex import rl

KUHN = str(Path(__file__).with_name("kuhn_poker.ludex"))


def train(env: Any, episodes: int, seed: int, alpha: float = 0.1, epsilon: float = 0.2, gamma: float = 1.0) -> dict:
    """Q-values learned over `episodes` episodes: {observation bytes: {action: value}}."""
    rng = random.Random(seed)
    q: dict[bytes, dict[int, float]] = {}
    obs, _ = env.reset(seed=seed)
    for _ in range(episodes):
        done = False
        while not done:
            key, legal = obs["observation"].tobytes(), np.flatnonzero(obs["action_mask"]).tolist()
            values = q.setdefault(key, {a: 0.0 for a in legal})
            a = rng.choice(legal) if rng.random() < epsilon else max(legal, key=lambda x: values[x])
            obs, reward, terminated, truncated, _ = env.step(a)
            done = terminated or truncated
            target = reward
            if not done:
                nxt = q.get(obs["observation"].tobytes())
                target += gamma * (max(nxt.values()) if nxt else 0.0)
            values[a] += alpha * (target - values[a])
        obs, _ = env.reset()
    return q


def evaluate(env: Any, q: dict | None, games: int, seed: int) -> list[float]:
    """The episode rewards of `games` games: greedy on `q`, or random play when `q` is None."""
    rng = random.Random(seed)
    out = []
    obs, _ = env.reset(seed=seed)
    for _ in range(games):
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            values = q.get(obs["observation"].tobytes()) if q is not None else None
            a = max(legal, key=lambda x: values.get(x, 0.0)) if values else rng.choice(legal)
            obs, reward, terminated, truncated, _ = env.step(a)
            total += reward
            done = terminated or truncated
        out.append(total)
        obs, _ = env.reset()
    return out


def run(ruleset: str = KUHN, episodes: int = 5000, eval_games: int = 2000, seed: int = 1) -> dict[str, float]:
    """Train, then score: the learned and the random agent's mean rewards, the margin and its
    standard error (of the difference of two independent means)."""
    env = rl.gym_env(ruleset, opponent="random")
    q = train(env, episodes, seed)
    learned = evaluate(env, q, eval_games, seed + 1)
    baseline = evaluate(env, None, eval_games, seed + 2)
    se = (statistics.pvariance(learned) / len(learned) + statistics.pvariance(baseline) / len(baseline)) ** 0.5
    return {"learned": statistics.fmean(learned), "random": statistics.fmean(baseline),
            "margin": statistics.fmean(learned) - statistics.fmean(baseline), "stderr": se, "states": len(q)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default=KUHN)
    p.add_argument("--episodes", type=int, default=5000)
    p.add_argument("--eval-games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    r = run(a.ruleset, a.episodes, a.eval_games, a.seed)
    print(f"learned {r['learned']:+.3f}  random {r['random']:+.3f}  margin {r['margin']:+.3f} "
          f"(± {r['stderr']:.3f} s.e.) over {a.eval_games} games, {r['states']} states, {a.episodes} episodes")


if __name__ == "__main__":
    main()
