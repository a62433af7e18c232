"""The rule language: parse rule text (grammars/ludex.lark), check it, merge variants, and
compile it to the immutable IR that `runtime` runs."""

from dsl.ast import OptionDecl
from dsl.diagnostics import Diagnostic, RulesetError, UnknownRuleset
from dsl.ir import Ruleset
from dsl.loader import BundledInfo, bundled_rulesets, check, check_text, load_from_sources, load_ruleset
from dsl.parser import parse_expr

__all__ = [
    "BundledInfo", "Diagnostic", "OptionDecl", "Ruleset", "RulesetError", "UnknownRuleset", "bundled_rulesets", "check", "check_text",
    "load_from_sources", "load_ruleset", "parse_expr",
]
