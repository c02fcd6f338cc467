"""Fixtures for the SQL functions: a DuckDB connection with them (the fake Anthropic API is
shared, in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


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
