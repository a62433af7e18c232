"""Bots benchmark (issue 25): the table of targets, measured.

- Hanabi, 2 seats: the policy's mean team score; `ismcts --seconds S` with no policy, its mean team
  score (fewer games: it thinks S seconds a move).
- Each competitive game (Balloon Cup, Battle Line, Weather Machine when it ships a policy): the
  share of games `ismcts`, `greedy` and the policy win against `random`, seats rotated
  (`search.tournament`; a game cut at 1000 plies is not a win), and the mean final score of the
  bot's seats (for Weather Machine its CP).
- The budget: the mean, p10 and p90 of ismcts's seconds per decision (decisions with more than one
  legal move), as a ratio of `--seconds`.

Every figure is the median of `--runs` runs (different seeds), each run's value printed too.

    .venv/bin/python bench/bots_bench.py [--games 200] [--greedy-games 200] [--ismcts-games 20] [--seconds 0.1] [--runs 3] [--only hanabi] [--bots greedy,policy,ismcts]

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


def team_scores(bot: str, games: int, seed: int, seconds: float) -> tuple[list[float], list[float]]:
    """Team scores of `games` two-seat Hanabi games with `bot` at both seats; its decision times."""
    rs = load_ruleset("hanabi")
    scores, times = [], []
    for i in range(games):
        player = make_bot(bot, random.Random(f"{seed}:{i}"), seconds=seconds)
        g = Game.new(rs, 2, {}, seed=f"{seed}:{i}")
        while not g.terminal:
            seat = g.decision().seats[0]
            moves = g.legal_moves(seat)
            t0 = time.perf_counter()
            move = player.choose(g, seat, moves)
            if len(moves) > 1:
                times.append(time.perf_counter() - t0)
            g.apply(seat, move)
        scores.append(g.outcome["scores"]["team"])
    return scores, times


def against_random(ruleset: str, bot: str, games: int, seed: int, seconds: float) -> dict[str, Any]:
    """`bot` against `random`, `games` games with the seats rotated: its wins, its mean score, its
    decision times."""
    results = [play_game(c) for c in schedule(ruleset, [bot, "random"], games, seed, seconds=seconds, max_plies=1000)]
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
            "seconds_per_decision": secs / n if n else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--ismcts-games", type=int, default=20)
    ap.add_argument("--greedy-games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=0.1)
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
        runs, ratios = [], []
        for r in range(args.runs):
            scores, times = team_scores("ismcts", args.ismcts_games, r, args.seconds)
            runs.append(statistics.mean(scores))
            ratios.append(statistics.mean(times) / args.seconds)
        median_of(f"hanabi 2 seats, ismcts --seconds {args.seconds} (no policy), mean team score, {args.ismcts_games} games", runs)
        median_of("hanabi ismcts, mean seconds per decision / budget", ratios)
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
            got = [against_random(game, bot, games, r, args.seconds) for r in range(args.runs)]
            median_of(f"{game} {bot} vs random, share of games won, {games} games", [g["rate"] for g in got])
            if got[0]["mean_score"] is not None:
                median_of(f"{game} {bot}, mean score of its seats", [g["mean_score"] for g in got])
            if bot == "ismcts":
                median_of(f"{game} ismcts, mean seconds per decision / budget",
                          [g["seconds_per_decision"] / args.seconds for g in got])


if __name__ == "__main__":
    main()
