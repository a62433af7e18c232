"""The event store: one append-only, hash-chained stream of events per game.

One class over SQLAlchemy Core serves SQLite (the embedded default, a file) and PostgreSQL (for
several service replicas sharing one database); the SQL is written once and SQLAlchemy speaks the
dialect, except on the hot path: the PostgreSQL append is one hand-written statement sent through
psycopg itself, and on a SQLite file the version read, the hash read and the append go through
`sqlite3` itself (api/store/sqlite_direct.py). A move is acknowledged only after `append` returns, and `append` returns
only after its transaction has committed (and, with synchronous_commit on, reached the disk).

Optimistic concurrency: `append(game_id, expected_version, ...)` first moves the game's version
with a compare-and-set (`UPDATE ... WHERE version = expected`), which also locks the game row, and
the `(game_id, version)` primary key makes a duplicate version impossible even without it. A
losing append raises `VersionConflict` and writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import threading
import time
import weakref
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, NoReturn, Sequence, cast

import attrs
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from api.store import migrate, sqlite_direct
from api.store.chain import GENESIS, LOG_FORMAT, canonical_json, event_hash
from api.store.group import GroupAppender, PendingAppend
from api.store.listen import ChangeListener, ChangeSender
from api.store.migrate import Migration
from api.store.schema import events, games
from api.store.sqlite_direct import DirectSqlite, file_path, timestamp

if TYPE_CHECKING:
    import psycopg  # imported when a PostgreSQL store first appends (it takes a while to import)

DEFAULT_URL = "sqlite:///ludex.db"


class StoreError(Exception):
    """Base class of event-store errors."""


class GameNotFound(StoreError):
    """No stream exists for this game id."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class GameExists(StoreError):
    """A stream with this game id already exists."""


class VersionConflict(StoreError):
    """The stream is no longer at the expected version; nothing was written."""

    def __init__(self, game_id: str, expected: int, actual: int | None) -> None:
        super().__init__(f"game {game_id!r} is at version {actual}, not {expected}")
        self.game_id, self.expected, self.actual = game_id, expected, actual


@attrs.frozen
class StoredEvent:
    """One committed event. `version` counts from 1 (the header); `body` is a JSON dict."""

    game_id: str
    version: int
    kind: str
    body: dict[str, Any]
    prev_hash: str
    hash: str

    def to_dict(self) -> dict[str, Any]:
        """The log-line form: `{game_id, version, kind, body, prev_hash, hash}`."""
        return {
            "game_id": self.game_id,
            "version": self.version,
            "kind": self.kind,
            "body": self.body,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


@attrs.frozen
class GameRecord:
    """The non-event state of a stream: version, whether it ended, and its secrets."""

    game_id: str
    version: int
    finished: bool
    seed: str
    token_hashes: tuple[str, ...]


# Statements used on every move, built once (building them is a noticeable part of a request).
_VERSION = sa.select(games.c.version).where(games.c.game_id == sa.bindparam("gid"))
_HASH_AT = sa.select(events.c.hash).where(events.c.game_id == sa.bindparam("gid"), events.c.version == sa.bindparam("v"))
_CAS_WHERE = (games.c.game_id == sa.bindparam("gid"), games.c.version == sa.bindparam("expected"))
_ADVANCE = games.update().where(*_CAS_WHERE).values(version=sa.bindparam("new_version"))
_FINISH = games.update().where(*_CAS_WHERE).values(version=sa.bindparam("new_version"), finished=True)

_PG_HASH_AT = "SELECT hash FROM ludex_events WHERE game_id = %s AND version = %s"
_PG_VERSION = "SELECT version FROM ludex_games WHERE game_id = %s"


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run while one writer commits; busy_timeout makes writers queue instead
    # of failing at once; synchronous=FULL so an acknowledged move survives a power cut.
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


PING_AFTER_IDLE = 1.0
"""Seconds a pooled server connection may rest before its next use begins with a ping."""


def _ping_when_idle(engine: sa.Engine) -> None:
    """Check a pooled connection that has rested over PING_AFTER_IDLE seconds before handing it
    out, and replace it when the server has dropped it (restarted, idle timeout): what
    `pool_pre_ping` does on every checkout, which costs each append a second round trip. A
    connection in steady use is not pinged; one broken in the meantime fails its statement,
    and the pool replaces it."""

    def stamp(_dbapi_connection: Any, record: Any, *_: Any) -> None:
        record.info["rested_since"] = time.monotonic()

    def check(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get("rested_since", 0.0) <= PING_AFTER_IDLE:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as exc:
            raise sa.exc.DisconnectionError(f"pooled connection is gone: {exc}") from exc

    sa.event.listen(engine, "connect", stamp)
    sa.event.listen(engine, "checkin", stamp)
    sa.event.listen(engine, "checkout", check)


class EventStore:
    """Append-only event streams in a SQL database named by a SQLAlchemy URL.

    `EventStore("sqlite:///ludex.db")` or `EventStore("postgresql+psycopg://user@host/db")`.
    Tables and triggers are created, or migrated to the newest schema, when it opens
    (`create=False` leaves the schema alone). Thread-safe: each call uses its own
    connection from the engine's pool, which holds at most `pool_size` connections to a
    PostgreSQL server (each replica of the service counts against its max_connections).
    """

    def __init__(self, url: str = DEFAULT_URL, *, create: bool = True, pool_size: int = 50) -> None:
        self.url = url
        engine_url = sa.make_url(url)
        self.dialect = engine_url.get_backend_name()
        kwargs: dict[str, Any] = {}
        if self.dialect == "sqlite":
            kwargs["connect_args"] = {"timeout": 30, "check_same_thread": False}
        else:
            # Opened as needed, kept once open: enough for 50 concurrent requests without queueing
            # in the pool. (Before appends were grouped, 30 gave 50 writers a third fewer
            # appends/s than 50; grouped appends use at most GroupAppender's max_in_flight.)
            kwargs.update(pool_size=pool_size, max_overflow=0)
        self.engine = sa.create_engine(engine_url, **kwargs)
        if self.dialect != "sqlite":
            _ping_when_idle(self.engine)
        if self.dialect == "sqlite":
            # Every write transaction here starts with its write (INSERT or UPDATE), so SQLite
            # takes the write lock first and never has to upgrade a read lock.
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        # SQLite has one writer at a time and makes waiting writers poll with sleeps; queueing
        # this process's writers on a lock instead keeps latency flat under load. PostgreSQL
        # locks rows itself, so there the lock is a no-op.
        self._changes = ChangeSender(url)  # PostgreSQL only; its thread starts with the first append
        # Appends of different games made together share one statement and commit (group.py);
        # on SQLite, one group at a time, each in one transaction and one fsync.
        self._groups = (GroupAppender(self._autocommit) if self.dialect != "sqlite"
                        else GroupAppender(self._write_transaction, max_in_flight=1, run=self._run_sqlite_group))
        self._wakers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Callable[[list[PendingAppend]], None]] = weakref.WeakKeyDictionary()
        self._write_lock: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if self.dialect == "sqlite" else contextlib.nullcontext()
        )
        # A SQLite file's hot statements skip SQLAlchemy (api/store/sqlite_direct.py).
        path = file_path(engine_url) if self.dialect == "sqlite" else None
        self._direct = DirectSqlite(path) if path is not None else None
        if create:
            self.create_tables()

    def create_tables(self) -> Migration:
        """Create the schema, or upgrade it to the newest revision (api/store/migrate.py);
        safe to race from replicas."""
        return migrate.upgrade(self.engine)

    def ping(self) -> None:
        """Round-trip to the database (raises if it is unreachable)."""
        with self.engine.connect() as conn:
            conn.execute(sa.select(1))

    def dispose(self) -> None:
        """Send pending change notifications, close pooled connections."""
        self._changes.close()
        if self._direct is not None:
            self._direct.close()
        self.engine.dispose()

    # -- writing ---------------------------------------------------------------------------

    def create_game(
        self,
        game_id: str,
        first_events: Sequence[tuple[str, dict[str, Any]]],
        *,
        seed: str,
        token_hashes: Sequence[str],
        finished: bool = False,
        log_format: str = LOG_FORMAT,
    ) -> list[StoredEvent]:
        """Start a stream with `first_events` (the header first) as versions 1..n, atomically,
        hashed as `log_format` says (api/store/chain.py).

        Raises GameExists if the id is taken.
        """
        if not first_events:
            raise ValueError("a stream starts with at least its header event")
        chained = _chain(game_id, 0, GENESIS, first_events, log_format)
        try:
            with self._write_lock, self.engine.begin() as conn:
                conn.execute(
                    games.insert().values(
                        game_id=game_id,
                        version=len(chained),
                        finished=finished,
                        seed=seed,
                        token_hashes=json.dumps(list(token_hashes)),
                        created_at=_now(),
                    )
                )
                conn.execute(events.insert(), [_row(e, text) for e, text in chained])
        except IntegrityError as exc:
            raise GameExists(f"game {game_id!r} already exists") from exc
        return [e for e, _ in chained]

    def append(
        self,
        game_id: str,
        expected_version: int,
        new_events: Sequence[tuple[str, dict[str, Any]]],
        *,
        finished: bool = False,
        prev_hash: str | None = None,
        log_format: str = LOG_FORMAT,
    ) -> list[StoredEvent]:
        """Append `new_events` after `expected_version`, all or nothing.

        Returns the stored events (versions expected+1...). Raises VersionConflict if the
        stream has moved on, GameNotFound if it does not exist. `finished=True` marks the game
        ended in the same transaction. `prev_hash`, the hash of event `expected_version`, saves
        a read when the caller already holds it; events never change, so once the version
        check passes a hash read earlier is still the head's. `log_format` is the one the
        stream's header states (an old stream keeps its legacy hashes).
        """
        if not new_events:
            return []
        pending, stored = self._pending(game_id, expected_version, new_events, finished, prev_hash, log_format)
        try:
            moved = self._groups.append(pending)
        except IntegrityError as exc:
            raise VersionConflict(game_id, expected_version, None) from exc
        return self._appended(pending, moved, stored)

    async def append_on_loop(
        self,
        game_id: str,
        expected_version: int,
        new_events: Sequence[tuple[str, dict[str, Any]]],
        *,
        finished: bool = False,
        prev_hash: str,
        log_format: str = LOG_FORMAT,
    ) -> list[StoredEvent]:
        """`append` for a caller on an event loop, where the commit's wait must not block:
        the append joins the store's group queue and the loop runs other work until its group
        has committed (on the group appender's own threads, which wake the loop once per group).
        Only a refusal reads the store on the loop (`VersionConflict` with the version now)."""
        if not new_events:
            return []
        pending, stored = self._pending(game_id, expected_version, new_events, finished, prev_hash, log_format)
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        pending.answered = self._waker(loop)
        pending.woken = done
        self._groups.append_later(pending)
        await done
        if pending.error is not None:
            if isinstance(pending.error, IntegrityError):
                raise VersionConflict(game_id, expected_version, None) from pending.error
            raise pending.error
        assert pending.moved is not None
        return self._appended(pending, pending.moved, stored)

    def _waker(self, loop: asyncio.AbstractEventLoop) -> Callable[[list[PendingAppend]], None]:
        """The callback that wakes `loop`'s appends of a group, one call per group (the same
        object for one loop, so the appender groups the callbacks)."""
        waker = self._wakers.get(loop)
        if waker is None:

            loop_ref = weakref.ref(loop)  # the table's value must not keep its key alive

            def waker(appends: list[PendingAppend]) -> None:
                target = loop_ref()
                if target is not None:
                    target.call_soon_threadsafe(_wake, appends)

            self._wakers[loop] = waker
        return waker

    def _pending(
        self, game_id: str, expected_version: int, new_events: Sequence[tuple[str, dict[str, Any]]], finished: bool,
        prev_hash: str | None, log_format: str,
    ) -> tuple[PendingAppend, list[StoredEvent]]:
        if prev_hash is None:
            # Events never change: the hash of event `expected_version` read now is still the
            # head's if the compare-and-set passes.
            prev_hash = self._hash_at(game_id, expected_version)
        chained = _chain(game_id, expected_version, prev_hash, new_events, log_format)
        pending = PendingAppend(game_id, expected_version, finished,
                                [(e.version, e.kind, text, e.prev_hash, e.hash) for e, text in chained])
        return pending, [e for e, _ in chained]

    def _appended(self, pending: PendingAppend, moved: bool, stored: list[StoredEvent]) -> list[StoredEvent]:
        if not moved:
            self._refuse(pending.game_id, pending.expected)
        if self.dialect == "postgresql":
            self._changes.send(pending.game_id)
        return stored

    def _hash_at(self, game_id: str, version: int) -> str:
        """The hash of event `version`; raises GameNotFound or VersionConflict when the stream
        has no such event."""
        if self.dialect == "postgresql":
            # On the psycopg connection itself (SQLAlchemy's statement layer cost more CPU than
            # the rest).
            with self._autocommit() as pg:
                row = pg.execute(_PG_HASH_AT, (game_id, version), prepare=True).fetchone()
        elif self._direct is not None:
            found = self._direct.one(sqlite_direct.HASH_AT, (game_id, version))
            row = None if found is None else (found,)
        else:
            with self.engine.connect() as conn:
                row = conn.execute(_HASH_AT, {"gid": game_id, "v": version}).one_or_none()
        if row is None:
            self._refuse(game_id, version)
        return str(row[0])

    @contextlib.contextmanager
    def _write_transaction(self) -> Iterator[sa.Connection]:
        """A SQLite write transaction, taken after this process's other writers (see __init__)."""
        with self._write_lock, self.engine.begin() as conn:
            yield conn

    def _run_sqlite_group(self, group: list[PendingAppend]) -> set[str]:
        """A group of appends in one SQLite transaction, so one commit and one fsync: each game
        its own compare-and-set, its events inserted only if its row moved. Answers the ids of
        the games moved."""
        moved: set[str] = set()
        if self._direct is not None:
            at = timestamp(_now())
            with self._write_lock, self._direct.transaction() as db:
                direct_rows: list[tuple[str, int, str, str, str, str, str]] = []
                for p in group:
                    cas = (sqlite_direct.FINISH if p.finished else sqlite_direct.ADVANCE,
                           (p.expected + len(p.rows), p.game_id, p.expected))
                    if db.execute(*cas).rowcount != 1:
                        continue
                    moved.add(p.game_id)
                    direct_rows.extend((p.game_id, v, kind, body, prev, h, at) for v, kind, body, prev, h in p.rows)
                if direct_rows:
                    db.executemany(sqlite_direct.INSERT, direct_rows)
            return moved
        rows: list[dict[str, Any]] = []
        now = _now()
        with self._write_transaction() as conn:
            for p in group:
                params = {"gid": p.game_id, "expected": p.expected, "new_version": p.expected + len(p.rows)}
                if conn.execute(_FINISH if p.finished else _ADVANCE, params).rowcount != 1:
                    continue
                moved.add(p.game_id)
                rows.extend({"game_id": p.game_id, "version": v, "kind": kind, "body": body,
                             "prev_hash": prev, "hash": h, "recorded_at": now}
                            for v, kind, body, prev, h in p.rows)
            if rows:
                conn.execute(events.insert(), rows)
        return moved

    @contextlib.contextmanager
    def _autocommit(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled psycopg connection in autocommit mode (each statement its own transaction).
        psycopg errors leave as SQLAlchemy's DBAPIError subclasses, as from the rest of the
        store, and a broken connection is dropped from the pool."""
        import psycopg

        pooled = self.engine.raw_connection()
        try:
            conn = cast("psycopg.Connection[Any]", pooled.driver_connection)
            conn.autocommit = True
            try:
                yield conn
            except psycopg.Error as exc:
                if conn.broken or conn.closed:
                    pooled.invalidate(exc)
                raise sa.exc.DBAPIError.instance(None, None, exc, psycopg.Error) from exc
            finally:
                if not conn.closed:
                    conn.autocommit = False
        finally:
            pooled.close()

    def _refuse(self, game_id: str, expected_version: int) -> NoReturn:
        """Raise why an append after `expected_version` wrote nothing: GameNotFound or
        VersionConflict with the stream's version now."""
        actual = self.version_or_none(game_id)
        if actual is None:
            raise GameNotFound(game_id)
        raise VersionConflict(game_id, expected_version, actual)

    def listener(self, on_change: Callable[[str | None], None]) -> ChangeListener | None:
        """A started `ChangeListener` reporting appends made by any process (PostgreSQL), or
        None where the database has no notifications (SQLite: readers poll)."""
        if self.dialect != "postgresql":
            return None
        return ChangeListener(self.url, on_change).start()

    # -- reading ---------------------------------------------------------------------------

    def game(self, game_id: str) -> GameRecord:
        """The stream's record; raises GameNotFound."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(games).where(games.c.game_id == game_id)).one_or_none()
        if row is None:
            raise GameNotFound(game_id)
        return GameRecord(
            game_id=row.game_id,
            version=row.version,
            finished=bool(row.finished),
            seed=row.seed,
            token_hashes=tuple(json.loads(row.token_hashes)),
        )

    def version(self, game_id: str) -> int:
        """The stream's current version (number of events); raises GameNotFound."""
        v = self.version_or_none(game_id)
        if v is None:
            raise GameNotFound(game_id)
        return v

    def version_or_none(self, game_id: str) -> int | None:
        """The stream's current version, or None when there is no such stream."""
        if self._direct is not None:
            found = self._direct.one(sqlite_direct.VERSION, (game_id,))
            return None if found is None else int(found)
        if self.dialect == "postgresql":
            with self._autocommit() as pg:
                row = pg.execute(_PG_VERSION, (game_id,), prepare=True).fetchone()
            return None if row is None else int(row[0])
        with self.engine.connect() as conn:
            v = conn.execute(_VERSION, {"gid": game_id}).scalar_one_or_none()
        return None if v is None else int(v)

    def load(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """Events with `after < version <= upto`, in order; raises GameNotFound."""
        query = (
            sa.select(events)
            .where(events.c.game_id == game_id, events.c.version > after)
            .order_by(events.c.version)
        )
        if upto is not None:
            query = query.where(events.c.version <= upto)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            if not rows and after == 0:
                exists = conn.execute(
                    sa.select(games.c.game_id).where(games.c.game_id == game_id)
                ).scalar_one_or_none()
                if exists is None:
                    raise GameNotFound(game_id)
        return [
            StoredEvent(r.game_id, r.version, r.kind, json.loads(r.body), r.prev_hash, r.hash) for r in rows
        ]

    def game_ids(self) -> list[str]:
        """Every stream's id, oldest first."""
        with self.engine.connect() as conn:
            return list(conn.execute(sa.select(games.c.game_id).order_by(games.c.created_at)).scalars())


def _chain(
    game_id: str,
    after_version: int,
    prev_hash: str,
    new_events: Iterable[tuple[str, dict[str, Any]]],
    log_format: str,
) -> list[tuple[StoredEvent, str]]:
    """The events chained after `prev_hash`, each with its body's canonical JSON text."""
    stored = []
    for offset, (kind, body) in enumerate(new_events, start=1):
        # Round-trip through canonical JSON so the stored body is exactly what was hashed.
        text = canonical_json(body)
        body = json.loads(text)
        version = after_version + offset
        h = event_hash(game_id, version, kind, body, prev_hash, log_format)
        stored.append((StoredEvent(game_id, version, kind, body, prev_hash, h), text))
        prev_hash = h
    return stored


def _wake(appends: list[PendingAppend]) -> None:
    for p in appends:
        if p.woken is not None and not p.woken.done():
            p.woken.set_result(None)


def _row(e: StoredEvent, body_text: str) -> dict[str, Any]:
    return {
        "game_id": e.game_id,
        "version": e.version,
        "kind": e.kind,
        "body": body_text,
        "prev_hash": e.prev_hash,
        "hash": e.hash,
        "recorded_at": _now(),
    }
