"""The options that `ludex simulate` and `ludex compare` share: how many games, which bots,
and where they run (this machine's cores, or Ray), with their checks."""

from __future__ import annotations

from typing import Any, Optional

import typer

from dsl.diagnostics import names_hint
from ludex.cli import _Command, fail

GamesOpt = typer.Option(100, "--games", "-n", min=1, help="number of games to play")
SeedOpt = typer.Option(0, "--seed", help="seed of the whole run: game i is seeded from (seed, i), so the same seed plays the same games")
MaxPliesOpt = typer.Option(5000, "--max-plies", min=1, help="cut a game after this many moves")
BotOpt = typer.Option(
    "random", "--bot", help="the policy of every seat: random, greedy (one-ply lookahead), mcts (UCT), "
    "ismcts (information-set MCTS), policy (the ruleset's first policy) or policy:NAME"
)
SecondsOpt = typer.Option(0.2, "--seconds", min=0.001, help="mcts, ismcts: thinking time per move, in seconds")
RolloutOpt = typer.Option(None, "--rollout", help="ismcts: play the playouts with the ruleset's policy NAME")
IterationsOpt = typer.Option(
    None, "--iterations", min=1,
    help="mcts: exactly this many iterations per move instead of --seconds (the same seed plays the same games)",
)
WorkersOpt = typer.Option(
    None, "--workers", "-j", min=1, help="processes to play on (default: every core of this machine); the results do not depend on it"
)
RayOpt: Optional[str] = typer.Option(
    None, "--ray", metavar="[ADDRESS]",
    help="play on Ray (pip install 'ludex\\[ray]'): --ray alone (or --ray local) starts a local Ray, --ray auto joins "
         "the cluster this machine belongs to (after `ray start`), or give a cluster's address; same results as a local run",
)


class RayCommand(_Command):
    """A command whose `--ray` may be given without a value, meaning `local` (Typer declares no
    option with an optional value): `--ray` last or before another option gets `local`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        args = list(args)
        for k, a in enumerate(args):
            if a == "--":
                break
            if a == "--ray" and (k + 1 == len(args) or args[k + 1].startswith("-")):
                args.insert(k + 1, "local")
        return super().parse_args(ctx, args)


def check_bot(bot: str, rs: Any = None, rollout: str | None = None) -> None:
    """Stop the command for a bot name that `search.bots` does not know, or (given the rules
    `rs`) a policy the bot or `rollout` names that the rules do not declare."""
    from search.bots import BOTS

    named = "policy" in BOTS and bot.startswith("policy:")  # a ruleset's own policy, by name
    if bot not in BOTS and not named:
        fail(f"there is no bot {bot!r}", names_hint(bot, list(BOTS) + (["policy:NAME"] if "policy" in BOTS else []), "bots"))
    if rs is None:
        return
    for wanted in ([bot.partition(":")[2] or None] if bot.startswith("policy") else []) + ([rollout] if rollout else []):
        try:
            rs.policy(wanted)
        except ValueError as exc:
            fail(str(exc), "declare one: `policy NAME { MOVE when COND ... }` (docs/language.md, Policies)")


def worker_count(workers: int | None, ray: str | None) -> int:
    """`--workers`, or every core; with `--ray` the cluster decides (1 is reported)."""
    from ludex.simulation.local import cores

    if ray is not None:
        if workers is not None:
            fail("--workers and --ray both say where to play", "give one of them: Ray uses every CPU of its cluster")
        return 1
    return workers or cores()
