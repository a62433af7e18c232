"""Alembic environment: migrations run on the connection `api.store.migrate` hands over."""

from alembic import context

from api.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
