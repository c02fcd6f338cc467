"""The tool protocol shared by all three tools: schemas, request validation, envelopes.

A tool reads one JSON object on stdin and writes one JSON object on stdout. A request that the
tool could not run at all (empty stdin, not a JSON object) is a :class:`RequestError` and exits 1;
everything else exits 0 with ``success`` telling how it went (decision: Exit codes).

This module is imported on every tool call, so it must stay light: no httpx, no lxml, and no
jsonschema (the three fixed schemas have generated validators; the host's arbitrary tool schemas
bring their own jsonschema validator to :func:`explain_errors`).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

from webtap.errors import InvalidInput

__all__ = [
    "MAX_DEPTH",
    "MAX_EVENT_CONTENT",
    "MAX_INT_DIGITS",
    "RequestError",
    "describe_schema_error",
    "explain_errors",
    "format_path",
    "json_type",
    "load_schema",
    "loads_json",
    "parse_request",
    "schema_text",
    "validate_request",
    "whole_integers",
]

SCHEMA_DIR = os.path.join(os.path.dirname(__file__), "schemas")  # no pathlib: start-up


class RequestError(Exception):
    """The tool could not run the request at all: exit 1 with this one line on stderr."""


def schema_text(name: str) -> str:
    """The tool's ``--schema`` output, exactly as the spec gives it."""
    with open(os.path.join(SCHEMA_DIR, f"{name}.json"), encoding="utf-8") as file:
        return file.read()


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The tool's schema as a dict (``name``, ``description``, ``parameters``)."""
    return json.loads(schema_text(name))


# An event is a few lines for a person (setup steps, a quota reset); a tool that sends megabytes
# gets its first 64 KiB kept and shown, not a table that grows without bound.
MAX_EVENT_CONTENT = 64 * 1024

MAX_DEPTH = 64
"""How deeply JSON from outside may nest. Real requests, responses, schemas and provider bodies
stay far below; anything deeper would reach a recursive step later (``json.dumps``, ``repr``,
jsonschema's descent, which takes over ten frames a level) and raise RecursionError there."""


def loads_json(text: str | bytes) -> Any:
    """``json.loads`` for text from outside, made safe for everything downstream.

    Whatever is not plain JSON raises :class:`json.JSONDecodeError` (a ValueError), which every
    caller already turns into its clear error: nesting deeper than :data:`MAX_DEPTH` (the stdlib
    decoder recurses once per level, and later steps recurse too), and the ``NaN``/``Infinity``
    literals and numbers too large for a float that Python's decoder accepts but no JSON reader
    downstream does (the Anthropic API, MCP clients), and integers longer than
    :data:`MAX_INT_DIGITS` digits (Python refuses to convert those with a plain ValueError, and
    no real request, schema or reply holds one). A lone surrogate escape (``"\\ud800"``)
    becomes U+FFFD: it is valid JSON but not text, and would fail every later UTF-8 encode
    (stdout, SQLite, HTTP).
    """
    try:
        value = json.loads(
            text, parse_constant=_not_finite, parse_float=_finite_float, parse_int=_bounded_int
        )
    except RecursionError:
        raise _decode_error("nested too deeply", text, 0) from None
    except _IntTooLong as exc:
        where = _find(text, exc.start)
        message = f"an integer of {exc.digits} digits is too long (at most {MAX_INT_DIGITS})"
        raise _decode_error(message, text, max(where, 0)) from None
    except _NotFinite as exc:
        where = _find(text, exc.literal)
        message = f"{exc.literal} is not a JSON number (numbers must be finite)"
        raise _decode_error(message, text, max(where, 0)) from None
    depth = _depth(value)
    if depth > MAX_DEPTH:
        raise _decode_error(f"nested too deeply ({depth} levels, at most {MAX_DEPTH})", text, 0)
    if isinstance(text, bytes):
        escaped = _SURROGATE_ESCAPE_BYTES.search(text) is not None
    else:
        escaped = _SURROGATE_ESCAPE.search(text) is not None
    return _replace_surrogates(value) if escaped else value


def _find(text: str | bytes, needle: str) -> int:
    return text.find(needle.encode()) if isinstance(text, bytes) else text.find(needle)


class _NotFinite(ValueError):
    def __init__(self, literal: str) -> None:
        self.literal = literal


def _not_finite(literal: str) -> float:
    raise _NotFinite(literal)


MAX_INT_DIGITS = 1000
"""The longest integer literal accepted. Python converts at most 4,300 digits (and spends
quadratic time getting there); a thousand is far beyond any count, offset or ID."""


class _IntTooLong(ValueError):
    def __init__(self, literal: str) -> None:
        self.start = literal[:40]
        self.digits = len(literal.lstrip("-"))


def _bounded_int(literal: str) -> int:
    if len(literal) > MAX_INT_DIGITS and len(literal.lstrip("-")) > MAX_INT_DIGITS:
        raise _IntTooLong(literal)
    return int(literal)


def _finite_float(literal: str) -> float:
    number = float(literal)
    if math.isinf(number):
        raise _NotFinite(literal if len(literal) <= 40 else literal[:37] + "...")
    return number


def _decode_error(message: str, text: str | bytes, pos: int) -> json.JSONDecodeError:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return json.JSONDecodeError(message, text, pos)


def _depth(value: Any) -> int:
    """How deeply ``value`` nests (a scalar is 0, ``[]`` is 1); iterative, stops past the cap."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, dict | list):
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            break
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_ESCAPE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _replace_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (keys too) replaced by U+FFFD."""

    def clean(item: Any) -> Any:
        return _SURROGATE.sub("\ufffd", item) if isinstance(item, str) else item

    root = [clean(value)]
    stack = [root[0]]  # iterative: the document may be as deep as the decoder allows
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            items = [(clean(key), clean(item)) for key, item in node.items()]
            node.clear()
            node.update(items)
            stack.extend(item for _, item in items if isinstance(item, dict | list))
        elif isinstance(node, list):
            node[:] = [clean(item) for item in node]
            stack.extend(item for item in node if isinstance(item, dict | list))
    return root[0]


def parse_request(data: bytes | str) -> dict[str, Any]:
    """Decode stdin into a request object, or raise :class:`RequestError`."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RequestError(f"stdin is not UTF-8 text (byte {exc.start})") from None
    if not data.strip():
        raise RequestError("empty stdin: expected one JSON object with the request")
    try:
        request = loads_json(data)
    except json.JSONDecodeError as exc:
        raise RequestError(
            f"stdin is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    if not isinstance(request, dict):
        raise RequestError(f"stdin must be a JSON object, got {json_type(request)}")
    return request


def json_type(value: Any) -> str:
    """How a JSON value's kind reads in a message: "an array", "a string", "null", ..."""
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
        type(None): "null",
    }.get(type(value), type(value).__name__)


class _Generated(NamedTuple):
    """A validator generated from the tool's schema, with the two parts of jsonschema's
    validator that :func:`explain_errors` uses."""

    schema: dict[str, Any]
    iter_errors: Callable[[Any], list[Any]]


@cache
def _validator(name: str) -> _Generated:
    # The three schemas are fixed, so their validators are plain Python generated from them
    # (tools/gen_validators.py): importing jsonschema would cost a fresh tool process tens of
    # milliseconds. They check what Draft202012Validator would (tests/test_validators.py).
    from webtap._validators import VALIDATORS

    parameters = dict(load_schema(name)["parameters"])
    # The printed schema is the spec's, to the byte; unknown fields are still a model's mistake
    # that it must hear about (decision: Bad parameters), so validation is stricter than the schema
    # says.
    parameters["additionalProperties"] = False
    return _Generated(parameters, VALIDATORS[name])


def validate_request(name: str, request: dict[str, Any]) -> None:
    """Raise :class:`InvalidInput` naming the fields that break the tool's schema."""
    problem = explain_errors(_validator(name), request)
    if problem:
        raise InvalidInput(problem)


def whole_integers(schema: dict[str, Any], value: Any) -> Any:
    """``value`` with every number that ``schema`` types ``integer`` made an ``int``.

    Call it after validation: JSON Schema counts ``2.0`` as an integer, so a request with
    ``"limit": 2.0`` passes, and code that then slices or sends it (``count=3.0`` to a provider)
    must not see a float. The walk follows the schema, not the value, so it is as deep as the
    schema at most. Objects and arrays are copied, never changed in place.
    """
    if not isinstance(schema, dict):
        return value
    kinds = schema.get("type")
    if isinstance(value, float) and value.is_integer():
        if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds):
            return int(value)
        return value
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        properties = schema["properties"]
        return {key: whole_integers(properties.get(key), item) for key, item in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [whole_integers(schema["items"], item) for item in value]
    return value


def explain_errors(validator: Any, instance: Any) -> str | None:
    """Why ``instance`` breaks ``validator``'s schema, as one message for a model, or None.

    Missing and unknown fields come first, then wrong values by field name (deterministic);
    at most three are named.
    """
    try:
        errors = sorted(validator.iter_errors(instance), key=_error_order)
        if not errors:
            return None
        schema = validator.schema
        return "Invalid input: " + "; ".join(describe_schema_error(e, schema) for e in errors[:3])
    except RecursionError:  # arguments handed over in process, not read by loads_json
        return f"Invalid input: nested too deeply (at most {MAX_DEPTH} levels)"
    except ValueError:  # likewise: an integer past Python's 4,300-digit str() limit
        return f"Invalid input: an integer has more than {MAX_INT_DIGITS} digits"


def _error_order(error: Any) -> tuple[int, str]:
    first = {"required": 0, "additionalProperties": 1}.get(error.validator, 2)
    return (first, "/".join(str(p) for p in error.absolute_path))


_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$-]*$")


def format_path(parts: Any) -> str:
    """A JSON path as people write it, the one formatter for a tool's fields and a tool's
    schema: ``["blocked_domains", 0]`` -> ``blocked_domains[0]``, ``["a b"]`` -> ``["a b"]``."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.match(str(part)):
            text += f".{part}" if text else str(part)
        else:
            text += f"[{json.dumps(str(part))}]"
    return text


def describe_schema_error(error: Any, schema: dict[str, Any]) -> str:
    """A message for a model: which field, what rule, and what is allowed."""
    properties = schema.get("properties", {})
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return f"missing required field '{missing}'"
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(properties))
        allowed = ", ".join(properties)
        names = ", ".join(f"'{e}'" for e in extra)
        return f"unknown field {names} (allowed fields: {allowed})"
    field = format_path(error.absolute_path) or "request"
    try:
        value = json.dumps(error.instance, ensure_ascii=False)
    except ValueError:  # an in-process caller's integer past Python's 4,300-digit str() limit
        value = "an integer too long to show"
    if len(value) > 60:
        value = value[:57] + "..."
    rule = {
        "type": lambda: f"must be of type {error.validator_value}",
        "minimum": lambda: f"must be >= {error.validator_value}",
        "maximum": lambda: f"must be <= {error.validator_value}",
        "minLength": lambda: f"must be at least {error.validator_value} characters long",
        "maxLength": lambda: f"must be at most {error.validator_value} characters long",
        "enum": lambda: f"must be one of {json.dumps(error.validator_value)}",
        "pattern": lambda: f"must match the pattern {error.validator_value}",
    }.get(error.validator, lambda: error.message)()
    return f"field '{field}' {rule} (got {value})"
