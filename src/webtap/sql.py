"""The ask loop as DuckDB SQL functions, compatible with the ``stps_ask_ai`` extension (spec 002).

::

    import duckdb, webtap.sql
    con = duckdb.connect()
    webtap.sql.register(con)
    con.sql("SELECT name, stps_ask_ai(name, 'Founded in which year?') FROM companies")

The extension calls the model one row after another. Here ``stps_ask_ai`` is a vectorized
(Arrow) function: DuckDB hands it up to 2048 rows at once, and their model calls run
concurrently on a bounded thread pool (32 by default, ``stps_set_concurrency``). Identical rows
(context, prompt, model, max_tokens, search provider, tool-call limit) are asked once per
query, and an optional SQLite cache (``stps_set_cache``) keeps successful answers so that a
query run again does not pay again. On a terminal, a long query shows rows done, total and
rate on stderr.

Every failure is a value that starts with ``ERROR:``, never a failed query; NULL in, NULL out.
Without pyarrow the functions still work, one row at a time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import queue
import re
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import replace
from pathlib import Path
from typing import Any

from webtap import agent
from webtap.errors import WebtapError
from webtap.keys import KEY_SOURCES, SEARCH_PROVIDERS, Keys
from webtap.redact import redact, remember

__all__ = [
    "DEFAULT_CONCURRENCY",
    "FUNCTIONS",
    "KEY_SETTERS",
    "MAX_CONCURRENCY",
    "AnswerCache",
    "Interrupted",
    "SqlFunctions",
    "drop_statement_echo",
    "key_literals",
    "mentions_key_setter",
    "redact_keys",
    "register",
]

# Rows in flight at once. The providers are guarded by the shared rate budgets and the model by
# the account's own rate-limit headers (see _Throttle), so the default need not be timid.
DEFAULT_CONCURRENCY = 32
MAX_CONCURRENCY = 64
MIN_KEY_LENGTH = 4  # shorter strings are not keys, and hiding them would garble messages
MEMO_QUERIES = 4  # queries whose answers are kept for deduplication (several cursors at once)
POLL = 0.1  # seconds between checks for Ctrl-C while rows are being answered

Row = tuple[str | None, str | None, str | None, int | None]

# name -> (what it does, for docs and --help)
FUNCTIONS = {
    "stps_ask_ai(context, prompt [, model] [, max_tokens])": "the model's answer, or ERROR: ...",
    "stps_set_api_key(key)": "the Anthropic key for this session (NULL clears it)",
    "stps_set_brave_api_key(key)": "the Brave Search key (turns web search on)",
    "stps_set_searxng_url(url)": "the SearXNG instance's address (turns web search on)",
    "stps_set_google_api_key(key)": "the Google Custom Search key",
    "stps_set_google_cse_id(id)": "the Google search engine id",
    "stps_set_model(model)": "the default model (NULL restores the default)",
    "stps_get_model()": "the default model",
    "stps_set_search_provider('brave'|'searxng'|'google')": "which search the model gets "
    "(NULL: the first set up, in that order)",
    "stps_get_search_provider()": "the search provider in effect: brave, searxng, google or none",
    "stps_set_concurrency(n)": f"model calls at once, 1-64 (default {DEFAULT_CONCURRENCY})",
    "stps_set_cache(path)": "keep answers in a SQLite file (NULL disables the cache)",
    "stps_set_max_tool_calls(n)": "tool calls per question, 0-20 (default 1)",
}


# The functions that take a key, and the key each sets.
KEY_SETTERS = {
    "stps_set_api_key": "anthropic",
    "stps_set_brave_api_key": "brave",
    "stps_set_searxng_url": "searxng",
    "stps_set_google_api_key": "google_api_key",
    "stps_set_google_cse_id": "google_cse_id",
}
_SETTER_NAME = re.compile("|".join(KEY_SETTERS), re.IGNORECASE)


def redact_keys(text: str, keys: Iterable[str] = ()) -> str:
    """``text`` with each of ``keys``, and every key webtap knows, masked in any encoding by as
    many ``*`` (so that an error's ``^`` still points right); see :mod:`webtap.redact`.

    DuckDB names a result column after its expression and quotes the query in its errors, so
    ``SELECT stps_set_api_key('sk-ant-...')`` would print the key in a header or an error:
    :func:`key_literals` finds such keys first.
    """
    keys = [key for key in keys if len(key) >= MIN_KEY_LENGTH]
    # DuckDB writes a constant back as SQL: 'it''s' for the key it's.
    quoted = [key.replace("'", "''") for key in keys if "'" in key]
    return redact(text, keys + quoted, same_length=True)


def mentions_key_setter(sql: str) -> bool:
    """True when ``sql`` names a ``stps_set_*`` key function (in any case or quoting)."""
    return bool(_SETTER_NAME.search(sql))


def key_literals(sql: str) -> set[str]:
    """The string constants that ``sql`` gives to the ``stps_set_*`` key functions, read with
    DuckDB's own tokenizer: ``'...'``, ``E'...'``, ``$$...$$``, ``$tag$...$tag$``, a quoted
    function name, comments anywhere, nested calls, an unterminated last string."""
    import duckdb

    if not mentions_key_setter(sql):
        return set()
    try:
        tokens = duckdb.tokenize(sql)
    except Exception:  # the tokenizer is tolerant; should it fail, the caller drops the echo
        return set()
    found: set[str] = set()
    depth = 0  # parentheses open inside a setter's call; -1: a setter's name was just read
    for index, (start, kind) in enumerate(tokens):
        end = tokens[index + 1][0] if index + 1 < len(tokens) else len(sql)
        text = sql[start:end].strip()
        if kind == duckdb.token_type.comment:
            continue
        if depth == 0:
            if kind in (duckdb.token_type.identifier, duckdb.token_type.keyword):
                name = text.strip('"').replace('""', '"').lower()
                depth = -1 if name in KEY_SETTERS else 0
            continue
        if kind == duckdb.token_type.operator:
            opened = text.count("(")
            base = 0 if depth == -1 else depth  # -1 with no "(": the name was not called
            depth = max(base + opened - text.count(")"), 0) if opened or base else 0
        elif depth == -1:
            depth = 0  # the name was not called
        elif kind == duckdb.token_type.string_const:
            found.add(_string_value(text))
    return {value for value in found if value}


def _string_value(token: str) -> str:
    """The value of a DuckDB string constant as written (quotes and dollar tags removed)."""
    if token.startswith("$"):
        tag_end = token.find("$", 1)
        tag = token[: tag_end + 1] if tag_end > 0 else "$"
        return token[len(tag) :].removesuffix(tag)
    if token[:1] in "eE":
        token = token[1:]
    body = token[1:]
    closing = len(body) - len(body.rstrip("'"))
    if closing % 2:  # an odd run of quotes at the end holds the closing one
        body = body[:-1]
    return body.replace("''", "'")


def drop_statement_echo(message: str) -> str:
    """A DuckDB error without the ``LINE n: <statement>`` it quotes and the caret under it."""
    kept = []
    after_echo = False
    for line in message.splitlines():
        if line.startswith("LINE ") and ":" in line:
            after_echo = True
            continue
        if after_echo and not line.strip(" ^"):
            continue  # the caret line, and blank lines around the echo
        after_echo = False
        kept.append(line)
    text = "\n".join(kept).rstrip()
    return f"{text} (the statement is not shown: it sets a key)"


class Interrupted(Exception):
    """The query was cancelled (Ctrl-C or :meth:`SqlFunctions.cancel`)."""


class AnswerCache:
    """Successful answers in a SQLite file, keyed by everything that shapes the answer."""

    def __init__(self, path: str | Path) -> None:
        from webtap.files import create_private
        from webtap.store import usable_file

        self.path = Path(path).expanduser()
        self._lock = threading.Lock()
        remedy = "Give --cache or stps_set_cache() the path of a file webtap may create and write."
        with usable_file(self.path, "the answer cache", remedy):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            create_private(self.path)  # never through a link planted at the cache's path
            self._db = sqlite3.connect(
                self.path, timeout=10.0, isolation_level=None, check_same_thread=False
            )
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute(
                    "CREATE TABLE IF NOT EXISTS answers ("
                    " key TEXT PRIMARY KEY, model TEXT NOT NULL, answer TEXT NOT NULL,"
                    " created_at REAL NOT NULL)"
                )
            except BaseException:
                self._db.close()
                raise

    @staticmethod
    def key(*parts: Any) -> str:
        return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT answer FROM answers WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def put(self, key: str, model: str, answer: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO answers (key, model, answer, created_at) "
                "VALUES (?, ?, ?, ?)",
                (key, model, answer, time.time()),
            )

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM answers").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()


class SqlFunctions:
    """The state behind the SQL functions of one or more connections: keys, model, pool, cache.

    ``ask_many`` is the batch entry point (rows in, answers out) that ``stps_ask_ai`` calls
    with each chunk; Python code may call it directly.
    """

    def __init__(
        self,
        keys: Keys | None = None,
        *,
        settings: agent.AskSettings = agent.DEFAULT_SETTINGS,
        concurrency: int = DEFAULT_CONCURRENCY,
        cache: str | Path | None = None,
        progress: bool | None = None,
    ) -> None:
        self.keys = keys or Keys()
        self.settings = settings
        self.concurrency = _check_concurrency(concurrency)
        self.cache = AnswerCache(cache) if cache else None
        # None: show progress only when stderr is a terminal.
        self.show_progress = sys.stderr.isatty() if progress is None else progress
        self._lock = threading.Lock()
        self._client_lock = threading.Lock()
        self._executor: _Pool | None = None
        self._clients: dict[str, Any] = {}
        self._memos: OrderedDict[Any, dict[tuple[Any, ...], Future[str]]] = OrderedDict()
        self._generation = 0
        self._progress = _Progress(self.show_progress)
        self._throttle = _Throttle(lambda: self.concurrency)

    # -- the batch ------------------------------------------------------------------------

    def ask_many(self, rows: Sequence[Row], scope: Any = None) -> list[str | None]:
        """Answer each ``(context, prompt, model, max_tokens)``; NULL context or prompt → None.

        Rows with the same ``scope`` (one per query) share answers to identical requests.
        Raises :class:`Interrupted` when cancelled; never raises for a row's failure.
        """
        generation = self._generation
        credentials = self.keys.resolve()
        answers: list[str | None] = [None] * len(rows)
        try:
            credentials.require_anthropic()
        except WebtapError as exc:
            missing = f"ERROR: {exc.message}"
            return [None if c is None or p is None else missing for c, p, _, _ in rows]
        # Resolved once for the chunk; "none" keeps a chosen provider without keys from
        # falling back to the other one.
        provider = credentials.search_provider(self.settings.search_provider)
        settings = replace(self.settings, search_provider=provider or "none")
        client = self._client(credentials.anthropic)  # made here once, not by every thread
        memo = self._memo(scope)
        futures: list[Future[str] | None] = []
        for context, prompt, model, max_tokens in rows:
            if context is None or prompt is None:
                futures.append(None)
                continue
            request = (
                context,
                prompt,
                model or settings.model or agent.default_model(),
                settings.max_tokens if max_tokens is None else int(max_tokens),
            )
            with self._lock:
                future = memo.get(request)
                if future is None or future.cancelled():
                    future = self._pool().submit(
                        self._answer, request, settings, credentials, client
                    )
                    memo[request] = future
            futures.append(future)
        self._wait(futures, scope, generation)
        for index, future in enumerate(futures):
            if future is not None:
                answers[index] = future.result()
        return answers

    def _answer(
        self,
        request: tuple[str, str, str, int],
        settings: agent.AskSettings,
        credentials: Any,
        client: Any,
    ) -> str:
        context, prompt, model, max_tokens = request
        key = AnswerCache.key(
            model, max_tokens, context, prompt, settings.search_provider, settings.max_tool_calls
        )
        cache = self.cache
        try:
            if cache is not None:
                hit = cache.get(key)
                if hit is not None:
                    return hit
            with self._throttle:
                answer = agent.ask(
                    prompt,
                    context,
                    model=model,
                    max_tokens=max_tokens,
                    settings=settings,
                    credentials=credentials,
                    client=client,
                )
            if cache is not None:
                cache.put(key, model, answer.text)
            return answer.text
        except WebtapError as exc:
            return f"ERROR: {exc.message}"
        except Exception as exc:  # a bug must become a value, not a failed query
            text = f"ERROR: {type(exc).__name__}: {exc}"
            for secret in credentials.secrets():
                text = text.replace(secret, "***")
            return text

    def _wait(self, futures: list[Future[str] | None], scope: Any, generation: int) -> None:
        rows = [future for future in futures if future is not None]
        if not rows:
            return
        task = self._progress.add(scope, len(rows))
        for future in rows:
            future.add_done_callback(lambda _, task=task: self._progress.advance(task))
        pending = set(rows)
        try:
            while pending:
                if self._generation != generation:
                    raise Interrupted("stps_ask_ai: the query was cancelled")
                _, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
        except KeyboardInterrupt:
            self.cancel()
            raise Interrupted("stps_ask_ai: interrupted (Ctrl-C)") from None
        finally:
            self._progress.check(task)

    # -- resources ------------------------------------------------------------------------

    def _pool(self) -> _Pool:
        if self._executor is None:
            self._executor = _Pool(self.concurrency)
        return self._executor

    def _client(self, api_key: str) -> Any:
        with self._client_lock:  # not self._lock: making the first client imports the SDK
            client = self._clients.get(api_key)
            if client is None:
                budgets, retries = self.settings.budgets, self.settings.max_retries
                client = agent.make_client(
                    api_key,
                    budgets=budgets,
                    max_retries=retries,
                    on_response=self._throttle.observe,
                )
                self._clients = {api_key: client}  # a new key replaces the old client
            return client

    def _memo(self, scope: Any) -> dict[tuple[Any, ...], Future[str]]:
        with self._lock:
            if scope is None:
                return {}  # no query identity: dedupe within the chunk only
            memo = self._memos.get(scope)
            if memo is None:
                memo = self._memos[scope] = {}
                while len(self._memos) > MEMO_QUERIES:
                    self._memos.popitem(last=False)
            return memo

    def cancel(self) -> None:
        """Stop the rows in flight: waiting rows are dropped, and the calls already running
        are abandoned to finish on their daemon threads (they never hold the process open)."""
        with self._lock:
            self._generation += 1
            executor, self._executor = self._executor, None
            self._memos.clear()
        if executor is not None:
            executor.shutdown()
        self._progress.stop()

    def close(self) -> None:
        self.cancel()
        if self.cache is not None:
            self.cache.close()
            self.cache = None

    # -- settings, as the SQL functions set them -----------------------------------------

    def set_key(self, name: str, value: str | None) -> str:
        remember([value])  # no later message or quote shows it, in any encoding
        self.keys.set(name, value)
        label = KEY_SOURCES[name].label
        return f"{label} set" if value and value.strip() else f"{label} cleared"

    def set_model(self, model: str | None) -> str:
        model = (model or "").strip()
        self.settings = replace(self.settings, model=model)
        return f"Model set to {self.get_model()}"

    def get_model(self) -> str:
        return self.settings.model or agent.default_model()

    def set_search_provider(self, provider: str | None) -> str:
        name = (provider or "").strip().lower()
        if name in ("", "auto"):
            self.settings = replace(self.settings, search_provider=None)
            return f"Search provider set to auto (in effect: {self.get_search_provider()})"
        if name not in SEARCH_PROVIDERS:
            return (
                f"ERROR: unknown search provider {provider!r}: use 'brave', 'searxng' or "
                "'google' (or NULL for automatic)"
            )
        self.settings = replace(self.settings, search_provider=name)
        if self.get_search_provider() == "none":
            needs = {
                "brave": "stps_set_brave_api_key",
                "searxng": "stps_set_searxng_url",
                "google": "stps_set_google_api_key and stps_set_google_cse_id",
            }[name]
            return f"Search provider set to {name} (no keys found yet: set them with {needs})"
        return f"Search provider set to {name}"

    def get_search_provider(self) -> str:
        provider = self.keys.resolve().search_provider(self.settings.search_provider)
        return provider or "none"

    def set_concurrency(self, value: int | None) -> str:
        try:
            concurrency = _check_concurrency(DEFAULT_CONCURRENCY if value is None else value)
        except ValueError as exc:
            return f"ERROR: {exc}"
        with self._lock:
            self.concurrency = concurrency
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(cancel=False)  # its rows finish; new rows use the new pool
        return f"Concurrency set to {concurrency}"

    def set_max_tool_calls(self, value: int | None) -> str:
        calls = agent.DEFAULT_MAX_TOOL_CALLS if value is None else value
        if not 0 <= calls <= agent.MAX_TOOL_CALLS:
            return (
                f"ERROR: max tool calls must be between 0 and {agent.MAX_TOOL_CALLS} (got {calls})"
            )
        self.settings = replace(self.settings, max_tool_calls=calls)
        return f"Max tool calls set to {calls}"

    def set_cache(self, path: str | None) -> str:
        old, self.cache = self.cache, None
        if old is not None:
            old.close()
        if path is None or not path.strip():
            return "Cache disabled"
        try:
            self.cache = AnswerCache(path.strip())
        except WebtapError as exc:
            return f"ERROR: {exc.message}"
        return f"Cache enabled: {self.cache.path} ({len(self.cache)} answers)"

    # -- DuckDB ---------------------------------------------------------------------------

    def register(self, connection: Any) -> SqlFunctions:
        """Create the ``stps_*`` functions on ``connection`` (again, if they exist)."""
        from duckdb.func import SPECIAL

        def scalar(name: str, function: Callable[..., Any], parameters: list[str], returns: str):
            _drop(connection, name)
            connection.create_function(
                name,
                _never_raise(function),
                parameters,
                returns,
                null_handling=SPECIAL,
                side_effects=True,
            )

        for name, key in KEY_SETTERS.items():
            scalar(name, functools.partial(self.set_key, key), ["VARCHAR"], "VARCHAR")
        scalar("stps_set_model", self.set_model, ["VARCHAR"], "VARCHAR")
        scalar("stps_get_model", self.get_model, [], "VARCHAR")
        scalar("stps_set_search_provider", self.set_search_provider, ["VARCHAR"], "VARCHAR")
        scalar("stps_get_search_provider", self.get_search_provider, [], "VARCHAR")
        scalar("stps_set_concurrency", self.set_concurrency, ["BIGINT"], "VARCHAR")
        scalar("stps_set_max_tool_calls", self.set_max_tool_calls, ["BIGINT"], "VARCHAR")
        scalar("stps_set_cache", self.set_cache, ["VARCHAR"], "VARCHAR")
        self._register_ask(connection)
        return self

    def _register_ask(self, connection: Any) -> None:
        from duckdb.func import ARROW, SPECIAL

        parameters = ["VARCHAR", "VARCHAR", "VARCHAR", "BIGINT", "UBIGINT"]
        _drop(connection, ASK_FUNCTION)
        try:
            import pyarrow  # noqa: F401

            connection.create_function(
                ASK_FUNCTION,
                self._arrow_chunk,
                parameters,
                "VARCHAR",
                type=ARROW,
                null_handling=SPECIAL,
                side_effects=True,
            )
        except ImportError:
            connection.create_function(
                ASK_FUNCTION,
                self._one_row,
                parameters,
                "VARCHAR",
                null_handling=SPECIAL,
                side_effects=True,
            )
        # DuckDB has no overloads for Python functions; a macro gives the optional arguments,
        # and txid_current() tells one query from the next for deduplication.
        call = f"{ASK_FUNCTION}(context::VARCHAR, prompt::VARCHAR, {{}}, {{}}, txid_current())"
        connection.execute(
            "CREATE OR REPLACE TEMP MACRO stps_ask_ai"
            f"(context, prompt) AS {call.format('NULL', 'NULL')}, "
            f"(context, prompt, model) AS {call.format('model::VARCHAR', 'NULL')}, "
            f"(context, prompt, model, max_tokens) AS "
            f"{call.format('model::VARCHAR', 'max_tokens::BIGINT')}"
        )

    def _arrow_chunk(self, contexts: Any, prompts: Any, models: Any, limits: Any, scopes: Any):
        import pyarrow as pa

        scope_values = scopes.to_pylist()
        rows = list(
            zip(
                contexts.to_pylist(),
                prompts.to_pylist(),
                models.to_pylist(),
                limits.to_pylist(),
                strict=True,
            )
        )
        answers = self.ask_many(rows, scope_values[0] if scope_values else None)
        return pa.array(answers, type=pa.string())

    def _one_row(self, context: Any, prompt: Any, model: Any, limit: Any, scope: Any) -> Any:
        return self.ask_many([(context, prompt, model, limit)], scope)[0]


ASK_FUNCTION = "webtap_ask_ai_batch"


def register(
    connection: Any, functions: SqlFunctions | None = None, **options: Any
) -> SqlFunctions:
    """Create the ``stps_*`` SQL functions on a DuckDB connection; returns their state.

    ``options`` go to :class:`SqlFunctions` (``keys``, ``settings``, ``concurrency``,
    ``cache``, ``progress``). Pass the same ``functions`` to several connections to share it.
    """
    return (functions or SqlFunctions(**options)).register(connection)


def _check_concurrency(value: int) -> int:
    if not 1 <= int(value) <= MAX_CONCURRENCY:
        raise ValueError(f"concurrency must be between 1 and {MAX_CONCURRENCY} (got {value})")
    return int(value)


def _drop(connection: Any, name: str) -> None:
    with contextlib.suppress(Exception):  # not registered yet
        connection.remove_function(name)


def _never_raise(function: Callable[..., str]) -> Callable[..., str]:
    @functools.wraps(function)  # DuckDB counts the parameters through __wrapped__
    def call(*args: Any) -> str:
        try:
            return function(*args)
        except WebtapError as exc:
            return f"ERROR: {redact(exc.message)}"
        except Exception as exc:
            return f"ERROR: {redact(f'{type(exc).__name__}: {exc}')}"

    return call


class _Pool:
    """A bounded pool of daemon threads, so that a cancelled query never holds the process
    open while its abandoned model calls run to their timeout."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._queue.put((future, function, args))
        with self._lock:
            if len(self._threads) < self.workers:
                thread = threading.Thread(
                    target=self._work, name=f"stps_ask_ai_{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
        return future

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            future, function, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(function(*args))
            except BaseException as exc:
                future.set_exception(exc)

    def shutdown(self, cancel: bool = True) -> None:
        """No more work; with ``cancel``, the waiting items are cancelled too."""
        if cancel:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
        with self._lock:
            for _ in self._threads:
                self._queue.put(None)


class _Throttle:
    """Fewer rows in flight when the Anthropic account's limit is near.

    Every response's ``anthropic-ratelimit-requests-remaining`` caps the rows that may start
    (never below one), and ``retry-after`` on a 429/529 holds new rows back until then; a
    response with room again lifts the cap back to the concurrency setting.
    """

    MAX_PAUSE = 60.0

    def __init__(self, concurrency: Callable[[], int]) -> None:
        self._concurrency = concurrency
        self._allowed: int | None = None  # None: the concurrency setting
        self._active = 0
        self._resume_at = 0.0
        self._cond = threading.Condition()

    def __enter__(self) -> None:
        with self._cond:
            while True:
                wait = self._resume_at - time.monotonic()
                allowed = self._allowed or self._concurrency()
                if wait <= 0 and self._active < allowed:
                    self._active += 1
                    return
                self._cond.wait(timeout=wait if wait > 0 else POLL)

    def __exit__(self, *exc: object) -> None:
        with self._cond:
            self._active -= 1
            self._cond.notify_all()

    def observe(self, response: Any) -> None:
        """The SDK's HTTP response hook: read the account's rate-limit headers."""
        headers = response.headers
        remaining = _header_number(headers.get("anthropic-ratelimit-requests-remaining"))
        retry_after = _header_number(headers.get("retry-after"))
        with self._cond:
            if retry_after is not None and response.status_code in (429, 529):
                pause = min(retry_after, self.MAX_PAUSE)
                self._resume_at = max(self._resume_at, time.monotonic() + pause)
            if remaining is not None:
                self._allowed = max(1, int(remaining)) if remaining < self._concurrency() else None
            self._cond.notify_all()

    @property
    def allowed(self) -> int:
        return self._allowed or self._concurrency()


def _header_number(value: str | None) -> float | None:
    try:
        number = float(value) if value is not None else None
    except ValueError:
        return None
    return number if number is not None and 0 <= number < 1e9 else None


class _Progress:
    """Rows done / total and rate on stderr (rich), for queries of more than one row.

    One task per query; the total grows as DuckDB hands over more chunks of it.
    """

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._lock = threading.Lock()
        self._progress: Any = None
        self._scope: Any = object()
        self._task: Any = None
        self._total = 0

    def add(self, scope: Any, rows: int) -> Any:
        """Count ``rows`` more for the query ``scope``; returns its task (None when off)."""
        if not self.enabled:
            return None
        with self._lock:
            if self._progress is None:
                self._progress = _make_progress()
            progress = self._progress
            if scope is None or scope != self._scope or self._task is None:
                if self._task is not None:
                    progress.remove_task(self._task)
                self._scope, self._total = scope, 0
                self._task = progress.add_task("stps_ask_ai", total=0)
            self._total += rows
            progress.update(self._task, total=self._total)
            if self._total > 1 and not progress.live.is_started:
                progress.start()
            return self._task

    def advance(self, task: Any) -> None:
        if task is not None:
            self._progress.advance(task)

    def check(self, task: Any) -> None:
        """Stop the display once every row known so far is answered."""
        with self._lock:
            if task is None or task != self._task:
                return
            progress = self._progress
            finished = any(t.id == task and t.finished for t in progress.tasks)
            if finished and progress.live.is_started:
                progress.stop()

    def stop(self) -> None:
        with self._lock:
            if self._progress is not None and self._progress.live.is_started:
                self._progress.stop()


def _make_progress() -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.text import Text

    from webtap.cli._output import err_console

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:.1f} rows/s" if speed else "", style="progress.data.speed")

    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("rows"),
        RateColumn(),
        TimeElapsedColumn(),
        console=err_console(),
        transient=True,
    )
    return progress
