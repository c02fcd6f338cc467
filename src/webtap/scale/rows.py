"""Fetch and ask over tables: callables that take an Arrow batch and return one.

:class:`FetchPages` reads a URL column and adds the pages (final URL, title, Markdown, verdict,
error, and what each page says of itself: published, author, site name...); :class:`AskRows`
reads context and prompt columns and adds the model's answers (answer, error). Both keep every
input column, never raise for a row (an error is a value, as in SQL), and run a batch's rows
concurrently on the same thread pools, caches and retries as on one machine. They are what
``Dataset.map_batches`` runs on Ray (:mod:`webtap.scale.cluster`), what a Spark UDF runs
(:mod:`webtap.scale.udfs`), and what ``webtap batch`` runs locally (:mod:`webtap.scale.batch`).

A fetch first waits for its host's turn in a politeness budget (``WEBTAP_HOST_RATE`` requests a
second per host, 1 by default), kept in the same store as the keys' budgets
(``WEBTAP_BUDGET``), so that a thousand workers do not call one site a thousand times at once.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

import pyarrow as pa

from webtap.budget.rate import RateBudget
from webtap.errors import WebtapError
from webtap.fetch import fetch
from webtap.net import Deadline
from webtap.redact import redact
from webtap.settings import HOST_RATE
from webtap.sql import Interrupted, SqlFunctions
from webtap.sql.pool import Pool

if TYPE_CHECKING:
    from webtap.fetch import Page

__all__ = [
    "ASK_COLUMNS",
    "FETCH_COLUMNS",
    "METADATA_COLUMNS",
    "TYPED_COLUMNS",
    "AskRows",
    "FetchPages",
    "Fetched",
    "Stop",
    "fetch_row",
    "page_verdict",
    "split_answer",
]

HOST_WAIT = 600.0  # seconds a fetch may wait for its host's turn
# The page's metadata (webtap.convert.Metadata) after the spec's columns, NULL when unsaid.
METADATA_COLUMNS = (
    "published",
    "modified",
    "author",
    "site_name",
    "language",
    "description",
    "canonical_url",
    "image",
)
FETCH_COLUMNS = ("final_url", "title", "markdown", "verdict", "error", *METADATA_COLUMNS)
ASK_COLUMNS = ("answer", "error")
TYPED_COLUMNS = ("answer", "sources", "error")  # ask with a schema: answer is typed
OK = "OK"


class Fetched(NamedTuple):
    """One row's page, or its error (``verdict`` is ``OK`` or the error's code)."""

    final_url: str | None
    title: str | None
    markdown: str | None
    verdict: str | None
    error: str | None
    published: str | None = None
    modified: str | None = None
    author: str | None = None
    site_name: str | None = None
    language: str | None = None
    description: str | None = None
    canonical_url: str | None = None
    image: str | None = None


class Stop:
    """A stop asked from another thread (``webtap batch`` told SIGTERM, SIGHUP or Ctrl-C).

    Once :meth:`set`, the callables given it end their batch at once: a fetch batch returns the
    rows finished so far (the others dropped, those in flight abandoned on their daemon
    threads), an ask batch returns none (its waiting rows dropped, its calls cut off, as
    ``stps_ask_ai`` stops on Ctrl-C). Nothing it abandons holds the process open.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hooks: list[Callable[[], None]] = []
        self.signal: Future[None] = Future()  # done once set (for concurrent.futures.wait)

    def set(self) -> None:
        with self._lock:
            if self.signal.done():
                return
            self.signal.set_result(None)
            hooks, self._hooks = self._hooks, []
        for hook in hooks:
            hook()

    def is_set(self) -> bool:
        return self.signal.done()

    def on_set(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` when the stop is set (now, if it is)."""
        with self._lock:
            if not self.signal.done():
                self._hooks.append(hook)
                return
        hook()


def host_rate() -> float:
    """Fetches a second per web host (``WEBTAP_HOST_RATE``): a polite crawler's pace."""
    return HOST_RATE.get()


def fetch_row(url: str | None, mode: str | None = None, polite: bool = True) -> Fetched:
    """One URL's page as a row; NULL in, NULL out; an error is a value, never raised."""
    if url is None:
        return Fetched(None, None, None, None, None)
    try:
        if polite:
            _host_turn(url)
        page = fetch(url, mode=mode)
    except WebtapError as exc:
        return Fetched(None, None, None, exc.code, redact(exc.message))
    except Exception as exc:  # a bug: a value too, never a failed job
        return Fetched(None, None, None, "INTERNAL_ERROR", f"{type(exc).__name__} (a bug)")
    said = page.metadata or {}
    return Fetched(
        page.url,
        page.title,
        page.markdown,
        page_verdict(page),
        None,
        *(said.get(name) for name in METADATA_COLUMNS),
    )


def page_verdict(page: Page) -> str:
    """The ``verdict`` of a page that came back: the one place a row reads it.

    ``OK`` for now (a fetch that failed has its error's code instead). When fetch classifies
    what it got (a bot wall, a login, a paywall, ...: the verdict classifier), this returns the
    page's own verdict.
    """
    return OK


def _host_turn(url: str) -> None:
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
    with :data:`FETCH_COLUMNS` added. ``threads`` fetches run at once (per actor), on daemon
    threads. With ``stop`` (a :class:`Stop`), a batch stopped midway returns only its rows
    finished so far."""

    def __init__(
        self,
        column: str = "url",
        *,
        threads: int = 16,
        mode: str | None = None,
        stop: Stop | None = None,
    ) -> None:
        self.column = column
        self.mode = mode
        self.threads = threads
        self.stop = stop
        self._pool: Pool | None = None

    def __call__(self, batch: Any) -> Any:
        urls = _column(batch, self.column)
        if self._pool is None:
            self._pool = Pool(self.threads, name="webtap_fetch")
        futures = [self._pool.submit(fetch_row, url, self.mode) for url in urls]
        self._wait(futures)
        kept = [n for n, future in enumerate(futures) if _finished(future)]
        if len(kept) < len(futures):  # stopped: the rows finished, the others dropped
            self.close()
            batch = _table(batch).take(kept)
        rows = [futures[n].result() for n in kept]
        return _with_columns(batch, FETCH_COLUMNS, list(zip(*rows, strict=True)) if rows else [])

    def _wait(self, futures: list[Future[Fetched]]) -> None:
        if self.stop is None:
            wait(futures)
            return
        pending: set[Future[Any]] = set(futures)
        while pending and not self.stop.is_set():
            done, _ = wait([*pending, self.stop.signal], return_when=FIRST_COMPLETED)
            pending -= done

    def close(self) -> None:
        """Drop the rows waiting; the threads end (those in flight once their row is done)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown()


class AskRows:
    """``batch`` with ``context`` and ``prompt`` columns in; the same rows out, with ``answer``
    and ``error`` added. The rows go through the SQL functions' batch entry point
    (:meth:`webtap.sql.SqlFunctions.ask_many`): ``concurrency`` model calls at once,
    identical rows asked once, an optional answer ``cache`` (a SQLite file). With ``stop``
    (a :class:`Stop`), a batch stopped midway returns no rows.

    With ``schema`` (a JSON Schema's text or a DuckDB type), each answer is data that fits it
    (:meth:`~webtap.sql.SqlFunctions.ask_json_many`): ``answer`` is a column of the schema's
    DuckDB type (a STRUCT: a Parquet group), ``sources`` each field's checked quote as JSON,
    ``error`` why a row's answer is null."""

    def __init__(
        self,
        context: str = "context",
        prompt: str = "prompt",
        *,
        model: str | None = None,
        max_tokens: int | None = None,
        concurrency: int = 8,
        cache: str | None = None,
        stop: Stop | None = None,
        schema: str | None = None,
    ) -> None:
        self.context, self.prompt = context, prompt
        self.schema = schema
        self.model, self.max_tokens = model, max_tokens
        self.concurrency, self.cache = concurrency, cache
        self.stop = stop
        self._functions: Any = None

    def __call__(self, batch: Any) -> Any:
        if self._functions is None:
            self._functions = SqlFunctions(concurrency=self.concurrency, cache=self.cache)
            if self.stop is not None:
                self.stop.on_set(self._functions.cancel)
        contexts, prompts = _column(batch, self.context), _column(batch, self.prompt)
        pairs = list(zip(contexts, prompts, strict=True))
        try:
            if self.schema is not None:
                typed = [(c, p, self.schema, self.model) for c, p in pairs]
                answers = self._functions.ask_json_many(typed) if typed else []
            else:
                rows = [(c, p, self.model, self.max_tokens) for c, p in pairs]
                values = self._functions.ask_many(rows) if rows else []
        except Interrupted:
            if self.stop is None or not self.stop.is_set():
                raise
            columns = TYPED_COLUMNS if self.schema is not None else ASK_COLUMNS
            return _with_columns(_table(batch).slice(0, 0), columns, [])
        if self.schema is not None:
            return _typed_answers(batch, answers, self.schema)
        split = [split_answer(value) for value in values]
        return _with_columns(batch, ASK_COLUMNS, list(zip(*split, strict=True)) if split else [])

    def close(self) -> None:
        functions, self._functions = self._functions, None
        if functions is not None:
            functions.close()


def _typed_answers(batch: Any, answers: Sequence[str | None], schema: str) -> Any:
    """``batch`` with the typed rows' ``answer`` (cast by DuckDB to the schema's type, so
    that a file holds typed columns), ``sources`` and ``error``."""
    import duckdb
    import pyarrow as pa

    from webtap.answer_schema import parse, to_duckdb

    kind = to_duckdb(parse(schema))
    envelopes = [json.loads(answer) if answer else {} for answer in answers]
    values = pa.table(
        {
            "value": pa.array(
                [None if e.get("value") is None else json.dumps(e["value"]) for e in envelopes],
                type=pa.string(),
            )
        }
    )
    with duckdb.connect() as connection:
        connection.register("answers", values)
        typed = connection.sql(
            f"SELECT CAST(CAST(value AS JSON) AS {kind}) AS answer FROM answers"
        ).to_arrow_table()
    table = _with_columns(
        batch,
        ("sources", "error"),
        [
            [json.dumps(e["sources"]) if e.get("sources") else None for e in envelopes],
            [e.get("error") for e in envelopes],
        ],
    )
    answer = typed.column("answer") if len(envelopes) else pa.nulls(0, type=typed.schema[0].type)
    if "answer" in table.schema.names:
        table = table.drop_columns(["answer"])
    return table.add_column(table.num_columns - 2, "answer", answer)


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


def _finished(future: Future[Any]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


def _table(batch: Any) -> Any:
    return batch if isinstance(batch, pa.Table) else pa.Table.from_batches([batch])


def _with_columns(batch: Any, names: Sequence[str], values: Sequence[Sequence[Any]]) -> Any:
    """``batch`` as an Arrow table with string columns ``names`` set to ``values``."""
    table = _table(batch)
    for index, name in enumerate(names):
        column = pa.array(list(values[index]) if values else [], type=pa.string())
        if name in table.schema.names:
            table = table.set_column(table.schema.get_field_index(name), name, column)
        else:
            table = table.append_column(name, column)
    return table
