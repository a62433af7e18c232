"""OpenSpiel's CFR and ISMCTS on a Ludex ruleset (`ludex.rl.openspiel_game`), with figures.

    python -m ludex.rl.examples.openspiel_kuhn                  # Kuhn poker (kuhn_poker.ludex)
    python -m ludex.rl.examples.openspiel_kuhn --cfr 200 --games 400 --simulations 100

- CFR (Zinkevich et al., 2007; `open_spiel.python.algorithms.cfr`): the NashConv of the
  average policy after 1, 10, 100... iterations (0 at an equilibrium). Ludex scores a win,
  not chips, so the equilibrium is that of win/loss Kuhn poker.
- ISMCTS (Cowling et al., 2012; `open_spiel.python.algorithms.ismcts`, random rollouts,
  `simulations` per move) plays `games` games against uniform random play, half in each seat:
  its mean return (+1 a win, -1 a loss), next to random against random over the same deals.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

import numpy as np

from ludex import rl
from ludex.rl.examples.q_learning import KUHN


def cfr_nash_conv(game: Any, iterations: int) -> dict[int, float]:
    """NashConv of CFR's average policy after 1, 10, 100... and `iterations` iterations."""
    from open_spiel.python.algorithms import cfr, exploitability

    solver = cfr.CFRSolver(game)
    out = {}
    marks = {n for n in (1, 10, 100, 1000, 10_000) if n <= iterations} | {iterations}
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in marks:
            out[i] = exploitability.nash_conv(game, solver.average_policy())
    return out


def play(game: Any, bots: list[Any], rng: np.random.RandomState) -> list[float]:
    """One game: chance by its probabilities, each player by its bot (None: uniform random)."""
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        bot = bots[s.current_player()]
        s.apply_action(bot.step(s) if bot is not None else int(rng.choice(s.legal_actions())))
    return s.returns()


def ismcts_against_random(game: Any, games: int, simulations: int, seed: int) -> dict[str, float]:
    """ISMCTS's mean return against random play over `games` games (seats alternating), and
    random play's over the same deals (the same chance seeds)."""
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=np.random.RandomState(seed + 1))
    searched, baseline = [], []
    for k in range(games):
        seat = k % 2
        bots: list[Any] = [None, None]
        bots[seat] = bot
        searched.append(play(game, bots, np.random.RandomState(seed + 100 + k))[seat])
        baseline.append(play(game, [None, None], np.random.RandomState(seed + 100 + k))[seat])
    se = (statistics.pvariance(searched) / games + statistics.pvariance(baseline) / games) ** 0.5
    return {"ismcts": statistics.fmean(searched), "random": statistics.fmean(baseline),
            "margin": statistics.fmean(searched) - statistics.fmean(baseline), "stderr": se}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default=KUHN)
    p.add_argument("--cfr", type=int, default=200, help="CFR iterations")
    p.add_argument("--games", type=int, default=400, help="ISMCTS games against random play")
    p.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per move")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    game = rl.openspiel_game(a.ruleset, seats=2)
    for i, v in cfr_nash_conv(game, a.cfr).items():
        print(f"CFR: NashConv {v:.4f} after {i} iteration{'s' if i > 1 else ''}")
    r = ismcts_against_random(game, a.games, a.simulations, a.seed)
    print(f"ISMCTS ({a.simulations} simulations a move) against random: {r['ismcts']:+.3f} a game; random against "
          f"random {r['random']:+.3f}; margin {r['margin']:+.3f} (± {r['stderr']:.3f} s.e.) over {a.games} games")


if __name__ == "__main__":
    main()
