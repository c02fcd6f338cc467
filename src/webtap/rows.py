"""Fetch and ask over tables: callables that take an Arrow batch and return one.

:class:`FetchPages` reads a URL column and adds the pages (final URL, title, Markdown, verdict,
error); :class:`AskRows` reads context and prompt columns and adds the model's answers (answer,
error). Both keep every input column, never raise for a row (an error is a value, as in SQL),
and run a batch's rows concurrently on the same thread pools, caches and retries as on one
machine. They are what ``Dataset.map_batches`` runs on Ray (:mod:`webtap.ray`), what a Spark
UDF runs (:mod:`webtap.spark`), and what ``webtap batch`` runs locally (:mod:`webtap.batch`).

A fetch first waits for its host's turn in a politeness budget (``WEBTAP_HOST_RATE`` requests a
second per host, 1 by default), kept in the same store as the keys' budgets
(``WEBTAP_BUDGET``), so that a thousand workers do not call one site a thousand times at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple, cast

__all__ = [
    "ASK_COLUMNS",
    "FETCH_COLUMNS",
    "AskRows",
    "FetchPages",
    "Fetched",
    "fetch_row",
    "split_answer",
]

HOST_WAIT = 600.0  # seconds a fetch may wait for its host's turn
FETCH_COLUMNS = ("final_url", "title", "markdown", "verdict", "error")
ASK_COLUMNS = ("answer", "error")
OK = "OK"


class Fetched(NamedTuple):
    """One row's page, or its error (``verdict`` is ``OK`` or the error's code)."""

    final_url: str | None
    title: str | None
    markdown: str | None
    verdict: str | None
    error: str | None


def host_rate() -> float:
    """Fetches a second per web host (``WEBTAP_HOST_RATE``): a polite crawler's pace."""
    from webtap.settings import HOST_RATE

    return cast(float, HOST_RATE.get())


def fetch_row(url: str | None, mode: str | None = None, polite: bool = True) -> Fetched:
    """One URL's page as a row; NULL in, NULL out; an error is a value, never raised."""
    if url is None:
        return Fetched(None, None, None, None, None)
    from webtap.errors import WebtapError
    from webtap.fetch import fetch
    from webtap.redact import redact

    try:
        if polite:
            _host_turn(url)
        page = fetch(url, mode=mode)
    except WebtapError as exc:
        return Fetched(None, None, None, exc.code, redact(exc.message))
    except Exception as exc:  # a bug: a value too, never a failed job
        return Fetched(None, None, None, "INTERNAL_ERROR", f"{type(exc).__name__} (a bug)")
    return Fetched(page.url, page.title, page.markdown, OK, None)


def _host_turn(url: str) -> None:
    from urllib.parse import urlsplit

    from webtap.net import Deadline
    from webtap.search.budget import RateBudget

    try:
        host = (urlsplit(url).hostname or "").rstrip(".").lower()
    except ValueError:
        return  # the fetch says what is wrong with the URL
    if host:
        budget = RateBudget(
            "host",
            host,
            what=f"politeness to {host}",
            rate=host_rate(),
            calls="fetch(es) of this host",
            hint="raise WEBTAP_HOST_RATE, or spread the job's URLs over more hosts",
        )
        budget.acquire(Deadline(HOST_WAIT), margin=0.0)


class FetchPages:
    """``batch`` (an Arrow table or record batch) with a URL ``column`` in; the same rows out,
    with :data:`FETCH_COLUMNS` added. ``threads`` fetches run at once (per actor)."""

    def __init__(self, column: str = "url", *, threads: int = 16, mode: str | None = None) -> None:
        self.column = column
        self.mode = mode
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None

    def __call__(self, batch: Any) -> Any:
        urls = _column(batch, self.column)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="webtap_fetch")
        rows = list(self._pool.map(lambda url: fetch_row(url, self.mode), urls))
        return _with_columns(batch, FETCH_COLUMNS, list(zip(*rows, strict=True)) if rows else [])


class AskRows:
    """``batch`` with ``context`` and ``prompt`` columns in; the same rows out, with ``answer``
    and ``error`` added. The rows go through the SQL functions' batch entry point
    (:meth:`webtap.sql.SqlFunctions.ask_many`): ``concurrency`` model calls at once,
    identical rows asked once, an optional answer ``cache`` (a SQLite file)."""

    def __init__(
        self,
        context: str = "context",
        prompt: str = "prompt",
        *,
        model: str | None = None,
        max_tokens: int | None = None,
        concurrency: int = 8,
        cache: str | None = None,
    ) -> None:
        self.context, self.prompt = context, prompt
        self.model, self.max_tokens = model, max_tokens
        self.concurrency, self.cache = concurrency, cache
        self._functions: Any = None

    def __call__(self, batch: Any) -> Any:
        from webtap.sql import SqlFunctions

        if self._functions is None:
            self._functions = SqlFunctions(concurrency=self.concurrency, cache=self.cache)
        contexts, prompts = _column(batch, self.context), _column(batch, self.prompt)
        rows = [(c, p, self.model, self.max_tokens) for c, p in zip(contexts, prompts, strict=True)]
        values = self._functions.ask_many(rows) if rows else []
        split = [split_answer(value) for value in values]
        return _with_columns(batch, ASK_COLUMNS, list(zip(*split, strict=True)) if split else [])


def split_answer(value: str | None) -> tuple[str | None, str | None]:
    """An ``stps_ask_ai`` value as (answer, error): ``ERROR: ...`` values are errors."""
    if value is not None and value.startswith("ERROR:"):
        return None, value
    return value, None


def _column(batch: Any, name: str) -> list[Any]:
    if name not in batch.schema.names:
        raise ValueError(
            f"the table has no column {name!r} (it has: {', '.join(batch.schema.names)}); "
            "name the column to read"
        )
    return batch.column(name).to_pylist()


def _with_columns(batch: Any, names: Sequence[str], values: Sequence[Sequence[Any]]) -> Any:
    """``batch`` as an Arrow table with string columns ``names`` set to ``values``."""
    import pyarrow as pa

    table = batch if isinstance(batch, pa.Table) else pa.Table.from_batches([batch])
    for index, name in enumerate(names):
        column = pa.array(list(values[index]) if values else [], type=pa.string())
        if name in table.schema.names:
            table = table.set_column(table.schema.get_field_index(name), name, column)
        else:
            table = table.append_column(name, column)
    return table
