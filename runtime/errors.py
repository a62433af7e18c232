"""The error a rule raises while it runs, shared by the code generator (`runtime.codegen`) and
the closure evaluator it is tested against (`runtime.compile`), so that neither imports the
other for it."""

from __future__ import annotations

from dsl import ast as A


class RuleError(Exception):
    """A rule failed while running (e.g. indexing a missing seat); carries the rule's span
    (`dsl.ast.Span`, or None) and prefixes the message with it."""

    def __init__(self, message: str, span: A.Span | None):
        self.span = span
        super().__init__(f"{span}: {message}" if span else message)
