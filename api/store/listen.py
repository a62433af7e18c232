"""Change notifications between service processes sharing one PostgreSQL store.

Every append issues `NOTIFY ludex_events, '<game_id>'` in its own transaction, so PostgreSQL
delivers it exactly when the events are committed. A `ChangeListener` holds one connection
in LISTEN mode on a daemon thread and reports each game id to a callback, which lets an event
stream in one process wake as soon as another process commits a move. Notifications are only
a wake-up: streams still read the store by version, and still poll now and then, so a
notification lost during a reconnect only delays a stream, never loses an event.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

import sqlalchemy as sa

CHANNEL = "ludex_events"
log = logging.getLogger(__name__)


class ChangeListener:
    """LISTEN on `CHANNEL` and call `on_change(game_id)` from a background thread.

    `on_change(None)` means "anything may have changed" (after a reconnect).
    """

    def __init__(self, url: str, on_change: Callable[[str | None], None]) -> None:
        # psycopg takes the libpq form of the URL (same host, database and options).
        self._conninfo = sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
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
