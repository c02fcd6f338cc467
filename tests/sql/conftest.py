"""Fixtures for the SQL functions: a DuckDB connection with them (the fake Anthropic API is
shared, in tests/conftest.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from tests.fakes.anthropic import FakeAnthropic, Reply, echo


@pytest.fixture
def con() -> Iterator[Any]:
    """An in-memory DuckDB connection with webtap's functions; ``con.functions`` is their state."""
    import duckdb

    import webtap.sql

    connection = duckdb.connect()
    functions = webtap.sql.register(connection, progress=False)
    yield Connection(connection, functions)
    functions.close()
    connection.close()


class Connection:
    """The connection, plus ``one(sql)`` and ``column(sql)`` for short tests."""

    def __init__(self, connection: Any, functions: Any) -> None:
        self.connection = connection
        self.functions = functions

    def execute(self, sql: str, *args: Any) -> Any:
        return self.connection.execute(sql, *args)

    def one(self, sql: str) -> Any:
        return self.connection.execute(sql).fetchone()[0]

    def column(self, sql: str) -> list[Any]:
        return [row[0] for row in self.connection.execute(sql).fetchall()]


class Held:
    """A responder that holds every model call until the test releases it, and says when the
    first one arrives: a test waits for that instead of sleeping, and knows that no call can
    finish on its own (so a query that stops, stopped without waiting for them)."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.release = threading.Event()

    def __call__(self, body: dict[str, Any]) -> Reply:
        self.arrived.set()
        self.release.wait()
        return echo(body)


@pytest.fixture
def held(anthropic_api: FakeAnthropic) -> Iterator[Held]:
    """The fake API holding every call (released when the test ends)."""
    responder = Held()
    anthropic_api.responder = responder
    yield responder
    responder.release.set()
