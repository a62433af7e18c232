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


def aec_parts(rs, seats: int, plies: int, seed: int) -> tuple[float, float]:
    """Per ply: `last()` alone and `step()` alone (each between two clock reads)."""
    rng = random.Random(seed)
    env = rl.aec_env(rs, seats=seats)
    done, in_last, in_step, k = 0, 0.0, 0.0, 0
    clock = time.process_time
    while done < plies:
        env.reset(seed=seed + k)
        k += 1
        for _agent in env.agent_iter():
            t0 = clock()
            obs, _r, term, trunc, _i = env.last()
            t1 = clock()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].view(bool).nonzero()[0]  # numpy finds bools 20x faster than int8s
            a = int(legal[rng.randrange(len(legal))])
            t2 = clock()
            env.step(a)
            in_step += clock() - t2
            in_last += t1 - t0
            done += 1
            if done >= plies:
                break
    return in_last / done, in_step / done


def positions_of(spec, count: int, seed: int) -> list:
    """`count` positions of random games of `spec` (clones, each with its legal moves listed)."""
    rng = random.Random(seed)
    positions = []
    g = spec.new_game(seed=seed)
    while len(positions) < count:
        if g.terminal or g.decision().stuck:
            g = spec.new_game(seed=rng.getrandbits(32))
            continue
        positions.append(g.clone())
        moves = g.legal_moves(g.st.actor)
        g.apply(g.st.actor, moves[rng.randrange(len(moves))])
    for p in positions:
        p.legal_moves(p.st.actor)  # the listing a step leaves behind: the mask numbers it, as in an episode
    return positions


def encode_times(rs, seats: int, plies: int, seed: int) -> tuple[float, float]:
    """Per observation of the seat to act: encoding a position afresh (`encode_fresh`, 200
    positions of random games), and `encode` in play (the same game ply after ply, as an
    environment asks: the kept vector brought up to date), the latter as the difference
    between random games with and without it."""
    from ludex.rl.spec import Spec

    spec = Spec(rs, seats)
    positions = positions_of(spec, 200, seed)
    out = np.zeros(spec.encoder.size, np.float32)

    def fresh_all() -> None:
        for p in positions:
            spec.encoder.encode_fresh(p, p.st.actor, out)

    reps = max(1, plies // len(positions))
    fresh = min(timeit.repeat(fresh_all, timer=time.process_time, number=reps, repeat=5)) / (reps * len(positions))

    def play(observe: bool) -> float:
        rng = random.Random(seed)
        enc = spec.encoder.encode
        done, k, t = 0, 0, time.process_time()
        while done < plies:
            g = spec.new_game(seed=seed + k)
            k += 1
            while not g.terminal and done < plies:
                s = g.st.actor
                moves = g.legal_moves(s)
                if not moves:
                    break
                if observe:
                    enc(g, s)
                g.apply(s, moves[rng.randrange(len(moves))])
                done += 1
        return time.process_time() - t

    with_obs = min(play(True) for _ in range(5))
    without = min(play(False) for _ in range(5))
    return fresh, max(0.0, with_obs - without) / plies


def mask_time(plies: int, seed: int) -> float:
    """The action mask of the seat to act in Hanabi (2 seats), its listed moves numbered afresh."""
    from ludex.rl.aec import action_mask
    from ludex.rl.spec import Spec

    spec = Spec("hanabi", 2)
    positions = positions_of(spec, 200, seed)

    def mask_all() -> None:
        for p in positions:
            spec.table._listing = None  # number each position's moves afresh
            action_mask(spec, p, p.st.actor)

    reps = max(1, plies // len(positions))
    return min(timeit.repeat(mask_all, timer=time.process_time, number=reps, repeat=5)) / (reps * len(positions))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", default="", help="measure this ruleset only")
    a = ap.parse_args()
    ref = min(timeit.repeat("sum(range(1000))", timer=time.process_time, number=2000, repeat=5)) / 2000
    print(f"machine speed reference: sum(range(1000)) = {ref * 1e6:.1f} us (the load of a shared machine shows here)")
    print(f"{'ruleset':<18}{'seats':>6}{'bare ply us':>13}{'AEC cycle us':>14}{'overhead':>10}{'last() us':>11}{'step() us':>11}"
          f"{'encode us':>12}{'in play us':>12}")
    for name, seats in CASES:
        if a.only and name != a.only:
            continue
        rs = load_ruleset(name)
        bare(rs, seats, 200, a.seed)  # warm: compiled code, templates
        aec(rs, seats, 200, a.seed)
        # the best of `repeats` alternating runs of each: the load of a shared machine only adds
        runs_b, runs_e = [], []
        for _ in range(a.repeats):
            runs_b.append(bare(rs, seats, a.plies, a.seed))
            runs_e.append(aec(rs, seats, a.plies, a.seed))
        b, e = min(runs_b), min(runs_e)
        last, step = min(aec_parts(rs, seats, a.plies, a.seed) for _ in range(a.repeats))
        fresh, kept = encode_times(rs, seats, a.plies, a.seed)
        print(f"{name:<18}{seats:>6}{b * 1e6:>13.1f}{e * 1e6:>14.1f}{e / b - 1:>10.0%}{last * 1e6:>11.1f}{step * 1e6:>11.1f}"
              f"{fresh * 1e6:>12.1f}{kept * 1e6:>12.1f}")
    print(f"hanabi (2 seats) action mask: {mask_time(20_000, a.seed) * 1e6:.1f} us")


if __name__ == "__main__":
    main()
