"""Request and response shapes of the HTTP API, as they appear in the OpenAPI document.

The shapes the engine owns are generated from its attrs classes (`from_attrs`): a decision
from `runtime.Decision`, a log event's body from `runtime.Event`, an audit from
`api.app.log.AuditReport`. So the document follows the engine when a field is added.
Where the shape is the ruleset's (component fields, variables, option values, move arguments)
the schema says so and allows any JSON value. Response models accept fields they do not know,
so a client built on them keeps working when the service adds one.
"""

from __future__ import annotations

import json
import typing
from typing import Annotated, Any, Literal, Union

import attrs
from pydantic import BaseModel, ConfigDict, Field, StrictInt, create_model

from api.app.errors import ErrorCode
from api.app.log import AuditFailure, AuditReport, Check
from dsl.shipped import shipped
from runtime.events import Event as RuntimeEvent
from runtime.game import Decision as RuntimeDecision

JSONValue = Any  # any JSON value; the ruleset decides its shape


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Open(BaseModel):
    """A response shape: unknown fields are kept, not refused (forward compatible)."""

    model_config = ConfigDict(extra="allow")


def from_attrs(
    cls: type,
    name: str,
    descriptions: dict[str, str],
    *,
    base: type[BaseModel] = _Open,
    only: tuple[str, ...] | None = None,
    types: dict[str, Any] | None = None,
) -> Any:
    """A pydantic model named `name` (to subclass, with the docstring) with the fields of the attrs class `cls` (all, or those in
    `only`, in `cls`'s order), their types and defaults; `types` overrides a field's type (e.g.
    a nested attrs class by its model). Every field must have a description in `descriptions`
    (KeyError otherwise), so a field added to the engine is documented before it is served."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {}
    for a in attrs.fields(cls):
        if only is not None and a.name not in only:
            continue
        tp = (types or {}).get(a.name, hints[a.name])
        if a.default is attrs.NOTHING:
            field = Field(description=descriptions[a.name])
        elif isinstance(a.default, attrs.Factory):  # type: ignore[arg-type]
            field = Field(default_factory=a.default.factory, description=descriptions[a.name])
        else:
            field = Field(a.default, description=descriptions[a.name])
        fields[a.name] = (tp, field)
    return create_model(name, __base__=base, __module__=__name__, **fields)


# -- moves and decisions (runtime.Move, runtime.Decision) ----------------------------------------

class Move(_Strict):
    """A move as listed by GET /games/{id}/legal-moves (runtime.Move's `name` and `args`).
    Components are named (`red-7`) when the mover can see them, else referenced by slot
    (`hand[0]@2`); entities by name (`tile2`); seats as numbers; enum values as text."""

    name: str = Field(description="The move's name in the ruleset (`move place`).", json_schema_extra={"minLength": 1})
    args: dict[str, JSONValue] = Field(
        default_factory=dict,
        description="Argument values by argument name, exactly as legal-moves lists them (the ruleset's shapes), "
        "each of the JSON type its move declares: `true` is not the number 1 and `1.0` is not an integer "
        "(400 `bad_move`, naming the argument, the type expected and the type sent).")


_DecisionFields: Any = from_attrs(
    RuntimeDecision, "RuntimeDecision",
    {"step": "The turn machine's current step (a `step` of the ruleset).",
     "seats": "Seats that may move now (empty when the game is over).",
     "terminal": "True once the game is over.",
     "stuck": "True when the seat to act has no legal move (a defect in the rules, reported rather than hidden)."},
    types={"seats": list[int]},
)


class Decision(_DecisionFields):
    """Who acts next: the turn machine's step and the seats that may move."""


# -- outcomes (runtime.outcomes) -----------------------------------------------------------------

class Outcome(_Open):
    """How the game ended (`end game` in the ruleset); see runtime.outcomes."""

    kind: Literal["win", "draw", "scores", "rank", "team"] = Field(
        description="win: one winner; draw: nobody wins; scores/rank: seats ranked by a value; team: the seats "
        "win or lose together.")
    winners: list[int] = Field(description="Winning seats (several on a shared win; none on a draw).")
    scores: dict[str, JSONValue] = Field(
        description="Score by seat (seat number as text), or {\"team\": value}; {} when the rule gave none.")
    reason: str = Field(description="The rule's reason text.")
    ranking: list[int] | None = Field(None, description="Ranked outcomes: seats, best first.")
    places: dict[str, int] | None = Field(
        None, description="Ranked outcomes: 1-based place by seat; seats still equal after every tie-breaker share one.")
    tiebreaks: list[dict[str, JSONValue]] | None = Field(
        None, description="Ranked outcomes with tie-breakers: one seat -> value map per tie-breaker, in order.")


class Ending(_Open):
    """Why the game ended (runtime.Game.ending): the rule that ran `end game`, where it stands and
    what it cites, with the outcome's reason, winners and scores, and all of it as a sentence."""

    rule: str = Field(description="The rule that ended the game: `trigger NAME`, `move NAME` or `setup`.")
    rule_source: str = Field(description="That rule's file:line.")
    citation: str = Field(description="The rule's doc string: the rulebook section it implements (\"\" when none).")
    source: str = Field(description="The `end game` statement's file:line.")
    reason: str = Field(description="The outcome's reason text.")
    winners: list[int]
    scores: dict[str, JSONValue]
    text: str = Field(description="All of the above as one sentence (runtime.sentences).")


# -- views (runtime.views) -----------------------------------------------------------------------

class Component(_Open):
    """A component the viewer can see. Besides these, it carries the fields its ruleset declares
    for its kind (e.g. `colour`, `value`)."""

    name: str = Field(description="Unique name (`red-7`, `green#2`).")
    kind: str = Field(description="The component kind declared by the ruleset.")
    marks: list[JSONValue] | None = Field(None, description="Marks put on it (`mark` effects), oldest first.")


class SlotMarks(BaseModel):
    """The public marks on one slot of a zone whose components the viewer cannot see."""

    slot: int = Field(description="0-based position in the zone, top first.")
    marks: list[JSONValue]


class ZoneView(_Open):
    """A zone as the viewer sees it. Visible zones list their components; hidden ones give only
    their count (and `slots` with public marks, for zones hidden from their owner); secret
    zones give nothing (`count` null)."""

    count: int | None = Field(description="Number of components; null when even that is secret.")
    components: list[Component] | None = Field(
        None, description="The components in order, top first; absent when the viewer cannot see them.")
    slots: list[SlotMarks] | None = Field(None, description="Marked slots of a zone hidden from the viewer.")


class Entity(_Open):
    """An entity (a tile, a player board): its ruleset-declared fields and variables besides these."""

    name: str
    alive: bool = Field(description="False once removed from the game.")


class Reveal(BaseModel):
    """A standing reveal: a `reveal` effect showed `zone`'s components to everyone."""

    zone: str
    by: int = Field(description="The seat whose rule revealed it.")
    ply: int
    components: list[str] = Field(description="Component names, top first.")


class GameView(_Open):
    """What one seat (or a spectator) sees of a game: the information set (runtime.views.view)."""

    ruleset: str
    variants: list[str]
    seat: int | None = Field(description="The viewer's seat; null for a spectator.")
    ply: int = Field(description="Number of events so far.")
    step: str = Field(description="The turn machine's current step.")
    actor: int | None = Field(description="The seat to act; null when the game is over.")
    current: int = Field(description="The turn's seat.")
    terminal: bool
    outcome: Outcome | None
    options: dict[str, JSONValue] = Field(description="Option values by name (the ruleset's options).")
    zones: dict[str, ZoneView] = Field(description="Every zone by key (`deck`, `hand[0]`, `tile2.side[1]`).")
    entities: dict[str, Entity] = Field(description="Every entity by name.")
    vars: dict[str, JSONValue] = Field(description="Game variables by name (the ruleset's shapes).")
    revealed: list[Reveal]


# -- log events (runtime.Event, api.app.log) -----------------------------------------------------

_EVENT_FIELDS = {
    "ply": "0-based position in the game's runtime events.",
    "kind": "move (a seat's decision), chance (a chance node's outcome) or show (a reveal).",
    "rule": "The rule that produced it (`move place`, `trigger flight`, `setup`).",
    "source": "File and line of that rule (`RULESET/game.ludex:118`).",
    "seat": "move and show: the acting seat.",
    "move": "move: the move's name.",
    "args": "move: the arguments; a component the viewer could not see is a slot reference (`hand[0]@2`).",
    "refs": "In the complete log only: slot references of component arguments some seat could not see.",
    "hidden_from": "In the complete log only: argument -> seats that could not see it (-1: spectators).",
    "node": "chance: `shuffle` or `draw`.",
    "zone": "chance: the zone shuffled or drawn into; show: the zone revealed.",
    "outcome": "chance: component names (a shuffle's order top first, or what was drawn), [] when hidden "
               "from the viewer; show: the components shown.",
    "seen_by": "chance: seats that see the outcome; null = everyone.",
}

_EventBodyFields: Any = from_attrs(
    RuntimeEvent, "RuntimeEvent",
    _EVENT_FIELDS, types={"args": dict[str, JSONValue], "refs": dict[str, str] | None,
                          "hidden_from": dict[str, list[int]] | None},
)


class _EventBody(_EventBodyFields):
    """A runtime event (runtime.Event), redacted for the viewer while the game runs."""


class MoveEventBody(_EventBody):
    """A seat's move, as the viewer may see it."""

    kind: Literal["move"] = Field(description="move")


class ChanceEventBody(_EventBody):
    """A chance node's outcome; `outcome` is [] and `hidden` the count when the viewer may not see it."""

    kind: Literal["chance"] = Field(description="chance")
    hidden: int | None = Field(None, description="How many components the viewer may not see.")


class ShowEventBody(_EventBody):
    """A `reveal` effect: `zone`'s components, `outcome`, shown to everyone."""

    kind: Literal["show"] = Field(description="show")


class HeaderBody(_Open):
    """The first event of every game: what was played, pinned (api.app.log)."""

    format: str = Field(description="Log format, `ludex-log/1`.")
    game_id: str
    ruleset: str
    variants: list[str]
    options: dict[str, JSONValue]
    seats: int
    content_hash: str = Field(description="SHA-256 of the compiled rules.")
    sources: list[tuple[str, str]] = Field(description="[file, text] of every rule file played.")
    sources_hash: str | None = None
    seed_commitment: str = Field(description="Hex SHA-256 of the secret seed, revealed when the game ends.")
    created_at: str = Field(description="ISO 8601 time.")


class RevealBody(_Open):
    """The last event, once the game is over: the seed (check it against the commitment) and the outcome."""

    seed: str
    outcome: Outcome | None


class _Entry(_Open):
    game_id: str
    version: int = Field(description="1-based position in the log; the game's version after this event.")
    prev_hash: str | None = Field(None, description="Once the game is over: the previous event's hash.")
    hash: str | None = Field(None, description="Once the game is over: this event's hash (the chain).")
    text: str | None = Field(None, description="On the stream (GET /games/{id}/stream) only: the event as a "
                             "sentence, as /events gives it in `texts`; not part of the record (drop it to check the record's hash).")


class HeaderEvent(_Entry):
    kind: Literal["header"]
    body: HeaderBody


class MoveEvent(_Entry):
    kind: Literal["move"]
    body: MoveEventBody


class ChanceEvent(_Entry):
    kind: Literal["chance"]
    body: ChanceEventBody


class ShowEvent(_Entry):
    kind: Literal["show"]
    body: ShowEventBody


class RevealEvent(_Entry):
    kind: Literal["reveal"]
    body: RevealBody


class CommitBody(_Open):
    """A sealed move's commitment (api/app/sealed.py). While the game runs, other seats and
    spectators see only `ply`, `kind` ("sealed"), `seat`, `rule` and `source`; the seat that chose also
    its `commitment`, `move`, `args` and `salt`; the finished log holds `commitment` and `box`."""

    ply: int
    seat: int
    rule: str
    source: str
    kind: Literal["sealed"] | None = None
    commitment: str | None = Field(None, description="Hex SHA-256 of the RFC 8785 JSON of {seat, move, args, salt}.")
    box: str | None = Field(None, description="The sealed move, AES-256-GCM under a key derived from the game's seed (base64).")
    move: str | None = None
    args: dict[str, JSONValue] | None = None
    salt: str | None = None


class OpeningBody(_Open):
    """A sealed move opened at its round's reveal: it hashes to the commitment of event `commit`."""

    commit: int = Field(description="The version of the commitment it opens.")
    seat: int
    move: str
    args: dict[str, JSONValue]
    salt: str


class CommitEvent(_Entry):
    kind: Literal["commit"]
    body: CommitBody


class OpeningEvent(_Entry):
    kind: Literal["opening"]
    body: OpeningBody


LogEvent = Annotated[
    Union[HeaderEvent, MoveEvent, ChanceEvent, ShowEvent, RevealEvent, CommitEvent, OpeningEvent], Field(discriminator="kind")
]


# -- requests ------------------------------------------------------------------------------------

# Examples from a bundled game, kept with the rulesets (the engine names no game); they are
# executed by tests/service/test_openapi.py: the game it creates accepts the move.
_GAME_EXAMPLES: dict[str, Any] = json.loads((shipped("rulesets") / "api_examples.json").read_text("utf-8"))
CREATE_EXAMPLE: dict[str, Any] = _GAME_EXAMPLES["create_game"]
MOVE_EXAMPLE: dict[str, Any] = _GAME_EXAMPLES["submit_move"]


class CheckRulesetIn(_Strict):
    """Ruleset text to check."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"text": 'game tiny "Tiny"\nseats 2\n', "filename": "tiny.ludex"}]})

    text: str = Field(description="The ruleset source text.")
    filename: str = Field("<text>", description="Name used in diagnostics.")


# A variant's name is its file's name without `.ludex` (`variants/NAME.ludex`): never empty, no
# path separator, no control character.
VARIANT_NAME = "^[^/\\\\\\x00-\\x1f\\x7f]+$"


# OpenAPI links from a created game (POST /games, 201) to the operations that follow it: the game
# id into the path, seat 0's token into the Authorization header, so that stateful tools and client
# generators can follow a game (the other seats' tokens are `tokens/1`, ...).
def created_game_links() -> dict[str, Any]:
    """The `links` of POST /games's 201 response, by name (OpenAPI 3.1 Link Objects)."""
    game_id = "$response.body#/game_id"
    seat = {"path.game_id": game_id, "header.Authorization": "Bearer {$response.body#/tokens/0}"}
    public = {"path.game_id": game_id}
    links = {
        "view": ("view", seat, "The game as seat 0 sees it."),
        "legal_moves": ("legal_moves", seat, "Seat 0's legal moves."),
        "submit_move": ("submit_move", seat, "A move for seat 0."),
        "events": ("events", public, "The game's events, as a spectator sees them."),
        "replay": ("replay", public, "The view after an event, as a spectator sees it."),
        "audit": ("audit", public, "The audit of the game's log."),
        "receipt": ("receipt", public, "A signed receipt of the game's head."),
        "stream_ticket": ("stream_ticket", seat, "A stream ticket for seat 0."),
    }
    return {name: {"operationId": op, "parameters": params, "description": text}
            for name, (op, params, text) in links.items()}


class CreateGameIn(_Strict):
    """A new game of a ruleset listed by GET /rulesets."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [CREATE_EXAMPLE]})

    ruleset: str = Field(description="A `name` from GET /rulesets.")
    variants: list[Annotated[str, Field(min_length=1, max_length=255, pattern=VARIANT_NAME)]] = Field(
        default_factory=list, description="Variant names from GET /rulesets (a variant file's name without `.ludex`); "
        "an unknown one is 400 `bad_variant`.")
    options: dict[str, JSONValue] = Field(default_factory=dict, description="Option values by name.")
    seats: StrictInt | None = Field(None, description="Number of seats (default: the ruleset's minimum).")
    seed: str | None = Field(
        None,
        description="Fix the game's randomness (testing): 1 to 256 characters, no control characters "
        "(checked by the service, 400 bad_seed). By default a secret seed is drawn.",
        json_schema_extra={"minLength": 1, "maxLength": 256, "pattern": "^[^\\x00-\\x1f\\x7f]*$"},
    )


class SubmitMoveIn(_Strict):
    """A move for the token's seat, valid only while the game is at `expected_version`.

    Copy one entry of GET /games/{id}/legal-moves into `move`, and its `version` into
    `expected_version`.
    """

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [MOVE_EXAMPLE]})

    move: Move
    expected_version: StrictInt = Field(description="The `version` of the view the move was chosen from.")
    seat: StrictInt | None = Field(None, description="Optional: the seat you believe you play (checked).")


# -- responses -----------------------------------------------------------------------------------

class HealthOut(_Open):
    status: Literal["ok"]
    store: str = Field(description="The store's dialect: sqlite or postgresql.")


class SeatRange(BaseModel):
    min: int
    max: int


class OptionOut(_Open):
    """An option of a ruleset."""

    name: str
    type: str | None = None
    default: JSONValue = None
    doc: str | None = None


class Diagnostic(_Open):
    """One finding of the checker, with its position."""

    severity: str = Field(description="error, warning or note.")
    message: str


class RulesetOut(_Open):
    name: str
    variants: list[str]
    seats: SeatRange | None = Field(description="{min, max}; null when the ruleset fails its check.")
    options: list[OptionOut]
    content_hash: str | None = Field(description="Hash of the compiled base rules; null when they fail their check.")
    origin: str = Field(description='"bundled", or the designer\'s folder or file it is read from.')
    ok: bool = Field(description="False when the rules fail their check: such a ruleset cannot start games.")
    diagnostics: list[Diagnostic] = Field(description="Why the check failed (file, line, column, message, hint).")


class CheckRulesetOut(_Open):
    ok: bool = Field(description="True when no diagnostic is an error.")
    diagnostics: list[Diagnostic]


class CreatedGameOut(_Open):
    game_id: str
    version: int
    seats: int
    tokens: list[str] = Field(description="tokens[i] is seat i's secret; send it as `Authorization: Bearer`.")


class ViewOut(_Open):
    game_id: str
    version: int = Field(description="The game's version: send it as `expected_version` with a move.")
    seat: int | None
    view: GameView
    decision: Decision
    terminal: bool
    outcome: Outcome | None
    ending: Ending | None = Field(None, description="Once the game is over: why it ended.")


class LegalMovesOut(_Open):
    game_id: str
    version: int
    seat: int
    moves: list[Move]
    texts: list[str] = Field(default_factory=list, description="texts[i] is moves[i] as a sentence (runtime.sentences).")


class StreamTicketOut(_Open):
    """A stream ticket: reads as `seat` until `expires`."""

    ticket: str = Field(description="Put it in the stream's URL: GET /games/{id}/stream?ticket=...")
    seat: int
    expires: int = Field(description="Unix time (seconds) after which the ticket is refused.")


class ReceiptOut(_Open):
    """A signed receipt (api/app/receipts.py): `head` is the hash of record `version`, or while
    the game runs its seal (HMAC keyed by the secret seed), so it reveals no hidden card."""

    receipt: str = Field(description="ludex-receipt/1")
    game_id: str
    version: int
    head: str
    sealed: bool
    key_id: str = Field(description="Hex SHA-256 of the signing key's raw public key.")
    signature: str = Field(description="Base64 Ed25519 signature of the RFC 8785 JSON of the other fields.")


class MoveOut(_Open):
    game_id: str
    version: int
    events: list[LogEvent] = Field(description="The events the move caused, as the mover sees them.")
    texts: list[str] = Field(default_factory=list, description="texts[i] is events[i] as a sentence (runtime.sentences).")
    decision: Decision
    terminal: bool
    outcome: Outcome | None
    ending: Ending | None = Field(None, description="Once the game is over: why it ended.")
    receipt: ReceiptOut = Field(description="The service's signed receipt of the game's head after this move: keep it.")


class PublicKeyOut(_Open):
    key_id: str
    algorithm: str
    public_key: str = Field(description="Base64 of the 32 raw bytes of the Ed25519 public key.")
    created_at: str
    current: bool


class PublicKeysOut(_Open):
    keys: list[PublicKeyOut]


class EventsOut(_Open):
    game_id: str
    version: int
    finished: bool = Field(description="True once the game is over: the events are then the complete, hash-chained log.")
    events: list[LogEvent]
    texts: list[str] = Field(default_factory=list, description="texts[i] is events[i] as a sentence, told as the caller "
                             "may see it (runtime.sentences); beside the records, which stay exactly the log's.")


class ReplayOut(_Open):
    at: int
    state_after: int = Field(description="The version the view reflects: always `at` (the state right after that event, "
                             "even inside a move's cascade of triggers and chance events).")
    seat: int | None
    view: GameView
    terminal: bool
    outcome: Outcome | None
    ending: Ending | None = Field(None, description="Once the game is over: why it ended.")
    decision: dict[str, Any] | None = Field(
        description="{step, seats, terminal} when a decision is pending after `at`; null inside a move's cascade.")
    legal_moves: list[dict[str, Any]] = Field(description="The seat's legal moves then ([] for a spectator).")
    legal_texts: list[str] = Field(default_factory=list, description="legal_texts[i] is legal_moves[i] as a sentence.")


_CheckOutFields: Any = from_attrs(
    Check, "RuntimeCheck",
    {"name": "The check.", "status": "passed, failed or skipped (could not run, e.g. the seed is not revealed).",
     "detail": "What was verified, or why not.", "version": "The event it failed at (null if not tied to one)."},
)


class CheckOut(_CheckOutFields):
    """One audit check."""


_AuditFailureOutFields: Any = from_attrs(
    AuditFailure, "RuntimeAuditFailure",
    {"version": "The event at fault (null if not tied to one).", "check": "The check that failed.",
     "message": "Why."},
)


class AuditFailureOut(_AuditFailureOutFields):
    """The first thing wrong with a log."""


_AuditOutFields: Any = from_attrs(
    AuditReport, "AuditReport",
    {"ok": "True when every check in `passed` passed and nothing failed.", "game_id": "The game audited.",
     "events": "Events in the log.", "passed": "Checks that passed.",
     "skipped": "Checks that could not run (e.g. the seed is not revealed yet).",
     "failure": "The first failure, if any.", "outcome": "The outcome the log establishes.",
     "checks": "Every check, in order, with what it verified or why it did not run.",
     "finished": "True when the log ends with the seed reveal (the game is over)."},
    types={"passed": list[str], "skipped": list[str], "failure": AuditFailureOut | None, "outcome": Outcome | None,
           "checks": list[CheckOut]},
)


class AuditOut(_AuditOutFields):
    """The audit of a game's log (api.app.log.audit_log)."""

    verified: bool = Field(description="A finished game with every check passed, none skipped.")


# -- errors --------------------------------------------------------------------------------------

class ErrorBody(_Open):
    """What went wrong. Besides these, some codes carry details: `current_version` (stale_version,
    game_over), `rule` and `source` (illegal_move), `options` (bad_options), `details` (field
    errors of invalid_request)."""

    code: ErrorCode = Field(description="Stable machine code.")
    message: str = Field(description="For people.")
    reason: str | None = Field(None, description="For illegal moves: the rule's `require` text.")


class ErrorOut(BaseModel):
    """Every error response: `{"error": {...}}`."""

    error: ErrorBody


_STATUS_TEXT = {400: "Bad request", 401: "Missing or bad token", 403: "Not allowed for this seat", 404: "Not found",
                409: "The game moved on", 413: "Body too large", 422: "Refused"}
_EXAMPLES: dict[ErrorCode, dict[str, Any]] = {
    ErrorCode.malformed_json: {"message": "the request body is not valid JSON"},
    ErrorCode.bad_seats: _GAME_EXAMPLES["bad_seats"],
    ErrorCode.bad_text: {"message": "text contains a lone UTF-16 surrogate at character 12", "field": "text"},
    ErrorCode.bad_last_event_id: {"message": "Last-Event-ID must be an event version this stream sent"},
    ErrorCode.text_too_large: {"message": "rule text to check is limited to 131072 characters"},
    ErrorCode.bad_at: {"message": "at must be between 1 and 12"},
    ErrorCode.bad_move: {"message": 'a move is {"name": str, "args": {str: JSON value}}'},
    ErrorCode.corrupt_log: {"message": "game 0f3c...: the pinned rules no longer compile to their hash"},
    ErrorCode.bad_token: {"message": "the token is not valid for this game"},
    ErrorCode.bad_ticket: {"message": "the stream ticket is not valid for this game"},
    ErrorCode.not_your_turn: {"message": "it is not seat 1's turn"},
    ErrorCode.game_not_found: {"message": "no game '0f3c9d3e2b1a4c5d8e7f6a5b4c3d2e1f'"},
    ErrorCode.ruleset_not_found: {"message": "no bundled ruleset 'chess'"},
    ErrorCode.stale_version: {"message": "the game is at version 14, not 12", "current_version": 14},
    ErrorCode.body_too_large: {"message": "request bodies are limited to 1048576 bytes"},
    ErrorCode.illegal_move: _GAME_EXAMPLES["illegal_move"],
    ErrorCode.invalid_request: {"message": "the request does not match the API schema",
                                "details": [{"type": "missing", "loc": ["body", "expected_version"], "msg": "Field required"}]},
}


def error_responses(codes: dict[int, list[ErrorCode]]) -> dict[int | str, dict[str, Any]]:
    """The `responses` of one operation: for each status it can return, the codes it can carry
    (in the description) and an example of the first. The first code of each status needs an
    example in `_EXAMPLES` (KeyError otherwise)."""
    out: dict[int | str, dict[str, Any]] = {}
    for status, listed in codes.items():
        first = _EXAMPLES[listed[0]]
        example = {"error": {"code": listed[0].value, "reason": None, **first}}
        out[status] = {
            "model": ErrorOut,
            "description": f"{_STATUS_TEXT[status]}: " + ", ".join(f"`{c.value}`" for c in listed) + ".",
            "content": {"application/json": {"example": example}},
        }
    return out
