"""Learning environments' cost (issue 30): an environment step against a bare engine ply,
and the time to encode an observation.

    python bench/rl_bench.py [--plies 1000] [--only hanabi]

Per ply, each loop playing random games to their end (new games as needed) until `plies`
plies:
- bare ply: `legal_moves(actor)`, a uniform random choice (`randrange`), `apply`: what a
  random playout does.
- env step+mask (the target: its overhead over the bare ply <= 20%): the same work through
  the AEC environment: the action mask of the agent to act (`ludex.rl.aec.action_mask`, the
  array `observe` hands out: the environment's equivalent of `legal_moves`), a uniform random
  legal action (`randrange` over the legal actions the mask marks, as `table.actions` lists
  them: the agent's reading of the mask is its work, not the environment's, so it is not
  timed here but printed apart, `read`), and `env.step(action)` (the action's move found and
  applied, rewards, the next agent). Both sides do one legal-move listing, one uniform choice
  and one apply per ply; the observation vector is not made (encode).
- read: the agent's reading of a mask (numpy's `nonzero` of its bool view, an item), over the
  masks of 200 positions of random games.
- AEC cycle: the standard PettingZoo agent loop, `for agent in env.agent_iter()`: `env.last()`
  (the observation vector and the action mask of the agent to act), a random legal action
  from the mask (read as bool: numpy's nonzero is ~20x slower on int8), `env.step(action)`:
  the overhead a user of the whole loop meets (observation included).
- floor: the same loop on an AEC environment that does nothing (no game: fixed arrays of the
  same sizes copied out, 60-ply episodes): what PettingZoo's protocol and the agent's masked
  choice cost whatever the game. floor / bare ply is the least AEC-cycle overhead any AEC
  environment of that game could show.
- Gym ply: `rl.gym_env` with a masked random agent and a random opponent (the same choice as
  the bare ply), per ply of either; its overhead against the bare ply.
- mask: `action_mask` of the seat to act over 200 positions of random games, each position's
  legal moves numbered again (`table.forget()`: from what the table remembers, as in an
  episode); of which `numbers`: numbering them alone (`table.actions`), the rest is making
  the array (a copy of a mask kept for that list of actions where listings recur, else a new
  buffer with its 1s set: `ActionTable.mask`).
- encode (its own target: Hanabi <= 20 us): `encode_fresh` of the seat to act over 200
  positions of random games; in play: `encode` of the seat to act after every ply of random
  games (the kept vector brought up to date, as an environment does), each call timed alone
  less the cost of one clock read (`encode_times`).
Every figure is CPU time of this process (`time.process_time`: waiting for a core on a
shared machine does not count), the best of `--repeats` alternating runs. A machine speed
reference is printed first: on a shared machine the absolute figures move with the load, the
ratios less.
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

import numpy as np
from pettingzoo import AECEnv

from dsl.loader import load_ruleset
from ludex import rl
from ludex.rl.aec import action_mask
from ludex.rl.spec import random_positions
from runtime import Game, Move

CASES = [("hanabi", 2), ("hanabi", 4), ("battle_line", 2), ("balloon_cup", 2), ("weather_machine", 2)]


def bare(rs, seats: int, plies: int, seed: int) -> float:
    """Per ply: `legal_moves`, a uniform random choice, `apply`, in the games and with the
    choices of `env_step` (the game `env.reset(seed=seed + k)` deals, the k-th legal move
    drawn from the same random stream): both play the same plies."""
    rng = random.Random(seed)
    done, spent, k = 0, 0.0, 0
    while done < plies:
        g = Game.new(rs, seats, seed=random.Random(seed + k).getrandbits(64))  # as env.reset(seed=seed + k)
        k += 1
        g.decision()  # the first listing, as `env.reset` makes it before env_step's clock
        t = time.process_time()
        while not g.terminal and done < plies:
            s = g.st.actor
            moves = g.legal_moves(s)
            if not moves:
                break
            g.apply(s, moves[rng.randrange(len(moves))])
            done += 1
        spent += time.process_time() - t
    return spent / done


def aec(rs, seats: int, plies: int, seed: int) -> float:
    """Per ply: the whole agent cycle (`last()`, a random legal action from the mask, `step()`),
    with no clock read inside it."""
    rng = random.Random(seed)
    env = rl.aec_env(rs, seats=seats)
    done, spent, k = 0, 0.0, 0
    clock = time.process_time
    while done < plies:
        env.reset(seed=seed + k)
        k += 1
        t = clock()
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].view(bool).nonzero()[0]  # numpy finds bools 20x faster than int8s
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
            if done >= plies:
                break
        spent += clock() - t
    return spent / done


def env_step(rs, seats: int, plies: int, seed: int) -> float:
    """Per ply: the action mask of the agent to act, a uniform random legal action, and
    `env.step`, with no clock read inside (the module docstring's env step+mask)."""
    rng = random.Random(seed)
    env = rl.aec_env(rs, seats=seats)
    spec = env.spec
    legal = spec.table.actions  # the actions the mask marks, listed (kept for the state version)
    seat_of = {a: s for s, a in enumerate(env.possible_agents)}
    done, spent, k = 0, 0.0, 0
    clock = time.process_time
    while done < plies:
        env.reset(seed=seed + k)
        k += 1
        t = clock()
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            seat = seat_of[agent]
            action_mask(spec, env.game, seat)
            acts = legal(env.game, seat)
            env.step(acts[rng.randrange(len(acts))])
            done += 1
            if done >= plies:
                break
        spent += clock() - t
    return spent / done


def mask_read(spec, seed: int, repeats: int) -> float:
    """Per mask: the agent's reading of it (`nonzero` of its bool view, an item as an int), over
    the masks of 200 positions of random games."""
    masks = [action_mask(spec, p, p.st.actor) for p in random_positions(spec, 200, seed)]

    def read_all() -> None:
        for m in masks:
            int(m.view(bool).nonzero()[0][0])

    return min(timeit.repeat(read_all, timer=time.process_time, number=20, repeat=repeats)) / (20 * len(masks))


class NullAEC(AECEnv):
    """An AEC environment with no game (the module docstring's `floor`): two agents take turns
    for `length` plies; each observation is a copy of fixed arrays of the given sizes."""

    metadata = {"name": "null", "is_parallelizable": False}

    def __init__(self, obs_size: int, actions: int, legal: int = 20, length: int = 60):
        super().__init__()
        self.possible_agents = ["seat_0", "seat_1"]
        self.obs = np.zeros(obs_size, np.float32)
        self.mask = np.zeros(actions, np.int8)
        self.mask[:legal] = 1
        self.length = length

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.t = 0
        self.agent_selection = "seat_0"

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.t += 1
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if self.t >= self.length:
            for a in self.agents:
                self.terminations[a] = True
        self.agent_selection = self.possible_agents[self.t % 2]
        self._accumulate_rewards()


def floor(spec, plies: int, seed: int) -> float:
    """Per ply: the AEC agent loop on a `NullAEC` of `spec`'s observation and action sizes."""
    rng = random.Random(seed)
    env = NullAEC(spec.encoder.size, spec.table.n)
    done, spent = 0, 0.0
    while done < plies:
        env.reset()
        t = time.process_time()
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].view(bool).nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
        spent += time.process_time() - t
    return spent / done


class _Counting:
    """A random opponent counting its plies (the bare ply's choice)."""

    def __init__(self, rng: random.Random):
        self.rng, self.plies = rng, 0

    def choose(self, game: Game, seat: int, moves: list[Move]) -> Move:
        self.plies += 1
        return moves[self.rng.randrange(len(moves))]


def gym(rs, seats: int, plies: int, seed: int) -> float:
    """Per ply (the agent's or the opponent's): `rl.gym_env` played by a masked random agent."""
    rng = random.Random(seed)
    bot = _Counting(random.Random(seed + 1))
    env = rl.gym_env(rs, seats=seats, opponent=bot)
    done, spent, k = 0, 0.0, 0
    while done + bot.plies < plies:
        t = time.process_time()
        obs, _info = env.reset(seed=seed + k)
        k += 1
        over = False
        while not over:
            legal = obs["action_mask"].view(bool).nonzero()[0]
            obs, _r, term, trunc, _info = env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
            over = term or trunc
        spent += time.process_time() - t
    return spent / (done + bot.plies)


def positions_of(spec, count: int, seed: int) -> list:
    """`count` positions of random games of `spec` (clones, each with its legal moves listed)."""
    positions = random_positions(spec, count, seed)
    for p in positions:
        p.legal_moves(p.st.actor)  # the listing a step leaves behind: the mask numbers it, as in an episode
    return positions


def encode_times(rs, seats: int, plies: int, seed: int) -> tuple[float, float]:
    """Per observation of the seat to act: encoding a position afresh (`encode_fresh`, 200
    positions of random games, into one array), and `encode` in play (the same game ply after
    ply, as an environment asks: a new array each time, the kept vector brought up to date
    where the encoder keeps them), each call timed alone, less the cost of reading the clock
    (the time between the call's closing read and one more read right after it). In play costs more than afresh: the new array, the bits of
    marks new since the last ply, and the processor's caches, which the engine's ply between
    two calls has filled with its own data. (It was the difference between random games with
    and without `encode`: two totals of ~1000 plies of ~100-200 us each, whose noise on a
    shared machine (+-10 us per ply) exceeded what was measured.)"""
    from ludex.rl.spec import Spec

    spec = Spec(rs, seats)
    positions = positions_of(spec, 200, seed)
    out = np.zeros(spec.encoder.size, np.float32)
    fresh_encode = getattr(spec.encoder, "encode_fresh", spec.encoder.encode)  # (before the kept vectors: encode)

    def fresh_all() -> None:
        for p in positions:
            fresh_encode(p, p.st.actor, out)

    reps = max(1, plies // len(positions))
    fresh = min(timeit.repeat(fresh_all, timer=time.process_time, number=reps, repeat=5)) / (reps * len(positions))

    def play() -> float:
        rng = random.Random(seed)
        enc = spec.encoder.encode
        clock = time.process_time
        done, k, spent = 0, 0, 0.0
        while done < plies:
            g = spec.new_game(seed=seed + k)
            k += 1
            while not g.terminal and done < plies:
                s = g.st.actor
                moves = g.legal_moves(s)
                if not moves:
                    break
                t = clock()
                enc(g, s)
                t1 = clock()
                spent += (t1 - t) - (clock() - t1)  # less one clock read: what `t1 - t` holds beside the call
                g.apply(s, moves[rng.randrange(len(moves))])
                done += 1
        return spent / done

    return fresh, max(0.0, min(play() for _ in range(5)))


def mask_time(spec, plies: int, seed: int) -> tuple[float, float]:
    """Per position of 200 of random games: the action mask of the seat to act, and numbering
    its legal moves alone (`table.actions`), each position's moves numbered again."""
    positions = positions_of(spec, 200, seed)
    table = spec.table

    def mask_all() -> None:
        for p in positions:
            table.forget()  # number each position's moves again (from what the table remembers, as in an episode)
            action_mask(spec, p, p.st.actor)

    def number_all() -> None:
        for p in positions:
            table.forget()
            table.actions(p, p.st.actor)

    reps = max(1, plies // len(positions))
    return tuple(min(timeit.repeat(f, timer=time.process_time, number=reps, repeat=5)) / (reps * len(positions))
                 for f in (mask_all, number_all))  # type: ignore[return-value]


def main() -> None:
    from ludex.rl.spec import Spec

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", default="", help="measure this ruleset only")
    a = ap.parse_args()
    ref = min(timeit.repeat("sum(range(1000))", timer=time.process_time, number=2000, repeat=5)) / 2000
    print(f"machine speed reference: sum(range(1000)) = {ref * 1e6:.1f} us (the load of a shared machine shows here)")
    print(f"{'ruleset':<16}{'seats':>6}{'bare ply':>10}{'step+mask':>11}{'overhead':>10}{'mask':>7}{'numbers':>9}{'encode':>8}"
          f"{'in play':>9}{'read':>6}{'AEC cycle':>11}{'AEC ovh':>9}{'floor':>8}{'floor %':>9}{'Gym ply':>9}{'Gym ovh':>9}   (us)")
    for name, seats in CASES:
        if a.only and name != a.only:
            continue
        rs = load_ruleset(name)
        spec = Spec(rs, seats)
        bare(rs, seats, 200, a.seed)  # warm: compiled code, templates
        env_step(rs, seats, 200, a.seed)
        aec(rs, seats, 200, a.seed)
        # the best of `repeats` alternating runs of each: the load of a shared machine only adds
        runs: dict[str, list[float]] = {"bare": [], "step": [], "aec": [], "floor": [], "gym": []}
        for _ in range(a.repeats):
            runs["bare"].append(bare(rs, seats, a.plies, a.seed))
            runs["step"].append(env_step(rs, seats, a.plies, a.seed))
            runs["aec"].append(aec(rs, seats, a.plies, a.seed))
            runs["floor"].append(floor(spec, a.plies, a.seed))
            runs["gym"].append(gym(rs, seats, a.plies, a.seed))
        b, st, e, f, gy = (min(runs[k]) for k in ("bare", "step", "aec", "floor", "gym"))
        read = mask_read(spec, a.seed, a.repeats)
        mask, numbers = mask_time(spec, a.plies * 10, a.seed)
        fresh, kept = encode_times(rs, seats, a.plies, a.seed)
        us = 1e6
        print(f"{name:<16}{seats:>6}{b * us:>10.1f}{st * us:>11.1f}{st / b - 1:>10.0%}{mask * us:>7.1f}{numbers * us:>9.1f}{fresh * us:>8.1f}"
              f"{kept * us:>9.1f}{read * us:>6.1f}{e * us:>11.1f}{e / b - 1:>9.0%}{f * us:>8.1f}{f / b:>9.0%}{gy * us:>9.1f}{gy / b - 1:>9.0%}")


if __name__ == "__main__":
    main()
