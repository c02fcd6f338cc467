"""Keys in SQL text: the ``stps_set_*`` functions that take one, the literals a statement gives
them, and how a key is kept out of what DuckDB echoes back (column names, error quotes)."""

from __future__ import annotations

import re
from collections.abc import Iterable

import duckdb

from webtap.credentials import KEY_SOURCES
from webtap.redact import MIN_SECRET, redact

__all__ = [
    "KEY_SETTERS",
    "drop_statement_echo",
    "key_literals",
    "mentions_key_setter",
    "redact_keys",
]

# The functions that take a key, and the key each sets (from the key table).
KEY_SETTERS = {source.setter.partition("(")[0]: name for name, source in KEY_SOURCES.items()}
_SETTER_NAME = re.compile("|".join(KEY_SETTERS), re.IGNORECASE)


def redact_keys(text: str, keys: Iterable[str] = ()) -> str:
    """``text`` with each of ``keys``, and every key webtap knows, masked in any encoding by as
    many ``*`` (so that an error's ``^`` still points right); see :mod:`webtap.redact`.

    DuckDB names a result column after its expression and quotes the query in its errors, so
    ``SELECT stps_set_api_key('sk-ant-...')`` would print the key in a header or an error:
    :func:`key_literals` finds such keys first.
    """
    keys = [key for key in keys if len(key) >= MIN_SECRET]
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
