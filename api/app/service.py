"""The application service: every game operation, once, for all faces (HTTP, gRPC, CLI).

A face parses its transport, calls one method here with the caller's bearer token (or None),
and renders the returned dict or the raised `ServiceError`. All game flow (who may move, stale
versions, redaction, the seed commitment and reveal) lives here and in `api/app/log.py`; the
rules themselves live in the runtime.

State: the store is the only source of truth. Each process keeps a cache of live games (the
runtime `Game` folded from the stored events) and brings it up to date from the store before
each operation, so several processes can serve one PostgreSQL database. Operations on one game
are serialised in-process by a per-game lock and across processes by the store's optimistic
concurrency.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import secrets
import threading
import time
import uuid
import zlib
from collections import OrderedDict
from typing import Any, AsyncIterator, Iterator, Mapping

import attrs

from api import viewer
from api.app import log as gamelog
from api.app import sealed as sealedlog
from api.app import texts
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
from api.app.inputs import check_int, check_json, check_move_args, check_options, check_text
from api.app.notify import Notifier
from api.app.receipts import EXPORT_FORMAT, KeyRing, seal
from api.app.requests import note_seat
from api.app.rules import PinnedRulesMismatch, Rules, sources_hash
from api.app.tokens import hash_token, is_ticket, new_ticket, new_token, seat_for_ticket, seat_for_token
from api.store import EventStore, GameNotFound, StoredEvent, VersionConflict, canonical_json, sha256_hex
from runtime import (
    DEFAULT_BUDGET,
    BadOption,
    BudgetExceeded,
    Game,
    IllegalMove,
    Move,
    NotYourTurn,
    RuleError,
    event_from_dict,
    event_to_dict,
)
from runtime.sentences import Readers

MAX_SEED_LENGTH = 256
MAX_CHECK_TEXT = 128 * 1024  # characters of rule text /rulesets/check parses
CACHE_SIZE = 1024
LOCK_STRIPES = 256
SEALED_RETRIES = 8  # appends of one sealed move racing other processes' (each retry re-reads the store)


@attrs.define
class LiveGame:
    """A game as this process currently knows it: the stored log and the runtime game folded
    from it. `version` is the last stored event's version. `readers`: for each seat and the
    spectator (None), the move arguments it was shown as slots whose components it could tie to
    them once public (`runtime.sentences.Readers`); None until a sentence needs it
    (`GameService._named` folds the log then), kept up to date move by move after that."""

    game_id: str
    header: dict[str, Any]
    seed: str
    token_hashes: tuple[str, ...]
    events: list[StoredEvent]
    game: Any
    finished: bool
    readers: Readers | None = None

    def note_named(self, applied: list[Any]) -> None:
        """After `applied`, the events one decision just made (the game still right after it):
        note the arguments each seat and the spectator may now name (while `readers` is kept)."""
        if self.readers is not None:
            self.readers.note(self.game, applied)

    @property
    def version(self) -> int:
        return self.events[-1].version


@attrs.define
class _PendingMove:
    """A move applied in memory and judged legal, waiting for its append: the live game, whether
    its version was read from the store, the mover's seat, the entries to append, whether the
    game ends with it, and who acts next."""

    live: LiveGame
    checked: bool
    seat: int
    entries: list[tuple[str, dict[str, Any]]]
    finished: bool
    decision: dict[str, Any]
    sealed: dict[str, Any] | None = None  # a sealed move's `{commitment, salt}` (api/app/sealed.py)
    applied: list[Any] = attrs.Factory(list)  # the runtime events the move made

    def append_arguments(self) -> dict[str, Any]:
        """The arguments of the store's append (`EventStore.append`) for this move."""
        live = self.live
        return {"game_id": live.game_id, "expected_version": live.version, "new_events": self.entries,
                "finished": self.finished, "prev_hash": live.events[-1].hash, "log_format": live.header["format"]}


class GameService:
    """Create, view, move, list events, replay, audit and stream games kept in an EventStore.

    Methods return JSON-able dicts and raise `api.app.errors.ServiceError` subclasses.
    `token` is the caller's seat token; None means a spectator. `budget` is the execution
    budget (steps) of each game's setup, moves, trigger cascades and legal-moves listings:
    rules that run out of it fail with RulesFailed (`budget_exceeded`), the game unchanged.
    """

    def __init__(
        self,
        store: EventStore,
        rules: Rules | None = None,
        *,
        poll_interval: float = 0.25,
        keys: KeyRing | None = None,
        budget: int = DEFAULT_BUDGET,
    ) -> None:
        self.store = store
        self.rules = rules or Rules()
        self.budget = budget
        # Receipts are signed with `keys`; without a key ring (tests) a key lives in memory.
        self.keys = keys or KeyRing.ephemeral()
        self.poll_interval = poll_interval
        self.notifier = Notifier()
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._game_locks = [threading.Lock() for _ in range(LOCK_STRIPES)]

    # -- rulesets ---------------------------------------------------------------------------

    def rulesets(self) -> list[dict[str, Any]]:
        """Rulesets served: `[{name, variants, seats: {min, max}, options, content_hash, origin,
        ok, diagnostics}]` (see `Rules.catalogue`)."""
        return self.rules.catalogue()

    def check_ruleset(self, text: str, filename: str = "<text>") -> dict[str, Any]:
        """`{ok, diagnostics}` for a ruleset text; ok when no diagnostic is an error. Raises
        InvalidRequest (`bad_text`) for text or a file name that is not valid Unicode, TooLarge
        (`text_too_large`) for text over `MAX_CHECK_TEXT` characters."""
        if len(text) > MAX_CHECK_TEXT:
            raise TooLarge(
                "text_too_large",
                f"rule text to check is limited to {MAX_CHECK_TEXT} characters, not {len(text)}",
                reason="parsing is linear but slow; the largest bundled ruleset is about 52,000 characters",
            )
        check_text(text, "text", "bad_text")
        check_text(filename, "filename", "bad_text")
        diagnostics = self.rules.check(text, filename)
        return {"ok": not any(d.get("severity") == "error" for d in diagnostics), "diagnostics": diagnostics}

    # -- games ------------------------------------------------------------------------------

    def create_game(
        self,
        ruleset: str,
        variants: list[str] | None = None,
        options: Mapping[str, Any] | None = None,
        seats: int | None = None,
        seed: str | None = None,
    ) -> dict[str, Any]:
        """Start a game of a ruleset served (bundled, or from a designer's rulesets folder: its
        current text, which the game then pins).

        Returns `{game_id, version, seats, tokens}`: `tokens[i]` is seat i's secret, shown only
        here. `seed` (optional) fixes the randomness; by default a fresh 256-bit secret is
        drawn. The header event publishes only the seed's SHA-256. Raises NotFound
        (`ruleset_not_found`) or InvalidRequest (`bad_ruleset` with diagnostics, `bad_variant`,
        `bad_seats`, `bad_options`, `bad_seed`).
        """
        check_text(ruleset, "ruleset", "bad_ruleset")
        variants = [check_text(v, "variants", "bad_variant") for v in variants or []]
        options = check_json(options or {}, "options", "bad_options")
        if not isinstance(options, Mapping):
            raise InvalidRequest("bad_options", "options map option names to values", field="options")
        options = dict(options)
        check_int(seats, "seats", "bad_seats", optional=True)
        rs = self.rules.ruleset(ruleset, variants)
        check_options(rs, options)
        low, high = rs.seats
        if seats is None:
            seats = low
        if not low <= seats <= high:
            raise InvalidRequest("bad_seats", f"{ruleset} is played by {low} to {high} seats, not {seats!r}")
        known_options = {o.name for o in rs.options}
        unknown = sorted(set(options) - known_options)
        if unknown:
            raise InvalidRequest(
                "bad_options", f"{ruleset} has no option {unknown[0]!r}", options=sorted(known_options)
            )
        if seed is None:
            seed = secrets.token_hex(32)
        elif not isinstance(seed, str) or not 0 < len(seed) <= MAX_SEED_LENGTH:
            raise InvalidRequest("bad_seed", f"seed must be a string of 1 to {MAX_SEED_LENGTH} characters")
        else:
            check_text(seed, "seed", "bad_seed", controls=False)
        try:
            with _rules_running():
                game = Game.new(rs, seats=seats, options=options, seed=seed, budget=self.budget)
        except ServiceError:
            raise
        except BadOption as exc:
            decl = rs.option(exc.option)
            reason = None if decl is None else (
                f"{rs.name} declares `option {decl.name}: {decl.type}"
                + (f" in {decl.range[0]}..{decl.range[1]}`" if decl.range else "`")
            )
            raise InvalidRequest("bad_options", str(exc), reason=reason, option=exc.option) from exc
        except (ValueError, TypeError, KeyError) as exc:
            raise InvalidRequest("bad_options", f"the rules refuse these options: {exc}") from exc

        game_id = uuid.uuid4().hex
        tokens = [new_token() for _ in range(seats)]
        header = {
            "format": gamelog.LOG_FORMAT,
            "game_id": game_id,
            "ruleset": rs.name,
            "variants": list(rs.variants),
            "options": options,
            "seats": seats,
            "content_hash": rs.content_hash,
            "sources": [[name, text] for name, text in rs.sources],
            "sources_hash": sources_hash(rs.sources),
            "seed_commitment": sha256_hex(seed),
            "created_at": dt.datetime.now(dt.timezone.utc).isoformat(),
        }
        first = [("header", header)] + [(e.kind, event_to_dict(e)) for e in game.events]
        finished = bool(game.terminal)
        if finished:
            first.append(("reveal", _reveal(seed, game)))
        stored = self.store.create_game(
            game_id, first, seed=seed, token_hashes=[hash_token(t) for t in tokens], finished=finished,
            log_format=header["format"],
        )
        live = LiveGame(game_id, stored[0].body, seed, tuple(hash_token(t) for t in tokens), stored, game, finished)
        self._remember(live)
        return {"game_id": game_id, "version": live.version, "seats": seats, "tokens": tokens}

    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The caller's view: `{game_id, version, seat, view, decision: {step, seats,
        terminal}, terminal, outcome}`; a spectator (no token) sees public information only."""
        with self._locked(game_id):
            live = self._live(game_id)
            seat = self._seat(live, token)
            with _rules_running():
                decision = _decision(live.game)
            return {
                "game_id": game_id,
                "version": live.version,
                "seat": seat,
                "view": live.game.view(seat),
                "decision": decision,
                "terminal": bool(live.game.terminal),
                "outcome": _outcome(live.game),
                "ending": texts.ending_of(live.game.ruleset, live.game),
            }

    def legal_moves(self, game_id: str, token: str | None) -> dict[str, Any]:
        """`{game_id, version, seat, moves: [{name, args}]}` for the token's seat (empty when it
        is not that seat's turn). Requires a token: legal moves reveal a seat's hidden cards."""
        with self._locked(game_id):
            return self._legal_moves(game_id, token)

    def legal_moves_now(self, game_id: str, token: str | None) -> dict[str, Any] | None:
        """`legal_moves`, or None at once when another call holds the game: for a caller on an
        event loop, which must not wait for a move's commit."""
        lock = self._locked(game_id)
        if not lock.acquire(blocking=False):
            return None
        try:
            return self._legal_moves(game_id, token)
        finally:
            lock.release()

    def _legal_moves(self, game_id: str, token: str | None) -> dict[str, Any]:
        live = self._live(game_id)
        seat = self._seat(live, token, required=True)
        with _rules_running():
            moves = [] if live.game.terminal else [m.to_dict() for m in live.game.legal_moves(seat)]
        return {"game_id": game_id, "version": live.version, "seat": seat, "moves": moves,
                "texts": texts.move_texts(live.game.ruleset, seat, moves)}

    def submit_move(
        self,
        game_id: str,
        token: str | None,
        move: Mapping[str, Any],
        expected_version: int,
        seat: int | None = None,
    ) -> dict[str, Any]:
        """Apply `move` (`{name, args}`, as listed by `legal_moves`) for the token's seat if
        the game is still at `expected_version`; acknowledged only once its events are committed.

        Returns `{game_id, version, events (as the caller sees them), decision (who acts
        next), terminal, outcome}`.
        Raises Unauthenticated (no or bad token), Forbidden (`wrong_seat` if `seat` is given
        and is not the token's, `not_your_turn`), Conflict (`stale_version` with
        `current_version`, `game_over`), IllegalMoveError (the rule's `require` as reason),
        InvalidRequest (`bad_move` for a malformed move).
        """
        parsed = _parse_move(move)
        check_int(expected_version, "expected_version", "bad_move")
        check_int(seat, "seat", "bad_move", optional=True)
        with self._locked(game_id):
            for attempt in range(SEALED_RETRIES):
                pending = self._prepare_move(game_id, token, parsed, expected_version, seat)
                try:
                    stored = self.store.append(**pending.append_arguments())
                except VersionConflict as exc:
                    # another process stored a seat's sealed move first: judge this one again
                    # against the store (still the round quoted, it is accepted; not, refused)
                    if pending.sealed is not None and attempt + 1 < SEALED_RETRIES:
                        self._forget(game_id)
                        continue
                    self._refused_append(pending, exc)
                    raise
                except BaseException as exc:
                    self._refused_append(pending, exc)
                    raise
                break
            result = self._moved(pending, stored)
        self.notifier.notify(game_id)
        return result

    async def submit_move_on_loop(
        self,
        game_id: str,
        token: str | None,
        move: Mapping[str, Any],
        expected_version: int,
        seat: int | None = None,
    ) -> dict[str, Any] | None:
        """`submit_move` for a caller on an event loop, or None at once when another call holds
        the game or the move is not for the version this process holds (then call
        `submit_move` in a worker thread: the store must be read). The rules run on the loop,
        which is free while the commit waits for the disk (`EventStore.append_on_loop`): this
        spares each move two hops between the loop and a worker thread. Only a refusal reads
        the store on the loop (to re-judge it, as `submit_move` does)."""
        parsed = _parse_move(move)
        check_int(expected_version, "expected_version", "bad_move")
        check_int(seat, "seat", "bad_move", optional=True)
        lock = self._locked(game_id)
        if not lock.acquire(blocking=False):
            return None
        try:
            if self._cached_at(game_id, expected_version) is None:
                return None  # the game must be read from the store first: not on the loop
            pending = self._prepare_move(game_id, token, parsed, expected_version, seat)
            try:
                stored = await self.store.append_on_loop(**pending.append_arguments())
            except VersionConflict as exc:
                if pending.sealed is None:
                    self._refused_append(pending, exc)
                    raise
                self._forget(game_id)
                return None  # a sealed move that lost a race: `submit_move` judges it again and retries
            except BaseException as exc:
                self._refused_append(pending, exc)
                raise
            result = self._moved(pending, stored)
        finally:
            lock.release()
        self.notifier.notify(game_id)
        return result

    def _prepare_move(self, game_id: str, token: str | None, parsed: dict[str, Any], expected_version: int,
                      seat: int | None) -> _PendingMove:
        """Judge and apply a move on the live game (the caller holds the game's lock): the
        events to append, or the typed refusal."""
        # A move for the version this process holds skips reading the store's version: the
        # append's compare-and-set refuses it if another process moved the game on. Any
        # refusal is then re-judged against the store, so its code is the same either way.
        live = self._cached_at(game_id, expected_version)
        checked = live is None
        if live is None:
            live = self._live(game_id)
        token_seat = self._seat(live, token, required=True)  # tokens never change: no re-check
        assert token_seat is not None
        check_move_args(live.game.prog.rs, parsed["name"], parsed["args"])
        if seat is not None and seat != token_seat:
            raise Forbidden("wrong_seat", f"this token plays seat {token_seat}, not seat {seat}")
        try:
            if live.finished:
                raise Conflict("game_over", "the game is over", current_version=live.version)
            if expected_version != live.version and not _in_round(live, expected_version):
                raise Conflict(
                    "stale_version",
                    f"the game is at version {live.version}, not {expected_version}",
                    current_version=live.version,
                )
            new = self._apply(live, token_seat, parsed)
            entries = [(e.kind, event_to_dict(e)) for e in new]
            ack = None
            if any(e.kind == "sealed" for e in new):  # commitments, and openings at the reveal
                entries, ack = sealedlog.log_entries([b for _k, b in entries], live.game_id, live.seed, live.version,
                                                     [x.to_dict() for x in live.events])
            finished = bool(live.game.terminal)
            try:
                with _rules_running():
                    decision = _decision(live.game)  # the next listing failing refuses the move
            except RulesFailed:
                self._forget(game_id)  # nothing was stored: rebuild from the store next time
                raise
        except ServiceError:
            if checked:
                raise
            self._recheck(game_id, live)
            raise
        if finished:
            entries.append(("reveal", _reveal(live.seed, live.game)))
        return _PendingMove(live, checked, token_seat, entries, finished, decision, ack, new)

    def _refused_append(self, pending: _PendingMove, exc: BaseException) -> None:
        """After the store refused or failed a move's append: forget the game (it was applied
        in memory only) and raise the refusal as the service's Conflict."""
        game_id = pending.live.game_id
        self._forget(game_id)
        if isinstance(exc, VersionConflict):
            if not pending.checked:
                self._recheck(game_id, None)
            raise Conflict("stale_version", "another move was committed first", current_version=exc.actual) from exc

    def _moved(self, pending: _PendingMove, stored: list[StoredEvent]) -> dict[str, Any]:
        """The answer to a committed move (the caller holds the game's lock)."""
        live = pending.live
        live.events.extend(stored)
        live.finished = pending.finished
        live.note_named(pending.applied)
        return {
            "game_id": live.game_id,
            "version": live.version,
            "events": (shown := [self._render(live, e, pending.seat) for e in stored]),
            "texts": self._texts(live, shown, pending.seat),
            "decision": pending.decision,
            "terminal": bool(live.game.terminal),
            "outcome": _outcome(live.game),
            "ending": texts.ending_of(live.game.ruleset, live.game),
            "receipt": self._receipt(live),
        } | ({"sealed": pending.sealed} if pending.sealed is not None else {})

    def events(self, game_id: str, token: str | None, after: int = 0) -> dict[str, Any]:
        """`{game_id, version, finished, events}` with the events after version `after`.

        While the game runs, each event is redacted for the caller the way views are and
        carries no hashes (a hash of a hidden card would let anyone guess the card); once the
        game is over every event is public, exactly as stored: `{game_id, version, kind, body,
        prev_hash, hash}`, so the list is the auditable log.
        """
        if check_int(after, "after", "bad_after") < 0:
            raise InvalidRequest("bad_after", "after must be >= 0")
        with self._locked(game_id):
            live = self._live(game_id)
            seat = self._seat(live, token)
            return {
                "game_id": game_id,
                "version": live.version,
                "finished": live.finished,
                "events": (shown := [self._render(live, e, seat) for e in live.events[after:]]),
                "texts": self._texts(live, shown, seat),
            }

    def replay(self, game_id: str, token: str | None, at: int) -> dict[str, Any]:
        """The caller's view as it was right after event `at`, even inside a move's cascade:
        `{at, state_after, seat, view, terminal, outcome, decision, legal_moves}` (see
        `api.app.log.replay_view`)."""
        with self._locked(game_id):
            live = self._live(game_id)
            seat = self._seat(live, token)
            entries = [e.to_dict() for e in live.events]
        return self._replay_view(entries, at, seat)

    def audit(self, game_id: str) -> dict[str, Any]:
        """Audit the stored log with its export header (see `api.app.log.audit_log`); `{ok,
        verified, passed, skipped, failure, checks, ...}`."""
        entries = self.export(game_id)
        return gamelog.audit_log(self.rules, entries, export=self.export_header(game_id)).to_dict()

    def export(self, game_id: str) -> list[dict[str, Any]]:
        """The complete stored log, unredacted (operator use: the CLI's `export`)."""
        try:
            return [e.to_dict() for e in self.store.load(game_id)]
        except GameNotFound as exc:
            raise NotFound("game_not_found", f"no game {game_id!r}") from exc

    def export_header(self, game_id: str) -> dict[str, Any]:
        """The first line of an export: `{export: "ludex-export/1", game_id, keys (every public
        key, as `public_keys`), receipt (of the head now: sealed while the game runs)}`."""
        with self._locked(game_id):
            live = self._live(game_id)
            return {"export": EXPORT_FORMAT, "game_id": game_id, "keys": self.keys.public_keys(),
                    "receipt": self._receipt(live)}

    def viewer_data(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The viewer's data (`api.viewer.bundle`): the events as the caller may see them
        (redacted while the game runs, the whole log after), the pinned rule text, the audit
        of the stored log with its export header, and which seats the caller may view."""
        with self._locked(game_id):
            live = self._live(game_id)
            seat = self._seat(live, token)
            entries = [e.to_dict() for e in live.events]
            shown = [self._render(live, e, seat) for e in live.events]
            told = self._texts(live, shown, seat)
            named = [texts.named_args(e, self._named(live).get(seat)) for e in shown] if any(map(texts.has_slot, shown)) else []
            finished = live.finished
        report = gamelog.audit_log(self.rules, entries, export=self.export_header(game_id)).to_dict()
        if not finished and report["failure"] is not None:
            # A running game's failure message may quote hidden cards: say which check failed only.
            failure = report["failure"]
            failure["message"] = f"event {failure['version']}: the {failure['check']} check failed"
            report["checks"] = [dict(c, detail=failure["message"]) if c["status"] == "failed" else c
                                for c in report["checks"]]
        return viewer.bundle(entries, shown, report, finished, seat, any_seat=finished,
                             texts=told, named=named, display=viewer.display_hints(live.game.ruleset))

    def viewer_step(self, game_id: str, token: str | None, at: int, seat: int | str | None) -> dict[str, Any]:
        """The board right after event `at` as `seat` sees it (`api.app.log.replay_view`).
        While the game runs only the token's own seat or the spectator's view; after it, any
        seat or "all". Raises Forbidden (`seat_hidden`), InvalidRequest (`bad_at`)."""
        with self._locked(game_id):
            live = self._live(game_id)
            token_seat = self._seat(live, token)
            entries = [e.to_dict() for e in live.events]
            finished = live.finished
        if not finished and seat not in (None, token_seat):
            raise Forbidden("seat_hidden", "while the game runs the viewer shows your own seat's view or the "
                            "spectator's; any seat once the game is over")
        if isinstance(seat, int) and not 0 <= seat < int(entries[0]["body"]["seats"]):
            raise InvalidRequest("bad_seat", f"this game has seats 0 to {int(entries[0]['body']['seats']) - 1}")
        return self._replay_view(entries, at, seat)

    def _replay_view(self, entries: list[dict[str, Any]], at: int, seat: Any) -> dict[str, Any]:
        """The view after event `at` (1-based) of a stored log, as `seat` sees it. Raises
        InvalidRequest (`bad_at`), ServiceError (`corrupt_log`)."""
        if not 1 <= check_int(at, "at", "bad_at") <= len(entries):
            raise InvalidRequest("bad_at", f"at must be between 1 and {len(entries)}")
        try:
            return gamelog.replay_view(self.rules, entries, at, seat, self._sealed_seed(entries))
        except gamelog.LogError as exc:
            raise ServiceError("corrupt_log", str(exc)) from exc

    def _sealed_seed(self, entries: list[dict[str, Any]]) -> str | None:
        """The game's seed when its log holds a sealed move no opening shows yet (a round still
        open): the replay opens it, and the runtime's view shows each seat only its own."""
        opened = {e["body"]["commit"] for e in entries if e["kind"] == "opening"}
        if not any(e["kind"] == "commit" and e["version"] not in opened for e in entries):
            return None
        return self.store.game(entries[0]["game_id"]).seed

    def receipt(self, game_id: str) -> dict[str, Any]:
        """A signed receipt of the game's head now (see `api/app/receipts.py`): `{receipt,
        game_id, version, head, sealed, key_id, signature}`; sealed while the game runs."""
        with self._locked(game_id):
            return self._receipt(self._live(game_id))

    def public_keys(self) -> dict[str, Any]:
        """`{keys: [{key_id, algorithm, public_key, created_at, current}]}`: every key receipts
        were signed with (base64 of the raw Ed25519 public key)."""
        return {"keys": self.keys.public_keys()}

    async def stream(self, game_id: str, token: str | None, after: int = 0) -> AsyncIterator[dict[str, Any]]:
        """Yield events after `after` as they are committed (by this process or any other
        sharing the store), rendered as in `events`; ends after the game's last event."""
        async for event, _text in self.stream_told(game_id, token, after):
            yield event

    async def stream_told(self, game_id: str, token: str | None, after: int = 0) -> AsyncIterator[tuple[dict[str, Any], str]]:
        """`stream`, each event with its sentence as `events` gives it (`texts`): `(event, text)`."""
        while True:
            page = await asyncio.to_thread(self.events, game_id, token, after)
            for event, text in zip(page["events"], page["texts"]):
                yield event, text
                after = event["version"]
            if page["finished"]:
                return
            await self.notifier.wait(game_id, self.poll_interval)

    # -- internals ---------------------------------------------------------------------------

    def _locked(self, game_id: str) -> threading.Lock:
        # Striped locks: bounded memory however many games pass through, and two games rarely
        # share a stripe (when they do, they merely take turns).
        return self._game_locks[zlib.crc32(game_id.encode("utf-8")) % len(self._game_locks)]

    def _remember(self, live: LiveGame) -> None:
        with self._cache_lock:
            self._cache[live.game_id] = live
            self._cache.move_to_end(live.game_id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def _live(self, game_id: str) -> LiveGame:
        """The game brought up to date with the store (caller holds the game's lock)."""
        with self._cache_lock:
            live = self._cache.get(game_id)
        try:
            # The common case costs one indexed read of the version; the record (secrets)
            # is read only when the game must be rebuilt.
            version = self.store.version(game_id)
            if live is not None and live.version == version:
                return live
            if live is not None and live.version < version:
                if _catch_up(live, self.store.load(game_id, after=live.version)):
                    return live
                self._forget(game_id)
            record = self.store.game(game_id)
            events = self.store.load(game_id)
        except GameNotFound as exc:
            raise NotFound("game_not_found", f"no game {game_id!r}") from exc
        header = events[0].body
        bodies = sealedlog.runtime_bodies([e.to_dict() for e in events], gamelog.RUNTIME_KINDS, record.seed)
        try:
            game = gamelog.fold(self.rules, header, bodies, record.seed, self.budget)
        except PinnedRulesMismatch as exc:
            raise ServiceError("corrupt_log", f"game {game_id}: {exc}") from exc
        live = LiveGame(game_id, header, record.seed, record.token_hashes, events, game, record.finished)
        self._remember(live)
        return live

    def _cached_at(self, game_id: str, version: int) -> LiveGame | None:
        """The cached game if it is at `version` (not checked against the store), else None."""
        with self._cache_lock:
            live = self._cache.get(game_id)
        return live if live is not None and live.version == version else None

    def _recheck(self, game_id: str, live: LiveGame | None) -> None:
        """After refusing a move judged on a cached game without reading the store: if the
        store has moved on (another process), refuse it as the store's state says instead,
        with the code a fresh read would have given (`game_over` or `stale_version`)."""
        try:
            version = self.store.version(game_id)
        except GameNotFound as exc:
            raise NotFound("game_not_found", f"no game {game_id!r}") from exc
        if live is not None and version == live.version:
            return
        self._forget(game_id)
        current = self._live(game_id)
        if current.finished:
            raise Conflict("game_over", "the game is over", current_version=current.version)
        raise Conflict("stale_version", f"the game is at version {current.version}", current_version=current.version)

    def _apply(self, live: LiveGame, seat: int, parsed: dict[str, Any]) -> list[Any]:
        """Apply a parsed move to the live game: its events, or the typed refusal."""
        try:
            return list(live.game.apply(seat, Move.from_dict(parsed)))
        except NotYourTurn as exc:
            raise Forbidden("not_your_turn", f"it is not seat {seat}'s turn") from exc
        except IllegalMove as exc:
            raise IllegalMoveError(
                "illegal_move",
                f"illegal move {parsed['name']!r}",
                reason=exc.reason,
                rule=exc.rule or None,
                source=exc.source or None,
            ) from exc
        except (BudgetExceeded, RuleError) as exc:
            raise _rules_failed(exc) from exc  # the runtime put the game back as it was
        except BaseException:
            self._forget(live.game_id)  # a runtime failure may have left the game half-applied
            raise

    def _receipt(self, live: LiveGame) -> dict[str, Any]:
        head = live.events[-1].hash
        if live.finished:
            return self.keys.sign(live.game_id, live.version, head, sealed=False)
        return self.keys.sign(live.game_id, live.version, seal(live.seed, live.game_id, live.version, head), sealed=True)

    def _seat(self, live: LiveGame, token: str | None, required: bool = False) -> int | None:
        seat = self._resolve_seat(live, token, required)
        note_seat(seat)  # for the access log
        return seat

    def _resolve_seat(self, live: LiveGame, token: str | None, required: bool) -> int | None:
        if not token:
            if required:
                raise Unauthenticated("token_required", "this needs a seat token (Authorization: Bearer <token>)")
            return None
        if is_ticket(token):  # a stream ticket reads as its seat, and never acts
            if required:
                raise Unauthenticated("token_required", "a stream ticket only reads: send the seat token")
            found = seat_for_ticket(token, live.game_id, live.token_hashes, time.time())
            if isinstance(found, str):
                raise Unauthenticated(found, "the stream ticket is expired: get a new one" if found == "ticket_expired"
                                      else "the stream ticket is not valid for this game")
            return found
        seat = seat_for_token(token, live.token_hashes)
        if seat is None:
            raise Unauthenticated("bad_token", "the token is not valid for this game")
        return seat

    def stream_ticket(self, game_id: str, token: str | None) -> dict[str, Any]:
        """`{ticket, seat, expires}`: a short-lived ticket (api/app/tokens.py) that reads as the
        token's seat, for clients that cannot send headers (a browser's EventSource: `GET
        /games/{id}/stream?ticket=...`). `expires` is Unix seconds. Raises Unauthenticated."""
        with self._locked(game_id):
            live = self._live(game_id)
            seat = self._seat(live, token, required=True)
            assert seat is not None
            ticket, expires = new_ticket(game_id, seat, live.token_hashes[seat], time.time())
        return {"ticket": ticket, "seat": seat, "expires": expires}

    def _named(self, live: LiveGame) -> dict[int | None, dict[int, dict[str, Any]]]:
        """What each seat and the spectator may name (`{seat: {ply: {argument: name}}}`), folded
        from the log the first time it is asked (the caller holds the game's lock); later moves
        keep it up to date (`LiveGame.note_named`)."""
        if live.readers is None:
            bodies = sealedlog.runtime_bodies([e.to_dict() for e in live.events], gamelog.RUNTIME_KINDS, live.seed)
            with _rules_running():
                live.readers = gamelog.named_slots(self.rules, live.header, bodies, live.seed, self.budget)
            live.readers.watch(live.game)  # its next decisions, as the fold watched each one
        return live.readers.named

    def _texts(self, live: LiveGame, shown: list[dict[str, Any]], seat: int | None) -> list[str]:
        """The sentences of entries rendered for `seat` (`_render`): while the game runs, a
        component the seat was shown as a slot is named once its move made it public to the seat;
        a component still hidden from it stays a slot."""
        named = self._named(live).get(seat) if not live.finished and any(map(texts.has_slot, shown)) else None
        return texts.entry_texts(live.game.ruleset, shown, named)

    def _render(self, live: LiveGame, e: StoredEvent, seat: int | None) -> dict[str, Any]:
        if live.finished:
            return e.to_dict()
        body = e.body
        if e.kind == "commit":
            body = sealedlog.render_commit(body, seat, live.seed, live.game_id, e.version)
        elif e.kind in gamelog.RUNTIME_KINDS:
            body = live.game.event_view(event_from_dict(e.body), seat)
        return {"game_id": e.game_id, "version": e.version, "kind": e.kind, "body": body}


def _catch_up(live: LiveGame, new: list[StoredEvent]) -> bool:
    """Bring a cached game forward by events another process committed, by replaying their
    moves (the game's seeded chance source regenerates the same chance events), instead of
    folding the whole log again. False (and the cached game unusable) if what the moves
    produce differs from what is stored; the caller then rebuilds from the log."""
    produced: list[dict[str, Any]] = []
    if any(e.kind in sealedlog.SEALED_KINDS for e in new):
        return False  # sealed moves: rebuilt from the log, which opens them
    try:
        for e in new:
            if e.kind == "move":
                seat = e.body["seat"] if e.body["seat"] is not None else -1
                move = Move(e.body["move"], dict(e.body["args"]))
                applied = live.game.apply(seat, move, trusted=True)
                live.note_named(applied)
                produced.extend(json.loads(canonical_json(event_to_dict(x))) for x in applied)
    except Exception:  # any failure means: rebuild from the log, which reports real problems
        return False
    if produced != [e.body for e in new if e.kind in gamelog.RUNTIME_KINDS]:
        return False
    live.events.extend(new)
    live.finished = live.finished or any(e.kind == "reveal" for e in new)
    return True


@contextlib.contextmanager
def _rules_running() -> Iterator[None]:
    """Run rules: their own failures (running out of the execution budget, a runtime error)
    become RulesFailed, a typed error the faces report, instead of a crash."""
    try:
        yield
    except (BudgetExceeded, RuleError) as exc:
        raise _rules_failed(exc) from exc


def _rules_failed(exc: BudgetExceeded | RuleError) -> RulesFailed:
    if isinstance(exc, BudgetExceeded):
        return RulesFailed("budget_exceeded", str(exc), rule=exc.rule or None, source=exc.source or None, budget=exc.budget)
    span = exc.span
    return RulesFailed("rule_error", str(exc), source=f"{span.file}:{span.line}" if span is not None else None)


def _in_round(live: LiveGame, expected_version: int) -> bool:
    """Whether `expected_version` is a version of the open round of a simultaneous step: from the
    version the step opened at (the last entry before the round's commits) to now. A seat quotes
    the version it saw when it chose; the other seats' sealed moves since do not make it stale."""
    if live.game.round_seats is None or expected_version > live.version:
        return False
    start = live.version
    for e in reversed(live.events):
        if e.kind != "commit":
            start = e.version
            break
    return expected_version >= start


def _parse_move(move: Any) -> dict[str, Any]:
    if not isinstance(move, Mapping) or not isinstance(move.get("name"), str) or not move["name"]:
        raise InvalidRequest("bad_move", 'a move is {"name": str, "args": {str: JSON value}}')
    check_text(move["name"], "move name", "bad_move")
    args = check_json(move["args"] if "args" in move else {}, "move args", "bad_move")  # `false` is not `{}`
    if not isinstance(args, Mapping) or not all(isinstance(k, str) for k in args):
        raise InvalidRequest("bad_move", "move args map argument names to JSON values")
    try:
        json.dumps(args, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidRequest("bad_move", f"move args are not JSON values: {exc}") from exc
    return {"name": move["name"], "args": dict(args)}


def _decision(game: Any) -> dict[str, Any]:
    d = game.decision()
    # `stuck`: the seat to act has no legal move (a defect in the rules, reported not hidden).
    return {"step": d.step, "seats": list(d.seats), "terminal": bool(d.terminal), "stuck": bool(getattr(d, "stuck", False))}


def _outcome(game: Any) -> dict[str, Any] | None:
    return gamelog.outcome_of(game)


def _reveal(seed: str, game: Any) -> dict[str, Any]:
    return {"seed": seed, "outcome": _outcome(game)}
