"""The interpreter: runs a compiled `dsl.ir.Ruleset` as a state machine of events."""

from runtime.budget import DEFAULT_BUDGET, BudgetExceeded
from runtime.chance import ImpossibleOutcome, OutcomeNeeded
from runtime.errors import RuleError
from runtime.events import Event, event_from_dict, event_to_dict
from runtime.game import BadOption, Decision, Game, IllegalMove, Listing, LogMismatch, Move, NotYourTurn
from runtime.replay import ReplayStep, named_in_log, step_after

__all__ = [
    "DEFAULT_BUDGET", "BadOption", "BudgetExceeded",
    "Decision", "Event", "Game", "IllegalMove", "ImpossibleOutcome", "Listing", "LogMismatch", "Move", "NotYourTurn", "OutcomeNeeded", "RuleError",
    "ReplayStep", "event_from_dict", "event_to_dict", "named_in_log", "step_after",
]
