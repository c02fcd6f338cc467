"""Progress of a query's rows, told to a reporter the caller passes in.

The SQL layer only counts; how progress looks is the front door's business (``webtap sql``
draws a rich bar on stderr), so this layer imports no display code.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

__all__ = ["ProgressReporter", "QueryProgress"]


class ProgressReporter(Protocol):
    """What :class:`~webtap.sql.SqlFunctions` tells about ``stps_ask_ai`` rows (from any thread).

    ``update(done, total)``: the rows answered so far in the current query, of those known so
    far; ``total`` grows as DuckDB hands over more chunks, and a new query starts again from
    ``done == 0``. ``end()``: every row known so far is answered, or the query was cancelled;
    the display may go (another chunk of the same query may still follow).
    """

    def update(self, done: int, total: int) -> None: ...

    def end(self) -> None: ...


class QueryProgress:
    """Rows done / total per query (``scope``), reported to ``reporter`` (None: nobody)."""

    def __init__(self, reporter: ProgressReporter | None) -> None:
        self.reporter = reporter
        self._lock = threading.Lock()
        self._scope: Any = object()
        self._query: object | None = None  # a token for the query being counted
        self._done = self._total = 0
        self._open = 0  # the query's chunks handed over and not yet through

    def add(self, scope: Any, rows: int) -> object | None:
        """Count ``rows`` more for the query ``scope``; returns its token (None when off)."""
        if self.reporter is None:
            return None
        with self._lock:
            if scope is None or scope != self._scope or self._query is None:
                self._scope, self._query = scope, object()
                self._done = self._total = self._open = 0
            self._total += rows
            self._open += 1
            self.reporter.update(self._done, self._total)
            return self._query

    def advance(self, query: object | None) -> None:
        """One row of ``query`` answered: the end too when it is the last of a query whose
        chunks are through (a future wakes the chunk waiting on it before it runs the callback
        that counts its row, so the count may come after the chunk's ``check``)."""
        if query is None or self.reporter is None:
            return
        with self._lock:
            if query is self._query:
                self._done += 1
                self.reporter.update(self._done, self._total)
                if not self._open and self._done == self._total:
                    self.reporter.end()

    def check(self, query: object | None) -> None:
        """A chunk of ``query`` is through: the end, once every row known so far is answered."""
        if query is None or self.reporter is None:
            return
        with self._lock:
            if query is self._query:
                self._open -= 1
                if not self._open and self._done >= self._total:
                    self.reporter.end()

    def stop(self) -> None:
        """The query was cancelled: the end (if it had not come), and the next rows count as
        a new query."""
        if self.reporter is None:
            return
        with self._lock:
            if self._query is not None and self._done < self._total:
                self.reporter.end()
            self._query = None
