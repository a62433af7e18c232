"""Group appends (api/store/group.py): concurrent appends to different games share a statement
(PostgreSQL) or a transaction (SQLite), yet each gets its own answer, all or nothing; races
still have one winner."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from api.store import EventStore, VersionConflict, first_broken_link
from api.store.group import GroupAppender, PendingAppend


class FakeConnection:
    """Answers a group with the ids of its games, except that a group holding `bad` with others
    fails as a whole and `bad` alone fails; the first statement waits for `release`."""

    def __init__(self) -> None:
        self.groups: list[list[str]] = []
        self.release = threading.Event()
        self.entered = threading.Event()

    def execute(self, _sql, params, prepare):
        gids = list(params["gids"])
        self.groups.append(gids)
        if len(self.groups) == 1:
            self.entered.set()
            self.release.wait(5)
        if "bad" in gids:
            raise RuntimeError(f"group {gids} failed")
        return [(g,) for g in gids if g != "stale"]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _pending(game_id: str) -> PendingAppend:
    return PendingAppend(game_id, 1, False, [(2, "move", "{}", "0" * 64, "1" * 64)])


def test_appends_that_wait_go_together_and_each_gets_its_own_answer():
    conn = FakeConnection()
    groups = GroupAppender(lambda: conn, max_in_flight=1)
    answers: dict[str, object] = {}

    def append(game_id: str) -> None:
        try:
            answers[game_id] = groups.append(_pending(game_id))
        except RuntimeError as exc:
            answers[game_id] = str(exc)

    first = threading.Thread(target=append, args=("first",))
    first.start()
    assert conn.entered.wait(5)  # "first" holds the only slot; the others queue behind it
    waiting = [threading.Thread(target=append, args=(g,)) for g in ("a", "stale", "bad", "a")]
    for t in waiting:
        t.start()
    while len(groups._queue) < 4:
        threading.Event().wait(0.01)
    conn.release.set()
    for t in [first, *waiting]:
        t.join(5)
    # The queued appends went as one group (without the second append to "a", which waited for
    # the next); it failed as a whole because of "bad", so each was retried alone.
    assert conn.groups[0] == ["first"]
    assert conn.groups[1] == ["a", "bad", "stale"]
    assert sorted(map(sorted, conn.groups[2:5])) == [["a"], ["bad"], ["stale"]]
    assert conn.groups[5:] == [["a"]]
    assert answers == {"first": True, "a": True, "stale": False, "bad": "group ['bad'] failed"}


def test_concurrent_appends_to_many_games_with_races(db_url):
    store = EventStore(db_url)
    try:
        games = [f"g-{i}" for i in range(12)]
        for g in games:
            store.create_game(g, [("header", {"n": g})], seed="s", token_hashes=["h"])
        barrier = threading.Barrier(36)
        won: dict[str, list[int]] = {g: [] for g in games}

        def attempt(i: int) -> None:
            game_id = games[i % len(games)]  # three writers race on each game, at the same version
            barrier.wait()
            try:
                store.append(game_id, 1, [("move", {"by": i}), ("chance", {"o": i})])
                won[game_id].append(i)
            except VersionConflict as exc:
                assert exc.actual == 3

        threads = [threading.Thread(target=attempt, args=(i,)) for i in range(36)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for g in games:
            assert len(won[g]) == 1, won
            log = store.load(g)
            assert [e.version for e in log] == [1, 2, 3]
            assert log[1].body == {"by": won[g][0]}
            assert first_broken_link([e.to_dict() for e in log]) is None
    finally:
        store.dispose()


@pytest.mark.parametrize("finished", [False, True])
def test_a_grouped_append_sets_finished_only_on_its_own_game(db_url, finished):
    store = EventStore(db_url)
    try:
        for g in ("a", "b"):
            store.create_game(g, [("header", {})], seed="s", token_hashes=["h"])
        store.append("a", 1, [("move", {})], finished=finished)
        assert store.game("a").finished is finished
        assert store.game("b").finished is False
    finally:
        store.dispose()


def test_sqlite_appends_that_wait_share_one_transaction(sqlite_url):
    store = EventStore(sqlite_url)
    try:
        games = ["a", "b", "c", "stale"]
        for g in games:
            store.create_game(g, [("header", {})], seed="s", token_hashes=["h"])
        store.append("stale", 1, [("move", {}), ("move", {})])
        commits: list[int] = []
        transaction = store._direct.transaction  # appends to a SQLite file skip SQLAlchemy

        def counted() -> Any:
            commits.append(1)
            return transaction()

        store._direct.transaction = counted  # type: ignore[method-assign]
        answers: dict[str, object] = {}

        def append(game_id: str) -> None:
            try:
                answers[game_id] = store.append(game_id, 1, [("move", {"g": game_id})])[0].version
            except VersionConflict as exc:
                answers[game_id] = exc.actual

        with store._write_lock:  # the first group waits for the write lock; the others queue behind it
            threads = [threading.Thread(target=append, args=(g,)) for g in games]
            for t in threads:
                t.start()
            while len(store._groups._queue) < 3:
                threading.Event().wait(0.01)
        for t in threads:
            t.join(5)
        assert answers == {"a": 2, "b": 2, "c": 2, "stale": 3}  # stale: its conflict, at version 3
        assert len(commits) == 2  # the first append alone, then the three that waited together
        for g in ("a", "b", "c"):
            assert first_broken_link([e.to_dict() for e in store.load(g)]) is None
            assert store.load(g)[-1].body == {"g": g}
    finally:
        store.dispose()


def test_appends_from_an_event_loop_share_commits_and_each_gets_its_own_answer(db_url):
    """`append_on_loop`: many games appended at once from one loop (a stale one among them)
    commit in groups, each append answered on its own, chained as any other append."""
    store = EventStore(db_url)
    try:
        games = [f"g{i}" for i in range(20)]
        for g in [*games, "stale"]:
            store.create_game(g, [("header", {})], seed="s", token_hashes=["h"])
        store.append("stale", 1, [("move", {})])
        heads = {g: store.load(g)[-1].hash for g in [*games, "stale"]}

        async def append(game_id: str) -> object:
            try:
                stored = await store.append_on_loop(game_id, 1, [("move", {"g": game_id})], prev_hash=heads[game_id])
                return stored[0].version
            except VersionConflict as exc:
                return exc.actual

        async def everything() -> list[object]:
            return await asyncio.gather(*(append(g) for g in [*games, "stale"]))

        assert asyncio.run(everything()) == [2] * len(games) + [2]  # stale: its conflict, at version 2
        for g in games:
            assert first_broken_link([e.to_dict() for e in store.load(g)]) is None
            assert store.load(g)[-1].body == {"g": g}
        assert len(store.load("stale")) == 2
    finally:
        store.dispose()
