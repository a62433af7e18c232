"""What every learning environment of a ruleset shares: the compiled rules at given seats and
options, the action numbering, the observation encoder and the rewards."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from dsl.ir import Ruleset
from dsl.loader import load_ruleset
from ludex.rl.actions import DEFAULT_ORDINAL_CAP, ActionTable
from ludex.rl.observations import ObservationEncoder
from runtime import Game
from search.bots import rules_score


class Spec:
    """A ruleset (a bundled name or a path, with `variants` applied in order) at `seats`
    human seats and `options`: `table` numbers its actions, `encoder` its observations.
    `seats` defaults to the fewest the rules allow. Raises the loader's RulesetError for
    rules text with errors, ValueError for seats or options the rules refuse."""

    def __init__(self, ruleset: str | Ruleset, seats: int | None = None, variants: tuple[str, ...] | list[str] = (),
                 options: dict[str, Any] | None = None, ordinal_cap: int = DEFAULT_ORDINAL_CAP):
        self.rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(str(ruleset), tuple(variants))
        self.seats = self.rs.seats[0] if seats is None else seats
        self.options = dict(options or {})
        probe = Game.new(self.rs, self.seats, self.options, seed=0)
        self.table = ActionTable(probe, ordinal_cap=ordinal_cap)
        self.encoder = ObservationEncoder(probe)
        self.nseats = probe.st.nseats  # automaton seats included: they have no agent
        # the components in the game's order (OpenSpiel's chance actions number them)
        self.comp_names = [c.name for c in probe.st.comps]
        self.comp_ids = {n: i for i, n in enumerate(self.comp_names)}

    def new_game(self, seed: int | str | None, **kw: Any) -> Game:
        return Game.new(self.rs, self.seats, self.options, seed=seed, **kw)

    @property
    def name(self) -> str:
        """`ludex_<ruleset>`, with `__<variant>` per variant (an OpenSpiel short name)."""
        return "ludex_" + "__".join(_slug(x) for x in (self.rs.name, *self.rs.variants))


def _slug(x: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", Path(x).stem if x.endswith(".ludex") else x)


def outcome_rewards(outcome: dict[str, Any] | None, seats: int) -> list[float]:
    """What a finished game pays each of the first `seats` seats: the team score to every seat
    in a team game; else +1 to each winner and -1 to every other seat, 0 to all in a draw
    (no winner). An unfinished game (None) pays 0."""
    if not outcome:
        return [0.0] * seats
    if outcome.get("kind") == "team":
        team = (outcome.get("scores") or {}).get("team")
        v = float(team) if isinstance(team, (int, float)) and not isinstance(team, bool) else 0.0
        return [v] * seats
    winners = set(outcome.get("winners") or ())
    if not winners or outcome.get("kind") == "draw":
        return [0.0] * seats
    return [1.0 if s in winners else -1.0 for s in range(seats)]


def score_of(game: Game, seat: int) -> float:
    """The rules' own running score of `seat` (`search.bots.rules_score`), 0 when they declare
    none: the shaped reward's potential."""
    score = rules_score(game, seat)
    return 0.0 if score is None else score


def random_positions(spec: Spec, count: int, seed: int) -> list[Game]:
    """`count` positions met in uniformly random play of `spec`'s game (clones, each with a
    seat to act; a game that ends or sticks is replaced by a new one), reproducible under
    `seed`: the positions the conformance tests and `bench/rl_bench.py` encode."""
    rng = random.Random(seed)
    g = spec.new_game(seed=seed)
    out: list[Game] = []
    while len(out) < count:
        if g.terminal or g.decision().stuck:
            g = spec.new_game(seed=rng.getrandbits(32))
            continue
        out.append(g.clone())
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        g.apply(seat, g.pick_at_random(seat, moves[rng.randrange(len(moves))], rng))  # (a pick's offer: a pick)
    return out
