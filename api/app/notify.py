"""Wake-ups for event streams in this process.

Moves are appended from worker threads; streams wait in event loops. `notify` wakes every
waiter on a game at once. It is called for this process's own appends and, on PostgreSQL,
for other processes' appends (`api.store.listen`). Streams also re-read the store every poll
interval, which covers a wake-up that races the waiter's registration and, on SQLite, is how
a stream sees moves appended by another process.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict


class Notifier:
    """Per-game wake-ups from any thread to asyncio waiters."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = defaultdict(set)

    def notify(self, game_id: str | None) -> None:
        """Wake every waiter on `game_id`, or on every game for None (safe from any thread)."""
        with self._lock:
            if game_id is None:
                waiters = [w for ws in self._waiters.values() for w in ws]
            else:
                waiters = list(self._waiters.get(game_id, ()))
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # the waiter's loop has closed
                pass

    async def wait(self, game_id: str, timeout: float) -> None:
        """Return when `game_id` is notified or after `timeout` seconds, whichever is first."""
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters[game_id].add(entry)
        try:
            await asyncio.wait_for(entry[1].wait(), timeout)
        except TimeoutError:
            pass
        finally:
            with self._lock:
                self._waiters[game_id].discard(entry)
                if not self._waiters[game_id]:
                    del self._waiters[game_id]
