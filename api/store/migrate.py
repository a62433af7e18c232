"""Schema versions of the event store: Alembic migrations (api/store/migrations), applied by
`EventStore` when it opens a store (so by `ludex serve`) and by `ludex migrate`.

- A fresh database gets the current tables at once (`metadata.create_all`) and is stamped with
  the newest revision.
- A store created before migrations existed (tables, no `alembic_version`) is stamped with the
  first revision, whose schema it has, then upgraded.
- Any other store is upgraded from its revision to the newest.

On PostgreSQL an advisory lock serialises replicas that start together.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from api.store.schema import metadata

MIGRATIONS = Path(__file__).parent / "migrations"
BASELINE = "0001"  # the schema stores had before migrations existed
_LOCK = 7411520


@attrs.frozen
class Migration:
    """What `upgrade` did: the revision before (None: no schema, or one from before migrations),
    the revision after, and the revisions applied, oldest first."""

    before: str | None
    after: str
    applied: tuple[str, ...]


def _config(conn: sa.Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    return config


def head() -> str:
    """The newest revision."""
    return ScriptDirectory(str(MIGRATIONS)).get_current_head() or BASELINE


def current(engine: sa.Engine) -> str | None:
    """The store's revision (None: no schema yet, or one from before migrations)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: sa.Engine) -> Migration:
    """Bring the store's schema to the newest revision (see the module docstring)."""
    newest = head()
    script = ScriptDirectory(str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text(f"SELECT pg_advisory_xact_lock({_LOCK})"))
        before = MigrationContext.configure(conn).get_current_revision()
        config = _config(conn)
        if before is None and not sa.inspect(conn).has_table("ludex_games"):
            metadata.create_all(conn)
            command.stamp(config, newest)
            return Migration(None, newest, ())
        start = before or BASELINE
        if before is None:
            command.stamp(config, BASELINE)
        applied = tuple(reversed([s.revision for s in script.iterate_revisions(newest, start)]))
        if start != newest:
            command.upgrade(config, newest)
    return Migration(before, newest, applied)
