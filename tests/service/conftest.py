"""Fixtures for the service tests: a fresh database per test, on SQLite and on PostgreSQL.

PostgreSQL tests each get their own schema (`ludex_t_<random>`, chosen through the URL's
search_path), so parallel runs on one server never collide, and the schema is dropped after.
With `CI=true` an unreachable PostgreSQL fails the test instead of skipping it.
"""

from __future__ import annotations

import os
import uuid
from typing import Iterator

import pytest
import sqlalchemy as sa

PG_BASE_URL = os.environ.get("LUDEX_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _pg_engine() -> sa.Engine:
    return sa.create_engine(PG_BASE_URL, connect_args={"connect_timeout": 3}, poolclass=sa.NullPool)


def require_postgres() -> None:
    """Skip (locally) or fail (with CI=true) when PostgreSQL is unreachable."""
    try:
        with _pg_engine().connect() as conn:
            conn.execute(sa.text("SELECT 1"))
    except Exception as exc:  # any connection failure
        message = f"PostgreSQL at {PG_BASE_URL} is unreachable: {exc}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped after the test."""
    require_postgres()
    schema = f"ludex_t_{uuid.uuid4().hex[:12]}"
    engine = _pg_engine()
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{PG_BASE_URL}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    """A SQLite file URL in the test's temporary directory."""
    return f"sqlite:///{tmp_path / 'ludex.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request) -> str:
    """The same test on both stores."""
    fixture = "sqlite_url" if request.param == "sqlite" else "pg_url"
    return request.getfixturevalue(fixture)


@pytest.fixture(scope="module")
def serve_sqlite(tmp_path_factory):
    """A `ludex serve` process (HTTP and gRPC) over a fresh SQLite file, for one test module."""
    from service_harness import Server

    tmp = tmp_path_factory.mktemp("serve")
    server = Server(f"sqlite:///{tmp / 'ludex.db'}", tmp / "server.log").start()
    yield server
    server.stop()


@pytest.fixture
def http(serve_sqlite):
    """An httpx.Client on `serve_sqlite`'s HTTP face."""
    import httpx

    with httpx.Client(base_url=serve_sqlite.http, timeout=60) as client:
        yield client


@pytest.fixture(scope="module")
def server(serve_sqlite):
    """`serve_sqlite` under the name the service test modules use (one server per module; a
    module that needs other flags defines its own `server`)."""
    return serve_sqlite


@pytest.fixture
def client(http):
    """`http` under the name the service test modules use."""
    return http
