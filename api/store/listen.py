"""Change notifications between service processes sharing one PostgreSQL store.

After an append has committed, its store's `ChangeSender` sends `NOTIFY ludex_events,
'<game_id>'`, so a listener hears of events only once they are durable. A `ChangeListener` holds
one connection in LISTEN mode on a daemon thread and reports each game id to a callback, which
lets an event stream in one process wake as soon as another process commits a move.
Notifications are only a wake-up: streams still read the store by version, and still poll now
and then, so a notification lost (during a reconnect, or to a crash between an append's commit
and its notification) only delays a stream, never loses an event.

Why not NOTIFY inside the append's own transaction: PostgreSQL serialises the commits of all
transactions that notified (one lock on the notification queue, held through the commit's WAL
flush), which capped appends at one fsync each, about 400 a second here, whatever the number of
writers. The sender's transactions commit without waiting for the flush (`synchronous_commit =
off`: a notification needs no durability) and carry every game appended meanwhile.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

import sqlalchemy as sa

CHANNEL = "ludex_events"
log = logging.getLogger(__name__)


def conninfo(url: str) -> str:
    """The libpq form psycopg takes of a SQLAlchemy URL (same host, database and options)."""
    return sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class ChangeSender:
    """Sends `NOTIFY CHANNEL, game_id` for appends that have committed, from a daemon thread
    with a connection of its own; game ids given while a batch is being sent go together in the
    next transaction. Thread-safe; started on the first `send`."""

    def __init__(self, url: str) -> None:
        self._conninfo = conninfo(url)
        self._cond = threading.Condition()
        self._pending: dict[str, None] = {}  # game ids in the order given, each once
        self._sending = False
        self._stop = False
        self._thread: threading.Thread | None = None

    def send(self, game_id: str) -> None:
        """Queue a notification for `game_id` (call it after the append committed)."""
        with self._cond:
            self._pending[game_id] = None
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="ludex-notify", daemon=True)
                self._thread.start()
            self._cond.notify()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued has been sent (True) or `timeout` seconds pass (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._sending, timeout)

    def close(self) -> None:
        """Send what is queued (for up to 5 seconds), then stop the thread."""
        self.flush()
        with self._cond:
            self._stop = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(5)

    def _run(self) -> None:
        import psycopg

        conn: Any = None
        while True:
            with self._cond:
                self._sending = False
                self._cond.notify_all()
                self._cond.wait_for(lambda: self._pending or self._stop)
                if self._stop and not self._pending:
                    break
                batch, self._pending = list(self._pending), {}
                self._sending = True
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5)
                    conn.execute("SET synchronous_commit = off")
                conn.execute("SELECT pg_notify(%s, g) FROM unnest(%s::text[]) AS g", (CHANNEL, batch), prepare=True)
            except psycopg.Error as exc:  # these wake-ups are lost; listeners' polls still find the events
                log.warning("change notifications for %d game(s) not sent: %s", len(batch), exc)
                if conn is not None:
                    conn.close()
                conn = None
        if conn is not None:
            conn.close()


class ChangeListener:
    """LISTEN on `CHANNEL` and call `on_change(game_id)` from a background thread.

    `on_change(None)` means "anything may have changed" (after a reconnect).
    """

    def __init__(self, url: str, on_change: Callable[[str | None], None]) -> None:
        self._conninfo = conninfo(url)
        self._on_change = on_change
        self._stop = threading.Event()
        self._listening = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ludex-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> "ChangeListener":
        """Start listening; returns once LISTEN is active (or after `timeout` seconds)."""
        self._thread.start()
        self._listening.wait(timeout)
        return self

    def stop(self) -> None:
        """Stop within about a second."""
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    self._on_change(None)  # whatever happened while we were not listening
                    while not self._stop.is_set():
                        for notify in conn.notifies(timeout=1.0):
                            self._on_change(notify.payload)
            except psycopg.Error as exc:
                log.warning("change listener: %s; reconnecting", exc)
                self._stop.wait(1.0)
