"""The statements every move runs on a SQLite file, sent through the `sqlite3` module itself.

SQLAlchemy Core spends more CPU preparing, executing and wrapping a one-row statement than SQLite
spends running it (about 0.1 ms for the version read of a legal-moves request, 0.2 ms for an
append's transaction; the store's own SQL was a third of a move's server time). The version read,
the hash read and the group append (api/store/group.py) therefore go through plain `sqlite3`
connections kept here; everything else (schema, migrations, game creation, log reads) stays on
SQLAlchemy. The SQL is the same as the Core statements it replaces, and rows written here are
byte for byte those SQLAlchemy writes (`recorded_at` as `YYYY-MM-DD HH:MM:SS.ffffff`, UTC;
booleans as 0/1).

Connections are opened with the store's pragmas (WAL, busy timeout, `synchronous=FULL`), so a
commit here is as durable as one through SQLAlchemy. sqlite3's errors leave as SQLAlchemy's
`DBAPIError` subclasses (`IntegrityError` for a duplicate version), as from the rest of the store.
Only for files: an in-memory database is one connection's own, so it stays on SQLAlchemy's pool.
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import sqlite3
import threading
from typing import Any, Iterator, Sequence

import sqlalchemy as sa

VERSION = "SELECT version FROM ludex_games WHERE game_id = ?"
HASH_AT = "SELECT hash FROM ludex_events WHERE game_id = ? AND version = ?"
ADVANCE = "UPDATE ludex_games SET version = ? WHERE game_id = ? AND version = ?"
FINISH = "UPDATE ludex_games SET version = ?, finished = 1 WHERE game_id = ? AND version = ?"
INSERT = ("INSERT INTO ludex_events (game_id, version, kind, body, prev_hash, hash, recorded_at) "
          "VALUES (?, ?, ?, ?, ?, ?, ?)")

PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA busy_timeout=30000", "PRAGMA synchronous=FULL",
           "PRAGMA foreign_keys=ON")
"""The store's pragmas (api/store/store.py): readers beside one writer, writers that queue, and
an fsync per commit, so an acknowledged move survives a power cut."""


def file_path(url: sa.URL) -> str | None:
    """The file a SQLite URL names, or None for an in-memory database."""
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:") or url.query.get("mode") == "memory":
        return None
    return database


def timestamp(now: dt.datetime) -> str:
    """`now` (UTC) as SQLAlchemy's SQLite dialect stores a DateTime."""
    return now.strftime("%Y-%m-%d %H:%M:%S.%f")


class DirectSqlite:
    """Plain sqlite3 connections to the database file at `path`: readers from a free list (one
    per concurrent reader, opened as needed), and one writer, which the caller uses only under
    the store's write lock."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._free: collections.deque[sqlite3.Connection] = collections.deque()
        self._opened: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._writer: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        # Autocommit (isolation_level None): the writer says BEGIN and COMMIT itself.
        conn = sqlite3.connect(self._path, timeout=30, check_same_thread=False, isolation_level=None)
        for pragma in PRAGMAS:
            conn.execute(pragma)
        with self._lock:
            self._opened.append(conn)
        return conn

    @contextlib.contextmanager
    def _reader(self) -> Iterator[sqlite3.Connection]:
        try:
            conn = self._free.pop()
        except IndexError:
            conn = self._open()
        try:
            yield conn
        finally:
            self._free.append(conn)

    def one(self, sql: str, params: Sequence[Any]) -> Any:
        """The first column of the first row `sql` answers, or None when it answers none."""
        with self._reader() as conn:
            try:
                row = conn.execute(sql, params).fetchone()
            except sqlite3.Error as exc:
                raise _translated(exc) from exc
        return None if row is None else row[0]

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The writer connection in a write transaction, committed (one fsync) when the block
        ends, rolled back if it raises. The caller holds the store's write lock."""
        if self._writer is None:
            self._writer = self._open()
        conn = self._writer
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise _translated(exc) from exc

    def close(self) -> None:
        """Close every connection opened here."""
        with self._lock:
            opened, self._opened = self._opened, []
        self._free.clear()
        self._writer = None
        for conn in opened:
            conn.close()


def _translated(exc: sqlite3.Error) -> sa.exc.StatementError:
    return sa.exc.DBAPIError.instance(None, None, exc, sqlite3.Error)
