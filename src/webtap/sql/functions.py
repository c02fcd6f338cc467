"""The ``stps_*`` SQL functions and the state behind them: keys, model, settings, cache.

:class:`SqlFunctions` holds the state and creates the functions on DuckDB connections; the
rows of ``stps_ask_ai`` are answered by its :class:`~webtap.sql.dispatch.Dispatcher`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from duckdb.func import ARROW, SPECIAL

from webtap import agent, answer_schema
from webtap.credentials import KEY_SOURCES, Keys
from webtap.errors import WebtapError
from webtap.fetch.render import keep_browser
from webtap.providers import PROVIDERS
from webtap.redact import remember
from webtap.sql.cache import AnswerCache, Question
from webtap.sql.dispatch import Dispatcher, ask_model, failed_value
from webtap.sql.errors import error_value, never_raise
from webtap.sql.progress import ProgressReporter
from webtap.sql.statement import KEY_SETTERS

__all__ = [
    "ASK_FUNCTION",
    "DEFAULT_CONCURRENCY",
    "FUNCTIONS",
    "MAX_CONCURRENCY",
    "Row",
    "SqlFunctions",
    "register",
]

# Rows in flight at once. The providers are guarded by the shared rate budgets and the model by
# the account's own rate-limit headers (see Throttle), so the default need not be timid.
DEFAULT_CONCURRENCY = 32
MAX_CONCURRENCY = 64

Row = tuple[str | None, str | None, str | None, int | None]
JsonRow = tuple[str | None, str | None, str | None, str | None]  # context, prompt, schema, model
_Asked = tuple[str | None, str | None, str | None, int | None, str | None]

# name -> (what it does, for docs and --help)
FUNCTIONS = {
    "stps_ask_ai(context, prompt [, model] [, max_tokens])": "the model's answer, or ERROR: ...",
    "stps_ask_ai_cited(context, prompt [, model] [, max_tokens])": "the answer with its sources: "
    "STRUCT(answer, citations[]: url, title, quote, verified)",
    "stps_ask_ai_json(context, prompt, schema [, model])": "JSON that fits schema (a JSON Schema "
    "or a DuckDB type; cast it: ::STRUCT(...)), NULL when the row failed",
    "stps_ask_ai_json_error(context, prompt, schema [, model])": "why that row is NULL "
    "(ERROR: ...), NULL when it succeeded",
    "stps_ask_ai_json_sources(context, prompt, schema [, model])": "each field's quote and "
    "whether it stands in what was read, as JSON",
    **{source.setter: source.setter_help for source in KEY_SOURCES.values()},
    "stps_set_model(model)": "the default model (NULL restores the default)",
    "stps_get_model()": "the default model",
    f"stps_set_search_provider({'|'.join(repr(name) for name in PROVIDERS)})": "which search "
    "the model gets (NULL: the first set up, in that order)",
    "stps_get_search_provider()": f"the search provider in effect: {', '.join(PROVIDERS)} or none",
    "stps_set_concurrency(n)": f"model calls at once, 1-64 (default {DEFAULT_CONCURRENCY})",
    "stps_set_cache(path)": "keep answers in a SQLite file (NULL disables the cache)",
    "stps_set_max_tool_calls(n)": "tool calls per question, 0-20 (default 1)",
}


class SqlFunctions:
    """The state behind the SQL functions of one or more connections: keys, model, pool, cache.

    ``ask_many`` is the batch entry point (rows in, answers out) that ``stps_ask_ai`` calls
    with each chunk; Python code may call it directly. ``progress`` is told how a query's rows
    advance (``webtap sql`` passes a rich bar; None or False: no one is told).
    """

    def __init__(
        self,
        keys: Keys | None = None,
        *,
        settings: agent.AskSettings = agent.DEFAULT_SETTINGS,
        concurrency: int = DEFAULT_CONCURRENCY,
        cache: str | Path | None = None,
        progress: ProgressReporter | bool | None = None,
    ) -> None:
        if progress is True:
            raise TypeError(
                "progress=True is no longer supported: pass a ProgressReporter "
                "(update(done, total) and end()), or None"
            )
        self.keys = keys or Keys()
        self.settings = settings
        self.concurrency = _check_concurrency(concurrency)
        self.cache = AnswerCache(cache) if cache else None
        self._client_lock = threading.Lock()
        self._clients: dict[tuple[str, str, str | None], Any] = {}
        self._rows = Dispatcher(lambda: self.concurrency, progress or None)
        # The questions' fetches render pages in one browser, kept until close().
        self._browser = keep_browser()

    # -- the batch ------------------------------------------------------------------------

    def ask_many(
        self, rows: Sequence[Row], scope: Any = None, *, cited: bool = False
    ) -> list[str | None]:
        """Answer each ``(context, prompt, model, max_tokens)``; NULL context or prompt → None.

        Rows with the same ``scope`` (one per query) share answers to identical questions.
        ``cited``: each answer is the JSON ``stps_ask_ai_cited`` gives (the answer and its
        checked citations). Raises :class:`~webtap.sql.Interrupted` when cancelled; never
        raises for a row's failure.
        """
        kind = "cited" if cited else ""
        return self._ask([(c, p, m, n, None) for c, p, m, n in rows], scope, kind)

    def ask_json_many(self, rows: Sequence[JsonRow], scope: Any = None) -> list[str | None]:
        """Answer each ``(context, prompt, schema, model)`` with data that fits ``schema`` (a
        JSON Schema's text or a DuckDB type): each row's JSON ``{"value", "sources",
        "error"}``, the value null and the error said when it failed. NULL context, prompt or
        schema → None."""
        return self._ask([(c, p, m, None, s or None) for c, p, s, m in rows], scope, "json")

    def _ask(self, rows: Sequence[_Asked], scope: Any, kind: str) -> list[str | None]:
        credentials = self.keys.resolve()
        absent = [
            c is None or p is None or (kind == "json" and s is None) for c, p, _, _, s in rows
        ]
        # Resolved once for the chunk; "none" keeps a chosen provider without keys from
        # falling back to the other one.
        provider = credentials.search_provider(self.settings.search_provider) or "none"
        settings = replace(self.settings, search_provider=provider)
        model = settings.model or agent.default_model()
        # Each model named in the chunk (a row may name its own), by its full name: its
        # client, or the error that says why there is none.
        names: dict[str, str] = {}
        for (_, _, row_model, _, _), gone in zip(rows, absent, strict=True):
            if not gone:
                names.setdefault(row_model or model, _full_name(row_model or model))
        clients = {name: self._client_for(name, credentials) for name in set(names.values())}
        schemas = _schemas(
            {s for (*_, s), gone in zip(rows, absent, strict=True) if not gone and s}
        )
        questions: list[Question | None] = []
        for (context, prompt, row_model, max_tokens, schema), gone in zip(
            rows, absent, strict=True
        ):
            shape = schemas.get(schema) if schema else ""
            if gone or not isinstance(shape, str):
                questions.append(None)
                continue
            questions.append(
                Question(
                    str(context),
                    str(prompt),
                    names[row_model or model],
                    settings.max_tokens if max_tokens is None else int(max_tokens),
                    provider,
                    settings.max_tool_calls,
                    kind,
                    shape,
                    _address(clients[names[row_model or model]]),
                )
            )
        ask = functools.partial(
            ask_model,
            settings=settings,
            credentials=credentials,
            clients=clients,  # made here once, not by every thread
            cache=self.cache,
            throttle=self._rows.throttle,
        )
        answers = self._rows.answer(questions, scope, ask)
        # A row whose schema could not be read is its own error, asked of no model.
        for index, ((*_, schema), gone) in enumerate(zip(rows, absent, strict=True)):
            problem = schemas.get(schema) if schema and not gone else None
            if isinstance(problem, WebtapError):
                answers[index] = failed_value(kind, error_value(problem))
        return answers

    def _client_for(self, name: str, credentials: Any) -> Any:
        """The client of model ``name`` (shared by every row that names it), or the
        :class:`WebtapError` that says why there is none (no key, an unknown provider)."""
        try:
            where = agent.endpoint(agent.parse_model(name), credentials)
        except WebtapError as exc:
            return exc
        spot = (where.provider.name, where.base_url, where.key)
        with self._client_lock:  # making the first client imports the SDK
            client = self._clients.get(spot)
            if client is None:
                client = agent.make_client(
                    where,
                    time_limits=self.settings.time_limits,
                    on_response=self._rows.throttle.observe,
                )
                # A new key replaces the old client of its provider.
                self._clients = {
                    known: made for known, made in self._clients.items() if known[0] != spot[0]
                }
                self._clients[spot] = client
            return _Client(client, where)

    def cancel(self) -> None:
        """Stop the rows in flight: waiting rows are dropped, and the calls already running
        are abandoned to finish on their daemon threads (they never hold the process open)."""
        self._rows.cancel()

    def close(self) -> None:
        self.cancel()
        self._browser.close()
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
        if name not in PROVIDERS:
            names = [repr(known) for known in PROVIDERS]
            return error_value(
                f"unknown search provider {provider!r}: use {', '.join(names[:-1])} or "
                f"{names[-1]} (or NULL for automatic)"
            )
        self.settings = replace(self.settings, search_provider=name)
        if self.get_search_provider() == "none":
            keys = PROVIDERS[name].keys.values()
            needs = " and ".join(key.setter.partition("(")[0] for key in keys)
            return f"Search provider set to {name} (no keys found yet: set them with {needs})"
        return f"Search provider set to {name}"

    def get_search_provider(self) -> str:
        provider = self.keys.resolve().search_provider(self.settings.search_provider)
        return provider or "none"

    def set_concurrency(self, value: int | None) -> str:
        try:
            concurrency = _check_concurrency(DEFAULT_CONCURRENCY if value is None else value)
        except ValueError as exc:
            return error_value(str(exc))
        self.concurrency = concurrency
        self._rows.resize()  # its rows finish; new rows use a new pool
        return f"Concurrency set to {concurrency}"

    def set_max_tool_calls(self, value: int | None) -> str:
        calls = agent.DEFAULT_MAX_TOOL_CALLS if value is None else value
        if not 0 <= calls <= agent.MAX_TOOL_CALLS:
            return error_value(
                f"max tool calls must be between 0 and {agent.MAX_TOOL_CALLS} (got {calls})"
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
            return error_value(exc)
        return f"Cache enabled: {self.cache.path} ({len(self.cache)} answers)"

    # -- DuckDB ---------------------------------------------------------------------------

    def register(self, connection: Any) -> SqlFunctions:
        """Create the ``stps_*`` functions on ``connection`` (again, if they exist)."""

        def scalar(name: str, function: Callable[..., Any], parameters: list[str], returns: str):
            _drop(connection, name)
            connection.create_function(
                name,
                never_raise(function),
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
        self._register_batch(connection, ASK_FUNCTION, cited=False)
        self._register_batch(connection, CITED_FUNCTION, cited=True)
        with contextlib.suppress(ImportError):  # typed answers need pyarrow's batches
            self._register_json(connection)
        # DuckDB has no overloads for Python functions; a macro gives the optional arguments,
        # and txid_current() tells one query from the next for deduplication.
        for macro, function, wrap in (
            ("stps_ask_ai", ASK_FUNCTION, "{}"),
            ("stps_ask_ai_cited", CITED_FUNCTION, f"CAST(CAST({{}} AS JSON) AS {CITED_TYPE})"),
        ):
            call = wrap.format(
                f"{function}(context::VARCHAR, prompt::VARCHAR, {{}}, {{}}, txid_current())"
            )
            connection.execute(
                f"CREATE OR REPLACE TEMP MACRO {macro}"
                f"(context, prompt) AS {call.format('NULL', 'NULL')}, "
                f"(context, prompt, model) AS {call.format('model::VARCHAR', 'NULL')}, "
                f"(context, prompt, model, max_tokens) AS "
                f"{call.format('model::VARCHAR', 'max_tokens::BIGINT')}"
            )

    def _register_json(self, connection: Any) -> None:
        """``stps_ask_ai_json`` and its companions: one batch function gives each row's
        ``value``, ``sources`` or ``error``; the three share one model call per row (the
        dispatcher asks identical questions of one query once)."""
        _drop(connection, JSON_FUNCTION)

        def chunk(
            contexts: Any, prompts: Any, schemas: Any, models: Any, parts: Any, scopes: Any
        ) -> Any:
            import pyarrow as pa  # registered only when it could be imported (_register_ask)

            rows = list(
                zip(
                    contexts.to_pylist(),
                    prompts.to_pylist(),
                    schemas.to_pylist(),
                    models.to_pylist(),
                    strict=True,
                )
            )
            scope_values, wanted = scopes.to_pylist(), parts.to_pylist()
            answers = self.ask_json_many(rows, scope_values[0] if scope_values else None)
            return pa.array(
                [_part(answer, part) for answer, part in zip(answers, wanted, strict=True)],
                type=pa.string(),
            )

        connection.create_function(
            JSON_FUNCTION,
            chunk,
            ["VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "UBIGINT"],
            "VARCHAR",
            type=ARROW,
            null_handling=SPECIAL,
            side_effects=True,
        )
        for macro, part, wrap in (
            ("stps_ask_ai_json", "value", "CAST({} AS JSON)"),
            ("stps_ask_ai_json_sources", "sources", "CAST({} AS JSON)"),
            ("stps_ask_ai_json_error", "error", "{}"),
        ):
            call = wrap.format(
                f"{JSON_FUNCTION}(context::VARCHAR, prompt::VARCHAR, schema::VARCHAR, {{}}, "
                f"'{part}', txid_current())"
            )
            connection.execute(
                f"CREATE OR REPLACE TEMP MACRO {macro}"
                f"(context, prompt, schema) AS {call.format('NULL')}, "
                f"(context, prompt, schema, model) AS {call.format('model::VARCHAR')}"
            )

    def _register_batch(self, connection: Any, name: str, *, cited: bool) -> None:
        parameters = ["VARCHAR", "VARCHAR", "VARCHAR", "BIGINT", "UBIGINT"]
        _drop(connection, name)
        try:
            # Arrow UDFs take whole chunks of rows; without pyarrow, rows come one by one.
            import pyarrow  # noqa: F401

            def chunk(contexts: Any, prompts: Any, models: Any, limits: Any, scopes: Any) -> Any:
                return self._arrow_chunk(contexts, prompts, models, limits, scopes, cited=cited)

            connection.create_function(
                name,
                chunk,
                parameters,
                "VARCHAR",
                type=ARROW,
                null_handling=SPECIAL,
                side_effects=True,
            )
        except ImportError:

            def row(context: Any, prompt: Any, model: Any, limit: Any, scope: Any) -> Any:
                return self._one_row(context, prompt, model, limit, scope, cited=cited)

            connection.create_function(
                name,
                row,
                parameters,
                "VARCHAR",
                null_handling=SPECIAL,
                side_effects=True,
            )

    def _arrow_chunk(
        self,
        contexts: Any,
        prompts: Any,
        models: Any,
        limits: Any,
        scopes: Any,
        *,
        cited: bool = False,
    ) -> Any:
        import pyarrow as pa  # registered only when it could be imported (_register_ask)

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
        answers = self.ask_many(rows, scope_values[0] if scope_values else None, cited=cited)
        return pa.array(answers, type=pa.string())

    def _one_row(
        self, context: Any, prompt: Any, model: Any, limit: Any, scope: Any, *, cited: bool = False
    ) -> Any:
        return self.ask_many([(context, prompt, model, limit)], scope, cited=cited)[0]


ASK_FUNCTION = "webtap_ask_ai_batch"
CITED_FUNCTION = "webtap_ask_ai_cited_batch"
JSON_FUNCTION = "webtap_ask_ai_json_batch"
# What stps_ask_ai_cited returns (issue 28).
CITED_TYPE = (
    "STRUCT(answer VARCHAR, citations STRUCT(url VARCHAR, title VARCHAR, quote VARCHAR, "
    "verified BOOLEAN)[])"
)


def register(
    connection: Any, functions: SqlFunctions | None = None, **options: Any
) -> SqlFunctions:
    """Create the ``stps_*`` SQL functions on a DuckDB connection; returns their state.

    ``options`` go to :class:`SqlFunctions` (``keys``, ``settings``, ``concurrency``,
    ``cache``, ``progress``). Pass the same ``functions`` to several connections to share it.
    """
    return (functions or SqlFunctions(**options)).register(connection)


class _Client(NamedTuple):
    """A model's client, and where it calls (its address names its answers in the cache)."""

    client: Any
    where: Any


def _full_name(name: str) -> str:
    """``name`` as the cache and the clients know it: ``provider:model``, an Anthropic model's
    bare (as in cache files written before there were others); as given when it is no model."""
    try:
        return agent.parse_model(name).spec
    except WebtapError:
        return name


def _address(client: Any) -> str:
    """An OpenAI-compatible server's address: two servers serve different models under one
    name, so it is part of what an answer is cached under ("" for Anthropic, as before)."""
    if not isinstance(client, _Client) or client.where.provider.name == "anthropic":
        return ""
    return str(client.where.base_url)


def typed_function(
    connection: Any, name: str, prompt: str, schema: str | dict[str, Any], model: str | None = None
) -> str:
    """Declare ``name(context)`` on ``connection``: ``stps_ask_ai_json(context, prompt, schema)``
    cast to the schema's DuckDB type, so that ``SELECT name(x) FROM t`` gives a typed STRUCT
    (NULL for a row that failed: ``stps_ask_ai_json_error`` with the same arguments says why).
    Returns the type."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"{name!r} is not a plain SQL name (letters, digits, underscores)")
    shape = answer_schema.parse(schema)
    kind = answer_schema.to_duckdb(shape)
    text = json.dumps(shape)
    model_sql = "NULL" if model is None else _literal(model)
    connection.execute(
        f"CREATE OR REPLACE TEMP MACRO {name}(context) AS CAST(stps_ask_ai_json(context, "
        f"{_literal(prompt)}, {_literal(text)}, {model_sql}) AS {kind})"
    )
    return kind


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _part(answer: str | None, part: str) -> str | None:
    """One part of a typed row (``value``, ``sources`` as JSON text, ``error``): None where
    the row is NULL, or the part is (a failed row has no value; a good one no error)."""
    if answer is None:
        return None
    found = json.loads(answer).get(part)
    if found is None or (part == "sources" and not found):
        return None
    return (
        found
        if isinstance(found, str) and part == "error"
        else json.dumps(found, ensure_ascii=False)
    )


def _schemas(given: set[str]) -> dict[str, str | WebtapError]:
    """Each distinct schema of a chunk read once: its canonical JSON text, or why it is not a
    schema."""
    read: dict[str, str | WebtapError] = {}
    for text in given:
        try:
            read[text] = json.dumps(answer_schema.parse(text), sort_keys=True)
        except WebtapError as exc:
            read[text] = exc
    return read


def _check_concurrency(value: int) -> int:
    if not 1 <= int(value) <= MAX_CONCURRENCY:
        raise ValueError(f"concurrency must be between 1 and {MAX_CONCURRENCY} (got {value})")
    return int(value)


def _drop(connection: Any, name: str) -> None:
    with contextlib.suppress(Exception):  # not registered yet
        connection.remove_function(name)
