"""The event store on SQLite and PostgreSQL: chaining, optimistic concurrency, immutability."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from api.store import (
    GENESIS,
    EventStore,
    GameExists,
    GameNotFound,
    VersionConflict,
    first_broken_link,
)


@pytest.fixture
def store(db_url):
    s = EventStore(db_url)
    yield s
    s.dispose()


def _start(store: EventStore, game_id: str = "g-1") -> None:
    store.create_game(
        game_id,
        [("header", {"ruleset": "r", "seats": 2}), ("chance", {"outcome": "a"})],
        seed="secret",
        token_hashes=["h0", "h1"],
    )


def test_create_append_load_round_trip(store):
    _start(store)
    added = store.append("g-1", 2, [("move", {"name": "pass", "args": {}}), ("chance", {"outcome": 3})])
    assert [e.version for e in added] == [3, 4]
    log = store.load("g-1")
    assert [e.kind for e in log] == ["header", "chance", "move", "chance"]
    assert log[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in zip(log, log[1:]))
    assert first_broken_link([e.to_dict() for e in log]) is None
    assert store.version("g-1") == 4
    assert [e.version for e in store.load("g-1", after=2)] == [3, 4]
    record = store.game("g-1")
    assert record.seed == "secret" and record.token_hashes == ("h0", "h1") and not record.finished


def test_stale_append_fails_and_writes_nothing(store):
    _start(store)
    store.append("g-1", 2, [("move", {"n": 1})])
    before = store.load("g-1")
    with pytest.raises(VersionConflict) as info:
        store.append("g-1", 2, [("move", {"n": 2}), ("chance", {"o": 1})])
    assert info.value.actual == 3
    assert store.load("g-1") == before
    assert store.version("g-1") == 3


def test_concurrent_appends_one_wins(store):
    _start(store)
    barrier = threading.Barrier(8)
    results: list[str] = []

    def attempt(i: int) -> None:
        barrier.wait()
        try:
            store.append("g-1", 2, [("move", {"by": i})])
            results.append("ok")
        except VersionConflict:
            results.append("conflict")

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict"] * 7 + ["ok"]
    log = store.load("g-1")
    assert len(log) == 3 and first_broken_link([e.to_dict() for e in log]) is None


def test_database_refuses_update_and_delete_of_events(store):
    _start(store)
    for statement in (
        "UPDATE ludex_events SET body = '{}' WHERE version = 2",
        "DELETE FROM ludex_events WHERE version = 2",
    ):
        with pytest.raises(sa.exc.DBAPIError, match="append-only"):
            with store.engine.begin() as conn:
                conn.execute(sa.text(statement))
    assert [e.body for e in store.load("g-1")][1] == {"outcome": "a"}


def test_unknown_and_duplicate_games(store):
    with pytest.raises(GameNotFound):
        store.load("nope")
    with pytest.raises(GameNotFound):
        store.version("nope")
    with pytest.raises(GameNotFound):
        store.append("nope", 1, [("move", {})])
    _start(store)
    with pytest.raises(GameExists):
        _start(store)


def test_two_store_instances_share_one_database(db_url, store):
    _start(store)
    other = EventStore(db_url)
    try:
        other.append("g-1", 2, [("move", {"from": "other"})])
        assert store.load("g-1", after=2)[0].body == {"from": "other"}
        with pytest.raises(VersionConflict):
            store.append("g-1", 2, [("move", {"from": "stale"})])
    finally:
        other.dispose()


def test_finished_flag_is_set_with_the_last_append(store):
    _start(store)
    store.append("g-1", 2, [("move", {}), ("reveal", {"seed": "secret"})], finished=True)
    assert store.game("g-1").finished


def test_chain_check_names_the_broken_event(store):
    _start(store)
    store.append("g-1", 2, [("move", {"n": 1}), ("move", {"n": 2})])
    log = [e.to_dict() for e in store.load("g-1")]
    edited = [dict(e) for e in log]
    edited[2]["body"] = {"n": 99}
    assert first_broken_link(edited) == (3, "event 3: hash mismatch (the event was edited)")
    swapped = [log[0], log[1], log[3], log[2]]
    pos, message = first_broken_link(swapped)
    assert pos == 3 and "event 4" in message


def test_appends_notify_listeners_in_other_processes(db_url, store):
    seen: list[str | None] = []
    arrived = threading.Event()

    def on_change(game_id):
        seen.append(game_id)
        if game_id == "g-1":
            arrived.set()

    listener = EventStore(db_url).listener(on_change)
    if listener is None:
        assert store.dialect == "sqlite"  # no notifications there: readers poll
        return
    try:
        _start(store)
        other = EventStore(db_url)
        other.append("g-1", 2, [("move", {"n": 1})])
        other.dispose()
        assert arrived.wait(5), f"no notification for g-1 (got {seen})"
    finally:
        listener.stop()


def test_a_pooled_connection_the_server_dropped_is_replaced(pg_url, monkeypatch):
    import api.store.store as store_module

    monkeypatch.setattr(store_module, "PING_AFTER_IDLE", 0.0)  # every rested connection is checked
    store = EventStore(pg_url)
    try:
        _start(store)
        with store.engine.connect() as conn:
            pid = conn.connection.driver_connection.info.backend_pid
        admin = sa.create_engine(pg_url, poolclass=sa.NullPool)
        with admin.connect() as conn:
            assert conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar()
        admin.dispose()
        assert [e.version for e in store.append("g-1", 2, [("move", {"n": 1})])] == [3]
        assert store.version("g-1") == 3
    finally:
        store.dispose()
