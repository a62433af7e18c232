"""The runner of rule-text policies (`policy NAME { ... }`, docs/language.md "Policies").

A policy is a priority list: the first rule with a legal move of its name whose `when` holds
picks the first such move in listing order, or the one with the largest `by` (the first of
equals). When no rule applies, the first legal move is played, as an automaton plays. The
conditions are ruleset functions the IR compiled (`PolicyRule.when_fn`, `by_fn`), evaluated
on the game's state with the move's bound parameters; the checker has made sure they read only
what the seat to act sees, so the same policy runs in a determinised world for a search.
"""

from __future__ import annotations

import random
from typing import Any

from runtime.builtins_search import ruleset_fn


class PolicyBot:
    """Plays the ruleset's policy `name` (its first policy when None).

    Raises ValueError at the first choice when the ruleset has no such policy."""

    def __init__(self, rng: random.Random | None = None, name: str | None = None) -> None:
        self.rng = rng
        self.name = name

    def choose(self, game: Any, seat: int, moves: list[Any]) -> Any:
        return choose(game, moves, self.name)


def choose(game: Any, moves: list[Any], name: str | None = None) -> Any:
    """The move of `moves` (the legal moves of the seat to act in `game`) that policy `name` picks."""
    policy = game.ruleset.policy(name)
    st = game.st
    for rule in policy.rules:
        cands = [m for m in moves if m.name == rule.move]
        if not cands:
            continue
        if rule.when_fn:
            when = ruleset_fn(st, rule.when_fn)
            cands = [m for m in cands if when(*m.binding)]
            if not cands:
                continue
        if rule.by_fn:
            key = ruleset_fn(st, rule.by_fn)
            best, best_value = cands[0], key(*cands[0].binding)
            for m in cands[1:]:
                v = key(*m.binding)
                if v > best_value:
                    best, best_value = m, v
            return best
        return cands[0]
    return moves[0]
