"""Bots benchmark (issue 25): the table of targets, measured.

- Hanabi, 2 seats: the policy's mean team score; `ismcts --seconds S` with no policy, its mean team
  score (fewer games: it thinks S seconds a move).
- Each competitive game (Balloon Cup, Battle Line, Weather Machine when it ships a policy): the
  share of games `ismcts`, `greedy` and the policy win against `random`, seats rotated
  (`search.tournament`; a game cut at 1000 plies is not a win), and the mean final score of the
  bot's seats (for Weather Machine its CP).
- ISMCTS in the competitive games thinks `--iterations N` iterations a decision when given (the
  issue sets no time budget for them; an iteration budget plays the same games on a loaded
  machine as on a quiet one), else `--seconds`.
- The budget (every ismcts run on a time budget): the seconds of each decision with more than
  one legal move as a ratio of `--seconds`: median, p10 and p90, and the share within +-10%;
  and each overrun in iterations: (seconds - budget) / (the decision's seconds per iteration),
  median and p90 over the decisions that overran (what a loaded machine's scheduler adds,
  counted in the search's own unit).

Every figure is the median of `--runs` runs (different seeds), each run's value printed too.

    .venv/bin/python bench/bots_bench.py [--games 200] [--greedy-games 200] [--ismcts-games 20] [--seconds 0.1] [--iterations N] [--runs 3] [--only hanabi] [--bots greedy,policy,ismcts]

Not part of the test suite. Prints only; no assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from dsl import load_ruleset
from runtime import Game
from search.bots import make_bot
from search.tournament import play_game, schedule


def team_scores(bot: str, games: int, seed: int, seconds: float) -> tuple[list[float], list[list[Any]]]:
    """Team scores of `games` two-seat Hanabi games with `bot` at both seats; its decisions
    `[seconds, iterations]` (as `search.tournament.play_game` records them)."""
    rs = load_ruleset("hanabi")
    scores, decisions = [], []
    for i in range(games):
        player = make_bot(bot, random.Random(f"{seed}:{i}"), seconds=seconds)
        g = Game.new(rs, 2, {}, seed=f"{seed}:{i}")
        while not g.terminal:
            seat = g.decision().seats[0]
            moves = g.legal_moves(seat)
            t0 = time.perf_counter()
            move = player.choose(g, seat, moves)
            if len(moves) > 1:
                decisions.append([time.perf_counter() - t0, getattr(player, "last_iterations", None)])
            g.apply(seat, move)
        scores.append(g.outcome["scores"]["team"])
    return scores, decisions


def budget_figures(decisions: list[list[Any]], seconds: float) -> dict[str, float]:
    """The decisions' seconds against the budget: the ratio's median, p10, p90, the share within
    +-10%, and the overruns in iterations (median and p90 over the decisions that overran)."""
    ratios = sorted(t / seconds for t, _ in decisions)
    cuts = statistics.quantiles(ratios, n=10, method="inclusive")
    over = sorted((t - seconds) / (t / n) for t, n in decisions if t > seconds and n)
    return {"median": statistics.median(ratios), "p10": cuts[0], "p90": cuts[8],
            "within": sum(0.9 <= r <= 1.1 for r in ratios) / len(ratios),
            "over_share": len(over) / len(ratios),
            "over_median": statistics.median(over) if over else 0.0,
            "over_p90": statistics.quantiles(over, n=10, method="inclusive")[8] if len(over) > 1 else (over[0] if over else 0.0),
            "iterations": statistics.median(n for _, n in decisions if n)}


def print_budget(label: str, runs: list[dict[str, float]], seconds: float) -> None:
    """One line per figure of `budget_figures`, the median of the runs and each run's value."""
    for key, what in (("median", "median"), ("p10", "p10"), ("p90", "p90"), ("within", "share within +-10%")):
        vals = [r[key] for r in runs]
        print(f"{label} seconds per decision / budget {seconds} s, {what}: {statistics.median(vals):.3f}"
              f"  (runs: {', '.join(f'{v:.3f}' for v in vals)})", flush=True)
    for key, what in (("over_share", "share of decisions over the budget"), ("over_median", "overrun in iterations, median"),
                      ("over_p90", "overrun in iterations, p90"), ("iterations", "iterations per decision, median")):
        vals = [r[key] for r in runs]
        print(f"{label} {what}: {statistics.median(vals):.2f}  (runs: {', '.join(f'{v:.2f}' for v in vals)})", flush=True)


def against_random(ruleset: str, bot: str, games: int, seed: int, seconds: float, iterations: int | None = None) -> dict[str, Any]:
    """`bot` against `random`, `games` games with the seats rotated: its wins, its mean score, its
    decisions (`[seconds, iterations]`)."""
    results = [play_game(c) for c in schedule(ruleset, [bot, "random"], games, seed, seconds=seconds, iterations=iterations,
                                              max_plies=1000)]
    wins, scores = 0, []
    for r in results:
        o = r["outcome"]
        seats = [s for s, b in enumerate(r["lineup"]) if b == bot]
        if o and o["kind"] != "draw" and set(o.get("winners", [])) & set(seats) and not (
                set(o.get("winners", [])) - set(seats)):
            wins += 1
        if o:
            scores += [o["scores"][str(s)] for s in seats if isinstance((o.get("scores") or {}).get(str(s)), (int, float))]
    think = [r["think"].get(bot, [0.0, 0]) for r in results]
    secs, n = sum(t[0] for t in think), sum(t[1] for t in think)
    return {"rate": wins / len(results), "mean_score": statistics.mean(scores) if scores else None,
            "seconds_per_decision": secs / n if n else None,
            "decisions": [d for r in results for d in r["decisions"].get(bot, [])]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--ismcts-games", type=int, default=20)
    ap.add_argument("--greedy-games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=0.1)
    ap.add_argument("--iterations", type=int, default=None,
                    help="ismcts's iterations per decision in the competitive games (default: --seconds)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="", help="one game: hanabi, balloon_cup, battle_line, weather_machine")
    ap.add_argument("--bots", default="greedy,policy,ismcts", help="the bots to measure")
    args = ap.parse_args()

    def median_of(label: str, values: list[float]) -> None:
        print(f"{label}: median {statistics.median(values):.3f}  (runs: {', '.join(f'{v:.3f}' for v in values)})", flush=True)

    bots = args.bots.split(",")
    if args.only in ("", "hanabi") and "policy" in bots:
        median_of(f"hanabi 2 seats, policy, mean team score, {args.games} games",
                  [statistics.mean(team_scores("policy", args.games, r, args.seconds)[0]) for r in range(args.runs)])
    if args.only in ("", "hanabi") and "ismcts" in bots:
        runs, budgets = [], []
        for r in range(args.runs):
            scores, decisions = team_scores("ismcts", args.ismcts_games, r, args.seconds)
            runs.append(statistics.mean(scores))
            budgets.append(budget_figures(decisions, args.seconds))
        median_of(f"hanabi 2 seats, ismcts --seconds {args.seconds} (no policy), mean team score, {args.ismcts_games} games", runs)
        print_budget("hanabi ismcts", budgets, args.seconds)
    for game in ("balloon_cup", "battle_line", "weather_machine"):
        if args.only not in ("", game):
            continue
        rs = load_ruleset(game)
        for bot, games in (("greedy", args.greedy_games), ("policy", args.games), ("ismcts", args.ismcts_games)):
            if bot not in bots:
                continue
            if bot == "policy" and not rs.policies:
                print(f"{game}: no policy", flush=True)
                continue
            its = args.iterations if bot == "ismcts" else None
            got = [against_random(game, bot, games, r, args.seconds, its) for r in range(args.runs)]
            budget = f", {its} iterations a decision" if its else f", {args.seconds} s a decision" if bot == "ismcts" else ""
            median_of(f"{game} {bot} vs random{budget}, share of games won, {games} games", [g["rate"] for g in got])
            if got[0]["mean_score"] is not None:
                median_of(f"{game} {bot}, mean score of its seats", [g["mean_score"] for g in got])
            if bot == "ismcts" and its is None:
                print_budget(f"{game} ismcts", [budget_figures(g["decisions"], args.seconds) for g in got], args.seconds)
            elif bot == "ismcts":
                median_of(f"{game} ismcts, seconds per decision", [g["seconds_per_decision"] for g in got])


if __name__ == "__main__":
    main()
