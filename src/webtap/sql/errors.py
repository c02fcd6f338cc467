"""How a failure reaches SQL: one ``ERROR: ...`` value, never a failed query, never a key.

Every error text the functions return is made by :func:`error_value`, and so goes through
:func:`webtap.redact.redact` exactly once: the keys given, and every key webtap has resolved or
been given, are masked in any encoding.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from webtap.errors import WebtapError
from webtap.redact import redact

__all__ = ["Interrupted", "error_value", "never_raise"]


class Interrupted(Exception):
    """The query was cancelled (Ctrl-C or :meth:`SqlFunctions.cancel`)."""


def error_value(problem: BaseException | str, secrets: Iterable[str | None] = ()) -> str:
    """``ERROR:`` and what went wrong, redacted: a webtap error's message as it is; any other
    exception (a bug) named by its type, so that it still says something."""
    if isinstance(problem, WebtapError):
        text = problem.message
    elif isinstance(problem, BaseException):
        text = f"{type(problem).__name__}: {problem}"
    else:
        text = problem
    return f"ERROR: {redact(text, secrets)}"


def never_raise(function: Callable[..., str]) -> Callable[..., str]:
    """``function`` with any exception returned as an :func:`error_value`."""

    @functools.wraps(function)  # DuckDB counts the parameters through __wrapped__
    def call(*args: Any) -> str:
        try:
            return function(*args)
        except Exception as exc:  # a bug must become a value, not a failed query
            return error_value(exc)

    return call
