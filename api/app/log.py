"""A game's log, and the two things anyone can do with one: replay it and audit it.

A log is a list of entries `{game_id, version, kind, body, prev_hash, hash}` (one JSON object
per line when exported), versions counting from 1:

- version 1, kind `header`: `{format (LOG_FORMAT, "ludex-log/2"; "ludex-log/1" for games stored
  before RFC 8785 hashes, see api/store/chain.py), game_id, ruleset, variants, options, seats, content_hash,
  sources: [[file, text], ...], sources_hash, seed_commitment, created_at}`. `seed_commitment` is the hex
  SHA-256 of the game's secret seed.
- kinds `move`, `chance` and `show` (RUNTIME_KINDS): the runtime's events (`runtime.event_to_dict`), in order.
- kinds `commit` and `opening`: a sealed move at a simultaneous step, committed when it arrives
  and opened at its round's reveal (api/app/sealed.py); the runtime's `sealed` event is rebuilt
  from them, and the audit's `sealed_moves` check verifies each opening against its commitment.
- last, once the game is over, kind `reveal`: `{seed, outcome}`.

The audit needs nothing but the log: it checks the hash chain, that the pinned rule text
compiles to the pinned hash, that the revealed seed matches its commitment, that every move
was legal and every chance outcome is the one the seed draws (by folding the events through the
runtime), and that the outcome matches the one announced.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping, Sequence

import attrs

from api.app import logschema as schema
from api.app import receipts, sealed, texts
from api.app.rules import PinnedRulesMismatch, Rules
from api.store.chain import LEGACY_LOG_FORMAT, LOG_FORMAT, first_broken_link, sha256_hex
from runtime import (
    DEFAULT_BUDGET,
    Game,
    IllegalMove,
    ImpossibleOutcome,
    LogMismatch,
    event_from_dict,
    event_to_dict,
    named_in_log,
    step_after,
)
from runtime.sentences import Readers

RUNTIME_KINDS = schema.RUNTIME_KINDS  # runtime.Event kinds; "reveal" is the seed reveal
__all__ = ["LOG_FORMAT", "RUNTIME_KINDS", "AuditReport", "Check", "audit_log", "replay_view"]
HEADER_FIELDS = ("ruleset", "variants", "options", "seats", "content_hash", "sources", "seed_commitment")


class LogError(Exception):
    """The log cannot be read as a game (no header, bad shape); `version` names the entry."""

    def __init__(self, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.version = version


@attrs.frozen
class AuditFailure:
    """The first thing wrong with a log: which event (`version`, None if not tied to one),
    which check failed, and why."""

    version: int | None
    check: str
    message: str


@attrs.frozen
class Check:
    """One audit check: `name`, `status` (`passed`, `failed` or `skipped`: could not run, e.g.
    the seed is not revealed), `detail` (what was verified, or why not) and the event it failed
    at (`version`, None if not tied to one)."""

    name: str
    status: str
    detail: str
    version: int | None = None


@attrs.frozen
class AuditReport:
    """Result of `audit_log`. `ok` is True when every check in `passed` passed and nothing
    failed; `skipped` lists checks that could not run (e.g. seed not yet revealed). `checks`
    holds each check in order with what it verified; `finished` is True when the log ends
    with the seed reveal (so nothing was skipped for want of it)."""

    ok: bool
    game_id: str | None
    events: int
    passed: tuple[str, ...]
    skipped: tuple[str, ...]
    failure: AuditFailure | None
    outcome: dict[str, Any] | None
    checks: tuple[Check, ...] = ()
    finished: bool = False

    @property
    def verified(self) -> bool:
        """A fully verified finished game: every check passed and none was skipped."""
        return self.ok and self.finished and not self.skipped

    def to_dict(self) -> dict[str, Any]:
        """JSON form: `{ok, verified, game_id, events, passed, skipped, failure: {version, check,
        message}|None, outcome, checks: [{name, status, detail, version}], finished}`."""
        return {**attrs.asdict(self), "verified": self.verified}  # tuples become lists


def header_of(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The header body; raises LogError if the first entry is not a complete header."""
    if not entries or entries[0].get("kind") != "header":
        raise LogError("the log does not start with a header event", 1)
    body = entries[0].get("body")
    if not isinstance(body, dict) or any(f not in body for f in HEADER_FIELDS):
        raise LogError("the header event lacks required fields " + ", ".join(HEADER_FIELDS), 1)
    return body


def runtime_events(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Bodies of the runtime events (RUNTIME_KINDS), in log order; each opened commitment as the
    runtime's `sealed` event (api/app/sealed.py)."""
    return sealed.runtime_bodies(entries, RUNTIME_KINDS)


def version_of_runtime_index(entries: Sequence[Mapping[str, Any]], index: int | None) -> int | None:
    """The log version of the `index`-th (0-based) runtime event (move, chance, show, or a sealed
    move's commit); None when the log has no such event (or `index` is None)."""
    seen = -1
    for e in entries:
        if e.get("kind") in RUNTIME_KINDS or e.get("kind") == "commit":
            seen += 1
            if seen == index:
                return int(e["version"])
    return None


class MalformedEvent(Exception):
    """A move/chance body is not a runtime event; `index` is its position among them."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


def outcome_of(game: Any) -> dict[str, Any] | None:
    """The game's outcome as JSON (`runtime.Game.outcome`, already a dict; None while it runs)."""
    return game.outcome


def compile_pinned(rules: Rules, header: Mapping[str, Any]) -> Any:
    """The compiled rules the header pins (raises PinnedRulesMismatch)."""
    return rules.pinned(header["sources"], header["variants"], header["content_hash"], header.get("sources_hash"))


def fold(
    rules: Rules,
    header: Mapping[str, Any],
    bodies: Sequence[Mapping[str, Any]],
    seed: str | None,
    budget: int = DEFAULT_BUDGET,
) -> Any:
    """Rebuild the game from the header and runtime event bodies (runtime.Game.fold), with
    `budget` as its execution budget (steps; see runtime.budget)."""
    rs = compile_pinned(rules, header)
    return Game.fold(rs, header["seats"], header["options"], _events(bodies), seed=seed, budget=budget)


def named_slots(rules: Rules, header: Mapping[str, Any], bodies: Sequence[Mapping[str, Any]], seed: str | None,
                budget: int = DEFAULT_BUDGET) -> Readers:
    """For each seat and the spectator (None), the move arguments it was shown as slots whose
    components it could tie to them once public (`runtime.replay.named_in_log`: `.named[seat]` is
    `{ply: {argument: name}}`), from the header and runtime event bodies, as `fold` takes them."""
    rs = compile_pinned(rules, header)
    viewers: list[int | None] = [*range(int(header["seats"])), None]
    return named_in_log(rs, header["seats"], header["options"], _events(bodies), viewers, seed=seed, budget=budget)


def revealed_seed(entries: Sequence[Mapping[str, Any]]) -> str | None:
    """The seed from the reveal entry, if the game has ended."""
    for e in entries:
        if e.get("kind") == "reveal":
            return e["body"].get("seed")
    return None


def replay_view(
    rules: Rules, entries: Sequence[Mapping[str, Any]], at: int | None, seat: int | str | None,
    sealed_seed: str | None = None,
) -> dict[str, Any]:
    """The game as `seat` (None = spectator, "all" = every zone's contents, for a referee)
    saw it right after event `at` (default: the last): `{at, state_after, seat, view,
    terminal, outcome, ending, decision, legal_moves}` (for "all": the moves of every seat to act,
    each with its `seat`; `legal_texts[i]` is `legal_moves[i]` as a sentence; `ending`: `runtime.Game.ending`
    with its sentence once the game is over).

    Inside a move's cascade (its triggers and the chance events they cause) this is the state
    between two of its events (`runtime.replay`): `decision` is None there, the rules still
    resolving; at the end of a cascade it is `{step, seats, terminal}` and `legal_moves` the
    seat's moves then (`[]` for a spectator). `state_after` is `at` (kept for older clients).
    After the header (at=1) the game is built but its setup has not run. Raises LogError when
    `at` is out of range or the log does not fold.
    """
    header = header_of(entries)
    last = int(entries[-1]["version"])
    at = last if at is None else at
    if not 1 <= at <= last:
        raise LogError(f"at must be between 1 and {last}, got {at}")
    index = sum(1 for e in entries if (e.get("kind") in RUNTIME_KINDS or e.get("kind") == "commit") and int(e["version"]) <= at) - 1
    try:
        rs = compile_pinned(rules, header)
        # the service opens a running round's sealed moves with the game's seed (api/app/sealed.py);
        # the runtime's view then shows each seat only its own
        events = _events(sealed.runtime_bodies(entries, RUNTIME_KINDS, sealed_seed))
        index = min(index, len(events) - 1)  # commits no one can open yet end the log
        step = step_after(rs, header["seats"], header["options"], events, index, seat, revealed_seed(entries))
    except (IllegalMove, ImpossibleOutcome, MalformedEvent) as exc:
        version = _failed_version(entries, exc)
        raise LogError(f"the log does not replay at event {version}: {_message(exc)}", version) from exc
    except PinnedRulesMismatch as exc:
        raise LogError(str(exc), 1) from exc
    game = step.game
    legal: list[dict[str, Any]] = []
    if game is not None and seat == "all" and not game.terminal:
        legal = [{"seat": s, **m.to_dict()} for s in game.decision().seats for m in game.legal_moves(s)]
    elif game is not None and isinstance(seat, int) and not game.terminal:
        legal = [m.to_dict() for m in game.legal_moves(seat)]
    return {
        "at": at,
        "state_after": at,
        "seat": seat,
        "view": step.view,
        "terminal": bool(step.view["terminal"]),
        "outcome": step.view["outcome"],
        "ending": texts.ending_of(rs, game),
        "decision": None if game is None else _decision(game),
        "legal_moves": legal,
        "legal_texts": texts.move_texts(rs, seat, legal),
    }


def _events(bodies: Sequence[Mapping[str, Any]]) -> list[Any]:
    events = []
    for index, body in enumerate(bodies):
        try:
            events.append(event_from_dict(dict(body)))
        except Exception as exc:  # cattrs raises several types for malformed input
            raise MalformedEvent(index, f"not a valid event ({exc})") from exc
    return events


def _decision(game: Any) -> dict[str, Any]:
    d = game.decision()
    return {"step": d.step, "seats": list(d.seats), "terminal": bool(d.terminal)}


def _message(exc: Exception) -> str:
    """The runtime's message without its own 0-based `event N:` prefix (we name versions). An
    IllegalMove's text is its `reason`; an ImpossibleOutcome's is `event N: ` and the reason."""
    return re.sub(r"^event \d+: ", "", str(exc))


def _failed_version(entries: Sequence[Mapping[str, Any]], exc: IllegalMove | ImpossibleOutcome | MalformedEvent) -> int | None:
    """The log version of the event a fold failed at (None: past the log's last event). The
    runtime's `ply` is the event's position in the folded list (`Game.fold` checks each move's
    `ply` against it before playing it), never the `ply` a body claims, which a forger can change."""
    return version_of_runtime_index(entries, exc.index if isinstance(exc, MalformedEvent) else exc.ply)


def audit_log(
    rules: Rules,
    entries: Sequence[Mapping[str, Any]],
    export: Mapping[str, Any] | None = None,
    receipts: Sequence[Any] = (),
    pinned_keys: Sequence[str] | None = None,
) -> AuditReport:
    """Verify a whole log; never raises for a bad log, reports the first failure instead.

    `export` is the export's header line (`{export, game_id, keys, receipt}`), `receipts` the
    receipts players kept, `pinned_keys` public keys (base64) to trust instead of the ones the
    export header publishes. Checks, in order (each named in `AuditReport.checks`): `format`
    (a header stating a known log format), `schema` (every record, header and body of the
    exact shape, `logschema`), `hash_chain`, `export_receipt` (the export's signed receipt is
    of this log's last record), `receipt` (each held receipt's head is in the log), `ruleset`,
    `header` (the pinned rules compile to the pinned hash, and name, variants, seats and
    options are theirs), `seed_commitment`, `moves_legal`, `chance_outcomes`, `outcome` (the
    announced outcome, compared byte for byte in canonical JSON).
    """
    try:
        return _audit(rules, entries, export, receipts, pinned_keys)
    except Exception as exc:  # a log shaped in a way no check anticipated is still a failed audit
        return _Audit(entries).fail(None, "log", f"the log cannot be read: {type(exc).__name__}: {exc}")


class _Audit:
    """The checks made so far, and the report they make."""

    def __init__(self, entries: Sequence[Mapping[str, Any]]) -> None:
        self.entries = entries
        first = entries[0] if entries and isinstance(entries[0], Mapping) else {}
        self.game_id = first.get("game_id") if isinstance(first.get("game_id"), str) else None
        self.checks: list[Check] = []

    def passed(self, name: str, detail: str) -> None:
        self.checks.append(Check(name, "passed", detail))

    def skipped(self, name: str, detail: str) -> None:
        self.checks.append(Check(name, "skipped", detail))

    def fail(self, version: int | None, check: str, message: str) -> AuditReport:
        self.checks.append(Check(check, "failed", message, version))
        return self.report(AuditFailure(version, check, message), None, False)

    def report(self, failure: AuditFailure | None, outcome: dict[str, Any] | None, finished: bool) -> AuditReport:
        passed = tuple(c.name for c in self.checks if c.status == "passed")
        skipped = tuple(c.name for c in self.checks if c.status == "skipped")
        return AuditReport(failure is None, self.game_id, len(self.entries), passed, skipped, failure, outcome,
                           tuple(self.checks), finished)


def _audit(
    rules: Rules,
    entries: Sequence[Mapping[str, Any]],
    export: Mapping[str, Any] | None,
    receipts: Sequence[Any],
    pinned_keys: Sequence[str] | None,
) -> AuditReport:
    a = _Audit(entries)
    if not entries:
        return a.fail(None, "log", "the log is empty")

    try:
        schema.check_record(entries[0], 1)
        log_format = schema.check_header(entries[0])
    except schema.SchemaError as exc:
        check = "format" if "format" in str(exc) or "header event" in str(exc) else "schema"
        return a.fail(exc.version, check, str(exc))
    legacy = log_format == LEGACY_LOG_FORMAT
    a.passed("format", f"{log_format}" + (" (legacy: hashes in sorted-key JSON of five fields)" if legacy
                                         else " (hashes of whole records in RFC 8785 canonical JSON)"))
    try:
        for position, e in enumerate(entries, start=1):
            schema.check_record(e, position)
            if position > 1:
                schema.check_body(e)
            if e["kind"] == "reveal" and position != len(entries):
                raise schema.SchemaError(e["version"], f"event {e['version']}: events follow the seed reveal")
    except schema.SchemaError as exc:
        return a.fail(exc.version, "schema", str(exc))
    a.passed("schema", f"{len(entries)} records: exact fields, JSON types, integers only")

    broken = first_broken_link(entries)  # in the format the header states
    if broken is not None:
        position, message = broken
        return a.fail(position, "hash_chain", message)
    a.passed("hash_chain", f"events 1-{len(entries)} linked, head {entries[-1]['hash'][:16]}...")
    failed = _check_receipts(a, list(entries), export, receipts, pinned_keys)
    if failed is not None:
        return failed

    header = dict(entries[0]["body"])
    try:
        rs = compile_pinned(rules, header)
    except PinnedRulesMismatch as exc:
        return a.fail(1, "ruleset", f"event 1: {exc}")
    a.passed("ruleset", f"pinned text of {rs.name} compiles to {header['content_hash'][:16]}...")
    mismatch = _header_mismatch(rs, header)
    if mismatch:
        return a.fail(1, "header", f"event 1: {mismatch}")
    a.passed("header", f"{rs.name}, {header['seats']} seats, variants {header['variants'] or 'none'}")

    seed = revealed_seed(entries)
    if seed is not None:
        if sha256_hex(seed) != header["seed_commitment"]:
            return a.fail(entries[-1]["version"], "seed",
                          f"event {entries[-1]['version']}: revealed seed does not match the commitment in event 1")
        a.passed("seed_commitment", f"revealed seed hashes to the commitment {header['seed_commitment'][:16]}...")
    else:
        a.skipped("seed_commitment", "the seed is not revealed (unfinished game)")

    problem = sealed.check(entries, finished=seed is not None)
    if problem is not None:
        return a.fail(problem[0], "sealed_moves", problem[1])
    commits = sum(1 for e in entries if e["kind"] == "commit")
    if commits:
        a.passed("sealed_moves", f"{commits} sealed moves: each opening matches the commitment logged before it")

    try:  # every body passed the schema, so each is an event (no MalformedEvent)
        game = fold(rules, header, runtime_events(entries), seed)
    except (IllegalMove, ImpossibleOutcome) as exc:
        version = _failed_version(entries, exc)  # None: the rules reach an event past the log's end
        if isinstance(exc, IllegalMove):
            check = "move_legal"
        elif isinstance(exc, LogMismatch):
            check = "events_match_rules"
        else:
            check = "chance_outcome"
        where = f"event {version}: " if version is not None else ""
        return a.fail(version, check, f"{where}{_message(exc)}")
    # The runtime compares events with Python's `==` (1 == True): compare the JSON exactly.
    for index, (mine, body) in enumerate(zip(game.events, runtime_events(entries))):
        produced = event_to_dict(mine)
        if not schema.same_json(produced, body):
            version = version_of_runtime_index(entries, index)
            return a.fail(version, "events_match_rules",
                          f"event {version}: {schema.first_difference(body, produced)}")
    moves = sum(1 for e in entries if e["kind"] == "move")
    a.passed("moves_legal", f"{moves} moves legal, every event the one the rules produce")
    chances = sum(1 for e in entries if e["kind"] == "chance")
    if seed is not None:
        a.passed("chance_outcomes", f"{chances} chance outcomes drawn by the revealed seed")
    else:
        a.skipped("chance_outcomes", "the seed is not revealed: chance outcomes cannot be checked")

    outcome = outcome_of(game)
    if seed is not None:
        announced = entries[-1]["body"].get("outcome")
        if not game.terminal:
            return a.fail(entries[-1]["version"], "outcome",
                          f"event {entries[-1]['version']}: seed revealed but the game is not over")
        if not schema.same_json(announced, outcome):
            return a.fail(entries[-1]["version"], "outcome",
                          f"event {entries[-1]['version']}: announced outcome {json.dumps(announced)} differs from "
                          f"the rules' {json.dumps(outcome)}")
        a.passed("outcome", f"the announced outcome is the rules' ({announced['kind']})")  # a terminal game's outcome
    elif game.terminal:
        return a.fail(entries[-1]["version"], "seed",
                      f"event {entries[-1]['version']}: the game is over but its seed was never revealed")
    else:
        a.skipped("outcome", "the game is not over")
    return a.report(None, outcome, seed is not None)


def _check_receipts(
    a: _Audit,
    entries: list[Mapping[str, Any]],
    export: Mapping[str, Any] | None,
    held: Sequence[Any],
    pinned_keys: Sequence[str] | None,
) -> AuditReport | None:
    """The `export_receipt` and `receipt` checks; a failed report, or None when they passed."""
    seed = revealed_seed(entries)
    try:
        if pinned_keys is not None:
            keys = receipts.trusted_keys({"public_key": k} for k in pinned_keys)
            source = "pinned with --key"
        else:
            keys = receipts.trusted_keys(export.get("keys", []) if isinstance(export, Mapping) else [])
            source = "published in the export header"
    except receipts.ReceiptError as exc:
        return a.fail(None, "export_receipt", f"the keys cannot be read: {exc}")
    if export is None:
        a.skipped("export_receipt", "no export header: nothing outside the log vouches for its last event")
    else:
        final: Any = export.get("receipt")
        try:
            if (set(export) != {"export", "game_id", "keys", "receipt"} or export["export"] != receipts.EXPORT_FORMAT
                    or export["game_id"] != a.game_id):
                raise receipts.ReceiptError(
                    f"the export header is not a {receipts.EXPORT_FORMAT} header of game {a.game_id!r}")
            receipts.check_signature(final, keys)
            if final["version"] != len(entries):
                raise receipts.ReceiptError(
                    f"the export's receipt is for event {final['version']}, the log has {len(entries)} events")
            receipts.check_head(final, entries, seed)
        except receipts.SealedUntilReveal as exc:
            a.skipped("export_receipt", f"signature verified; {exc}")
        except receipts.ReceiptError as exc:
            version = final.get("version") if isinstance(final, Mapping) and type(final.get("version")) is int else None
            return a.fail(min(version, len(entries)) if version else len(entries), "export_receipt", str(exc))
        else:
            a.passed("export_receipt", f"event {final['version']} is the head signed by key {final['key_id'][:16]}... ({source})")
    for receipt in held:
        try:
            receipts.check_signature(receipt, keys)
            receipts.check_head(receipt, entries, seed)
        except receipts.SealedUntilReveal as exc:
            a.skipped("receipt", f"signature verified; {exc}")
            continue
        except receipts.ReceiptError as exc:
            version = receipt.get("version") if isinstance(receipt, Mapping) and type(receipt.get("version")) is int else None
            return a.fail(min(version, len(entries)) if version else None, "receipt", str(exc))
        a.passed("receipt", f"event {receipt['version']} has the head a receipt signed by key "
                            f"{receipt['key_id'][:16]}... ({source})" + (", sealed with the seed" if receipt["sealed"] else ""))
    return None


def _header_mismatch(rs: Any, header: Mapping[str, Any]) -> str | None:
    """What in the header disagrees with the rules it pins (None if nothing)."""
    if header["ruleset"] != rs.name:
        return f"the header names ruleset {header['ruleset']!r} but its pinned text is {rs.name!r}"
    if list(header["variants"]) != list(rs.variants):
        return f"the header lists variants {header['variants']} but its pinned rules have {list(rs.variants)}"
    low, high = rs.seats
    if not low <= header["seats"] <= high:
        return f"{rs.name} is played by {low} to {high} seats, not {header['seats']}"
    unknown = sorted(set(header["options"]) - {o.name for o in rs.options})
    if unknown:
        return f"{rs.name} has no option {unknown[0]!r}"
    return None
