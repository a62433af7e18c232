"""Request and response shapes of the HTTP API, as they appear in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CheckRulesetIn(_Strict):
    """Ruleset text to check."""

    text: str = Field(description="The ruleset source text.")
    filename: str = Field("<text>", description="Name used in diagnostics.")


class CreateGameIn(_Strict):
    """A new game of a ruleset listed by GET /rulesets."""

    ruleset: str = Field(description="A `name` from GET /rulesets.")
    variants: list[str] = Field(default_factory=list, description="Variant names from GET /rulesets.")
    options: dict[str, Any] = Field(default_factory=dict, description="Option values by name.")
    seats: StrictInt | None = Field(None, description="Number of seats (default: the ruleset's minimum).")
    seed: str | None = Field(
        None,
        description="Fix the game's randomness (testing): 1 to 256 characters, no control characters "
        "(checked by the service, 400 bad_seed). By default a secret seed is drawn.",
        json_schema_extra={"minLength": 1, "maxLength": 256, "pattern": "^[^\\x00-\\x1f\\x7f]*$"},
    )


class MoveIn(_Strict):
    """A move as listed by GET /games/{id}/legal-moves."""

    name: str = Field(json_schema_extra={"minLength": 1})
    args: dict[str, Any] = Field(
        default_factory=dict, description="Argument values (JSON) exactly as listed by legal-moves."
    )


class SubmitMoveIn(_Strict):
    """A move for the token's seat, valid only while the game is at `expected_version`.

    Copy one entry of GET /games/{id}/legal-moves into `move`, and its `version` into
    `expected_version`.
    """

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"move": {"name": "play", "args": {"card": "red-3"}}, "expected_version": 12}]},
    )

    move: MoveIn
    expected_version: StrictInt = Field(description="The `version` of the view the move was chosen from.")
    seat: StrictInt | None = Field(None, description="Optional: the seat you believe you play (checked).")


class RulesetOut(BaseModel):
    name: str
    variants: list[str]
    seats: dict[str, int] | None = Field(description="{min, max}; null when the ruleset fails its check.")
    options: list[dict[str, Any]]
    content_hash: str | None = Field(description="Hash of the compiled base rules; null when they fail their check.")
    origin: str = Field(description='"bundled", or the designer\'s folder or file it is read from.')
    ok: bool = Field(description="False when the rules fail their check: such a ruleset cannot start games.")
    diagnostics: list[dict[str, Any]] = Field(description="Why the check failed (file, line, column, message, hint).")


class CheckRulesetOut(BaseModel):
    ok: bool
    diagnostics: list[dict[str, Any]]


class CreatedGameOut(BaseModel):
    game_id: str
    version: int
    seats: int
    tokens: list[str] = Field(description="tokens[i] is seat i's secret; send it as `Authorization: Bearer`.")


class ViewOut(BaseModel):
    game_id: str
    version: int
    seat: int | None
    view: dict[str, Any]
    decision: dict[str, Any]
    terminal: bool
    outcome: dict[str, Any] | None


class LegalMovesOut(BaseModel):
    game_id: str
    version: int
    seat: int
    moves: list[dict[str, Any]]


class ReceiptOut(BaseModel):
    """A signed receipt (api/app/receipts.py): `head` is the hash of record `version`, or while
    the game runs its seal (HMAC keyed by the secret seed), so it reveals no hidden card."""

    receipt: str = Field(description="ludex-receipt/1")
    game_id: str
    version: int
    head: str
    sealed: bool
    key_id: str = Field(description="Hex SHA-256 of the signing key's raw public key.")
    signature: str = Field(description="Base64 Ed25519 signature of the RFC 8785 JSON of the other fields.")


class MoveOut(BaseModel):
    game_id: str
    version: int
    events: list[dict[str, Any]]
    decision: dict[str, Any] = Field(description="Who acts next: {step, seats, terminal}.")
    terminal: bool
    outcome: dict[str, Any] | None
    receipt: ReceiptOut = Field(description="The service's signed receipt of the game's head after this move: keep it.")


class PublicKeyOut(BaseModel):
    key_id: str
    algorithm: str
    public_key: str = Field(description="Base64 of the 32 raw bytes of the Ed25519 public key.")
    created_at: str
    current: bool


class PublicKeysOut(BaseModel):
    keys: list[PublicKeyOut]


class EventsOut(BaseModel):
    game_id: str
    version: int
    finished: bool
    events: list[dict[str, Any]]


class ReplayOut(BaseModel):
    at: int
    state_after: int = Field(description="The version the view reflects (a move and the chance events it causes form one step).")
    seat: int | None
    view: dict[str, Any]
    terminal: bool
    outcome: dict[str, Any] | None


class AuditOut(BaseModel):
    ok: bool
    game_id: str | None
    events: int
    passed: list[str]
    skipped: list[str]
    failure: dict[str, Any] | None
    outcome: dict[str, Any] | None
    verified: bool = Field(description="A finished game with every check passed, none skipped.")
    finished: bool
    checks: list[dict[str, Any]] = Field(description="[{name, status: passed|failed|skipped, detail, version}]")


class ErrorBody(BaseModel):
    code: str = Field(description="Stable machine code, e.g. stale_version, illegal_move, bad_token.")
    message: str
    reason: str | None = Field(None, description="For illegal moves: the rule's `require` text.")

    model_config = ConfigDict(extra="allow")


class ErrorOut(BaseModel):
    error: ErrorBody
