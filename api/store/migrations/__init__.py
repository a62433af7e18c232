"""Alembic migrations of the event store's schema (see api/store/migrate.py)."""
