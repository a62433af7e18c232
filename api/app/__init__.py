"""The one application service behind every face (HTTP, gRPC, CLI).

`GameService` holds the game flow; `log` holds the log format, replay and audit; `errors`
the typed errors faces translate to their status codes.
"""

from api.app.errors import (
    Conflict,
    Forbidden,
    IllegalMoveError,
    InvalidRequest,
    NotFound,
    RulesFailed,
    ServiceError,
    TooLarge,
    Unauthenticated,
)
from api.app.log import AuditReport, LogError, audit_log, replay_view
from api.app.rules import Rules
from api.app.service import GameService

__all__ = [
    "AuditReport",
    "Conflict",
    "Forbidden",
    "GameService",
    "IllegalMoveError",
    "InvalidRequest",
    "LogError",
    "NotFound",
    "Rules",
    "RulesFailed",
    "ServiceError",
    "TooLarge",
    "Unauthenticated",
    "audit_log",
    "replay_view",
]
