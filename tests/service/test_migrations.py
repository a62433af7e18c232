"""Schema versions: a store created before migrations existed is upgraded by `ludex migrate`
and keeps its games; fresh stores start at the newest revision; the migrations build exactly
the tables api/store/schema.py declares. On SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from service_harness import run_cli

from api.app import GameService
from api.store import EventStore, migrate
from api.store.schema import metadata


def _legacy_store(url: str) -> None:
    """A store as the code before migrations created it: the first revision's tables and
    triggers, and no alembic_version table."""
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        command.upgrade(migrate._config(conn), migrate.BASELINE)
        conn.execute(sa.text("DROP TABLE alembic_version"))
    engine.dispose()


def _schema_differences(engine: sa.Engine) -> list:
    with engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), metadata)
    # PostgreSQL keeps one constraint where the unique (game_id, version) repeats the primary
    # key (it reflects as the primary key, under the unique constraint's name): not a difference.
    return [d for d in diffs if not (engine.dialect.name == "postgresql" and d[0] == "add_constraint"
                                     and d[1].name == "ludex_events_one_per_version")]


def test_ludex_migrate_upgrades_a_store_of_the_previous_schema_and_keeps_its_games(db_url):
    _legacy_store(db_url)
    old = EventStore(db_url, create=False)
    service = GameService(old)
    game = service.create_game("balloon_cup", seed="example")
    legal = service.legal_moves(game["game_id"], game["tokens"][0])
    service.submit_move(game["game_id"], game["tokens"][0], legal["moves"][0], legal["version"])
    assert migrate.current(old.engine) is None
    old.dispose()

    done = run_cli("migrate", "--db", db_url)
    assert done.returncode == 0, done.stderr
    assert f"schema revision {migrate.head()} (applied 0002)" in done.stdout

    store = EventStore(db_url)
    try:
        assert migrate.current(store.engine) == migrate.head()
        assert "ludex_games_created_at" in {i["name"] for i in sa.inspect(store.engine).get_indexes("ludex_games")}
        assert _schema_differences(store.engine) == []
        service = GameService(store)
        view = service.view(game["game_id"], game["tokens"][1])
        legal = service.legal_moves(game["game_id"], game["tokens"][1])
        assert view["version"] == legal["version"] == 13
        service.submit_move(game["game_id"], game["tokens"][1], legal["moves"][0], legal["version"])
        with store.engine.connect() as conn:  # the append-only triggers survived the upgrade
            try:
                conn.execute(sa.text("DELETE FROM ludex_events"))
                deleted = True
            except sa.exc.DatabaseError:
                deleted = False
        assert not deleted
    finally:
        store.dispose()
    again = run_cli("migrate", "--db", db_url)
    assert again.returncode == 0 and "already up to date" in again.stdout, again.stdout + again.stderr


def test_a_fresh_store_starts_at_the_newest_revision_with_the_declared_tables(db_url):
    store = EventStore(db_url)
    try:
        assert migrate.current(store.engine) == migrate.head()
        assert _schema_differences(store.engine) == []
        assert store.create_tables() == migrate.Migration(migrate.head(), migrate.head(), ())
    finally:
        store.dispose()


def test_the_migrations_alone_build_the_declared_tables(db_url):
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            command.upgrade(migrate._config(conn), "head")
        assert _schema_differences(engine) == []
    finally:
        engine.dispose()
