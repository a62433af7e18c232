"""Tables of the event store, and the triggers that make events append-only.

`games` holds one row per stream: its current version (the compare-and-set target of optimistic
concurrency), the secret seed until it is revealed, and the seat tokens' SHA-256 hashes.
`events` holds the stream itself; `(game_id, version)` is its primary key, so two appends for the
same version can never both commit. The body is stored as the exact canonical JSON text that was
hashed, so verification never depends on how a database re-serialises JSON.

UPDATE and DELETE on `events` are refused by the database itself (a trigger per dialect), not
just by this code: an operator with a SQL prompt cannot quietly rewrite history either.

A change here is also a migration in api/store/migrations/versions (tests/service/
test_migrations.py checks that the migrations build exactly these tables).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

games = sa.Table(
    "ludex_games",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False, default=False),
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("token_hashes", sa.Text, nullable=False),  # JSON list, index = seat
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ludex_games_created_at", "created_at"),  # migration 0002
)

events = sa.Table(
    "ludex_events",
    metadata,
    sa.Column("game_id", sa.String(64), sa.ForeignKey("ludex_games.game_id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("game_id", "version", name="ludex_events_one_per_version"),
)

SQLITE_TRIGGERS = [
    sa.DDL(
        "CREATE TRIGGER IF NOT EXISTS ludex_events_no_update BEFORE UPDATE ON ludex_events "
        "BEGIN SELECT RAISE(ABORT, 'ludex_events is append-only: UPDATE refused'); END"
    ),
    sa.DDL(
        "CREATE TRIGGER IF NOT EXISTS ludex_events_no_delete BEFORE DELETE ON ludex_events "
        "BEGIN SELECT RAISE(ABORT, 'ludex_events is append-only: DELETE refused'); END"
    ),
]

POSTGRES_TRIGGERS = [
    sa.DDL(
        "CREATE OR REPLACE FUNCTION ludex_events_refuse_change() RETURNS trigger AS $$ "
        "BEGIN RAISE EXCEPTION 'ludex_events is append-only: %% refused', TG_OP; END; "
        "$$ LANGUAGE plpgsql"
    ),
    sa.DDL(
        "CREATE TRIGGER ludex_events_no_change BEFORE UPDATE OR DELETE ON ludex_events "
        "FOR EACH ROW EXECUTE FUNCTION ludex_events_refuse_change()"
    ),
    sa.DDL(
        "CREATE TRIGGER ludex_events_no_truncate BEFORE TRUNCATE ON ludex_events "
        "FOR EACH STATEMENT EXECUTE FUNCTION ludex_events_refuse_change()"
    ),
]

for _ddl in SQLITE_TRIGGERS:
    sa.event.listen(events, "after_create", _ddl.execute_if(dialect="sqlite"))
for _ddl in POSTGRES_TRIGGERS:
    sa.event.listen(events, "after_create", _ddl.execute_if(dialect="postgresql"))
