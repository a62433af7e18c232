"""Execution budgets: every unit of rule execution runs under a step count.

A designer's rules may loop forever (`while true`), recurse without end or keep firing
triggers. Setup, a move, each trigger cascade and a legal-moves listing each get a fresh
budget of steps (`Game.new(..., budget=N)`, default `DEFAULT_BUDGET`); a step is one
iteration of a `for` or `while` statement, one call of a ruleset `proc` or recursive `fn`, or
one trigger firing. Running out raises `BudgetExceeded`, naming the rule that was running and
where the loop or call is; `Game` leaves its state as it was before the move.
"""

from __future__ import annotations

from typing import Any

DEFAULT_BUDGET = 1_000_000


class BudgetExceeded(Exception):
    """A rule ran out of its execution budget.

    `budget` is the step count allowed; `span` the loop or call that took the last step
    (`file:line:column`, or None when Python's own recursion limit was reached first); `rule`
    the rule that was running (`setup`, `move NAME`, `trigger NAME`, `legal moves`) and
    `source` that rule's `file:line`, both filled in by `Game`.
    """

    def __init__(self, budget: int, span: Any, rule: str = "", source: str = "") -> None:
        self.budget = budget
        self.span = span
        self.rule = rule
        self.source = source
        super().__init__(self.message)

    @property
    def message(self) -> str:
        rule = f"{self.rule} ({self.source})" if self.source else (self.rule or "a rule")
        if self.span is None:
            return f"{rule} recursed deeper than the interpreter allows: a call that never stops calling itself?"
        return (
            f"{rule} ran out of its budget of {self.budget} steps at {self.span}: "
            "a loop or recursion that never ends?"
        )

    def __str__(self) -> str:
        return self.message
