"""Group appends: appends to different games that arrive together share one statement, so one
transaction, one round trip and one WAL flush on PostgreSQL; on SQLite (`run` given by the store,
one group at a time) one transaction and one fsync.

Each append is still all or nothing on its own: the statement moves every game's version with
its own compare-and-set (`UPDATE ... WHERE version = expected`) and inserts a game's events only
when its row moved; a game whose version had moved on is simply left out, and its append answers
"not moved" while the others in the group commit. A group never holds two appends to one game
(the second waits for the next group). Should a group's statement fail as a whole (a duplicate
version, a deadlock between two processes' groups on the same games), each of its appends is
retried alone, so every append gets its own answer.

At most `max_in_flight` groups are in flight at once; an append that arrives while they all are
waits in a queue, and when a group commits, the first waiting append's thread sends the next group
from the queue. An append that arrives while fewer groups are in flight is sent at once: a lone
writer pays no wait. A caller on an event loop queues with `append_later` instead of blocking: the
appender's own thread sends its groups and calls back once per group.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable, ContextManager

import attrs

# The group in one statement, run in autocommit (its own transaction; synchronous_commit stays
# on, so acknowledged means durable). Answers the ids of the games whose version it moved.
GROUP_APPEND = """\
WITH cas AS (
    UPDATE ludex_games AS g SET version = b.new_version, finished = g.finished OR b.finished
    FROM unnest(%(gids)b::text[], %(expected)b::integer[], %(new_versions)b::integer[], %(finished)b::boolean[])
        AS b(game_id, expected, new_version, finished)
    WHERE g.game_id = b.game_id AND g.version = b.expected
    RETURNING g.game_id
), appended AS (
    INSERT INTO ludex_events (game_id, version, kind, body, prev_hash, hash, recorded_at)
    SELECT e.game_id, e.version, e.kind, e.body, e.prev_hash, e.hash, now()
    FROM unnest(%(event_gids)b::text[], %(versions)b::integer[], %(kinds)b::text[], %(bodies)b::text[],
                %(prev_hashes)b::text[], %(hashes)b::text[]) AS e(game_id, version, kind, body, prev_hash, hash)
    WHERE e.game_id IN (SELECT game_id FROM cas)
)
SELECT game_id FROM cas"""

MAX_GROUP = 64
"""Appends in one statement at most."""


@attrs.define(eq=False)
class PendingAppend:
    """One append waiting for its group: the game, the version it expects, and its rows as
    `(version, kind, body text, prev_hash, hash)`."""

    game_id: str
    expected: int
    finished: bool
    rows: list[tuple[int, str, str, str, str]]
    moved: bool | None = None  # the answer: True committed, False the version had moved on
    error: BaseException | None = None
    group: list["PendingAppend"] | None = None  # set when this append's thread is to send a group
    # For `append_later`: called (on the appender's thread) with answered appends.
    answered: Callable[[list["PendingAppend"]], None] | None = None
    woken: Any = None  # what `answered` wakes (an asyncio future of the caller's loop)
    ready: threading.Event = attrs.field(factory=threading.Event)


class GroupAppender:
    """Sends concurrent appends in groups (see the module docstring). `connection()` gives a
    pooled psycopg connection in autocommit, as a context manager."""

    def __init__(
        self,
        connection: Callable[[], ContextManager[Any]],
        max_in_flight: int = 4,
        run: Callable[[list[PendingAppend]], set[str]] | None = None,
    ) -> None:
        self._connection = connection
        # Commits a group, answering the ids of the games it moved: PostgreSQL's statement, or
        # another database's (SQLite's, from api/store/store.py).
        self._commit = run if run is not None else self._run
        self._max_in_flight = max_in_flight
        self._lock = threading.Lock()
        self._queue: list[PendingAppend] = []
        self._in_flight = 0
        self._jobs: queue.SimpleQueue[list[PendingAppend]] | None = None  # append_later's thread

    def append(self, item: PendingAppend) -> bool:
        """Commit `item` (in some group); True if its events were stored, False if the game's
        version was not `item.expected`. Raises what the statement raised for it alone."""
        with self._lock:
            if self._in_flight < self._max_in_flight:
                self._in_flight += 1
                group: list[PendingAppend] | None = self._take([item])
            else:
                self._queue.append(item)
                group = None
        if group is None:
            item.ready.wait()
            group = item.group  # None: another thread sent it
        if group is not None:
            self._drive(group)
        if item.error is not None:
            raise item.error
        assert item.moved is not None
        return item.moved

    def append_later(self, item: PendingAppend) -> None:
        """Queue `item` without waiting: it is committed in some group on one of the appender's
        own threads, and `item.answered([item, ...])` is then called there, once per group with the
        group's appends that share that callback (an event loop's caller wakes once per group,
        not once per append). Read the answer from `item.moved` and `item.error` then."""
        assert item.answered is not None
        with self._lock:
            if self._in_flight < self._max_in_flight:
                self._in_flight += 1
                group = self._take([item])
            else:
                self._queue.append(item)
                return
        if self._jobs is None:
            with self._lock:
                if self._jobs is None:  # one thread per group that may be in flight
                    self._jobs = queue.SimpleQueue()
                    for _ in range(self._max_in_flight):
                        threading.Thread(target=self._serve_jobs, args=(self._jobs,), name="ludex-appends",
                                         daemon=True).start()
        self._jobs.put(group)

    def _serve_jobs(self, jobs: queue.SimpleQueue[list[PendingAppend]]) -> None:
        while True:
            self._drive(jobs.get())

    def _drive(self, group: list[PendingAppend]) -> None:
        """Send `group`, answer its appends, then the groups queued meanwhile: on this thread
        while the next group's first append is a queued `append_later`, else that append's own
        thread sends it (it is woken with the group)."""
        while True:
            try:
                self._send(group)
            finally:
                later: dict[Any, list[PendingAppend]] = {}
                for p in group:  # never leave an append waiting, whatever stopped the sender
                    if p.moved is None and p.error is None:
                        p.error = RuntimeError("the group append was interrupted")
                    p.ready.set()
                    if p.answered is not None:
                        later.setdefault(p.answered, []).append(p)
                for answered, items in later.items():
                    try:
                        answered(items)
                    except Exception:  # noqa: S110  # e.g. the caller's loop has closed: nobody to wake
                        pass
            with self._lock:
                following = self._take([]) if self._queue else None
                if following is None:
                    self._in_flight -= 1
            if following is None:
                return
            if following[0].answered is None:  # the first waiting append's thread sends the next group
                following[0].group = following
                following[0].ready.set()
                return
            group = following

    def _take(self, group: list[PendingAppend]) -> list[PendingAppend]:
        """`group` plus queued appends of other games, up to MAX_GROUP (called under the lock)."""
        games = {p.game_id for p in group}
        rest = []
        for p in self._queue:
            if len(group) < MAX_GROUP and p.game_id not in games:
                group.append(p)
                games.add(p.game_id)
            else:
                rest.append(p)
        self._queue = rest
        return group

    def _send(self, group: list[PendingAppend]) -> None:
        """Run the group's statement and answer each append in it (also the sender's own); the
        caller wakes the appends' threads."""
        try:
            moved = self._commit(group)
        except Exception as exc:
            if len(group) == 1:
                group[0].error = exc
                return
            for p in group:  # each alone, for answers of its own
                try:
                    p.moved = p.game_id in self._commit([p])
                except Exception as alone:
                    p.error = alone
                p.ready.set()
            return
        for p in group:
            p.moved = p.game_id in moved

    def _run(self, group: list[PendingAppend]) -> set[str]:
        """Commit `group` in one statement (PostgreSQL); the ids of the games it moved."""
        # In game id order, so that two groups sharing games lock their rows in the same order.
        group = sorted(group, key=lambda p: p.game_id)
        rows = [(p.game_id, *row) for p in group for row in p.rows]
        params = {
            "gids": [p.game_id for p in group],
            "expected": [p.expected for p in group],
            "new_versions": [p.expected + len(p.rows) for p in group],
            "finished": [p.finished for p in group],
            "event_gids": [r[0] for r in rows],
            "versions": [r[1] for r in rows],
            "kinds": [r[2] for r in rows],
            "bodies": [r[3] for r in rows],
            "prev_hashes": [r[4] for r in rows],
            "hashes": [r[5] for r in rows],
        }
        with self._connection() as conn:
            return {gid for (gid,) in conn.execute(GROUP_APPEND, params, prepare=True)}
