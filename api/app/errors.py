"""Errors of the application service, one class per kind of failure a client can cause.

Every error has a stable machine `code` (e.g. "stale_version"), a human `message` and an
optional `reason` (for an illegal move: the `require` text of the rule that refused it). The
faces translate `kind` to a transport status (HTTP 404/400/401/403/409/422, the matching gRPC
codes) and never invent errors of their own for game rules.
"""

from __future__ import annotations

import enum
from typing import Any


class ErrorCode(str, enum.Enum):
    """Every error `code` a client can receive, over HTTP and gRPC alike (the API's enum).

    A new error code is added here first; tests/service/test_openapi.py checks that every code
    raised in api/ is listed."""

    # 400: input that cannot be used
    malformed_json = "malformed_json"  # the body is not JSON
    bad_seats = "bad_seats"
    bad_options = "bad_options"
    bad_variant = "bad_variant"
    bad_seed = "bad_seed"
    bad_ruleset = "bad_ruleset"  # a bundled ruleset or variant combination does not compile
    bad_move = "bad_move"  # not {"name": str, "args": {...}}
    bad_after = "bad_after"
    bad_at = "bad_at"
    bad_seat = "bad_seat"  # the viewer's seat is not a seat number, 'spectator' or 'all'
    bad_text = "bad_text"  # rule text or file name that is not valid Unicode text
    bad_last_event_id = "bad_last_event_id"
    corrupt_log = "corrupt_log"  # the stored log cannot be folded (an operator's problem)
    # 401
    token_required = "token_required"
    bad_token = "bad_token"
    bad_ticket = "bad_ticket"  # a stream ticket that is malformed, forged or another game's
    ticket_expired = "ticket_expired"
    # 403
    not_your_turn = "not_your_turn"
    wrong_seat = "wrong_seat"
    log_not_public = "log_not_public"
    seat_hidden = "seat_hidden"  # the viewer asked for another seat's view while the game runs
    # 404
    game_not_found = "game_not_found"
    ruleset_not_found = "ruleset_not_found"
    not_found = "not_found"  # no such path
    # 405
    method_not_allowed = "method_not_allowed"
    # 409
    stale_version = "stale_version"
    game_over = "game_over"
    # 413
    body_too_large = "body_too_large"
    text_too_large = "text_too_large"  # rule text to check over its limit
    # 422
    illegal_move = "illegal_move"
    invalid_request = "invalid_request"  # the request does not match the API schema
    # any other status
    http_error = "http_error"
    internal = "internal"


class ServiceError(Exception):
    """Base class. `kind` is one of: not_found, invalid, unauthenticated, forbidden, conflict,
    unprocessable, too_large."""

    kind = "invalid"

    def __init__(self, code: str, message: str, reason: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        """The typed error body: `{"code", "message", "reason", ...details}`."""
        body: dict[str, Any] = {"code": self.code, "message": self.message, "reason": self.reason}
        body.update(self.details)
        return body


class NotFound(ServiceError):
    """Unknown game or ruleset (codes `game_not_found`, `ruleset_not_found`)."""

    kind = "not_found"


class InvalidRequest(ServiceError):
    """Well-formed but unacceptable input: seat count, options, variants, `after`/`at` bounds."""

    kind = "invalid"


class Unauthenticated(ServiceError):
    """Missing token where one is needed (`token_required`) or a token matching no seat
    (`bad_token`)."""

    kind = "unauthenticated"


class Forbidden(ServiceError):
    """The token's seat may not do this: `not_your_turn`, `wrong_seat`, `log_not_public`."""

    kind = "forbidden"


class Conflict(ServiceError):
    """The game moved on: `stale_version` (carries `current_version`) or `game_over`."""

    kind = "conflict"


class RulesFailed(ServiceError):
    """The rules themselves failed while running (a designer's defect, not the caller's):
    `budget_exceeded` when setup, a move, a trigger cascade or a legal-moves listing ran out
    of its execution budget, `rule_error` for another runtime failure; `rule` and `source`
    (file:line) say where. The game is unchanged and the service keeps serving."""

    kind = "unprocessable"


class IllegalMoveError(ServiceError):
    """The rules refuse the move (`illegal_move`); `reason` is the failed `require`, with the
    rule name and its source location as details."""

    kind = "unprocessable"


class TooLarge(ServiceError):
    """Input over a size limit the service sets (`text_too_large` for rule text to check)."""

    kind = "too_large"
