"""Learning environments' cost (issue 30): a PettingZoo step against a bare engine ply, and
the time to encode one Hanabi observation.

    python bench/rl_bench.py [--plies 3000]

- bare ply: `legal_moves(actor)`, a random choice, `apply` (what a random playout does).
- AEC cycle: `env.last()` (the observation vector and the action mask of the agent to act),
  a random legal action from the mask, `env.step(action)`; `last()` and `step()` are also
  timed alone.
Both play random games to their end, new games as needed, until `plies` plies; the figure is
the mean per ply and the overhead is AEC cycle / bare ply - 1 (target: <= 20%). A machine
speed reference is printed first: on a shared machine the absolute figures move with the
load, the ratios much less.
- Hanabi observation: `ObservationEncoder.encode` of seat 0 over 200 positions of random
  games (target: <= 20 us), and the action mask of the seat to act (numbering its listed moves).
Every figure is CPU time of this process (`time.process_time`: waiting for a core on a shared
machine does not count), the best of `--repeats` runs.
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

import numpy as np

from dsl.loader import load_ruleset
from ludex import rl
from runtime import Game

CASES = [("hanabi", 2), ("hanabi", 4), ("battle_line", 2), ("balloon_cup", 2), ("weather_machine", 2)]


def bare(rs, seats: int, plies: int, seed: int) -> float:
    rng = random.Random(seed)
    done, spent, k = 0, 0.0, 0
    while done < plies:
        g = Game.new(rs, seats, seed=seed + k)
        k += 1
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


def aec(rs, seats: int, plies: int, seed: int) -> tuple[float, float, float]:
    """Per ply: the whole cycle, `last()` (observation and mask) alone, `step()` alone."""
    rng = random.Random(seed)
    env = rl.aec_env(rs, seats=seats)
    done, spent, in_last, in_step, k = 0, 0.0, 0.0, 0.0, 0
    clock = time.process_time
    while done < plies:
        env.reset(seed=seed + k)
        k += 1
        t = clock()
        for _agent in env.agent_iter():
            t0 = clock()
            obs, _r, term, trunc, _i = env.last()
            t1 = clock()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            a = int(legal[rng.randrange(len(legal))])
            t2 = clock()
            env.step(a)
            in_step += clock() - t2
            in_last += t1 - t0
            done += 1
            if done >= plies:
                break
        spent += clock() - t
    return spent / done, in_last / done, in_step / done


def encoding(plies: int, seed: int) -> tuple[float, float]:
    from ludex.rl.aec import action_mask
    from ludex.rl.spec import Spec

    spec = Spec("hanabi", 2)
    rng = random.Random(seed)
    positions = []
    g = spec.new_game(seed=seed)
    while len(positions) < 200:
        if g.terminal:
            g = spec.new_game(seed=rng.getrandbits(32))
        positions.append(g.clone())
        moves = g.legal_moves(g.st.actor)
        g.apply(g.st.actor, moves[rng.randrange(len(moves))])
    out = np.zeros(spec.encoder.size, np.float32)
    for p in positions:
        p.legal_moves(p.st.actor)  # the listing a step leaves behind: the mask numbers it, as in an episode

    def encode_all() -> None:
        for p in positions:
            spec.encoder.encode(p, 0, out)

    def mask_all() -> None:
        for p in positions:
            spec.table._listing = None  # number each position's moves afresh
            action_mask(spec, p, p.st.actor)

    reps = max(1, plies // len(positions))
    enc = min(timeit.repeat(encode_all, timer=time.process_time, number=reps, repeat=5)) / (reps * len(positions))
    mask = min(timeit.repeat(mask_all, timer=time.process_time, number=reps, repeat=5)) / (reps * len(positions))
    return enc, mask


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    ref = min(timeit.repeat("sum(range(1000))", timer=time.process_time, number=2000, repeat=5)) / 2000
    print(f"machine speed reference: sum(range(1000)) = {ref * 1e6:.1f} us (the load of a shared machine shows here)")
    print(f"{'ruleset':<18}{'seats':>6}{'bare ply us':>13}{'AEC cycle us':>14}{'overhead':>10}{'last() us':>11}{'step() us':>11}")
    for name, seats in CASES:
        rs = load_ruleset(name)
        bare(rs, seats, 200, a.seed)  # warm: compiled code, templates
        aec(rs, seats, 200, a.seed)
        # the best of `repeats` alternating runs of each: the load of a shared machine only adds
        runs_b, runs_e = [], []
        for _ in range(a.repeats):
            runs_b.append(bare(rs, seats, a.plies, a.seed))
            runs_e.append(aec(rs, seats, a.plies, a.seed))
        b = min(runs_b)
        e, last, step = min(runs_e)
        print(f"{name:<18}{seats:>6}{b * 1e6:>13.1f}{e * 1e6:>14.1f}{e / b - 1:>10.0%}{last * 1e6:>11.1f}{step * 1e6:>11.1f}")
    enc, mask = encoding(20_000, a.seed)
    print(f"hanabi (2 seats) observation encoding: {enc * 1e6:.1f} us; action mask: {mask * 1e6:.1f} us")


if __name__ == "__main__":
    main()
