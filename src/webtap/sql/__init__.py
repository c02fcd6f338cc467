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
query run again does not pay again. Progress goes to a :class:`ProgressReporter` the caller
passes (``webtap sql`` shows rows done, total and rate on a terminal).

Every failure is a value that starts with ``ERROR:``, never a failed query; NULL in, NULL out.
Without pyarrow the functions still work, one row at a time.

The modules, one concept each: :mod:`~webtap.sql.functions` (the functions and their state),
:mod:`~webtap.sql.dispatch` (a chunk of rows answered concurrently),
:mod:`~webtap.sql.pool` (the worker threads), :mod:`~webtap.sql.throttle` (the account's rate
limit), :mod:`~webtap.sql.cache` (the answer cache), :mod:`~webtap.sql.progress` (counting rows
for a reporter), :mod:`~webtap.sql.errors` (``ERROR:`` values, redacted),
:mod:`~webtap.sql.statement` (keys in SQL text).
"""

from __future__ import annotations

from webtap.sql.cache import AnswerCache, Question
from webtap.sql.errors import Interrupted, error_value
from webtap.sql.functions import (
    DEFAULT_CONCURRENCY,
    FUNCTIONS,
    MAX_CONCURRENCY,
    SqlFunctions,
    register,
    typed_function,
)
from webtap.sql.progress import ProgressReporter
from webtap.sql.statement import (
    KEY_SETTERS,
    drop_statement_echo,
    key_literals,
    mentions_key_setter,
    redact_keys,
)

__all__ = [
    "DEFAULT_CONCURRENCY",
    "FUNCTIONS",
    "KEY_SETTERS",
    "MAX_CONCURRENCY",
    "AnswerCache",
    "Interrupted",
    "ProgressReporter",
    "Question",
    "SqlFunctions",
    "drop_statement_echo",
    "error_value",
    "key_literals",
    "mentions_key_setter",
    "redact_keys",
    "register",
    "typed_function",
]
