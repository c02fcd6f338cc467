"""Fixtures for the SQL functions: the fake Anthropic API and a DuckDB connection with them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The fake API lives with the ask loop's tests; both suites and the bench use the same one.
sys.path.insert(0, str(Path(__file__).parents[1] / "agent"))

from fake_anthropic import API_KEY, FakeAnthropic


@pytest.fixture
def anthropic_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    fake = FakeAnthropic().start()
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
    yield fake
    fake.stop()


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
